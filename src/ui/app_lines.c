/* ui/app_lines: H walks the last run's hot PTX lines, costliest first; L cycles the per-line columns. */
#include <stdlib.h>

#include "base/numfmt.h"
#include "ui/app_internal.h"
#include "ui/ptx_counts.h"

/* Why there is nothing to walk: no run yet, or a GPU run whose emulated counts are not in yet. */
static void say_no_counts(ui_app *a)
{
	const ui_run_slot *s = &a->slot[a->lesson];
	if (s->have && s->res.backend != RUN_BACKEND_EMU)
		app_say(a, 0, "The per-line counts of a GPU run come from the CPU emulator: %s.",
			s->have_lines < 0 ? s->lines.msg : "it is still counting");
	else
		app_say(a, 0, "Per-line counts come with a run (%s).", ui_key_name(UI_MODE_NORMAL, UI_ACT_RUN));
}

int app_ptx_line_shown(const ui_app *a, int line)
{
	int n, shown = 0;
	ptx_row *rows = ui_app_ptx_rows(a, &n);
	for (int i = 0; i < n && !shown; i++)
		shown = rows[i].line == line && !rows[i].hidden;
	free(rows);
	return shown;
}

void app_act_hot_line(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const run_result *r = ui_ptx_counts_of(a);
	if (!r) {
		say_no_counts(a);
		return;
	}
	int next = ui_ptx_counts_next_hot(r, a->ptx_cursor);
	const run_line_counts *l = ui_ptx_counts_line(r, next);
	if (!l)
		return;
	a->ptx_cursor = next;
	app_cuda_sync(a); /* the CUDA pane's cursor on the hot line's CUDA line */
	a->sass_view = 0;
	if (!app_ptx_line_shown(a, next - 1))
		a->fold = 0; /* a hot line inside a fold: show every line */
	a->ptx_goto = next - 1;
	unsigned long long total = 0;
	for (int i = 0; i < r->nlines; i++)
		total += run_line_cost(&r->lines[i]);
	char pct[16];
	numfmt_pct(pct, sizeof pct, total ? (double)run_line_cost(l) / (double)total : 0);
	const char *h = ui_key_name(UI_MODE_NORMAL, UI_ACT_HOT_LINE);
	int rank, spread = ui_ptx_counts_spread(r, &rank, next);
	if (spread && rank == 1)
		app_say(a, 0, "No hot line: the cost is spread over %d lines; %s walks the costliest. Line %d: %s.",
			spread, h, next, pct);
	else if (spread)
		app_say(a, 0, "Line %d: %s, number %d of %d by cost (no hot line; %s: the next).", next, pct, rank,
			spread, h);
	else
		app_say(a, 0, "Line %d: %s of the kernel's issue slots, sectors and wavefronts (%s: the next).", next,
			pct, h);
}

void app_act_line_cols(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->ptx_cols = (a->ptx_cols + 1) % UI_NCOLS_MODES;
	app_say(a, 0, "Per-line counts: %s.", ui_ptx_counts_mode_name((ui_cols_mode)a->ptx_cols));
}
