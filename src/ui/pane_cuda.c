/* ui/pane_cuda: the .cu drawn beside its PTX, row by row from the cursor's scroll; its counts are the PTX lines' summed by exec/report's one rule; reads the state, never changes it. */
#include "ui/pane_cuda.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "exec/report.h"
#include "ui/keys.h"
#include "ui/layout.h"
#include "ui/pane_ptx.h"
#include "ui/ptx_counts.h"
#include "ui/ptx_stalls.h"


static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The last run's rows summed per CUDA line (all, n); rest: the rows not
 * shown summed (the PTX lines with no CUDA line, or one in another file,
 * a header inlined), nrest of them: with the rows shown, the run's totals. */
typedef struct {
	exec_cu_row *all;
	int n;
	const run_result *r;
	run_line_counts rest;
	int nrest;
} cu_counts;

static void counts_of(const ui_app *a, cu_counts *c)
{
	memset(c, 0, sizeof *c);
	const ui_ptx *p = &a->ptx[a->lesson];
	c->r = ui_ptx_counts_header(a) ? ui_ptx_counts_of(a) : NULL;
	if (!c->r)
		return;
	run_report rep = {.lines = c->r->lines, .nlines = c->r->nlines, .locs = p->locs};
	c->n = exec_report_cu_rows(&rep, &c->all);
	for (int i = 0; i < c->n; i++)
		if (c->all[i].file != p->locs->files[p->cu_file]) {
			run_line_add(&c->rest, &c->all[i].c);
			c->nrest++;
		}
}

static const run_line_counts *counts_line(const cu_counts *c, const ui_ptx *p, int line)
{
	for (int i = 0; i < c->n; i++)
		if (c->all[i].line == line && c->all[i].file == p->locs->files[p->cu_file])
			return &c->all[i].c;
	return NULL;
}

/* "line 12: PTX 67-75 (4 lines)": the cursor's line and what it became. */
static void title(const ui_app *a, char *s, size_t len)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	const char *name = base_name(p->cu_text ? p->cu_path : p->locs->files[p->cu_file]);
	int first = 0, last = 0, n = 0;
	for (int i = 1; a->cu_line > 0 && i <= p->locs->nlines; i++)
		if (ui_app_cu_line_of(a, i) == a->cu_line) {
			first = first ? first : i;
			last = i;
			n++;
		}
	if (!p->cu_text)
		util_cutf(s, len, "CUDA %s (not found)", name);
	else if (a->cu_line > 0 && n)
		util_cutf(s, len, "CUDA %s  line %d: PTX %d-%d (%d line%s)", name, a->cu_line, first, last, n, n == 1 ? "" : "s");
	else if (a->cu_line > 0)
		util_cutf(s, len, "CUDA %s  line %d: no PTX", name, a->cu_line);
	else
		util_cutf(s, len, "CUDA %s  (%s: hide)", name, ui_key_name(UI_MODE_NORMAL, UI_ACT_CUDA));
}

/* Word-wrapped, for why the .cu is not shown. */
static void why_text(ui_frame *f, ui_rect body, const char *why, ui_role role, int *y)
{
	int w = body.w - 2, len = (int)strlen(why);
	for (int at = 0; *y < body.h && at < len && w > 0; ++*y) {
		int n = len - at <= w ? len - at : w;
		while (n < len - at && n > 0 && why[at + n] != ' ')
			n--;
		if (n == 0)
			n = w;
		ui_frame_textn(f, body, body.x + 1, body.y + *y, why + at, (size_t)n, role);
		for (at += n; why[at] == ' ';)
			at++;
	}
}

/* The columns that fit beside the code (at least CODE_MIN of it), as the PTX pane's give way. */
enum { CODE_MIN = 30 };
static int columns(const ui_app *a, ui_rect body, int x, const run_line_field **col, int *w)
{
	int n = ui_ptx_counts_columns((ui_cols_mode)a->ptx_cols, col, 16);
	for (;; n--) {
		*w = 2;
		for (int i = 0; i < n; i++)
			*w += col[i]->width + 1;
		if (n == 0 || body.x + body.w - 1 - (x + *w) >= CODE_MIN)
			return n;
	}
}

