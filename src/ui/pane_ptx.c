/* ui/pane_ptx: the highlighted PTX drawn into the frame, row by row of the view that app computes; reads the state, never changes it. */
#include "ui/pane_ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "exec/report.h"
#include "ui/ptx_counts.h"
#include "ui/ptx_stalls.h"


static const ui_role class_role[PTX_NCLASSES] = {
	[PTX_TEXT] = UI_ROLE_NORMAL,
	[PTX_DIRECTIVE] = UI_ROLE_P_DIRECTIVE,
	[PTX_TYPE] = UI_ROLE_P_TYPE,
	[PTX_INSTR] = UI_ROLE_P_INSTR,
	[PTX_REG] = UI_ROLE_P_REG,
	[PTX_LABEL] = UI_ROLE_P_LABEL,
	[PTX_PRED] = UI_ROLE_P_PRED,
	[PTX_COMMENT] = UI_ROLE_P_COMMENT,
	[PTX_NUMBER] = UI_ROLE_P_NUMBER,
};

/* The title: the file, and the first problem, else the page's region, else the entry. */
static void title(const ui_app *a, char *s, size_t len)
{
	const lesson *l = ui_app_lesson(a);
	const ui_ptx *p = &a->ptx[a->lesson];
	const lesson_page *pg = ui_app_page(a);
	int af, al;
	ui_app_region_lines(a, a->region, &af, &al);
	const char *ed = p->edited ? " [edited: R diff]" : "";
	if (p->example)
		snprintf(s, len, "PTX example from the lesson text (no kernel to run)");
	else if (!l->ptx_path[0])
		snprintf(s, len, "PTX");
	else if (p->nmarks)
		util_cutf(s, len, "PTX %s%s  %d %s at line %d", l->ptx_path, ed, p->nmarks,
		    p->nmarks > 1 ? "problems" : "problem", p->marks[0].line);
	else if (af >= 0 && pg->nanchors > 1)
		util_cutf(s, len, "PTX %s%s  @%s lines %d-%d (%d/%d, %s: next)", l->ptx_path, ed, pg->anchors[a->region],
		    af + 1, al + 1, a->region + 1, pg->nanchors, ui_key_name(UI_MODE_NORMAL, UI_ACT_REGION));
	else if (af >= 0)
		util_cutf(s, len, "PTX %s%s  @%s lines %d-%d", l->ptx_path, ed, pg->anchors[a->region], af + 1, al + 1);
	else
		util_cutf(s, len, "PTX %s%s  %s", l->ptx_path, ed, l->entry);
}

/* Columns of s[0..len) with tabs to stops of 4 (PTX is indented with tabs). */
static int expanded_width(const char *s, int len)
{
	int x = 0;
	for (int i = 0; i < len;) {
		int cl;
		uint32_t cp = ui_utf8_decode(s + i, (size_t)(len - i), &cl);
		i += cl;
		x = cp == '\t' ? (x / 4 + 1) * 4 : x + 1;
	}
	return x;
}

/* Which bytes of s (len) are inside a hit of the search (lower-case
 * needle, case ignored): hit[i] set. Returns whether there is one. */
static int hits_of(const char *s, int len, const char *needle, unsigned char *hit)
{
	int k = (int)strlen(needle), any = 0;
	memset(hit, 0, (size_t)len);
	for (int i = 0; k && i + k <= len; i++)
		if (!strncasecmp(s + i, needle, (size_t)k)) {
			memset(hit + i, 1, (size_t)k);
			any = 1;
			i += k - 1;
		}
	return any;
}

/* One source line from x = tx, in its syntax roles, tabs to stops of 4; the
 * search's hits (needle, or NULL) in reverse video. A line wider than the
 * code area has a mark (an arrow) in the column after it, the pane's last,
 * which nothing else uses: nothing is cut unseen. */
