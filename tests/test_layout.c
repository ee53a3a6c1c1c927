/* test_layout: pane rectangles at many terminal sizes — inside the screen, disjoint, big enough, right arrangement; a pure function of the size (garbage in the output, a fresh process). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ui/layout.h"

static int inside(ui_rect r, int cols, int rows)
{
	return r.x >= 0 && r.y >= 0 && r.w > 0 && r.h > 0 && r.x + r.w <= cols && r.y + r.h <= rows;
}

static int overlap(ui_rect a, ui_rect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static int same(ui_rect a, ui_rect b)
{
	return a.x == b.x && a.y == b.y && a.w == b.w && a.h == b.h;
}

/* Every property a drawable layout must have, with the lesson pane grown
 * (or shrunk) by grow steps and the PTX and numbers swapped or not. */
static void check_grown(int cols, int rows, int present, int grow, int swap)
{
	ui_layout L;
	ui_layout_compute(cols, rows, present, grow, &L);
	if (swap)
		ui_layout_swap(&L);
	char where[96];
	snprintf(where, sizeof where, "%dx%d present=%d grow=%d swap=%d", cols, rows, present, grow, swap);
	if (cols < UI_MIN_COLS || rows < UI_MIN_ROWS) {
		if (L.kind != UI_LAYOUT_TOO_SMALL)
			fail_msg("%s: should be too small", where);
		return;
	}
	if (L.kind == UI_LAYOUT_TOO_SMALL)
		fail_msg("%s: drawable size reported too small", where);
	ui_rect all[UI_NPANES + 2];
	int n = 0;
	all[n++] = L.header;
	all[n++] = L.status;
	for (int p = 0; p < UI_NPANES; p++) {
		ui_rect r = L.pane[p];
		if (!inside(r, cols, rows))
			fail_msg("%s: pane %s outside (%d,%d %dx%d)", where, ui_pane_name(p), r.x, r.y, r.w, r.h);
		if (r.w < 20 || r.h < 4)
			fail_msg("%s: pane %s too small (%dx%d)", where, ui_pane_name(p), r.w, r.h);
		if (!(L.tabbed && p == UI_PANE_RUN))
			all[n++] = r;
	}
	if (L.tabbed && !same(L.pane[UI_PANE_NUMBERS], L.pane[UI_PANE_RUN]))
		fail_msg("%s: tabbed but numbers and run differ", where);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (overlap(all[i], all[j]))
				fail_msg("%s: rectangles %d and %d overlap", where, i, j);
	if (!inside(L.header, cols, rows) || L.header.h != 1 || L.header.y != 0)
		fail_msg("%s: header", where);
	if (!inside(L.status, cols, rows) || L.status.y != rows - 1)
		fail_msg("%s: status", where);
	if (!inside(L.help, cols, rows))
		fail_msg("%s: help overlay outside", where);
	/* Nothing is wasted: the body rows are all used by some pane. */
	for (int y = 1; y < rows - 1; y++) {
		int covered = 0;
		for (int p = 0; p < UI_NPANES; p++)
			covered |= L.pane[p].y <= y && y < L.pane[p].y + L.pane[p].h;
		if (!covered)
			fail_msg("%s: row %d belongs to no pane", where, y);
	}
}

static void check(int cols, int rows, int present)
{
	check_grown(cols, rows, present, 0, 0);
}

static void test_properties_at_every_size(void **st)
{
	(void)st;
	for (int present = 0; present < 2; present++)
		for (int c = 60; c <= 320; c += 7)
			for (int r = 16; r <= 100; r += 3)
				check(c, r, present);
	check(80, 24, 0);
	check(80, 24, 1);
	check(160, 48, 0);
	check(160, 48, 1);
	/* Grown, shrunk, swapped: still a layout. */
	for (int present = 0; present < 2; present++)
		for (int c = 80; c <= 260; c += 20)
			for (int r = 24; r <= 70; r += 6)
				for (int g = -12; g <= 12; g += 3)
					for (int sw = 0; sw < 2; sw++)
						check_grown(c, r, present, g, sw);
}

