/* ui/app: update code — keys become actions, actions change the state; the event loop does the I/O it asks for. */
#include "ui/app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/pane_text.h"
#include "base/util.h"

static void say(ui_app *a, int bad, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(ui_app *a, int bad, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof a->msg, fmt, ap);
	va_end(ap);
	a->msg_bad = bad;
}

/* The lesson's PTX as shown and run: the student's copy when there is one
 * (edits survive a restart), else the shipped file. */
static void load_ptx(ui_app *a, int i)
{
	ui_ptx *p = &a->ptx[i];
	const lesson *l = &a->course->l[i];
	if (p->loaded || !l->ptx_path[0])
		return;
	p->loaded = 1;
	char err[256];
	p->edited = userptx_exists(l->ptx_path) && userptx_path(l->ptx_path, p->path, sizeof p->path) == 0;
	if (!p->edited)
		util_path(p->path, sizeof p->path, l->ptx_path);
	char *text = util_read_file(p->path, NULL, err, sizeof err);
	if (!text) {
		snprintf(p->err, sizeof p->err, "%s", err);
		return;
	}
	ptx_load(&p->doc, text, p->err, sizeof p->err);
	free(text);
	p->ok = 1;
	p->nmix = ptx_mix(&p->doc, p->mix, UI_MIX_MAX, &p->mix_total);
}

/* After an edit or a restore: the file changed under the view. */
static void reload_ptx(ui_app *a, int i)
{
	ui_ptx *p = &a->ptx[i];
	if (p->ok)
		ptx_free(&p->doc);
	memset(p, 0, sizeof *p);
	load_ptx(a, i);
	/* The last result was for the old kernel: its numbers would mislead. */
	a->have_res[i] = 0;
	a->res_check[i] = 0;
}

static int lesson_has_param(const lesson *l, const char *name)
{
	for (int i = 0; i < l->nparams; i++)
		if (!strcmp(l->params[i].name, name))
			return 1;
	return 0;
}

static const lesson_exercise *current_exercise(const ui_app *a);
static int exercise_model(const ui_app *a, const lesson_exercise *ex, model_result *r, char *err, int errlen);

/* Fills ex_model while the current exercise's hint or worked answer shows. */
static void recompute_exercise(ui_app *a)
{
	const lesson_exercise *ex = current_exercise(a);
	char err[256];
	a->ex_model_ok = ex && (a->show_hint || a->show_solution) &&
			 exercise_model(a, ex, &a->ex_model, err, sizeof err) == 0;
}

static void recompute_model(ui_app *a)
{
	const lesson *l = ui_app_lesson(a);
	a->model_ok = 0;
	a->model_err[0] = '\0';
	if (!l->model[0]) {
		snprintf(a->model_err, sizeof a->model_err, "This lesson has no cost model.");
		return;
	}
	if (!a->have_gpus && !a->gpu_live) {
		snprintf(a->model_err, sizeof a->model_err, "No GPU figures (assets/gpus.tsv did not load).");
		return;
	}
	if (model_compute(l, &a->whatif, a->M, a->N, a->K, &a->gpu, &a->model, a->model_err,
			  sizeof a->model_err) < 0)
		return;
	a->model_ok = 1;
	const run_result *r = a->have_res[a->lesson] ? &a->res[a->lesson] : NULL;
	if (a->regs_override > 0)
		model_set_regs(&a->model, a->regs_override, "what-if");
	else if (r && r->regs > 0 && (r->status == RUN_OK || r->status == RUN_WRONG))
		model_set_regs(&a->model, r->regs, "JIT");
}

/* The numbers on screen, and the exercise's when its hint or answer shows. */
static void recompute(ui_app *a)
{
	recompute_model(a);
	recompute_exercise(a);
}

/* Keeps the overrides that name a parameter of the current lesson. */
static void filter_whatif(ui_app *a, const expr_env *from)
{
	const lesson *l = ui_app_lesson(a);
	expr_env keep = {0};
	for (int i = 0; from && i < from->n; i++)
		if (lesson_has_param(l, from->v[i].name))
			expr_set(&keep, from->v[i].name, from->v[i].value);
	a->whatif = keep;
}

