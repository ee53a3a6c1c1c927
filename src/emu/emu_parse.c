/* emu_parse: parse a PTX module into decoded per-entry op arrays with resolved register indices. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "emu/emu_internal.h"
#include "base/util.h"

const emu_type_info emu_types[ET_COUNT] = {
	[ET_NONE] = {"", 0, 'u'},     [ET_PRED] = {"pred", 1, 'p'},
	[ET_B8] = {"b8", 1, 'u'},     [ET_B16] = {"b16", 2, 'u'},
	[ET_B32] = {"b32", 4, 'u'},   [ET_B64] = {"b64", 8, 'u'},
	[ET_U8] = {"u8", 1, 'u'},     [ET_U16] = {"u16", 2, 'u'},
	[ET_U32] = {"u32", 4, 'u'},   [ET_U64] = {"u64", 8, 'u'},
	[ET_S8] = {"s8", 1, 's'},     [ET_S16] = {"s16", 2, 's'},
	[ET_S32] = {"s32", 4, 's'},   [ET_S64] = {"s64", 8, 's'},
	[ET_F16] = {"f16", 2, 'f'},   [ET_F16X2] = {"f16x2", 4, 'f'},
	[ET_F32] = {"f32", 4, 'f'},   [ET_F64] = {"f64", 8, 'f'},
};

static const char *const special_names[SPEC_COUNT] = {
	[SPEC_TID_X] = "%tid.x", [SPEC_TID_Y] = "%tid.y", [SPEC_TID_Z] = "%tid.z",
	[SPEC_NTID_X] = "%ntid.x", [SPEC_NTID_Y] = "%ntid.y", [SPEC_NTID_Z] = "%ntid.z",
	[SPEC_CTAID_X] = "%ctaid.x", [SPEC_CTAID_Y] = "%ctaid.y", [SPEC_CTAID_Z] = "%ctaid.z",
	[SPEC_NCTAID_X] = "%nctaid.x", [SPEC_NCTAID_Y] = "%nctaid.y", [SPEC_NCTAID_Z] = "%nctaid.z",
	[SPEC_LANEID] = "%laneid", [SPEC_WARPID] = "%warpid", [SPEC_NWARPID] = "%nwarpid",
};

/* The opcodes we know, with the class they count under. Float-typed forms of
 * arithmetic move to EMU_CLS_FP when decoded. */
typedef struct {
	const char *name;
	emu_opcode code;
	emu_class cls;
} opdef;

static const opdef opdefs[] = {
	{"mov", OP_MOV, EMU_CLS_MOVE},     {"add", OP_ADD, EMU_CLS_INT},
	{"sub", OP_SUB, EMU_CLS_INT},      {"mul", OP_MUL, EMU_CLS_INT},
	{"mad", OP_MAD, EMU_CLS_INT},      {"fma", OP_FMA, EMU_CLS_FP},
	{"div", OP_DIV, EMU_CLS_INT},      {"rem", OP_REM, EMU_CLS_INT},
	{"min", OP_MIN, EMU_CLS_INT},      {"max", OP_MAX, EMU_CLS_INT},
	{"neg", OP_NEG, EMU_CLS_INT},      {"abs", OP_ABS, EMU_CLS_INT},
	{"and", OP_AND, EMU_CLS_INT},      {"or", OP_OR, EMU_CLS_INT},
	{"xor", OP_XOR, EMU_CLS_INT},      {"not", OP_NOT, EMU_CLS_INT},
	{"shl", OP_SHL, EMU_CLS_INT},      {"shr", OP_SHR, EMU_CLS_INT},
	{"setp", OP_SETP, EMU_CLS_INT},    {"selp", OP_SELP, EMU_CLS_INT},
	{"cvt", OP_CVT, EMU_CLS_MOVE},     {"cvta", OP_CVTA, EMU_CLS_MOVE},
	{"rcp", OP_RCP, EMU_CLS_FP},       {"sqrt", OP_SQRT, EMU_CLS_FP},
	{"rsqrt", OP_RSQRT, EMU_CLS_FP},   {"ex2", OP_EX2, EMU_CLS_FP},
	{"lg2", OP_LG2, EMU_CLS_FP},       {"ld", OP_LD, EMU_CLS_LD_GLOBAL},
	{"st", OP_ST, EMU_CLS_ST_GLOBAL},  {"bar", OP_BAR, EMU_CLS_BARRIER},
	{"barrier", OP_BAR, EMU_CLS_BARRIER},
	{"membar", OP_NOP, EMU_CLS_BARRIER}, {"fence", OP_NOP, EMU_CLS_BARRIER},
	{"cp.async", OP_CPASYNC, EMU_CLS_CP_ASYNC},
	{"ldmatrix", OP_LDMATRIX, EMU_CLS_LDMATRIX},
	{"mma", OP_MMA, EMU_CLS_MMA},      {"shfl", OP_SHFL, EMU_CLS_SHFL},
	{"bra", OP_BRA, EMU_CLS_CONTROL},  {"ret", OP_EXIT, EMU_CLS_CONTROL},
	{"exit", OP_EXIT, EMU_CLS_CONTROL},
};

/* Modifiers that do not change what the emulator computes. */
static const char *const harmless_mods[] = {
	"sync", "aligned", "uni", "ftz", "approx", "full", "ca", "cg", "cs", "lu", "cv",
	"wb", "wt", "volatile", "weak", "cta",
};

/* ---- parse state ---- */

typedef struct {
	char name[64];
	int base;       /* first register */
	int count;      /* registers in a %r<N> range; 0 for a scalar */
	int vec;        /* 1, 2 or 4 */
	emu_type type;
} regdecl;

typedef struct {
	char name[64];
	int offset;     /* in shared memory; -1 for the dynamic (extern) array until fixed */
	int align;
	int is_extern;
} shdecl;

/* The .shared variables of one scope and the bytes they take. */
typedef struct {
	shdecl *v;
	int n, cap;
	int bytes;
} shlist;

typedef struct {
	char name[64];
	int op;         /* op index of a definition; for a use, the op that branches */
} labelref;

typedef struct {
	const char *path;
	char *err;
	int errlen;
	int failed;
	shlist mshared;           /* module-level .shared (visible to every entry) */
	uint32_t *line_regions;   /* per line, the regions open there */
	int nlines;
	emu_module *m;
	/* current kernel */
	emu_kernel *k;
	regdecl *regs;
	int nregdecl, capregdecl;
	shlist shared;            /* the current entry's, after the module's */
	int capops, capregs;
	labelref *labels, *uses;
	int nlabels, caplabels, nuses, capuses;
	int *extern_fix;          /* const registers holding the dynamic array's address */
	int nextern_fix, capextern_fix;
	int line;                 /* line of the statement being decoded */
} pstate;

#define GROW(arr, n, cap) do { if ((n) >= (cap)) { (cap) = (cap) ? 2 * (cap) : 16; \
	(arr) = realloc((arr), (size_t)(cap) * sizeof(*(arr))); if (!(arr)) abort(); } } while (0)

