#!/usr/bin/env python3
"""Writes ptx/10_cluster.ptx, lesson 10's kernel (gemm_cluster): lesson 9 plus
thread-block clusters, TMA multicast, a bf16 output stored by TMA while the
next tile's main loop runs.

    python3 ptx/gen/10_cluster.py > ptx/10_cluster.ptx
    python3 ptx/gen/10_cluster.py --cluster 1 --epilogue direct --out f32 --entry v0 > /tmp/v0.ptx
    python3 ptx/gen/10_cluster.py --ab f16 --out f32 --stages 4 --cbufs 2 > /tmp/l9c2.ptx   (lesson 9's types)
    python3 ptx/gen/10_cluster.py --ab f16 --out f32 --bm 256 --bn 128 --along n --stages 4 > /tmp/n.ptx
    python3 ptx/gen/10_cluster.py --stages 4 --cbufs 2 > /tmp/s4.ptx   (bf16 staged box by box: room for a 4th stage)

It reuses lesson 9's generator (09_wgmma.py) for everything that does not
change: the ring of stages and its mbarriers, the wgmma with both operands
in shared memory, the tile order in bands, the phase bit. What is new:

Cluster (--cluster 2): two blocks on two SMs of one GPC run as a pair. They
  take the two tiles of C that lie one above the other (rows m0 and m0 + 128,
  the same 256 columns), so they need the same k-slices of B.
  With --along n the pair lies side by side instead (columns n0 and n0 + BN,
  the same rows), needs the same k-slices of A, and multicasts A's rows.
Multicast (--multicast 1): each block of the pair asks the copy engine for
  half of B's slice (two of its four 64-column boxes) with .multicast::cluster
  and mask 0b11: the box lands at the same shared-memory offset in both
  blocks, and each block's "full" mbarrier at that offset is told its bytes.
  So every block still expects a whole stage of bytes (its A, all four B
  boxes), but fetches only A and half of B from L2. The price: a stage may
  be overwritten only when the consumers of both blocks are done with it, so
  "empty" counts four arrivals (two consumers x two blocks), and a consumer
  releases a stage in its own block and in its partner (mapa gives the
  partner's address of the same mbarrier).
Epilogue (--epilogue tma): each consumer converts its 64 x 256 accumulators
  to bf16, writes them with stmatrix into a staging tile in shared memory
  (four 64 x 64 boxes, 128-byte swizzled so the eight rows of a stmatrix land
  in eight different bank groups), and one thread hands the four boxes to the
  copy engine (cp.async.bulk.tensor global <- shared). The consumer goes
  straight on to its next tile; before it writes the staging tile again it
  waits only until the copy engine has *read* it (wait_group.read), which a
  whole main loop later it long has. With --out f32 the staging tile would
  not fit beside the ring: lesson 9's generator's chunked f32 epilogue
  (09_wgmma.py --epilogue tma --cbufs N) stores it instead.
  --cbufs N with a 16-bit C (a variant): the same stmatrix boxes, but each
  stored as soon as it is written, through N buffers of 64 x 64 per consumer
  (lesson 9's box loop): 2 x N x 8 KB of staging instead of 64 KB, so a 4th
  stage of 48 KB fits (4 x 48 KB + 2 x 2 x 8 KB + mbarriers + 1 KB <= 227 KB).
stmatrix fragment (m8n8, b16): lane l holds row l/4, columns 2(l%4) and +1 of
  each 8 x 8 matrix, exactly a D fragment's pair d[4j], d[4j+1] (rows 0-7)
  and d[4j+2], d[4j+3] (rows 8-15); lane l gives the address of row l%8 of
  matrix l/8.
"""
import argparse

from banner import banner, sibling

L9 = sibling("09_wgmma.py")

