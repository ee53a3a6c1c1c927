/* emu_wmma: wmma.load.{a,b,c}, wmma.store.d and wmma.mma (PTX ISA "Warp-level Matrix Multiply-Accumulate Instructions") for the emulator: decoding and the fragment layout (issue 39); emu_exec_wmma.c runs them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_wmma.h"
#include "emu/emu_wgmma.h"
#include "base/util.h"

/* ---- element types ---- */

static const struct {
	const char *name;
	int bytes;                  /* in memory and in the register: tf32 is an f32 in memory */
	int wg;                     /* how the tensor cores read a float (emu_wg_type); -1 integers */
	emu_type reg;               /* the registers' type, for the operand parser */
} wm_types[WMT_NTYPES] = {
	[WMT_F16] = {"f16", 2, WG_F16, ET_B32}, [WMT_BF16] = {"bf16", 2, WG_BF16, ET_B32},
	[WMT_TF32] = {"tf32", 4, WG_TF32, ET_B32}, [WMT_S8] = {"s8", 1, -1, ET_B32},
	[WMT_U8] = {"u8", 1, -1, ET_B32}, [WMT_F32] = {"f32", 4, WG_F32, ET_F32},
	[WMT_S32] = {"s32", 4, -1, ET_S32},
};

int emu_wmma_wg(emu_wmma_type t)
{
	return (unsigned)t < WMT_NTYPES ? wm_types[t].wg : -1;
}

static int wm_type(const char *s)
{
	for (int t = 0; t < WMT_NTYPES; t++)
		if (!strcmp(s, wm_types[t].name))
			return t;
	return -1;
}

/* The shapes: m16n16k16, m32n8k16, m8n32k16 for 16- and 8-bit inputs, m16n16k8 for tf32. */
static const struct {
	const char *name;
	uint8_t m, n, k;
} shapes[] = {
	{"m16n16k16", 16, 16, 16}, {"m32n8k16", 32, 8, 16}, {"m8n32k16", 8, 32, 16}, {"m16n16k8", 16, 16, 8},
};

/* ---- the fragment layout ---- */

int emu_wmma_frag_of(int which, int m, int n, int k, emu_wmma_type t, emu_wmma_frag *f)
{
	int tf32 = k == 8;
	int ok;
	if (which == WM_LOAD_A || which == WM_LOAD_B)
		ok = tf32 ? t == WMT_TF32 : t == WMT_F16 || t == WMT_BF16 || t == WMT_S8 || t == WMT_U8;
	else
		ok = tf32 ? t == WMT_F32 : t == WMT_F16 || t == WMT_F32 || t == WMT_S32;
	if (!ok)
		return -1;
	f->which = which;
	f->m = m;
	f->rows = which == WM_LOAD_B ? k : m;
	f->cols = which == WM_LOAD_A ? k : n;
	f->eb = wm_types[t].bytes;
	f->per_reg = 4 / f->eb;
	f->uniq = f->rows * f->cols / 32;
	/* the PTX ISA's register counts: f16 A and B are eight .f16x2 registers whatever the shape */
	f->nregs = t == WMT_F16 && which != WM_LOAD_C ? 8 : f->uniq / f->per_reg;
	return 0;
}

/* ptxas's mapping on sm_90, as the GPU showed it (scripts/gpu-wmma-layout.cu; tests/wmma-layout-sm90.tsv
 * holds this to every shape, type, matrix and layout): the fragments of mma.sync's m16n8k8/m16n8k16
 * (PTX ISA, "Matrix Fragments for mma.m16n8k16"), whatever the memory layout. Lane l = 4g + t holds q
 * elements side by side (A's and B's registers; C's pairs) in tiles of 8 rows (g) by 4q columns (t);
 * element u is element u % q of tile u / q. m8n32k16 runs the transposed product D^T = B^T A^T, so its
 * A takes mma's B layout, its B mma's A layout, and its C is transposed. Elements past uniq repeat
 * the first ones (f16 A and B). */
void emu_wmma_frag_pos(const emu_wmma_frag *f, int lane, int e, int *row, int *col)
{
	int g = lane / 4, t = lane % 4, u = e % f->uniq;
	int c = f->which == WM_LOAD_C, trans = f->m == 8;
	int q = c ? 2 : f->per_reg, b = u / q, j = u % q, w = 4 * q;
	int xrows = trans ? f->cols : f->rows, xcols = trans ? f->rows : f->cols; /* the operand as mma sees it */
	int xr, xc;
	if (c) { /* C: its 8-row tiles down, then across */
		xr = 8 * (b % (xrows / 8)) + g;
		xc = 8 * (b / (xrows / 8)) + 2 * t + j;
	} else if ((f->which == WM_LOAD_A) != trans) { /* mma's A: row halves, then K, then the next 16 rows */
		int halves = xrows >= 16 ? 2 : 1, kt = xcols / w;
		xr = 16 * (b / (kt * halves)) + 8 * (b % halves) + g;
		xc = w * (b / halves % kt) + q * t + j;
	} else { /* mma's B: K, then the next 8 columns */
		int kt = xrows / w;
		xr = w * (b % kt) + q * t + j;
		xc = 8 * (b / kt) + g;
	}
	*row = trans ? xc : xr;
	*col = trans ? xr : xc;
}