static int perr(pstate *ps, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(pstate *ps, int line, const char *fmt, ...)
{
	if (ps->failed)
		return -1;
	ps->failed = 1;
	int n = snprintf(ps->err, (size_t)ps->errlen, "%s:%d: ", ps->path, line);
	if (n < 0 || n >= ps->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, (size_t)(ps->errlen - n), fmt, ap);
	va_end(ap);
	return -1;
}

static emu_type type_from_name(const char *s)
{
	for (int t = ET_PRED; t < ET_COUNT; t++)
		if (!strcmp(s, emu_types[t].name))
			return (emu_type)t;
	return ET_NONE;
}

/* ---- registers ---- */

static int new_reg(pstate *ps, uint64_t konst, int is_const)
{
	emu_kernel *k = ps->k;
	if (k->nregs >= ps->capregs) {
		ps->capregs = ps->capregs ? 2 * ps->capregs : 64;
		k->konst = realloc(k->konst, (size_t)ps->capregs * sizeof(*k->konst));
		k->is_const = realloc(k->is_const, (size_t)ps->capregs);
		if (!k->konst || !k->is_const)
			abort();
	}
	k->konst[k->nregs] = konst;
	k->is_const[k->nregs] = (uint8_t)is_const;
	return k->nregs++;
}

static int const_reg(pstate *ps, uint64_t v)
{
	emu_kernel *k = ps->k;
	/* Constants are few per kernel; a linear search keeps this simple. */
	for (int i = 0; i < k->nregs; i++)
		if (k->is_const[i] == 1 && k->konst[i] == v)
			return i;
	return new_reg(ps, v, 1);
}

static const regdecl *find_regdecl(pstate *ps, const char *name, int *index)
{
	for (int i = 0; i < ps->nregdecl; i++) {
		const regdecl *r = &ps->regs[i];
		if (r->count == 0) {
			if (!strcmp(r->name, name)) {
				*index = 0;
				return r;
			}
			continue;
		}
		size_t pl = strlen(r->name);
		if (strncmp(r->name, name, pl) || !isdigit((unsigned char)name[pl]))
			continue;
		char *end;
		long n = strtol(name + pl, &end, 10);
		if (*end || n < 0 || n >= r->count)
			continue;
		if (name[pl] == '0' && name[pl + 1]) /* %r01 is not %r1 */
			continue;
		*index = (int)n;
		return r;
	}
	return NULL;
}

static int find_shared(pstate *ps, const char *name, int *is_extern)
{
	const shlist *scopes[] = {&ps->shared, &ps->mshared}; /* the entry's hide the module's */
	for (size_t s = 0; s < ARRAY_LEN(scopes); s++)
		for (int i = 0; i < scopes[s]->n; i++)
			if (!strcmp(scopes[s]->v[i].name, name)) {
				*is_extern = scopes[s]->v[i].is_extern;
				return scopes[s]->v[i].offset;
			}
	return -2;
}

static int special_reg(pstate *ps, const char *name)
{
	for (int s = 0; s < SPEC_COUNT; s++)
		if (!strcmp(name, special_names[s])) {
			if (ps->k->special_reg[s] < 0)
				ps->k->special_reg[s] = new_reg(ps, 0, 2);
			return ps->k->special_reg[s];
		}
	return -1;
}

/* ---- small lexing helpers ---- */

static char *skip_sp(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

static void rtrim(char *s)
{
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '%';
}

static int is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

/* Parses an integer literal (decimal, 0x hex, optional U suffix, leading -). */
static int parse_int(const char *s, int64_t *out)
{
	const char *p = s;
	int neg = 0;
	if (*p == '-') {
		neg = 1;
		p++;
	} else if (*p == '+') {
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return -1;
	char *end;
	unsigned long long v;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		v = strtoull(p + 2, &end, 16);
	else
		v = strtoull(p, &end, 10);
	if (*end == 'U' || *end == 'u')
		end++;
	if (*end)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* A literal as the bits of a value of type t (0f/0d hex floats, decimal floats, integers). */
static int parse_literal(const char *s, emu_type t, uint64_t *out)
{
	int isf = emu_types[t].kind == 'f';
	if ((s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) && strlen(s) == 10) {
		uint32_t b = (uint32_t)strtoul(s + 2, NULL, 16);
		if (t == ET_F64) {
			float f;
			memcpy(&f, &b, 4);
			double d = f;
			memcpy(out, &d, 8);
		} else if (t == ET_F16) {
			float f;
			memcpy(&f, &b, 4);
			*out = util_f32_to_f16(f);
		} else {
			*out = b;
		}
		return 0;
	}
	if ((s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) && strlen(s) == 18) {
		uint64_t b = strtoull(s + 2, NULL, 16);
		if (t == ET_F32) {
			double d;
			memcpy(&d, &b, 8);
			float f = (float)d;
			uint32_t u;
			memcpy(&u, &f, 4);
			*out = u;
		} else {
			*out = b;
		}
		return 0;
	}
	int64_t iv;
	if (parse_int(s, &iv) == 0) {
		if (isf) { /* an integer literal in a float instruction means that value */
			double d = (double)iv;
			if (t == ET_F64) {
				memcpy(out, &d, 8);
			} else if (t == ET_F16) {
				*out = util_f32_to_f16((float)d);
			} else {
				float f = (float)d;
				uint32_t u;
				memcpy(&u, &f, 4);
				*out = u;
			}
		} else {
			*out = (uint64_t)iv;
		}
		return 0;
	}
	char *end;
	double d = strtod(s, &end);
	if (*end || end == s || !isf)
		return -1;
	if (t == ET_F64) {
		memcpy(out, &d, 8);
	} else if (t == ET_F16) {
		*out = util_f32_to_f16((float)d);
	} else {
		float f = (float)d;
		uint32_t u;
		memcpy(&u, &f, 4);
		*out = u;
	}
	return 0;
}

/* ---- operands ---- */

/* A scalar operand: register, special register, shared symbol, or literal
 * (typed by t). Returns the register index, or -1 after an error. */
static int scalar_operand(pstate *ps, char *s, emu_type t, int allow_sink)
{
	s = skip_sp(s);
	rtrim(s);
	if (!*s)
		return perr(ps, ps->line, "missing operand");
	if (!strcmp(s, "_")) {
		if (allow_sink)
			return EMU_NO_REG - 1; /* marks a sink; callers turn it into EMU_NO_REG */
		return perr(ps, ps->line, "'_' is only allowed as a destination");
	}
	if (is_ident_start((unsigned char)s[0])) {
		int r = special_reg(ps, s);
		if (r >= 0)
			return r;
		int idx;
		char base[64];
		util_strlcpy(base, s, sizeof base);
		char *dot = strchr(base, '.');
		if (dot && dot[1] && !dot[2] && strchr("xyzw", dot[1])) {
			int comp = (int)(strchr("xyzw", dot[1]) - "xyzw");
			*dot = 0;
			const regdecl *vd = find_regdecl(ps, base, &idx);
			if (vd && vd->vec > comp)
				return vd->base + comp;
			return perr(ps, ps->line, "unknown register '%s'", s);
		}
		const regdecl *rd = find_regdecl(ps, s, &idx);
		if (rd) {
			if (rd->vec > 1)
				return perr(ps, ps->line, "vector register '%s' used as a scalar", s);
			return rd->base + idx;
		}
		int ext;
		int off = find_shared(ps, s, &ext);
		if (off >= -1) {
			if (ext) {
				int r2 = new_reg(ps, 0, 3); /* fixed once the static size is known */
				GROW(ps->extern_fix, ps->nextern_fix, ps->capextern_fix);
				ps->extern_fix[ps->nextern_fix++] = r2;
				return r2;
			}
			return const_reg(ps, (uint64_t)off);
		}
		return perr(ps, ps->line, "unknown register or symbol '%s'", s);
	}
	uint64_t v;
	if (parse_literal(s, t, &v) < 0)
		return perr(ps, ps->line, "bad operand '%s'", s);
	if (emu_types[t].bytes && emu_types[t].bytes < 8 && emu_types[t].kind != 'f')
		v &= (1ULL << (8 * emu_types[t].bytes)) - 1;
	return const_reg(ps, v);
}

static int dst_operand(pstate *ps, char *s)
{
	s = skip_sp(s);
	if (s[0] != '%' && !is_ident_start((unsigned char)s[0]) && strcmp(s, "_"))
		return perr(ps, ps->line, "bad destination '%s'", s);
	int r = scalar_operand(ps, s, ET_B64, 1);
	if (r == EMU_NO_REG - 1)
		return EMU_NO_REG;
	if (r >= 0 && ps->k->is_const[r])
		return perr(ps, ps->line, "destination '%s' is not a register", skip_sp(s));
	return r < 0 ? -2 : r;
}

/* Splits s at top-level commas (not inside {} or []). Returns the count. */
static int split_commas(char *s, char **parts, int max)
{
	int n = 0, depth = 0;
	char *start = s;
	for (char *p = s;; p++) {
		if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			int end = !*p;
			*p = 0;
			if (n < max)
				parts[n++] = start;
			if (end)
				break;
			start = p + 1;
		}
	}
	if (n == 1 && !*skip_sp(parts[0]))
		return 0;
	return n;
}

/* A vector operand "{a, b, ...}" into regs; returns the count or -1. */
static int vector_operand(pstate *ps, char *s, emu_type t, int *regs, int max, int is_dst)
{
	s = skip_sp(s);
	rtrim(s);
	size_t n = strlen(s);
	if (s[0] != '{' || s[n - 1] != '}')
		return perr(ps, ps->line, "expected a vector operand {...}, got '%s'", s);
	s[n - 1] = 0;
	char *parts[8];
	int np = split_commas(s + 1, parts, 8);
	if (np > max || np == 0)
		return perr(ps, ps->line, "vector operand has %d elements", np);
	for (int i = 0; i < np; i++) {
		regs[i] = is_dst ? dst_operand(ps, parts[i]) : scalar_operand(ps, parts[i], t, 0);
		if (regs[i] < EMU_NO_REG)
			return -1;
	}
	return np;
}

/* An operand that may be a vector register declared with .v2/.v4, or a {..} list. */
static int maybe_vector(pstate *ps, char *s, emu_type t, int *regs, int want, int is_dst)
{
	s = skip_sp(s);
	if (s[0] == '{')
		return vector_operand(ps, s, t, regs, want, is_dst);
	rtrim(s);
	int idx;
	const regdecl *rd = find_regdecl(ps, s, &idx);
	if (rd && rd->vec > 1) {
		for (int i = 0; i < rd->vec && i < want; i++)
			regs[i] = rd->base + i;
		return rd->vec;
	}
	regs[0] = is_dst ? dst_operand(ps, s) : scalar_operand(ps, s, t, 0);
	return regs[0] < EMU_NO_REG ? -1 : 1;
}

/* An address "[base+off]" into a base register and an offset; param names give param space. */
static int addr_operand(pstate *ps, char *s, int *base, int64_t *off, int *is_param)
{
	s = skip_sp(s);
	rtrim(s);
	size_t n = strlen(s);
	*is_param = 0;
	if (s[0] != '[' || s[n - 1] != ']')
		return perr(ps, ps->line, "expected an address [..], got '%s'", s);
	s[n - 1] = 0;
	s = skip_sp(s + 1);
	rtrim(s);
	*off = 0;
	/* split at the last + or - that follows the base */
	char *op = NULL;
	for (char *p = s + 1; *p; p++)
		if (*p == '+' || (*p == '-' && p[-1] != '+'))
			if (!op)
				op = p;
	if (op) {
		char *o = skip_sp(op + (*op == '+'));
		char tmp[64];
		util_strlcpy(tmp, o, sizeof tmp);
		rtrim(tmp);
		/* allow "+ -4" and "-4" */
		char *q = tmp;
		while (*q == ' ')
			q++;
		if (parse_int(q, off) < 0)
			return perr(ps, ps->line, "bad address offset '%s'", o);
		*op = 0;
		rtrim(s);
	}
	if (!*s)
		return perr(ps, ps->line, "empty address");
	if (isdigit((unsigned char)s[0]) || s[0] == '-') {
		int64_t v;
		if (parse_int(s, &v) < 0)
			return perr(ps, ps->line, "bad address '%s'", s);
		*off += v;
		*base = const_reg(ps, 0);
		return 0;
	}
	for (int i = 0; i < ps->k->nparams; i++)
		if (!strcmp(ps->k->params[i].name, s)) {
			*is_param = 1;
			*base = const_reg(ps, (uint64_t)ps->k->params[i].offset);
			return 0;
		}
	int r = scalar_operand(ps, s, ET_U64, 0);
	if (r < 0)
		return -1;
	*base = r;
	return 0;
}

/* ---- modifiers ---- */

typedef struct {
	char m[16][32];
	int n;
	uint32_t used;
} mods;

static int take(mods *ms, const char *name)
{
	for (int i = 0; i < ms->n; i++)
		if (!(ms->used & (1u << i)) && !strcmp(ms->m[i], name)) {
			ms->used |= 1u << i;
			return 1;
		}
	return 0;
}

static emu_type take_type(mods *ms)
{
	for (int i = 0; i < ms->n; i++) {
		if (ms->used & (1u << i))
			continue;
		emu_type t = type_from_name(ms->m[i]);
		if (t != ET_NONE) {
			ms->used |= 1u << i;
			return t;
		}
	}
	return ET_NONE;
}

static int take_space(mods *ms)
{
	if (take(ms, "global"))
		return SP_GLOBAL;
	if (take(ms, "shared") || take(ms, "shared::cta"))
		return SP_SHARED;
	if (take(ms, "param") || take(ms, "param::entry"))
		return SP_PARAM;
	return SP_GENERIC;
}

static const char *leftover(mods *ms)
{
	for (int i = 0; i < ms->n; i++) {
		if (ms->used & (1u << i))
			continue;
		int ok = 0;
		for (size_t h = 0; h < ARRAY_LEN(harmless_mods); h++)
			if (!strcmp(ms->m[i], harmless_mods[h]))
				ok = 1;
		if (!strncmp(ms->m[i], "L1::", 4) || !strncmp(ms->m[i], "L2::", 4))
			ok = 1;
		if (!ok)
			return ms->m[i];
	}
	return NULL;
}

/* ---- instructions ---- */

static emu_op *new_op(pstate *ps)
{
	emu_kernel *k = ps->k;
	GROW(k->ops, k->nops, ps->capops);
	emu_op *o = &k->ops[k->nops++];
	memset(o, 0, sizeof *o);
	o->pred = -1;
	o->vec = 1;
	for (int i = 0; i < 4; i++)
		o->dst[i] = EMU_NO_REG;
	for (int i = 0; i < EMU_MAX_SRC; i++)
		o->src[i] = EMU_NO_REG;
	o->line = ps->line;
	o->regions = ps->line < ps->nlines ? ps->line_regions[ps->line] : 0;
	return o;
}

/* The asynchronous machinery of lesson 9 is left to the GPU: Hopper's copy
 * engine, transaction barriers and warpgroup MMAs would each be a model of
 * hardware we cannot check against here. Say so instead of just "unsupported". */
static const char *const hopper_only[] = {"mbarrier", "cp.async.bulk", "wgmma", "setmaxnreg", "fence.proxy",
					  "fence.mbarrier_init"};

static int unsupported(pstate *ps, const char *what)
{
	for (size_t i = 0; i < ARRAY_LEN(hopper_only); i++)
		if (!strncmp(what, hopper_only[i], strlen(hopper_only[i])))
			return perr(ps, ps->line,
				    "'%s': the CPU emulator does not run lesson 9's asynchronous machinery "
				    "(TMA, mbarrier, wgmma); run this kernel on a Hopper GPU",
				    what);
	return perr(ps, ps->line, "unsupported instruction '%s'", what);
}

static int is_int(emu_type t) { return emu_types[t].kind == 'u' || emu_types[t].kind == 's'; }
static int is_float(emu_type t) { return emu_types[t].kind == 'f'; }

/* Decodes operands parts[0..np) of the plain "d, a, b, c" kind. */
static int plain_operands(pstate *ps, emu_op *o, char **parts, int np, int nsrc, emu_type st)
{
	if (np != 1 + nsrc)
		return perr(ps, ps->line, "expected %d operands, got %d", 1 + nsrc, np);
	o->ndst = 1;
	o->dst[0] = dst_operand(ps, parts[0]);
	if (o->dst[0] < EMU_NO_REG)
		return -1;
	o->nsrc = (uint8_t)nsrc;
	for (int i = 0; i < nsrc; i++) {
		o->src[i] = scalar_operand(ps, parts[1 + i], st, 0);
		if (o->src[i] < 0)
			return -1;
	}
	return 0;
}

static int decode(pstate *ps, char *stmt)
{
	char *s = skip_sp(stmt);
	int pred = -1, pneg = 0;
	if (*s == '@') {
		s++;
		if (*s == '!') {
			pneg = 1;
			s++;
		}
		char pname[64];
		int n = 0;
		while (*s && !isspace((unsigned char)*s) && n < 63)
			pname[n++] = *s++;
		pname[n] = 0;
		int idx;
		const regdecl *rd = find_regdecl(ps, pname, &idx);
		if (!rd || rd->type != ET_PRED)
			return perr(ps, ps->line, "unknown predicate '%s'", pname);
		pred = rd->base + idx;
		s = skip_sp(s);
	}
	char opname[128];
	int n = 0;
	while (*s && !isspace((unsigned char)*s) && n < 127)
		opname[n++] = *s++;
	opname[n] = 0;
	char full[128];
	util_strlcpy(full, opname, sizeof full);
	/* base opcode and modifiers */
	mods ms = {.n = 0, .used = 0};
	char *save = NULL;
	char *tok = strtok_r(opname, ".", &save);
	char base[32];
	util_strlcpy(base, tok ? tok : "", sizeof base);
	while ((tok = strtok_r(NULL, ".", &save)) && ms.n < 16)
		util_strlcpy(ms.m[ms.n++], tok, sizeof ms.m[0]);
	if (!strcmp(base, "cp") && take(&ms, "async"))
		util_strlcpy(base, "cp.async", sizeof base);
	const opdef *od = NULL;
	for (size_t i = 0; i < ARRAY_LEN(opdefs); i++)
		if (!strcmp(opdefs[i].name, base))
			od = &opdefs[i];
	if (!od)
		return unsupported(ps, full);
	char *parts[16];
	int np = split_commas(s, parts, 16);
	emu_op *o = new_op(ps);
	o->code = (uint8_t)od->code;
	o->cls = (uint8_t)od->cls;
	o->pred = (int16_t)pred;
	if (pneg)
		o->flags |= OPF_PRED_NEG;
	emu_type t = ET_NONE;

	switch (od->code) {
	case OP_MOV: {
		t = take_type(&ms);
		if (t == ET_NONE)
			return unsupported(ps, full);
		o->type = (uint8_t)t;
		if (np != 2)
			return perr(ps, ps->line, "mov takes 2 operands");
		char *d = skip_sp(parts[0]), *a = skip_sp(parts[1]);
		if (*d == '{') {
			o->code = OP_UNPACK;
			int nv = vector_operand(ps, d, t, o->dst, 4, 1);
			if (nv < 0)
				return -1;
			o->ndst = (uint8_t)nv;
			o->src[0] = scalar_operand(ps, a, t, 0);
			o->nsrc = 1;
			if (o->src[0] < 0)
				return -1;
			if (emu_types[t].bytes * 8 % nv)
				return unsupported(ps, full);
		} else if (*a == '{') {
			o->code = OP_PACK;
			o->ndst = 1;
			o->dst[0] = dst_operand(ps, d);
			if (o->dst[0] < EMU_NO_REG)
				return -1;
			int nv = vector_operand(ps, a, t, o->src, 4, 0);
			if (nv < 0)
				return -1;
			o->nsrc = (uint8_t)nv;
		} else if (plain_operands(ps, o, parts, np, 1, t) < 0) {
			return -1;
		}
		break;
	}
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: case OP_DIV: case OP_REM:
	case OP_MIN: case OP_MAX: case OP_NEG: case OP_ABS:
	case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_SHL: case OP_SHR:
	case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: {
		if (take(&ms, "lo"))
			o->mod = MUL_LO;
		else if (take(&ms, "hi"))
			o->mod = MUL_HI;
		else if (take(&ms, "wide"))
			o->mod = MUL_WIDE;
		else if ((od->code == OP_MUL || od->code == OP_MAD))
			o->mod = 255; /* must be float */
		take(&ms, "rn");
		t = take_type(&ms);
		if (t == ET_NONE || t == ET_F16X2 || t == ET_F64 || (t == ET_F16 && od->code != OP_FMA && od->code != OP_ADD && od->code != OP_MUL))
			return unsupported(ps, full);
		o->type = (uint8_t)t;
		int isf = is_float(t);
		if (isf && o->mod != 255 && (od->code == OP_MUL || od->code == OP_MAD))
			return unsupported(ps, full);
		if (!isf && o->mod == 255)
			return unsupported(ps, full);
		if (isf && od->code == OP_MAD)
			o->code = OP_FMA; /* mad.rn.f32 is fused on every target we run */
		if (isf && (od->code == OP_REM || od->code == OP_AND || od->code == OP_OR || od->code == OP_XOR ||
			    od->code == OP_NOT || od->code == OP_SHL || od->code == OP_SHR))
			return unsupported(ps, full);
		if (!isf && (od->code == OP_FMA || od->code == OP_RCP || od->code == OP_SQRT ||
			     od->code == OP_RSQRT || od->code == OP_EX2 || od->code == OP_LG2))
			return unsupported(ps, full);
		if (t == ET_PRED && !(od->code == OP_AND || od->code == OP_OR || od->code == OP_XOR || od->code == OP_NOT))
			return unsupported(ps, full);
		if (isf)
			o->cls = EMU_CLS_FP;
		int nsrc = 2;
		if (o->code == OP_MAD || o->code == OP_FMA)
			nsrc = 3;
		if (od->code == OP_NEG || od->code == OP_ABS || od->code == OP_NOT || od->code == OP_RCP ||
		    od->code == OP_SQRT || od->code == OP_RSQRT || od->code == OP_EX2 || od->code == OP_LG2)
			nsrc = 1;
		if (plain_operands(ps, o, parts, np, nsrc, t) < 0)
			return -1;
		break;
	}
	case OP_SETP: {
		static const char *const cmps[] = {
			[CMP_EQ] = "eq", [CMP_NE] = "ne", [CMP_LT] = "lt", [CMP_LE] = "le", [CMP_GT] = "gt",
			[CMP_GE] = "ge", [CMP_LO] = "lo", [CMP_LS] = "ls", [CMP_HI] = "hi", [CMP_HS] = "hs",
			[CMP_EQU] = "equ", [CMP_NEU] = "neu", [CMP_LTU] = "ltu", [CMP_LEU] = "leu",
			[CMP_GTU] = "gtu", [CMP_GEU] = "geu", [CMP_NUM] = "num", [CMP_NAN] = "nan",
		};
		int c = -1;
		for (int i = 0; i < (int)ARRAY_LEN(cmps); i++)
			if (take(&ms, cmps[i])) {
				c = i;
				break;
			}
		if (c < 0)
			return unsupported(ps, full);
		o->mod = (uint8_t)c;
		if (take(&ms, "and"))
			o->type2 = 1;
		else if (take(&ms, "or"))
			o->type2 = 2;
		else if (take(&ms, "xor"))
			o->type2 = 3;
		t = take_type(&ms);
		if (t == ET_NONE || t == ET_PRED || t == ET_F16X2 || t == ET_F64)
			return unsupported(ps, full);
		if (c >= CMP_EQU && !is_float(t))
			return unsupported(ps, full);
		o->type = (uint8_t)t;
		if (is_float(t))
			o->cls = EMU_CLS_FP;
		if (np != 3 + (o->type2 != 0))
			return perr(ps, ps->line, "setp takes %d operands", 3 + (o->type2 != 0));
		char *bar = strchr(parts[0], '|');
		if (bar) {
			*bar = 0;
			o->dst[1] = dst_operand(ps, bar + 1);
			if (o->dst[1] < EMU_NO_REG)
				return -1;
		}
		o->dst[0] = dst_operand(ps, parts[0]);
		if (o->dst[0] < EMU_NO_REG)
			return -1;
		o->ndst = bar ? 2 : 1;
		o->src[0] = scalar_operand(ps, parts[1], t, 0);
		o->src[1] = scalar_operand(ps, parts[2], t, 0);
		o->nsrc = 2;
		if (o->type2) {
			char *c3 = skip_sp(parts[3]);
			if (*c3 == '!') {
				o->flags |= OPF_SRC_NEG;
				c3++;
			}
			o->src[2] = scalar_operand(ps, c3, ET_PRED, 0);
			o->nsrc = 3;
		}
		if (o->src[0] < 0 || o->src[1] < 0 || o->src[o->nsrc - 1] < 0)
			return -1;
		break;
	}
	case OP_SELP: {
		t = take_type(&ms);
		if (t == ET_NONE || t == ET_PRED || t == ET_F16X2)
			return unsupported(ps, full);
		o->type = (uint8_t)t;
		if (np != 4)
			return perr(ps, ps->line, "selp takes 4 operands");
		o->ndst = 1;
		o->dst[0] = dst_operand(ps, parts[0]);
		o->src[0] = scalar_operand(ps, parts[1], t, 0);
		o->src[1] = scalar_operand(ps, parts[2], t, 0);
		o->src[2] = scalar_operand(ps, parts[3], ET_PRED, 0);
		o->nsrc = 3;
		if (o->dst[0] < EMU_NO_REG || o->src[0] < 0 || o->src[1] < 0 || o->src[2] < 0)
			return -1;
		break;
	}
	case OP_CVT: {
		static const char *const rnds[] = {
			[RND_RN] = "rn", [RND_RZ] = "rz", [RND_RM] = "rm", [RND_RP] = "rp",
			[RND_RNI] = "rni", [RND_RZI] = "rzi", [RND_RMI] = "rmi", [RND_RPI] = "rpi",
		};
		for (int i = RND_RN; i <= RND_RPI; i++)
			if (take(&ms, rnds[i])) {
				o->mod = (uint8_t)i;
				break;
			}
		t = take_type(&ms);
		emu_type t2 = take_type(&ms);
		if (t == ET_NONE || t2 == ET_NONE || t == ET_PRED || t2 == ET_PRED || t == ET_F16X2 || t2 == ET_F16X2)
			return unsupported(ps, full);
		o->type = (uint8_t)t;
		o->type2 = (uint8_t)t2;
		/* float -> int needs an integer rounding; float -> narrower float a float one */
		if (is_float(t2) && is_int(t) && !(o->mod >= RND_RNI))
			return unsupported(ps, full);
		if (o->mod == RND_RZ || o->mod == RND_RM || o->mod == RND_RP)
			return unsupported(ps, full);
		if (plain_operands(ps, o, parts, np, 1, t2) < 0)
			return -1;
		break;
	}
	case OP_CVTA: {
		o->mod = take(&ms, "to") ? CVTA_TO : CVTA_FROM;
		o->space = (uint8_t)take_space(&ms);
		t = take_type(&ms);
		if (o->space == SP_GENERIC || o->space == SP_PARAM || (t != ET_U64 && t != ET_U32))
			return unsupported(ps, full);
		o->type = (uint8_t)t;
		if (plain_operands(ps, o, parts, np, 1, t) < 0)
			return -1;
		break;
	}
	case OP_LD: case OP_ST: {
		take(&ms, "relaxed");
		take(&ms, "gpu");
		o->space = (uint8_t)take_space(&ms);
		if (take(&ms, "nc")) {
			if (od->code != OP_LD || o->space != SP_GLOBAL)
				return unsupported(ps, full);
		}
		if (take(&ms, "v2"))
			o->vec = 2;
		else if (take(&ms, "v4"))
			o->vec = 4;
		t = take_type(&ms);
		if (t == ET_NONE || t == ET_PRED || t == ET_F16X2)
			return unsupported(ps, full);
		o->type = (uint8_t)t;
		if (o->space == SP_SHARED)
			o->cls = od->code == OP_LD ? EMU_CLS_LD_SHARED : EMU_CLS_ST_SHARED;
		if (o->space == SP_PARAM) {
			if (od->code == OP_ST)
				return unsupported(ps, full);
			o->cls = EMU_CLS_MOVE;
		}
		if (np != 2)
			return perr(ps, ps->line, "%s takes 2 operands", base);
		char *val = od->code == OP_LD ? parts[0] : parts[1];
		char *adr = od->code == OP_LD ? parts[1] : parts[0];
		int is_param;
		if (addr_operand(ps, adr, &o->src[0], &o->imm, &is_param) < 0)
			return -1;
		if (is_param != (o->space == SP_PARAM))
			return perr(ps, ps->line, "parameter '%s' read outside ld.param", skip_sp(adr));
		int regs[4];
		int nv = maybe_vector(ps, val, t, regs, 4, od->code == OP_LD);
		if (nv < 0)
			return -1;
		if (nv != o->vec)
			return perr(ps, ps->line, "%s.v%d needs %d registers", base, o->vec, o->vec);
		for (int i = 0; i < nv; i++) {
			if (od->code == OP_LD)
				o->dst[i] = regs[i];
			else
				o->src[1 + i] = regs[i];
		}
		o->ndst = od->code == OP_LD ? (uint8_t)nv : 0;
		o->nsrc = (uint8_t)(od->code == OP_LD ? 1 : 1 + nv);
		break;
	}
	case OP_BAR: {
		if (take(&ms, "warp")) {
			o->code = OP_NOP; /* bar.warp.sync: lanes already run in lockstep here */
			o->cls = EMU_CLS_CONTROL;
			take(&ms, "sync");
			break;
		}
		take(&ms, "cta");
		if (!take(&ms, "sync") && !(take(&ms, "red") && 0))
			return unsupported(ps, full);
		if (np < 1 || np > 2)
			return perr(ps, ps->line, "bar.sync takes 1 or 2 operands");
		o->src[0] = scalar_operand(ps, parts[0], ET_U32, 0);
		if (o->src[0] < 0)
			return -1;
		o->nsrc = 1;
		if (np == 2) {
			o->src[1] = scalar_operand(ps, parts[1], ET_U32, 0);
			if (o->src[1] < 0)
				return -1;
			o->nsrc = 2;
		}
		break;
	}
	case OP_NOP:
		for (int i = 0; i < ms.n; i++)
			ms.used |= 1u << i;
		break;
	case OP_CPASYNC: {
		if (take(&ms, "commit_group")) {
			o->code = OP_CPCOMMIT;
			break;
		}
		if (take(&ms, "wait_group")) {
			o->code = OP_CPWAIT;
			int64_t v;
			if (np != 1 || parse_int(skip_sp(parts[0]), &v) < 0)
				return perr(ps, ps->line, "cp.async.wait_group takes an integer");
			o->imm = v;
			break;
		}
		if (take(&ms, "wait_all")) {
			o->code = OP_CPWAIT;
			o->flags |= OPF_WAIT_ALL;
			break;
		}
		if (!take(&ms, "shared") && !take(&ms, "shared::cta"))
			return unsupported(ps, full);
		if (!take(&ms, "global"))
			return unsupported(ps, full);
		if (np != 3 && np != 4)
			return perr(ps, ps->line, "cp.async takes 3 or 4 operands");
		int is_param;
		int64_t soff;
		if (addr_operand(ps, parts[0], &o->src[0], &o->imm, &is_param) < 0)
			return -1;
		if (addr_operand(ps, parts[1], &o->src[1], &soff, &is_param) < 0)
			return -1;
		o->src[2] = const_reg(ps, (uint64_t)soff);
		int64_t sz;
		if (parse_int(skip_sp(parts[2]), &sz) < 0 || (sz != 4 && sz != 8 && sz != 16))
			return perr(ps, ps->line, "cp.async size must be 4, 8 or 16");
		o->vec = (uint8_t)sz;
		o->nsrc = 3;
		if (np == 4) {
			o->src[3] = scalar_operand(ps, parts[3], ET_U32, 0);
			if (o->src[3] < 0)
				return -1;
			o->flags |= OPF_HAS_SRCSZ;
			o->nsrc = 4;
		}
		break;
	}
	case OP_LDMATRIX: {
		if (!take(&ms, "m8n8") || !take(&ms, "b16"))
			return unsupported(ps, full);
		if (take(&ms, "x1"))
			o->vec = 1;
		else if (take(&ms, "x2"))
			o->vec = 2;
		else if (take(&ms, "x4"))
			o->vec = 4;
		else
			return unsupported(ps, full);
		if (take(&ms, "trans"))
			o->flags |= OPF_TRANS;
		o->space = (uint8_t)take_space(&ms);
		if (o->space != SP_SHARED && o->space != SP_GENERIC)
			return unsupported(ps, full);
		if (np != 2)
			return perr(ps, ps->line, "ldmatrix takes 2 operands");
		int nv = maybe_vector(ps, parts[0], ET_B32, o->dst, 4, 1);
		if (nv < 0)
			return -1;
		if (nv != o->vec)
			return perr(ps, ps->line, "ldmatrix .x%d needs %d registers", o->vec, o->vec);
		o->ndst = (uint8_t)nv;
		int is_param;
		if (addr_operand(ps, parts[1], &o->src[0], &o->imm, &is_param) < 0)
			return -1;
		o->nsrc = 1;
		o->type = ET_B32;
		break;
	}
	case OP_MMA: {
		if (!take(&ms, "m16n8k16") || !take(&ms, "row") || !take(&ms, "col"))
			return unsupported(ps, full);
		emu_type td = take_type(&ms), ta = take_type(&ms), tb = take_type(&ms), tc = take_type(&ms);
		if (td != ET_F32 || ta != ET_F16 || tb != ET_F16 || tc != ET_F32)
			return unsupported(ps, full);
		if (np != 4)
			return perr(ps, ps->line, "mma takes 4 operands");
		int d[4], a[4], b[4], c[4];
		if (vector_operand(ps, parts[0], ET_F32, d, 4, 1) != 4 ||
		    vector_operand(ps, parts[1], ET_B32, a, 4, 0) != 4 ||
		    vector_operand(ps, parts[2], ET_B32, b, 2, 0) != 2 ||
		    vector_operand(ps, parts[3], ET_F32, c, 4, 0) != 4)
			return ps->failed ? -1 : perr(ps, ps->line, "mma.m16n8k16 operands are {4}, {4}, {2}, {4} registers");
		for (int i = 0; i < 4; i++) {
			o->dst[i] = d[i];
			o->src[i] = a[i];
			o->src[6 + i] = c[i];
		}
		o->src[4] = b[0];
		o->src[5] = b[1];
		o->ndst = 4;
		o->nsrc = 10;
		o->type = ET_F32;
		break;
	}
	case OP_SHFL: {
		static const char *const modes[] = {[SHFL_UP] = "up", [SHFL_DOWN] = "down", [SHFL_BFLY] = "bfly", [SHFL_IDX] = "idx"};
		int md = -1;
		for (int i = 0; i < 4; i++)
			if (take(&ms, modes[i]))
				md = i;
		if (md < 0 || !take(&ms, "sync") || !take(&ms, "b32"))
			return unsupported(ps, full);
		o->mod = (uint8_t)md;
		o->type = ET_B32;
		if (np != 5)
			return perr(ps, ps->line, "shfl.sync takes 5 operands");
		char *bar = strchr(parts[0], '|');
		if (bar) {
			*bar = 0;
			o->dst[1] = dst_operand(ps, bar + 1);
			o->flags |= OPF_PRED_OUT;
		}
		o->dst[0] = dst_operand(ps, parts[0]);
		o->ndst = bar ? 2 : 1;
		for (int i = 0; i < 4; i++)
			if ((o->src[i] = scalar_operand(ps, parts[1 + i], ET_U32, 0)) < 0)
				return -1;
		o->nsrc = 4;
		if (o->dst[0] < EMU_NO_REG || (bar && o->dst[1] < EMU_NO_REG))
			return -1;
		break;
	}
	case OP_BRA: {
		take(&ms, "uni");
		if (np != 1)
			return perr(ps, ps->line, "bra takes a label");
		char *l = skip_sp(parts[0]);
		rtrim(l);
		GROW(ps->uses, ps->nuses, ps->capuses);
		util_strlcpy(ps->uses[ps->nuses].name, l, sizeof ps->uses[0].name);
		ps->uses[ps->nuses++].op = ps->k->nops - 1;
		break;
	}
	case OP_EXIT:
		if (np)
			return perr(ps, ps->line, "%s takes no operands", base);
		break;
	default:
		return unsupported(ps, full);
	}
	const char *lo = leftover(&ms);
	if (lo && !ps->failed)
		return unsupported(ps, full);
	return ps->failed ? -1 : 0;
}

/* ---- declarations ---- */

/* ".reg .f32 a, b<4>, c;" or ".reg .v4 .f32 v;" */
static int decl_reg(pstate *ps, char *s)
{
	s = skip_sp(s + 4);
	int vec = 1;
	emu_type t = ET_NONE;
	while (*s == '.') {
		char w[32];
		int n = 0;
		s++;
		while (*s && !isspace((unsigned char)*s) && n < 31)
			w[n++] = *s++;
		w[n] = 0;
		s = skip_sp(s);
		if (!strcmp(w, "v2"))
			vec = 2;
		else if (!strcmp(w, "v4"))
			vec = 4;
		else if ((t = type_from_name(w)) == ET_NONE)
			return perr(ps, ps->line, "unsupported register type '.%s'", w);
	}
	if (t == ET_NONE)
		return perr(ps, ps->line, ".reg without a type");
	char *parts[64];
	int np = split_commas(s, parts, 64);
	for (int i = 0; i < np; i++) {
		char *p = skip_sp(parts[i]);
		rtrim(p);
		int count = 0;
		char *lt = strchr(p, '<');
		if (lt) {
			count = atoi(lt + 1);
			*lt = 0;
			if (count <= 0 || count > 100000)
				return perr(ps, ps->line, "bad register range '%s'", p);
		}
		if (!is_ident_start((unsigned char)*p))
			return perr(ps, ps->line, "bad register name '%s'", p);
		GROW(ps->regs, ps->nregdecl, ps->capregdecl);
		regdecl *r = &ps->regs[ps->nregdecl++];
		util_strlcpy(r->name, p, sizeof r->name);
		r->count = count;
		r->vec = vec;
		r->type = t;
		int total = count ? count : vec;
		r->base = ps->k->nregs;
		for (int j = 0; j < total; j++)
			new_reg(ps, 0, 0);
	}
	return 0;
}

/* ".shared .align 16 .b8 name[bytes];" and ".extern .shared .align 16 .b8 name[];" */
static int decl_shared(pstate *ps, char *s, int module_level)
{
	int is_extern = strstr(s, ".extern") != NULL;
	int align = 1, elem = 0;
	char name[64] = "";
	long long count = 1;
	char *p = s;
	while (*p) {
		p = skip_sp(p);
		if (!*p)
			break;
		char w[80];
		int n = 0;
		while (*p && !isspace((unsigned char)*p) && n < 79)
			w[n++] = *p++;
		w[n] = 0;
		if (!strcmp(w, ".align")) {
			p = skip_sp(p);
			align = (int)strtol(p, &p, 10);
		} else if (!strcmp(w, ".extern") || !strcmp(w, ".shared") || !strcmp(w, ".visible")) {
			continue;
		} else if (w[0] == '.') {
			emu_type t = type_from_name(w + 1);
			if (t == ET_NONE || t == ET_PRED)
				return perr(ps, ps->line, "unsupported .shared type '%s'", w);
			elem = emu_types[t].bytes;
		} else {
			char *br = strchr(w, '[');
			if (br) {
				*br = 0;
				count = br[1] == ']' ? 0 : strtoll(br + 1, NULL, 10);
				char *br2 = strchr(br + 1, '[');
				if (br2) /* 2-D arrays */
					count *= strtoll(br2 + 1, NULL, 10);
			}
			util_strlcpy(name, w, sizeof name);
			if (strchr(p, '='))
				return perr(ps, ps->line, "initialised .shared is not supported");
			break;
		}
	}
	if (!name[0] || !elem)
		return perr(ps, ps->line, "cannot read this .shared declaration");
	if (align < elem)
		align = elem;
	shdecl d = {.align = align, .is_extern = is_extern};
	util_strlcpy(d.name, name, sizeof d.name);
	shlist *L = module_level ? &ps->mshared : &ps->shared;
	d.offset = -1; /* extern: placed after the static ones later */
	if (!is_extern) {
		L->bytes = (L->bytes + align - 1) / align * align;
		d.offset = L->bytes;
		L->bytes += (int)(count * elem);
	}
	GROW(L->v, L->n, L->cap);
	L->v[L->n++] = d;
	return 0;
}

/* ---- the text ---- */

typedef struct {
	char *t;      /* comment-free text (newlines kept) */
	size_t pos;
	int line;
} cursor;

static void cur_skip(cursor *c)
{
	while (c->t[c->pos] && isspace((unsigned char)c->t[c->pos])) {
		if (c->t[c->pos] == '\n')
			c->line++;
		c->pos++;
	}
}

/* Reads up to (not including) one of the stop characters at parenthesis depth 0. */
static char *cur_until(cursor *c, const char *stops, char *found)
{
	size_t start = c->pos;
	int depth = 0;
	while (c->t[c->pos]) {
		char ch = c->t[c->pos];
		if (ch == '(')
			depth++;
		else if (ch == ')')
			depth--;
		if (depth <= 0 && strchr(stops, ch))
			break;
		if (ch == '\n')
			c->line++;
		c->pos++;
	}
	*found = c->t[c->pos];
	size_t n = c->pos - start;
	char *s = malloc(n + 1);
	if (!s)
		abort();
	memcpy(s, c->t + start, n);
	s[n] = 0;
	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\t' || *p == '\r')
			*p = ' ';
	if (*found)
		c->pos++;
	return s;
}

/* Strips comments (keeping newlines) and records the `// @name` ... `// @end` regions. */
static char *strip_comments(pstate *ps, const char *text)
{
	size_t n = strlen(text);
	char *out = malloc(n + 1);
	if (!out)
		abort();
	int lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += text[i] == '\n';
	ps->nlines = lines + 2;
	ps->line_regions = calloc((size_t)ps->nlines, sizeof(uint32_t));
	if (!ps->line_regions)
		abort();
	int stack[EMU_MAX_REGIONS], depth = 0;
	uint32_t open = 0;
	int line = 1;
	emu_module *m = ps->m;
	for (size_t i = 0; i < n;) {
		if (text[i] == '/' && text[i + 1] == '/') {
			size_t j = i + 2;
			while (j < n && (text[j] == ' ' || text[j] == '\t'))
				j++;
			if (text[j] == '@') {
				char name[32];
				int k = 0;
				j++;
				while (j < n && (isalnum((unsigned char)text[j]) || text[j] == '_' || text[j] == '-') && k < 31)
					name[k++] = text[j++];
				name[k] = 0;
				if (!strcmp(name, "end")) {
					if (depth > 0) {
						int r = stack[--depth];
						m->regions[r].last_line = line;
						open &= ~(1u << r);
					}
				} else if (k > 0) {
					int r = -1;
					for (int q = 0; q < m->nregions; q++)
						if (!strcmp(m->regions[q].name, name))
							r = q;
					if (r < 0 && m->nregions < EMU_MAX_REGIONS) {
						r = m->nregions++;
						util_strlcpy(m->regions[r].name, name, sizeof m->regions[r].name);
						m->regions[r].first_line = line;
					}
					if (r >= 0 && depth < EMU_MAX_REGIONS) {
						stack[depth++] = r;
						open |= 1u << r;
					}
				}
			}
			while (i < n && text[i] != '\n')
				out[i] = ' ', i++;
			continue;
		}
		if (text[i] == '/' && text[i + 1] == '*') {
			out[i] = out[i + 1] = ' ';
			i += 2;
			while (i < n && !(text[i] == '*' && text[i + 1] == '/')) {
				out[i] = text[i] == '\n' ? '\n' : ' ';
				if (text[i] == '\n') {
					line++;
					ps->line_regions[line] = open;
				}
				i++;
			}
			if (i < n) {
				out[i] = out[i + 1] = ' ';
				i += 2;
			}
			continue;
		}
		out[i] = text[i];
		if (text[i] == '\n')
			line++;
		if (line < ps->nlines)
			ps->line_regions[line] = open | ps->line_regions[line];
		i++;
	}
	out[n] = 0;
	return out;
}

static void kernel_free(emu_kernel *k)
{
	free(k->ops);
	free(k->konst);
	free(k->is_const);
	free(k->params);
}

/* ".entry name ( .param .u64 A, ... )" */
static int parse_params(pstate *ps, const char *hdr)
{
	const char *lp = strchr(hdr, '(');
	const char *rp = strrchr(hdr, ')');
	if (!lp || !rp)
		return 0;
	char *inner = strndup(lp + 1, (size_t)(rp - lp - 1));
	if (!inner)
		abort();
	char *parts[64];
	int np = split_commas(inner, parts, 64);
	emu_kernel *k = ps->k;
	k->params = calloc((size_t)(np ? np : 1), sizeof *k->params);
	if (!k->params)
		abort();
	int off = 0;
	for (int i = 0; i < np; i++) {
		char *p = skip_sp(parts[i]);
		emu_type t = ET_NONE;
		int align = 0;
		char name[64] = "";
		long long count = 1;
		char *save = NULL;
		for (char *w = strtok_r(p, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
			if (!strcmp(w, ".param") || !strncmp(w, ".ptr", 4) || !strcmp(w, ".global") ||
			    !strcmp(w, ".shared") || !strcmp(w, ".const") || !strcmp(w, ".local"))
				continue;
			if (!strcmp(w, ".align")) {
				char *a = strtok_r(NULL, " \t", &save);
				align = a ? atoi(a) : 0;
				continue;
			}
			if (w[0] == '.') {
				t = type_from_name(w + 1);
				continue;
			}
			char *br = strchr(w, '[');
			if (br) {
				count = strtoll(br + 1, NULL, 10);
				*br = 0;
			}
			util_strlcpy(name, w, sizeof name);
		}
		if (t == ET_NONE || !name[0]) {
			free(inner);
			return perr(ps, ps->line, "cannot read parameter %d of '%s'", i + 1, k->name);
		}
		int bytes = emu_types[t].bytes * (int)count;
		if (align < emu_types[t].bytes)
			align = emu_types[t].bytes;
		off = (off + align - 1) / align * align;
		emu_param *pp = &k->params[k->nparams++];
		util_strlcpy(pp->name, name, sizeof pp->name);
		pp->type = t;
		pp->bytes = bytes;
		pp->offset = off;
		off += bytes;
	}
	k->param_bytes = off;
	free(inner);
	return 0;
}

static int parse_body(pstate *ps, cursor *c)
{
	int depth = 0;
	for (;;) {
		cur_skip(c);
		char ch = c->t[c->pos];
		if (!ch)
			return perr(ps, c->line, "end of file inside '%s'", ps->k->name);
		if (ch == '{') {
			depth++;
			c->pos++;
			continue;
		}
		if (ch == '}') {
			c->pos++;
			if (depth-- == 0)
				return 0;
			continue;
		}
		/* a label? */
		size_t p = c->pos;
		if (is_ident_start((unsigned char)ch)) {
			size_t q = p + 1;
			while (is_ident_char((unsigned char)c->t[q]))
				q++;
			size_t r = q;
			while (c->t[r] == ' ' || c->t[r] == '\t')
				r++;
			if (c->t[r] == ':') {
				GROW(ps->labels, ps->nlabels, ps->caplabels);
				size_t len = q - p < 63 ? q - p : 63;
				memcpy(ps->labels[ps->nlabels].name, c->t + p, len);
				ps->labels[ps->nlabels].name[len] = 0;
				ps->labels[ps->nlabels++].op = ps->k->nops;
				c->pos = r + 1;
				continue;
			}
		}
		int line = c->line;
		ps->line = line;
		if (!strncmp(c->t + p, ".loc", 4) || !strncmp(c->t + p, ".file", 5) || !strncmp(c->t + p, ".pragma", 7)) {
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
		char *stmt = cur_until(c, ";", &found);
		if (found != ';') {
			free(stmt);
			return perr(ps, line, "missing ';'");
		}
		char *s = skip_sp(stmt);
		int rc = 0;
		if (!strncmp(s, ".reg", 4))
			rc = decl_reg(ps, s);
		else if (!strncmp(s, ".shared", 7) || !strncmp(s, ".extern", 7))
			rc = decl_shared(ps, s, 0);
		else if (*s == '.')
			rc = perr(ps, line, "unsupported directive '%.*s'", (int)strcspn(s, " \t"), s);
		else
			rc = decode(ps, s);
		free(stmt);
		if (rc < 0)
			return -1;
	}
}

static int finish_kernel(pstate *ps)
{
	emu_kernel *k = ps->k;
	/* labels */
	for (int u = 0; u < ps->nuses; u++) {
		int target = -1;
		for (int l = 0; l < ps->nlabels; l++)
			if (!strcmp(ps->labels[l].name, ps->uses[u].name))
				target = ps->labels[l].op;
		if (target < 0) {
			ps->line = k->ops[ps->uses[u].op].line;
			return perr(ps, ps->line, "unknown label '%s'", ps->uses[u].name);
		}
		k->ops[ps->uses[u].op].imm = target;
	}
	/* an entry that runs off its end exits */
	ps->line = k->nops ? k->ops[k->nops - 1].line : k->line;
	emu_op *o = new_op(ps);
	o->code = OP_EXIT;
	o->cls = EMU_CLS_CONTROL;
	o->regions = 0;
	/* static shared: module-level variables first, then the entry's own (laid out after them) */
	int total = ps->shared.bytes;
	k->smem_static = total;
	int dyn = (total + 127) / 128 * 128; /* dynamic shared memory follows, 128-aligned */
	for (int i = 0; i < ps->nextern_fix; i++) {
		k->konst[ps->extern_fix[i]] = (uint64_t)dyn;
		k->is_const[ps->extern_fix[i]] = 1;
		k->uses_dynamic_smem = 1;
	}
	return 0;
}

emu_module *emu_module_parse(const char *path, const char *text, char *err, int errlen)
{
	emu_module *m = calloc(1, sizeof *m);
	if (!m)
		abort();
	util_strlcpy(m->path, path, sizeof m->path);
	pstate ps = {.path = path, .err = err, .errlen = errlen, .m = m};
	if (errlen > 0)
		err[0] = 0;
	char *clean = strip_comments(&ps, text);
	cursor c = {.t = clean, .pos = 0, .line = 1};
	int capk = 0;
	for (;;) {
		cur_skip(&c);
		if (!clean[c.pos])
			break;
		int line = c.line;
		ps.line = line;
		if (!strncmp(clean + c.pos, ".version", 8) || !strncmp(clean + c.pos, ".target", 7) ||
		    !strncmp(clean + c.pos, ".address_size", 13) || !strncmp(clean + c.pos, ".file", 5) ||
		    !strncmp(clean + c.pos, ".loc", 4)) {
			while (clean[c.pos] && clean[c.pos] != '\n')
				c.pos++;
			continue;
		}
		char found;
		char *hdr = cur_until(&c, ";{", &found);
		if (strstr(hdr, ".entry")) {
			if (found != '{') {
				free(hdr);
				perr(&ps, line, "entry without a body");
				break;
			}
			GROW(m->k, m->nk, capk);
			emu_kernel *k = &m->k[m->nk++];
			memset(k, 0, sizeof *k);
			for (int s = 0; s < SPEC_COUNT; s++)
				k->special_reg[s] = -1;
			k->line = line;
			const char *e = strstr(hdr, ".entry") + 6;
			while (*e == ' ')
				e++;
			int n = 0;
			while (is_ident_char((unsigned char)e[n]) && n < 63)
				n++;
			memcpy(k->name, e, (size_t)n);
			k->name[n] = 0;
			ps.k = k;
			ps.shared.bytes = ps.mshared.bytes;
			ps.nregdecl = ps.shared.n = ps.nlabels = ps.nuses = ps.nextern_fix = 0;
			ps.capops = ps.capregs = 0;
			int rc = parse_params(&ps, hdr);
			free(hdr);
			if (rc < 0 || parse_body(&ps, &c) < 0 || finish_kernel(&ps) < 0)
				break;
			continue;
		}
		if (strstr(hdr, ".func")) {
			int fl = line;
			free(hdr);
			if (found == '{') { /* skip its body: calls are unsupported anyway */
				int depth = 1;
				while (clean[c.pos] && depth) {
					if (clean[c.pos] == '{')
						depth++;
					else if (clean[c.pos] == '}')
						depth--;
					else if (clean[c.pos] == '\n')
						c.line++;
					c.pos++;
				}
			}
			(void)fl;
			continue;
		}
		if (found == ';' && strstr(hdr, ".shared")) {
			int rc = decl_shared(&ps, hdr, 1);
			free(hdr);
			if (rc < 0)
				break;
			continue;
		}
		if (found == ';' && (strstr(hdr, ".global") || strstr(hdr, ".const"))) {
			perr(&ps, line, "module-level .global/.const variables are not supported");
			free(hdr);
			break;
		}
		free(hdr);
		if (!found)
			break;
	}
	free(clean);
	free(ps.line_regions);
	free(ps.regs);
	free(ps.shared.v);
	free(ps.mshared.v);
	free(ps.labels);
	free(ps.uses);
	free(ps.extern_fix);
	if (ps.failed) {
		emu_module_free(m);
		return NULL;
	}
	if (m->nk == 0) {
		snprintf(err, (size_t)errlen, "%s: no .entry found", path);
		emu_module_free(m);
		return NULL;
	}
	return m;
}

emu_module *emu_module_load(const char *path, char *err, int errlen)
{
	char e[256];
	char *text = util_read_file(path, NULL, e, sizeof e);
	if (!text) {
		snprintf(err, (size_t)errlen, "%s", e);
		return NULL;
	}
	emu_module *m = emu_module_parse(path, text, err, errlen);
	free(text);
	return m;
}

void emu_module_free(emu_module *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nk; i++)
		kernel_free(&m->k[i]);
	free(m->k);
	free(m);
}

int emu_module_entries(const emu_module *m, const char **names, int max)
{
	int n = 0;
	for (int i = 0; i < m->nk && n < max; i++)
		names[n++] = m->k[i].name;
	return m->nk;
}

const emu_kernel *emu_find_kernel(const emu_module *m, const char *name)
{
	for (int i = 0; i < m->nk; i++)
		if (!strcmp(m->k[i].name, name))
			return &m->k[i];
	return NULL;
}
