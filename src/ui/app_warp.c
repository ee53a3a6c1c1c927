/* ui/app_warp: a warp's view of one memory access — w opens it on a PTX line, its keys step the execution, warp and block; a page's @warpview is remade with the model. The emulator records it (exec/warpview.h), one block at the emulation size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "run/launch.h"
#include "ui/app_internal.h"

/* How many memory lines of a region a page's view tries before it gives up. */
#define UI_WARP_TRIES 16

/* Whether a PTX source line is a global or shared access the view can draw. */
static int is_memory_line(const char *s, int n)
{
	static const char *const ops[] = {"ld.global", "st.global", "ld.shared", "st.shared", "cp.async.ca",
					  "cp.async.cg", "ldmatrix"};
	char t[256];
	snprintf(t, sizeof t, "%.*s", n, s);
	char *c = strstr(t, "//");
	if (c)
		*c = 0;
	for (size_t i = 0; i < ARRAY_LEN(ops); i++)
		if (strstr(t, ops[i]))
			return 1;
	return 0;
}

/* The nth (1: the first) memory line among 1-based lines from..to; 0 when none. */
static int memory_line(const ptx_doc *d, int from, int to, int nth)
{
	for (int ln = from < 1 ? 1 : from; ln <= to && ln <= d->nlines; ln++) {
		const ptx_line *pl = &d->lines[ln - 1];
		if (is_memory_line(d->text + pl->off, pl->len) && --nth == 0)
			return ln;
	}
	return 0;
}

/* A @warpview target, "LINE" or "REGION [N]": the line (1-based), or the
 * region's lines and N; 0 when the PTX has no such line or region. */
static int page_target(const ui_ptx *p, const char *spec, int *first, int *last, int *nth)
{
	char name[48];
	char *end;
	long line = strtol(spec, &end, 10);
	*nth = 1;
	if (end != spec && !*end) {
		*first = *last = (int)line;
		return line > 0 && line <= p->doc.nlines;
	}
	if (sscanf(spec, "%47s %d", name, nth) < 1)
		return 0;
	const ptx_region *r = ptx_region_find(&p->doc, name);
	if (!r)
		return 0;
	*first = r->first + 1, *last = r->last + 1;
	return 1;
}

/* The request the view records from: the lesson at its emulation size, with
 * the what-ifs, from the student's copy when there is one. */
static int warp_request(const ui_app *a, run_request *rq, char *err, int errlen)
{
	const lesson *l = ui_app_lesson(a);
	long long e = launch_emulation_size(l, &a->whatif);
	if (!e) {
		snprintf(err, (size_t)errlen, "no size of 128, 256 or 512 cubed suits this lesson for emulation");
		return -1;
	}
	if (launch_request_for_lesson(l, &a->whatif, e, e, e, rq, err, errlen) < 0)
		return -1;
	const ui_ptx *p = &a->ptx[a->lesson];
	if (p->edited)
		util_strlcpy(rq->ptx_path, p->path, sizeof rq->ptx_path);
	launch_target(rq, RUN_BACKEND_EMU, RUN_KIND_RUN, &(launch_limits){.timeout_s = a->deadline_s});
	return 0;
}

/* exec_warp_record, answered from a->warp_memo when the same access of the
 * same request and PTX was recorded before (a page's view is remade at
 * every select). */
static int record(ui_app *a, const run_request *rq, exec_warp_access *wa, char *err, int errlen)
{
	unsigned gen = a->est.gen;
	for (int i = 0; i < UI_WARP_MEMOS; i++) {
		const ui_warp_memo *m = &a->warp_memo[i];
		if (m->used && m->gen == gen && !memcmp(&m->rq, rq, sizeof *rq) && m->wa.line == wa->line &&
		    !memcmp(m->wa.block, wa->block, sizeof wa->block) && m->wa.warp == wa->warp && m->wa.nth == wa->nth) {
			*wa = m->wa;
			snprintf(err, (size_t)errlen, "%s", m->err);
			return m->rc;
		}
	}
	ui_warp_memo *m = &a->warp_memo[a->warp_memo_next];
	a->warp_memo_next = (a->warp_memo_next + 1) % UI_WARP_MEMOS;
	*m = (ui_warp_memo){.used = 1, .gen = gen, .rq = *rq};
	m->rc = exec_warp_record(rq, wa, m->err, sizeof m->err);
	m->wa = *wa;
	snprintf(err, (size_t)errlen, "%s", m->err);
	return m->rc;
}

/* Records v's asked access and writes its rows, the PTX line first. */
static void make(ui_app *a, ui_warpview *v)
{
	v->have = 0;
	v->nrows = 0;
	v->err[0] = 0;
	const ui_ptx *p = &a->ptx[a->lesson];
	run_request rq;
	if (!p->ok) {
		util_strlcpy(v->err, "no PTX", sizeof v->err);
		return;
	}
	if (warp_request(a, &rq, v->err, sizeof v->err) < 0)
		return;
	v->size = rq.M;
	if (record(a, &rq, &v->wa, v->err, sizeof v->err) < 0)
		return;
	const ptx_line *pl = &p->doc.lines[v->wa.line - 1];
	const char *s = p->doc.text + pl->off;
	int n = pl->len;
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	snprintf(v->rows[0], EXEC_WARP_COLS, "%d: %.*s", v->wa.line, n, s);
	v->head = 1;
	/* the CUDA line it came from, named as every message names it, and its source */
	const char *file;
	int cu = ptx_loc_of(p->locs, v->wa.line, &file);
	if (cu) {
		const char *base = strrchr(file, '/');
		char src[EXEC_WARP_COLS] = "";
		if (p->cu_text && cu <= p->cu_nlines)
			snprintf(src, sizeof src, "%.*s", p->cu_off[cu] - p->cu_off[cu - 1], p->cu_text + p->cu_off[cu - 1]);
		char *t = src + strspn(src, " \t");
		t[strcspn(t, "\r\n")] = '\0';
		snprintf(v->rows[1], EXEC_WARP_COLS, "%s:%d: %s", base ? base + 1 : file, cu, t);
		v->head = 2;
	}
	for (int r = 0; r < v->head; r++)
		for (char *c = v->rows[r]; *c; c++)
			*c = *c == '\t' ? ' ' : *c;
	v->nrows = v->head + exec_warp_rows(&v->wa, v->rows + v->head, EXEC_WARP_ROWS - v->head);
	v->have = 1;
}

