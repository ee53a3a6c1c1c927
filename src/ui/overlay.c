/* ui/overlay: boxes over the panes (help, what-if, diff) and the answer prompt, one function per mode in a table; reads the state, never changes it. */
#include "ui/overlay.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "ui/keys.h"
#include "ui/overlay_puzzle.h"

/* A bordered box with a title in its top border, cleared of what is under
 * it (the highlighted region's background too). */
static void box(const ui_app *a, ui_frame *f, ui_rect r, const char *title)
{
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	ui_frame_cover(f, r);
	for (int x = r.x; x < r.x + r.w; x++) {
		ui_frame_put(f, x, r.y, g->hline, UI_ROLE_BORDER);
		ui_frame_put(f, x, r.y + r.h - 1, g->hline, UI_ROLE_BORDER);
	}
	for (int y = r.y; y < r.y + r.h; y++) {
		ui_frame_put(f, r.x, y, g->vline, UI_ROLE_BORDER);
		ui_frame_put(f, r.x + r.w - 1, y, g->vline, UI_ROLE_BORDER);
	}
	uint32_t c[4] = {0x250C, 0x2510, 0x2514, 0x2518};
	if (a->ascii)
		c[0] = c[1] = c[2] = c[3] = '+';
	ui_frame_put(f, r.x, r.y, c[0], UI_ROLE_BORDER);
	ui_frame_put(f, r.x + r.w - 1, r.y, c[1], UI_ROLE_BORDER);
	ui_frame_put(f, r.x, r.y + r.h - 1, c[2], UI_ROLE_BORDER);
	ui_frame_put(f, r.x + r.w - 1, r.y + r.h - 1, c[3], UI_ROLE_BORDER);
	char t[160];
	snprintf(t, sizeof t, " %s ", title);
	ui_frame_text_fit(f, (ui_rect){r.x, r.y, r.w - 2, 1}, r.x + 2, r.y, t, UI_ROLE_HEADING);
}

/* The key a box's hint names, from the binding table: K(MENU, CLOSE). */
#define K(mode, act) ui_key_name(UI_MODE_##mode, UI_ACT_##act)

/* The inside of a box, a column of margin on each side. */
static ui_rect inside(ui_rect r)
{
	return (ui_rect){r.x + 2, r.y + 1, r.w - 4, r.h - 2};
}

/* ?: the keys of every mode, the one it was asked in first, from the
 * binding table (src/ui/keys.c); it scrolls, the theme last. */
static void help(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.help;
	ui_help_line lines[UI_HELP_MAX];
	int n = ui_keys_help_all(a->help_mode, lines, UI_HELP_MAX);
	char th[128];
	snprintf(th, sizeof th, "Keys%s%s (%s/%s/%s scroll, %s closes)", a->help_mode ? " in the " : "",
		 a->help_mode ? ui_mode_name(a->help_mode) : "", K(HELP, HELP_DOWN), K(HELP, HELP_UP),
		 K(HELP, HELP_PAGE_DOWN), K(HELP, CLOSE));
	box(a, f, r, th);
	ui_rect in = inside(r);
	int rows = in.h - 1, y = in.y;
	for (int i = a->help_scroll; i < n && y < in.y + rows; i++, y++) {
		ui_frame_text(f, in, in.x, y, lines[i].keys, UI_ROLE_KEY);
		ui_role role = lines[i].keys[0] ? UI_ROLE_NORMAL : !strncmp(lines[i].text, "In the ", 7) ? UI_ROLE_HEADING
			: UI_ROLE_DIM;
		ui_frame_text(f, in, in.x + lines[i].text_col, y, lines[i].text, role);
	}
	int below = n - a->help_scroll - rows;
	if (below > 0)
		snprintf(th, sizeof th, "%s more below (%d lines)", a->ascii ? "v" : "\u25BC", below);
	else
		snprintf(th, sizeof th, "theme %s (%s)%s", a->theme->name, a->theme->about, a->ascii ? ", ASCII" : "");
	ui_frame_text(f, in, in.x, in.y + in.h - 1, th, below > 0 ? UI_ROLE_KEY : UI_ROLE_DIM);
}