static void code_line(ui_frame *f, ui_rect code, int sy, const ui_ptx *p, const ptx_line *pl, uint32_t more,
		      const char *needle)
{
	unsigned char cls[4096], hit[4096];
	const char *s = p->doc.text + pl->off;
	int len = pl->len < (int)sizeof cls ? pl->len : (int)sizeof cls;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	int blk = pl->block_in;
	ptx_classify_line(s, len, cls, &blk);
	int cut = expanded_width(s, len) > code.w;
	int end = code.x + code.w;
	int marks = needle && hits_of(s, len, needle, hit);
	/* "// @name" and "// @end" mark regions for the lessons: not code, drawn dim. */
	int lead = 0;
	while (lead < len && (s[lead] == ' ' || s[lead] == '\t'))
		lead++;
	int region_mark = len - lead >= 4 && !strncmp(s + lead, "// @", 4);
	int tx = code.x, x = tx;
	for (int i = 0; i < len && x < end;) {
		int cl, x0 = x, h = marks && hit[i];
		uint32_t cp = ui_utf8_decode(s + i, (size_t)(len - i), &cl);
		ui_role role = region_mark ? UI_ROLE_DIM : class_role[cls[i]];
		i += cl;
		if (cp == '\t') {
			int next = tx + ((x - tx) / 4 + 1) * 4;
			while (x < next && x < end)
				ui_frame_put(f, x++, sy, ' ', role);
		} else {
			ui_frame_put(f, x++, sy, cp < 32 ? '?' : cp, role);
		}
		if (h)
			ui_frame_hit(f, x0, sy, x - x0);
	}
	if (cut && code.w > 0)
		ui_frame_put(f, end, sy, more, UI_ROLE_KEY);
}

/* The kernel's widest instruction line, its comment left out (a comment may
 * be cut with a mark; the operands should not be). */
static int widest_instruction(const ui_ptx *p)
{
	int m = 0;
	for (int i = 0; i < p->doc.nlines; i++) {
		const char *s = p->doc.text + p->doc.lines[i].off;
		int len = p->doc.lines[i].len, b = 0;
		while (b < len && (s[b] == ' ' || s[b] == '\t'))
			b++;
		if (b == len || s[b] == '.' || s[b] == '/' || s[b] == '{' || s[b] == '}')
			continue;
		int e = b;
		while (e < len && !(s[e] == '/' && e + 1 < len && s[e + 1] == '/'))
			e++;
		while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
			e--;
		if (s[e - 1] == ':') /* a label */
			continue;
		int w = expanded_width(s, e);
		m = w > m ? w : m;
	}
	return m;
}

int ui_pane_ptx_code_target(const ui_app *a)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	int min = a->cols >= 100 ? UI_PTX_CODE_MIN : UI_PTX_CODE_MIN_80;
	int w = p->ok ? widest_instruction(p) : 0;
	return w < min ? w : min;
}

/* The per-line columns of the last run, where they go. */
typedef struct {
	const run_result *r;       /* NULL: none to show */
	const ui_baseline *base;   /* B: the shipped kernel's beside each column, and a mark; NULL: not shown */
	const run_line_field *col[16];
	int ncol;
	int dropped;               /* columns left out for the code's room */
	int x, w;                  /* the block: a heat mark, a space, the columns (and the mark) */
} counts_block;

/* The baseline drawn beside the counts: B on, made beside this lesson's edited run. */
static const ui_baseline *baseline_shown(const ui_app *a)
{
	const ui_baseline *b = &a->base;
	return b->view && b->state == 1 && b->lesson == a->lesson && a->ptx[a->lesson].edited ? b : NULL;
}

/* A column's cells: the run's, and the baseline's beside it. */
static int column_width(const counts_block *cb, int i)
{
	return (cb->col[i]->width + 1) * (cb->base ? 2 : 1);
}

/* Whether any line of the run has a figure in column c (else it says nothing here). */
static int column_says(const run_result *r, const run_line_field *c)
{
	char v[32];
	for (int i = 0; i < r->nlines; i++) {
		run_line_format(c, &r->lines[i], v, sizeof v);
		if (strcmp(v, "-"))
			return 1;
	}
	return 0;
}

/* Which columns fit: while the code would get less than
 * ui_pane_ptx_code_target, those without a figure on any line go, then the
 * last ones (the heat mark stays). */
