#!/usr/bin/env python3
"""Writes ptx/11_formats.ptx, lesson 11's mma.sync kernels: gemm_tf32, gemm_3xtf32, gemm_bf16.

The three share lesson 8's structure (ptx/gen/08_mma.py, copied here so that
retuning lesson 8 does not change lesson 11; only C's zeroing and store are called from there): cp.async into a ring of shared
stages, ldmatrix into fragment registers (two sets: the next k slice loads
while the current one multiplies), mma.sync on the tensor cores, f32 out.

    python3 ptx/gen/11_formats.py              > ptx/11_formats.ptx
    python3 ptx/gen/11_formats.py --tf32 128,256,32,64,64,3   (a variant for timing: BM,BN,BK,WM,WN,STAGES)

gemm_tf32 and gemm_3xtf32 read f32 A (M x K) and B (K x N), row-major, and
round on the way to the tensor cores; gemm_bf16 reads bf16. The fragments
(PTX ISA 9.7.14.5.7 "Matrix Fragments for mma.m16n8k8", .tf32; 9.7.14.5.8
"... mma.m16n8k16 with floating point type"), with g = lane>>2, t = lane&3:
  tf32 k8   A (16x8):  a0 = A[g][t], a1 = A[g+8][t], a2 = A[g][t+4], a3 = A[g+8][t+4]
            B (8x8):   b0 = B[t][g], b1 = B[t+4][g]
  bf16 k16  A (16x16): two per register, as lesson 8's f16; B (16x8): b0,b1 = B[2t..2t+1][g], ...
  C (16x8, f32, both): c0,c1 = C[g][2t..2t+1], c2,c3 = C[g+8][2t..2t+1]
ldmatrix .b16 gives lane l the 32-bit word l&3 of row l>>2 of an 8x8 (16-bit)
matrix: for 32-bit elements that is A[l>>2][l&3], a tf32 A fragment as it is.
Its .trans swaps 16-bit halves, which would split a 32-bit element, so tf32's
B (needed as B[t][g]: k from the lane's low bits) is read with ld.shared.b32.
"""
import argparse
import sys

from banner import banner, sibling

# Lesson 8's generator, for the two pieces that are facts of mma.sync rather than of a tuning: the
# accumulators' zeroing and the f32 C fragments' store.
L8 = sibling("08_mma.py")

# Per entry: element bytes, the mma, tile defaults.
FORMATS = {
    "tf32": dict(entry="gemm_tf32", es=4, mma="m16n8k8.row.col.f32.tf32.tf32.f32", kslice=8,
                 bm=128, bn=128, bk=32, wm=64, wn=32, stages=3),
    "3xtf32": dict(entry="gemm_3xtf32", es=4, mma="m16n8k8.row.col.f32.tf32.tf32.f32", kslice=8,
                   bm=128, bn=128, bk=32, wm=64, wn=32, stages=3),
    "bf16": dict(entry="gemm_bf16", es=2, mma="m16n8k16.row.col.f32.bf16.bf16.f32", kslice=16,
                 bm=128, bn=256, bk=32, wm=64, wn=64, stages=4),
}

# Region names are unique in a file: the first entry (tf32) marks the whole
# pipeline, the others the parts that differ.
REGIONS = {
    "tf32": {"index", "swizzle", "prologue", "load-tile", "ldmatrix", "convert", "mma", "barrier", "store"},
    "3xtf32": {"split", "mma-3x"},
    "bf16": {"mma-bf16"},
}


def shape(text):
    """BM,BN,BK,WM,WN,STAGES."""
    v = [int(x) for x in text.split(",")]
    if len(v) != 6:
        raise argparse.ArgumentTypeError("give BM,BN,BK,WM,WN,STAGES, e.g. 128,256,32,64,64,3")
    return dict(zip(("bm", "bn", "bk", "wm", "wn", "stages"), v))


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for fmt in FORMATS:
        f = FORMATS[fmt]
        default = ",".join(str(f[k]) for k in ("bm", "bn", "bk", "wm", "wn", "stages"))
        p.add_argument("--" + fmt, type=shape, default=None, metavar="BM,BN,BK,WM,WN,S",
                       help=f"{f['entry']}'s tiles and ring depth (default {default}); 8 warps")
    return p.parse_args()


