/* emu_exec: run a decoded kernel over a grid, a warp at a time over 32 lanes with a mask, counting traffic. */
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_internal.h"
#include "emu/emu_wgmma.h"
#include "emu/emu_hopper.h"
#include "emu/emu_footprint.h"
#include "base/checked.h"
#include "base/fpconv.h"
#include "base/util.h"
#include "model/access.h"

/* ---- value helpers ---- */

static inline float F(uint64_t v) { return fpconv_bits_f32((uint32_t)v); }
static inline uint64_t FB(float f) { return fpconv_f32_bits(f); }

static inline uint64_t wmask(int bytes)
{
	return bytes >= 8 ? ~0ULL : (1ULL << (8 * bytes)) - 1;
}

static inline int64_t sx(uint64_t v, int bytes)
{
	if (bytes >= 8)
		return (int64_t)v;
	int sh = 64 - 8 * bytes;
	return (int64_t)(v << sh) >> sh;
}

/* A float-typed value as a double (f16 in the low bits, f32, f64). */
static inline double getf(uint64_t v, int t)
{
	if (t == ET_F32)
		return F(v);
	if (t == ET_F16)
		return util_f16_to_f32((uint16_t)v);
	if (t == ET_BF16)
		return util_bf16_to_f32((uint16_t)v);
	double d;
	memcpy(&d, &v, 8);
	return d;
}

static inline uint64_t putf(double d, int t)
{
	if (t == ET_F32)
		return FB((float)d);
	if (t == ET_F16)
		return util_f32_to_f16((float)d);
	if (t == ET_BF16)
		return util_f32_to_bf16((float)d);
	uint64_t v;
	memcpy(&v, &d, 8);
	return v;
}

/* ---- block state ---- */

typedef struct {
	uint32_t soff;
	uint64_t gaddr;
	uint8_t size, srcsize;   /* srcsize <= size <= 16, checked when issued */
	long long group;         /* -1 until committed; 64 bits: a loop may commit billions */
	int op;
} cpreq;

typedef struct {
	uint64_t *R;
	uint32_t live, waiting;
	int pc, diverged;
	int lpc[32];
	int id;
	cpreq *cp;
	int ncp, capcp;
	long long next_group;
	/* Hopper: a warp that waits yields to the others instead of spinning */
	int blocked;             /* the instruction at pc waits (mbarrier, barrier.cluster, setmaxnreg): run it again later */
	int spinning;            /* mbarrier.test_wait found its phase incomplete */
	int bar_id, arrived;     /* the named barrier its waiting lanes wait at; counted there */
	int cb_arrived;          /* arrived at the cluster barrier in phase cb_phase */
	uint32_t wait_off, wait_parity; /* the mbarrier a wait found incomplete, for the deadlock message */
	int wait_rank, wait_op;
	unsigned cb_phase;
	int nreg;                /* registers per thread (setmaxnreg moves them) */
	unsigned fences;         /* fence.proxy.async executed: orders the writes before it */
	long long bulk_next;     /* cp.async.bulk groups committed */
} warp;

/* One TMA copy in flight: issued by a warp, landed by the copy engine later. */
typedef struct {
	int store, rank, warp, op;
	emu_tmap tm;
	int32_t c[5];
	uint32_t soff, mbar;
	uint16_t mask;           /* destination CTAs of a load */
	long long group;         /* a store's bulk group; -1 until committed */
	uint64_t bytes;
} bulkreq;

struct cluster;

typedef struct {
	emu_launch *L;
	const emu_kernel *k;
	const emu_op *ops;
	uint8_t *smem;
	uint32_t smem_size;
	uint32_t *wep, *rep;      /* race shadow per 4-byte word: epochs of the last write / read */
	uint16_t *wwarp, *rwarp;  /* the writing / reading warp (0xffff: several readers) */
	int32_t *wop, *rop;       /* the op that wrote / read, for the message */
	uint32_t epoch;
	unsigned ctaid[3];
	unsigned nthreads;
	warp *warps;
	int nwarps;
	long long setup_cost;     /* of one block, charged to the budget: set-up is work too */
	char *err;
	int errlen;
	int failed;
	emu_error why;            /* of the failure: EMU_ERR_FAULT unless set before fail() */
	emu_wg_block *wg;         /* wgmma state (emu_wgmma.c); NULL when the kernel has no wgmma */
	/* Hopper */
	struct cluster *cl;
	int rank;                 /* %cluster_ctarank */
	emu_mbar *mbar;           /* the mbarriers initialised, EMU_MAX_MBARRIERS at most */
	int nmbar;
	uint32_t *gfence;         /* per word: 1 + the writer's fence count for a generic write, 0 else */
	unsigned bar_arrived[16], bar_want[16]; /* named barriers: threads arrived, threads expected (0: all) */
	emu_footprint fp;         /* the global sectors this CTA read (emu_launch.footprint asks for it) */
} blockctx;

/* The CTAs of one cluster, run together: their warps interleave, their
 * shared memories reach each other, one copy engine serves them. */
typedef struct cluster {
	blockctx *cta;
	int n;
	unsigned dim[3], id[3];
	long long budget;
	bulkreq *q;               /* copies in flight, in issue order */
	int nq, capq, nloads;
	unsigned long long gen;   /* bumped by every change of shared state: a round without one is a deadlock */
	unsigned cb_phase;        /* barrier.cluster */
	long long cb_count;
	long long pool;           /* setmaxnreg: registers of the block at launch */
	int launch_regs;
} cluster;

static int fail(blockctx *b, const emu_op *o, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(blockctx *b, const emu_op *o, const char *fmt, ...)
{
	if (b->failed)
		return -1;
	b->failed = 1;
	if (!b->why)
		b->why = EMU_ERR_FAULT;
	int n = snprintf(b->err, (size_t)b->errlen, "%s:%d: ", b->L->path, o ? o->line : b->k->line);
	if (n < 0 || n >= b->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	n += vsnprintf(b->err + n, (size_t)(b->errlen - n), fmt, ap);
	va_end(ap);
	if (n < b->errlen)
		snprintf(b->err + n, (size_t)(b->errlen - n), " (block %u,%u,%u)", b->ctaid[0], b->ctaid[1], b->ctaid[2]);
	return -1;
}

static const char *const bufnames[EMU_MAX_BUFS] = {"A", "B", "C", "D"};

/* Global virtual address -> host pointer, or NULL when out of bounds. */
static inline uint8_t *gptr(blockctx *b, uint64_t a, int bytes)
{
	uint64_t i = (a >> EMU_GLOBAL_SHIFT) - 1;
	if (i >= (uint64_t)b->L->nbufs)
		return NULL;
	uint64_t off = a & ((1ULL << EMU_GLOBAL_SHIFT) - 1);
	if (off + (uint64_t)bytes > b->L->bufs[i].bytes)
		return NULL;
	return b->L->bufs[i].host + off;
}

static void describe_gaddr(blockctx *b, uint64_t a, char *out, size_t n)
{
	uint64_t i = (a >> EMU_GLOBAL_SHIFT) - 1;
	if (i < (uint64_t)b->L->nbufs)
		snprintf(out, n, "%s+%llu (buffer holds %llu bytes)", bufnames[i],
			 (unsigned long long)(a & ((1ULL << EMU_GLOBAL_SHIFT) - 1)), (unsigned long long)b->L->bufs[i].bytes);
	else
		snprintf(out, n, "0x%llx (not in A, B or C)", (unsigned long long)a);
}

/* ---- shared-memory race shadow ---- */

static void race(blockctx *b, const emu_op *o, int w, uint32_t word, int other, int32_t other_op, const char *what)
{
	emu_launch *L = b->L;
	if (L->races++ == 0)
		snprintf(L->race_msg, sizeof L->race_msg,
			 "%s:%d: shared-memory race: warp %d %s bytes %u..%u %s warp %d at line %d with no bar.sync between (block %u,%u,%u)",
			 L->path, o->line, w, what, word * 4, word * 4 + 3,
			 what[0] == 'r' ? "written by" : "last accessed by", other,
			 other_op >= 0 ? b->ops[other_op].line : 0, b->ctaid[0], b->ctaid[1], b->ctaid[2]);
}

static inline void shadow_read(blockctx *b, const emu_op *o, int w, uint32_t off, int bytes)
{
	for (uint32_t word = off >> 2; word <= (off + (uint32_t)bytes - 1) >> 2; word++) {
		if (b->wep[word] == b->epoch && b->wwarp[word] != w)
			race(b, o, w, word, b->wwarp[word], b->wop[word], "reads");
		if (b->rep[word] != b->epoch) {
			b->rep[word] = b->epoch;
			b->rwarp[word] = (uint16_t)w;
			b->rop[word] = (int32_t)(o - b->ops);
		} else if (b->rwarp[word] != w) {
			b->rwarp[word] = 0xffff;
		}
	}
}

static inline void shadow_write(blockctx *b, const emu_op *o, int w, uint32_t off, int bytes)
{
	for (uint32_t word = off >> 2; word <= (off + (uint32_t)bytes - 1) >> 2; word++) {
		if (b->wep[word] == b->epoch && b->wwarp[word] != w)
			race(b, o, w, word, b->wwarp[word], b->wop[word], "writes");
		else if (b->rep[word] == b->epoch && b->rwarp[word] != w)
			race(b, o, w, word, b->rwarp[word] == 0xffff ? -1 : b->rwarp[word], b->rop[word], "writes");
		b->wep[word] = b->epoch;
		b->wwarp[word] = (uint16_t)w;
		b->wop[word] = (int32_t)(o - b->ops);
		b->gfence[word] = b->warps[w].fences + 1;
	}
}

/* ---- counting ---- */

/* Adds one request's counts (model/access.h holds the rules). Shared
 * offsets and global addresses both fit an int64_t. */
/* A shared load of a group ptxas merges (emu_vgroup.c), where every active
 * lane's group starts 16-byte aligned: the first charges the LDS.128's
 * wavefronts, the others none and are folded away. Returns 0 otherwise. */
static int count_merged(emu_opcount *cnt, const emu_op *o, const int64_t addr[32], uint32_t mask)
{
	int64_t lead[32];
	for (int l = 0; l < 32; l++) {
		if (!(mask >> l & 1))
			continue;
		lead[l] = addr[l] - 4 * o->vgroup;
		if (lead[l] & 15)
			return 0;
	}
	if (o->vgroup == 0) {
		access_counts c;
		access_count(ACCESS_SHARED_LOAD, lead, mask, 16, &c);
		cnt->wave_sass += c.wavefronts;
	} else {
		cnt->merged++;
	}
	return 1;
}

static void count_access(blockctx *b, emu_opcount *cnt, const emu_op *o, access_kind kind, const int64_t addr[32],
			 uint32_t mask, int bytes)
{
	access_counts c;
	access_count(kind, addr, mask, bytes, &c);
	if (cnt->rec && cnt->rec->armed)
		emu_record_take(cnt->rec, kind, addr, mask, bytes);
	if (kind == ACCESS_GLOBAL_LOAD || kind == ACCESS_GLOBAL_STORE) {
		cnt->requests++;
		cnt->sectors += c.sectors;
		cnt->bytes += (uint64_t)__builtin_popcount(mask) * (uint64_t)bytes;
		if (kind == ACCESS_GLOBAL_LOAD) {
			cnt->gwave += c.wavefronts;
			if (b->L->footprint)
				emu_footprint_add(&b->fp, addr, mask, bytes);
		}
	} else {
		cnt->bytes2 += (uint64_t)__builtin_popcount(mask) * (uint64_t)(kind == ACCESS_LDMATRIX ? 16 : bytes);
		cnt->requests2++;
		cnt->wavefronts += c.wavefronts;
		cnt->ideal += c.ideal;
		if (!(kind == ACCESS_SHARED_LOAD && o->vgroup >= 0 && count_merged(cnt, o, addr, mask)))
			cnt->wave_sass += c.wavefronts;
	}
}

/* ---- cp.async ---- */

static int cp_complete(blockctx *b, warp *w, long long upto_group)
{
	int keep = 0;
	for (int i = 0; i < w->ncp; i++) {
		cpreq *c = &w->cp[i];
		if (c->group < 0 || c->group > upto_group) {
			w->cp[keep++] = *c;
			continue;
		}
		const emu_op *o = &b->ops[c->op];
		uint8_t *src = c->srcsize ? gptr(b, c->gaddr, c->srcsize) : NULL;
		if (c->srcsize && !src) {
			char d[96];
			describe_gaddr(b, c->gaddr, d, sizeof d);
			return fail(b, o, "out-of-bounds cp.async read of %d bytes at %s", c->srcsize, d);
		}
		if (c->srcsize)
			memcpy(b->smem + c->soff, src, c->srcsize);
		if (c->srcsize < c->size)
			memset(b->smem + c->soff + c->srcsize, 0, (size_t)(c->size - c->srcsize));
		shadow_write(b, o, w->id, c->soff, c->size);
	}
	w->ncp = keep;
	return 0;
}

/* cp.async.commit_group: the warp's uncommitted copies become its next group
 * (an empty group still counts). */
static void cp_commit(warp *w)
{
	for (int i = 0; i < w->ncp; i++)
		if (w->cp[i].group < 0)
			w->cp[i].group = w->next_group;
	w->next_group++;
}

/* cp.async.wait_group n: every group but the newest n lands; wait_all
 * commits what is left and lands it all. */
static int cp_wait(blockctx *b, warp *w, const emu_op *o)
{
	if (o->flags & OPF_WAIT_ALL) {
		cp_commit(w);
		return cp_complete(b, w, INT_MAX);
	}
	return cp_complete(b, w, w->next_group - 1 - o->imm); /* imm: 0..EMU_MAX_WAIT_GROUP */
}

/* ---- cvt ---- */

/* x rounded to f32 in a directed mode (rz, rm, rp), or to nearest. */
static uint64_t f32_rounded(double x, int rnd)
{
	float f = (float)x;
	if (rnd == RND_RZ && fabs((double)f) > fabs(x))
		f = nextafterf(f, 0.0f);
	else if (rnd == RND_RM && (double)f > x)
		f = nextafterf(f, -INFINITY);
	else if (rnd == RND_RP && (double)f < x)
		f = nextafterf(f, INFINITY);
	return FB(f);
}

/* A float rounded to an integral value (cvt.rni/rzi/rmi/rpi), or x as it is. */
static double integral(double x, int rnd)
{
	switch (rnd) {
	case RND_RNI: return nearbyint(x);
	case RND_RZI: return trunc(x);
	case RND_RMI: return floor(x);
	case RND_RPI: return ceil(x);
	default: return x;
	}
}

static uint64_t do_cvt(uint64_t v, int dt, int st, int rnd)
{
	int dk = emu_types[dt].kind, sk = emu_types[st].kind;
	int db = emu_types[dt].bytes, sb = emu_types[st].bytes;
	if (sk == 'f') {
		double x = getf(v, st);
		if (dk == 'f') {
			x = integral(x, rnd);
			return dt == ET_F32 && rnd >= RND_RZ && rnd <= RND_RP ? f32_rounded(x, rnd) : putf(x, dt);
		}
		if (isnan(x))
			return 0;
		x = integral(x, rnd);
		/* saturate against the exclusive bound 2^n, which a double holds
		 * exactly (2^63 - 1 does not: it rounds to 2^63 and the cast overflows) */
		if (dk == 's') {
			double lim = ldexp(1, 8 * db - 1);
			if (x >= lim)
				return (uint64_t)(wmask(db) >> 1);
			if (x < -lim)
				return (~(wmask(db) >> 1)) & wmask(db);
			return (uint64_t)(int64_t)x & wmask(db);
		}
		if (x >= ldexp(1, 8 * db))
			return wmask(db);
		if (x < 0) x = 0;
		return (uint64_t)x & wmask(db);
	}
	if (dk == 'f') {
		double x = sk == 's' ? (double)sx(v, sb) : (double)(v & wmask(sb));
		if (sb == 8 && dt == ET_F32) /* 64-bit integers: round once, from the integer */
			return FB(sk == 's' ? (float)sx(v, sb) : (float)(v & wmask(sb)));
		return dt == ET_F32 ? f32_rounded(x, rnd) : putf(x, dt);
	}
	uint64_t x = sk == 's' ? (uint64_t)sx(v, sb) : v & wmask(sb);
	return x & wmask(db);
}

/* ---- bit instructions and packed halves (the PTX ISA's definitions) ---- */

static inline int popc(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

static uint64_t brev(uint64_t v, int bytes)
{
	uint64_t r = 0;
	for (int i = 0; i < 8 * bytes; i++)
		r |= ((v >> i) & 1) << (8 * bytes - 1 - i);
	return r;
}

/* bfe: len bits of a from pos, sign-extended from the field's top bit for signed types. */
static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int bytes, int sgn)
{
	int bits = 8 * bytes;
	pos &= 0xff;
	len &= 0xff;
	int64_t sa = sx(a, bytes);
	int top = pos + len - 1 < (uint32_t)bits ? (int)(pos + len - 1) : bits - 1;
	int sbit = sgn && len ? (int)((sa >> top) & 1) : 0;
	uint64_t r = 0;
	for (int i = 0; i < bits; i++) {
		int b = (uint32_t)i < len && pos + (uint32_t)i < (uint32_t)bits ? (int)((a >> (pos + i)) & 1) : sbit;
		r |= (uint64_t)b << i;
	}
	return r & wmask(bytes);
}

/* bfi: len bits of f into b at pos. */
static uint64_t bfi(uint64_t f, uint64_t b, uint32_t pos, uint32_t len, int bytes)
{
	int bits = 8 * bytes;
	pos &= 0xff;
	len &= 0xff;
	for (uint32_t i = 0; i < len && pos + i < (uint32_t)bits; i++)
		b = (b & ~(1ULL << (pos + i))) | (((f >> i) & 1) << (pos + i));
	return b & wmask(bytes);
}

/* prmt: bytes of {b, a} picked by c (the default mode: a nibble per byte, bit 3 replicates the sign). */
static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	uint64_t x = ((uint64_t)b << 32) | a;
	uint32_t sel = c & 0xffff, r = 0;
	if (mode != PRMT_DEFAULT) {
		/* the other modes' selectors, by c's low two bits (d.b3 in the top nibble) */
		static const uint16_t shifts[][4] = {
			[PRMT_F4E] = {0x3210, 0x4321, 0x5432, 0x6543}, [PRMT_B4E] = {0x5670, 0x6701, 0x7012, 0x0123},
			[PRMT_RC8] = {0x0000, 0x1111, 0x2222, 0x3333}, [PRMT_ECL] = {0x3210, 0x3211, 0x3222, 0x3333},
			[PRMT_ECR] = {0x0000, 0x1110, 0x2210, 0x3210}, [PRMT_RC16] = {0x1010, 0x3232, 0x1010, 0x3232},
		};
		sel = shifts[mode][c & 3];
	}
	for (int i = 0; i < 4; i++) {
		uint32_t nib = (sel >> (4 * i)) & 0xf;
		uint8_t byte = (uint8_t)(x >> (8 * (nib & 7)));
		if (mode == PRMT_DEFAULT && (nib & 8))
			byte = byte & 0x80 ? 0xff : 0;
		r |= (uint32_t)byte << (8 * i);
	}
	return r;
}

/* lop3: any function of three inputs, its truth table in lut (a = 0xf0, b = 0xcc, c = 0xaa). */
static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t r = 0;
	for (int i = 0; i < 8; i++)
		if (lut & (1u << i))
			r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
	return r;
}

