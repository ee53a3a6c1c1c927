/* test_render: the tutor drawn on a curses screen (newterm on a file), read back with mvwinnstr, at several sizes and in several states. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/measured.h"
#include "model/devices.h"
#include "course/lesson.h"
#include "run/launch.h"
#include "ui/app.h"
#include "exec/backend.h"
#include "ui/draw.h"
#include "ui/frame.h"
#include "ui/keys.h"
#include "ui/palette.h"
#include "ui/prose.h"
#include "ui/ptx_counts.h"
#include "ui/term.h"
#include "ui/theme.h"
#include "base/util.h"

/* ---- a two-lesson course written for the test, in a root of its own ---- */

static const char ptx1[] =
	"// Fixture: one thread per element of C.\n"
	".version 7.0\n"
	".target sm_50\n"
	".address_size 64\n"
	"\n"
	".visible .entry fx_naive(\n"
	"\t.param .u64 A, .param .u64 B, .param .u64 C,\n"
	"\t.param .u32 M, .param .u32 N, .param .u32 K)\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %row, %col, %t0, %t1;\n"
	"\t.reg .f32 %acc;\n"
	"\t// @index\n"
	"\tmov.u32 %t0, %ctaid.x;\n"
	"\tmov.u32 %t1, %tid.x;\n"
	"\tmad.lo.s32 %row, %t0, 32, %t1;\n"
	"\t// @end\n"
	"\tmov.f32 %acc, 0f00000000;\n"
	"\tret;\n"
	"}\n";

/* Lesson 2 has a long run of same-shaped lines, for folding. */
static const char ptx2[] =
	"// Fixture: an unrolled body.\n"
	".version 7.0\n"
	".target sm_50\n"
	".address_size 64\n"
	".visible .entry fx_coal(\n"
	"\t.param .u64 A, .param .u64 B, .param .u64 C,\n"
	"\t.param .u32 M, .param .u32 N, .param .u32 K)\n"
	"{\n"
	"\t.reg .f32 %acc<8>, %a<8>, %b<8>;\n"
	"\t// @body\n"
	"\tfma.rn.f32 %acc0, %a0, %b0, %acc0;\n"
	"\tfma.rn.f32 %acc1, %a1, %b1, %acc1;\n"
	"\tfma.rn.f32 %acc2, %a2, %b2, %acc2;\n"
	"\tfma.rn.f32 %acc3, %a3, %b3, %acc3;\n"
	"\tfma.rn.f32 %acc4, %a4, %b4, %acc4;\n"
	"\tfma.rn.f32 %acc5, %a5, %b5, %acc5;\n"
	"\tfma.rn.f32 %acc6, %a6, %b6, %acc6;\n"
	"\tfma.rn.f32 %acc7, %a7, %b7, %acc7;\n"
	"\t// @end\n"
	"\tret;\n"
	"}\n";

static const char md1[] =
	"---\n"
	"id: naive\n"
	"title: Fixture naive kernel\n"
	"kernel: ptx/01_naive.ptx fx_naive\n"
	"dtype: f32\n"
	"params: BS=32\n"
	"block: BS BS\n"
	"tile: BS BS\n"
	"model: naive\n"
	"needs: sm_50\n"
	"regs: 24\n"
	"---\n"
	"# One thread per output\n"
	"Each thread computes one element of C. Its intensity is {ai.global}.\n"
	"\n"
	"- a list item with `code` and **bold**\n"
	"# Where the indices come from\n"
	"@ptx index\n"
	"The row comes from the block and thread indices.\n"
	"# The loop\n"
	"Two loads per FMA.\n"
	"@exercise ai.global tol=0.01\n"
	"What is the global arithmetic intensity, in FLOP per byte?\n"
	"@hint Two loads of four bytes for one FMA.\n"
	"@answer It is {ai.global}.\n"
	"@exercise occupancy.threads BS=16\n"
	"With 16 x 16 blocks, how many threads per block?\n"
	"@hint BS times BS, not {occupancy.threads}.\n"
	"@answer {occupancy.threads} threads.\n";

