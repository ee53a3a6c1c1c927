#!/usr/bin/env python3
"""Writes ptx/04_blocktile1d.ptx (kernel 1d) or ptx/05_blocktile2d.ptx (kernel 2d) to stdout.

Both kernels have a fully unrolled body (8 x 8 fused multiply-adds and the
loads that feed them) that is tedious to type and easy to get wrong by hand;
this script writes it out. The committed .ptx files are what the tutor shows
and runs: edit the text here, run `make ptx` from the project root (or
    python3 ptx/gen/blocktile.py 1d > ptx/04_blocktile1d.ptx
    python3 ptx/gen/blocktile.py 2d > ptx/05_blocktile2d.ptx)
and commit both. The options are for timing variants; the committed files
use the defaults: --prefetch, --maxnreg N (0: none), --entry NAME, and for 2d
--unroll N and --compact.
"""
import argparse
import sys

from banner import banner

HEADER = """.version 7.0
.target sm_50
.address_size 64
"""

PARAMS = """(
	.param .u64 A,
	.param .u64 B,
	.param .u64 C,
	.param .u32 M,
	.param .u32 N,
	.param .u32 K
)"""

PROLOGUE = """	ld.param.u64 %A, [A];
	ld.param.u64 %B, [B];
	ld.param.u64 %C, [C];
	ld.param.u32 %M, [M];
	ld.param.u32 %N, [N];
	ld.param.u32 %K, [K];
	cvta.to.global.u64 %A, %A;
	cvta.to.global.u64 %B, %B;
	cvta.to.global.u64 %C, %C;
"""


def regs(prefix, n):
    return ", ".join(f"%{prefix}{i}" for i in range(n))