/* shf: the funnel shift of the 64-bit {b, a} by c, left or right, c wrapped mod 32 or clamped to 32. */
static uint32_t shf(uint32_t a, uint32_t b, uint32_t c, int right, int clamp)
{
	uint32_t n = clamp ? (c > 32 ? 32 : c) : c & 31;
	uint64_t x = ((uint64_t)b << 32) | a;
	return right ? (uint32_t)(x >> n) : (uint32_t)((x << n) >> 32);
}

/* One f16x2 operation, half by half, through f32 (exact for add, sub, mul and fma of halves but the final rounding). */
static uint64_t half2(int code, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t r = 0;
	for (int h = 0; h < 2; h++) {
		float x = util_f16_to_f32((uint16_t)(a >> (16 * h))), y = util_f16_to_f32((uint16_t)(b >> (16 * h)));
		float z = util_f16_to_f32((uint16_t)(c >> (16 * h)));
		double v = code == OP_ADD ? (double)x + y : code == OP_SUB ? (double)x - y
			 : code == OP_MUL ? (double)x * y : (double)x * y + z;
		r |= (uint64_t)util_f32_to_f16((float)v) << (16 * h);
	}
	return r;
}

/* Every lane set in mask, lowest first, as l (an int64_t). A plain for
 * statement: it needs no closing macro, and break leaves it. */