static void reset_exercise(ui_app *a)
{
	a->ex = 0;
	a->ex_verdict = 0;
	a->show_hint = a->show_solution = 0;
	a->answer[0] = '\0';
}

void ui_app_select(ui_app *a, int which, int page)
{
	if (which < 0 || which >= a->course->n)
		return;
	int changed = which != a->lesson;
	a->lesson = which;
	const lesson *l = ui_app_lesson(a);
	if (page < 0)
		page = l->npages - 1;
	if (page >= l->npages)
		page = l->npages ? l->npages - 1 : 0;
	a->page = page < 0 ? 0 : page;
	a->scroll[UI_PANE_LESSON] = 0;
	a->ptx_follow = 1;
	reset_exercise(a);
	if (changed) {
		expr_env old = a->whatif;
		filter_whatif(a, &old);
		a->regs_override = 0;
		a->whatif_sel = 0;
		a->scroll[UI_PANE_PTX] = a->scroll[UI_PANE_NUMBERS] = 0;
	}
	load_ptx(a, which);
	recompute(a);
}

int ui_app_setup(ui_app *a, const ui_opts *o, course *c, const gpu_table *gpus, char *err, int errlen)
{
	memset(a, 0, sizeof *a);
	a->course = c;
	if (!c || c->n == 0) {
		snprintf(err, (size_t)errlen, "no lessons found under %s/lessons", util_root());
		return -1;
	}
	a->present = o->present;
	a->ascii = o->ascii;
	a->theme = ui_theme_pick(o->theme, o->present, o->no_color);
	if (o->theme && !ui_theme_find(o->theme)) {
		snprintf(err, (size_t)errlen, "unknown theme '%s' (light, dark, term, mono)", o->theme);
		return -1;
	}
	if (gpus && gpus->n > 0) {
		a->gpus = *gpus;
		a->have_gpus = 1;
		char msg[200] = "";
		const gpu_spec *g = o->gpu ? devices_find(gpus, o->gpu, msg, sizeof msg) : devices_default(gpus);
		if (!g) {
			snprintf(err, (size_t)errlen, "--gpu %s: %s", o->gpu ? o->gpu : "", msg[0] ? msg : "no such GPU");
			return -1;
		}
		a->gpu = *g;
	} else {
		util_strlcpy(a->gpu.name, "unknown GPU", sizeof a->gpu.name);
	}
	a->M = o->M > 0 ? o->M : UI_SIZE_DEFAULT;
	a->N = o->N > 0 ? o->N : a->M;
	a->K = o->K > 0 ? o->K : a->M;
	a->fold = 1;
	a->deadline_s = o->deadline_s;
	a->focus = UI_PANE_LESSON;
	a->side = UI_PANE_NUMBERS;

	int start = 0, page = 0;
	state_data st;
	const char *want = o->lesson;
	if (want) {
		const lesson *l = course_find(c, want);
		if (!l) {
			snprintf(err, (size_t)errlen, "no lesson '%s' (try `ptxtutor list`)", want);
			return -1;
		}
		start = (int)(l - c->l);
		page = o->page > 0 ? o->page : 0;
	} else if (state_load(&st) == 0) {
		const lesson *l = course_find(c, st.lesson);
		if (l) {
			start = (int)(l - c->l);
			page = st.page;
		}
	}
	a->lesson = start;
	filter_whatif(a, o->set);
	a->lesson = -1; /* so select treats it as a change but keeps the filtered set */
	expr_env keep = a->whatif;
	ui_app_select(a, start, page);
	a->whatif = keep;
	recompute(a);
	return 0;
}

void ui_app_free(ui_app *a)
{
	for (int i = 0; i < LESSON_MAX; i++)
		if (a->ptx[i].ok)
			ptx_free(&a->ptx[i].doc);
	userptx_diff_free(&a->diff);
	if (a->course) {
		course_free(a->course);
		free(a->course);
	}
	a->course = NULL;
}

/* The layout for the terminal, with the focused pane filling it when zoomed. */
static void relayout(ui_app *a)
{
	ui_layout_compute(a->cols, a->rows, a->present, &a->layout);
	if (a->zoom)
		ui_layout_zoom(&a->layout, (ui_pane)a->focus);
}

void ui_app_resize(ui_app *a, int cols, int rows)
{
	a->cols = cols;
	a->rows = rows;
	relayout(a);
}

