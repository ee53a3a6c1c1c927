/* ui/keys: the binding table of every mode, the lookup of a key's action, and the help generated from the table. */
#include "ui/keys.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"

#define CTRL(c) ((c) & 0x1f)
#define BACKSPACE UI_KEY_BACKSPACE, 127, CTRL('h')

/* The order in a mode is the order of its help: the keys a newcomer needs
 * first. A binding marked with_previous shares the line of the one before. */
const ui_binding ui_bindings[] = {
	{.mode = UI_MODE_NORMAL, .keys = {'?'}, .act = UI_ACT_HELP, .help = "this help"},
	{.mode = UI_MODE_NORMAL, .keys = {'q'}, .act = UI_ACT_QUIT, .help = "quit (where you were is remembered)"},
	{.mode = UI_MODE_NORMAL, .keys = {']'}, .act = UI_ACT_NEXT_LESSON, .help = "next lesson"},
	{.mode = UI_MODE_NORMAL, .keys = {'['}, .act = UI_ACT_PREV_LESSON, .help = "previous", .with_previous = 1},
	{.mode = UI_MODE_NORMAL, .keys = {' ', UI_KEY_RIGHT, UI_KEY_PGDN}, .act = UI_ACT_NEXT_PAGE,
	 .help = "read on: the rest of the page, then the next"},
	{.mode = UI_MODE_NORMAL, .keys = {BACKSPACE, UI_KEY_LEFT, UI_KEY_PGUP}, .act = UI_ACT_PREV_PAGE,
	 .help = "back: up the page, then the previous"},
	{.mode = UI_MODE_NORMAL, .keys = {UI_KEY_HOME}, .act = UI_ACT_FIRST_PAGE, .help = "the lesson's first page"},
	{.mode = UI_MODE_NORMAL, .keys = {UI_KEY_END}, .act = UI_ACT_LAST_PAGE, .help = "last", .with_previous = 1},
	{.mode = UI_MODE_NORMAL, .keys = {'g'}, .act = UI_ACT_MENU, .help = "go to a lesson or page (a menu)"},
	{.mode = UI_MODE_NORMAL, .keys = {'P'}, .act = UI_ACT_PUZZLES, .help = "the lesson's puzzles: PTX to fix"},
	{.mode = UI_MODE_NORMAL, .keys = {'/'}, .act = UI_ACT_SEARCH, .help = "search the lessons and their PTX"},
	{.mode = UI_MODE_NORMAL, .keys = {'n'}, .act = UI_ACT_NEXT_HIT, .help = "the search's next hit"},
	{.mode = UI_MODE_NORMAL, .keys = {'N'}, .act = UI_ACT_PREV_HIT, .help = "the one before", .with_previous = 1},
	{.mode = UI_MODE_NORMAL, .keys = {'c'}, .act = UI_ACT_REGION, .help = "the page's next highlighted PTX region"},
	{.mode = UI_MODE_NORMAL, .keys = {UI_KEY_TAB}, .act = UI_ACT_FOCUS_NEXT, .help = "focus the next pane"},
	{.mode = UI_MODE_NORMAL, .keys = {UI_KEY_BTAB}, .act = UI_ACT_FOCUS_PREV, .help = "previous", .with_previous = 1},
	{.mode = UI_MODE_NORMAL, .keys = {UI_KEY_DOWN, 'j'}, .hint = 1, .act = UI_ACT_SCROLL_DOWN, .help = "scroll the focused pane"},
	{.mode = UI_MODE_NORMAL, .keys = {UI_KEY_UP, 'k'}, .hint = 1, .act = UI_ACT_SCROLL_UP, .help = "back",
	 .with_previous = 1},
	{.mode = UI_MODE_NORMAL, .keys = {'r'}, .act = UI_ACT_RUN, .help = "run the kernel on the GPU (no GPU: emulate it)"},
	{.mode = UI_MODE_NORMAL, .keys = {'e'}, .act = UI_ACT_EDIT, .help = "edit the PTX (a copy): $EDITOR, else inline"},
	{.mode = UI_MODE_NORMAL, .keys = {'R'}, .act = UI_ACT_DIFF, .help = "your edit against the original; restore it"},
	{.mode = UI_MODE_NORMAL, .keys = {UI_KEY_ESC}, .act = UI_ACT_CANCEL, .help = "cancel a run or a SASS build; else unmark hits"},
	{.mode = UI_MODE_NORMAL, .keys = {'+', '='}, .act = UI_ACT_SIZE_UP, .help = "double M, N and K"},
	{.mode = UI_MODE_NORMAL, .keys = {'-'}, .act = UI_ACT_SIZE_DOWN, .help = "halve them", .with_previous = 1},
	{.mode = UI_MODE_NORMAL, .keys = {'t'}, .act = UI_ACT_WHATIF, .help = "what-if: tile sizes, threads, registers"},
	{.mode = UI_MODE_NORMAL, .keys = {'S'}, .act = UI_ACT_SASS,
	 .help = "SASS by PTX line (S: machine order, S: PTX)"},
	{.mode = UI_MODE_NORMAL, .keys = {'H'}, .act = UI_ACT_HOT_LINE, .help = "after a run: the next hot line, costliest first"},
	{.mode = UI_MODE_NORMAL, .keys = {'L'}, .act = UI_ACT_LINE_COLS, .help = "the per-line columns: a few, every one, none"},
	{.mode = UI_MODE_NORMAL, .keys = {'B'}, .act = UI_ACT_BASELINE, .help = "after an edit ran: the shipped kernel's counts too"},
	{.mode = UI_MODE_NORMAL, .keys = {'w'}, .act = UI_ACT_WARP,
	 .help = "a warp's view of a memory line (sectors, banks)"},
	{.mode = UI_MODE_NORMAL, .keys = {'C'}, .act = UI_ACT_CUDA,
	 .help = "your .cu beside its PTX (nvcc -lineinfo): show/hide"},
	{.mode = UI_MODE_NORMAL, .keys = {'W'}, .act = UI_ACT_STALLS,
	 .help = "why each line waits (stall model): a column, on/off"},
	{.mode = UI_MODE_NORMAL, .keys = {'z'}, .act = UI_ACT_FOLD, .help = "fold or unfold long repetitive PTX"},
	{.mode = UI_MODE_NORMAL, .keys = {'f'}, .act = UI_ACT_ZOOM, .help = "the focused pane fills the screen (f: back)"},
	{.mode = UI_MODE_NORMAL, .keys = {'>'}, .act = UI_ACT_GROW, .help = "a bigger lesson pane"},
	{.mode = UI_MODE_NORMAL, .keys = {'<'}, .act = UI_ACT_SHRINK, .help = "smaller", .with_previous = 1},
	{.mode = UI_MODE_NORMAL, .keys = {'o'}, .act = UI_ACT_SWAP, .help = "swap the PTX and the numbers slot"},
	{.mode = UI_MODE_NORMAL, .keys = {'a'}, .act = UI_ACT_ANSWER, .help = "answer the page's exercise"},
	{.mode = UI_MODE_NORMAL, .keys = {'h'}, .act = UI_ACT_HINT, .help = "the exercise's hint"},
	{.mode = UI_MODE_NORMAL, .keys = {'s'}, .act = UI_ACT_SOLUTION, .help = "the worked answer", .with_previous = 1},
	{.mode = UI_MODE_NORMAL, .keys = {CTRL('l')}, .act = UI_ACT_REDRAW, .help = "redraw the screen"},

	{.mode = UI_MODE_HELP, .keys = {UI_KEY_DOWN, 'j'}, .hint = 1, .act = UI_ACT_HELP_DOWN, .help = "scroll"},
	{.mode = UI_MODE_HELP, .keys = {UI_KEY_UP, 'k'}, .hint = 1, .act = UI_ACT_HELP_UP, .help = "back", .with_previous = 1},
	{.mode = UI_MODE_HELP, .keys = {' ', UI_KEY_PGDN}, .act = UI_ACT_HELP_PAGE_DOWN, .help = "a page"},
	{.mode = UI_MODE_HELP, .keys = {UI_KEY_PGUP}, .act = UI_ACT_HELP_PAGE_UP, .help = "back", .with_previous = 1},
	{.mode = UI_MODE_HELP, .keys = {UI_KEY_ANY}, .act = UI_ACT_CLOSE, .help = "close this help (q too)"},

	{.mode = UI_MODE_WHATIF, .keys = {UI_KEY_DOWN, 'j', UI_KEY_TAB}, .act = UI_ACT_WHATIF_NEXT, .help = "the next row"},
	{.mode = UI_MODE_WHATIF, .keys = {UI_KEY_UP, 'k', UI_KEY_BTAB}, .act = UI_ACT_WHATIF_PREV, .help = "previous",
	 .with_previous = 1},
	{.mode = UI_MODE_WHATIF, .keys = {'+', '=', 'l', ' ', UI_KEY_RIGHT, UI_KEY_PGDN}, .hint = 4,
	 .act = UI_ACT_WHATIF_DOUBLE, .help = "double its value"},
	{.mode = UI_MODE_WHATIF, .keys = {'-', 'h', UI_KEY_LEFT, UI_KEY_PGUP}, .hint = 2, .act = UI_ACT_WHATIF_HALVE,
	 .help = "halve it", .with_previous = 1},
	{.mode = UI_MODE_WHATIF, .keys = {'0', BACKSPACE}, .act = UI_ACT_WHATIF_RESET, .help = "back to the lesson's value"},
	{.mode = UI_MODE_WHATIF, .keys = {UI_KEY_ESC, '\n', '\r', 't', 'q'}, .act = UI_ACT_CLOSE, .help = "close the box"},
	{.mode = UI_MODE_WHATIF, .keys = {'?'}, .act = UI_ACT_HELP, .help = "these keys"},

	{.mode = UI_MODE_ANSWER, .chars = "0123456789.-+eE/", .act = UI_ACT_ANSWER_TYPE, .help = "type the answer"},
	{.mode = UI_MODE_ANSWER, .keys = {BACKSPACE}, .act = UI_ACT_ANSWER_DELETE, .help = "delete the last character"},
	{.mode = UI_MODE_ANSWER, .keys = {'\n', '\r'}, .act = UI_ACT_ANSWER_CHECK, .help = "check the answer"},
	{.mode = UI_MODE_ANSWER, .keys = {UI_KEY_TAB, UI_KEY_DOWN}, .act = UI_ACT_ANSWER_NEXT,
	 .help = "the page's next exercise"},
	{.mode = UI_MODE_ANSWER, .keys = {UI_KEY_BTAB, UI_KEY_UP}, .act = UI_ACT_ANSWER_PREV, .help = "previous",
	 .with_previous = 1},
	{.mode = UI_MODE_ANSWER, .keys = {UI_KEY_ESC, 'q'}, .act = UI_ACT_CLOSE, .help = "close the box"},
	{.mode = UI_MODE_ANSWER, .keys = {'?'}, .act = UI_ACT_HELP, .help = "these keys"},

	{.mode = UI_MODE_DIFF, .keys = {'y'}, .act = UI_ACT_RESTORE, .help = "restore the original (yours is kept as FILE~)"},
	{.mode = UI_MODE_DIFF, .keys = {UI_KEY_DOWN, 'j'}, .hint = 1, .act = UI_ACT_DIFF_DOWN, .help = "scroll"},
	{.mode = UI_MODE_DIFF, .keys = {UI_KEY_UP, 'k'}, .hint = 1, .act = UI_ACT_DIFF_UP, .help = "back",
	 .with_previous = 1},
	{.mode = UI_MODE_DIFF, .keys = {' ', UI_KEY_RIGHT, UI_KEY_PGDN}, .act = UI_ACT_DIFF_PAGE_DOWN, .help = "the next page"},
	{.mode = UI_MODE_DIFF, .keys = {BACKSPACE, UI_KEY_LEFT, UI_KEY_PGUP}, .act = UI_ACT_DIFF_PAGE_UP, .help = "back",
	 .with_previous = 1},
	{.mode = UI_MODE_DIFF, .keys = {'?'}, .act = UI_ACT_HELP, .help = "these keys"},
	{.mode = UI_MODE_DIFF, .keys = {UI_KEY_ANY}, .act = UI_ACT_CLOSE, .help = "close the box (q too)"},

	{.mode = UI_MODE_WARP, .keys = {UI_KEY_DOWN, 'j'}, .act = UI_ACT_WARP_NEXT, .help = "the warp's next execution"},
	{.mode = UI_MODE_WARP, .keys = {UI_KEY_UP, 'k'}, .act = UI_ACT_WARP_PREV, .help = "previous", .with_previous = 1},
	{.mode = UI_MODE_WARP, .keys = {UI_KEY_RIGHT, 'l'}, .act = UI_ACT_WARP_NEXT_WARP, .help = "the block's next warp"},
	{.mode = UI_MODE_WARP, .keys = {UI_KEY_LEFT, 'h'}, .act = UI_ACT_WARP_PREV_WARP, .help = "previous", .with_previous = 1},
	{.mode = UI_MODE_WARP, .keys = {'n'}, .act = UI_ACT_WARP_NEXT_BLOCK, .help = "the next block (x first)"},
	{.mode = UI_MODE_WARP, .keys = {'p'}, .act = UI_ACT_WARP_PREV_BLOCK, .help = "previous", .with_previous = 1},
	{.mode = UI_MODE_WARP, .keys = {UI_KEY_ESC, 'w', 'q'}, .act = UI_ACT_CLOSE, .help = "close the box"},
	{.mode = UI_MODE_WARP, .keys = {'?'}, .act = UI_ACT_HELP, .help = "these keys"},

	{.mode = UI_MODE_MENU, .keys = {UI_KEY_DOWN, 'j', UI_KEY_TAB}, .act = UI_ACT_MENU_DOWN, .help = "the next row"},
	{.mode = UI_MODE_MENU, .keys = {UI_KEY_UP, 'k', UI_KEY_BTAB}, .act = UI_ACT_MENU_UP, .help = "previous",
	 .with_previous = 1},
	{.mode = UI_MODE_MENU, .keys = {' ', UI_KEY_PGDN, UI_KEY_RIGHT}, .act = UI_ACT_MENU_PAGE_DOWN,
	 .help = "the next lesson"},
	{.mode = UI_MODE_MENU, .keys = {UI_KEY_PGUP, UI_KEY_LEFT}, .act = UI_ACT_MENU_PAGE_UP, .help = "previous",
	 .with_previous = 1},
	{.mode = UI_MODE_MENU, .chars = "0123456789.", .act = UI_ACT_MENU_TYPE, .help = "type a lesson (8) or a page (8.2)"},
	{.mode = UI_MODE_MENU, .keys = {BACKSPACE}, .act = UI_ACT_MENU_DELETE, .help = "delete a digit"},
	{.mode = UI_MODE_MENU, .keys = {'\n', '\r'}, .act = UI_ACT_MENU_GO, .help = "go there"},
	{.mode = UI_MODE_MENU, .keys = {UI_KEY_ESC, 'g', 'q'}, .act = UI_ACT_CLOSE, .help = "close the box"},
	{.mode = UI_MODE_MENU, .keys = {'?'}, .act = UI_ACT_HELP, .help = "these keys"},

	{.mode = UI_MODE_PUZZLE, .keys = {UI_KEY_DOWN, 'j', UI_KEY_TAB}, .act = UI_ACT_PUZZLE_DOWN, .help = "the next puzzle"},
	{.mode = UI_MODE_PUZZLE, .keys = {UI_KEY_UP, 'k', UI_KEY_BTAB}, .act = UI_ACT_PUZZLE_UP, .help = "previous",
	 .with_previous = 1},
	{.mode = UI_MODE_PUZZLE, .keys = {'e', '\n', '\r'}, .act = UI_ACT_PUZZLE_EDIT,
	 .help = "edit your copy ($EDITOR, else inline); checked"},
	{.mode = UI_MODE_PUZZLE, .keys = {'c'}, .act = UI_ACT_PUZZLE_CHECK, .help = "check your copy again"},
	{.mode = UI_MODE_PUZZLE, .keys = {'h'}, .act = UI_ACT_PUZZLE_HINT, .help = "one more hint"},
	{.mode = UI_MODE_PUZZLE, .keys = {'s'}, .act = UI_ACT_PUZZLE_SOLUTION, .help = "the solution (once solved, or asked twice)"},
	{.mode = UI_MODE_PUZZLE, .keys = {'v'}, .act = UI_ACT_PUZZLE_VIEW, .help = "lecturer view: the start beside the solution"},
	{.mode = UI_MODE_PUZZLE, .keys = {'?'}, .act = UI_ACT_HELP, .help = "these keys"},
	{.mode = UI_MODE_PUZZLE, .keys = {UI_KEY_ESC, 'q', 'P'}, .act = UI_ACT_CLOSE, .help = "close the box"},

	{.mode = UI_MODE_SEARCH, .keys = {'\n', '\r'}, .act = UI_ACT_SEARCH_GO, .help = "the first hit from here (n: next, N: back)"},
	{.mode = UI_MODE_SEARCH, .keys = {BACKSPACE}, .act = UI_ACT_SEARCH_DELETE, .help = "delete a character"},
	{.mode = UI_MODE_SEARCH, .keys = {UI_KEY_ESC}, .act = UI_ACT_CLOSE, .help = "cancel"},
	{.mode = UI_MODE_SEARCH, .keys = {UI_KEY_TEXT}, .act = UI_ACT_SEARCH_TYPE, .help = "type what to look for"},

	{.mode = UI_MODE_EDITOR, .keys = {CTRL('s')}, .act = UI_ACT_ED_SAVE, .help = "save, then check it (as after $EDITOR)"},
	{.mode = UI_MODE_EDITOR, .keys = {UI_KEY_ESC, CTRL('q')}, .act = UI_ACT_ED_QUIT,
	 .help = "leave (asks once about unsaved changes)"},
	{.mode = UI_MODE_EDITOR, .keys = {UI_KEY_UP, UI_KEY_DOWN, UI_KEY_LEFT, UI_KEY_RIGHT}, .act = UI_ACT_ED_MOVE,
	 .help = "move the cursor"},
	{.mode = UI_MODE_EDITOR, .keys = {UI_KEY_PGUP, UI_KEY_PGDN, UI_KEY_HOME, UI_KEY_END}, .act = UI_ACT_ED_MOVE,
	 .help = "a screen up, down; the line's start, end"},
	{.mode = UI_MODE_EDITOR, .keys = {UI_KEY_TEXT, UI_KEY_TAB}, .act = UI_ACT_ED_TYPE, .help = "type"},
	{.mode = UI_MODE_EDITOR, .keys = {BACKSPACE}, .act = UI_ACT_ED_BACKSPACE, .help = "delete before the cursor"},
	{.mode = UI_MODE_EDITOR, .keys = {UI_KEY_DELETE}, .act = UI_ACT_ED_DELETE, .help = "under it", .with_previous = 1},
	{.mode = UI_MODE_EDITOR, .keys = {'\n', '\r'}, .act = UI_ACT_ED_ENTER, .help = "split the line"},
};
const int ui_nbindings = (int)ARRAY_LEN(ui_bindings);

