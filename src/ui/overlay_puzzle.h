/* ui/overlay_puzzle: the P box drawn over the panes (src/ui/overlay.c's table calls it). */
#ifndef PTXTUTOR_UI_OVERLAY_PUZZLE_H
#define PTXTUTOR_UI_OVERLAY_PUZZLE_H

#include "ui/app_state.h"
#include "ui/frame.h"

/* Draws the box in r; box() draws its border and title. */
void ui_overlay_puzzle(const ui_app *a, ui_frame *f, ui_rect r,
		       void (*box)(const ui_app *, ui_frame *, ui_rect, const char *));

#endif