static const char md2[] =
	"---\n"
	"id: coal\n"
	"title: Fixture coalesced kernel\n"
	"kernel: ptx/02_coal.ptx fx_coal\n"
	"dtype: f32\n"
	"params: BS=32\n"
	"block: BS BS\n"
	"tile: BS BS\n"
	"model: coalesced\n"
	"needs: sm_50\n"
	"regs: 24\n"
	"---\n"
	"# Swap the mapping\n"
	"Lanes now walk along a row.\n";

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int make_root(void **st)
{
	(void)st;
	char here[PATH_MAX];
	const char *src = getenv("PTXTUTOR_ROOT");
	if (!src || !*src)
		src = getcwd(here, sizeof here);
	snprintf(root, sizeof root, "/tmp/ptxtutor-render-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	char p[PATH_MAX + 64], assets[PATH_MAX + 64];
	snprintf(p, sizeof p, "%s/lessons", root);
	mkdir(p, 0700);
	snprintf(p, sizeof p, "%s/ptx", root);
	mkdir(p, 0700);
	snprintf(p, sizeof p, "%s/assets", root);
	snprintf(assets, sizeof assets, "%s/assets", src);
	if (symlink(assets, p) < 0)
		return -1;
	put("ptx/01_naive.ptx", ptx1);
	put("ptx/02_coal.ptx", ptx2);
	put("lessons/01-naive.md", md1);
	put("lessons/02-coal.md", md2);
	/* util_root() is read once per process: this is its first use. */
	setenv("PTXTUTOR_ROOT", root, 1);
	snprintf(p, sizeof p, "%s/state", root);
	setenv("XDG_STATE_HOME", p, 1);
	snprintf(p, sizeof p, "%s/data", root);
	setenv("XDG_DATA_HOME", p, 1);
	unsetenv("NO_COLOR");
	/* Wide characters read back as themselves only in a UTF-8 locale. */
	setenv("LC_ALL", "C.UTF-8", 1);
	return 0;
}

static int remove_root(void **st)
{
	(void)st;
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- an app, a frame and a curses screen of a given size ---- */

typedef struct {
	ui_app *a;
	ui_frame f;
	SCREEN *scr;
	FILE *out, *in;
} rig;

static void rig_open(rig *r, int cols, int rows, int present, int ascii)
{
	memset(r, 0, sizeof *r);
	course *c = calloc(1, sizeof *c);
	assert_non_null(c);
	char errs[2048] = "";
	assert_int_equal(course_load(c, errs, sizeof errs), 2);
	gpu_table *g = calloc(1, sizeof *g);
	char err[256];
	assert_true(devices_load(g, err, sizeof err) > 0);
	ui_opts o = {.present = present, .ascii = ascii, .lesson = "1", .page = 0};
	r->a = calloc(1, sizeof *r->a);
	assert_int_equal(ui_app_setup(r->a, &o, c, g, err, sizeof err), 0);
	free(g);
	ui_app_resize(r->a, cols, rows);
	ui_frame_init(&r->f, cols, rows);
	r->out = fopen("/dev/null", "w");
	r->in = fopen("/dev/null", "r");
	r->scr = newterm("xterm", r->out, r->in);
	assert_non_null(r->scr);
	set_term(r->scr);
	resize_term(rows, cols);
	start_color();
	ui_term_colours(r->a->theme);
}

static void rig_close(rig *r)
{
	endwin();
	delscreen(r->scr);
	fclose(r->out);
	fclose(r->in);
	ui_frame_free(&r->f);
	ui_app_free(r->a);
	free(r->a);
}

/* Draws and copies to the curses screen, as the tutor does. */
static void show(rig *r)
{
	ui_draw(r->a, &r->f);
	ui_term_blit(stdscr, &r->f, r->a->theme);
}

static void keys(rig *r, const char *k)
{
	for (; *k; k++)
		ui_app_key(r->a, *k == '\r' ? '\n' : *k == 27 ? UI_KEY_ESC : (unsigned char)*k);
}

/* Row y of the curses screen (wide characters as UTF-8), trailing blanks cut. */
static const char *row(int y)
{
	static char buf[2048];
	wchar_t w[600];
	int n = mvwinnwstr(stdscr, y, 0, w, COLS < 599 ? COLS : 599);
	size_t o = 0;
	for (int i = 0; i < n && o + 5 < sizeof buf; i++)
		o += (size_t)ui_utf8_encode((uint32_t)w[i], buf + o);
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
	return buf;
}

/* Whole screen contains s? When not, the screen goes to stdout for the log. */
static int screen_has(const char *s)
{
	for (int y = 0; y < LINES; y++)
		if (strstr(row(y), s))
			return y + 1;
	if (getenv("RENDER_DUMP")) {
		printf("--- screen %dx%d without '%s':\n", COLS, LINES, s);
		for (int y = 0; y < LINES; y++)
			printf("%s\n", row(y));
	}
	return 0;
}

/* Text of the screen at x,y, n cells, via the narrow mvwinnstr. */
static const char *at(int y, int x, int n)
{
	static char buf[256];
	mvwinnstr(stdscr, y, x, buf, n < 255 ? n : 255);
	return buf;
}

/* ---- the tests ---- */

static void check_startup(int cols, int rows, int present)
{
	rig r;
	rig_open(&r, cols, rows, present, 0);
	show(&r);
	const ui_layout *L = &r.a->layout;
	assert_int_not_equal(L->kind, UI_LAYOUT_TOO_SMALL);
	/* Header: lesson n/N and title, size and dtype, GPU and sm. */
	const char *h = row(0);
	assert_non_null(strstr(h, "1/2 Fixture naive kernel"));
	assert_non_null(strstr(h, "f32"));
	if (cols >= 100)
		assert_non_null(strstr(h, "sm_90"));
	/* Each pane's title row where the layout put it. */
	ui_rect p = L->pane[UI_PANE_PTX];
	assert_string_equal(at(p.y, p.x + 1, 3), "PTX");
	ui_rect le = L->pane[UI_PANE_LESSON];
	assert_non_null(strstr(row(le.y), "One thread per output"));
	assert_non_null(screen_has("Each thread computes one element of C."));
	/* The placeholder was filled by the model: naive is 2 loads of 4 B per FMA. */
	assert_non_null(screen_has("0.25 FLOP/B."));
	ui_rect nu = L->pane[UI_PANE_NUMBERS];
	assert_string_equal(at(nu.y, nu.x + 1, 7), "Numbers");
	assert_non_null(screen_has("Intensity (FLOP/B)"));
	if (!L->tabbed) {
		ui_rect ru = L->pane[UI_PANE_RUN];
		assert_string_equal(at(ru.y, ru.x + 1, 3), "Run");
		assert_non_null(screen_has("Not run yet."));
	}
	/* The status line is the last row. */
	assert_non_null(strstr(row(rows - 1), "? help"));
	rig_close(&r);
}

static void test_startup_sizes(void **st)
{
	(void)st;
	check_startup(80, 24, 0);
	check_startup(100, 30, 0);
	check_startup(132, 43, 0);
	check_startup(160, 48, 0);
	check_startup(240, 70, 0);
	check_startup(80, 24, 1);
	check_startup(160, 48, 1);
}

static void test_too_small(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 70, 20, 0, 0);
	show(&r);
	assert_non_null(screen_has("Terminal too small: 70x20."));
	assert_non_null(screen_has("at least 80x24"));
	assert_int_equal(screen_has("Fixture"), 0);
	/* Resizing redraws with panes. */
	ui_app_resize(r.a, 80, 24);
	resize_term(24, 80);
	show(&r);
	assert_int_equal(screen_has("Terminal too small"), 0);
	assert_non_null(strstr(row(0), "Fixture naive kernel"));
	rig_close(&r);
}

static void test_next_lesson(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 0);
	keys(&r, "]");
	show(&r);
	assert_non_null(strstr(row(0), "2/2 Fixture coalesced kernel"));
	assert_non_null(screen_has("ptx/02_coal.ptx"));
	assert_int_equal(screen_has("ptx/01_naive.ptx"), 0);
	keys(&r, "]"); /* no third lesson */
	show(&r);
	assert_non_null(strstr(row(0), "2/2"));
	assert_non_null(strstr(row(23), "last lesson"));
	keys(&r, "[");
	show(&r);
	assert_non_null(strstr(row(0), "1/2"));
	rig_close(&r);
}

static void test_anchor_highlight(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 0);
	keys(&r, " "); /* page 2: @ptx index */
	show(&r);
	const ui_layout *L = &r.a->layout;
	ui_rect p = L->pane[UI_PANE_PTX];
	assert_non_null(strstr(row(p.y), "@index lines 13-17"));
	int y = screen_has("mad.lo.s32 %row, %t0, 32, %t1;") - 1;
	assert_true(y > p.y);
	/* The region's lines carry the highlight background ... */
	int ix = (int)(strstr(row(y), "mad.lo") - row(y));
	chtype c = mvwinch(stdscr, y, ix);
	assert_int_equal(PAIR_NUMBER(c & A_COLOR), 1 + UI_NROLES + UI_ROLE_P_INSTR);
	/* The whole width of the pane, blanks included. */
	c = mvwinch(stdscr, y, p.x + p.w - 2);
	assert_int_equal(PAIR_NUMBER(c & A_COLOR), 1 + UI_NROLES + UI_ROLE_NORMAL);
	/* ... with the syntax colours kept (a register inside it). */
	int rx = (int)(strstr(row(y), "%row") - row(y));
	c = mvwinch(stdscr, y, rx);
	assert_int_equal(PAIR_NUMBER(c & A_COLOR), 1 + UI_NROLES + UI_ROLE_P_REG);
	/* A line outside it does not. */
	int y2 = screen_has("mov.f32 %acc") - 1;
	assert_true(y2 > y);
	c = mvwinch(stdscr, y2, ix);
	assert_int_equal(PAIR_NUMBER(c & A_COLOR), 1 + UI_ROLE_P_INSTR);
	rig_close(&r);
}

