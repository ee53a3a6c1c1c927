#!/usr/bin/env python3
"""Writes ptx/11_fp8.ptx, lesson 11's FP8 rung: gemm_e4m3 and gemm_e5m2.

    python3 ptx/gen/11_fp8.py > ptx/11_fp8.ptx
    python3 ptx/gen/11_fp8.py --bn 128 --stages 6 > /tmp/fp8_128x128_s6.ptx   (variants for timing)

Lesson 10's kernel (ptx/gen/10_cluster.py, itself lesson 9's 09_wgmma.py) with
8-bit inputs: a persistent tile loop, setmaxnreg, two consumer warpgroups,
and the epilogue that stages bf16 with stmatrix and stores it with TMA while
the next tile's main loop runs. Not its clusters: measured on the H100
(scripts/gpu-lesson11.py, 2026-11-26), clusters of two with B multicast
(--cluster 2) ran at 96-97% of this kernel's speed at 4096^3 and 8192^3, so
the default is --cluster 1. What changes:

Operands: wgmma.mma_async.m64nNk32 with .e4m3 (or .e5m2) A and B, f32
  accumulators. The PTX ISA (9.7.15.5.2, wgmma.mma_async) says: "Matrices A
  and B are stored in row-major and column-major format respectively. [...]
  The transpose operation is only supported for the wgmma.mma_async variants
  with .f16/.bf16 types on matrices accessed from shared memory using matrix
  descriptors." So 8-bit A and B must both be K-major in shared memory: A is
  M x K row-major as usual, and B is stored N x K (each column of the
  product's B is a row of K bytes in memory), which TMA copies as it is.
k-tile: BK = 128 elements = 128 bytes: one 128-byte swizzled row per row of A
  and per column of B, four k32 slices each 32 bytes further into the rows.
  A stage holds A's 128 x 128 bytes and B's BN x 128, the same bytes as
  lesson 10's bf16 stage (BN = 256) for twice the multiply-adds.
Scales: per-tensor f32 scale_a and scale_b (real value = stored value x scale);
  the epilogue multiplies the accumulators by scale_a * scale_b before the
  conversion to bf16.
Tile shape options for the sweep on the GPU: --bn (a multiple of 16, 64-256),
  --stages, --cluster, --multicast, --group, --setmaxnreg (lesson 10's);
  --epilogue direct stores bf16 pairs from registers with st.global instead of
  staging them: without the two staging tiles a 7th stage fits at --bn 128.
A tile width that is no power of two (--bn 144, issue 43, cuBLASLt's choice at
  8192^3: 57 x 64 = 3648 tiles fill the 132 SMs' last round better than 4096)
  takes ceil(N / BN) tiles across N by division, so the last column of tiles
  may end at N mid-way (N % 8 == 0): B is one TMA box of BN rows (at most 256),
  whose rows past N read as zeros; the direct epilogue stores a group of 8
  columns only where it lies in C; the TMA epilogue stages the 64 x BN tile as
  one unswizzled box (2 BN-byte rows: wider than a 128-byte swizzle takes, and
  2-way bank conflicts for stmatrix) that TMA clips at N. Clusters: not with it.
Promotion (--promote 1, --bn 144 at most): the FP8 tensor cores are reported to
  keep fewer bits than f32 when they accumulate (DeepSeek-V3 report, 3.3), so
  each k-tile's four wgmmas start from zero in one of two partial sets, and
  once its group has completed the partial set is added into the f32
  accumulators with add.f32; the other set's group runs meanwhile.
  --promote-every N: a set takes N k-tiles (N x 128 values of k, its later
  k-tiles accumulating in the tensor cores) before its add: 1/N of the adds.
  (Not an option: the adds spread between a k-tile's wgmmas. ptxas 13.0 moves
  them all up to the wait_group they depend on, ahead of the later wgmmas,
  whatever comes between in the PTX: bar.warp.sync, a branch, more waits.)
  --stagger 1: warpgroup 2's sets start about half a set after warpgroup 1's
  (N/2 k-tiles, rounded down; with N = 1, two k32 slices, its sets spanning two
  stages), so the two warpgroups never add at the same time;
  the same number of values of k per set.
Every variant must compile without ptxas's C7515 note (wgmmas serialized):
  tests/e2e_fp8_variants.sh checks the sweep's rows for it.
"""
import argparse
import copy
import re
import sys