static void counts_layout(const ui_app *a, ui_rect body, int x, counts_block *cb)
{
	memset(cb, 0, sizeof *cb);
	cb->r = ui_ptx_counts_header(a) ? ui_ptx_counts_of(a) : NULL;
	if (!cb->r)
		return;
	cb->base = baseline_shown(a);
	cb->ncol = ui_ptx_counts_columns((ui_cols_mode)a->ptx_cols, cb->col, (int)(sizeof cb->col / sizeof cb->col[0]));
	int target = ui_pane_ptx_code_target(a);
	for (;;) {
		cb->w = cb->base ? 4 : 2;
		for (int i = 0; i < cb->ncol; i++)
			cb->w += column_width(cb, i);
		if (cb->ncol == 0 || body.x + body.w - 1 - (x + cb->w) >= target)
			break;
		/* the last column without a figure goes first, else the last one */
		int drop = cb->ncol - 1;
		for (int i = cb->ncol - 1; i >= 0; i--)
			if (!column_says(cb->r, cb->col[i])) {
				drop = i;
				break;
			}
		if (column_says(cb->r, cb->col[drop]))
			cb->dropped++;
		memmove(&cb->col[drop], &cb->col[drop + 1], (size_t)(cb->ncol - drop - 1) * sizeof cb->col[0]);
		cb->ncol--;
	}
	cb->x = x;
}

/* W: the stall column, left of the counts: a heat mark, the line's top reason and its share of the
 * kernel's warp cycles ("lsb  41%"); with less room the share goes, then the reason, then the mark
 * (the code keeps ui_pane_ptx_code_target, the counts' heat mark beside it; the header says so). */
typedef struct {
	const exec_stalls_brief *b; /* NULL: none to show */
	int x, w;
} stall_block;

static void stall_layout(const ui_app *a, ui_rect body, int x, stall_block *sb)
{
	memset(sb, 0, sizeof *sb);
	sb->b = ui_stalls_of(a);
	if (!sb->b)
		return;
	int counts = ui_ptx_counts_header(a) && ui_ptx_counts_of(a) ? 2 : 0;
	sb->x = x;
	sb->w = ui_stalls_width(body.x + body.w - 1 - x - counts - ui_pane_ptx_code_target(a));
}

void ui_pane_ptx_stall_cell(ui_frame *f, ui_rect body, int x, int sy, int w, int ascii, const exec_stalls_brief *b,
			    const exec_stalls_line *l)
{
	if (!w || ui_stalls_cycles(l) <= 0)
		return;
	static const uint32_t mark[2][3] = {{' ', 0x2592, 0x2588}, {' ', '+', '#'}};
	int heat = ui_stalls_heat(b, l);
	ui_frame_put(f, x, sy, mark[ascii != 0][heat], heat == 2 ? UI_ROLE_BAD : UI_ROLE_WARN);
	char c[16];
	if (w >= 11)
		util_cutf(c, sizeof c, "%-4s%3.0f%%", ui_stalls_short(l->top), 100 * ui_stalls_share(b, l));
	else if (w >= 7)
		util_cutf(c, sizeof c, "%-4s", ui_stalls_short(l->top));
	else
		return;
	ui_frame_text(f, body, x + 2, sy, c, heat ? UI_ROLE_EMPH : UI_ROLE_P_NUMBER);
}

/* The stall column's head, and, with no per-line counts beside it, what its short forms mean (or its
 * state in words while it has no result). */
static void stall_header(const ui_app *a, ui_frame *f, ui_rect body, const stall_block *sb, int counts)
{
	char h[320];
	int x = body.x + 1;
	if (sb->b && sb->w >= 7) {
		ui_frame_text(f, body, sb->x + 2, body.y, "stall", UI_ROLE_HEADING);
		x = sb->x + sb->w;
	}
	if (sb->b && !sb->w) {
		util_cutf(h, sizeof h, "stalls: no room beside the code (%s: zoom)", ui_key_name(UI_MODE_NORMAL, UI_ACT_ZOOM));
		ui_frame_text_fit(f, body, x, body.y, h, UI_ROLE_DIM);
		return;
	}
	if (counts)
		return;
	if (sb->b) {
		char legend[240];
		ui_stalls_legend(sb->b, legend, sizeof legend);
		util_cutf(h, sizeof h, "%s; %s: off", legend, ui_key_name(UI_MODE_NORMAL, UI_ACT_STALLS));
	} else {
		ui_stalls_state_text(a, h, sizeof h);
	}
	ui_frame_text_fit(f, body, x, body.y, h, UI_ROLE_DIM);
}

