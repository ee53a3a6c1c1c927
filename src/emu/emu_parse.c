/* emu_parse: a PTX module into decoded per-entry op arrays — directives, .reg/.shared/.param declarations, entries, labels and regions. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_parser.h"
#include "base/checked.h"
#include "base/util.h"

static int vperr(emu_pstate *ps, emu_error why, int line, const char *fmt, va_list ap)
{
	if (ps->why)
		return -1;
	ps->why = why;
	run_error *e = ps->e;
	memset(e, 0, sizeof *e);
	e->warp = -1;
	util_strlcpy(e->path, ps->path, sizeof e->path);
	e->line = line;
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	return -1;
}

int emu_perr(emu_pstate *ps, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vperr(ps, EMU_ERR_PARSE, line, fmt, ap);
	va_end(ap);
	return -1;
}

int emu_punsup(emu_pstate *ps, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vperr(ps, EMU_ERR_UNSUPPORTED, line, fmt, ap);
	va_end(ap);
	return -1;
}

int emu_name_copy(emu_pstate *ps, char *dst, const char *src, size_t len)
{
	if (len >= EMU_NAME)
		return emu_perr(ps, ps->line, "the name '%.40s...' is %zu characters; the emulator takes up to %d", src, len,
				EMU_NAME - 1);
	memcpy(dst, src, len);
	dst[len] = 0;
	return 0;
}

/* ---- sizes from the text: strict, checked, within the limits of emu.h ---- */

/* A decimal count ("16" in b<16>, x[16], .align 16): digits only, no sign,
 * at most max. Returns 0 and *out (end past the digits), or -1. */
static int read_count(const char *s, int64_t max, int64_t *out, const char **end)
{
	int64_t v = 0;
	const char *p = s;
	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++)
		if (ck_mul_i64(v, 10, &v) || ck_add_i64(v, *p - '0', &v) || v > max)
			return -1;
	*out = v;
	if (end)
		*end = p;
	return 0;
}

/* "[a][b]..." after a name: the product of the counts (1 when none, 0 for
 * an empty "[]"), at most max; -1 when a count is not a plain number, is
 * zero, or the product is more than max. */
static int array_count(const char *s, int64_t max, int64_t *out)
{
	int64_t n = 1;
	while (*s == '[') {
		int64_t c;
		if (s[1] == ']' && n == 1 && !s[2]) {
			*out = 0;
			return 0;
		}
		if (read_count(s + 1, max, &c, &s) || c == 0 || *s != ']' || ck_mul_i64(n, c, &n) || n > max)
			return -1;
		s++;
	}
	if (*s)
		return -1;
	*out = n;
	return 0;
}

/* An .align value: a power of two up to EMU_MAX_ALIGN; 0, or -1. */
static int read_align(const char *s, int *align)
{
	int64_t a;
	const char *end;
	if (!s || read_count(s, EMU_MAX_ALIGN, &a, &end) || *end || a == 0 || (a & (a - 1)))
		return -1;
	*align = (int)a;
	return 0;
}

/* ".reg .f32 a, b<4>, c;" or ".reg .v4 .f32 v;" */
static int decl_reg(emu_pstate *ps, char *s)
{
	s = emu_skip_sp(s + 4);
	int vec = 1;
	emu_type t = ET_NONE;
	while (*s == '.') {
		char w[32];
		int n = 0;
		s++;
		while (*s && !isspace((unsigned char)*s) && n < 31)
			w[n++] = *s++;
		w[n] = 0;
		s = emu_skip_sp(s);
		if (!strcmp(w, "v2"))
			vec = 2;
		else if (!strcmp(w, "v4"))
			vec = 4;
		else if ((t = emu_decl_type_from_name(w)) == ET_NONE)
			return emu_punsup(ps, ps->line, "unsupported register type '.%s'", w);
	}
	if (t == ET_NONE)
		return emu_perr(ps, ps->line, ".reg without a type");
	char *parts[EMU_MAX_REG_NAMES];
	int np = emu_split_commas(s, parts, EMU_MAX_REG_NAMES);
	if (np > EMU_MAX_REG_NAMES)
		return emu_punsup(ps, ps->line, "more than %d names in one .reg", EMU_MAX_REG_NAMES);
	for (int i = 0; i < np; i++) {
		char *p = emu_skip_sp(parts[i]);
		emu_rtrim(p);
		int count = 0;
		char *lt = strchr(p, '<');
		if (lt) {
			int64_t c;
			const char *end;
			if (read_count(lt + 1, EMU_MAX_REGS, &c, &end) || c == 0 || strcmp(end, ">"))
				return emu_perr(ps, ps->line, "bad register range '%s' (1..%d registers)", p, EMU_MAX_REGS);
			count = (int)c;
			*lt = 0;
		}
		if (!emu_is_ident_start((unsigned char)*p))
			return emu_perr(ps, ps->line, "bad register name '%s'", p);
		EMU_GROW(ps->regs, ps->nregdecl, ps->capregdecl);
		emu_regdecl *r = &ps->regs[ps->nregdecl];
		if (emu_name_copy(ps, r->name, p, strlen(p)))
			return -1;
		ps->nregdecl++;
		r->count = count;
		r->vec = vec;
		r->type = t;
		/* a vector range %v<N> is N vectors of vec registers each */
		int total = (count ? count : 1) * vec;
		if (total > EMU_MAX_REGS - ps->k->nregs)
			return emu_punsup(ps, ps->line, "more than %d registers in '%s' (the emulator's limit)", EMU_MAX_REGS,
					  ps->k->name);
		r->base = ps->k->nregs;
		for (int j = 0; j < total; j++)
			emu_new_reg(ps, 0, 0);
	}
	return 0;
}

