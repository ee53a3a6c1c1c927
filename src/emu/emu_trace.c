/* emu_trace: the stall model's recorder inside the emulator (see emu_trace.h). */
#include <stdlib.h>
#include <string.h>
#include "emu/emu_trace.h"
#include "emu/emu_wgmma.h"
#include "emu/emu_wmma.h"
#include "base/util.h"

/* The mbarriers by their offset in the CTA's shared memory (a shared::cluster address names the same
 * slot as the local one: a cluster's CTAs run the same code, so a block's remote arrivals stand for
 * the ones its peers make on it), and per traced block the arrivals and TMA copies issued on each. */
struct emu_tracer {
	stall_trace *t;
	const emu_kernel *k;
	uint32_t key[STALL_MBARS];
	int nkeys;
	uint32_t arrivals[STALL_MAX_BLOCKS][STALL_MBARS], copies[STALL_MAX_BLOCKS][STALL_MBARS];
};

/* The slot of the mbarrier at address a (lane l's), or -1 past STALL_MBARS. */
static int mbar_slot(emu_tracer *tr, uint64_t a)
{
	if ((a >> EMU_GLOBAL_SHIFT) == (EMU_SHARED_WINDOW >> EMU_GLOBAL_SHIFT))
		a -= EMU_SHARED_WINDOW;
	uint32_t off = (uint32_t)(a & ((1u << EMU_CLUSTER_SHIFT) - 1));
	for (int i = 0; i < tr->nkeys; i++)
		if (tr->key[i] == off)
			return i;
	if (tr->nkeys == STALL_MBARS)
		return -1;
	tr->key[tr->nkeys] = off;
	return tr->nkeys++;
}

/* The lanes the guard lets run (emu_exec.c's guard, which runs after this hook). */
static uint32_t guarded(const emu_op *o, const uint64_t *R, uint32_t mask)
{
	if (o->pred < 0)
		return mask;
	uint32_t pm = 0;
	for (int l = 0; l < 32; l++)
		if (mask >> l & 1)
			pm |= (uint32_t)(R[o->pred * 32 + l] & 1) << l;
	return (o->flags & OPF_PRED_NEG) ? mask & ~pm : mask & pm;
}

/* An mbarrier op or a TMA copy: its slot on r, and the block's counts (see stall_rec). */
static void trace_mbar(emu_tracer *tr, long long blk, stall_rec *r, const emu_op *o, const uint64_t *R, uint32_t mask)
{
	uint32_t em = guarded(o, R, mask);
	if (!em)
		return;
	int l = __builtin_ctz(em), tma = o->code == OP_BULK;
	if (tma && o->mod != BK_LOAD)
		return;
	uint64_t a = tma ? R[o->src[4] * 32 + l] + R[o->src[5] * 32 + l] : R[o->src[0] * 32 + l] + R[o->src[2] * 32 + l];
	int s = mbar_slot(tr, a);
	if (s < 0)
		return;
	if (tma) {
		tr->copies[blk][s]++;
		r->mem = (uint32_t)s;
	} else if (o->mod == MB_ARRIVE || o->mod == MB_ARRIVE_TX) {
		tr->arrivals[blk][s]++;
		r->mem = (uint32_t)s;
	} else if (o->mod == MB_TEST_WAIT || o->mod == MB_TRY_WAIT) {
		uint32_t v[3] = {(uint32_t)s, tr->arrivals[blk][s], tr->copies[blk][s]};
		stall_trace_lines(tr->t, r, v, 3);
	}
}

emu_tracer *emu_tracer_new(stall_trace *t, const emu_kernel *k)
{
	emu_tracer *tr = xcalloc(1, sizeof *tr);
	tr->t = t;
	tr->k = k;
	return tr;
}

void emu_tracer_free(emu_tracer *tr)
{
	free(tr);
}

void emu_trace_issue(emu_tracer *tr, long long blk, int warp, int pc, const uint64_t *R, uint32_t mask)
{
	if (blk >= STALL_MAX_BLOCKS)
		return;
	stall_rec *r = stall_trace_add(tr->t, (int)blk, warp, (uint32_t)pc);
	const emu_op *o = &tr->k->ops[pc];
	if (r && o->code == OP_BAR && mask && o->src[0] >= 0) /* which named barrier (bar.sync's checks its range) */
		r->mem = (uint32_t)R[o->src[0] * 32 + __builtin_ctz(mask)] & 15;
	if (r && o->code == OP_CLUSTER && o->mod == CL_WAIT)
		r->mem = STALL_BAR_CLUSTER;
	if (r && (o->code == OP_MBAR || o->code == OP_BULK))
		trace_mbar(tr, blk, r, o, R, mask);
}

