/* emu_exec_warp: the instructions a warp runs as one: mma.sync, shfl, and wgmma through emu_wgmma.c. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_exec.h"
#include "base/checked.h"
#include "base/util.h"
#include "model/access.h"

/* Whether a float is 0 or of magnitude in [2^-62, 2^62): a product of two such is 0
 * or in [2^-124, 2^124), inside f32's normal range. */
static int mid_range(float x)
{
	uint32_t u = (uint32_t)FB(x) & 0x7fffffffu, e = u >> 23;
	return !u || (e >= 127 - 62 && e < 127 + 62);
}

/* Whether each product of an mma's A (16 x K) and B (K x 8) is exact in f32 (the
 * operands carry at most 11 significant bits, so only the range can make one
 * inexact) and its C is finite: then acc + a * b rounds once, as fmaf does. */
static int mma_exact(float A[16][32], float B[32][8], float C[16][8], int K)
{
	int ok = 1;
	for (int r = 0; r < 16; r++)
		for (int k = 0; k < K; k++)
			ok &= mid_range(A[r][k]);
	for (int k = 0; k < K; k++)
		for (int c = 0; c < 8; c++)
			ok &= mid_range(B[k][c]);
	for (int r = 0; r < 16; r++)
		for (int c = 0; c < 8; c++)
			ok &= isfinite(C[r][c]);
	return ok;
}

/* mma.sync.aligned.m16n8kK.row.col.f32.T.T.f32 with T = f16, bf16 (K = 16)
 * or tf32 (K = 8): the fragments of PTX ISA 9.7.14.5.7-8 through the one
 * reading of tensor-core operands (emu_wgmma.c), f32 accumulation. */
int emu_exec_mma(blockctx *b, warp *w, const emu_op *o, uint32_t em)
{
	if (em != 0xffffffffu)
		return emu_fail(b, o, "mma.sync needs all 32 lanes of the warp (active mask 0x%08x)", em);
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
	 * rounding per step in k order. The PTX ISA fixes no order. Where each
	 * product is exact, acc + a * b is that rounding, a row's eight columns at once. */
	float D[16][8];
	if (mma_exact(A, B, C, K)) {
		memcpy(D, C, sizeof D);
		for (int r = 0; r < 16; r++)
			for (int k = 0; k < K; k++)
				for (int c = 0; c < 8; c++)
					D[r][c] += A[r][k] * B[k][c];
	} else {
		for (int r = 0; r < 16; r++)
			for (int c = 0; c < 8; c++) {
				float acc = C[r][c];
				for (int k = 0; k < K; k++)
					acc = fmaf(A[r][k], B[k][c], acc);
				D[r][c] = acc;
			}
	}
	for (int l = 0; l < 32; l++) {
		int g = l >> 2, q = l & 3;
		for (int i = 0; i < 4; i++)
			if (o->dst[i] >= 0)
				R[o->dst[i] * 32 + l] = FB(D[g + 8 * (i / 2)][q * 2 + (i & 1)]);
	}
	/* charged by its size, so an endless loop of them ends in seconds too */
	return emu_charge(b, o, (long long)(EMU_MMA_FLOPS(K) / EMU_MMA_FLOPS_PER_INST));
}

void emu_exec_shfl(blockctx *b, warp *w, const emu_op *o, uint32_t em)
{
	uint64_t *R = w->R;
	if (em && o->nsrc > 3 && o->src[3] >= 0)
		emu_race_member_mask(b, w, o, em, (uint32_t)R[o->src[3] * 32 + __builtin_ctz(em)], "shfl.sync");
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

/* ---- wgmma (emu_wgmma.c) ---- */

typedef struct {
	blockctx *b;
	const emu_op *o;
} wg_reader;

/* A wgmma's shared operands read before a TMA copy in flight wrote them:
 * the same early-read rule as ld's (pending_read reports it). */
static int wg_early_read(void *arg, uint32_t off, uint32_t bytes)
{
	const wg_reader *r = arg;
	return emu_pending_read(r->b, r->o, off, (int)bytes);
}

int emu_exec_wgmma(blockctx *b, warp *w, const inst *x, int hazard)
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
		return emu_fail(b, x->o, "%s", m); /* a no-op when pending_read has failed already */
	/* one wgmma is 16 x N x K multiply-adds a warp: charged as N*K/32 warp
	 * instructions, so a loop of them ends with the budget too */
	if (!hazard && x->o->code == OP_WGMMA)
		return emu_charge(b, x->o, (long long)b->k->wgmma[x->o->imm].n * b->k->wgmma[x->o->imm].k / 32);
	return STEP_NEXT;
}
