/* ui/sass_rows: the SASS view's rows for the page's region, by PTX line (course/sass.c's order) or in the machine's order, and the cursor that links a SASS row to its PTX line and back. */
#include "ui/sass_rows.h"

#include <stdlib.h>

#include "base/util.h"

void ui_sass_range(const ui_app *a, int *first, int *last, const char **name)
{
	const lesson_page *pg = ui_app_page(a);
	int f, l;
	*first = 0, *last = 0, *name = NULL;
	if (ui_app_region_lines(a, a->region, &f, &l) == 0 && f >= 0) {
		*first = f + 1, *last = l + 1;
		*name = pg->anchors[a->region];
	}
}

int ui_sass_rows(const ui_app *a, ui_sass_row **out)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	if (out)
		*out = NULL;
	if (p->sass_state != 2)
		return 0;
	int first, last;
	const char *name;
	ui_sass_range(a, &first, &last, &name);
	ui_sass_row *rows = out ? xcalloc((size_t)p->sass.n * 2 + 1, sizeof *rows) : NULL;
	int n = 0;
	if (a->sass_view == UI_SASS_BY_ADDR) {
		/* The machine's order: what the warp executes, each with the line it came from. */
		for (int i = 0; i < p->sass.n; i++) {
			const sass_instr *in = &p->sass.ins[i];
			if (first && (in->line < first || in->line > last))
				continue;
			if (rows)
				rows[n] = (ui_sass_row){.line = in->line, .ins = in};
			n++;
		}
	} else {
		const sass_instr **o = sass_by_line(&p->sass);
		int cur = -1;
		for (int i = 0; i < p->sass.n; i++) {
			int line = o[i]->line;
			if (first && (line < first || line > last))
				continue;
			if (line != cur) {
				if (rows)
					rows[n] = (ui_sass_row){.line = line};
				n++, cur = line;
			}
			if (rows)
				rows[n] = (ui_sass_row){.line = line, .ins = o[i]};
			n++;
		}
		free(o);
	}
	if (out)
		*out = rows;
	return n;
}

int ui_sass_cursor(const ui_app *a, int n)
{
	int c = a->sass_cursor;
	return c >= n ? n - 1 < 0 ? 0 : n - 1 : c < 0 ? 0 : c;
}

int ui_sass_marked_line(const ui_app *a, const ui_sass_row *rows, int n)
{
	return n > 0 ? rows[ui_sass_cursor(a, n)].line : -1;
}
