/* emu_wgmma: wgmma.mma_async and its fence, commit and wait for the emulator, with the async hazard rules checked. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_wgmma.h"
#include "base/fpconv.h"
#include "base/util.h"

/* ---- element types ---- */

static const struct {
	const char *name;
	int bytes;
	int k;                      /* the K of the shape it takes */
} wg_types[WG_NTYPES] = {
	[WG_F16] = {"f16", 2, 16}, [WG_BF16] = {"bf16", 2, 16}, [WG_TF32] = {"tf32", 4, 8},
	[WG_E4M3] = {"e4m3", 1, 32}, [WG_E5M2] = {"e5m2", 1, 32}, [WG_F32] = {"f32", 4, 0},
};

static int wg_type(const char *s)
{
	for (int t = 0; t < WG_NTYPES; t++)
		if (!strcmp(s, wg_types[t].name))
			return t;
	return -1;
}

/* An element's value from its bits: the one reading of a tensor-core operand,
 * for wgmma and mma.sync alike. tf32: the PTX ISA says of wgmma (9.7.15.5.2,
 * "Precision and rounding") that it "will truncate lower 13 bits of the 32-bit
 * input data before multiplication is issued"; of mma (9.7.14.5.14) only that
 * the multiplication "is performed with specified precision", and of the
 * format (5.2.3) that its "internal layout [...] is implementation defined".
 * Both read the top 19 bits here (sign, 8 exponent bits, 10 mantissa bits).
 * A kernel that rounds with cvt.rna.tf32.f32 first has those bits 0 and gets
 * the same result whatever mma.sync does with them. */
static inline float mma_elem(emu_wg_type t, uint32_t v)
{
	uint32_t e = v >> 10 & 0x1f;
	switch (t) {
	case WG_F16: /* a normal number inline (util_f16_to_f32's bits: the exponent rebiased by 127 - 15) */
		return e && e != 31 ? fpconv_bits_f32((v & 0x8000) << 16 | (((v & 0x7fff) << 13) + (112u << 23)))
				    : util_f16_to_f32((uint16_t)v);
	case WG_BF16: return fpconv_bits_f32(v << 16);
	case WG_TF32: return fpconv_bits_f32(v & 0xffffe000u);
	case WG_E4M3: return fpconv_fp8_to_f32((uint8_t)v, FPCONV_E4M3);
	case WG_E5M2: return fpconv_fp8_to_f32((uint8_t)v, FPCONV_E5M2);
	default: return fpconv_bits_f32(v);
	}
}

float emu_mma_elem(emu_wg_type t, uint32_t v)
{
	return mma_elem(t, v);
}

/* A of mma.m16n8kK from a warp's four registers (PTX ISA 9.7.14.5.8 "Matrix
 * Fragments for mma.m16n8k16 with floating point type", 9.7.14.5.7 "... for
 * mma.m16n8k8" (.tf32), 9.7.14.5.9 "... mma.m16n8k32"; wgmma's A from
 * registers, 9.7.15.5.1.1, is the same per warp). g = lane/4, t = lane%4. */
void emu_mma_frag_a(const uint64_t *R, const int32_t reg[4], int k, emu_wg_type type, float A[16][32])
{
	for (int l = 0; l < 32; l++) {
		int g = l / 4, t = l % 4;
		for (int i = 0; i < 4; i++) {
			uint32_t v = (uint32_t)R[reg[i] * 32 + l];
			if (k == 16) { /* a0..a7, two per register */
				for (int h = 0; h < 2; h++) {
					int e = 2 * i + h;
					A[g + 8 * ((e / 2) % 2)][2 * t + (e % 2) + 8 * (e / 4)] =
						mma_elem(type, v >> (16 * h) & 0xffff);
				}
			} else if (k == 8) { /* tf32 a0..a3, one per register: row g (+8 for a1, a3), column t (+4 for a2, a3) */
				A[g + 8 * (i % 2)][t + 4 * (i / 2)] = mma_elem(type, v);
			} else { /* a0..a15, four per register */
				for (int h = 0; h < 4; h++) {
					int e = 4 * i + h;
					A[g + 8 * ((e / 4) % 2)][4 * t + (e % 4) + 16 * (e / 8)] =
						mma_elem(type, v >> (8 * h) & 0xff);
				}
			}
		}
	}
}

/* B (K x 8) of mma.m16n8k16 (16-bit: b0..b3, two per register, row 2t + (i%2)
 * + 8(i/2)) or mma.m16n8k8 .tf32 (b0, b1: row t, t + 4), column g. */
void emu_mma_frag_b(const uint64_t *R, const int32_t reg[2], int k, emu_wg_type type, float B[32][8])
{
	for (int l = 0; l < 32; l++) {
		int g = l / 4, t = l % 4;
		for (int i = 0; i < 2; i++) {
			uint32_t v = (uint32_t)R[reg[i] * 32 + l];
			if (k == 16) {
				for (int h = 0; h < 2; h++)
					B[2 * t + h + 8 * i][g] = mma_elem(type, v >> (16 * h) & 0xffff);
			} else {
				B[t + 4 * i][g] = mma_elem(type, v);
			}
		}
	}
}

/* ---- matrix descriptors and the shared-memory layouts ---- */

emu_wg_desc emu_wg_desc_decode(uint64_t d)
{
	return (emu_wg_desc){.start = (uint32_t)(d & 0x3fff) << 4, .lbo = (uint32_t)((d >> 16) & 0x3fff) << 4,
			     .sbo = (uint32_t)((d >> 32) & 0x3fff) << 4, .base = (int)((d >> 49) & 7),
			     .swizzle = (int)(d >> 62)};
}

/* Bytes of a swizzled row by mode (none: a core matrix's 16-byte row), and
 * the bits of the row index the swizzle XORs into the 16-byte chunk index. */
static const int row_bytes[4] = {16, 128, 64, 32};
static const int swz_bits[4] = {0, 3, 2, 1};

/* The canonical layouts of PTX ISA 9.7.15.5.1.2.1.3 in bytes, T = 16 / elem_bytes
 * elements to 16 bytes, W the row bytes, c = W / 16:
 *   K-major, none:      ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
 *   K-major, swizzled:  ((8,m),(T,2k)) : ((cT,SBO),(1,T))
 *   MN-major, none:     ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
 *   MN-major, swizzled: ((T,c,m),(8,k)) : ((1,T,LBO),(cT,SBO))
 * then Swizzle<B,4,3> on the address: bits 7.. of the row XORed into bits 4.. */
