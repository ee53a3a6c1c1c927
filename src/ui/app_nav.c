/* ui/app_nav: getting around the course — g (a menu of lessons and pages), / with n and N (search of the lesson texts and the PTX), and the mouse. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"
#include "ui/pane_text.h"

/* ---- g: the menu ---- */

void app_act_menu(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->mode = UI_MODE_MENU;
	a->menu_num[0] = '\0';
	a->menu_sel = ui_app_menu_row_of(a, a->lesson, a->page);
}

/* Rows of the menu box that list entries (the box's last inside row is its prompt). */
static int menu_rows_shown(const ui_app *a)
{
	int h = a->layout.help.h - 3;
	return h < 1 ? 1 : h;
}

void app_act_menu_move(ui_app *a, ui_action act, int key)
{
	(void)key;
	int n = ui_app_menu_rows(a), l, p;
	ui_app_menu_entry(a, a->menu_sel, &l, &p);
	if (act == UI_ACT_MENU_DOWN || act == UI_ACT_MENU_UP) {
		a->menu_sel = (a->menu_sel + (act == UI_ACT_MENU_DOWN ? 1 : n - 1)) % n;
		return;
	}
	/* A page of the menu is a lesson: its own row, the next one's or the previous one's. */
	if (act == UI_ACT_MENU_PAGE_DOWN)
		l = l + 1 < a->course->n ? l + 1 : l;
	else if (p < 0)
		l = l > 0 ? l - 1 : 0;
	a->menu_sel = ui_app_menu_row_of(a, l, -1);
}

/* "8" selects lesson 8's row, "8.2" its second page. */
static void menu_pick(ui_app *a)
{
	char *dot;
	long ln = strtol(a->menu_num, &dot, 10);
	if (dot == a->menu_num)
		return;
	int pg = *dot == '.' && dot[1] ? atoi(dot + 1) - 1 : -1;
	for (int i = 0; i < a->course->n; i++) {
		const lesson *l = &a->course->l[i];
		if (l->number != ln)
			continue;
		if (pg >= l->npages)
			pg = l->npages - 1;
		a->menu_sel = ui_app_menu_row_of(a, i, pg);
		return;
	}
}

void app_act_menu_type(ui_app *a, ui_action act, int key)
{
	size_t n = strlen(a->menu_num);
	if (act == UI_ACT_MENU_DELETE) {
		if (n)
			a->menu_num[n - 1] = '\0';
	} else if (n + 1 < sizeof a->menu_num) {
		a->menu_num[n] = (char)key;
		a->menu_num[n + 1] = '\0';
	}
	menu_pick(a);
}

void app_act_menu_go(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	int l, p;
	ui_app_menu_entry(a, a->menu_sel, &l, &p);
	a->mode = UI_MODE_NORMAL;
	if (l >= 0)
		ui_app_select(a, l, p < 0 ? 0 : p);
}

/* ---- /, n and N: search ---- */

void app_act_search(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->mode = UI_MODE_SEARCH;
	a->search[0] = '\0';
}

void app_act_search_type(ui_app *a, ui_action act, int key)
{
	size_t n = strlen(a->search);
	if (act == UI_ACT_SEARCH_DELETE) {
		if (n)
			a->search[n - 1] = '\0';
	} else if (n + 1 < sizeof a->search) {
		a->search[n] = (char)key;
		a->search[n + 1] = '\0';
	}
}

/* How often n bytes of s hold the lower-case needle, case ignored (a line
 * break in s matches a space: prose wraps where its source did not). */
static int count(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	int c = 0;
	for (size_t i = 0; k && i + k <= n; i++) {
		size_t j = 0;
		while (j < k && (tolower((unsigned char)s[i + j]) == needle[j] || (s[i + j] == '\n' && needle[j] == ' ')))
			j++;
		if (j == k) {
			c++;
			i += k - 1;
		}
	}
	return c;
}

/* A hit: the nth occurrence in a page's text (line -1), or a PTX line. */
static void add_hit(ui_app *a, int lesson, int page, int line, int nth)
{
	if (a->nhits < UI_HITS_MAX)
		a->hits[a->nhits++] = (ui_hit){lesson, page, line, nth};
}

/* The page a PTX line belongs to: the first page naming a region around it,
 * else the first page naming any region, else the first page. */