static void test_syntax_roles(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	show(&r);
	int y = screen_has(".version 7.0") - 1;
	assert_true(y > 0);
	int x = (int)(strstr(row(y), ".version") - row(y));
	assert_int_equal(PAIR_NUMBER(mvwinch(stdscr, y, x) & A_COLOR), 1 + UI_ROLE_P_DIRECTIVE);
	assert_int_equal(PAIR_NUMBER(mvwinch(stdscr, y, x + 9) & A_COLOR), 1 + UI_ROLE_P_NUMBER);
	y = screen_has("// Fixture: one thread") - 1;
	x = (int)(strstr(row(y), "//") - row(y));
	assert_int_equal(PAIR_NUMBER(mvwinch(stdscr, y, x + 5) & A_COLOR), 1 + UI_ROLE_P_COMMENT);
	rig_close(&r);
}

static void test_help(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 0);
	keys(&r, "?");
	show(&r);
	assert_non_null(screen_has("Keys (j/k/Space scroll, any other key closes)"));
	assert_non_null(screen_has("next lesson"));
	assert_non_null(screen_has("quit"));
	/* At 80x24 it does not all fit: it says so and scrolls to every mode's keys. */
	assert_non_null(screen_has("more below"));
	assert_int_equal(screen_has("In the search:"), 0);
	/* Space pages on to the end, through every mode's keys (the help grows
	 * with every mode): the search's, and the theme line last. */
	int search = 0;
	for (int i = 0; i < 40 && !screen_has("theme term"); i++) {
		keys(&r, " ");
		show(&r);
		search |= screen_has("In the search:") != 0;
	}
	assert_true(search);
	assert_non_null(screen_has("theme term"));
	keys(&r, "x");
	show(&r);
	assert_int_equal(screen_has("any other key closes"), 0);
	rig_close(&r);
}

static void test_whatif_updates_numbers(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	show(&r);
	assert_non_null(screen_has("1024 threads"));
	keys(&r, "t");
	show(&r);
	assert_non_null(screen_has("What if"));
	assert_non_null(screen_has("BS"));
	keys(&r, "-"); /* BS 32 -> 16: 256 threads a block */
	show(&r);
	assert_non_null(screen_has("256 threads"));
	assert_non_null(strstr(row(0), "what-if BS=16"));
	keys(&r, "0"); /* reset */
	show(&r);
	assert_non_null(screen_has("1024 threads"));
	/* 64x64 threads cannot launch: refused with the reason, the value stays. */
	keys(&r, "+");
	show(&r);
	assert_non_null(strstr(row(47), "BS=64: "));
	assert_non_null(strstr(row(47), "block 64x64x1"));
	assert_null(strstr(row(0), "what-if"));
	assert_non_null(screen_has("1024 threads"));
	keys(&r, "\x1b");
	show(&r);
	assert_int_equal(screen_has("What if"), 0);
	rig_close(&r);
}

/* The numbers pane's estimate: wanted for the lesson, shown with the
 * measured time and its error once the loop reports it, wanted again after
 * a what-if; its request is the emulator's at the pane's size. */
static void test_estimate_in_numbers(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 60, 0, 0);
	assert_int_equal(r.a->est.state, UI_EST_WANT);
	run_request rq;
	char err[256];
	assert_int_equal(ui_app_estimate_request(r.a, &rq, err, sizeof err), 0);
	assert_int_equal(rq.backend, RUN_BACKEND_EMU);
	assert_true(rq.M == r.a->M && rq.K == r.a->K);
	show(&r);
	assert_non_null(screen_has("emulating a few blocks"));
	exec_estimate_result res = {.rc = 0, .e = {.ok = 1, .ms = 270.0, .limit = EST_LSU}, .blocks_run = 2,
				    .in = {.blocks = 16384}};
	r.a->est.state = UI_EST_BUSY; /* as the loop marks it when the child starts */
	ui_app_estimate_done(r.a, &res);
	show(&r);
	assert_non_null(screen_has("270 ms"));
	assert_non_null(screen_has("L1/shared wavefronts; from 2 of 16384 blocks"));
	/* lesson 1 at 4096 is in assets/measured-h100.tsv: the error against it */
	double ms;
	assert_int_equal(measured_lesson_ms(1, 4096, &ms), 0);
	char want[64];
	snprintf(want, sizeof want, "the estimate is %+.0f%%", 100 * (270.0 / ms - 1));
	assert_non_null(screen_has(want));
	keys(&r, "t-"); /* a what-if: another kernel, another estimate */
	assert_int_equal(r.a->est.state, UI_EST_WANT);
	keys(&r, "\x1b");
	exec_estimate_result bad = {.rc = -1, .err = "no estimate for the X: test"};
	ui_app_estimate_done(r.a, &bad);
	show(&r);
	assert_non_null(screen_has("no estimate for the X"));
	rig_close(&r);
}

/* After a GPU run the PTX pane has per-line counts too: the app asks for an
 * emulation (the loop runs it in a child), and the pane shows its columns,
 * saying they were emulated and at which size. */
static void test_gpu_run_lines(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	keys(&r, "r");
	ui_app_run_started(r.a, 1.0, NULL);
	run_result res;
	memset(&res, 0, sizeof res);
	res.status = RUN_OK;
	res.verified = 1;
	res.ms = 200;
	ui_app_run_finished(r.a, &res);
	assert_int_equal(r.a->lines_want, r.a->lesson);
	show(&r);
	assert_non_null(screen_has("per-line counts: emulating on the CPU beside the GPU run"));
	run_request rq;
	char err[256];
	assert_int_equal(ui_app_lines_request(r.a, &rq, err, sizeof err), 0);
	assert_int_equal(r.a->lines_want, -1);
	assert_int_equal(rq.backend, RUN_BACKEND_EMU);
	static run_result lines; /* the emulation the child would run, here in-process */
	exec_run(&rq, &lines);
	assert_true(lines.status == RUN_OK || lines.status == RUN_WRONG); /* the fixture kernel writes no C */
	assert_true(lines.nlines > 0);
	ui_app_lines_done(r.a, &lines);
	show(&r);
	assert_non_null(screen_has("emulated at 128^3"));
	assert_non_null(screen_has("GFLOP/s")); /* the GPU run's result stays in the run pane */
	/* moving on drops a wish the loop has not served */
	r.a->lines_want = r.a->lesson + 1;
	assert_int_equal(ui_app_lines_request(r.a, &rq, err, sizeof err), 1);
	/* a failed emulation is said in the header */
	r.a->slot[r.a->lesson].have_lines = 0;
	run_result bad = {.status = RUN_EMU_REFUSED};
	snprintf(bad.msg, sizeof bad.msg, "cannot emulate X");
	ui_app_lines_done(r.a, &bad);
	show(&r);
	assert_non_null(screen_has("the emulator could not make them (cannot emulate X)"));
	rig_close(&r);
}