uint32_t emu_wg_desc_addr(const emu_wg_desc *d, int mn, int k, int eb, int mn_major)
{
	uint32_t T = 16u / (uint32_t)eb, W = (uint32_t)row_bytes[d->swizzle], c = W / 16, umn = (uint32_t)mn,
		 uk = (uint32_t)k, off;
	if (!mn_major) {
		off = umn % 8 * W + umn / 8 * d->sbo;
		off += d->swizzle ? uk * (uint32_t)eb : uk / T * d->lbo + uk % T * (uint32_t)eb;
	} else {
		off = uk % 8 * W + umn % T * (uint32_t)eb;
		if (d->swizzle)
			off += umn / T % c * 16 + umn / (T * c) * d->lbo + uk / 8 * d->sbo;
		else
			off += umn / T * d->sbo + uk / 8 * d->lbo;
	}
	uint32_t a = d->start + off;
	if (!d->swizzle)
		return a;
	/* the pattern's row is the address's bits 7.. counted from where the
	 * pattern starts: base offset 0 puts it at the 1024/512/256-byte boundary */
	uint32_t mask = (1u << swz_bits[d->swizzle]) - 1;
	uint32_t row = ((a >> 7) - (uint32_t)d->base) & mask;
	return a ^ (row << 4);
}

/* ---- decoding ---- */

/* "m64n128k16" -> N and K; -1 if not wgmma's shape. */
static int parse_shape(const char *s, int *n, int *k)
{
	char tail;
	if (sscanf(s, "m64n%dk%d%c", n, k, &tail) != 2)
		return -1;
	return *n >= 8 && *n <= 256 && *n % 8 == 0 ? 0 : -1;
}

static int imm_operand(emu_pstate *ps, char *s, int lo, int hi, const char *what, int *out)
{
	int64_t v;
	if (emu_parse_int(emu_skip_sp(s), &v) < 0 || v < lo || v > hi || (lo == -1 && v == 0))
		return emu_perr(ps, ps->line, "wgmma.mma_async: %s must be %s", what, lo < 0 ? "1 or -1" : "0 or 1");
	*out = (int)v;
	return 0;
}

/* The instruction's name: shape and types, with the combinations PTX allows. */
static int decode_name(emu_pstate *ps, struct emu_wgmma_op *w, const char *full)
{
	char buf[128], *words[12];
	int nw = 0;
	util_strlcpy(buf, full, sizeof buf);
	for (char *p = strtok(buf, "."); p && nw < 12; p = strtok(NULL, "."))
		words[nw++] = p;
	int n, k;
	if (nw != 8 || strcmp(words[2], "sync") || strcmp(words[3], "aligned") || parse_shape(words[4], &n, &k) < 0)
		return emu_punsup(ps, ps->line, "unsupported instruction '%s' (the emulator runs "
				  "wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype)", full);
	int dt = wg_type(words[5]), at = wg_type(words[6]), bt = wg_type(words[7]);
	int ok = dt >= 0 && at >= 0 && bt >= 0 && (dt == WG_F32 || dt == WG_F16) && at != WG_F32 &&
		 wg_types[at].k == k && wg_types[bt].k == k;
	/* f16 and bf16 pair only with themselves; bf16 and tf32 accumulate in f32; e4m3/e5m2 mix */
	if (ok && at <= WG_TF32)
		ok = at == bt && (at == WG_F16 || dt == WG_F32);
	if (!ok)
		return emu_punsup(ps, ps->line, "unsupported instruction '%s': wgmma takes m64nNk16 f16/bf16, "
				  "m64nNk8 tf32, m64nNk32 e4m3/e5m2 (N = 8..256, a multiple of 8)", full);
	w->n = (uint16_t)n;
	w->k = (uint8_t)k;
	w->dtype = (uint8_t)dt;
	w->atype = (uint8_t)at;
	w->btype = (uint8_t)bt;
	w->nd = (int16_t)(dt == WG_F32 ? n / 2 : n / 4);
	return 0;
}

/* The accumulators {d0, ..., dX}: too many for emu_vector_operand's 8. */
static int decode_d(emu_pstate *ps, struct emu_wgmma_op *w, char *s)
{
	s = emu_skip_sp(s);
	emu_rtrim(s);
	size_t len = strlen(s);
	if (s[0] != '{' || s[len - 1] != '}')
		return emu_perr(ps, ps->line, "wgmma.mma_async: the accumulators are a vector {d0, ...}, got '%.40s'", s);
	s[len - 1] = 0;
	char *parts[EMU_WG_MAX_D + 1];
	int np = emu_split_commas(s + 1, parts, EMU_WG_MAX_D);
	if (np != w->nd)
		return emu_perr(ps, ps->line, "wgmma.mma_async.m64n%dk%d.%s takes %d accumulator registers, got %d", w->n,
				w->k, wg_types[w->dtype].name, w->nd, np);
	for (int i = 0; i < np; i++)
		if ((w->d[i] = emu_dst_operand(ps, parts[i])) < 0)
			return ps->why ? -1 : emu_perr(ps, ps->line, "wgmma.mma_async: accumulator %d is '_'", i);
	return 0;
}

/* The scale-d operand: a predicate, or an integer constant. */
static int decode_scale_d(emu_pstate *ps, char *s)
{
	int64_t v;
	char *t = emu_skip_sp(s);
	emu_rtrim(t);
	if (emu_parse_int(t, &v) == 0)
		return emu_const_reg(ps, v != 0);
	return emu_scalar_operand(ps, t, ET_PRED);
}

