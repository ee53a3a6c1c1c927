/* ui/app_editor: the inline editor (UI_MODE_EDITOR, e or the puzzle box's Enter without $EDITOR) — keys on the buffer (ui/edbuf.c), C-s asks the loop to save, then the same check as after $EDITOR; Esc/C-q leave, asking once about unsaved changes. */
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"

/* The text rows and columns the editor shows: all but the title and status rows. */
static void view_size(const ui_app *a, int *rows, int *cols)
{
	*rows = a->rows - 2;
	*cols = a->cols;
}

void ui_app_editor_open(ui_app *a, const char *text, size_t len, const char *err)
{
	a->req = UI_REQ_NONE;
	a->ed_puzzle = a->pz_editing;
	a->pz_editing = 0;
	if (!text || edbuf_load(&a->ed, text, len) < 0) {
		app_say(a, 1, "Cannot edit: %s", text ? "the file is over 64 MiB" : err ? err : "?");
		return;
	}
	a->ed_back = a->mode;
	a->ed_asked = 0;
	a->mode = UI_MODE_EDITOR;
	const char *b = strrchr(a->edit_path, '/');
	app_say(a, 0, "Editing %s: %s saves and checks, %s leaves.", b ? b + 1 : a->edit_path,
		ui_key_name(UI_MODE_EDITOR, UI_ACT_ED_SAVE), ui_key_name(UI_MODE_EDITOR, UI_ACT_ED_QUIT));
}

void app_act_ed_move(ui_app *a, ui_action act, int key)
{
	(void)act;
	int rows, cols;
	view_size(a, &rows, &cols);
	static const struct {
		int key;
		edbuf_move_kind m;
		int page;
	} moves[] = {
		{UI_KEY_UP, EDBUF_UP, 0},     {UI_KEY_DOWN, EDBUF_DOWN, 0}, {UI_KEY_LEFT, EDBUF_LEFT, 0},
		{UI_KEY_RIGHT, EDBUF_RIGHT, 0}, {UI_KEY_PGUP, EDBUF_UP, 1}, {UI_KEY_PGDN, EDBUF_DOWN, 1},
		{UI_KEY_HOME, EDBUF_HOME, 0}, {UI_KEY_END, EDBUF_END, 0},
	};
	for (size_t i = 0; i < ARRAY_LEN(moves); i++)
		if (moves[i].key == key)
			edbuf_move(&a->ed, moves[i].m, moves[i].page && rows > 2 ? rows - 1 : 1);
	edbuf_scroll(&a->ed, rows, cols);
}

/* Typing, Backspace, Delete and Enter: the buffer changes, a leave asked about is forgotten. */
void app_act_ed_edit(ui_app *a, ui_action act, int key)
{
	char c = (char)key;
	int rc = act == UI_ACT_ED_TYPE ? edbuf_insert(&a->ed, &c, 1)
		 : act == UI_ACT_ED_BACKSPACE ? edbuf_backspace(&a->ed)
		 : act == UI_ACT_ED_DELETE ? edbuf_delete(&a->ed) : edbuf_split(&a->ed);
	if (rc < 0 && (act == UI_ACT_ED_TYPE || act == UI_ACT_ED_ENTER))
		app_say(a, 1, "The file is at its 64 MiB limit.");
	else
		a->msg[0] = '\0';
	a->ed_asked = 0;
	int rows, cols;
	view_size(a, &rows, &cols);
	edbuf_scroll(&a->ed, rows, cols);
}

void app_act_ed_save(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	if (a->run == UI_RUN_BUSY && !a->ed_puzzle) {
		app_say(a, 1, "A run is in progress; save again when it ends.");
		return;
	}
	a->req = UI_REQ_SAVE;
}

void ui_app_editor_saved(ui_app *a, int ok, const char *err)
{
	a->req = UI_REQ_NONE;
	if (!ok) {
		app_say(a, 1, "Not saved: %s", err ? err : "?");
		return;
	}
	a->ed.modified = 0;
	a->ed_asked = 0;
	/* The same check as when $EDITOR returns; the editor stays open. */
	a->pz_editing = a->ed_puzzle;
	ui_app_edit_done(a, 1, NULL);
}

void app_act_ed_quit(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	if (a->ed.modified && !a->ed_asked) {
		a->ed_asked = 1;
		app_say(a, 1, "Unsaved changes: %s again leaves without them, %s saves.",
			ui_key_name(UI_MODE_EDITOR, UI_ACT_ED_QUIT), ui_key_name(UI_MODE_EDITOR, UI_ACT_ED_SAVE));
		return;
	}
	int dropped = a->ed.modified;
	edbuf_free(&a->ed);
	a->mode = a->ed_back;
	if (dropped)
		app_say(a, 0, "Left the editor; the unsaved changes are dropped.");
}
