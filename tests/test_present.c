/* test_present: the tutor on the real course as a lecturer and a student without a GPU see it — exact highlight, pager, lecture layout, numbers that follow the page, honest run pane, ASCII, mouse, progress, and the colours of every theme. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "course/lesson.h"
#include "exec/backend.h"
#include "model/devices.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/frame.h"
#include "ui/palette.h"
#include "ui/pane_numbers.h"
#include "ui/pane_text.h"
#include "ui/theme.h"

static char dir[PATH_MAX];

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/ptxtutor-present-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	setenv("XDG_DATA_HOME", dir, 1);
	setenv("XDG_STATE_HOME", dir, 1);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The real course at a lesson and page (1-based page as on screen), a size. */
static ui_app *open_at(const char *lesson, int page, int cols, int rows, int present, const char *gpu,
		       const char *no_gpu)
{
	course *c = calloc(1, sizeof *c);
	assert_non_null(c);
	assert_true(course_load(c, NULL, 0) >= 10);
	gpu_table *g = calloc(1, sizeof *g);
	char err[256];
	assert_true(devices_load(g, err, sizeof err) > 0);
	ui_opts o = {.lesson = lesson, .page = page - 1, .present = present, .gpu = gpu, .no_gpu = no_gpu};
	ui_app *a = calloc(1, sizeof *a);
	assert_int_equal(ui_app_setup(a, &o, c, g, err, sizeof err), 0);
	free(g);
	ui_app_resize(a, cols, rows);
	return a;
}

static void close_app(ui_app *a)
{
	ui_app_free(a);
	free(a);
}

static void keys(ui_app *a, const char *k)
{
	for (; *k; k++)
		ui_app_key(a, (unsigned char)*k);
}

/* The frame's text, all rows, for strstr. */
static const char *screen(const ui_app *a, ui_frame *f)
{
	static char buf[64 * 1024];
	ui_draw(a, f);
	size_t o = 0;
	for (int y = 0; y < f->rows && o + 1024 < sizeof buf; y++) {
		o += (size_t)ui_frame_row_text(f, y, buf + o, sizeof buf - o - 2);
		buf[o++] = '\n';
	}
	buf[o] = '\0';
	return buf;
}

/* The page of a lesson that names a region. */
static int page_naming(const ui_app *a, int li, const char *region)
{
	const lesson *l = &a->course->l[li];
	for (int p = 0; p < l->npages; p++)
		for (int k = 0; k < l->pages[p].nanchors; k++)
			if (!strcmp(l->pages[p].anchors[k], region))
				return p;
	return -1;
}

/* ---- exact highlight: the named regions' lines, no others; c cycles ---- */

static void test_exact_highlight(void **st)
{
	(void)st;
	ui_app *a = open_at("3", 1, 160, 48, 0, NULL, NULL);
	int p = page_naming(a, a->lesson, "load-tile");
	assert_true(p >= 0);
	ui_app_select(a, a->lesson, p);
	const lesson_page *pg = ui_app_page(a);
	const ptx_doc *d = &a->ptx[a->lesson].doc;
	assert_true(pg->nanchors >= 2);
	/* Marked lines, asked of the app, are exactly those of the regions the page names. */
	int named = 0, marked = 0;
	for (int line = 0; line < d->nlines; line++) {
		int in = 0;
		for (int k = 0; k < pg->nanchors; k++) {
			const ptx_region *r = ptx_region_find(d, pg->anchors[k]);
			in |= r && line >= r->first && line <= r->last;
		}
		named += in;
		marked += ui_app_line_marked(a, line);
		if (in != ui_app_line_marked(a, line))
			fail_msg("line %d: named %d, marked %d", line + 1, in, ui_app_line_marked(a, line));
	}
	assert_int_equal(named, marked);
	int f0, l0, f1, l1;
	ui_app_anchor_lines(a, &f0, &l0);
	assert_true(marked < l0 - f0 + 1); /* not the span from the first to the last */
	/* On screen: a row carries the highlight exactly when its line is named. */
	ui_frame f;
	ui_frame_init(&f, 160, 48);
	ui_draw(a, &f);
	ui_rect body = ui_layout_body(a->layout.pane[UI_PANE_PTX]);
	int rows_hl = 0;
	for (int y = body.y; y < body.y + body.h; y++) {
		char row[1024];
		ui_frame_row_text(&f, y, row, sizeof row);
		int line = atoi(row + body.x) - 1;
		int hl = f.cells[y * f.cols + body.x + body.w / 2].flags & UI_CELL_HL;
		if (line >= 0 && !!hl != ui_app_line_marked(a, line))
			fail_msg("screen row %d (PTX line %d): highlight %d", y, line + 1, !!hl);
		rows_hl += !!hl;
	}
	assert_true(rows_hl > 0);
	/* c: the view moves to the next region, and the title says which. */
	assert_non_null(strstr(screen(a, &f), "(1/"));
	ui_app_region_lines(a, 1, &f1, &l1);
	keys(a, "c");
	assert_int_equal(a->region, 1);
	const char *s = screen(a, &f);
	assert_non_null(strstr(s, "(2/"));
	char want[64];
	snprintf(want, sizeof want, "%3d", f1 + 1);
	assert_non_null(strstr(s, want));
	for (int i = 1; i < pg->nanchors; i++)
		keys(a, "c");
	assert_int_equal(a->region, 0);
	ui_frame_free(&f);
	close_app(a);
}