int emu_wgmma_decode(emu_pstate *ps, emu_op *o, const char *full, char **parts, int np)
{
	struct emu_wgmma_op w;
	memset(&w, 0, sizeof w);
	if (decode_name(ps, &w, full) < 0)
		return -1;
	int sixteen = w.atype <= WG_BF16;
	w.a_in_regs = *emu_skip_sp(parts[1]) == '{';
	/* d, a, b-desc, scale-d, imm-scale-a, imm-scale-b [, imm-trans-a (descriptor A)] [, imm-trans-b]:
	 * the transposes only for 16-bit types (PTX ISA, wgmma.mma_async) */
	int want = 6 + (sixteen ? 1 + !w.a_in_regs : 0);
	if (np != want)
		return emu_perr(ps, ps->line, "'%s' with A %s takes %d operands, got %d", full,
				w.a_in_regs ? "in registers" : "from a descriptor", want, np);
	if (decode_d(ps, &w, parts[0]) < 0)
		return -1;
	if (w.a_in_regs) {
		if (emu_vector_operand(ps, parts[1], ET_B32, w.a, 4, 0) != 4)
			return ps->why ? -1 : emu_perr(ps, ps->line, "wgmma.mma_async: A in registers is {4 registers}");
	} else if ((w.a[0] = emu_scalar_operand(ps, parts[1], ET_B64)) < 0) {
		return -1;
	}
	if ((w.bdesc = emu_scalar_operand(ps, parts[2], ET_B64)) < 0 || (w.scale_d = decode_scale_d(ps, parts[3])) < 0)
		return -1;
	int sa = 1, sb = 1, ta = 0, tb = 0;
	if (imm_operand(ps, parts[4], -1, 1, "imm-scale-a", &sa) < 0 ||
	    imm_operand(ps, parts[5], -1, 1, "imm-scale-b", &sb) < 0)
		return -1;
	if (sixteen && !w.a_in_regs && imm_operand(ps, parts[6], 0, 1, "imm-trans-a", &ta) < 0)
		return -1;
	if (sixteen && imm_operand(ps, parts[np - 1], 0, 1, "imm-trans-b", &tb) < 0)
		return -1;
	w.scale_a = (int8_t)sa;
	w.scale_b = (int8_t)sb;
	w.trans_a = (uint8_t)ta;
	w.trans_b = (uint8_t)tb;
	emu_kernel *k = ps->k;
	k->wgmma = xreallocarray(k->wgmma, (size_t)k->nwgmma + 1, sizeof *k->wgmma);
	k->wgmma[k->nwgmma] = w;
	o->imm = k->nwgmma++;
	o->ndst = o->nsrc = 0; /* the operands are in k->wgmma: the generic machinery must not see them */
	return 0;
}

/* ---- running it ---- */

/* One wgmma.mma_async of a warp not yet retired: its results wait here until
 * the wgmma.wait_group that completes its group writes them to the registers. */
typedef struct {
	int op;                     /* index of the wgmma in k->ops */
	long long group;            /* -1 until committed */
	uint64_t *val;              /* nd x 32 lanes */
	uint32_t lo[2], hi[2];      /* the shared bytes [lo, hi) its A and B span (the tensor cores may read them until it completes) */
} wg_pending;

typedef struct {
	wg_pending *p;
	int np, cap;
	long long next_group;       /* the group the next commit makes */
	uint16_t *busy;             /* per register: in-flight wgmmas that write or read it */
	uint64_t *fut;              /* per register and lane: the newest in-flight wgmma's result */
	uint32_t *wrote_epoch;      /* per register: the fence epoch of its last access by another instruction */
	int32_t *wrote_op;          /* ... and that instruction */
	uint32_t fence_epoch;       /* wgmma.fences so far, plus one */
	long long issued;           /* wgmma.mma_async issued (the .aligned check) */
} wg_warp;

/* The .sync.aligned check: the i-th wgmma of each of a warpgroup's four warps
 * must be the same instruction with the same descriptors. */
typedef struct {
	int op;
	uint64_t da, db;
} wg_logent;

/* Four floats, one vector of the product loop (GCC and clang vector extensions). */
typedef float v4f __attribute__((vector_size(16)));

/* B of one wgmma issue as a warp of a group read it: the group's four warps read the
 * same bytes through the same descriptor, so a warp that finds the same bytes at the
 * same addresses takes the values. A warp may run a few stages of the k loop ahead of
 * the others, hence a few readings kept, the least recently used replaced. */
typedef struct {
	int op;                     /* the wgmma (index in k->wgmma); -1: none */
	uint64_t db;                /* its descriptor */
	uint32_t smem_size;         /* the block's shared bytes the addresses were checked against */
	uint32_t span[2];           /* the bytes B spans */
	unsigned long long used;    /* when it last served */
	uint32_t *addr;             /* the chunks' shared addresses, in gather's order */
	uint8_t *raw;               /* the bytes, chunk by chunk */
	float *val;                 /* their values, element (n, k) at [k * 256 + n] */
	int finite;                 /* no NaN or infinity among them */
} wg_bread;

#define WG_BREADS 32

typedef struct {
	wg_logent *log;
	int n, cap;
	long long base;             /* the sequence number of log[0] */
	wg_bread *b;                /* WG_BREADS, allocated at the group's first wgmma */
	unsigned long long clock;   /* B readings looked up */
} wg_group;

struct emu_wg_block {
	const emu_kernel *k;
	int nwarps;
	wg_warp *w;
	wg_group *g;
	/* the proxy rule: per 16 bytes of shared memory, 1 + the warp whose generic
	 * st wrote them with no fence.proxy.async since (0: none), and the st */
	uint32_t nchunks;
	uint16_t *gen_warp;
	int32_t *gen_op;
	int inflight;               /* wgmmas of all warps not yet retired */
	float fp8[2][256];          /* e4m3's and e5m2's values by their bits */
};

#define WG_MAX_AHEAD 65536  /* wgmmas one warp of a warpgroup may issue ahead of another */
#define WG_MAX_PENDING 64   /* wgmmas of one warp in flight: each holds up to 32 KiB of results */

