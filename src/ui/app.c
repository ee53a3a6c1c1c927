/* ui/app: the tutor's state, navigation (lessons, pages, panes, scrolling, size) and what the frame shows; keys become actions through the table in ui/keys.c. */
#define _GNU_SOURCE /* memmem */
#include "ui/app.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"
#include "exec/backend.h"
#include "ui/pane_text.h"
#include "ui/ptx_counts.h"
#include "ui/ptx_stalls.h"

void app_say(ui_app *a, int bad, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof a->msg, fmt, ap);
	va_end(ap);
	a->msg_bad = bad;
	/* The status line is plain text: Markdown's backticks around a command
	 * (in a message from any layer) would show raw, so they go. */
	char *o = a->msg;
	for (const char *i = a->msg; *i; i++)
		if (*i != '`')
			*o++ = *i;
	*o = '\0';
}

/* A lesson without a kernel (lesson 0) shows the first PTX its text holds:
 * the first fenced block with an .entry, as a document of its own. */
static void load_example(ui_ptx *p, const lesson *l)
{
	for (int i = 0; i < l->npages; i++) {
		const char *t = l->pages[i].text;
		const char *open = t ? strstr(t, "```") : NULL;
		while (open) {
			const char *body = strchr(open, '\n');
			const char *close = body ? strstr(body + 1, "```") : NULL;
			if (!close)
				break;
			size_t n = (size_t)(close - body - 1);
			if (memmem(body, n, ".entry", 6)) {
				char *text = xmalloc(n + 1);
				memcpy(text, body + 1, n);
				text[n] = '\0';
				ptx_load(&p->doc, text, p->err, sizeof p->err);
				free(text);
				p->ok = p->example = 1;
				return;
			}
			open = strstr(close + 3, "```");
		}
	}
}

/* Whether the CPU emulator would refuse this lesson's kernel, so a lesson
 * it cannot run says so before r: answered from the lesson's data alone —
 * its types against the pairs the emulator checks (dtype_pair_check, the
 * emulator's own rule) — never by parsing the module on the UI's thread. A
 * file the emulator cannot parse says so when it runs, in the run's pane. */
static void ask_emulator(ui_ptx *p, const lesson *l)
{
	char why[180];
	if (dtype_pair_check(l->dt, l->out == DTYPE_NONE ? DTYPE_F32 : l->out, why, sizeof why) == 0)
		return;
	p->emu_refuses = 1;
	snprintf(p->emu_why, sizeof p->emu_why, "its types: %s", why);
}

/* The lesson's PTX as shown and run: the student's copy when there is one,
 * else the shipped file (src/course/userptx.c decides and reads it). */
static void load_ptx(ui_app *a, int i)
{
	ui_ptx *p = &a->ptx[i];
	const lesson *l = &a->course->l[i];
	if (p->loaded)
		return;
	p->loaded = 1;
	if (!l->ptx_path[0]) {
		load_example(p, l);
		return;
	}
	char *text = userptx_load(l->ptx_path, p->path, sizeof p->path, &p->edited, p->err, sizeof p->err);
	if (!text)
		return;
	ptx_load(&p->doc, text, p->err, sizeof p->err);
	ask_emulator(p, l);
	char orig[RUN_PATH];
	util_path(orig, sizeof orig, l->ptx_path);
	app_cuda_load(p, text, orig);
	free(text);
	p->ok = 1;
	p->nmix = ptx_mix(&p->doc, p->mix, UI_MIX_MAX, &p->mix_total);
}

void app_load_ptx(ui_app *a, int i)
{
	load_ptx(a, i);
}

void app_reload_ptx(ui_app *a, int i)
{
	ui_ptx *p = &a->ptx[i];
	a->est.gen++; /* first: what is remade below (a page's warp view) is the new kernel's */
	if (p->ok)
		ptx_free(&p->doc);
	app_sass_forget(p);
	app_cuda_forget(p);
	memset(p, 0, sizeof *p);
	load_ptx(a, i);
	app_relayout(a); /* the CUDA pane comes or goes with the line information */
	/* The last result was for the old kernel: its numbers would mislead. */
	a->slot[i].have = 0;
	a->slot[i].check = 0;
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
	const run_result *r = a->slot[a->lesson].have ? &a->slot[a->lesson].res : NULL;
	if (a->regs_override > 0)
		model_set_regs(&a->model, a->regs_override, "what-if");
	else if (r && r->regs > 0 && (r->status == RUN_OK || r->status == RUN_WRONG))
		model_set_regs(&a->model, r->regs, "JIT");
}