def log2(v):
    r = v.bit_length() - 1
    assert 1 << r == v, v
    return r


class Gen:
    def __init__(self, fmt, args):
        f = dict(FORMATS[fmt], **(getattr(args, fmt) or {}))
        self.fmt, self.entry, self.ES, self.MMA, self.KSL = fmt, f["entry"], f["es"], f["mma"], f["kslice"]
        self.tf32 = fmt != "bf16"
        self.BM, self.BN, self.BK, self.WM, self.WN = f["bm"], f["bn"], f["bk"], f["wm"], f["wn"]
        self.S = f["stages"]
        self.regions = REGIONS[fmt]
        self.WARPS_M, self.WARPS_N = self.BM // self.WM, self.BN // self.WN
        self.NT = 32 * self.WARPS_M * self.WARPS_N
        self.MT, self.NTL = self.WM // 16, self.WN // 8     # mma tiles of a warp
        self.RA, self.RB = self.BK * self.ES, self.BN * self.ES  # bytes of a shared row of A, of B
        self.KS = self.RA // 32           # k slices per k-tile: 32 bytes of a row each (k16 bf16, k8 tf32)
        self.CA, self.CB = self.RA // 16, self.RB // 16     # 16-byte chunks per row
        self.EPC = 16 // self.ES          # elements per chunk
        self.A_BYTES, self.B_BYTES = self.BM * self.RA, self.BK * self.RB
        self.STAGE = self.A_BYTES + self.B_BYTES
        self.nA, self.nB = self.BM * self.CA // self.NT, self.BK * self.CB // self.NT
        self.rowsA, self.rowsB = self.NT // self.CA, self.NT // self.CB
        assert self.NT == 256 and self.nA >= 1 and self.nB >= 1 and self.RA in (64, 128)
        # a thread's copies are rowsA (rowsB) rows apart: the XOR keys must not change between them
        assert self.rowsA % 8 == 0 and self.rowsB % (4 if self.tf32 else 8) == 0
        assert self.CB >= 8 and self.NTL % 2 == 0
        assert not self.tf32 or self.WN >= 32  # the tf32 B read map XORs ni and 2*quad into bits 5..
        self.out = []

    def w(self, s=""):
        self.out.append(s)

    def region(self, name):
        if name in self.regions:
            self.w(f"// @{name}")
            return True
        return False

    def end(self, opened):
        if opened:
            self.w("// @end")

    # ---------------------------------------------------------------- entry
    def signature(self):
        g, w = self, self.w
        t = "f32" if g.tf32 else "bf16"
        w(f".visible .entry {g.entry}(")
        w(f"\t.param .u64 A,         // M x K {t}, row-major")
        w(f"\t.param .u64 B,         // K x N {t}, row-major")
        w("\t.param .u64 C,         // M x N f32, row-major")
        w("\t.param .u32 M,")
        w("\t.param .u32 N,")
        w("\t.param .u32 K)")
        w(f".maxntid {g.NT}, 1, 1")
        w("{")

    def decls(self):
        g, w = self, self.w
        w(f"\t// Accumulators: %acc[(mi*{g.NTL} + ni)*4 + j] is element c_j of the warp's mma tile (mi, ni).")
        w(f"\t.reg .f32  %acc<{g.MT * g.NTL * 4}>;")
        per = "one f32 (a tf32 once converted)" if g.tf32 else "two bf16"
        w(f"\t// Fragments of a k slice, two sets s = 0, 1 (one multiplies while the other loads):")
        w(f"\t// %fa[s*{g.MT * 4} + mi*4 + r] (A), %fb[s*{g.NTL * 2} + ni*2 + r] (B); each .b32 holds {per}.")
        w(f"\t.reg .b32  %fa<{g.MT * 8}>;")
        w(f"\t.reg .b32  %fb<{g.NTL * 4}>;")
        if g.fmt == "3xtf32":
            w("\t// The split of the set being multiplied: x = hi + lo, hi = tf32(x), lo = tf32(x - hi).")
            w(f"\t.reg .b32  %ahi<{g.MT * 4}>, %alo<{g.MT * 4}>, %bhi<{g.NTL * 2}>, %blo<{g.NTL * 2}>;")
        w("\t.reg .pred %more, %prefetch;")
        w("\t.reg .u32  %thr, %lane, %warp, %warpM, %warpN, %grp, %quad;")
        w("\t.reg .u32  %n, %k, %kTiles, %kt, %rowBlock, %colBlock;")
        w("\t.reg .u32  %ldRow, %ldCol, %ldKey, %x, %y;")
        w("\t.reg .u32  %smemBase, %stA, %stB, %rdStage, %wrStage, %rdA, %rdB;")
        w("\t.reg .u32  %ldA0, %ldA1;")
        nb = g.NTL if g.tf32 else g.NTL // 2
        w("\t.reg .u32  " + ", ".join(f"%ldB{i}" for i in range(nb)) + ";")
        w("\t.reg .u64  %pA, %pB, %pC, %gA, %gB, %strideA, %strideB, %stepB, %rowStepC, %t64, %u64;")
        w("")

    def index(self):
        g, w = self, self.w
        r = self.region("index")
        w("\t// Who am I: warp (warpM, warpN) of the block's warp grid; inside the warp,")
        w("\t// the mma layouts name lanes by grp = lane/4 and quad = lane%4.")
        w("\tmov.u32         %thr, %tid.x;")
        w("\tand.b32         %lane, %thr, 31;")
        w("\tshr.u32         %warp, %thr, 5;")
        w(f"\tshr.u32         %warpM, %warp, {log2(g.WARPS_N)};        // warp / {g.WARPS_N}")
        w(f"\tand.b32         %warpN, %warp, {g.WARPS_N - 1};        // warp % {g.WARPS_N}")
        w("\tshr.u32         %grp, %lane, 2;")
        w("\tand.b32         %quad, %lane, 3;")
        w("\tmov.u32         %x, %ctaid.y;")
        w(f"\tshl.b32         %rowBlock, %x, {log2(g.BM)};     // first row of C this block owns (ctaid.y * {g.BM})")
        w("\tmov.u32         %x, %ctaid.x;")
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
        self.end(r)
        w("")

    def a_key(self, dst, row):
        """The XOR key of an A row: rows of 64 bytes share a 128-byte line in pairs."""
        w = self.w
        if self.RA == 64:
            w(f"\tshr.u32         {dst}, {row}, 1;")
            w(f"\tand.b32         {dst}, {dst}, 3;")
        else:
            w(f"\tand.b32         {dst}, {row}, 7;")

    def copymap(self):
        g, w = self, self.w
        lg = log2(g.ES)
        r = self.region("swizzle")
        w(f"\t// Shared tiles are stored in 16-byte chunks ({g.EPC} elements). A chunk's place in its row")
        w("\t// is XORed with a few bits of the row number, so that the rows read together at the")
        w("\t// same column fall into different groups of 4 banks: no bank conflicts, no padding.")
        if g.RA == 64:
            w("\t// A rows are 64 bytes (two per 128-byte line): chunk' = chunk ^ ((row >> 1) & 3).")
        else:
            w("\t// A rows are 128 bytes: chunk' = chunk ^ (row & 7); ldmatrix reads 8 rows at one chunk.")
        if g.tf32:
            w(f"\t// B rows are {g.RB} bytes: chunk' = chunk ^ 2*(k & 3). B is read one f32 a lane:")
            w("\t// b0 = B[k = quad][n = grp] takes 4 k rows x 8 columns (2 chunks of each row); the key")
            w("\t// sends the 4 rows' chunk pairs to 4 different pairs of 4-bank groups: 32 banks, 1 pass.")
        else:
            w(f"\t// B rows are {g.RB} bytes: chunk' = chunk ^ (k & 7); ldmatrix.trans reads 8 k rows at one chunk.")
        w("\t//")
        w(f"\t// Copy map for A: thread -> row tid/{g.CA}, chunk tid%{g.CA}; "
          f"{g.nA} chunk(s) per thread, {g.rowsA} rows apart.")
        w(f"\tshr.u32         %ldRow, %thr, {log2(g.CA)};")
        w(f"\tand.b32         %ldCol, %thr, {g.CA - 1};")
        self.a_key("%ldKey", "%ldRow")
        w("\txor.b32         %x, %ldCol, %ldKey;")
        w("\tshl.b32         %x, %x, 4;")
        w(f"\tmad.lo.u32      %stA, %ldRow, {g.RA}, %x;    // byte offset in the A tile")
        w("\tadd.u32         %x, %rowBlock, %ldRow;")
        w("\tmul.wide.u32    %t64, %x, %k;")
        w(f"\tmul.wide.u32    %u64, %ldCol, {g.EPC};")
        w("\tadd.u64         %t64, %t64, %u64;")
        w(f"\tshl.b64         %t64, %t64, {lg};")
        w(f"\tadd.u64         %gA, %pA, %t64;             // &A[rowBlock + row][chunk*{g.EPC}]")
        w(f"\tmul.wide.u32    %strideA, %k, {g.rowsA * g.ES};     // {g.rowsA} rows of A, in bytes")
        w(f"\t// Copy map for B: thread -> k row tid/{g.CB}, chunk tid%{g.CB}; "
          f"{g.nB} chunks per thread, {g.rowsB} rows apart.")
        w(f"\tshr.u32         %ldRow, %thr, {log2(g.CB)};")
        w(f"\tand.b32         %ldCol, %thr, {g.CB - 1};")
        if g.tf32:
            w("\tand.b32         %ldKey, %ldRow, 3;")
            w("\tshl.b32         %ldKey, %ldKey, 1;")
        else:
            w("\tand.b32         %ldKey, %ldRow, 7;")
        w("\txor.b32         %x, %ldCol, %ldKey;")
        w("\tshl.b32         %x, %x, 4;")
        w(f"\tmad.lo.u32      %stB, %ldRow, {g.RB}, %x;")
        w(f"\tadd.u32         %stB, %stB, {g.A_BYTES};      // the B tile follows the A tile in a stage")
        w("\tmul.wide.u32    %t64, %ldRow, %n;")
        w(f"\tshl.b32         %x, %ldCol, {log2(g.EPC)};")
        w(f"\tadd.u32         %x, %x, %colBlock;          // column colBlock + chunk*{g.EPC}")
        w("\tcvt.u64.u32     %u64, %x;")
        w("\tadd.u64         %t64, %t64, %u64;")
        w(f"\tshl.b64         %t64, %t64, {lg};")
        w(f"\tadd.u64         %gB, %pB, %t64;             // &B[row][colBlock + chunk*{g.EPC}]")
        w(f"\tmul.wide.u32    %strideB, %n, {g.rowsB * g.ES};")
        w(f"\tmul.wide.u32    %stepB, %n, {g.BK * g.ES};       // one k-tile down B")
        w("\t//")
        w("\t// Read map for ldmatrix.x4 of A: lane l gives the address of row l%16 of the warp's")
        w("\t// 16-row tile, k chunk (l >> 4) of the slice, swizzled as above.")
        if g.tf32:
            w("\t// ldmatrix moves 32-bit words: lane l gets word l%4 of row l/4 of each 8x8 (b16)")
            w("\t// matrix. For f32 data that is A[l/4][l%4], the tf32 fragment a0 = A[grp][quad] as it")
            w("\t// is (a1: 8 rows down, a2: 4 columns on, a3: both). B is another matter: the mma")
            w("\t// wants b0 = B[k = quad][n = grp], and .trans swaps 16-bit halves, splitting each f32.")
        w("\tand.b32         %x, %lane, 15;")
        w(f"\tmad.lo.u32      %x, %warpM, {g.WM}, %x;        // row in the A tile")
        w("\tshr.u32         %y, %lane, 4;")
        self.a_key("%ldKey", "%x")
        w("\txor.b32         %y, %y, %ldKey;")
        w("\tshl.b32         %y, %y, 4;")
        w(f"\tmad.lo.u32      %ldA0, %x, {g.RA}, %y;")
        w("\t// The next k slice is 2 chunks on; through the XOR that is bit 5 of the offset.")
        w("\txor.b32         %ldA1, %ldA0, 32;")
        if g.tf32:
            self.bmap_tf32()
        else:
            self.bmap_bf16()
        w("\tmov.u32         %smemBase, smem;")
        self.end(r)
        w("")

    def bmap_tf32(self):
        g, w = self, self.w
        w(f"\t// Read map for B: lane (grp, quad) reads B[k = quad (+4)][n = warpN*{g.WN} + 8ni + grp]:")
        w(f"\t// chunk warpN*{g.WN // 4} + 2ni + grp/4, word grp%4, XORed with 2*quad; the key and ni share")
        hi = 4 + log2(max(g.NTL, 4))
        w(f"\t// bits 5-{hi} of the byte offset, so tile ni's address is ldB0 ^ (ni << 5).")
        w(f"\tmul.lo.u32      %x, %quad, {g.RB};")
        w(f"\tmad.lo.u32      %x, %warpN, {g.WN * g.ES}, %x;")
        w("\tshr.u32         %y, %grp, 2;")
        w("\tmad.lo.u32      %x, %y, 16, %x;")
        w("\tand.b32         %y, %grp, 3;")
        w("\tmad.lo.u32      %x, %y, 4, %x;")
        w("\tshl.b32         %y, %quad, 5;")
        w("\tor.b32          %x, %x, %y;                 // the key 2*quad, in chunks")
        w(f"\tadd.u32         %ldB0, %x, {g.A_BYTES};")
        for p in range(1, g.NTL):
            w(f"\txor.b32         %ldB{p}, %ldB0, {p * 32};          // tile {p}: 2*{p} chunks on, through the XOR")

    def bmap_bf16(self):
        g, w = self, self.w
        w("\t// B (k x n, read transposed): k row l%16, n chunk warpN*WN/8 + 2p + (l >> 4) for")
        w("\t// the p-th pair of 8-column tiles; the key is k & 7 = l & 7.")
        w("\tand.b32         %x, %lane, 15;")
        w("\tshr.u32         %y, %lane, 4;")
        w(f"\tmad.lo.u32      %y, %warpN, {g.WN // 8}, %y;        // n chunk of pair 0")
        w("\tand.b32         %ldKey, %lane, 7;")
        w("\txor.b32         %y, %y, %ldKey;")
        w("\tshl.b32         %y, %y, 4;")
        w(f"\tmad.lo.u32      %ldB0, %x, {g.RB}, %y;")
        w(f"\tadd.u32         %ldB0, %ldB0, {g.A_BYTES};")
        for p in range(1, g.NTL // 2):
            w(f"\txor.b32         %ldB{p}, %ldB0, {p * 32};          // pair {p}: chunk 2*{p} further, through the XOR")

    # ------------------------------------------------------------ the ring
    def issue(self, stage_reg, tile_reg, skip, comment):
        """Copies of one k-tile into the stage at stage_reg, skipped when tile_reg >= kTiles;
        a commit group is closed either way so that wait_group counts stay in step."""
        g, w = self, self.w
        w(f"\t// {comment}")
        w(f"\tsetp.lt.u32     %prefetch, {tile_reg}, %kTiles;")
        w(f"\t@!%prefetch bra {skip};")
        for m, n, stride, rows, row_bytes in (("A", g.nA, "%strideA", g.rowsA, g.RA),
                                              ("B", g.nB, "%strideB", g.rowsB, g.RB)):
            w(f"\tadd.u32         %x, {stage_reg}, %st{m};")
            w(f"\tmov.u64         %t64, %g{m};")
            for i in range(n):
                if i:
                    w(f"\tadd.u64         %t64, %t64, {stride};")
                off = f"+{i * rows * row_bytes}" if i else ""
                w(f"\tcp.async.cg.shared.global [%x{off}], [%t64], 16;")
        w(f"\tadd.u64         %gA, %gA, {g.RA};            // next k-tile: BK columns of A on ...")
        w("\tadd.u64         %gB, %gB, %stepB;           // ... and BK rows of B down")
        w(f"{skip}:")
        w("\tcp.async.commit_group;")

    def prologue(self):
        g, w = self, self.w
        r = self.region("prologue")
        w(f"\t// Fill the ring: start the copies of k-tiles 0..{g.S - 2} before any compute,")
        w("\t// one commit group per tile (empty when K is too short to have that tile).")
        w("\tmov.u32         %wrStage, %smemBase;")
        for s in range(g.S - 1):
            w(f"\tmov.u32         %kt, {s};")
            self.issue("%wrStage", "%kt", f"FILLED_{s}", f"k-tile {s} -> stage {s}")
            w(f"\tadd.u32         %wrStage, %wrStage, {g.STAGE};")
        w("\tmov.u32         %rdStage, %smemBase;")
        w("\tmov.u32         %kt, 0;")
        self.end(r)
        w("")

    def load_tile(self):
        g, w = self, self.w
        r = self.region("load-tile")
        w(f"\t// Start copying k-tile kt+{g.S - 1} into the stage freed by kt-1.")
        w(f"\tadd.u32         %y, %kt, {g.S - 1};")
        self.issue("%wrStage", "%y", "PREFETCHED", f"k-tile kt+{g.S - 1} -> stage wrStage")
        w(f"\tadd.u32         %wrStage, %wrStage, {g.STAGE};")
        w("\tsub.u32         %x, %wrStage, %smemBase;")
        w(f"\tsetp.eq.u32     %more, %x, {g.S * g.STAGE};")
        w("\t@%more mov.u32  %wrStage, %smemBase;        // the ring wraps")
        self.end(r)

    # --------------------------------------------------------- fragments
    def ldm(self, ks, buf, regions, what):
        """Fragments of k slice ks of the stage at %rdStage into set buf."""
        g, w = self, self.w
        fa0, fb0 = buf * g.MT * 4, buf * g.NTL * 2
        r = regions and self.region("ldmatrix")
        w(f"\t// {what} -> fragment set {buf}.")
        lda = "%ldA0" if ks == 0 else "%ldA1"
        if ks >= 2:
            lda = "%x"
            w(f"\txor.b32         %x, %ldA0, {ks * 32};          // slice {ks}: chunk 2*{ks}, through the XOR")
        w(f"\tadd.u32         %rdA, %rdStage, {lda};")
        for mi in range(g.MT):
            off = f"+{mi * 16 * g.RA}" if mi else ""
            regs = ", ".join(f"%fa{fa0 + mi * 4 + r}" for r in range(4))
            w(f"\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{regs}}}, [%rdA{off}];")
        koff = ks * g.KSL * g.RB
        if g.tf32:
            w(f"\t// B: one f32 a lane per register, k rows quad and quad+4 of the slice.")
            for ni in range(g.NTL):
                w(f"\tadd.u32         %rdB, %rdStage, %ldB{ni};")
                for j in range(2):
                    o = koff + j * 4 * g.RB
                    off = f"+{o}" if o else ""
                    w(f"\tld.shared.b32   %fb{fb0 + ni * 2 + j}, [%rdB{off}];")
        else:
            for p in range(g.NTL // 2):
                regs = ", ".join(f"%fb{fb0 + p * 4 + r}" for r in range(4))
                w(f"\tadd.u32         %rdB, %rdStage, %ldB{p};")
                off = f"+{koff}" if koff else ""
                w(f"\tldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{{regs}}}, [%rdB{off}];")
        self.end(r)

    def convert(self, buf, regions):
        """tf32: round the set's f32 to tf32 in place (cvt.rna: to nearest, ties away from zero)."""
        g, w = self, self.w
        fa0, fb0 = buf * g.MT * 4, buf * g.NTL * 2
        r = regions and self.region("convert")
        w(f"\t// Round set {buf} to tf32 (10 mantissa bits): the tensor cores take nothing finer.")
        regs = [f"%fa{fa0 + i}" for i in range(g.MT * 4)] + [f"%fb{fb0 + i}" for i in range(g.NTL * 2)]
        for x in regs:
            w(f"\tcvt.rna.tf32.f32 {x}, {x};")
        self.end(r)

    def split(self, buf, regions):
        """3xTF32: x = hi + lo with hi = tf32(x), lo = tf32(x - hi) (x - hi is exact in f32)."""
        g, w = self, self.w
        fa0, fb0 = buf * g.MT * 4, buf * g.NTL * 2
        r = regions and self.region("split")
        w(f"\t// Split set {buf}: hi = tf32(x) keeps 11 significant bits, x - hi (exact in f32) the")
        w("\t// rest, lo = tf32(x - hi) the next 11: hi + lo carries 22 of f32's 24 bits.")
        pairs = [(f"%fa{fa0 + i}", f"%ahi{i}", f"%alo{i}") for i in range(g.MT * 4)] + \
                [(f"%fb{fb0 + i}", f"%bhi{i}", f"%blo{i}") for i in range(g.NTL * 2)]
        for x, hi, lo in pairs:
            w(f"\tcvt.rna.tf32.f32 {hi}, {x};")
            w(f"\tsub.f32         {x}, {x}, {hi};")
            w(f"\tcvt.rna.tf32.f32 {lo}, {x};")
        self.end(r)

    def mma(self, buf, regions, ks):
        g, w = self, self.w
        fa0, fb0 = buf * g.MT * 4, buf * g.NTL * 2
        name = {"tf32": "mma", "3xtf32": "mma-3x", "bf16": "mma-bf16"}[g.fmt]
        r = regions and self.region(name)
        if g.fmt == "3xtf32":
            w(f"\t// {g.MT * g.NTL} tiles x 3 products: acc += hi.lo, then lo.hi, then hi.hi: the small")
            w("\t// terms first (CUTLASS's order; it helps within one mma, but each is still added to the")
            w("\t// running sum of all earlier k). lo.lo, at most 2^-22 of the product, is left out.")
            passes = (("%ahi", "%blo"), ("%alo", "%bhi"), ("%ahi", "%bhi"))
        else:
            w(f"\t// {g.MT * g.NTL} tensor-core products per k{g.KSL} slice (slice {ks}): tile (mi, ni) += A[mi] . B[ni].")
            passes = ((f"%fa", f"%fb"),)
        for pa, pb in passes:
            for mi in range(g.MT):
                for ni in range(g.NTL):
                    acc = ", ".join(f"%acc{(mi * g.NTL + ni) * 4 + j}" for j in range(4))
                    if g.fmt == "3xtf32":
                        fa = ", ".join(f"{pa}{mi * 4 + r}" for r in range(4))
                        fb = f"{pb}{ni * 2}, {pb}{ni * 2 + 1}"
                    else:
                        fa = ", ".join(f"%fa{fa0 + mi * 4 + r}" for r in range(4))
                        fb = f"%fb{fb0 + ni * 2}, %fb{fb0 + ni * 2 + 1}"
                    w(f"\tmma.sync.aligned.{g.MMA} {{{acc}}}, {{{fa}}}, {{{fb}}}, {{{acc}}};")
        self.end(r)

    def wait_barrier(self, regions):
        g, w = self, self.w
        r = regions and self.region("barrier")
        w(f"\t// Wait until at most {g.S - 2} of this thread's copy groups are in flight, so the next")
        w("\t// k-tile has landed; the barrier makes every thread's chunks visible to all warps,")
        w("\t// and tells us that every warp is done reading the stage the next copy overwrites.")
        w(f"\tcp.async.wait_group {g.S - 2};")
        w("\tbar.sync 0;")
        self.end(r)

    def advance_read(self):
        g, w = self, self.w
        w(f"\tadd.u32         %rdStage, %rdStage, {g.STAGE};     // read the next stage of the ring")
        w("\tsub.u32         %x, %rdStage, %smemBase;")
        w(f"\tsetp.eq.u32     %more, %x, {g.S * g.STAGE};")
        w("\t@%more mov.u32  %rdStage, %smemBase;")

    def loop(self):
        g, w = self, self.w
        L8.zero_acc(g)
        w("\tsetp.eq.u32     %more, %kTiles, 0;")
        w("\t@%more bra      EPILOGUE;                // K = 0: C is all zeros")
        w("\t// Before the loop: wait for k-tile 0 and load its first slice, so that every")
        w("\t// slice's products below overlap the loads of the slice after it.")
        w(f"\tcp.async.wait_group {g.S - 2};")
        w("\tbar.sync 0;")
        self.ldm(0, 0, False, "k-tile 0, slice 0")
        w("")
        w("MAIN_LOOP:")
        for ks in range(g.KS):
            cur, nxt = ks % 2, (ks + 1) % 2
            if ks < g.KS - 1:
                self.ldm(ks + 1, nxt, ks == 0, f"slice {ks + 1}, loaded while slice {ks} multiplies,")
            else:
                self.wait_barrier(True)
                self.advance_read()
                self.ldm(0, nxt, False, "Next k-tile's slice 0 (after the last k-tile: stale, never used)")
            if ks == 0:
                self.load_tile()
            if g.fmt == "tf32":
                self.convert(cur, ks == 0)
            elif g.fmt == "3xtf32":
                self.split(cur, ks == 0)
            self.mma(cur, ks == 0, ks)
        w("\tadd.u32         %kt, %kt, 1;")
        w("\tsetp.lt.u32     %more, %kt, %kTiles;")
        w("\t@%more bra      MAIN_LOOP;")
        w("")

    def store(self):
        g, w = self, self.w
        w("EPILOGUE:")
        r = self.region("store")
        L8.store_c(g)
        self.end(r)
        w("\tret;")
        w("}")

    def describe(self):
        g = self
        what = {"tf32": "each f32 rounded to tf32 (cvt.rna) on its way to mma.m16n8k8",
                "3xtf32": "each f32 split into tf32 hi + lo, three mma.m16n8k8 per product (3xTF32)",
                "bf16": "bf16 A and B in memory, mma.m16n8k16 (lesson 8's f16 kernel in bf16)"}[g.fmt]
        return [f"// {g.entry}: {what}.",
                f"//   block tile {g.BM}x{g.BN}, BK={g.BK}, 8 warps of {g.WM}x{g.WN}, {g.S}-stage ring:"
                f" {g.S} x {g.STAGE} = {g.S * g.STAGE} bytes of dynamic shared memory;",
                f"//   grid N/{g.BN} x M/{g.BM}, block 256; M % {g.BM}, N % {g.BN}, K % {g.BK} == 0."]

    def emit(self):
        self.w("")
        self.signature()
        self.decls()
        self.index()
        self.copymap()
        self.prologue()
        self.loop()
        self.store()
        return self.out


def main():
    args = parse()
    gens = [Gen(f, args) for f in ("tf32", "3xtf32", "bf16")]
    out = [banner() + "//",
           "// 11_formats.ptx - number formats on the tensor cores: C (f32) = A . B with the inputs",
           "// rounded to tf32, split into two tf32 (3xTF32), or stored as bf16; f32 accumulation.",
           "//"]
    for g in gens:
        out += g.describe()
    out += ["//",
            "// Lesson 8's pipeline (cp.async ring, ldmatrix, two fragment sets, mma.sync), copied by",
            "// ptx/gen/11_formats.py (the body is unrolled); edit the generator, not this file.",
            "//",
            ".version 7.0            // cp.async, mma with .tf32 and .bf16, cvt.rna.tf32.f32: PTX 7.0 ...",
            ".target sm_80           // ... and Ampere (sm_80)",
            ".address_size 64",
            "",
            "// Dynamic shared memory: the ring of each entry (above).",
            ".extern .shared .align 1024 .b8 smem[];"]
    for g in gens:
        out += g.emit()
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
