/* ui/pane_text: which builder makes each text pane's lines (one table), their width, and what of them shows (the pager's view); reads the state, never changes it. */
#include "ui/pane_text.h"

#include "ui/pane_lesson.h"
#include "ui/pane_numbers.h"
#include "ui/pane_run.h"

static void (*const builder[UI_NPANES])(ui_lines *, const ui_app *, int) = {
	[UI_PANE_LESSON] = ui_pane_lesson_text,
	[UI_PANE_NUMBERS] = ui_pane_numbers_text,
	[UI_PANE_RUN] = ui_pane_run_text,
};

void ui_pane_text(ui_lines *t, const ui_app *a, ui_pane p, int w)
{
	ui_lines_init(t);
	if ((unsigned)p < UI_NPANES && builder[p])
		builder[p](t, a, w);
	if (ui_lines_width(t) > 0)
		ui_lines_nl(t);
}

int ui_pane_text_pad(const ui_app *a)
{
	return a->present ? 2 : 1;
}

int ui_pane_text_width(const ui_app *a, ui_pane p)
{
	int w = a->layout.pane[p].w - ui_pane_text_pad(a) - 1;
	if (p == UI_PANE_LESSON && a->present && w > UI_TEXT_COLS)
		w = UI_TEXT_COLS;
	return w < 1 ? 1 : w;
}

ui_view ui_pane_view(const ui_app *a, ui_pane p, const ui_lines *t)
{
	int h = a->layout.pane[p].h - 1;
	ui_view v = {.total = t->nlines, .rows = h};
	if (v.total > h)
		v.rows = h > 1 ? h - 1 : h;
	v.top = a->scroll[p];
	if (p == UI_PANE_NUMBERS && a->numbers_follow && t->mark_first >= 0)
		v.top = t->mark_first;
	if (v.top > v.total - v.rows)
		v.top = v.total - v.rows;
	if (v.top < 0)
		v.top = 0;
	v.below = v.total - v.top - v.rows;
	if (v.below < 0)
		v.below = 0;
	return v;
}

ui_view ui_pane_view_of(const ui_app *a, ui_pane p)
{
	ui_lines t;
	ui_pane_text(&t, a, p, ui_pane_text_width(a, p));
	ui_view v = ui_pane_view(a, p, &t);
	ui_lines_free(&t);
	return v;
}