static void test_exercise(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 100, 30, 0, 0);
	keys(&r, "  "); /* page 3 */
	show(&r);
	assert_non_null(screen_has("Exercise 1/2"));
	keys(&r, "a1");
	show(&r);
	assert_non_null(strstr(row(29), "Exercise 1/2, answer: 1_"));
	keys(&r, "\r");
	show(&r);
	assert_non_null(screen_has("Not quite"));
	keys(&r, "h");
	show(&r);
	assert_non_null(screen_has("Hint: Two loads of four bytes"));
	keys(&r, "a0.25\r");
	show(&r);
	assert_non_null(screen_has("Right: 0.25"));
	keys(&r, "s");
	show(&r);
	assert_non_null(screen_has("Answer: It is 0.25 FLOP/B."));
	/* The second exercise asks about BS=16: its hint and worked answer are
	 * filled under that override (256), the page's text keeps the lesson's. */
	keys(&r, "a\x1b");
	keys(&r, "hs");
	keys(&r, "jjjjjjjjjjjjjjjjjjjj"); /* to the end of the page */
	show(&r);
	assert_non_null(screen_has("Exercise 2/2"));
	assert_non_null(screen_has("Answer: 256 threads."));
	assert_non_null(screen_has("Hint: BS times BS, not 256."));
	rig_close(&r);
}

static void test_runs(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	/* r asks the loop for a run; the loop reports it started. */
	keys(&r, "r");
	assert_int_equal(r.a->req, UI_REQ_RUN);
	ui_app_run_started(r.a, 100.0, NULL);
	ui_app_tick(r.a, 102.5);
	show(&r);
	assert_non_null(screen_has("Running naive ... 2.5 s"));
	assert_non_null(screen_has("Esc cancels"));
	/* Esc asks for a cancel while busy. */
	keys(&r, "\x1b");
	assert_int_equal(r.a->req, UI_REQ_CANCEL);

	/* Without a GPU the run pane says why, and the rest still works. */
	run_result res;
	memset(&res, 0, sizeof res);
	res.status = RUN_NO_GPU;
	res.verified = -1;
	snprintf(res.msg, sizeof res.msg, "no NVIDIA driver (libcuda.so.1 not found)");
	ui_app_run_finished(r.a, &res);
	/* ... and the tutor goes offline: the same run again, on the emulator. */
	assert_int_equal(r.a->offline, 1);
	assert_int_equal(r.a->req, UI_REQ_RUN);
	show(&r);
	assert_non_null(screen_has("No GPU: no NVIDIA driver"));
	assert_non_null(screen_has("Intensity (FLOP/B)"));
	ui_app_run_started(r.a, 150.0, NULL);
	ui_app_tick(r.a, 150.5);
	show(&r);
	assert_non_null(screen_has("Emulating naive on the CPU ... 0.5 s"));
	assert_non_null(screen_has("killed after 120 s (deadline)"));
	memset(&res, 0, sizeof res);
	res.status = RUN_CANCELLED;
	ui_app_run_finished(r.a, &res);

	/* Two lessons run: GFLOP/s, % of cuBLAS, speed-up, verdict, the ladder. */
	memset(&res, 0, sizeof res);
	res.status = RUN_OK;
	res.gflops = 300, res.cublas_gflops = 50000, res.ms = 458, res.verified = 1;
	res.rel_err = 1e-7, res.tol = 1e-4;
	keys(&r, "r");
	ui_app_run_started(r.a, 200.0, NULL);
	ui_app_run_finished(r.a, &res);
	keys(&r, "]");
	res.gflops = 2500, res.ms = 55;
	keys(&r, "r");
	ui_app_run_started(r.a, 300.0, NULL);
	ui_app_run_finished(r.a, &res);
	show(&r);
	assert_non_null(screen_has("GFLOP/s        2500"));
	assert_non_null(screen_has("of cuBLAS      5%"));
	assert_non_null(screen_has("speed-up       8.33x  naive"));
	assert_non_null(screen_has("PASS, verified (cuBLAS)"));
	assert_non_null(screen_has("The ladder (GFLOP/s)"));
	int y1 = screen_has(" 1 naive"), y2 = screen_has(" 2 coal");
	assert_true(y1 > 0 && y2 == y1 + 1);
	rig_close(&r);
}

/* Offline: requests go to the emulator at 128³; its counts show in the run
 * pane and next to the model's in the numbers. */
static void test_emulated_counts(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	keys(&r, "r");
	ui_app_run_started(r.a, 1.0, NULL);
	run_result res;
	memset(&res, 0, sizeof res);
	res.status = RUN_NO_GPU;
	snprintf(res.msg, sizeof res.msg, "no NVIDIA driver");
	ui_app_run_finished(r.a, &res);
	assert_int_equal(r.a->req, UI_REQ_RUN);
	run_request rq;
	char err[256];
	assert_int_equal(ui_app_request(r.a, &rq, err, sizeof err), 0);
	assert_int_equal(rq.backend, RUN_BACKEND_EMU);
	assert_int_equal(rq.kind, RUN_KIND_RUN);
	assert_true(rq.M == 128 && rq.N == 128 && rq.K == 128);
	/* the one policy's emulation budget, decided when the request was built */
	assert_true(ui_app_deadline(r.a, &rq) == launch_deadline(&rq));
	assert_true(rq.deadline_s == launch_deadline(&rq));
	ui_app_run_started(r.a, 2.0, NULL);
	memset(&res, 0, sizeof res);
	res.status = RUN_OK;
	res.backend = RUN_BACKEND_EMU;
	res.verified = 1;
	res.rel_err = 2e-7, res.tol = 1e-4;
	res.emu = (run_emu_counts){.M = 128, .N = 128, .K = 128, .gld_requests = 100, .gld_sectors = 1650,
				   .gst_requests = 10, .gst_sectors = 320, .sld_requests = 50, .sld_wavefronts = 60,
				   .sld_conflicts = 10, .inst = 12345, .seconds = 0.25};
	ui_app_run_finished(r.a, &res);
	show(&r);
	assert_non_null(screen_has("Emulated on the CPU at 128\u00B3 (no GPU)"));
	assert_non_null(screen_has("PASS, verified on the CPU"));
	assert_non_null(screen_has("gmem loads     16.5  sectors/request"));
	assert_non_null(screen_has("smem loads     1.2  wavefronts/request"));
	assert_non_null(screen_has("  conflicts    10  bank conflicts"));
	assert_int_equal(screen_has("smem stores"), 0);
	assert_non_null(screen_has("12345"));
	/* The numbers: the model's sectors and L1 passes per request, then the emulator's. */
	int model = screen_has("sectors A / B"), passes = screen_has("L1 passes A/B"), emu = screen_has("emu sectors    16.5");
	assert_true(model > 0 && passes == model + 1 && emu == passes + 1);
	assert_non_null(screen_has("emu stores     32"));
	assert_non_null(screen_has("emu smem rd    1.2  10 conflicts"));
	assert_non_null(strstr(r.a->msg, "emulated on the CPU at 128^3, verified"));
	/* No GFLOP/s from an emulation: the ladder stays empty. */
	assert_int_equal(screen_has("The ladder"), 0);
	rig_close(&r);
}

