#!/usr/bin/env python3
"""Writes ptx/08_mma.ptx, the tensor-core lesson's kernel (hgemm_mma).

The kernel body is long and regular (one mma per 16x8 accumulator tile, one
ldmatrix per 16x16 operand block, one cp.async per 16-byte chunk), so it is
unrolled here; the PTX it writes is what the lesson shows and what runs.

    python3 ptx/gen/08_mma.py                      > ptx/08_mma.ptx
    python3 ptx/gen/08_mma.py --bn 128 --wn 32 ...  (variants for timing)
    python3 ptx/gen/08_mma.py --swizzle 8           (bands of 8 block rows; not faster at 4096^3)

Layout facts used below (PTX ISA, "Matrix Fragments for mma.m16n8k16 with
floating point type" and "ldmatrix"): with g = lane>>2 and t = lane&3,
  A (16x16, row): reg0 = A[g][2t..2t+1], reg1 = A[g+8][2t..], reg2 = A[g][2t+8..], reg3 = A[g+8][2t+8..]
  B (16x8, col):  reg0 = B[2t..2t+1][g], reg1 = B[2t+8..2t+9][g]
  C (16x8, f32):  c0,c1 = C[g][2t..2t+1], c2,c3 = C[g+8][2t..2t+1]
  ldmatrix .x4: lanes 8i..8i+7 give the row addresses of matrix i; lane l gets
  row l>>2, columns 2(l&3), 2(l&3)+1 of matrix i in register i (.trans: the
  same of the transposed matrix, i.e. rows 2(l&3).. of column l>>2).
"""
import argparse
import sys

from banner import banner


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bm", type=int, default=128)
    p.add_argument("--bn", type=int, default=256)
    p.add_argument("--bk", type=int, default=32, choices=(32, 64))
    p.add_argument("--wm", type=int, default=64)
    p.add_argument("--wn", type=int, default=64)
    p.add_argument("--stages", type=int, default=4)
    p.add_argument("--swizzle", type=int, default=0,
                   help="walk the blocks in bands of this many block rows, column by column (0: row by row)")
    p.add_argument("--entry", default="hgemm_mma")
    p.add_argument("--pipeline", type=int, default=1,
                   help="1: load the next k16 slice's fragments while the current one multiplies")
    return p.parse_args()