/* ---- the pager: Space reads a long page to its end before the page turns ---- */

static void test_pager(void **st)
{
	(void)st;
	ui_app *a = open_at("1", 1, 100, 30, 1, NULL, NULL);
	ui_frame f;
	ui_frame_init(&f, 100, 30);
	ui_view v = ui_pane_view_of(a, UI_PANE_LESSON);
	assert_true(v.below > 0); /* page 1 of lesson 1 is longer than the pane */
	char more[64];
	snprintf(more, sizeof more, "more below (%d lines): Space", v.below);
	assert_non_null(strstr(screen(a, &f), more));
	int presses = 0;
	while (ui_pane_view_of(a, UI_PANE_LESSON).below > 0 && presses < 50) {
		int top = ui_pane_view_of(a, UI_PANE_LESSON).top;
		keys(a, " ");
		presses++;
		assert_int_equal(a->page, 0);
		assert_true(ui_pane_view_of(a, UI_PANE_LESSON).top > top);
	}
	assert_true(presses > 0);
	assert_non_null(strstr(screen(a, &f), "end of the page"));
	keys(a, " ");
	assert_int_equal(a->page, 1);
	assert_int_equal(ui_pane_view_of(a, UI_PANE_LESSON).top, 0);
	/* Back: into the previous page at its end, then up it. */
	ui_app_key(a, UI_KEY_LEFT);
	assert_int_equal(a->page, 0);
	assert_int_equal(ui_pane_view_of(a, UI_PANE_LESSON).below, 0);
	ui_app_key(a, UI_KEY_PGUP);
	assert_int_equal(a->page, 0);
	assert_true(ui_pane_view_of(a, UI_PANE_LESSON).below > 0);
	/* Home and End: the lesson's first and last page. */
	ui_app_key(a, UI_KEY_END);
	assert_int_equal(a->page, ui_app_lesson(a)->npages - 1);
	ui_app_key(a, UI_KEY_HOME);
	assert_int_equal(a->page, 0);
	ui_frame_free(&f);
	close_app(a);
}

/* ---- the lecture layout: 80 columns of text, no diagram cut or wrapped ---- */

static void test_present_layout(void **st)
{
	(void)st;
	static const int sizes[][2] = {{100, 30}, {120, 36}, {160, 48}};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		ui_app *a = open_at("1", 1, sizes[s][0], sizes[s][1], 1, NULL, NULL);
		assert_int_equal(ui_pane_text_width(a, UI_PANE_LESSON), UI_TEXT_COLS);
		if (sizes[s][0] >= 152) /* the PTX beside the text, where it keeps 60 columns of code */
			assert_true(a->layout.pane[UI_PANE_PTX].x > a->layout.pane[UI_PANE_LESSON].x);
		else /* under it */
			assert_true(a->layout.pane[UI_PANE_PTX].y > a->layout.pane[UI_PANE_LESSON].y);
		/* No fenced line of any page wraps (a wrapped one starts with a dim '>'). */
		for (int li = 0; li < a->course->n; li++)
			for (int p = 0; p < a->course->l[li].npages; p++) {
				ui_app_select(a, li, p);
				ui_lines t;
				ui_pane_text(&t, a, UI_PANE_LESSON, ui_pane_text_width(a, UI_PANE_LESSON));
				for (int ln = 0; ln < t.nlines; ln++) {
					int i = t.start[ln];
					if (i + 1 < t.start[ln + 1] && t.cp[i] == '>' && t.role[i] == UI_ROLE_DIM)
						fail_msg("%dx%d lesson %d page %d line %d wraps", sizes[s][0], sizes[s][1],
							 a->course->l[li].number, p + 1, ln);
				}
				ui_lines_free(&t);
			}
		/* < and > resize the lesson pane; o swaps the PTX and the numbers. */
		ui_rect before = a->layout.pane[UI_PANE_LESSON];
		keys(a, ">");
		ui_rect grown = a->layout.pane[UI_PANE_LESSON];
		assert_true(grown.w * grown.h > before.w * before.h);
		keys(a, "<<");
		ui_rect shrunk = a->layout.pane[UI_PANE_LESSON];
		assert_true(shrunk.w * shrunk.h < before.w * before.h);
		ui_rect ptx = a->layout.pane[UI_PANE_PTX];
		keys(a, "o");
		assert_int_equal(a->layout.pane[UI_PANE_NUMBERS].y, ptx.y);
		assert_int_equal(a->layout.pane[UI_PANE_NUMBERS].h, ptx.h);
		close_app(a);
	}
}