/* ".shared .align 16 .b8 name[bytes];" and ".extern .shared .align 16 .b8 name[];" into L; with
 * local, ".local .align 16 .b8 __local_depot0[48];": the same declaration, laid out in its own
 * space (per thread, from 0) up to that space's limit. */
static int decl_space(emu_pstate *ps, char *s, emu_shlist *L, int local)
{
	const char *sp = local ? ".local" : ".shared";
	int limit = local ? EMU_MAX_LOCAL : EMU_MAX_SMEM;
	int is_extern = strstr(s, ".extern") != NULL;
	int align = 1, elem = 0;
	char name[EMU_NAME] = "";
	int64_t count = 1;
	char dims[80] = ""; /* "[16][4]" after the name, read once the element type is known */
	char *p = s;
	while (*p) {
		p = emu_skip_sp(p);
		if (!*p)
			break;
		char w[EMU_NAME + 32];
		int n = 0;
		while (*p && !isspace((unsigned char)*p) && n < (int)sizeof w - 1)
			w[n++] = *p++;
		w[n] = 0;
		if (!strcmp(w, ".align")) {
			p = emu_skip_sp(p);
			char a[16] = "";
			size_t an = strcspn(p, " \t");
			util_strlcpy(a, p, an + 1 < sizeof a ? an + 1 : sizeof a);
			p += an;
			if (read_align(a, &align) < 0)
				return emu_perr(ps, ps->line, "bad .align '%s' (a power of two up to %d)", a, EMU_MAX_ALIGN);
		} else if (!strcmp(w, ".extern") || !strcmp(w, sp) || !strcmp(w, ".visible")) {
			continue;
		} else if (w[0] == '.') {
			emu_type t = emu_decl_type_from_name(w + 1);
			if (t == ET_NONE || t == ET_PRED)
				return emu_punsup(ps, ps->line, "unsupported %s type '%s'", sp, w);
			elem = emu_types[t].bytes;
		} else {
			char *br = strchr(w, '[');
			if (br) {
				util_strlcpy(dims, br, sizeof dims);
				*br = 0;
			}
			if (emu_name_copy(ps, name, w, strlen(w)))
				return -1;
			if (strchr(p, '='))
				return emu_punsup(ps, ps->line, "initialised %s is not supported", sp);
			break;
		}
	}
	if (!name[0] || !elem)
		return emu_perr(ps, ps->line, "cannot read this %s declaration", sp);
	if (is_extern && local)
		return emu_punsup(ps, ps->line, "unsupported .extern .local");
	if ((dims[0] && array_count(dims, limit, &count) < 0) || (count == 0 && !is_extern))
		return emu_perr(ps, ps->line, "bad size of %s '%s' (1..%d bytes)", sp, name, limit);
	if (align < elem)
		align = elem;
	emu_shdecl d = {.align = align, .is_extern = is_extern};
	memcpy(d.name, name, sizeof d.name);
	d.offset = -1; /* extern: placed after the static ones later */
	if (!is_extern) {
		/* counts, sizes and offsets stay within EMU_MAX_SMEM, so an int holds them */
		int64_t off, end;
		if (ck_align_up_i64(L->bytes, align, &off) || ck_mul_i64(count, elem, &end) || ck_add_i64(off, end, &end) ||
		    end > limit)
			return emu_punsup(ps, ps->line, "'%s' takes %s past %d bytes, the emulator's limit", name, sp, limit);
		d.offset = (int)off;
		L->bytes = (int)end;
	}
	EMU_GROW(L->v, L->n, L->cap);
	L->v[L->n++] = d;
	return 0;
}

/* ---- regions ---- */

/* The `// @name` ... `// @end` regions, from the one region scanner: the
 * module keeps their names and lines, each line the mask of regions it is in.
 * A problem with the markers is a parse error at its line. */
static int find_regions(emu_pstate *ps, const char *text)
{
	ptx_regions rs;
	int problems = ptx_regions_scan(text, &rs);
	int lines = 1;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	ps->nlines = lines + 2;
	ps->line_regions = xcalloc((size_t)ps->nlines, sizeof(uint32_t));
	if (problems)
		return emu_perr(ps, rs.problem[0].line, "%s", rs.problem[0].msg);
	emu_module *m = ps->m;
	_Static_assert(EMU_MAX_REGIONS <= 32, "a region is a bit of emu_op.regions");
	for (int r = 0; r < rs.n; r++) {
		util_strlcpy(m->regions[r].name, rs.r[r].name, sizeof m->regions[r].name);
		m->regions[r].first_line = rs.r[r].first + 1;
		m->regions[r].last_line = rs.r[r].last + 1;
		for (int l = rs.r[r].first + 1; l <= rs.r[r].last + 1 && l < ps->nlines; l++)
			ps->line_regions[l] |= 1u << r;
	}
	m->nregions = rs.n;
	return 0;
}

/* ---- entries ---- */

static void kernel_free(emu_kernel *k)
{
	free(k->ops);
	free(k->konst);
	free(k->is_const);
	free(k->params);
	free(k->wgmma);
	free(k->wmma);
	free(k->funcs);
}