class Gen:
    def __init__(self, a):
        self.a = a
        self.BM, self.BN, self.BK = a.bm, a.bn, a.bk
        self.WM, self.WN, self.S = a.wm, a.wn, a.stages
        self.WARPS_M = self.BM // self.WM
        self.WARPS_N = self.BN // self.WN
        self.NWARPS = self.WARPS_M * self.WARPS_N
        self.NT = 32 * self.NWARPS
        self.MT = self.WM // 16           # 16-row mma tiles per warp
        self.NTL = self.WN // 8           # 8-column mma tiles per warp
        self.KS = self.BK // 16           # k16 slices per BK tile
        self.CA = self.BK // 8            # 16-byte chunks per A tile row
        self.CB = self.BN // 8            # 16-byte chunks per B tile row
        self.A_BYTES = self.BM * self.BK * 2
        self.B_BYTES = self.BK * self.BN * 2
        self.STAGE = self.A_BYTES + self.B_BYTES
        self.nA = self.BM * self.CA // self.NT   # cp.async per thread for A
        self.nB = self.BK * self.CB // self.NT   # ... for B
        assert self.NT == 256 and self.nA >= 1 and self.nB >= 1
        assert self.NT % self.CA == 0 and self.NT % self.CB == 0
        assert self.CB >= 8 and self.NTL % 2 == 0
        self.out = []

    def w(self, s=""):
        self.out.append(s)

    # ---------------------------------------------------------------- header
    def header(self):
        g = self
        w = self.w
        w(banner() + "//")
        w("// 08_mma.ptx - tensor cores: C (f32) = A (f16) . B (f16), accumulated in f32.")
        w("//")
        w(f"// Block tile {g.BM}x{g.BN}, k-tile BK={g.BK}, {g.NWARPS} warps ({g.WARPS_M}x{g.WARPS_N}),"
          f" each warp a {g.WM}x{g.WN} tile made of")
        w(f"// {g.MT}x{g.NTL} mma.m16n8k16 tiles. Global -> shared with cp.async in a"
          f" {g.S}-stage ring, shared -> registers")
        w("// with ldmatrix (A as is, B transposed on the fly), then mma.sync on the tensor cores.")
        if g.a.pipeline:
            w("// Two sets of fragment registers: the ldmatrix of the next k16 slice (even across the")
            w("// k-tile boundary and its barrier) is issued before the products of the current one.")
        w(f"// Requires M % {g.BM} == 0, N % {g.BN} == 0, K % {g.BK} == 0 (the lesson says so with `multiple:`).")
        w("//")
        w("// Written out by ptx/gen/08_mma.py (the body is unrolled); edit the generator, not this file.")
        w("//")
        w(".version 7.0            // cp.async and mma.m16n8k16 arrived with PTX 7.0 ...")
        w(".target sm_80           // ... and with Ampere (sm_80)")
        w(".address_size 64")
        w("")
        w(f"// Dynamic shared memory: {g.S} stages x (A tile {g.A_BYTES} B + B tile {g.B_BYTES} B)"
          f" = {g.S * g.STAGE} bytes.")
        w(".extern .shared .align 1024 .b8 smem[];")
        w("")
        w(f".visible .entry {g.a.entry}(")
        w("\t.param .u64 A,         // M x K f16, row-major")
        w("\t.param .u64 B,         // K x N f16, row-major")
        w("\t.param .u64 C,         // M x N f32, row-major")
        w("\t.param .u32 M,")
        w("\t.param .u32 N,")
        w("\t.param .u32 K)")
        w(f".maxntid {g.NT}, 1, 1")
        w("{")

    def decls(self):
        g = self
        w = self.w
        nacc = g.MT * g.NTL * 4
        w(f"\t// Accumulators: %acc[(mi*{g.NTL} + ni)*4 + j] is element c_j of the warp's mma tile (mi, ni):")
        w("\t//   c0,c1 = C[16mi + grp][8ni + 2quad + 0/1], c2,c3 = the same 8 rows further down.")
        w(f"\t.reg .f32  %acc<{nacc}>;")
        nb = 2 if g.a.pipeline else 1
        w(f"\t// Operand fragments of a k16 slice: %fa[s*{g.MT * 4} + mi*4 + r] (A, {g.MT} tiles of 16x16),")
        w(f"\t// %fb[s*{g.NTL * 2} + ni*2 + r] (B, {g.NTL} tiles of 16x8); each .b32 holds two f16."
          + (" Two sets s = 0, 1:" if nb == 2 else ""))
        if nb == 2:
            w("\t// one is multiplied while the other is being loaded.")
        w(f"\t.reg .b32  %fa<{g.MT * 4 * nb}>;")
        w(f"\t.reg .b32  %fb<{g.NTL * 2 * nb}>;")
        w("\t.reg .pred %more, %prefetch;")
        w("\t.reg .u32  %thr, %lane, %warp, %warpM, %warpN, %grp, %quad;")
        w("\t.reg .u32  %n, %k, %kTiles, %kt, %rowBlock, %colBlock;")
        w("\t.reg .u32  %ldRow, %ldCol, %ldKey, %x, %y;")
        w("\t.reg .u32  %smemBase, %stA, %stB, %rdStage, %wrStage, %rdA, %rdB;")
        w("\t.reg .u32  %ldA0, %ldA1;")
        w("\t.reg .u32  " + ", ".join(f"%ldB{i}" for i in range(g.NTL // 2)) + ";")
        w("\t.reg .u64  %pA, %pB, %pC, %gA, %gB, %strideA, %strideB, %stepB, %rowStepC, %t64, %u64;")
        w("")

    # ------------------------------------------------------------------ index
    def index(self):
        g = self
        w = self.w
        w("// @index")
        w("\t// Who am I: warp (warpM, warpN) of the block's warp grid; inside the warp,")
        w("\t// the mma layouts name lanes by grp = lane/4 and quad = lane%4.")
        w("\tmov.u32         %thr, %tid.x;")
        w("\tand.b32         %lane, %thr, 31;")
        w("\tshr.u32         %warp, %thr, 5;")
        w(f"\tshr.u32         %warpM, %warp, {log2(g.WARPS_N)};        // warp / {g.WARPS_N}")
        w(f"\tand.b32         %warpN, %warp, {g.WARPS_N - 1};        // warp % {g.WARPS_N}")
        w("\tshr.u32         %grp, %lane, 2;")
        w("\tand.b32         %quad, %lane, 3;")
        if g.a.swizzle:
            self.swizzle(g.a.swizzle)
        else:
            w(f"\tmov.u32         %x, %ctaid.y;")
            w(f"\tshl.b32         %rowBlock, %x, {log2(g.BM)};     // first row of C this block owns (ctaid.y * {g.BM})")
            w(f"\tmov.u32         %x, %ctaid.x;")
            w(f"\tshl.b32         %colBlock, %x, {log2(g.BN)};     // first column (ctaid.x * {g.BN})")
        w("\tld.param.u64    %pA, [A];")
        w("\tld.param.u64    %pB, [B];")
        w("\tld.param.u64    %pC, [C];")
        w("\tld.param.u32    %n, [N];")
        w("\tld.param.u32    %k, [K];")
        w("\tcvta.to.global.u64 %pA, %pA;")
        w("\tcvta.to.global.u64 %pB, %pB;")
        w("\tcvta.to.global.u64 %pC, %pC;")
        w(f"\tshr.u32         %kTiles, %k, {log2(g.BK)};        // K / BK tiles along k")
        w("// @end")
        w("")

    def swizzle(self, G):
        """Block (row, column) from the launch order: bands of G block rows, column by column."""
        g = self
        w = self.w
        w(f"\t// Blocks walk bands of {G} block rows, column by column, so that the blocks")
        w("\t// running at the same time share panels of A and B in L2.")
        w("\tmov.u32         %x, %nctaid.x;")
        w("\tmov.u32         %y, %ctaid.y;")
        w("\tmov.u32         %colBlock, %ctaid.x;")
        w("\tmad.lo.u32      %colBlock, %y, %x, %colBlock;  // launch order of this block")
        w(f"\tmul.lo.u32      %x, %x, {G};                  // blocks in a band")
        w("\tdiv.u32         %y, %colBlock, %x;           // band")
        w("\trem.u32         %colBlock, %colBlock, %x;    // place in the band")
        w(f"\tmul.lo.u32      %rowBlock, %y, {G};           // the band's first block row")
        w("\tmov.u32         %x, %nctaid.y;")
        w("\tsub.u32         %x, %x, %rowBlock;")
        w(f"\tmin.u32         %x, %x, {G};                  // block rows in this band")
        w("\trem.u32         %y, %colBlock, %x;")
        w("\tdiv.u32         %colBlock, %colBlock, %x;    // block column")
        w("\tadd.u32         %rowBlock, %rowBlock, %y;    // block row")
        w(f"\tshl.b32         %rowBlock, %rowBlock, {log2(g.BM)};  // first row of C this block owns")
        w(f"\tshl.b32         %colBlock, %colBlock, {log2(g.BN)};  // first column")

    # ---------------------------------------------------------------- copy map
    def copymap(self):
        g = self
        w = self.w
        rowsA = g.NT // g.CA
        rowsB = g.NT // g.CB
        w("// @swizzle")
        w("\t// Shared tiles are stored in 16-byte chunks (8 f16). A chunk's place in its row is")
        w("\t// XORed with a few bits of the row number, so that the 8 rows an ldmatrix reads at")
        w("\t// the same column fall into 8 different groups of 4 banks: no bank conflicts, no padding.")
        if g.BK == 32:
            w("\t// A rows are 64 bytes (two per 128-byte line): chunk' = chunk ^ ((row >> 1) & 3).")
        else:
            w("\t// A rows are 128 bytes: chunk' = chunk ^ (row & 7).")
        w(f"\t// B rows are {g.BN * 2} bytes: chunk' = chunk ^ (k & 7).")
        w("\t//")
        w(f"\t// Copy map for A: thread -> row tid/{g.CA}, chunk tid%{g.CA}; "
          f"{g.nA} chunk(s) per thread, {rowsA} rows apart.")
        w(f"\tshr.u32         %ldRow, %thr, {log2(g.CA)};")
        w(f"\tand.b32         %ldCol, %thr, {g.CA - 1};")
        if g.BK == 32:
            w("\tshr.u32         %ldKey, %ldRow, 1;")
            w("\tand.b32         %ldKey, %ldKey, 3;")
        else:
            w("\tand.b32         %ldKey, %ldRow, 7;")
        w("\txor.b32         %x, %ldCol, %ldKey;")
        w("\tshl.b32         %x, %x, 4;")
        w(f"\tmad.lo.u32      %stA, %ldRow, {g.BK * 2}, %x;    // byte offset in the A tile")
        w(f"\tadd.u32         %x, %rowBlock, %ldRow;")
        w("\tmul.wide.u32    %t64, %x, %k;")
        w(f"\tmul.wide.u32    %u64, %ldCol, 8;")
        w("\tadd.u64         %t64, %t64, %u64;")
        w("\tshl.b64         %t64, %t64, 1;")
        w("\tadd.u64         %gA, %pA, %t64;             // &A[rowBlock + row][chunk*8]")
        w(f"\tmul.wide.u32    %strideA, %k, {rowsA * 2};     // {rowsA} rows of A, in bytes")
        w(f"\t// Copy map for B: thread -> k row tid/{g.CB}, chunk tid%{g.CB}; "
          f"{g.nB} chunks per thread, {rowsB} rows apart.")
        w(f"\tshr.u32         %ldRow, %thr, {log2(g.CB)};")
        w(f"\tand.b32         %ldCol, %thr, {g.CB - 1};")
        w("\tand.b32         %ldKey, %ldRow, 7;")
        w("\txor.b32         %x, %ldCol, %ldKey;")
        w("\tshl.b32         %x, %x, 4;")
        w(f"\tmad.lo.u32      %stB, %ldRow, {g.BN * 2}, %x;")
        w(f"\tadd.u32         %stB, %stB, {g.A_BYTES};      // the B tile follows the A tile in a stage")
        w("\tmul.wide.u32    %t64, %ldRow, %n;")
        w("\tshl.b32         %x, %ldCol, 3;")
        w("\tadd.u32         %x, %x, %colBlock;          // column colBlock + chunk*8")
        w("\tcvt.u64.u32     %u64, %x;")
        w("\tadd.u64         %t64, %t64, %u64;")
        w("\tshl.b64         %t64, %t64, 1;")
        w("\tadd.u64         %gB, %pB, %t64;             // &B[row][colBlock + chunk*8]")
        w(f"\tmul.wide.u32    %strideB, %n, {rowsB * 2};")
        w(f"\tmul.wide.u32    %stepB, %n, {g.BK * 2};       // one k-tile down B")
        w("\t//")
        w("\t// Read map for ldmatrix.x4: lane l gives the address of row l%16 of a 16x16 block,")
        w("\t// left half for lanes 0-15, right half (8 columns on) for lanes 16-31.")
        w("\t// A: rows of the warp's tile, k chunk (l >> 4), swizzled as above.")
        w("\tand.b32         %x, %lane, 15;")
        w(f"\tmad.lo.u32      %x, %warpM, {g.WM}, %x;        // row in the A tile")
        w("\tshr.u32         %y, %lane, 4;")
        if g.BK == 32:
            w("\tshr.u32         %ldKey, %x, 1;")
            w("\tand.b32         %ldKey, %ldKey, 3;")
        else:
            w("\tand.b32         %ldKey, %x, 7;")
        w("\txor.b32         %y, %y, %ldKey;")
        w("\tshl.b32         %y, %y, 4;")
        w(f"\tmad.lo.u32      %ldA0, %x, {g.BK * 2}, %y;")
        w("\t// The next k16 slice is 2 chunks on; through the XOR that is bit 5 of the offset.")
        w("\txor.b32         %ldA1, %ldA0, 32;")
        w("\t// B (k x n, read transposed): k row l%16, n chunk warpN*WN/8 + 2p + (l >> 4) for")
        w(f"\t// the p-th pair of 8-column tiles; the key is k & 7 = l & 7.")
        w("\tand.b32         %x, %lane, 15;")
        w("\tshr.u32         %y, %lane, 4;")
        w(f"\tmad.lo.u32      %y, %warpN, {g.WN // 8}, %y;        // n chunk of pair 0")
        w("\tand.b32         %ldKey, %lane, 7;")
        w("\txor.b32         %y, %y, %ldKey;")
        w("\tshl.b32         %y, %y, 4;")
        w(f"\tmad.lo.u32      %ldB0, %x, {g.BN * 2}, %y;")
        w(f"\tadd.u32         %ldB0, %ldB0, {g.A_BYTES};")
        for p in range(1, g.NTL // 2):
            w(f"\txor.b32         %ldB{p}, %ldB0, {p * 32};          // pair {p}: chunk 2*{p} further, through the XOR")
        w("\tmov.u32         %smemBase, smem;")
        w("// @end")
        w("")

    # -------------------------------------------------------------- load tile
    def issue(self, stage_reg, tile_reg, skip, comment):
        """Copies of one k-tile into the stage at stage_reg, skipped when tile_reg >= kTiles;
        a commit group is closed either way so that wait_group counts stay in step."""
        g = self
        w = self.w
        w(f"\t// {comment}")
        w(f"\tsetp.lt.u32     %prefetch, {tile_reg}, %kTiles;")
        w(f"\t@!%prefetch bra {skip};")
        w(f"\tadd.u32         %x, {stage_reg}, %stA;")
        w("\tmov.u64         %t64, %gA;")
        for i in range(g.nA):
            if i:
                w("\tadd.u64         %t64, %t64, %strideA;")
            off = f"+{i * 4096}" if i else ""
            w(f"\tcp.async.cg.shared.global [%x{off}], [%t64], 16;")
        w(f"\tadd.u32         %x, {stage_reg}, %stB;")
        w("\tmov.u64         %t64, %gB;")
        for i in range(g.nB):
            if i:
                w("\tadd.u64         %t64, %t64, %strideB;")
            off = f"+{i * 4096}" if i else ""
            w(f"\tcp.async.cg.shared.global [%x{off}], [%t64], 16;")
        w(f"\tadd.u64         %gA, %gA, {g.BK * 2};            // next k-tile: BK columns of A on ...")
        w("\tadd.u64         %gB, %gB, %stepB;           // ... and BK rows of B down")
        w(f"{skip}:")
        w("\tcp.async.commit_group;")

    def prologue(self):
        g = self
        w = self.w
        w("// @prologue")
        w(f"\t// Fill the ring: start the copies of k-tiles 0..{g.S - 2} before any compute,")
        w("\t// one commit group per tile (empty when K is too short to have that tile).")
        w("\tmov.u32         %wrStage, %smemBase;")
        for s in range(g.S - 1):
            w(f"\tmov.u32         %kt, {s};")
            self.issue("%wrStage", "%kt", f"FILLED_{s}", f"k-tile {s} -> stage {s}")
            w(f"\tadd.u32         %wrStage, %wrStage, {g.STAGE};")
        w("\tmov.u32         %rdStage, %smemBase;")
        w("\tmov.u32         %kt, 0;")
        w("// @end")
        w("")

    # ---------------------------------------------------------------- compute
    def ldm(self, ks, buf, regions, what=None):
        """ldmatrix of k16 slice ks of the stage at %rdStage into fragment set buf."""
        g = self
        w = self.w
        fa0, fb0 = buf * g.MT * 4, buf * g.NTL * 2
        if regions:
            w("// @ldmatrix")
        w(f"\t// {what or f'k16 slice {ks}'} -> fragment set {buf}.")
        w(f"\t// A for the warp's {g.MT} row tiles, then B: two 8-column tiles per ldmatrix.x4.trans.")
        lda = "%ldA0" if ks == 0 else "%ldA1"
        if ks >= 2:
            lda = "%x"
            w(f"\txor.b32         %x, %ldA0, {ks * 32};          // slice {ks}: chunk 2*{ks}, through the XOR")
        w(f"\tadd.u32         %rdA, %rdStage, {lda};")
        for mi in range(g.MT):
            off = f"+{mi * 16 * g.BK * 2}" if mi else ""
            regs = ", ".join(f"%fa{fa0 + mi * 4 + r}" for r in range(4))
            w(f"\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{regs}}}, [%rdA{off}];")
        koff = ks * 16 * g.BN * 2
        for p in range(g.NTL // 2):
            regs = ", ".join(f"%fb{fb0 + p * 4 + r}" for r in range(4))
            w(f"\tadd.u32         %rdB, %rdStage, %ldB{p};")
            off = f"+{koff}" if koff else ""
            w(f"\tldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{{regs}}}, [%rdB{off}];")
        if regions:
            w("// @end")

    def mma(self, ks, buf, regions):
        g = self
        w = self.w
        fa0, fb0 = buf * g.MT * 4, buf * g.NTL * 2
        if regions:
            w("// @mma")
            w(f"\t// {g.MT * g.NTL} tensor-core products per k16 slice: tile (mi, ni) += A[mi] . B[ni].")
        else:
            w(f"\t// k16 slice {ks}: the products, from fragment set {buf}.")
        for mi in range(g.MT):
            for ni in range(g.NTL):
                acc = ", ".join(f"%acc{(mi * g.NTL + ni) * 4 + j}" for j in range(4))
                fa = ", ".join(f"%fa{fa0 + mi * 4 + r}" for r in range(4))
                fb = f"%fb{fb0 + ni * 2}, %fb{fb0 + ni * 2 + 1}"
                w(f"\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{{acc}}}, {{{fa}}}, {{{fb}}}, {{{acc}}};")
        if regions:
            w("// @end")

    def wait_barrier(self, regions):
        g = self
        w = self.w
        if regions:
            w("// @barrier")
        w(f"\t// Wait until at most {g.S - 2} of this thread's copy groups are in flight, so the next")
        w("\t// k-tile has landed; the barrier makes every thread's chunks visible to all warps,")
        w("\t// and tells us that every warp is done reading the stage the next copy overwrites.")
        w(f"\tcp.async.wait_group {g.S - 2};")
        w("\tbar.sync 0;")
        if regions:
            w("// @end")

    def advance_read(self):
        g = self
        w = self.w
        w("\tadd.u32         %rdStage, %rdStage, " + str(g.STAGE) + ";     // read the next stage of the ring")
        w(f"\tsub.u32         %x, %rdStage, %smemBase;")
        w(f"\tsetp.eq.u32     %more, %x, {g.S * g.STAGE};")
        w(f"\t@%more mov.u32  %rdStage, %smemBase;")

    def load_tile(self):
        g = self
        w = self.w
        w("// @load-tile")
        w(f"\t// Start copying k-tile kt+{g.S - 1} into the stage freed by kt-1.")
        w(f"\tadd.u32         %y, %kt, {g.S - 1};")
        self.issue("%wrStage", "%y", "PREFETCHED", f"k-tile kt+{g.S - 1} -> stage wrStage")
        w(f"\tadd.u32         %wrStage, %wrStage, {g.STAGE};")
        w(f"\tsub.u32         %x, %wrStage, %smemBase;")
        w(f"\tsetp.eq.u32     %more, %x, {g.S * g.STAGE};")
        w(f"\t@%more mov.u32  %wrStage, %smemBase;        // the ring wraps")
        w("// @end")

    def zero_acc(self):
        zero_acc(self)

    def loop(self):
        g = self
        w = self.w
        self.zero_acc()
        w("\tsetp.eq.u32     %more, %kTiles, 0;")
        w("\t@%more bra      EPILOGUE;                // K = 0: C is all zeros")
        if not g.a.pipeline:
            w("MAIN_LOOP:")
            self.wait_barrier(True)
            self.load_tile()
            for ks in range(g.KS):
                self.ldm(ks, 0, ks == 0)
                self.mma(ks, 0, ks == 0)
            w("\t// Next k-tile: advance the read stage around the ring.")
            self.advance_read()
        else:
            w("\t// Before the loop: wait for k-tile 0 and load its first k16 slice, so that every")
            w("\t// slice's products below overlap the ldmatrix of the slice after it.")
            w(f"\tcp.async.wait_group {g.S - 2};")
            w("\tbar.sync 0;")
            self.ldm(0, 0, False, "k-tile 0, k16 slice 0")
            w("")
            w("MAIN_LOOP:")
            for ks in range(g.KS):
                cur, nxt = ks % 2, (ks + 1) % 2
                if ks < g.KS - 1:
                    self.ldm(ks + 1, nxt, ks == 0, f"k16 slice {ks + 1}, loaded while slice {ks} multiplies,")
                else:
                    self.wait_barrier(True)
                    self.advance_read()
                    self.ldm(0, nxt, False, "Next k-tile's slice 0 (after the last k-tile: stale, never used)")
                if ks == 0:
                    self.load_tile()
                self.mma(ks, cur, ks == 0)
        w("\tadd.u32         %kt, %kt, 1;")
        w("\tsetp.lt.u32     %more, %kt, %kTiles;")
        w("\t@%more bra      MAIN_LOOP;")
        w("")

    def store(self):
        g = self
        w = self.w
        w("EPILOGUE:")
        w("// @store")
        store_c(g)
        w("// @end")
        w("\tret;")
        w("}")

    def emit(self):
        self.header()
        self.decls()
        self.index()
        self.copymap()
        self.prologue()
        self.loop()
        self.store()
        return "\n".join(l for l in self.out if l is not None) + "\n"


def zero_acc(g):
    """The f32 accumulators to zero, eight to a line (lesson 11's mma.sync kernels call it too)."""
    g.w("\t// Accumulators start at zero.")
    for i in range(0, g.MT * g.NTL * 4, 8):
        g.w("\t" + " ".join(f"mov.f32 %acc{j}, 0f00000000;" for j in range(i, i + 8)))
    g.w("")


def store_c(g):
    """The f32 C fragments of mma.sync (c0,c1 at row grp, c2,c3 at grp+8, columns 2*quad..) to C, by rows
    of v2 stores (lesson 11's mma.sync kernels call it too)."""
    w = g.w
    w("\t// Each quad of lanes holds 2 adjacent f32 per row of an mma tile: store them as one")
    w("\t// 8-byte st.global.v2.f32 to C[row][col], rows grp and grp+8 of every tile.")
    w(f"\tmad.lo.u32      %x, %warpM, {g.WM}, %grp;")
    w("\tadd.u32         %x, %x, %rowBlock;          // row of c0,c1 in tile (0, 0)")
    w(f"\tmad.lo.u32      %y, %warpN, {g.WN}, %colBlock;")
    w("\tmad.lo.u32      %y, %quad, 2, %y;           // column of c0")
    w("\tmul.wide.u32    %t64, %x, %n;")
    w("\tcvt.u64.u32     %u64, %y;")
    w("\tadd.u64         %t64, %t64, %u64;")
    w("\tshl.b64         %t64, %t64, 2;")
    w("\tadd.u64         %pC, %pC, %t64;")
    w("\tmul.wide.u32    %rowStepC, %n, 32;          // 8 rows of C in bytes")
    for mi in range(g.MT):
        w("\tadd.u64         %t64, %pC, %rowStepC;")
        for half, ptr in ((0, "%pC"), (1, "%t64")):
            for ni in range(g.NTL):
                base = (mi * g.NTL + ni) * 4 + 2 * half
                off = f"+{ni * 32}" if ni else ""
                w(f"\tst.global.v2.f32 [{ptr}{off}], {{%acc{base}, %acc{base + 1}}};")
        if mi < g.MT - 1:
            w("\tadd.u64         %pC, %t64, %rowStepC;        // next 16-row tile")


def log2(v):
    r = v.bit_length() - 1
    assert 1 << r == v, v
    return r


if __name__ == "__main__":
    sys.stdout.write(Gen(parse()).emit())