/* ---- the numbers follow the page ---- */

static void test_numbers_follow(void **st)
{
	(void)st;
	ui_app *a = open_at("3", 1, 120, 36, 1, NULL, NULL);
	int named = 0;
	for (int li = 0; li < a->course->n; li++)
		for (int p = 0; p < a->course->l[li].npages; p++) {
			const char *sec = a->course->l[li].pages[p].numbers;
			if (!sec[0])
				continue;
			named++;
			if (!ui_pane_numbers_known(sec))
				fail_msg("lesson %d page %d: @numbers %s names no section", a->course->l[li].number, p + 1, sec);
		}
	assert_true(named > 5);
	/* Lesson 3's occupancy page: the section scrolled into view and marked. */
	int page = -1;
	for (int p = 0; p < ui_app_lesson(a)->npages && page < 0; p++)
		if (!strcmp(ui_app_lesson(a)->pages[p].numbers, "occupancy"))
			page = p;
	assert_true(page >= 0);
	ui_app_select(a, a->lesson, page);
	ui_frame f;
	ui_frame_init(&f, 120, 36);
	ui_draw(a, &f);
	ui_rect body = ui_layout_body(a->layout.pane[UI_PANE_NUMBERS]);
	char row[1024];
	ui_frame_row_text(&f, body.y, row, sizeof row);
	assert_non_null(strstr(row, "Occupancy"));
	assert_true(f.cells[body.y * f.cols + body.x + 2].flags & UI_CELL_HL);
	/* Scrolling the pane by hand lets go of the section. */
	a->focus = UI_PANE_NUMBERS;
	a->side = UI_PANE_NUMBERS;
	keys(a, "k");
	assert_int_equal(a->numbers_follow, 0);
	ui_frame_free(&f);
	close_app(a);
}

/* ---- short labels never run into their values ---- */

static void test_narrow_labels(void **st)
{
	(void)st;
	ui_lines t;
	ui_lines_init(&t);
	ui_lines_kv(&t, "sectors A / B|sectors A/B", "4 / 4", UI_ROLE_EMPH, "32 B each, one request per warp", 28);
	ui_lines_kv(&t, "a label far too long for it", "7", UI_ROLE_EMPH, NULL, 28);
	char l[8][64] = {""};
	assert_true(t.nlines >= 3 && t.nlines <= 8);
	for (int k = 0; k < t.nlines; k++)
		for (int i = t.start[k], o = 0; i < t.start[k + 1]; i++)
			l[k][o++] = (char)t.cp[i];
	assert_string_equal(l[0], " sectors A/B 4 / 4");
	/* The note, units and all, on lines of its own under the value. */
	assert_int_equal(strncmp(l[1], "             32 B each", 22), 0);
	assert_non_null(strstr(l[t.nlines - 2], "warp"));
	assert_string_equal(l[t.nlines - 1], " a label fa. 7");
	ui_lines_free(&t);
}

/* ---- honest about the machine ---- */