/* Lecture mode: the lesson gets the 80 columns of text (+ margin and scroll
 * column) its diagrams are written for, beside the PTX where that leaves the
 * PTX 60 columns of code (from 152 columns), above it below (120x36: the PTX
 * under the text, 79 wide, an instruction and its operands in view); grow
 * moves it within bounds. */
static void test_present_widths(void **st)
{
	(void)st;
	ui_layout L;
	ui_layout_compute(120, 36, 1, 0, &L);
	assert_int_equal(L.pane[UI_PANE_LESSON].w, 120);
	assert_true(L.pane[UI_PANE_LESSON].h >= 20);
	assert_int_equal(L.pane[UI_PANE_PTX].x, 0);
	assert_true(L.pane[UI_PANE_PTX].w >= 60 + 8);
	ui_layout_compute(151, 40, 1, 0, &L);
	assert_int_equal(L.pane[UI_PANE_PTX].x, 0);
	ui_layout_compute(152, 40, 1, 0, &L);
	assert_int_equal(L.pane[UI_PANE_PTX].x, UI_TEXT_COLS + 4);
	assert_true(L.pane[UI_PANE_PTX].w >= 60 + 8);
	ui_layout_compute(160, 48, 1, 0, &L);
	assert_int_equal(L.pane[UI_PANE_LESSON].w, UI_TEXT_COLS + 3);
	assert_int_equal(L.pane[UI_PANE_LESSON].h, 46);
	ui_layout_compute(100, 30, 1, 0, &L);
	assert_int_equal(L.pane[UI_PANE_LESSON].w, 100);
	assert_true(L.pane[UI_PANE_LESSON].h >= 18); /* a diagram of a dozen lines and its text */
	int h0 = L.pane[UI_PANE_LESSON].h;
	ui_layout_compute(100, 30, 1, 2, &L);
	assert_int_equal(L.pane[UI_PANE_LESSON].h, h0 + 4);
	ui_layout_compute(100, 30, 1, 100, &L);
	assert_true(L.pane[UI_PANE_PTX].h >= 4);
	ui_layout_compute(160, 48, 1, -2, &L);
	assert_int_equal(L.pane[UI_PANE_LESSON].w, UI_TEXT_COLS + 3 - 8);
	/* The swap: the numbers where the PTX was, the PTX in the slot. */
	ui_layout S;
	ui_layout_compute(120, 36, 1, 0, &L);
	S = L;
	ui_layout_swap(&S);
	assert_memory_equal(&S.pane[UI_PANE_NUMBERS], &L.pane[UI_PANE_PTX], sizeof(ui_rect));
	assert_memory_equal(&S.pane[UI_PANE_RUN], &L.pane[UI_PANE_PTX], sizeof(ui_rect));
	assert_memory_equal(&S.pane[UI_PANE_PTX], &L.pane[UI_PANE_NUMBERS], sizeof(ui_rect));
	ui_layout_compute(160, 48, 0, 0, &L); /* not tabbed: nothing to swap */
	S = L;
	ui_layout_swap(&S);
	assert_memory_equal(&S, &L, sizeof L);
}

/* Review of 2026-11-27: at 80x24 the text gets half the rows at least
 * (F8: it had 6), and from 120 columns side by side the lesson the 80
 * columns of text its code samples are written for (F25: it had 70). */
static void test_readable_sizes(void **st)
{
	(void)st;
	ui_layout L;
	ui_layout_compute(80, 24, 0, 0, &L);
	int body = 24 - 2;
	assert_true(L.pane[UI_PANE_LESSON].h >= body / 2);
	ui_layout_compute(100, 30, 0, 0, &L);
	assert_true(L.pane[UI_PANE_LESSON].h >= (30 - 2) / 2);
	for (int c = 120; c < 200; c += 10) {
		ui_layout_compute(c, 36, 0, 0, &L);
		assert_int_equal(L.kind, UI_LAYOUT_WIDE);
		assert_true(L.pane[UI_PANE_LESSON].w >= UI_TEXT_COLS + 2); /* a margin of 1, the scroll column */
		assert_true(L.pane[UI_PANE_NUMBERS].w >= 36);
	}
}