/* The table in use: the shipped one, or a test's (ui_keys_use). */
static const ui_binding *table = ui_bindings;
static int ntable = (int)ARRAY_LEN(ui_bindings);

void ui_keys_use(const ui_binding *t, int n)
{
	table = t ? t : ui_bindings;
	ntable = t ? n : ui_nbindings;
}

/* How the help names each mode, and what it says after the keys. */
static const struct {
	const char *name;
	const char *notes[2];
} modes[UI_NMODES] = {
	[UI_MODE_NORMAL] = {"tutor", {"In a box (what-if, answer, diff), ? lists the box's keys.",
				      "Edits live in $XDG_DATA_HOME/ptxtutor/ptx; R then y restores."}},
	[UI_MODE_HELP] = {"help", {"Any other key closes it."}},
	[UI_MODE_WHATIF] = {"what-if box", {"The numbers follow live; a value the lesson cannot take is refused.",
					    "regs steps by 8, tutor only (the CLI's: occupancy --regs R)."}},
	[UI_MODE_ANSWER] = {"answer box", {"The prompt names the exercise it answers.",
					  "After a wrong answer, h shows a hint and s the worked answer."}},
	[UI_MODE_DIFF] = {"diff", {"Edits live in $XDG_DATA_HOME/ptxtutor/ptx."}},
	[UI_MODE_MENU] = {"go-to menu", {"* a page read to its end; n/m exercises solved.", "A click picks a row."}},
	[UI_MODE_SEARCH] = {"search", {"Lesson texts and PTX of the whole course; case does not matter."}},
	[UI_MODE_PUZZLE] = {"puzzles", {"Checks run on the CPU emulator at several sizes.", "Your copies live in $XDG_DATA_HOME/ptxtutor/ptx."}},
	[UI_MODE_EDITOR] = {"inline editor", {"Used when $EDITOR is not set (or PTXTUTOR_EDITOR=inline)."}},
	[UI_MODE_WARP] = {"warp view", {"Recorded by the emulator at its size; follows what-ifs and edits.",
					"Sectors and wavefronts are counted as in a run."}},
};

