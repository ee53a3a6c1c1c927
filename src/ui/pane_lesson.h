/* ui/pane_lesson: the lesson pane's text — the current page, then its exercises with the verdict, hint and worked answer shown so far. */
#ifndef PTXTUTOR_UI_PANE_LESSON_H
#define PTXTUTOR_UI_PANE_LESSON_H

#include "ui/app_state.h"
#include "ui/lines.h"

void ui_pane_lesson_text(ui_lines *t, const ui_app *a, int w);

#endif