def blocktile1d(prefetch=False, maxnreg=32, entry="sgemm_blocktile1d"):
    BM, BN, BK, TM = 64, 64, 8, 8
    L = []
    w = L.append
    w(banner() + f"""// 04_blocktile1d.ptx: lesson 4, 1D blocktiling: each thread computes a column of {TM} elements of C.
//
// C = A * B, row-major, A is M x K, B is K x N, C is M x N, all f32.
// Tiles: BM = {BM}, BN = {BN}, BK = {BK}, TM = {TM}. Launch: {BM * BN // TM} threads (1-D),
// grid ceil(N/{BN}) x ceil(M/{BM}); the shared tiles are static ({(BM + BN) * BK * 4} bytes).
// A block owns a {BM} x {BN} tile of C. Thread t owns column tc = t % {BN} and rows
// tr*{TM} .. tr*{TM}+{TM - 1} with tr = t / {BN}: {TM} accumulators in registers.
// Per step of {BK} along K, the block copies a {BM} x {BK} tile of A and a {BK} x {BN} tile of B
// into shared memory (one element of each per thread); then each thread reads
// its {BK} values of B once and reuses each of them for its {TM} rows.
// Global loads use .cg (cache in L2 only). Each element of an A tile is read
// again by the other blocks of its block row (N/BN of them), and of a B tile
// by its block column, but those run mostly on other SMs and at other times:
// the reuse happens in L2, not in this SM's L1, whose fills would share the
// SRAM with the shared-memory tiles. (.ca and .nc ran as fast within noise.)
// Sizes that are not multiples of the tiles work: loads outside A and B read
// zeros and stores outside C are skipped.
""")
    w(HEADER)
    w(f"// As: {BM} rows x {BK} floats (row-major, as in A); Bs: {BK} rows x {BN} floats.")
    w(f".shared .align 16 .b8 bt1_As[{BM * BK * 4}];")
    w(f".shared .align 16 .b8 bt1_Bs[{BK * BN * 4}];")
    w("")
    w(f".visible .entry {entry}{PARAMS}")
    if maxnreg:
        w(f"""// @occupancy
// A register budget. Left alone, ptxas gives this kernel 47 registers per
// thread: 2 blocks of {BM * BN // TM} threads per SM (65536 registers). Capped at
// {maxnreg} (ptxas -v: no spills), 4 blocks fit: 64 warps, the most an SM holds,
// to hide the wait at each barrier and for each global load.
.maxnreg {maxnreg}
// @end""")
    w("{")
    w(f"""	.reg .u64  %A, %B, %C;
	.reg .u32  %M, %N, %K;
	.reg .u32  %t, %tr, %tc, %row0, %col0, %tmp;
	.reg .u32  %aRow, %kA, %kB, %bCol, %k0, %row, %col;
	.reg .u64  %gA, %gB, %pC, %off, %wide, %stepB, %rowC;
	.reg .u32  %As, %Bs, %sAst, %sBst, %sA, %sB;
	.reg .f32  {regs("acc", TM)};   // acc<i> = C[row0 + tr*{TM} + i][col0 + tc]
	.reg .f32  {regs("b", BK)};     // b<d> = Bs[d][tc], one column of the B tile
	.reg .f32  {regs("a", BK)};     // a<d> = As[tr*{TM} + i][d], one row of the A tile
	.reg .f32  %nextA, %nextB;   // the elements this thread copies into the tiles
	.reg .pred %aRowOK, %bColOK, %ok, %more;
""")
    w(PROLOGUE)
    w(f"""	// @index
	// Thread t: column tc = t % {BN} and row group tr = t / {BN} of the output tile.
	mov.u32 %t, %tid.x;
	and.b32 %tc, %t, {BN - 1};
	shr.u32 %tr, %t, {BN.bit_length() - 1};
	mov.u32 %tmp, %ctaid.y;
	mul.lo.u32 %row0, %tmp, {BM};
	mov.u32 %tmp, %ctaid.x;
	mul.lo.u32 %col0, %tmp, {BN};
	// @end

	// @load-map
	// For the copies the same {BM * BN // TM} threads are laid out differently:
	// over the {BM} x {BK} A tile, t -> (t / {BK}, t % {BK}): four rows of 32 bytes per warp;
	// over the {BK} x {BN} B tile, t -> (t / {BN}, t % {BN}): 128 contiguous bytes per warp.
	// Both go to shared memory at index t, in the layout they have in A and B.
	shr.u32 %aRow, %t, {BK.bit_length() - 1};
	add.u32 %aRow, %aRow, %row0;
	and.b32 %kA, %t, {BK - 1};
	shr.u32 %kB, %t, {BN.bit_length() - 1};
	and.b32 %bCol, %t, {BN - 1};
	add.u32 %bCol, %bCol, %col0;
	setp.lt.u32 %aRowOK, %aRow, %M;
	setp.lt.u32 %bColOK, %bCol, %N;
	mul.wide.u32 %off, %aRow, %K;           // gA = &A[aRow][kA]
	cvt.u64.u32 %wide, %kA;
	add.u64 %off, %off, %wide;
	shl.b64 %off, %off, 2;
	add.u64 %gA, %A, %off;
	mul.wide.u32 %off, %kB, %N;             // gB = &B[kB][bCol]
	cvt.u64.u32 %wide, %bCol;
	add.u64 %off, %off, %wide;
	shl.b64 %off, %off, 2;
	add.u64 %gB, %B, %off;
	mul.wide.u32 %stepB, %N, {BK * 4};          // {BK} rows of B in bytes
	mov.u32 %As, bt1_As;
	mov.u32 %Bs, bt1_Bs;
	shl.b32 %tmp, %t, 2;
	add.u32 %sAst, %As, %tmp;
	add.u32 %sBst, %Bs, %tmp;
	// @end

	// Where this thread reads: row tr*{TM} of As, column tc of Bs.
	mul.lo.u32 %tmp, %tr, {TM * BK * 4};
	add.u32 %sA, %As, %tmp;
	shl.b32 %tmp, %tc, 2;
	add.u32 %sB, %Bs, %tmp;
""")
    for i in range(TM):
        w(f"\tmov.f32 %acc{i}, 0f00000000;")
    fetch1 = f"""	mov.f32 %nextA, 0f00000000;
	setp.lt.u32 %ok, %kA, %K;
	and.pred %ok, %ok, %aRowOK;
	@%ok ld.global.cg.f32 %nextA, [%gA];
	mov.f32 %nextB, 0f00000000;
	setp.lt.u32 %ok, %kB, %K;
	and.pred %ok, %ok, %bColOK;
	@%ok ld.global.cg.f32 %nextB, [%gB];"""
    advance1 = f"""	add.u64 %gA, %gA, {BK * 4};
	add.u64 %gB, %gB, %stepB;
	add.u32 %kA, %kA, {BK};
	add.u32 %kB, %kB, {BK};
	add.u32 %k0, %k0, {BK};"""
    w(f"""	mov.u32 %k0, 0;
	setp.eq.u32 %more, %K, 0;
	@%more bra STORE;
""")
    if prefetch:
        w(f"""	// @prefetch
	// The first tile's elements go to registers before the loop.
{fetch1}
	// @end

TILE_LOOP:
	// @load-tile
	// As[t / {BK}][t % {BK}] = A[aRow][kA], Bs[t / {BN}][t % {BN}] = B[kB][bCol]: the
	// values fetched one step earlier.
	st.shared.f32 [%sAst], %nextA;
	st.shared.f32 [%sBst], %nextB;
	bar.sync 0;
	// @end

	// @prefetch-next
	// Ask for the next tile's elements now; the loads are in flight while
	// this tile is multiplied, and land in registers (zero beyond K).
{advance1}
{fetch1}
	// @end
""")
    else:
        w(f"""TILE_LOOP:
	// @load-tile
	// As[t / {BK}][t % {BK}] = A[aRow][kA], Bs[t / {BN}][t % {BN}] = B[kB][bCol], zero outside.
{fetch1}
	st.shared.f32 [%sAst], %nextA;
	st.shared.f32 [%sBst], %nextB;
	bar.sync 0;
	// @end
""")
    w(f"""	// @load-b
	// The {BK} values of B this thread needs, read once per tile: Bs[d][tc].
	// 32 lanes read 32 neighbouring floats, one per bank.""")
    for d in range(BK):
        w(f"\tld.shared.f32 %b{d}, [%sB+{d * BN * 4}];")
    w(f"""	// @end

	// @inner-loop
	// For each of the thread's {TM} rows: fetch As[tr*{TM} + i][0 .. {BK - 1}] (the same
	// address in every lane of the warp, a broadcast; two 16-byte loads),
	// then {BK} multiply-adds that reuse the B values held in registers.""")
    for i in range(TM):
        base = i * BK * 4
        w(f"\t// row tr*{TM} + {i}")
        w(f"\tld.shared.v4.f32 {{%a0, %a1, %a2, %a3}}, [%sA+{base}];")
        w(f"\tld.shared.v4.f32 {{%a4, %a5, %a6, %a7}}, [%sA+{base + 16}];")
        for d in range(BK):
            w(f"\tfma.rn.f32 %acc{i}, %a{d}, %b{d}, %acc{i};")
    w(f"""	// @end

	// @barrier
	// Every thread must be done with the tiles before they are overwritten.
	bar.sync 0;
	// @end

{"" if prefetch else advance1}
	setp.lt.u32 %more, %k0, %K;
	@%more bra TILE_LOOP;

	// @store
STORE:
	// C[row0 + tr*{TM} + i][col0 + tc] = acc<i>; rows and columns outside C are skipped.
	add.u32 %col, %col0, %tc;
	setp.ge.u32 %more, %col, %N;
	@%more bra DONE;
	mad.lo.u32 %row, %tr, {TM}, %row0;
	mul.wide.u32 %off, %row, %N;
	cvt.u64.u32 %wide, %col;
	add.u64 %off, %off, %wide;
	shl.b64 %off, %off, 2;
	add.u64 %pC, %C, %off;
	mul.wide.u32 %rowC, %N, 4;              // one row of C in bytes""")
    for i in range(TM):
        w(f"\tsetp.lt.u32 %ok, %row, %M;")
        w(f"\t@%ok st.global.f32 [%pC], %acc{i};")
        if i < TM - 1:
            w(f"\tadd.u32 %row, %row, 1;")
            w(f"\tadd.u64 %pC, %pC, %rowC;")
    w("""	// @end
DONE:
	ret;
}""")
    return "\n".join(L) + "\n"


