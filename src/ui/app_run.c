/* ui/app_run: runs through the worker — the request for the current lesson, its deadline, what the run pane says while it runs, and its result; and B, the shipped kernel's run beside an edit's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/linediff.h"
#include "base/util.h"
#include "run/fields.h"
#include "run/launch.h"
#include "ui/app_internal.h"
#include "ui/ptx_counts.h"

/* The request for the current lesson at M, N, K: the student's copy when edited. */
static int lesson_request(const ui_app *a, long long M, long long N, long long K, run_request *rq, char *err,
			  int errlen)
{
	if (launch_request_for_lesson(ui_app_lesson(a), &a->whatif, M, N, K, rq, err, errlen) < 0)
		return -1;
	const ui_ptx *p = &a->ptx[a->lesson];
	if (p->edited)
		util_strlcpy(rq->ptx_path, p->path, sizeof rq->ptx_path);
	return 0;
}

/* The request at the pane's size, or the nearest one the kernel takes. */
static int pane_size_request(const ui_app *a, run_request *rq, char *err, int errlen)
{
	const lesson *l = ui_app_lesson(a);
	expr_env env;
	char why[256];
	long long s[3] = {a->M, a->N, a->K};
	lesson_env(l, &a->whatif, s[0], s[1], s[2], &env);
	if (lesson_check_size(l, &env, why, sizeof why) < 0 && lesson_nearest_size(l, &env, s, err, errlen) < 0)
		return -1;
	return lesson_request(a, s[0], s[1], s[2], rq, err, errlen);
}

/* The tutor's inputs to the request's deadline: PTXTUTOR_DEADLINE_S, as the CLI's --timeout. */
static void target(const ui_app *a, run_request *rq, run_backend b, run_kind k)
{
	launch_target(rq, b, k, &(launch_limits){.timeout_s = a->deadline_s});
}

int ui_app_estimate_request(const ui_app *a, run_request *rq, char *err, int errlen)
{
	if (pane_size_request(a, rq, err, errlen) < 0)
		return -1;
	target(a, rq, RUN_BACKEND_EMU, RUN_KIND_RUN);
	return 0;
}

/* An emulation of the current lesson at the first of LAUNCH_EMU_SIZES it takes. */
static int emulation_request(const ui_app *a, run_request *rq, char *err, int errlen)
{
	long long e = launch_emulation_size(ui_app_lesson(a), &a->whatif);
	if (!e) {
		snprintf(err, (size_t)errlen, "no size of 128, 256 or 512 cubed suits this lesson for emulation");
		return -1;
	}
	if (lesson_request(a, e, e, e, rq, err, errlen) < 0)
		return -1;
	target(a, rq, RUN_BACKEND_EMU, RUN_KIND_RUN);
	return 0;
}

int ui_app_request(const ui_app *a, run_request *rq, char *err, int errlen)
{
	if (a->offline)
		return emulation_request(a, rq, err, errlen);
	/* A size the kernel does not take runs at the nearest one it does
	 * (ui_app_run_started says which). */
	if (pane_size_request(a, rq, err, errlen) < 0)
		return -1;
	target(a, rq, RUN_BACKEND_GPU, a->run_check ? RUN_KIND_JIT_ONLY : RUN_KIND_RUN);
	return 0;
}

/* ---- B: your lines beside ours ---- */

/* The per-line counts of the current lesson's edit, which the baseline stands beside; NULL: none. */
static const run_result *edit_counts(const ui_app *a)
{
	return a->ptx[a->lesson].edited ? ui_ptx_counts_of(a) : NULL;
}

/* Asks the loop for the shipped kernel's run (through the per-line job,
 * once it is free) when B is on and the edit has counts to stand beside. */
static void want_baseline(ui_app *a)
{
	ui_baseline *b = &a->base;
	if (!b->view || !edit_counts(a) || a->lines_want >= 0 || (b->state == 1 && b->lesson == a->lesson))
		return;
	b->want = 1;
	b->state = 2;
	b->lesson = a->lesson;
	a->lines_want = a->lesson;
}

/* The shipped kernel at the size the edit's counts were made at, on the emulator. */
static int baseline_request(const ui_app *a, run_request *rq, char *err, int errlen)
{
	const run_result *r = edit_counts(a);
	if (!r) {
		snprintf(err, (size_t)errlen, "no run of your edit to stand beside");
		return -1;
	}
	if (launch_request_for_lesson(ui_app_lesson(a), &a->whatif, r->emu.M, r->emu.N, r->emu.K, rq, err, errlen) < 0)
		return -1;
	target(a, rq, RUN_BACKEND_EMU, RUN_KIND_RUN);
	return 0;
}