#define for_each_lane(l, mask)                                                         \
	for (int64_t lanes_##l = (int64_t)(uint32_t)(mask), l;                         \
	     lanes_##l && ((l = __builtin_ctzll((unsigned long long)lanes_##l)), 1); \
	     lanes_##l &= lanes_##l - 1)

/* ---- memory and warp-level instructions ---- */

static int pending_read(blockctx *b, const emu_op *o, uint32_t off, int bytes);
static blockctx *cluster_addr(blockctx *b, const emu_op *o, uint64_t a, int bytes, int cluster_ok, uint32_t *off);

/* Resolves a lane's ld/st address to a shared offset (returns 1) or a global
 * pointer (returns 0); -1 after an error. Every access is checked against the
 * object it lands in (the block's shared memory, one global buffer) in 64
 * bits that cannot wrap: a negative offset reads as a huge one and fails. */
static inline int resolve(blockctx *b, const emu_op *o, int space, uint64_t a, int bytes, uint32_t *soff, uint8_t **gp)
{
	if (a & (uint64_t)(bytes - 1))
		return fail(b, o, "misaligned %d-byte access at 0x%llx", bytes, (unsigned long long)a);
	if (space == SP_GENERIC) {
		if ((a >> EMU_GLOBAL_SHIFT) == (EMU_SHARED_WINDOW >> EMU_GLOBAL_SHIFT)) {
			space = SP_SHARED;
			a -= EMU_SHARED_WINDOW;
		} else {
			space = SP_GLOBAL;
		}
	}
	if (space == SP_SHARED) {
		if (!ck_within(a, (uint64_t)bytes, b->smem_size))
			return fail(b, o, "out-of-bounds shared access of %d bytes at offset %lld (block has %u bytes)",
				    bytes, (long long)a, b->smem_size);
		*soff = (uint32_t)a;
		return 1;
	}
	*gp = gptr(b, a, bytes);
	if (!*gp) {
		char d[96];
		describe_gaddr(b, a, d, sizeof d);
		return fail(b, o, "out-of-bounds global %s of %d bytes at %s", o->code == OP_ST ? "store" : "load", bytes, d);
	}
	return 0;
}

static int exec_ldst(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	uint64_t *R = w->R;
	int tb = emu_types[o->type].bytes, total = tb * o->vec;
	int is_ld = o->code == OP_LD;
	if (o->space == SP_PARAM) {
		const uint64_t *base = &R[o->src[0] * 32];
		for_each_lane(l, em) {
			uint64_t a = base[l] + (uint64_t)o->imm;
			if (!ck_within(a, (uint64_t)total, (uint64_t)b->k->param_bytes))
				return fail(b, o, "ld.param outside the parameter list");
			for (int v = 0; v < o->vec; v++) {
				uint64_t x = 0;
				memcpy(&x, b->L->param + a + (uint64_t)(v * tb), (size_t)tb);
				if (emu_types[o->type].kind == 's')
					x = (uint64_t)sx(x, tb);
				if (o->dst[v] >= 0)
					R[o->dst[v] * 32 + l] = x;
			}
		}
		return 0;
	}
	int64_t gaddr[32], saddr[32];
	uint32_t gmask = 0, smask = 0;
	const uint64_t *base = &R[o->src[0] * 32];
	for_each_lane(l, em) {
		uint64_t a = base[l] + (uint64_t)o->imm;
		uint32_t soff = 0;
		uint8_t *gp = NULL;
		blockctx *t = b; /* the CTA whose shared memory it is */
		int r = o->space == SP_CLUSTER ? ((t = cluster_addr(b, o, a, total, 1, &soff)) ? 1 : -1)
					       : resolve(b, o, o->space, a, total, &soff, &gp);
		if (r < 0)
			return -1;
		uint8_t *p;
		if (r == 1 && t != b) { /* distributed shared memory: another CTA's, ordered by the cluster's barriers */
			smask |= 1u << l;
			saddr[l] = soff;
			p = t->smem + soff;
			t->cl->gen += !is_ld;
		} else if (r == 1) {
			smask |= 1u << l;
			saddr[l] = soff;
			p = b->smem + soff;
			if (is_ld && b->cl->nloads && pending_read(b, o, soff, total) < 0)
				return -1;
			if (is_ld)
				shadow_read(b, o, w->id, soff, total);
			else
				shadow_write(b, o, w->id, soff, total);
		} else {
			gmask |= 1u << l;
			gaddr[l] = (int64_t)a;
			p = gp;
		}
		for (int v = 0; v < o->vec; v++) {
			if (is_ld) {
				uint64_t x = 0;
				memcpy(&x, p + v * tb, (size_t)tb);
				if (emu_types[o->type].kind == 's')
					x = (uint64_t)sx(x, tb);
				if (o->dst[v] >= 0)
					R[o->dst[v] * 32 + l] = x;
			} else {
				uint64_t x = R[o->src[1 + v] * 32 + l];
				memcpy(p + v * tb, &x, (size_t)tb);
			}
		}
	}
	if (gmask)
		count_access(b, cnt, o, is_ld ? ACCESS_GLOBAL_LOAD : ACCESS_GLOBAL_STORE, gaddr, gmask, total);
	if (smask)
		count_access(b, cnt, o, is_ld ? ACCESS_SHARED_LOAD : ACCESS_SHARED_STORE, saddr, smask, total);
	return 0;
}

static int exec_ldmatrix(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	if (em != 0xffffffffu)
		return fail(b, o, "ldmatrix needs all 32 lanes of the warp (active mask 0x%08x)", em);
	uint64_t *R = w->R;
	uint16_t rows[4][8][8];
	int64_t saddr[32];
	uint32_t amask = (uint32_t)((1ULL << (8 * o->vec)) - 1);
	for (int j = 0; j < o->vec; j++)
		for (int r = 0; r < 8; r++) {
			int lane = j * 8 + r;
			uint64_t a = R[o->src[0] * 32 + lane] + (uint64_t)o->imm;
			uint32_t soff = 0;
			uint8_t *gp = NULL;
			int rc = resolve(b, o, o->space == SP_GENERIC ? SP_GENERIC : SP_SHARED, a, 16, &soff, &gp);
			if (rc < 0)
				return -1;
			if (rc == 0)
				return fail(b, o, "ldmatrix address is not in shared memory");
			saddr[lane] = soff;
			if (b->cl->nloads && pending_read(b, o, soff, 16) < 0)
				return -1;
			memcpy(rows[j][r], b->smem + soff, 16);
			shadow_read(b, o, w->id, soff, 16);
		}
	int trans = o->flags & OPF_TRANS;
	for (int j = 0; j < o->vec; j++) {
		if (o->dst[j] < 0)
			continue;
		for (int l = 0; l < 32; l++) {
			uint16_t lo, hi;
			if (!trans) {
				lo = rows[j][l / 4][2 * (l % 4)];
				hi = rows[j][l / 4][2 * (l % 4) + 1];
			} else {
				lo = rows[j][2 * (l % 4)][l / 4];
				hi = rows[j][2 * (l % 4) + 1][l / 4];
			}
			R[o->dst[j] * 32 + l] = (uint64_t)lo | ((uint64_t)hi << 16);
		}
	}
	count_access(b, cnt, o, ACCESS_LDMATRIX, saddr, amask, 16);
	return 0;
}

/* mma.sync.aligned.m16n8kK.row.col.f32.T.T.f32 with T = f16, bf16 (K = 16)
 * or tf32 (K = 8): the fragments of PTX ISA 9.7.14.5.7-8 through the one
 * reading of tensor-core operands (emu_wgmma.c), f32 accumulation. */
static int exec_mma(blockctx *b, warp *w, const emu_op *o, uint32_t em)
{
	if (em != 0xffffffffu)
		return fail(b, o, "mma.sync needs all 32 lanes of the warp (active mask 0x%08x)", em);
	uint64_t *R = w->R;
	int K = o->mod;
	emu_wg_type t = o->type2 == ET_TF32 ? WG_TF32 : o->type2 == ET_BF16 ? WG_BF16 : WG_F16;
	float A[16][32], B[32][8], C[16][8];
	const int32_t ra[4] = {o->src[0], o->src[1], o->src[2], o->src[3]}, rb[2] = {o->src[4], o->src[5]};
	emu_mma_frag_a(R, ra, K, t, A);
	emu_mma_frag_b(R, rb, K, t, B);
	for (int l = 0; l < 32; l++) {
		int g = l >> 2, q = l & 3;
		for (int i = 0; i < 4; i++)
			C[g + 8 * (i / 2)][q * 2 + (i & 1)] = F(R[o->src[6 + i] * 32 + l]);
	}
	/* The products of these types are exact in f32 (but below 2^-126); one
	 * rounding per step in k order. The PTX ISA fixes no order. */
	float D[16][8];
	for (int r = 0; r < 16; r++)
		for (int c = 0; c < 8; c++) {
			float acc = C[r][c];
			for (int k = 0; k < K; k++)
				acc = fmaf(A[r][k], B[k][c], acc);
			D[r][c] = acc;
		}
	for (int l = 0; l < 32; l++) {
		int g = l >> 2, q = l & 3;
		for (int i = 0; i < 4; i++)
			if (o->dst[i] >= 0)
				R[o->dst[i] * 32 + l] = FB(D[g + 8 * (i / 2)][q * 2 + (i & 1)]);
	}
	return 0;
}

static int exec_cpasync(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	uint64_t *R = w->R;
	int64_t gaddr[32], saddr[32];
	int size = o->vec;
	for_each_lane(l, em) {
		uint64_t sa = R[o->src[0] * 32 + l] + (uint64_t)o->imm;
		uint64_t ga = R[o->src[1] * 32 + l] + R[o->src[2] * 32 + l];
		uint32_t srcsize = (uint32_t)size;
		if (o->flags & OPF_HAS_SRCSZ) {
			/* compared unsigned: 0xffffffff is no -1 that slips under the size */
			srcsize = (uint32_t)R[o->src[3] * 32 + l];
			if (srcsize > (uint32_t)size)
				return fail(b, o, "cp.async src-size %u exceeds the copy size %d", srcsize, size);
		}
		uint32_t soff = 0;
		uint8_t *gp = NULL;
		int rc = resolve(b, o, SP_SHARED, sa, size, &soff, &gp);
		if (rc < 0)
			return -1;
		if (ga & (uint64_t)(size - 1))
			return fail(b, o, "misaligned cp.async source 0x%llx", (unsigned long long)ga);
		if (srcsize && !gptr(b, ga, (int)srcsize)) {
			char d[96];
			describe_gaddr(b, ga, d, sizeof d);
			return fail(b, o, "out-of-bounds cp.async read of %u bytes at %s", srcsize, d);
		}
		if (w->ncp >= EMU_MAX_CP_PENDING) /* a loop of copies never waited for would grow without end */
			return fail(b, o, "more than %d cp.async copies of one warp outstanding (no cp.async.wait_group?)",
				    EMU_MAX_CP_PENDING);
		if (w->ncp >= w->capcp) {
			w->capcp = w->capcp ? 2 * w->capcp : 256;
			w->cp = xreallocarray(w->cp, (size_t)w->capcp, sizeof *w->cp);
		}
		w->cp[w->ncp++] = (cpreq){.soff = soff, .gaddr = ga, .size = (uint8_t)size,
					  .srcsize = (uint8_t)srcsize, .group = -1, .op = (int)(o - b->ops)};
		gaddr[l] = (int64_t)ga;
		saddr[l] = soff;
	}
	if (em) {
		count_access(b, cnt, o, ACCESS_GLOBAL_LOAD, gaddr, em, size);
		count_access(b, cnt, o, ACCESS_SHARED_STORE, saddr, em, size);
	}
	return 0;
}

static void exec_shfl(warp *w, const emu_op *o, uint32_t em)
{
	uint64_t *R = w->R;
	uint32_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = (uint32_t)R[o->src[0] * 32 + l];
	for_each_lane(l, em) {
		uint32_t bv = (uint32_t)R[o->src[1] * 32 + l] & 31;
		uint32_t c = (uint32_t)R[o->src[2] * 32 + l];
		uint32_t cval = c & 31, seg = (c >> 8) & 31;
		int maxl = (int)((l & seg) | (cval & ~seg)), minl = (int)(l & seg);
		int j = l, ok;
		switch (o->mod) {
		case SHFL_UP: j = l - (int)bv; ok = j >= maxl; break;
		case SHFL_DOWN: j = l + (int)bv; ok = j <= maxl; break;
		case SHFL_BFLY: j = l ^ (int)bv; ok = j <= maxl; break;
		default: j = minl | (int)(bv & ~seg); ok = j <= maxl; break;
		}
		if (!ok)
			j = l;
		if (o->dst[0] >= 0)
			R[o->dst[0] * 32 + l] = a[j & 31];
		if ((o->flags & OPF_PRED_OUT) && o->dst[1] >= 0)
			R[o->dst[1] * 32 + l] = (uint64_t)ok;
	}
}


/* ---- one instruction: its operands and the lanes that run it ---- */

/* What an instruction leaves the warp to do. STEP_NEXT: the lanes that ran
 * go on to x->next; STEP_HOLD: they stay where the instruction put them (a
 * barrier, a diverging branch); STEP_DONE: the warp has exited; STEP_FAIL:
 * fail() said why. The memory functions' 0 and -1 are STEP_NEXT and STEP_FAIL. */
enum { STEP_FAIL = -1, STEP_NEXT = 0, STEP_HOLD, STEP_DONE, STEP_BLOCK, STEP_YIELD };
/* STEP_BLOCK: the instruction cannot complete yet (a wait); the warp yields
 * at it and runs it again when its turn comes. STEP_YIELD: the lanes go on
 * to x->next, and the warp yields (test_wait found its phase incomplete). */

typedef struct {
	const emu_op *o;
	emu_opcount *cnt;                  /* its counters */
	uint64_t *R;                       /* the warp's registers, a row of 32 lanes each */
	uint64_t *d;                       /* the first destination's row; NULL for "_" */
	const uint64_t *s0, *s1, *s2, *s3; /* the source rows; zero_row past the last source */
	uint32_t mask, em;                 /* the lanes at this pc; those its guard lets run */
	int pc, next;                      /* where it is; where the lanes go after it */
	int t, tb, isf, sgn;               /* its type, the type's bytes, float, signed */
	uint64_t wm;                       /* the type's value bits */
} inst;

static const uint64_t zero_row[32];

static inline const uint64_t *src_row(uint64_t *R, const emu_op *o, int i)
{
	return o->nsrc > i && o->src[i] >= 0 ? &R[o->src[i] * 32] : zero_row;
}

static inline void operands(inst *x, uint64_t *R)
{
	const emu_op *o = x->o;
	x->R = R;
	x->d = o->dst[0] >= 0 ? &R[o->dst[0] * 32] : NULL;
	x->s0 = src_row(R, o, 0);
	x->s1 = src_row(R, o, 1);
	x->s2 = src_row(R, o, 2);
	x->s3 = src_row(R, o, 3);
	x->t = o->type;
	x->tb = emu_types[x->t].bytes;
	x->wm = wmask(x->tb);
	x->isf = emu_types[x->t].kind == 'f';
	x->sgn = emu_types[x->t].kind == 's';
}

/* The instructions whose first destination is not their only output: they
 * run even when it is "_"; any other with a "_" result is skipped. */
#define MORE_OUTPUTS \
	(1ULL << OP_LD | 1ULL << OP_UNPACK | 1ULL << OP_LDMATRIX | 1ULL << OP_MMA | 1ULL << OP_SETP | 1ULL << OP_SHFL)
_Static_assert(OP_COUNT <= 64, "MORE_OUTPUTS is a 64-bit set of opcodes");

static inline int discarded(const inst *x)
{
	return !x->d && x->o->ndst && !((MORE_OUTPUTS >> x->o->code) & 1);
}

/* d = EXPR on every lane that runs x. EXPR reads the lane's source values
 * a, b, c, e (0 past the last source) and the type's t, tb (bytes), sgn and
 * wm (value bits); the loads it does not use fold away. */
#define LANEWISE(x, EXPR)                                                                            \
	do {                                                                                         \
		const inst *const x_ = (x);                                                          \
		uint64_t *const d_ = x_->d;                                                          \
		const uint64_t *const s0_ = x_->s0, *const s1_ = x_->s1;                             \
		const uint64_t *const s2_ = x_->s2, *const s3_ = x_->s3;                             \
		const int t = x_->t, tb = x_->tb, sgn = x_->sgn;                                     \
		const uint64_t wm = x_->wm;                                                          \
		(void)t, (void)tb, (void)sgn, (void)wm;                                              \
		for_each_lane(l, x_->em) {                                                           \
			const uint64_t a = s0_[l], b = s1_[l], c = s2_[l], e = s3_[l];               \
			(void)a, (void)b, (void)c, (void)e;                                          \
			d_[l] = (EXPR);                                                              \
		}                                                                                    \
	} while (0)

/* d = a OP b, each path written once: f16x2 half by half, f32 in float, f16
 * and f64 through double, integers wrapped to the type. */
#define ARITH(x, OP)                                                        \
	do {                                                                \
		if ((x)->t == ET_F16X2)                                     \
			LANEWISE(x, half2((x)->o->code, a, b, c));          \
		else if ((x)->t == ET_F32)                                  \
			LANEWISE(x, FB(F(a) OP F(b)));                      \
		else if ((x)->isf)                                          \
			LANEWISE(x, putf(getf(a, t) OP getf(b, t), t));     \
		else                                                        \
			LANEWISE(x, (a OP b) & wm);                         \
	} while (0)

/* ---- arithmetic ---- */

static inline uint64_t mul_hi(uint64_t a, uint64_t b, int tb, int sgn, uint64_t wm)
{
	__int128 p = sgn ? (__int128)sx(a, tb) * sx(b, tb) : (__int128)((unsigned __int128)(a & wm) * (b & wm));
	return (uint64_t)(p >> (8 * tb));
}

/* Integer mul.lo/.hi/.wide and mad: a * b + c (c is 0 for mul: it has two sources). */
static void mul_int(const inst *x)
{
	const uint64_t w2 = wmask(2 * x->tb);
	switch (x->o->mod) {
	case MUL_LO:
		LANEWISE(x, (a * b + c) & wm);
		break;
	case MUL_WIDE: /* the low 64 bits of the product, computed unsigned: .wide of s64 must not overflow */
		if (x->sgn)
			LANEWISE(x, ((uint64_t)sx(a, tb) * (uint64_t)sx(b, tb) + c) & w2);
		else
			LANEWISE(x, ((a & wm) * (b & wm) + c) & w2);
		break;
	default:
		LANEWISE(x, (mul_hi(a, b, tb, sgn, wm) + c) & wm);
		break;
	}
}

static void exec_mul(const inst *x)
{
	if (x->isf || x->o->mod == MUL_LO)
		ARITH(x, *);
	else
		mul_int(x);
}

static void exec_fma(const inst *x)
{
	if (x->t == ET_F16X2)
		LANEWISE(x, half2(OP_FMA, a, b, c));
	else if (x->t == ET_F32)
		LANEWISE(x, FB(fmaf(F(a), F(b), F(c))));
	else
		LANEWISE(x, putf(fmaf((float)getf(a, t), (float)getf(b, t), (float)getf(c, t)), t));
}

/* Division by zero gives all ones; the signed MIN / -1 wraps to MIN. */
static inline uint64_t div_int(uint64_t a, uint64_t b, int tb, int sgn, uint64_t wm)
{
	int64_t q;
	if (!(b & wm))
		return wm;
	if (sgn)
		return ck_div_i64(sx(a, tb), sx(b, tb), &q) ? (0 - a) & wm : (uint64_t)q & wm;
	return ((a & wm) / (b & wm)) & wm;
}

/* The remainder of a division by zero is a; of MIN / -1 it is 0. */
static inline uint64_t rem_int(uint64_t a, uint64_t b, int tb, int sgn, uint64_t wm)
{
	int64_t r;
	if (!(b & wm))
		return a & wm;
	if (sgn)
		return ck_mod_i64(sx(a, tb), sx(b, tb), &r) ? 0 : (uint64_t)r & wm;
	return ((a & wm) % (b & wm)) & wm;
}

static void exec_div(const inst *x)
{
	if (x->isf)
		LANEWISE(x, FB(F(a) / F(b)));
	else
		LANEWISE(x, div_int(a, b, tb, sgn, wm));
}

static inline uint64_t min_max_int(uint64_t a, uint64_t b, int mx, int tb, int sgn, uint64_t wm)
{
	if (sgn) {
		int64_t x = sx(a, tb), y = sx(b, tb);
		return (uint64_t)((mx ? x > y : x < y) ? x : y) & wm;
	}
	a &= wm;
	b &= wm;
	return (mx ? a > b : a < b) ? a : b;
}

/* min and max of f32 as the emulator has always computed them (through
 * glibc's fminf and fmaxf), spelt out because the compiler may swap the
 * operands of those calls: a quiet NaN loses to a number, a signalling one
 * wins, quietened; of two NaNs b wins, quietened; of two values that compare
 * equal (-0 and +0) a wins. */
static inline uint64_t min_max_f32(uint64_t a, uint64_t b, int mx)
{
	const uint32_t quiet = 0x400000, ua = (uint32_t)a, ub = (uint32_t)b;
	float x = F(a), y = F(b);
	if (isnan(x) && isnan(y))
		return ub | quiet;
	if (isnan(x))
		return ua & quiet ? ub : ua | quiet;
	if (isnan(y))
		return ub & quiet ? ua : ub | quiet;
	return (mx ? y > x : y < x) ? ub : ua;
}

static void exec_min_max(const inst *x)
{
	const int mx = x->o->code == OP_MAX;
	if (x->isf)
		LANEWISE(x, min_max_f32(a, b, mx));
	else
		LANEWISE(x, min_max_int(a, b, mx, tb, sgn, wm));
}

/* The sign bit of neg and abs on floats (f32, else f16). */
static inline uint64_t sign_bit(int t)
{
	return t == ET_F32 ? 0x80000000ULL : 0x8000ULL;
}

static void exec_neg(const inst *x)
{
	if (x->isf)
		LANEWISE(x, a ^ sign_bit(t));
	else
		LANEWISE(x, (0 - a) & wm);
}

static inline uint64_t abs_int(uint64_t a, int tb, uint64_t wm)
{
	int64_t x = sx(a, tb);
	return (x < 0 ? 0 - (uint64_t)x : (uint64_t)x) & wm;
}

static void exec_abs(const inst *x)
{
	if (x->isf)
		LANEWISE(x, a & (sign_bit(t) - 1));
	else
		LANEWISE(x, abs_int(a, tb, wm));
}

static void exec_not(const inst *x)
{
	if (x->t == ET_PRED)
		LANEWISE(x, !(a & 1));
	else
		LANEWISE(x, ~a & wm);
}

/* Shifts past the width give 0, or the sign for a signed shr. */
static inline uint64_t shl(uint64_t a, uint64_t b, int tb, uint64_t wm)
{
	uint32_t sh = (uint32_t)b;
	return sh >= (uint32_t)(8 * tb) ? 0 : (a << sh) & wm;
}

static inline uint64_t shr(uint64_t a, uint64_t b, int tb, int sgn, uint64_t wm)
{
	uint32_t sh = (uint32_t)b;
	if (sgn)
		return (uint64_t)(sx(a, tb) >> (sh >= (uint32_t)(8 * tb) ? 8 * tb - 1 : (int)sh)) & wm;
	return sh >= (uint32_t)(8 * tb) ? 0 : (a & wm) >> sh;
}

static inline uint64_t clz(uint64_t a, int tb, uint64_t wm)
{
	return (uint64_t)(a & wm ? __builtin_clzll(a & wm) - (64 - 8 * tb) : 8 * tb);
}

/* ---- moves and conversions ---- */

static void exec_pack(const inst *x)
{
	const emu_op *o = x->o;
	int part = x->tb * 8 / o->nsrc;
	uint64_t pm = wmask(part / 8);
	for_each_lane(l, x->em) {
		uint64_t v = 0;
		for (int i = 0; i < o->nsrc; i++)
			v |= (x->R[o->src[i] * 32 + l] & pm) << (i * part);
		x->d[l] = v;
	}
}

static void exec_unpack(const inst *x)
{
	const emu_op *o = x->o;
	int part = x->tb * 8 / o->ndst;
	uint64_t pm = wmask(part / 8);
	for_each_lane(l, x->em) {
		uint64_t v = x->s0[l];
		for (int i = 0; i < o->ndst; i++)
			if (o->dst[i] >= 0)
				x->R[o->dst[i] * 32 + l] = (v >> (i * part)) & pm;
	}
}

/* The 8-bit float format of an e4m3x2 or e5m2x2 operand. */
static fpconv_fp8 fp8_of(int t)
{
	return t == ET_E5M2X2 ? FPCONV_E5M2 : FPCONV_E4M3;
}

/* cvt with tf32 or 8-bit floats (emu_decode.c's cvt_forms; base/fpconv.c
 * rounds). The pairs as PTX ISA 9.7.9.21 packs them: a, or a's upper byte,
 * into the upper half of d. */
static void exec_cvt_narrow(const inst *x)
{
	const int sat = (x->o->flags & OPF_SATFINITE) != 0, st = x->o->type2;
	const fpconv_round r = x->o->mod == RND_RNA ? FPCONV_RNA : FPCONV_RN;
	if (x->t == ET_TF32)
		LANEWISE(x, fpconv_f32_to_tf32(F(a), r, sat));
	else if (st == ET_F32) /* cvt.rn.satfinite.e4m3x2.f32 d, a, b */
		LANEWISE(x, (uint64_t)fpconv_f32_to_fp8(F(a), fp8_of(t), sat) << 8 |
				    fpconv_f32_to_fp8(F(b), fp8_of(t), sat));
	else /* cvt.rn.f16x2.e4m3x2 d, a */
		LANEWISE(x, (uint64_t)fpconv_fp8_to_f16((uint8_t)(a >> 8), fp8_of(st)) << 16 |
				    fpconv_fp8_to_f16((uint8_t)a, fp8_of(st)));
}

static void exec_cvt(const inst *x)
{
	const int rnd = x->o->mod, st = x->o->type2;
	if (x->t == ET_TF32 || x->t == ET_E4M3X2 || x->t == ET_E5M2X2 || st == ET_E4M3X2 || st == ET_E5M2X2)
		exec_cvt_narrow(x);
	else if (x->t == ET_F16X2) /* a to the upper half, b to the lower */
		LANEWISE(x, (do_cvt(a, ET_F16, ET_F32, rnd) << 16) | do_cvt(b, ET_F16, ET_F32, rnd));
	else if (x->t == ET_BF16X2) /* cvt.rn.bf16x2.f32 d, a, b (9.7.9.21): the same halves */
		LANEWISE(x, (do_cvt(a, ET_BF16, ET_F32, rnd) << 16) | do_cvt(b, ET_BF16, ET_F32, rnd));
	else
		LANEWISE(x, do_cvt(a, t, st, rnd));
}

static void exec_cvta(const inst *x)
{
	if (x->o->space == SP_PARAM) /* a tensor map's address (cvta.param, PTX ISA 9.7.9.17) */
		LANEWISE(x, (x->o->mod == CVTA_TO ? a - EMU_PARAM_WINDOW : a + EMU_PARAM_WINDOW) & wm);
	else if (x->o->space != SP_SHARED)
		LANEWISE(x, a & wm);
	else if (x->o->mod == CVTA_TO)
		LANEWISE(x, (a - EMU_SHARED_WINDOW) & wm);
	else
		LANEWISE(x, ((a & 0xffffffffULL) + EMU_SHARED_WINDOW) & wm);
}

/* ---- comparisons ---- */

static inline int setp_cmp(int cmp, int t, uint64_t a, uint64_t b)
{
	int k = emu_types[t].kind, by = emu_types[t].bytes;
	if (k == 'f') {
		double x = getf(a, t), y = getf(b, t);
		int un = isnan(x) || isnan(y);
		switch (cmp) {
		case CMP_EQ: return !un && x == y;
		case CMP_NE: return !un && x != y;
		case CMP_LT: return !un && x < y;
		case CMP_LE: return !un && x <= y;
		case CMP_GT: return !un && x > y;
		case CMP_GE: return !un && x >= y;
		case CMP_EQU: return un || x == y;
		case CMP_NEU: return un || x != y;
		case CMP_LTU: return un || x < y;
		case CMP_LEU: return un || x <= y;
		case CMP_GTU: return un || x > y;
		case CMP_GEU: return un || x >= y;
		case CMP_NUM: return !un;
		case CMP_NAN: return un;
		default: return 0;
		}
	}
	uint64_t ua = a & wmask(by), ub = b & wmask(by);
	int64_t sa = sx(a, by), sb = sx(b, by);
	int sgn = k == 's';
	switch (cmp) {
	case CMP_EQ: return ua == ub;
	case CMP_NE: return ua != ub;
	case CMP_LT: return sgn ? sa < sb : ua < ub;
	case CMP_LE: return sgn ? sa <= sb : ua <= ub;
	case CMP_GT: return sgn ? sa > sb : ua > ub;
	case CMP_GE: return sgn ? sa >= sb : ua >= ub;
	case CMP_LO: return ua < ub;
	case CMP_LS: return ua <= ub;
	case CMP_HI: return ua > ub;
	case CMP_HS: return ua >= ub;
	default: return 0;
	}
}

static void exec_setp(const inst *x)
{
	const emu_op *o = x->o;
	uint64_t *d = x->d, *q = o->ndst > 1 && o->dst[1] >= 0 ? &x->R[o->dst[1] * 32] : NULL;
	const uint64_t *s0 = x->s0, *s1 = x->s1, *s2 = x->s2;
	const int t = x->t, neg = (o->flags & OPF_SRC_NEG) != 0;
	const uint32_t em = x->em;
	/* a loop's 32-bit compare, without setp_cmp's switch on every lane */
	int fast = d && !o->type2 && !q && (t == ET_U32 || t == ET_S32 || t == ET_B32);
	if (fast && (o->mod == CMP_LT || o->mod == CMP_LO) && t != ET_S32) {
		for_each_lane(l, em) d[l] = (uint32_t)s0[l] < (uint32_t)s1[l];
		return;
	}
	if (fast && o->mod == CMP_LT && t == ET_S32) {
		for_each_lane(l, em) d[l] = (int32_t)s0[l] < (int32_t)s1[l];
		return;
	}
	if (fast && (o->mod == CMP_GE || o->mod == CMP_HS) && t != ET_S32) {
		for_each_lane(l, em) d[l] = (uint32_t)s0[l] >= (uint32_t)s1[l];
		return;
	}
	for_each_lane(l, em) {
		int r = setp_cmp(o->mod, t, s0[l], s1[l]), nr = !r;
		if (o->type2) {
			int cv = (int)(s2[l] & 1) ^ neg;
			if (o->type2 == 1) { r = r && cv; nr = nr && cv; }
			else if (o->type2 == 2) { r = r || cv; nr = nr || cv; }
			else { r ^= cv; nr ^= cv; }
		}
		if (d) d[l] = (uint64_t)r;
		if (q) q[l] = (uint64_t)nr;
	}
}

/* ---- Hopper: shared::cluster addresses, mbarriers, TMA, cluster barriers ---- */

/* A shared::cta or shared::cluster address (PTX ISA 5.1.4-5.1.5): the CTA
 * it lies in and the offset there, checked; NULL after fail(). */
static blockctx *cluster_addr(blockctx *b, const emu_op *o, uint64_t a, int bytes, int cluster_ok, uint32_t *off)
{
	if ((a >> EMU_GLOBAL_SHIFT) == (EMU_SHARED_WINDOW >> EMU_GLOBAL_SHIFT))
		a -= EMU_SHARED_WINDOW;
	uint64_t r = a >> EMU_CLUSTER_SHIFT;
	blockctx *t = b;
	if (r) {
		if (r - 1 >= (uint64_t)b->cl->n) {
			fail(b, o, "shared::cluster address 0x%llx names CTA rank %llu; the cluster has %d",
			     (unsigned long long)a, (unsigned long long)(r - 1), b->cl->n);
			return NULL;
		}
		t = &b->cl->cta[r - 1];
		if (!cluster_ok && t != b) {
			fail(b, o, "shared::cta address 0x%llx lies in CTA rank %llu, not this one (%d): use .shared::cluster",
			     (unsigned long long)a, (unsigned long long)(r - 1), b->rank);
			return NULL;
		}
	}
	a &= (1u << EMU_CLUSTER_SHIFT) - 1;
	if (a & (uint64_t)(bytes - 1)) {
		fail(b, o, "misaligned %d-byte shared access at offset %llu", bytes, (unsigned long long)a);
		return NULL;
	}
	if (!ck_within(a, (uint64_t)bytes, t->smem_size)) {
		fail(b, o, "out-of-bounds shared access of %d bytes at offset %llu (block has %u bytes)", bytes,
		     (unsigned long long)a, t->smem_size);
		return NULL;
	}
	*off = (uint32_t)a;
	return t;
}

static emu_mbar *find_mbar(blockctx *t, uint32_t off)
{
	for (int i = 0; i < t->nmbar; i++)
		if (t->mbar[i].off == off)
			return &t->mbar[i];
	return NULL;
}

/* A phase completed: what was written before it is ordered before what its waiters do next. */
static void phase_done(blockctx *t)
{
	t->epoch++;
	t->cl->gen++;
}

/* A read of shared bytes that a TMA load in flight will write: the tile is
 * read before its mbarrier phase completed. */
static int pending_read(blockctx *b, const emu_op *o, uint32_t off, int bytes)
{
	cluster *cl = b->cl;
	for (int i = 0; i < cl->nq; i++) {
		const bulkreq *q = &cl->q[i];
		if (q->store || !(q->mask >> b->rank & 1) || off >= q->soff + q->bytes || off + (uint32_t)bytes <= q->soff)
			continue;
		return fail(b, o, "reads shared bytes %u..%u before the TMA copy issued at line %d has written them: "
			    "wait on its mbarrier (smem+0x%x) for the phase it completes first", off, off + bytes - 1,
			    b->ops[q->op].line, q->mbar);
	}
	return 0;
}

/* mbarrier.init / arrive / expect_tx / test_wait / try_wait (PTX ISA
 * 9.7.13.15), each lane on its own address, as each thread does. */
static int exec_mbar(blockctx *b, warp *w, inst *x)
{
	const emu_op *o = x->o;
	uint64_t *R = w->R;
	int wait = o->mod == MB_TEST_WAIT || o->mod == MB_TRY_WAIT, all_done = 1;
	for_each_lane(l, x->em) {
		uint32_t off;
		blockctx *t = cluster_addr(b, o, R[o->src[0] * 32 + l] + R[o->src[2] * 32 + l], 8,
					   (o->flags & OPF_CLUSTER_SP) != 0, &off);
		if (!t)
			return STEP_FAIL;
		uint64_t v = R[o->src[1] * 32 + l];
		emu_mbar *m = find_mbar(t, off);
		if (o->mod == MB_INIT) {
			if (v < 1 || v > EMU_MBAR_MAX_COUNT)
				return fail(b, o, "mbarrier.init count %llu: the PTX ISA allows 1..%d", (unsigned long long)v,
					    EMU_MBAR_MAX_COUNT);
			if (!m && t->nmbar >= EMU_MAX_MBARRIERS)
				return fail(b, o, "more than %d mbarriers in one block", EMU_MAX_MBARRIERS);
			emu_mbar_init(m ? m : &t->mbar[t->nmbar++], off, (uint32_t)v, o->line);
			b->cl->gen++;
			continue;
		}
		if (!m)
			return fail(b, o, "smem+0x%x (block rank %d) is no mbarrier: mbarrier.init it first", off, t->rank);
		if (wait) {
			int done = (o->flags & OPF_PARITY) ? emu_mbar_parity_done(m, (uint32_t)v) : m->phase != (uint32_t)v;
			all_done &= done;
			if (o->dst[0] >= 0 && o->mod == MB_TEST_WAIT)
				R[o->dst[0] * 32 + l] = (uint64_t)done;
			if (!done) { /* what the deadlock message names */
				w->wait_op = (int)(o - b->ops);
				w->wait_off = off;
				w->wait_rank = t->rank;
				w->wait_parity = (o->flags & OPF_PARITY) ? (uint32_t)v & 1 : (uint32_t)v;
			}
			continue;
		}
		if ((o->mod != MB_ARRIVE && v > EMU_MBAR_MAX_COUNT) || (o->mod == MB_ARRIVE && (v < 1 || v > EMU_MBAR_MAX_COUNT)))
			return fail(b, o, "%s count %llu: the PTX ISA allows %s..%d", o->mod == MB_ARRIVE ? "arrival" : "transaction",
				    (unsigned long long)v, o->mod == MB_ARRIVE ? "1" : "0", EMU_MBAR_MAX_COUNT);
		uint32_t phase = m->phase;
		b->cl->gen++;
		if (o->mod == MB_EXPECT_TX || o->mod == MB_ARRIVE_TX) {
			if (emu_mbar_tx(m, (int64_t)v))
				phase_done(t);
			if (o->mod == MB_EXPECT_TX)
				continue;
		}
		int r = emu_mbar_arrive(m, o->mod == MB_ARRIVE ? (uint32_t)v : 1);
		if (r < 0)
			return fail(b, o, "arrives on the mbarrier at smem+0x%x (block rank %d, line %d) with no arrival "
				    "pending in phase %u: more arrivals than its count", off, t->rank, m->line, m->phase);
		if (r)
			phase_done(t);
		if (o->dst[0] >= 0)
			R[o->dst[0] * 32 + l] = phase; /* the state: the phase it arrived in */
	}
	if (!wait || all_done) {
		if (wait && o->dst[0] >= 0)
			for_each_lane(l, x->em) R[o->dst[0] * 32 + l] = 1;
		w->spinning = 0;
		return STEP_NEXT;
	}
	if (o->mod == MB_TRY_WAIT) /* it may suspend the thread until the phase completes (9.7.13.15.16) */
		return STEP_BLOCK;
	w->spinning = 1; /* test_wait does not wait: the warp yields so the others can run */
	return STEP_YIELD;
}

/* The tensor map a TMA names: a generic (cvta.param) or parameter-space
 * address of 128 bytes of the kernel's parameters, checked. */
static int read_tmap(blockctx *b, const emu_op *o, uint64_t a, emu_tmap *tm, uint64_t *bytes)
{
	if ((a >> EMU_GLOBAL_SHIFT) == (EMU_PARAM_WINDOW >> EMU_GLOBAL_SHIFT))
		a -= EMU_PARAM_WINDOW;
	if ((a & 63) || !ck_within(a, sizeof *tm, (uint64_t)b->k->param_bytes))
		return fail(b, o, "the tensor-map address 0x%llx is no 64-byte aligned parameter", (unsigned long long)a);
	memcpy(tm, b->L->param + a, sizeof *tm);
	char why[160];
	*bytes = emu_tmap_check(tm, b->L->bufs, b->L->nbufs, why, sizeof why);
	return *bytes ? 0 : fail(b, o, "%s", why);
}

/* Is the box's extent at soff inside the CTA's shared memory? A swizzled
 * box is moved in whole 128-byte rows. */
static int box_fits(blockctx *b, const emu_op *o, const emu_tmap *tm, uint32_t soff, uint64_t bytes, blockctx *t)
{
	if (tm->swizzle && (soff & 127))
		return fail(b, o, "a swizzled TMA box needs a 128-byte aligned shared address, not offset %u", soff);
	if (soff & 15)
		return fail(b, o, "a TMA box needs a 16-byte aligned shared address, not offset %u", soff);
	if (!ck_within(soff, (bytes + 127) / 128 * 128, t->smem_size))
		return fail(b, o, "the TMA box of %llu bytes at offset %u runs past the block's %u bytes of shared memory",
			    (unsigned long long)bytes, soff, t->smem_size);
	return 0;
}

/* A TMA store reads shared bytes through the async proxy: a generic write
 * to them needs a fence.proxy.async by its writer in between (PTX ISA 8.6). */
static int unfenced(blockctx *b, const emu_op *o, uint32_t soff, uint64_t bytes)
{
	for (uint32_t word = soff >> 2; word < (soff + bytes) >> 2; word++) {
		uint32_t g = b->gfence[word];
		if (!g || b->wwarp[word] >= b->nwarps || g != b->warps[b->wwarp[word]].fences + 1)
			continue;
		return fail(b, o, "the TMA store reads shared bytes %u..%u that warp %d wrote at line %d with no "
			    "fence.proxy.async after: the copy engine may not see them", word * 4, word * 4 + 3,
			    b->wwarp[word], b->wop[word] >= 0 ? b->ops[b->wop[word]].line : 0);
	}
	return 0;
}

static int enqueue(blockctx *b, const emu_op *o, const bulkreq *r)
{
	cluster *cl = b->cl;
	if (cl->nq >= EMU_MAX_BULK_PENDING)
		return fail(b, o, "more than %d TMA copies in flight", EMU_MAX_BULK_PENDING);
	if (cl->nq >= cl->capq) {
		cl->capq = cl->capq ? 2 * cl->capq : 64;
		cl->q = xreallocarray(cl->q, (size_t)cl->capq, sizeof *cl->q);
	}
	cl->q[cl->nq++] = *r;
	cl->nloads += !r->store;
	cl->gen++;
	return 0;
}

/* cp.async.bulk.tensor (PTX ISA 9.7.9.25.5.1): the copy is checked and
 * queued now and lands when the copy engine runs, after this round. */
static int bulk_copy(blockctx *b, warp *w, inst *x)
{
	const emu_op *o = x->o;
	uint64_t *R = w->R;
	for_each_lane(l, x->em) {
		bulkreq r = {.store = o->mod == BK_STORE, .rank = b->rank, .warp = w->id, .op = (int)(o - b->ops), .group = -1};
		if (read_tmap(b, o, R[o->src[2] * 32 + l] + R[o->src[3] * 32 + l], &r.tm, &r.bytes) < 0)
			return STEP_FAIL;
		if (r.tm.rank != o->vec)
			return fail(b, o, "a %dd copy through a tensor map of rank %d", o->vec, r.tm.rank);
		for (int d = 0; d < o->vec; d++)
			r.c[d] = (int32_t)R[o->src[7 + d] * 32 + l];
		blockctx *t = cluster_addr(b, o, R[o->src[0] * 32 + l] + R[o->src[1] * 32 + l], 16, !r.store, &r.soff);
		if (!t || box_fits(b, o, &r.tm, r.soff, r.bytes, t) < 0)
			return STEP_FAIL;
		if (r.store) {
			if (unfenced(b, o, r.soff, r.bytes) < 0)
				return STEP_FAIL;
			x->cnt->bytes_l2 += r.bytes;
		} else {
			uint32_t moff;
			blockctx *mt = cluster_addr(b, o, R[o->src[4] * 32 + l] + R[o->src[5] * 32 + l], 8, 1, &moff);
			if (!mt)
				return STEP_FAIL;
			if (mt != t)
				return fail(b, o, "the TMA destination and its mbarrier lie in different CTAs (%d and %d)", t->rank,
					    mt->rank);
			r.mbar = moff;
			r.mask = (uint16_t)(1u << t->rank);
			if (o->flags & OPF_MULTICAST) {
				r.mask = (uint16_t)R[o->src[6] * 32 + l];
				if (!r.mask || r.mask >> b->cl->n)
					return fail(b, o, "multicast CTA mask 0x%x for a cluster of %d", r.mask, b->cl->n);
			}
			for (int d = 0; d < b->cl->n; d++)
				if ((r.mask >> d & 1) && box_fits(b, o, &r.tm, r.soff, r.bytes, &b->cl->cta[d]) < 0)
					return STEP_FAIL;
			x->cnt->bytes_l2 += r.bytes; /* once from L2 ... */
			x->cnt->bytes_smem += r.bytes * (uint64_t)__builtin_popcount(r.mask); /* ... once per destination */
		}
		if (enqueue(b, o, &r) < 0)
			return STEP_FAIL;
	}
	return STEP_NEXT;
}

/* The copy engine: every copy in flight lands, in issue order. A load
 * writes each destination CTA and completes its bytes on the mbarrier
 * there; a store reads the issuing CTA's shared memory now. */
static int land(cluster *cl)
{
	char why[320];
	for (int i = 0; i < cl->nq; i++) {
		bulkreq *q = &cl->q[i];
		blockctx *b = &cl->cta[q->rank];
		const emu_op *o = &b->ops[q->op];
		const emu_buffer *buf = &b->L->bufs[q->tm.buf];
		if (q->store) {
			if (emu_tmap_copy(&q->tm, q->c, buf, b->smem, q->soff, 1, why, sizeof why) < 0)
				return fail(b, o, "%s", why);
			continue;
		}
		for (int d = 0; d < cl->n; d++) {
			if (!(q->mask >> d & 1))
				continue;
			blockctx *t = &cl->cta[d];
			if (emu_wgmma_smem_in_flight(t->wg, q->soff, (uint32_t)q->bytes, why, sizeof why) < 0)
				return fail(b, o, "the TMA copy %s", why);
			if (emu_tmap_copy(&q->tm, q->c, buf, t->smem, q->soff, 0, why, sizeof why) < 0)
				return fail(b, o, "%s", why);
			emu_wgmma_async_wrote(t->wg, q->soff, (uint32_t)q->bytes);
			for (uint32_t word = q->soff >> 2; word < (q->soff + q->bytes) >> 2; word++) {
				t->wep[word] = 0; /* the copy engine's write, ordered by the mbarrier */
				t->gfence[word] = 0;
			}
			emu_mbar *m = find_mbar(t, q->mbar);
			if (!m)
				return fail(b, o, "the TMA copy completes its bytes on smem+0x%x of block rank %d, which is no mbarrier",
					    q->mbar, d);
			if (emu_mbar_tx(m, -(int64_t)q->bytes))
				phase_done(t);
		}
	}
	if (cl->nq)
		cl->gen++;
	cl->nq = cl->nloads = 0;
	return 0;
}

/* cp.async.bulk.commit_group / wait_group[.read] for the warp's TMA stores. */
static int bulk_group(blockctx *b, warp *w, inst *x)
{
	cluster *cl = b->cl;
	if (x->o->mod == BK_COMMIT) {
		for (int i = 0; i < cl->nq; i++)
			if (cl->q[i].store && cl->q[i].rank == b->rank && cl->q[i].warp == w->id && cl->q[i].group < 0)
				cl->q[i].group = w->bulk_next;
		w->bulk_next++;
		return STEP_NEXT;
	}
	long long oldest = -1;
	for (int i = 0; i < cl->nq; i++)
		if (cl->q[i].store && cl->q[i].rank == b->rank && cl->q[i].warp == w->id && cl->q[i].group >= 0 &&
		    (oldest < 0 || cl->q[i].group < oldest))
			oldest = cl->q[i].group;
	return oldest >= 0 && w->bulk_next - oldest > x->o->imm ? STEP_BLOCK : STEP_NEXT;
}

static int exec_bulk(blockctx *b, warp *w, inst *x)
{
	if (!x->em)
		return STEP_NEXT;
	return x->o->mod == BK_LOAD || x->o->mod == BK_STORE ? bulk_copy(b, w, x) : bulk_group(b, w, x);
}

/* Threads of the cluster that have not exited: barrier.cluster waits for them all. */
static long long cluster_threads(const cluster *cl)
{
	long long n = 0;
	for (int r = 0; r < cl->n; r++)
		for (int i = 0; i < cl->cta[r].nwarps; i++)
			n += popc(cl->cta[r].warps[i].live);
	return n;
}

static void cluster_barrier_check(cluster *cl)
{
	if (!cl->cb_count || cl->cb_count < cluster_threads(cl))
		return;
	cl->cb_phase++;
	cl->cb_count = 0;
	cl->gen++;
	for (int r = 0; r < cl->n; r++)
		cl->cta[r].epoch++;
}

/* setmaxnreg (9.7.19.6): the warp's registers a thread change; an increase
 * waits until the block's pool has them. */
static int setmaxnreg(blockctx *b, warp *w, const emu_op *o)
{
	int n = (int)o->imm;
	if ((o->flags & OPF_INC) ? n < w->nreg : n > w->nreg)
		return fail(b, o, "setmaxnreg.%s %d: the warp holds %d registers a thread", (o->flags & OPF_INC) ? "inc" : "dec",
			    n, w->nreg);
	long long used = 32LL * n;
	for (int i = 0; i < b->nwarps; i++)
		if (&b->warps[i] != w && b->warps[i].live)
			used += 32LL * b->warps[i].nreg;
	if (used > b->cl->pool)
		return STEP_BLOCK;
	w->nreg = n;
	b->cl->gen++;
	return STEP_NEXT;
}

static void bar_release_check(blockctx *b);

static int exec_cluster(blockctx *b, warp *w, inst *x)
{
	const emu_op *o = x->o;
	uint64_t *R = w->R;
	cluster *cl = b->cl;
	if (!x->em)
		return STEP_NEXT;
	switch (o->mod) {
	case CL_MAPA:
		for_each_lane(l, x->em) {
			uint64_t a = R[o->src[0] * 32 + l], r = (uint32_t)R[o->src[1] * 32 + l];
			if (r >= (uint64_t)cl->n)
				return fail(b, o, "mapa to CTA rank %llu of a cluster of %d", (unsigned long long)r, cl->n);
			if (o->dst[0] >= 0)
				R[o->dst[0] * 32 + l] = (a & ((1u << EMU_CLUSTER_SHIFT) - 1)) + ((r + 1) << EMU_CLUSTER_SHIFT);
		}
		return STEP_NEXT;
	case CL_ARRIVE:
		if (w->cb_arrived)
			return fail(b, o, "barrier.cluster.arrive twice with no barrier.cluster.wait between");
		w->cb_arrived = 1;
		w->cb_phase = cl->cb_phase;
		cl->cb_count += popc(x->em);
		cl->gen++;
		cluster_barrier_check(cl);
		return STEP_NEXT;
	case CL_WAIT:
		if (!w->cb_arrived)
			return fail(b, o, "barrier.cluster.wait with no barrier.cluster.arrive before it");
		if (cl->cb_phase == w->cb_phase)
			return STEP_BLOCK;
		w->cb_arrived = 0;
		return STEP_NEXT;
	case CL_ELECT: {
		uint32_t members = (uint32_t)R[o->src[0] * 32 + __builtin_ctz(x->em)] & x->em;
		int leader = members ? __builtin_ctz(members) : -1;
		for_each_lane(l, x->em) {
			if (o->dst[0] >= 0)
				R[o->dst[0] * 32 + l] = (uint64_t)(leader < 0 ? 0 : leader);
			if (o->dst[1] >= 0)
				R[o->dst[1] * 32 + l] = l == leader;
		}
		return STEP_NEXT;
	}
	case CL_SETMAXNREG:
		return setmaxnreg(b, w, o);
	case CL_FENCE_PROXY:
		w->fences++;
		return STEP_NEXT;
	default: { /* bar.arrive id, count */
		unsigned id = (unsigned)R[o->src[0] * 32 + __builtin_ctz(x->em)];
		unsigned want = (unsigned)R[o->src[1] * 32 + __builtin_ctz(x->em)];
		if (id > 15 || !want || want % 32)
			return fail(b, o, "bar.arrive %u, %u: barrier 0..15 and a count that is a multiple of 32", id, want);
		b->bar_arrived[id] += 32;
		b->bar_want[id] = want;
		cl->gen++;
		bar_release_check(b);
		return STEP_NEXT;
	}
	}
}

/* stmatrix.m8n8 (9.7.14.5.16): ldmatrix's fragments written back, each 8x8
 * matrix's row r to the address lane 8j + r gives. */
static int exec_stmatrix(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	if (em != 0xffffffffu)
		return fail(b, o, "stmatrix needs all 32 lanes of the warp (active mask 0x%08x)", em);
	uint64_t *R = w->R;
	uint16_t rows[4][8][8];
	int trans = o->flags & OPF_TRANS;
	for (int j = 0; j < o->vec; j++)
		for (int l = 0; l < 32; l++) {
			uint32_t v = (uint32_t)R[o->src[1 + j] * 32 + l];
			int r = l / 4, c = 2 * (l % 4);
			if (!trans) {
				rows[j][r][c] = (uint16_t)v;
				rows[j][r][c + 1] = (uint16_t)(v >> 16);
			} else {
				rows[j][c][r] = (uint16_t)v;
				rows[j][c + 1][r] = (uint16_t)(v >> 16);
			}
		}
	int64_t saddr[32];
	for (int j = 0; j < o->vec; j++)
		for (int r = 0; r < 8; r++) {
			int lane = j * 8 + r;
			uint32_t off;
			if (!cluster_addr(b, o, R[o->src[0] * 32 + lane] + R[o->src[5] * 32 + lane], 16, 0, &off))
				return STEP_FAIL;
			saddr[lane] = off;
			memcpy(b->smem + off, rows[j][r], 16);
			shadow_write(b, o, w->id, off, 16);
		}
	count_access(b, cnt, o, ACCESS_LDMATRIX, saddr, (uint32_t)((1ULL << (8 * o->vec)) - 1), 16);
	b->cl->gen++;
	return STEP_NEXT;
}

/* ---- control flow and barriers ---- */

/* bar.sync a[, b] (9.7.13.1): the lanes wait at barrier a until b threads
 * (default: every thread of the block) have arrived, a warp counting 32. */
static int barrier(blockctx *b, warp *w, const inst *x)
{
	const emu_op *o = x->o;
	unsigned id = (unsigned)x->R[o->src[0] * 32 + __builtin_ctz(x->mask)];
	if (id > 15)
		return fail(b, o, "bar.sync %u: barriers are 0..15", id);
	if (o->nsrc > 1) {
		unsigned want = (unsigned)x->R[o->src[1] * 32 + __builtin_ctz(x->mask)];
		if (!want || want % 32 || want > (b->nthreads + 31) / 32 * 32)
			return fail(b, o, "bar.sync %u, %u: the count must be a multiple of 32, at most the block's threads", id, want);
		b->bar_want[id] = want;
	}
	w->bar_id = (int)id;
	w->waiting |= x->mask;
	return STEP_HOLD;
}

/* bra: when only some of the lanes take it, the warp diverges and each lane keeps its own pc. */
static int branch(warp *w, inst *x)
{
	int target = (int)x->o->imm;
	if (x->em == x->mask) {
		x->next = target;
		return STEP_NEXT;
	}
	if (!x->em)
		return STEP_NEXT;
	if (!w->diverged) {
		w->diverged = 1;
		for_each_lane(l, w->live) w->lpc[l] = x->pc;
	}
	for_each_lane(l, x->mask) w->lpc[l] = (x->em >> l) & 1 ? target : x->pc + 1;
	return STEP_HOLD;
}

static int exit_lanes(blockctx *b, warp *w, inst *x)
{
	w->live &= ~x->em;
	b->cl->gen++;
	if (!w->live) /* outstanding copies still land */
		return cp_complete(b, w, INT_MAX) < 0 ? STEP_FAIL : STEP_DONE;
	x->mask &= ~x->em;
	return STEP_NEXT;
}

static int trap(blockctx *b, const emu_op *o)
{
	return fail(b, o, "%s", o->mod == TRAP_ASSERT ? "the kernel called __assertfail: an assert() failed"
						      : "the kernel executed trap");
}

/* ---- wgmma (emu_wgmma.c) ---- */

/* Runs a wgmma instruction (hazard: 0) or the hazard check before another
 * instruction (hazard: 1) of a kernel that has wgmma. */
typedef struct {
	blockctx *b;
	const emu_op *o;
} wg_reader;

/* A wgmma's shared operands read before a TMA copy in flight wrote them:
 * the same early-read rule as ld's (pending_read reports it). */
static int wg_early_read(void *arg, uint32_t off, uint32_t bytes)
{
	const wg_reader *r = arg;
	return pending_read(r->b, r->o, off, (int)bytes);
}

static int wgmma(blockctx *b, warp *w, const inst *x, int hazard)
{
	/* A kernel with no wgmma.mma_async has no state: its fences, commits
	 * and waits have nothing to order (an empty group is complete). */
	if (!b->wg)
		return STEP_NEXT;
	char m[256] = "";
	wg_reader rd = {b, x->o};
	emu_wg_ctx c = {.wg = b->wg, .k = b->k, .o = x->o, .R = w->R, .warp = w->id, .em = x->em, .nthreads = b->nthreads,
			.smem = b->smem, .smem_size = b->smem_size, .cnt = x->cnt, .msg = m, .msglen = sizeof m,
			.early_read = b->cl->nloads ? wg_early_read : NULL, .early_arg = &rd};
	if ((hazard ? emu_wgmma_hazard(&c) : emu_wgmma_exec(&c, x->em)) < 0)
		return fail(b, x->o, "%s", m); /* a no-op when pending_read has failed already */
	/* one wgmma is 16 x N x K multiply-adds a warp: charged as N*K/32 warp
	 * instructions, so a loop of them ends with the budget too */
	if (!hazard && x->o->code == OP_WGMMA)
		b->cl->budget -= (long long)b->k->wgmma[x->o->imm].n * b->k->wgmma[x->o->imm].k / 32;
	return STEP_NEXT;
}

/* ---- the dispatch ---- */

/* Runs one instruction on the lanes x->em (those at its pc, x->mask, that its
 * guard lets run). A case a line: the work is in the functions above, each
 * instruction class written once. */
static int exec_op(blockctx *blk, warp *w, inst *x)
{
	const emu_op *o = x->o;
	switch ((emu_opcode)o->code) {
	/* moves and conversions */
	case OP_MOV: LANEWISE(x, a); break;
	case OP_PACK: exec_pack(x); break;
	case OP_UNPACK: exec_unpack(x); break;
	case OP_SELP: LANEWISE(x, (c & 1) ? a : b); break;
	case OP_CVT: exec_cvt(x); break;
	case OP_CVTA: exec_cvta(x); break;
	/* arithmetic */
	case OP_ADD: ARITH(x, +); break;
	case OP_SUB: ARITH(x, -); break;
	case OP_MUL: exec_mul(x); break;
	case OP_MAD: mul_int(x); break;
	case OP_FMA: exec_fma(x); break;
	case OP_DIV: exec_div(x); break;
	case OP_REM: LANEWISE(x, rem_int(a, b, tb, sgn, wm)); break;
	case OP_MIN: case OP_MAX: exec_min_max(x); break;
	case OP_NEG: exec_neg(x); break;
	case OP_ABS: exec_abs(x); break;
	case OP_RCP: LANEWISE(x, FB(1.0f / F(a))); break;
	case OP_SQRT: LANEWISE(x, FB(sqrtf(F(a)))); break;
	case OP_RSQRT: LANEWISE(x, FB(1.0f / sqrtf(F(a)))); break;
	case OP_EX2: LANEWISE(x, FB(exp2f(F(a)))); break;
	case OP_LG2: LANEWISE(x, FB(log2f(F(a)))); break;
	/* bits */
	case OP_AND: LANEWISE(x, a & b & wm); break;
	case OP_OR: LANEWISE(x, (a | b) & wm); break;
	case OP_XOR: LANEWISE(x, (a ^ b) & wm); break;
	case OP_NOT: exec_not(x); break;
	case OP_SHL: LANEWISE(x, shl(a, b, tb, wm)); break;
	case OP_SHR: LANEWISE(x, shr(a, b, tb, sgn, wm)); break;
	case OP_POPC: LANEWISE(x, (uint64_t)__builtin_popcountll(a & wm)); break;
	case OP_CLZ: LANEWISE(x, clz(a, tb, wm)); break;
	case OP_BREV: LANEWISE(x, brev(a, tb)); break;
	case OP_BFE: LANEWISE(x, bfe(a, (uint32_t)b, (uint32_t)c, tb, sgn)); break;
	case OP_BFI: LANEWISE(x, bfi(a, b, (uint32_t)c, (uint32_t)e, tb)); break;
	case OP_PRMT: LANEWISE(x, prmt((uint32_t)a, (uint32_t)b, (uint32_t)c, o->mod)); break;
	case OP_LOP3: LANEWISE(x, lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, (uint32_t)e & 0xff)); break;
	case OP_SHF: LANEWISE(x, shf((uint32_t)a, (uint32_t)b, (uint32_t)c, o->mod == SHF_R, (o->flags & OPF_CLAMP) != 0)); break;
	case OP_SETP: exec_setp(x); break;
	/* memory */
	case OP_LD: case OP_ST: return exec_ldst(blk, w, o, x->em, x->cnt);
	case OP_CPASYNC: return exec_cpasync(blk, w, o, x->em, x->cnt);
	case OP_CPCOMMIT: if (x->em) cp_commit(w); break;
	case OP_CPWAIT: return x->em ? cp_wait(blk, w, o) : STEP_NEXT;
	case OP_LDMATRIX: return exec_ldmatrix(blk, w, o, x->em, x->cnt);
	/* warp-level */
	case OP_MMA: return exec_mma(blk, w, o, x->em);
	case OP_SHFL: exec_shfl(w, o, x->em); break;
	case OP_WGMMA: case OP_WGFENCE: case OP_WGCOMMIT: case OP_WGWAIT: return wgmma(blk, w, x, 0);
	/* control flow and barriers */
	case OP_BAR: return barrier(blk, w, x);
	case OP_BRA: return branch(w, x);
	case OP_EXIT: return exit_lanes(blk, w, x);
	case OP_TRAP: return x->em ? trap(blk, o) : STEP_NEXT;
	case OP_NOP: break;
	/* Hopper */
	case OP_MBAR: return exec_mbar(blk, w, x);
	case OP_BULK: return exec_bulk(blk, w, x);
	case OP_CLUSTER: return exec_cluster(blk, w, x);
	case OP_STMATRIX: return exec_stmatrix(blk, w, x->o, x->em, x->cnt);
	default:
		blk->why = EMU_ERR_UNSUPPORTED;
		return fail(blk, o, "internal: op %d not implemented", o->code);
	}
	return STEP_NEXT;
}

