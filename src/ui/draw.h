/* ui/draw: draw code — the state drawn into an off-screen frame; reads the state, never changes it. */
#ifndef PTXTUTOR_UI_DRAW_H
#define PTXTUTOR_UI_DRAW_H

#include "ui/app.h"
#include "ui/frame.h"

/* Draws the whole screen for a->layout into f (resized to the layout's size). */
void ui_draw(const ui_app *a, ui_frame *f);
/* How many content lines a text pane (lesson, numbers, run) has at width w;
 * the update code uses it to stop scrolling at the end. */
int ui_pane_lines(const ui_app *a, ui_pane p, int w);

#endif