void emu_trace_unissue(emu_tracer *tr, long long blk, int warp)
{
	stall_trace *t = tr->t;
	if (blk < 0 || blk >= STALL_MAX_BLOCKS || warp < 0 || warp >= t->warps_per_block)
		return;
	stall_warp *sw = &t->warps[(size_t)blk * (size_t)t->warps_per_block + (size_t)warp];
	if (sw->n) {
		sw->n--;
		t->nrecs--;
	}
}

void emu_trace_load(emu_tracer *tr, long long blk, int wi, const int64_t addr[32], uint32_t mask, int bytes)
{
	stall_trace *t = tr->t;
	if (blk < 0 || blk >= STALL_MAX_BLOCKS || wi < 0 || wi >= t->warps_per_block)
		return;
	stall_warp *sw = &t->warps[(size_t)blk * (size_t)t->warps_per_block + (size_t)wi];
	if (!sw->n)
		return;
	/* the access's distinct 128-byte lines, as ids: the buffer's index, then the line in it */
	uint32_t lines[64], top = 0; /* top: the largest id so far; one above it is new without a search */
	int n = 0;
	for (int l = 0; l < 32; l++) {
		if (!(mask >> l & 1))
			continue;
		for (int64_t a = addr[l] >> 7; a <= (addr[l] + bytes - 1) >> 7 && n < 64; a++) {
			uint32_t id = (uint32_t)((uint64_t)(a >> (EMU_GLOBAL_SHIFT - 7)) << 28 | ((uint64_t)a & ((1u << 28) - 1)));
			int i = n - 1;
			if (n == 0 || id > top)
				i = -1;
			else
				while (i >= 0 && lines[i] != id)
					i--;
			if (i < 0) {
				lines[n++] = id;
				top = id > top ? id : top;
			}
		}
	}
	stall_trace_lines(t, &sw->rec[sw->n - 1], lines, n);
}

/* The model's kind of an op; generic ld/st by where most of its accesses went. */
static stall_kind kind_of(const emu_op *o, const emu_opcount *c)
{
	int shared = o->space == SP_SHARED || o->space == SP_CLUSTER ||
		     (o->space == SP_GENERIC && c->requests2 > c->requests + c->lrequests);
	switch ((emu_opcode)o->code) {
	case OP_LD: return o->space == SP_PARAM ? STALL_K_MOVE : shared ? STALL_K_LDS : STALL_K_LDG;
	case OP_ST: return shared ? STALL_K_STS : STALL_K_STG;
	case OP_LDMATRIX: return STALL_K_LDS;
	case OP_STMATRIX: return STALL_K_STS;
	case OP_SHFL: return STALL_K_SHFL;
	case OP_CPASYNC: return STALL_K_CPASYNC;
	case OP_CPCOMMIT: return STALL_K_CPCOMMIT;
	case OP_CPWAIT: return STALL_K_CPWAIT;
	case OP_MMA: return STALL_K_MMA;
	case OP_WMMA: return o->mod == WM_MMA ? STALL_K_MMA : o->mod == WM_STORE_D ? (shared ? STALL_K_STS : STALL_K_STG)
							    : (shared ? STALL_K_LDS : STALL_K_LDG);
	case OP_WGMMA: return STALL_K_WGMMA;
	case OP_WGCOMMIT: return STALL_K_WGCOMMIT;
	case OP_WGWAIT: return STALL_K_WGWAIT;
	case OP_WGFENCE: return STALL_K_WGFENCE;
	case OP_BAR: return STALL_K_BAR;
	case OP_CLUSTER: /* barrier.cluster.wait: a barrier (stall_rec.mem); mapa, elect...: by their class */
		if (o->mod == CL_WAIT)
			return STALL_K_BAR;
		break;
	case OP_MBAR: return o->mod == MB_TEST_WAIT || o->mod == MB_TRY_WAIT ? STALL_K_MBAR_WAIT
			     : o->mod == MB_ARRIVE || o->mod == MB_ARRIVE_TX ? STALL_K_MBAR_ARRIVE : STALL_K_MOVE;
	case OP_BULK: return o->mod == BK_LOAD || o->mod == BK_STORE ? STALL_K_TMA : STALL_K_OTHER;
	case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: return STALL_K_MUFU;
	case OP_DIV: return emu_types[o->type].kind == 'f' ? STALL_K_MUFU : STALL_K_INT;
	default: break;
	}
	switch ((emu_class)o->cls) {
	case EMU_CLS_FP: return STALL_K_FMA;
	case EMU_CLS_INT: return STALL_K_INT;
	case EMU_CLS_MOVE: return STALL_K_MOVE;
	default: return STALL_K_OTHER;
	}
}

static double per(uint64_t n, uint64_t issued)
{
	return issued ? (double)n / (double)issued : 0;
}

/* A wmma's registers live in its emu_wmma_op, not the op's src/dst: a load writes its fragment, an mma
 * reads A, B and C and writes D, a store reads its fragment. The scoreboard needs one register of each
 * fragment (all of a fragment's are written at once); as many as fit are kept. Without them an mma never
 * waited for its loads and a warp ran ahead through all its k-steps. */
