/* ptx: tokenizer with highlight classes, `// @name` … `// @end` regions, folding and the static instruction mix. */
#include "course/ptx.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const class_names[PTX_NCLASSES] = {
	[PTX_TEXT] = "text",
	[PTX_DIRECTIVE] = "directive",
	[PTX_TYPE] = "type",
	[PTX_INSTR] = "instruction",
	[PTX_REG] = "register",
	[PTX_LABEL] = "label",
	[PTX_PRED] = "predicate",
	[PTX_COMMENT] = "comment",
	[PTX_NUMBER] = "number",
};

const char *ptx_class_name(ptx_class c)
{
	return (unsigned)c < PTX_NCLASSES ? class_names[c] : "?";
}

/* Fundamental types and vector widths: shown as types wherever they appear,
 * also as opcode suffixes (the `.f32` of `ld.global.f32`). */
static const char *const type_names[] = {
	"s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64",
	"b8", "b16", "b32", "b64", "b128", "f16", "f16x2", "bf16", "bf16x2",
	"f32", "f64", "tf32", "e4m3", "e5m2", "pred", "v2", "v4", "v8",
};

static int is_type(const char *s, int n)
{
	for (size_t i = 0; i < ARRAY_LEN(type_names); i++)
		if ((int)strlen(type_names[i]) == n && !strncmp(type_names[i], s, (size_t)n))
			return 1;
	return 0;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static int ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '$';
}

typedef struct {
	ptx_token *out;
	int max, n;
} tok_sink;

static void emit(tok_sink *s, int off, int len, ptx_class cls)
{
	if (len <= 0)
		return;
	/* Adjacent pieces of one class merge: "ld" ".global" is one instruction token. */
	if (s->n > 0) {
		ptx_token *p = &s->out[s->n - 1];
		if (p->cls == cls && p->off + p->len == off && cls != PTX_TEXT) {
			p->len += len;
			return;
		}
	}
	if (s->n < s->max)
		s->out[s->n++] = (ptx_token){off, len, cls};
}

/* Emits a dotted word component by component: types as PTX_TYPE, the rest as rest. */
static void emit_dotted(tok_sink *s, const char *line, int off, int end, ptx_class rest)
{
	int i = off;
	while (i < end) {
		int j = i + 1;
		while (j < end && line[j] != '.')
			j++;
		int dot = line[i] == '.';
		ptx_class c = is_type(line + i + dot, j - i - dot) && (dot || i > off) ? PTX_TYPE : rest;
		emit(s, i, j - i, c);
		i = j;
	}
}

