/* ui/ptx_stalls: the stall model's result (W) as the panes show it — each line's top reason in short (lsb, ssb ...), its share and heat, the sums per CUDA line, the numbers pane's line. */
#ifndef PTXTUTOR_UI_PTX_STALLS_H
#define PTXTUTOR_UI_PTX_STALLS_H

#include <stddef.h>

#include "exec/stalls.h"
#include "ui/app_state.h"

/* A reason's short form in the column: "lsb" for long scoreboard ... (at most 4 characters). */
const char *ui_stalls_short(int reason);
/* "lsb long scoreboard, nsel not selected, ...": the reasons some line of b has on top (b NULL: every reason). */
void ui_stalls_legend(const exec_stalls_brief *b, char *s, size_t len);
/* The result on screen: the column is on, the PTX view (not SASS) shows, and the model is in for
 * what is shown (a stale one never is: it is dropped when what it depends on changes); else NULL. */
const exec_stalls_brief *ui_stalls_of(const ui_app *a);
/* Whether the PTX and CUDA panes have a header row: the per-line counts' or the stall column's. */
int ui_ptx_header_row(const ui_app *a);
/* The column's state in words while it has no result ("stalls: modelling one SM ..."); "" when it
 * has one or is off. */
void ui_stalls_state_text(const ui_app *a, char *s, size_t len);
/* The row of a 1-based PTX line; NULL when the model has none for it. */
const exec_stalls_line *ui_stalls_line(const exec_stalls_brief *b, int line);
/* Its warp cycles (every reason), and its share of the kernel's. */
double ui_stalls_cycles(const exec_stalls_line *l);
double ui_stalls_share(const exec_stalls_brief *b, const exec_stalls_line *l);
/* The heat of a line by its share, as the per-line counts' (ptx_counts.h): 2 hot, 1 warm, 0 not. */
int ui_stalls_heat(const exec_stalls_brief *b, const exec_stalls_line *l);
/* The stall cell's width in `room` columns: 11 (mark, reason, share), 7 (mark, reason), 2 (the
 * mark) or 0 (none: the code keeps its room). */
int ui_stalls_width(int room);
/* The lines summed per CUDA line of the .cu the CUDA pane shows: row i for CUDA line i (1-based;
 * cu_nlines + 1 rows, malloc'd, top set; a line with no cycles has none), NULL when there is nothing. */
exec_stalls_line *ui_stalls_cu_rows(const ui_app *a, const exec_stalls_brief *b);
/* The numbers pane's line: value "issue active 62%", note "waiting: long scoreboard 41% at line 81 `ld.global`". */
void ui_stalls_summary(const ui_app *a, const exec_stalls_brief *b, char *value, size_t vlen, char *note, size_t nlen);

#endif