BM, BN, BK = L9.BM, L9.BN, L9.BK
A_BYTES, BBOX, STAGE, NACC = L9.A_BYTES, L9.BBOX, L9.STAGE, L9.NACC
CBOX = 64 * 64 * 2                 # one staging box of C: 64 rows x 64 bf16 columns
C_WG = (BN // 64) * CBOX           # a consumer's staging tile: 64 x 256 bf16
log2 = L9.log2
SK_CTAS = 160                      # stream-K: the grids its slots hold, in blocks (132 SMs on an H100)
SK_SLOT = 128 * NACC * 4           # a consumer warpgroup's f32 partial sums: 128 threads x 128
SK_BATCH = 8                       # 16-byte loads of the other piece's slot in flight before the adds


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--stages", type=int, default=3)
    p.add_argument("--entry", default="gemm_cluster")
    p.add_argument("--group", type=int, default=8,
                   help="tile order: 0 = row by row; G > 0 = bands of G cluster rows, column by column")
    p.add_argument("--cluster", type=int, default=2, choices=(1, 2), help="blocks per cluster, along M (N with --along n)")
    p.add_argument("--multicast", type=int, default=1, choices=(0, 1),
                   help="1: each block of a cluster loads half of B for both (half of A with --along n)")
    p.add_argument("--along", default="m", choices=("m", "n"),
                   help="the cluster's blocks: m: one above the other, sharing B; n: side by side, sharing A")
    p.add_argument("--epilogue", default="tma", choices=("tma", "direct"),
                   help="tma: stage C in shared memory, store it with TMA, overlapped; direct: st.global from registers")
    p.add_argument("--out", default="bf16", choices=("bf16", "f16", "f32"),
                   help="C's type (f16 with --ab f16, bf16 with --ab bf16)")
    p.add_argument("--ab", default="bf16", choices=("bf16", "f16"), help="A's and B's type")
    p.add_argument("--cbufs", type=int, default=None, choices=(2, 4, 8),
                   help="with --epilogue tma: staging buffers per consumer, each box stored as soon as it is"
                        " written: 64 x 32 f32 with --out f32 (default 2, lesson 9's), 64 x 64 with a 16-bit C"
                        " (default none: the whole tile is staged, then stored)")
    p.add_argument("--setmaxnreg", type=int, default=1)
    p.add_argument("--streamk", type=int, default=0, choices=(0, 1),
                   help="1: the last, partial round of tiles and the round before it are shared out by k-tiles"
                        " (stream-K), so every cluster has the same number of k-tiles to run")
    p.add_argument("--streamk-ctas", type=int, default=SK_CTAS,
                   help=f"with --streamk 1: the largest grid, in blocks, that it shares out for (at most {SK_CTAS}, the"
                        " slots' size; 0: never, for timing the code's cost alone)")
    L9.shape_args(p)
    a = p.parse_args()
    if a.cluster == 1:
        a.multicast = 0
    L9.check_shape(p, a)
    if a.cbufs is None and a.out == "f32":
        a.cbufs = 2
    if a.cbufs == 8 and a.out != "f32":
        p.error(f"--cbufs 8 with --out {a.out}: a consumer's part of C is 4 boxes of 64 x 64 (--cbufs 2 or 4)")
    if a.out != "f32" and a.out != a.ab:
        p.error(f"--out {a.out} with --ab {a.ab}: a 16-bit C has A's and B's type")
    if not 0 <= a.streamk_ctas <= SK_CTAS:
        p.error(f"--streamk-ctas {a.streamk_ctas}: 0 to {SK_CTAS} (the slots' size)")
    if a.streamk and (a.pingpong or a.epilogue != "tma" or a.out == "f32"):
        p.error("--streamk 1 goes with the cooperative kernel's 16-bit TMA epilogue (no --pingpong, --out f32, --epilogue direct)")
    return a


class Gen(L9.Gen):
    AB = "bf16"

    def __init__(self, a):
        super().__init__(a)
        self.AB = getattr(a, "ab", "bf16")  # lesson 11's generator has no --ab
        self.C16 = self.TMA and self.OUT != "f32"  # the stmatrix epilogue below (else lesson 9's f32 one)
        self.CVT = f"cvt.rn.{self.OUT}x2.f32"  # a 16-bit C's conversion, two values a register
        self.CL = a.cluster
        self.MC = a.multicast
        self.consumers_per_stage = self.USERS * (self.CL if self.MC else 1)
        self.ALONG = getattr(a, "along", "m")  # lesson 11's generator has no --along
        self.CM = self.CL if self.ALONG == "m" else 1  # blocks of a cluster down M ...
        self.CN = self.CL if self.ALONG == "n" else 1  # ... and across N
        self.CBOX = CBOX
        self.C_WG = self.MH * (self.BN // 64) * CBOX  # a consumer's staging tile: 64 MH x BN 16-bit
        # --cbufs N with a 16-bit C: box by box through N buffers (lesson 9's box loop), not the whole tile
        self.CB16 = getattr(a, "cbufs", None) if self.C16 else None
        self.SK = getattr(a, "streamk", 0)  # lesson 11's generator has no --streamk
        if self.SK:
            self.K_FIRST, self.K_END = "%kb0", "%kb1"

    def staging_bytes(self):
        if self.C16:
            return 2 * (self.CB16 * CBOX if self.CB16 else self.C_WG)
        return super().staging_bytes()

    def header(self):
        w, S, a = self.w, self.S, self.a
        w(banner() + "//")
        w(f"// 10_cluster.ptx - Hopper: C ({a.out}) = A ({self.AB}) . B ({self.AB}), f32 accumulation, with")
        w("// thread-block clusters, TMA multicast and an epilogue that overlaps the next tile.")
        w("//")
        w(f"// Lesson 9's kernel (block tile {self.BM}x{self.BN}, BK={self.BK}, TMA + mbarrier ring, two consumer")
        w(f"// warpgroups of {self.wgmma_shape()}) with a {S}-stage ring, and:")
        if self.CL > 1:
            w(f"//  - clusters of {self.CL} blocks: the pair computes two tiles "
              + ("one above the other;" if self.CM > 1 else "side by side;"))
        if self.MC:
            w(f"//  - multicast: each block loads half of {self.shared_operand()}'s k-slice into both blocks' shared memory;")
        if self.C16 and self.CB16:
            w(f"//  - the epilogue writes {self.OUT} with stmatrix into swizzled 64 x 64 boxes, {self.CB16} per")
            w("//    consumer in turn, and stores each with TMA as it is written; the last boxes'")
            w("//    stores run while the consumers start the next tile.")
        elif self.C16:
            w(f"//  - the epilogue writes {self.OUT} into a swizzled staging tile with stmatrix and")
            w("//    stores it with TMA, while the consumers start the next tile.")
        elif self.TMA:
            w("//  - the epilogue stages f32 in boxes of 64 x 32 and stores each with TMA as it is")
            w("//    written; the last boxes' stores run while the consumers start the next tile.")
        w(f"// Requires M % {self.BM * self.CM} == 0, N % {self.BN * self.CN} == 0, K % {self.BK} == 0 (the lesson's `multiple:`) and sm_90a.")
        w("//")
        w("// Written out by ptx/gen/10_cluster.py (which reuses ptx/gen/09_wgmma.py); edit the")
        w("// generator, not this file.")
        w("//")
        w(".version 8.0            // clusters, multicast, mapa, stmatrix and bulk stores: PTX 7.8-8.0 ...")
        w(".target sm_90a          // ... wgmma: sm_90a only (setmaxnreg: sm_90a and the later 'a' targets)")
        w(".address_size 64")
        w("")
        parts = f"{S} stages x (A {self.A_BYTES} B + B {self.STAGE - self.A_BYTES} B)"
        if self.C16 and self.CB16:
            parts += f", 2 x {self.CB16} staging boxes of {CBOX} B"
        elif self.C16:
            parts += f", 2 staging tiles of {self.C_WG} B"
        elif self.TMA:
            parts += f", 2 x {self.CBUFS} staging boxes of {L9.F32BOX} B"
        w(f"// Dynamic shared memory: {parts},")
        w(f"// {2 * S} mbarriers and 1024 bytes of room for the swizzle's alignment: {self.smem_bytes()} bytes.")
        w(".extern .shared .align 1024 .b8 smem[];")
        w("")
        if self.SK:
            self.streamk_memory()
        w(f".visible .entry {a.entry}(")
        rows = self.BM // self.CN if self.MC else self.BM  # side by side, each block copies half of A
        w(f"\t.param .align 64 .b8 tmA[128],   // tensor map of A (M x K {self.AB}, row-major), box 64 x {rows}")
        w(f"\t.param .align 64 .b8 tmB[128],   // tensor map of B (K x N {self.AB}, row-major), box 64 x 64")
        if self.C16:
            w(f"\t.param .align 64 .b8 tmC[128],   // tensor map of C (M x N {self.OUT}, row-major), box 64 x 64")
        elif self.TMA:
            w("\t.param .align 64 .b8 tmC[128],   // tensor map of C (M x N f32, row-major), box 32 x 64")
        else:
            w(f"\t.param .u64 C,                   // M x N {a.out}, row-major")
        w("\t.param .u32 M,")
        w("\t.param .u32 N,")
        w("\t.param .u32 K)")
        self.entry_end()

    def entry_end(self):
        """The entry's directives after its parameters, and its opening brace."""
        w = self.w
        w(".maxntid 384, 1, 1")
        w(".maxnreg 168            // 65536 registers / 384 threads: the cap setmaxnreg redistributes")
        if self.CL > 1:
            w(f".reqnctapercluster {self.CL}, 1, 1  // launched in clusters of {self.CL} along x")
        w("{")

    def decls(self):
        super().decls()
        w = self.w
        w("\t.reg .u32  %rank;")
        if self.MC:
            w("\t.reg .b16  %mask;")
        if self.C16:
            w("\t.reg .u32  %sC, %bid, %ea<4>;")
            w("\t.reg .b32  %h<4>;")
            w("\t.reg .b64  %tmC;")
        elif self.OUT != "f32":
            w("\t.reg .b32  %h<2>;")
        if self.SK:
            w("\t.reg .u32  %dpTiles, %u, %uEnd, %kb0, %kb1, %j, %sk0, %sk1;")
            w("\t.reg .u64  %ws, %tk;")
            w("\t.reg .pred %q;")
            w(f"\t.reg .f32  %s<{4 * SK_BATCH}>;                // a batch of the other piece's partial sums")
        w("")

    def setup(self):
        w, S, CL = self.w, self.S, self.CL
        w("// @setup")
        w("\tmov.u32         %thr, %tid.x;")
        w("\tshr.u32         %wg, %thr, 7;              // warpgroup 0, 1 or 2")
        w("\tmov.u32         %rank, %cluster_ctarank;   // 0 or 1: which block of the pair" if CL > 1 else
          "\tmov.u32         %rank, 0;                  // no clusters: every block is rank 0")
        w("\tld.param.u32    %m, [M];")
        w("\tld.param.u32    %n, [N];")
        w("\tld.param.u32    %k, [K];")
        if self.CN > 1:
            w(f"\tshr.u32         %nTilesN, %n, {log2(self.BN * self.CN)};         // cluster columns across N ({self.CN} tiles each)")
        else:
            self.tiles_across()
        # The comments say clusters only where there are any (lesson 11's kernel has none).
        c = "cluster " if CL > 1 else ""
        w(f"\tshr.u32         %nTilesM, %m, {log2(self.BM * self.CM)};         // "
          + (f"cluster rows down M ({CL} tiles each)" if self.CM > 1 else "tile rows down M"))
        w(f"\tmul.lo.u32      %tiles, %nTilesM, %nTilesN; // {c}tiles in C")
        if self.a.group:
            w(f"\tmul.lo.u32      %bandTiles, %nTilesN, {self.a.group};   // tiles in a band of {self.a.group} {c or 'tile '}rows")
        w(f"\tshr.u32         %kTiles, %k, {log2(self.BK)};          // k-tiles per tile")
        if CL > 1:
            w("\t// The grid is one cluster per pair of SMs (persistent): cluster c takes")
            w("\t// cluster tiles c, c + clusters, ...; both blocks of a pair walk the same list.")
        else:
            w("\t// The grid is one block per SM (persistent): block c takes tiles c, c + blocks, ...")
            w("\t// (without clusters each block is a cluster of one, so %clusterid is its index).")
        w("\tmov.u32         %tile, %clusterid.x;")
        w("\tmov.u32         %step, %nclusterid.x;")
        w("\tmov.u32         %ring, smem;")
        w("\tadd.u32         %ring, %ring, 1023;")
        w("\tand.b32         %ring, %ring, -1024;")
        cbytes = self.staging_bytes()
        if self.C16 and not self.CB16:
            w(f"\tadd.u32         %sC, %ring, {S * self.STAGE};      // the two staging tiles of C")
        elif self.TMA:
            w(f"\tadd.u32         %sC, %ring, {S * self.STAGE};      // the staging boxes of C")
        w(f"\tadd.u32         %bars, %ring, {S * self.STAGE + cbytes};      // full[s] at bars + 8s, empty[s] at bars + 8({S} + s)")
        w("\tsetp.eq.u32     %leader, %thr, 0;")
        w("\t@!%leader bra   INIT_DONE;")
        for s in range(S):
            w(f"\tmbarrier.init.shared::cta.b64 [%bars+{8 * s}], 1;        // full[{s}]: the producer's arrival + the bytes")
        n = self.consumers_per_stage
        who = {(True, 2): "two consumers in each of the two blocks", (False, 2): "one arrival per consumer",
               (True, 1): "the consumer in each of the two blocks", (False, 1): "its consumer's arrival"}[self.MC > 0, self.USERS]
        for s in range(S):
            w(f"\tmbarrier.init.shared::cta.b64 [%bars+{8 * (S + s)}], {n};       // empty[{s}]: {who}")
        w("\tfence.mbarrier_init.release.cluster;")
        w("INIT_DONE:")
        if CL > 1:
            w("\t// Both blocks' mbarriers must exist before either block's copies or arrivals")
            w("\t// reach them: a barrier across the cluster, not just the block.")
            w("\tbarrier.cluster.arrive;")
            w("\tbarrier.cluster.wait;")
        else:
            w("\tbar.sync        0;")
        if self.SK:
            self.streamk_setup()
        w("\tsetp.ne.u32     %p, %wg, 0;")
        w("\t@%p bra         CONSUMER;")
        w("// @end")
        w("")

    # ---- stream-K (--streamk 1) ----
    #
    # A persistent grid of P clusters takes T tiles in rounds of P; when P does not divide T the last
    # round keeps only T mod P clusters busy. Stream-K shares the last S = T mod P + P tiles out by
    # k-tiles: their S x kTiles k-tiles in tile order, cluster c taking [c U / P, (c+1) U / P) of
    # them (U = S kTiles, at least kTiles each since S >= P). So a tile is split between at most two
    # clusters: one runs its first k-tiles (the end of that cluster's share), the other its last ones
    # (the start of its share). Each piece's owner stores its f32 partial sums in a slot of global
    # memory and takes a ticket; the second to arrive adds the other's slot to its registers (a + b:
    # the same sum whoever is second) and runs the epilogue. The slots and tickets are module-level
    # .global memory (the driver allocates it with the module, zeroed); the second owner sets the
    # ticket back to 0, so the next launch finds it so.

    def streamk_memory(self):
        w = self.w
        slots = SK_CTAS * 2 * 2 * SK_SLOT
        tickets = 2 * SK_CTAS * 2 * 4
        w(f"// Stream-K: two slots of partial sums per consumer warpgroup (its share's first and last piece),")
        w(f"// {SK_SLOT} bytes each, for grids of up to {SK_CTAS} blocks: {slots} bytes; a ticket per streamed tile,")
        w("// block and warpgroup; a word per warpgroup to tell its threads what the ticket said.")
        w(f".global .align 16 .b8 sk_slots[{slots}];")
        w(f".global .align 4 .b8 sk_tickets[{tickets}];")
        w(".shared .align 4 .b8 sk_said[8];")
        w("")

    def streamk_setup(self):
        w = self.w
        w("\t// Stream-K: the last partial round and one whole round before it, S tiles, are shared out")
        w("\t// by k-tiles; tiles before them are taken whole, as above. None when the rounds are")
        w(f"\t// full, when there is no whole round, or when the slots do not hold the grid ({SK_CTAS} blocks).")
        w("\trem.u32         %x, %tiles, %step;          // tiles of the last round")
        w("\tsetp.ne.u32     %p, %x, 0;")
        w("\tsetp.ge.and.u32 %p, %tiles, %step, %p;")
        w(f"\tsetp.le.and.u32 %p, %step, {self.a.streamk_ctas // self.CL}, %p;")
        w("\tadd.u32         %y, %x, %step;")
        w("\tselp.u32        %y, %y, 0, %p;             // S")
        w("\tsub.u32         %dpTiles, %tiles, %y;       // the tiles taken whole")
        w("\tmul.lo.u32      %y, %y, %kTiles;            // U: the k-tiles shared out")
        w("\tmul.lo.u32      %u, %tile, %y;              // this cluster's: [c U / P, (c + 1) U / P)")
        w("\tdiv.u32         %u, %u, %step;")
        w("\tadd.u32         %x, %tile, 1;")
        w("\tmul.lo.u32      %uEnd, %x, %y;")
        w("\tdiv.u32         %uEnd, %uEnd, %step;")

    def next_work(self, x):
        """A whole tile while %tile < %dpTiles, then the pieces of this cluster's share of the
        streamed k-tiles: %tile, and its k-tiles %kb0..%kb1-1."""
        if not self.SK:
            super().next_work(x)
            return
        w = self.w
        w(f"{x}_TILE:")
        w("\tmov.u32         %kb0, 0;")
        w("\tmov.u32         %kb1, %kTiles;")
        w("\tsetp.lt.u32     %p, %tile, %dpTiles;")
        w(f"\t@%p bra         {x}_WHOLE;")
        w("\tsetp.ge.u32     %p, %u, %uEnd;")
        w("\t@%p bra         DONE;")
        w("\tdiv.u32         %x, %u, %kTiles;            // the streamed tile k-tile u is in ...")
        w("\tmul.lo.u32      %kb0, %x, %kTiles;")
        w("\tsub.u32         %kb0, %u, %kb0;             // ... from that k-tile ...")
        w("\tsub.u32         %kb1, %uEnd, %u;")
        w("\tadd.u32         %kb1, %kb1, %kb0;")
        w("\tmin.u32         %kb1, %kb1, %kTiles;        // ... to the tile's end or the share's")
        w("\tsub.u32         %y, %kb1, %kb0;")
        w("\tadd.u32         %u, %u, %y;")
        w("\tadd.u32         %tile, %dpTiles, %x;")
        w(f"{x}_WHOLE:")
        self.tile_coords()

    def slot_address(self, cluster, which):
        """%ws = this thread's place in the slot of (cluster, which piece), this block and warpgroup."""
        w = self.w
        w(f"\tshl.b32         %sk0, {cluster}, 1;")
        w(f"\tadd.u32         %sk0, %sk0, {which};")
        w(f"\tmad.lo.u32      %sk0, %sk0, {self.CL}, %rank;")
        w("\tshl.b32         %sk0, %sk0, 1;")
        w("\tadd.u32         %sk0, %sk0, %wg;")
        w("\tsub.u32         %sk0, %sk0, 1;              // (((c 2 + piece) blocks + rank) 2 + warpgroup)")
        w(f"\tmul.wide.u32    %ws, %sk0, {SK_SLOT};")
        w("\tand.b32         %sk0, %thr, 127;")
        w("\tmul.wide.u32    %t64, %sk0, 16;             // thread t's 16 bytes of each 2048")
        w("\tadd.u64         %ws, %ws, %t64;")
        w("\tmov.u64         %t64, sk_slots;")
        w("\tadd.u64         %ws, %ws, %t64;")

    def streamk_fixup(self):
        w = self.w
        n4 = self.NACC // 4
        w("// @streamk")
        w("\t// A piece of a streamed tile: store the partial sums, take the tile's ticket; the")
        w("\t// second piece's owner adds the first's and stores C, the first goes on.")
        w("\tsetp.ne.u32     %p, %kb0, 0;")
        w("\tsetp.ne.or.u32  %p, %kb1, %kTiles, %p;")
        w("\t@!%p bra        C_WHOLE_TILE;")
        w("\tsetp.eq.u32     %q, %kb0, 0;                // the tile's first k-tiles: my share's last piece")
        w("\tselp.u32        %sk1, 1, 0, %q;")
        w("\tmov.u32         %j, %clusterid.x;")
        self.slot_address("%j", "%sk1")
        for i in range(n4):
            regs = ", ".join(f"%d{4 * i + e}" for e in range(4))
            w(f"\tst.global.v4.f32 [%ws+{2048 * i}], {{{regs}}};")
        w("\tsub.u32         %j, %tile, %dpTiles;        // the streamed tile's number")
        w(f"\tmad.lo.u32      %sk0, %j, {self.CL}, %rank;")
        w("\tshl.b32         %sk0, %sk0, 1;")
        w("\tadd.u32         %sk0, %sk0, %wg;")
        w("\tsub.u32         %sk0, %sk0, 1;")
        w("\tmul.wide.u32    %tk, %sk0, 4;")
        w("\tmov.u64         %t64, sk_tickets;")
        w("\tadd.u64         %tk, %tk, %t64;             // its ticket for this block and warpgroup")
        w("\tmov.u32         %sk0, sk_said;")
        w("\tsub.u32         %sk1, %wg, 1;")
        w("\tmad.lo.u32      %sk0, %sk1, 4, %sk0;")
        w("\t// Every thread's stores before the leader's ticket: the barrier, then a release.")
        w("\tbar.sync        %bid, 128;")
        w("\t@%leader atom.acq_rel.gpu.global.add.u32 %x, [%tk], 1;")
        w("\t@%leader st.shared.u32 [%sk0], %x;")
        w("\tbar.sync        %bid, 128;")
        w("\tld.shared.u32   %x, [%sk0];")
        w("\tsetp.eq.u32     %p, %x, 0;                  // first: the other owner finishes the tile")
        w("\t@%p bra         C_NEXT;")
        w("\t@%leader st.relaxed.gpu.global.u32 [%tk], 0; // for the next launch")
        w("\t// The other piece's owner: the cluster whose share holds the tile's last k-tile (u + 1 =")
        w("\t// (j + 1) kTiles when mine are the first), or its first (u = j kTiles); cluster_of(u) =")
        w("\t// ((u + 1) P - 1) / U.")
        w("\tselp.u32        %sk1, 1, 0, %q;")
        w("\tadd.u32         %x, %j, %sk1;")
        w("\tmul.lo.u32      %x, %x, %kTiles;")
        w("\tmul.lo.u32      %x, %x, %step;")
        w("\tadd.u32         %y, %step, -1;")
        w("\t@%q mov.u32     %y, -1;")
        w("\tadd.u32         %x, %x, %y;")
        w("\tsub.u32         %y, %tiles, %dpTiles;")
        w("\tmul.lo.u32      %y, %y, %kTiles;            // U")
        w("\tdiv.u32         %x, %x, %y;")
        w("\tselp.u32        %sk1, 0, 1, %q;             // its piece: the first of its share, or the last")
        self.slot_address("%x", "%sk1")
        for b in range(0, n4, SK_BATCH):
            for i in range(b, min(n4, b + SK_BATCH)):
                regs = ", ".join(f"%s{4 * (i - b) + e}" for e in range(4))
                w(f"\tld.global.cg.v4.f32 {{{regs}}}, [%ws+{2048 * i}];")
            for i in range(b, min(n4, b + SK_BATCH)):
                w("\t" + " ".join(f"add.f32 %d{4 * i + e}, %d{4 * i + e}, %s{4 * (i - b) + e};" for e in range(4)))
        w("C_WHOLE_TILE:")
        w("// @end")

    def tile_coords(self):
        """m0, n0 of %tile for this block: lesson 9's order over cluster rows, then the rank's row."""
        super().tile_coords()
        w = self.w
        if self.CM > 1:
            w(f"\tshl.b32         %m0, %m0, {log2(self.CL)};         // the cluster's first row ...")
            w(f"\tmad.lo.u32      %m0, %rank, {self.BM}, %m0;       // ... and this block's")
        if self.CN > 1:
            w(f"\tshl.b32         %n0, %n0, {log2(self.CL)};         // the cluster's first column ...")
            w(f"\tmad.lo.u32      %n0, %rank, {self.BN}, %n0;       // ... and this block's")

    def producer_setup(self):
        if self.MC:
            self.w(f"\tmov.b16         %mask, {(1 << self.CL) - 1};                 // both blocks of the cluster")

    def empty_comment(self):
        if not self.MC:
            super().empty_comment()
            return
        self.w("\t// Wait until the consumers of BOTH blocks have released this slot: this")
        self.w(f"\t// block's copies of {self.shared_operand()} land in the partner's shared memory too.")

    def full_comment(self):
        if not self.MC:
            super().full_comment()
            return
        if self.CM > 1:
            self.w(f"\t// A whole stage, {self.STAGE} bytes, lands here: this block's A and all of B's boxes,")
            self.w("\t// half of them sent by the partner.")
        else:
            self.w(f"\t// A whole stage, {self.STAGE} bytes, lands here: this block's B and all of A's rows,")
            self.w("\t// half of them sent by the partner.")

    B_BOXES = "boxes"  # what the multicast comment calls B's boxes

    def shared_operand(self):
        """The operand both blocks of a cluster need: B one above the other, A side by side."""
        return "B" if self.CM > 1 else "A"

    def load_a(self):
        if not (self.MC and self.CN > 1):
            super().load_a()
            return
        w, half = self.w, self.BM // self.CL
        w(f"\t// A: this block's {half} of the {self.BM} rows, to both blocks (same offsets, same mbarrier).")
        w(f"\tmad.lo.u32      %y, %rank, {half}, %m0;")
        w(f"\tmad.lo.u32      %x, %rank, {half * 128}, %sA;")
        w("\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster")
        w("\t                [%x], [%tmA, {%kx, %y}], [%full], %mask;")

    def load_b(self):
        if not (self.MC and self.CM > 1):
            super().load_b()
            return
        w, nbox = self.w, self.BN // 64
        half = nbox // self.CL
        w(f"\t// B: this block's {half} of the {nbox} {self.B_BOXES}, to both blocks (same offsets, same mbarrier).")
        w(f"\tmul.lo.u32      %x, %rank, {64 * half};")
        w("\tadd.u32         %x, %x, %n0;")
        w(f"\tmad.lo.u32      %y, %rank, {self.BBOX * half}, %sB;")
        for j in range(half):
            if j:
                w("\tadd.u32         %x, %x, 64;")
                w(f"\tadd.u32         %y, %y, {self.BBOX};")
            w("\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster")
            w(f"\t                [%y], [%tmB, {self.B_COORDS}], [%full], %mask;")

    def release(self, pred, addr):
        """A stage back to its producers: in this block, or with multicast in both
        (mapa: the same mbarrier's address in block r of the cluster)."""
        if not self.MC:
            super().release(pred, addr)
            return
        for r in range(self.CL):
            self.w(f"\t@{pred} mapa.shared::cluster.u32 %y, {addr}, {r};       // empty[] of block {r} of the pair")
            self.w(f"\t@{pred} mbarrier.arrive.shared::cluster.b64 _, [%y];")

    def desc_start(self, src):
        if src == "%x":
            self.w("\t// The start field is 14 bits of address >> 4: in a cluster a block's shared")
            self.w("\t// addresses carry its rank in a higher bit, which must not spill into the")
            self.w("\t// leading-offset field at bit 16.")
        self.w(f"\tbfe.u32         %lo, {src}, 4, 14;")

    def consumer_place(self):
        if self.C16:
            self.staging_addresses()
        else:
            super().consumer_place()

    def epilogue(self):
        if self.SK:
            self.streamk_fixup()
        if self.C16:
            self.epilogue_tma()
        elif self.OUT != "f32":
            self.epilogue_direct_bf16()
        else:
            super().epilogue()
        if self.SK:
            self.w("C_NEXT:")

    def finish(self):
        w = self.w
        super().finish()
        if self.CL > 1:
            w("\t// The partner may still arrive on this block's mbarriers: leave together.")
            w("\tbarrier.cluster.arrive;")
            w("\tbarrier.cluster.wait;")

    def staging_addresses(self):
        """%ea0..3: where this lane's stmatrix rows go in its warpgroup's staging tile,
        one per column group j % 8 in {0, 2, 4, 6}; the 64-column box adds an immediate."""
        w = self.w
        w("\t// Staging addresses. Lane l of warp w gives row i = l%8 of matrix q = l/8 of a")
        w("\t// stmatrix.x4: rows 16w + 8(q%2) + i, column group j + q/2. With the 128-byte")
        w("\t// swizzle, 16-byte chunk c of row r sits at chunk c ^ (r % 8) = c ^ i.")
        w("\tsub.u32         %y, %wg, 1;")
        if self.CB16:
            w(f"\tmad.lo.u32      %sC, %y, {self.CB16 * CBOX}, %sC;       // this warpgroup's staging boxes")
        else:
            w(f"\tmad.lo.u32      %sC, %y, {self.C_WG}, %sC;       // this warpgroup's staging tile")
        self.stmatrix_lanes()
        w("\txor.b32         %kx, %kx, %col;            // t = i ^ q/2: chunk (j%8 + q/2) ^ i = (j%8) ^ t")
        w("\tmad.lo.u32      %row, %row, 128, %sC;")
        for g in range(4):
            w(f"\txor.b32         %lo, %kx, {2 * g};")
            w(f"\tmad.lo.u32      %ea{g}, %lo, 16, %row;")
        w("\tmov.b64         %tmC, tmC;")
        w("\tcvta.param.u64  %tmC, %tmC;")

    # Hooks of the TMA epilogue, for a generator that builds on this one (lesson
    # 11 scales its accumulators there); here they write nothing.
    def epilogue_note(self):
        pass

    def epilogue_scale(self, d):
        pass

    def stmatrix8(self, d, j, off):
        """Accumulators d..d+7 (columns 8j.. and 8(j+1).. of 16 rows) as 16-bit pairs, stored with
        one stmatrix.x4 into the box at %sC + off."""
        w = self.w
        self.epilogue_scale(d)
        w(f"\t{self.CVT} %h0, %d{d + 1}, %d{d};       // columns 8j, 8j+1 of rows 0-7 (a -> high half)")
        w(f"\t{self.CVT} %h1, %d{d + 3}, %d{d + 2};       // rows 8-15")
        w(f"\t{self.CVT} %h2, %d{d + 5}, %d{d + 4};       // the next 8 columns")
        w(f"\t{self.CVT} %h3, %d{d + 7}, %d{d + 6};")
        w(f"\tstmatrix.sync.aligned.m8n8.x4.shared.b16 [%ea{j % 8 // 2}+{off}], {{%h0, %h1, %h2, %h3}};")

    def stage_16(self, c, off):
        """Box c (columns 64 cc.. of m64 slice h) into the staging box at %sC + off."""
        per, across = self.NACC // self.MH, self.BN // 64
        h, cc = c // across, c % across
        for j in range(8 * cc, 8 * cc + 8, 2):
            self.stmatrix8(per * h + 4 * j, j, off)

    def stmatrix_lanes(self):
        """The named barrier of this warpgroup, and lane l of warp w's row and column group in an
        stmatrix.x4: %row = 16w + 8(q%2) + i, %col = q/2, %kx = i (q = l/8, i = l%8)."""
        w = self.w
        w("\tadd.u32         %bid, %wg, 0;              // named barrier 1 or 2: this warpgroup only")
        w("\tshr.u32         %row, %x, 5;               // warp w")
        w("\tand.b32         %y, %x, 31;                // lane l")
        w("\tshr.u32         %col, %y, 3;               // q")
        w("\tand.b32         %kx, %y, 7;                // i")
        w("\tshl.b32         %row, %row, 4;")
        w("\tand.b32         %lo, %col, 1;")
        w("\tmad.lo.u32      %row, %lo, 8, %row;")
        w("\tadd.u32         %row, %row, %kx;           // row 16w + 8(q%2) + i")
        w("\tshr.u32         %col, %col, 1;             // q/2")

    def epilogue_tma(self):
        w = self.w
        w("// @epilogue")
        if self.CB16:
            self.box_loop(self.CB16, CBOX, 64, self.stage_16)
            w("// @end")
            return
        w("\t// The staging tile is free once the copy engine has read the previous tile's")
        w("\t// store; one thread waits for that, the barrier tells the other 127.")
        w("\t@%leader cp.async.bulk.wait_group.read 0;")
        w("\tbar.sync        %bid, 128;")
        self.epilogue_note()
        per, across = self.NACC // self.MH, self.BN // 64   # a 64-row slice's accumulators, boxes
        for h in range(self.MH):
            for j in range(0, per // 4, 2):
                self.stmatrix8(per * h + 4 * j, j, (h * across + j // 8) * self.CBOX)
        w("\t// stmatrix writes through the generic proxy, TMA reads through the async one:")
        w("\t// each writer fences, then the barrier, then one thread issues the stores.")
        w("\tfence.proxy.async.shared::cta;")
        w("\tbar.sync        %bid, 128;")
        w("\t@!%leader bra   STORED;")
        if self.WG_ROWS:
            w("\tsub.u32         %y, %wg, 1;")
            w(f"\tmad.lo.u32      %y, %y, {self.WG_ROWS}, %m0;           // this warpgroup's {self.WG_ROWS} rows")
        else:
            w("\tadd.u32         %y, %m0, 0;                // the warpgroup's own tile")
        for h in range(self.MH):
            if h:
                w("\tadd.u32         %y, %y, 64;                // the next 64 rows")
            for b in range(across):
                w(f"\tadd.u32         %x, %n0, {64 * b};")
                w(f"\tcp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%tmC, {{%x, %y}}], [%sC+{(h * across + b) * self.CBOX}];")
        w("\tcp.async.bulk.commit_group;")
        w("STORED:")
        w("// @end")

    def c_address(self, note=""):
        """%gC = &C[m0 + row][n0 + col] for a 16-bit C, from this lane's %row and %col."""
        w = self.w
        w("\tadd.u32         %x, %m0, %row;")
        w("\tadd.u32         %y, %n0, %col;")
        w("\tmad.wide.u32    %t64, %x, %n, 0;")
        w("\tcvt.u64.u32     %gC, %y;")
        w("\tadd.u64         %gC, %gC, %t64;")
        w("\tshl.b64         %gC, %gC, 1;")
        w("\tadd.u64         %gC, %pC, %gC;" + note)

    def epilogue_direct_bf16(self):
        w = self.w
        w("// @epilogue")
        self.c_address()
        w("\tmul.wide.u32    %t64, %n, 16;              // 8 rows down, in bytes")
        per = self.NACC // self.MH
        for h in range(self.MH):
            if h:
                w("\tmul.wide.u32    %t64, %n, 112;             // from row 8 to row 64: 56 rows, in bytes")
                w("\tadd.u64         %gC, %gC, %t64;")
                w("\tmul.wide.u32    %t64, %n, 16;")
            for j in range(per // 4):
                d = per * h + 4 * j
                w(f"\t{self.CVT} %h0, %d{d + 1}, %d{d};")
                w(f"\tst.global.b32   [%gC+{16 * j}], %h0;")
            w("\tadd.u64         %gC, %gC, %t64;")
            for j in range(per // 4):
                d = per * h + 4 * j
                w(f"\t{self.CVT} %h1, %d{d + 3}, %d{d + 2};")
                w(f"\tst.global.b32   [%gC+{16 * j}], %h1;")
        w("// @end")


if __name__ == "__main__":
    args = parse()
    if args.group:
        L9.check_tile_order(args.group)
    g = Gen(args)
    L9.fits(g, "10_cluster.py")
    print(g.run(), end="")
