/* emu_wmma: the warp-level matrix instructions wmma.load, wmma.store and wmma.mma for the emulator (issue 39), and the one fragment layout they share. */
#ifndef PTXTUTOR_EMU_WMMA_H
#define PTXTUTOR_EMU_WMMA_H

#include "emu/emu_parser.h"

/* Element types of wmma's fragments. */
typedef enum { WMT_F16, WMT_BF16, WMT_TF32, WMT_S8, WMT_U8, WMT_F32, WMT_S32, WMT_NTYPES } emu_wmma_type;

#define EMU_WMMA_MAX_REGS 8   /* registers of the largest fragment (f16 A and B, f32 and s32 C and D) */
#define EMU_WMMA_MAX_UNIQ 16  /* distinct elements a lane holds of the largest fragment (m32n8k16's A) */

/* The operands of one wmma instruction; they do not fit an emu_op, which
 * holds their index in k->wmma as its imm and WM_* as its mod. */
struct emu_wmma_op {
	uint8_t m, n, k;
	uint8_t type[4];            /* load/store: type[0]; mma: D, A, B, C */
	uint8_t col[2];             /* .col (1) or .row (0): load/store col[0]; mma: A's, B's */
	uint8_t space;              /* SP_GENERIC, SP_GLOBAL, SP_SHARED */
	uint8_t satfinite;          /* mma .satfinite (integer forms) */
	uint8_t nr[4];              /* registers of each fragment: load/store nr[0]; mma: D, A, B, C */
	int32_t r[4][EMU_WMMA_MAX_REGS]; /* load/store: r[0], the fragment; mma: D, A, B, C; -1 for "_" */
	int32_t addr;               /* load/store: the address register, plus off */
	int64_t off;
	int32_t stride;             /* load/store: the stride's register (a constant one for the default) */
};

/* A fragment: which matrix (WM_LOAD_A, WM_LOAD_B, or WM_LOAD_C for C and D)
 * of which shape and element type. rows x cols is the matrix (A: M x K,
 * B: K x N, C and D: M x N); each lane holds nregs 32-bit registers of
 * per_reg elements of eb bytes, uniq of them distinct (f16 A and B hold some
 * elements twice). */
typedef struct {
	int which, m, rows, cols, eb, per_reg, nregs, uniq;
} emu_wmma_frag;

/* How the tensor cores read an element type (emu_wg_type), -1 for the integers. */
int emu_wmma_wg(emu_wmma_type t);
/* The fragment of a matrix, or -1 when the shape and type do not go together. */
int emu_wmma_frag_of(int which, int m, int n, int k, emu_wmma_type t, emu_wmma_frag *f);
/* Where element e (0 .. nregs * per_reg - 1; register e / per_reg, its
 * (e % per_reg)-th lowest part) of lane l's fragment sits in the matrix.
 * The PTX ISA leaves this unspecified; this is the GPU's (docs/emulator.md). */
void emu_wmma_frag_pos(const emu_wmma_frag *f, int lane, int e, int *row, int *col);

/* Parses "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {..}, [p], stride",
 * wmma.store.d and wmma.mma into o (called by emu_decode for OP_WMMA);
 * 0 or -1 after emu_perr/emu_punsup. */
int emu_wmma_decode(emu_pstate *ps, emu_op *o, const char *full, char **parts, int np);

#endif