static int page_of_line(ui_app *a, int i, int line)
{
	const lesson *l = &a->course->l[i];
	const ptx_doc *d = &a->ptx[i].doc;
	int any = -1;
	for (int p = 0; p < l->npages; p++)
		for (int k = 0; k < l->pages[p].nanchors; k++) {
			const ptx_region *r = ptx_region_find(d, l->pages[p].anchors[k]);
			if (r && line >= r->first && line <= r->last)
				return p;
			if (r && any < 0)
				any = p;
		}
	return any < 0 ? 0 : any;
}

/* Every page whose text has the needle, then every line of the lesson's PTX
 * that has it, lesson by lesson. */
static void find_all(ui_app *a, const char *needle)
{
	a->nhits = 0;
	for (int i = 0; i < a->course->n; i++) {
		const lesson *l = &a->course->l[i];
		for (int p = 0; p < l->npages; p++) {
			int c = l->pages[p].text ? count(l->pages[p].text, strlen(l->pages[p].text), needle) : 0;
			for (int k = 0; k < c; k++)
				add_hit(a, i, p, -1, k);
		}
		app_load_ptx(a, i);
		const ui_ptx *x = &a->ptx[i];
		if (!x->ok || x->example)
			continue;
		for (int k = 0; k < x->doc.nlines; k++)
			if (count(x->doc.text + x->doc.lines[k].off, (size_t)x->doc.lines[k].len, needle))
				add_hit(a, i, page_of_line(a, i, k), k, 0);
	}
}

/* The hits turned so the first is the first at or after where the search
 * starts (lesson, page), as less searches on from the screen; they wrap. */
static void from_here(ui_app *a)
{
	int k = 0;
	while (k < a->nhits &&
	       (a->hits[k].lesson < a->lesson || (a->hits[k].lesson == a->lesson && a->hits[k].page < a->page)))
		k++;
	if (k == 0 || k == a->nhits)
		return;
	ui_hit *t = xmalloc((size_t)k * sizeof *t);
	memcpy(t, a->hits, (size_t)k * sizeof *t);
	memmove(a->hits, a->hits + k, (size_t)(a->nhits - k) * sizeof *t);
	memcpy(a->hits + a->nhits - k, t, (size_t)k * sizeof *t);
	free(t);
}

/* The lesson pane scrolled to the line of the needle's nth occurrence on
 * the page as drawn (the last one when the page shows fewer), unless that
 * line is in view already. */
static void scroll_to_text(ui_app *a, const char *needle, int nth)
{
	ui_lines t;
	ui_pane_text(&t, a, UI_PANE_LESSON, ui_pane_text_width(a, UI_PANE_LESSON));
	int at = -1;
	for (int ln = 0; ln < t.nlines && nth >= 0; ln++) {
		char s[512];
		int o = 0;
		for (int i = t.start[ln]; i < t.start[ln + 1] && o < (int)sizeof s - 1; i++)
			s[o++] = t.cp[i] < 128 ? (char)t.cp[i] : '?';
		int c = count(s, (size_t)o, needle);
		if (c)
			at = ln;
		nth -= c;
	}
	ui_lines_free(&t);
	ui_view v = ui_pane_view_of(a, UI_PANE_LESSON);
	if (at >= 0 && (at < v.top || at >= v.top + v.rows))
		app_scroll(a, UI_PANE_LESSON, (at > 2 ? at - 2 : 0) - v.top);
	app_note_read(a);
}

/* The hit on screen: its page (a PTX line of the lesson on screen keeps the
 * page, the PTX view goes to the line; the next occurrence on the page
 * keeps where the page is read, scrolling only to bring it into view),
 * marked, and where it is said. */