/* The header row: the columns' heads (a GPU run's from the emulator, at its size), or why there are none yet. */
static void counts_header(const ui_app *a, ui_frame *f, ui_rect body, const counts_block *cb)
{
	if (!cb->r) {
		const ui_run_slot *s = &a->slot[a->lesson];
		char why[320];
		if (s->have_lines < 0)
			util_cutf(why, sizeof why, "per-line counts: the emulator could not make them (%s)", s->lines.msg);
		else
			util_cutf(why, sizeof why, "per-line counts: emulating on the CPU beside the GPU run ...");
		ui_frame_text_fit(f, body, body.x + 1, body.y, why, UI_ROLE_DIM);
		return;
	}
	int x = cb->x + 2;
	char h[420];
	for (int i = 0; i < cb->ncol; i++) {
		util_cutf(h, sizeof h, "%*s", cb->col[i]->width, cb->col[i]->head);
		ui_frame_text(f, body, x, body.y, h, UI_ROLE_HEADING);
		x += cb->col[i]->width + 1;
		if (cb->base) {
			util_cutf(h, sizeof h, "%*s", cb->col[i]->width, "ours");
			ui_frame_text(f, body, x, body.y, h, UI_ROLE_DIM);
			x += cb->col[i]->width + 1;
		}
	}
	x += cb->base ? 2 : 0;
	char st[320];
	ui_stalls_state_text(a, st, sizeof st); /* the stall column has no result: said here, before the counts' note */
	if (st[0]) {
		ui_frame_text_fit(f, body, x + 1, body.y, st, UI_ROLE_DIM);
		return;
	}
	if (a->slot[a->lesson].res.backend != RUN_BACKEND_EMU) /* a GPU run's counts come from the emulator, at its size */
		util_cutf(h, sizeof h, "%s: hot; emulated at %lld^3", ui_key_name(UI_MODE_NORMAL, UI_ACT_HOT_LINE),
		    cb->r->emu.M);
	else
		util_cutf(h, sizeof h, "%s: hot", ui_key_name(UI_MODE_NORMAL, UI_ACT_HOT_LINE));
	if (cb->dropped) /* the code kept its room: the zoomed pane has them all */
		util_cutf(h + strlen(h), sizeof h - strlen(h), "; %s: all columns", ui_key_name(UI_MODE_NORMAL, UI_ACT_ZOOM));
	const ui_baseline *b = &a->base;
	if (cb->base)
		util_cutf(h + strlen(h), sizeof h - strlen(h), "; ours: shipped (%s), * differs, + new",
		    ui_key_name(UI_MODE_NORMAL, UI_ACT_BASELINE));
	else if (b->view && b->lesson == a->lesson && b->state == 2)
		util_cutf(h + strlen(h), sizeof h - strlen(h), "; ours: emulating the shipped kernel ...");
	else if (b->view && b->lesson == a->lesson && b->state < 0)
		util_cutf(h + strlen(h), sizeof h - strlen(h), "; ours: the shipped kernel did not run");
	if (cb->base && b->gone)
		util_cutf(h + strlen(h), sizeof h - strlen(h), "; %d of its lines gone", b->gone);
	const exec_stalls_brief *sb = ui_stalls_of(a);
	if (sb) { /* the stall column's short forms, where the row has room */
		char legend[240];
		ui_stalls_legend(sb, legend, sizeof legend);
		util_cutf(h + strlen(h), sizeof h - strlen(h), "; %s", legend);
	}
	ui_frame_text_fit(f, body, x + 1, body.y, h, UI_ROLE_DIM);
}