emu_wg_block *emu_wg_block_new(const emu_kernel *k, int nwarps, uint32_t smem_size)
{
	emu_wg_block *b = xcalloc(1, sizeof *b);
	b->k = k;
	b->nchunks = smem_size / 16 + 1;
	b->gen_warp = xcalloc(b->nchunks, sizeof *b->gen_warp);
	b->gen_op = xcalloc(b->nchunks, sizeof *b->gen_op);
	b->nwarps = nwarps;
	b->w = xcalloc((size_t)nwarps, sizeof *b->w);
	b->g = xcalloc((size_t)nwarps / 4 + 1, sizeof *b->g);
	for (int v = 0; v < 256; v++) {
		b->fp8[0][v] = emu_mma_elem(WG_E4M3, (uint32_t)v);
		b->fp8[1][v] = emu_mma_elem(WG_E5M2, (uint32_t)v);
	}
	for (int i = 0; i < nwarps; i++) {
		wg_warp *s = &b->w[i];
		s->busy = xcalloc((size_t)k->nregs + 1, sizeof *s->busy);
		s->fut = xcalloc((size_t)k->nregs * 32 + 1, sizeof *s->fut);
		s->wrote_epoch = xcalloc((size_t)k->nregs + 1, sizeof *s->wrote_epoch);
		s->wrote_op = xcalloc((size_t)k->nregs + 1, sizeof *s->wrote_op);
	}
	emu_wg_block_reset(b);
	return b;
}

void emu_wg_block_reset(emu_wg_block *b)
{
	size_t nr = (size_t)b->k->nregs + 1;
	for (int i = 0; i < b->nwarps; i++) {
		wg_warp *s = &b->w[i];
		for (int j = 0; j < s->np; j++)
			free(s->p[j].val);
		s->np = 0;
		s->next_group = 0;
		s->issued = 0;
		s->fence_epoch = 1; /* a register written before any fence counts as written after it */
		memset(s->busy, 0, nr * sizeof *s->busy);
		memset(s->wrote_epoch, 0, nr * sizeof *s->wrote_epoch);
	}
	for (int i = 0; i <= b->nwarps / 4; i++) {
		b->g[i].n = 0;
		b->g[i].base = 0;
		for (int j = 0; b->g[i].b && j < WG_BREADS; j++)
			b->g[i].b[j].op = -1;
	}
	memset(b->gen_warp, 0, b->nchunks * sizeof *b->gen_warp);
	b->inflight = 0;
}

void emu_wg_block_free(emu_wg_block *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nwarps; i++) {
		wg_warp *s = &b->w[i];
		for (int j = 0; j < s->np; j++)
			free(s->p[j].val);
		free(s->p);
		free(s->busy);
		free(s->fut);
		free(s->wrote_epoch);
		free(s->wrote_op);
	}
	for (int i = 0; i <= b->nwarps / 4; i++) {
		free(b->g[i].log);
		for (int j = 0; b->g[i].b && j < WG_BREADS; j++) {
			free(b->g[i].b[j].raw);
			free(b->g[i].b[j].addr);
			free(b->g[i].b[j].val);
		}
		free(b->g[i].b);
	}
	free(b->w);
	free(b->g);
	free(b->gen_warp);
	free(b->gen_op);
	free(b);
}

static int msg(emu_wg_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int msg(emu_wg_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->msg, (size_t)c->msglen, fmt, ap);
	va_end(ap);
	return -1;
}

static int line_of(const emu_wg_ctx *c, int op) { return op >= 0 ? c->k->ops[op].line : 0; }

/* The in-flight wgmma of s that holds register r (the newest); -1 if none. */
static int holder(const emu_wg_ctx *c, const wg_warp *s, int r)
{
	for (int j = s->np - 1; j >= 0; j--) {
		const struct emu_wgmma_op *w = &c->k->wgmma[c->k->ops[s->p[j].op].imm];
		for (int i = 0; i < w->nd; i++)
			if (w->d[i] == r)
				return s->p[j].op;
		for (int i = 0; w->a_in_regs && i < 4; i++)
			if (w->a[i] == r)
				return s->p[j].op;
	}
	return -1;
}

/* The registers a wgmma holds while in flight: its accumulators, and A's fragment. */
static void hold(wg_warp *s, const struct emu_wgmma_op *w, int delta)
{
	for (int i = 0; i < w->nd; i++)
		s->busy[w->d[i]] = (uint16_t)(s->busy[w->d[i]] + delta);
	for (int i = 0; w->a_in_regs && i < 4; i++)
		s->busy[w->a[i]] = (uint16_t)(s->busy[w->a[i]] + delta);
}

/* wgmma.wait_group N: every committed group but the newest N completes, and
 * its results land in the registers, oldest first. */
static void retire(const emu_wg_ctx *c, wg_warp *s, long long upto)
{
	int keep = 0;
	for (int j = 0; j < s->np; j++) {
		wg_pending *p = &s->p[j];
		if (p->group < 0 || p->group > upto) {
			s->p[keep++] = *p;
			continue;
		}
		const struct emu_wgmma_op *w = &c->k->wgmma[c->k->ops[p->op].imm];
		for (int i = 0; i < w->nd; i++)
			memcpy(&c->R[w->d[i] * 32], &p->val[i * 32], 32 * sizeof(uint64_t));
		hold(s, w, -1);
		free(p->val);
		c->wg->inflight--;
	}
	s->np = keep;
}

int emu_wgmma_smem_in_flight(const emu_wg_block *b, uint32_t off, uint32_t bytes, char *m, int mlen)
{
	if (!b || !b->inflight)
		return 0;
	for (int q = 0; q < b->nwarps; q++)
		for (int j = 0; j < b->w[q].np; j++) {
			const wg_pending *p = &b->w[q].p[j];
			for (int i = 0; i < 2; i++)
				if (off < p->hi[i] && off + bytes > p->lo[i]) {
					snprintf(m, (size_t)mlen, "writes shared bytes %u..%u, which the wgmma.mma_async at line %d "
						 "(warp %d) reads as %s and has not completed: a wgmma.wait_group that retires it "
						 "must come first (and a barrier, for another warp's)", off, off + bytes - 1,
						 b->k->ops[p->op].line, q, i ? "B" : "A");
					return -1;
				}
		}
	return 0;
}

void emu_wgmma_async_wrote(emu_wg_block *b, uint32_t off, uint32_t bytes)
{
	if (!b || !bytes)
		return;
	for (uint64_t ch = off / 16; ch <= ((uint64_t)off + bytes - 1) / 16 && ch < b->nchunks; ch++)
		if (off <= ch * 16 && ch * 16 + 16 <= (uint64_t)off + bytes) /* whole chunks only */
			b->gen_warp[ch] = 0;
}

/* The proxy rule's marks: a generic st.shared marks the bytes it writes; the
 * warp's fence.proxy.async (PTX ISA, membar/fence: fence.proxy.async)
 * makes its writes visible to the async proxy that wgmma reads through. */