/* Line i (0-based) of the .cu, tabs to stops of 4. */
static void cu_text_line(const ui_ptx *p, int i, char *buf, size_t len)
{
	const char *s = p->cu_text + p->cu_off[i], *e = p->cu_text + p->cu_off[i + 1];
	size_t o = 0;
	for (; s < e && *s != '\n' && *s != '\r' && o + 4 < len; s++)
		if (*s == '\t')
			do
				buf[o++] = ' ';
			while (o % 4 && o + 1 < len);
		else
			buf[o++] = *s;
	buf[o] = '\0';
}

/* The heading row over the columns: their heads, and what the rows add up to. */
static void heading(ui_frame *f, ui_rect body, int x, const cu_counts *cc, const run_line_field *const *col, int ncol)
{
	char s[160], v[32];
	for (int i = 0; i < ncol; i++) {
		util_cutf(s, sizeof s, "%*s", col[i]->width, col[i]->head);
		ui_frame_text(f, body, x, body.y, s, UI_ROLE_HEADING);
		x += col[i]->width + 1;
	}
	if (!cc->r)
		util_cutf(s, sizeof s, "counts: the emulator's, beside the GPU run ...");
	else if (cc->nrest && ncol && run_line_cost(&cc->rest) > 0)
		util_cutf(s, sizeof s, "summed from the PTX; elsewhere: %s %s", col[0]->head,
		    run_line_format(col[0], &cc->rest, v, sizeof v));
	else
		util_cutf(s, sizeof s, "summed from the PTX lines");
	ui_frame_text_fit(f, body, x + 1, body.y, s, UI_ROLE_DIM);
}

/* A CUDA line's figures at x: its heat mark, then the columns. */
static void counts_row(const ui_app *a, ui_frame *f, ui_rect body, int x, int sy, const run_result *r,
		       const run_line_counts *l, const run_line_field *const *col, int ncol)
{
	static const uint32_t mark[2][3] = {{' ', 0x2592, 0x2588}, {' ', '+', '#'}};
	int heat = ui_ptx_counts_heat(r, l);
	ui_frame_put(f, x, sy, mark[a->ascii != 0][heat], heat == 2 ? UI_ROLE_BAD : UI_ROLE_WARN);
	x += 2;
	for (int i = 0; i < ncol; i++) {
		char c[48], v[32];
		run_line_format(col[i], l, v, sizeof v);
		util_cutf(c, sizeof c, "%*s", col[i]->width, v);
		ui_frame_text(f, body, x, sy, c, !strcmp(v, "-") ? UI_ROLE_DIM : heat ? UI_ROLE_EMPH : UI_ROLE_P_NUMBER);
		x += col[i]->width + 1;
	}
}

/* The line number of CUDA line ln: the cursor's marked, a run's problem (a
 * fault, a race on one of its PTX lines) in red with a cross. */
static void line_number(const ui_app *a, ui_frame *f, ui_rect body, int sy, int ln, int digits)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	if (ln == a->cu_line) {
		ui_frame_flag(f, body.x, sy, body.w, UI_CELL_HL);
		ui_frame_put(f, body.x + digits, sy, ui_glyphs_get(a->ascii)->mark, UI_ROLE_BAR_SELF);
	}
	int bad = 0;
	for (int m = 0; m < p->nmarks && !bad; m++)
		bad = ui_app_cu_line_of(a, p->marks[m].line) == ln;
	char s[16];
	util_cutf(s, sizeof s, "%*d", digits, ln);
	ui_frame_text(f, body, body.x, sy, s, bad ? UI_ROLE_BAD : UI_ROLE_LINENO);
	if (bad)
		ui_frame_put(f, body.x + digits, sy, a->ascii ? '!' : 0x2717, UI_ROLE_BAD);
	if (ln == a->cu_line && a->cu_focus && a->focus == UI_PANE_PTX)
		ui_frame_hit(f, body.x, sy, digits);
}