void ui_app_tick(ui_app *a, double now)
{
	a->now = now;
}

void ui_app_saved(const ui_app *a, state_data *s)
{
	util_strlcpy(s->lesson, ui_app_lesson(a)->id, sizeof s->lesson);
	s->page = a->page;
}

static void scroll(ui_app *a, int delta)
{
	int p = a->focus;
	if (p == UI_PANE_PTX) {
		int n;
		ptx_row *rows = ui_app_ptx_rows(a, &n);
		int h = a->layout.pane[UI_PANE_PTX].h - 1;
		int top = ui_app_ptx_top(a, rows, n, h);
		free(rows);
		a->ptx_follow = 0;
		top += delta;
		if (top > n - h)
			top = n - h;
		a->scroll[p] = top < 0 ? 0 : top;
		return;
	}
	int w = a->layout.pane[p].w, h = a->layout.pane[p].h - 1;
	int total = ui_pane_lines(a, (ui_pane)p, w);
	int top = a->scroll[p] + delta;
	if (top > total - h)
		top = total - h;
	a->scroll[p] = top < 0 ? 0 : top;
}

static void resize_problem(ui_app *a, int up)
{
	long long M = up ? a->M * 2 : a->M / 2, N = up ? a->N * 2 : a->N / 2, K = up ? a->K * 2 : a->K / 2;
	long long lo = M < N ? (M < K ? M : K) : (N < K ? N : K);
	long long hi = M > N ? (M > K ? M : K) : (N > K ? N : K);
	if (lo < UI_SIZE_MIN || hi > UI_SIZE_MAX) {
		say(a, 1, "size stays %lldx%lldx%lld (between %d and %d)", a->M, a->N, a->K, UI_SIZE_MIN,
		    UI_SIZE_MAX);
		return;
	}
	a->M = M, a->N = N, a->K = K;
	recompute(a);
	expr_env env;
	char err[200];
	lesson_env(ui_app_lesson(a), &a->whatif, M, N, K, &env);
	if (lesson_check_size(ui_app_lesson(a), &env, err, sizeof err) < 0)
		say(a, 1, "%s", err);
	else
		say(a, 0, "problem size %lldx%lldx%lld", M, N, K);
}

static void next_page(ui_app *a, int dir)
{
	const lesson *l = ui_app_lesson(a);
	int p = a->page + dir;
	if (p >= 0 && p < l->npages) {
		ui_app_select(a, a->lesson, p);
	} else if (dir > 0 && a->lesson + 1 < a->course->n) {
		ui_app_select(a, a->lesson + 1, 0);
	} else if (dir < 0 && a->lesson > 0) {
		ui_app_select(a, a->lesson - 1, -1);
	} else {
		say(a, 0, dir > 0 ? "This is the last page of the last lesson." : "This is the first page.");
	}
}

static const lesson_exercise *current_exercise(const ui_app *a)
{
	const lesson_page *pg = ui_app_page(a);
	return pg && a->ex < pg->nex ? &pg->ex[a->ex] : NULL;
}

/* e: make the student's copy (the shipped file is only read) and ask the
 * loop to open it in the editor. */
static void start_edit(ui_app *a)
{
	const lesson *l = ui_app_lesson(a);
	char shipped[RUN_PATH], copy[RUN_PATH], err[300];
	if (!l->ptx_path[0]) {
		say(a, 1, "This lesson has no kernel to edit.");
		return;
	}
	if (a->run == UI_RUN_BUSY) {
		say(a, 1, "A run is in progress; wait for it or press Esc, then edit.");
		return;
	}
	if (userptx_path(l->ptx_path, copy, sizeof copy) < 0) {
		say(a, 1, "Cannot edit: neither XDG_DATA_HOME nor HOME is set.");
		return;
	}
	util_path(shipped, sizeof shipped, l->ptx_path);
	if (userptx_create(shipped, copy, err, sizeof err) < 0) {
		say(a, 1, "Cannot edit: %s", err);
		return;
	}
	util_strlcpy(a->edit_path, copy, sizeof a->edit_path);
	a->req = UI_REQ_EDIT;
}