void app_warp_page(ui_app *a)
{
	const lesson_page *pg = ui_app_page(a);
	ui_warpview *v = &a->page_warp;
	memset(v, 0, sizeof *v);
	if (!pg || !pg->warpview[0] || !a->ptx[a->lesson].ok)
		return;
	const ptx_doc *d = &a->ptx[a->lesson].doc;
	int first, last, nth;
	if (!page_target(&a->ptx[a->lesson], pg->warpview, &first, &last, &nth)) {
		snprintf(v->err, sizeof v->err, "@warpview %s: no such line or region in the PTX", pg->warpview);
		return;
	}
	/* A region's Nth memory line, or the next one the first warp executes:
	 * a what-if (TILE=16) can send it down another path of the kernel. */
	for (int i = nth; i < nth + UI_WARP_TRIES; i++) {
		memset(&v->wa, 0, sizeof v->wa);
		v->wa.line = first == last ? first : memory_line(d, first, last, i);
		if (!v->wa.line)
			break;
		make(a, v);
		if (first == last || !v->have || v->wa.found)
			return;
	}
	if (!v->have && !v->err[0])
		snprintf(v->err, sizeof v->err, "@warpview %s: the first warp executes no memory line there", pg->warpview);
}

void app_act_warp(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const ui_ptx *p = &a->ptx[a->lesson];
	if (!p->ok || p->example) {
		app_say(a, 0, "This lesson has no kernel to look into.");
		return;
	}
	/* the cursor's line or the next memory line; else the page's region's
	 * first, else the first after the region, else the kernel's first */
	int f = -1, l = -1, line;
	int cu_first = ui_app_cuda_shown(a) && a->cu_focus ? ui_app_cu_first_ptx(a, a->cu_line) : 0;
	if (cu_first > 0) /* the CUDA cursor's line: its first memory line, or the next one */
		line = memory_line(&p->doc, cu_first, p->doc.nlines, 1);
	else if (a->ptx_cursor > 0)
		line = memory_line(&p->doc, a->ptx_cursor, p->doc.nlines, 1);
	else {
		ui_app_region_lines(a, a->region, &f, &l);
		line = memory_line(&p->doc, f + 1, l + 1, 1);
		if (!line)
			line = memory_line(&p->doc, f + 1, p->doc.nlines, 1);
		if (!line)
			line = memory_line(&p->doc, 1, p->doc.nlines, 1);
	}
	if (!line) {
		app_say(a, 0, "No global or shared memory access from here on (%s selects a line).",
			ui_key_name(UI_MODE_NORMAL, UI_ACT_HOT_LINE));
		return;
	}
	memset(&a->warp, 0, sizeof a->warp);
	a->warp.wa.line = line;
	make(a, &a->warp);
	if (!a->warp.have) {
		app_say(a, 1, "%s", a->warp.err);
		return;
	}
	a->mode = UI_MODE_WARP;
}

/* The box's keys: one step of the execution, the warp or the block (x,
 * then y, then z); a step past the end is refused with the reason. */
void app_act_warp_step(ui_app *a, ui_action act, int key)
{
	(void)key;
	exec_warp_access was = a->warp.wa;
	exec_warp_access *w = &a->warp.wa;
	int d = act == UI_ACT_WARP_NEXT || act == UI_ACT_WARP_NEXT_WARP || act == UI_ACT_WARP_NEXT_BLOCK ? 1 : -1;
	if (act == UI_ACT_WARP_NEXT || act == UI_ACT_WARP_PREV)
		w->nth += d;
	else if (act == UI_ACT_WARP_NEXT_WARP || act == UI_ACT_WARP_PREV_WARP)
		w->warp += d, w->nth = 0;
	else {
		run_request rq;
		char err[256];
		if (warp_request(a, &rq, err, sizeof err) < 0)
			return;
		unsigned g[3] = {rq.grid[0] ? rq.grid[0] : 1, rq.grid[1] ? rq.grid[1] : 1, rq.grid[2] ? rq.grid[2] : 1};
		long long b = w->block[0] + (long long)g[0] * (w->block[1] + (long long)g[1] * w->block[2]) + d;
		long long nb = (long long)g[0] * g[1] * g[2];
		b = (b % nb + nb) % nb;
		w->block[0] = (unsigned)(b % g[0]), w->block[1] = (unsigned)(b / g[0] % g[1]);
		w->block[2] = (unsigned)(b / g[0] / g[1]);
		w->nth = 0;
	}
	if (w->nth < 0 || w->warp < 0) {
		*w = was;
		app_say(a, 0, "This is the first.");
		return;
	}
	make(a, &a->warp);
	if (!a->warp.have || !a->warp.wa.found) {
		char why[256];
		snprintf(why, sizeof why, "%s", a->warp.have ? a->warp.rows[a->warp.head] : a->warp.err);
		a->warp.wa = was;
		make(a, &a->warp);
		app_say(a, 0, "%s", why);
	}
}