from banner import banner, sibling

L10 = sibling("10_cluster.py")
L9 = L10.L9
log2 = L9.log2
BM, BK = 128, 128                 # BK in elements, = bytes
SMEM_MAX = 232448                 # the H100's shared memory a block may have (227 KB)
ENTRIES = (("gemm_e4m3", "e4m3"), ("gemm_e5m2", "e5m2"))


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bn", type=int, default=256,
                   help="block tile columns (wgmma N): a multiple of 16 from 64 to 256; one that is no power of"
                        " two (144) lets the last column of tiles end at N mid-way")
    p.add_argument("--stages", type=int, default=3)
    p.add_argument("--group", type=int, default=8,
                   help="tile order: 0 = row by row; G > 0 = bands of G cluster rows, column by column")
    p.add_argument("--cluster", type=int, default=1, choices=(1, 2), help="blocks per cluster, along M")
    p.add_argument("--multicast", type=int, default=1, choices=(0, 1),
                   help="1: each block of a cluster loads half of B for both")
    p.add_argument("--setmaxnreg", type=int, default=1)
    p.add_argument("--promote", type=int, default=0, choices=(0, 1),
                   help="1: each k-tile's products go to fresh registers, added into f32 ones on the CUDA"
                        " cores (as cuBLASLt without FAST_ACCUM); needs --bn 144 or less (three accumulator sets)")
    p.add_argument("--promote-every", type=int, default=1, metavar="N",
                   help="with --promote 1: a partial set takes N k-tiles (N*128 values of k) before its add")
    p.add_argument("--stagger", type=int, default=0, choices=(0, 1),
                   help="with --promote 1: warpgroup 2's sets start about half a set (N*64 values of k) after"
                        " warpgroup 1's, so the two warpgroups' adds fall at different times")
    p.add_argument("--epilogue", default="tma", choices=("tma", "direct"),
                   help="tma: staged in shared memory, stored by TMA; direct: st.global from registers"
                        " (no staging tiles: room for a 7th stage at --bn 128)")
    a = p.parse_args()
    if a.bn % 16 or not 64 <= a.bn <= 256:
        p.error(f"--bn {a.bn}: a multiple of 16 from 64 to 256")
    if a.bn & (a.bn - 1) and a.cluster > 1:
        p.error(f"--bn {a.bn}: a tile width that is no power of two takes --cluster 1")
    if a.promote and (a.bn > 144 or not a.setmaxnreg):
        p.error("--promote keeps three sets of accumulators: it needs --bn 144 or less and --setmaxnreg 1")
    if a.promote_every < 1 or (a.promote_every > 1 and not a.promote):
        p.error("--promote-every N: N >= 1, with --promote 1")
    if a.stagger and not a.promote:
        p.error("--stagger 1 needs --promote 1")
    if a.stagger and a.bn > 128:  # it did not pay at 128 (docs/benchmarks.md, issue 43's runs)
        p.error(f"--stagger 1 with --bn {a.bn}: ptxas 13.0 spills its registers (three sets of {a.bn // 2})")
    if a.cluster == 1:
        a.multicast = 0
    a.out, a.entry = "bf16", None
    return a