/* The shipped kernel's run: its lines matched to the edit's (by content, not number). */
static void baseline_done(ui_app *a, const run_result *r)
{
	ui_baseline *b = &a->base;
	b->job = 0;
	if (b->want) /* asked again since: the next run is the one */
		return;
	if (b->state != 2 || b->lesson != a->lesson || !edit_counts(a)) {
		b->state = 0; /* a newer run, or another lesson: asked again when wanted */
		want_baseline(a);
		return;
	}
	b->res = *r;
	if (!((r->status == RUN_OK || r->status == RUN_WRONG) && r->nlines)) {
		b->state = -1;
		app_say(a, 1, "The shipped kernel did not run beside yours: %s", r->msg);
		return;
	}
	char path[RUN_PATH], rerr[256];
	util_path(path, sizeof path, ui_app_lesson(a)->ptx_path);
	char *text = util_read_file(path, NULL, rerr, sizeof rerr);
	linediff d;
	linediff_match(&d, a->ptx[a->lesson].doc.text, text ? text : "");
	memset(b->of, 0, sizeof b->of);
	for (int i = 1; i <= d.na && i <= UI_BASE_LINES; i++)
		b->of[i - 1] = d.a_to_b[i];
	b->gone = 0;
	for (int j = 1; j <= d.nb; j++)
		b->gone += !d.b_to_a[j] && ui_ptx_counts_line(&b->res, j);
	linediff_free(&d);
	free(text);
	b->state = 1;
	app_say(a, 0, "Your lines beside ours: the shipped kernel's counts at %lld^3 in the 'ours' columns (%s hides them).",
		r->emu.M, ui_key_name(UI_MODE_NORMAL, UI_ACT_BASELINE));
}

void app_act_baseline(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	ui_baseline *b = &a->base;
	const char *k = ui_key_name(UI_MODE_NORMAL, UI_ACT_BASELINE), *r = ui_key_name(UI_MODE_NORMAL, UI_ACT_RUN);
	if (b->view) {
		b->view = 0;
		app_say(a, 0, "Your lines only (%s: the shipped kernel's beside them).", k);
	} else if (!a->ptx[a->lesson].edited) {
		app_say(a, 0, "Your lines beside ours wants an edit: %s edits the kernel, %s runs it.",
			ui_key_name(UI_MODE_NORMAL, UI_ACT_EDIT), r);
	} else if (a->ptx_cols == UI_COLS_OFF) {
		app_say(a, 0, "The per-line columns are off: %s brings them back.", ui_key_name(UI_MODE_NORMAL, UI_ACT_LINE_COLS));
	} else {
		b->view = 1;
		if (!edit_counts(a))
			app_say(a, 0, "After a run of your edit (%s), the shipped kernel's counts show beside yours.", r);
		else if (b->state == 1 && b->lesson == a->lesson)
			app_say(a, 0, "Your lines beside ours (%s hides them).", k);
		else if (a->lines_want >= 0 || a->run == UI_RUN_BUSY)
			app_say(a, 0, "The shipped kernel's counts come after this run's.");
		else {
			want_baseline(a);
			app_say(a, 0, "emulating the shipped kernel beside your edit ...");
		}
	}
}

int ui_app_lines_request(ui_app *a, run_request *rq, char *err, int errlen)
{
	int i = a->lines_want;
	a->lines_want = -1;
	a->base.job = a->base.want;
	a->base.want = 0;
	if (i != a->lesson) { /* the student moved on: the counts would be for a page not shown */
		if (a->base.job)
			a->base.job = 0, a->base.state = 0;
		return 1;
	}
	return a->base.job ? baseline_request(a, rq, err, errlen) : emulation_request(a, rq, err, errlen);
}

void ui_app_lines_done(ui_app *a, const run_result *r)
{
	if (a->base.job) {
		baseline_done(a, r);
		return;
	}
	ui_run_slot *s = &a->slot[a->lesson];
	if (!s->have || s->res.backend == RUN_BACKEND_EMU)
		return; /* a newer run made its own */
	s->lines = *r;
	s->have_lines = (r->status == RUN_OK || r->status == RUN_WRONG) && r->nlines ? 1 : -1;
	want_baseline(a);
}

