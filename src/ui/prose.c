/* ui/prose: the lesson text renderer — Markdown blocks and inline markup into styled lines, placeholders filled from the model. */
#include "ui/prose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
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

/* ---- tables ---- */

#define TABLE_COLS 16

/* A table row's cells, each as styled text. */
typedef struct {
	ui_run cell[TABLE_COLS];
	int n;
} table_row;

/* The |---|:--:| row under a table's head: bars, dashes, colons, spaces. */
static int table_rule(const char *s, size_t n)
{
	int dash = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '-')
			dash = 1;
		else if (s[i] != '|' && s[i] != ':' && s[i] != ' ')
			return 0;
	}
	return dash;
}

/* "| a | `b|c` | d |" into its cells (a bar inside `code` is text). */
static void table_split(table_row *r, const model_result *m, const char *s, size_t n, ui_role role)
{
	size_t i = s[0] == '|' ? 1 : 0, end = n;
	while (end > i && s[end - 1] == ' ')
		end--;
	if (end > i && s[end - 1] == '|')
		end--;
	r->n = 0;
	while (i <= end && r->n < TABLE_COLS) {
		size_t j = i;
		int code = 0;
		while (j < end && (code || s[j] != '|')) {
			code ^= s[j] == '`';
			j++;
		}
		size_t a = i, b = j;
		while (a < b && s[a] == ' ')
			a++;
		while (b > a && s[b - 1] == ' ')
			b--;
		ui_run *c = &r->cell[r->n++];
		c->n = 0;
		ui_prose_inline(c, m, s + a, b - a, role);
		i = j + 1;
	}
}

/* Where a cell's lines break at width w, at spaces: line k is [at[k],
 * at[k + 1]). Returns the number of lines (at least 1, at most max). The
 * widths chosen never ask for less than a cell's longest word. */
static int cell_lines(const ui_run *c, int w, int *at, int max)
{
	int n = 1, i = 0;
	at[0] = 0;
	while (i < c->n) {
		while (i < c->n && c->cp[i] == ' ')
			i++;
		int j = i;
		while (j < c->n && c->cp[j] != ' ')
			j++;
		if (j > i && j - at[n - 1] > w && i > at[n - 1] && n < max)
			at[n++] = i;
		i = j;
	}
	at[n] = c->n;
	return n;
}

/* Columns of a cell's longest word. */
static int longest_word(const ui_run *c)
{
	int best = 0, cur = 0;
	for (int i = 0; i < c->n; i++) {
		cur = c->cp[i] == ' ' ? 0 : cur + 1;
		best = cur > best ? cur : best;
	}
	return best;
}

/* The columns' widths for a pane of w columns, two spaces between them:
 * each as wide as its widest cell when they fit, else the widest ones
 * narrowed (their cells wrap at spaces) down to their longest word.
 * Returns 0, or -1 when even that is too wide. */
static int table_widths(const table_row *rows, int nrows, int ncols, int w, int *width)
{
	int nat[TABLE_COLS] = {0}, min[TABLE_COLS] = {0}, sum = 0;
	for (int r = 0; r < nrows; r++)
		for (int c = 0; c < rows[r].n; c++) {
			int cw = rows[r].cell[c].n, lw = longest_word(&rows[r].cell[c]);
			nat[c] = cw > nat[c] ? cw : nat[c];
			min[c] = lw > min[c] ? lw : min[c];
		}
	int room = w - 2 * (ncols - 1);
	for (int c = 0; c < ncols; c++) {
		width[c] = nat[c];
		sum += nat[c];
	}
	/* Narrow the widest column one step at a time, down to its floor. */
	while (sum > room) {
		int wide = -1;
		for (int c = 0; c < ncols; c++)
			if (width[c] > min[c] && (wide < 0 || width[c] > width[wide]))
				wide = c;
		if (wide < 0)
			return -1;
		width[wide]--;
		sum--;
	}
	return 0;
}

/* One table row onto t, its cells wrapped in their columns; its first
 * line starts with *prefix, which then becomes rest (a quote's marker, then
 * its indent). */
