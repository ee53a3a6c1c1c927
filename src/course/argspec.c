/* argspec: the one parser of a kernel's argument spec (`run --args`, a lesson's `args:`) into plain parameter items. */
#include "course/argspec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fpconv.h"
#include "base/util.h"

static int bad(char *err, int errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *err, int errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, (size_t)errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- typed literals: one row per type ---- */

typedef struct arg_type arg_type;
struct arg_type {
	const char *name;
	unsigned bytes;
	int is_signed;            /* integers: the range is signed */
	/* Parses v (not empty) into the value's bits; -1 with why (a phrase) when it is not one. */
	int (*parse)(const arg_type *t, const char *v, uint64_t *bits, char *why, size_t whylen);
};

/* The integer range of a type, as text for messages. */
static void int_range(const arg_type *t, char *buf, size_t len)
{
	unsigned bits = 8 * t->bytes;
	if (t->is_signed)
		snprintf(buf, len, "-%llu..%llu", 1ULL << (bits - 1), (1ULL << (bits - 1)) - 1);
	else
		snprintf(buf, len, "0..%llu", bits == 64 ? (unsigned long long)UINT64_MAX : (1ULL << bits) - 1);
}

/* Decimal or 0x hex, an optional sign, nothing else: strtoull alone would
 * take leading blanks, wrap "-1" and read "010" as octal. */
static int parse_int(const arg_type *t, const char *v, uint64_t *bits, char *why, size_t whylen)
{
	char range[64];
	int_range(t, range, sizeof range);
	int neg = *v == '-';
	const char *d = v + (*v == '-' || *v == '+');
	int hex = d[0] == '0' && (d[1] == 'x' || d[1] == 'X');
	d += hex ? 2 : 0;
	char *end;
	errno = 0;
	unsigned long long mag = isxdigit((unsigned char)*d) ? strtoull(d, &end, hex ? 16 : 10) : 0;
	if (!isxdigit((unsigned char)*d) || *end) {
		snprintf(why, whylen, "not an integer (want %s, decimal or 0x hex)", range);
		return -1;
	}
	unsigned nbits = 8 * t->bytes;
	unsigned long long lim = t->is_signed ? (1ULL << (nbits - 1)) - !neg
				 : nbits == 64 ? UINT64_MAX : (1ULL << nbits) - 1;
	if (errno == ERANGE || mag > lim || (neg && !t->is_signed && mag)) {
		snprintf(why, whylen, "out of range for %s (%s)", t->name, range);
		return -1;
	}
	uint64_t x = neg ? (uint64_t)0 - mag : mag;
	*bits = nbits == 64 ? x : x & ((1ULL << nbits) - 1);
	return 0;
}

/* A finite real that stays finite in the type (f16 tops out at 65504). */
static int parse_real(const arg_type *t, const char *v, uint64_t *bits, char *why, size_t whylen)
{
	char *end;
	const char *d = v + (*v == '-' || *v == '+');
	double x = isdigit((unsigned char)*d) || *d == '.' ? strtod(v, &end) : 0;
	if (!(isdigit((unsigned char)*d) || *d == '.') || end == v || *end) {
		snprintf(why, whylen, "not a number (want e.g. 1.5, -2, 1e-3)");
		return -1;
	}
	float f = (float)x;
	uint16_t h = util_f32_to_f16(f);
	int inf = !isfinite(x) || (t->bytes < 8 && isinf(f)) || (t->bytes == 2 && isinf(util_f16_to_f32(h)));
	if (inf) {
		snprintf(why, whylen, "out of range for %s (%s)", t->name,
			 t->bytes == 2 ? "|v| <= 65504" : t->bytes == 4 ? "|v| <= 3.4e38" : "finite");
		return -1;
	}
	uint32_t u32;
	memcpy(&u32, &f, 4);
	if (t->bytes == 8)
		memcpy(bits, &x, 8);
	else
		*bits = t->bytes == 4 ? u32 : h;
	return 0;
}

static const arg_type types[ARG_NTYPES] = {
	[ARG_U32] = {.name = "u32", .bytes = 4, .parse = parse_int},
	[ARG_S32] = {.name = "s32", .bytes = 4, .is_signed = 1, .parse = parse_int},
	[ARG_U64] = {.name = "u64", .bytes = 8, .parse = parse_int},
	[ARG_S64] = {.name = "s64", .bytes = 8, .is_signed = 1, .parse = parse_int},
	[ARG_F32] = {.name = "f32", .bytes = 4, .parse = parse_real},
	[ARG_F64] = {.name = "f64", .bytes = 8, .parse = parse_real},
	[ARG_F16] = {.name = "f16", .bytes = 2, .parse = parse_real},
};

const char *argspec_type_name(argspec_type t)
{
	return (unsigned)t < ARG_NTYPES ? types[t].name : "?";
}

/* ---- tensor maps ---- */

static const char *const swizzles[] = {
	[ARG_SWIZZLE_NONE] = "none", [ARG_SWIZZLE_32B] = "32B", [ARG_SWIZZLE_64B] = "64B", [ARG_SWIZZLE_128B] = "128B",
};

#define TMAP_USAGE "want tmap:A|B|C:INNER:OUTER[:none|32B|64B|128B], box sides 1-256, e.g. tmap:A:64:128:128B"

/* One box side: an expression in env. Without env only a plain number is
 * checked; a side that names parameters is left 0 for the launch to evaluate. */
static int box_side(const char *tok, const char *s, const expr_env *env, unsigned *out, char *err, int errlen)
{
	static const expr_env none;
	char msg[128];
	long long v;
	*out = 0;
	if (expr_eval(s, env ? env : &none, &v, msg, sizeof msg)) {
		if (!env && strstr(msg, "unknown name"))
			return 0;
		return bad(err, errlen, "'%s': box side '%s': %s", tok, s, msg);
	}
	if (v < 1 || v > ARGSPEC_BOX_MAX)
		return bad(err, errlen, "'%s': box side '%s' is %lld: %s", tok, s, v, TMAP_USAGE);
	*out = (unsigned)v;
	return 0;
}

/* tmap:MATRIX:INNER:OUTER[:SWIZZLE]; fields is what follows "tmap:". */
static int parse_tmap(const char *tok, const char *fields, const expr_env *env, argspec_item *it, char *err, int errlen)
{
	char buf[ARGSPEC_TOKEN], *f[5];
	int n = 0;
	util_strlcpy(buf, fields, sizeof buf);
	for (char *p = buf; p && n < 5; n++) {
		f[n] = p;
		if ((p = strchr(p, ':')))
			*p++ = '\0';
	}
	if (n < 3 || n > 4 || strlen(f[0]) != 1 || !strchr("ABC", f[0][0]) || !*f[1] || !*f[2])
		return bad(err, errlen, "'%s': %s", tok, TMAP_USAGE);
	it->kind = ARG_TMAP;
	it->name = f[0][0];
	it->bytes = 128;
	it->swizzle = ARG_SWIZZLE_NONE;
	if (n == 4) {
		size_t i = 0;
		while (i < ARRAY_LEN(swizzles) && strcmp(f[3], swizzles[i]))
			i++;
		if (i == ARRAY_LEN(swizzles))
			return bad(err, errlen, "'%s': unknown swizzle '%s': %s", tok, f[3], TMAP_USAGE);
		it->swizzle = (argspec_swizzle)i;
	}
	for (int i = 0; i < 2; i++)
		if (box_side(tok, f[1 + i], env, &it->box[i], err, errlen))
			return -1;
	return 0;
}

/* ---- tokens ---- */

/* The parameters named by one word. */
static const struct {
	const char *word;
	argspec_kind kind;
	unsigned bytes;
} words[] = {
	{"A", ARG_MATRIX, 8}, {"B", ARG_MATRIX, 8}, {"C", ARG_MATRIX, 8},
	{"M", ARG_SIZE, 4},   {"N", ARG_SIZE, 4},   {"K", ARG_SIZE, 4},
};

/* ---- BLAS's named scalars ---- */

/* alpha:VALUE or beta:VALUE, an f32 passed by value; which is the name's first letter. */
static int parse_scalar(const char *tok, const char *fields, const expr_env *env, argspec_item *it, char *err,
			int errlen)
{
	(void)env;
	char why[128];
	if (!*fields)
		return bad(err, errlen, "'%s': no value after '%.*s' (e.g. alpha:1.5 beta:0.5)", tok,
			   (int)(fields - tok), tok);
	if (parse_real(&types[ARG_F32], fields, &it->bits, why, sizeof why))
		return bad(err, errlen, "'%s': %s", tok, why);
	it->kind = ARG_SCALAR;
	it->name = tok[0];
	it->type = ARG_F32;
	it->bytes = 4;
	return 0;
}

/* scale:A or scale:B: an FP8 input's per-tensor scale, an f32 the run fills in. */
static int parse_scale(const char *tok, const char *fields, const expr_env *env, argspec_item *it, char *err,
		       int errlen)
{
	(void)env;
	if (strcmp(fields, "A") && strcmp(fields, "B"))
		return bad(err, errlen, "'%s': want scale:A or scale:B (that input's per-tensor scale, an f32 the run sets)",
			   tok);
	it->kind = ARG_SCALE;
	it->name = fields[0];
	it->type = ARG_F32;
	it->bytes = 4;
	return 0;
}

/* ld:A, ld:B or ld:C: that matrix's leading dimension, a u32 the run fills in. */
static int parse_ld(const char *tok, const char *fields, const expr_env *env, argspec_item *it, char *err, int errlen)
{
	(void)env;
	if (strlen(fields) != 1 || !strchr("ABC", fields[0]))
		return bad(err, errlen, "'%s': want ld:A, ld:B or ld:C (that matrix's leading dimension, a u32 the run sets)",
			   tok);
	it->kind = ARG_LD;
	it->name = fields[0];
	it->type = ARG_U32;
	it->bytes = 4;
	return 0;
}

/* Forms written PREFIX:FIELDS that are not literals. */
static const struct {
	const char *prefix;
	int (*parse)(const char *tok, const char *fields, const expr_env *env, argspec_item *it, char *err, int errlen);
} prefixes[] = {
	{"tmap", parse_tmap},
	{"alpha", parse_scalar},
	{"beta", parse_scalar},
	{"scale", parse_scale},
	{"ld", parse_ld},
};

/* A token that is none of the forms; plen > 0: its prefix is no type. The
 * message lists what a token may be, the types from their table. */
static int unknown(const char *tok, size_t plen, char *err, int errlen)
{
	char help[128];
	size_t used = (size_t)snprintf(help, sizeof help, "use A B C M N K, TYPE:VALUE with TYPE");
	for (int t = 0; t < ARG_NTYPES && used < sizeof help; t++)
		used += (size_t)snprintf(help + used, sizeof help - used, " %s", types[t].name);
	if (plen)
		return bad(err, errlen, "'%s': unknown type '%.*s' (%s, alpha:1.5 beta:0.5, scale:A, ld:A, or tmap:A:64:128:128B)",
			   tok, (int)plen, tok, help);
	return bad(err, errlen, "'%s': unknown parameter (%s, alpha:1.5 beta:0.5, scale:A, ld:A, or tmap:A:64:128:128B)", tok,
		   help);
}

static int parse_token(const char *tok, const expr_env *env, argspec_item *it, char *err, int errlen)
{
	memset(it, 0, sizeof *it);
	for (size_t i = 0; i < ARRAY_LEN(words); i++)
		if (!strcmp(tok, words[i].word)) {
			it->kind = words[i].kind;
			it->name = tok[0];
			it->bytes = words[i].bytes;
			return 0;
		}
	const char *colon = strchr(tok, ':');
	if (!colon)
		return unknown(tok, 0, err, errlen);
	size_t plen = (size_t)(colon - tok);
	for (size_t i = 0; i < ARRAY_LEN(prefixes); i++)
		if (strlen(prefixes[i].prefix) == plen && !strncmp(tok, prefixes[i].prefix, plen))
			return prefixes[i].parse(tok, colon + 1, env, it, err, errlen);
	for (int t = 0; t < ARG_NTYPES; t++) {
		if (strlen(types[t].name) != plen || strncmp(tok, types[t].name, plen))
			continue;
		char why[128];
		if (!colon[1])
			return bad(err, errlen, "'%s': no value after '%s:'", tok, types[t].name);
		if (types[t].parse(&types[t], colon + 1, &it->bits, why, sizeof why))
			return bad(err, errlen, "'%s': %s", tok, why);
		it->kind = ARG_LITERAL;
		it->type = (argspec_type)t;
		it->bytes = types[t].bytes;
		return 0;
	}
	return unknown(tok, plen, err, errlen);
}

/* Where a token ends: white space or a comma outside parentheses, so a box
 * side may be min(BK, 64). */
static size_t token_len(const char *p)
{
	size_t i = 0;
	int depth = 0;
	for (; p[i]; i++) {
		if (p[i] == '(')
			depth++;
		else if (p[i] == ')')
			depth--;
		else if (depth <= 0 && strchr(" \t,", p[i]))
			break;
	}
	return i;
}

int argspec_parse(const char *spec, const expr_env *env, argspec *out, char *err, int errlen)
{
	const char *p = spec;
	int comma = 0, ntmaps = 0, nscalar[2] = {0, 0}, nscale[2] = {0, 0};
	out->n = 0;
	for (;;) {
		p += strspn(p, " \t");
		if (*p == ',' || (!*p && comma))
			return bad(err, errlen, "an empty parameter after parameter %d (two commas, or one at an end?)", out->n);
		if (!*p)
			break;
		size_t len = token_len(p);
		if (len >= ARGSPEC_TOKEN)
			return bad(err, errlen, "'%.24s...': a parameter longer than %d characters", p, ARGSPEC_TOKEN - 1);
		char tok[ARGSPEC_TOKEN];
		memcpy(tok, p, len);
		tok[len] = '\0';
		p += len;
		if (out->n >= ARGSPEC_MAX)
			return bad(err, errlen, "'%s': more than %d parameters", tok, ARGSPEC_MAX);
		argspec_item *it = &out->item[out->n];
		if (parse_token(tok, env, it, err, errlen))
			return -1;
		if (it->kind == ARG_TMAP && ++ntmaps > ARGSPEC_MAX_TMAPS)
			return bad(err, errlen, "'%s': more than %d tensor maps", tok, ARGSPEC_MAX_TMAPS);
		if (it->kind == ARG_SCALAR && ++nscalar[it->name == 'b'] > 1)
			return bad(err, errlen, "'%s': %s is given twice", tok, it->name == 'a' ? "alpha" : "beta");
		if (it->kind == ARG_SCALE && ++nscale[it->name == 'B'] > 1)
			return bad(err, errlen, "'%s': scale:%c is given twice", tok, it->name);
		out->n++;
		p += strspn(p, " \t");
		comma = *p == ',';
		p += comma;
	}
	if (!out->n)
		return bad(err, errlen, "no parameters (the usual list is A B C M N K)");
	return 0;
}

static float item_f32(const argspec_item *it) { return fpconv_bits_f32((uint32_t)it->bits); }

argspec_blas argspec_blas_of(const argspec *a)
{
	argspec_blas b = {.alpha = 1.0f};
	for (int i = 0; i < a->n; i++) {
		const argspec_item *it = &a->item[i];
		if (it->kind != ARG_SCALAR)
			continue;
		if (it->name == 'a') {
			b.has_alpha = 1;
			b.alpha = item_f32(it);
		} else {
			b.has_beta = 1;
			b.beta = item_f32(it);
		}
	}
	return b;
}

const argspec *argspec_or_default(const argspec *a)
{
	static const argspec standard = {
		.n = 6,
		.item = {
			{.kind = ARG_MATRIX, .name = 'A', .bytes = 8}, {.kind = ARG_MATRIX, .name = 'B', .bytes = 8},
			{.kind = ARG_MATRIX, .name = 'C', .bytes = 8}, {.kind = ARG_SIZE, .name = 'M', .bytes = 4},
			{.kind = ARG_SIZE, .name = 'N', .bytes = 4},   {.kind = ARG_SIZE, .name = 'K', .bytes = 4},
		},
	};
	return a->n ? a : &standard;
}

void argspec_format_item(const argspec_item *it, char *buf, size_t len)
{
	const char *tn = argspec_type_name(it->type);
	switch (it->kind) {
	case ARG_MATRIX:
	case ARG_SIZE:
		snprintf(buf, len, "%c", it->name);
		break;
	case ARG_TMAP:
		snprintf(buf, len, "tmap:%c:%u:%u:%s", it->name, it->box[0], it->box[1], swizzles[it->swizzle]);
		break;
	case ARG_SCALAR:
		snprintf(buf, len, "%s:%.9g", it->name == 'a' ? "alpha" : "beta", item_f32(it));
		break;
	case ARG_SCALE:
		snprintf(buf, len, "scale:%c", it->name);
		break;
	case ARG_LD:
		snprintf(buf, len, "ld:%c", it->name);
		break;
	case ARG_LITERAL:
		if (it->type == ARG_F64 || it->type == ARG_F32 || it->type == ARG_F16) {
			double x;
			if (it->type == ARG_F64)
				memcpy(&x, &it->bits, 8);
			else
				x = it->type == ARG_F32 ? item_f32(it) : util_f16_to_f32((uint16_t)it->bits);
			snprintf(buf, len, "%s:%.*g", tn, it->type == ARG_F64 ? 17 : 9, x);
		} else if (types[it->type].is_signed) {
			unsigned shift = 64 - 8 * it->bytes;
			snprintf(buf, len, "%s:%lld", tn, (long long)(it->bits << shift) >> shift);
		} else {
			snprintf(buf, len, "%s:%llu", tn, (unsigned long long)it->bits);
		}
		break;
	}
}

/* ---- layouts ---- */

/* The context of the field callbacks: the layout, the env, the reason of a refusal. */
typedef struct {
	argspec_layout *l;
	const expr_env *env;
	char why[160];
} field_ctx;

/* Splits s at commas and blanks outside parentheses into MATRIX=VALUE
 * fields and calls one(c, matrix, value) for each; -1 with c->why set. */
static int each_field(const char *s, int (*one)(field_ctx *c, char name, const char *v), field_ctx *c)
{
	char buf[256];
	if ((size_t)snprintf(buf, sizeof buf, "%s", s) >= sizeof buf) {
		snprintf(c->why, sizeof c->why, "longer than %zu characters", sizeof buf - 1);
		return -1;
	}
	for (char *p = buf; *p;) {
		p += strspn(p, " \t,");
		if (!*p)
			break;
		size_t n = token_len(p);
		int last = !p[n];
		p[n] = '\0';
		char *eq = strchr(p, '=');
		if (!eq || eq - p != 1 || !strchr("ABC", p[0]) || !eq[1]) {
			snprintf(c->why, sizeof c->why, "'%.40s' is not MATRIX=VALUE with MATRIX A, B or C", p);
			return -1;
		}
		if (one(c, p[0], eq + 1))
			return -1;
		if (last)
			break;
		p += n + 1;
	}
	return 0;
}

static int one_layout(field_ctx *c, char name, const char *v)
{
	if (strcmp(v, "row") && strcmp(v, "col")) {
		snprintf(c->why, sizeof c->why, "%c is row or col, not '%s'", name, v);
		return -1;
	}
	c->l->col[name - 'A'] = v[0] == 'c';
	return 0;
}

/* The tight leading dimension of matrix i (0 A, 1 B, 2 C) in env; 0 when M N K are not known. */
static long long tight_ld(const argspec_layout *l, int i, const expr_env *env)
{
	static const char rows[] = "MKM", cols[] = "KNN"; /* A M x K, B K x N, C M x N */
	char name[2] = {l->col[i] ? rows[i] : cols[i], 0};
	long long v;
	return env && expr_get(env, name, &v) ? v : 0;
}

static int one_ld(field_ctx *c, char name, const char *v)
{
	static const expr_env none;
	char msg[128];
	long long x;
	if (expr_eval(v, c->env ? c->env : &none, &x, msg, sizeof msg)) {
		if (!c->env && strstr(msg, "unknown name"))
			return 0;
		snprintf(c->why, sizeof c->why, "%c: %s", name, msg);
		return -1;
	}
	long long tight = tight_ld(c->l, name - 'A', c->env);
	if (x < 1 || x > 0x7fffffff || x < tight) {
		snprintf(c->why, sizeof c->why, "%c's leading dimension %lld is %s", name, x,
			 x < tight ? "less than the tight one" : "out of range");
		if (x < tight)
			snprintf(c->why + strlen(c->why), sizeof c->why - strlen(c->why), " (%lld: the %s of a %s-major %c)",
				 tight, c->l->col[name - 'A'] ? "rows" : "columns", c->l->col[name - 'A'] ? "column" : "row",
				 name);
		return -1;
	}
	c->l->ld[name - 'A'] = x;
	return 0;
}

int argspec_layout_parse(const char *layout, const char *ld, const expr_env *env, argspec_layout *out, char *err,
			 int errlen)
{
	field_ctx c = {.l = out, .env = env};
	memset(out, 0, sizeof *out);
	if (layout && (!strcmp(layout, "col") || !strcmp(layout, "row"))) {
		memset(out->col, layout[0] == 'c', sizeof out->col);
	} else if (layout && *layout && each_field(layout, one_layout, &c)) {
		snprintf(err, (size_t)errlen, "'%s': %s (e.g. A=col,B=row,C=col, or col for all three)", layout, c.why);
		return -1;
	}
	if (ld && *ld && each_field(ld, one_ld, &c)) {
		snprintf(err, (size_t)errlen, "'%s': %s (e.g. A=M+8,C=N+4: expressions over M N K)", ld, c.why);
		return -1;
	}
	return 0;
}

int argspec_layout_default(const argspec_layout *l)
{
	return !l->col[0] && !l->col[1] && !l->col[2] && !l->ld[0] && !l->ld[1] && !l->ld[2];
}

void argspec_layout_format(const argspec_layout *l, char *buf, size_t len)
{
	if (argspec_layout_default(l)) {
		snprintf(buf, len, "row-major");
		return;
	}
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < 3 && used < len; i++) {
		used += (size_t)snprintf(buf + used, len - used, "%s%c=%s", i ? "," : "", "ABC"[i], l->col[i] ? "col" : "row");
		if (l->ld[i] && used < len)
			used += (size_t)snprintf(buf + used, len - used, "(ld %lld)", l->ld[i]);
	}
}
