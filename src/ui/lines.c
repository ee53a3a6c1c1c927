/* ui/lines: styled runs and lines, word wrapping, and the section and "label value note" rows of the text panes. */
#include "ui/lines.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void ui_run_put(ui_run *r, uint32_t cp, ui_role role)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->cp = xreallocarray(r->cp, (size_t)r->cap, sizeof *r->cp);
		r->role = xrealloc(r->role, (size_t)r->cap);
	}
	r->cp[r->n] = cp;
	r->role[r->n++] = (uint8_t)role;
}

void ui_run_puts(ui_run *r, const char *s, size_t n, ui_role role)
{
	for (size_t i = 0; i < n && s[i];) {
		int l;
		uint32_t cp = ui_utf8_decode(s + i, n - i, &l);
		i += (size_t)l;
		ui_run_put(r, cp == '\t' ? ' ' : cp, role);
	}
}

void ui_run_free(ui_run *r)
{
	free(r->cp);
	free(r->role);
	memset(r, 0, sizeof *r);
}

void ui_lines_init(ui_lines *t)
{
	memset(t, 0, sizeof *t);
	t->lcap = 32;
	t->start = xmalloc((size_t)t->lcap * sizeof *t->start);
	t->start[0] = 0;
	t->mark_first = t->mark_last = -1;
}

void ui_lines_free(ui_lines *t)
{
	free(t->cp);
	free(t->role);
	free(t->start);
}

void ui_lines_put(ui_lines *t, uint32_t cp, ui_role role)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->cp = xreallocarray(t->cp, (size_t)t->cap, sizeof *t->cp);
		t->role = xrealloc(t->role, (size_t)t->cap);
	}
	t->cp[t->n] = cp;
	t->role[t->n++] = (uint8_t)role;
}

void ui_lines_add(ui_lines *t, const char *s, ui_role role)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		int l;
		uint32_t cp = ui_utf8_decode(s + i, n - i, &l);
		i += (size_t)l;
		ui_lines_put(t, cp == '\t' ? ' ' : cp, role);
	}
}

void ui_lines_addf(ui_lines *t, ui_role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ui_lines_add(t, buf, role);
}

void ui_lines_add_run(ui_lines *t, const ui_run *r)
{
	for (int i = 0; i < r->n; i++)
		ui_lines_put(t, r->cp[i], (ui_role)r->role[i]);
}

void ui_lines_nl(ui_lines *t)
{
	if (t->nlines + 2 > t->lcap) {
		t->lcap *= 2;
		t->start = xreallocarray(t->start, (size_t)t->lcap, sizeof *t->start);
	}
	t->start[++t->nlines] = t->n;
}

int ui_lines_width(const ui_lines *t)
{
	return t->n - t->start[t->nlines];
}

static void indent_line(ui_lines *t, int indent)
{
	ui_lines_nl(t);
	for (int k = 0; k < indent; k++)
		ui_lines_put(t, ' ', UI_ROLE_NORMAL);
}

/* A word's code points as ASCII for the tables below ('?' for the rest),
 * without the punctuation around it: "(50.3" is "50.3", "M," is "M". */
static int word_ascii(const uint32_t *w, int n, char *out, int len)
{
	static const char lead[] = "([\"'", trail[] = ").,;:]\"'";
	while (n > 0 && w[0] < 128 && strchr(lead, (int)w[0]))
		w++, n--;
	while (n > 0 && w[n - 1] < 128 && strchr(trail, (int)w[n - 1]))
		n--;
	int o = 0;
	for (int i = 0; i < n && o < len - 1; i++)
		out[o++] = w[i] < 128 ? (char)w[i] : w[i] == 0xB5 || w[i] == 0x3BC ? 'u' : w[i] == 0xD7 ? 'x' : '?';
	out[o] = '\0';
	return o;
}

static int in_list(const char *w, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w, list[i]))
			return 1;
	return 0;
}

int ui_lines_unit_pair(const uint32_t *a, int na, const uint32_t *b, int nb)
{
	static const char *const units[] = {
		"B", "kB", "KB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "k", "M", "G", "T", "ms", "us", "ns", "s",
		"%", "FLOP/B", "FLOP", "FLOPs", "GFLOP/s", "TFLOP/s", "PFLOP/s", "GB/s", "TB/s", "B/s", "bytes",
		"bits", "cycles", "MHz", "GHz", "W", "x",
	};
	static const char *const counted[] = {"lesson", "Lesson", "lessons", "page", "Page"};
	char wa[24], wb[24];
	int la = word_ascii(a, na, wa, sizeof wa), lb = word_ascii(b, nb, wb, sizeof wb);
	if (la > 0 && wa[la - 1] >= '0' && wa[la - 1] <= '9' && in_list(wb, units, ARRAY_LEN(units)))
		return 1;
	return lb > 0 && wb[0] >= '0' && wb[0] <= '9' && in_list(wa, counted, ARRAY_LEN(counted));
}

int ui_lines_glued(const uint32_t *a, int na, const uint32_t *b, int nb)
{
	static const uint32_t ops[] = {'-', '+', '=', '/', '<', '>', 0x2212, 0xD7, 0xB7, 0x2248, 0x2264, 0x2265};
	for (size_t i = 0; i < ARRAY_LEN(ops); i++)
		if ((na == 1 && a[0] == ops[i]) || (nb == 1 && b[0] == ops[i]))
			return 1;
	return ui_lines_unit_pair(a, na, b, nb);
}

/* The end of the word at i (the first space after it). */
static int word_end(const uint32_t *cp, int i, int n)
{
	while (i < n && cp[i] != ' ')
		i++;
	return i;
}