static void table_line(ui_lines *t, const table_row *row, const int *width, int ncols, const char **prefix,
		       const char *rest)
{
	enum { MAXL = 64 };
	int at[TABLE_COLS][MAXL + 1], nl[TABLE_COLS], h = 1;
	for (int c = 0; c < ncols; c++) {
		nl[c] = c < row->n ? cell_lines(&row->cell[c], width[c], at[c], MAXL) : 0;
		h = nl[c] > h ? nl[c] : h;
	}
	for (int k = 0; k < h; k++) {
		ui_lines_add(t, *prefix, UI_ROLE_NORMAL);
		*prefix = rest;
		int pad = 0;
		for (int c = 0; c < ncols; c++) {
			int used = 0;
			if (k < nl[c]) {
				const ui_run *cell = &row->cell[c];
				int b = at[c][k], e = at[c][k + 1];
				while (b < e && cell->cp[b] == ' ')
					b++;
				while (e > b && cell->cp[e - 1] == ' ')
					e--;
				for (; pad > 0; pad--)
					ui_lines_put(t, ' ', UI_ROLE_NORMAL);
				for (int i = b; i < e; i++, used++)
					ui_lines_put(t, cell->cp[i], (ui_role)cell->role[i]);
			}
			pad += width[c] - used + 2;
		}
		ui_lines_nl(t);
	}
}

/* A table too wide for the pane even with its cells wrapped: a paragraph
 * per row, "head: cell; head: cell" (rows[0] is the head when head). */
static void table_records(ui_lines *t, const table_row *rows, int nrows, int head, int w, int indent)
{
	for (int r = head ? 1 : 0; r < nrows; r++) {
		ui_run para = {0};
		for (int c = 0; c < rows[r].n; c++) {
			if (c)
				ui_run_puts(&para, "; ", 2, UI_ROLE_NORMAL);
			if (head && c < rows[0].n && rows[0].cell[c].n) {
				for (int i = 0; i < rows[0].cell[c].n; i++)
					ui_run_put(&para, rows[0].cell[c].cp[i], UI_ROLE_EMPH);
				ui_run_puts(&para, ": ", 2, UI_ROLE_NORMAL);
			}
			for (int i = 0; i < rows[r].cell[c].n; i++)
				ui_run_put(&para, rows[r].cell[c].cp[i], (ui_role)rows[r].cell[c].role[i]);
		}
		for (int i = 0; i < indent; i++)
			ui_lines_put(t, ' ', UI_ROLE_NORMAL);
		ui_lines_put(t, '-', UI_ROLE_EMPH);
		ui_lines_put(t, ' ', UI_ROLE_NORMAL);
		ui_lines_wrap(t, &para, w, indent + 2);
		ui_run_free(&para);
	}
}

/* A Markdown table (line[0..n), "| a | b |" each, the second maybe its
 * |---| rule) onto t at width w: aligned columns, the head bold over a
 * rule. The cells of a table wider than the pane wrap in their columns;
 * one that cannot fit even so gets a paragraph per row. indent: a quote's,
 * its "> " marker on the first line when mark. */
