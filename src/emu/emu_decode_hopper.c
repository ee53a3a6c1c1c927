/* emu_decode_hopper: the names and operands of Hopper's cluster and asynchronous instructions (mbarrier, TMA, mapa, barrier.cluster, elect, setmaxnreg, stmatrix). */
#include <stdlib.h>
#include <string.h>
#include "emu/emu_parser.h"
#include "base/util.h"

/* One instruction form: its fixed leading words, what it decodes to, and
 * the other words it may carry. A word neither fixed nor allowed makes the
 * instruction unsupported, never ignored. Words in `flag` also set opf. */
typedef struct {
	const char *name;
	uint8_t code, mod;
	const char *allow[14];
	const char *flag[2];
	uint8_t opf[2];
	int8_t nops_min, nops_max;
} hform;

#define SCOPES "release", "relaxed", "acquire", "cta", "cluster", "shared", "shared::cta", "b64"

static const hform forms[] = {
	{"mbarrier.init", OP_MBAR, MB_INIT, {"shared", "shared::cta", "b64"}, {0}, {0}, 2, 2},
	{"mbarrier.arrive.expect_tx", OP_MBAR, MB_ARRIVE_TX, {SCOPES}, {"shared::cluster"}, {OPF_CLUSTER_SP}, 3, 3},
	{"mbarrier.arrive", OP_MBAR, MB_ARRIVE, {SCOPES}, {"shared::cluster"}, {OPF_CLUSTER_SP}, 2, 3},
	{"mbarrier.expect_tx", OP_MBAR, MB_EXPECT_TX, {SCOPES}, {"shared::cluster"}, {OPF_CLUSTER_SP}, 2, 2},
	{"mbarrier.test_wait", OP_MBAR, MB_TEST_WAIT, {SCOPES}, {"parity"}, {OPF_PARITY}, 3, 3},
	{"mbarrier.try_wait", OP_MBAR, MB_TRY_WAIT, {SCOPES}, {"parity"}, {OPF_PARITY}, 3, 4},
	{"cp.async.bulk.tensor", OP_BULK, BK_LOAD, {"1d", "2d", "3d", "4d", "5d", "shared::cluster", "global",
	 "shared::cta", "tile", "mbarrier::complete_tx::bytes", "bulk_group"}, {"multicast::cluster"}, {OPF_MULTICAST}, 2, 4},
	{"cp.async.bulk.commit_group", OP_BULK, BK_COMMIT, {0}, {0}, {0}, 0, 0},
	{"cp.async.bulk.wait_group", OP_BULK, BK_WAIT, {0}, {"read"}, {OPF_READ}, 1, 1},
	{"mapa", OP_CLUSTER, CL_MAPA, {"shared::cluster", "u32", "u64"}, {0}, {0}, 3, 3},
	{"barrier.cluster.arrive", OP_CLUSTER, CL_ARRIVE, {"release", "relaxed", "aligned"}, {0}, {0}, 0, 0},
	{"barrier.cluster.wait", OP_CLUSTER, CL_WAIT, {"acquire", "aligned"}, {0}, {0}, 0, 0},
	{"elect.sync", OP_CLUSTER, CL_ELECT, {0}, {0}, {0}, 2, 2},
	{"setmaxnreg", OP_CLUSTER, CL_SETMAXNREG, {"dec", "sync", "aligned", "u32"}, {"inc"}, {OPF_INC}, 1, 1},
	{"fence.proxy.async", OP_CLUSTER, CL_FENCE_PROXY, {"shared::cta", "shared::cluster", "global"}, {0}, {0}, 0, 0},
	{"bar.arrive", OP_CLUSTER, CL_BAR_ARRIVE, {"aligned"}, {0}, {0}, 2, 2},
	{"barrier.arrive", OP_CLUSTER, CL_BAR_ARRIVE, {"aligned"}, {0}, {0}, 2, 2},
	{"stmatrix", OP_STMATRIX, 0, {"sync", "aligned", "m8n8", "x1", "x2", "x4", "shared", "shared::cta", "b16"},
	 {"trans"}, {OPF_TRANS}, 2, 2},
};

/* Does name start with the words of prefix (whole words)? */
static int starts_with_words(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	return !strncmp(name, prefix, n) && (name[n] == 0 || name[n] == '.');
}

static int word_in(const char *w, size_t n, const char *const *list, int max)
{
	for (int i = 0; i < max && list[i]; i++)
		if (strlen(list[i]) == n && !strncmp(list[i], w, n))
			return i;
	return -1;
}

/* The form of a full name and the words it carries; NULL when a word is not
 * one the emulator runs. dims: the 1d..5d word; x: stmatrix's x1/x2/x4. */