static void test_honest_without_gpu(void **st)
{
	(void)st;
	ui_frame f;
	ui_frame_init(&f, 160, 48);
	ui_app *a = open_at("1", 1, 160, 48, 0, NULL, "no NVIDIA driver on this machine");
	const char *s = screen(a, &f);
	assert_non_null(strstr(s, "(model; no GPU here)"));
	assert_non_null(strstr(s, "r emulates it on the CPU"));
	/* Lessons 9 and 10: the emulator runs TMA, mbarriers, clusters and wgmma, so r emulates them too. */
	for (int l = 9; l <= 10; l++) {
		ui_app_select(a, l, 0);
		s = screen(a, &f);
		assert_non_null(strstr(s, "r emulates it on the CPU"));
		assert_null(strstr(s, "cannot run this kernel"));
		assert_null(strstr(s, "parse error"));
		keys(a, "r");
		assert_int_equal(a->req, UI_REQ_RUN);
		a->req = UI_REQ_NONE;
	}
	/* Lesson 0: its own PTX example and the GPU's roofline, no kernel's numbers. */
	ui_app_select(a, 0, 0);
	s = screen(a, &f);
	assert_non_null(strstr(s, "PTX example from the lesson text"));
	assert_non_null(strstr(s, ".entry"));
	assert_non_null(strstr(s, "The GPU (model)"));
	assert_null(strstr(s, "Intensity (FLOP/B)"));
	close_app(a);

	/* --gpu t4: a lesson it cannot run says so where the run would be. */
	a = open_at("8", 1, 160, 48, 0, "t4", NULL);
	s = screen(a, &f);
	assert_non_null(strstr(s, "(sm_75) cannot run this lesson: it needs sm_80"));
	assert_non_null(strstr(s, "(model)"));
	close_app(a);
	ui_frame_free(&f);
}

/* r at a size the kernel does not take runs at the nearest one and says which. */
static void test_nearest_size(void **st)
{
	(void)st;
	ui_app *a = open_at("8", 1, 160, 48, 0, NULL, NULL);
	a->M = a->N = a->K = 64;
	run_request rq;
	char err[256];
	assert_int_equal(ui_app_request(a, &rq, err, sizeof err), 0);
	const lesson *l = ui_app_lesson(a);
	expr_env env;
	long long near[3];
	lesson_env(l, &a->whatif, 64, 64, 64, &env);
	assert_int_equal(lesson_nearest_size(l, &env, near, err, sizeof err), 0);
	assert_true(near[0] != 64 || near[1] != 64 || near[2] != 64);
	assert_true(rq.M == near[0] && rq.N == near[1] && rq.K == near[2]);
	keys(a, "r");
	assert_int_equal(a->req, UI_REQ_RUN);
	ui_app_run_started(a, 1.0, NULL);
	assert_non_null(strstr(a->msg, "the nearest size it takes"));
	assert_null(strstr(a->msg, "--size"));
	close_app(a);
}

/* ---- ASCII all the way: the lessons' pictures too ---- */

static void test_ascii_pictures(void **st)
{
	(void)st;
	ui_app *a = open_at("1", 2, 120, 36, 1, NULL, NULL);
	a->ascii = 1;
	ui_frame f;
	ui_frame_init(&f, 120, 36);
	const char *s = screen(a, &f);
	for (int i = 0; i < f.cols * f.rows; i++)
		if (f.cells[i].ch > 126 || f.cells[i].ch < 32)
			fail_msg("cell %d,%d is U+%04X", i % f.cols, i / f.cols, f.cells[i].ch);
	assert_non_null(strstr(s, "+-+-+")); /* the diagram's box drawing, as ASCII */
	assert_int_equal(ui_ascii_of(0x2500), '-');
	assert_int_equal(ui_ascii_of(0x2502), '|');
	assert_int_equal(ui_ascii_of(0x250C), '+');
	assert_int_equal(ui_ascii_of(0x2588), '#');
	assert_int_equal(ui_ascii_of(0x2192), '>');
	assert_int_equal(ui_ascii_of(0x00D7), 'x');
	ui_frame_free(&f);
	close_app(a);
}

/* ---- the mouse: a click focuses, the wheel scrolls the pane under it, picks in the menu ---- */

