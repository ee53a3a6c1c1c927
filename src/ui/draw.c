/* ui/draw: composes the frame — header and status rows, each pane where the layout puts it, separators, the overlay. */
#include "ui/draw.h"

#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/util.h"
#include "ui/keys.h"
#include "ui/lines.h"
#include "ui/overlay.h"
#include "ui/pane_cuda.h"
#include "ui/pane_edit.h"
#include "ui/pane_ptx.h"
#include "ui/pane_sass.h"
#include "ui/pane_text.h"

/* The view's lines into a pane's body, pad columns in; the lines the pane
 * marks on the highlight background; when not all fit, the last row says
 * how much is below (Space reads on in the lesson, like less). */
static void place_lines(const ui_app *a, ui_frame *f, ui_pane p, ui_rect body, const ui_lines *t, int pad)
{
	ui_view v = ui_pane_view(a, p, t);
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	for (int y = 0; y < v.rows && v.top + y < t->nlines; y++) {
		int ln = v.top + y;
		int i0 = t->start[ln], i1 = t->start[ln + 1];
		int room = body.w - pad - 1;
		int wide = i1 - i0 > room; /* a row of code kept as it is: its last column says it goes on */
		while (wide && i1 > i0 && t->cp[i1 - 1] == ' ')
			wide = --i1 - i0 > room;
		for (int i = i0; i < i1 && i - i0 < room - wide; i++)
			ui_frame_put(f, body.x + pad + i - i0, body.y + y, t->cp[i], (ui_role)t->role[i]);
		if (wide)
			ui_frame_put(f, body.x + pad + room - 1, body.y + y, g->arrow, UI_ROLE_KEY);
		if (ln >= t->mark_first && ln <= t->mark_last && t->mark_first >= 0) {
			ui_frame_flag(f, body.x, body.y + y, body.w, UI_CELL_HL);
			ui_frame_put(f, body.x, body.y + y, g->mark, UI_ROLE_BAR_SELF);
		}
	}
	if (v.rows >= body.h)
		return;
	char s[96];
	int y = body.y + body.h - 1;
	if (v.below > 0)
		snprintf(s, sizeof s, "%s more below (%d line%s)%s", a->ascii ? "v" : "\u25BC", v.below,
			 v.below == 1 ? "" : "s", p == UI_PANE_LESSON ? ": Space" : "");
	else
		snprintf(s, sizeof s, "%s end%s", a->ascii ? "-" : "\u25A0",
			 p == UI_PANE_LESSON ? " of the page: Space turns it" : "");
	ui_frame_fill(f, (ui_rect){body.x, y, body.w, 1}, ' ', UI_ROLE_NORMAL);
	ui_frame_text(f, body, body.x + pad, y, s, v.below > 0 ? UI_ROLE_KEY : UI_ROLE_DIM);
}

static void text_pane(const ui_app *a, ui_frame *f, ui_pane p, const char *title)
{
	ui_rect r = a->layout.pane[p];
	if (r.h <= 0) /* hidden while another pane is zoomed */
		return;
	ui_lines t;
	ui_pane_text(&t, a, p, ui_pane_text_width(a, p));
	ui_frame_title(f, r, title, a->focus == (int)p);
	place_lines(a, f, p, ui_layout_body(r), &t, ui_pane_text_pad(a));
	ui_lines_free(&t);
}

/* What the header says of the GPU: a live one as it is; the model's with
 * "(model)", and "(model; no GPU here)" when there is none. */
static void gpu_label(const ui_app *a, int with_sm, char *s, size_t len)
{
	char sm[16] = "";
	if (a->gpu.cc_major && with_sm)
		snprintf(sm, sizeof sm, " sm_%d%d", a->gpu.cc_major, a->gpu.cc_minor);
	const char *gpu = a->gpu.name;
	if (!strncmp(gpu, "NVIDIA ", 7))
		gpu = gpu + 7;
	snprintf(s, len, "%s%s%s", gpu, sm, a->gpu_live ? "" : a->offline ? " (model; no GPU here)" : " (model)");
}