/* The deadline policy (run/launch.c launch_deadline) through the tutor:
 * properties, not its formula — longer than the model predicts, growing with
 * the size, bounded, a fixed budget for a JIT-only check, and
 * PTXTUTOR_DEADLINE_S over all of them, each decided when the request is built. */
static void test_deadlines(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	run_request rq;
	char err[256];
	assert_int_equal(ui_app_request(r.a, &rq, err, sizeof err), 0);
	assert_int_equal(rq.backend, RUN_BACKEND_GPU);
	assert_true(rq.M == 4096);
	assert_true(r.a->model_ok && r.a->model.bound_ms > 0);
	double at4096 = ui_app_deadline(r.a, &rq);
	/* far longer than the bound: a slow launch is not a hung one */
	assert_true(at4096 > 10 * r.a->model.bound_ms / 1e3);
	/* a bigger problem gets longer */
	keys(&r, "+");
	assert_int_equal(ui_app_request(r.a, &rq, err, sizeof err), 0);
	assert_true(rq.M > 4096);
	double bigger = ui_app_deadline(r.a, &rq);
	assert_true(bigger > at4096);
	/* but never past the bound */
	rq.M = rq.N = rq.K = 1 << 20;
	assert_true(launch_deadline(&rq) <= LAUNCH_DEADLINE_MAX_S);
	assert_true(launch_deadline(&rq) > bigger);
	/* a JIT-only check: a fixed budget, whatever the size */
	r.a->run_check = 1;
	assert_int_equal(ui_app_request(r.a, &rq, err, sizeof err), 0);
	assert_int_equal(rq.kind, RUN_KIND_JIT_ONLY);
	double jit = ui_app_deadline(r.a, &rq);
	rq.M = rq.N = rq.K = 64;
	assert_true(jit > 0 && launch_deadline(&rq) == jit);
	/* PTXTUTOR_DEADLINE_S wins over all of them. */
	r.a->deadline_s = 3;
	assert_int_equal(ui_app_request(r.a, &rq, err, sizeof err), 0);
	assert_true(ui_app_deadline(r.a, &rq) == 3);
	r.a->run_check = 0;
	rig_close(&r);
}

static char *slurp(const char *path)
{
	return util_read_file(path, NULL, NULL, 0);
}

/* e: a copy of one's own, edited (here by the test, as the editor would),
 * checked, its JIT errors at their lines, kept across a restart; R shows
 * the diff and y restores; the shipped file is never written. */
static void test_edit_flow(void **st)
{
	(void)st;
	char shipped[PATH_MAX + 64];
	snprintf(shipped, sizeof shipped, "%s/ptx/01_naive.ptx", root);
	char *orig = slurp(shipped);
	assert_non_null(orig);
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	keys(&r, "e");
	assert_int_equal(r.a->req, UI_REQ_EDIT);
	char copy[RUN_PATH];
	util_strlcpy(copy, r.a->edit_path, sizeof copy);
	char want[PATH_MAX + 64];
	snprintf(want, sizeof want, "%s/data/ptxtutor/ptx/01_naive.ptx", root);
	assert_string_equal(copy, want);
	char *c = slurp(copy);
	assert_string_equal(c, orig);
	free(c);

	/* The "editor" changes line 18. */
	char *mod = strdup(orig);
	char *at = strstr(mod, "\tmov.f32 %acc, 0f00000000;");
	assert_non_null(at);
	FILE *f = fopen(copy, "w");
	fprintf(f, "%.*s\tmov.f32 %%acc, 0f3F800000; // edited one%s", (int)(at - mod), mod,
		at + strlen("\tmov.f32 %acc, 0f00000000;"));
	fclose(f);
	free(mod);
	ui_app_edit_done(r.a, 1, NULL);
	assert_int_equal(r.a->req, UI_REQ_RUN);
	assert_int_equal(r.a->run_check, 1);
	run_request rq;
	char err[256];
	assert_int_equal(ui_app_request(r.a, &rq, err, sizeof err), 0);
	assert_int_equal(rq.kind, RUN_KIND_JIT_ONLY);
	assert_string_equal(rq.ptx_path, copy);
	show(&r);
	assert_non_null(strstr(row(0), "Fixture naive kernel [edited]"));
	assert_non_null(screen_has("[edited: R diff]"));
	int edited_row = screen_has("// edited one");
	assert_true(edited_row > 0);
	assert_non_null(strstr(row(edited_row - 1), "18"));

	/* The check: the JIT's error goes under its line. */
	ui_app_run_started(r.a, 10.0, NULL);
	show(&r);
	assert_non_null(screen_has("Checking naive with the JIT"));
	run_result res;
	memset(&res, 0, sizeof res);
	res.status = RUN_JIT_ERROR;
	res.verified = -1;
	snprintf(res.msg, sizeof res.msg, "the JIT rejected %.150s: CUDA_ERROR_INVALID_PTX", copy);
	snprintf(res.log, sizeof res.log,
		 "ptxas application ptx input, line 18; error   : Arguments mismatch for instruction 'mov'\n"
		 "ptxas fatal   : Ptx assembly aborted due to errors\n");
	ui_app_run_finished(r.a, &res);
	show(&r);
	edited_row = screen_has("// edited one");
	int err_row = screen_has("error: Arguments mismatch for instruction 'mov'");
	assert_true(edited_row > 0 && err_row == edited_row + 1);
	assert_non_null(screen_has("1 problem at line 18"));
	assert_non_null(screen_has("Your edit is kept"));

	/* The edit survives a restart. */
	course *c2 = calloc(1, sizeof *c2);
	course_load(c2, NULL, 0);
	gpu_table g;
	devices_load(&g, err, sizeof err);
	ui_opts o = {.lesson = "1", .page = -1};
	ui_app *a2 = calloc(1, sizeof *a2);
	assert_int_equal(ui_app_setup(a2, &o, c2, &g, err, sizeof err), 0);
	assert_int_equal(a2->ptx[0].edited, 1);
	assert_string_equal(a2->ptx[0].path, copy);
	ui_app_free(a2);
	free(a2);

	/* R: the diff against the original. */
	keys(&r, "R");
	assert_int_equal(r.a->mode, UI_MODE_DIFF);
	show(&r);
	assert_non_null(screen_has("Your 01_naive.ptx against the original"));
	assert_non_null(screen_has("1 line added, 1 removed"));
	int minus = screen_has("-   18      mov.f32 %acc, 0f00000000;");
	int plus = screen_has("+   18      mov.f32 %acc, 0f3F800000; // edited one");
	assert_true(minus > 0 && plus == minus + 1);
	/* Esc closes it and keeps the edit. */
	keys(&r, "\x1b");
	assert_int_equal(r.a->mode, UI_MODE_NORMAL);
	assert_int_equal(r.a->ptx[0].edited, 1);
	/* y restores: the copy moves aside, the shipped PTX is back. */
	keys(&r, "Ry");
	assert_int_equal(r.a->mode, UI_MODE_NORMAL);
	assert_int_equal(r.a->ptx[0].edited, 0);
	assert_int_equal(r.a->ptx[0].nmarks, 0);
	show(&r);
	assert_null(strstr(row(0), "[edited]"));
	assert_int_equal(screen_has("// edited one"), 0);
	assert_int_equal(access(copy, F_OK), -1);
	char bak[RUN_PATH + 2];
	snprintf(bak, sizeof bak, "%s~", copy);
	c = slurp(bak);
	assert_non_null(c);
	assert_non_null(strstr(c, "// edited one"));
	free(c);
	assert_int_equal(ui_app_request(r.a, &rq, err, sizeof err), 0);
	assert_string_equal(rq.ptx_path, shipped);
	assert_int_equal(rq.kind, RUN_KIND_RUN);
	/* R without an edit says so. */
	keys(&r, "R");
	assert_int_equal(r.a->mode, UI_MODE_NORMAL);
	assert_non_null(strstr(r.a->msg, "e edits a copy"));
	c = slurp(shipped);
	assert_string_equal(c, orig);
	free(c);
	free(orig);
	rig_close(&r);
}