static void test_kinds(void **st)
{
	(void)st;
	ui_layout L;
	ui_layout_compute(79, 24, 0, 0, &L);
	assert_int_equal(L.kind, UI_LAYOUT_TOO_SMALL);
	ui_layout_compute(80, 23, 0, 0, &L);
	assert_int_equal(L.kind, UI_LAYOUT_TOO_SMALL);
	ui_layout_compute(80, 24, 0, 0, &L);
	assert_int_equal(L.kind, UI_LAYOUT_COMPACT);
	assert_true(L.tabbed);
	ui_layout_compute(130, 40, 0, 0, &L);
	assert_int_equal(L.kind, UI_LAYOUT_WIDE);
	assert_false(L.tabbed);
	ui_layout_compute(160, 48, 0, 0, &L);
	assert_int_equal(L.kind, UI_LAYOUT_WIDE);
	assert_false(L.tabbed);
	ui_layout_compute(200, 60, 0, 0, &L);
	assert_int_equal(L.kind, UI_LAYOUT_WIDE3);
	assert_false(L.tabbed);
	ui_layout_compute(160, 48, 1, 0, &L);
	assert_int_equal(L.kind, UI_LAYOUT_PRESENT);
	assert_true(L.tabbed);
	ui_layout_compute(80, 24, 1, 0, &L);
	assert_int_equal(L.kind, UI_LAYOUT_PRESENT);
}

static void test_80x24_arrangement(void **st)
{
	(void)st;
	ui_layout L;
	ui_layout_compute(80, 24, 0, 0, &L);
	ui_rect les = L.pane[UI_PANE_LESSON], ptx = L.pane[UI_PANE_PTX], num = L.pane[UI_PANE_NUMBERS];
	/* Lesson across the top, PTX under it on the left, numbers beside PTX. */
	assert_int_equal(les.y, 1);
	assert_int_equal(les.w, 80);
	assert_int_equal(ptx.y, les.y + les.h);
	assert_int_equal(ptx.x, 0);
	assert_int_equal(num.y, ptx.y);
	assert_int_equal(num.x, ptx.w + 1); /* one column for the separator */
	assert_int_equal(num.x + num.w, 80);
	assert_true(ptx.w >= 48); /* a PTX line with line numbers fits */
	assert_int_equal(ptx.y + ptx.h, 23);
}

static void test_160x48_side_by_side(void **st)
{
	(void)st;
	ui_layout L;
	ui_layout_compute(160, 48, 0, 0, &L);
	ui_rect les = L.pane[UI_PANE_LESSON], ptx = L.pane[UI_PANE_PTX];
	ui_rect num = L.pane[UI_PANE_NUMBERS], run = L.pane[UI_PANE_RUN];
	/* Lesson over PTX on the left, wide enough for the texts' 76 columns;
	 * numbers over the run on the right, beside them. */
	assert_true(les.w >= 78);
	assert_int_equal(ptx.x, les.x);
	assert_int_equal(ptx.y, les.y + les.h);
	assert_int_equal(ptx.y + ptx.h, 47);
	assert_true(num.x > les.x + les.w);
	assert_int_equal(num.x, run.x);
	assert_int_equal(num.y + num.h, run.y);
	assert_int_equal(run.y + run.h, 47);
	assert_true(ptx.w >= 60);

	/* From 200 columns: three side by side, the lesson still at least 80. */
	ui_layout_compute(200, 60, 0, 0, &L);
	les = L.pane[UI_PANE_LESSON], ptx = L.pane[UI_PANE_PTX], num = L.pane[UI_PANE_NUMBERS];
	assert_true(les.x < ptx.x && ptx.x < num.x);
	assert_true(les.w >= 80);
	assert_true(ptx.w >= 56);
}

/* f: the focused pane takes every row between header and status; the others
 * are empty; numbers and run stay twins where they are tabbed. */
