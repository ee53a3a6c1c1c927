/* emu_exec: run a decoded kernel over a grid, a warp at a time over 32 lanes with a mask: the dispatch, control flow, barriers, clusters. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_exec.h"
#include "emu/emu_trace.h"
#include "base/checked.h"
#include "base/util.h"
#include "model/access.h"

/* ---- one instruction: its operands and the lanes that run it ---- */

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
	(1ULL << OP_LD | 1ULL << OP_UNPACK | 1ULL << OP_LDMATRIX | 1ULL << OP_MMA | 1ULL << OP_SETP | 1ULL << OP_SHFL | \
	 1ULL << OP_ATOM | 1ULL << OP_CALL)
_Static_assert(OP_CALL < 64, "MORE_OUTPUTS is a 64-bit set of opcodes, those below 64");

static inline int discarded(const inst *x)
{
	return !x->d && x->o->ndst && !(x->o->code < 64 && ((MORE_OUTPUTS >> x->o->code) & 1));
}

int emu_fail(blockctx *b, const emu_op *o, const char *fmt, ...)
{
	if (b->failed)
		return -1;
	b->failed = 1;
	if (!b->why)
		b->why = EMU_ERR_FAULT;
	run_error *e = b->e;
	memset(e, 0, sizeof *e);
	util_strlcpy(e->path, b->L->path, sizeof e->path);
	e->line = o ? o->line : b->k->line;
	e->has_block = 1;
	memcpy(e->block, b->ctaid, sizeof e->block);
	e->warp = b->cur_warp;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- clusters: barrier.cluster, mapa, elect, setmaxnreg, bar.arrive ---- */

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
	for (int r = 0; r < cl->n; r++) {
		cl->cta[r].epoch++;
		emu_race_barrier_join(&cl->cta[r], -1);
	}
}

/* setmaxnreg (9.7.19.6): the warp's registers a thread change; an increase
 * waits until the block's pool has them. */
static int setmaxnreg(blockctx *b, warp *w, const emu_op *o)
{
	int n = (int)o->imm;
	if ((o->flags & OPF_INC) ? n < w->nreg : n > w->nreg)
		return emu_fail(b, o, "setmaxnreg.%s %d: the warp holds %d registers a thread", (o->flags & OPF_INC) ? "inc" : "dec",
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
				return emu_fail(b, o, "mapa to CTA rank %llu of a cluster of %d", (unsigned long long)r, cl->n);
			if (o->dst[0] >= 0)
				R[o->dst[0] * 32 + l] = (a & ((1u << EMU_CLUSTER_SHIFT) - 1)) + ((r + 1) << EMU_CLUSTER_SHIFT);
		}
		return STEP_NEXT;
	case CL_ARRIVE:
		if (w->cb_arrived)
			return emu_fail(b, o, "barrier.cluster.arrive twice with no barrier.cluster.wait between");
		w->cb_arrived = 1;
		w->cb_phase = cl->cb_phase;
		cl->cb_count += popc(x->em);
		cl->gen++;
		cluster_barrier_check(cl);
		return STEP_NEXT;
	case CL_WAIT:
		if (!w->cb_arrived)
			return emu_fail(b, o, "barrier.cluster.wait with no barrier.cluster.arrive before it");
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
			return emu_fail(b, o, "bar.arrive %u, %u: barrier 0..15 and a count that is a multiple of 32", id, want);
		b->bar_arrived[id] += 32;
		b->bar_want[id] = want;
		cl->gen++;
		bar_release_check(b);
		return STEP_NEXT;
	}
	}
}

/* ---- control flow and barriers ---- */

/* issue 39: the lanes of mask as ranges, "0-7,16-23". */
static void lanes_text(uint32_t mask, char *out, size_t n)
{
	size_t k = 0;
	out[0] = 0;
	for (int l = 0; l < 32 && k < n; l++) {
		if (!(mask >> l & 1) || (l && mask >> (l - 1) & 1))
			continue;
		int e = l;
		while (e < 31 && mask >> (e + 1) & 1)
			e++;
		k += (size_t)snprintf(out + k, n - k, e > l ? "%s%d-%d" : "%s%d", k ? "," : "", l, e);
	}
}

/* issue 39: lanes of one warp at two different bar.sync (undefined for the
 * .aligned barrier __syncthreads is: a hang or wrong results on a GPU) are
 * an error, not one arrival. */
