/* test_warpview: per-line counts and a warp's view on the course's own kernels — the recorded access against the per-line counters, the rows the view draws, and the tutor's screen (the PTX pane's columns and heat marks, H, the w box, a page's @warpview following a what-if), drawn into a frame and read back. */
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
#include "lines_helper.h"
#include "course/lesson.h"
#include "exec/warpview.h"
#include "model/devices.h"
#include "run/launch.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "exec/backend.h"
#include "ui/draw.h"
#include "ui/frame.h"
#include "ui/keys.h"

static course crs;
static gpu_table gpus;

static int setup(void **st)
{
	(void)st;
	char err[4096] = "";
	if (course_load(&crs, err, sizeof err) <= 0)
		return -1;
	return devices_load(&gpus, err, sizeof err) > 0 ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	course_free(&crs);
	return 0;
}

/* A lesson's request at the emulation size (128 for these). */
static void request(const char *id, run_request *rq)
{
	const lesson *l = course_find(&crs, id);
	assert_non_null(l);
	char err[256];
	long long e = launch_emulation_size(l, NULL);
	assert_int_equal(launch_request_for_lesson(l, NULL, e, e, e, rq, err, sizeof err), 0);
	rq->backend = RUN_BACKEND_EMU;
}

/* The recorded access of warp 0, block 0, first execution, and its rows. */
static exec_warp_access record(const run_request *rq, int line, char rows[][EXEC_WARP_COLS], int *nrows)
{
	exec_warp_access wa = {.line = line};
	char err[256];
	assert_int_equal(exec_warp_record(rq, &wa, err, sizeof err), 0);
	assert_int_equal(wa.found, 1);
	*nrows = exec_warp_rows(&wa, rows, EXEC_WARP_ROWS);
	return wa;
}

static int rows_have(char rows[][EXEC_WARP_COLS], int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strstr(rows[i], s))
			return 1;
	for (int i = 0; i < n; i++)
		print_message("  %s\n", rows[i]);
	return 0;
}

/* The per-line figures of a whole emulated run: the line's row. */
static run_line_counts line_counts(const run_request *rq, int line)
{
	static run_result res;
	run_request emu = *rq;
	emu.backend = RUN_BACKEND_EMU;
	exec_run(&emu, &res);
	assert_int_equal(res.status, RUN_OK);
	for (int i = 0; i < res.nlines; i++)
		if (res.lines[i].line == line)
			return res.lines[i];
	fail_msg("line %d has no row", line);
	return (run_line_counts){0};
}

/* Lesson 1's load of A: a lane a row, 32 sectors, each lane its own; the
 * same figure the per-line counters give for every request of the line. */
static void test_naive_a(void **st)
{
	(void)st;
	run_request rq;
	request("naive", &rq);
	int line = line_of(rq.ptx_path, "ld.global.f32 %a, [%pA]");
	char rows[EXEC_WARP_ROWS][EXEC_WARP_COLS];
	int n;
	exec_warp_access wa = record(&rq, line, rows, &n);
	assert_int_equal(wa.buffer, 0);
	assert_int_equal(wa.mask, 0xffffffffu);
	assert_int_equal(wa.counts.sectors, 32);
	assert_true(wa.addr[1] - wa.addr[0] == 128 * 4); /* a row of A apart at K = 128 */
	assert_true(rows_have(rows, n, "sector   0123456789abcdefghijklmnopqrstuv  32 distinct"));
	assert_true(rows_have(rows, n, "32 sectors a request") && rows_have(rows, n, "not coalesced"));
	run_line_counts lc = line_counts(&rq, line);
	assert_true(lc.g_sectors == wa.counts.sectors * lc.g_requests);
	/* execution 2 of the same warp: the next k, 4 bytes on */
	exec_warp_access w2 = {.line = line, .nth = 1};
	char err[256];
	assert_int_equal(exec_warp_record(&rq, &w2, err, sizeof err), 0);
	assert_true(w2.found && w2.addr[0] == wa.addr[0] + 4 && w2.executions == 128);
}