static int proxy_marks(emu_wg_ctx *c)
{
	emu_wg_block *b = c->wg;
	const emu_op *o = c->o;
	if (o->code == OP_CLUSTER && o->mod == CL_FENCE_PROXY && c->em) {
		for (uint32_t i = 0; i < b->nchunks; i++)
			if (b->gen_warp[i] == c->warp + 1)
				b->gen_warp[i] = 0;
		return 0;
	}
	if (o->code != OP_ST || (o->space != SP_SHARED && o->space != SP_GENERIC))
		return 0;
	uint64_t bytes = (uint64_t)emu_types[o->type].bytes * o->vec;
	for (int l = 0; l < 32; l++) {
		if (!(c->em >> l & 1))
			continue;
		uint64_t a = c->R[o->src[0] * 32 + l] + (uint64_t)o->imm;
		if (o->space == SP_GENERIC) {
			if ((a >> EMU_GLOBAL_SHIFT) != (EMU_SHARED_WINDOW >> EMU_GLOBAL_SHIFT))
				continue;
			a -= EMU_SHARED_WINDOW;
		}
		if (a >= c->smem_size || bytes > c->smem_size - a) /* the st itself reports it */
			continue;
		if (emu_wgmma_smem_in_flight(b, (uint32_t)a, (uint32_t)bytes, c->msg, c->msglen) < 0)
			return -1;
		for (uint64_t ch = a / 16; ch <= (a + bytes - 1) / 16; ch++) {
			b->gen_warp[ch] = (uint16_t)(c->warp + 1);
			b->gen_op[ch] = (int32_t)(o - c->k->ops);
		}
	}
	return 0;
}

int emu_wgmma_hazard(emu_wg_ctx *c)
{
	if (proxy_marks(c) < 0)
		return -1;
	wg_warp *s = &c->wg->w[c->warp];
	const emu_op *o = c->o;
	if (s->np) {
		for (int i = 0; i < o->nsrc + 1; i++) {
			int r = i < o->nsrc ? o->src[i] : o->pred;
			if (r >= 0 && s->busy[r])
				return msg(c, "reads a register that the wgmma.mma_async at line %d holds (accumulator or "
					   "A fragment) before a wgmma.wait_group retires it", line_of(c, holder(c, s, r)));
		}
		for (int i = 0; i < o->ndst; i++)
			if (o->dst[i] >= 0 && s->busy[o->dst[i]])
				return msg(c, "writes a register that the wgmma.mma_async at line %d holds (accumulator or "
					   "A fragment) before a wgmma.wait_group retires it", line_of(c, holder(c, s, o->dst[i])));
	}
	/* the fence rule counts reads too: a register read, then written by a wgmma, needs the fence between */
	for (int i = 0; i < o->ndst + o->nsrc + 1; i++) {
		int r = i < o->ndst ? o->dst[i] : i < o->ndst + o->nsrc ? o->src[i - o->ndst] : o->pred;
		if (r >= 0) {
			s->wrote_epoch[r] = s->fence_epoch;
			s->wrote_op[r] = (int32_t)(o - c->k->ops);
		}
	}
	return 0;
}

/* Element (mn, k) of an operand in shared memory, through its descriptor: the
 * reading element by element, which names the element that faults. */
static int smem_elem(emu_wg_ctx *c, const emu_wg_desc *d, int t, int mn, int k, int mn_major, const char *which,
		     float *out, uint32_t span[2])
{
	int eb = wg_types[t].bytes;
	uint32_t a = emu_wg_desc_addr(d, mn, k, eb, mn_major);
	if (a < span[0])
		span[0] = a;
	if (a + (uint32_t)eb > span[1])
		span[1] = a + (uint32_t)eb;
	if ((uint64_t)a + (uint64_t)eb > c->smem_size)
		return msg(c, "wgmma.mma_async reads %s's element (%d, %d) at shared offset %u, outside the block's %u "
			   "bytes (descriptor start %u, leading %u, stride %u, swizzle mode %d)", which, mn, k, a,
			   c->smem_size, d->start, d->lbo, d->sbo, d->swizzle);
	const emu_wg_block *b = c->wg;
	if (b->gen_warp[a / 16])
		return msg(c, "shared-memory race (proxy): wgmma.mma_async reads %s's element (%d, %d) at shared offset %u, "
			   "which the st at line %d (warp %d) wrote with no fence.proxy.async after it: wgmma reads through the async proxy, "
			   "which does not see generic writes until that fence", which, mn, k, a,
			   line_of(c, b->gen_op[a / 16]), b->gen_warp[a / 16] - 1);
	uint32_t v = 0;
	memcpy(&v, c->smem + a, (size_t)eb);
	*out = emu_mma_elem((emu_wg_type)t, v);
	return 0;
}

/* An element's value from its bytes (the FP8 types through the block's table). */
static float elem_value(const emu_wg_block *b, int t, const uint8_t *p, int eb)
{
	uint32_t v = 0;
	memcpy(&v, p, (size_t)eb);
	if (t == WG_E4M3 || t == WG_E5M2)
		return b->fp8[t - WG_E4M3][v];
	return mma_elem((emu_wg_type)t, v);
}

/* The (mn, k) of the first element of chunk i of an operand's gather below. */
static void chunk_elem(int i, int T, int K, int mn_major, int *mn, int *k)
{
	int kc = mn_major ? K : K / T; /* chunks along k for each chunk of rows */
	*mn = mn_major ? i / kc * T : i / kc;
	*k = mn_major ? i % kc : i % kc * T;
}

/* The bytes of an operand's rows mn0 .. mn0 + nmn - 1 (A: rows m; B: columns n), K
 * elements each, 16 at a time: chunk i (its first element at chunk_elem, the others
 * along the major dimension) from shared address addr[i] into raw + 16 i, and the
 * shared bytes they span into span. In the canonical layouts each 16 bytes hold
 * T = 16 / eb elements consecutive along the major dimension at consecutive
 * addresses from a 16-byte boundary (start, LBO and SBO count 16 bytes, a row is
 * whole 16-byte chunks, the swizzle XORs only bits 4..6), so one address a chunk
 * gives its T elements, and one check a chunk checks each of them (bounds, proxy
 * marks); tests/test_emu_wgmma.c holds the addresses to emu_wg_desc_addr's. The
 * chunks; -1 when one faults or the shape is not whole chunks: the caller then
 * reads element by element, as smem_elem does, and names the element. */