/* The header: the lesson and its title, the size, the GPU (what the numbers
 * are for, never dropped) and the what-ifs. Where it does not fit, sm_XY
 * goes, then the word "Lesson", then the end of the title, at a word, with
 * an ellipsis. */
static void header(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.header;
	const lesson *l = ui_app_lesson(a);
	ui_frame_fill(f, r, ' ', UI_ROLE_HEADER);
	char head[256], tail[320], size[64], gpu[128];
	numfmt_size(size, sizeof size, a->M, a->N, a->K, a->ascii);
	int last = a->course->l[a->course->n - 1].number;
	for (int v = 0; v < 3; v++) {
		gpu_label(a, v == 0, gpu, sizeof gpu);
		/* The lesson's own number, as the texts say "lesson 3", out of the last one. */
		snprintf(head, sizeof head, " %s%d/%d %s%s", v < 2 ? "Lesson " : "", l->number, last, l->title,
			 a->ptx[a->lesson].edited ? " [edited]" : a->own == a->lesson ? " [your kernel]" : "");
		char types[32];
		dtype_pair_name(l->dt, l->out, types, sizeof types); /* "f16→f32" (ASCII: the frame maps the arrow) */
		/* A lesson without a kernel (lesson 0) has no size or types to show. */
		int n = l->ptx_path[0] ? snprintf(tail, sizeof tail, " | %s %s | %s", size, types, gpu)
				       : snprintf(tail, sizeof tail, " | %s", gpu);
		for (int i = 0; i < a->whatif.n && n > 0 && n < (int)sizeof tail - 40; i++)
			n += snprintf(tail + n, sizeof tail - (size_t)n, "%s%s=%lld", i ? " " : " | what-if ",
				      a->whatif.v[i].name, a->whatif.v[i].value);
		if (a->regs_override && n > 0 && n < (int)sizeof tail - 40)
			snprintf(tail + n, sizeof tail - (size_t)n, "%s regs=%d", a->whatif.n ? "" : " | what-if",
				 a->regs_override);
		if (ui_utf8_width(head, strlen(head)) + ui_utf8_width(tail, strlen(tail)) <= r.w)
			break;
	}
	int keep = r.w - ui_utf8_width(tail, strlen(tail));
	if (keep < 8)
		keep = 8;
	int x = ui_frame_text_fit(f, (ui_rect){r.x, r.y, keep, 1}, r.x, r.y, head, UI_ROLE_HEADER);
	ui_frame_text_fit(f, r, x, r.y, tail, UI_ROLE_HEADER);
}

/* Rows a status message may take, wrapped, before its end is marked. */
enum { STATUS_MAX_ROWS = 3 };

/* The status row: the key hints, most needed first, as many whole ones as
 * leave room for the message, which is never cut by them nor cuts them.
 * A message too long for the row alone is wrapped at words onto the rows
 * above it (over the panes' last rows, while it shows): read whole. */
