/* ui/pane_text: which builder makes each text pane's lines (one table), and their count; reads the state, never changes it. */
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

int ui_pane_lines(const ui_app *a, ui_pane p, int w)
{
	ui_lines t;
	ui_pane_text(&t, a, p, w);
	int n = t.nlines;
	ui_lines_free(&t);
	return n;
}
