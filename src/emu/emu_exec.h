/* emu_exec: the interpreter's state (warps, CTAs, clusters) and the instruction families' entry points, shared by emu_exec*.c. */
#ifndef PTXTUTOR_EMU_EXEC_H
#define PTXTUTOR_EMU_EXEC_H

#include <stdint.h>
#include "emu/emu_internal.h"
#include "emu/emu_alu.h"
#include "emu/emu_hopper.h"
#include "emu/emu_wgmma.h"
#include "emu/emu_footprint.h"

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
	uint8_t *local;          /* 32 lanes x the kernel's local_bytes: each thread's .local */
	uint32_t *seen;          /* per mbarrier of its CTA: the phases whose completion it observed (a wait, or a
				  * barrier with a warp that did); NULL until the first wait (emu_race.c) */
	struct emu_callstack *calls; /* issue 39: each lane's calls of a .func (emu_exec_call.c); NULL until the first */
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
	/* the race shadow per 4-byte word (emu_race.c): epochs of the last write
	 * (RACE_PENDING: an async copy in flight) / read, the writing / reading
	 * warp (RACE_GW: rank and warp; RACE_SEVERAL readers), the op for the message */
	uint32_t *wep, *rep;
	uint16_t *wwarp, *rwarp;
	int32_t *wop, *rop;
	uint32_t *aep;            /* the epoch an async copy in flight was issued in (wep RACE_PENDING); the
				   * mbarrier phase a landed TMA copy completes (RACE_LANDED) */
	uint16_t *amb;            /* RACE_LANDED: the index of that mbarrier in mbar */
	uint32_t *wcp, *rcp;      /* a cluster's: 1 + the barrier.cluster phase of the last write / read; NULL: no cluster */
	uint8_t *rrk;             /* the rank of the CTA that read (0xff: several) */
	struct emu_gshadow *gs;   /* the launch's global shadow, between blocks; NULL: checks off */
	int norace;               /* the checks are off (PTXTUTOR_NO_RACE=1) */
	uint32_t epoch;
	unsigned ctaid[3];
	unsigned nthreads;
	warp *warps;
	int nwarps;
	long long setup_cost;     /* of one block, charged to the budget: set-up is work too */
	run_error *e;             /* where the launch's first failure goes (emu_fail) */
	int cur_warp;             /* the warp run_warp is running, for e->warp; -1 between warps */
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
	long long budget;         /* warp instructions left (emu_charge) */
	long long tick;           /* work left until the next look at the clock and the cancel flag */
	bulkreq *q;               /* copies in flight, in issue order */
	int nq, capq, nloads;
	unsigned long long gen;   /* bumped by every change of shared state: a round without one is a deadlock */
	unsigned cb_phase;        /* barrier.cluster */
	long long cb_count;
	long long pool;           /* setmaxnreg: registers of the block at launch */
	int launch_regs;
} cluster;

/* Every lane set in mask, lowest first, as l (an int64_t). A plain for
 * statement: it needs no closing macro, and break leaves it. */