static int gather(const emu_wg_ctx *c, const emu_wg_desc *d, int eb, int mn0, int nmn, int K, int mn_major,
		  uint32_t *addr, uint8_t *raw, uint32_t span[2])
{
	int T = 16 / eb;
	if (mn0 % T || nmn % T || K % T)
		return -1;
	int nc = nmn * K / T;
	for (int i = 0; i < nc; i++) {
		int mn, k;
		chunk_elem(i, T, K, mn_major, &mn, &k);
		uint32_t a = emu_wg_desc_addr(d, mn0 + mn, k, eb, mn_major);
		if ((uint64_t)a + 16 > c->smem_size || c->wg->gen_warp[a / 16])
			return -1;
		if (a < span[0])
			span[0] = a;
		if (a + 16 > span[1])
			span[1] = a + 16;
		addr[i] = a;
		memcpy(raw + 16 * i, c->smem + a, 16);
	}
	return nc;
}

/* Element j of chunk i of a gather: its value into out[mn * ms + k * ks]. */
static void chunks_values(const emu_wg_block *b, int t, const uint8_t *raw, int nc, int K, int mn_major,
			  float *out, int ms, int ks)
{
	int eb = wg_types[t].bytes, T = 16 / eb;
	for (int i = 0; i < nc; i++) {
		int mn, k;
		chunk_elem(i, T, K, mn_major, &mn, &k);
		float *o = out + mn * ms + k * ks;
		int step = mn_major ? ms : ks;
		for (int j = 0; j < T; j++)
			o[j * step] = elem_value(b, t, raw + 16 * i + j * eb, eb);
	}
}

/* Whether n floats, stride apart, are all finite (x * 0 is 0 for those, NaN otherwise). */
static int all_finite(const float *x, int n, int stride)
{
	float z = 0.0f;
	for (int i = 0; i < n; i++)
		z += x[i * stride] * 0.0f;
	return z == 0.0f;
}

/* The warp's 16 rows of A from shared memory; 0, or -1 with c->msg. */
static int read_a(emu_wg_ctx *c, const struct emu_wgmma_op *w, uint64_t da, float A[16][32], uint32_t span[2])
{
	emu_wg_desc d = emu_wg_desc_decode(da);
	int eb = wg_types[w->atype].bytes, m0 = 16 * (c->warp % 4);
	uint8_t raw[16 * 32 * 4];
	uint32_t addr[16 * 32 * 4 / 16];
	int nc = gather(c, &d, eb, m0, 16, w->k, w->trans_a, addr, raw, span);
	if (nc >= 0) {
		chunks_values(c->wg, w->atype, raw, nc, w->k, w->trans_a, &A[0][0], 32, 1);
		return 0;
	}
	span[0] = UINT32_MAX, span[1] = 0;
	for (int r = 0; r < 16; r++)
		for (int k = 0; k < w->k; k++)
			if (smem_elem(c, &d, w->atype, m0 + r, k, w->trans_a, "A", &A[r][k], span) < 0)
				return -1;
	return 0;
}

static int b_finite(const struct emu_wgmma_op *w, const float *val)
{
	int ok = 1;
	for (int k = 0; k < w->k; k++)
		ok &= all_finite(val + k * 256, w->n, 1);
	return ok;
}

/* B from shared memory, element (n, k) at [k * 256 + n]: the values another warp
 * of the group read for this wgmma when the bytes at the same addresses are the
 * same (they are, unless the program changed them between the warps' issues; the
 * proxy marks are this warp's own check). NULL with c->msg. */
static const float *read_b(emu_wg_ctx *c, const struct emu_wgmma_op *w, uint64_t db, uint32_t span[2], int *finite)
{
	wg_group *g = &c->wg->g[c->warp / 4];
	emu_wg_desc d = emu_wg_desc_decode(db);
	int eb = wg_types[w->btype].bytes, nc = w->n * w->k * eb / 16, op = (int)c->o->imm;
	if (!g->b) {
		g->b = xcalloc(WG_BREADS, sizeof *g->b);
		for (int j = 0; j < WG_BREADS; j++)
			g->b[j].op = -1;
	}
	wg_bread *r = &g->b[0];
	for (int j = 0; j < WG_BREADS; j++) {
		wg_bread *e = &g->b[j];
		if (e->op == op && e->db == db && e->smem_size == c->smem_size) {
			r = e;
			break;
		}
		if (e->used < r->used)
			r = e;
	}
	r->used = ++g->clock;
	if (r->op == op && r->db == db && r->smem_size == c->smem_size) {
		int i = 0;
		while (i < nc && !c->wg->gen_warp[r->addr[i] / 16] && !memcmp(c->smem + r->addr[i], r->raw + 16 * i, 16))
			i++;
		if (i == nc) {
			span[0] = r->span[0], span[1] = r->span[1];
			*finite = r->finite;
			return r->val;
		}
	}
	if (!r->val) {
		r->raw = xmalloc(256 * 32);
		r->addr = xmalloc(256 * 32 / 16 * sizeof *r->addr);
		r->val = xmalloc(32 * 256 * sizeof *r->val);
	}
	r->op = -1;
	if (gather(c, &d, eb, 0, w->n, w->k, w->trans_b, r->addr, r->raw, span) == nc) {
		chunks_values(c->wg, w->btype, r->raw, nc, w->k, w->trans_b, r->val, 1, 256);
		*finite = r->finite = b_finite(w, r->val);
		r->op = op;
		r->db = db;
		r->smem_size = c->smem_size;
		r->span[0] = span[0], r->span[1] = span[1];
		return r->val;
	}
	span[0] = UINT32_MAX, span[1] = 0;
	for (int n = 0; n < w->n; n++)
		for (int k = 0; k < w->k; k++) {
			float v;
			if (smem_elem(c, &d, w->btype, n, k, w->trans_b, "B", &v, span) < 0)
				return NULL;
			r->val[k * 256 + n] = v;
		}
	*finite = b_finite(w, r->val);
	return r->val;
}

/* Row r, column k of the warp's 16 x K slice of A from its four registers (the
 * register fragments of PTX ISA 9.7.15.5.1.1, those of mma.m16n8kK). */
