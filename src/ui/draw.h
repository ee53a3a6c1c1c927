/* ui/draw: the frame composed from the panes — header, lesson, PTX, numbers, run, status, the mode's overlay; reads the state, never changes it. */
#ifndef PTXTUTOR_UI_DRAW_H
#define PTXTUTOR_UI_DRAW_H

#include "ui/app_state.h"
#include "ui/frame.h"

/* Draws the whole screen for a->layout into f (resized to the layout's size). */
void ui_draw(const ui_app *a, ui_frame *f);

#endif