static void show_hit(ui_app *a)
{
	const ui_hit *h = &a->hits[a->hit];
	if (h->lesson != a->lesson || (h->ptx_line < 0 && h->page != a->page))
		ui_app_select(a, h->lesson, h->page);
	a->hit_marks = 1;
	if (h->ptx_line >= 0) {
		/* The line is the cursor's (its number marked; w shows it), in view. */
		a->ptx_goto = h->ptx_line;
		a->ptx_cursor = h->ptx_line + 1;
		a->sass_view = 0;
		if (!app_ptx_line_shown(a, h->ptx_line))
			a->fold = 0;
	} else {
		scroll_to_text(a, a->found, h->nth);
	}
	char where[48];
	if (h->ptx_line >= 0)
		snprintf(where, sizeof where, "PTX line %d", h->ptx_line + 1);
	else
		snprintf(where, sizeof where, "on this page");
	app_say(a, 0, "'%s': hit %d of %d%s, %s (%s next, %s back)", a->found, a->hit + 1, a->nhits,
		a->nhits == UI_HITS_MAX ? "+" : "", where, ui_key_name(UI_MODE_NORMAL, UI_ACT_NEXT_HIT),
		ui_key_name(UI_MODE_NORMAL, UI_ACT_PREV_HIT));
}

void app_act_search_go(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	a->mode = UI_MODE_NORMAL;
	if (!a->search[0])
		return;
	size_t n = strlen(a->search);
	for (size_t i = 0; i <= n; i++)
		a->found[i] = (char)tolower((unsigned char)a->search[i]);
	find_all(a, a->found);
	if (!a->nhits) {
		a->hit_marks = 0;
		app_say(a, 1, "'%s' is in no lesson and no PTX.", a->search);
		return;
	}
	from_here(a);
	a->hit = 0;
	show_hit(a);
}

/* n and N: the next hit or the one before, round the course. */
void app_act_next_hit(ui_app *a, ui_action act, int key)
{
	(void)key;
	if (!a->nhits) {
		app_say(a, 0, "No search yet: %s searches.", ui_key_name(UI_MODE_NORMAL, UI_ACT_SEARCH));
		return;
	}
	a->hit = (a->hit + (act == UI_ACT_PREV_HIT ? a->nhits - 1 : 1)) % a->nhits;
	show_hit(a);
}

/* ---- the mouse ---- */

/* The pane drawn at x,y (a tabbed slot: the one it shows); -1 when none. */
static int pane_at(const ui_app *a, int x, int y)
{
	for (int p = 0; p < UI_NPANES; p++) {
		ui_rect r = a->layout.pane[p];
		if (a->layout.tabbed && (p == UI_PANE_NUMBERS || p == UI_PANE_RUN) && p != a->side)
			continue;
		if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h)
			return p;
	}
	return -1;
}

void ui_app_mouse(ui_app *a, ui_mouse_kind kind, int x, int y)
{
	int d = kind == UI_MOUSE_WHEEL_DOWN ? 3 : kind == UI_MOUSE_WHEEL_UP ? -3 : 0;
	if (a->mode == UI_MODE_MENU) {
		ui_rect r = a->layout.help;
		int h = menu_rows_shown(a), top = ui_app_menu_top(a, h), n = ui_app_menu_rows(a);
		if (d) {
			a->menu_sel = a->menu_sel + d < 0 ? 0 : a->menu_sel + d >= n ? n - 1 : a->menu_sel + d;
		} else if (kind == UI_MOUSE_CLICK && x > r.x && x < r.x + r.w - 1 && y > r.y && y <= r.y + h &&
			   top + y - r.y - 1 < n) {
			a->menu_sel = top + y - r.y - 1;
			app_act_menu_go(a, UI_ACT_MENU_GO, 0);
		}
		return;
	}
	if (a->mode != UI_MODE_NORMAL)
		return;
	ui_rect c = a->layout.cuda;
	if (x >= c.x && x < c.x + c.w && y >= c.y && y < c.y + c.h) { /* the CUDA half of the PTX slot */
		int was = a->cu_focus;
		a->cu_focus = 1; /* the wheel moves the cursor of the pane under it, not the focus */
		if (d)
			app_scroll(a, UI_PANE_PTX, d);
		a->cu_focus = d ? was : 1;
		if (!d)
			app_cuda_click(a);
		return;
	}
	int p = pane_at(a, x, y);
	if (p < 0)
		return;
	if (d) {
		int was = a->cu_focus;
		a->cu_focus = 0;
		app_scroll(a, p, d);
		a->cu_focus = was;
	} else if (kind == UI_MOUSE_CLICK && (p != a->focus || a->cu_focus)) {
		a->focus = p;
		a->cu_focus = 0;
		if (p == UI_PANE_NUMBERS || p == UI_PANE_RUN)
			a->side = p;
	}
}