/* An editor that changes nothing leaves no copy behind. */
static void test_edit_unchanged(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 0);
	keys(&r, "e");
	assert_int_equal(r.a->req, UI_REQ_EDIT);
	char copy[RUN_PATH];
	util_strlcpy(copy, r.a->edit_path, sizeof copy);
	assert_int_equal(access(copy, F_OK), 0);
	ui_app_edit_done(r.a, 1, NULL);
	assert_int_equal(r.a->req, UI_REQ_NONE);
	assert_int_equal(access(copy, F_OK), -1);
	assert_int_equal(r.a->ptx[0].edited, 0);
	assert_non_null(strstr(r.a->msg, "No changes"));
	/* A run in progress: no edit until it ends. */
	keys(&r, "r");
	ui_app_run_started(r.a, 1.0, NULL);
	keys(&r, "e");
	assert_int_equal(r.a->req, UI_REQ_NONE);
	assert_non_null(strstr(r.a->msg, "A run is in progress"));
	rig_close(&r);
}

static void test_fold(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	keys(&r, "]");
	show(&r);
	assert_non_null(screen_has("5 more lines like these (z unfolds)"));
	assert_int_equal(screen_has("%acc4, %a4"), 0);
	keys(&r, "z");
	show(&r);
	assert_int_equal(screen_has("more lines like these"), 0);
	assert_non_null(screen_has("%acc4, %a4"));
	rig_close(&r);
}

static void test_ascii(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 1);
	show(&r);
	for (int y = 0; y < 24; y++) {
		const char *s = row(y);
		for (const char *p = s; *p; p++)
			if ((unsigned char)*p > 127)
				fail_msg("row %d has a non-ASCII character: %s", y, s);
	}
	rig_close(&r);
}

static void test_draw_changes_nothing(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 0);
	keys(&r, " \tjj");
	ui_app *copy = malloc(sizeof *copy);
	memcpy(copy, r.a, sizeof *copy);
	show(&r);
	show(&r);
	assert_memory_equal(copy, r.a, sizeof *copy);
	free(copy);
	rig_close(&r);
}

static void test_state_remembered(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 0);
	keys(&r, "]");
	state_data s;
	ui_app_saved(r.a, &s);
	char err[200];
	assert_int_equal(state_save(&s, err, sizeof err), 0);
	state_free(&s);
	rig_close(&r);
	/* A start without a lesson picks the saved one up. */
	course *c = calloc(1, sizeof *c);
	course_load(c, NULL, 0);
	gpu_table g;
	devices_load(&g, err, sizeof err);
	ui_opts o = {.page = -1};
	ui_app *a = calloc(1, sizeof *a);
	assert_int_equal(ui_app_setup(a, &o, c, &g, err, sizeof err), 0);
	assert_string_equal(ui_app_lesson(a)->id, "coal");
	ui_app_free(a);
	free(a);
}

/* The lesson text ({ai.global} through model_format) and the numbers pane
 * write a value alike: at 128³ the intensity is 256/1028 = 0.249, which the
 * prose used to write "0.25" (two decimals) and the pane "0.249". */
static void test_prose_and_pane_agree(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	keys(&r, "-----"); /* 4096 → 128 */
	show(&r);
	assert_non_null(screen_has("128\u00B3"));
	assert_non_null(screen_has("Its intensity is 0.249 FLOP/B."));
	assert_non_null(screen_has("global         0.249"));
	/* Loads per output: 2K at K = 128, as a count and as a fraction of K. */
	assert_non_null(screen_has("global loads   256  2K"));
	rig_close(&r);
}

/* The terminal's key codes reach the update code as the UI's own names
 * (ui/keycode.h): the binding table needs no curses. */
static void test_term_keys(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 0);
	static const struct {
		int curses, ui;
	} k[] = {
		{KEY_NPAGE, UI_KEY_PGDN}, {KEY_PPAGE, UI_KEY_PGUP}, {KEY_UP, UI_KEY_UP},
		{KEY_DOWN, UI_KEY_DOWN}, {KEY_LEFT, UI_KEY_LEFT}, {KEY_RIGHT, UI_KEY_RIGHT},
		{KEY_BTAB, UI_KEY_BTAB}, {KEY_BACKSPACE, UI_KEY_BACKSPACE}, {KEY_ENTER, UI_KEY_ENTER},
		{'\r', UI_KEY_ENTER}, {'q', 'q'}, {127, 127}, {KEY_F(5), UI_KEY_OTHER},
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		ungetch(k[i].curses);
		assert_int_equal(ui_term_key(), k[i].ui);
	}
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, UI_KEY_PGDN), UI_ACT_NEXT_PAGE);
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, UI_KEY_BTAB), UI_ACT_FOCUS_PREV);
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, UI_KEY_OTHER), UI_ACT_NONE);
	/* PgDn turns the page, as Space does. */
	ui_app_key(r.a, UI_KEY_PGDN);
	assert_int_equal(r.a->page, 1);
	rig_close(&r);
}