static void table(ui_lines *t, const model_result *m, const char *const *line, const size_t *len, int n, int w,
		  int indent, int mark)
{
	table_row *rows = xcalloc((size_t)n, sizeof *rows);
	int nrows = 0, ncols = 0, head = 0;
	for (int i = 0; i < n; i++) {
		if (i == 1 && table_rule(line[i], len[i])) {
			head = 1;
			continue;
		}
		table_split(&rows[nrows], m, line[i], len[i], UI_ROLE_NORMAL);
		ncols = rows[nrows].n > ncols ? rows[nrows].n : ncols;
		nrows++;
	}
	if (head) /* the head in bold, its `code` as code */
		for (int c = 0; c < rows[0].n; c++)
			for (int i = 0; i < rows[0].cell[c].n; i++)
				if (rows[0].cell[c].role[i] == UI_ROLE_NORMAL)
					rows[0].cell[c].role[i] = UI_ROLE_EMPH;
	char rest[16];
	snprintf(rest, sizeof rest, "%*s", indent < 15 ? indent : 15, "");
	const char *prefix = mark ? "> " : rest;
	int width[TABLE_COLS];
	if (table_widths(rows, nrows, ncols, w - indent, width) < 0) {
		if (mark) {
			ui_lines_add(t, prefix, UI_ROLE_NORMAL);
			ui_lines_nl(t);
		}
		table_records(t, rows, nrows, head, w, indent);
	} else {
		for (int r = 0; r < nrows; r++) {
			table_line(t, &rows[r], width, ncols, &prefix, rest);
			if (r > 0 || !head)
				continue;
			ui_lines_add(t, rest, UI_ROLE_NORMAL);
			for (int c = 0; c < ncols; c++) {
				for (int k = 0; k < width[c]; k++)
					ui_lines_put(t, 0x2500, UI_ROLE_BORDER);
				if (c + 1 < ncols)
					ui_lines_add(t, "  ", UI_ROLE_NORMAL);
			}
			ui_lines_nl(t);
		}
	}
	for (int r = 0; r < n; r++)
		for (int c = 0; c < TABLE_COLS; c++)
			ui_run_free(&rows[r].cell[c]);
	free(rows);
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
		if (lead + q < n && s[lead + q] == '|') {
			/* A table: its rows are the lines that follow, quoted alike. */
			flush(t, &para, w, indent);
			enum { MAXROWS = 128 };
			const char *row[MAXROWS];
			size_t len[MAXROWS];
			int nrows = 0;
			row[nrows] = s + lead + q;
			len[nrows++] = n - lead - q;
			while (p && *p && nrows < MAXROWS) {
				const char *e = strchr(p, '\n');
				size_t m2 = e ? (size_t)(e - p) : strlen(p), l2 = 0;
				while (l2 < m2 && p[l2] == ' ')
					l2++;
				size_t q2 = quote_mark(p + l2, m2 - l2);
				if (!q2 != !q || l2 + q2 >= m2 || p[l2 + q2] != '|')
					break;
				row[nrows] = p + l2 + q2;
				len[nrows++] = m2 - l2 - q2;
				p = e ? e + 1 : NULL;
			}
			table(t, m, row, len, nrows, w, q ? 2 : 0, q && !in_quote);
			in_quote = 0;
			continue;
		}
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

static uint32_t lower(uint32_t c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

void ui_prose_mark(ui_lines *t, const char *needle)
{
	int k = (int)strlen(needle);
	for (int ln = 0; k && ln < t->nlines; ln++)
		for (int i = t->start[ln]; i + k <= t->start[ln + 1]; i++) {
			int j = 0;
			while (j < k && lower(t->cp[i + j]) == (unsigned char)needle[j])
				j++;
			if (j < k)
				continue;
			memset(t->role + i, UI_ROLE_SELECT, (size_t)k);
			i += k - 1;
		}
}

/* ---- ASCII spellings ---- */

/* The symbols the lessons use that no single ASCII character stands for;
 * text_only: in running text only, where a wider spelling moves nothing
 * (a fenced picture keeps the one-cell form ui_ascii_of gives). */
static const struct {
	uint32_t cp;
	const char *ascii;
	int text_only;
} spellings[] = {
	{0x03A3, "sum", 0},  {0x2211, "sum", 0}, {0x221A, "sqrt", 0}, {0x2016, "||", 0}, {0x1D40, "^T", 0},
	{0x2295, "xor", 0},  {0x2082, "_2", 0},  {0x2260, "!=", 0},   {0x2248, "~=", 0}, {0x00B2, "^2", 0},
	{0x00B3, "^3", 0},   {0x2264, "<=", 0},  {0x2265, ">=", 0},   {0x2192, "->", 1}, {0x2190, "<-", 1},
	{0x21D2, "=>", 1},   {0x2026, "...", 1}, {0x00B7, "*", 1},    {0x2014, "--", 1},
};

char *ui_prose_ascii(const char *text)
{
	size_t n = strlen(text), cap = n + n / 2 + 16, o = 0;
	char *out = xmalloc(cap);
	int fence = 0;
	for (size_t i = 0; i < n;) {
		if ((i == 0 || text[i - 1] == '\n') && !strncmp(text + i + strspn(text + i, " "), "```", 3))
			fence = !fence;
		int l;
		uint32_t cp = ui_utf8_decode(text + i, n - i, &l);
		const char *sp = NULL;
		for (size_t k = 0; k < sizeof spellings / sizeof spellings[0] && !sp; k++)
			if (spellings[k].cp == cp && !(fence && spellings[k].text_only))
				sp = spellings[k].ascii;
		size_t arg = 0; /* √K: the operand in parentheses */
		if (cp == 0x221A)
			while (i + (size_t)l + arg < n && isalnum_ascii(text[i + (size_t)l + arg]))
				arg++;
		size_t need = sp ? strlen(sp) + arg + 2 : (size_t)l;
		if (o + need + 1 > cap) {
			cap = 2 * cap + need;
			out = xrealloc(out, cap);
		}
		if (!sp) {
			memcpy(out + o, text + i, (size_t)l);
			o += (size_t)l;
		} else if (arg) {
			o += (size_t)sprintf(out + o, "%s(%.*s)", sp, (int)arg, text + i + l);
		} else {
			memcpy(out + o, sp, strlen(sp));
			o += strlen(sp);
		}
		i += (size_t)l + arg;
	}
	out[o] = '\0';
	return out;
}