/* The end of the run of glued words from i, as long as it stays within
 * room columns (the first word alone when not). */
static int group_end(const uint32_t *cp, int i, int n, int room)
{
	int j = word_end(cp, i, n), last = i;
	while (j < n) {
		int k = j;
		while (k < n && cp[k] == ' ')
			k++;
		if (k >= n)
			break;
		int e = word_end(cp, k, n);
		if (!ui_lines_glued(cp + last, j - last, cp + k, e - k) || e - i > room)
			break;
		last = k;
		j = e;
	}
	return j;
}

/* The longest word of r from i. */
static int longest_word(const uint32_t *cp, int i, int n)
{
	int m = 0;
	while (i < n) {
		int j = word_end(cp, i, n);
		if (j - i > m)
			m = j - i;
		i = j + 1;
	}
	return m;
}

void ui_lines_wrap(ui_lines *t, const ui_run *r, int w, int indent)
{
	const uint32_t *cp = r->cp;
	int i = 0, n = r->n;
	if (w < 1)
		w = 1;
	/* continuation lines start left of indent where a word would not fit after it */
	int lw = longest_word(cp, 0, n);
	if (indent > w - lw)
		indent = w - lw > 0 ? w - lw : 0;
	while (i < n) {
		while (i < n && cp[i] == ' ')
			i++;
		if (i >= n)
			break;
		int j = group_end(cp, i, n, w - indent);
		int cur = ui_lines_width(t);
		if (cur > indent && cur + 1 + (j - i) > w) {
			indent_line(t, indent);
			cur = indent;
		}
		if (cur > indent && t->cp[t->n - 1] != ' ')
			ui_lines_put(t, ' ', UI_ROLE_NORMAL);
		if (ui_lines_width(t) + (j - i) > w && !t->cuts++)
			t->cut_line = t->nlines;
		for (int k = i; k < j; k++) {
			if (ui_lines_width(t) >= w)
				indent_line(t, indent);
			ui_lines_put(t, cp[k], (ui_role)r->role[k]);
		}
		i = j;
	}
	ui_lines_nl(t);
}

void ui_lines_para(ui_lines *t, const char *s, ui_role role, int w, int indent)
{
	ui_run r = {0};
	ui_run_puts(&r, s, strlen(s), role);
	ui_lines_wrap(t, &r, w, indent);
	ui_run_free(&r);
}

void ui_lines_section(ui_lines *t, const char *title)
{
	ui_lines_add(t, title, UI_ROLE_HEADING);
	ui_lines_nl(t);
}

/* A note too long for the value's line that starts with the value's unit
 * ("393216" "bytes via TMA"): the unit goes beside its number (used grows);
 * returns the rest of the note. */
static const char *unit_after_value(ui_lines *t, const char *value, const char *note, int *used, int w)
{
	size_t un = strcspn(note, " ");
	if (note[un] != ' ' || *used + 2 + ui_utf8_width(note, strlen(note)) <= w)
		return note;
	ui_run v = {0}, u = {0};
	ui_run_puts(&v, value, strlen(value), UI_ROLE_NORMAL);
	ui_run_puts(&u, note, un, UI_ROLE_DIM);
	int unit = v.n > 0 && *used + 1 + u.n <= w && ui_lines_unit_pair(v.cp, v.n, u.cp, u.n);
	if (unit) {
		ui_lines_put(t, ' ', UI_ROLE_NORMAL);
		ui_lines_add_run(t, &u);
		*used += 1 + u.n;
		note += un + 1;
	}
	ui_run_free(&v);
	ui_run_free(&u);
	return note;
}

void ui_lines_kv(ui_lines *t, const char *label, const char *value, ui_role role, const char *note, int w)
{
	int narrow = w < 40, lw = narrow ? 13 : 16;
	const char *bar = strchr(label, '|');
	const char *l = label;
	int ln = bar ? (int)(bar - label) : (int)strlen(label);
	if (bar && narrow) {
		l = bar + 1;
		ln = (int)strlen(l);
	}
	/* " label" in lw - 1 columns, then a space. */
	int room = lw - 2;
	if (ln > room)
		ui_lines_addf(t, UI_ROLE_NORMAL, " %.*s. ", room - 1, l);
	else
		ui_lines_addf(t, UI_ROLE_NORMAL, " %-*.*s ", room, ln, l);
	int used = lw + ui_utf8_width(value, strlen(value));
	if (used > w) { /* a value wider than its room wraps under itself, at its words */
		ui_lines_para(t, value, role, w, lw);
		used = w + 1;
	} else {
		ui_lines_add(t, value, role);
	}
	if (note && *note && used <= w)
		note = unit_after_value(t, value, note, &used, w);
	if (note && *note) {
		int nw = ui_utf8_width(note, strlen(note));
		if (used + 2 + nw <= w) {
			ui_lines_add(t, "  ", UI_ROLE_NORMAL);
			ui_lines_add(t, note, UI_ROLE_DIM);
		} else {
			/* on a line of its own, under the value, or left of it where a word would not fit */
			if (used <= w)
				ui_lines_nl(t);
			ui_run r = {0};
			ui_run_puts(&r, note, strlen(note), UI_ROLE_DIM);
			int ind = w - longest_word(r.cp, 0, r.n);
			ind = ind < lw ? (ind > 1 ? ind : 1) : lw;
			ui_lines_addf(t, UI_ROLE_NORMAL, "%*s", ind, "");
			ui_lines_wrap(t, &r, w, ind);
			ui_run_free(&r);
			return;
		}
	} else if (used > w) {
		return; /* ui_lines_para ended the line */
	}
	ui_lines_nl(t);
}
