#!/usr/bin/env python3
"""Writes ptx/09_wgmma.ptx, the Hopper lesson's kernel (hgemm_wgmma).

    python3 ptx/gen/09_wgmma.py --epilogue tma --cbufs 2 > ptx/09_wgmma.ptx   (the lesson's: ptx/gen/regen.sh)
    python3 ptx/gen/09_wgmma.py --stages 3 --entry v3 > /tmp/v3.ptx   (variants for timing)
    python3 ptx/gen/09_wgmma.py > /tmp/d.ptx            (the default: C stored from registers, as lesson 9 was)
    python3 ptx/gen/09_wgmma.py --bm 256 --bn 128 > /tmp/t.ptx          (the 256 x 128 tile)

The kernel has three warpgroups of 128 threads. Warpgroup 0 is the producer:
one of its threads asks the copy engine (TMA) for tiles of A and B and never
computes. Warpgroups 1 and 2 are consumers: each multiplies 64 rows of the
block's 128 x 256 tile with wgmma, reading both operands straight from shared
memory. A ring of STAGES buffers sits between them, with two mbarriers per
buffer: "full" (the copy landed) and "empty" (both consumers are done with it).

Layout facts used below (PTX ISA, "Asynchronous Warpgroup Level Matrix
Multiply-Accumulate", shared memory matrix layouts and the matrix descriptor):
  descriptor: bits 0-13 start address >> 4, 16-29 leading byte offset >> 4,
              32-45 stride byte offset >> 4, 62-63 swizzle (1 = 128-byte).
  128-byte swizzle: rows of 128 bytes, the 16-byte chunk c of row r lands at
              chunk c ^ (r % 8); the pattern repeats every 8 rows (1024 bytes),
              so every tile must start on a 1024-byte boundary. TMA writes the
              same pattern when its tensor map says CU_TENSOR_MAP_SWIZZLE_128B.
  A (K-major, rows of 64 halves along k): 8-row groups 1024 bytes apart (the
              stride byte offset); the leading offset is unused. The next k16
              slice starts 32 bytes further into each row.
  B (MN-major, rows of 64 halves along n, "transposed", imm-trans-b = 1):
              8-row (8 k) groups 1024 bytes apart (stride offset); the next 64
              columns are the next TMA box, BK*128 bytes on (leading offset).
              The next k16 slice starts 16 rows = 2048 bytes on.
  D fragment (m64nNk16, f32): thread t of the warpgroup, warp w = t/32,
              lane l: d[4j+0..1] = D[16w + l/4][8j + 2(l%4) + 0..1],
                      d[4j+2..3] = the same 8 rows further down.
The tile loop is persistent-ready: a block takes tiles ctaid, ctaid + grid,
... so the same kernel runs with one block per tile or one block per SM.

--epilogue tma (lesson 9's kernel, and lesson 10's generator's for its f32 output):
  instead of st.global from registers, each consumer writes its 64 x 256 f32
  tile into shared memory as eight boxes of 64 rows x 32 columns (128 bytes a
  row, the widest box a 128-byte swizzle takes), and one thread hands each box
  to the copy engine (cp.async.bulk.tensor, global <- shared) as soon as it is
  written. The whole tile (64 KB a consumer) does not fit beside the ring, so
  the boxes cycle through --cbufs staging buffers: before a buffer is written
  again, the leader waits (cp.async.bulk.wait_group.read) only until the store
  that last read it is done. The stores of a tile's last boxes run while the
  consumers start the next tile.

--bm 256 --bn 128 (a variant): the block tile 256 x 128, each consumer 128
  rows: two wgmma.m64n128k16 a k16 step (one per 64 rows, the same B
  descriptor), into two halves of the same 128 accumulators a thread.
"""
import argparse
import sys

from banner import banner


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--stages", type=int, default=4)
    p.add_argument("--entry", default="hgemm_wgmma")
    p.add_argument("--group", type=int, default=8,
                   help="tile order: 0 = row by row; G > 0 = bands of G block rows, column by column")
    p.add_argument("--setmaxnreg", type=int, default=1,
                   help="1: the producer gives registers to the consumers (0: every thread keeps 168)")
    p.add_argument("--epilogue", default="direct", choices=("direct", "tma"),
                   help="direct: st.global from registers; tma: staged in shared memory, stored by TMA, overlapped")
    p.add_argument("--cbufs", type=int, default=2, choices=(2, 4, 8),
                   help="with --epilogue tma: staging buffers of 64 x 32 f32 (8 KB) per consumer")
    shape_args(p)
    a = p.parse_args()
    check_shape(p, a)
    return a


def shape_args(p):
    """--bm/--bn: the block tile, 128 x 256 (each consumer 64 rows, one m64n256k16 a k16 step)
    or 256 x 128 (each consumer 128 rows, two m64n128k16 a k16 step)."""
    p.add_argument("--bm", type=int, default=128, choices=(128, 256), help="block tile rows (with --bn: 128x256 or 256x128)")
    p.add_argument("--bn", type=int, default=256, choices=(128, 256), help="block tile columns")
    p.add_argument("--pingpong", type=int, default=0, choices=(0, 1),
                   help="1: each consumer warpgroup takes tiles of its own, 128 x 128 (--bm 128 --bn 128), and"
                        " one's epilogue runs while the other's main loop has the tensor cores")


