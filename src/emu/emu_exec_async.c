/* emu_exec_async: Hopper's asynchronous machinery: shared::cluster addresses, mbarriers, TMA copies and the copy engine that lands them. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_exec.h"
#include "emu/emu_race.h"
#include "base/checked.h"
#include "base/util.h"
#include "model/access.h"

/* A shared::cta or shared::cluster address (PTX ISA 5.1.4-5.1.5): the CTA
 * it lies in and the offset there, checked; NULL after emu_fail(). */
blockctx *emu_cluster_addr(blockctx *b, const emu_op *o, uint64_t a, int bytes, int cluster_ok, uint32_t *off)
{
	if ((a >> EMU_GLOBAL_SHIFT) == (EMU_SHARED_WINDOW >> EMU_GLOBAL_SHIFT))
		a -= EMU_SHARED_WINDOW;
	uint64_t r = a >> EMU_CLUSTER_SHIFT;
	blockctx *t = b;
	if (r) {
		if (r - 1 >= (uint64_t)b->cl->n) {
			emu_fail(b, o, "shared::cluster address 0x%llx names CTA rank %llu; the cluster has %d",
			     (unsigned long long)a, (unsigned long long)(r - 1), b->cl->n);
			return NULL;
		}
		t = &b->cl->cta[r - 1];
		if (!cluster_ok && t != b) {
			emu_fail(b, o, "shared::cta address 0x%llx lies in CTA rank %llu, not this one (%d): use .shared::cluster",
			     (unsigned long long)a, (unsigned long long)(r - 1), b->rank);
			return NULL;
		}
	}
	a &= (1u << EMU_CLUSTER_SHIFT) - 1;
	if (a & (uint64_t)(bytes - 1)) {
		emu_fail(b, o, "misaligned %d-byte shared access at offset %llu", bytes, (unsigned long long)a);
		return NULL;
	}
	if (!ck_within(a, (uint64_t)bytes, t->smem_size)) {
		emu_fail(b, o, "out-of-bounds shared access of %d bytes at offset %llu (block has %u bytes)", bytes,
		     (unsigned long long)a, t->smem_size);
		return NULL;
	}
	*off = (uint32_t)a;
	return t;
}

emu_mbar *emu_find_mbar(blockctx *t, uint32_t off)
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
 * read before its mbarrier phase completed. A fault, not a counted race: the
 * reads that follow would run out of step with the copies (a deadlock next),
 * so the run stops at the first. */
int emu_pending_read(blockctx *b, const emu_op *o, uint32_t off, int bytes)
{
	cluster *cl = b->cl;
	for (int i = 0; i < cl->nq; i++) {
		const bulkreq *q = &cl->q[i];
		if (q->store || !(q->mask >> b->rank & 1) || off >= q->soff + q->bytes || off + (uint32_t)bytes <= q->soff)
			continue;
		return emu_fail(b, o, "%s: reads shared bytes %u..%u before the TMA copy issued at "
			    "line %d has written them: wait on its mbarrier (smem+0x%x) for the phase it completes first",
			    emu_race_words(RACE_ASYNC), off,
			    off + bytes - 1, b->ops[q->op].line, q->mbar);
	}
	return 0;
}

/* mbarrier.init / arrive / expect_tx / test_wait / try_wait (PTX ISA
 * 9.7.13.15), each lane on its own address, as each thread does. */