/* g: every lesson and its pages, with what was read and solved. */
static void menu(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.help;
	char title[96];
	snprintf(title, sizeof title, "Go to (a number: 8 or 8.2, %s goes, %s closes)", K(MENU, MENU_GO), K(MENU, CLOSE));
	box(a, f, r, title);
	ui_rect in = inside(r);
	int h = in.h - 1, n = ui_app_menu_rows(a), top = ui_app_menu_top(a, h);
	for (int y = 0; y < h && top + y < n; y++) {
		int li, pi;
		ui_app_menu_entry(a, top + y, &li, &pi);
		const lesson *l = &a->course->l[li];
		const state_progress *pr = ui_app_progress(a, li);
		char s[320], counts[128] = ""; /* a title, shortened at a word where its counts need the room */
		ui_role role = UI_ROLE_NORMAL;
		if (pi < 0) {
			int ex = ui_app_ex_total(a, li);
			int read = pr ? state_count(pr->read, l->npages) : 0, solved = pr && ex ? state_count(pr->solved, ex) : 0;
			char exs[64] = "";
			if (ex)
				snprintf(exs, sizeof exs, ", %d/%d solved", solved, ex);
			int np = 0, pdone = 0;
			for (int k = 0; k < a->puzzles.n; k++)
				if (a->puzzles.p[k].lesson == l->number)
					np++, pdone += ui_app_puzzle_solved(a, &a->puzzles.p[k]);
			if (np)
				snprintf(exs + strlen(exs), sizeof exs - strlen(exs), ", puzzles %d/%d", pdone, np);
			snprintf(counts, sizeof counts, "  (%d/%d read%s)", read, l->npages, exs);
			snprintf(s, sizeof s, "%2d  %s", l->number, l->title);
			role = UI_ROLE_HEADING;
		} else {
			int read = pr && state_marked(pr->read, pi);
			snprintf(s, sizeof s, "    %s %d.%d %s", read ? "*" : " ", l->number, pi + 1, l->pages[pi].title);
		}
		if (top + y == a->menu_sel) {
			role = UI_ROLE_SELECT;
			ui_frame_fill(f, (ui_rect){in.x, in.y + y, in.w, 1}, ' ', role);
		} else if (li == a->lesson && pi == a->page) {
			role = UI_ROLE_EMPH;
		}
		int cw = ui_utf8_width(counts, strlen(counts));
		ui_rect title = {in.x, in.y + y, in.w - cw, 1};
		int x = ui_frame_text_fit(f, title, in.x, in.y + y, s, role);
		ui_frame_text_fit(f, in, x, in.y + y, counts, role);
	}
	char s[96];
	snprintf(s, sizeof s, "> %s_   * read to the end", a->menu_num);
	ui_frame_text(f, in, in.x, in.y + in.h - 1, s, UI_ROLE_KEY);
}

/* /: the search being typed, over the status row. */
static void search(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.status;
	char s[160];
	ui_frame_fill(f, r, ' ', UI_ROLE_STATUS);
	snprintf(s, sizeof s, " Search the lessons and their PTX: /%s_   %s finds, %s cancels", a->search,
		 K(SEARCH, SEARCH_GO), K(SEARCH, CLOSE));
	ui_frame_text(f, r, r.x, r.y, s, UI_ROLE_STATUS);
}