/* ---- the warp ---- */

/* The wall-clock deadline: checked every 65536 warp instructions and at
 * every block, so a CLI emulation ends however the time is spent. */
static int past_deadline(blockctx *b, const emu_op *o)
{
	if (b->L->deadline <= 0 || util_now() < b->L->deadline)
		return 0;
	b->why = EMU_ERR_DEADLINE;
	return fail(b, o, "stopped at the wall-clock deadline");
}

/* Once every live lane sits on the same instruction the warp runs as one again. */
static void reconverge(warp *w)
{
	int first = w->lpc[__builtin_ctz(w->live)];
	for_each_lane(l, w->live)
		if (w->lpc[l] != first)
			return;
	w->diverged = 0;
	w->pc = first;
}

/* The lanes that run next and their pc: every ready lane, or while the warp
 * is diverged those at the lowest pc. */
static uint32_t pick_lanes(const warp *w, uint32_t ready, int *pc)
{
	if (!w->diverged) {
		*pc = w->pc;
		return ready;
	}
	int lo = INT_MAX;
	uint32_t mask = 0;
	for_each_lane(l, ready) {
		if (w->lpc[l] < lo) {
			lo = w->lpc[l];
			mask = 0;
		}
		if (w->lpc[l] == lo)
			mask |= 1u << l;
	}
	*pc = lo;
	return mask;
}

