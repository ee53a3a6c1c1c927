/* ui/pane_numbers: the numbers pane's text — intensity, accesses per output and per warp request, roofline, occupancy, instruction mix. */
#ifndef PTXTUTOR_UI_PANE_NUMBERS_H
#define PTXTUTOR_UI_PANE_NUMBERS_H

#include "ui/app_state.h"
#include "ui/lines.h"

void ui_pane_numbers_text(ui_lines *t, const ui_app *a, int w);

#endif