static void a_from_regs(const emu_wg_ctx *c, const struct emu_wgmma_op *w, float A[16][32])
{
	emu_mma_frag_a(c->R, w->a, w->k, (emu_wg_type)w->atype, A);
}

/* The .sync.aligned rule: the warps of a warpgroup issue the same wgmmas with the same descriptors. */
static int aligned(emu_wg_ctx *c, wg_warp *s, uint64_t da, uint64_t db)
{
	emu_wg_block *b = c->wg;
	wg_group *g = &b->g[c->warp / 4];
	int op = (int)(c->o - c->k->ops);
	long long i = s->issued++ - g->base;
	if (i < 0 || i > WG_MAX_AHEAD)
		return msg(c, "warp %d ran %lld wgmma.mma_async ahead of another warp of its warpgroup", c->warp, i);
	if (i == g->n) {
		if (g->n == g->cap) {
			g->cap = g->cap ? 2 * g->cap : 64;
			g->log = xreallocarray(g->log, (size_t)g->cap, sizeof *g->log);
		}
		g->log[g->n++] = (wg_logent){op, da, db};
	} else if (g->log[i].op != op) {
		return msg(c, "warp %d's wgmma.mma_async number %lld is this line, another warp of its warpgroup's is line "
			   "%d: the four warps must issue the same wgmmas (.sync.aligned)", c->warp, s->issued,
			   line_of(c, g->log[i].op));
	} else if (g->log[i].da != da || g->log[i].db != db) {
		return msg(c, "the warps of warp %d's warpgroup give this wgmma.mma_async different descriptors "
			   "(A 0x%016llx vs 0x%016llx, B 0x%016llx vs 0x%016llx): they must be the same", c->warp,
			   (unsigned long long)da, (unsigned long long)g->log[i].da, (unsigned long long)db,
			   (unsigned long long)g->log[i].db);
	}
	/* drop what every warp of the group has passed */
	long long least = s->issued;
	for (int q = c->warp / 4 * 4; q < c->warp / 4 * 4 + 4 && q < b->nwarps; q++)
		if (b->w[q].issued < least)
			least = b->w[q].issued;
	if (least - g->base >= 64) {
		int drop = (int)(least - g->base);
		memmove(g->log, g->log + drop, (size_t)(g->n - drop) * sizeof *g->log);
		g->n -= drop;
		g->base = least;
	}
	return 0;
}

/* The fence rule (PTX ISA, wgmma.fence): a fence before the first wgmma, and
 * between another instruction's access to an accumulator or A register and
 * the wgmma that uses it (wgmmas chaining on the same accumulators need none). */
static int fenced(emu_wg_ctx *c, const wg_warp *s, const struct emu_wgmma_op *w)
{
	if (s->fence_epoch == 1)
		return msg(c, "wgmma.mma_async with no wgmma.fence.sync.aligned before it: the warpgroup's first wgmma "
			   "needs one");
	for (int i = 0; i < w->nd + (w->a_in_regs ? 4 : 0); i++) {
		int r = i < w->nd ? w->d[i] : w->a[i - w->nd];
		if (s->wrote_epoch[r] == s->fence_epoch && !s->busy[r])
			return msg(c, "wgmma.mma_async uses %s register %d, accessed at line %d with no wgmma.fence.sync.aligned "
				   "after it: the fence must come between", i < w->nd ? "accumulator" : "A fragment",
				   i < w->nd ? i : i - w->nd, line_of(c, s->wrote_op[r]));
	}
	return 0;
}

/* D = A*B (+ C when scale-d) for the warp's 16 rows, exactly: products of
 * 16-bit, tf32 and 8-bit floats are exact in f32 (bf16 and tf32 ones inside
 * f32's exponent range), and each output sums its K
 * products into C in k order, rounding to f32 at every step (then to f16 for
 * an f16 accumulator). The PTX ISA fixes no order; the check's tolerance covers it.
 * Eight outputs of four rows at a time, each its own sum in that order. */
static void compute(const emu_wg_ctx *c, const wg_warp *s, const struct emu_wgmma_op *w, float A[16][32],
		    const float *B, int finite, uint64_t *val)
{
	int acc_on = (int)(c->R[w->scale_d * 32] & 1), f16 = w->dtype == WG_F16;
	float sign = (float)(w->scale_a * w->scale_b), sA[16][32];
	float D[16][256];
	/* d_e of lane l holds row l / 4 + 8 ((e / 2) % 2), column 8 (e / 4) + 2 (l % 4) + e % 2 */
	for (int i = 0; i < w->nd; i++) {
		int r = w->d[i];
		const uint64_t *cur = s->busy[r] ? &s->fut[r * 32] : &c->R[r * 32];
		for (int h = 0; h < 1 + f16; h++) {
			int e = f16 ? 2 * i + h : i, row0 = 8 * ((e / 2) % 2), col0 = 8 * (e / 4) + e % 2;
			for (int l = 0; l < 32; l++)
				D[row0 + l / 4][col0 + 2 * (l % 4)] =
					!acc_on ? 0.0f
					: f16	? util_f16_to_f32((uint16_t)(cur[l] >> (16 * h)))
						: fpconv_bits_f32((uint32_t)cur[l]);
		}
	}
	for (int row = 0; row < 16; row++) {
		finite &= all_finite(A[row], w->k, 1) && all_finite(D[row], w->n, 1);
		for (int k = 0; k < w->k; k++)
			sA[row][k] = sign * A[row][k];
	}
	/* the product is exact, so this is an fma; with a NaN or infinity in, one output
	 * at a time, as the reference reading does (a NaN's bits follow the operands' order) */
	for (int row = 0; row < 16 && !finite; row++)
		for (int col = 0; col < w->n; col++) {
			float acc = D[row][col];
			for (int k = 0; k < w->k; k++)
				acc += sign * A[row][k] * B[k * 256 + col];
			D[row][col] = acc;
		}
	for (int row = 0; row < 16 && finite; row += 4)
		for (int j = 0; j < w->n; j += 8) {
			v4f d00, d01, d10, d11, d20, d21, d30, d31; /* rows row..row + 3, columns j..j + 3 and j + 4..j + 7 */
			memcpy(&d00, &D[row][j], 16), memcpy(&d01, &D[row][j + 4], 16);
			memcpy(&d10, &D[row + 1][j], 16), memcpy(&d11, &D[row + 1][j + 4], 16);
			memcpy(&d20, &D[row + 2][j], 16), memcpy(&d21, &D[row + 2][j + 4], 16);
			memcpy(&d30, &D[row + 3][j], 16), memcpy(&d31, &D[row + 3][j + 4], 16);
			for (int k = 0; k < w->k; k++) {
				v4f b0, b1;
				memcpy(&b0, &B[k * 256 + j], 16), memcpy(&b1, &B[k * 256 + j + 4], 16);
				d00 += sA[row][k] * b0, d01 += sA[row][k] * b1;
				d10 += sA[row + 1][k] * b0, d11 += sA[row + 1][k] * b1;
				d20 += sA[row + 2][k] * b0, d21 += sA[row + 2][k] * b1;
				d30 += sA[row + 3][k] * b0, d31 += sA[row + 3][k] * b1;
			}
			memcpy(&D[row][j], &d00, 16), memcpy(&D[row][j + 4], &d01, 16);
			memcpy(&D[row + 1][j], &d10, 16), memcpy(&D[row + 1][j + 4], &d11, 16);
			memcpy(&D[row + 2][j], &d20, 16), memcpy(&D[row + 2][j + 4], &d21, 16);
			memcpy(&D[row + 3][j], &d30, 16), memcpy(&D[row + 3][j + 4], &d31, 16);
		}
	for (int i = 0; i < w->nd; i++) {
		uint64_t *out = &val[i * 32];
		for (int h = 0; h < 1 + f16; h++) {
			int e = f16 ? 2 * i + h : i, row0 = 8 * ((e / 2) % 2), col0 = 8 * (e / 4) + e % 2;
			for (int l = 0; l < 32; l++) {
				float acc = D[row0 + l / 4][col0 + 2 * (l % 4)];
				uint64_t bits = f16 ? (uint64_t)util_f32_to_f16(acc) << (16 * h) : fpconv_f32_bits(acc);
				out[l] = h ? out[l] | bits : bits;
			}
		}
	}
}

