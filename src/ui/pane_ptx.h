/* ui/pane_ptx: the PTX pane — the kernel with line numbers and syntax roles, the page's region marked, folds, and the JIT's or emulator's complaints under their lines. */
#ifndef PTXTUTOR_UI_PANE_PTX_H
#define PTXTUTOR_UI_PANE_PTX_H

#include "ui/app_state.h"
#include "ui/frame.h"

/* Draws the PTX pane into its rectangle of a->layout (nothing when hidden). */
void ui_pane_ptx_draw(const ui_app *a, ui_frame *f);

/* The role a PTX highlight class (course/ptx.h) is drawn in. */
ui_role ui_ptx_role(int cls);

#endif