/* t: the lesson's parameters and the registers per thread, the selected one highlighted. */
static void whatif(const ui_app *a, ui_frame *f)
{
	const lesson *l = ui_app_lesson(a);
	/* Over the lesson, or over the whole body where the lesson pane is too
	 * short for the rows (80x24): the selected row always shows. */
	ui_rect p = a->layout.pane[UI_PANE_LESSON];
	int h = l->nparams + 5;
	if (p.h - 1 < h)
		p = (ui_rect){0, 1, a->layout.cols, a->layout.rows - 2};
	ui_rect r = {p.x + 1, p.y, p.w - 2 < 60 ? p.w - 2 : 60, h < p.h ? h : p.h};
	char s[128];
	snprintf(s, sizeof s, "What if ... (%s closes)", K(WHATIF, CLOSE));
	box(a, f, r, s);
	ui_rect in = inside(r);
	int rows = in.h - 1 > 1 ? in.h - 1 : 1;
	int first = a->whatif_sel >= rows ? a->whatif_sel - rows + 1 : 0;
	int y = in.y;
	for (int i = first; i <= l->nparams && y < in.y + rows; i++, y++) {
		if (i < l->nparams) {
			long long v;
			int set = expr_get(&a->whatif, l->params[i].name, &v);
			if (!set)
				v = l->params[i].value;
			snprintf(s, sizeof s, "%-8s %6lld  default %-5lld %s", l->params[i].name, v, l->params[i].value,
				 l->params[i].runtime ? "kernel" : "model only");
		} else {
			int regs = a->regs_override ? a->regs_override : a->model_ok ? a->model.regs_per_thread : 0;
			snprintf(s, sizeof s, "%-8s %6d  %s", "regs", regs,
				 a->regs_override ? "what-if" : (a->model_ok && a->model.regs_source ? a->model.regs_source : "?"));
		}
		ui_role role = i == a->whatif_sel ? UI_ROLE_SELECT : UI_ROLE_NORMAL;
		if (i == a->whatif_sel)
			ui_frame_fill(f, (ui_rect){in.x, y, in.w, 1}, ' ', role);
		ui_frame_text(f, in, in.x, y, s, role);
	}
	/* Registers step by 8 (what a thread is given at a time), the rest by 2x. */
	snprintf(s, sizeof s, "%s/%s %s, %s resets", K(WHATIF, WHATIF_HALVE), K(WHATIF, WHATIF_DOUBLE),
		 a->whatif_sel == l->nparams ? "8 registers fewer/more" : "halve/double", K(WHATIF, WHATIF_RESET));
	ui_frame_text(f, in, in.x, in.y + in.h - 1, s, UI_ROLE_DIM);
}

/* a: the answer being typed, over the status row. */
static void answer(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.status;
	char s[128];
	ui_frame_fill(f, r, ' ', UI_ROLE_STATUS);
	const lesson_page *pg = ui_app_page(a);
	int n = pg ? pg->nex : 0;
	char other[48] = "";
	if (n > 1)
		snprintf(other, sizeof other, ", %s: another exercise", K(ANSWER, ANSWER_NEXT));
	snprintf(s, sizeof s, " Exercise %d/%d, answer: %s_   %s checks, %s cancels%s", a->ex + 1, n, a->answer,
		 K(ANSWER, ANSWER_CHECK), K(ANSWER, CLOSE), other);
	ui_frame_text(f, r, r.x, r.y, s, UI_ROLE_STATUS);
}

/* One diff line into s: "+   18  text" with tabs to stops of 4, as in the PTX pane; a hunk header as it is. */
static void diff_line(const userptx_dline *dl, char *s, size_t len)
{
	int o;
	if (dl->kind == '@')
		o = snprintf(s, len, "%s", dl->text);
	else
		o = snprintf(s, len, "%c%5d  ", dl->kind, dl->kind == '-' ? dl->old_line : dl->new_line);
	for (const char *c = dl->kind == '@' ? "" : dl->text; *c && o + 5 < (int)len; c++) {
		if (*c == '\t')
			do
				s[o++] = ' ';
			while ((o - 8) % 4);
		else
			s[o++] = *c;
	}
	if (o >= 0 && o < (int)len)
		s[o] = '\0';
}

