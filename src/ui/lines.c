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

void ui_lines_wrap(ui_lines *t, const ui_run *r, int w, int indent)
{
	const uint32_t *cp = r->cp;
	int i = 0, n = r->n;
	if (w < indent + 8)
		w = indent + 8;
	while (i < n) {
		while (i < n && cp[i] == ' ')
			i++;
		if (i >= n)
			break;
		int j = i;
		while (j < n && cp[j] != ' ')
			j++;
		int cur = ui_lines_width(t);
		if (cur > indent && cur + 1 + (j - i) > w) {
			indent_line(t, indent);
			cur = indent;
		}
		if (cur > indent)
			ui_lines_put(t, ' ', UI_ROLE_NORMAL);
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
	ui_lines_add(t, value, role);
	int used = lw + ui_utf8_width(value, strlen(value));
	if (note && *note) {
		int nw = ui_utf8_width(note, strlen(note));
		if (used + 2 + nw <= w) {
			ui_lines_add(t, "  ", UI_ROLE_NORMAL);
			ui_lines_add(t, note, UI_ROLE_DIM);
		} else {
			ui_lines_nl(t);
			ui_lines_addf(t, UI_ROLE_NORMAL, "%*s", lw, "");
			ui_lines_para(t, note, UI_ROLE_DIM, w, lw);
			return;
		}
	}
	ui_lines_nl(t);
}
