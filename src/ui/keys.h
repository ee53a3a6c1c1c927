/* ui/keys: the key bindings as a const table (what `?` shows) and the actions they name. */
#ifndef PTXTUTOR_UI_KEYS_H
#define PTXTUTOR_UI_KEYS_H

#include "ui/keycode.h"

typedef enum {
	UI_ACT_NONE,
	UI_ACT_QUIT,
	UI_ACT_HELP,
	UI_ACT_NEXT_LESSON,
	UI_ACT_PREV_LESSON,
	UI_ACT_NEXT_PAGE,
	UI_ACT_PREV_PAGE,
	UI_ACT_SCROLL_DOWN,
	UI_ACT_SCROLL_UP,
	UI_ACT_FOCUS_NEXT,
	UI_ACT_FOCUS_PREV,
	UI_ACT_RUN,
	UI_ACT_CANCEL,
	UI_ACT_SIZE_UP,
	UI_ACT_SIZE_DOWN,
	UI_ACT_WHATIF,
	UI_ACT_FOLD,
	UI_ACT_ZOOM,
	UI_ACT_ANSWER,
	UI_ACT_HINT,
	UI_ACT_SOLUTION,
	UI_ACT_REDRAW,
	UI_ACT_EDIT,
	UI_ACT_DIFF,
	UI_NACTIONS
} ui_action;

typedef struct {
	int key;            /* a character or a UI_KEY_ code */
	ui_action act;
	const char *label;  /* how the key is written in the help: "Space", "PgDn" */
	const char *help;   /* what it does; NULL for a second key of the same action */
} ui_binding;

extern const ui_binding ui_bindings[];
extern const int ui_nbindings;

/* The action bound to a key in the tutor's normal state; UI_ACT_NONE if none. */
ui_action ui_key_action(int key);
/* Backspace, however the terminal sends it. */
int ui_key_is_backspace(int key);
/* All labels of an action joined with "/" ("n", "Space/Right/PgDn"). */
void ui_key_labels(ui_action a, char *buf, int len);

#endif