int ptx_tokenize_line(const char *line, int len, ptx_token *out, int max, int *in_block)
{
	tok_sink s = {out, max, 0};
	int stmt_start = 1; /* the next word is an opcode */
	int after_bra = 0;  /* the next word is a branch target */
	int i = 0;
	while (i < len) {
		char c = line[i];
		if (*in_block) {
			int j = i;
			while (j + 1 < len && !(line[j] == '*' && line[j + 1] == '/'))
				j++;
			if (j + 1 < len) {
				emit(&s, i, j + 2 - i, PTX_COMMENT);
				*in_block = 0;
				i = j + 2;
			} else {
				emit(&s, i, len - i, PTX_COMMENT);
				i = len;
			}
			continue;
		}
		if (isspace((unsigned char)c)) {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && line[i + 1] == '/') {
			emit(&s, i, len - i, PTX_COMMENT);
			break;
		}
		if (c == '/' && i + 1 < len && line[i + 1] == '*') {
			*in_block = 1;
			emit(&s, i, 2, PTX_COMMENT);
			i += 2;
			continue;
		}
		int j = i + 1;
		if (c == '@') {
			if (j < len && line[j] == '!')
				j++;
			if (j < len && line[j] == '%')
				j++;
			while (j < len && (ident_char(line[j]) || line[j] == '.'))
				j++;
			emit(&s, i, j - i, PTX_PRED);
		} else if (c == '%') {
			while (j < len && (ident_char(line[j]) || line[j] == '.'))
				j++;
			emit(&s, i, j - i, PTX_REG);
		} else if (c == '.' && j < len && ident_start(line[j])) {
			while (j < len && (ident_char(line[j]) || line[j] == '.'))
				j++;
			emit_dotted(&s, line, i, j, PTX_DIRECTIVE);
			stmt_start = 0;
		} else if (isdigit((unsigned char)c)) {
			while (j < len && (isalnum((unsigned char)line[j]) || line[j] == '.'))
				j++;
			emit(&s, i, j - i, PTX_NUMBER);
		} else if (ident_start(c)) {
			while (j < len && (ident_char(line[j]) || line[j] == '.'))
				j++;
			int k = j;
			while (k < len && (line[k] == ' ' || line[k] == '\t'))
				k++;
			if (k < len && line[k] == ':' && !(k + 1 < len && line[k + 1] == ':')) {
				emit(&s, i, k + 1 - i, PTX_LABEL);
				j = k + 1;
			} else if (stmt_start) {
				emit_dotted(&s, line, i, j, PTX_INSTR);
				after_bra = (j - i >= 3 && !strncmp(line + i, "bra", 3) &&
					     (j - i == 3 || line[i + 3] == '.'));
				stmt_start = 0;
			} else if (after_bra) {
				emit(&s, i, j - i, PTX_LABEL);
				after_bra = 0;
			} else {
				emit(&s, i, j - i, PTX_TEXT);
			}
		} else {
			if (c == ';' || c == '{' || c == '}') {
				stmt_start = 1;
				after_bra = 0;
			}
			emit(&s, i, 1, PTX_TEXT);
		}
		i = j;
	}
	return s.n;
}

void ptx_classify_line(const char *line, int len, unsigned char *cls, int *in_block)
{
	ptx_token tok[PTX_MAX_TOKENS];
	int n = ptx_tokenize_line(line, len, tok, PTX_MAX_TOKENS, in_block);
	memset(cls, PTX_TEXT, (size_t)len);
	for (int t = 0; t < n; t++)
		memset(cls + tok[t].off, tok[t].cls, (size_t)tok[t].len);
}

/* `// @name` or `// @end` on a line of its own: returns the name's length
 * (its start in *name), or 0 when the line is no marker. */
static int region_marker(const char *line, int n, const char **name)
{
	int i = 0;
	while (i < n && isspace((unsigned char)line[i]))
		i++;
	if (i + 1 >= n || line[i] != '/' || line[i + 1] != '/')
		return 0;
	i += 2;
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i >= n || line[i] != '@')
		return 0;
	i++;
	int j = i;
	while (j < n && (isalnum((unsigned char)line[j]) || line[j] == '_' || line[j] == '-'))
		j++;
	if (j == i || (j < n && !isspace((unsigned char)line[j])))
		return 0;
	*name = line + i;
	return j - i;
}

static void problem(ptx_regions *rs, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void problem(ptx_regions *rs, int line, const char *fmt, ...)
{
	if (rs->nproblems < PTX_MAX_PROBLEMS) {
		ptx_problem *p = &rs->problem[rs->nproblems];
		p->line = line;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->msg, sizeof p->msg, fmt, ap);
		va_end(ap);
	}
	rs->nproblems++;
}

