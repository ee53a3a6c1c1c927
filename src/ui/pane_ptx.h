/* ui/pane_ptx: the PTX pane — the kernel with line numbers and syntax roles, the page's region marked, folds, and the JIT's or emulator's complaints under their lines. */
#ifndef PTXTUTOR_UI_PANE_PTX_H
#define PTXTUTOR_UI_PANE_PTX_H

#include "ui/app_state.h"
#include "ui/frame.h"

/* Draws the PTX pane into its rectangle of a->layout (nothing when hidden). */
void ui_pane_ptx_draw(const ui_app *a, ui_frame *f);

/* The code area the PTX pane keeps for an instruction and its operands at
 * this terminal size: UI_PTX_CODE_MIN columns (UI_PTX_CODE_MIN_80 on a
 * terminal under 100 columns; ui/layout.h), or the kernel's widest
 * instruction line where that is narrower. The per-line columns give way to
 * it. */
int ui_pane_ptx_code_target(const ui_app *a);
/* The columns the code gets in the pane as drawn now (after the line
 * numbers, the per-line columns and their heat mark). */
int ui_pane_ptx_code_width(const ui_app *a);

/* W's stall cell of a PTX (or CUDA) line at x, w columns wide (ui_stalls_width): its heat mark,
 * then its top reason in short and its share of the warp cycles where they fit ("█ lsb  41%").
 * The CUDA pane draws its summed lines with it too. */
void ui_pane_ptx_stall_cell(ui_frame *f, ui_rect body, int x, int sy, int w, int ascii, const exec_stalls_brief *b,
			    const exec_stalls_line *l);

/* The role a PTX highlight class (course/ptx.h) is drawn in. */
ui_role ui_ptx_role(int cls);

#endif
