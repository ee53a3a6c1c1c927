/* emu_exec_wmma: running wmma.load, wmma.store and wmma.mma (issue 39) in the emulator: the accesses ptxas's
 * SASS makes, and D = A.B + C (the decoding and the fragment layout are emu_wmma.c's). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_wmma.h"
#include "emu/emu_exec.h"
#include "base/fpconv.h"
#include "base/util.h"

/* Element e of lane l's fragment in registers regs, its bits. */
static uint32_t frag_get(const uint64_t *R, const int32_t *regs, const emu_wmma_frag *f, int l, int e)
{
	uint32_t v = (uint32_t)R[regs[e / f->per_reg] * 32 + l];
	int bits = 8 * f->eb;
	return bits == 32 ? v : v >> (bits * (e % f->per_reg)) & ((1u << bits) - 1);
}

/* The byte offset of element (row, col) from the matrix's start. */
static uint64_t elem_off(const emu_wmma_frag *f, int col_major, uint64_t stride, int row, int col)
{
	return ((col_major ? (uint64_t)col * stride + (uint64_t)row : (uint64_t)row * stride + (uint64_t)col)) *
	       (uint64_t)f->eb;
}

/* The address and stride every lane gives (.aligned: the same). The PTX
 * ISA ("Matrix Storage for WMMA", Address Alignment) asks each row's (or
 * column's) start to be a multiple of the fragment's size in bytes (f16 A:
 * 8 registers, 32): the address is held to that; the stride to that or 16
 * bytes, whichever is less (the CUDA Programming Guide's "multiple of 16
 * bytes"), since the rule taken whole refuses the default stride of f16's
 * m32n8k16 B, 8 elements. */
static int address(blockctx *b, warp *w, const emu_op *o, const struct emu_wmma_op *wm, const emu_wmma_frag *f,
		   uint64_t *base, uint64_t *stride)
{
	const uint64_t *R = w->R;
	*base = R[wm->addr * 32] + (uint64_t)wm->off;
	*stride = (uint32_t)R[wm->stride * 32];
	for (int l = 1; l < 32; l++)
		if (R[wm->addr * 32 + l] + (uint64_t)wm->off != *base || (uint32_t)R[wm->stride * 32 + l] != *stride)
			return emu_fail(b, o, "wmma: lane %d gives another address or stride than lane 0 (every lane of "
					"the warp must give the same)", l);
	uint64_t align = 4ULL * (uint64_t)f->nregs;
	if (*base % align)
		return emu_fail(b, o, "wmma: the matrix's address 0x%llx is not a multiple of the fragment's %llu bytes "
				"(PTX ISA, Matrix Storage for WMMA)", (unsigned long long)*base, (unsigned long long)align);
	uint64_t salign = align < 16 ? align : 16;
	if (*stride * (uint64_t)f->eb % salign)
		return emu_fail(b, o, "wmma: a stride of %llu elements is %llu bytes, not a multiple of %llu (PTX ISA, "
				"Matrix Storage for WMMA)", (unsigned long long)*stride,
				(unsigned long long)(*stride * (uint64_t)f->eb), (unsigned long long)salign);
	return 0;
}

/* wmma.load (store 0) or wmma.store as ptxas's SASS makes them (scripts/gpu-wmma-layout.cu's, on
 * sm_90): the q elements a lane holds side by side (mma's fragments: A's and B's registers, C's
 * pairs), where they lie together in memory, are one access (C's f32 pairs one LDG.E.64); a 16-bit
 * register that lies across memory is its 8x8 tile's transpose, a 32-bit word a lane along memory,
 * which MOVM.16.MT88 then moves into place; anything else an element at a time (8-bit: LDG.E.U8).
 * f16 A's and B's repeated registers are copies, not loads. */
static int exec_memory(blockctx *b, warp *w, const emu_op *o, const struct emu_wmma_op *wm, emu_opcount *cnt)
{
	int store = o->mod == WM_STORE_D;
	emu_wmma_frag f;
	emu_wmma_frag_of(store ? WM_LOAD_C : o->mod, wm->m, wm->n, wm->k, (emu_wmma_type)wm->type[0], &f);
	uint64_t base, stride;
	if (address(b, w, o, wm, &f, &base, &stride) < 0)
		return -1;
	uint64_t *R = w->R;
	int cm = wm->col[0], p = f.per_reg, bits = 8 * f.eb, q = f.which == WM_LOAD_C ? 2 : p;
	uint64_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
	uint64_t el[32][EMU_WMMA_MAX_UNIQ] = {{0}}; /* lane l's element u */
	int pr[32][EMU_WMMA_MAX_UNIQ], pc[32][EMU_WMMA_MAX_UNIQ];
	for (int l = 0; l < 32; l++)
		for (int u = 0; u < f.uniq; u++) {
			emu_wmma_frag_pos(&f, l, u, &pr[l][u], &pc[l][u]);
			if (store)
				el[l][u] = frag_get(R, wm->r[0], &f, l, u);
		}
	int together = q == 1 || elem_off(&f, cm, stride, pr[0][1], pc[0][1]) ==
					 elem_off(&f, cm, stride, pr[0][0], pc[0][0]) + (uint64_t)f.eb;
	int flip = !together && f.eb == 2;       /* 16-bit across memory: the tile's transpose */
	int span = together || flip ? q : 1;     /* elements an access: a lane's q, or one */
	uint64_t addr[32], v[32];
	for (int u0 = 0; u0 < f.uniq; u0 += span) {
		int r0 = pr[0][u0], c0 = pc[0][u0]; /* lane 0's first element: the 8x8 tile's corner */
		int wl[32][4], wh[32][4];           /* element u0 + j (j < span) of lane l: the word's lane and part */
		for (int l = 0; l < 32; l++) {
			int row = pr[l][u0], col = pc[l][u0];
			if (flip) /* the transposed word: 8 lines of 4 words along memory */
				row = cm ? r0 + 2 * (l % 4) : r0 + l / 4, col = cm ? c0 + l / 4 : c0 + 2 * (l % 4);
			addr[l] = base + elem_off(&f, cm, stride, row, col);
			for (int j = 0; j < span; j++) {
				int dr = pr[l][u0 + j] - r0, dc = pc[l][u0 + j] - c0, along = cm ? dr : dc, across = cm ? dc : dr;
				wl[l][j] = flip ? across * 4 + along / 2 : l;
				wh[l][j] = flip ? along % 2 : j;
			}
			v[l] = 0;
		}
		if (store)
			for (int l = 0; l < 32; l++)
				for (int j = 0; j < span; j++)
					v[wl[l][j]] |= el[l][u0 + j] << (bits * wh[l][j]);
		if (emu_exec_access(b, w, o, wm->space, store, addr, span * f.eb, v, cnt) < 0)
			return -1;
		for (int l = 0; l < 32 && !store; l++)
			for (int j = 0; j < span; j++)
				el[l][u0 + j] = v[wl[l][j]] >> (bits * wh[l][j]) & mask;
	}
	for (int i = 0; i < f.nregs && !store; i++) {
		int32_t r = wm->r[0][i];
		for (int l = 0; l < 32 && r >= 0; l++) {
			uint64_t out = 0;
			for (int h = 0; h < p; h++)
				out |= el[l][(i * p + h) % f.uniq] << (bits * h);
			R[r * 32 + l] = out;
		}
	}
	return 0;
}

