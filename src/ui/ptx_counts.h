/* ui/ptx_counts: the last run's per-line figures as the PTX pane shows them — the columns, a line's row, its heat, the next hot line. */
#ifndef PTXTUTOR_UI_PTX_COUNTS_H
#define PTXTUTOR_UI_PTX_COUNTS_H

#include "run/fields.h"
#include "ui/app_state.h"

/* Which columns the PTX pane shows after a run (the L key cycles them). */
typedef enum {
	UI_COLS_SHORT,     /* instructions, sectors/request, wavefronts/request, conflicts */
	UI_COLS_ALL,       /* every run_line_fields column */
	UI_COLS_OFF,
	UI_NCOLS_MODES
} ui_cols_mode;

/* The columns of a mode (run/fields.h's table); returns how many, at most max. */
int ui_ptx_counts_columns(ui_cols_mode mode, const run_line_field **cols, int max);
const char *ui_ptx_counts_mode_name(ui_cols_mode mode);

/* The current lesson's last run when it has per-line figures (an emulated
 * run that counted), else NULL. */
const run_result *ui_ptx_counts_of(const ui_app *a);
/* Whether the PTX pane draws a header row for the columns: a run is there
 * (with figures, or a GPU run that has none to say so) and columns are on. */
int ui_ptx_counts_header(const ui_app *a);
/* The row of a 1-based PTX line, or NULL (no instruction on it, or summed away). */
const run_line_counts *ui_ptx_counts_line(const run_result *r, int line);
/* The heat of a line: 2 hot (at least UI_HOT_SHARE of the kernel's cost,
 * run_line_cost), 1 warm (at least UI_WARM_SHARE), 0 not. */
#define UI_HOT_SHARE 0.10
#define UI_WARM_SHARE 0.03
int ui_ptx_counts_heat(const run_result *r, const run_line_counts *l);
/* The next hot line after `line` (1-based) in cost order, costliest first,
 * over again after the last; the costliest line when `line` is none of them
 * (0: start). 0 when the run has no line. */
/* When no line is hot, the next in cost order of every line that costs
 * anything (the cost is spread; H walks the costliest). */
int ui_ptx_counts_next_hot(const run_result *r, int line);
/* When no line is hot or warm: how many lines share the cost (H walks them
 * all), and in *rank the 1-based place of `line` among them in cost order
 * (0: not one of them). 0 when some line is hot (H walks those). */
int ui_ptx_counts_spread(const run_result *r, int *rank, int line);

#endif
