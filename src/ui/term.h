/* ui/term: the only curses code — open and restore the terminal, show a frame, read keys, signals. */
#ifndef PTXTUTOR_UI_TERM_H
#define PTXTUTOR_UI_TERM_H

#include <signal.h>

#include "ui/frame.h"
#include "ui/keycode.h"
#include "ui/theme.h"

/* Set by SIGINT, SIGTERM and SIGHUP: the event loop leaves through its normal exit path. */
extern volatile sig_atomic_t ui_term_signal;
/* Readable once one of those signals came, or the terminal was resized (-1
 * before ui_term_open): the event loop polls it with its other fds, so no
 * signal waits for the next key. */
int ui_term_signal_fd(void);
/* Empties that pipe once the loop has woken (a resize writes to it too). */
void ui_term_signal_drain(void);

/* Whether the locale can show UTF-8 (else the tutor uses ASCII glyphs). */
int ui_term_utf8(void);
/* Starts curses on the terminal, installs the signal handlers that restore it
 * (SIGSEGV and SIGABRT too, then die as they would have) and colours for the
 * theme. Returns 0, or -1 with a message. */
int ui_term_open(const ui_theme *t, char *err, int errlen);
/* Restores the terminal; safe to call twice and from atexit. */
void ui_term_close(void);
/* Gives the terminal to another program (the editor) and takes it back:
 * the screen is restored and fully redrawn by the next ui_term_show. */
void ui_term_suspend(void);
void ui_term_resume(void);
void ui_term_size(int *cols, int *rows);
/* Copies the frame into curses' screen and shows it in one update. */
void ui_term_show(const ui_frame *f, int redraw_all);
/* The next key (ui/keycode.h): UI_KEY_NONE when none is waiting (never
 * blocks), UI_KEY_RESIZE after a resize. */
int ui_term_key(void);
/* After UI_KEY_MOUSE: what the mouse did and where (0-based cell). */
ui_mouse_kind ui_term_mouse(int *x, int *y);

/* Colours for a theme on the current curses screen (start_color done). */
void ui_term_colours(const ui_theme *t);
/* Copies a frame into a curses window with the theme's styles. Used by
 * ui_term_show and by the render tests on a newterm screen. */
void ui_term_blit(void *window, const ui_frame *f, const ui_theme *t);

#endif