/* Scrolls the PTX pane to the first line the edit changed. */
static void show_first_change(ui_app *a, const char *shipped)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	char *old = util_read_file(shipped, NULL, NULL, 0);
	char *cur = util_read_file(p->path, NULL, NULL, 0);
	int line = 0;
	if (old && cur) {
		userptx_diff d;
		userptx_diff_make(old, cur, 0, &d);
		for (int i = 0; i < d.n && !line; i++)
			if (d.l[i].kind == '+' || d.l[i].kind == '-')
				line = d.l[i].new_line ? d.l[i].new_line : d.l[i].old_line;
		userptx_diff_free(&d);
	}
	free(old);
	free(cur);
	a->ptx_follow = 1;
	if (!line)
		return;
	int n;
	ptx_row *rows = ui_app_ptx_rows(a, &n);
	int r = 0;
	while (r + 1 < n && rows[r + 1].line < line)
		r++;
	free(rows);
	int h = a->layout.pane[UI_PANE_PTX].h - 1;
	a->ptx_follow = 0;
	a->scroll[UI_PANE_PTX] = r - h / 3 > 0 ? r - h / 3 : 0;
}

void ui_app_edit_done(ui_app *a, int ok, const char *err)
{
	const lesson *l = ui_app_lesson(a);
	a->req = UI_REQ_NONE;
	char shipped[RUN_PATH];
	util_path(shipped, sizeof shipped, l->ptx_path);
	/* A copy no different from the original is no edit: drop it. */
	if (userptx_same(shipped, a->edit_path) == 1) {
		int was = a->ptx[a->lesson].edited;
		remove(a->edit_path);
		if (was)
			reload_ptx(a, a->lesson);
		if (!ok)
			say(a, 1, "The editor did not run: %s", err ? err : "?");
		else
			say(a, 0, "No changes: the lesson keeps the shipped kernel.");
		return;
	}
	reload_ptx(a, a->lesson);
	recompute(a);
	show_first_change(a, shipped);
	if (!ok) {
		say(a, 1, "The editor failed (%s); the copy is kept.", err ? err : "?");
		return;
	}
	/* Check it at once: the JIT on a GPU, the emulator without one. */
	a->run_check = 1;
	a->req = UI_REQ_RUN;
	a->side = UI_PANE_RUN;
	say(a, 0, "Edited %s: checking it ...", l->id);
}

/* R: the student's copy against the shipped file, in a box. */
static void open_diff(ui_app *a)
{
	const lesson *l = ui_app_lesson(a);
	const ui_ptx *p = &a->ptx[a->lesson];
	if (!p->edited) {
		say(a, 0, "This lesson runs the shipped PTX; e edits a copy of your own.");
		return;
	}
	char shipped[RUN_PATH], err[300];
	util_path(shipped, sizeof shipped, l->ptx_path);
	char *old = util_read_file(shipped, NULL, err, sizeof err);
	char *cur = old ? util_read_file(p->path, NULL, err, sizeof err) : NULL;
	if (!old || !cur) {
		say(a, 1, "%s", err);
		free(old);
		return;
	}
	userptx_diff_free(&a->diff);
	userptx_diff_make(old, cur, 2, &a->diff);
	free(old);
	free(cur);
	a->diff_scroll = 0;
	a->mode = UI_MODE_DIFF;
}

static void restore(ui_app *a)
{
	const lesson *l = ui_app_lesson(a);
	ui_ptx *p = &a->ptx[a->lesson];
	char err[300];
	if (a->run == UI_RUN_BUSY) {
		say(a, 1, "A run is in progress; wait for it or press Esc, then restore.");
		return;
	}
	char copy[RUN_PATH];
	util_strlcpy(copy, p->path, sizeof copy);
	if (userptx_restore(copy, err, sizeof err) < 0) {
		say(a, 1, "%s", err);
		return;
	}
	reload_ptx(a, a->lesson);
	recompute(a);
	a->ptx_follow = 1;
	const char *b = strrchr(copy, '/');
	say(a, 0, "Restored the shipped %s; your edit is kept as %s~", l->ptx_path, b ? b + 1 : copy);
}

