/* ui/keys: the binding table. Several keys may share an action; the help lists each action once with all its keys. */
#include "ui/keys.h"

#include <string.h>

#include "base/util.h"

#define CTRL(c) ((c) & 0x1f)

/* The order is the order of the help: the keys a newcomer needs first. */
const ui_binding ui_bindings[] = {
	{'?', UI_ACT_HELP, "?", "this help"},
	{'q', UI_ACT_QUIT, "q", "quit (where you were is remembered)"},
	{'n', UI_ACT_NEXT_LESSON, "n", "next lesson (p: previous)"},
	{'p', UI_ACT_PREV_LESSON, "p", NULL},
	{' ', UI_ACT_NEXT_PAGE, "Space", "next page"},
	{UI_KEY_RIGHT, UI_ACT_NEXT_PAGE, "Right", NULL},
	{UI_KEY_PGDN, UI_ACT_NEXT_PAGE, "PgDn", NULL},
	{UI_KEY_BACKSPACE, UI_ACT_PREV_PAGE, "Backspace", "previous page"},
	{127, UI_ACT_PREV_PAGE, "Backspace", NULL},
	{CTRL('h'), UI_ACT_PREV_PAGE, "Backspace", NULL},
	{UI_KEY_LEFT, UI_ACT_PREV_PAGE, "Left", NULL},
	{UI_KEY_PGUP, UI_ACT_PREV_PAGE, "PgUp", NULL},
	{UI_KEY_TAB, UI_ACT_FOCUS_NEXT, "Tab", "focus the next pane (S-Tab: previous)"},
	{UI_KEY_BTAB, UI_ACT_FOCUS_PREV, "S-Tab", NULL},
	{UI_KEY_DOWN, UI_ACT_SCROLL_DOWN, "Down", "scroll the focused pane (Up/k: back)"},
	{'j', UI_ACT_SCROLL_DOWN, "j", NULL},
	{UI_KEY_UP, UI_ACT_SCROLL_UP, "Up", NULL},
	{'k', UI_ACT_SCROLL_UP, "k", NULL},
	{'r', UI_ACT_RUN, "r", "run the kernel on the GPU (no GPU: emulate it)"},
	{'e', UI_ACT_EDIT, "e", "edit the PTX in $EDITOR (a copy of your own)"},
	{'R', UI_ACT_DIFF, "R", "your edit against the original; restore it"},
	{UI_KEY_ESC, UI_ACT_CANCEL, "Esc", "cancel a run, close a box"},
	{'+', UI_ACT_SIZE_UP, "+", "double M, N and K (-: halve them)"},
	{'=', UI_ACT_SIZE_UP, "=", NULL},
	{'-', UI_ACT_SIZE_DOWN, "-", NULL},
	{'t', UI_ACT_WHATIF, "t", "what-if: tile sizes, threads, registers"},
	{'z', UI_ACT_FOLD, "z", "fold or unfold long repetitive PTX"},
	{'f', UI_ACT_ZOOM, "f", "the focused pane fills the screen (f: back)"},
	{'a', UI_ACT_ANSWER, "a", "answer the page's exercise"},
	{'h', UI_ACT_HINT, "h", "the exercise's hint (s: the worked answer)"},
	{'s', UI_ACT_SOLUTION, "s", NULL},
	{CTRL('l'), UI_ACT_REDRAW, "C-l", "redraw the screen"},
};
const int ui_nbindings = (int)ARRAY_LEN(ui_bindings);

ui_action ui_key_action(int key)
{
	for (int i = 0; i < ui_nbindings; i++)
		if (ui_bindings[i].key == key)
			return ui_bindings[i].act;
	return UI_ACT_NONE;
}

void ui_key_labels(ui_action a, char *buf, int len)
{
	buf[0] = '\0';
	for (int i = 0; i < ui_nbindings; i++) {
		if (ui_bindings[i].act != a)
			continue;
		/* One label per spelling: Backspace has three codes. */
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= ui_bindings[j].act == a && !strcmp(ui_bindings[j].label, ui_bindings[i].label);
		if (dup)
			continue;
		size_t have = strlen(buf);
		if (have && have + 1 < (size_t)len)
			buf[have++] = '/', buf[have] = '\0';
		util_strlcpy(buf + have, ui_bindings[i].label, (size_t)len - have);
	}
}

int ui_key_is_backspace(int key)
{
	return key == UI_KEY_BACKSPACE || key == 127 || key == CTRL('h');
}