/* What the estimate depends on, as text: a change asks for a new one. */
void app_estimate_key(const ui_app *a, char *key, size_t len)
{
	int n = snprintf(key, len, "%s %lld %lld %lld %s %u %d", ui_app_lesson(a)->id, a->M, a->N, a->K, a->gpu.name,
			 a->est.gen, a->ptx[a->lesson].edited);
	for (int i = 0; i < a->whatif.n && n > 0 && (size_t)n < len; i++)
		n += snprintf(key + n, len - (size_t)n, " %s=%lld", a->whatif.v[i].name, a->whatif.v[i].value);
}

static void want_estimate(ui_app *a)
{
	char key[sizeof a->est.key];
	app_estimate_key(a, key, sizeof key);
	if (!ui_app_lesson(a)->ptx_path[0]) {
		a->est.state = UI_EST_NONE;
	} else if (strcmp(key, a->est.key) || a->est.state == UI_EST_NONE) {
		util_strlcpy(a->est.key, key, sizeof a->est.key);
		a->est.state = UI_EST_WANT;
	}
}

void ui_app_estimate_done(ui_app *a, const exec_estimate_result *r)
{
	if (a->est.state != UI_EST_BUSY && a->est.state != UI_EST_WANT)
		return;
	if (r->rc == 0) {
		a->est.state = UI_EST_DONE;
		a->est.e = r->e;
		a->est.blocks_run = r->blocks_run;
		a->est.blocks = r->in.blocks;
	} else {
		a->est.state = UI_EST_FAILED;
		util_strlcpy(a->est.why, r->err, sizeof a->est.why);
	}
}

void app_recompute(ui_app *a)
{
	recompute_model(a);
	want_estimate(a);
	app_want_stalls(a);
	app_exercise_recompute(a);
	app_warp_page(a); /* the page's @warpview follows what-ifs and edits */
}

/* The numbers pane follows a page that names a section of it (@numbers). */
static int page_has_numbers(const ui_app *a)
{
	const lesson_page *pg = ui_app_page(a);
	return pg && pg->numbers[0];
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
	a->region = 0;
	a->ptx_goto = -1;
	if (changed)
		a->ptx_cursor = a->cu_line = a->cu_scroll = 0; /* a line of another kernel */
	a->numbers_follow = page_has_numbers(a);
	app_exercise_reset(a);
	if (changed) {
		expr_env old = a->whatif;
		app_whatif_filter(a, &old);
		a->regs_override = 0;
		a->whatif_sel = 0;
		a->scroll[UI_PANE_PTX] = a->scroll[UI_PANE_NUMBERS] = 0;
	}
	load_ptx(a, which);
	app_relayout(a); /* the CUDA pane: this kernel's .cu, or none */
	app_cuda_home(a);
	app_recompute(a);
	app_note_read(a);
}

void app_note_read(ui_app *a)
{
	if (a->layout.kind == UI_LAYOUT_TOO_SMALL || a->layout.pane[UI_PANE_LESSON].h < 2 || !ui_app_page(a))
		return;
	if (ui_pane_view_of(a, UI_PANE_LESSON).below > 0)
		return;
	state_mark(&state_progress_get(&a->progress, ui_app_lesson(a)->id)->read, a->page);
}