/* ".entry name ( .param .u64 A, ... )" */
static int parse_params(emu_pstate *ps, const char *hdr)
{
	const char *lp = strchr(hdr, '(');
	const char *rp = strrchr(hdr, ')');
	if (!lp && !rp)
		return 0;
	if (!lp || !rp || rp < lp) /* ")(" made a negative length (found by fuzz_emu_parse) */
		return emu_perr(ps, ps->line, "cannot read the parameter list of '%s'", ps->k->name);
	size_t len = (size_t)(rp - lp - 1);
	char *inner = xmalloc(len + 1);
	memcpy(inner, lp + 1, len);
	inner[len] = 0;
	char *parts[EMU_MAX_PARAMS];
	int np = emu_split_commas(inner, parts, EMU_MAX_PARAMS);
	emu_kernel *k = ps->k;
	if (np > EMU_MAX_PARAMS) {
		free(inner);
		return emu_punsup(ps, ps->line, "'%s' has more than %d parameters", k->name, EMU_MAX_PARAMS);
	}
	k->params = xcalloc((size_t)(np ? np : 1), sizeof *k->params);
	int64_t off = 0;
	for (int i = 0; i < np; i++) {
		char *p = emu_skip_sp(parts[i]);
		emu_type t = ET_NONE;
		int align = 0;
		char name[EMU_NAME] = "";
		int64_t count = 1;
		char *save = NULL;
		for (char *w = strtok_r(p, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
			if (!strcmp(w, ".param") || !strncmp(w, ".ptr", 4) || !strcmp(w, ".global") ||
			    !strcmp(w, ".shared") || !strcmp(w, ".const") || !strcmp(w, ".local"))
				continue;
			if (!strcmp(w, ".align")) {
				if (read_align(strtok_r(NULL, " \t", &save), &align) < 0) {
					free(inner);
					return emu_perr(ps, ps->line, "bad .align in parameter %d of '%s' (a power of two up to %d)",
							i + 1, k->name, EMU_MAX_ALIGN);
				}
				continue;
			}
			if (w[0] == '.') {
				t = emu_decl_type_from_name(w + 1);
				continue;
			}
			char *br = strchr(w, '[');
			if (br) {
				if (array_count(br, EMU_MAX_PARAM_BYTES, &count) < 0 || count == 0) {
					free(inner);
					return emu_perr(ps, ps->line, "bad array size in parameter %d of '%s' (1..%d)", i + 1,
							k->name, EMU_MAX_PARAM_BYTES);
				}
				*br = 0;
			}
			if (emu_name_copy(ps, name, w, strlen(w))) {
				free(inner);
				return -1;
			}
		}
		if (t == ET_NONE || !name[0]) {
			free(inner);
			return emu_perr(ps, ps->line, "cannot read parameter %d of '%s'", i + 1, k->name);
		}
		int64_t bytes, start, end;
		if (align < emu_types[t].bytes)
			align = emu_types[t].bytes;
		if (ck_mul_i64(emu_types[t].bytes, count, &bytes) || ck_align_up_i64(off, align, &start) ||
		    ck_add_i64(start, bytes, &end) || end > EMU_MAX_PARAM_BYTES) {
			free(inner);
			return emu_punsup(ps, ps->line, "the parameters of '%s' take more than %d bytes", k->name,
					  EMU_MAX_PARAM_BYTES);
		}
		emu_param *pp = &k->params[k->nparams++];
		memcpy(pp->name, name, sizeof pp->name);
		pp->type = t;
		pp->bytes = (int)bytes;
		pp->offset = (int)start;
		off = end;
	}
	k->param_bytes = (int)off;
	free(inner);
	return 0;
}

/* A call's argument list declared in the body ("{ .param .b64 param0; ...
 * call.uni f, (param0); }"): its names, for st.param to them. */
static int decl_callparam(emu_pstate *ps, char *s)
{
	enum { MAX_CALL_PARAMS = 16 };
	char *parts[MAX_CALL_PARAMS];
	int np = emu_split_commas(s, parts, MAX_CALL_PARAMS);
	if (np > MAX_CALL_PARAMS)
		return emu_punsup(ps, ps->line, "more than %d names in one call's .param declaration", MAX_CALL_PARAMS);
	for (int i = 0; i < np; i++) {
		char *w = parts[i], *name = NULL;
		for (char *save = NULL, *t = strtok_r(w, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
			if (t[0] != '.' && !isdigit((unsigned char)t[0]))
				name = t;
		if (!name)
			return emu_perr(ps, ps->line, "cannot read this .param declaration");
		name[strcspn(name, "[")] = 0;
		EMU_GROW(ps->callparams, ps->ncallparams, ps->capcallparams);
		ps->callregs = xreallocarray(ps->callregs, (size_t)ps->capcallparams, sizeof *ps->callregs);
		if ((ps->callregs[ps->ncallparams] = emu_new_reg(ps, 0, 0)) < 0)
			return -1;
		ps->callparams[ps->ncallparams++] = xstrdup(name);
	}
	return 0;
}

static int parse_body(emu_pstate *ps, emu_cursor *c)
{
	/* Braces open scopes: inline asm blocks declare their own registers
	 * ("{ .reg .f16 low, high; ... }"), and the same names again in the next. */
	enum { MAX_SCOPES = 64 };
	int scope[MAX_SCOPES], depth = 0;
	for (;;) {
		emu_cur_skip(c);
		char ch = c->t[c->pos];
		if (!ch)
			return emu_perr(ps, c->line, "end of file inside '%.200s'", ps->k->name);
		if (ch == '{') {
			if (depth == MAX_SCOPES)
				return emu_perr(ps, c->line, "blocks nested more than %d deep", MAX_SCOPES);
			scope[depth++] = ps->nregdecl;
			c->pos++;
			continue;
		}
		if (ch == '}') {
			c->pos++;
			if (depth == 0)
				return 0;
			ps->nregdecl = scope[--depth];
			continue;
		}
		/* a label? */
		size_t p = c->pos;
		if (emu_is_ident_start((unsigned char)ch)) {
			size_t q = p + 1;
			while (emu_is_ident_char((unsigned char)c->t[q]))
				q++;
			size_t r = q;
			while (c->t[r] == ' ' || c->t[r] == '\t')
				r++;
			if (c->t[r] == ':') {
				EMU_GROW(ps->labels, ps->nlabels, ps->caplabels);
				ps->line = c->line;
				if (emu_name_copy(ps, ps->labels[ps->nlabels].name, c->t + p, q - p))
					return -1;
				ps->labels[ps->nlabels++].op = ps->k->nops;
				c->pos = r + 1;
				continue;
			}
		}
		int line = c->line;
		ps->line = line;
		int loc = !strncmp(c->t + p, ".loc", 4) && isspace((unsigned char)c->t[p + 4]); /* not .local */
		if (loc || !strncmp(c->t + p, ".file", 5) || !strncmp(c->t + p, ".pragma", 7)) {
			while (c->t[c->pos] && c->t[c->pos] != '\n' && c->t[c->pos] != ';')
				c->pos++;
			if (c->t[c->pos] == ';')
				c->pos++;
			continue;
		}
		if (ch == ';') { /* an empty statement */
			c->pos++;
			continue;
		}
		char found;
		char *stmt = emu_cur_until(c, ";", &found);
		if (found != ';') {
			free(stmt);
			return emu_perr(ps, line, "missing ';'");
		}
		char *s = emu_skip_sp(stmt);
		int rc = 0;
		if (!strncmp(s, ".reg", 4))
			rc = decl_reg(ps, s);
		else if (!strncmp(s, ".shared", 7) || !strncmp(s, ".extern", 7))
			rc = decl_space(ps, s, &ps->shared, 0);
		else if (!strncmp(s, ".local", 6))
			rc = decl_space(ps, s, &ps->local, 1);
		else if (!strncmp(s, ".param", 6))
			rc = decl_callparam(ps, s);
		else if (!strncmp(s, ".callprototype", 14))
			rc = 0; /* issue 39: an indirect call's prototype; the call through it is refused by name */
		else if (*s == '.')
			rc = emu_punsup(ps, line, "unsupported directive '%.*s'", (int)strcspn(s, " \t"), s);
		else if (ps->k->nops >= EMU_MAX_OPS)
			rc = emu_punsup(ps, line, "more than %d instructions in '%s' (the emulator's limit)", EMU_MAX_OPS,
					ps->k->name);
		else
			rc = emu_decode(ps, s);
		free(stmt);
		if (rc < 0)
			return -1;
	}
}

/* The branches of the body just decoded to its labels. */
static int resolve_labels(emu_pstate *ps)
{
	emu_kernel *k = ps->k;
	for (int u = 0; u < ps->nuses; u++) {
		int target = -1;
		for (int l = 0; l < ps->nlabels; l++)
			if (!strcmp(ps->labels[l].name, ps->uses[u].name))
				target = ps->labels[l].op;
		if (target < 0) {
			ps->line = k->ops[ps->uses[u].op].line;
			return emu_perr(ps, ps->line, "unknown label '%s'", ps->uses[u].name);
		}
		k->ops[ps->uses[u].op].imm = target;
	}
	return 0;
}

/* ---- issue 39: the module's .func, decoded after each entry that calls one ---- */

static void skip_body(emu_cursor *c);

/* A .func with a body: its header and where the body starts. */
struct emu_funcdef {
	char *hdr;
	size_t pos;               /* just past its '{' in ps->clean */
	int line;
};

/* ".func (.param .b32 ret) name(.param .b32 a, ...)": the name, or "" */
static void func_name(const char *hdr, char *name, size_t n)
{
	const char *p = strstr(hdr, ".func") + 5;
	p += strspn(p, " \t");
	if (*p == '(')
		p += strcspn(p, ")") + (p[strcspn(p, ")")] == ')');
	p += strspn(p, " \t");
	size_t len = 0;
	while (emu_is_ident_char((unsigned char)p[len]))
		len++;
	util_strlcpy(name, p, len + 1 < n ? len + 1 : n);
}

/* Finds every .func with a body before any entry is decoded: an entry may
 * call one defined after it. The walk is parse_module's, reading nothing else. */
static void scan_funcs(emu_pstate *ps)
{
	emu_cursor c = {.t = (char *)ps->clean, .pos = 0, .line = 1};
	for (;;) {
		emu_cur_skip(&c);
		const char *at = c.t + c.pos;
		if (!*at)
			return;
		if (!strncmp(at, ".file", 5) || !strncmp(at, ".loc", 4) || !strncmp(at, ".version", 8) ||
		    !strncmp(at, ".target", 7) || !strncmp(at, ".address_size", 13)) {
			c.pos += strcspn(at, "\n");
			continue;
		}
		char found;
		char *hdr = emu_cur_until(&c, ";{", &found);
		int entry = strstr(hdr, ".entry") != NULL, func = found == '{' && strstr(hdr, ".func") && !entry;
		if (func) {
			EMU_GROW(ps->funcdefs, ps->nfuncdefs, ps->capfuncdefs);
			ps->funcdefs[ps->nfuncdefs++] = (struct emu_funcdef){.hdr = hdr, .pos = c.pos, .line = c.line};
		} else {
			free(hdr);
		}
		if (found == '{' && (func || entry))
			skip_body(&c);
		if (!found)
			return;
	}
}

static const struct emu_funcdef *find_funcdef(const emu_pstate *ps, const char *name)
{
	char n[EMU_NAME];
	for (int i = 0; i < ps->nfuncdefs; i++) {
		func_name(ps->funcdefs[i].hdr, n, sizeof n);
		if (!strcmp(n, name))
			return &ps->funcdefs[i];
	}
	return NULL;
}

int emu_func_defined(const emu_pstate *ps, const char *name)
{
	return find_funcdef(ps, name) != NULL;
}

int emu_func_ref(emu_pstate *ps, const char *name)
{
	emu_kernel *k = ps->k;
	for (int i = 0; i < k->nfuncs; i++)
		if (!strcmp(k->funcs[i].name, name))
			return i;
	if (!find_funcdef(ps, name))
		return -1;
	k->funcs = xreallocarray(k->funcs, (size_t)k->nfuncs + 1, sizeof *k->funcs);
	emu_func *f = &k->funcs[k->nfuncs];
	memset(f, 0, sizeof *f);
	util_strlcpy(f->name, name, sizeof f->name);
	f->entry = -1;
	return k->nfuncs++;
}

/* The parameters in "(.param .b32 a, .param .f32 b)" at s: each a call
 * parameter (a register ld.param and st.param name) into regs, at most max;
 * the count, or -1. A by-value struct (an array parameter) is refused. */
static int func_params(emu_pstate *ps, const char *fname, const char *s, int *regs, int max)
{
	char *inner = xstrdup(s + 1);
	inner[strcspn(inner, ")")] = 0;
	char *parts[EMU_MAX_SRC + 1];
	int np = emu_skip_sp(inner)[0] ? emu_split_commas(inner, parts, EMU_MAX_SRC + 1) : 0, n = 0;
	for (int i = 0; i < np && n >= 0; i++) {
		if (i >= max || strchr(parts[i], '[')) {
			n = emu_punsup(ps, ps->line, "'%.200s' takes %s: the emulator passes up to %d scalar parameters and %d return "
				       "values", fname, i >= max ? "more" : "an array (a struct by value)", EMU_MAX_SRC,
				       EMU_MAX_FUNC_RETS);
			break;
		}
		char *name = NULL;
		for (char *save = NULL, *t = strtok_r(parts[i], " \t", &save); t; t = strtok_r(NULL, " \t", &save))
			if (t[0] != '.' && !isdigit((unsigned char)t[0]))
				name = t;
		if (!name) {
			n = emu_perr(ps, ps->line, "cannot read parameter %d of '%.200s'", i + 1, fname);
			break;
		}
		EMU_GROW(ps->callparams, ps->ncallparams, ps->capcallparams);
		ps->callregs = xreallocarray(ps->callregs, (size_t)ps->capcallparams, sizeof *ps->callregs);
		if ((ps->callregs[ps->ncallparams] = emu_new_reg(ps, 0, 0)) < 0) {
			n = -1;
			break;
		}
		regs[n++] = ps->callregs[ps->ncallparams];
		ps->callparams[ps->ncallparams++] = xstrdup(name);
	}
	free(inner);
	return n;
}

/* Decodes funcs[i] of the current kernel after its ops: its return values
 * and parameters become registers, its body sees only its own registers and
 * labels, and running off its end returns. */
static int decode_func(emu_pstate *ps, int i)
{
	emu_kernel *k = ps->k;
	const struct emu_funcdef *def = find_funcdef(ps, k->funcs[i].name);
	char fname[EMU_NAME];
	util_strlcpy(fname, k->funcs[i].name, sizeof fname);
	ps->line = def->line;
	const char *h = strstr(def->hdr, ".func") + 5;
	h += strspn(h, " \t");
	int rets[EMU_MAX_FUNC_RETS], params[EMU_MAX_FUNC_PARAMS], nr = 0, np;
	int reg0 = k->nregs, local0 = ps->local.bytes;
	ps->nregdecl = ps->nlabels = ps->nuses = 0;
	if (*h == '(' && (nr = func_params(ps, fname, h, rets, EMU_MAX_FUNC_RETS)) < 0)
		return -1;
	const char *pl = strchr(h + (*h == '(' ? strcspn(h, ")") : 0), '(');
	np = pl ? func_params(ps, fname, pl, params, EMU_MAX_FUNC_PARAMS) : 0;
	if (np < 0)
		return -1;
	int entry = k->nops;
	emu_cursor c = {.t = (char *)ps->clean, .pos = def->pos, .line = def->line};
	ps->in_func = 1;
	int rc = parse_body(ps, &c);
	ps->in_func = 0;
	if (rc < 0 || ps->why)
		return -1;
	ps->line = k->nops > entry ? k->ops[k->nops - 1].line : def->line;
	emu_op *o = emu_new_op(ps); /* a body that runs off its end returns */
	o->code = OP_RET;
	o->cls = EMU_CLS_CONTROL;
	if (resolve_labels(ps) < 0)
		return -1;
	emu_func *f = &k->funcs[i]; /* decoding may have added funcs (and moved the array) */
	f->entry = entry;
	f->reg0 = reg0;
	f->reg1 = k->nregs;
	f->local0 = local0;
	f->local1 = ps->local.bytes;
	f->nrets = nr;
	f->nparams = np;
	memcpy(f->ret, rets, sizeof rets);
	memcpy(f->param, params, sizeof params);
	f->line = def->line;
	return 0;
}

/* Decodes every .func the entry calls (and they call) after its ops, and
 * checks each call's arguments against its callee's. */
static int link_funcs(emu_pstate *ps)
{
	emu_kernel *k = ps->k;
	for (int i = 0; i < k->nfuncs; i++)
		if (decode_func(ps, i) < 0)
			return -1;
	for (int j = 0; j < k->nops; j++) {
		const emu_op *o = &k->ops[j];
		if (o->code != OP_CALL)
			continue;
		const emu_func *f = &k->funcs[o->imm];
		if (o->nsrc != f->nparams || o->ndst > f->nrets)
			return emu_perr(ps, o->line, "call of '%.200s' with %d arguments and %d return values; it takes %d and "
					"gives %d", f->name, o->nsrc, o->ndst, f->nparams, f->nrets);
	}
	return 0;
}

static int finish_kernel(emu_pstate *ps)
{
	emu_kernel *k = ps->k;
	if (resolve_labels(ps) < 0)
		return -1;
	/* an entry that runs off its end exits */
	ps->line = k->nops ? k->ops[k->nops - 1].line : k->line;
	emu_op *o = emu_new_op(ps);
	o->code = OP_EXIT;
	o->cls = EMU_CLS_CONTROL;
	o->regions = 0;
	if (k->nfuncs && link_funcs(ps) < 0)
		return -1;
	emu_mark_vgroups(k);
	/* static shared: module-level variables first, then the entry's own (laid out after them) */
	int total = ps->shared.bytes;
	k->smem_static = total;
	k->local_bytes = ps->local.bytes;
	int dyn = (total + 127) / 128 * 128; /* dynamic shared memory follows, 128-aligned */
	for (int i = 0; i < ps->nextern_fix; i++) {
		k->konst[ps->extern_fix[i]] = (uint64_t)dyn;
		k->is_const[ps->extern_fix[i]] = 1;
		k->uses_dynamic_smem = 1;
	}
	return 0;
}

/* ".entry name (params) { body }", its header read up to the '{'. */
static int parse_entry(emu_pstate *ps, emu_cursor *c, const char *hdr, const char *name, int *capk)
{
	emu_module *m = ps->m;
	EMU_GROW(m->k, m->nk, *capk);
	emu_kernel *k = &m->k[m->nk++];
	memset(k, 0, sizeof *k);
	for (int s = 0; s < SPEC_COUNT; s++)
		k->special_reg[s] = -1;
	k->line = ps->line;
	ps->k = k;
	if (emu_name_copy(ps, k->name, name, strlen(name)))
		return -1;
	ps->shared.bytes = ps->mshared.bytes;
	ps->nregdecl = ps->shared.n = ps->nlabels = ps->nuses = ps->nextern_fix = 0;
	ps->local.n = ps->local.bytes = 0;
	for (int i = 0; i < ps->ncallparams; i++)
		free(ps->callparams[i]);
	ps->ncallparams = 0;
	ps->capops = ps->capregs = 0;
	/* the performance directives setmaxnreg and the cluster launch need */
	const char *mr = strstr(hdr, ".maxnreg"), *rc = strstr(hdr, ".reqnctapercluster");
	if (mr)
		k->maxnreg = atoi(mr + 8);
	if (rc && sscanf(rc + 18, " %u , %u , %u", &k->reqcluster[0], &k->reqcluster[1], &k->reqcluster[2]) < 1)
		k->reqcluster[0] = 0;
	if (parse_params(ps, hdr) < 0 || parse_body(ps, c) < 0 || finish_kernel(ps) < 0)
		return -1;
	return 0;
}

/* Skips a body: another entry's, or a .func's (decoded where an entry calls it). */
static void skip_body(emu_cursor *c)
{
	for (int depth = 1; c->t[c->pos] && depth; c->pos++) {
		if (c->t[c->pos] == '{')
			depth++;
		else if (c->t[c->pos] == '}')
			depth--;
		else if (c->t[c->pos] == '\n')
			c->line++;
	}
}

/* The name of ".entry name (...)", recorded in the module's list of entries. */
static char *entry_name(const char *hdr)
{
	const char *e = strstr(hdr, ".entry") + 6;
	while (*e == ' ' || *e == '\t')
		e++;
	size_t n = 0;
	while (emu_is_ident_char((unsigned char)e[n]))
		n++;
	char *name = xmalloc(n + 1);
	memcpy(name, e, n);
	name[n] = 0;
	return name;
}

static void add_entry_name(emu_module *m, const char *name, int *cap)
{
	EMU_GROW(m->entries, m->nentries, *cap);
	m->entries[m->nentries++] = xstrdup(name);
}

/* The bytes a module-level declaration asks for: its element type's size
 * times its dimensions ("[16][4]"); an empty "[]" is sized by its initialiser
 * (keep_bytes). -1 (and the message) when it cannot be held. */
static int64_t global_bytes(emu_pstate *ps, const char *hdr, size_t name_end)
{
	int64_t elem = 0, n = 1;
	for (const char *p = hdr; p < hdr + name_end; p++) {
		if (*p != '.' || (p > hdr && !isspace((unsigned char)p[-1])))
			continue;
		char w[24];
		size_t len = strcspn(p + 1, " \t");
		util_strlcpy(w, p + 1, len + 1 < sizeof w ? len + 1 : sizeof w);
		emu_type t = emu_decl_type_from_name(w);
		if (t != ET_NONE && t != ET_PRED)
			elem = emu_types[t].bytes;
	}
	for (const char *p = hdr + name_end; *p == '[';) {
		char *end;
		long long d = strtoll(p + 1, &end, 10);
		if (*end != ']')
			break;
		n = end == p + 1 ? 0 : n * d;
		if (d < 0 || n > (int64_t)EMU_MAX_GVAR_BYTES)
			return emu_perr(ps, ps->line, "a module-level variable of more than %llu bytes: the emulator holds at most that",
					(unsigned long long)EMU_MAX_GVAR_BYTES);
		p = end + 1;
	}
	return elem * n;
}

/* A module-level .global or .const variable: its name, address and size;
 * each launch gets memory for it (emu_exec_at). */
static int note_global(emu_pstate *ps, const char *hdr)
{
	size_t end = strcspn(hdr, "[=");
	size_t dims = end;
	while (end && (hdr[end - 1] == ' ' || hdr[end - 1] == '\t'))
		end--;
	size_t start = end;
	while (start && emu_is_ident_char((unsigned char)hdr[start - 1]))
		start--;
	int64_t bytes = global_bytes(ps, hdr, dims);
	if (bytes < 0)
		return -1;
	uint64_t total = (uint64_t)bytes;
	for (int i = 0; i < ps->nglobals; i++)
		total += ps->m->gvars[i].bytes;
	if (ps->nglobals >= EMU_MAX_GVARS || total > EMU_MAX_GVAR_BYTES)
		return emu_perr(ps, ps->line, "module-level variables: more than %d or %llu bytes in all, more than the emulator holds",
				EMU_MAX_GVARS, (unsigned long long)EMU_MAX_GVAR_BYTES);
	EMU_GROW(ps->globals, ps->nglobals, ps->capglobals);
	emu_module *m = ps->m;
	m->gvars = xreallocarray(m->gvars, (size_t)ps->capglobals, sizeof *m->gvars);
	m->gvars[ps->nglobals] = (emu_gvar){.bytes = (uint64_t)bytes};
	m->ngvars = ps->nglobals + 1;
	char *g = xmalloc(end - start + 1);
	memcpy(g, hdr + start, end - start);
	g[end - start] = 0;
	ps->globals[ps->nglobals++] = g;
	return 0;
}

/* The initialiser of the byte array noted last ("105, 32, ..."), its first
 * 4096 bytes: the strings printf and assert read. */
static void keep_bytes(emu_pstate *ps, const char *init)
{
	enum { MAX = 1 << 12 };
	emu_gvar *g = &ps->m->gvars[ps->nglobals - 1];
	g->data = xcalloc(1, MAX + 1); /* + 1: a terminator however long the string */
	for (const char *p = init; *p && g->size < MAX;) {
		char *end;
		long v = strtol(p, &end, 0);
		if (end == p)
			break;
		g->data[g->size++] = (uint8_t)v;
		p = end + strspn(end, " ,\t");
	}
	if (g->bytes < (uint64_t)g->size) /* "[]": as long as its initialiser */
		g->bytes = (uint64_t)g->size;
}

/* Text at the top level that no directive starts (ptxas refuses it): what is
 * left after a closing brace, blanks, and the labels of a -G build's debug
 * sections ($L__...:) is not PTX. */
static int stray(const char *hdr)
{
	hdr += strspn(hdr, " \t\r\n}");
	return *hdr && *hdr != '.' && *hdr != '$';
}

/* The module's top level: directives, entries, module-level .shared. */
static void parse_module(emu_pstate *ps, emu_cursor *c)
{
	static const char *const ignored[] = {".version", ".target", ".address_size", ".file", ".loc"};
	int capk = 0, capn = 0;
	while (!ps->why) {
		emu_cur_skip(c);
		const char *at = c->t + c->pos;
		if (!*at)
			return;
		ps->line = c->line;
		int skip = 0;
		for (size_t i = 0; i < ARRAY_LEN(ignored); i++)
			skip |= !strncmp(at, ignored[i], strlen(ignored[i]));
		if (skip) {
			c->pos += strcspn(at, "\n");
			continue;
		}
		char found;
		char *hdr = emu_cur_until(c, ";{", &found);
		char *name = strstr(hdr, ".entry") ? entry_name(hdr) : NULL;
		if (name)
			add_entry_name(ps->m, name, &capn);
		if (name && found != '{')
			emu_perr(ps, ps->line, "entry without a body");
		else if (name && ps->want && strcmp(name, ps->want))
			skip_body(c); /* another entry: what it holds cannot refuse this one */
		else if (name)
			parse_entry(ps, c, hdr, name, &capk);
		else if (strstr(hdr, ".func") && found == '{')
			skip_body(c);
		else if (strstr(hdr, ".func"))
			; /* a prototype */
		else if (found == ';' && strstr(hdr, ".shared"))
			decl_space(ps, hdr, &ps->mshared, 0);
		else if (stray(hdr))
			emu_perr(ps, ps->line, "'%.40s' outside any .entry: not PTX (a directive starts with '.')",
				 hdr + strspn(hdr, " \t\n}"));
		else if (strstr(hdr, ".global") || strstr(hdr, ".const")) {
			if (note_global(ps, hdr) < 0) {
				free(name);
				free(hdr);
				return;
			}
			if (found == '{') { /* "= {105, 32, ...};": the initialiser, then its ';' */
				char f;
				char *init = emu_cur_until(c, "}", &f);
				if (strstr(hdr, ".b8") || strstr(hdr, ".u8") || strstr(hdr, ".s8"))
					keep_bytes(ps, init);
				free(init);
				c->pos += strcspn(c->t + c->pos, ";");
				c->pos += c->t[c->pos] == ';';
			}
		}
		free(name);
		free(hdr);
		if (!found)
			return;
	}
}

static void free_names(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void emu_module_no_entry(const emu_module *m, const char *entry, char *err, int errlen)
{
	int n = snprintf(err, (size_t)errlen, "%s: no .entry '%.300s'; its entries:", m->path, entry);
	for (int i = 0; i < m->nentries && n >= 0 && n < errlen; i++)
		n += snprintf(err + n, (size_t)(errlen - n), "%s %s", i ? "," : "", m->entries[i]);
}

emu_module *emu_module_parse_at(const char *path, const char *text, const char *entry, emu_error *why, run_error *e)
{
	emu_module *m = xcalloc(1, sizeof *m);
	util_strlcpy(m->path, path, sizeof m->path);
	run_error_msg(e, "%s", "");
	emu_pstate ps = {.path = path, .e = e, .m = m, .want = entry};
	char *clean = emu_strip_comments(text);
	emu_cursor c = {.t = clean, .pos = 0, .line = 1};
	ps.clean = clean;
	if (find_regions(&ps, text) == 0) {
		scan_funcs(&ps);
		parse_module(&ps, &c);
	}
	if (!ps.why && m->nentries == 0) {
		run_error_msg(e, "%s: no .entry found", path);
		ps.why = EMU_ERR_PARSE;
	} else if (!ps.why && entry && entry[0] && m->nk == 0) {
		emu_module_no_entry(m, entry, e->msg, (int)sizeof e->msg);
		ps.why = EMU_ERR_BAD_REQUEST;
	}
	m->locs = ptx_locs_scan(text);
	free(clean);
	free(ps.line_regions);
	free(ps.regs);
	free(ps.shared.v);
	free(ps.mshared.v);
	free(ps.local.v);
	free(ps.labels);
	free(ps.uses);
	free(ps.extern_fix);
	free_names(ps.globals, ps.nglobals);
	free_names(ps.callparams, ps.ncallparams);
	free(ps.callregs);
	for (int i = 0; i < ps.nfuncdefs; i++)
		free(ps.funcdefs[i].hdr);
	free(ps.funcdefs);
	if (why)
		*why = ps.why;
	if (ps.why) {
		emu_loc_fill(m->locs, e);
		emu_module_free(m);
		return NULL;
	}
	return m;
}

/* The text form of a failure, for the callers that print it. */
static emu_module *as_text(emu_module *m, const run_error *e, char *err, int errlen)
{
	if (errlen > 0) {
		err[0] = 0;
		if (!m)
			run_error_text(e, err, (size_t)errlen);
	}
	return m;
}

emu_module *emu_module_parse_entry(const char *path, const char *text, const char *entry, emu_error *why, char *err,
				   int errlen)
{
	run_error e;
	return as_text(emu_module_parse_at(path, text, entry, why, &e), &e, err, errlen);
}

emu_module *emu_module_parse(const char *path, const char *text, emu_error *why, char *err, int errlen)
{
	return emu_module_parse_entry(path, text, NULL, why, err, errlen);
}

emu_module *emu_module_load_at(const char *path, const char *entry, emu_error *why, run_error *e)
{
	char msg[256];
	char *own = util_read_file(path, NULL, msg, sizeof msg);
	if (!own) {
		run_error_msg(e, "%s", msg);
		if (why)
			*why = EMU_ERR_BAD_REQUEST;
		return NULL;
	}
	emu_module *m = emu_module_parse_at(path, own, entry, why, e);
	free(own);
	return m;
}

emu_module *emu_module_load_entry(const char *path, const char *entry, emu_error *why, char *err, int errlen)
{
	run_error e;
	return as_text(emu_module_load_at(path, entry, why, &e), &e, err, errlen);
}

emu_module *emu_module_load(const char *path, emu_error *why, char *err, int errlen)
{
	return emu_module_load_entry(path, NULL, why, err, errlen);
}

void emu_module_free(emu_module *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nk; i++)
		kernel_free(&m->k[i]);
	free(m->k);
	for (int i = 0; i < m->ngvars; i++)
		free(m->gvars[i].data);
	free(m->gvars);
	free_names(m->entries, m->nentries);
	ptx_locs_free(m->locs);
	free(m);
}

int emu_module_entries(const emu_module *m, const char **names, int max)
{
	int n = 0;
	for (int i = 0; i < m->nentries && n < max; i++)
		names[n++] = m->entries[i];
	return m->nentries;
}

const emu_kernel *emu_find_kernel(const emu_module *m, const char *name)
{
	for (int i = 0; i < m->nk; i++)
		if (!strcmp(m->k[i].name, name))
			return &m->k[i];
	return NULL;
}