/* The names of keys that are not written as themselves. */
static const struct {
	int key;
	const char *name;
} names[] = {
	{' ', "Space"},         {UI_KEY_RIGHT, "Right"},     {UI_KEY_LEFT, "Left"},  {UI_KEY_UP, "Up"},
	{UI_KEY_DOWN, "Down"},     {UI_KEY_PGDN, "PgDn"},      {UI_KEY_PGUP, "PgUp"}, {UI_KEY_BACKSPACE, "Backspace"},
	{127, "Backspace"},     {CTRL('h'), "Backspace"}, {UI_KEY_TAB, "Tab"}, {UI_KEY_BTAB, "S-Tab"},
	{UI_KEY_ESC, "Esc"},    {'\n', "Enter"},          {'\r', "Enter"},     {CTRL('l'), "C-l"}, {CTRL('s'), "C-s"}, {CTRL('q'), "C-q"}, {UI_KEY_DELETE, "Delete"},
	{UI_KEY_HOME, "Home"},  {UI_KEY_END, "End"},
	{UI_KEY_ANY, "any other key"}, {UI_KEY_TEXT, "text"},
};

/* Every ASCII character followed by a NUL: a printable key's name is &ascii[2 * key]. */
#define ASCII4(c) (c), 0, (c) + 1, 0, (c) + 2, 0, (c) + 3, 0
#define ASCII16(c) ASCII4(c), ASCII4((c) + 4), ASCII4((c) + 8), ASCII4((c) + 12)
#define ASCII64(c) ASCII16(c), ASCII16((c) + 16), ASCII16((c) + 32), ASCII16((c) + 48)
static const char ascii[256] = {ASCII64(0), ASCII64(64)};