static void test_zoom(void **st)
{
	(void)st;
	ui_layout L;
	ui_layout_compute(80, 24, 0, 0, &L);
	ui_layout_zoom(&L, UI_PANE_LESSON);
	ui_rect les = L.pane[UI_PANE_LESSON];
	assert_int_equal(les.x, 0);
	assert_int_equal(les.y, 1);
	assert_int_equal(les.w, 80);
	assert_int_equal(les.h, 22);
	for (int p = UI_PANE_PTX; p < UI_NPANES; p++)
		assert_int_equal(L.pane[p].w * L.pane[p].h, 0);
	ui_layout_compute(80, 24, 0, 0, &L);
	ui_layout_zoom(&L, UI_PANE_RUN);
	assert_memory_equal(&L.pane[UI_PANE_RUN], &L.pane[UI_PANE_NUMBERS], sizeof(ui_rect));
	assert_int_equal(L.pane[UI_PANE_RUN].h, 22);
	assert_int_equal(L.pane[UI_PANE_LESSON].h, 0);
	/* Side by side, the run pane alone is zoomed. */
	ui_layout_compute(160, 48, 0, 0, &L);
	ui_layout_zoom(&L, UI_PANE_RUN);
	assert_int_equal(L.pane[UI_PANE_RUN].w, 160);
	assert_int_equal(L.pane[UI_PANE_NUMBERS].h, 0);
}

/* Layout is a pure function of the size and the mode: the same answer
 * whatever the output held before (two different fillings of garbage) and
 * whatever was computed before (a fresh run of this program, computing the
 * sizes in the opposite order, agrees with this one, which has computed
 * hundreds). */
static const int pure_sizes[][3] = {
	{123, 45, 0}, {123, 45, 1}, {80, 24, 0}, {60, 20, 0}, {200, 60, 1}, {100, 30, 0}, {320, 90, 0}, {320, 90, 1},
};
#define NPURE ((int)(sizeof pure_sizes / sizeof pure_sizes[0]))

static void layout_over(int i, unsigned char garbage, ui_layout *L)
{
	memset(L, garbage, sizeof *L);
	ui_layout_compute(pure_sizes[i][0], pure_sizes[i][1], pure_sizes[i][2], 0, L);
}

static void test_pure(void **st)
{
	(void)st;
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) { /* this test program again, fresh: see main */
		dup2(fd[1], STDOUT_FILENO);
		execl("/proc/self/exe", "test_layout", "--fresh", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	ui_layout fresh[NPURE];
	size_t got = 0;
	ssize_t n;
	while (got < sizeof fresh && (n = read(fd[0], (char *)fresh + got, sizeof fresh - got)) > 0)
		got += (size_t)n;
	close(fd[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(got, sizeof fresh);
	for (int i = 0; i < NPURE; i++) {
		ui_layout a, b;
		layout_over(i, 0xA5, &a);
		layout_over((i + 1) % NPURE, 0x00, &b); /* something else in between */
		layout_over(i, 0x5A, &b);
		if (memcmp(&a, &b, sizeof a) || memcmp(&a, &fresh[i], sizeof a))
			fail_msg("%dx%d present=%d: the layout depends on more than the size", pure_sizes[i][0],
				 pure_sizes[i][1], pure_sizes[i][2]);
		/* Zooming is pure too. */
		ui_layout_zoom(&a, UI_PANE_PTX);
		ui_layout_zoom(&b, UI_PANE_PTX);
		assert_memory_equal(&a, &b, sizeof a);
	}
}

/* --fresh: the layouts of pure_sizes, computed first thing, in reverse, on stdout. */
static int print_fresh(void)
{
	ui_layout fresh[NPURE];
	for (int i = NPURE - 1; i >= 0; i--)
		layout_over(i, 0x3C, &fresh[i]);
	return fwrite(fresh, sizeof fresh, 1, stdout) == 1 && fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--fresh"))
		return print_fresh();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_properties_at_every_size),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_readable_sizes),
		cmocka_unit_test(test_present_widths),
		cmocka_unit_test(test_80x24_arrangement),
		cmocka_unit_test(test_160x48_side_by_side),
		cmocka_unit_test(test_zoom),
		cmocka_unit_test(test_pure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