/* Matrix `which` of the mma from its fragment registers: floats, or integers. */
static void gather(const uint64_t *R, const struct emu_wmma_op *wm, int i, int which, float F[32][32],
		   int64_t I[32][32])
{
	emu_wmma_frag f;
	emu_wmma_type t = (emu_wmma_type)wm->type[i];
	emu_wmma_frag_of(which, wm->m, wm->n, wm->k, t, &f);
	for (int l = 0; l < 32; l++)
		for (int e = 0; e < f.uniq; e++) {
			int row, col;
			emu_wmma_frag_pos(&f, l, e, &row, &col);
			uint32_t v = frag_get(R, wm->r[i], &f, l, e);
			if (emu_wmma_wg(t) >= 0)
				F[row][col] = emu_mma_elem((emu_wg_type)emu_wmma_wg(t), v);
			else
				I[row][col] = t == WMT_S8 ? (int8_t)v : t == WMT_S32 ? (int32_t)v : (int64_t)v;
		}
}

/* D = A * B + C for the warp. Floats: the products of f16, bf16 and tf32
 * are exact in f32; each output sums its K products into C in k order,
 * one rounding per step (as mma.sync here; the PTX ISA fixes no order), then
 * to f16 for an f16 D. Integers: exact, then wrapped to 32 bits, or clamped
 * to s32's range with .satfinite. */
static void exec_mma(warp *w, const struct emu_wmma_op *wm)
{
	float FA[32][32], FB_[32][32], FC[32][32];
	int64_t IA[32][32], IB[32][32], IC[32][32];
	uint64_t *R = w->R;
	gather(R, wm, 1, WM_LOAD_A, FA, IA);
	gather(R, wm, 2, WM_LOAD_B, FB_, IB);
	gather(R, wm, 3, WM_LOAD_C, FC, IC);
	emu_wmma_frag f;
	emu_wmma_frag_of(WM_LOAD_C, wm->m, wm->n, wm->k, (emu_wmma_type)wm->type[0], &f);
	int ints = wm->type[0] == WMT_S32;
	for (int i = 0; i < f.nregs; i++)
		if (wm->r[0][i] >= 0)
			for (int l = 0; l < 32; l++) {
				uint32_t out = 0;
				for (int h = 0; h < f.per_reg; h++) {
					int row, col;
					emu_wmma_frag_pos(&f, l, i * f.per_reg + h, &row, &col);
					uint32_t bits;
					if (ints) {
						int64_t acc = IC[row][col];
						for (int k = 0; k < wm->k; k++)
							acc += IA[row][k] * IB[k][col];
						if (wm->satfinite)
							acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
						bits = (uint32_t)acc;
					} else {
						float acc = FC[row][col];
						for (int k = 0; k < wm->k; k++)
							acc = fmaf(FA[row][k], FB_[k][col], acc);
						bits = wm->type[0] == WMT_F16 ? util_f32_to_f16(acc) : fpconv_f32_bits(acc);
					}
					out |= f.per_reg == 1 ? bits : bits << (16 * h);
				}
				R[wm->r[0][i] * 32 + l] = out;
			}
}

int emu_exec_wmma(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	if (!em)
		return STEP_NEXT;
	if (em != 0xffffffffu) /* .sync.aligned */
		return emu_fail(b, o, "wmma needs all 32 lanes of the warp (.sync.aligned; active mask 0x%08x)", em);
	const struct emu_wmma_op *wm = &b->k->wmma[o->imm];
	if (o->mod != WM_MMA)
		return exec_memory(b, w, o, wm, cnt);
	exec_mma(w, wm);
	uint64_t flops = 2ULL * wm->m * wm->n * wm->k;
	cnt->wg_flops += flops;
	/* charged by its size, as mma.sync is, so an endless loop of them ends in seconds too */
	return emu_charge(b, o, (long long)(flops / EMU_MMA_FLOPS_PER_INST));
}