static void test_mouse(void **st)
{
	(void)st;
	ui_app *a = open_at("1", 1, 160, 48, 0, NULL, NULL);
	ui_rect p = a->layout.pane[UI_PANE_PTX];
	ui_app_mouse(a, UI_MOUSE_CLICK, p.x + 3, p.y + 2);
	assert_int_equal(a->focus, UI_PANE_PTX);
	ui_rect l = a->layout.pane[UI_PANE_LESSON];
	ui_app_mouse(a, UI_MOUSE_WHEEL_DOWN, l.x + 3, l.y + 2);
	assert_int_equal(a->focus, UI_PANE_PTX); /* the wheel does not move the focus */
	assert_true(a->scroll[UI_PANE_LESSON] > 0);
	ui_app_mouse(a, UI_MOUSE_WHEEL_UP, l.x + 3, l.y + 2);
	assert_int_equal(a->scroll[UI_PANE_LESSON], 0);
	/* In the menu a click picks the row under it. */
	keys(a, "g");
	assert_int_equal(a->mode, UI_MODE_MENU);
	ui_rect m = a->layout.help;
	int top = ui_app_menu_top(a, m.h - 3), li, pi;
	ui_app_menu_entry(a, top + 2, &li, &pi);
	ui_app_mouse(a, UI_MOUSE_CLICK, m.x + 4, m.y + 1 + 2);
	assert_int_equal(a->mode, UI_MODE_NORMAL);
	assert_int_equal(a->lesson, li);
	assert_int_equal(a->page, pi < 0 ? 0 : pi);
	close_app(a);
}

/* ---- progress: pages read to their end and exercises solved are remembered ---- */

static void test_progress(void **st)
{
	(void)st;
	ui_app *a = open_at("3", 1, 100, 30, 1, NULL, NULL);
	const state_progress *p = ui_app_progress(a, a->lesson);
	assert_true(!p || !state_marked(p->read, 0)); /* longer than the pane: not read yet */
	while (ui_pane_view_of(a, UI_PANE_LESSON).below > 0)
		keys(a, " ");
	p = ui_app_progress(a, a->lesson);
	assert_non_null(p);
	assert_true(state_marked(p->read, 0));
	assert_false(state_marked(p->read, 1));
	state_data s;
	ui_app_saved(a, &s);
	assert_string_equal(s.lesson, "smem");
	assert_true(state_marked(state_progress_find(&s, "smem")->read, 0));
	state_free(&s);
	/* The menu shows it. */
	ui_frame f;
	ui_frame_init(&f, 100, 30);
	keys(a, "g");
	const char *scr = screen(a, &f);
	assert_non_null(strstr(scr, "(1/"));
	assert_non_null(strstr(scr, "* 3.1 "));
	ui_frame_free(&f);
	close_app(a);
}

/* ---- small things: the what-if box's selected row at 80x24, messages beside the hints ---- */

static void test_small_screens(void **st)
{
	(void)st;
	ui_app *a = open_at("7", 1, 80, 24, 0, NULL, NULL);
	ui_frame f;
	ui_frame_init(&f, 80, 24);
	keys(a, "t");
	int rows = ui_app_lesson(a)->nparams + 1;
	assert_true(rows > 6);
	for (int i = 0; i < rows - 1; i++)
		ui_app_key(a, UI_KEY_DOWN);
	/* The last row (registers) is selected and shown, in the selection's role. */
	const char *s = screen(a, &f);
	assert_non_null(strstr(s, "regs "));
	int shown = 0;
	for (int i = 0; i < f.cols * f.rows; i++)
		shown |= f.cells[i].role == UI_ROLE_SELECT && f.cells[i].ch == 'r';
	assert_true(shown);
	ui_app_key(a, UI_KEY_ESC);
	/* A what-if back at the lesson's value leaves the header. */
	keys(a, "t+-");
	ui_app_key(a, UI_KEY_ESC);
	assert_null(strstr(screen(a, &f), "what-if "));
	/* A long message: the hints stay whole, "? help" among them. */
	ui_app_select(a, a->lesson, 0);
	keys(a, "c"); /* "This page names ..." */
	assert_true(a->msg[0]);
	s = screen(a, &f);
	const char *last = strrchr(s, '\n');
	while (last > s && last[-1] != '\n')
		last--;
	assert_non_null(strstr(last, "page 1/"));
	assert_non_null(strstr(last, "? help"));
	assert_non_null(strstr(last, "q quit"));
	assert_non_null(strstr(last, "names"));
	ui_frame_free(&f);
	close_app(a);
}

/* ---- colours: the palette formula, and every theme's cells readable ---- */