class Gen(L10.Gen):
    def __init__(self, a, fp8):
        super().__init__(a)
        self.FP8 = fp8
        bn = a.bn
        self.BM, self.BN, self.BK = BM, bn, BK
        self.A_BYTES = BM * BK              # one A box: 128 rows x 128 bytes
        # A width that is no power of two (144, issue 43: 57 x 64 tiles at 8192^2 fill the last
        # round of 132 SMs better than 64 x 64) divides N by division, and the last column of
        # tiles may end at N mid-way: its B rows past N read as zeros (TMA), its stores stop at N.
        self.EDGE = bool(bn & (bn - 1))
        self.BROWS = 64 if bn % 64 == 0 else bn  # rows of one B box (TMA boxes: 256 at most)
        self.BBOX = self.BROWS * BK         # one B box: BROWS rows of B's N x K storage, 128 bytes each
        self.B_BYTES = bn * BK
        self.STAGE = self.A_BYTES + self.B_BYTES
        self.NACC = bn // 2
        self.KSLICES = BK // 32
        self.C_WG = 64 * bn * 2             # a consumer's staging tile: 64 x BN bf16
        assert self.smem_bytes() <= SMEM_MAX, f"{self.smem_bytes()} bytes of shared memory: fewer --stages"
        assert (bn // 64) % self.CL == 0

    def header(self):
        """The entry's signature (main() writes the module's header once)."""
        w, t, a = self.w, self.FP8, self.a
        w("")
        w(f".visible .entry {a.entry}(")
        w(f"\t.param .align 64 .b8 tmA[128],   // tensor map of A (M x K {t}, row-major: K-major), box 128 x {BM}")
        w(f"\t.param .align 64 .b8 tmB[128],   // tensor map of B stored N x K ({t}, K-major), box 128 x {self.BROWS}")
        if self.TMA:
            w("\t.param .align 64 .b8 tmC[128],   // tensor map of C (M x N bf16, row-major), box "
              + (f"{self.BN} x 64, unswizzled" if self.EDGE else "64 x 64"))
        else:
            w("\t.param .u64 C,                   // M x N bf16, row-major")
        w("\t.param .u32 M,")
        w("\t.param .u32 N,")
        w("\t.param .u32 K,")
        w("\t.param .f32 scale_a,            // A's real values are its stored values x scale_a ...")
        w("\t.param .f32 scale_b)            // ... and B's x scale_b")
        self.entry_end()

    def decls(self):
        super().decls()
        self.w("\t.reg .f32  %scale, %scaleB;")
        if self.a.promote:
            n = self.a.promote_every
            self.w("\t// Promotion: two partial sets, k-tiles 0, 2, 4, ... into %pa, 1, 3, ... into %pb." if n == 1 else
                   f"\t// Promotion: two partial sets, k-tiles 0..{n - 1} of every {2 * n} into %pa, {n}..{2 * n - 1} into %pb.")
            self.w(f"\t.reg .f32  %pa<{self.NACC}>, %pb<{self.NACC}>;")
            self.w("\t.reg .pred %fresh, %cont;" if self.a.stagger else "\t.reg .pred %fresh;")
        self.w("")

    def consumer(self):
        if self.a.promote:
            self.consumer_promote()
        else:
            super().consumer()

    def ktile_promote(self, tag, acc, other, first):
        """One k-tile's wgmmas into partial set acc (from zero when first, the set's first
        k-tile); then, with the group before it complete, the other set added into %d when
        that group was the other set's last, and the stage before released."""
        w = self.w
        if self.a.stagger:
            w(f"C_K_{tag}:")
        w(f"\tmad.lo.u32      %full, %stage, 8, %bars;")
        self.wait(f"C_WAIT_{tag}", "%full", "%phase")
        self.descriptors()
        w("\twgmma.fence.sync.aligned;")
        # With --stagger, warpgroup 2 enters on a k-tile that is not its set's first: that
        # k-tile's products start the set when it is the tile's first (%kt = 0).
        chain = "%cont" if self.a.stagger else "%one"
        if self.a.stagger and not first:
            w("\tsetp.ne.u32     %cont, %kt, 0;")
        for kk in range(self.KSLICES):
            self.wgmma(kk, acc, ("%fresh" if first else chain) if kk == 0 else "%one")
        w("\twgmma.commit_group.sync.aligned;")
        if first:
            w("\twgmma.wait_group.sync.aligned 1;           // the other set's group is done: promote it")
            self.per8(lambda j: f"add.f32 %d{j}, %d{j}, {other}{j};")
        else:
            w("\twgmma.wait_group.sync.aligned 1;           // the group before (this set's) is done")
        self.ktile_end()

    def ktile_end(self):
        """The stage before this k-tile's back to the producer (its wgmmas are done), the next."""
        w = self.w
        w("\tsetp.ne.u32     %p, %kt, 0;")
        w("\tand.pred        %p, %p, %leader;")
        w(f"\tadd.u32         %x, %prev, {8 * self.S};")
        self.release("%p", "%x")
        w("\tmad.lo.u32      %prev, %stage, 8, %bars;")
        self.advance()
        w("\tadd.u32         %kt, %kt, 1;")

    def ktile_half(self, tag, cont, fresh):
        """Warpgroup 2's k-tile under --stagger with N = 1: its first two k32 slices end set
        cont (started by the k-tile before, or by these on the tile's first), its last two
        start set fresh; cont, complete once the first group is, goes into %d."""
        w, h = self.w, self.KSLICES // 2
        w(f"\tmad.lo.u32      %full, %stage, 8, %bars;")
        self.wait(f"C2_WAIT_{tag}", "%full", "%phase")
        self.descriptors()
        w("\twgmma.fence.sync.aligned;")
        w("\tsetp.ne.u32     %cont, %kt, 0;")
        for kk in range(self.KSLICES):
            if kk == h:
                w("\twgmma.commit_group.sync.aligned;")
            self.wgmma(kk, cont if kk < h else fresh, scale_d="%cont" if kk == 0 else "%fresh" if kk == h else "%one")
        w("\twgmma.commit_group.sync.aligned;")
        w(f"\twgmma.wait_group.sync.aligned 1;           // {cont}'s last group is done: promote it")
        self.per8(lambda j: f"add.f32 %d{j}, %d{j}, {cont}{j};")
        self.ktile_end()

    def consumer_half(self):
        """Warpgroup 2's k loop under --stagger with N = 1: its sets run from the middle of one
        k-tile to the middle of the next (128 values of k, as warpgroup 1's), so its adds fall
        half a k-tile after warpgroup 1's. Unrolled by two: the set left open alternates."""
        w = self.w
        w("C2_K:")
        self.ktile_half("EVEN", "%pa", "%pb")
        w("\tsetp.ge.u32     %p, %kt, %kTiles;")
        w("\t@%p bra         C2_LAST_B;")
        self.ktile_half("ODD", "%pb", "%pa")
        w("\tsetp.lt.u32     %p, %kt, %kTiles;")
        w("\t@%p bra         C2_K;")
        w("\twgmma.wait_group.sync.aligned 0;")
        self.per8(lambda j: f"add.f32 %d{j}, %d{j}, %pa{j};")
        w("\tbra             C_END;")
        w("C2_LAST_B:")
        w("\twgmma.wait_group.sync.aligned 0;")
        self.per8(lambda j: f"add.f32 %d{j}, %d{j}, %pb{j};")
        w("\tbra             C_END;")

    def consumer_promote(self):
        """Lesson 9's consumer with promotion: the k loop unrolled by 2N (N = --promote-every),
        k-tiles 0..N-1 of each round into %pa, N..2N-1 into %pb."""
        w, n = self.w, self.a.promote_every
        self.consumer_start(True)
        w("\tsetp.ne.u32     %fresh, %thr, %thr;        // false: a set's first products overwrite it")
        w("C_TILE:")
        w("\tsetp.ge.u32     %p, %tile, %tiles;")
        w("\t@%p bra         DONE;")
        self.tile_coords()
        w("\t// The f32 sums start at 0, and so does %pb, which the first k-tile adds in.")
        self.per8(lambda j: f"mov.f32 %d{j}, 0f00000000;")
        w("\tmov.u32         %kt, 0;")
        if self.a.stagger and n == 1:
            w("\t// Warpgroup 2's sets start half a k-tile after warpgroup 1's; its first k-tile's")
            w("\t// products start both its sets, so it needs no %pb of zeros.")
            w("\tsetp.eq.u32     %p, %wg, 2;")
            w("\t@%p bra         C2_K;")
        self.per8(lambda j: f"mov.f32 %pb{j}, 0f00000000;")
        # N = 1 keeps the names of the first version (EVEN, ODD), which the timings quote.
        tags = ["EVEN", "ODD"] if n == 1 else [str(i) for i in range(2 * n)]
        if self.a.stagger and n > 1:
            # In %pb's turn: entering %pa's (with or without a %pa of zeros), ptxas 13.0
            # serializes every wgmma of the kernel (C7515, "non wgmma instructions defining
            # accumulator registers of a wgmma between start and end of the pipeline stage").
            w(f"\t// Warpgroup 2 starts {n // 2} k-tiles into %pb's turn, its first products starting")
            w("\t// %pb there: the two warpgroups' adds fall on different k-tiles.")
            w("\tsetp.eq.u32     %p, %wg, 2;")
            w(f"\t@%p bra         C_K_{tags[n + n // 2]};")
        w("// @end")
        w("// @promote")
        w("C_K:")
        last = {"%pa": "C_LAST_EVEN" if n == 1 else "C_LAST_A", "%pb": "C_LAST_B"}
        for i, tag in enumerate(tags):
            acc, other = ("%pa", "%pb") if i < n else ("%pb", "%pa")
            self.ktile_promote(tag, acc, other, i % n == 0)
            if i < 2 * n - 1:
                w("\tsetp.ge.u32     %p, %kt, %kTiles;")
                w(f"\t@%p bra         {last[acc]};")
        w("\tsetp.lt.u32     %p, %kt, %kTiles;")
        w("\t@%p bra         C_K;")
        if n > 1:
            w(f"{last['%pb']}:")
        w("\twgmma.wait_group.sync.aligned 0;           // the last k-tile's set was %pb")
        self.per8(lambda j: f"add.f32 %d{j}, %d{j}, %pb{j};")
        w("\tbra             C_END;")
        w(f"{last['%pa']}:")
        w("\twgmma.wait_group.sync.aligned 0;")
        self.per8(lambda j: f"add.f32 %d{j}, %d{j}, %pa{j};")
        if self.a.stagger and n == 1:
            w("\tbra             C_END;")
            self.consumer_half()
        w("C_END:")
        self.consumer_end()

    # B is stored N x K: its boxes are 64 of those rows, k columns kx..kx+127, and the
    # tensor map's coordinates (innermost first) are {k, n}.
    B_COORDS = "{%kx, %x}"
    WGMMA_K = 32  # 8-bit inputs: k32
    B_BOXES = "boxes of 64 rows"

    def load_b_comment(self):
        self.w(f"\t// B: {self.BN // 64} boxes of 64 of its N x K rows, columns kx..kx+{BK - 1} (128 bytes).")

    def load_b(self):
        """B's k-slice: boxes of 64 rows, or one of BN rows when 64 does not divide BN."""
        if self.BROWS == 64:
            super().load_b()
            return
        w = self.w
        w(f"\t// B: one box of {self.BN} of its N x K rows, columns kx..kx+{BK - 1} (128 bytes); rows past N")
        w("\t// read as zeros (and count in the stage's bytes).")
        w("\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes")
        w("\t                [%sB], [%tmB, {%kx, %n0}], [%full];")

    def tiles_across(self):
        """ceil(N / BN) for a width that is no power of two (%x is free in the setup)."""
        if not self.EDGE:
            super().tiles_across()
            return
        self.w(f"\tadd.u32         %x, %n, {self.BN - 1};")
        self.w(f"\tdiv.u32         %nTilesN, %x, {self.BN};        // tiles across N, the last maybe narrower")

    def column_start(self):
        """%n0 = %y x BN for a width that is no power of two."""
        if not self.EDGE:
            super().column_start()
            return
        self.w(f"\tmul.lo.u32      %n0, %y, {self.BN};")

    def desc_b_leading(self):
        self.w("\tor.b32          %lo, %lo, 0x10000;         // B is K-major too: 128-byte rows, 8-row groups")
        self.w("\t                                           // 1024 bytes apart; leading offset unused")

    def wgmma(self, kk, acc="%d", first="%acc", scale_d=None):
        w = self.w
        w(f"\t// k32 slice {kk}: A and B both from 32*{kk} bytes into each 128-byte row.")
        if kk:
            w("\tadd.s64         %descA, %descA, 2;         // +32 bytes (>> 4)")
            w("\tadd.s64         %descB, %descB, 2;")
        w(f"\twgmma.mma_async.sync.aligned.m64n{self.BN}k32.f32.{self.FP8}.{self.FP8}")
        self.acc_operands(acc)
        pred = scale_d or (first if kk == 0 else "%one")
        w(f"\t\t%descA, %descB, {pred}, 1, 1;  // scale-d, scale-a, scale-b (8-bit: no transpose operands)")

    def consumer_place(self):
        super().consumer_place()
        w = self.w
        w("\t// The epilogue's factor: the product's real value is the accumulated one x scale_a x scale_b.")
        w("\tld.param.f32    %scale, [scale_a];")
        w("\tld.param.f32    %scaleB, [scale_b];")
        w("\tmul.f32         %scale, %scale, %scaleB;")

    def epilogue_note(self):
        self.w("\t// Scale, convert to bf16 pairs, write them swizzled with stmatrix.")

    def epilogue(self):
        if not self.TMA:  # the direct epilogue has no hook: scale every accumulator first
            self.w("// @scale")
            self.per8(lambda j: f"mul.f32 %d{j}, %d{j}, %scale;")
            self.w("// @end")
        super().epilogue()

    def epilogue_direct_bf16(self):
        """Lesson 10's direct epilogue; with tiles that may end at N mid-way (EDGE) each group of
        8 columns is stored only where it lies in C (N % 8 == 0: a group is all in or all out)."""
        if not self.EDGE:
            super().epilogue_direct_bf16()
            return
        w = self.w
        w("// @epilogue")
        self.c_address("             // &C[m0 + row][n0 + col]")
        w("\tmul.wide.u32    %t64, %n, 16;")
        w("\tadd.u64         %t64, %gC, %t64;           // 8 rows down")
        w("\tsub.u32         %x, %n, %n0;               // C's columns from n0 on")
        for j in range(self.NACC // 4):
            d = 4 * j
            w(f"\tsetp.gt.u32     %p, %x, {8 * j};")
            w(f"\t{self.CVT} %h0, %d{d + 1}, %d{d};")
            w(f"\t{self.CVT} %h1, %d{d + 3}, %d{d + 2};")
            w(f"\t@%p st.global.b32 [%gC+{16 * j}], %h0;")
            w(f"\t@%p st.global.b32 [%t64+{16 * j}], %h1;")
        w("// @end")

    def staging_addresses(self):
        """Lesson 10's stmatrix addresses, for the staging tile of a width that is no power of two:
        one unswizzled box of 64 rows x BN (its rows, 2 BN bytes, are wider than a 128-byte
        swizzle takes), stored by one TMA copy that stops at N."""
        if not self.EDGE:
            super().staging_addresses()
            return
        w, pitch = self.w, 2 * self.BN
        w("\t// Staging addresses. Lane l of warp w gives row i = l%8 of matrix q = l/8 of a")
        w("\t// stmatrix.x4: rows 16w + 8(q%2) + i, column group j + q/2 (16 bytes each), in")
        w(f"\t// rows of {pitch} bytes: = 8 banks mod 32, so rows i and i + 4 share banks (2-way).")
        w("\tsub.u32         %y, %wg, 1;")
        w(f"\tmad.lo.u32      %sC, %y, {self.C_WG}, %sC;       // this warpgroup's staging tile")
        self.stmatrix_lanes()
        w(f"\tmad.lo.u32      %row, %row, {pitch}, %sC;")
        w("\tmad.lo.u32      %ea0, %col, 16, %row;")
        w("\t// stmatrix8 names %ea(j%8/2) + 128 (j/8): column group j at %ea0 + 16j")
        for g in range(1, 4):
            w(f"\tadd.u32         %ea{g}, %ea0, {32 * g};")
        w("\tmov.b64         %tmC, tmC;")
        w("\tcvta.param.u64  %tmC, %tmC;")

    def epilogue_tma(self):
        """Lesson 10's staged epilogue; a width that is no power of two stages the whole 64 x BN
        in one unswizzled box (staging_addresses), stored by one copy that TMA clips at N."""
        if not self.EDGE:
            super().epilogue_tma()
            return
        w = self.w
        w("// @epilogue")
        w("\t// The staging tile is free once the copy engine has read the previous tile's")
        w("\t// store; one thread waits for that, the barrier tells the other 127.")
        w("\t@%leader cp.async.bulk.wait_group.read 0;")
        w("\tbar.sync        %bid, 128;")
        self.epilogue_note()
        for j in range(0, self.NACC // 4, 2):
            self.stmatrix8(4 * j, j, 128 * (j // 8))
        w("\tfence.proxy.async.shared::cta;           // the async proxy (TMA) reads what we wrote")
        w("\tbar.sync        %bid, 128;")
        w("\t@!%leader bra   STORED;")
        w("\tsub.u32         %y, %wg, 1;")
        w("\tmad.lo.u32      %y, %y, 64, %m0;           // this warpgroup's 64 rows")
        w(f"\t// Columns n0..n0+{self.BN - 1}: those past N (the last column of tiles) are not written.")
        w("\tcp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%tmC, {%n0, %y}], [%sC];")
        w("\tcp.async.bulk.commit_group;")
        w("STORED:")
        w("// @end")

    def epilogue_scale(self, d):
        """Accumulators d..d+7 times scale_a * scale_b, before their conversion."""
        self.w("\t" + " ".join(f"mul.f32 %d{i}, %d{i}, %scale;" for i in range(d, d + 4)))
        self.w("\t" + " ".join(f"mul.f32 %d{i}, %d{i}, %scale;" for i in range(d + 4, d + 8)))

    def run(self):
        self.header()
        self.decls()
        self.setup()
        self.producer()
        self.consumer()
        return self.out


def c_arg(g):
    """C's item of the launch's --args: a tensor map with the TMA epilogue, else its address."""
    if not g.TMA:
        return "C"
    return f"tmap:C:{g.BN}:64:none" if g.EDGE else "tmap:C:64:64:128B"


def module_header(g):
    """The file's header: what it is, the launch, the shared memory (g: the first entry's generator)."""
    S, CL = g.S, g.CL
    out = [banner() + "//",
           "// 11_fp8.ptx - Hopper, FP8: C (bf16) = scale_a*scale_b * A (e4m3 or e5m2) . B (same type),",
           "// f32 accumulator registers (wgmma m64nNk32; its 8-bit adds are narrower), bf16 out by"
           f" {'TMA' if g.TMA else 'st.global'}.",
           "//",
           f"// Lesson 10's kernel with 8-bit inputs: block tile {BM}x{g.BN}, k-tile of {BK} bytes (= elements),",
           f"// a {S}-stage TMA + mbarrier ring, a producer and two consumer warpgroups (384 threads),",
           f"// {'clusters of %d along M' % CL if CL > 1 else 'no clusters'}"
           f"{', B multicast to both blocks' if g.MC else ''}, a persistent tile loop, and "
           + ("the staged" if g.TMA else "an"),
           "// epilogue that stores one tile while the next one's main loop runs."
           if g.TMA else "// epilogue that stores bf16 pairs from registers with st.global.",
           *(["// Promotion: each k-tile accumulates from zero in one of two partial sets, added into",
              "// f32 registers with add.f32 once its wgmma group has completed."]
             if g.a.promote and g.a.promote_every == 1 else []),
           *([f"// Promotion: every {g.a.promote_every} k-tiles ({g.a.promote_every * BK} values of k) accumulate"
              " from zero in one of two",
              "// partial sets, added into f32 registers with add.f32 once the last one's wgmma group has completed."]
             if g.a.promote and g.a.promote_every > 1 else []),
           "// 8-bit wgmma operands must be K-major (PTX ISA 9.7.15.5.2, wgmma.mma_async: \"The transpose",
           "// operation is only supported for the wgmma.mma_async variants with .f16/.bf16 types on",
           "// matrices accessed from shared memory using matrix descriptors\"): B is stored N x K.",
           f"// Requires M % {BM * CL} == 0, N % {8 if g.EDGE else g.BN} == 0, K % {BK} == 0 and sm_90a"
           + (f" (the last column of {g.BN}-wide tiles may end mid-way)." if g.EDGE else "."),
           f"// Args: tmap:A:128:128:128B tmap:B:128:{g.BROWS}:128B {c_arg(g)} M N K"
           " scale:A scale:B",
           "//",
           "// Written out by ptx/gen/11_fp8.py (which reuses ptx/gen/10_cluster.py and 09_wgmma.py);",
           "// edit the generator, not this file.",
           "//",
           ".version 8.0            // wgmma with .e4m3/.e5m2, clusters, multicast, stmatrix: PTX 8.0 ...",
           ".target sm_90a          // ... wgmma: sm_90a only",
           ".address_size 64",
           "",
           f"// Dynamic shared memory: {S} stages x (A {g.A_BYTES} B + B {g.B_BYTES} B)"
           + (f", 2 staging tiles of {g.C_WG} B," if g.TMA else ","),
           f"// {2 * S} mbarriers and 1024 bytes of room for the swizzle's alignment: {g.smem_bytes()} bytes.",
           ".extern .shared .align 1024 .b8 smem[];"]
    return out


def main():
    args = parse()
    if args.group:
        L9.check_tile_order(args.group)
    out = []
    for i, (entry, fp8) in enumerate(ENTRIES):
        a = copy.copy(args)
        a.entry = entry
        g = Gen(a, fp8)
        if i == 0:
            out += module_header(g)
        lines = g.run()
        if i:  # region names are unique in a file: the lesson points at the first entry's
            lines = [l for l in lines if not re.fullmatch(r"// @[\w-]+", l)]
        out += lines
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