static void diff_key(ui_app *a, int key)
{
	ui_action act = ui_key_action(key);
	int h = ui_app_diff_rows(a);
	int top = a->diff_scroll;
	if (key == 'y') {
		restore(a);
	} else if (act == UI_ACT_SCROLL_DOWN || act == UI_ACT_SCROLL_UP) {
		top += act == UI_ACT_SCROLL_DOWN ? 1 : -1;
	} else if (key == ' ' || act == UI_ACT_NEXT_PAGE || act == UI_ACT_PREV_PAGE) {
		top += (key == ' ' || act == UI_ACT_NEXT_PAGE ? 1 : -1) * (h > 2 ? h - 1 : 1);
	} else {
		a->mode = UI_MODE_NORMAL;
	}
	if (top > a->diff.n - h)
		top = a->diff.n - h;
	a->diff_scroll = top < 0 ? 0 : top;
	if (key == 'y' || a->mode == UI_MODE_NORMAL) {
		a->mode = UI_MODE_NORMAL;
		userptx_diff_free(&a->diff);
	}
}

void ui_app_act(ui_app *a, ui_action act)
{
	const lesson *l = ui_app_lesson(a);
	switch (act) {
	case UI_ACT_QUIT:
		a->quit = 1;
		break;
	case UI_ACT_HELP:
		a->mode = UI_MODE_HELP;
		break;
	case UI_ACT_NEXT_LESSON:
	case UI_ACT_PREV_LESSON: {
		int to = a->lesson + (act == UI_ACT_NEXT_LESSON ? 1 : -1);
		if (to < 0 || to >= a->course->n)
			say(a, 0, to < 0 ? "This is the first lesson." : "This is the last lesson.");
		else
			ui_app_select(a, to, 0);
		break;
	}
	case UI_ACT_NEXT_PAGE:
		next_page(a, 1);
		break;
	case UI_ACT_PREV_PAGE:
		next_page(a, -1);
		break;
	case UI_ACT_SCROLL_DOWN:
		scroll(a, 1);
		break;
	case UI_ACT_SCROLL_UP:
		scroll(a, -1);
		break;
	case UI_ACT_FOCUS_NEXT:
	case UI_ACT_FOCUS_PREV: {
		int d = act == UI_ACT_FOCUS_NEXT ? 1 : UI_NPANES - 1;
		a->focus = (a->focus + d) % UI_NPANES;
		if (a->focus == UI_PANE_NUMBERS || a->focus == UI_PANE_RUN)
			a->side = a->focus;
		relayout(a);
		break;
	}
	case UI_ACT_RUN:
		if (!l->ptx_path[0])
			say(a, 1, "This lesson has no kernel to run.");
		else if (a->run == UI_RUN_BUSY)
			say(a, 0, "A run is in progress; Esc cancels it.");
		else {
			a->req = UI_REQ_RUN;
			a->side = UI_PANE_RUN;
		}
		break;
	case UI_ACT_CANCEL:
		if (a->mode != UI_MODE_NORMAL)
			a->mode = UI_MODE_NORMAL;
		else if (a->run == UI_RUN_BUSY)
			a->req = UI_REQ_CANCEL;
		break;
	case UI_ACT_SIZE_UP:
	case UI_ACT_SIZE_DOWN:
		resize_problem(a, act == UI_ACT_SIZE_UP);
		break;
	case UI_ACT_WHATIF:
		a->mode = UI_MODE_WHATIF;
		if (a->layout.tabbed)
			a->side = UI_PANE_NUMBERS;
		break;
	case UI_ACT_ZOOM:
		a->zoom = !a->zoom;
		relayout(a);
		say(a, 0, a->zoom ? "The focused pane fills the screen (Tab: the next one; f: back)." : "All panes shown.");
		break;
	case UI_ACT_FOLD:
		a->fold = !a->fold;
		say(a, 0, a->fold ? "Long repetitive runs of PTX are folded." : "All PTX lines are shown.");
		break;
	case UI_ACT_ANSWER:
		if (!current_exercise(a)) {
			say(a, 0, "No exercise on this page.");
			break;
		}
		if (a->ex_verdict == 1 && a->ex + 1 < ui_app_page(a)->nex) {
			a->ex++;
			a->ex_verdict = 0;
			a->show_hint = a->show_solution = 0;
		}
		a->answer[0] = '\0';
		a->mode = UI_MODE_ANSWER;
		break;
	case UI_ACT_HINT:
	case UI_ACT_SOLUTION:
		if (!current_exercise(a))
			say(a, 0, "No exercise on this page.");
		else {
			if (act == UI_ACT_HINT)
				a->show_hint = 1;
			else
				a->show_solution = 1;
			recompute_exercise(a);
		}
		break;
	case UI_ACT_EDIT:
		start_edit(a);
		break;
	case UI_ACT_DIFF:
		open_diff(a);
		break;
	case UI_ACT_REDRAW:
	case UI_ACT_NONE:
	case UI_NACTIONS:
		break;
	}
}