/* Lesson 2's fix: the load of B walks along a row, 4 sectors; A is one address. */
static void test_coalesced(void **st)
{
	(void)st;
	run_request rq;
	request("coalesced", &rq);
	int lb = line_of(rq.ptx_path, "ld.global.f32 %b, [%pB]"), la = line_of(rq.ptx_path, "ld.global.v4.f32");
	char rows[EXEC_WARP_ROWS][EXEC_WARP_COLS];
	int n;
	exec_warp_access wb = record(&rq, lb, rows, &n);
	assert_int_equal(wb.counts.sectors, 4);
	assert_true(rows_have(rows, n, "sector   00000000111111112222222233333333  4 distinct"));
	assert_true(rows_have(rows, n, "a stride of 4 B"));
	assert_false(rows_have(rows, 0, "not coalesced") || strstr(rows[n - 1], "not coalesced"));
	exec_warp_access wa = record(&rq, la, rows, &n);
	assert_int_equal(wa.counts.sectors, 1);
	assert_true(rows_have(rows, n, "one address for every lane"));
	run_line_counts lc = line_counts(&rq, lb);
	assert_true(lc.g_sectors == 4 * lc.g_requests);
}

/* Lesson 3's shared reads in the unrolled loop: Bs conflict-free in 32
 * banks, As one 16-byte broadcast in two wavefronts (no conflict). */
static void test_smem_read(void **st)
{
	(void)st;
	run_request rq;
	request("smem", &rq);
	int lb = line_of(rq.ptx_path, "ld.shared.f32 %b, [%sB+0]"), la = line_of(rq.ptx_path, "[%sA+0]");
	char rows[EXEC_WARP_ROWS][EXEC_WARP_COLS];
	int n;
	exec_warp_access wb = record(&rq, lb, rows, &n);
	assert_true(wb.buffer == -1 && wb.counts.wavefronts == 1 && wb.counts.ideal == 1);
	assert_true(rows_have(rows, n, "bank     0123456789abcdefghijklmnopqrstuv"));
	assert_true(rows_have(rows, n, "1 wavefront a request, 1 ideal: conflict-free"));
	exec_warp_access wa = record(&rq, la, rows, &n);
	assert_true(wa.counts.wavefronts == 2 && wa.counts.ideal == 2);
	assert_true(rows_have(rows, n, "********************************"));
	run_line_counts lc = line_counts(&rq, la);
	assert_true(lc.s_wavefronts == 2 * lc.s_requests && lc.s_conflicts == 0);
}

/* Lesson 5's store of the A tile: 32 neighbouring words, one wavefront;
 * lesson 7's transposed store of A: lane t writes k-row 4(t%4) at word t/4,
 * and each group of 4 k-rows is skewed 8 banks on, so lane t's bank is
 * 8(t%4) + t/4: all 32 banks once, one wavefront (unskewed it was 4-way). */
static void test_tile_stores(void **st)
{
	(void)st;
	run_request rq;
	request("blocktile2d", &rq);
	char rows[EXEC_WARP_ROWS][EXEC_WARP_COLS];
	int n;
	exec_warp_access w5 = record(&rq, line_of(rq.ptx_path, "st.shared.f32 [%sAst+0]"), rows, &n);
	assert_true(w5.kind == ACCESS_SHARED_STORE && w5.counts.wavefronts == 1);
	assert_true(rows_have(rows, n, "conflict-free"));
	request("warptile", &rq);
	int line = line_of(rq.ptx_path, "st.shared.f32       [%sAst+0]");
	exec_warp_access w7 = record(&rq, line, rows, &n);
	assert_true(w7.counts.wavefronts == 1 && w7.counts.ideal == 1);
	assert_true(rows_have(rows, n, "bank     08go19hp2aiq3bjr4cks5dlt6emu7fnv"));
	assert_true(rows_have(rows, n, "conflict-free"));
	run_line_counts lc = line_counts(&rq, line);
	assert_true(lc.s_requests > 0 && lc.s_conflicts == 0);
}

/* Bad asks: a line without a memory access, a warp past the block. */
static void test_refusals(void **st)
{
	(void)st;
	run_request rq;
	request("naive", &rq);
	char err[256];
	exec_warp_access wa = {.line = line_of(rq.ptx_path, "fma.rn.f32")};
	assert_int_equal(exec_warp_record(&rq, &wa, err, sizeof err), -1);
	assert_non_null(strstr(err, "no global or shared memory access"));
	wa = (exec_warp_access){.line = line_of(rq.ptx_path, "ld.global.f32 %a"), .warp = 32};
	assert_int_equal(exec_warp_record(&rq, &wa, err, sizeof err), -1);
	assert_non_null(strstr(err, "outside the block's 32 warps"));
	wa = (exec_warp_access){.line = line_of(rq.ptx_path, "ld.global.f32 %a"), .nth = 500};
	assert_int_equal(exec_warp_record(&rq, &wa, err, sizeof err), 0);
	assert_true(!wa.found && wa.executions == 128);
}