/* The lanes of mask that the instruction's guard predicate (@p, @!p) lets run. */
static inline uint32_t guard(const emu_op *o, const uint64_t *R, uint32_t mask)
{
	if (o->pred < 0)
		return mask;
	uint32_t pm = 0;
	const uint64_t *p = &R[o->pred * 32];
	for_each_lane(l, mask) pm |= (uint32_t)(p[l] & 1) << l;
	return (o->flags & OPF_PRED_NEG) ? mask & ~pm : mask & pm;
}

/* The lanes that ran go on to next, where a diverged warp may reconverge. */
static void advance(warp *w, uint32_t mask, int next)
{
	if (!w->diverged) {
		w->pc = next;
		return;
	}
	for_each_lane(l, mask) w->lpc[l] = next;
	reconverge(w);
}

/* Runs one warp until every live lane waits at a barrier or has exited, or
 * an instruction blocks or yields it. Lanes keep their own pc while
 * diverged; each step runs the lanes with the lowest pc, which reconverges
 * them at the first instruction they share. */
static int run_warp(blockctx *b, warp *w)
{
	for (;;) {
		uint32_t ready = w->live & ~w->waiting;
		if (!ready)
			return 0;
		inst x;
		x.mask = pick_lanes(w, ready, &x.pc);
		x.o = &b->ops[x.pc];
		x.cnt = &b->L->cnt[x.pc];
		x.cnt->issued++;
		if (x.cnt->rec)
			emu_record_arm(x.cnt->rec, b->ctaid, w->id);
		if (--b->cl->budget < 0) {
			b->why = EMU_ERR_BUDGET;
			return fail(b, x.o, "stopped after %lld warp instructions (an endless loop?)", b->L->max_warp_inst);
		}
		if (!(b->cl->budget & 0xffff) && past_deadline(b, x.o))
			return -1;
		x.em = guard(x.o, w->R, x.mask);
		x.cnt->threads += (uint64_t)popc(x.em);
		x.next = x.pc + 1;
		operands(&x, w->R);
		if (b->wg && wgmma(b, w, &x, 1) < 0)
			return -1;
		int step = discarded(&x) ? STEP_NEXT : exec_op(b, w, &x);
		if (step == STEP_FAIL)
			return -1;
		if (step == STEP_BLOCK) { /* not issued yet: it runs again on the warp's next turn */
			x.cnt->issued--;
			x.cnt->threads -= (uint64_t)popc(x.em);
			b->cl->budget++;
			w->blocked = 1;
			return 0;
		}
		w->blocked = 0;
		if (step == STEP_DONE)
			return 0;
		if (step == STEP_NEXT || step == STEP_YIELD)
			advance(w, x.mask, x.next);
		if (step == STEP_YIELD)
			return 0;
	}
}

