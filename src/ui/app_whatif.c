/* ui/app_whatif: parameter overrides — the what-if box changes a lesson's parameters and registers per thread, and the numbers follow. */
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"

static int lesson_has_param(const lesson *l, const char *name)
{
	for (int i = 0; i < l->nparams; i++)
		if (!strcmp(l->params[i].name, name))
			return 1;
	return 0;
}

void app_whatif_filter(ui_app *a, const expr_env *from)
{
	const lesson *l = ui_app_lesson(a);
	expr_env keep = {0};
	for (int i = 0; from && i < from->n; i++)
		if (lesson_has_param(l, from->v[i].name))
			expr_set(&keep, from->v[i].name, from->v[i].value);
	a->whatif = keep;
}

/* t: the box over the lesson pane, with the numbers in view. */
void app_act_whatif(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->mode = UI_MODE_WHATIF;
	if (a->layout.tabbed)
		a->side = UI_PANE_NUMBERS;
}

/* The what-if rows: the lesson's params, then registers per thread. */
static int whatif_rows(const ui_app *a)
{
	return ui_app_lesson(a)->nparams + 1;
}

void app_act_whatif_move(ui_app *a, ui_action act, int key)
{
	(void)key;
	int rows = whatif_rows(a);
	a->whatif_sel = (a->whatif_sel + (act == UI_ACT_WHATIF_NEXT ? 1 : rows - 1)) % rows;
}

/* Forgets the override of one parameter. */
static void drop(ui_app *a, const char *name)
{
	expr_env keep = {0};
	for (int i = 0; i < a->whatif.n; i++)
		if (strcmp(a->whatif.v[i].name, name))
			expr_set(&keep, a->whatif.v[i].name, a->whatif.v[i].value);
	a->whatif = keep;
}

/* Doubles or halves the selected row; a value the model refuses is not kept. */
void app_act_whatif_change(ui_app *a, ui_action act, int key)
{
	(void)key;
	int dir = act == UI_ACT_WHATIF_DOUBLE ? 1 : -1;
	const lesson *l = ui_app_lesson(a);
	int s = a->whatif_sel;
	if (s == l->nparams) {
		int had = a->regs_override;
		a->regs_override = 0; /* the kernel's own count, to step from and to compare with */
		app_recompute(a);
		int base = a->model_ok ? a->model.regs_per_thread : 32;
		int regs = (had > 0 ? had : base) + dir * 8;
		regs = regs < 8 ? 8 : regs > 255 ? 255 : regs;
		a->regs_override = regs == base ? 0 : regs; /* back at its own count: no what-if left to name */
		app_recompute(a);
		return;
	}
	long long v;
	if (!expr_get(&a->whatif, l->params[s].name, &v))
		v = l->params[s].value;
	long long nv = dir > 0 ? v * 2 : v / 2, lo, hi;
	model_param_range(l->params[s].name, &lo, &hi); /* the one range check's bounds */
	if (nv < lo || nv > hi || nv == v) {
		app_say(a, 1, "%s stays within %lld..%lld", l->params[s].name, lo, hi);
		return;
	}
	expr_env before = a->whatif;
	expr_set(&a->whatif, l->params[s].name, nv);
	if (nv == l->params[s].value) /* back at the lesson's value: no what-if left to name */
		drop(a, l->params[s].name);
	app_recompute(a);
	if (a->model_ok) {
		a->msg[0] = '\0';
		return;
	}
	/* A value the lesson cannot take: say why and keep the last good one. */
	char why[sizeof a->model_err];
	util_strlcpy(why, a->model_err, sizeof why);
	a->whatif = before;
	app_recompute(a);
	char named[64];
	snprintf(named, sizeof named, "%s=%lld", l->params[s].name, nv);
	if (!strncmp(why, named, strlen(named))) /* the model names the values already */
		app_say(a, 1, "%s", why);
	else
		app_say(a, 1, "%s: %s", named, why);
}

/* Back to the lesson's value (or the JIT's registers). */
void app_act_whatif_reset(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const lesson *l = ui_app_lesson(a);
	if (a->whatif_sel == l->nparams) {
		a->regs_override = 0;
	} else {
		drop(a, l->params[a->whatif_sel].name);
	}
	app_recompute(a);
}