#define for_each_lane(l, mask)                                                         \
	for (int64_t lanes_##l = (int64_t)(uint32_t)(mask), l;                         \
	     lanes_##l && ((l = __builtin_ctzll((unsigned long long)lanes_##l)), 1); \
	     lanes_##l &= lanes_##l - 1)

/* ---- one instruction ---- */

/* What an instruction leaves the warp to do. STEP_NEXT: the lanes that ran
 * go on to x->next; STEP_HOLD: they stay where the instruction put them (a
 * barrier, a diverging branch); STEP_DONE: the warp has exited; STEP_FAIL:
 * emu_fail() said why. The memory functions' 0 and -1 are STEP_NEXT and STEP_FAIL. */
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

/* d = a OP b, each path written once: f16, bf16 and their pairs half by
 * half (half2), f32 in float, f64 with its rounding (f64_arith, the
 * rounding in type2), integers wrapped to the type. */
#define ARITH(x, OP)                                                                          \
	do {                                                                                  \
		if (is_half((x)->t))                                                          \
			LANEWISE(x, half2((x)->o->code, t, a, b, c));                         \
		else if ((x)->t == ET_F32)                                                    \
			LANEWISE(x, FB(F(a) OP F(b)));                                        \
		else if ((x)->t == ET_F64)                                                    \
			LANEWISE(x, putf(f64_arith((x)->o->code, getf(a, t), getf(b, t), (x)->o->type2), t)); \
		else                                                                          \
			LANEWISE(x, (a OP b) & wm);                                           \
	} while (0)

/* f16, bf16, f16x2, bf16x2: the types half2 computes. */
static inline int is_half(int t)
{
	return t == ET_F16 || t == ET_BF16 || t == ET_F16X2 || t == ET_BF16X2;
}

/* ---- the families' entry points ---- */

/* Fails the block: the op's line (the entry's for NULL), the block, the
 * warp running and the message into its run_error (b->e; emu_run adds the
 * CUDA line), why EMU_ERR_FAULT unless set before; -1 (STEP_FAIL). Only the
 * first failure counts. The one way any instruction reports a problem. */
int emu_fail(blockctx *b, const emu_op *o, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Charges cost warp instructions of work to the budget and, every
 * EMU_CHECK_EVERY of them, reads the clock and the cancel flag
 * (emu_checkpoint). 0, or -1 after emu_fail (EMU_ERR_BUDGET, _DEADLINE,
 * _CANCELLED). An instruction whose work grows with its size is charged by
 * it: a wgmma by N*K/32, a TMA copy by its bytes. */
int emu_charge(blockctx *b, const emu_op *o, long long cost);
/* The wall-clock deadline and the cancel flag, now: 0, or -1 after emu_fail. */
int emu_checkpoint(blockctx *b, const emu_op *o);

/* Arithmetic, bits, moves, conversions, comparisons (emu_exec_alu.c): d on the lanes x->em. */
void emu_exec_mad(const inst *x);
void emu_exec_mul(const inst *x);
void emu_exec_fma(const inst *x);
void emu_exec_div(const inst *x);
void emu_exec_min_max(const inst *x);
void emu_exec_neg(const inst *x);
void emu_exec_abs(const inst *x);
void emu_exec_not(const inst *x);
void emu_exec_math(const inst *x);   /* rcp sqrt rsqrt ex2 lg2 */
void emu_exec_dp(const inst *x);     /* dp4a, dp2a */
void emu_exec_pack(const inst *x);
void emu_exec_unpack(const inst *x);
void emu_exec_cvt(const inst *x);
void emu_exec_cvta(const inst *x);
void emu_exec_setp(const inst *x);

/* Memory (emu_exec_mem.c): 0 (STEP_NEXT) or -1 after emu_fail. */
int emu_exec_ldst(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt);
int emu_exec_ldmatrix(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt);
int emu_exec_stmatrix(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt);
int emu_exec_cpasync(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt);
void emu_cp_commit(warp *w);
int emu_cp_wait(blockctx *b, warp *w, const emu_op *o);
/* Lands the warp's cp.async copies of groups up to upto_group. */
int emu_cp_complete(blockctx *b, warp *w, long long upto_group);

/* A global virtual address's n bytes on the host: in a buffer of the launch or
 * a module-level variable; NULL when outside them (bounds in 64 bits that cannot wrap). */
static inline uint8_t *emu_global_ptr(const emu_launch *L, uint64_t a, uint64_t n)
{
	uint64_t i = (a >> EMU_GLOBAL_SHIFT) - 1, off = a & ((1ULL << EMU_GLOBAL_SHIFT) - 1);
	const emu_buffer *buf;
	if (i < (uint64_t)L->nbufs)
		buf = &L->bufs[i];
	else if (a >> EMU_GLOBAL_SHIFT == EMU_GLOBALS_WINDOW >> EMU_GLOBAL_SHIFT && off >> EMU_GLOBAL_VAR_SHIFT < EMU_MAX_GVARS) {
		buf = &L->gvar[off >> EMU_GLOBAL_VAR_SHIFT];
		off &= (1ULL << EMU_GLOBAL_VAR_SHIFT) - 1;
	} else
		return NULL;
	return off <= buf->bytes && n <= buf->bytes - off ? buf->host + off : NULL;
}

/* Local memory and the calls that read it (emu_exec_local.c). emu_local_ptr:
 * a lane's local address (local space, or generic in EMU_LOCAL_WINDOW) as
 * its bytes, bounds-checked; NULL after emu_fail. emu_count_local: a
 * warp's local access into cnt (requests, sectors, bytes). */
static inline int emu_is_local(int space, uint64_t a)
{
	return space == SP_LOCAL || (space == SP_GENERIC && (a >> EMU_GLOBAL_SHIFT) == (EMU_LOCAL_WINDOW >> EMU_GLOBAL_SHIFT));
}
uint8_t *emu_local_ptr(blockctx *b, warp *w, const emu_op *o, int lane, uint64_t a, int bytes);
void emu_count_local(emu_opcount *cnt, const int64_t off[32], uint32_t mask, int bytes);
int emu_exec_printf(blockctx *b, warp *w, const emu_op *o, uint32_t em);
/* __assertfail(msg, file, line, func, charsize) of the first lane of em: the run fails with their text. */
int emu_exec_assert(blockctx *b, warp *w, const emu_op *o, uint32_t em);

/* Warp-wide (emu_exec_warp.c). emu_exec_wgmma runs a wgmma instruction
 * (hazard: 0) or the hazard check before another instruction (hazard: 1)
 * of a kernel that has wgmma. */
int emu_exec_mma(blockctx *b, warp *w, const emu_op *o, uint32_t em);
void emu_exec_shfl(blockctx *b, warp *w, const emu_op *o, uint32_t em);
int emu_exec_wgmma(blockctx *b, warp *w, const inst *x, int hazard);
/* issue 39: wmma.load, wmma.store, wmma.mma (emu_wmma.c); 0 (STEP_NEXT) or -1 after emu_fail. */
int emu_exec_wmma(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt);
/* issue 39: one access of a wmma.load/store for all 32 lanes: lane l's bytes (1..8) at addr[l] in space
 * (generic, global, shared), into or out of val[l], low byte first; bounds, alignment, the race shadow and
 * the counts of one ld/st request (emu_exec_mem.c). 0, or -1 after emu_fail. */
int emu_exec_access(blockctx *b, warp *w, const emu_op *o, int space, int store, const uint64_t addr[32], int bytes,
		    uint64_t val[32], emu_opcount *cnt);

/* The race detector's set-up and warp masks (emu_race.c; its checks and
 * reports are emu_race.h's, for the memory families). The shadows of a CTA:
 * allocated with it (cluster: the CTAs of a cluster of more than one),
 * cleared when a cluster starts, freed with it; the launch's global shadow,
 * made before the first block and freed after the last (NULL: checks off).
 * emu_race_member_mask: a warp-level .sync instruction run by the lanes em of
 * warp w with member mask m: each lane that runs it must be named, each live
 * lane named must run it. */
void emu_race_alloc(blockctx *b, int cluster);
void emu_race_reset(blockctx *b);
void emu_race_free(blockctx *b);
struct emu_gshadow *emu_race_gshadow_new(const emu_launch *L);
void emu_race_gshadow_free(struct emu_gshadow *g);
void emu_race_member_mask(blockctx *b, const warp *w, const emu_op *o, uint32_t em, uint32_t m, const char *what);
/* TMA loads' window (emu_race.c): a warp's wait found mbarrier mi of its CTA
 * complete (it has observed its phases so far); a barrier shares what its
 * warps observed (id: the named barrier, -1: every warp, barrier.cluster);
 * a TMA copy landed bytes off.. of t that complete mbarrier mi's phase. */
void emu_race_observed(blockctx *t, warp *w, int mi);
void emu_race_barrier_join(blockctx *b, int id);
void emu_race_tma_landed(blockctx *t, const emu_op *o, int issuer, int mi, uint32_t off, uint32_t bytes);
/* issue 39: atomics, votes and reductions of the warp, bfind, copysign, the emulated clock (emu_exec_atom.c). */
int emu_exec_atom(blockctx *b, warp *w, const inst *x);
void emu_exec_warpop(const inst *x);
void emu_exec_bfind(const inst *x);
void emu_exec_copysign(const inst *x);
void emu_exec_clock(blockctx *b, const inst *x);
/* The bytes of an atomic: lane l's address addr[l] (global, shared or generic) checked as
 * ld/st check theirs, its bytes into p[l] and global[l] set for global memory; one request
 * counted, as a store's (emu_exec_mem.c). Atomics do not race with each other: this is the
 * one place an atomic touches memory. 0, or -1 after emu_fail. */
int emu_atom_access(blockctx *b, warp *w, const emu_op *o, const uint64_t addr[32], uint32_t mask, int bytes,
		    uint8_t *p[32], int global[32], emu_opcount *cnt);

/* issue 39: call and ret of a module's .func (emu_exec_call.c): STEP_* like an instruction.
 * emu_call_depth: the calls lane is inside (0: none), which the scheduler runs first. */
int emu_exec_call(blockctx *b, warp *w, inst *x);
int emu_exec_ret(blockctx *b, warp *w, inst *x);
int emu_call_depth(const warp *w, int lane);
void emu_calls_reset(warp *w);
void emu_calls_free(warp *w);

/* Hopper's asynchronous machinery (emu_exec_async.c). */
blockctx *emu_cluster_addr(blockctx *b, const emu_op *o, uint64_t a, int bytes, int cluster_ok, uint32_t *off);
emu_mbar *emu_find_mbar(blockctx *t, uint32_t off);
int emu_pending_read(blockctx *b, const emu_op *o, uint32_t off, int bytes);
int emu_exec_mbar(blockctx *b, warp *w, inst *x);
int emu_exec_bulk(blockctx *b, warp *w, inst *x);
/* The copy engine: every TMA copy in flight lands; 0, or -1 after emu_fail. */
int emu_land(cluster *cl);
#endif