/* The role of the run's figure beside the baseline's: better (fewer, but
 * more lanes) good, worse bad; 0 when they are the same. */
static ui_role versus(const run_line_field *c, const run_line_counts *l, const run_line_counts *bl)
{
	static const run_line_counts none;
	double x = c->value(l ? l : &none), y = c->value(bl ? bl : &none);
	if (x == y || (x != x && y != y)) /* NaN: not measured on either side */
		return 0;
	int more_is_better = !strcmp(c->key, "lanes");
	return x != x || y != y ? UI_ROLE_WARN : (x > y) == more_is_better ? UI_ROLE_GOOD : UI_ROLE_BAD;
}

/* One line's figures: its heat mark (a block a projector shows; # and + in
 * ASCII), then the columns; nothing for a line without an instruction. With
 * the baseline, each column has the shipped kernel's figure of the line it
 * matches beside it (dim), the run's figure in good or bad where they differ,
 * and the row a mark: '*' a figure differs, '+' a line of the edit's own. */
static void counts_row(const ui_app *a, ui_frame *f, ui_rect body, int sy, int line, const counts_block *cb)
{
	const run_line_counts *l = ui_ptx_counts_line(cb->r, line + 1), *bl = NULL;
	int bline = cb->base && line < UI_BASE_LINES ? cb->base->of[line] : 0;
	if (bline)
		bl = ui_ptx_counts_line(&cb->base->res, bline);
	if (!l && !bl)
		return;
	int heat = l ? ui_ptx_counts_heat(cb->r, l) : 0;
	static const uint32_t mark[2][3] = {{' ', 0x2592, 0x2588}, {' ', '+', '#'}};
	ui_frame_put(f, cb->x, sy, mark[a->ascii != 0][heat], heat == 2 ? UI_ROLE_BAD : UI_ROLE_WARN);
	int x = cb->x + 2;
	char v[32], c[32];
	for (int i = 0; i < cb->ncol; i++) {
		int w = cb->col[i]->width;
		if (l) {
			run_line_format(cb->col[i], l, v, sizeof v);
			util_cutf(c, sizeof c, "%*s", w, v);
			ui_role vs = cb->base ? versus(cb->col[i], l, bl) : 0;
			ui_frame_text(f, body, x, sy, c,
				      vs ? vs : !strcmp(v, "-") ? UI_ROLE_DIM : heat ? UI_ROLE_EMPH : UI_ROLE_P_NUMBER);
		}
		x += w + 1;
		if (cb->base) {
			if (bl) {
				run_line_format(cb->col[i], bl, v, sizeof v);
				util_cutf(c, sizeof c, "%*s", w, v);
				ui_frame_text(f, body, x, sy, c, UI_ROLE_DIM);
			}
			x += w + 1;
		}
	}
	if (cb->base) {
		exec_baseline_row row = {line + 1, bline, l, bl};
		const char *m = exec_baseline_mark(&row);
		ui_frame_put(f, x, sy, !strcmp(m, "new") ? '+' : *m ? '*' : ' ', UI_ROLE_WARN);
	}
}

/* The line numbers' width. */
static int line_digits(const ui_ptx *p)
{
	int digits = 1;
	for (int v = p->doc.nlines; v >= 10; v /= 10)
		digits++;
	return digits;
}

int ui_pane_ptx_code_width(const ui_app *a)
{
	ui_rect body = ui_layout_body(a->layout.pane[UI_PANE_PTX]);
	const ui_ptx *p = &a->ptx[a->lesson];
	int digits = line_digits(p);
	stall_block sb;
	stall_layout(a, body, body.x + digits + 2, &sb);
	counts_block cb;
	counts_layout(a, body, body.x + digits + 2 + sb.w, &cb);
	return body.w - digits - 2 - sb.w - (cb.r ? cb.w : 0) - 1; /* the last column: the cut mark's */
}