/* R: the student's copy against the shipped file, with the keys to restore. */
static void diff(const ui_app *a, ui_frame *f)
{
	const ui_rect r = a->layout.help;
	const userptx_diff *d = &a->diff;
	const lesson *l = ui_app_lesson(a);
	const char *base = strrchr(l->ptx_path, '/');
	char s[512];
	snprintf(s, sizeof s, "Your %s against the original", base ? base + 1 : l->ptx_path);
	box(a, f, r, s);
	ui_rect in = inside(r);
	snprintf(s, sizeof s, "%d line%s added, %d removed", d->added, d->added == 1 ? "" : "s", d->removed);
	ui_frame_text(f, in, in.x, in.y, d->n ? s : "No differences.", UI_ROLE_EMPH);
	int h = ui_app_diff_rows(a);
	for (int y = 0; y < h && a->diff_scroll + y < d->n; y++) {
		const userptx_dline *dl = &d->l[a->diff_scroll + y];
		ui_role role = dl->kind == '+' ? UI_ROLE_GOOD : dl->kind == '-' ? UI_ROLE_BAD
			: dl->kind == '@' ? UI_ROLE_HEADING : UI_ROLE_NORMAL;
		diff_line(dl, s, sizeof s);
		ui_frame_code(f, in, in.x, in.y + 1 + y, s, role, ui_glyphs_get(a->ascii)->arrow);
	}
	snprintf(s, sizeof s, "%s restores the original  %s/%s/%s scroll  %s closes", K(DIFF, RESTORE), K(DIFF, DIFF_DOWN),
		 K(DIFF, DIFF_UP), K(DIFF, DIFF_PAGE_DOWN), K(DIFF, CLOSE));
	ui_frame_text(f, in, in.x, in.y + in.h - 1, s, UI_ROLE_KEY);
}

/* P: the lesson's puzzles (src/ui/overlay_puzzle.c). */
static void puzzles(const ui_app *a, ui_frame *f)
{
	/* the lecturer view takes the whole screen: two files side by side */
	ui_rect whole = {1, 1, a->cols - 2, a->rows - 2};
	ui_overlay_puzzle(a, f, a->pz_view ? whole : a->layout.help, box);
}

/* w: a warp's view of one memory access, with the keys that step it. */
static void warp(const ui_app *a, ui_frame *f)
{
	const ui_rect r = a->layout.help;
	const ui_warpview *v = &a->warp;
	char s[160];
	snprintf(s, sizeof s, "A warp's view of line %d (the CPU emulator at %lld^3)", v->wa.line, v->size);
	box(a, f, r, s);
	ui_rect in = inside(r);
	for (int i = 0; i < v->nrows && i < in.h - 1; i++)
		ui_frame_code(f, in, in.x, in.y + i, v->rows[i], i == 0 ? UI_ROLE_EMPH : UI_ROLE_CODE,
			      ui_glyphs_get(a->ascii)->arrow);
	snprintf(s, sizeof s, "%s/%s execution  %s/%s warp  %s/%s block  %s closes", K(WARP, WARP_NEXT), K(WARP, WARP_PREV),
		 K(WARP, WARP_NEXT_WARP), K(WARP, WARP_PREV_WARP), K(WARP, WARP_NEXT_BLOCK), K(WARP, WARP_PREV_BLOCK),
		 K(WARP, CLOSE));
	ui_frame_text(f, in, in.x, in.y + in.h - 1, s, UI_ROLE_KEY);
}

static void (*const overlay[])(const ui_app *, ui_frame *) = {
	[UI_MODE_PUZZLE] = puzzles,
	[UI_MODE_WARP] = warp,
	[UI_MODE_HELP] = help,
	[UI_MODE_WHATIF] = whatif,
	[UI_MODE_ANSWER] = answer,
	[UI_MODE_DIFF] = diff,
	[UI_MODE_MENU] = menu,
	[UI_MODE_SEARCH] = search,
};

void ui_overlay_draw(const ui_app *a, ui_frame *f)
{
	if ((unsigned)a->mode < ARRAY_LEN(overlay) && overlay[a->mode])
		overlay[a->mode](a, f);
}