/* ---- issue 36's UI findings: tables, search, boxes, legends (added after the tests above) ---- */

/* Line i of t as UTF-8, trailing spaces dropped. */
static const char *line_text(const ui_lines *t, int i)
{
	static char buf[1024];
	int o = 0;
	for (int k = t->start[i]; k < t->start[i + 1] && o < (int)sizeof buf - 5; k++)
		o += ui_utf8_encode(t->cp[k], buf + o);
	while (o > 0 && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
	return buf;
}

/* The first line of t that has s; -1 when none. */
static int find_line(const ui_lines *t, const char *s)
{
	for (int i = 0; i < t->nlines; i++)
		if (strstr(line_text(t, i), s))
			return i;
	return -1;
}

static const char table_md[] =
	"Before the table.\n"
	"\n"
	"| format | K = 1024 | what it is |\n"
	"|---|---|---|\n"
	"| f32, lesson 7 | 5.7e-7 | single precision, the `fma` of lesson 1 |\n"
	"| e5m2 | 7.5e-2 | an 8-bit float |\n"
	"\n"
	"> Measured:\n"
	">\n"
	"> | a | b |\n"
	"> |---|---|\n"
	"> | 1 | 22 |\n";

/* F11: a Markdown table renders as aligned columns, its head over a rule,
 * never as one run-on paragraph; a quoted one too. */
static void test_table_aligned(void **st)
{
	(void)st;
	ui_lines t;
	ui_lines_init(&t);
	ui_prose(&t, NULL, table_md, 100);
	int h = find_line(&t, "format");
	assert_true(h >= 0);
	assert_string_equal(line_text(&t, h), "format         K = 1024  what it is");
	assert_non_null(strstr(line_text(&t, h + 1), "\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500  \u2500"));
	assert_string_equal(line_text(&t, h + 2), "f32, lesson 7  5.7e-7    single precision, the fma of lesson 1");
	assert_string_equal(line_text(&t, h + 3), "e5m2           7.5e-2    an 8-bit float");
	assert_int_equal(find_line(&t, "|"), -1); /* no bar of the Markdown is left */
	int q = find_line(&t, "a  b");
	assert_true(q >= 0);
	assert_string_equal(line_text(&t, q + 2), "  1  22");
	ui_lines_free(&t);
}

/* F11: a table wider than the pane wraps its cells at spaces inside their
 * columns (no word cut, nothing past the width); one that cannot fit even
 * so becomes a paragraph per row, each cell named by its head. */
static void test_table_narrow(void **st)
{
	(void)st;
	ui_lines t;
	ui_lines_init(&t);
	ui_prose(&t, NULL, table_md, 40);
	for (int i = 0; i < t.nlines; i++)
		assert_true(t.start[i + 1] - t.start[i] <= 40);
	int r = find_line(&t, "f32,");
	assert_true(r >= 0);
	/* the last column wraps; the others keep their places */
	assert_string_equal(line_text(&t, r), "f32, lesson 7  5.7e-7    single");
	assert_string_equal(line_text(&t, r + 1), "                         precision, the");
	assert_string_equal(line_text(&t, r + 2), "                         fma of lesson 1");
	assert_string_equal(line_text(&t, r + 3), "e5m2           7.5e-2    an 8-bit float");
	ui_lines_free(&t);

	ui_lines_init(&t);
	ui_prose(&t, NULL, table_md, 14);
	r = find_line(&t, "format: f32,");
	assert_true(r >= 0);
	assert_true(find_line(&t, "e5m2;") > r);
	for (int i = 0; i < t.nlines; i++) /* words whole: "precision," is on one line */
		if (strstr(line_text(&t, i), "precis"))
			assert_non_null(strstr(line_text(&t, i), "precision,"));
	ui_lines_free(&t);
}

/* Cells of r in f that carry flag. */
static int flagged(const ui_frame *f, ui_rect r, uint8_t flag)
{
	int n = 0;
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++)
			n += (f->cells[y * f->cols + x].flags & flag) != 0;
	return n;
}

/* F6: a box clears what is under it: no cell of the help box keeps the
 * highlighted PTX region's background. */
static void test_box_covers_region(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	keys(&r, " "); /* page 2 names the @index region */
	show(&r);
	ui_rect all = {0, 0, r.f.cols, r.f.rows};
	assert_true(flagged(&r.f, all, UI_CELL_HL) > 0);
	keys(&r, "?");
	show(&r);
	ui_rect box = r.a->layout.help;
	assert_true(box.w > 0 && box.h > 0);
	assert_int_equal(flagged(&r.f, box, UI_CELL_HL), 0);
	assert_true(flagged(&r.f, all, UI_CELL_HL) > 0); /* beside the box the region stays */
	rig_close(&r);
}

/* F19: H with no hot line walks every line that costs, costliest first,
 * and says the cost is spread; with hot lines it walks those. */
static void test_hot_walk_spread(void **st)
{
	(void)st;
	static run_result r;
	memset(&r, 0, sizeof r);
	/* 40 lines of about the same cost: none reaches 3% */
	for (int i = 0; i < 40; i++)
		r.lines[r.nlines++] = (run_line_counts){.line = 10 + i, .inst = 100 + (unsigned)(i % 7)};
	int rank, n = ui_ptx_counts_spread(&r, &rank, 0);
	assert_int_equal(n, 40);
	int seen[64] = {0}, line = 0, prev_cost = 1 << 30;
	for (int k = 0; k < 40; k++) {
		line = ui_ptx_counts_next_hot(&r, line);
		assert_true(line >= 10 && line < 50);
		assert_false(seen[line - 10]); /* never stuck on one line */
		seen[line - 10] = 1;
		int cost = (int)run_line_cost(ui_ptx_counts_line(&r, line));
		assert_true(cost <= prev_cost); /* costliest first */
		prev_cost = cost;
		ui_ptx_counts_spread(&r, &rank, line);
		assert_int_equal(rank, k + 1);
	}
	assert_int_equal(ui_ptx_counts_next_hot(&r, line), 16); /* round again: 106 is the most */
	/* one hot line: H stays on the hot ones, and spread says 0 */
	r.lines[5].inst = 5000;
	assert_int_equal(ui_ptx_counts_spread(&r, &rank, 0), 0);
	assert_int_equal(ui_ptx_counts_next_hot(&r, 0), 15);
	assert_int_equal(ui_ptx_counts_next_hot(&r, 15), 15);
}

/* F10: in ASCII mode the symbols no one character stands for are spelled
 * out; a fenced picture keeps its one-cell arrows. */
static void test_ascii_spellings(void **st)
{
	(void)st;
	char *s = ui_prose_ascii("C = A\u00B7B\u1D40 at 128\u00B3, \u2016C \u2212 ref\u2016 grows as \u221AK, "
				 "\u03A3 a\u2192b\n```\n a\u2192b \u03A3\n```\n");
	assert_string_equal(s, "C = A*B^T at 128^3, ||C \u2212 ref|| grows as sqrt(K), sum a->b\n```\n a\u2192b sum\n```\n");
	free(s);
}

