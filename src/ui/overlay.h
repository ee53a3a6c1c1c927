/* ui/overlay: what a mode draws over the panes — the `?` help, the what-if box, the diff box, the answer prompt on the status row. */
#ifndef PTXTUTOR_UI_OVERLAY_H
#define PTXTUTOR_UI_OVERLAY_H

#include "ui/app_state.h"
#include "ui/frame.h"

/* Draws a->mode's overlay, if it has one, over the frame the panes were drawn into. */
void ui_overlay_draw(const ui_app *a, ui_frame *f);

#endif
