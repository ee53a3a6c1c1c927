/* ui/pane_numbers: the numbers pane's text — intensity, accesses per output and per warp request, roofline, occupancy, instruction mix. */
#ifndef PTXTUTOR_UI_PANE_NUMBERS_H
#define PTXTUTOR_UI_PANE_NUMBERS_H

#include "ui/app_state.h"
#include "ui/lines.h"

/* The pane's text; the section the page names with @numbers marked
 * (t->mark_first .. mark_last). */
void ui_pane_numbers_text(ui_lines *t, const ui_app *a, int w);
/* Whether the pane has a section of that name (what @numbers may name). */
int ui_pane_numbers_known(const char *name);

#endif