static const hform *match(const char *full, emu_op *o, int *dims, int *x, int *store)
{
	const hform *f = NULL;
	for (size_t i = 0; i < ARRAY_LEN(forms) && !f; i++)
		if (starts_with_words(full, forms[i].name))
			f = &forms[i];
	if (!f)
		return NULL;
	int saw_global = 0;
	for (const char *p = full + strlen(f->name); *p;) {
		p += *p == '.';
		size_t n = strcspn(p, ".");
		/* mbarrier::complete_tx::bytes holds no dot, shared::cluster neither */
		int fl = word_in(p, n, f->flag, 2);
		if (fl >= 0) {
			o->flags |= f->opf[fl];
		} else if (word_in(p, n, f->allow, 14) < 0) {
			return NULL;
		}
		if (n == 2 && p[1] == 'd' && p[0] >= '1' && p[0] <= '5')
			*dims = p[0] - '0';
		if (n == 2 && p[0] == 'x')
			*x = p[1] - '0';
		if (n == 6 && !strncmp(p, "global", 6))
			saw_global = 1;
		if (n == 11 && !strncmp(p, "shared::cta", 11) && saw_global)
			*store = 1; /* .global.shared::cta: destination first */
		p += n;
	}
	return f;
}

/* "[a+off]" as a base register and its offset in a constant register. */
static int addr2(emu_pstate *ps, char *s, int32_t *base, int32_t *off, int params_ok)
{
	int b, is_param;
	int64_t v;
	if (emu_addr_operand(ps, s, &b, &v, &is_param) < 0)
		return -1;
	if (is_param && !params_ok)
		return emu_perr(ps, ps->line, "a parameter's name is no shared address");
	*base = b;
	*off = emu_const_reg(ps, (uint64_t)v);
	return *off < 0 ? -1 : 0;
}

/* "[tmap, {c0, c1, ...}]": the tensor map's address and the coordinates. */
static int tensor_operand(emu_pstate *ps, emu_op *o, char *s, int dims)
{
	char *brace = strchr(s, '{'), *comma = strchr(s, ',');
	if (!brace || !comma || comma > brace)
		return emu_perr(ps, ps->line, "expected [tensor-map, {coordinates}]");
	char *close = strchr(brace, '}');
	if (!close)
		return emu_perr(ps, ps->line, "missing '}' in the coordinates");
	close[1] = 0;
	*comma = ']';
	comma[1] = 0;
	if (addr2(ps, s, &o->src[2], &o->src[3], 1) < 0)
		return -1;
	int c[5];
	int n = emu_vector_operand(ps, brace, ET_S32, c, 5, 0);
	if (n < 0)
		return -1;
	if (n != dims)
		return emu_perr(ps, ps->line, "a %dd tensor copy takes %d coordinates, got %d", dims, dims, n);
	for (int i = 0; i < n; i++)
		o->src[7 + i] = c[i];
	return 0;
}

static int bulk_operands(emu_pstate *ps, emu_op *o, char **parts, int np, int dims, int store)
{
	if (o->mod == BK_COMMIT)
		return 0;
	if (o->mod == BK_WAIT) {
		int64_t v;
		if (emu_parse_int(emu_skip_sp(parts[0]), &v) < 0 || v < 0 || v > EMU_MAX_WAIT_GROUP)
			return emu_perr(ps, ps->line, "cp.async.bulk.wait_group takes an integer 0..%d", EMU_MAX_WAIT_GROUP);
		o->imm = v;
		return 0;
	}
	if (!dims)
		return emu_punsup(ps, ps->line, "cp.async.bulk.tensor without .1d-.5d");
	o->vec = (uint8_t)dims;
	if (store) {
		o->mod = BK_STORE;
		if (np != 2 || (o->flags & OPF_MULTICAST))
			return emu_perr(ps, ps->line, "a TMA store takes [tensor-map, {coordinates}], [shared]");
		return tensor_operand(ps, o, parts[0], dims) < 0 ? -1 : addr2(ps, parts[1], &o->src[0], &o->src[1], 0);
	}
	int want = 3 + ((o->flags & OPF_MULTICAST) != 0);
	if (np != want)
		return emu_perr(ps, ps->line, "this TMA load takes %d operands: [shared], [tensor-map, {coordinates}], "
				"[mbarrier]%s", want, want == 4 ? ", cta-mask" : "");
	if (addr2(ps, parts[0], &o->src[0], &o->src[1], 0) < 0 || tensor_operand(ps, o, parts[1], dims) < 0 ||
	    addr2(ps, parts[2], &o->src[4], &o->src[5], 0) < 0)
		return -1;
	if (want == 4 && (o->src[6] = emu_scalar_operand(ps, parts[3], ET_B16)) < 0)
		return -1;
	return 0;
}