/* The model under an exercise's overrides (M, N, K among them may set the
 * size): what its answer is checked against and its worked answer shows. */
static int exercise_model(const ui_app *a, const lesson_exercise *ex, model_result *r, char *err, int errlen)
{
	expr_env ov = {0};
	long long M = a->M, N = a->N, K = a->K;
	for (int i = 0; i < ex->overrides.n; i++) {
		const expr_var *e = &ex->overrides.v[i];
		if (!strcmp(e->name, "M"))
			M = e->value;
		else if (!strcmp(e->name, "N"))
			N = e->value;
		else if (!strcmp(e->name, "K"))
			K = e->value;
		else
			expr_set(&ov, e->name, e->value);
	}
	return model_compute(ui_app_lesson(a), &ov, M, N, K, &a->gpu, r, err, errlen);
}

/* The model's value for an exercise. */
static int exercise_value(const ui_app *a, const lesson_exercise *ex, double *v, char *err, int errlen)
{
	model_result *r = malloc(sizeof *r);
	if (!r)
		abort();
	int rc = exercise_model(a, ex, r, err, errlen);
	if (rc == 0 && model_value(r, ex->key, v) < 0) {
		snprintf(err, (size_t)errlen, "the model has no value '%s'", ex->key);
		rc = -1;
	}
	free(r);
	return rc;
}

static void check_answer(ui_app *a)
{
	const lesson_exercise *ex = current_exercise(a);
	a->mode = UI_MODE_NORMAL;
	if (!ex)
		return;
	char *end;
	double got = strtod(a->answer, &end);
	if (end == a->answer || *end) {
		say(a, 1, "'%s' is not a number.", a->answer);
		return;
	}
	double want;
	char err[200];
	if (exercise_value(a, ex, &want, err, sizeof err) < 0) {
		say(a, 1, "cannot check this exercise: %s", err);
		return;
	}
	a->ex_expected = want;
	double tol = ex->tol > 0 ? ex->tol : 0.01;
	int right = fabs(got - want) <= tol * fabs(want) || (want == 0 && fabs(got) <= tol);
	a->ex_verdict = right ? 1 : -1;
	if (right)
		say(a, 0, "Right: %.4g.", want);
	else
		say(a, 1, "Not quite (%g). h shows a hint, s the worked answer.", got);
}

static void answer_key(ui_app *a, int key)
{
	size_t n = strlen(a->answer);
	if (key == UI_KEY_ESC) {
		a->mode = UI_MODE_NORMAL;
	} else if (key == '\n' || key == '\r') {
		check_answer(a);
	} else if (ui_key_is_backspace(key)) {
		if (n)
			a->answer[n - 1] = '\0';
	} else if (key > 0 && key < 127 && strchr("0123456789.-+eE/", key) && n + 1 < sizeof a->answer) {
		a->answer[n] = (char)key;
		a->answer[n + 1] = '\0';
	}
}

/* The what-if rows: the lesson's params, then registers per thread. */
static int whatif_rows(const ui_app *a)
{
	return ui_app_lesson(a)->nparams + 1;
}

