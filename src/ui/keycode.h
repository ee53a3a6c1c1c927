/* ui/keycode: the keys the tutor knows, as ui_term_key returns them — the terminal's own codes stay inside ui/term.c. */
#ifndef PTXTUTOR_UI_KEYCODE_H
#define PTXTUTOR_UI_KEYCODE_H

/* A plain key is its byte (0..255: 'q', ' ', 127 and C-h for some
 * backspaces); the others are these. */
enum {
	UI_KEY_NONE = -1,        /* no key waiting */
	UI_KEY_RESIZE = -2,      /* the terminal changed size */
	UI_KEY_TAB = '\t',
	UI_KEY_ENTER = '\n',     /* Return and keypad Enter */
	UI_KEY_ESC = 27,
	UI_KEY_UP = 0x1000,
	UI_KEY_DOWN,
	UI_KEY_LEFT,
	UI_KEY_RIGHT,
	UI_KEY_PGUP,
	UI_KEY_PGDN,
	UI_KEY_BACKSPACE,        /* the terminal's backspace key code */
	UI_KEY_BTAB,             /* Shift-Tab */
	UI_KEY_HOME,
	UI_KEY_END,
	UI_KEY_DELETE,           /* Delete (the inline editor) */
	UI_KEY_MOUSE,            /* a mouse event: ui_term_mouse says which */
	UI_KEY_OTHER,            /* a function key the tutor does not use */
};

/* A mouse event, in the UI's terms (ui_term_mouse). */
typedef enum { UI_MOUSE_NONE, UI_MOUSE_CLICK, UI_MOUSE_WHEEL_UP, UI_MOUSE_WHEEL_DOWN } ui_mouse_kind;

#endif