static void status(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.status;
	ui_frame_fill(f, r, ' ', UI_ROLE_STATUS);
	const lesson *l = ui_app_lesson(a);
	/* A hint names the key the binding table gives its action (ui_key_name). */
	static const struct {
		ui_action act, and_act;
		const char *what;
	} hints[] = {
		{UI_ACT_HELP, 0, "help"},    {UI_ACT_QUIT, 0, "quit"},     {UI_ACT_NEXT_PAGE, 0, "read on"},
		{UI_ACT_MENU, 0, "go to"},   {UI_ACT_SEARCH, 0, "search"}, {UI_ACT_NEXT_LESSON, UI_ACT_PREV_LESSON, "lesson"},
		{UI_ACT_RUN, 0, "run"},      {UI_ACT_WHATIF, 0, "what-if"},
	};
	char text[1 + ARRAY_LEN(hints)][40];
	const char *items[1 + ARRAY_LEN(hints)];
	snprintf(text[0], sizeof text[0], "page %d/%d", a->page + 1, l->npages);
	for (size_t i = 0; i < ARRAY_LEN(hints); i++)
		snprintf(text[i + 1], sizeof text[i + 1], "%s%s%s %s", ui_key_name(UI_MODE_NORMAL, hints[i].act),
			 hints[i].and_act ? "/" : "", hints[i].and_act ? ui_key_name(UI_MODE_NORMAL, hints[i].and_act) : "",
			 hints[i].what);
	for (size_t i = 0; i < ARRAY_LEN(items); i++)
		items[i] = text[i];
	int n = (int)ARRAY_LEN(items);
	/* a prompt being typed (search, answer) takes the row over: no message under it */
	const char *msg = a->mode == UI_MODE_SEARCH || a->mode == UI_MODE_ANSWER ? "" : a->msg;
	int mw = msg[0] ? ui_utf8_width(msg, strlen(msg)) + 2 : 0;
	/* the hints give way whole, the page last, so that the message fits */
	int keep = n, width;
	for (;; keep--) {
		width = 1;
		for (int i = 0; i < keep; i++)
			width += (int)strlen(items[i]) + 2;
		if (keep <= (msg[0] ? 0 : 3) || width + mw <= r.w)
			break;
	}
	int x = r.x + 1;
	for (int i = 0; i < keep; i++)
		x = ui_frame_text(f, r, x, r.y, items[i], UI_ROLE_STATUS) + 2;
	if (!msg[0])
		return;
	ui_role role = a->msg_bad ? UI_ROLE_BAD : UI_ROLE_EMPH;
	if (x + mw - 2 <= r.x + r.w) {
		ui_frame_text(f, r, x, r.y, msg, role);
		return;
	}
	ui_lines t;
	ui_lines_init(&t);
	ui_lines_para(&t, msg, role, r.w - 2, 0);
	int rows = t.nlines < STATUS_MAX_ROWS ? t.nlines : STATUS_MAX_ROWS;
	if (rows > r.y) /* never over the header */
		rows = r.y;
	for (int k = 0; k < rows; k++) {
		int y = r.y - rows + 1 + k, i0 = t.start[k], i1 = t.start[k + 1];
		ui_frame_fill(f, (ui_rect){r.x, y, r.w, 1}, ' ', UI_ROLE_STATUS);
		for (int i = i0; i < i1 && i - i0 < r.w - 2; i++)
			ui_frame_put(f, r.x + 1 + i - i0, y, t.cp[i], (ui_role)t.role[i]);
		if (k == rows - 1 && t.nlines > rows) /* longer still: its last row says it goes on */
			ui_frame_put(f, r.x + r.w - 1, y, a->ascii ? '>' : 0x2026, role);
	}
	ui_lines_free(&t);
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
	snprintf(s, sizeof s, "Enlarge it, or press %s.", ui_key_name(UI_MODE_NORMAL, UI_ACT_QUIT));
	ui_frame_text(f, all, 1, y + 2, s, UI_ROLE_DIM);
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
	for (int p = 0; p <= UI_NPANES; p++) {
		ui_rect r = p < UI_NPANES ? L->pane[p] : L->cuda; /* the CUDA pane: beside the PTX, or above it */
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
		if (a->ascii)
			ui_frame_ascii(f);
		return;
	}
	if (a->mode == UI_MODE_EDITOR) {
		ui_pane_edit_draw(a, f); /* full screen */
		if (a->ascii)
			ui_frame_ascii(f);
		return;
	}
	header(a, f);
	const lesson *l = ui_app_lesson(a);
	const lesson_page *pg = ui_app_page(a);
	char title[160];
	snprintf(title, sizeof title, "%s  page %d/%d", pg ? pg->title : l->title, a->page + 1, l->npages);
	text_pane(a, f, UI_PANE_LESSON, title);
	if (a->sass_view)
		ui_pane_sass_draw(a, f);
	else
		ui_pane_ptx_draw(a, f);
	ui_pane_cuda_draw(a, f);
	side_panes(a, f);
	separators(a, f);
	status(a, f);
	ui_overlay_draw(a, f);
	/* ASCII all the way: the lessons' own pictures and symbols too. */
	if (a->ascii)
		ui_frame_ascii(f);
}