static void whatif_change(ui_app *a, int dir)
{
	const lesson *l = ui_app_lesson(a);
	int s = a->whatif_sel;
	if (s == l->nparams) {
		int regs = a->regs_override > 0 ? a->regs_override : (a->model_ok ? a->model.regs_per_thread : 32);
		regs += dir * 8;
		a->regs_override = regs < 8 ? 8 : regs > 255 ? 255 : regs;
		recompute(a);
		return;
	}
	long long v;
	if (!expr_get(&a->whatif, l->params[s].name, &v))
		v = l->params[s].value;
	long long nv = dir > 0 ? v * 2 : v / 2;
	if (nv < 1 || nv > 4096)
		return;
	expr_env before = a->whatif;
	expr_set(&a->whatif, l->params[s].name, nv);
	recompute(a);
	if (a->model_ok) {
		a->msg[0] = '\0';
		return;
	}
	/* A value the lesson cannot take: say why and keep the last good one. */
	char why[sizeof a->model_err];
	util_strlcpy(why, a->model_err, sizeof why);
	a->whatif = before;
	recompute(a);
	say(a, 1, "%s=%lld: %s", l->params[s].name, nv, why);
}

static void whatif_reset(ui_app *a)
{
	const lesson *l = ui_app_lesson(a);
	if (a->whatif_sel == l->nparams) {
		a->regs_override = 0;
	} else {
		expr_env keep = {0};
		for (int i = 0; i < a->whatif.n; i++)
			if (strcmp(a->whatif.v[i].name, l->params[a->whatif_sel].name))
				expr_set(&keep, a->whatif.v[i].name, a->whatif.v[i].value);
		a->whatif = keep;
	}
	recompute(a);
}

static void whatif_key(ui_app *a, int key)
{
	ui_action act = ui_key_action(key);
	int rows = whatif_rows(a);
	if (key == UI_KEY_ESC || key == '\n' || key == '\r' || key == 't' || key == 'q') {
		a->mode = UI_MODE_NORMAL;
	} else if (act == UI_ACT_SCROLL_DOWN || act == UI_ACT_FOCUS_NEXT) {
		a->whatif_sel = (a->whatif_sel + 1) % rows;
	} else if (act == UI_ACT_SCROLL_UP || act == UI_ACT_FOCUS_PREV) {
		a->whatif_sel = (a->whatif_sel + rows - 1) % rows;
	} else if (key == '+' || key == '=' || key == 'l' || act == UI_ACT_NEXT_PAGE) {
		whatif_change(a, 1);
	} else if (key == '-' || key == 'h' || (act == UI_ACT_PREV_PAGE && !ui_key_is_backspace(key))) {
		whatif_change(a, -1);
	} else if (key == '0' || ui_key_is_backspace(key)) {
		whatif_reset(a);
	}
}

void ui_app_key(ui_app *a, int key)
{
	switch (a->mode) {
	case UI_MODE_HELP:
		a->mode = UI_MODE_NORMAL;
		if (key == 'q')
			a->quit = 1;
		return;
	case UI_MODE_ANSWER:
		answer_key(a, key);
		return;
	case UI_MODE_WHATIF:
		whatif_key(a, key);
		return;
	case UI_MODE_DIFF:
		diff_key(a, key);
		return;
	case UI_MODE_NORMAL:
		break;
	}
	a->msg[0] = '\0';
	ui_app_act(a, ui_key_action(key));
}

/* The first of UI_EMU_SIZES the lesson accepts; 0 when none. */
static long long emulation_size(const ui_app *a)
{
	static const long long cubes[] = UI_EMU_SIZES;
	for (size_t i = 0; i < ARRAY_LEN(cubes); i++) {
		run_request probe;
		char err[256];
		if (runner_request_for_lesson(ui_app_lesson(a), &a->whatif, cubes[i], cubes[i], cubes[i], &probe, err,
					      sizeof err) == 0)
			return cubes[i];
	}
	return 0;
}

int ui_app_request(const ui_app *a, run_request *rq, char *err, int errlen)
{
	long long M = a->M, N = a->N, K = a->K;
	if (a->offline) {
		long long e = emulation_size(a);
		if (!e) {
			snprintf(err, (size_t)errlen, "no size of 128, 256 or 512 cubed suits this lesson for emulation");
			return -1;
		}
		M = N = K = e;
	}
	if (runner_request_for_lesson(ui_app_lesson(a), &a->whatif, M, N, K, rq, err, errlen) < 0)
		return -1;
	const ui_ptx *p = &a->ptx[a->lesson];
	if (p->edited)
		util_strlcpy(rq->ptx_path, p->path, sizeof rq->ptx_path);
	rq->emulate = a->offline;
	rq->jit_only = a->run_check && !a->offline;
	return 0;
}