void ui_pane_cuda_draw(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.cuda;
	if (r.h <= 0 || r.w <= 0)
		return;
	const ui_ptx *p = &a->ptx[a->lesson];
	char t[RUN_PATH + 96];
	title(a, t, sizeof t);
	ui_frame_title(f, r, t, a->focus == UI_PANE_PTX && a->cu_focus);
	ui_rect body = ui_layout_body(r);
	if (!p->cu_text) {
		int y = 0;
		why_text(f, body, p->cu_why, UI_ROLE_WARN, &y);
		why_text(f, body, "Put the .cu beside the PTX under its own name, or where nvcc compiled it.", UI_ROLE_DIM, &y);
		return;
	}
	int digits = 1;
	for (int v = p->cu_nlines; v >= 10; v /= 10)
		digits++;
	/* the lines that became code: drawn bright, the others dim */
	unsigned char *code = xcalloc((size_t)p->cu_nlines + 2, 1);
	for (int i = 1; i <= p->locs->nlines; i++) {
		int cu = ui_app_cu_line_of(a, i);
		if (cu > 0 && cu <= p->cu_nlines)
			code[cu] = 1;
	}
	const exec_stalls_brief *sb = ui_stalls_of(a);
	exec_stalls_line *srows = ui_stalls_cu_rows(a, sb);
	int sx = body.x + digits + 2, sw = srows ? ui_stalls_width(body.x + body.w - 1 - sx - CODE_MIN) : 0;
	cu_counts cc;
	counts_of(a, &cc);
	const run_line_field *col[16];
	int cw = 0, ncol = cc.r ? columns(a, body, sx + sw, col, &cw) : 0;
	if (ui_ptx_header_row(a)) {
		char st[320];
		ui_stalls_state_text(a, st, sizeof st);
		if (ui_ptx_counts_header(a))
			heading(f, body, sx + sw + 2, &cc, col, ncol);
		else if (st[0] || !srows) /* the PTX pane's header says what the short forms mean */
			ui_frame_text_fit(f, body, body.x + 1, body.y, st[0] ? st : "stalls: no CUDA line", UI_ROLE_DIM);
		if (srows && sw >= 7)
			ui_frame_text(f, body, sx + 2, body.y, "stall", UI_ROLE_HEADING);
		body.y++, body.h--;
	}
	int tx = sx + sw + (cc.r ? cw : 0), top = ui_app_cu_top(a, body.h);
	ui_rect crect = {tx, body.y, body.x + body.w - tx, body.h};
	char s[1024];
	for (int y = 0; y < body.h && top + y < p->cu_nlines; y++) {
		int ln = top + y + 1, sy = body.y + y;
		line_number(a, f, body, sy, ln, digits);
		if (srows)
			ui_pane_ptx_stall_cell(f, body, sx, sy, sw, a->ascii, sb, &srows[ln]);
		const run_line_counts *l = cc.r ? counts_line(&cc, p, ln) : NULL;
		if (l)
			counts_row(a, f, body, sx + sw, sy, cc.r, l, col, ncol);
		cu_text_line(p, ln - 1, s, sizeof s);
		const char *lead = s + strspn(s, " ");
		ui_role role = !strncmp(lead, "//", 2) ? UI_ROLE_P_COMMENT : code[ln] ? UI_ROLE_NORMAL : UI_ROLE_DIM;
		if (crect.w > 0)
			ui_frame_code(f, crect, tx, sy, s, role, ui_glyphs_get(a->ascii)->arrow);
	}
	free(code);
	free(srows);
	free(cc.all);
}
