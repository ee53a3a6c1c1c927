/* sass: the `.loc`-instrumented PTX copy, the disassembler's SASS parsed and grouped by PTX line, and the instruction mix counted — text work only (src/course/sass_tools.c runs the tools). */
#include "course/sass.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Each kind: its opcode (the first word of the mnemonic) and, where needed,
 * a modifier that must follow it (LDS.128). SASS_REUSE looks at operands. */
static const struct {
	const char *key, *name, *op, *mod;
} kinds[SASS_NKINDS] = {
	[SASS_FFMA] = {"ffma", "FFMA", "FFMA", NULL},
	[SASS_LDS] = {"lds", "LDS", "LDS", NULL},
	[SASS_LDS128] = {"lds128", "LDS.128", "LDS", "128"},
	[SASS_LDSM] = {"ldsm", "LDSM", "LDSM", NULL},
	[SASS_STS] = {"sts", "STS", "STS", NULL},
	[SASS_LDG] = {"ldg", "LDG", "LDG", NULL},
	[SASS_LDGSTS] = {"ldgsts", "LDGSTS", "LDGSTS", NULL},
	[SASS_STG] = {"stg", "STG", "STG", NULL},
	[SASS_UTMALDG] = {"utmaldg", "UTMALDG", "UTMALDG", NULL},
	[SASS_HMMA] = {"hmma", "HMMA", "HMMA", NULL},
	[SASS_HGMMA] = {"hgmma", "HGMMA", "HGMMA", NULL},
	[SASS_BAR] = {"bar", "BAR", "BAR", NULL},
	[SASS_LDL] = {"ldl", "LDL", "LDL", NULL},
	[SASS_STL] = {"stl", "STL", "STL", NULL},
	[SASS_REUSE] = {"reuse", ".reuse", NULL, NULL},
};

const char *sass_kind_key(sass_kind k)
{
	return k >= 0 && k < SASS_NKINDS ? kinds[k].key : "?";
}

const char *sass_kind_name(sass_kind k)
{
	return k >= 0 && k < SASS_NKINDS ? kinds[k].name : "?";
}

void sass_kernel_free(sass_kernel *k)
{
	free(k->ins);
	k->ins = NULL;
	k->n = 0;
}

/* Whether the mnemonic m (up to the first blank) has opcode op and, when
 * mod is set, that modifier among its dot-separated parts. */
static int mnemonic_is(const char *m, size_t mlen, const char *op, const char *mod)
{
	size_t n = strlen(op);
	if (mlen < n || strncmp(m, op, n) || (mlen > n && m[n] != '.'))
		return 0;
	if (!mod)
		return 1;
	size_t ml = strlen(mod);
	for (size_t i = n; i + ml < mlen + 1; i++)
		if (m[i] == '.' && !strncmp(m + i + 1, mod, ml) && (i + 1 + ml == mlen || m[i + 1 + ml] == '.'))
			return 1;
	return 0;
}

/* The mnemonic of an instruction's text, past its guard predicate (@P0, @!PT, @UP1), and its length. */
static const char *mnemonic(const char *text, size_t *len)
{
	const char *m = text;
	while (isspace((unsigned char)*m))
		m++;
	if (*m == '@')
		while (*m && !isspace((unsigned char)*m))
			m++;
	while (isspace((unsigned char)*m))
		m++;
	*len = strcspn(m, " \t;");
	return m;
}

/* The opcodes of the INT (ALU) pipe: integer arithmetic, logic, shifts, moves and compares (16 lanes a
 * sub-partition, one warp instruction in two cycles). */
static const char *const alu_ops[] = {"MOV", "IADD3", "IMAD", "SHF", "LEA", "LOP3", "ISETP", "PLOP3", "SEL",
				      "IMNMX", "FSETP", "FSEL", "PRMT", "P2R", "R2P", "I2F", "F2I", "POPC", "FLO"};

int sass_alu(const char *text)
{
	size_t mlen;
	const char *m = mnemonic(text, &mlen);
	for (size_t i = 0; i < sizeof alu_ops / sizeof *alu_ops; i++)
		if (mnemonic_is(m, mlen, alu_ops[i], NULL))
			return 1;
	return 0;
}