double ui_app_deadline(const ui_app *a, const run_request *rq)
{
	if (a->deadline_s > 0)
		return a->deadline_s;
	if (rq->emulate)
		return UI_DEADLINE_EMULATE;
	if (rq->jit_only)
		return UI_DEADLINE_JIT;
	/* The model's time is a roofline bound: a launch can take several times
	 * longer, and a run is a JIT, a check, warm-ups, repeats and cuBLAS. */
	if (a->model_ok && a->model.predicted_ms > 0)
		return UI_DEADLINE_FLOOR + UI_DEADLINE_FACTOR * a->model.predicted_ms / 1e3;
	return runner_deadline(rq);
}

void ui_app_run_started(ui_app *a, double now, const char *err)
{
	a->req = UI_REQ_NONE;
	a->now = now;
	int check = a->run_check;
	if (err) {
		a->run_check = 0;
		run_result *r = &a->res[a->lesson];
		memset(r, 0, sizeof *r);
		r->status = RUN_BAD_REQUEST;
		util_strlcpy(r->msg, err, sizeof r->msg);
		a->have_res[a->lesson] = 1;
		a->res_check[a->lesson] = 0;
		say(a, 1, "%s", err);
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
	a->run_emulated = have && rq.emulate;
	a->run_deadline = have ? ui_app_deadline(a, &rq) : 0;
	a->run_predicted_ms = a->model_ok ? a->model.predicted_ms : 0;
	if (a->run_emulated)
		say(a, 0, "emulating %s on the CPU at %lld^3 ... (Esc cancels)", ui_app_lesson(a)->id, rq.M);
	else if (check)
		say(a, 0, "checking your %s with the JIT ... (Esc cancels)", ui_app_lesson(a)->id);
	else
		say(a, 0, "running %s at %lldx%lldx%lld ... (Esc cancels)", ui_app_lesson(a)->id, a->M, a->N, a->K);
}

/* The lines of the lesson's PTX that a result's log or message points at. */
static void take_marks(ui_app *a, int i, const run_result *r)
{
	ui_ptx *p = &a->ptx[i];
	p->nmarks = userptx_marks(r->log, p->path, p->marks, UI_MARKS_MAX);
	userptx_mark more[UI_MARKS_MAX];
	int n = userptx_marks(r->msg, p->path, more, UI_MARKS_MAX);
	for (int k = 0; k < n && p->nmarks < UI_MARKS_MAX; k++) {
		int dup = 0;
		for (int j = 0; j < p->nmarks; j++)
			dup |= p->marks[j].line == more[k].line && !strcmp(p->marks[j].msg, more[k].msg);
		if (!dup)
			p->marks[p->nmarks++] = more[k];
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
	/* The first "no GPU" turns the tutor offline: the same run again, on the
	 * CPU emulator, at once. */
	if (r->status == RUN_NO_GPU && !r->emulated && !a->offline) {
		a->offline = 1;
		util_strlcpy(a->offline_why, r->msg, sizeof a->offline_why);
		if (i == a->lesson) {
			a->run_check = a->run_was_check;
			a->req = UI_REQ_RUN;
			say(a, 0, "No GPU: emulating %s on the CPU instead", a->course->l[i].id);
			return;
		}
	}
	a->res[i] = *r;
	a->have_res[i] = 1;
	a->res_check[i] = a->run_was_check;
	take_marks(a, i, r);
	const char *id = a->course->l[i].id;
	if (r->status == RUN_OK && r->emulated)
		say(a, 0, "%s: emulated on the CPU at %lld^3, %s", id, r->emu.M,
		    r->verified == 1 ? "verified" : "not verified");
	else if (r->status == RUN_OK && a->run_was_check)
		say(a, 0, "%s: the JIT accepts your edit (%d registers); r runs it", id, r->regs);
	else if (r->status == RUN_OK)
		say(a, 0, "%s: %.0f GFLOP/s%s", id, r->gflops, r->verified == 1 ? ", verified against cuBLAS" : "");
	else
		say(a, 1, "%s: %s", r->emulated && r->status == RUN_JIT_ERROR ? "parse error" : run_status_name(r->status),
		    r->msg);
	if (i == a->lesson)
		recompute(a);
}
