/* ui/pane_text: the text panes (lesson, numbers, run) as styled lines at a width — what draw places and what the update code counts to page and to stop scrolling at the end. */
#ifndef PTXTUTOR_UI_PANE_TEXT_H
#define PTXTUTOR_UI_PANE_TEXT_H

#include "ui/app_state.h"
#include "ui/lines.h"

/* Builds pane p's lines for width w into t (initialised here; the caller
 * frees it with ui_lines_free). A pane that is not a text pane (PTX) is empty. */
void ui_pane_text(ui_lines *t, const ui_app *a, ui_pane p, int w);
/* The columns of text pane p: its width less the margin and the scroll
 * column; the lesson's at most UI_TEXT_COLS in lecture mode. */
int ui_pane_text_width(const ui_app *a, ui_pane p);
/* The margin left of a text pane's lines. */
int ui_pane_text_pad(const ui_app *a);

/* What of a text pane shows: lines [top, top + rows) of total; when they do
 * not all fit, the last row of the pane is the "more below (N lines)" mark,
 * so rows is one less than the body's height. */
typedef struct {
	int top, rows, total, below;
} ui_view;
/* The view of pane p over its lines t (the numbers pane at its page's
 * @numbers section while it follows the page). */
ui_view ui_pane_view(const ui_app *a, ui_pane p, const ui_lines *t);
/* The same, the lines built here. */
ui_view ui_pane_view_of(const ui_app *a, ui_pane p);

#endif
