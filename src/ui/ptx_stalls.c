/* ui/ptx_stalls: the stall model's result as the panes show it (see ptx_stalls.h). */
#include "ui/ptx_stalls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/ptx_counts.h"

/* In model/stalls.h's order (STALL_REASONS). */
static const char *const short_names[STALL_NREASONS] = {
	[STALL_LONG_SB] = "lsb", [STALL_SHORT_SB] = "ssb", [STALL_WAIT] = "wait", [STALL_BARRIER] = "bar",
	[STALL_MEMBAR] = "mbar", [STALL_MIO] = "mio", [STALL_LG] = "lg", [STALL_MATH] = "math",
	[STALL_DISPATCH] = "disp", [STALL_NOT_SELECTED] = "nsel", [STALL_SELECTED] = "sel",
};

const char *ui_stalls_short(int reason)
{
	return reason >= 0 && reason < STALL_NREASONS ? short_names[reason] : "?";
}

void ui_stalls_legend(const exec_stalls_brief *b, char *s, size_t len)
{
	int on[STALL_NREASONS] = {0};
	for (int i = 0; b && i < b->nlines; i++)
		if (b->lines[i].top >= 0 && b->lines[i].top < STALL_NREASONS)
			on[b->lines[i].top] = 1;
	size_t o = 0;
	s[0] = '\0';
	for (int k = 0; k < STALL_NREASONS && o < len; k++)
		if (!b || on[k]) {
			int n = snprintf(s + o, len - o, "%s%s %s", o ? ", " : "", short_names[k],
					 stall_reason_name((stall_reason)k));
			o += n > 0 ? (size_t)n : 0;
		}
}

const exec_stalls_brief *ui_stalls_of(const ui_app *a)
{
	const ui_stalls *st = &a->stalls;
	return st->view && !a->sass_view && st->state == UI_STALLS_DONE && st->b ? st->b : NULL;
}

int ui_ptx_header_row(const ui_app *a)
{
	return ui_ptx_counts_header(a) || (a->stalls.view && !a->sass_view && ui_app_lesson(a)->ptx_path[0]);
}

void ui_stalls_state_text(const ui_app *a, char *s, size_t len)
{
	const ui_stalls *st = &a->stalls;
	s[0] = '\0';
	if (!st->view || a->sass_view)
		return;
	if (st->state == UI_STALLS_WANT || st->state == UI_STALLS_BUSY)
		util_cutf(s, len, "stalls: modelling one SM ...");
	else if (st->state == UI_STALLS_FAILED)
		util_cutf(s, len, "stalls: none (%s)", st->why);
}

const exec_stalls_line *ui_stalls_line(const exec_stalls_brief *b, int line)
{
	int lo = 0, hi = b->nlines - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (b->lines[mid].line == line)
			return &b->lines[mid];
		if (b->lines[mid].line < line)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

double ui_stalls_cycles(const exec_stalls_line *l)
{
	double c = 0;
	for (int k = 0; k < STALL_NREASONS; k++)
		c += l->cyc[k];
	return c;
}

double ui_stalls_share(const exec_stalls_brief *b, const exec_stalls_line *l)
{
	return b->warp_cycles > 0 ? ui_stalls_cycles(l) / b->warp_cycles : 0;
}

int ui_stalls_heat(const exec_stalls_brief *b, const exec_stalls_line *l)
{
	double s = ui_stalls_share(b, l);
	return s >= UI_HOT_SHARE ? 2 : s >= UI_WARM_SHARE ? 1 : 0;
}

int ui_stalls_width(int room)
{
	static const int widths[] = {11, 7, 2};
	for (size_t i = 0; i < ARRAY_LEN(widths); i++)
		if (widths[i] <= room)
			return widths[i];
	return 0;
}

exec_stalls_line *ui_stalls_cu_rows(const ui_app *a, const exec_stalls_brief *b)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	if (!b || !p->locs || !p->cu_text || p->cu_nlines <= 0)
		return NULL;
	exec_stalls_line *rows = xcalloc((size_t)p->cu_nlines + 1, sizeof *rows);
	for (int i = 0; i < b->nlines; i++) {
		int cu = ui_app_cu_line_of(a, b->lines[i].line);
		if (cu <= 0 || cu > p->cu_nlines)
			continue;
		rows[cu].line = cu;
		rows[cu].issued += b->lines[i].issued;
		for (int k = 0; k < STALL_NREASONS; k++)
			rows[cu].cyc[k] += b->lines[i].cyc[k];
	}
	for (int i = 1; i <= p->cu_nlines; i++) {
		double c[STALL_NREASONS];
		for (int k = 0; k < STALL_NREASONS; k++)
			c[k] = rows[i].cyc[k];
		rows[i].top = (int)stall_top(c);
	}
	return rows;
}

/* The opcode of 1-based PTX line `line`, its guard left out and cut after its first qualifier (what it
 * does, where): "ld.global", "mma.sync", "mbarrier.try_wait" — short enough for a narrow pane. */
static void opcode_of(const ui_ptx *p, int line, char *s, size_t len)
{
	s[0] = '\0';
	if (!p->ok || line < 1 || line > p->doc.nlines)
		return;
	const char *t = p->doc.text + p->doc.lines[line - 1].off, *e = t + p->doc.lines[line - 1].len;
	while (t < e && (*t == ' ' || *t == '\t'))
		t++;
	if (t < e && *t == '@') /* the guard predicate */
		while (t < e && *t != ' ' && *t != '\t')
			t++;
	while (t < e && (*t == ' ' || *t == '\t'))
		t++;
	size_t n = 0;
	int dots = 0;
	while (t + n < e && t[n] != ' ' && t[n] != '\t' && t[n] != ';' && n + 1 < len && !(t[n] == '.' && dots++))
		n++;
	memcpy(s, t, n);
	s[n] = '\0';
}

void ui_stalls_summary(const ui_app *a, const exec_stalls_brief *b, char *value, size_t vlen, char *note, size_t nlen)
{
	util_cutf(value, vlen, "issue active %.0f%%", 100 * b->issue_active);
	stall_reason top = stall_top(b->total);
	int at = -1;
	for (int i = 0; i < b->nlines; i++)
		if (at < 0 || b->lines[i].cyc[top] > b->lines[at].cyc[top])
			at = i;
	double share = b->warp_cycles > 0 ? b->total[top] / b->warp_cycles : 0;
	char op[48];
	if (at < 0 || b->lines[at].cyc[top] <= 0) {
		util_cutf(note, nlen, "waiting: %s %.0f%%", stall_reason_name(top), 100 * share);
		return;
	}
	opcode_of(&a->ptx[a->lesson], b->lines[at].line, op, sizeof op);
	int from = b->lines[at].for_line[0]; /* the result it waits for longest, where it is another line's */
	char fop[48], fs[80] = "";
	if (from > 0 && from != b->lines[at].line) {
		opcode_of(&a->ptx[a->lesson], from, fop, sizeof fop);
		snprintf(fs, sizeof fs, " for line %d `%s`", from, fop);
	}
	util_cutf(note, nlen, "waiting: %s %.0f%% at line %d `%s`%s", stall_reason_name(top), 100 * share,
		  b->lines[at].line, op, fs);
}