/* Lets the lanes of the warps counted at barrier id step past it. */
static void release_barrier(blockctx *b, int id)
{
	for (int i = 0; i < b->nwarps; i++) {
		warp *w = &b->warps[i];
		if (!w->waiting || !w->arrived || w->bar_id != id)
			continue;
		if (!w->diverged) {
			w->pc++;
		} else {
			for_each_lane(l, w->waiting) w->lpc[l]++;
			reconverge(w);
		}
		w->waiting = 0;
		w->arrived = 0;
	}
	b->bar_arrived[id] = 0;
	b->bar_want[id] = 0;
	b->epoch++;
	b->cl->gen++;
}

/* Releases every named barrier whose count is reached; without a count
 * that is every warp of the block that has not exited. */
static void bar_release_check(blockctx *b)
{
	unsigned all = 0;
	for (int i = 0; i < b->nwarps; i++)
		all += b->warps[i].live ? 32 : 0;
	for (int id = 0; id < 16; id++) {
		unsigned want = b->bar_want[id] ? b->bar_want[id] : all;
		if (b->bar_arrived[id] && b->bar_arrived[id] >= want)
			release_barrier(b, id);
	}
}

/* A warp whose live lanes all wait at a barrier arrives there once. */
static void bar_arrive(blockctx *b, warp *w)
{
	if (!w->live || w->waiting != w->live || w->arrived)
		return;
	w->arrived = 1;
	b->bar_arrived[w->bar_id] += 32;
	b->cl->gen++;
}