double ui_app_deadline(const ui_app *a, const run_request *rq)
{
	(void)a; /* its input, PTXTUTOR_DEADLINE_S, went into the request (target) */
	return rq->deadline_s;
}

void ui_app_run_started(ui_app *a, double now, const char *err)
{
	a->req = UI_REQ_NONE;
	a->now = now;
	int check = a->run_check;
	if (err) {
		a->run_check = 0;
		run_result *r = &a->slot[a->lesson].res;
		memset(r, 0, sizeof *r);
		r->status = RUN_BAD_REQUEST;
		/* A sentence, not a status and a colon: "Not run. Model-only what-if: ..." */
		size_t n = strlen(err);
		snprintf(r->msg, sizeof r->msg, "Not run. %c%.*s.", err[0] >= 'a' && err[0] <= 'z' ? err[0] - 'a' + 'A' : err[0],
			 (int)(n && err[n - 1] == '.' ? n - 2 : n - 1), err[0] ? err + 1 : "");
		a->slot[a->lesson].have = 1;
		a->slot[a->lesson].check = 0;
		a->slot[a->lesson].refused = 1;
		app_say(a, 1, "%s", r->msg);
		return;
	}
	/* The request the loop just sent, for what the busy pane says about it. */
	run_request rq;
	char why[256];
	int have = ui_app_request(a, &rq, why, sizeof why) == 0;
	a->run_check = 0;
	a->run = UI_RUN_BUSY;
	a->run_lesson = a->lesson;
	a->run_started = now;
	a->run_was_check = check;
	a->run_emulated = have && rq.backend == RUN_BACKEND_EMU;
	a->run_deadline = have ? ui_app_deadline(a, &rq) : 0;
	if (have && rq.backend != RUN_BACKEND_EMU && !check && (rq.M != a->M || rq.N != a->N || rq.K != a->K))
		app_say(a, 0, "running %s at %lldx%lldx%lld, the nearest size it takes (not %lldx%lldx%lld) ... (%s cancels)",
			ui_app_lesson(a)->id, rq.M, rq.N, rq.K, a->M, a->N, a->K,
			ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL));
	else if (a->run_emulated)
		app_say(a, 0, "emulating %s on the CPU at %lld^3 ... (%s cancels)", ui_app_lesson(a)->id, rq.M,
			ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL));
	else if (check)
		app_say(a, 0, "checking your %s with the JIT ... (%s cancels)", ui_app_lesson(a)->id,
			ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL));
	else
		app_say(a, 0, "running %s at %lldx%lldx%lld ... (%s cancels)", ui_app_lesson(a)->id, a->M, a->N, a->K,
			ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL));
}

/* The mark of an emulated run's located problem, from the result's
 * {path, line, msg}; 0 when it has none or it is in another file. */
static int where_mark(const run_result *r, const char *path, userptx_mark *m)
{
	const run_error *e = &r->where;
	const char *a = strrchr(e->path, '/'), *b = strrchr(path, '/');
	if (e->line <= 0 || strcmp(a ? a + 1 : e->path, b ? b + 1 : path))
		return 0;
	memset(m, 0, sizeof *m);
	m->line = e->line;
	m->error = 1;
	util_strlcpy(m->msg, e->msg, sizeof m->msg);
	return 1;
}

/* The lines of the lesson's PTX that a result points at: an emulated run's
 * located error as data; a GPU run's from the JIT's log and message (the
 * driver's text is all there is). */
static void take_marks(ui_app *a, int i, const run_result *r)
{
	ui_ptx *p = &a->ptx[i];
	if (r->backend == RUN_BACKEND_EMU) {
		p->nmarks = where_mark(r, p->path, &p->marks[0]);
	} else {
		p->nmarks = userptx_marks(r->log, p->marks, UI_MARKS_MAX);
		userptx_mark more[UI_MARKS_MAX];
		int n = userptx_marks(r->msg, more, UI_MARKS_MAX);
		for (int k = 0; k < n && p->nmarks < UI_MARKS_MAX; k++) {
			int dup = 0;
			for (int j = 0; j < p->nmarks; j++)
				dup |= p->marks[j].line == more[k].line && !strcmp(p->marks[j].msg, more[k].msg);
			if (!dup)
				p->marks[p->nmarks++] = more[k];
		}
	}
	/* Marks past the end of the file (a stale log) would point nowhere. */
	int keep = 0;
	for (int k = 0; k < p->nmarks; k++)
		if (!p->ok || p->marks[k].line <= p->doc.nlines)
			p->marks[keep++] = p->marks[k];
	p->nmarks = keep;
	/* The first problem scrolls into view. */
	if (p->nmarks && i == a->lesson)
		a->ptx_follow = 1;
}