/* `r` without a GPU: the emulation the loop would run in the worker, here. */
static void emulate(ui_app *a)
{
	static run_result r;
	run_request rq;
	char err[256];
	keys(a, "r");
	assert_int_equal(a->req, UI_REQ_RUN);
	assert_int_equal(ui_app_request(a, &rq, err, sizeof err), 0);
	a->req = UI_REQ_NONE;
	ui_app_run_started(a, 0, NULL);
	memset(&r, 0, sizeof r);
	exec_run(&rq, &r);
	assert_int_equal(r.status, RUN_OK);
	ui_app_run_finished(a, &r);
}

/* Review of 2026-11-27: at 120x36 --present after r lesson 1's
 * instructions show whole beside their counts (F5: 12 characters of each);
 * the run slot breaks at words (F3); lesson 9, whose loads are TMA copies,
 * says how many bytes those moved, not "0 sectors/request" (F13). */
static void test_lecture_after_run(void **st)
{
	(void)st;
	ui_frame f;
	ui_frame_init(&f, 120, 36);
	ui_app *a = open_at("1", 4, 120, 36, 1, NULL, "no NVIDIA driver (test)");
	emulate(a);
	const char *s = screen(a, &f);
	assert_non_null(strstr(s, " inst s/req"));
	assert_non_null(strstr(s, "mul.wide.u32 %off, %row, %K;"));
	assert_non_null(strstr(s, "mul.wide.u32 %strideB, %N, 4;"));
	assert_non_null(strstr(s, "PASS, verified on the"));
	assert_null(strstr(s, "sectors/reques\n"));
	assert_int_equal(f.cuts, 0);
	close_app(a);
	ui_frame_free(&f);
	ui_frame_init(&f, 100, 30);
	a = open_at("9", 1, 100, 30, 1, NULL, "no NVIDIA driver (test)");
	emulate(a);
	s = screen(a, &f);
	assert_int_equal(f.cuts, 0);
	/* the whole run pane, scrolled or not */
	ui_lines t;
	ui_pane_text(&t, a, UI_PANE_RUN, ui_pane_text_width(a, UI_PANE_RUN));
	char run[8192];
	size_t o = 0;
	for (int i = 0; i < t.nlines && o + 8 < sizeof run; i++) {
		for (int k = t.start[i]; k < t.start[i + 1] && o + 8 < sizeof run; k++)
			o += (size_t)ui_utf8_encode(t.cp[k], run + o);
		run[o++] = '\n';
	}
	run[o] = '\0';
	ui_lines_free(&t);
	const char *g = strstr(run, "gmem loads  "), *nl = g ? strchr(g, '\n') : NULL;
	assert_non_null(nl); /* "gmem loads  N bytes", the unit with its number */
	assert_true(nl - g > 18 && !strncmp(nl - 6, " bytes", 6));
	assert_non_null(strstr(nl, "via TMA"));
	assert_null(strstr(run, "gmem loads  0"));
	close_app(a);
	ui_frame_free(&f);
}

static void test_palette(void **st)
{
	(void)st;
	unsigned char c[3];
	ui_palette_rgb(16, 0, c);
	assert_true(c[0] == 0 && c[1] == 0 && c[2] == 0);
	ui_palette_rgb(196, 0, c);
	assert_true(c[0] == 255 && c[1] == 0 && c[2] == 0);
	ui_palette_rgb(110, 0, c); /* 110 = 16 + 2*36 + 3*6 + 4 */
	assert_true(c[0] == 135 && c[1] == 175 && c[2] == 215);
	ui_palette_rgb(232, 0, c);
	assert_int_equal(c[0], 8);
	ui_palette_rgb(255, 0, c);
	assert_int_equal(c[2], 238);
	assert_true(ui_palette_contrast(15, 0) > 20.9 && ui_palette_contrast(15, 0) < 21.1);
	assert_true(ui_palette_contrast(0, 0) < 1.001);
	assert_true(ui_palette_contrast(4, 0) < 4.5); /* xterm's blue on black: too faint for text */
	assert_int_equal(ui_palette_reduce(196, 8), 1);
	assert_int_equal(ui_palette_reduce(-1, 8), -1);
	assert_int_equal(ui_palette_reduce(3, 8), 3);
}

