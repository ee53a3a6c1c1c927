/* ui/pane_run: the run pane's text — a run in progress, the last result (GPU or emulated), what a failure means, the ladder of runs so far. */
#ifndef PTXTUTOR_UI_PANE_RUN_H
#define PTXTUTOR_UI_PANE_RUN_H

#include "ui/app_state.h"
#include "ui/lines.h"

void ui_pane_run_text(ui_lines *t, const ui_app *a, int w);

#endif