/* How the help and the hints write one key: "Esc", "Space", "q". */
static const char *key_label(int key)
{
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (names[i].key == key)
			return names[i].name;
	return key > 32 && key < 127 ? &ascii[2 * key] : "?";
}

const char *ui_key_name(ui_mode mode, ui_action act)
{
	for (int i = 0; i < ntable; i++) {
		const ui_binding *b = &table[i];
		if (b->mode != mode || b->act != act)
			continue;
		if (b->keys[0]) {
			int h = b->hint > 0 && b->hint < UI_BINDING_KEYS && b->keys[b->hint] ? b->hint : 0;
			return key_label(b->keys[h]);
		}
		if (b->chars && b->chars[0] > 32 && b->chars[0] < 127)
			return &ascii[2 * b->chars[0]];
	}
	return "";
}

static int binds(const ui_binding *b, int key)
{
	for (int k = 0; k < UI_BINDING_KEYS && b->keys[k]; k++)
		if (b->keys[k] == key || (b->keys[k] == UI_KEY_TEXT && key >= 32 && key < 127))
			return 1;
	return b->chars && key > 0 && key < 128 && strchr(b->chars, key);
}

ui_action ui_key_action(ui_mode mode, int key)
{
	ui_action any = UI_ACT_NONE;
	for (int i = 0; i < ntable; i++) {
		const ui_binding *b = &table[i];
		if (b->mode != mode)
			continue;
		if (key != UI_KEY_ANY && binds(b, key))
			return b->act;
		if (binds(b, UI_KEY_ANY))
			any = b->act;
	}
	return any;
}

