/* ui/pane_text: the text panes (lesson, numbers, run) as styled lines at a width — what draw places and what the update code counts to stop scrolling at the end. */
#ifndef PTXTUTOR_UI_PANE_TEXT_H
#define PTXTUTOR_UI_PANE_TEXT_H

#include "ui/app_state.h"
#include "ui/lines.h"

/* Builds pane p's lines for width w into t (initialised here; the caller
 * frees it with ui_lines_free). A pane that is not a text pane (PTX) is empty. */
void ui_pane_text(ui_lines *t, const ui_app *a, ui_pane p, int w);
/* How many lines pane p has at width w. */
int ui_pane_lines(const ui_app *a, ui_pane p, int w);

#endif