void ui_app_run_finished(ui_app *a, const run_result *r)
{
	a->run = UI_RUN_IDLE;
	a->req = UI_REQ_NONE;
	int i = a->run_lesson;
	if (a->base.lesson == i) /* the baseline stood beside the last run: made again (want_baseline, below) */
		a->base.state = 0;
	/* The first "no GPU" turns the tutor offline: the same run again, on the
	 * CPU emulator, at once. */
	if (r->status == RUN_NO_GPU && r->backend != RUN_BACKEND_EMU && !a->offline) {
		a->offline = 1;
		util_strlcpy(a->offline_why, r->msg, sizeof a->offline_why);
		const ui_ptx *p = &a->ptx[i];
		if (i == a->lesson && p->emu_refuses && !p->edited) {
			app_say(a, 0, "No GPU, and the CPU emulator cannot run this kernel (%s).", p->emu_why);
			return;
		}
		if (i == a->lesson) {
			a->run_check = a->run_was_check;
			a->req = UI_REQ_RUN;
			app_say(a, 0, "No GPU: emulating %s on the CPU instead", a->course->l[i].id);
			return;
		}
	}
	/* r again on an edit that fails the same way: say it ran, or nothing seems to happen. */
	int again = a->slot[i].have && !a->slot[i].refused && a->slot[i].res.status == r->status &&
		    !strcmp(a->slot[i].res.msg, r->msg);
	a->slot[i].res = *r;
	a->slot[i].have = 1;
	a->slot[i].refused = 0;
	a->slot[i].check = a->run_was_check;
	a->slot[i].have_lines = 0;
	/* A GPU run has no per-line counts: the emulator makes them, beside it. */
	if (r->backend != RUN_BACKEND_EMU && !a->run_was_check && (r->status == RUN_OK || r->status == RUN_WRONG))
		a->lines_want = i;
	take_marks(a, i, r);
	const char *id = a->course->l[i].id;
	if (r->status == RUN_OK && r->backend == RUN_BACKEND_EMU)
		app_say(a, 0, "%s: emulated on the CPU at %lld^3, %s", id, r->emu.M,
		    r->verified == 1 ? "verified" : "not verified");
	else if (r->status == RUN_OK && a->run_was_check)
		app_say(a, 0, "%s: the JIT accepts your edit (%d registers); %s runs it", id, r->regs,
			ui_key_name(UI_MODE_NORMAL, UI_ACT_RUN));
	else if (r->status == RUN_OK) {
		run_report rep;
		char g[48];
		run_report_make(&rep, NULL, r, 0);
		app_say(a, 0, "%s: %s GFLOP/s%s", id, run_figure(&rep, "gflops", g, sizeof g),
			r->verified == 1 ? ", verified against cuBLAS" : "");
	}
	else
		app_say(a, 1, "%s%s: %s", again ? "Ran again, the same: " : "",
			r->backend == RUN_BACKEND_EMU && r->status == RUN_JIT_ERROR ? "the emulator cannot read it"
										       : run_status_name(r->status),
			r->msg);
	if (i == a->lesson)
		app_recompute(a);
	if (i == a->lesson)
		want_baseline(a);
}

/* r: the loop sends the request (ui_app_request) to the worker. */
void app_act_run(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const ui_ptx *p = &a->ptx[a->lesson];
	if (!ui_app_lesson(a)->ptx_path[0])
		app_say(a, 1, "This lesson has no kernel to run.");
	else if (a->offline && p->emu_refuses && !p->edited)
		/* The course's own kernel is fine: the emulator lacks what it uses. */
		app_say(a, 0, "The CPU emulator cannot run this kernel (%s); it needs a GPU.", p->emu_why);
	else if (a->run == UI_RUN_BUSY)
		app_say(a, 0, "A run is in progress; %s cancels it.", ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL));
	else {
		a->req = UI_REQ_RUN;
		a->side = UI_PANE_RUN;
	}
}

/* Esc in the panes: the loop kills the worker's run, else the SASS build. */
void app_act_cancel(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	if (a->run == UI_RUN_BUSY)
		a->req = UI_REQ_CANCEL;
	else if (a->ptx[a->lesson].sass_state == 1)
		a->req = UI_REQ_SASS_CANCEL;
	else
		a->hit_marks = 0; /* as less's ESC-u: n brings them back */
}