static int issue(emu_wg_ctx *c, wg_warp *s)
{
	const struct emu_wgmma_op *w = &c->k->wgmma[c->o->imm];
	if ((unsigned)(c->warp / 4 + 1) * 128 > c->nthreads)
		return msg(c, "wgmma.mma_async needs a whole warpgroup of 128 threads; warp %d's has %u",
			   c->warp, c->nthreads - (unsigned)(c->warp / 4) * 128);
	uint64_t da = w->a_in_regs ? 0 : c->R[w->a[0] * 32], db = c->R[w->bdesc * 32];
	if (aligned(c, s, da, db) < 0 || fenced(c, s, w) < 0)
		return -1;
	float A[16][32];
	uint32_t span[2][2] = {{UINT32_MAX, 0}, {UINT32_MAX, 0}}; /* the bytes A and B span */
	int q = c->warp % 4;
	if (w->a_in_regs)
		a_from_regs(c, w, A);
	else if (read_a(c, w, da, A, span[0]) < 0)
		return -1;
	int finite;
	const float *B = read_b(c, w, db, span[1], &finite);
	if (!B)
		return -1;
	for (int i = 0; i < 2 && c->early_read; i++)
		if (span[i][1] > span[i][0] && c->early_read(c->early_arg, span[i][0], span[i][1] - span[i][0]) < 0)
			return -1;
	if (s->np >= WG_MAX_PENDING) /* a loop of wgmmas never waited for would grow without end */
		return msg(c, "more than %d wgmma.mma_async of warp %d in flight (no wgmma.wait_group?)", WG_MAX_PENDING,
			   c->warp);
	if (s->np == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->p = xreallocarray(s->p, (size_t)s->cap, sizeof *s->p);
	}
	wg_pending *p = &s->p[s->np++];
	p->op = (int)(c->o - c->k->ops);
	p->group = -1;
	p->val = xmalloc((size_t)w->nd * 32 * sizeof *p->val);
	for (int i = 0; i < 2; i++) {
		p->lo[i] = span[i][0];
		p->hi[i] = span[i][1];
	}
	c->wg->inflight++;
	compute(c, s, w, A, B, finite, p->val);
	for (int i = 0; i < w->nd; i++)
		memcpy(&s->fut[w->d[i] * 32], &p->val[i * 32], 32 * sizeof(uint64_t));
	hold(s, w, 1);
	/* counts: each warp its quarter of the warpgroup's work and of its shared operand bytes */
	c->cnt->wg_inst += q == 0;
	c->cnt->wg_flops += 2ULL * 16 * w->n * w->k;
	c->cnt->wg_bytes += (w->a_in_regs ? 0 : 16ULL * w->k * (unsigned)wg_types[w->atype].bytes) +
			    (unsigned long long)w->n * w->k * (unsigned)wg_types[w->btype].bytes / 4;
	return 0;
}

int emu_wgmma_exec(emu_wg_ctx *c, uint32_t em)
{
	if (!em)
		return 0;
	if (em != 0xffffffffu)
		return msg(c, "wgmma needs all 32 lanes of the warp (.sync.aligned; active mask 0x%08x)", em);
	wg_warp *s = &c->wg->w[c->warp];
	switch (c->o->code) {
	case OP_WGFENCE:
		s->fence_epoch++;
		return 0;
	case OP_WGCOMMIT:
		for (int j = 0; j < s->np; j++)
			if (s->p[j].group < 0)
				s->p[j].group = s->next_group;
		s->next_group++;
		return 0;
	case OP_WGWAIT:
		retire(c, s, s->next_group - 1 - c->o->imm);
		return 0;
	default:
		return issue(c, s);
	}
}

int emu_wgmma_block_end(emu_wg_block *b, char *m, int mlen)
{
	for (int i = 0; i < b->nwarps; i++) {
		int lead = i / 4 * 4;
		if (b->w[i].issued != b->w[lead].issued) {
			snprintf(m, (size_t)mlen, "warp %d issued %lld wgmma.mma_async but warp %d of its warpgroup %lld: "
				 "all four warps of a warpgroup must issue each one (.sync.aligned)",
				 lead, b->w[lead].issued, i, b->w[i].issued);
			return -1;
		}
	}
	return 0;
}
