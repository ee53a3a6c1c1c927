/* ui/app_edit: the student's copy of the lesson's PTX — e (edit in $EDITOR, then check), R (the diff box) and y (restore); the files are src/course/userptx.c's. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"

/* e: make the student's copy (the shipped file is only read) and ask the
 * loop to open it in the editor. */
void app_act_edit(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const lesson *l = ui_app_lesson(a);
	char copy[RUN_PATH], err[300];
	if (!l->ptx_path[0]) {
		app_say(a, 1, "This lesson has no kernel to edit.");
		return;
	}
	if (a->run == UI_RUN_BUSY) {
		app_say(a, 1, "A run is in progress; wait for it or press %s, then edit.",
			ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL));
		return;
	}
	if (userptx_edit(l->ptx_path, copy, sizeof copy, err, sizeof err) < 0) {
		app_say(a, 1, "Cannot edit: %s", err);
		return;
	}
	util_strlcpy(a->edit_path, copy, sizeof a->edit_path);
	a->req = UI_REQ_EDIT;
}

/* Scrolls the PTX pane to the first line the edit changed. */
static void show_first_change(ui_app *a)
{
	int line = userptx_first_change(ui_app_lesson(a)->ptx_path, a->ptx[a->lesson].path);
	a->ptx_follow = 1;
	if (!line)
		return;
	int n;
	ptx_row *rows = ui_app_ptx_rows(a, &n);
	int r = 0;
	while (r + 1 < n && rows[r + 1].line < line)
		r++;
	free(rows);
	int h = a->layout.pane[UI_PANE_PTX].h - 1;
	a->ptx_follow = 0;
	a->scroll[UI_PANE_PTX] = r - h / 3 > 0 ? r - h / 3 : 0;
}

void ui_app_edit_done(ui_app *a, int ok, const char *err)
{
	const lesson *l = ui_app_lesson(a);
	if (a->pz_editing) {
		app_puzzle_edit_done(a, ok, err);
		return;
	}
	a->req = UI_REQ_NONE;
	/* A copy no different from the original is no edit: drop it. */
	if (userptx_drop_unchanged(l->ptx_path, a->edit_path)) {
		if (a->ptx[a->lesson].edited)
			app_reload_ptx(a, a->lesson);
		if (!ok)
			app_say(a, 1, "The editor did not run: %s", err ? err : "?");
		else
			app_say(a, 0, "No changes: the lesson keeps the shipped kernel.");
		return;
	}
	app_reload_ptx(a, a->lesson);
	app_recompute(a);
	show_first_change(a);
	if (!ok) {
		app_say(a, 1, "The editor failed (%s); the copy is kept.", err ? err : "?");
		return;
	}
	/* Check it at once: the JIT on a GPU, the emulator without one. */
	a->run_check = 1;
	a->req = UI_REQ_RUN;
	a->side = UI_PANE_RUN;
	app_say(a, 0, "Edited %s: checking it ...", l->id);
}

/* R: the student's copy against the shipped file, in a box. */
void app_act_diff(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const ui_ptx *p = &a->ptx[a->lesson];
	char err[300];
	if (!p->edited) {
		app_say(a, 0, "This lesson runs the shipped PTX; e edits a copy of your own.");
		return;
	}
	userptx_diff_free(&a->diff);
	if (userptx_diff_files(ui_app_lesson(a)->ptx_path, p->path, 2, &a->diff, err, sizeof err) < 0) {
		app_say(a, 1, "%s", err);
		return;
	}
	a->diff_scroll = 0;
	a->mode = UI_MODE_DIFF;
}

/* Moves the diff box by a line or by a box's height less one. */
void app_act_diff_scroll(ui_app *a, ui_action act, int key)
{
	(void)key;
	int h = ui_app_diff_rows(a);
	int page = h > 2 ? h - 1 : 1;
	int top = a->diff_scroll + (act == UI_ACT_DIFF_DOWN ? 1 : act == UI_ACT_DIFF_UP ? -1
				    : act == UI_ACT_DIFF_PAGE_DOWN ? page : -page);
	if (top > a->diff.n - h)
		top = a->diff.n - h;
	a->diff_scroll = top < 0 ? 0 : top;
}

/* y in the diff box: the copy moves aside (kept as FILE~), the shipped PTX
 * is back; the box closes either way. */
void app_act_restore(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const lesson *l = ui_app_lesson(a);
	char copy[RUN_PATH], err[300];
	a->mode = UI_MODE_NORMAL;
	userptx_diff_free(&a->diff);
	if (a->run == UI_RUN_BUSY) {
		app_say(a, 1, "A run is in progress; wait for it or press %s, then restore.",
			ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL));
		return;
	}
	util_strlcpy(copy, a->ptx[a->lesson].path, sizeof copy);
	if (userptx_restore(copy, err, sizeof err) < 0) {
		app_say(a, 1, "%s", err);
		return;
	}
	app_reload_ptx(a, a->lesson);
	app_recompute(a);
	a->ptx_follow = 1;
	const char *b = strrchr(copy, '/');
	app_say(a, 0, "Restored the shipped %s; your edit is kept as %s~", l->ptx_path, b ? b + 1 : copy);
}