static void init_warp(blockctx *b, warp *w, int id)
{
	const emu_kernel *k = b->k;
	emu_launch *L = b->L;
	const cluster *cl = b->cl;
	w->id = id;
	w->pc = 0;
	w->diverged = 0;
	w->waiting = 0;
	w->live = 0;
	w->ncp = 0;
	w->next_group = 0;
	w->blocked = w->spinning = w->arrived = w->cb_arrived = 0;
	w->bar_id = 0;
	w->cb_phase = 0;
	w->fences = 0;
	w->bulk_next = 0;
	w->nreg = cl->launch_regs;
	for (int r = 0; r < k->nregs; r++) {
		uint64_t v = k->is_const[r] == 1 ? k->konst[r] : 0;
		for (int l = 0; l < 32; l++)
			w->R[r * 32 + l] = v;
	}
	unsigned bx = L->block[0], by = L->block[1];
	const unsigned *cd = cl->dim;
	for (int l = 0; l < 32; l++) {
		unsigned t = (unsigned)id * 32 + (unsigned)l;
		if (t >= b->nthreads)
			continue;
		w->live |= 1u << l;
		uint64_t v[SPEC_COUNT] = {
			[SPEC_TID_X] = t % bx, [SPEC_TID_Y] = (t / bx) % by, [SPEC_TID_Z] = t / (bx * by),
			[SPEC_NTID_X] = bx, [SPEC_NTID_Y] = by, [SPEC_NTID_Z] = L->block[2],
			[SPEC_CTAID_X] = b->ctaid[0], [SPEC_CTAID_Y] = b->ctaid[1], [SPEC_CTAID_Z] = b->ctaid[2],
			[SPEC_NCTAID_X] = L->grid[0], [SPEC_NCTAID_Y] = L->grid[1], [SPEC_NCTAID_Z] = L->grid[2],
			[SPEC_LANEID] = (unsigned)l, [SPEC_WARPID] = (unsigned)id,
			[SPEC_NWARPID] = (unsigned)b->nwarps,
			[SPEC_CLUSTER_CTARANK] = (unsigned)b->rank, [SPEC_CLUSTER_NCTARANK] = (unsigned)cl->n,
			[SPEC_CLUSTERID_X] = cl->id[0], [SPEC_CLUSTERID_Y] = cl->id[1], [SPEC_CLUSTERID_Z] = cl->id[2],
			[SPEC_NCLUSTERID_X] = L->grid[0] / cd[0], [SPEC_NCLUSTERID_Y] = L->grid[1] / cd[1],
			[SPEC_NCLUSTERID_Z] = L->grid[2] / cd[2],
			[SPEC_CLUSTER_CTAID_X] = b->ctaid[0] % cd[0], [SPEC_CLUSTER_CTAID_Y] = b->ctaid[1] % cd[1],
			[SPEC_CLUSTER_CTAID_Z] = b->ctaid[2] % cd[2],
			[SPEC_CLUSTER_NCTAID_X] = cd[0], [SPEC_CLUSTER_NCTAID_Y] = cd[1], [SPEC_CLUSTER_NCTAID_Z] = cd[2],
			[SPEC_IS_EXPLICIT_CLUSTER] = L->cluster[0] > 0,
		};
		for (int s = 0; s < SPEC_COUNT; s++)
			if (k->special_reg[s] >= 0)
				w->R[k->special_reg[s] * 32 + l] = v[s];
	}
}

/* Every warp waits and nothing will wake one: says what the first one waits for. */
static int deadlock(cluster *cl)
{
	for (int r = 0; r < cl->n; r++) {
		blockctx *b = &cl->cta[r];
		for (int i = 0; i < b->nwarps; i++) {
			warp *w = &b->warps[i];
			if (!w->live)
				continue;
			const emu_op *o = &b->ops[w->diverged ? w->lpc[__builtin_ctz(w->live)] : w->pc];
			if (w->spinning) /* polling with test_wait: the poll is what waits */
				o = &b->ops[w->wait_op];
			b->why = EMU_ERR_FAULT;
			if (w->waiting)
				return fail(b, o, "deadlock: every warp waits; warp %d waits at bar.sync %d for %u threads, and only "
					    "%u arrive", i, w->bar_id, b->bar_want[w->bar_id] ? b->bar_want[w->bar_id] : b->nthreads,
					    b->bar_arrived[w->bar_id]);
			if (o->code == OP_MBAR) {
				blockctx *t = &cl->cta[w->wait_rank];
				emu_mbar *m = find_mbar(t, w->wait_off);
				long long tx = m ? (long long)m->tx : 0;
				char txs[96];
				snprintf(txs, sizeof txs, tx > 0 ? "%lld bytes expected that no copy brings"
						      : tx < 0 ? "%lld bytes more completed than expect_tx announced"
							       : "no transaction bytes pending%.0lld", tx > 0 ? tx : -tx);
				return fail(b, o, "deadlock: every warp waits and no copy is in flight; warp %d waits on the mbarrier "
					    "at smem+0x%x (block rank %d, initialised at line %d) for the phase of parity %u, which no "
					    "copy or arrival will complete (it is in phase %u, %d of its %d arrivals pending, %s)", i,
					    w->wait_off, w->wait_rank, m ? m->line : 0, w->wait_parity & 1, m ? m->phase : 0,
					    m ? m->pending : 0, m ? m->expected : 0, txs);
			}
			if (o->code == OP_CLUSTER && o->mod == CL_SETMAXNREG)
				return fail(b, o, "deadlock: setmaxnreg.inc %lld waits for registers the block's pool of %lld "
					    "(%d a thread at launch) never frees: the warps ask for more than it holds",
					    (long long)o->imm, cl->pool, cl->launch_regs);
			if (o->code == OP_CLUSTER)
				return fail(b, o, "deadlock: warp %d waits at barrier.cluster.wait for threads of the cluster that "
					    "never arrive", i);
			return fail(b, o, "deadlock: every warp waits and none can go on (warp %d)", i);
		}
	}
	return -1;
}

