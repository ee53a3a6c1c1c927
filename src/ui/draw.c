/* ui/draw: composes the frame — header and status rows, each pane where the layout puts it, separators, the overlay. */
#include "ui/draw.h"

#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "ui/overlay.h"
#include "ui/pane_ptx.h"
#include "ui/pane_text.h"

/* Lines into a pane's body from line scroll (kept in range), pad columns in,
 * with a scroll mark in the last column when there is more than shows. */
static void place_lines(ui_frame *f, ui_rect body, const ui_lines *t, int scroll, int pad, uint32_t mark)
{
	if (scroll > t->nlines - body.h)
		scroll = t->nlines - body.h;
	if (scroll < 0)
		scroll = 0;
	for (int y = 0; y < body.h && scroll + y < t->nlines; y++) {
		int i0 = t->start[scroll + y], i1 = t->start[scroll + y + 1];
		for (int i = i0; i < i1 && i - i0 < body.w - pad - 1; i++)
			ui_frame_put(f, body.x + pad + i - i0, body.y + y, t->cp[i], (ui_role)t->role[i]);
	}
	if (t->nlines > body.h && body.h > 2) {
		int pos = (int)((double)scroll / (t->nlines - body.h) * (body.h - 1));
		ui_frame_put(f, body.x + body.w - 1, body.y + pos, mark, UI_ROLE_BORDER);
	}
}

static void text_pane(const ui_app *a, ui_frame *f, ui_pane p, const char *title)
{
	ui_rect r = a->layout.pane[p];
	if (r.h <= 0) /* hidden while another pane is zoomed */
		return;
	int pad = a->present ? 2 : 1;
	ui_lines t;
	ui_pane_text(&t, a, p, r.w - pad - 1);
	ui_frame_title(f, r, title, a->focus == (int)p);
	place_lines(f, ui_layout_body(r), &t, a->scroll[p], pad, a->ascii ? '#' : 0x2590 /* right half block */);
	ui_lines_free(&t);
}

static void header(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.header;
	const lesson *l = ui_app_lesson(a);
	ui_frame_fill(f, r, ' ', UI_ROLE_HEADER);
	char s[512], sm[16] = "", size[64];
	if (a->gpu.cc_major)
		snprintf(sm, sizeof sm, " sm_%d%d", a->gpu.cc_major, a->gpu.cc_minor);
	numfmt_size(size, sizeof size, a->M, a->N, a->K, a->ascii);
	const char *gpu = a->gpu.name;
	if (!strncmp(gpu, "NVIDIA ", 7))
		gpu = gpu + 7;
	/* The lesson's own number, as the texts say "lesson 3", out of the last one. */
	int n = snprintf(s, sizeof s, " Lesson %d/%d %s%s | %s %s | %s%s", l->number,
			 a->course->l[a->course->n - 1].number, l->title,
			 a->ptx[a->lesson].edited ? " [edited]" : "", size, dtype_name(l->dt), gpu, sm);
	for (int i = 0; i < a->whatif.n && n > 0 && n < (int)sizeof s - 40; i++)
		n += snprintf(s + n, sizeof s - (size_t)n, "%s%s=%lld", i ? " " : " | what-if ", a->whatif.v[i].name,
			      a->whatif.v[i].value);
	if (a->regs_override && n > 0 && n < (int)sizeof s - 40)
		snprintf(s + n, sizeof s - (size_t)n, " regs=%d", a->regs_override);
	ui_frame_text(f, r, r.x, r.y, s, UI_ROLE_HEADER);
}

static void status(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.status;
	ui_frame_fill(f, r, ' ', UI_ROLE_STATUS);
	const lesson *l = ui_app_lesson(a);
	char s[256];
	snprintf(s, sizeof s, " page %d/%d  n/p lesson  Space/Bksp page  r run  t what-if  ? help  q quit",
		 a->page + 1, l->npages);
	int x = ui_frame_text(f, r, r.x, r.y, s, UI_ROLE_STATUS);
	if (a->msg[0]) {
		int mw = ui_utf8_width(a->msg, strlen(a->msg));
		/* The message wins over the key hints when both do not fit. */
		int mx = r.x + r.w - mw - 1;
		if (mx < x + 2)
			ui_frame_fill(f, (ui_rect){mx < 0 ? 0 : mx - 1, r.y, r.w, 1}, ' ', UI_ROLE_STATUS);
		ui_frame_text(f, r, mx < 0 ? 0 : mx, r.y, a->msg, a->msg_bad ? UI_ROLE_BAD : UI_ROLE_STATUS);
	}
}

static void too_small(const ui_app *a, ui_frame *f)
{
	ui_rect all = {0, 0, f->cols, f->rows};
	char s[128];
	snprintf(s, sizeof s, "Terminal too small: %dx%d.", a->cols, a->rows);
	int y = f->rows / 2 - 1;
	ui_frame_text(f, all, 1, y < 0 ? 0 : y, s, UI_ROLE_BAD);
	snprintf(s, sizeof s, "ptxtutor needs at least %dx%d.", UI_MIN_COLS, UI_MIN_ROWS);
	ui_frame_text(f, all, 1, y + 1, s, UI_ROLE_NORMAL);
	ui_frame_text(f, all, 1, y + 2, "Enlarge it, or press q.", UI_ROLE_DIM);
}

/* The side panes: numbers and run in their own rectangles, or the one Tab shows. */
static void side_panes(const ui_app *a, ui_frame *f)
{
	if (!a->layout.tabbed) {
		text_pane(a, f, UI_PANE_NUMBERS, "Numbers");
		text_pane(a, f, UI_PANE_RUN, "Run");
		return;
	}
	ui_pane s = a->side == UI_PANE_RUN ? UI_PANE_RUN : UI_PANE_NUMBERS;
	char title[64];
	snprintf(title, sizeof title, "%s  (Tab: %s)", s == UI_PANE_RUN ? "Run" : "Numbers",
		 s == UI_PANE_RUN ? "numbers" : "run");
	text_pane(a, f, s, title);
}

/* A vertical rule right of each pane that has another beside it. */
static void separators(const ui_app *a, ui_frame *f)
{
	const ui_layout *L = &a->layout;
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	for (int p = 0; p < UI_NPANES; p++) {
		ui_rect r = L->pane[p];
		if (r.w > 0 && r.x + r.w < L->cols)
			for (int y = r.y; y < r.y + r.h; y++)
				ui_frame_put(f, r.x + r.w, y, g->vline, UI_ROLE_BORDER);
	}
}

void ui_draw(const ui_app *a, ui_frame *f)
{
	const ui_layout *L = &a->layout;
	if (f->cols != L->cols || f->rows != L->rows)
		ui_frame_resize(f, L->cols, L->rows);
	else
		ui_frame_clear(f);
	if (L->kind == UI_LAYOUT_TOO_SMALL) {
		too_small(a, f);
		return;
	}
	header(a, f);
	const lesson *l = ui_app_lesson(a);
	const lesson_page *pg = ui_app_page(a);
	char title[160];
	snprintf(title, sizeof title, "%s  page %d/%d", pg ? pg->title : l->title, a->page + 1, l->npages);
	text_pane(a, f, UI_PANE_LESSON, title);
	ui_pane_ptx_draw(a, f);
	side_panes(a, f);
	separators(a, f);
	status(a, f);
	ui_overlay_draw(a, f);
}