static int mbar_operands(emu_pstate *ps, emu_op *o, char **parts, int np)
{
	int32_t off;
	switch (o->mod) {
	case MB_INIT:
	case MB_EXPECT_TX:
		if (addr2(ps, parts[0], &o->src[0], &off, 0) < 0)
			return -1;
		o->src[2] = off;
		return (o->src[1] = emu_scalar_operand(ps, parts[1], ET_U32)) < 0 ? -1 : 0;
	case MB_ARRIVE:
	case MB_ARRIVE_TX:
		if ((o->dst[0] = emu_dst_operand(ps, parts[0])) < EMU_NO_REG || addr2(ps, parts[1], &o->src[0], &off, 0) < 0)
			return -1;
		o->src[2] = off;
		o->src[1] = np == 3 ? emu_scalar_operand(ps, parts[2], ET_U32) : emu_const_reg(ps, 1);
		return o->src[1] < 0 ? -1 : 0;
	default: /* test_wait, try_wait: p, [addr], state|parity[, suspend-time hint, ignored] */
		if ((o->dst[0] = emu_dst_operand(ps, parts[0])) < EMU_NO_REG || addr2(ps, parts[1], &o->src[0], &off, 0) < 0)
			return -1;
		o->src[2] = off;
		return (o->src[1] = emu_scalar_operand(ps, parts[2], (o->flags & OPF_PARITY) ? ET_U32 : ET_B64)) < 0 ? -1 : 0;
	}
}

static int cluster_operands(emu_pstate *ps, emu_op *o, char **parts, const char *full)
{
	int64_t v;
	switch (o->mod) {
	case CL_MAPA:
		o->type = strstr(full, ".u64") ? ET_U64 : ET_U32;
		if (!strstr(full, "shared::cluster"))
			return emu_punsup(ps, ps->line, "'%s': the emulator maps shared::cluster addresses only", full);
		if ((o->dst[0] = emu_dst_operand(ps, parts[0])) < EMU_NO_REG)
			return -1;
		o->src[0] = emu_scalar_operand(ps, parts[1], (emu_type)o->type);
		o->src[1] = o->src[0] < 0 ? -1 : emu_scalar_operand(ps, parts[2], ET_U32);
		return o->src[1] < 0 ? -1 : 0;
	case CL_ELECT: {
		char *bar = strchr(parts[0], '|');
		if (bar) {
			*bar = 0;
			if ((o->dst[1] = emu_dst_operand(ps, bar + 1)) < EMU_NO_REG)
				return -1;
		}
		if ((o->dst[0] = emu_dst_operand(ps, parts[0])) < EMU_NO_REG)
			return -1;
		return (o->src[0] = emu_scalar_operand(ps, parts[1], ET_B32)) < 0 ? -1 : 0;
	}
	case CL_SETMAXNREG:
		if (emu_parse_int(emu_skip_sp(parts[0]), &v) < 0 || v < 24 || v > 256 || v % 8)
			return emu_perr(ps, ps->line, "setmaxnreg takes a register count 24..256, a multiple of 8");
		o->imm = v;
		return 0;
	case CL_BAR_ARRIVE:
		o->src[0] = emu_scalar_operand(ps, parts[0], ET_U32);
		o->src[1] = o->src[0] < 0 ? -1 : emu_scalar_operand(ps, parts[1], ET_U32);
		return o->src[1] < 0 ? -1 : 0;
	default:
		return 0;
	}
}

int emu_decode_hopper(emu_pstate *ps, emu_op *o, const char *full, char **parts, int np)
{
	int dims = 0, x = 0, store = 0;
	const hform *f = match(full, o, &dims, &x, &store);
	if (!f)
		return emu_punsup(ps, ps->line, "unsupported instruction '%s'", full);
	o->code = f->code;
	o->mod = f->mod;
	if (np < f->nops_min || np > f->nops_max)
		return emu_perr(ps, ps->line, "'%s' takes %d to %d operands, got %d", full, f->nops_min, f->nops_max, np);
	/* every output is written by the instruction itself, "_" included: ndst
	 * stays 0 so the interpreter never skips one for its sink */
	o->ndst = 0;
	o->nsrc = 0; /* the interpreter reads o->src by position */
	switch (f->code) {
	case OP_MBAR: return mbar_operands(ps, o, parts, np);
	case OP_BULK: return bulk_operands(ps, o, parts, np, dims, store);
	case OP_CLUSTER: return cluster_operands(ps, o, parts, full);
	default: /* stmatrix [addr], {regs} */
		if (!x || !strstr(full, "m8n8") || !strstr(full, "b16"))
			return emu_punsup(ps, ps->line, "'%s': stmatrix .m8n8 .x1/.x2/.x4 .b16 only", full);
		o->vec = (uint8_t)x;
		int32_t off;
		if (addr2(ps, parts[0], &o->src[0], &off, 0) < 0)
			return -1;
		o->src[5] = off;
		int regs[4];
		int n = emu_vector_operand(ps, parts[1], ET_B32, regs, 4, 0);
		if (n < 0)
			return -1;
		if (n != x)
			return emu_perr(ps, ps->line, "'%s' needs %d registers", full, x);
		for (int i = 0; i < n; i++)
			o->src[1 + i] = regs[i];
		return 0;
	}
}