/* F9: the default theme reads on a light terminal as on a dark one: no
 * yellow or cyan text, every coloured role on the terminal's background at
 * least 4.5:1 on black and about 3:1 on white. */
static void test_term_theme_light_and_dark(void **st)
{
	(void)st;
	const ui_theme *t = ui_theme_pick(NULL, 0, NULL);
	assert_string_equal(t->name, "term");
	for (int r = 0; r < UI_NROLES; r++) {
		ui_style s = t->role[r];
		if (s.fg < 0 || s.bg >= 0 || r == UI_ROLE_BORDER)
			continue;
		if (s.fg == 3 || s.fg == 6 || s.fg == 11 || s.fg == 14)
			fail_msg("role %d is yellow or cyan text (%d)", r, s.fg);
		if (ui_palette_contrast(s.fg, 0) < 4.5 || ui_palette_contrast(s.fg, 15) < 2.9)
			fail_msg("role %d: colour %d has %.2f:1 on black, %.2f:1 on white", r, s.fg,
				 ui_palette_contrast(s.fg, 0), ui_palette_contrast(s.fg, 15));
	}
}

/* F20: the answer prompt names the exercise it answers; Tab picks another
 * (the pane shows it), and the answer is checked against that one. */
static void test_answer_names_exercise(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 80, 24, 0, 0);
	keys(&r, "  "); /* page 3: two exercises */
	keys(&r, "a");
	show(&r);
	assert_non_null(strstr(row(23), "Exercise 1/2, answer: _"));
	assert_non_null(strstr(row(23), "Tab: another exercise"));
	ui_app_key(r.a, UI_KEY_TAB);
	keys(&r, "256");
	show(&r);
	assert_int_equal(r.a->mode, UI_MODE_ANSWER);
	assert_non_null(strstr(row(23), "Exercise 2/2, answer: 256_"));
	assert_non_null(screen_has("Exercise 2/2")); /* its question is in view at 80x24 */
	keys(&r, "\r");
	show(&r);
	assert_non_null(screen_has("Right: 256"));
	keys(&r, "a");
	ui_app_key(r.a, UI_KEY_BTAB);
	show(&r);
	assert_non_null(strstr(row(23), "Exercise 1/2"));
	rig_close(&r);
}

/* F21: the what-if box says the registers step by 8; a model-only what-if
 * that r cannot run says so as a sentence, not "bad request:". */
static void test_whatif_regs_and_model_only(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	keys(&r, "t");
	show(&r);
	assert_non_null(screen_has("halve/double, 0 resets"));
	ui_app_key(r.a, UI_KEY_DOWN); /* BS, then regs */
	show(&r);
	assert_non_null(screen_has("8 registers fewer/more, 0 resets"));
	ui_app_key(r.a, UI_KEY_UP);
	ui_app_key(r.a, UI_KEY_LEFT); /* BS=16: the kernel is built for 32 */
	keys(&r, "\x1b");
	assert_int_equal(r.a->mode, UI_MODE_NORMAL);
	run_request rq;
	char err[256];
	assert_true(ui_app_request(r.a, &rq, err, sizeof err) < 0);
	ui_app_run_started(r.a, 1.0, err);
	show(&r);
	assert_non_null(screen_has("Not run. Model-only what-if: the kernel is built for BS=32"));
	assert_null(screen_has("bad request"));
	rig_close(&r);
}

/* The role of the first cell of row y whose text starts with s; -1 when none. */
static int role_at(const ui_frame *f, const char *s)
{
	for (int y = 0; y < f->rows; y++) {
		char row_s[2048];
		ui_frame_row_text(f, y, row_s, sizeof row_s);
		const char *at = strstr(row_s, s);
		if (!at)
			continue;
		/* columns = code points before it (the row holds box drawing) */
		int x = 0;
		for (const char *c = row_s; c < at; c++)
			x += ((unsigned char)*c & 0xC0) != 0x80;
		return f->cells[y * f->cols + x].role;
	}
	return -1;
}

/* F23: the PTX's region marks are dim, not code; a status message drops
 * Markdown's backticks; r on a kernel that fails the same way again says it ran. */
static void test_small_nits(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, 160, 48, 0, 0);
	show(&r);
	assert_int_equal(role_at(&r.f, "// @end"), UI_ROLE_DIM);
	assert_int_equal(role_at(&r.f, "// @index"), UI_ROLE_DIM);
	assert_int_equal(role_at(&r.f, "// Fixture"), UI_ROLE_P_COMMENT); /* a comment stays one */
	keys(&r, "P");
	assert_null(strchr(r.a->msg, '`'));
	assert_non_null(strstr(r.a->msg, "has no puzzles"));
	run_result res;
	memset(&res, 0, sizeof res);
	res.status = RUN_FAULT;
	res.backend = RUN_BACKEND_EMU;
	snprintf(res.msg, sizeof res.msg, "out-of-bounds global load");
	keys(&r, "r");
	ui_app_run_started(r.a, 1.0, NULL);
	ui_app_run_finished(r.a, &res);
	assert_null(strstr(r.a->msg, "Ran again"));
	keys(&r, "r");
	ui_app_run_started(r.a, 2.0, NULL);
	ui_app_run_finished(r.a, &res);
	assert_non_null(strstr(r.a->msg, "Ran again, the same: kernel fault: out-of-bounds global load"));
	rig_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_startup_sizes),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_next_lesson),
		cmocka_unit_test(test_anchor_highlight),
		cmocka_unit_test(test_syntax_roles),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_whatif_updates_numbers),
		cmocka_unit_test(test_estimate_in_numbers),
		cmocka_unit_test(test_gpu_run_lines),
		cmocka_unit_test(test_exercise),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_emulated_counts),
		cmocka_unit_test(test_deadlines),
		cmocka_unit_test(test_edit_flow),
		cmocka_unit_test(test_edit_unchanged),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_ascii),
		cmocka_unit_test(test_draw_changes_nothing),
		cmocka_unit_test(test_state_remembered),
		cmocka_unit_test(test_prose_and_pane_agree),
		cmocka_unit_test(test_term_keys),
		/* issue 36's UI findings */
		cmocka_unit_test(test_table_aligned),
		cmocka_unit_test(test_table_narrow),
		cmocka_unit_test(test_box_covers_region),
		cmocka_unit_test(test_hot_walk_spread),
		cmocka_unit_test(test_ascii_spellings),
		cmocka_unit_test(test_term_theme_light_and_dark),
		cmocka_unit_test(test_answer_names_exercise),
		cmocka_unit_test(test_whatif_regs_and_model_only),
		cmocka_unit_test(test_small_nits),
	};
	return cmocka_run_group_tests(tests, make_root, remove_root);
}
