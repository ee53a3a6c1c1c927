/* ui/app_state: read-only questions of the tutor's state that update and draw both ask — the lesson and page, the PTX view rows and the first one shown. */
#include "ui/app_state.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const lesson *ui_app_lesson(const ui_app *a)
{
	return &a->course->l[a->lesson];
}

const lesson_page *ui_app_page(const ui_app *a)
{
	const lesson *l = ui_app_lesson(a);
	return l->npages ? &l->pages[a->page] : NULL;
}

void ui_app_anchor_lines(const ui_app *a, int *first, int *last)
{
	*first = *last = -1;
	const ui_ptx *p = &a->ptx[a->lesson];
	const lesson_page *pg = ui_app_page(a);
	if (!p->ok || !pg)
		return;
	for (int i = 0; i < pg->nanchors; i++) {
		const ptx_region *r = ptx_region_find(&p->doc, pg->anchors[i]);
		if (!r)
			continue;
		if (*first < 0 || r->first < *first)
			*first = r->first;
		if (r->last > *last)
			*last = r->last;
	}
}

ptx_row *ui_app_ptx_rows(const ui_app *a, int *n)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	*n = 0;
	if (!p->ok)
		return NULL;
	int f, l;
	ui_app_anchor_lines(a, &f, &l);
	/* Lines with errors must show: no folding while there are any. */
	int fold = a->fold && !p->nmarks;
	int count = ptx_view(&p->doc, fold, f, l, NULL, 0);
	ptx_row *rows = xreallocarray(NULL, (size_t)(count + p->nmarks + 1), sizeof *rows);
	*n = ptx_view(&p->doc, fold, f, l, rows, count);
	/* Each mark's message goes in a row of its own under its line. */
	for (int m = 0; m < p->nmarks; m++) {
		int line = p->marks[m].line - 1, at = *n;
		for (int r = 0; r < *n; r++)
			if (rows[r].hidden == 0 && rows[r].line == line) {
				at = r + 1;
				while (at < *n && rows[at].hidden < 0)
					at++;
				break;
			}
		memmove(rows + at + 1, rows + at, (size_t)(*n - at) * sizeof *rows);
		rows[at] = (ptx_row){.line = line, .hidden = -(m + 1)};
		(*n)++;
	}
	return rows;
}

int ui_app_ptx_top(const ui_app *a, const ptx_row *rows, int n, int h)
{
	int top = a->scroll[UI_PANE_PTX];
	int f, l;
	ui_app_anchor_lines(a, &f, &l);
	const ui_ptx *p = &a->ptx[a->lesson];
	if (p->nmarks > 0) /* the first error wins over the page's anchor */
		f = l = p->marks[0].line - 1;
	if (a->ptx_follow) {
		top = 0;
		if (f >= 0) {
			int ri = 0, rj = 0;
			while (ri < n && rows[ri].line < f)
				ri++;
			rj = ri;
			while (rj + 1 < n && rows[rj + 1].line <= l)
				rj++;
			int span = rj - ri + 1;
			/* Some context above the region when it fits, its start when not. */
			top = span <= h ? ri - (h - span) / 3 : ri;
		}
	}
	if (top > n - h)
		top = n - h;
	return top < 0 ? 0 : top;
}

int ui_app_diff_rows(const ui_app *a)
{
	int h = a->layout.help.h - 4; /* borders, the summary row and the keys row */
	return h < 1 ? 1 : h;
}