int emu_exec_mbar(blockctx *b, warp *w, inst *x)
{
	const emu_op *o = x->o;
	uint64_t *R = w->R;
	int wait = o->mod == MB_TEST_WAIT || o->mod == MB_TRY_WAIT, all_done = 1;
	for_each_lane(l, x->em) {
		uint32_t off;
		blockctx *t = emu_cluster_addr(b, o, R[o->src[0] * 32 + l] + R[o->src[2] * 32 + l], 8,
					   (o->flags & OPF_CLUSTER_SP) != 0, &off);
		if (!t)
			return STEP_FAIL;
		uint64_t v = R[o->src[1] * 32 + l];
		emu_mbar *m = emu_find_mbar(t, off);
		if (o->mod == MB_INIT) {
			if (v < 1 || v > EMU_MBAR_MAX_COUNT)
				return emu_fail(b, o, "mbarrier.init count %llu: the PTX ISA allows 1..%d", (unsigned long long)v,
					    EMU_MBAR_MAX_COUNT);
			if (!m && t->nmbar >= EMU_MAX_MBARRIERS)
				return emu_fail(b, o, "more than %d mbarriers in one block", EMU_MAX_MBARRIERS);
			emu_mbar_init(m ? m : &t->mbar[t->nmbar++], off, (uint32_t)v, o->line);
			b->cl->gen++;
			continue;
		}
		if (!m)
			return emu_fail(b, o, "smem+0x%x (block rank %d) is no mbarrier: mbarrier.init it first", off, t->rank);
		if (wait) {
			int done = (o->flags & OPF_PARITY) ? emu_mbar_parity_done(m, (uint32_t)v) : m->phase != (uint32_t)v;
			all_done &= done;
			if (o->dst[0] >= 0 && o->mod == MB_TEST_WAIT)
				R[o->dst[0] * 32 + l] = (uint64_t)done;
			if (done && t == b)
				emu_race_observed(t, w, (int)(m - t->mbar));
			if (!done) { /* what the deadlock message names */
				w->wait_op = (int)(o - b->ops);
				w->wait_off = off;
				w->wait_rank = t->rank;
				w->wait_parity = (o->flags & OPF_PARITY) ? (uint32_t)v & 1 : (uint32_t)v;
			}
			continue;
		}
		if ((o->mod != MB_ARRIVE && v > EMU_MBAR_MAX_COUNT) || (o->mod == MB_ARRIVE && (v < 1 || v > EMU_MBAR_MAX_COUNT)))
			return emu_fail(b, o, "%s count %llu: the PTX ISA allows %s..%d", o->mod == MB_ARRIVE ? "arrival" : "transaction",
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
			return emu_fail(b, o, "arrives on the mbarrier at smem+0x%x (block rank %d, line %d) with no arrival "
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
		return emu_fail(b, o, "the tensor-map address 0x%llx is no 64-byte aligned parameter", (unsigned long long)a);
	memcpy(tm, b->L->param + a, sizeof *tm);
	char why[160];
	*bytes = emu_tmap_check(tm, b->L->bufs, b->L->nbufs, why, sizeof why);
	return *bytes ? 0 : emu_fail(b, o, "%s", why);
}

/* Is the box's extent at soff inside the CTA's shared memory? A swizzled
 * box is moved in whole 128-byte rows. */
static int box_fits(blockctx *b, const emu_op *o, const emu_tmap *tm, uint32_t soff, uint64_t bytes, blockctx *t)
{
	if (tm->swizzle && (soff & 127))
		return emu_fail(b, o, "a swizzled TMA box needs a 128-byte aligned shared address, not offset %u", soff);
	if (soff & 15)
		return emu_fail(b, o, "a TMA box needs a 16-byte aligned shared address, not offset %u", soff);
	if (!ck_within(soff, (bytes + 127) / 128 * 128, t->smem_size))
		return emu_fail(b, o, "the TMA box of %llu bytes at offset %u runs past the block's %u bytes of shared memory",
			    (unsigned long long)bytes, soff, t->smem_size);
	return 0;
}

/* A TMA store reads shared bytes through the async proxy: a generic write
 * to them needs a fence.proxy.async by its writer in between (PTX ISA 8.6);
 * a race otherwise. */
static int unfenced(blockctx *b, const emu_op *o, uint32_t soff, uint64_t bytes)
{
	for (uint32_t word = soff >> 2; word < (soff + bytes) >> 2; word++) {
		uint32_t g = b->gfence[word];
		int ow = b->wwarp[word]; /* RACE_GW: this CTA's warps only */
		if (!g || ow >> 6 != b->rank || (ow & 63) >= b->nwarps || g != b->warps[ow & 63].fences + 1)
			continue;
		emu_race_report(b, o, b->cur_warp, b->wop[word], RACE_PROXY,
				"the TMA store reads shared bytes %u..%u that warp %d wrote at line %d "
				"with no fence.proxy.async after: the copy engine may not see them; fence.proxy.async.shared::cta "
				"after the writes, then the barrier", word * 4, word * 4 + 3, ow & 63,
				b->wop[word] >= 0 ? b->ops[b->wop[word]].line : 0);
		return 0; /* one report a store: the copy goes on with what the bytes hold */
	}
	return 0;
}

/* A TMA load into this CTA's bytes that another warp read since the last
 * barrier or mbarrier phase: the copy may land before that read. (A
 * multicast's other CTAs are ordered by their own mbarriers: not checked.) */
static void tma_war(blockctx *b, const emu_op *o, int w, uint32_t soff, uint64_t bytes)
{
	if (b->norace)
		return;
	int gw = RACE_GW(b->rank, w);
	char who[32];
	for (uint32_t word = soff >> 2; word < (soff + bytes) >> 2; word++) {
		int rw = b->rwarp[word];
		if (b->rep[word] != b->epoch || rw == gw)
			continue;
		emu_race_report(b, o, w, b->rop[word], RACE_WAR,
				"the TMA copy of warp %d writes bytes %u..%u that %s "
				"read at line %d with no barrier or mbarrier wait between: the readers must release the buffer "
				"(arrive on an mbarrier the producer waits on) before it is refilled",
				w, word * 4, word * 4 + 3, emu_race_who(rw, who, sizeof who),
				b->rop[word] >= 0 ? b->ops[b->rop[word]].line : 0);
		return;
	}
}

static int enqueue(blockctx *b, const emu_op *o, const bulkreq *r)
{
	cluster *cl = b->cl;
	if (cl->nq >= EMU_MAX_BULK_PENDING)
		return emu_fail(b, o, "more than %d TMA copies in flight", EMU_MAX_BULK_PENDING);
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
			return emu_fail(b, o, "a %dd copy through a tensor map of rank %d", o->vec, r.tm.rank);
		for (int d = 0; d < o->vec; d++)
			r.c[d] = (int32_t)R[o->src[7 + d] * 32 + l];
		blockctx *t = emu_cluster_addr(b, o, R[o->src[0] * 32 + l] + R[o->src[1] * 32 + l], 16, !r.store, &r.soff);
		if (!t || box_fits(b, o, &r.tm, r.soff, r.bytes, t) < 0)
			return STEP_FAIL;
		if (r.store) {
			if (unfenced(b, o, r.soff, r.bytes) < 0)
				return STEP_FAIL;
			x->cnt->bytes_l2 += r.bytes;
		} else {
			uint32_t moff;
			blockctx *mt = emu_cluster_addr(b, o, R[o->src[4] * 32 + l] + R[o->src[5] * 32 + l], 8, 1, &moff);
			if (!mt)
				return STEP_FAIL;
			if (mt != t)
				return emu_fail(b, o, "the TMA destination and its mbarrier lie in different CTAs (%d and %d)", t->rank,
					    mt->rank);
			r.mbar = moff;
			r.mask = (uint16_t)(1u << t->rank);
			if (o->flags & OPF_MULTICAST) {
				r.mask = (uint16_t)R[o->src[6] * 32 + l];
				if (!r.mask || r.mask >> b->cl->n)
					return emu_fail(b, o, "multicast CTA mask 0x%x for a cluster of %d", r.mask, b->cl->n);
			}
			for (int d = 0; d < b->cl->n; d++)
				if ((r.mask >> d & 1) && box_fits(b, o, &r.tm, r.soff, r.bytes, &b->cl->cta[d]) < 0)
					return STEP_FAIL;
			if (r.mask >> b->rank & 1)
				tma_war(b, o, w->id, r.soff, r.bytes);
			x->cnt->bytes_l2 += r.bytes; /* once from L2 ... */
			x->cnt->bytes_smem += r.bytes * (uint64_t)__builtin_popcount(r.mask); /* ... once per destination */
		}
		/* the copy engine's work is the emulator's: charged by the bytes it writes */
		uint64_t moved = r.bytes * (uint64_t)(r.store ? 1 : __builtin_popcount(r.mask));
		if (emu_charge(b, o, (long long)(moved / EMU_TMA_BYTES_PER_INST)) < 0)
			return STEP_FAIL;
		if (enqueue(b, o, &r) < 0)
			return STEP_FAIL;
	}
	return STEP_NEXT;
}

typedef struct {
	blockctx *b;
	const emu_op *o;
	int warp;
	uint64_t base; /* the buffer's global address */
} tma_stored_ctx;

static void tma_stored(void *arg, uint64_t off, int bytes)
{
	const tma_stored_ctx *c = arg;
	emu_race_global(c->b, c->o, c->warp, c->base + off, bytes, 1);
}

/* The copy engine: every copy in flight lands, in issue order. A load
 * writes each destination CTA and completes its bytes on the mbarrier
 * there; a store reads the issuing CTA's shared memory now. */
int emu_land(cluster *cl)
{
	char why[320];
	for (int i = 0; i < cl->nq; i++) {
		bulkreq *q = &cl->q[i];
		blockctx *b = &cl->cta[q->rank];
		const emu_op *o = &b->ops[q->op];
		const emu_buffer *buf = &b->L->bufs[q->tm.buf];
		if (emu_checkpoint(b, o) < 0) /* up to 4096 copies of 228 KiB: seconds of work */
			return -1;
		if (q->store) {
			if (emu_tmap_copy(&q->tm, q->c, buf, b->smem, q->soff, 1, why, sizeof why) < 0)
				return emu_fail(b, o, "%s", why);
			if (b->gs) { /* its global bytes, between blocks */
				tma_stored_ctx sc = {b, o, q->warp, ((uint64_t)q->tm.buf + 1) << EMU_GLOBAL_SHIFT};
				emu_tmap_each(&q->tm, q->c, tma_stored, &sc);
			}
			continue;
		}
		for (int d = 0; d < cl->n; d++) {
			if (!(q->mask >> d & 1))
				continue;
			blockctx *t = &cl->cta[d];
			if (emu_wgmma_smem_in_flight(t->wg, q->soff, (uint32_t)q->bytes, why, sizeof why) < 0)
				return emu_fail(b, o, "the TMA copy %s", why);
			if (emu_tmap_copy(&q->tm, q->c, buf, t->smem, q->soff, 0, why, sizeof why) < 0)
				return emu_fail(b, o, "%s", why);
			emu_wgmma_async_wrote(t->wg, q->soff, (uint32_t)q->bytes);
			emu_mbar *m = emu_find_mbar(t, q->mbar);
			if (!m)
				return emu_fail(b, o, "the TMA copy completes its bytes on smem+0x%x of block rank %d, which is no mbarrier",
					    q->mbar, d);
			/* the copy engine's write, ordered by the mbarrier for the warps that wait on it */
			emu_race_tma_landed(t, o, RACE_GW(q->rank, q->warp), (int)(m - t->mbar), q->soff, (uint32_t)q->bytes);
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

int emu_exec_bulk(blockctx *b, warp *w, inst *x)
{
	if (!x->em)
		return STEP_NEXT;
	return x->o->mod == BK_LOAD || x->o->mod == BK_STORE ? bulk_copy(b, w, x) : bulk_group(b, w, x);
}
