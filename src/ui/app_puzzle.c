/* ui/app_puzzle: P — the lesson's puzzles in a box: pick one, edit its PTX (your copy) in $EDITOR, checked on the CPU emulator in a child when the editor closes; hints one at a time, the solution once solved or asked for twice, a lecturer view of start and solution side by side. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"

/* The id of lesson p belongs to, for its progress bits ("" when none). */
static const char *lesson_id_of(const ui_app *a, const puzzle *p)
{
	for (int i = 0; i < a->course->n; i++)
		if (a->course->l[i].number == p->lesson)
			return a->course->l[i].id;
	return "";
}

const puzzle *ui_app_puzzle(const ui_app *a)
{
	if (a->pz_sel < 0 || a->pz_sel >= a->puzzles.n)
		return NULL;
	return &a->puzzles.p[a->pz_sel];
}

int ui_app_puzzle_solved(const ui_app *a, const puzzle *p)
{
	return puzzle_solved(&a->progress, &a->puzzles, p, lesson_id_of(a, p));
}

int ui_app_puzzle_asked(const ui_app *a, const puzzle *p)
{
	return puzzle_asked(&a->progress, &a->puzzles, p, lesson_id_of(a, p));
}

/* The selected puzzle changes: nothing of the last one shows. */
static void select_puzzle(ui_app *a, int i)
{
	a->pz_sel = i;
	a->pz_hints = 0;
	a->pz_have = 0;
	a->pz_scroll = 0;
	a->pz_view = 0;
	free(a->pz_left), free(a->pz_right);
	a->pz_left = a->pz_right = NULL;
}

void app_act_puzzles(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	int number = ui_app_lesson(a)->number;
	const puzzle *cur = ui_app_puzzle(a);
	a->sync_want = 1; /* a puzzle solved meanwhile with `ptxtutor puzzle --check` shows [x] */
	if (cur && cur->lesson == number) {
		a->mode = UI_MODE_PUZZLE;
		return;
	}
	for (int i = 0; i < a->puzzles.n; i++)
		if (a->puzzles.p[i].lesson == number) {
			select_puzzle(a, i);
			a->mode = UI_MODE_PUZZLE;
			return;
		}
	app_say(a, 0, "Lesson %d has no puzzles; the command ptxtutor puzzle lists them all.", number);
}

void app_act_puzzle_move(ui_app *a, ui_action act, int key)
{
	(void)key;
	int d = act == UI_ACT_PUZZLE_DOWN ? 1 : -1, number = ui_app_lesson(a)->number;
	if (a->pz_view) { /* the lecturer view scrolls */
		a->pz_scroll = a->pz_scroll + d > 0 ? a->pz_scroll + d : 0;
		return;
	}
	for (int i = a->pz_sel + d; i >= 0 && i < a->puzzles.n; i += d)
		if (a->puzzles.p[i].lesson == number) {
			select_puzzle(a, i);
			return;
		}
}

/* The student's copy of the puzzle's start (made on first use) into pz_path. */
static int copy_path(ui_app *a, const puzzle *p)
{
	char shipped[RUN_PATH], err[300];
	util_path(shipped, sizeof shipped, p->start);
	if (userptx_edit(shipped, a->pz_path, sizeof a->pz_path, err, sizeof err) < 0) {
		app_say(a, 1, "Cannot make your copy: %s", err);
		return -1;
	}
	return 0;
}

void app_act_puzzle_edit(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const puzzle *p = ui_app_puzzle(a);
	if (!p || a->pz_checking || copy_path(a, p) < 0)
		return;
	util_strlcpy(a->edit_path, a->pz_path, sizeof a->edit_path);
	a->pz_editing = 1;
	a->req = UI_REQ_EDIT;
}

void app_act_puzzle_check(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const puzzle *p = ui_app_puzzle(a);
	if (!p || a->pz_checking || copy_path(a, p) < 0)
		return;
	a->pz_checking = 1;
	a->pz_checked = a->pz_sel;
	a->pz_have = 0;
	a->req = UI_REQ_PUZZLE;
	app_say(a, 0, "Checking %s on the CPU ...", p->id);
}