def blocktile2d(prefetch=False, unroll=8, compact=False, maxnreg=0, entry="sgemm_blocktile2d"):
    BM, BN, BK, TM, TN = 128, 128, 8, 8, 8
    NT = BM * BN // (TM * TN)          # 256 threads
    TCOLS = BN // TN                   # 16 thread columns
    TROWS = BM // TM                   # 16 thread rows
    LA = BM * BK // NT                 # A elements each thread copies per tile (4)
    LB = BK * BN // NT                 # B elements each thread copies per tile (4)
    L = []
    w = L.append
    w(banner() + f"""// 05_blocktile2d.ptx: lesson 5, 2D blocktiling: each thread computes an {TM} x {TN} block of C in registers.
//
// C = A * B, row-major, A is M x K, B is K x N, C is M x N, all f32.
// Tiles: BM = {BM}, BN = {BN}, BK = {BK}, TM = {TM}, TN = {TN}. Launch: {NT} threads (1-D),
// grid ceil(N/{BN}) x ceil(M/{BM}); the shared tiles are static ({(BM + BN) * BK * 4} bytes).
// The {NT} threads of a block form a {TROWS} x {TCOLS} grid over the {BM} x {BN} output tile.
// Thread (tr, tc) owns the {TM} x {TN} elements at rows tr + {TROWS}*i and columns tc + {TCOLS}*j:
// spread out rather than side by side, so that at every step the 32 lanes
// of a warp read different banks of shared memory (see the inner loop).
// Per step along K, a thread loads {TM} values of A and {TN} of B from shared memory
// and does {TM * TN} multiply-adds with them: {TM * TN} / {TM + TN} = {TM * TN / (TM + TN):g} FMAs per shared load.
// Global loads use .cg (cache in L2 only). Each element of an A tile is read
// again by the other blocks of its block row (N/BN of them), and of a B tile
// by its block column, but those run mostly on other SMs and at other times:
// the reuse happens in L2, not in this SM's L1, whose fills would share the
// SRAM with the shared-memory tiles. (.ca and .nc ran as fast within noise.)
// Sizes that are not multiples of the tiles work: loads outside A and B read
// zeros and stores outside C are skipped.
""")
    w(HEADER)
    w(f"// As: {BM} rows x {BK} floats (row-major, as in A); Bs: {BK} rows x {BN} floats.")
    w(f".shared .align 16 .b8 bt2_As[{BM * BK * 4}];")
    w(f".shared .align 16 .b8 bt2_Bs[{BK * BN * 4}];")
    w("")
    w(f".visible .entry {entry}{PARAMS}")
    if maxnreg:
        w(f".maxnreg {maxnreg}")
    w("{")
    accs = ", ".join(f"%c{i}{j}" for i in range(TM) for j in range(TN))
    w(f"""	.reg .u64  %A, %B, %C;
	.reg .u32  %M, %N, %K;
	.reg .u32  %t, %tr, %tc, %row0, %col0, %tmp;
	.reg .u32  %aRow, %kA, %kB, %bCol, %k0, %row, %col;{"" if unroll == BK else chr(10) + "	.reg .u32  %d;"}
	.reg .u64  %gA, %gB, %pA, %pB, %pC, %off, %wide, %stepA, %stepB, %stepBK, %rowC;
	.reg .u32  %As, %Bs, %sAst, %sBst, %sA, %sB;
	// c<i><j> = C[row0 + tr + {TROWS}*i][col0 + tc + {TCOLS}*j]: {TM * TN} accumulators
	.reg .f32  {accs};
	.reg .f32  {", ".join(f"%a{i}_<4>" for i in range(TM))};   // a<i>_<q> = As[tr + {TROWS}*i][d + q]
	.reg .f32  {regs("b", TN)};     // b<j> = Bs[d][tc + {TCOLS}*j]
	.reg .f32  {regs("nextA", LA)};   // elements copied into As
	.reg .f32  {regs("nextB", LB)};   // elements copied into Bs
	.reg .pred %ok, %more, %rowOK, %bColOK;
""")
    w(PROLOGUE)
    w(f"""	// @index
	// Thread t sits at row tr = t / {TCOLS} and column tc = t % {TCOLS} of the thread grid.
	mov.u32 %t, %tid.x;
	and.b32 %tc, %t, {TCOLS - 1};
	shr.u32 %tr, %t, {TCOLS.bit_length() - 1};
	mov.u32 %tmp, %ctaid.y;
	mul.lo.u32 %row0, %tmp, {BM};
	mov.u32 %tmp, %ctaid.x;
	mul.lo.u32 %col0, %tmp, {BN};
	// @end

	// @load-map
	// Copying the tiles: element e = t + {NT}*q (q = 0 .. {LA - 1}) of each tile, so every
	// thread copies {LA} of A and {LB} of B per step, and consecutive threads copy
	// consecutive elements. A tile: row e / {BK}, column e % {BK}, i.e. row
	// t / {BK} + {NT // BK}*q. B tile: row e / {BN} = t / {BN} + {NT // BN}*q, column t % {BN}.
	shr.u32 %aRow, %t, {BK.bit_length() - 1};
	add.u32 %aRow, %aRow, %row0;
	and.b32 %kA, %t, {BK - 1};
	shr.u32 %kB, %t, {BN.bit_length() - 1};
	and.b32 %bCol, %t, {BN - 1};
	add.u32 %bCol, %bCol, %col0;
	setp.lt.u32 %bColOK, %bCol, %N;
	mul.wide.u32 %off, %aRow, %K;           // gA = &A[aRow][kA]
	cvt.u64.u32 %wide, %kA;
	add.u64 %off, %off, %wide;
	shl.b64 %off, %off, 2;
	add.u64 %gA, %A, %off;
	mul.wide.u32 %off, %kB, %N;             // gB = &B[kB][bCol]
	cvt.u64.u32 %wide, %bCol;
	add.u64 %off, %off, %wide;
	shl.b64 %off, %off, 2;
	add.u64 %gB, %B, %off;
	mul.wide.u32 %stepA, %K, {NT // BK * 4};       // {NT // BK} rows of A in bytes (q -> q+1)
	mul.wide.u32 %stepB, %N, {NT // BN * 4};        // {NT // BN} rows of B in bytes (q -> q+1)
	mul.wide.u32 %stepBK, %N, {BK * 4};       // {BK} rows of B in bytes (the next tile)
	mov.u32 %As, bt2_As;
	mov.u32 %Bs, bt2_Bs;
	shl.b32 %tmp, %t, 2;
	add.u32 %sAst, %As, %tmp;
	add.u32 %sBst, %Bs, %tmp;
	// @end
""")
    for i in range(TM):
        w("\t" + " ".join(f"mov.f32 %c{i}{j}, 0f00000000;" for j in range(TN)))
    fetch = []
    fetch.append("\tsetp.lt.u32 %ok, %kA, %K;")
    fetch.append("\tmov.u64 %pA, %gA;")
    for q in range(LA):
        fetch.append(f"\t// A[aRow + {NT // BK * q}][kA], for As[t + {NT * q}]")
        fetch.append(f"\tmov.f32 %nextA{q}, 0f00000000;")
        fetch.append(f"\tadd.u32 %row, %aRow, {NT // BK * q};" if q else "\tmov.u32 %row, %aRow;")
        fetch.append("\tsetp.lt.and.u32 %rowOK, %row, %M, %ok;")
        fetch.append(f"\t@%rowOK ld.global.cg.f32 %nextA{q}, [%pA];")
        if q < LA - 1:
            fetch.append("\tadd.u64 %pA, %pA, %stepA;")
    fetch.append("\tmov.u64 %pB, %gB;")
    for q in range(LB):
        fetch.append(f"\t// B[kB + {NT // BN * q}][bCol], for Bs[t + {NT * q}]")
        fetch.append(f"\tmov.f32 %nextB{q}, 0f00000000;")
        fetch.append(f"\tadd.u32 %row, %kB, {NT // BN * q};" if q else "\tmov.u32 %row, %kB;")
        fetch.append("\tsetp.lt.and.u32 %ok, %row, %K, %bColOK;")
        fetch.append(f"\t@%ok ld.global.cg.f32 %nextB{q}, [%pB];")
        if q < LB - 1:
            fetch.append("\tadd.u64 %pB, %pB, %stepB;")
    fetch = "\n".join(fetch)
    store = "\n".join([f"\tst.shared.f32 [%sAst+{NT * 4 * q}], %nextA{q};" for q in range(LA)] +
                      [f"\tst.shared.f32 [%sBst+{NT * 4 * q}], %nextB{q};" for q in range(LB)])
    advance = f"""	add.u64 %gA, %gA, {BK * 4};
	add.u64 %gB, %gB, %stepBK;
	add.u32 %kA, %kA, {BK};
	add.u32 %kB, %kB, {BK};
	add.u32 %k0, %k0, {BK};"""
    w(f"""	mov.u32 %k0, 0;
	setp.eq.u32 %more, %K, 0;
	@%more bra STORE;
""")
    if prefetch:
        w(f"""	// @prefetch
	// The first tile's elements go to registers before the loop.
{fetch}
	// @end

TILE_LOOP:
	// @load-tile
	// Into shared memory with the values fetched one step earlier.
{store}
	bar.sync 0;
	// @end

	// @prefetch-next
	// Ask for the next tile's elements now: the loads are in flight while
	// this tile is multiplied, and land in registers (zero beyond K).
{advance}
{fetch}
	// @end
""")
    else:
        w(f"""TILE_LOOP:
	// @load-tile
	// {LA} elements of A and {LB} of B per thread, zero outside the matrices.
{fetch}
{store}
	bar.sync 0;
	// @end
""")
    w(f"""	// @inner-loop
	// For d = 0 .. {BK - 1}: a<i> = As[tr + {TROWS}*i][d], b<j> = Bs[d][tc + {TCOLS}*j], then the
	// {TM} x {TN} outer product a * b is added to the accumulators, all from registers.
	// Each a<i> feeds {TN} multiply-adds and each b<j> {TM}. Row i of As keeps steps
	// d .. d+3 side by side, so at d = 0 and d = 4 one 16-byte load fetches four
	// steps of a<i> at once (a<i>_0 .. a<i>_3): ptxas would merge four scalar
	// loads into this anyway, so the PTX says what the hardware really does.
	// Banks: a warp holds two thread rows (tr, tr+1), whose A values lie {BK} floats
	// apart (different banks), and {TCOLS} thread columns reading {TCOLS} neighbouring floats
	// of B. No load is split by a bank conflict.
	mul.lo.u32 %tmp, %tr, {BK * 4};
	add.u32 %sA, %As, %tmp;                  // &As[tr][0]
	shl.b32 %tmp, %tc, 2;
	add.u32 %sB, %Bs, %tmp;                  // &Bs[0][tc]""")
    if unroll < BK:
        w("\tmov.u32 %d, 0;\nDOT_LOOP:")
    for u in range(unroll):
        if unroll == BK and u == 1:
            w(f"""	// @end

	// @unrolled
	// Steps d = 1 .. {BK - 1}: the same {TM + TN} loads and {TM * TN} multiply-adds, the addresses
	// moved by 4*d bytes in As and {BN * 4}*d bytes in Bs. Written out in full (no loop
	// counter, no branch), the offsets are constants inside the load instructions.""")
        if unroll > 1:
            w(f"\t// d = {u}" if unroll == BK else f"\t// d + {u}")
        # A row i holds steps d .. d+3 side by side, so one 16-byte load brings
        # four steps' worth; ptxas merges four scalar loads into exactly this,
        # and writing it out keeps the PTX equal to what the hardware runs.
        q = u % 4
        if q == 0:
            for i in range(TM):
                w(f"\tld.shared.v4.f32 {{%a{i}_0, %a{i}_1, %a{i}_2, %a{i}_3}}, [%sA+{TROWS * BK * 4 * i + 4 * u}];")
        for j in range(TN):
            w(f"\tld.shared.f32 %b{j}, [%sB+{TCOLS * 4 * j + BN * 4 * u}];")
        for i in range(TM):
            w("\t" + " ".join(f"fma.rn.f32 %c{i}{j}, %a{i}_{q}, %b{j}, %c{i}{j};" for j in range(TN)) if compact else
              "\n".join(f"\tfma.rn.f32 %c{i}{j}, %a{i}_{q}, %b{j}, %c{i}{j};" for j in range(TN)))
    if unroll < BK:
        w(f"""	add.u32 %sA, %sA, {4 * unroll};                     // next column of As
	add.u32 %sB, %sB, {BN * 4 * unroll};                   // next row of Bs
	add.u32 %d, %d, {unroll};
	setp.lt.u32 %more, %d, {BK};
	@%more bra DOT_LOOP;""")
    w(f"""	// @end

	// @barrier
	// Every thread must be done with the tiles before they are overwritten.
	bar.sync 0;
	// @end

{"" if prefetch else advance}
	setp.lt.u32 %more, %k0, %K;
	@%more bra TILE_LOOP;

	// @store
STORE:
	// C[row0 + tr + {TROWS}*i][col0 + tc + {TCOLS}*j] = c<i><j>, skipping what lies outside C.
	// Lanes 0-15 of a warp write 16 neighbouring floats of one row, lanes 16-31
	// of the next.
	add.u32 %row, %row0, %tr;
	add.u32 %col, %col0, %tc;
	mul.wide.u32 %off, %row, %N;
	cvt.u64.u32 %wide, %col;
	add.u64 %off, %off, %wide;
	shl.b64 %off, %off, 2;
	add.u64 %pC, %C, %off;
	mul.wide.u32 %rowC, %N, {TROWS * 4};             // {TROWS} rows of C in bytes""")
    for i in range(TM):
        w(f"\t// row tr + {TROWS * i}")
        w("\tsetp.lt.u32 %rowOK, %row, %M;")
        for j in range(TN):
            w(f"\tadd.u32 %tmp, %col, {TCOLS * j};" if j else "\tmov.u32 %tmp, %col;")
            w("\tsetp.lt.and.u32 %ok, %tmp, %N, %rowOK;")
            w(f"\t@%ok st.global.f32 [%pC+{TCOLS * 4 * j}], %c{i}{j};")
        if i < TM - 1:
            w(f"\tadd.u32 %row, %row, {TROWS};")
            w("\tadd.u64 %pC, %pC, %rowC;")
    w("""	// @end
DONE:
	ret;
}""")
    return "\n".join(L) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("kernel", choices=("1d", "2d"))
    p.add_argument("--prefetch", action="store_true")
    p.add_argument("--maxnreg", type=int)
    p.add_argument("--entry")
    p.add_argument("--unroll", type=int)
    p.add_argument("--compact", action="store_true")
    a = p.parse_args()
    # Only the options given: each kernel keeps its own defaults for the rest.
    opts = {k: v for k, v in vars(a).items() if k != "kernel" and v is not None and v is not False}
    if a.kernel == "1d" and set(opts) - {"prefetch", "maxnreg", "entry"}:
        p.error("--unroll and --compact are for the 2d kernel")
    sys.stdout.write((blocktile1d if a.kernel == "1d" else blocktile2d)(**opts))


if __name__ == "__main__":
    main()
