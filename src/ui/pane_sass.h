/* ui/pane_sass: the PTX pane in its SASS view (S) — each PTX line of the page's region and the SASS it became, the counts in the title. */
#ifndef PTXTUTOR_UI_PANE_SASS_H
#define PTXTUTOR_UI_PANE_SASS_H

#include "ui/app_state.h"
#include "ui/frame.h"

/* Draws the SASS view into the PTX pane's rectangle (nothing when hidden). */
void ui_pane_sass_draw(const ui_app *a, ui_frame *f);

#endif