/* A cell's colours as the terminal shows them (ui/term.c's rules). */
static void cell_colours(const ui_theme *t, const ui_cell *cell, int n, int *fg, int *bg)
{
	const ui_style *s = &t->role[cell->role];
	int hl = cell->flags & UI_CELL_HL;
	*fg = ui_palette_reduce(s->fg, n);
	*bg = ui_palette_reduce(hl ? (n < 256 ? t->hl_bg8 : t->hl_bg) : s->bg, n);
	if (*fg < 0)
		*fg = UI_PALETTE_DEFAULT_FG;
	if (*bg < 0)
		*bg = UI_PALETTE_DEFAULT_BG;
	if ((s->attr & UI_A_REVERSE) && !hl) {
		int x = *fg;
		*fg = *bg;
		*bg = x;
	}
}

/* Every cell of a frame: its foreground never its background; text (all
 * but borders) at least the theme's contrast, 4.5:1 at the least, on 256
 * colours; on 8 colours at least not invisible. */
static void check_cells(const ui_theme *t, const ui_frame *f, const char *what)
{
	double need = t->contrast > 4.5 ? t->contrast : 4.5;
	for (int i = 0; i < f->cols * f->rows; i++) {
		const ui_cell *c = &f->cells[i];
		int fg, bg;
		cell_colours(t, c, 256, &fg, &bg);
		if (fg == bg)
			fail_msg("theme %s, %s: cell %d,%d '%c' role %d: colour %d on itself", t->name, what, i % f->cols,
				 i / f->cols, c->ch < 127 ? (int)c->ch : '?', c->role, fg);
		double k = ui_palette_contrast(fg, bg);
		if (c->role != UI_ROLE_BORDER && c->ch != ' ' && k < need)
			fail_msg("theme %s, %s: cell %d,%d role %d: %d on %d has contrast %.2f < %.1f", t->name, what,
				 i % f->cols, i / f->cols, c->role, fg, bg, k, need);
		cell_colours(t, c, 8, &fg, &bg);
		if (fg == bg && c->ch != ' ')
			fail_msg("theme %s on 8 colours, %s: role %d is %d on itself", t->name, what, c->role, fg);
	}
}

static void test_every_theme_readable(void **st)
{
	(void)st;
	ui_app *a = open_at("3", 1, 160, 48, 0, NULL, NULL);
	int p = page_naming(a, a->lesson, "load-tile");
	ui_frame f;
	ui_frame_init(&f, 160, 48);
	for (int i = 0; i < ui_ntheme; i++) {
		const ui_theme *t = ui_themes[i];
		if (!t->colour)
			continue;
		a->theme = t;
		/* Every role on its own background, drawn or not; on the highlight,
		 * every role drawn on the text's background (the roles with a
		 * background of their own, header and the like, are never in a
		 * highlighted row). */
		for (int r = 0; r < UI_NROLES; r++)
			for (int hl = 0; hl < 2; hl++) {
				if (hl && (t->role[r].bg != t->role[UI_ROLE_NORMAL].bg || (t->role[r].attr & UI_A_REVERSE)))
					continue;
				ui_cell c = {.ch = 'x', .role = (uint8_t)r, .flags = (uint8_t)(hl ? UI_CELL_HL : 0)};
				ui_frame one = {.cols = 1, .rows = 1, .cells = &c};
				check_cells(t, &one, hl ? "a role on the highlight" : "a role");
			}
		/* And the screens: a highlighted region, the help, the menu, a what-if. */
		ui_app_select(a, a->lesson, p);
		ui_draw(a, &f);
		check_cells(t, &f, "lesson 3, load-tile page");
		const char *boxes[] = {"?", "g", "t"};
		for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++) {
			keys(a, boxes[b]);
			ui_draw(a, &f);
			check_cells(t, &f, boxes[b]);
			ui_app_key(a, UI_KEY_ESC);
		}
	}
	/* The projector theme promises AAA (7:1) and is --present's default. */
	assert_true(ui_theme_find("projector")->contrast >= 7);
	assert_ptr_equal(ui_theme_pick(NULL, 1, NULL), ui_theme_find("projector"));
	ui_frame_free(&f);
	close_app(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_highlight),
		cmocka_unit_test(test_pager),
		cmocka_unit_test(test_present_layout),
		cmocka_unit_test(test_numbers_follow),
		cmocka_unit_test(test_narrow_labels),
		cmocka_unit_test(test_honest_without_gpu),
		cmocka_unit_test(test_nearest_size),
		cmocka_unit_test(test_ascii_pictures),
		cmocka_unit_test(test_mouse),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_small_screens),
		cmocka_unit_test(test_lecture_after_run),
		cmocka_unit_test(test_palette),
		cmocka_unit_test(test_every_theme_readable),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
