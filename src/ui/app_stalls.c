/* ui/app_stalls: W — the stall model's column on or off, when a new result is wanted (it follows edits, what-ifs, size and GPU), and the result the loop brings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"
#include "ui/ptx_stalls.h"

/* The registers a thread the model assumes: a what-if's, the last run's JIT, the lesson's recorded value
 * (as `emulate N --stalls` does). */
static int stall_regs(const ui_app *a)
{
	const ui_run_slot *s = &a->slot[a->lesson];
	if (a->regs_override > 0)
		return a->regs_override;
	if (s->have && s->res.regs > 0 && (s->res.status == RUN_OK || s->res.status == RUN_WRONG))
		return s->res.regs;
	/* a student's own kernel in the lesson's place: not the lesson's recorded value (exec/stalls.h assumes) */
	return a->own == a->lesson ? 0 : ui_app_lesson(a)->regs;
}

void app_want_stalls(ui_app *a)
{
	ui_stalls *st = &a->stalls;
	if (!st->view || !ui_app_lesson(a)->ptx_path[0]) {
		st->state = UI_STALLS_NONE; /* the loop stops a model still running */
		st->key[0] = '\0';
		return;
	}
	char key[sizeof st->key];
	app_estimate_key(a, key, sizeof key - 16);
	snprintf(key + strlen(key), 16, " r%d", stall_regs(a));
	if (strcmp(key, st->key) || st->state == UI_STALLS_NONE) {
		util_strlcpy(st->key, key, sizeof st->key);
		st->state = UI_STALLS_WANT;
	}
}

int ui_app_stalls_request(const ui_app *a, run_request *rq, int *regs, char *err, int errlen)
{
	*regs = stall_regs(a);
	return ui_app_estimate_request(a, rq, err, errlen);
}

void ui_app_stalls_done(ui_app *a, const exec_stalls_brief *b)
{
	ui_stalls *st = &a->stalls;
	if (st->state != UI_STALLS_BUSY) /* turned off, or asked again since: not for what is on screen */
		return;
	if (b->rc < 0) {
		st->state = UI_STALLS_FAILED;
		util_strlcpy(st->why, b->err, sizeof st->why);
		return;
	}
	if (!st->b)
		st->b = xmalloc(sizeof *st->b);
	memcpy(st->b, b, sizeof *b);
	st->state = UI_STALLS_DONE;
}

void app_act_stalls(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	ui_stalls *st = &a->stalls;
	if (!ui_app_lesson(a)->ptx_path[0]) {
		app_say(a, 0, "This lesson has no kernel: no stalls to model.");
		return;
	}
	st->view = !st->view;
	app_want_stalls(a);
	if (!st->view) {
		app_say(a, 0, "Stall column off (%s: on).", ui_key_name(UI_MODE_NORMAL, UI_ACT_STALLS));
		return;
	}
	app_say(a, 0, "Stalls: each line's top reason and its share of the warp cycles; the header row names the reasons.");
}