/* Arithmetic past the INT pipe's that a warp issues after a deferred barrier (ncu: lesson 3's LEA, VIADD,
 * CS2R, UISETP and IMAD.WIDE before its barrier samples, at an LDG; lesson 4's at an LDC). */
static const char *const bar_passing_ops[] = {"FFMA", "FADD", "FMUL", "FMNMX", "HFMA2", "HADD2", "HMUL2",
					      "DFMA", "DADD", "DMUL", "VIADD", "IADD", "CS2R"};

int sass_passes_bar(const char *text)
{
	size_t mlen;
	const char *m = mnemonic(text, &mlen);
	if (sass_alu(text) || (m[0] == 'U' && !mnemonic_is(m, mlen, "ULDC", NULL)))
		return 1; /* the uniform datapath's arithmetic; ULDC is a constant load, as LDC */
	for (size_t i = 0; i < sizeof bar_passing_ops / sizeof *bar_passing_ops; i++)
		if (mnemonic_is(m, mlen, bar_passing_ops[i], NULL))
			return 1;
	return 0;
}

int sass_imad(const char *text)
{
	size_t mlen;
	const char *m = mnemonic(text, &mlen);
	return mnemonic_is(m, mlen, "IMAD", NULL);
}

/* Whether a mnemonic starts with one of the n prefixes. */
static int starts_with_any(const char *m, size_t mlen, const char *const *prefixes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (mlen >= strlen(prefixes[i]) && !strncmp(m, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/* Memory instructions by their opcode's first letters (LDG, LDS, LDL, LDSM, LDGSTS, STG, ATOMS, REDG, ...);
 * LDC reads a constant bank. Those of the LG queue: global and local (LDGSTS is an LDG). */
static const char *const memory_ops[] = {"LD", "ST", "ATOM", "RED"};
static const char *const lg_ops[] = {"LDG", "STG", "LDL", "STL"};

int sass_memory(const char *text)
{
	size_t mlen;
	const char *m = mnemonic(text, &mlen);
	return strncmp(m, "LDC", 3) && starts_with_any(m, mlen, memory_ops, sizeof memory_ops / sizeof *memory_ops);
}

int sass_lg(const char *text)
{
	size_t mlen;
	const char *m = mnemonic(text, &mlen);
	return starts_with_any(m, mlen, lg_ops, sizeof lg_ops / sizeof *lg_ops);
}

void sass_count_instr(const char *text, sass_counts *c)
{
	size_t mlen;
	const char *m = mnemonic(text, &mlen);
	c->total++;
	for (int k = 0; k < SASS_NKINDS; k++)
		if (kinds[k].op && mnemonic_is(m, mlen, kinds[k].op, kinds[k].mod))
			c->kind[k]++;
	if (strstr(m + mlen, ".reuse"))
		c->kind[SASS_REUSE]++;
}

void sass_count(const sass_kernel *k, int first, int last, sass_counts *c)
{
	memset(c, 0, sizeof *c);
	for (int i = 0; i < k->n; i++)
		if (!first || (k->ins[i].line >= first && k->ins[i].line <= last))
			sass_count_instr(k->ins[i].text, c);
}

/* ---- the instrumented copy ---- */

/* What a line of PTX does to the statement scanner: whether a statement
 * starts on it (at depth >= 1, with a word that is not a directive, a brace or
 * a lone label), and the state after it. A `{` at the start of a statement
 * opens a block (or, after `.entry`/`.func`, the body); inside a statement
 * braces are vector operands ({%f1, %f2}). */
typedef struct {
	int depth;        /* open blocks */
	int pending;      /* inside a statement not yet ended by ';' */
	int func;         /* the pending module-level statement declares a function */
	int in_comment;   /* inside a block comment */
} scan_state;

static int is_ident(int ch)
{
	return isalnum(ch) || ch == '_' || ch == '$' || ch == '%' || ch == '.';
}

/* Returns 1 when an instruction starts on this line. */
static int scan_line(scan_state *s, const char *p, size_t len)
{
	int starts = 0, first = 1;
	for (size_t i = 0; i < len; i++) {
		char ch = p[i];
		if (s->in_comment) {
			if (ch == '*' && i + 1 < len && p[i + 1] == '/')
				s->in_comment = 0, i++;
			continue;
		}
		if (ch == '/' && i + 1 < len && p[i + 1] == '/')
			break;
		if (ch == '/' && i + 1 < len && p[i + 1] == '*') {
			s->in_comment = 1, i++;
			continue;
		}
		if (isspace((unsigned char)ch))
			continue;
		if (!s->pending) {
			if (ch == '{') {
				s->depth++;
				continue;
			}
			if (ch == '}') {
				if (s->depth > 0)
					s->depth--;
				continue;
			}
			/* A label: an identifier and ':' ends no statement and starts none. */
			size_t j = i;
			while (j < len && is_ident((unsigned char)p[j]))
				j++;
			if (j > i && j < len && p[j] == ':' && p[i] != '.' && p[i] != '%') {
				i = j;
				continue;
			}
			s->pending = 1;
			s->func = 0;
			if (s->depth > 0 && first && ch != '.')
				starts = 1;
		}
		first = 0;
		if (s->depth == 0 && ch == '.' && (!strncmp(p + i, ".entry", 6) || !strncmp(p + i, ".func", 5)))
			s->func = 1;
		if (ch == ';')
			s->pending = 0;
		else if (ch == '{' && s->depth == 0 && s->func)
			s->pending = 0, s->func = 0, s->depth++;
	}
	return starts;
}

/* Whether the line's first word is the directive d (".file", ".loc"). */
static int line_is(const char *p, size_t len, const char *d)
{
	size_t i = 0, n = strlen(d);
	while (i < len && isspace((unsigned char)p[i]))
		i++;
	return len - i >= n && !strncmp(p + i, d, n) && (len - i == n || isspace((unsigned char)p[i + n]));
}

char *sass_instrument(const char *ptx, const char *name, int *nlocs)
{
	strbuf out = {0};
	scan_state s = {0};
	int line = 0, filed = 0, after_target = 0, locs = 0;
	/* The .file goes after .address_size, or .target when there is none. */
	for (const char *p = ptx; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (line_is(p, len, ".address_size"))
			after_target = 2;
		else if (line_is(p, len, ".target") && after_target < 2)
			after_target = 1;
		p += len + (e ? 1 : 0);
	}
	for (const char *p = ptx; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		line++;
		/* An old .file/.loc (no ';' ends it) is commented out, not scanned; a
		 * line that starts inside a block comment gets no .loc (it would land
		 * in the comment). */
		int was_comment = s.in_comment;
		int old = !was_comment && (line_is(p, len, ".file") || line_is(p, len, ".loc"));
		int starts = !old && scan_line(&s, p, len);
		if (old)
			sb_append(&out, "// ");
		else if (starts && !was_comment) {
			sb_printf(&out, "\t.loc 1 %d 0\n", line);
			locs++;
		}
		sb_appendn(&out, p, len);
		sb_append(&out, "\n");
		if (!filed && ((after_target == 2 && line_is(p, len, ".address_size")) ||
			       (after_target == 1 && line_is(p, len, ".target")))) {
			sb_printf(&out, ".file 1 \"%s\"\n", name);
			filed = 1;
		}
		p += len + (e ? 1 : 0);
	}
	if (nlocs)
		*nlocs = locs;
	return out.data ? out.data : xstrdup("");
}

/* ---- the disassembly ---- */

/* The text after prefix in line, or NULL. */
static const char *after(const char *line, const char *prefix)
{
	while (isspace((unsigned char)*line))
		line++;
	size_t n = strlen(prefix);
	return strncmp(line, prefix, n) ? NULL : line + n;
}

/* Whether name (up to a delimiter in stop) is entry. */
static int names(const char *name, const char *stop, const char *entry)
{
	size_t n = strcspn(name, stop);
	return n == strlen(entry) && !strncmp(name, entry, n);
}

static void push(sass_kernel *k, int *cap, int line, int label, unsigned addr, const char *text, size_t len)
{
	if (k->n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		k->ins = xreallocarray(k->ins, (size_t)*cap, sizeof *k->ins);
	}
	sass_instr *in = &k->ins[k->n++];
	memset(in, 0, sizeof *in);
	in->line = line;
	in->label = label;
	in->addr = addr;
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	if (len >= sizeof in->text)
		len = sizeof in->text - 1;
	memcpy(in->text, text, len);
	in->text[len] = '\0';
}

/* Copies the line at p (without its newline, cut to cap-1 bytes) into buf;
 * returns where the next line starts. */
static const char *next_line(const char *p, char *buf, size_t cap)
{
	const char *e = strchr(p, '\n');
	size_t len = e ? (size_t)(e - p) : strlen(p);
	size_t n = len < cap - 1 ? len : cap - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return p + len + (e ? 1 : 0);
}

int sass_parse_disasm(const char *text, const char *entry, sass_kernel *k, char *err, size_t errlen)
{
	int in_entry = 0, section = 0, found = 0, line = 0, cap = 0, label = -1, first_word = 0;
	sass_kernel_free(k);
	k->has_lines = 0;
	for (const char *p = text; *p;) {
		char buf[512];
		p = next_line(p, buf, sizeof buf);
		const char *v;
		/* A function starts: nvdisasm's section and label, cuobjdump's "Function : NAME". */
		if ((v = after(buf, ".section")) != NULL && isspace((unsigned char)*v)) {
			while (isspace((unsigned char)*v))
				v++;
			section = !strncmp(v, ".text.", 6) && names(v + 6, ", \t", entry);
			in_entry = 0;
			continue;
		}
		if ((v = after(buf, "Function :")) != NULL || (v = after(buf, ".text.")) != NULL) {
			while (isspace((unsigned char)*v))
				v++;
			in_entry = names(v, ": \t", entry);
			found |= in_entry;
			line = 0;
			continue;
		}
		if (section && (v = strstr(buf, "SHI_REGISTERS=")) != NULL) {
			/* a thread holds 0..255 registers: another value is no count (a
			 * recording's header would not read it back) and is left out */
			char *end;
			long r = strtol(v + 14, &end, 10);
			if (end != v + 14 && r >= 0 && r <= 255)
				k->regs = (int)r;
		}
		if (!in_entry)
			continue;
		if ((v = strstr(buf, "//## File \"")) != NULL) {
			const char *l = strstr(v, "\", line ");
			if (l) {
				line = atoi(l + 8);
				k->has_lines = 1;
			}
			continue;
		}
		if (!strncmp(buf, ".L_x_", 5) && isdigit((unsigned char)buf[5])) { /* the next one's label */
			label = atoi(buf + 5);
			continue;
		}
		/* An instruction's encoding (nvdisasm -hex, cuobjdump): two 64-bit words in comments, the first
		 * after its text, the second alone on the next line; its top 23 bits are the control bits. */
		if ((v = after(buf, "/* 0x")) != NULL) {
			uint64_t w = strtoull(v, NULL, 16);
			if (first_word) {
				sass_instr *in = &k->ins[k->n - 1];
				in->has_ctl = 1, in->wbar = (w >> 46) & 7, in->rbar = (w >> 49) & 7, in->wait = (w >> 52) & 63;
			}
			first_word = 0;
			continue;
		}
		first_word = 0;
		// An instruction: an address in a comment, "/*0a40*/  LDS.128 R4, [R2] ;", perhaps its first word after.
		if ((v = after(buf, "/*")) != NULL && isxdigit((unsigned char)*v)) {
			char *end;
			unsigned long addr = strtoul(v, &end, 16);
			if (strncmp(end, "*/", 2))
				continue;
			const char *t = end + 2;
			while (isspace((unsigned char)*t))
				t++;
			size_t tl = strcspn(t, ";");
			if (tl)
				push(k, &cap, line, label, (unsigned)addr, t, tl);
			label = -1;
			first_word = tl && strstr(t + tl, "/* 0x") != NULL;
		}
	}
	if (!found) {
		snprintf(err, errlen, "no function '%s' in the disassembly", entry);
		return -1;
	}
	return 0;
}

static int by_int(const void *a, const void *b)
{
	const int *x = a, *y = b;
	return (*x > *y) - (*x < *y);
}

/* The PTX lines of the instructions that set scoreboard bar for instruction i to wait on: back from it,
 * round its loop, to the last that waited on bar (which resolved those before it). At most max, distinct,
 * those with a line; returns how many there are (all of them, counted). */
static int setters(const sass_kernel *k, const int *lo, const int *hi, int i, int bar, int *lines, int max)
{
	int n = 0;
	for (int steps = 1, j = i - 1; steps < k->n; steps++, j--) {
		if (lo[i] >= 0 && j < lo[i])
			j = hi[i];
		if (j < 0 || j == i)
			break;
		const sass_instr *x = &k->ins[j];
		if (x->has_ctl && x->line > 0 && (x->wbar == bar || x->rbar == bar)) {
			int seen = 0;
			for (int q = 0; q < n && q < max; q++)
				seen |= lines[q] == x->line;
			if (!seen && n < max)
				lines[n] = x->line;
			n += !seen;
		}
		if (x->has_ctl && (x->wait >> bar & 1))
			break;
	}
	return n;
}

int sass_control_note(const sass_kernel *k, const int *lo, const int *hi, int i, char *buf, size_t len)
{
	const sass_instr *x = &k->ins[i];
	size_t n = 0;
	buf[0] = '\0';
	if (!x->has_ctl)
		return 0;
	for (int b = 0; b < 6; b++) {
		if (!(x->wait >> b & 1))
			continue;
		int lines[16], c = setters(k, lo, hi, i, b, lines, 16), shown = c < 4 ? c : 4;
		qsort(lines, (size_t)(c < 16 ? c : 16), sizeof *lines, by_int);
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s sb%d <-", n ? "," : "waits", b);
		for (int q = 0; q < shown; q++)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " %d", lines[q]);
		if (c > shown)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " +%d", c - shown);
	}
	if (x->wbar <= 5)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%ssets sb%d", n ? "; " : "", x->wbar);
	if (x->rbar <= 5)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%ssets sb%d on reading its registers", n ? "; " : "", x->rbar);
	return (int)(n < len ? n : len ? len - 1 : 0);
}

static int by_label(const void *a, const void *b)
{
	const int *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

void sass_loops_new(const sass_kernel *k, int **lo, int **hi)
{
	size_t n = (size_t)(k->n > 0 ? k->n : 1);
	*lo = xmalloc(n * sizeof **lo), *hi = xmalloc(n * sizeof **hi);
	sass_loops(k, *lo, *hi);
}

void sass_loops(const sass_kernel *k, int *lo, int *hi)
{
	/* the labels as (number, instruction) pairs, sorted: each branch's target found by bsearch */
	int (*lab)[2] = xmalloc((size_t)(k->n > 0 ? k->n : 1) * sizeof *lab), nl = 0;
	for (int i = 0; i < k->n; i++) {
		lo[i] = hi[i] = -1;
		if (k->ins[i].label >= 0)
			lab[nl][0] = k->ins[i].label, lab[nl++][1] = i;
	}
	qsort(lab, (size_t)nl, sizeof *lab, by_label);
	for (int b = 0; b < k->n; b++) {
		size_t mlen;
		const char *m = mnemonic(k->ins[b].text, &mlen), *l = strstr(m, ".L_x_");
		if (!mnemonic_is(m, mlen, "BRA", NULL) || !l || !isdigit((unsigned char)l[5]))
			continue;
		int key[2] = {atoi(l + 5), 0}, (*t)[2] = bsearch(key, lab, (size_t)nl, sizeof *lab, by_label);
		if (!t || (*t)[1] > b)
			continue; /* a forward branch */
		for (int i = (*t)[1]; i <= b; i++) /* the innermost: the latest start */
			if (lo[i] < (*t)[1])
				lo[i] = (*t)[1], hi[i] = b;
	}
	free(lab);
}

/* A number before the words in s ("8 bytes stack frame"), or -1. */
static int number_before(const char *s, const char *words)
{
	const char *w = strstr(s, words);
	if (!w)
		return -1;
	while (w > s && w[-1] == ' ')
		w--;
	while (w > s && isdigit((unsigned char)w[-1]))
		w--;
	/* at most 2^20, as a recording's header reads it back: a bigger one is no
	 * count a tool would print (a hostile one's 4294967297 is not 1) */
	char *end;
	errno = 0;
	long v = isdigit((unsigned char)*w) ? strtol(w, &end, 10) : -1;
	return !errno && v >= 0 && v <= 1 << 20 ? (int)v : -1;
}

void sass_parse_ptxas_v(const char *text, const char *entry, sass_kernel *k)
{
	int mine = 0;
	for (const char *p = text; *p;) {
		char buf[512];
		p = next_line(p, buf, sizeof buf);
		/* "Compiling entry function 'NAME'" and "Function properties for NAME" name the function. */
		const char *f = strstr(buf, "entry function '");
		if (f)
			mine = names(f + 16, "'", entry);
		else if ((f = strstr(buf, "Function properties for ")) != NULL)
			mine = names(f + 24, " \t:", entry);
		if (!mine)
			continue;
		int v;
		if ((v = number_before(buf, " registers")) >= 0 && v <= 255 && strstr(buf, "Used "))
			k->regs = v; /* a thread holds 0..255, as SHI_REGISTERS */
		if ((v = number_before(buf, "bytes stack frame")) >= 0)
			k->stack = v;
		if ((v = number_before(buf, "bytes spill stores")) >= 0)
			k->spill_stores = v;
		if ((v = number_before(buf, "bytes spill loads")) >= 0)
			k->spill_loads = v;
	}
}

static int by_line(const void *x, const void *y)
{
	const sass_instr *a = *(const sass_instr *const *)x, *b = *(const sass_instr *const *)y;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

const sass_instr **sass_by_line(const sass_kernel *k)
{
	const sass_instr **o = xcalloc((size_t)k->n + 1, sizeof *o);
	for (int i = 0; i < k->n; i++)
		o[i] = &k->ins[i];
	qsort(o, (size_t)k->n, sizeof *o, by_line);
	return o;
}

int sass_of_line(const sass_kernel *k, int line, int *idx, int max)
{
	int n = 0;
	/* k->ins is in address order already. */
	for (int i = 0; i < k->n; i++)
		if (k->ins[i].line == line) {
			if (n < max)
				idx[n] = i;
			n++;
		}
	return n;
}

/* ---- figures ---- */

void sass_scope_key(const char *region, char *buf, size_t len)
{
	if (!len)
		return;
	util_strlcpy(buf, region ? region : "kernel", len);
	for (char *p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
}

/* A kind's word: its SASS name without the dots ("LDS.128" -> "LDS128", ".reuse" -> "reuse"). */
static int kind_word_is(sass_kind k, const char *word)
{
	const char *n = kinds[k].name;
	for (; *n || *word; n++) {
		if (*n == '.')
			continue;
		if (*n != *word)
			return 0;
		word++;
	}
	return 1;
}

int sass_figure(const sass_kernel *k, const sass_counts *c, int kernel, const char *word, int *out)
{
	if (!strcmp(word, "instructions")) {
		*out = c->total;
		return 0;
	}
	for (int i = 0; i < SASS_NKINDS; i++)
		if (kind_word_is((sass_kind)i, word)) {
			*out = c->kind[i];
			return 0;
		}
	if (!kernel)
		return -1;
	int v = !strcmp(word, "registers") ? k->regs
		: !strcmp(word, "stack")   ? k->stack
		: !strcmp(word, "spills")  ? (k->spill_stores < 0 || k->spill_loads < 0 ? -1 : k->spill_stores + k->spill_loads)
					   : -2;
	if (v < 0)
		return -1;
	*out = v;
	return 0;
}

/* What the rows carry: the brief list of what explains a GEMM's speed (the
 * issue's mix), not every kind, so the data file stays readable. */
static const struct {
	const char *word, *unit;
	int kernel_only;
} row_words[] = {
	{"instructions", "count", 0}, {"FFMA", "count", 0}, {"LDS", "count", 0},   {"LDS128", "count", 0},
	{"LDG", "count", 0},          {"LDGSTS", "count", 0}, {"HMMA", "count", 0}, {"HGMMA", "count", 0},
	{"BAR", "count", 0},          {"reuse", "count", 0},  {"registers", "regs", 1}, {"spills", "B", 1},
};

const char *sass_row_word(int i, int *kernel_only, const char **unit)
{
	if (i < 0 || i >= (int)(sizeof row_words / sizeof row_words[0]))
		return NULL;
	if (kernel_only)
		*kernel_only = row_words[i].kernel_only;
	if (unit)
		*unit = row_words[i].unit;
	return row_words[i].word;
}