static int divergent_barrier(blockctx *b, warp *w, const inst *x, int other)
{
	char here[100], there[100];
	lanes_text(x->mask, here, sizeof here);
	lanes_text(w->waiting, there, sizeof there);
	int first = !b->failed;
	emu_fail(b, x->o, "bar.sync: barrier reached by lanes %s of warp %d while lanes %s are at the bar.sync of PTX line %d: "
		 "divergent barrier", here, w->id, there, b->ops[other].line);
	if (first)
		b->e->line2 = b->ops[other].line;
	return STEP_FAIL;
}

/* bar.sync a[, b] (9.7.13.1): the lanes wait at barrier a until b threads
 * (default: every thread of the block) have arrived, a warp counting 32. */
static int barrier(blockctx *b, warp *w, const inst *x)
{
	const emu_op *o = x->o;
	if (w->waiting && w->diverged && w->lpc[__builtin_ctz(w->waiting)] != x->pc)
		return divergent_barrier(b, w, x, w->lpc[__builtin_ctz(w->waiting)]);
	unsigned id = (unsigned)x->R[o->src[0] * 32 + __builtin_ctz(x->mask)];
	if (id > 15)
		return emu_fail(b, o, "bar.sync %u: barriers are 0..15", id);
	if (o->nsrc > 1) {
		unsigned want = (unsigned)x->R[o->src[1] * 32 + __builtin_ctz(x->mask)];
		if (!want || want % 32 || want > (b->nthreads + 31) / 32 * 32)
			return emu_fail(b, o, "bar.sync %u, %u: the count must be a multiple of 32, at most the block's threads", id, want);
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
		return emu_cp_complete(b, w, INT_MAX) < 0 ? STEP_FAIL : STEP_DONE;
	x->mask &= ~x->em;
	return STEP_NEXT;
}

static int trap(blockctx *b, warp *w, const inst *x)
{
	if (x->o->mod == TRAP_ASSERT)
		return emu_exec_assert(b, w, x->o, x->em);
	return emu_fail(b, x->o, "the kernel executed trap");
}

/* ---- the dispatch ---- */

/* Runs one instruction on the lanes x->em (those at its pc, x->mask, that its
 * guard lets run). A case a line: the work is in the families' files
 * (emu_exec_alu.c, emu_exec_mem.c, emu_exec_warp.c, emu_exec_async.c) or
 * above, each instruction class written once. */
static int exec_op(blockctx *blk, warp *w, inst *x)
{
	const emu_op *o = x->o;
	switch ((emu_opcode)o->code) {
	/* moves and conversions */
	case OP_MOV: LANEWISE(x, a); break;
	case OP_PACK: emu_exec_pack(x); break;
	case OP_UNPACK: emu_exec_unpack(x); break;
	case OP_SELP: LANEWISE(x, (c & 1) ? a : b); break;
	case OP_CVT: emu_exec_cvt(x); break;
	case OP_CVTA: emu_exec_cvta(x); break;
	/* arithmetic */
	case OP_ADD: ARITH(x, +); break;
	case OP_SUB: ARITH(x, -); break;
	case OP_MUL: emu_exec_mul(x); break;
	case OP_MAD: emu_exec_mad(x); break;
	case OP_FMA: emu_exec_fma(x); break;
	case OP_DIV: emu_exec_div(x); break;
	case OP_REM: LANEWISE(x, rem_int(a, b, tb, sgn, wm)); break;
	case OP_MIN: case OP_MAX: emu_exec_min_max(x); break;
	case OP_NEG: emu_exec_neg(x); break;
	case OP_ABS: emu_exec_abs(x); break;
	case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: emu_exec_math(x); break;
	case OP_DP: emu_exec_dp(x); break; /* issue 39 */
	/* bits */
	case OP_AND: LANEWISE(x, a & b & wm); break;
	case OP_OR: LANEWISE(x, (a | b) & wm); break;
	case OP_XOR: LANEWISE(x, (a ^ b) & wm); break;
	case OP_NOT: emu_exec_not(x); break;
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
	case OP_SETP: emu_exec_setp(x); break;
	/* memory */
	case OP_LD: case OP_ST: return emu_exec_ldst(blk, w, o, x->em, x->cnt);
	case OP_CPASYNC: return emu_exec_cpasync(blk, w, o, x->em, x->cnt);
	case OP_CPCOMMIT: if (x->em) emu_cp_commit(w); break;
	case OP_CPWAIT: return x->em ? emu_cp_wait(blk, w, o) : STEP_NEXT;
	case OP_LDMATRIX: return emu_exec_ldmatrix(blk, w, o, x->em, x->cnt);
	/* warp-level */
	case OP_MMA: return emu_exec_mma(blk, w, o, x->em);
	case OP_SHFL: emu_exec_shfl(blk, w, o, x->em); break;
	case OP_WGMMA: case OP_WGFENCE: case OP_WGCOMMIT: case OP_WGWAIT: return emu_exec_wgmma(blk, w, x, 0);
	/* control flow and barriers */
	case OP_BAR: return barrier(blk, w, x);
	case OP_BRA: return branch(w, x);
	case OP_EXIT: return exit_lanes(blk, w, x);
	case OP_TRAP: return x->em ? trap(blk, w, x) : STEP_NEXT;
	case OP_PRINTF: return emu_exec_printf(blk, w, o, x->em);
	case OP_NOP: /* bar.warp.sync has its member mask */
		if (o->nsrc && x->em)
			emu_race_member_mask(blk, w, o, x->em, (uint32_t)x->s0[__builtin_ctz(x->em)], "bar.warp.sync");
		break;
	/* Hopper */
	case OP_MBAR: return emu_exec_mbar(blk, w, x);
	case OP_BULK: return emu_exec_bulk(blk, w, x);
	case OP_CLUSTER: return exec_cluster(blk, w, x);
	case OP_STMATRIX: return emu_exec_stmatrix(blk, w, x->o, x->em, x->cnt);
	case OP_WMMA: return emu_exec_wmma(blk, w, o, x->em, x->cnt); /* issue 39 */
	/* issue 39: atomics, calls, warp votes and reductions (emu_exec_atom.c, emu_exec_call.c) */
	case OP_ATOM: return emu_exec_atom(blk, w, x);
	case OP_CALL: return emu_exec_call(blk, w, x);
	case OP_RET: return emu_exec_ret(blk, w, x);
	case OP_WARP: /* vote.sync and redux.sync have their member mask, activemask none */
		if (o->mod != WV_ACTIVEMASK && x->em)
			emu_race_member_mask(blk, w, o, x->em, (uint32_t)x->s1[__builtin_ctz(x->em)],
					     o->mod <= WV_UNI ? "vote.sync" : "redux.sync");
		emu_exec_warpop(x);
		break;
	case OP_BFIND: emu_exec_bfind(x); break;
	case OP_COPYSIGN: emu_exec_copysign(x); break;
	case OP_CLOCK: emu_exec_clock(blk, x); break;
	default:
		blk->why = EMU_ERR_UNSUPPORTED;
		return emu_fail(blk, o, "internal: op %d not implemented", o->code);
	}
	return STEP_NEXT;
}

/* ---- the warp ---- */

/* Work between two looks at the clock: a warp instruction costs 0.1 to a
 * few microseconds, so the deadline and Ctrl-C are seen within milliseconds;
 * a clock read (the vDSO's, ~25 ns) every 1024 of them costs nothing. */
#define EMU_CHECK_EVERY 1024

int emu_checkpoint(blockctx *b, const emu_op *o)
{
	const emu_launch *L = b->L;
	if (L->cancel && *L->cancel) {
		b->why = EMU_ERR_CANCELLED;
		return emu_fail(b, o, "cancelled");
	}
	if (L->deadline <= 0 || util_now() < L->deadline)
		return 0;
	b->why = EMU_ERR_DEADLINE;
	return emu_fail(b, o, "stopped at the wall-clock deadline");
}

int emu_charge(blockctx *b, const emu_op *o, long long cost)
{
	cluster *cl = b->cl;
	cl->budget -= cost;
	if (cl->budget < 0) {
		b->why = EMU_ERR_BUDGET;
		return emu_fail(b, o, "stopped after %lld warp instructions (an endless loop?)", b->L->max_warp_inst);
	}
	cl->tick -= cost;
	if (cl->tick > 0)
		return 0;
	cl->tick = EMU_CHECK_EVERY;
	return emu_checkpoint(b, o);
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
	int lo = INT_MAX, deep = 0; /* issue 39: lanes deeper in calls first, so a call's lanes return together */
	uint32_t mask = 0;
	for_each_lane(l, ready) {
		int d = w->calls ? emu_call_depth(w, (int)l) : 0;
		if (d > deep || (d == deep && w->lpc[l] < lo)) {
			deep = d;
			lo = w->lpc[l];
			mask = 0;
		}
		if (d == deep && w->lpc[l] == lo)
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
		if (b->L->tracer)
			emu_trace_issue(b->L->tracer, b->L->blocks_done + b->rank, w->id, x.pc, w->R, x.mask);
		if (x.cnt->rec)
			emu_record_arm(x.cnt->rec, b->ctaid, w->id);
		if (emu_charge(b, x.o, 1) < 0)
			return -1;
		x.em = guard(x.o, w->R, x.mask);
		x.cnt->threads += (uint64_t)popc(x.em);
		x.next = x.pc + 1;
		operands(&x, w->R);
		if (b->wg && emu_exec_wgmma(b, w, &x, 1) < 0)
			return -1;
		int step = discarded(&x) ? STEP_NEXT : exec_op(b, w, &x);
		if (step == STEP_FAIL)
			return -1;
		if (step == STEP_BLOCK) { /* not issued yet: it runs again on the warp's next turn */
			x.cnt->issued--;
			x.cnt->threads -= (uint64_t)popc(x.em);
			b->cl->budget++;
			if (b->L->tracer)
				emu_trace_unissue(b->L->tracer, b->L->blocks_done + b->rank, w->id);
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
	emu_race_barrier_join(b, id);
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
	emu_calls_reset(w);
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

/* A deadlock at bar.sync: how many threads reached it, and where the first
 * live one that did not waits; on a GPU the block hangs there. */
static int bar_hang(blockctx *b, const warp *w, const emu_op *o)
{
	unsigned n = 0, live = 0;
	int other = -1, line = 0;
	for (int i = 0; i < b->nwarps; i++) {
		const warp *v = &b->warps[i];
		live += (unsigned)popc(v->live);
		uint32_t at = v->bar_id == w->bar_id ? v->waiting : 0;
		n += (unsigned)popc(at);
		if (other < 0 && (v->live & ~at)) {
			int l = __builtin_ctz(v->live & ~at);
			other = i;
			line = b->ops[v->diverged ? v->lpc[l] : v->pc].line;
		}
	}
	unsigned want = b->bar_want[w->bar_id] ? b->bar_want[w->bar_id] : live;
	if (other < 0)
		return emu_fail(b, o, "bar.sync %d at line %d: barrier reached by %u of %u threads: on a GPU this hangs (the count names "
			    "more threads than arrive)", w->bar_id, o->line, n, want);
	return emu_fail(b, o, "bar.sync %d at line %d: barrier reached by %u of %u threads: on a GPU this hangs (warp %d waits at "
		    "line %d instead): every thread of the block must reach the same barriers", w->bar_id, o->line, n, want,
		    other, line);
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
				return bar_hang(b, w, o);
			if (o->code == OP_MBAR) {
				blockctx *t = &cl->cta[w->wait_rank];
				emu_mbar *m = emu_find_mbar(t, w->wait_off);
				long long tx = m ? (long long)m->tx : 0;
				char txs[96];
				snprintf(txs, sizeof txs, tx > 0 ? "%lld bytes expected that no copy brings"
						      : tx < 0 ? "%lld bytes more completed than expect_tx announced"
							       : "no transaction bytes pending%.0lld", tx > 0 ? tx : -tx);
				return emu_fail(b, o, "deadlock: every warp waits and no copy is in flight; warp %d waits on the mbarrier "
					    "at smem+0x%x (block rank %d, initialised at line %d) for the phase of parity %u, which no "
					    "copy or arrival will complete (it is in phase %u, %d of its %d arrivals pending, %s)", i,
					    w->wait_off, w->wait_rank, m ? m->line : 0, w->wait_parity & 1, m ? m->phase : 0,
					    m ? m->pending : 0, m ? m->expected : 0, txs);
			}
			if (o->code == OP_CLUSTER && o->mod == CL_SETMAXNREG)
				return emu_fail(b, o, "deadlock: setmaxnreg.inc %lld waits for registers the block's pool of %lld "
					    "(%d a thread at launch) never frees: the warps ask for more than it holds",
					    (long long)o->imm, cl->pool, cl->launch_regs);
			if (o->code == OP_CLUSTER)
				return emu_fail(b, o, "deadlock: warp %d waits at barrier.cluster.wait for threads of the cluster that "
					    "never arrive", i);
			return emu_fail(b, o, "deadlock: every warp waits and none can go on (warp %d)", i);
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
				b->cur_warp = i;
				int bad = run_warp(b, w);
				b->cur_warp = -1;
				if (bad < 0)
					return -1;
				bar_arrive(b, w);
				bar_release_check(b);
			}
		}
		if (emu_land(cl) < 0)
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
static int progress_stop(emu_launch *L, const cluster *cl, double t0, run_error *e)
{
	long long blocks = (long long)L->grid[0] * L->grid[1] * L->grid[2];
	emu_progress p = {.blocks_done = L->blocks_done, .blocks = blocks,
			  .inst = (unsigned long long)(L->max_warp_inst - cl->budget), .seconds = util_now() - t0};
	if (!L->progress(L->progress_ctx, &p))
		return 0;
	run_error_msg(e, "%s: stopped after %lld of %lld blocks, %llu warp instructions", L->path,
		 p.blocks_done, blocks, p.inst);
	return 1;
}

/* The launch shape, the shared memory and the resident CTAs' memory it asks
 * for, against the limits in emu.h, in 64 bits (or doubles) so no product
 * wraps (641 x 6700417 threads is not 1). */
static emu_error check_launch(const emu_launch *L, uint64_t *smem, run_error *e)
{
	uint64_t threads = (uint64_t)L->block[0] * L->block[1] * L->block[2];
	if (threads == 0 || threads > EMU_MAX_THREADS || !L->grid[0] || !L->grid[1] || !L->grid[2] ||
	    L->grid[0] > 0x7fffffffu || L->grid[1] > EMU_MAX_GRID_YZ || L->grid[2] > EMU_MAX_GRID_YZ) {
		run_error_msg(e,
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
			run_error_msg(e, "%s: bad cluster %ux%ux%u for the grid %ux%ux%u (at most %d blocks, "
				 "dividing the grid)", L->path, L->cluster[0], L->cluster[1], L->cluster[2], L->grid[0],
				 L->grid[1], L->grid[2], EMU_MAX_CLUSTER);
			return EMU_ERR_BAD_REQUEST;
		}
	}
	uint64_t st = (uint64_t)L->k->smem_static;
	*smem = L->smem_dynamic ? (st + 127) / 128 * 128 + L->smem_dynamic : st;
	if (*smem > EMU_MAX_SMEM) {
		run_error_msg(e, "%s: %llu bytes of shared memory (%llu static + %u dynamic) is more than the "
			 "emulator's %d a block", L->path, (unsigned long long)*smem, (unsigned long long)st,
			 L->smem_dynamic, EMU_MAX_SMEM);
		return EMU_ERR_BAD_REQUEST;
	}
	if (L->k->nregs > EMU_MAX_REGS) { /* the parser refuses these; a hand-made kernel may not */
		run_error_msg(e, "%s: %d registers is more than the emulator's %d", L->path, L->k->nregs,
			 EMU_MAX_REGS);
		return EMU_ERR_BAD_REQUEST;
	}
	/* what cta_alloc takes for each CTA of a cluster, all resident together:
	 * 8 bytes a register a lane, the shared memory and its race shadow (at
	 * most 40 bytes a word, emu_race.c); refused before any of it is allocated */
	double regs = (double)((threads + 31) / 32 * 32) * L->k->nregs * 8;
	double local = (double)((threads + 31) / 32 * 32) * L->k->local_bytes;
	double cta = regs + local + (double)*smem + (double)(*smem / 4 + 4) * 40;
	if (cta * (double)n > EMU_MAX_RESIDENT) {
		char lb[64] = ""; /* said only where there is some: the message has 256 bytes in a result */
		if (L->k->local_bytes)
			snprintf(lb, sizeof lb, ", %d bytes of local memory a thread", L->k->local_bytes);
		run_error_msg(e, "%s: the %llu CTAs of a cluster, resident together, need %.0f MiB (each %d "
			 "registers x %llu threads, 8 bytes each%s, and %llu bytes of shared memory), more than the "
			 "emulator's limit of %.0f MiB", L->path, n, cta * (double)n / (1 << 20), L->k->nregs,
			 (unsigned long long)threads, lb, (unsigned long long)*smem, EMU_MAX_RESIDENT / (1 << 20));
		return EMU_ERR_BAD_REQUEST;
	}
	return EMU_OK;
}

/* One CTA's state: shared memory, its shadows, warps and registers. */
static void cta_alloc(blockctx *b, emu_launch *L, cluster *cl, int rank, uint32_t smem, run_error *e)
{
	const emu_kernel *k = L->k;
	*b = (blockctx){.L = L, .k = k, .ops = k->ops, .e = e, .cur_warp = -1, .cl = cl, .rank = rank};
	b->nthreads = L->block[0] * L->block[1] * L->block[2];
	b->nwarps = (int)((b->nthreads + 31) / 32);
	b->smem_size = smem;
	b->smem = xmalloc((size_t)b->smem_size + 16);
	emu_race_alloc(b, cl->n > 1);
	b->mbar = xcalloc(EMU_MAX_MBARRIERS, sizeof *b->mbar);
	b->warps = xcalloc((size_t)b->nwarps, sizeof *b->warps);
	uint64_t *regs = xcalloc((size_t)b->nwarps * (size_t)k->nregs * 32 + 1, sizeof(uint64_t));
	size_t lw = (size_t)k->local_bytes * 32; /* a warp's local memory */
	uint8_t *local = xmalloc((size_t)b->nwarps * lw + 1);
	for (int i = 0; i < b->nwarps; i++) {
		b->warps[i].R = regs + (size_t)i * (size_t)k->nregs * 32;
		b->warps[i].local = local + (size_t)i * lw;
	}
	/* a block's set-up writes every register of every warp and the shared
	 * memory: charged as one warp instruction per 256 bytes of it, at least
	 * one per warp, so a huge grid of an empty kernel ends too */
	b->setup_cost = b->nwarps + ((long long)b->nwarps * k->nregs * 32 * 8 + (long long)b->nwarps * (long long)lw +
				     (long long)b->smem_size * 4) / 256;
	b->wg = k->nwgmma ? emu_wg_block_new(k, b->nwarps, b->smem_size) : NULL;
}

static void cta_free(blockctx *b)
{
	for (int i = 0; i < b->nwarps; i++) {
		free(b->warps[i].cp);
		free(b->warps[i].seen);
		emu_calls_free(&b->warps[i]);
	}
	if (b->warps) {
		free(b->warps[0].R);
		free(b->warps[0].local);
	}
	free(b->warps);
	free(b->smem);
	emu_race_free(b);
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
			return emu_fail(b, NULL, "stopped after %lld warp instructions, block set-up counted (a grid too large?)",
				    b->L->max_warp_inst);
		}
		if (emu_checkpoint(b, NULL))
			return -1;
		/* shared memory starts as NaNs so reading what nobody wrote shows */
		memset(b->smem, 0xff, b->smem_size);
		if (b->nwarps && b->k->local_bytes) /* local memory too: each block's threads start with none of the last's */
			memset(b->warps[0].local, 0xff, (size_t)b->nwarps * (size_t)b->k->local_bytes * 32);
		emu_race_reset(b);
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
			return emu_fail(&cl->cta[r], NULL, "%s", m);
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

/* This launch's memory of the module-level variables: zeroes, the
 * initialiser in front (calloc: pages no kernel touches cost nothing). */
static void gvars_alloc(emu_launch *L)
{
	for (int i = 0; L->mod && i < L->mod->ngvars; i++) {
		const emu_gvar *g = &L->mod->gvars[i];
		L->gvar[i].bytes = g->bytes;
		L->gvar[i].host = xcalloc(1, g->bytes + 1); /* + 1: a string read past its end finds a 0 */
		if (g->data)
			memcpy(L->gvar[i].host, g->data, (size_t)g->size);
	}
}

static void gvars_free(emu_launch *L)
{
	for (int i = 0; i < EMU_MAX_GVARS; i++) {
		free(L->gvar[i].host);
		L->gvar[i] = (emu_buffer){0};
	}
}

emu_error emu_exec_at(emu_launch *L, run_error *e)
{
	const emu_kernel *k = L->k;
	uint64_t smem;
	emu_error bad = check_launch(L, &smem, e);
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
	gvars_alloc(L);
	struct emu_gshadow *gs = emu_race_gshadow_new(L);
	for (int r = 0; r < cl.n; r++) {
		cta_alloc(&cl.cta[r], L, &cl, r, (uint32_t)smem, e);
		cl.cta[r].gs = gs;
	}
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
				if (L->progress && progress_stop(L, &cl, t0, e)) {
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
	emu_race_gshadow_free(gs);
	gvars_free(L);
	return why;
}


emu_error emu_exec(emu_launch *L, char *err, int errlen)
{
	run_error e;
	emu_error why = emu_exec_at(L, &e);
	if (errlen > 0) {
		err[0] = 0;
		if (why != EMU_OK)
			run_error_text(&e, err, (size_t)errlen);
	}
	return why;
}