int ptx_regions_scan(const char *text, ptx_regions *rs)
{
	memset(rs, 0, sizeof *rs);
	/* The open regions, innermost last; -1 for one that was refused, so that
	 * its @end closes it quietly. */
	int stack[2 * PTX_MAX_REGIONS], depth = 0;
	int l = 0;
	for (const char *p = text; *p; l++) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		const char *name;
		int nlen = region_marker(p, len, &name);
		p += len + (nl != NULL);
		if (!nlen)
			continue;
		if (nlen == 3 && !strncmp(name, "end", 3)) {
			if (!depth)
				problem(rs, l + 1, "@end without an open region");
			else if (stack[--depth] >= 0)
				rs->r[stack[depth]].last = l;
			continue;
		}
		int ok = 0;
		if (nlen >= PTX_REGION_NAME)
			problem(rs, l + 1, "region name @%.*s... is longer than %d characters", 16, name,
				PTX_REGION_NAME - 1);
		else if (rs->n == PTX_MAX_REGIONS || depth == (int)ARRAY_LEN(stack))
			problem(rs, l + 1, "too many regions (at @%.*s): at most %d", nlen, name, PTX_MAX_REGIONS);
		else
			ok = 1;
		if (depth == (int)ARRAY_LEN(stack))
			continue;
		if (!ok) {
			stack[depth++] = -1;
			continue;
		}
		ptx_region *r = &rs->r[rs->n];
		memcpy(r->name, name, (size_t)nlen);
		r->name[nlen] = '\0';
		if (ptx_regions_find(rs, r->name))
			problem(rs, l + 1, "region @%s is defined twice", r->name);
		r->first = l;
		r->last = -1;
		stack[depth++] = rs->n++;
	}
	while (depth > 0) {
		int i = stack[--depth];
		if (i < 0)
			continue;
		problem(rs, rs->r[i].first + 1, "region @%s has no @end", rs->r[i].name);
		rs->r[i].last = l > 0 ? l - 1 : 0;
	}
	return rs->nproblems;
}

const ptx_region *ptx_regions_find(const ptx_regions *rs, const char *name)
{
	for (int i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].name, name))
			return &rs->r[i];
	return NULL;
}

void ptx_shape(const char *line, int n, char *out, int len)
{
	int o = 0, space = 0;
	int i = 0;
	while (i < n && isspace((unsigned char)line[i]))
		i++;
	for (; i < n && o < len - 1; i++) {
		char c = line[i];
		if (c == '/' && i + 1 < n && (line[i + 1] == '/' || line[i + 1] == '*'))
			break;
		if (isspace((unsigned char)c)) {
			space = 1;
			continue;
		}
		if (space && o < len - 1)
			out[o++] = ' ';
		space = 0;
		if (isdigit((unsigned char)c)) {
			while (i + 1 < n && isalnum((unsigned char)line[i + 1]))
				i++;
			c = '#';
		}
		if (o < len - 1)
			out[o++] = c;
	}
	out[o] = '\0';
}

static void find_folds(ptx_doc *d)
{
	char prev[256], cur[256];
	int run = 0;
	prev[0] = '\0';
	int cap = 0;
	for (int l = 0; l <= d->nlines; l++) {
		if (l < d->nlines)
			ptx_shape(d->text + d->lines[l].off, d->lines[l].len, cur, sizeof cur);
		else
			cur[0] = '\0';
		if (l < d->nlines && cur[0] && !strcmp(cur, prev)) {
			run++;
			continue;
		}
		if (run >= PTX_FOLD_MIN) {
			if (d->nfolds == cap) {
				cap = cap ? cap * 2 : 8;
				d->folds = xreallocarray(d->folds, (size_t)cap, sizeof *d->folds);
			}
			d->folds[d->nfolds++] = (ptx_fold){l - run, run};
		}
		run = cur[0] ? 1 : 0;
		memcpy(prev, cur, sizeof prev);
	}
}

