/* emu_wgmma: Hopper's warpgroup MMA for the emulator: wgmma.mma_async through matrix descriptors or A in registers, and wgmma.fence, commit_group, wait_group with their hazard rules. */
#ifndef PTXTUTOR_EMU_WGMMA_H
#define PTXTUTOR_EMU_WGMMA_H

#include "emu/emu_parser.h"

/* Element types of wgmma's operands (and of D: WG_F32 or WG_F16). */
typedef enum { WG_F16, WG_BF16, WG_TF32, WG_E4M3, WG_E5M2, WG_F32, WG_NTYPES } emu_wg_type;

#define EMU_WG_MAX_D 128   /* accumulator registers of one thread: N/2 for f32 at N = 256 */

/* The operands of one wgmma.mma_async; they do not fit an emu_op, which holds
 * their index in k->wgmma as its imm. */
struct emu_wgmma_op {
	uint16_t n;                 /* N: 8..256, a multiple of 8 */
	uint8_t k;                  /* 16 (f16, bf16), 8 (tf32), 32 (e4m3, e5m2) */
	uint8_t dtype, atype, btype;/* emu_wg_type */
	uint8_t a_in_regs;          /* A from four registers, not a descriptor */
	uint8_t trans_a, trans_b;   /* imm-trans: 1 = MN-major in shared memory */
	int8_t scale_a, scale_b;    /* imm-scale: 1, or -1 to negate */
	int16_t nd;                 /* accumulator registers: N/2 (f32) or N/4 (f16x2) */
	int32_t d[EMU_WG_MAX_D];
	int32_t a[4];               /* A's fragment registers, or a[0]: A's descriptor */
	int32_t bdesc;              /* B's descriptor register */
	int32_t scale_d;            /* predicate (or constant): 0 gives D = A*B */
};

/* The tensor cores' operands, shared by wgmma and mma.sync: an element's
 * value from its bits (tf32: the top 19 bits of the register, see
 * emu_wgmma.c), and the register fragments of mma.m16n8kK for a warp,
 * K = 16 (f16, bf16), 8 (tf32) or 32 (A only: e4m3, e5m2). R is the warp's
 * register file (register r, lane l at R[r * 32 + l]). */
float emu_mma_elem(emu_wg_type t, uint32_t bits);
void emu_mma_frag_a(const uint64_t *R, const int32_t reg[4], int k, emu_wg_type t, float A[16][32]);
void emu_mma_frag_b(const uint64_t *R, const int32_t reg[2], int k, emu_wg_type t, float B[32][8]);

/* A decoded matrix descriptor (PTX ISA 9.7.15.5.1.2.2, "Matrix Descriptor Format"). */
typedef struct {
	uint32_t start, lbo, sbo;   /* bytes: start address, leading and stride byte offsets */
	int base;                   /* bits 49-51: where the swizzle pattern starts (0: at its boundary) */
	int swizzle;                /* bits 62-63: 0 none, 1 128-byte, 2 64-byte, 3 32-byte */
} emu_wg_desc;

emu_wg_desc emu_wg_desc_decode(uint64_t desc);
/* The shared-memory byte address of element (mn, k) of an operand (A: mn = row m;
 * B: mn = column n) of elem_bytes bytes, K-major or MN-major, swizzle applied. */
uint32_t emu_wg_desc_addr(const emu_wg_desc *d, int mn, int k, int elem_bytes, int mn_major);

/* Parses "wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype d, a, b, ..." into o
 * (called by emu_decode for the opcode OP_WGMMA); 0 or -1 after emu_perr/emu_punsup. */
int emu_wgmma_decode(emu_pstate *ps, emu_op *o, const char *full, char **parts, int np);

/* ---- running it (emu_exec_warp.c calls these) ---- */

typedef struct emu_wg_block emu_wg_block;   /* a block's wgmma state: every warp's in-flight groups and marks */

emu_wg_block *emu_wg_block_new(const emu_kernel *k, int nwarps, uint32_t smem_size);
void emu_wg_block_reset(emu_wg_block *b);   /* at the start of every block */
void emu_wg_block_free(emu_wg_block *b);

/* What a wgmma instruction (or the hazard check) sees of the warp that runs it. */
typedef struct {
	emu_wg_block *wg;
	const emu_kernel *k;
	const emu_op *o;
	uint64_t *R;                /* the warp's registers, a row of 32 lanes each */
	int warp;                   /* its index in the block */
	uint32_t em;                /* the lanes that run the instruction */
	unsigned nthreads;          /* threads of the block */
	const uint8_t *smem;
	uint32_t smem_size;
	emu_opcount *cnt;           /* the op's counters */
	char *msg;                  /* why it failed (the caller adds file:line) */
	int msglen;
	/* asked once per shared operand of a wgmma.mma_async with the bytes it spans:
	 * -1 when a TMA copy in flight has yet to write them (the callee reported it,
	 * msg stays empty); NULL when no copy is in flight */
	int (*early_read)(void *arg, uint32_t off, uint32_t bytes);
	void *early_arg;
} emu_wg_ctx;

/* Runs OP_WGMMA, OP_WGFENCE, OP_WGCOMMIT or OP_WGWAIT on the active lanes em: 0, or -1 with c->msg. */
int emu_wgmma_exec(emu_wg_ctx *c, uint32_t em);
/* Before any other instruction of a warp in a kernel with wgmma: -1 with c->msg when it
 * touches an accumulator (or A fragment) register of a wgmma still in flight. It also
 * notes the registers it writes (for the wgmma.fence rule) and the shared bytes a
 * generic st writes until the warp's fence.proxy.async (for the proxy rule). 0 otherwise. */
int emu_wgmma_hazard(emu_wg_ctx *c);
/* Whether a write of shared bytes [off, off + bytes) would change operands of a
 * wgmma still in flight (of any warp): -1 with "writes shared bytes ..., which
 * the wgmma.mma_async at line L (warp W) reads ..." in msg, else 0. Generic st
 * are checked here already; the copy engine's writes (TMA) may ask too. */
int emu_wgmma_smem_in_flight(const emu_wg_block *b, uint32_t off, uint32_t bytes, char *msg, int msglen);
/* The copy engine (TMA, the async proxy) wrote shared bytes [off, off + bytes):
 * generic writes to them before need no fence.proxy.async any more for wgmma. */
void emu_wgmma_async_wrote(emu_wg_block *b, uint32_t off, uint32_t bytes);
/* After a block ran: -1 with msg when the warps of a warpgroup issued different numbers of wgmma. */
int emu_wgmma_block_end(emu_wg_block *b, char *msg, int msglen);

#endif