def check_shape(p, a):
    if a.pingpong and (a.bm, a.bn) != (128, 128):
        p.error("--pingpong 1: a warpgroup's tile is 128 x 128 (--bm 128 --bn 128)")
    if not a.pingpong and a.bm * a.bn != 128 * 256:
        p.error(f"--bm {a.bm} --bn {a.bn}: the tiles are 128x256 and 256x128 (128x128 with --pingpong 1)")


BM, BN, BK = 128, 256, 64
A_BYTES = BM * BK * 2          # one A box: 128 rows x 128 bytes
BBOX = BK * 64 * 2             # one B box: 64 k-rows x 64 columns x 2 bytes
B_BYTES = BK * BN * 2          # four B boxes
STAGE = A_BYTES + B_BYTES
NACC = BN // 2                 # f32 accumulators per thread for m64n256
F32COLS = 32                   # f32 columns of a staging box: 128 bytes, the 128-byte swizzle's span
F32BOX = 64 * F32COLS * 4      # one staging box: a consumer's 64 rows x 32 f32 columns
SMEM_MAX = 232448              # shared memory a block may opt in to on sm_90


def tile_order(t, tiles_m, tiles_n, group):
    """(block row, block column) of tile t, as tile_coords() computes it."""
    band = t // (group * tiles_n)
    first = band * group
    height = min(tiles_m - first, group)
    place = t - band * group * tiles_n
    return first + place % height, place // height


def check_tile_order(group):
    """Every tile of C is visited exactly once, whatever the grid's shape."""
    for tm in range(1, 3 * group + 2):
        for tn in range(1, 12):
            seen = sorted(tile_order(t, tm, tn, group) for t in range(tm * tn))
            assert seen == [(i, j) for i in range(tm) for j in range(tn)], (tm, tn)


def log2(x):
    assert x & (x - 1) == 0
    return x.bit_length() - 1