/* ---- decoding ---- */

static int bad_form(emu_pstate *ps, const char *full)
{
	return emu_punsup(ps, ps->line, "unsupported instruction '%s' (wmma runs m16n16k16, m32n8k16, m8n32k16 with "
			  "f16, bf16, s8, u8 and m16n16k8 with tf32; PTX ISA, wmma)", full);
}

/* The words of the name, each taken once: what is left over is refused. */
typedef struct {
	char w[12][24];
	int n;
	unsigned used;
} wm_words;

static int take(wm_words *ws, const char *word)
{
	for (int i = 0; i < ws->n; i++)
		if (!(ws->used >> i & 1) && !strcmp(ws->w[i], word)) {
			ws->used |= 1u << i;
			return 1;
		}
	return 0;
}

/* The layouts in order: "row" or "col", -1 when the next is neither. */
static int take_layout(wm_words *ws)
{
	for (int i = 0; i < ws->n; i++) {
		if (ws->used >> i & 1)
			continue;
		if (strcmp(ws->w[i], "row") && strcmp(ws->w[i], "col"))
			continue;
		ws->used |= 1u << i;
		return ws->w[i][0] == 'c';
	}
	return -1;
}

/* The types in order, as many as asked; -1 when fewer are written. */
static int take_types(wm_words *ws, uint8_t *out, int want)
{
	int got = 0;
	for (int i = 0; i < ws->n && got < want; i++) {
		int t = ws->used >> i & 1 ? -1 : wm_type(ws->w[i]);
		if (t < 0)
			continue;
		ws->used |= 1u << i;
		out[got++] = (uint8_t)t;
	}
	return got == want ? 0 : -1;
}

static int split(const char *full, wm_words *ws)
{
	memset(ws, 0, sizeof *ws);
	for (const char *p = full; *p;) {
		size_t n = strcspn(p, ".");
		if (ws->n == 12 || n >= sizeof ws->w[0])
			return -1;
		memcpy(ws->w[ws->n++], p, n);
		p += n + (p[n] == '.');
	}
	return 0;
}

/* The shape, the space (load and store) and the mandatory .sync.aligned. */
static int common_words(wm_words *ws, struct emu_wmma_op *w, int memory)
{
	if (!take(ws, "sync") || !take(ws, "aligned"))
		return -1;
	int found = 0;
	for (size_t i = 0; i < ARRAY_LEN(shapes) && !found; i++)
		if (take(ws, shapes[i].name)) {
			w->m = shapes[i].m;
			w->n = shapes[i].n;
			w->k = shapes[i].k;
			found = 1;
		}
	w->space = SP_GENERIC;
	if (memory && take(ws, "global"))
		w->space = SP_GLOBAL;
	else if (memory && (take(ws, "shared") || take(ws, "shared::cta")))
		w->space = SP_SHARED;
	return found ? 0 : -1;
}

/* {r0, ..., rN} with exactly nr registers of fragment f. */
static int frag_regs(emu_pstate *ps, char *s, emu_type t, int nr, int32_t *regs, int is_dst, const char *full)
{
	int got = emu_vector_operand(ps, s, t, regs, EMU_WMMA_MAX_REGS, is_dst);
	if (got < 0)
		return -1;
	if (got != nr)
		return emu_perr(ps, ps->line, "'%s': a fragment here is %d registers, got %d", full, nr, got);
	return 0;
}