int ptx_load(ptx_doc *d, const char *text, char *err, int errlen)
{
	memset(d, 0, sizeof *d);
	size_t tl = strlen(text);
	d->text = xstrdup(text);
	int cap = 64;
	d->lines = xreallocarray(NULL, (size_t)cap, sizeof *d->lines);
	size_t off = 0;
	int block = 0;
	while (off < tl) {
		const char *nl = memchr(d->text + off, '\n', tl - off);
		size_t end = nl ? (size_t)(nl - d->text) : tl;
		size_t len = end - off;
		if (len && d->text[end - 1] == '\r')
			len--;
		if (d->nlines == cap) {
			cap *= 2;
			d->lines = xreallocarray(d->lines, (size_t)cap, sizeof *d->lines);
		}
		d->lines[d->nlines] = (ptx_line){(int)off, (int)len, block};
		/* Carry the block-comment state so a view can start at any line. */
		ptx_token tok[PTX_MAX_TOKENS];
		ptx_tokenize_line(d->text + off, (int)len, tok, PTX_MAX_TOKENS, &block);
		d->nlines++;
		off = end + 1;
	}

	int problems = ptx_regions_scan(d->text, &d->regions);
	strbuf sb = {0};
	for (int i = 0; i < problems && i < PTX_MAX_PROBLEMS; i++)
		sb_printf(&sb, "line %d: %s\n", d->regions.problem[i].line, d->regions.problem[i].msg);
	if (problems > PTX_MAX_PROBLEMS)
		sb_printf(&sb, "(%d more problems)\n", problems - PTX_MAX_PROBLEMS);
	if (err && errlen > 0)
		util_strlcpy(err, sb.data ? sb.data : "", (size_t)errlen);
	sb_free(&sb);
	find_folds(d);
	return problems;
}

void ptx_free(ptx_doc *d)
{
	free(d->text);
	free(d->lines);
	free(d->folds);
	memset(d, 0, sizeof *d);
}

const ptx_region *ptx_region_find(const ptx_doc *d, const char *name)
{
	return ptx_regions_find(&d->regions, name);
}

int ptx_view(const ptx_doc *d, int fold, int keep_first, int keep_last, ptx_row *rows, int max)
{
	int n = 0;
	int f = 0;
#define PUT(L, H)                                         \
	do {                                              \
		if (n < max)                              \
			rows[n] = (ptx_row){(L), (H)};    \
		n++;                                      \
	} while (0)
	for (int l = 0; l < d->nlines;) {
		while (f < d->nfolds && d->folds[f].first + d->folds[f].n <= l)
			f++;
		if (fold && f < d->nfolds && d->folds[f].first == l) {
			const ptx_fold *fd = &d->folds[f];
			int last = fd->first + fd->n - 1;
			/* Open when the range points into the run; a range that covers
			 * the whole run (a long unrolled region) is better folded. */
			int overlap = keep_first >= 0 && keep_first <= last && keep_last >= fd->first;
			int covers = keep_first <= fd->first && keep_last >= last;
			int keep = overlap && !covers;
			if (!keep) {
				for (int k = 0; k < PTX_FOLD_HEAD; k++)
					PUT(l + k, 0);
				PUT(l + PTX_FOLD_HEAD, fd->n - PTX_FOLD_HEAD - 1);
				PUT(last, 0);
				l = last + 1;
				continue;
			}
		}
		PUT(l, 0);
		l++;
	}
#undef PUT
	return n < max || max == 0 ? n : max;
}

static int cmp_mix(const void *a, const void *b)
{
	const ptx_mix_entry *x = a, *y = b;
	if (x->count != y->count)
		return y->count - x->count;
	return strcmp(x->op, y->op);
}

static const char *const spaces[] = {"global", "shared", "local", "param", "const"};

static void append(char *out, int len, const char *s)
{
	size_t have = strlen(out);
	if ((int)have < len - 1)
		util_strlcpy(out + have, s, (size_t)len - have);
}

