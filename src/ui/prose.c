/* ui/prose: the lesson text renderer — Markdown blocks and inline markup into styled lines, placeholders filled from the model. */
#include "ui/prose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "course/cond.h"
#include "model/calc.h"

static int isalnum_ascii(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* {key} at s (n bytes): the key's length (> 0) when s holds one, else 0. */
static size_t placeholder(const char *s, size_t n)
{
	size_t j = 1;
	while (j < n && (isalnum_ascii(s[j]) || s[j] == '.' || s[j] == '_'))
		j++;
	return j < n && s[j] == '}' && j > 1 ? j - 1 : 0;
}

static void fill(ui_run *r, const model_result *m, const char *key, size_t kl)
{
	char k[64];
	if (kl > sizeof k - 1)
		kl = sizeof k - 1;
	memcpy(k, key, kl);
	k[kl] = '\0';
	if (m && model_known(k)) {
		char val[96];
		model_format(m, k, val, sizeof val);
		ui_run_puts(r, val, strlen(val), UI_ROLE_EMPH);
	} else {
		ui_run_puts(r, "{", 1, UI_ROLE_WARN);
		ui_run_puts(r, k, kl, UI_ROLE_WARN);
		ui_run_puts(r, "}", 1, UI_ROLE_WARN);
	}
}

void ui_prose_inline(ui_run *r, const model_result *m, const char *s, size_t n, ui_role base)
{
	int code = 0, bold = 0;
	for (size_t i = 0; i < n;) {
		char c = s[i];
		if (c == '`') {
			code = !code;
			i++;
			continue;
		}
		if (!code && c == '*' && i + 1 < n && s[i + 1] == '*') {
			bold = !bold;
			i += 2;
			continue;
		}
		size_t kl = !code && c == '{' ? placeholder(s + i, n - i) : 0;
		if (kl) {
			fill(r, m, s + i + 1, kl);
			i += kl + 2;
			continue;
		}
		int l;
		uint32_t cp = ui_utf8_decode(s + i, n - i, &l);
		i += (size_t)l;
		ui_run_put(r, cp == '\t' ? ' ' : cp, code ? UI_ROLE_CODE : bold ? UI_ROLE_EMPH : base);
	}
}

/* A list item's marker ("- ", "* ", "+ ", "12. "): its length, else 0. */
static int starts_block(const char *s, size_t n)
{
	if (n >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ')
		return 2;
	size_t i = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i > 0 && i + 1 < n && s[i] == '.' && s[i + 1] == ' ')
		return (int)i + 2;
	return 0;
}

/* The paragraph gathered so far, wrapped onto t. */
static void flush(ui_lines *t, ui_run *para, int w, int indent)
{
	if (para->n) {
		ui_lines_wrap(t, para, w, indent);
		para->n = 0;
	}
}

/* A fenced code line: kept as written (re-flowing would break the
 * pictures); one wider than the pane wraps, its continuation rows starting
 * with a dim '>', so nothing is cut. */
static void code_line(ui_lines *t, const char *s, size_t n, int w)
{
	ui_run r = {0};
	ui_run_puts(&r, "  ", 2, UI_ROLE_CODE);
	ui_run_puts(&r, s, n, UI_ROLE_CODE);
	int i = 0;
	do {
		int room = w;
		if (i > 0) {
			ui_lines_put(t, '>', UI_ROLE_DIM);
			ui_lines_put(t, ' ', UI_ROLE_CODE);
			room = w > 4 ? w - 2 : 2;
		}
		for (int k = 0; k < room && i < r.n; k++, i++)
			ui_lines_put(t, r.cp[i], (ui_role)r.role[i]);
		ui_lines_nl(t);
	} while (i < r.n);
	ui_run_free(&r);
}

/* A block quote's line ("> text" or ">"): the length of its marker, else 0. */
static size_t quote_mark(const char *s, size_t n)
{
	if (n == 0 || s[0] != '>')
		return 0;
	return n > 1 && s[1] == ' ' ? 2 : 1;
}

/* An @if condition of the page (course/cond.h), read by the lessons'
 * expression language over the model; one that does not evaluate (or no
 * model) is false, and tests/test_render_lint.c requires every one to. */
static int prose_cond(const char *expr, void *ctx)
{
	const model_result *m = ctx;
	if (!m)
		return 0;
	double v = calc_eval(expr, m, CALC_KEYS, NULL, 0);
	return !isnan(v) && v != 0;
}

void ui_prose(ui_lines *t, const model_result *m, const char *text, int w)
{
	ui_run para = {0};
	int indent = 0, in_code = 0, in_quote = 0;
	/* The branches of @if/@else/@endif this model takes; the rest are gone. */
	char *chosen = text ? cond_select(text, prose_cond, (void *)m) : NULL;
	const char *p = chosen;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *s = p;
		p = nl ? nl + 1 : NULL;
		size_t lead = 0;
		while (lead < n && s[lead] == ' ')
			lead++;
		if (n - lead >= 3 && !strncmp(s + lead, "```", 3)) {
			flush(t, &para, w, indent);
			in_code = !in_code;
			continue;
		}
		if (in_code) {
			code_line(t, s, n, w);
			continue;
		}
		size_t q = quote_mark(s + lead, n - lead);
		if (q && lead + q == n) { /* "> " alone: a paragraph break inside the quote */
			flush(t, &para, w, indent);
			in_quote = 0;
			continue;
		}
		if (q) {
			/* One "> " marks the quote where it starts; the markers of the
			 * lines it continues on are not text (review 9.7). */
			if (!in_quote) {
				flush(t, &para, w, indent);
				/* not dim: a dim '>' starts a wrapped code line */
				ui_lines_put(t, '>', UI_ROLE_NORMAL);
				ui_lines_put(t, ' ', UI_ROLE_NORMAL);
				indent = 2;
				in_quote = 1;
			} else
				ui_run_put(&para, ' ', UI_ROLE_NORMAL);
			ui_prose_inline(&para, m, s + lead + q, n - lead - q, UI_ROLE_NORMAL);
			continue;
		}
		in_quote = 0;
		if (lead == n) { /* blank: paragraph break */
			flush(t, &para, w, indent);
			if (t->nlines > 0 && t->start[t->nlines] - t->start[t->nlines - 1] > 0)
				ui_lines_nl(t);
			continue;
		}
		if (s[lead] == '#') {
			flush(t, &para, w, indent);
			size_t h = lead;
			while (h < n && s[h] == '#')
				h++;
			while (h < n && s[h] == ' ')
				h++;
			ui_prose_inline(&para, m, s + h, n - h, UI_ROLE_HEADING);
			indent = 0;
			flush(t, &para, w, indent);
			continue;
		}
		if (s[lead] == '|') { /* a table row: as written */
			flush(t, &para, w, indent);
			ui_prose_inline(&para, m, s, n, UI_ROLE_NORMAL);
			ui_lines_add_run(t, &para);
			ui_lines_nl(t);
			para.n = 0;
			continue;
		}
		int b = starts_block(s + lead, n - lead);
		if (b) {
			flush(t, &para, w, indent);
			indent = (int)lead + b;
			for (int i = 0; i < (int)lead; i++)
				ui_lines_put(t, ' ', UI_ROLE_NORMAL);
			ui_run mark = {0};
			ui_run_puts(&mark, s + lead, (size_t)b, UI_ROLE_EMPH);
			ui_lines_add_run(t, &mark);
			ui_run_free(&mark);
			ui_prose_inline(&para, m, s + lead + b, n - lead - (size_t)b, UI_ROLE_NORMAL);
			continue;
		}
		if (para.n)
			ui_run_put(&para, ' ', UI_ROLE_NORMAL);
		else
			indent = indent && lead >= (size_t)indent ? indent : 0;
		ui_prose_inline(&para, m, s + lead, n - lead, UI_ROLE_NORMAL);
	}
	flush(t, &para, w, indent);
	ui_run_free(&para);
	free(chosen);
}