/* After $EDITOR: check the copy (ui_app_edit_done hands over here). */
void app_puzzle_edit_done(ui_app *a, int ok, const char *err)
{
	a->pz_editing = 0;
	a->req = UI_REQ_NONE;
	if (!ok) {
		app_say(a, 1, "The editor failed (%s); your copy is kept.", err ? err : "?");
		return;
	}
	app_act_puzzle_check(a, UI_ACT_PUZZLE_CHECK, 0);
}

void ui_app_puzzle_done(ui_app *a, const puzzle_outcome *o)
{
	a->pz_checking = 0;
	if (a->pz_checked < 0 || a->pz_checked >= a->puzzles.n)
		return;
	const puzzle *p = &a->puzzles.p[a->pz_checked];
	/* the student may have moved on to another puzzle meanwhile: its box keeps its own */
	if (a->pz_checked == a->pz_sel) {
		a->pz_out = *o;
		a->pz_have = 1;
	}
	int passed = 0;
	for (int i = 0; i < o->n; i++)
		passed += o->v[i].pass;
	if (o->solved) {
		puzzle_mark(&a->progress, &a->puzzles, p, lesson_id_of(a, p), 0);
		app_say(a, 0, "Solved %s: every check passes. %s shows the reference solution.", p->id,
			ui_key_name(UI_MODE_PUZZLE, UI_ACT_PUZZLE_SOLUTION));
		a->sync_want = 1;
	} else {
		app_say(a, 1, "%d of %d checks pass; the box says what failed and where.", passed, o->n);
	}
}

void app_act_puzzle_hint(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const puzzle *p = ui_app_puzzle(a);
	if (!p)
		return;
	if (a->pz_hints < p->nhints)
		a->pz_hints++;
	else
		app_say(a, 0, "No more hints; %s asks for the solution.", ui_key_name(UI_MODE_PUZZLE, UI_ACT_PUZZLE_SOLUTION));
}

static char *read_root(const char *rel)
{
	char path[RUN_PATH];
	util_path(path, sizeof path, rel);
	char *t = util_read_file(path, NULL, NULL, 0);
	return t ? t : xstrdup("(cannot be read)");
}

/* The first line (0-based) where the two texts differ, past the header comment. */
static int first_difference(const char *x, const char *y)
{
	const char *nx = strchr(x, '\n'), *ny = strchr(y, '\n');
	if (!nx || !ny)
		return 0;
	int line = 1;
	for (x = nx + 1, y = ny + 1; *x && *x == *y; x++, y++)
		line += *x == '\n';
	return line;
}

/* s: the first time unsolved only remembers the asking; then the lecturer view with the solution. */
void app_act_puzzle_solution(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const puzzle *p = ui_app_puzzle(a);
	if (!p)
		return;
	if (!ui_app_puzzle_solved(a, p) && !ui_app_puzzle_asked(a, p)) {
		puzzle_mark(&a->progress, &a->puzzles, p, lesson_id_of(a, p), 1);
		app_say(a, 0, "Sure? Try the hints (%s) first; %s once more shows the solution.",
			ui_key_name(UI_MODE_PUZZLE, UI_ACT_PUZZLE_HINT), ui_key_name(UI_MODE_PUZZLE, UI_ACT_PUZZLE_SOLUTION));
		a->sync_want = 1;
		return;
	}
	app_act_puzzle_view(a, UI_ACT_PUZZLE_VIEW, 1);
}

/* v: start | solution, for a lecturer (who may always look); v again: back. */
void app_act_puzzle_view(ui_app *a, ui_action act, int key)
{
	(void)act;
	const puzzle *p = ui_app_puzzle(a);
	if (!p)
		return;
	if (a->pz_view && key != 1) {
		a->pz_view = 0;
		a->msg[0] = '\0'; /* what the view said is gone with it */
		return;
	}
	free(a->pz_left), free(a->pz_right);
	a->pz_left = read_root(p->start);
	a->pz_right = read_root(p->solution);
	a->pz_view = 1;
	/* replaces "Sure? ..." of the first s: the solution is on screen now */
	app_say(a, 0, "The reference solution, beside the start; %s goes back.", ui_key_name(UI_MODE_PUZZLE, UI_ACT_PUZZLE_VIEW));
	a->pz_scroll = first_difference(a->pz_left, a->pz_right) - 3;
	if (a->pz_scroll < 0)
		a->pz_scroll = 0;
}