/* The kind of an opcode word such as "ld.global.v4.f32" → "ld.global.v4". */
static void op_kind(const char *w, int n, char *out, int len)
{
	char comp[8][24];
	int nc = 0;
	for (int i = 0; i < n && nc < 8;) {
		int j = i;
		while (j < n && w[j] != '.')
			j++;
		int cl = j - i < 23 ? j - i : 23;
		memcpy(comp[nc], w + i, (size_t)cl);
		comp[nc++][cl] = '\0';
		i = j + 1;
	}
	if (!nc) {
		out[0] = '\0';
		return;
	}
	util_strlcpy(out, comp[0], (size_t)len);
	static const char *const memops[] = {"ld", "st", "atom", "red", "ldu", "prefetch"};
	int mem = 0;
	for (size_t i = 0; i < ARRAY_LEN(memops); i++)
		mem |= !strcmp(comp[0], memops[i]);
	if (!strcmp(comp[0], "cp") && nc > 1 && !strncmp(comp[1], "async", 5)) {
		append(out, len, ".");
		append(out, len, comp[1]);
		/* The group bookkeeping is not a copy: keep it apart. */
		if (nc > 2 && (!strncmp(comp[2], "commit", 6) || !strncmp(comp[2], "wait", 4))) {
			append(out, len, ".");
			append(out, len, comp[2]);
		}
		return;
	}
	if (!mem)
		return;
	const char *space = NULL, *vec = NULL;
	for (int c = 1; c < nc; c++) {
		for (size_t s = 0; s < ARRAY_LEN(spaces); s++)
			if (!space && !strcmp(comp[c], spaces[s]))
				space = spaces[s];
		if (!strcmp(comp[c], "v2") || !strcmp(comp[c], "v4") || !strcmp(comp[c], "v8"))
			vec = comp[c];
	}
	if (space) {
		append(out, len, ".");
		append(out, len, space);
	}
	if (vec) {
		append(out, len, ".");
		append(out, len, vec);
	}
}

int ptx_mix(const ptx_doc *d, ptx_mix_entry *out, int max, int *total)
{
	int n = 0, all = 0;
	for (int l = 0; l < d->nlines; l++) {
		const char *line = d->text + d->lines[l].off;
		ptx_token tok[PTX_MAX_TOKENS];
		int block = d->lines[l].block_in;
		int nt = ptx_tokenize_line(line, d->lines[l].len, tok, PTX_MAX_TOKENS, &block);
		for (int t = 0; t < nt; t++) {
			if (tok[t].cls != PTX_INSTR || line[tok[t].off] == '.')
				continue;
			if (tok[t].off > 0 && line[tok[t].off - 1] == '.')
				continue;
			int j = tok[t].off;
			while (j < d->lines[l].len && (ident_char(line[j]) || line[j] == '.'))
				j++;
			char kind[24];
			op_kind(line + tok[t].off, j - tok[t].off, kind, sizeof kind);
			all++;
			int e = 0;
			while (e < n && strcmp(out[e].op, kind))
				e++;
			if (e < n)
				out[e].count++;
			else if (n < max) {
				util_strlcpy(out[n].op, kind, sizeof out[n].op);
				out[n++].count = 1;
			}
		}
	}
	qsort(out, (size_t)n, sizeof *out, cmp_mix);
	if (total)
		*total = all;
	return n;
}

/* ---- Static shared memory ------------------------------------------------ */