class Gen:
    AB = "f16"     # the inputs' type in the wgmma's name; lesson 10's generator says bf16

    def __init__(self, a):
        self.a = a
        self.S = a.stages
        self.out = []
        self.OUT = getattr(a, "out", "f32")    # C's type: lesson 9's is f32; lesson 10's parse says
        self.TMA = a.epilogue == "tma"
        self.TMA32 = self.TMA and self.OUT == "f32"  # the chunked f32 epilogue below
        self.CBUFS = a.cbufs if self.TMA32 else 0
        # The tile and its bytes; lesson 11's FP8 generator changes them.
        self.BM, self.BN, self.BK = BM, BN, BK
        self.A_BYTES, self.BBOX, self.B_BYTES, self.STAGE, self.NACC = A_BYTES, BBOX, B_BYTES, STAGE, NACC
        self.MH = 1    # m64 slices per consumer: 2 for the 256 x 128 tile and --pingpong
        self.PP = getattr(a, "pingpong", 0)  # lesson 11's generator has none of these
        if getattr(a, "bm", BM) != BM or self.PP:  # 256 x 128, or 128 x 128 a warpgroup
            self.BM, self.BN, self.MH = a.bm, a.bn, 2
            self.A_BYTES = self.BM * BK * 2
            self.B_BYTES = BK * self.BN * 2
            self.STAGE = self.A_BYTES + self.B_BYTES
            self.NACC = self.MH * self.BN // 2
        self.KSLICES = BK // 16    # wgmmas per k-tile
        # rows between the two consumers' parts of the tile (pingpong: each has all of its own)
        self.WG_ROWS = 0 if self.PP else 64 * self.MH
        self.USERS = 1 if self.PP else 2  # consumers of one block that read each stage

    def w(self, s=""):
        self.out.append(s)

    def staging_bytes(self):
        """Shared memory the TMA epilogue stages C in (both consumers)."""
        return 2 * self.CBUFS * F32BOX

    def smem_bytes(self):
        return self.S * self.STAGE + self.staging_bytes() + 2 * self.S * 8 + 1024

    def header(self):
        w, S = self.w, self.S
        smem = self.smem_bytes()
        w(banner() + "//")
        w("// 09_wgmma.ptx - Hopper: C (f32) = A (f16) . B (f16) with TMA, mbarriers and wgmma.")
        w("//")
        w(f"// Block tile {self.BM}x{self.BN}, k-tile BK={self.BK}, {S}-stage ring in shared memory.")
        w("// Warpgroup 0 produces: one thread asks the copy engine (TMA) for each stage's")
        w("// tiles, which land swizzled and signal a 'full' mbarrier with their byte count.")
        w(f"// Warpgroups 1 and 2 consume: each runs {self.wgmma_shape()} on its {64 * self.MH} rows, both")
        w("// operands read from shared memory, and frees the stage on its 'empty' mbarrier.")
        if self.PP:
            w("// Pingpong (--pingpong 1): each consumer takes every other tile of the block, all its")
            w("// 128 rows, so one's epilogue runs while the other's main loop has the tensor cores.")
        w(f"// Requires M % {self.BM} == 0, N % {self.BN} == 0, K % {self.BK} == 0 (the lesson's `multiple:`) and sm_90a.")
        w("//")
        w("// Written out by ptx/gen/09_wgmma.py (the wgmma operand lists are long); edit the")
        w("// generator, not this file.")
        w("//")
        w(".version 8.0            // wgmma, setmaxnreg, TMA and mbarrier tx-counts arrived with PTX 8.0 ...")
        w(".target sm_90a          // ... and wgmma exists only on sm_90a: this code runs on Hopper (cc 9.0) alone")
        w(".address_size 64")
        w("")
        if self.TMA32:
            w("// The epilogue stages C in boxes of 64 x 32 f32 and stores them with TMA (--epilogue tma).")
            w(f"// Dynamic shared memory: {S} stages x (A {self.A_BYTES} B + B {self.B_BYTES} B), 2 x {self.CBUFS}"
              f" staging boxes of {F32BOX} B,")
            w(f"// {2 * S} mbarriers and 1024 bytes of room to align the ring to the swizzle's 1024: {smem} bytes.")
        else:
            w(f"// Dynamic shared memory: {S} stages x (A {self.A_BYTES} B + B {self.B_BYTES} B), {2 * S} mbarriers,")
            w(f"// and 1024 bytes of room to align the ring to the swizzle's 1024: {smem} bytes.")
        w(".extern .shared .align 1024 .b8 smem[];")
        w("")
        w(f".visible .entry {self.a.entry}(")
        w(f"\t.param .align 64 .b8 tmA[128],   // tensor map of A (M x K f16, row-major), box 64 x {self.BM}")
        w("\t.param .align 64 .b8 tmB[128],   // tensor map of B (K x N f16, row-major), box 64 x 64")
        if self.TMA32:
            w("\t.param .align 64 .b8 tmC[128],   // tensor map of C (M x N f32, row-major), box 32 x 64")
        else:
            w("\t.param .u64 C,                   // M x N f32, row-major")
        w("\t.param .u32 M,")
        w("\t.param .u32 N,")
        w("\t.param .u32 K)")
        w(".maxntid 384, 1, 1")
        w(".maxnreg 168            // 65536 registers / 384 threads: the cap setmaxnreg redistributes")
        w("{")

    def decls(self):
        w = self.w
        w(f"\t// Accumulators of a consumer thread: its part of a {64 * self.MH}x{self.BN} f32 tile (see the D fragment).")
        w(f"\t.reg .f32  %d<{self.NACC}>;")
        w("\t.reg .pred %p, %leader, %acc, %one;")
        w("\t.reg .u32  %thr, %wg, %ring, %bars, %full, %empty, %stage, %phase, %sA, %sB;")
        w("\t.reg .u32  %m, %n, %k, %nTilesM, %nTilesN, %bandTiles, %tiles, %tile, %step, %kTiles, %kt, %m0, %n0, %kx, %x, %y;")
        w("\t.reg .u32  %row, %col, %lo, %hi, %prev;")
        w("\t.reg .b64  %descA, %descB, %tmA, %tmB;")
        if self.MH > 1:
            w("\t.reg .b64  %descA1;                      // the second 64 rows of this warpgroup's A")
        if self.PP:
            w("\t.reg .u32  %ord, %oth, %step2;")
            w("\t.reg .pred %turn;")
        w("\t.reg .u64  %pC, %gC, %t64;")
        if self.TMA32:
            w("\t.reg .u32  %sC, %bid, %ea<4>;")
            w("\t.reg .b64  %tmC;")
            w("\t.reg .pred %odd;")
            w("\t.reg .f32  %e<8>;")
        w("")

    def setup(self):
        w, S = self.w, self.S
        w("// @setup")
        w("\tmov.u32         %thr, %tid.x;")
        w("\tshr.u32         %wg, %thr, 7;              // warpgroup 0, 1 or 2")
        w("\tld.param.u32    %m, [M];")
        w("\tld.param.u32    %n, [N];")
        w("\tld.param.u32    %k, [K];")
        self.tiles_across()
        w(f"\tshr.u32         %nTilesM, %m, {log2(self.BM)};         // tiles down M")
        w("\tmul.lo.u32      %tiles, %nTilesM, %nTilesN; // tiles in C")
        if self.a.group:
            w(f"\tmul.lo.u32      %bandTiles, %nTilesN, {self.a.group};   // tiles in a band of {self.a.group} block rows")
        w(f"\tshr.u32         %kTiles, %k, {log2(self.BK)};          // k-tiles per tile")
        w("\t// This block's first tile and the distance to its next one: one tile per block")
        w("\t// when the grid covers C, several when the grid is one block per SM.")
        w("\tmov.u32         %x, %ctaid.y;")
        w("\tmov.u32         %y, %nctaid.x;")
        w("\tmov.u32         %tile, %ctaid.x;")
        w("\tmad.lo.u32      %tile, %x, %y, %tile;")
        w("\tmov.u32         %x, %nctaid.y;")
        w("\tmul.lo.u32      %step, %x, %y;")
        w("\t// The ring starts at the first 1024-byte boundary of the dynamic shared memory:")
        w("\t// the 128-byte swizzle pattern is a function of the address bits 4-9.")
        w("\tmov.u32         %ring, smem;")
        w("\tadd.u32         %ring, %ring, 1023;")
        w("\tand.b32         %ring, %ring, -1024;")
        if self.TMA32:
            w(f"\tadd.u32         %sC, %ring, {S * self.STAGE};      // the staging boxes of C")
        w(f"\tadd.u32         %bars, %ring, {S * self.STAGE + self.staging_bytes()};      // full[s] at bars + 8s, empty[s] at bars + 8({S} + s)")
        w("\tsetp.eq.u32     %leader, %thr, 0;")
        w("\t@!%leader bra   INIT_DONE;")
        for s in range(S):
            w(f"\tmbarrier.init.shared::cta.b64 [%bars+{8 * s}], 1;        // full[{s}]: the producer's arrival + the bytes")
        for s in range(S):
            w(f"\tmbarrier.init.shared::cta.b64 [%bars+{8 * (S + s)}], {self.USERS};       // empty[{s}]: "
              + ("one arrival per consumer" if self.USERS > 1 else "its consumer's arrival"))
        w("\t// Release the mbarrier.inits at cluster scope; the bar.sync below then lets every")
        w("\t// thread use them. (A proxy fence, generic -> async, would be fence.proxy.async.)")
        w("\tfence.mbarrier_init.release.cluster;")
        w("INIT_DONE:")
        w("\tbar.sync        0;")
        w("\tsetp.ne.u32     %p, %wg, 0;")
        w("\t@%p bra         CONSUMER;")
        w("// @end")
        w("")

    def tile_coords(self):
        """m0, n0 of %tile."""
        w, G = self.w, self.a.group
        if G == 0:
            w("\tdiv.u32         %x, %tile, %nTilesN;")
            w("\trem.u32         %y, %tile, %nTilesN;")
        else:
            # Bands of G block rows, walked column by column: blocks that run at
            # the same time share B's columns and A's rows in L2. The last band
            # is shorter when the block rows do not divide by G.
            w("\tdiv.u32         %x, %tile, %bandTiles;     // band")
            w("\tmul.lo.u32      %kx, %x, %bandTiles;")
            w("\tsub.u32         %y, %tile, %kx;            // place inside the band")
            w(f"\tmul.lo.u32      %x, %x, {G};                // the band's first block row")
            w("\tsub.u32         %kx, %nTilesM, %x;")
            w(f"\tmin.u32         %kx, %kx, {G};              // the band's height")
            w("\trem.u32         %m0, %y, %kx;")
            w("\tadd.u32         %x, %x, %m0;               // block row")
            w("\tdiv.u32         %y, %y, %kx;               // block column")
        w(f"\tshl.b32         %m0, %x, {log2(self.BM)};")
        self.column_start()

    # The tile width's two uses in the tile loop's arithmetic; lesson 11's generator
    # overrides them for a width that is no power of two (its 144-wide tile).
    def tiles_across(self):
        """%nTilesN: the tiles across N (BN divides N)."""
        self.w(f"\tshr.u32         %nTilesN, %n, {log2(self.BN)};         // tiles across N")

    def column_start(self):
        """%n0: the first column of block column %y."""
        self.w(f"\tshl.b32         %n0, %y, {log2(self.BN)};")

    def advance(self):
        """Next ring slot; the phase bit flips each time the ring wraps."""
        w, S = self.w, self.S
        w("\tadd.u32         %stage, %stage, 1;")
        w(f"\tsetp.eq.u32     %p, %stage, {S};")
        w("\t@%p mov.u32     %stage, 0;")
        w("\t@%p xor.b32     %phase, %phase, 1;")

    def wait(self, label, bar, parity):
        w = self.w
        w(f"{label}:")
        w(f"\tmbarrier.try_wait.parity.shared::cta.b64 %p, [{bar}], {parity};")
        w(f"\t@!%p bra        {label};")

    def producer(self):
        w, S = self.w, self.S
        w("// @producer")
        if self.a.setmaxnreg:
            w("\t// The producer needs few registers: give most of them to the consumers.")
            w("\tsetmaxnreg.dec.sync.aligned.u32 40;")
        w("\t@!%leader bra   DONE;                      // one thread issues every copy")
        w("\tmov.b64         %tmA, tmA;")
        w("\tcvta.param.u64  %tmA, %tmA;                // generic address of the tensor map")
        w("\tmov.b64         %tmB, tmB;")
        w("\tcvta.param.u64  %tmB, %tmB;")
        self.producer_setup()
        w("\tmov.u32         %stage, 0;")
        w("\tmov.u32         %phase, 0;")
        self.next_work("P")
        w(f"\tmov.u32         %kt, {self.K_FIRST};")
        w("P_K:")
        self.empty_comment()
        w(f"\tmad.lo.u32      %empty, %stage, 8, %bars;")
        w(f"\tadd.u32         %empty, %empty, {8 * S};")
        w("\txor.b32         %x, %phase, 1;")
        self.wait("P_WAIT", "%empty", "%x")
        w("\tmad.lo.u32      %full, %stage, 8, %bars;")
        w(f"\tmad.lo.u32      %sA, %stage, {self.STAGE}, %ring;")
        w(f"\tadd.u32         %sB, %sA, {self.A_BYTES};")
        self.full_comment()
        w(f"\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%full], {self.STAGE};")
        w(f"\tshl.b32         %kx, %kt, {log2(self.BK)};")
        self.load_a()
        self.load_b()
        self.advance()
        w("\tadd.u32         %kt, %kt, 1;")
        w(f"\tsetp.lt.u32     %p, %kt, {self.K_END};")
        w("\t@%p bra         P_K;")
        w("\tadd.u32         %tile, %tile, %step;")
        w("\tbra             P_TILE;")
        w("// @end")
        w("")

    # The work loop's parts that lesson 10's stream-K tail changes: a piece of work is
    # k-tiles K_FIRST..K_END-1 of %tile (here always all of them).
    K_FIRST, K_END = "0", "%kTiles"

    def next_work(self, x):
        """At label {x}_TILE: the next tile (or DONE) and its m0, n0."""
        w = self.w
        w(f"{x}_TILE:")
        w("\tsetp.ge.u32     %p, %tile, %tiles;")
        w("\t@%p bra         DONE;")
        self.tile_coords()

    # The producer's parts that lesson 10's generator changes.

    def producer_setup(self):
        """Registers the copies need, set once."""

    def empty_comment(self):
        self.w("\t// Wait until both consumers have released this slot. A fresh barrier counts as")
        self.w("\t// released in the phase before its first, so the first round does not wait.")

    def full_comment(self):
        self.w(f"\t// Arrive on full[stage] and tell it to wait for {self.STAGE} more bytes: the phase")
        self.w("\t// completes when the four copies below have all landed.")

    def load_a(self):
        """A's k-slice of this stage: one box of BM rows."""
        w = self.w
        w(f"\t// A: rows m0..m0+{self.BM - 1}, columns kx..kx+{self.BK - 1}; coordinates are innermost first.")
        w("\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes")
        w("\t                [%sA], [%tmA, {%kx, %m0}], [%full];")

    # B's tensor-map coordinates, innermost first: {n, k} for B stored K x N.
    B_COORDS = "{%x, %kx}"

    def load_b_comment(self):
        self.w(f"\t// B: rows kx..kx+{self.BK - 1}, {self.BN // 64} boxes of 64 columns (128 bytes, the widest a 128-byte swizzle takes).")

    def load_b(self):
        """B's k-slice of this stage: boxes of 64 columns."""
        w = self.w
        self.load_b_comment()
        for j in range(self.BN // 64):
            w(f"\tadd.u32         %x, %n0, {64 * j};")
            w(f"\tadd.u32         %y, %sB, {self.BBOX * j};")
            w("\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes")
            w(f"\t                [%y], [%tmB, {self.B_COORDS}], [%full];")

    def per8(self, line):
        """line(i) for every accumulator i, eight to a line."""
        for j in range(0, self.NACC, 8):
            self.w("\t" + " ".join(line(i) for i in range(j, j + 8)))

    def acc_operands(self, acc="%d", first=0, count=None):
        """wgmma's accumulator operand list (count registers from first: all of them
        by default), in lines of 8 registers for the reader."""
        w = self.w
        count = self.NACC if count is None else count
        parts = [", ".join(f"{acc}{i}" for i in range(j, j + 8)) for j in range(first, first + count, 8)]
        w("\t\t{" + parts[0] + ",")
        for p in parts[1:-1]:
            w("\t\t " + p + ",")
        w("\t\t " + parts[-1] + "},")

    def wgmma_shape(self):
        return f"wgmma.m64n{self.BN}k16"

    def wgmma(self, kk):
        w = self.w
        w(f"\t// k16 slice {kk}: A from 32*{kk} bytes into each 128-byte row, B from row 16*{kk}.")
        if kk:
            w("\tadd.s64         %descA, %descA, 2;         // +32 bytes (>> 4)")
            if self.MH > 1:
                w("\tadd.s64         %descA1, %descA1, 2;")
            w("\tadd.s64         %descB, %descB, 128;       // +2048 bytes (>> 4)")
        pred = "%acc" if kk == 0 else "%one"
        per = self.NACC // self.MH
        for h in range(self.MH):
            if self.MH > 1:
                w(f"\t// rows {64 * h}-{64 * h + 63} of this warpgroup's {64 * self.MH}: accumulators {per * h}-{per * h + per - 1}")
            w(f"\twgmma.mma_async.sync.aligned.m64n{self.BN}k16.f32.{self.AB}.{self.AB}")
            self.acc_operands(first=per * h, count=per)
            desc = "%descA1" if h else "%descA"
            w(f"\t\t{desc}, %descB, {pred}, 1, 1, 0, 1;  // scale-d, scale-a, scale-b, A K-major, B transposed")

    def descriptors(self):
        """This stage's A (this warpgroup's 64 rows) and B descriptors into %descA, %descB."""
        w = self.w
        w(f"\tmad.lo.u32      %sA, %stage, {self.STAGE}, %ring;")
        w(f"\tadd.u32         %sB, %sA, {self.A_BYTES};")
        if self.PP:
            w("\tadd.u32         %x, %sA, 0;                // all of A is this warpgroup's")
        else:
            w("\tsub.u32         %x, %wg, 1;")
            w(f"\tmad.lo.u32      %x, %x, {64 * self.MH * 128}, %sA;       // this warpgroup's {64 * self.MH} rows of A")
        self.desc_start("%x")
        w("\tor.b32          %lo, %lo, 0x10000;         // leading offset 16 bytes (unused when swizzled)")
        w("\tmov.u32         %hi, 0x40000040;           // stride 1024 bytes, 128-byte swizzle")
        w("\tmov.b64         %descA, {%lo, %hi};")
        if self.MH > 1:
            w("\tadd.s64         %descA1, %descA, 512;      // 64 rows further: 8192 bytes (>> 4)")
        self.desc_start("%sB")
        self.desc_b_leading()
        w("\tmov.b64         %descB, {%lo, %hi};")

    WGMMA_K = 16  # the k of one wgmma: 16 for 16-bit inputs

    def consumer_start(self, setmaxnreg):
        """The consumer warpgroups' registers, their leader, their place, the ring's state."""
        w = self.w
        w("// @consumer")
        w("CONSUMER:")
        if setmaxnreg:
            w("\tsetmaxnreg.inc.sync.aligned.u32 232;       // 128 x 40 + 256 x 232 = 384 x 168, the block's pool")
        w("\tand.b32         %x, %thr, 127;")
        w("\tsetp.eq.u32     %leader, %x, 0;            // one thread per warpgroup releases stages")
        self.consumer_place()
        w("\tmov.u32         %stage, 0;")
        w("\tmov.u32         %phase, 0;")
        w("\tmov.u32         %prev, 0;")
        w(f"\tsetp.eq.u32     %one, %thr, %thr;          // always true: later k{self.WGMMA_K} slices accumulate")
        if self.PP:
            w("\t// Pingpong: warpgroup 1 takes the block's 1st, 3rd, ... tile, warpgroup 2 the 2nd,")
            w("\t// 4th, ...; the producer loads them all in turn, so each skips the other's k-tiles.")
            w("\tadd.u32         %ord, %wg, 2;              // named barrier 3 or 4: my turn to wait on 'full' ...")
            w("\tsub.u32         %oth, 7, %ord;             // ... and 4 or 3: the other's")
            w("\tshl.b32         %step2, %step, 1;          // every other tile is mine")
            w("\tsetp.ne.u32     %turn, %wg, 1;             // warpgroup 1 starts; 2 waits its turn")
            w("\t@!%turn bra     C_FIRST;")
            w("\tadd.u32         %tile, %tile, %step;")
            self.skip_ring()
            w("C_FIRST:")

    def turn_wait(self):
        """Pingpong: a warpgroup's main loop starts once the other's has waited on all
        its k-tiles. mbarrier parity names a phase only within one turn of the ring, so
        no warpgroup may wait on a slot two fillings ahead; taking turns ensures it (and
        the two main loops take turns on the tensor cores)."""
        w = self.w
        w("\t@!%turn bra     C_GO;")
        w("\tbar.sync        %ord, 256;                 // the other warpgroup's bar.arrive")
        w("C_GO:")
        w("\tsetp.eq.u32     %turn, %thr, %thr;")

    def turn_pass(self):
        """Pingpong: the turn to the other warpgroup, if it has a next tile."""
        w = self.w
        w("\tadd.u32         %x, %tile, %step;          // the other warpgroup's next tile")
        w("\tsetp.lt.u32     %p, %x, %tiles;")
        w("\t@%p bar.arrive  %oth, 256;")

    def skip_ring(self):
        """Pingpong: the ring's slot and phase %kTiles k-tiles (the other warpgroup's tile) on."""
        w, S = self.w, self.S
        w("\tadd.u32         %x, %stage, %kTiles;")
        w(f"\trem.u32         %stage, %x, {S};")
        w(f"\tdiv.u32         %x, %x, {S};                // the times the ring wraps ...")
        w("\tand.b32         %x, %x, 1;")
        w("\txor.b32         %phase, %phase, %x;        // ... flip the phase as often")

    def consumer(self):
        w, S = self.w, self.S
        self.consumer_start(self.a.setmaxnreg)
        self.next_work("C")
        w("\tsetp.ne.u32     %acc, %thr, %thr;          // false: the first products overwrite D")
        w(f"\tmov.u32         %kt, {self.K_FIRST};")
        if self.PP:
            self.turn_wait()
        w("// @end")
        w("C_K:")
        w("// @wait-full")
        w("\tmad.lo.u32      %full, %stage, 8, %bars;")
        self.wait("C_WAIT", "%full", "%phase")
        w("// @end")
        w("// @descriptors")
        w("\t// Matrix descriptors (64 bits): start >> 4, leading offset >> 4 at bit 16,")
        w("\t// stride offset >> 4 at bit 32, 128-byte swizzle at bits 62-63 (hi word 1 << 30).")
        self.descriptors()
        w("// @end")
        w("// @wgmma")
        w("\t// Registers the wgmmas accumulate into must not be touched by other instructions")
        w("\t// until they complete: the fence orders this warpgroup's earlier register use.")
        w("\twgmma.fence.sync.aligned;")
        for kk in range(self.KSLICES):
            self.wgmma(kk)
        w("\twgmma.commit_group.sync.aligned;           // the 4 wgmmas form one group ...")
        w("\twgmma.wait_group.sync.aligned 1;           // ... and the group before it is done")
        w("// @end")
        w("// @release")
        w("\t// The previous stage's wgmmas have finished reading it: hand it back.")
        w(f"\tsetp.ne.u32     %p, %kt, {self.K_FIRST};")
        w("\tand.pred        %p, %p, %leader;")
        w(f"\tadd.u32         %x, %prev, {8 * S};")
        self.release("%p", "%x")
        w("\tmad.lo.u32      %prev, %stage, 8, %bars;")
        w("\tmov.pred        %acc, %one;                // from now on, accumulate")
        self.advance()
        w("\tadd.u32         %kt, %kt, 1;")
        w(f"\tsetp.lt.u32     %p, %kt, {self.K_END};")
        w("\t@%p bra         C_K;")
        if self.PP:
            self.turn_pass()
        w("\twgmma.wait_group.sync.aligned 0;")
        self.consumer_end()

    def consumer_end(self):
        """After the last k-tile: its stage back to the producer, the epilogue, the next tile."""
        w = self.w
        w(f"\tadd.u32         %x, %prev, {8 * self.S};")
        self.release("%leader", "%x")
        w("// @end")
        self.epilogue()
        if self.PP:
            self.skip_ring()
        w(f"\tadd.u32         %tile, %tile, {'%step2' if self.PP else '%step'};")
        w("\tbra             C_TILE;")
        w("DONE:")
        self.finish()
        w("\tret;")
        w("}")

    # The consumer's parts that lesson 10's generator changes.

    def consumer_place(self):
        """Where this thread's accumulators go in C (the epilogue's addresses)."""
        if self.TMA32:
            self.staging_f32()
            return
        w = self.w
        more = f" (+ {self.WG_ROWS} for warpgroup 2)" if self.WG_ROWS else ""
        w(f"\t// This thread's place in the D fragment: row 16w + l/4{more},")
        w("\t// column 2(l%4) of every 8.")
        w("\tshr.u32         %row, %x, 5;")
        w("\tshl.b32         %row, %row, 4;")
        w("\tand.b32         %y, %x, 31;")
        w("\tshr.u32         %kx, %y, 2;")
        w("\tadd.u32         %row, %row, %kx;")
        if self.WG_ROWS:
            w("\tsub.u32         %x, %wg, 1;")
            w(f"\tmad.lo.u32      %row, %x, {self.WG_ROWS}, %row;")
        w("\tand.b32         %col, %y, 3;")
        w("\tshl.b32         %col, %col, 1;")
        w("\tld.param.u64    %pC, [C];")
        w("\tcvta.to.global.u64 %pC, %pC;")

    def desc_b_leading(self):
        """B's leading byte offset into %lo: B is MN-major, the next 64 columns are the next box."""
        self.w(f"\tor.b32          %lo, %lo, {(self.BBOX >> 4) << 16:#x};        // leading offset {self.BBOX}: the next 64 columns")

    def desc_start(self, src):
        """%lo = the descriptor's start-address field of shared address src."""
        self.w(f"\tshr.u32         %lo, {src}, 4;")

    def release(self, pred, addr):
        """The leader hands a stage back: one arrival on its empty mbarrier at addr."""
        self.w(f"\t@{pred} mbarrier.arrive.shared::cta.b64 _, [{addr}];")

    def finish(self):
        """What every thread does at DONE before ret."""
        w = self.w
        if self.TMA:
            w("\t// The last tile's store must have left shared memory before the block ends.")
            w("\tsetp.ne.u32     %p, %wg, 0;")
            w("\tand.pred        %p, %p, %leader;")
            w("\t@%p cp.async.bulk.wait_group 0;")

    def staging_f32(self):
        """%ea0..3: where this thread's f32 pairs go in a staging box, one per 8-column
        group j' of the box's 32 columns; the box's buffer and the row + 8 add immediates."""
        w = self.w
        w("\t// Staging addresses. Lane l of warp w holds rows 16w + l/4 and + 8, columns")
        w("\t// 2(l%4) and + 1 of every 8: in a box's 128-byte rows, 8-column group j' (0-3)")
        w("\t// is 16-byte chunk 2j' + (l%4)/2, at byte 8(l%2). With the 128-byte swizzle")
        w("\t// chunk c of row r sits at c ^ (r % 8), and r % 8 = l/4 = i.")
        w("\t// 8-byte stores are served a half-warp (rows i = 0-3 or 4-7) at a time, and")
        w("\t// rows i and i ^ 1 would put group j' in the same pair of chunks: so the lanes")
        w("\t// of odd rows store group j' ^ 2 where the others store j' (selp picks it), and")
        w("\t// the four rows fill all 32 banks once. Chunk: 2j' ^ t, t = (l%4)/2 ^ i ^ 4(i%2).")
        w("\tsub.u32         %y, %wg, 1;")
        w(f"\tmad.lo.u32      %sC, %y, {self.CBUFS * F32BOX}, %sC;       // this warpgroup's staging boxes")
        w("\tadd.u32         %bid, %wg, 0;              // named barrier 1 or 2: this warpgroup only")
        w("\tshr.u32         %row, %x, 5;               // warp w")
        w("\tand.b32         %y, %x, 31;                // lane l")
        w("\tshr.u32         %kx, %y, 2;                // l/4")
        w("\tshl.b32         %row, %row, 4;")
        w("\tadd.u32         %row, %row, %kx;           // row 16w + l/4")
        w("\tmad.lo.u32      %row, %row, 128, %sC;")
        w("\tand.b32         %col, %y, 1;")
        w("\tmad.lo.u32      %row, %col, 8, %row;       // + 8 bytes for an odd lane")
        w("\tbfe.u32         %col, %y, 1, 1;            // (l%4)/2")
        w("\txor.b32         %kx, %kx, %col;")
        w("\tbfe.u32         %col, %y, 2, 1;            // i % 2")
        w("\tsetp.ne.u32     %odd, %col, 0;")
        w("\tshl.b32         %col, %col, 2;")
        w("\txor.b32         %kx, %kx, %col;            // t")
        for g in range(4):
            w(f"\txor.b32         %lo, %kx, {2 * g};")
            w(f"\tmad.lo.u32      %ea{g}, %lo, 16, %row;")
        w("\tmov.b64         %tmC, tmC;")
        w("\tcvta.param.u64  %tmC, %tmC;")

    def epilogue_tma_f32(self):
        """C in boxes of 64 x 32 f32, each stored by TMA as soon as it is staged; the
        boxes cycle through CBUFS buffers."""
        w = self.w
        w("// @epilogue")
        self.box_loop(self.CBUFS, F32BOX, F32COLS, self.stage_f32)
        w("// @end")

    def stage_f32(self, c, off):
        """Box c (columns 32 cc.. of m64 slice h) as f32 pairs into the buffer at %sC + off."""
        w, across = self.w, self.BN // F32COLS
        per, h, cc = self.NACC // self.MH, c // across, c % across
        for g in range(2):
            # slot g: group g, or g + 2 in odd rows; slot g + 2 the other
            d0, d2 = per * h + 4 * (4 * cc + g), per * h + 4 * (4 * cc + g + 2)
            for i in range(4):
                w(f"\tselp.f32        %e{i}, %d{d2 + i}, %d{d0 + i}, %odd;")
                w(f"\tselp.f32        %e{4 + i}, %d{d0 + i}, %d{d2 + i}, %odd;")
            for k, e in ((g, 0), (g + 2, 4)):
                w(f"\tst.shared.v2.f32 [%ea{k}+{off}], {{%e{e}, %e{e + 1}}};")
                w(f"\tst.shared.v2.f32 [%ea{k}+{off + 8 * 128}], {{%e{e + 2}, %e{e + 3}}};")

    def box_loop(self, nbufs, box_bytes, cols, stage):
        """A consumer's 64 MH x BN part of C as boxes of 64 rows x cols columns, row slice
        by row slice: stage(c, off) writes box c into the staging buffer at %sC + off,
        and one thread hands it to the copy engine as soon as every writer is done. The
        boxes cycle through nbufs buffers; a buffer is written again only once the store
        that last read it has (wait_group.read), so the stores overlap the staging."""
        w, N = self.w, nbufs
        across = self.BN // cols         # boxes across one m64 slice
        boxes = self.MH * across
        assert boxes % N == 0 and N >= 2
        w("\t// The staging buffers are free once the copy engine has read the previous tile's")
        w("\t// stores; one thread waits for that, the barrier tells the other 127.")
        w("\t@%leader cp.async.bulk.wait_group.read 0;")
        w("\tbar.sync        %bid, 128;")
        if self.WG_ROWS:
            w("\tsub.u32         %y, %wg, 1;")
            w(f"\tmad.lo.u32      %y, %y, {self.WG_ROWS}, %m0;           // this warpgroup's {self.WG_ROWS} rows")
        else:
            w("\tadd.u32         %y, %m0, 0;                // the warpgroup's own tile")
        for c in range(boxes):
            b, h, cc = c % N, c // across, c % across
            if h and cc == 0:
                w("\tadd.u32         %y, %y, 64;                // the next 64 rows")
            w(f"\t// Box {c}: columns n0 + {cols * cc}.. into buffer {b}.")
            stage(c, b * box_bytes)
            w("\tfence.proxy.async.shared::cta;           // the async proxy (TMA) reads what we wrote")
            if N <= c + 1 < boxes:
                w(f"\t@%leader cp.async.bulk.wait_group.read {N - 2};   // box {c + 1 - N}'s store has read buffer {(c + 1) % N}")
            w("\tbar.sync        %bid, 128;")
            w(f"\t@%leader add.u32 %x, %n0, {cols * cc};")
            w(f"\t@%leader cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%tmC, {{%x, %y}}], [%sC+{b * box_bytes}];")
            w("\t@%leader cp.async.bulk.commit_group;")

    def epilogue(self):
        if self.TMA32:
            self.epilogue_tma_f32()
            return
        w = self.w
        w("// @epilogue")
        w("\t// Store D: each thread writes pairs of f32, rows row and row + 8, every 8 columns.")
        w("\tadd.u32         %x, %m0, %row;")
        w("\tadd.u32         %y, %n0, %col;")
        w("\tmad.wide.u32    %t64, %x, %n, 0;")
        w("\tcvt.u64.u32     %gC, %y;")
        w("\tadd.u64         %gC, %gC, %t64;")
        w("\tshl.b64         %gC, %gC, 2;")
        w("\tadd.u64         %gC, %pC, %gC;             // &C[m0 + row][n0 + col]")
        w("\tmul.wide.u32    %t64, %n, 32;              // 8 rows down, in bytes")
        per = self.NACC // self.MH
        for h in range(self.MH):
            if h:
                w("\tmul.wide.u32    %t64, %n, 224;             // from row 8 to row 64: 56 rows, in bytes")
                w("\tadd.u64         %gC, %gC, %t64;")
                w("\tmul.wide.u32    %t64, %n, 32;")
            for j in range(per // 4):
                d = per * h + 4 * j
                w(f"\tst.global.v2.f32 [%gC+{32 * j}], {{%d{d}, %d{d + 1}}};")
            w("\tadd.u64         %gC, %gC, %t64;")
            for j in range(per // 4):
                d = per * h + 4 * j
                w(f"\tst.global.v2.f32 [%gC+{32 * j}], {{%d{d + 2}, %d{d + 3}}};")
        w("// @end")

    def run(self):
        self.header()
        self.decls()
        self.setup()
        self.producer()
        self.consumer()
        return "\n".join(self.out) + "\n"


def fits(gen, name):
    """Exit with a one-line reason when the kernel's shared memory is over sm_90's."""
    if gen.smem_bytes() > SMEM_MAX:
        sys.exit(f"{name}: {gen.smem_bytes()} bytes of shared memory, over {SMEM_MAX}: fewer --stages or --cbufs")


if __name__ == "__main__":
    args = parse()
    if args.group:
        check_tile_order(args.group)
    g = Gen(args)
    fits(g, "09_wgmma.py")
    print(g.run(), end="")
