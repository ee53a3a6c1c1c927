/* ui/keys: the key bindings of every mode (normal and each box) as one const table; the `?` help of a mode is generated from it. */
#ifndef PTXTUTOR_UI_KEYS_H
#define PTXTUTOR_UI_KEYS_H

#include "ui/keycode.h"

/* What the keys act on: the panes, or a box drawn over them. */
typedef enum {
	UI_MODE_NORMAL,
	UI_MODE_HELP,
	UI_MODE_WHATIF,
	UI_MODE_ANSWER,
	UI_MODE_DIFF,
	UI_MODE_MENU,    /* g: lessons and pages */
	UI_MODE_SEARCH,  /* /: the search text being typed */
	UI_MODE_PUZZLE,  /* P: the lesson's puzzles */
	UI_MODE_WARP,    /* w: a warp's view of one memory access */
	UI_MODE_EDITOR,  /* e without $EDITOR: the inline editor, full screen */
	UI_NMODES
} ui_mode;

typedef enum {
	UI_ACT_NONE,
	/* normal mode */
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
	UI_ACT_FIRST_PAGE,
	UI_ACT_LAST_PAGE,
	UI_ACT_REGION,
	UI_ACT_MENU,
	UI_ACT_SEARCH,
	UI_ACT_NEXT_HIT,
	UI_ACT_PREV_HIT,
	UI_ACT_GROW,
	UI_ACT_SHRINK,
	UI_ACT_SWAP,
	UI_ACT_SASS,
	UI_ACT_PUZZLES,
	UI_ACT_HOT_LINE,
	UI_ACT_LINE_COLS,
	UI_ACT_BASELINE,
	UI_ACT_WARP,
	UI_ACT_CUDA,
	UI_ACT_STALLS,
	/* the boxes */
	UI_ACT_CLOSE,
	UI_ACT_WHATIF_NEXT,
	UI_ACT_WHATIF_PREV,
	UI_ACT_WHATIF_DOUBLE,
	UI_ACT_WHATIF_HALVE,
	UI_ACT_WHATIF_RESET,
	UI_ACT_ANSWER_TYPE,
	UI_ACT_ANSWER_DELETE,
	UI_ACT_ANSWER_CHECK,
	UI_ACT_ANSWER_NEXT,      /* the answer box: the page's next or previous exercise */
	UI_ACT_ANSWER_PREV,
	UI_ACT_DIFF_DOWN,
	UI_ACT_DIFF_UP,
	UI_ACT_DIFF_PAGE_DOWN,
	UI_ACT_DIFF_PAGE_UP,
	UI_ACT_RESTORE,
	UI_ACT_HELP_DOWN,
	UI_ACT_HELP_UP,
	UI_ACT_HELP_PAGE_DOWN,
	UI_ACT_HELP_PAGE_UP,
	UI_ACT_MENU_DOWN,
	UI_ACT_MENU_UP,
	UI_ACT_MENU_PAGE_DOWN,
	UI_ACT_MENU_PAGE_UP,
	UI_ACT_MENU_TYPE,
	UI_ACT_MENU_DELETE,
	UI_ACT_MENU_GO,
	UI_ACT_PUZZLE_DOWN,
	UI_ACT_PUZZLE_UP,
	UI_ACT_PUZZLE_EDIT,
	UI_ACT_PUZZLE_CHECK,
	UI_ACT_PUZZLE_HINT,
	UI_ACT_PUZZLE_SOLUTION,
	UI_ACT_PUZZLE_VIEW,
	UI_ACT_SEARCH_TYPE,
	UI_ACT_SEARCH_DELETE,
	UI_ACT_SEARCH_GO,
	UI_ACT_WARP_NEXT,        /* the warp box: the next execution, warp, block */
	UI_ACT_WARP_PREV,
	UI_ACT_WARP_NEXT_WARP,
	UI_ACT_WARP_PREV_WARP,
	UI_ACT_WARP_NEXT_BLOCK,
	UI_ACT_WARP_PREV_BLOCK,
	UI_ACT_ED_MOVE,          /* the inline editor: arrows, PgUp/PgDn, Home/End (the key says which) */
	UI_ACT_ED_TYPE,          /* a printable character or Tab */
	UI_ACT_ED_BACKSPACE,
	UI_ACT_ED_DELETE,
	UI_ACT_ED_ENTER,
	UI_ACT_ED_SAVE,
	UI_ACT_ED_QUIT,
	UI_NACTIONS
} ui_action;

/* In the table only: UI_KEY_ANY binds every key its mode binds nowhere else,
 * UI_KEY_TEXT every printable character (beside ui/keycode.h's codes, which
 * stop at UI_KEY_RESIZE = -2). */
enum { UI_KEY_ANY = -3, UI_KEY_TEXT = -4 };

#define UI_BINDING_KEYS 6

typedef struct {
	ui_mode mode;
	int keys[UI_BINDING_KEYS]; /* characters, UI_KEY_ codes (ui/keycode.h) or UI_KEY_ANY; 0 ends the list */
	const char *chars;         /* more keys, one per character (the answer box's digits) */
	ui_action act;
	const char *help;          /* what it does, as the help says it */
	int with_previous;         /* the help shows it on the previous binding's line: "... (KEYS: help)" */
	int hint;                  /* which of keys the status line and the boxes name (ui_key_name); 0: the first */
} ui_binding;

extern const ui_binding ui_bindings[];
extern const int ui_nbindings;

/* The action a key has in a mode (that mode's UI_KEY_ANY binding for a key
 * bound nowhere else); UI_ACT_NONE if none. */
ui_action ui_key_action(ui_mode mode, int key);
/* The key the hints name for an action in a mode ("Esc", "Space", "?", "any
 * other key"): keys[hint] of its binding, or the first of its chars; "" when
 * the mode does not bind it. Every hint on screen that names a key asks this,
 * so a change of binding changes the hint (tests/test_keys.c rebinds them). */
const char *ui_key_name(ui_mode mode, ui_action act);
/* Makes t (n bindings) the table every lookup and help reads; NULL goes back
 * to ui_bindings. For tests that rebind keys. */
void ui_keys_use(const ui_binding *t, int n);
/* How the help names a mode ("what-if box"). */
const char *ui_mode_name(ui_mode mode);

/* A line of a mode's help: its keys ("Space/Right/PgDn", empty for a note)
 * and what they do, which starts at column text_col of the line. */
#define UI_HELP_KEYS_COL 21
#define UI_HELP_MAX 160
typedef struct {
	char keys[40];
	char text[96];
	int text_col;
} ui_help_line;

/* The help of a mode, generated from the table: a line per binding (those
 * marked with_previous folded into the line before), then the mode's notes.
 * Returns the number of lines (at most max). */
int ui_keys_help(ui_mode mode, ui_help_line *out, int max);
/* The help of every mode: the given one first, then a heading line (keys
 * empty, text "In the NAME:") and the keys of each other mode. */
int ui_keys_help_all(ui_mode first, ui_help_line *out, int max);

#endif