/* Bytes of each PTX fundamental type a `.shared` variable may have. */
static const struct {
	const char *name;
	int bytes;
} type_bytes[] = {
	{".b8", 1},  {".u8", 1},  {".s8", 1},  {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2},
	{".bf16", 2}, {".f16x2", 4}, {".bf16x2", 4}, {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4},
	{".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8}, {".b128", 16},
};

static int type_size(const char *tok, int n)
{
	for (size_t i = 0; i < sizeof type_bytes / sizeof type_bytes[0]; i++)
		if ((int)strlen(type_bytes[i].name) == n && !memcmp(tok, type_bytes[i].name, n))
			return type_bytes[i].bytes;
	return 0;
}

/* The statement [s, e) with comments already blanked: adds its variables to
 * *total when it declares static shared memory. */
static void shared_statement(const char *s, const char *e, long long *total)
{
	int elem = 0, vec = 1, first = 1;
	long long align = 0;
	while (s < e) {
		while (s < e && (isspace((unsigned char)*s) || *s == ','))
			s++;
		const char *t = s;
		while (s < e && !isspace((unsigned char)*s) && *s != ',' && *s != '[')
			s++;
		int n = (int)(s - t);
		if (n == 0 && (s >= e || *s != '['))
			break;
		if (first) {
			if (n != 7 || memcmp(t, ".shared", 7))
				return; /* an instruction, or another state space */
			first = 0;
			continue;
		}
		if (n == 7 && !memcmp(t, ".extern", 7))
			return; /* dynamic shared memory: sized at launch */
		if (n == 6 && !memcmp(t, ".align", 6)) {
			while (s < e && isspace((unsigned char)*s))
				s++;
			align = strtoll(s, NULL, 0);
			while (s < e && isdigit((unsigned char)*s))
				s++;
			continue;
		}
		if (n == 3 && (!memcmp(t, ".v2", 3) || !memcmp(t, ".v4", 3))) {
			vec = t[2] - '0';
			continue;
		}
		if (n > 0 && t[0] == '.') {
			int b = type_size(t, n);
			if (b)
				elem = b;
			continue;
		}
		/* a declarator: a name and its dimensions, each [N] multiplying */
		long long count = 1;
		while (s < e && *s == '[') {
			char *end;
			long long d = strtoll(s + 1, &end, 0);
			if (d < 0 || d > (1LL << 40) || count > (1LL << 40) / (d ? d : 1))
				count = 1LL << 40; /* absurd: saturates below, never overflows */
			else
				count *= d;
			s = memchr(end, ']', (size_t)(e - end));
			if (!s) {
				s = e;
				break;
			}
			s++;
		}
		long long unit = (long long)(elem ? elem : 1) * vec;
		long long a = align > unit ? align : unit;
		if (a > 0 && *total % a)
			*total += a - *total % a;
		*total += count * unit;
		if (*total > INT_MAX)
			*total = INT_MAX;
	}
}

int ptx_static_smem(const char *text)
{
	if (!text)
		return 0;
	char *t = xstrdup(text);
	/* blank the comments, so a `;` or `.shared` in one counts for nothing */
	for (char *p = t; *p; p++) {
		if (p[0] == '/' && p[1] == '/')
			while (*p && *p != '\n')
				*p++ = ' ';
		else if (p[0] == '/' && p[1] == '*') {
			char *q = strstr(p + 2, "*/");
			char *end = q ? q + 2 : p + strlen(p);
			memset(p, ' ', (size_t)(end - p));
			p = end - 1;
		}
		if (!*p)
			break;
	}
	/* a declaration is `.shared` first in its statement: after a line
	 * start (directives such as .version end with none), ';', '{' or '}' */
	long long total = 0;
	for (const char *p = strstr(t, ".shared"); p; p = strstr(p + 7, ".shared")) {
		const char *b = p;
		while (b > t && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
			b--;
		if (b > t && !strchr("\n;{}", b[-1]))
			continue;
		const char *end = strchr(p, ';');
		shared_statement(p, end ? end : p + strlen(p), &total);
	}
	free(t);
	return (int)total;
}

int ptx_is_debug(const char *text)
{
	for (const char *p = text ? strstr(text, ".target") : NULL; p; p = strstr(p + 7, ".target")) {
		if (p > text && p[-1] != '\n' && p[-1] != ' ' && p[-1] != '\t')
			continue; /* a word that ends so, not the directive */
		size_t n = strcspn(p, "\n;/");
		for (const char *q = p + 7; q < p + n; q++)
			if (!strncmp(q, "debug", 5) && (q[-1] == ',' || q[-1] == ' ' || q[-1] == '\t') &&
			    !(isalnum((unsigned char)q[5]) || q[5] == '_'))
				return 1;
		return 0;
	}
	return 0;
}
