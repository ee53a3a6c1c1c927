/* ui/layout: pane rectangles from the terminal size; a table of thresholds picks the arrangement. */
#include "ui/layout.h"

#include <string.h>

static const char *const kind_names[] = {
	[UI_LAYOUT_TOO_SMALL] = "too-small",
	[UI_LAYOUT_COMPACT] = "compact",
	[UI_LAYOUT_WIDE] = "wide",
	[UI_LAYOUT_WIDE3] = "wide3",
	[UI_LAYOUT_PRESENT] = "present",
};

static const char *const pane_names[UI_NPANES] = {
	[UI_PANE_LESSON] = "lesson",
	[UI_PANE_PTX] = "PTX",
	[UI_PANE_NUMBERS] = "numbers",
	[UI_PANE_RUN] = "run",
};

const char *ui_layout_kind_name(ui_layout_kind k)
{
	return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

const char *ui_pane_name(ui_pane p)
{
	return (unsigned)p < UI_NPANES ? pane_names[p] : "?";
}

static ui_rect rect(int x, int y, int w, int h)
{
	return (ui_rect){x, y, w, h};
}

/* Splits a length into a first part of pct percent (at least lo) and the rest. */
static int part(int total, int pct, int lo)
{
	int a = total * pct / 100;
	return a < lo ? lo : a;
}

/* Side slot width in the compact layout: wide enough for the numbers' labels. */
enum { SIDE_COMPACT = 30 };
/* The lesson pane in lecture mode: 80 columns of text (the width the lessons
 * are written for), a margin of 2 and the scroll column. The PTX goes beside
 * it only where it gets UI_PTX_CODE_MIN columns of code after its line
 * numbers, heat mark and cut mark (8): an instruction with its operands
 * (below that width, under it). */
enum { PRESENT_LESSON_W = UI_TEXT_COLS + 3, PRESENT_RIGHT_MIN = UI_PTX_CODE_MIN + 8 };
/* The lesson pane beside the others outside lecture mode: 80 columns of
 * text, the margin of 1 and the scroll column (the lessons' code samples are
 * written for 80), leaving the numbers and run at least RIGHT_MIN. */
enum { WIDE_LESSON_W = UI_TEXT_COLS + 2, RIGHT_MIN = 36 };
/* What one step of grow gives the lesson pane: columns beside, rows above. */
enum { GROW_COLS = 4, GROW_ROWS = 2 };

/* v clamped to [lo, hi] (hi wins when they cross). */
static int clamp(int v, int lo, int hi)
{
	return v > hi ? hi : v < lo ? lo : v;
}

void ui_layout_compute(int cols, int rows, int present, int grow, ui_layout *L)
{
	memset(L, 0, sizeof *L);
	L->cols = cols;
	L->rows = rows;
	if (cols < UI_MIN_COLS || rows < UI_MIN_ROWS) {
		L->kind = UI_LAYOUT_TOO_SMALL;
		return;
	}
	L->header = rect(0, 0, cols, 1);
	L->status = rect(0, rows - 1, cols, 1);
	int top = 1, body = rows - 2;
	ui_rect *P = L->pane;

	if (present && cols >= PRESENT_LESSON_W + 1 + PRESENT_RIGHT_MIN) {
		/* Lecture, wide: the text at the width it is written for on the
		 * left, code right, one tabbed slot for the numbers below it. */
		L->kind = UI_LAYOUT_PRESENT;
		L->tabbed = 1;
		int lw = clamp(PRESENT_LESSON_W + grow * GROW_COLS, 40, cols - 1 - 24);
		int rw = cols - lw - 1;
		int ph = part(body, 60, 10);
		P[UI_PANE_LESSON] = rect(0, top, lw, body);
		P[UI_PANE_PTX] = rect(lw + 1, top, rw, ph);
		P[UI_PANE_NUMBERS] = rect(lw + 1, top + ph, rw, body - ph);
	} else if (!present && cols >= 200 && rows >= 36) {
		/* Three columns only where the lesson still gets the 80 columns its
		 * text and pictures are written for. */
		L->kind = UI_LAYOUT_WIDE3;
		int rw = part(cols, 29, 40);
		int lw = clamp(part(cols, 30, PRESENT_LESSON_W) + grow * GROW_COLS, 40, cols - rw - 2 - 30);
		int pw = cols - lw - rw - 2;
		int nh = part(body, 68, 12);
		P[UI_PANE_LESSON] = rect(0, top, lw, body);
		P[UI_PANE_PTX] = rect(lw + 1, top, pw, body);
		P[UI_PANE_NUMBERS] = rect(lw + pw + 2, top, rw, nh);
		P[UI_PANE_RUN] = rect(lw + pw + 2, top + nh, rw, body - nh);
	} else if (!present && cols >= 120 && rows >= 36) {
		L->kind = UI_LAYOUT_WIDE;
		int lw = clamp(part(cols, 60, WIDE_LESSON_W), 0, cols - 1 - RIGHT_MIN);
		int rw = cols - lw - 1;
		int lh = clamp(part(body, 42, 10) + grow * GROW_ROWS, 6, body - 6);
		int nh = part(body, 68, 12);
		P[UI_PANE_LESSON] = rect(0, top, lw, lh);
		P[UI_PANE_PTX] = rect(0, top + lh, lw, body - lh);
		P[UI_PANE_NUMBERS] = rect(lw + 1, top, rw, nh);
		P[UI_PANE_RUN] = rect(lw + 1, top + nh, rw, body - nh);
	} else {
		/* 80x24 and anything not big enough for side by side: lesson on top,
		 * PTX below with the numbers and the run tabbed beside it. The text
		 * gets half the rows at least (a page in a few Spaces at 80x24), in
		 * lecture mode more (a diagram of a dozen lines fits at 100x30). */
		L->kind = present ? UI_LAYOUT_PRESENT : UI_LAYOUT_COMPACT;
		L->tabbed = 1;
		int lh = clamp(part(body, present ? 65 : 50, 8) + grow * GROW_ROWS, 5, body - 5);
		int sw = cols >= 110 ? part(cols, 34, SIDE_COMPACT) : SIDE_COMPACT;
		int pw = cols - sw - 1;
		P[UI_PANE_LESSON] = rect(0, top, cols, lh);
		P[UI_PANE_PTX] = rect(0, top + lh, pw, body - lh);
		P[UI_PANE_NUMBERS] = rect(pw + 1, top + lh, sw, body - lh);
	}
	if (L->tabbed)
		P[UI_PANE_RUN] = P[UI_PANE_NUMBERS];

	int hw = cols - 4 < 76 ? cols - 4 : 76; /* a warp view's 72-column rows fit at 80 columns */
	int hh = rows - 2 < 30 ? rows - 2 : 30;
	L->help = rect((cols - hw) / 2, (rows - hh) / 2, hw, hh);
}

void ui_layout_swap(ui_layout *L)
{
	if (L->kind == UI_LAYOUT_TOO_SMALL || !L->tabbed)
		return;
	ui_rect t = L->pane[UI_PANE_PTX];
	L->pane[UI_PANE_PTX] = L->pane[UI_PANE_NUMBERS];
	L->pane[UI_PANE_NUMBERS] = L->pane[UI_PANE_RUN] = t;
}

void ui_layout_cuda(ui_layout *L)
{
	ui_rect *p = &L->pane[UI_PANE_PTX];
	L->cuda = rect(0, 0, 0, 0);
	if (L->kind == UI_LAYOUT_TOO_SMALL || p->w <= 0 || p->h <= 0)
		return;
	if (p->w >= UI_CUDA_MIN_W + 1 + UI_CUDA_PTX_MIN_W) {
		/* beside: the CUDA lines are short; the PTX keeps what it needs, the rest is split */
		int cw = clamp(p->w * 2 / 5, UI_CUDA_MIN_W, p->w - 1 - UI_CUDA_PTX_MIN_W);
		L->cuda = rect(p->x, p->y, cw, p->h);
		p->x += cw + 1, p->w -= cw + 1;
	} else if (p->h >= 8) {
		int ch = clamp(p->h * 9 / 20, 4, p->h - 4);
		L->cuda = rect(p->x, p->y, p->w, ch);
		p->y += ch, p->h -= ch;
	}
}

ui_rect ui_layout_body(ui_rect pane)
{
	return (ui_rect){pane.x, pane.y + 1, pane.w, pane.h - 1};
}

void ui_layout_zoom(ui_layout *L, ui_pane p)
{
	if (L->kind == UI_LAYOUT_TOO_SMALL)
		return;
	ui_rect body = rect(0, L->header.y + 1, L->cols, L->status.y - L->header.y - 1);
	int side = p == UI_PANE_NUMBERS || p == UI_PANE_RUN;
	for (int i = 0; i < UI_NPANES; i++) {
		int twin = L->tabbed && side && (i == UI_PANE_NUMBERS || i == UI_PANE_RUN);
		L->pane[i] = i == (int)p || twin ? body : rect(0, 0, 0, 0);
	}
}