void ui_pane_ptx_draw(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.pane[UI_PANE_PTX];
	if (r.h <= 0)
		return;
	const lesson *l = ui_app_lesson(a);
	const ui_ptx *p = &a->ptx[a->lesson];
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	char t[256];
	title(a, t, sizeof t);
	ui_frame_title(f, r, t, a->focus == UI_PANE_PTX);
	ui_rect body = ui_layout_body(r);
	if (!l->ptx_path[0] && !p->ok) {
		ui_frame_text(f, body, body.x + 1, body.y, "This lesson has no kernel.", UI_ROLE_DIM);
		return;
	}
	if (!p->ok) {
		ui_frame_text(f, body, body.x + 1, body.y, p->err[0] ? p->err : "PTX not loaded", UI_ROLE_BAD);
		return;
	}
	int n;
	ptx_row *rows = ui_app_ptx_rows(a, &n);
	int digits = line_digits(p);
	int counts_hdr = ui_ptx_counts_header(a);
	stall_block sb;
	stall_layout(a, body, body.x + digits + 2, &sb);
	counts_block cb;
	counts_layout(a, body, body.x + digits + 2 + sb.w, &cb);
	if (ui_ptx_header_row(a)) {
		if (counts_hdr)
			counts_header(a, f, body, &cb);
		stall_header(a, f, body, &sb, counts_hdr);
		body.y++, body.h--;
	}
	int top = ui_app_ptx_top(a, rows, n, body.h);
	int tx = body.x + digits + 2 + sb.w + (cb.r ? cb.w : 0);
	ui_rect code = {tx, body.y, body.x + body.w - tx - 1, body.h};
	for (int y = 0; y < body.h && top + y < n; y++) {
		const ptx_row *row = &rows[top + y];
		int sy = body.y + y;
		if (row->hidden < 0) {
			/* A mark's message, under its line. */
			const userptx_mark *m = &p->marks[-row->hidden - 1];
			char s[220];
			snprintf(s, sizeof s, "%s %s: %s", a->ascii ? "^" : "\u2191", m->error ? "error" : "warning", m->msg);
			ui_frame_text_fit(f, code, tx, sy, s, m->error ? UI_ROLE_BAD : UI_ROLE_WARN);
			continue;
		}
		int marked = 0;
		for (int m = 0; m < p->nmarks; m++)
			marked |= p->marks[m].line - 1 == row->line && !row->hidden;
		if (!row->hidden && ui_app_line_marked(a, row->line)) {
			ui_frame_flag(f, body.x, sy, body.w, UI_CELL_HL);
			ui_frame_put(f, body.x + digits, sy, g->mark, UI_ROLE_BAR_SELF);
		}
		if (row->hidden) {
			char s[96];
			snprintf(s, sizeof s, " %s %d more lines like these (z unfolds)", a->ascii ? "..." : "\u22EE",
				 row->hidden);
			ui_frame_text_fit(f, code, tx, sy, s, UI_ROLE_FOLD);
			continue;
		}
		char num[16];
		util_cutf(num, sizeof num, "%*d", digits, row->line + 1);
		ui_frame_text(f, body, body.x, sy, num, marked ? UI_ROLE_BAD : UI_ROLE_LINENO);
		if (!marked && a->ptx_cursor == row->line + 1) /* reverse video, inside a highlighted region too */
			ui_frame_hit(f, body.x, sy, digits);
		const exec_stalls_line *sl = sb.b ? ui_stalls_line(sb.b, row->line + 1) : NULL;
		if (sl)
			ui_pane_ptx_stall_cell(f, body, sb.x, sy, sb.w, a->ascii, sb.b, sl);
		if (cb.r)
			counts_row(a, f, body, sy, row->line, &cb);
		if (marked)
			ui_frame_put(f, body.x + digits, sy, a->ascii ? '!' : 0x2717, UI_ROLE_BAD);
		code_line(f, code, sy, p, &p->doc.lines[row->line], g->arrow,
			  a->hit_marks && a->found[0] ? a->found : NULL);
	}
	free(rows);
}

ui_role ui_ptx_role(int cls)
{
	return cls >= 0 && cls < PTX_NCLASSES ? class_role[cls] : UI_ROLE_NORMAL;
}
