/* ui/app_state: read-only questions of the tutor's state that update and draw both ask — the lesson and page, the PTX view rows and the first one shown. */
#include "ui/app_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/keys.h"

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

int ui_app_region_lines(const ui_app *a, int i, int *first, int *last)
{
	*first = *last = -1;
	const ui_ptx *p = &a->ptx[a->lesson];
	const lesson_page *pg = ui_app_page(a);
	if (!p->ok || !pg || i < 0 || i >= pg->nanchors)
		return -1;
	const ptx_region *r = ptx_region_find(&p->doc, pg->anchors[i]);
	if (!r)
		return -1;
	*first = r->first;
	*last = r->last;
	return 0;
}

int ui_app_line_marked(const ui_app *a, int line)
{
	const lesson_page *pg = ui_app_page(a);
	for (int i = 0; pg && i < pg->nanchors; i++) {
		int f, l;
		if (ui_app_region_lines(a, i, &f, &l) == 0 && line >= f && line <= l)
			return 1;
	}
	return a->cu_line > 0 && ui_app_cuda_shown(a) && ui_app_cu_line_of(a, line + 1) == a->cu_line;
}

int ui_app_cu_line_of(const ui_app *a, int line)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	if (!p->locs || line < 1 || line > p->locs->nlines || p->locs->at[line].file != p->cu_file)
		return 0;
	if (line <= p->doc.nlines) { /* a blank line under a .loc is not what the CUDA line became */
		const ptx_line *pl = &p->doc.lines[line - 1];
		const char *s = p->doc.text + pl->off;
		int n = 0;
		while (n < pl->len && (s[n] == ' ' || s[n] == '\t' || s[n] == '\r'))
			n++;
		if (n == pl->len)
			return 0;
	}
	return p->locs->at[line].line;
}

int ui_app_cu_first_ptx(const ui_app *a, int cu)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	for (int i = 1; cu > 0 && p->locs && i <= p->locs->nlines; i++)
		if (ui_app_cu_line_of(a, i) == cu)
			return i;
	return 0;
}

int ui_app_cu_top(const ui_app *a, int h)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	int top = a->cu_scroll, cu = a->ptx_follow && p->nmarks ? ui_app_cu_line_of(a, p->marks[0].line) : 0;
	if (cu > 0)
		top = cu - 1 - h / 3;
	if (top > p->cu_nlines - h)
		top = p->cu_nlines - h;
	return top < 0 ? 0 : top;
}

int ui_app_cuda_shown(const ui_app *a)
{
	return a->layout.cuda.h > 0;
}

int ui_app_gpu_too_old(const ui_app *a, char *why, size_t len)
{
	const lesson *l = ui_app_lesson(a);
	int sm = a->gpu.cc_major * 10 + a->gpu.cc_minor;
	if (!l->needs_sm || !sm)
		return 0;
	int old = sm < l->needs_sm || (l->needs_arch_specific && sm != l->needs_sm);
	const char *name = a->gpu.name + (strncmp(a->gpu.name, "NVIDIA ", 7) ? 0 : 7);
	if (old)
		snprintf(why, len, "The %s (sm_%d) cannot run this lesson: it needs sm_%d%s.", name, sm, l->needs_sm,
			 l->needs_arch_specific ? "a" : "");
	return old;
}

int ui_app_menu_rows(const ui_app *a)
{
	int n = 0;
	for (int i = 0; i < a->course->n; i++)
		n += 1 + a->course->l[i].npages;
	return n;
}

void ui_app_menu_entry(const ui_app *a, int row, int *lesson, int *page)
{
	*lesson = *page = -1;
	for (int i = 0; i < a->course->n && row >= 0; i++) {
		int np = a->course->l[i].npages;
		if (row <= np) {
			*lesson = i;
			*page = row - 1;
			return;
		}
		row -= 1 + np;
	}
}

int ui_app_menu_row_of(const ui_app *a, int lesson, int page)
{
	int row = 0;
	for (int i = 0; i < lesson && i < a->course->n; i++)
		row += 1 + a->course->l[i].npages;
	return row + 1 + page;
}

const state_progress *ui_app_progress(const ui_app *a, int i)
{
	return state_progress_find(&a->progress, a->course->l[i].id);
}

int ui_app_ex_base(const ui_app *a, int i, int p)
{
	const lesson *l = &a->course->l[i];
	int n = 0;
	for (int k = 0; k < p && k < l->npages; k++)
		n += l->pages[k].nex;
	return n;
}

int ui_app_ex_total(const ui_app *a, int i)
{
	return ui_app_ex_base(a, i, a->course->l[i].npages);
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
	/* The region the page is at (c moves on); the first error, and then a
	 * search hit, win over it. */
	ui_app_region_lines(a, a->region, &f, &l);
	const ui_ptx *p = &a->ptx[a->lesson];
	if (p->nmarks > 0)
		f = l = p->marks[0].line - 1;
	if (a->ptx_goto >= 0)
		f = l = a->ptx_goto;
	if (a->ptx_follow || a->ptx_goto >= 0) {
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

int ui_app_menu_top(const ui_app *a, int h)
{
	int n = ui_app_menu_rows(a);
	int top = a->menu_sel - h / 3;
	if (top > n - h)
		top = n - h;
	return top < 0 ? 0 : top;
}

int ui_app_help_lines(const ui_app *a)
{
	ui_help_line lines[UI_HELP_MAX];
	return ui_keys_help_all(a->help_mode, lines, UI_HELP_MAX);
}

int ui_app_diff_rows(const ui_app *a)
{
	int h = a->layout.help.h - 4; /* borders, the summary row and the keys row */
	return h < 1 ? 1 : h;
}