const char *ui_mode_name(ui_mode mode)
{
	return mode >= 0 && mode < UI_NMODES ? modes[mode].name : "?";
}

/* A binding's keys as the help writes them: "Space/Right/PgDn"; a key with
 * several codes (Backspace) once. */
static void labels(const ui_binding *b, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int k = 0; k < UI_BINDING_KEYS && b->keys[k]; k++) {
		const char *name = key_label(b->keys[k]);
		size_t n = strlen(name), have = strlen(buf);
		const char *at = strstr(buf, name);
		if (at && (at == buf || at[-1] == '/') && (at[n] == '\0' || at[n] == '/'))
			continue;
		snprintf(buf + have, len - have, "%s%s", have ? "/" : "", name);
	}
	if (b->chars) {
		size_t have = strlen(buf);
		snprintf(buf + have, len - have, "%s%s", have ? "/" : "", b->chars);
	}
}

int ui_keys_help(ui_mode mode, ui_help_line *out, int max)
{
	int n = 0;
	for (int i = 0; i < ntable; i++) {
		const ui_binding *b = &table[i];
		if (b->mode != mode)
			continue;
		char keys[sizeof out->keys];
		labels(b, keys, sizeof keys);
		if (b->with_previous && n > 0 && n <= max) {
			ui_help_line *l = &out[n - 1];
			size_t have = strlen(l->text);
			snprintf(l->text + have, sizeof l->text - have, " (%s: %s)", keys, b->help);
			continue;
		}
		if (n >= max)
			break;
		ui_help_line *l = &out[n++];
		util_strlcpy(l->keys, keys, sizeof l->keys);
		util_strlcpy(l->text, b->help, sizeof l->text);
		int w = (int)strlen(keys) + 2;
		l->text_col = w > UI_HELP_KEYS_COL ? w : UI_HELP_KEYS_COL;
	}
	for (size_t k = 0; k < ARRAY_LEN(modes[mode].notes) && modes[mode].notes[k] && n < max; k++) {
		out[n] = (ui_help_line){.text_col = 0};
		util_strlcpy(out[n++].text, modes[mode].notes[k], sizeof out->text);
	}
	return n;
}

int ui_keys_help_all(ui_mode first, ui_help_line *out, int max)
{
	int n = ui_keys_help(first, out, max);
	for (int m = 0; m < UI_NMODES && n + 2 < max; m++) {
		if (m == (int)first || m == UI_MODE_HELP)
			continue;
		out[n] = (ui_help_line){.text_col = 0};
		out[n++].text[0] = '\0';
		out[n] = (ui_help_line){.text_col = 0};
		snprintf(out[n++].text, sizeof out->text, "In the %s:", ui_mode_name((ui_mode)m));
		n += ui_keys_help((ui_mode)m, out + n, max - n);
	}
	return n;
}
