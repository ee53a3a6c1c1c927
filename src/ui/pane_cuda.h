/* ui/pane_cuda: the CUDA pane — a student's .cu beside its PTX (layout.cuda), the cursor's line and the lines with code, the last run's per-line counts summed to CUDA lines (exec_report_cu_rows, as `emulate --lines --by cu`), their heat marks. */
#ifndef PTXTUTOR_UI_PANE_CUDA_H
#define PTXTUTOR_UI_PANE_CUDA_H

#include "ui/app_state.h"
#include "ui/frame.h"

/* Draws the CUDA pane into a->layout.cuda (nothing when it has no room). */
void ui_pane_cuda_draw(const ui_app *a, ui_frame *f);

#endif
