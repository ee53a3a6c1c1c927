/* ui/pane_edit: the inline editor drawn full screen — a title row, the buffer in PTX colours with its cursor, a status row. */
#ifndef PTXTUTOR_UI_PANE_EDIT_H
#define PTXTUTOR_UI_PANE_EDIT_H

#include "ui/app_state.h"
#include "ui/frame.h"

void ui_pane_edit_draw(const ui_app *a, ui_frame *f);

#endif
