/* test_ptx_stalls: the stall column's pieces (ui/ptx_stalls.c) on a made-up result — a short form per reason, all distinct; the legend of the reasons on top; a line found by number; heat at the per-line counts' shares; the cell's width by room. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ptx_counts.h"
#include "ui/ptx_stalls.h"

static void short_forms(void **state)
{
	(void)state;
	for (int k = 0; k < STALL_NREASONS; k++) {
		const char *s = ui_stalls_short(k);
		assert_true(s && *s && strlen(s) <= 4); /* the column's "%-4s" */
		for (int j = 0; j < k; j++)
			assert_string_not_equal(s, ui_stalls_short(j));
	}
	assert_string_equal(ui_stalls_short(STALL_LONG_SB), "lsb");
	assert_string_equal(ui_stalls_short(STALL_NREASONS), "?");
}

/* Three lines: 10 (long scoreboard, 60% of the cycles), 20 (barrier, 5%), 30 (selected, 1%). */
static exec_stalls_brief *made_up(void)
{
	static const struct {
		int line, top;
		float cyc;
	} rows[] = {{10, STALL_LONG_SB, 60}, {20, STALL_BARRIER, 5}, {30, STALL_SELECTED, 1}};
	exec_stalls_brief *b = calloc(1, sizeof *b);
	assert_non_null(b);
	b->warp_cycles = 100;
	b->nlines = 3;
	for (int i = 0; i < 3; i++) {
		b->lines[i].line = rows[i].line;
		b->lines[i].top = rows[i].top;
		b->lines[i].cyc[rows[i].top] = rows[i].cyc;
	}
	return b;
}

static void legend_names_the_tops(void **state)
{
	(void)state;
	exec_stalls_brief *b = made_up();
	char s[400];
	ui_stalls_legend(b, s, sizeof s);
	assert_string_equal(s, "lsb long scoreboard, bar barrier, sel selected");
	ui_stalls_legend(NULL, s, sizeof s);
	for (int k = 0; k < STALL_NREASONS; k++)
		assert_non_null(strstr(s, stall_reason_name((stall_reason)k)));
	free(b);
}

static void lines_and_heat(void **state)
{
	(void)state;
	exec_stalls_brief *b = made_up();
	assert_null(ui_stalls_line(b, 11));
	assert_null(ui_stalls_line(b, 1));
	const exec_stalls_line *l10 = ui_stalls_line(b, 10), *l20 = ui_stalls_line(b, 20), *l30 = ui_stalls_line(b, 30);
	assert_true(l10 && l20 && l30);
	assert_int_equal(l20->line, 20);
	assert_true(ui_stalls_share(b, l10) > 0.599 && ui_stalls_share(b, l10) < 0.601);
	assert_int_equal(ui_stalls_heat(b, l10), 2); /* >= UI_HOT_SHARE */
	assert_int_equal(ui_stalls_heat(b, l20), 1); /* >= UI_WARM_SHARE */
	assert_int_equal(ui_stalls_heat(b, l30), 0);
	free(b);
}

/* The cell gives way: the share, then the reason, then the mark. */
static void widths_by_room(void **state)
{
	(void)state;
	static const int room[][2] = {{40, 11}, {11, 11}, {10, 7}, {7, 7}, {6, 2}, {2, 2}, {1, 0}, {0, 0}, {-5, 0}};
	for (size_t i = 0; i < sizeof room / sizeof room[0]; i++)
		assert_int_equal(ui_stalls_width(room[i][0]), room[i][1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_forms),
		cmocka_unit_test(legend_names_the_tops),
		cmocka_unit_test(lines_and_heat),
		cmocka_unit_test(widths_by_room),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