static int decode_memory(emu_pstate *ps, emu_op *o, struct emu_wmma_op *w, wm_words *ws, const char *full,
			 char **parts, int np)
{
	int store = o->mod == WM_STORE_D;
	int col = take_layout(ws);
	if (col < 0 || common_words(ws, w, 1) < 0 || take_types(ws, w->type, 1) < 0 || ws->used != (1u << ws->n) - 1)
		return bad_form(ps, full);
	emu_wmma_frag f;
	int which = o->mod == WM_STORE_D ? WM_LOAD_C : o->mod;
	if (emu_wmma_frag_of(which, w->m, w->n, w->k, (emu_wmma_type)w->type[0], &f) < 0)
		return bad_form(ps, full);
	w->col[0] = (uint8_t)col;
	w->nr[0] = (uint8_t)f.nregs;
	if (np < 2 || np > 3)
		return emu_perr(ps, ps->line, "'%s' takes 2 or 3 operands, got %d", full, np);
	int is_param;
	if (frag_regs(ps, parts[store], wm_types[w->type[0]].reg, f.nregs, w->r[0], !store, full) < 0 ||
	    emu_addr_operand(ps, parts[!store], &w->addr, &w->off, &is_param) < 0)
		return -1;
	if (is_param)
		return emu_perr(ps, ps->line, "'%s' takes a global or shared address, not a parameter's name", full);
	/* no stride: the matrix's rows (row-major) or columns (col-major) follow each other */
	w->stride = np == 3 ? emu_scalar_operand(ps, parts[2], ET_U32)
			    : emu_const_reg(ps, (uint64_t)(col ? f.rows : f.cols));
	if (w->stride < 0)
		return -1;
	o->cls = (uint8_t)(w->space == SP_SHARED ? (store ? EMU_CLS_ST_SHARED : EMU_CLS_LD_SHARED)
						 : (store ? EMU_CLS_ST_GLOBAL : EMU_CLS_LD_GLOBAL));
	return 0;
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype (f16 inputs) or
 * .shape.dtype.atype.btype.ctype (bf16, tf32, s8, u8), .satfinite for the integers. */
static int decode_mma(emu_pstate *ps, struct emu_wmma_op *w, wm_words *ws, const char *full, char **parts, int np)
{
	int ca = take_layout(ws), cb = take_layout(ws);
	if (ca < 0 || cb < 0 || common_words(ws, w, 0) < 0)
		return bad_form(ps, full);
	w->satfinite = (uint8_t)take(ws, "satfinite");
	int four = take_types(ws, w->type, 4) == 0;
	if (!four) { /* the f16 form names D's and C's types only */
		ws->used &= (1u << ws->n) - 1;
		uint8_t dc[2];
		for (int i = 0; i < ws->n; i++)
			if (wm_type(ws->w[i]) >= 0)
				ws->used &= ~(1u << i);
		if (take_types(ws, dc, 2) < 0)
			return bad_form(ps, full);
		w->type[0] = dc[0];
		w->type[1] = w->type[2] = WMT_F16;
		w->type[3] = dc[1];
	}
	if (ws->used != (1u << ws->n) - 1)
		return bad_form(ps, full);
	int ints = w->type[1] == WMT_S8 || w->type[1] == WMT_U8;
	int ok = four ? (ints ? (w->type[2] == WMT_S8 || w->type[2] == WMT_U8) && w->type[0] == WMT_S32 &&
					  w->type[3] == WMT_S32
			      : w->type[1] == w->type[2] && (w->type[1] == WMT_BF16 || w->type[1] == WMT_TF32) &&
					  w->type[0] == WMT_F32 && w->type[3] == WMT_F32)
		      : (w->type[0] == WMT_F16 || w->type[0] == WMT_F32) && (w->type[3] == WMT_F16 || w->type[3] == WMT_F32);
	if (!ok || (w->satfinite && !ints))
		return bad_form(ps, full);
	static const int which[4] = {WM_LOAD_C, WM_LOAD_A, WM_LOAD_B, WM_LOAD_C};
	emu_wmma_frag f[4];
	for (int i = 0; i < 4; i++) {
		if (emu_wmma_frag_of(which[i], w->m, w->n, w->k, (emu_wmma_type)w->type[i], &f[i]) < 0)
			return bad_form(ps, full);
		w->nr[i] = (uint8_t)f[i].nregs;
	}
	w->col[0] = (uint8_t)ca;
	w->col[1] = (uint8_t)cb;
	if (np != 4)
		return emu_perr(ps, ps->line, "'%s' takes 4 operands, got %d", full, np);
	for (int i = 0; i < 4; i++)
		if (frag_regs(ps, parts[i], wm_types[w->type[i]].reg, f[i].nregs, w->r[i], i == 0, full) < 0)
			return -1;
	return 0;
}

int emu_wmma_decode(emu_pstate *ps, emu_op *o, const char *full, char **parts, int np)
{
	struct emu_wmma_op w;
	memset(&w, 0, sizeof w);
	wm_words ws;
	if (split(full, &ws) < 0 || ws.n < 3)
		return bad_form(ps, full);
	ws.used = 3; /* "wmma" and its verb */
	int rc;
	if (!strcmp(ws.w[1], "mma")) {
		o->mod = WM_MMA;
		o->cls = EMU_CLS_MMA;
		rc = decode_mma(ps, &w, &ws, full, parts, np);
	} else {
		static const char *const which[] = {"a", "b", "c"};
		int load = !strcmp(ws.w[1], "load");
		o->mod = WM_STORE_D;
		for (int i = 0; i < 3 && load; i++)
			if (!strcmp(ws.w[2], which[i]))
				o->mod = (uint8_t)i;
		if (load ? o->mod == WM_STORE_D : strcmp(ws.w[2], "d") != 0)
			return bad_form(ps, full);
		ws.used = 7;
		rc = decode_memory(ps, o, &w, &ws, full, parts, np);
	}
	if (rc < 0)
		return -1;
	emu_kernel *k = ps->k;
	k->wmma = xreallocarray(k->wmma, (size_t)k->nwmma + 1, sizeof *k->wmma);
	k->wmma[k->nwmma] = w;
	o->imm = k->nwmma++;
	o->ndst = o->nsrc = 0; /* the operands are in k->wmma */
	return 0;
}