int ui_app_setup(ui_app *a, const ui_opts *o, course *c, const gpu_table *gpus, char *err, int errlen)
{
	memset(a, 0, sizeof *a);
	a->lines_want = -1;
	a->own = -1;
	a->course = c;
	if (!c || c->n == 0) {
		snprintf(err, (size_t)errlen, "no lessons found under %s/lessons", util_root());
		return -1;
	}
	/* Sized for the course; ui_app_free frees them. */
	a->ptx = xcalloc((size_t)c->n, sizeof *a->ptx);
	a->slot = xcalloc((size_t)c->n, sizeof *a->slot);
	a->present = o->present;
	a->ascii = o->ascii;
	a->ptx_goto = -1;
	a->hits = xcalloc(UI_HITS_MAX, sizeof *a->hits);
	char perr[1024];
	puzzles_load(&a->puzzles, perr, sizeof perr); /* a broken puzzle file is left out (ptxtutor puzzle names it) */
	a->pz_sel = -1;
	if (o->no_gpu) {
		/* cmd_tui found no GPU driver: runs go to the emulator from the start. */
		a->offline = 1;
		util_strlcpy(a->offline_why, o->no_gpu, sizeof a->offline_why);
	}
	a->theme = ui_theme_pick(o->theme, o->present, o->no_color);
	if (o->theme && !ui_theme_find(o->theme)) {
		snprintf(err, (size_t)errlen, "unknown theme '%s' (%s)", o->theme, ui_theme_names());
		return -1;
	}
	if (gpus && gpus->n > 0) {
		a->have_gpus = 1;
		char msg[200] = "";
		/* the one --gpu policy; the tutor reads no live GPU before it starts */
		const gpu_spec *g = devices_pick(gpus, o->gpu, NULL, msg, sizeof msg);
		if (!g) {
			snprintf(err, (size_t)errlen, "%s", msg);
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
	}
	int saved = state_load(&st) == 0;
	a->progress = st;
	state_copy(&a->progress_disk, &st);
	if (!want && saved) {
		const lesson *l = course_find(c, st.lesson);
		if (l) {
			start = (int)(l - c->l);
			page = st.page;
		}
	}
	a->lesson = start;
	app_whatif_filter(a, o->set);
	a->lesson = -1; /* so select treats it as a change but keeps the filtered set */
	expr_env keep = a->whatif;
	ui_app_select(a, start, page);
	a->whatif = keep;
	long long regs; /* --set regs=R: the t box's registers row (the CLI checked 1..255) */
	if (o->set && expr_get(o->set, "regs", &regs) && regs >= 1 && regs <= 255)
		a->regs_override = (int)regs;
	app_recompute(a);
	if (st.kept[0])
		app_say(a, 1, "Cannot read your progress: %s", st.kept);
	return 0;
}

/* The one place the app's memory is freed (ui_app_setup allocates it). */
void ui_app_free(ui_app *a)
{
	edbuf_free(&a->ed);
	for (int i = 0; a->ptx && i < a->course->n; i++) {
		if (a->ptx[i].ok)
			ptx_free(&a->ptx[i].doc);
		app_sass_forget(&a->ptx[i]);
		app_cuda_forget(&a->ptx[i]);
	}
	free(a->ptx);
	free(a->slot);
	free(a->hits);
	free(a->stalls.b);
	a->stalls.b = NULL;
	a->hits = NULL;
	a->ptx = NULL;
	a->slot = NULL;
	userptx_diff_free(&a->diff);
	puzzles_free(&a->puzzles);
	state_free(&a->progress);
	state_free(&a->progress_disk);
	free(a->pz_left), free(a->pz_right);
	a->pz_left = a->pz_right = NULL;
	if (a->course) {
		course_free(a->course);
		free(a->course);
	}
	a->course = NULL;
}

/* The layout for the terminal, with the focused pane filling it when zoomed. */
void app_relayout(ui_app *a)
{
	ui_layout_compute(a->cols, a->rows, a->present, a->grow, &a->layout);
	if (a->swap)
		ui_layout_swap(&a->layout);
	if (a->zoom)
		ui_layout_zoom(&a->layout, (ui_pane)a->focus);
	const ui_ptx *p = a->ptx && a->lesson >= 0 ? &a->ptx[a->lesson] : NULL;
	if (p && p->locs && !a->cuda_off)
		ui_layout_cuda(&a->layout);
	if (!ui_app_cuda_shown(a) && a->layout.kind != UI_LAYOUT_TOO_SMALL)
		a->cu_focus = 0; /* (a layout not yet sized keeps it: the tutor starts on the CUDA pane) */
}

void ui_app_resize(ui_app *a, int cols, int rows)
{
	a->cols = cols;
	a->rows = rows;
	app_relayout(a);
	app_note_read(a);
	if (a->mode == UI_MODE_EDITOR) /* the cursor stays in view (the editor shows rows - 2 lines) */
		edbuf_scroll(&a->ed, rows - 2, cols);
}

void ui_app_tick(ui_app *a, double now)
{
	a->now = now;
}

void ui_app_saved(const ui_app *a, state_data *s)
{
	state_diff(s, &a->progress, &a->progress_disk);
	util_strlcpy(s->lesson, ui_app_lesson(a)->id, sizeof s->lesson);
	s->page = a->page;
}

void ui_app_synced(ui_app *a, const char *err, const state_data *disk)
{
	a->sync_want = 0;
	if (err) {
		app_say(a, 1, "Could not save your progress: %s", err);
	} else {
		state_free(&a->progress_disk);
		state_copy(&a->progress_disk, &a->progress);
	}
	if (!disk->kept[0]) {
		state_data others;
		state_copy(&others, disk);
		others.lesson[0] = '\0'; /* where this tutor is stays its own */
		state_merge(&a->progress, &others);
		state_merge(&a->progress_disk, &others);
		state_free(&others);
	}
}

void app_scroll(ui_app *a, int p, int delta)
{
	if (p == UI_PANE_PTX && a->sass_view) {
		app_sass_move(a, delta);
		return;
	}
	if (app_cuda_scroll(a, p, delta))
		return;
	if (p == UI_PANE_PTX) {
		int n;
		ptx_row *rows = ui_app_ptx_rows(a, &n);
		int h = a->layout.pane[UI_PANE_PTX].h - 1 - ui_ptx_header_row(a);
		int top = ui_app_ptx_top(a, rows, n, h);
		free(rows);
		a->ptx_follow = 0;
		a->ptx_goto = -1;
		top += delta;
		if (top > n - h)
			top = n - h;
		a->scroll[p] = top < 0 ? 0 : top;
		return;
	}
	ui_view v = ui_pane_view_of(a, (ui_pane)p);
	int top = v.top + delta;
	if (top > v.total - v.rows)
		top = v.total - v.rows;
	a->scroll[p] = top < 0 ? 0 : top;
	if (p == UI_PANE_NUMBERS)
		a->numbers_follow = 0;
	if (p == UI_PANE_LESSON)
		app_note_read(a);
}

static void resize_problem(ui_app *a, int up)
{
	long long M = up ? a->M * 2 : a->M / 2, N = up ? a->N * 2 : a->N / 2, K = up ? a->K * 2 : a->K / 2;
	long long lo = M < N ? (M < K ? M : K) : (N < K ? N : K);
	long long hi = M > N ? (M > K ? M : K) : (N > K ? N : K);
	if (lo < UI_SIZE_MIN || hi > UI_SIZE_MAX) {
		app_say(a, 1, "size stays %lldx%lldx%lld (between %d and %d)", a->M, a->N, a->K, UI_SIZE_MIN,
		    UI_SIZE_MAX);
		return;
	}
	a->M = M, a->N = N, a->K = K;
	app_recompute(a);
	expr_env env;
	char err[200];
	lesson_env(ui_app_lesson(a), &a->whatif, M, N, K, &env);
	if (lesson_check_size(ui_app_lesson(a), &env, err, sizeof err) < 0)
		app_say(a, 1, "%s", err);
	else
		app_say(a, 0, "problem size %lldx%lldx%lld", M, N, K);
}

/* Space and the like read on as less does: the rest of the page first (a
 * line of the last screen kept for context), then the next page; backwards
 * up the page, then the previous page from its end. */
static void next_page(ui_app *a, int dir)
{
	ui_view v = ui_pane_view_of(a, UI_PANE_LESSON);
	int step = v.rows > 2 ? v.rows - 1 : 1;
	if (dir > 0 && v.below > 0) {
		app_scroll(a, UI_PANE_LESSON, step);
		return;
	}
	if (dir < 0 && v.top > 0) {
		app_scroll(a, UI_PANE_LESSON, -step);
		return;
	}
	const lesson *l = ui_app_lesson(a);
	int p = a->page + dir;
	if (p >= 0 && p < l->npages) {
		ui_app_select(a, a->lesson, p);
	} else if (dir > 0 && a->lesson + 1 < a->course->n) {
		ui_app_select(a, a->lesson + 1, 0);
	} else if (dir < 0 && a->lesson > 0) {
		ui_app_select(a, a->lesson - 1, -1);
	} else {
		app_say(a, 0, dir > 0 ? "This is the last page of the last lesson." : "This is the first page.");
		return;
	}
	if (dir < 0) /* back into the previous page: at its end */
		app_scroll(a, UI_PANE_LESSON, 1 << 20);
}

/* ---- the actions of the panes; the boxes' are in app_edit/app_exercise/app_whatif.c ---- */

static void act_nothing(ui_app *a, ui_action act, int key)
{
	(void)a, (void)act, (void)key;
}

static void act_quit(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->quit = 1;
}

/* ?: the keys of the mode it is pressed in, until any key goes back there. */
static void act_help(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->help_mode = a->mode;
	a->mode = UI_MODE_HELP;
	a->help_scroll = 0;
}

/* The help box scrolls: at 80x24 it does not hold every mode's keys. */
static void act_help_scroll(ui_app *a, ui_action act, int key)
{
	(void)key;
	int page = a->layout.help.h - 3 > 1 ? a->layout.help.h - 3 : 1;
	int d = act == UI_ACT_HELP_DOWN ? 1 : act == UI_ACT_HELP_UP ? -1 : act == UI_ACT_HELP_PAGE_DOWN ? page : -page;
	int top = a->help_scroll + d, max = ui_app_help_lines(a) - page;
	a->help_scroll = top > max ? (max > 0 ? max : 0) : top < 0 ? 0 : top;
}

/* Esc and the like in a box: back to where it was opened (the diff's text
 * is dropped once it no longer shows). */
static void act_close(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->mode = a->mode == UI_MODE_HELP ? a->help_mode : UI_MODE_NORMAL;
	if (a->mode == UI_MODE_NORMAL)
		userptx_diff_free(&a->diff);
}

static void act_lesson(ui_app *a, ui_action act, int key)
{
	(void)key;
	int to = a->lesson + (act == UI_ACT_NEXT_LESSON ? 1 : -1);
	if (to < 0 || to >= a->course->n)
		app_say(a, 0, to < 0 ? "This is the first lesson." : "This is the last lesson.");
	else
		ui_app_select(a, to, 0);
}

static void act_page(ui_app *a, ui_action act, int key)
{
	(void)key;
	next_page(a, act == UI_ACT_NEXT_PAGE ? 1 : -1);
}

static void act_scroll(ui_app *a, ui_action act, int key)
{
	(void)key;
	app_scroll(a, a->focus, act == UI_ACT_SCROLL_DOWN ? 1 : -1);
}

/* Home, End: the lesson's first or last page. */
static void act_first_last(ui_app *a, ui_action act, int key)
{
	(void)key;
	ui_app_select(a, a->lesson, act == UI_ACT_FIRST_PAGE ? 0 : -1);
}

/* c: the PTX view moves to the page's next region. */
static void act_region(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const lesson_page *pg = ui_app_page(a);
	if (!pg || pg->nanchors < 2) {
		app_say(a, 0, pg && pg->nanchors ? "This page names one PTX region." : "This page names no PTX region.");
		return;
	}
	a->region = (a->region + 1) % pg->nanchors;
	a->ptx_follow = 1;
	a->ptx_goto = -1;
	app_say(a, 0, "PTX region @%s (%d of %d)", pg->anchors[a->region], a->region + 1, pg->nanchors);
}

/* < and >: the lesson pane shrinks or grows; o swaps the PTX and the numbers slot. */
static void act_grow(ui_app *a, ui_action act, int key)
{
	(void)key;
	int before = a->layout.pane[UI_PANE_LESSON].w * 1000 + a->layout.pane[UI_PANE_LESSON].h;
	a->grow += act == UI_ACT_GROW ? 1 : -1;
	app_relayout(a);
	int after = a->layout.pane[UI_PANE_LESSON].w * 1000 + a->layout.pane[UI_PANE_LESSON].h;
	if (before == after) { /* at its limit: the step is not kept */
		a->grow -= act == UI_ACT_GROW ? 1 : -1;
		app_say(a, 0, "The lesson pane is as %s as this layout allows.", act == UI_ACT_GROW ? "big" : "small");
	}
}

static void act_swap(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	if (!a->layout.tabbed) {
		app_say(a, 0, "Every pane has its own place at this size.");
		return;
	}
	a->swap = !a->swap;
	app_relayout(a);
}

static void act_focus(ui_app *a, ui_action act, int key)
{
	(void)key;
	int dir = act == UI_ACT_FOCUS_NEXT ? 1 : -1;
	if (app_cuda_focus(a, dir))
		return;
	a->focus = (a->focus + (dir > 0 ? 1 : UI_NPANES - 1)) % UI_NPANES;
	if (a->focus == UI_PANE_NUMBERS || a->focus == UI_PANE_RUN)
		a->side = a->focus;
	app_relayout(a);
	app_cuda_focus_entered(a, dir);
}

static void act_size(ui_app *a, ui_action act, int key)
{
	(void)key;
	resize_problem(a, act == UI_ACT_SIZE_UP);
}

static void act_zoom(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->zoom = !a->zoom;
	app_relayout(a);
	if (a->zoom)
		app_say(a, 0, "The focused pane fills the screen (%s: the next one; %s: back).",
			ui_key_name(UI_MODE_NORMAL, UI_ACT_FOCUS_NEXT), ui_key_name(UI_MODE_NORMAL, UI_ACT_ZOOM));
	else
		app_say(a, 0, "All panes shown.");
}

static void act_fold(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->fold = !a->fold;
	app_say(a, 0, a->fold ? "Long repetitive runs of PTX are folded." : "All PTX lines are shown.");
}

const app_handler app_handlers[UI_NACTIONS] = {
	[UI_ACT_NONE] = act_nothing,
	[UI_ACT_QUIT] = act_quit,
	[UI_ACT_HELP] = act_help,
	[UI_ACT_NEXT_LESSON] = act_lesson,
	[UI_ACT_PREV_LESSON] = act_lesson,
	[UI_ACT_NEXT_PAGE] = act_page,
	[UI_ACT_PREV_PAGE] = act_page,
	[UI_ACT_SCROLL_DOWN] = act_scroll,
	[UI_ACT_SCROLL_UP] = act_scroll,
	[UI_ACT_FOCUS_NEXT] = act_focus,
	[UI_ACT_FOCUS_PREV] = act_focus,
	[UI_ACT_RUN] = app_act_run,
	[UI_ACT_CANCEL] = app_act_cancel,
	[UI_ACT_SIZE_UP] = act_size,
	[UI_ACT_SIZE_DOWN] = act_size,
	[UI_ACT_WHATIF] = app_act_whatif,
	[UI_ACT_FOLD] = act_fold,
	[UI_ACT_SASS] = app_act_sass,
	[UI_ACT_HOT_LINE] = app_act_hot_line,
	[UI_ACT_LINE_COLS] = app_act_line_cols,
	[UI_ACT_BASELINE] = app_act_baseline,
	[UI_ACT_WARP] = app_act_warp,
	[UI_ACT_CUDA] = app_act_cuda,
	[UI_ACT_STALLS] = app_act_stalls,
	[UI_ACT_WARP_NEXT] = app_act_warp_step,
	[UI_ACT_WARP_PREV] = app_act_warp_step,
	[UI_ACT_WARP_NEXT_WARP] = app_act_warp_step,
	[UI_ACT_WARP_PREV_WARP] = app_act_warp_step,
	[UI_ACT_WARP_NEXT_BLOCK] = app_act_warp_step,
	[UI_ACT_WARP_PREV_BLOCK] = app_act_warp_step,
	[UI_ACT_ZOOM] = act_zoom,
	[UI_ACT_ANSWER] = app_act_answer,
	[UI_ACT_HINT] = app_act_hint,
	[UI_ACT_SOLUTION] = app_act_hint,
	[UI_ACT_REDRAW] = act_nothing, /* the event loop repaints on C-l */
	[UI_ACT_EDIT] = app_act_edit,
	[UI_ACT_DIFF] = app_act_diff,
	[UI_ACT_CLOSE] = act_close,
	[UI_ACT_WHATIF_NEXT] = app_act_whatif_move,
	[UI_ACT_WHATIF_PREV] = app_act_whatif_move,
	[UI_ACT_WHATIF_DOUBLE] = app_act_whatif_change,
	[UI_ACT_WHATIF_HALVE] = app_act_whatif_change,
	[UI_ACT_WHATIF_RESET] = app_act_whatif_reset,
	[UI_ACT_ANSWER_TYPE] = app_act_answer_type,
	[UI_ACT_ANSWER_DELETE] = app_act_answer_delete,
	[UI_ACT_ANSWER_CHECK] = app_act_answer_check,
	[UI_ACT_ANSWER_NEXT] = app_act_answer_pick,
	[UI_ACT_ANSWER_PREV] = app_act_answer_pick,
	[UI_ACT_DIFF_DOWN] = app_act_diff_scroll,
	[UI_ACT_DIFF_UP] = app_act_diff_scroll,
	[UI_ACT_DIFF_PAGE_DOWN] = app_act_diff_scroll,
	[UI_ACT_DIFF_PAGE_UP] = app_act_diff_scroll,
	[UI_ACT_RESTORE] = app_act_restore,
	[UI_ACT_FIRST_PAGE] = act_first_last,
	[UI_ACT_LAST_PAGE] = act_first_last,
	[UI_ACT_REGION] = act_region,
	[UI_ACT_MENU] = app_act_menu,
	[UI_ACT_SEARCH] = app_act_search,
	[UI_ACT_NEXT_HIT] = app_act_next_hit,
	[UI_ACT_PREV_HIT] = app_act_next_hit,
	[UI_ACT_GROW] = act_grow,
	[UI_ACT_SHRINK] = act_grow,
	[UI_ACT_SWAP] = act_swap,
	[UI_ACT_HELP_DOWN] = act_help_scroll,
	[UI_ACT_HELP_UP] = act_help_scroll,
	[UI_ACT_HELP_PAGE_DOWN] = act_help_scroll,
	[UI_ACT_HELP_PAGE_UP] = act_help_scroll,
	[UI_ACT_MENU_DOWN] = app_act_menu_move,
	[UI_ACT_MENU_UP] = app_act_menu_move,
	[UI_ACT_MENU_PAGE_DOWN] = app_act_menu_move,
	[UI_ACT_MENU_PAGE_UP] = app_act_menu_move,
	[UI_ACT_MENU_TYPE] = app_act_menu_type,
	[UI_ACT_MENU_DELETE] = app_act_menu_type,
	[UI_ACT_MENU_GO] = app_act_menu_go,
	[UI_ACT_PUZZLES] = app_act_puzzles,
	[UI_ACT_PUZZLE_DOWN] = app_act_puzzle_move,
	[UI_ACT_PUZZLE_UP] = app_act_puzzle_move,
	[UI_ACT_PUZZLE_EDIT] = app_act_puzzle_edit,
	[UI_ACT_PUZZLE_CHECK] = app_act_puzzle_check,
	[UI_ACT_PUZZLE_HINT] = app_act_puzzle_hint,
	[UI_ACT_PUZZLE_SOLUTION] = app_act_puzzle_solution,
	[UI_ACT_PUZZLE_VIEW] = app_act_puzzle_view,
	[UI_ACT_SEARCH_TYPE] = app_act_search_type,
	[UI_ACT_SEARCH_DELETE] = app_act_search_type,
	[UI_ACT_SEARCH_GO] = app_act_search_go,
	[UI_ACT_ED_MOVE] = app_act_ed_move,
	[UI_ACT_ED_TYPE] = app_act_ed_edit,
	[UI_ACT_ED_BACKSPACE] = app_act_ed_edit,
	[UI_ACT_ED_DELETE] = app_act_ed_edit,
	[UI_ACT_ED_ENTER] = app_act_ed_edit,
	[UI_ACT_ED_SAVE] = app_act_ed_save,
	[UI_ACT_ED_QUIT] = app_act_ed_quit,
};

void ui_app_key(ui_app *a, int key)
{
	/* In the panes a key clears the last message; a box keeps it in view. */
	if (a->mode == UI_MODE_NORMAL)
		a->msg[0] = '\0';
	ui_action act = ui_key_action(a->mode, key);
	app_handlers[act](a, act, key);
}