/* ---- the tutor's screen, drawn into a frame ---- */

typedef struct {
	ui_app *a;
	ui_frame f;
} rig;

static void rig_open(rig *r, const char *lesson, int page, int ascii)
{
	memset(r, 0, sizeof *r);
	ui_opts o = {.ascii = ascii, .lesson = lesson, .page = page, .no_gpu = "no GPU in the test"};
	r->a = calloc(1, sizeof *r->a);
	char err[256];
	course *c = calloc(1, sizeof *c);
	char errs[4096];
	assert_true(course_load(c, errs, sizeof errs) > 0);
	assert_int_equal(ui_app_setup(r->a, &o, c, &gpus, err, sizeof err), 0);
	ui_app_resize(r->a, 160, 48);
	ui_frame_init(&r->f, 160, 48);
}

static void rig_close(rig *r)
{
	ui_frame_free(&r->f);
	ui_app_free(r->a);
	free(r->a);
}

/* Row y of the frame as drawn now. */
static const char *row(rig *r, int y)
{
	static char buf[2048];
	ui_frame_row_text(&r->f, y, buf, sizeof buf);
	return buf;
}

/* The 1-based row of the screen that has s, or 0 (the screen on stdout then). */
static int screen_has(rig *r, const char *s)
{
	ui_draw(r->a, &r->f);
	for (int y = 0; y < r->f.rows; y++)
		if (strstr(row(r, y), s))
			return y + 1;
	printf("--- screen without '%s':\n", s);
	for (int y = 0; y < r->f.rows; y++)
		printf("%s\n", row(r, y));
	return 0;
}

static void keys(rig *r, const char *k)
{
	for (; *k; k++)
		ui_app_key(r->a, *k == 27 ? UI_KEY_ESC : (unsigned char)*k);
}

/* The current lesson run on the emulator, as the worker would answer it. */
static void run_emulated(rig *r)
{
	run_request rq;
	char err[256];
	assert_int_equal(ui_app_request(r->a, &rq, err, sizeof err), 0);
	static run_result res;
	rq.backend = RUN_BACKEND_EMU;
	exec_run(&rq, &res);
	assert_int_equal(res.status, RUN_OK);
	keys(r, "r");
	ui_app_run_started(r->a, 1.0, NULL);
	ui_app_run_finished(r->a, &res);
}

/* The row of the PTX pane that shows 1-based line `line` (its number first). */
static const char *pane_row(rig *r, int line)
{
	ui_draw(r->a, &r->f);
	ui_rect p = r->a->layout.pane[UI_PANE_PTX];
	for (int y = p.y + 1; y < p.y + p.h; y++) {
		const char *s = row(r, y);
		int n;
		if ((int)strlen(s) > p.x && sscanf(s + p.x, "%d", &n) == 1 && n == line)
			return s;
	}
	return NULL;
}

/* After r: the columns, the hot mark on lesson 1's load of A with its 32
 * sectors a request; H goes there; lesson 2's load of B shows 4. */
static void test_pane_columns(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, "1", 2, 0);
	assert_int_equal(screen_has(&r, "H: hot"), 0); /* no run, no columns */
	run_emulated(&r);
	assert_true(screen_has(&r, " inst s/req w/req  confl"));
	keys(&r, "H");
	int la = line_of(ui_app_lesson(r.a)->ptx_path, "ld.global.f32 %a, [%pA]");
	assert_int_equal(r.a->ptx_cursor, la);
	const char *s = pane_row(&r, la);
	assert_non_null(s);
	assert_non_null(strstr(s, "\u2588"));  /* the hot mark */
	assert_non_null(strstr(s, "65.5k    32     -      -"));
	keys(&r, "L");
	assert_true(screen_has(&r, "g.req   sect"));
	keys(&r, "L"); /* a few, every one, none */
	assert_int_equal(screen_has(&r, "H: hot"), 0);
	rig_close(&r);

	rig_open(&r, "2", 2, 1);
	run_emulated(&r);
	int lb = line_of(ui_app_lesson(r.a)->ptx_path, "ld.global.f32 %b, [%pB]");
	r.a->ptx_goto = lb - 1; /* the view shows the line, as a search hit does */
	s = pane_row(&r, lb);
	assert_non_null(s);
	assert_non_null(strstr(s, "16.4k     4     -      -"));
	assert_true(strchr(s, '#') || strchr(s, '+')); /* the heat mark in ASCII */
	/* a GPU run's per-line figures come from the emulator beside it: said while it counts, then shown */
	run_result gpu;
	memset(&gpu, 0, sizeof gpu);
	gpu.status = RUN_OK;
	ui_app_run_started(r.a, 2.0, NULL);
	ui_app_run_finished(r.a, &gpu);
	assert_true(screen_has(&r, "emulating on the CPU beside the GPU run"));
	run_request rq;
	char err[256];
	assert_int_equal(ui_app_lines_request(r.a, &rq, err, sizeof err), 0);
	static run_result lines;
	exec_run(&rq, &lines);
	ui_app_lines_done(r.a, &lines);
	assert_true(screen_has(&r, "emulated at 128^3"));
	s = pane_row(&r, lb);
	assert_non_null(s);
	assert_non_null(strstr(s, "16.4k     4     -      -"));
	rig_close(&r);
}