/* Runs one cluster's CTAs together, round by round: each warp runs until it
 * waits, then the copy engine lands what was issued. A round that changes
 * nothing is a deadlock (a warp polling with test_wait gets 1000 of them). */
static int cluster_run(cluster *cl)
{
	int stall = 0;
	for (;;) {
		unsigned long long gen0 = cl->gen;
		for (int r = 0; r < cl->n; r++) {
			blockctx *b = &cl->cta[r];
			for (int i = 0; i < b->nwarps; i++) {
				warp *w = &b->warps[i];
				if (!w->live)
					continue;
				if (run_warp(b, w) < 0)
					return -1;
				bar_arrive(b, w);
				bar_release_check(b);
			}
		}
		if (land(cl) < 0)
			return -1;
		cluster_barrier_check(cl);
		int live = 0, spin = 0;
		for (int r = 0; r < cl->n; r++)
			for (int i = 0; i < cl->cta[r].nwarps; i++) {
				live |= cl->cta[r].warps[i].live != 0;
				spin |= cl->cta[r].warps[i].live && cl->cta[r].warps[i].spinning;
			}
		if (!live)
			return 0;
		if (cl->gen != gen0) {
			stall = 0;
			continue;
		}
		if (!spin || ++stall > 1000)
			return deadlock(cl);
	}
}

/* Tells the progress callback where the launch is; 1 when it says stop. */
static int progress_stop(emu_launch *L, const cluster *cl, double t0, char *err, int errlen)
{
	long long blocks = (long long)L->grid[0] * L->grid[1] * L->grid[2];
	emu_progress p = {.blocks_done = L->blocks_done, .blocks = blocks,
			  .inst = (unsigned long long)(L->max_warp_inst - cl->budget), .seconds = util_now() - t0};
	if (!L->progress(L->progress_ctx, &p))
		return 0;
	snprintf(err, (size_t)errlen, "%s: stopped after %lld of %lld blocks, %llu warp instructions", L->path,
		 p.blocks_done, blocks, p.inst);
	return 1;
}

/* The launch shape and the shared memory it asks for, against the limits in
 * emu.h, in 64 bits so no product wraps (641 x 6700417 threads is not 1). */
static emu_error check_launch(const emu_launch *L, uint64_t *smem, char *err, int errlen)
{
	uint64_t threads = (uint64_t)L->block[0] * L->block[1] * L->block[2];
	if (threads == 0 || threads > EMU_MAX_THREADS || !L->grid[0] || !L->grid[1] || !L->grid[2] ||
	    L->grid[0] > 0x7fffffffu || L->grid[1] > EMU_MAX_GRID_YZ || L->grid[2] > EMU_MAX_GRID_YZ) {
		snprintf(err, (size_t)errlen,
			 "%s: bad launch shape: grid %ux%ux%u, block %ux%ux%u (at most %d threads a block, a grid of "
			 "2^31-1 x %d x %d)", L->path, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1],
			 L->block[2], EMU_MAX_THREADS, EMU_MAX_GRID_YZ, EMU_MAX_GRID_YZ);
		return EMU_ERR_BAD_REQUEST;
	}
	unsigned long long n = 1;
	for (int i = 0; i < 3; i++) {
		unsigned c = L->cluster[i] ? L->cluster[i] : 1;
		n *= c;
		if (c > EMU_MAX_CLUSTER || n > EMU_MAX_CLUSTER || L->grid[i] % c) {
			snprintf(err, (size_t)errlen, "%s: bad cluster %ux%ux%u for the grid %ux%ux%u (at most %d blocks, "
				 "dividing the grid)", L->path, L->cluster[0], L->cluster[1], L->cluster[2], L->grid[0],
				 L->grid[1], L->grid[2], EMU_MAX_CLUSTER);
			return EMU_ERR_BAD_REQUEST;
		}
	}
	uint64_t st = (uint64_t)L->k->smem_static;
	*smem = L->smem_dynamic ? (st + 127) / 128 * 128 + L->smem_dynamic : st;
	if (*smem > EMU_MAX_SMEM) {
		snprintf(err, (size_t)errlen, "%s: %llu bytes of shared memory (%llu static + %u dynamic) is more than the "
			 "emulator's %d a block", L->path, (unsigned long long)*smem, (unsigned long long)st,
			 L->smem_dynamic, EMU_MAX_SMEM);
		return EMU_ERR_BAD_REQUEST;
	}
	if (L->k->nregs > EMU_MAX_REGS) { /* the parser refuses these; a hand-made kernel may not */
		snprintf(err, (size_t)errlen, "%s: %d registers is more than the emulator's %d", L->path, L->k->nregs,
			 EMU_MAX_REGS);
		return EMU_ERR_BAD_REQUEST;
	}
	return EMU_OK;
}

/* One CTA's state: shared memory, its shadows, warps and registers. */
static void cta_alloc(blockctx *b, emu_launch *L, cluster *cl, int rank, uint32_t smem, char *err, int errlen)
{
	const emu_kernel *k = L->k;
	*b = (blockctx){.L = L, .k = k, .ops = k->ops, .err = err, .errlen = errlen, .cl = cl, .rank = rank};
	b->nthreads = L->block[0] * L->block[1] * L->block[2];
	b->nwarps = (int)((b->nthreads + 31) / 32);
	b->smem_size = smem;
	size_t words = b->smem_size / 4 + 4;
	b->smem = xmalloc((size_t)b->smem_size + 16);
	b->wep = xcalloc(words, sizeof *b->wep);
	b->rep = xcalloc(words, sizeof *b->rep);
	b->wwarp = xcalloc(words, sizeof *b->wwarp);
	b->rwarp = xcalloc(words, sizeof *b->rwarp);
	b->wop = xcalloc(words, sizeof *b->wop);
	b->rop = xcalloc(words, sizeof *b->rop);
	b->gfence = xcalloc(words, sizeof *b->gfence);
	b->mbar = xcalloc(EMU_MAX_MBARRIERS, sizeof *b->mbar);
	b->warps = xcalloc((size_t)b->nwarps, sizeof *b->warps);
	uint64_t *regs = xcalloc((size_t)b->nwarps * (size_t)k->nregs * 32 + 1, sizeof(uint64_t));
	for (int i = 0; i < b->nwarps; i++)
		b->warps[i].R = regs + (size_t)i * (size_t)k->nregs * 32;
	/* a block's set-up writes every register of every warp and the shared
	 * memory: charged as one warp instruction per 256 bytes of it, at least
	 * one per warp, so a huge grid of an empty kernel ends too */
	b->setup_cost = b->nwarps + ((long long)b->nwarps * k->nregs * 32 * 8 + (long long)b->smem_size * 4) / 256;
	b->wg = k->nwgmma ? emu_wg_block_new(k, b->nwarps, b->smem_size) : NULL;
}

static void cta_free(blockctx *b)
{
	for (int i = 0; i < b->nwarps; i++)
		free(b->warps[i].cp);
	if (b->warps)
		free(b->warps[0].R);
	free(b->warps);
	free(b->smem);
	free(b->wep);
	free(b->rep);
	free(b->wwarp);
	free(b->rwarp);
	free(b->wop);
	free(b->rop);
	free(b->gfence);
	free(b->mbar);
	emu_wg_block_free(b->wg);
	emu_footprint_free(&b->fp);
}

/* Starts the cluster whose first block is c: each CTA's shared memory
 * poisoned, its warps at their first instruction. */
static int cluster_start(cluster *cl, const unsigned c[3])
{
	cl->id[0] = c[0] / cl->dim[0]; /* before the warps: their special registers read it */
	cl->id[1] = c[1] / cl->dim[1];
	cl->id[2] = c[2] / cl->dim[2];
	cl->cb_phase = 0;
	cl->cb_count = 0;
	cl->nq = cl->nloads = 0;
	for (int r = 0; r < cl->n; r++) {
		blockctx *b = &cl->cta[r];
		b->ctaid[0] = c[0] + (unsigned)r % cl->dim[0];
		b->ctaid[1] = c[1] + (unsigned)r / cl->dim[0] % cl->dim[1];
		b->ctaid[2] = c[2] + (unsigned)r / (cl->dim[0] * cl->dim[1]);
		cl->budget -= b->setup_cost;
		if (cl->budget < 0) {
			b->why = EMU_ERR_BUDGET;
			return fail(b, NULL, "stopped after %lld warp instructions, block set-up counted (a grid too large?)",
				    b->L->max_warp_inst);
		}
		if (past_deadline(b, NULL))
			return -1;
		/* shared memory starts as NaNs so reading what nobody wrote shows */
		memset(b->smem, 0xff, b->smem_size);
		memset(b->gfence, 0, (b->smem_size / 4 + 4) * sizeof *b->gfence);
		memset(b->bar_arrived, 0, sizeof b->bar_arrived);
		memset(b->bar_want, 0, sizeof b->bar_want);
		b->nmbar = 0;
		b->epoch++;
		for (int i = 0; i < b->nwarps; i++)
			init_warp(b, &b->warps[i], i);
		if (b->wg)
			emu_wg_block_reset(b->wg);
		b->L->warps += b->nwarps;
		emu_footprint_reset(&b->fp);
	}
	return 0;
}

/* After a cluster ran: each CTA's warpgroups issued the same wgmmas. */
static int cluster_end(cluster *cl)
{
	char m[256];
	for (int r = 0; r < cl->n; r++) {
		if (cl->cta[r].wg && emu_wgmma_block_end(cl->cta[r].wg, m, sizeof m) < 0)
			return fail(&cl->cta[r], NULL, "%s", m);
		cl->cta[r].L->footprint_sectors += cl->cta[r].fp.sectors;
	}
	return 0;
}

/* The error of the CTA that failed. */
static emu_error cluster_why(const cluster *cl)
{
	for (int r = 0; r < cl->n; r++)
		if (cl->cta[r].failed)
			return cl->cta[r].why ? cl->cta[r].why : EMU_ERR_FAULT;
	return EMU_ERR_FAULT;
}

emu_error emu_exec(emu_launch *L, char *err, int errlen)
{
	const emu_kernel *k = L->k;
	uint64_t smem;
	emu_error bad = check_launch(L, &smem, err, errlen);
	if (bad)
		return bad;
	cluster cl = {.n = 1};
	for (int i = 0; i < 3; i++) {
		cl.dim[i] = L->cluster[i] ? L->cluster[i] : 1;
		cl.n *= (int)cl.dim[i];
	}
	cl.budget = L->max_warp_inst > 0 ? L->max_warp_inst : 1000000000LL;
	L->max_warp_inst = cl.budget;
	unsigned threads = L->block[0] * L->block[1] * L->block[2];
	/* setmaxnreg's pool: the registers a thread at launch (.maxnreg, or
	 * what 64K registers give each thread, a multiple of 8 up to 255) x threads */
	int per = k->maxnreg > 0 ? k->maxnreg : (int)(65536 / threads / 8 * 8);
	cl.launch_regs = per > 255 ? 255 : per;
	cl.pool = (long long)cl.launch_regs * (long long)((threads + 31) / 32 * 32);
	cl.cta = xcalloc((size_t)cl.n, sizeof *cl.cta);
	for (int r = 0; r < cl.n; r++)
		cta_alloc(&cl.cta[r], L, &cl, r, (uint32_t)smem, err, errlen);
	int rc = 0;
	double t0 = util_now();
	unsigned c[3];
	for (c[2] = 0; c[2] < L->grid[2] && !rc; c[2] += cl.dim[2])
		for (c[1] = 0; c[1] < L->grid[1] && !rc; c[1] += cl.dim[1])
			for (c[0] = 0; c[0] < L->grid[0] && !rc; c[0] += cl.dim[0]) {
				if ((rc = cluster_start(&cl, c)) != 0 || (rc = cluster_run(&cl)) != 0)
					break;
				if ((rc = cluster_end(&cl)) != 0)
					break;
				L->blocks_done += cl.n;
				if (L->progress && progress_stop(L, &cl, t0, err, errlen)) {
					rc = -1;
					cl.cta[0].failed = 1;
					cl.cta[0].why = EMU_ERR_CANCELLED;
				}
			}
	emu_error why = rc ? cluster_why(&cl) : EMU_OK;
	for (int r = 0; r < cl.n; r++)
		cta_free(&cl.cta[r]);
	free(cl.cta);
	free(cl.q);
	return why;
}