static void wmma_regs(const struct emu_wmma_op *wm, const emu_op *o, stall_op *s)
{
	int mma = o->mod == WM_MMA, store = o->mod == WM_STORE_D;
	/* the fragments it reads: an mma's A, B, C (r[1..3], four registers each fit), a store's (r[0]) */
	int from = mma ? 1 : 0, to = mma ? 3 : store ? 0 : -1, each = mma ? 4 : EMU_WMMA_MAX_REGS;
	s->ndst = 0;
	for (int i = 0; i < wm->nr[0] && !store && s->ndst < STALL_MAX_DST; i++) /* a load's, an mma's D */
		if (wm->r[0][i] >= 0)
			s->dst[s->ndst++] = wm->r[0][i];
	for (int f = from; f <= to; f++)
		for (int i = 0; i < wm->nr[f] && i < each && s->nsrc < STALL_MAX_SRC - 1; i++)
			if (wm->r[f][i] >= 0)
				s->src[s->nsrc++] = wm->r[f][i];
}

void emu_trace_ops(const emu_kernel *k, const emu_opcount *cnt, stall_trace *t)
{
	free(t->ops);
	t->ops = xcalloc((size_t)k->nops + 1, sizeof *t->ops);
	t->nops = k->nops;
	t->smem_static = k->smem_static;
	for (int i = 0; i < k->nops; i++) {
		const emu_op *o = &k->ops[i];
		const emu_opcount *c = &cnt[i];
		stall_op *s = &t->ops[i];
		s->line = o->line;
		s->kind = (uint8_t)kind_of(o, c);
		int nd = o->ndst < STALL_MAX_DST ? o->ndst : STALL_MAX_DST;
		for (int d = 0; d < nd; d++)
			if (o->dst[d] >= 0)
				s->dst[s->ndst++] = o->dst[d];
		if (s->kind == STALL_K_MBAR_WAIT && !s->ndst && o->dst[0] >= 0) /* the decoder keeps ndst 0 for these */
			s->dst[s->ndst++] = o->dst[0];
		int ns = o->nsrc < EMU_MAX_SRC ? o->nsrc : EMU_MAX_SRC;
		for (int r = 0; r < ns && s->nsrc < STALL_MAX_SRC - 1; r++)
			if (o->src[r] >= 0 && k->is_const[o->src[r]] != 1)
				s->src[s->nsrc++] = o->src[r];
		if (o->pred >= 0)
			s->src[s->nsrc++] = o->pred;
		if (o->code == OP_WMMA && o->imm >= 0 && o->imm < k->nwmma)
			wmma_regs(&k->wmma[o->imm], o, s);
		switch ((stall_kind)s->kind) {
		case STALL_K_LDG: s->units = o->space == SP_LOCAL ? per(c->lsectors, c->issued) / 4 : per(c->gwave, c->issued); break;
		case STALL_K_STG: s->units = per(c->sectors + c->lsectors, c->issued) / 4; break;
		case STALL_K_CPASYNC: s->units = per(c->sectors, c->issued) / 4; break;
		/* as the SASS: a scalar load ptxas merged into an LDS.128 charges its group's leader (emu_vgroup.c) */
		case STALL_K_LDS: case STALL_K_STS: s->units = per(c->wave_sass, c->issued); break;
		case STALL_K_MMA:
			s->units = o->code == OP_WMMA && o->imm >= 0 && o->imm < k->nwmma
					   ? 2.0 * k->wmma[o->imm].m * k->wmma[o->imm].n * k->wmma[o->imm].k
					   : (double)EMU_MMA_FLOPS(o->type == ET_TF32 ? 8 : 16);
			break;
		/* the tensor pipe takes an m64nN wgmma in the same time whatever its K (k8 tf32, k16 f16/bf16,
		 * k32 fp8): its work in f16 FLOPs. Lesson 11 (fp8) measured 7100 FLOPs a cycle an SM, past
		 * f16's 4096: the fp8 rate is twice f16's, as NVIDIA's H100 figures give */
		case STALL_K_WGMMA:
			s->units = per(c->wg_flops, c->issued);
			if (o->code == OP_WGMMA && o->imm >= 0 && o->imm < k->nwgmma && k->wgmma[o->imm].k)
				s->units = s->units * 16 / k->wgmma[o->imm].k;
			break;
		case STALL_K_TMA: s->units = per(c->bytes_l2 + c->bytes, c->issued); break;
		case STALL_K_CPWAIT: s->wait_n = (o->flags & OPF_WAIT_ALL) ? -1 : (int)o->imm; break;
		case STALL_K_WGWAIT: s->wait_n = (int)o->imm; break;
		case STALL_K_BAR:
			if (o->nsrc > 1 && o->src[1] >= 0 && k->is_const[o->src[1]] == 1)
				s->bar_warps = (int)(k->konst[o->src[1]] / 32);
			break;
		default: break;
		}
	}
}