/* w on lesson 1: the box of the load of A; its keys step the execution and
 * the warp; Esc closes it. */
static void test_warp_box(void **st)
{
	(void)st;
	rig r;
	rig_open(&r, "1", 2, 0);
	keys(&r, "w");
	assert_int_equal(r.a->mode, UI_MODE_WARP);
	assert_true(screen_has(&r, "A warp's view of line"));
	assert_true(screen_has(&r, "execution 1 of 128"));
	assert_true(screen_has(&r, "32 sectors a request"));
	keys(&r, "j");
	assert_true(screen_has(&r, "execution 2 of 128"));
	keys(&r, "l");
	assert_true(screen_has(&r, "warp 1, block 0,0,0, execution 1"));
	keys(&r, "n");
	assert_true(screen_has(&r, "warp 1, block 1,0,0"));
	keys(&r, "\x1b");
	assert_int_equal(r.a->mode, UI_MODE_NORMAL);
	rig_close(&r);
}

/* Scrolls the lesson pane to the end of the page. */
static void to_page_end(rig *r)
{
	for (int i = 0; i < 80; i++)
		keys(r, "j");
}

/* The pages that ask for it show the kernel's own access; lesson 1's
 * follows the what-if BS=16 (a warp spans two rows of the block: 16 sectors). */
static void test_page_warpview(void **st)
{
	(void)st;
	static const struct {
		const char *lesson, *shows;
	} pages[] = {
		{"1", "32 sectors a request"}, {"2", "4 sectors a request"}, {"3", "1 wavefront a request, 1 ideal"},
		{"5", "1 wavefront a request, 1 ideal: conflict-free"}, {"7", "1 wavefront a request, 1 ideal: conflict-free"},
	};
	int used = 0;
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
		rig r;
		rig_open(&r, pages[i].lesson, 0, 0);
		const lesson *l = ui_app_lesson(r.a);
		int p = 0;
		while (p < l->npages && !l->pages[p].warpview[0])
			p++;
		assert_true(p < l->npages);
		ui_app_select(r.a, r.a->lesson, p);
		to_page_end(&r);
		assert_true(screen_has(&r, "A warp's view, from the kernel"));
		assert_true(screen_has(&r, pages[i].shows));
		if (!strcmp(pages[i].lesson, "2")) { /* a page turned to again is answered from the recording ... */
			int made = r.a->warp_memo_next;
			ui_app_select(r.a, r.a->lesson, p);
			assert_int_equal(r.a->warp_memo_next, made);
			app_reload_ptx(r.a, r.a->lesson); /* ... until its PTX is reloaded (an edit) */
			ui_app_select(r.a, r.a->lesson, p);
			assert_int_equal(r.a->warp_memo_next, (made + 1) % UI_WARP_MEMOS);
			to_page_end(&r);
			assert_true(screen_has(&r, pages[i].shows));
		}
		if (!strcmp(pages[i].lesson, "1")) {
			expr_set(&r.a->whatif, "BS", 16);
			ui_app_select(r.a, r.a->lesson, p);
			to_page_end(&r);
			assert_true(screen_has(&r, "16 sectors a request"));
		}
		used++;
		rig_close(&r);
	}
	/* every @warpview of the course names a line the first warp executes */
	int pages_with = 0;
	for (int i = 0; i < crs.n; i++)
		for (int p = 0; p < crs.l[i].npages; p++)
			pages_with += crs.l[i].pages[p].warpview[0] != 0;
	assert_true(used == 5 && pages_with >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_naive_a),
		cmocka_unit_test(test_coalesced),
		cmocka_unit_test(test_smem_read),
		cmocka_unit_test(test_tile_stores),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_pane_columns),
		cmocka_unit_test(test_warp_box),
		cmocka_unit_test(test_page_warpview),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
