#!/usr/bin/env python3
"""Writes ptx/07_warptile.ptx: warp tiling with a ring of shared-memory stages.

The body (BK k-steps of TMt x TNt FMAs) is long, which is why it is generated;
the output is meant to be read. Run from the project root:
    python3 ptx/gen/07_warptile.py > ptx/07_warptile.ptx
Options change the tiles (for measuring variants; the defaults are the
committed kernel): --bm --bn --bk --wm --wn --tr (thread rows in a warp),
--cpasync (B by cp.async, sm_80; with --stages 2), --cache ca|cg (its cache operator),
--amap-lane (another thread mapping for the A loads), --maxnreg N (0: none),
--threads T (threads a block), --bswap (B's columns swapped in pairs in
shared memory, so that each FFMA reads B and C from different register
banks), --no-snake (every row of FMAs left to right), --ahead K (the k-step
where slice t+1 is stored and slice t+2 asked for; 0: ask for t+1 at the
top of the loop, store it after), --stages 2 (two stages and the barrier at
the end of the loop, as before: the default is three, the barrier right
after the store at --ahead and k = 0's fragments read a slice early),
--no-skew (As rows back to back: 4-way conflicted transposed stores),
--split P (stage the next slice in P parts), --swizzle G (bands of G block
rows), --entry NAME. docs/notes/perf-27.md has what each measured on the H100,
and the variants that lost everywhere and were taken out again (two fragment
sets, other FMA orders, .minnctapersm, C stored a float at a time, a cp.async
ring with A untransposed: commit 7ede9d1 still has them).
"""
import argparse

from banner import banner

THREADS = 128  # threads per block: 4 warps


def emit(a):
    NT = a.threads
    BM, BN, BK, WM, WN, TR = a.bm, a.bn, a.bk, a.wm, a.wn, a.tr
    TC = 32 // TR                     # threads along N in a warp
    WMI, WNI = WM // (TR * 4), WN // (TC * 4)  # float4 fragments per thread
    TMt, TNt = WMI * 4, WNI * 4       # outputs per thread: TMt x TNt
    WARPS_M, WARPS_N = BM // WM, BN // WN
    assert WARPS_M * WARPS_N == NT // 32, "the warps must cover the block tile"
    assert WMI * TR * 4 == WM and WNI * TC * 4 == WN
    KA4, NB4 = BK // 4, BN // 4       # float4 per row of the A slice / B slice
    rpA, rpB = NT // KA4, NT // NB4   # rows covered by one pass of all threads
    nA, nB = BM // rpA, BK // rpB     # float4 each thread moves per slice
    assert NT % KA4 == 0 and NT % NB4 == 0 and nA >= 1 and nB >= 1
    # --skew: each group of 4 k-rows of As starts SK bytes further on than the
    # group before, so the transposed stores of the lanes that share an A row
    # (one k-row group each) land in different banks.
    SK = 512 // BK if a.skew and not a.amap_lane else 0
    SA, SB = BK * BM * 4 + (BK // 4 - 1) * SK, BK * BN * 4  # bytes of As and Bs in one stage
    S = SA + SB                        # one stage
    cpa = a.cpasync
    X = 1 if a.bswap else 0            # B's columns swapped in pairs in shared memory
    assert not (cpa and X), "cp.async copies B as it is: use --no-bswap with --cpasync"
    P = a.split                        # parts the next slice is staged in
    # k-step where slice t+1 is stored and t+2 asked for (0: t+1 asked for at the top, stored after)
    STG = a.stages                     # stages of shared memory
    # (the defaults are the ones measured fastest on the H100: docs/notes/perf-27.md)
    KA = a.ahead if a.ahead is not None else (0 if P > 1 else BK - 2 if STG == 3 else 3 * BK // 4)
    assert not KA or (P == 1 and 0 < KA < BK), "--ahead needs --split 1 and 0 < K < BK"
    assert nA % P == 0 and nB % P == 0 and BK % P == 0
    assert STG == 2 or (STG == 3 and KA and not cpa), "--stages 3 needs --ahead and no --cpasync"
    F = 2 if STG == 3 else 1           # fragment sets: with 3 stages k = 0's are loaded a slice early
    RING = ["%cur", "%nxt", "%nx2"][:STG]  # byte offsets of the stages: computed on, filled, filled next
    hA, hB = nA // P, nB // P          # float4 of A / B per thread per part
    pa, pb = ("%p", "%p") if P == 1 else ("%pa", "%pb")
    lg = lambda v: v.bit_length() - 1
    for v in (BM, BN, BK, WM, WN, TR, TC, KA4, NB4, WARPS_N):
        assert v & (v - 1) == 0, "powers of two only"

    o = []
    w = o.append
    w(banner() + f"// Lesson 7: warp tiling with {'three stages' if STG == 3 else 'two stages'} of shared memory.")
    w("//")
    w(f"// Block: {NT} threads = {NT // 32} warps, output tile {BM}x{BN}, K slices of {BK}.")
    w(f"// The {NT // 32} warps form a {WARPS_M}x{WARPS_N} grid; each warp owns a {WM}x{WN} sub-tile.")
    w(f"// Inside a warp the 32 lanes form a {TR}x{TC} grid. A lane's outputs are")
    w(f"// {WMI}x{WNI} fragments of 4x4, spaced {TR*4} rows and {TC*4} columns apart, so")
    w(f"// each of the {TMt}x{TNt} = {TMt*TNt} outputs stays in a register. Spacing the fragments")
    w("// makes the lanes of a warp read adjacent 16-byte pieces of shared memory:")
    w(f"// one ld.shared.v4 of A touches {TR*16} contiguous bytes, one of B {TC*16}, so no")
    w("// bank conflicts, and lanes in the same row or column share (broadcast) a value.")
    w("//")
    if STG == 2:
        w("// Two stages of shared memory: while the warps compute on slice t in one")
        w("// stage, slice t+1 is on its way into the other, so one barrier per slice.")
    else:
        w("// Three stages of shared memory, one barrier per slice, right after slice t+1")
        w("// is stored: a stage is written two slices after it was last read, so no")
        w("// barrier is needed at the end of the loop, and the fragments of k = 0 of")
        w("// slice t+1 are read during the last FMAs of slice t. (With two stages the")
        w("// barrier must come after the last read of slice t, and then the first FMAs")
        w("// of every slice wait for their shared loads.)")
    if cpa:
        w("// B travels global -> shared by cp.async (no registers, sm_80); A goes")
        w("// through registers because it is stored transposed (As[k][m]).")
    else:
        w("// Both slices travel through registers (A must be transposed on its way")
        if KA:
            w("// into As[k][m] anyway), two slices ahead: during slice t, between k-steps")
            w(f"// {KA - 1} and {KA}, slice t+1 (loaded during slice t-1) is stored into its")
            w("// stage and the loads for slice t+2 are issued, so they have a whole slice")
            w("// to arrive. (Issued at the top of the loop and stored after it, ptxas moves")
            w("// the loads down to a few hundred instructions before the stores, and the")
            w("// stores wait for them.)")
        else:
            w("// into As[k][m] anyway): the loads for slice t+1 are issued before the")
            w("// math on slice t and stored into the other stage after it.")
        w("// (cp.async for B was measured too, ~4% slower on the H100 in an earlier")
        w("// version of this kernel.)")
    if a.maxnreg:
        w(f"// .maxnreg {a.maxnreg}: {a.maxnreg} x {NT} threads x 2 blocks fit the SM's 65536 registers.")
    else:
        w("// No register cap: at up to 255 registers a thread (allocated as 256),")
        w(f"// 256 x {NT} threads x 2 blocks = 65536 fit the SM's register file.")
    if X or a.snake:
        w("//")
        w("// The FMAs are arranged for the register file, which has two banks")
        w("// (even and odd register numbers), each reading one register a cycle,")
        w("// and an operand reuse cache (docs/benchmarks.md, 'Register banks').")
    if X:
        w("// B's columns sit swapped in pairs in shared memory (b1 b0 b3 b2), so")
        w("// ld.shared.v4 puts column j in a register of the other parity than")
        w("// the accumulator of column j (C is stored by st.global.v4, in order).")
    if a.snake:
        w("// Odd rows of FMAs run right to left, so a row starts with the B value")
        w("// the row before ended with, still in the operand reuse cache.")
    w(f"// Needs M % {BM} == 0, N % {BN} == 0, K % {BK} == 0.")
    w("")
    w(".version 7.0")
    w(".target sm_80" if cpa else ".target sm_50")
    w(".address_size 64")
    w("")
    w(f"// Dynamic shared memory, {STG*S} bytes: stage 0 then stage 1{' then stage 2' if STG == 3 else ''}, each")
    w(f"// As[{BK}][{BM}] (A transposed, {SA} bytes) then Bs[{BK}][{BN}] ({SB} bytes).")
    if SK:
        w(f"// As row k starts at k*{BM*4} + (k/4)*{SK} bytes: every 4 rows {SK} bytes on, so that")
        w(f"// the transposed stores below, 4 rows per lane, hit {32} different banks.")
    w(".extern .shared .align 16 .b8 smem[];")
    w("")
    w(f".visible .entry {a.entry}(")
    w("\t.param .u64 A, .param .u64 B, .param .u64 C,")
    w("\t.param .u32 M, .param .u32 N, .param .u32 K)")
    if a.maxnreg:
        w(f".maxnreg {a.maxnreg}")
    w("{")
    w("\t.reg .pred  %more;" if not KA else "\t.reg .pred  %more, %ahead;")
    w("\t.reg .b32   %t, %bx, %by, %n, %k, %tiles, %tile, %r, %s, %q;  // r, s, q: scratch")
    w("\t.reg .b32   %warp, %lane, %wRow, %wCol, %ty, %tx;")
    w("\t.reg .b32   " + ", ".join(["%sAst", "%sBst", "%sAld", "%sBld"] + RING + ["%wA", "%wB", "%rA", "%rB"]) + ";")
    w("\t.reg .b64   %gA, %gB, %gC, %aPass, %bPass, %stepB, %p, %off;")
    w(f"\t// acc(i*{TNt}+j) is C[wRow*{WM} + ty*4 + {TR*4}*(i/4) + i%4][wCol*{WN} + tx*4 + {TC*4}*(j/4) + j%4],")
    w("\t// block-relative: output row i and column j of the lane's fragments.")
    w(f"\t.reg .f32   %acc<{TMt*TNt}>;")
    w(f"\t.reg .f32   %a<{F*TMt}>, %b<{F*TNt}>;  // the lane's pieces of A column k and B row k")
    w(f"\t.reg .f32   %ldA<{hA*4}>;            // the lane's share of the next A slice, in flight")
    if not cpa:
        w(f"\t.reg .f32   %ldB<{hB*4}>;            // and of the next B slice")
    if P > 1:
        w("\t.reg .b64   %pa, %pb;                // where the next part of the slice comes from")
    w("")
    w("\t// @index")
    w("\tld.param.u64       %gA, [A];")
    w("\tld.param.u64       %gB, [B];")
    w("\tld.param.u64       %gC, [C];")
    w("\tld.param.u32       %n, [N];")
    w("\tld.param.u32       %k, [K];")
    w("\tcvta.to.global.u64 %gA, %gA;")
    w("\tcvta.to.global.u64 %gB, %gB;")
    w("\tcvta.to.global.u64 %gC, %gC;")
    w("\tmov.u32            %t, %tid.x;")
    if a.swizzle:
        G = a.swizzle
        w(f"\t// Blocks walk bands of {G} block rows, column by column, so that the blocks")
        w("\t// running at the same time share panels of A and B in L2.")
        w("\tmov.u32            %r, %nctaid.x;")
        w("\tmov.u32            %s, %ctaid.y;")
        w("\tmov.u32            %q, %ctaid.x;")
        w("\tmad.lo.u32         %q, %s, %r, %q;      // launch order of this block")
        w(f"\tmul.lo.u32         %r, %r, {G};          // blocks in a band")
        w("\tdiv.u32            %s, %q, %r;          // band")
        w("\trem.u32            %q, %q, %r;          // place in the band")
        w(f"\tmul.lo.u32         %by, %s, {G};         // the band's first block row")
        w("\tmov.u32            %r, %nctaid.y;")
        w("\tsub.u32            %r, %r, %by;")
        w(f"\tmin.u32            %r, %r, {G};          // block rows in this band")
        w(f"\tdiv.u32            %bx, %q, %r;         // block column (N / {BN})")
        w("\trem.u32            %s, %q, %r;")
        w(f"\tadd.u32            %by, %by, %s;        // block row (M / {BM})")
    else:
        w(f"\tmov.u32            %bx, %ctaid.x;        // block column (N / {BN})")
        w(f"\tmov.u32            %by, %ctaid.y;        // block row (M / {BM})")
    w("\t// Which warp sub-tile, and where the lane sits inside it.")
    w("\tshr.u32            %warp, %t, 5;")
    w("\tand.b32            %lane, %t, 31;")
    w(f"\tshr.u32            %wRow, %warp, {lg(WARPS_N)};")
    w(f"\tand.b32            %wCol, %warp, {WARPS_N-1};")
    w(f"\tshr.u32            %ty, %lane, {lg(TC)};")
    w(f"\tand.b32            %tx, %lane, {TC-1};")
    w("\t// @end")
    w("")
    w("\t// @load-index")
    w(f"\t// A slice ({BM}x{BK}): {KA4} float4 per row; a pass of all threads covers")
    w(f"\t// {rpA} rows, {nA} passes. Row t/{KA4} (+{rpA} per pass), columns 4*(t%{KA4})..+3.")
    if a.amap_lane:
        w(f"\t// (Here instead: warp w takes columns 4*(w%{KA4}), and its 32 lanes 32 adjacent")
        w("\t// rows, so the transposed stores below hit 32 different banks.)")
        w(f"\tshr.u32            %r, %warp, {lg(KA4)};")
        w("\tshl.b32            %r, %r, 5;")
        w("\tadd.u32            %r, %r, %lane;")
        w(f"\tand.b32            %s, %warp, {KA4-1};")
    else:
        w(f"\tshr.u32            %r, %t, {lg(KA4)};")
        w(f"\tand.b32            %s, %t, {KA4-1};")
    w("\tshl.b32            %s, %s, 2;")
    w(f"\tshl.b32            %q, %by, {lg(BM)};")
    w("\tadd.u32            %q, %q, %r;")
    w("\tmul.wide.u32       %off, %q, %k;")
    w("\tcvt.u64.u32        %p, %s;")
    w("\tadd.u64            %off, %off, %p;")
    w("\tshl.b64            %off, %off, 2;")
    w("\tadd.u64            %gA, %gA, %off;       // &A[by*BM + row][col]")
    w(f"\tmul.wide.u32       %aPass, %k, {rpA*4};    // {rpA} rows of A, in bytes")
    w(f"\t// Stored transposed: As[col+i][row], i = 0..3, {BM*4} bytes per k.")
    if SK:
        w(f"\tmul.lo.u32         %q, %s, {SK // 4};         // the skew of k-row group col/4")
    w(f"\tshl.b32            %s, %s, {lg(BM)};")
    w("\tadd.u32            %s, %s, %r;")
    w("\tshl.b32            %s, %s, 2;")
    w("\tmov.u32            %sAst, smem;")
    w("\tadd.u32            %sAst, %sAst, %s;")
    if SK:
        w("\tadd.u32            %sAst, %sAst, %q;")
    w(f"\t// B slice ({BK}x{BN}): {NB4} float4 per row; a pass covers {rpB} rows, {nB} passes.")
    w(f"\tshr.u32            %r, %t, {lg(NB4)};")
    w(f"\tand.b32            %s, %t, {NB4-1};")
    w("\tshl.b32            %s, %s, 2;")
    w(f"\tshl.b32            %q, %bx, {lg(BN)};")
    w("\tadd.u32            %q, %q, %s;")
    w("\tmad.lo.u32         %q, %r, %n, %q;")
    w("\tmul.wide.u32       %off, %q, 4;")
    w("\tadd.u64            %gB, %gB, %off;       // &B[row][bx*BN + col]")
    w(f"\tmul.wide.u32       %bPass, %n, {rpB*4};    // {rpB} rows of B, in bytes")
    w(f"\tmul.wide.u32       %stepB, %n, {BK*4};   // one slice ({BK} rows) of B, in bytes")
    w(f"\tshl.b32            %r, %r, {lg(BN)};")
    w("\tadd.u32            %r, %r, %s;")
    w("\tshl.b32            %r, %r, 2;")
    w("\tmov.u32            %sBst, smem;")
    w(f"\tadd.u32            %sBst, %sBst, {SA};")
    w("\tadd.u32            %sBst, %sBst, %r;     // &Bs[row][col]")
    w("\t// @end")
    w("")
    w("\t// @frag-index")
    w(f"\t// Fragment reads: As[k][wRow*{WM} + ty*4 + {TR*4}*i] and Bs[k][wCol*{WN} + tx*4 + {TC*4}*j].")
    w(f"\tshl.b32            %r, %wRow, {lg(WM)};")
    w("\tshl.b32            %s, %ty, 2;")
    w("\tadd.u32            %r, %r, %s;")
    w("\tshl.b32            %r, %r, 2;")
    w("\tmov.u32            %sAld, smem;")
    w("\tadd.u32            %sAld, %sAld, %r;")
    w(f"\tshl.b32            %r, %wCol, {lg(WN)};")
    w("\tshl.b32            %s, %tx, 2;")
    w("\tadd.u32            %r, %r, %s;")
    w("\tshl.b32            %r, %r, 2;")
    w("\tmov.u32            %sBld, smem;")
    w(f"\tadd.u32            %sBld, %sBld, {SA};")
    w("\tadd.u32            %sBld, %sBld, %r;")
    w(f"\tshr.u32            %tiles, %k, {lg(BK)};       // K / {BK} slices")
    w("\t// @end")
    w("")
    w("\t// Every accumulator starts at zero.")
    for i in range(0, TMt * TNt, 8):
        w("\t" + "\n\t".join(f"mov.f32            %acc{j}, 0f00000000;" for j in range(i, min(i + 8, TMt * TNt))))
    w("")

    # Part `part` of a slice is passes part*hA .. of A and part*hB .. of B; the
    # pointer to the next pass carries over from one part to the next.
    def load_A(pred, part=0):
        w(f"\tmov.b64            {pa}, %gA;" if part == 0 else f"\tadd.u64            {pa}, {pa}, %aPass;")
        for j in range(hA):
            w(f"\t{pred}ld.global.nc.v4.f32 {{%ldA{4*j}, %ldA{4*j+1}, %ldA{4*j+2}, %ldA{4*j+3}}}, [{pa}];")
            if j < hA - 1:
                w(f"\tadd.u64            {pa}, {pa}, %aPass;")

    def store_A(pred, base, part=0):
        for j in range(hA):
            for i in range(4):
                w(f"\t{pred}st.shared.f32       [{base}+{(part*hA + j)*rpA*4 + i*BM*4}], %ldA{4*j+i};")

    def load_B(pred, base, part=0):
        w(f"\tmov.b64            {pb}, %gB;" if part == 0 else f"\tadd.u64            {pb}, {pb}, %bPass;")
        for j in range(hB):
            off = (part*hB + j)*rpB*BN*4
            if cpa:
                w(f"\t{pred}cp.async.{a.cache}.shared.global [{base}+{off}], [{pb}], 16;")
            else:
                w(f"\t{pred}ld.global.nc.v4.f32 {{%ldB{4*j}, %ldB{4*j+1}, %ldB{4*j+2}, %ldB{4*j+3}}}, [{pb}];")
            if j < hB - 1:
                w(f"\tadd.u64            {pb}, {pb}, %bPass;")

    def store_B(pred, base, part=0):
        if cpa:
            return
        for j in range(hB):
            off = (part*hB + j)*rpB*BN*4
            q = [4*j + (c ^ X) for c in range(4)]
            w(f"\t{pred}st.shared.v4.f32    [{base}+{off}], {{%ldB{q[0]}, %ldB{q[1]}, %ldB{q[2]}, %ldB{q[3]}}};")

    def ask_ahead(base):
        """--ahead: the loads of the slice after next into registers (B's by cp.async goes at the top instead)."""
        load_A("@%ahead ")
        if not cpa:
            load_B("@%ahead ", base)
        w(f"\tadd.u64            %gA, %gA, {BK*4};")
        if not cpa:
            w("\tadd.u64            %gB, %gB, %stepB;")

    def frag_loads(kk, s):
        """The lane's A and B pieces of k-row kk into fragment set s."""
        for i in range(WMI):
            r = ", ".join(f"%a{s*TMt + 4*i + c}" for c in range(4))
            w(f"\tld.shared.v4.f32    {{{r}}}, [%rA+{kk*BM*4 + (kk//4)*SK + i*TR*16}];")
        for j in range(WNI):
            r = ", ".join(f"%b{s*TNt + 4*j + c}" for c in range(4))
            w(f"\tld.shared.v4.f32    {{{r}}}, [%rB+{kk*BN*4 + j*TC*16}];")

    w("\t// @prologue")
    w("\t// Slice 0 into stage 0, and wait for it.")
    for part in range(P):
        load_A("", part)
        load_B("", "%sBst", part)
        store_A("", "%sAst", part)
        store_B("", "%sBst", part)
    if cpa:
        w("\tcp.async.commit_group;")
    if cpa:
        w("\tcp.async.wait_all;")
    w("\tbar.sync           0;")
    w("\tadd.u64            %gA, %gA, " + str(BK * 4) + ";")
    w("\tadd.u64            %gB, %gB, %stepB;")
    if KA:
        w("\t// Slice 1 into registers now: it goes into stage 1 during slice 0.")
        w("\tsetp.gt.u32        %ahead, %tiles, 1;")
        ask_ahead("%sBst")
    w("\tmov.u32            %cur, 0;              // stage being computed on (byte offset)")
    w(f"\tmov.u32            %nxt, {S};          // stage being filled")
    if STG == 3:
        w(f"\tmov.u32            %nx2, {2*S};          // stage filled next")
        w("\t// k = 0's fragments of slice 0 (every slice's are read a slice early, so that")
        w("\t// the loop's first FMAs do not wait for shared memory).")
        w("\tmov.u32            %rA, %sAld;")
        w("\tmov.u32            %rB, %sBld;")
        frag_loads(0, 1)
    w("\tmov.u32            %tile, 0;")
    w("\t// @end")
    w("")
    w("SLICE:")
    w("\t// @prefetch")
    w("\t// Ask for slice tile+1 first: its loads travel while the FMAs below run." if not KA else
      "\t// Which slices are still to come: tile+1 (%more) and tile+2 (%ahead).")
    w("\tadd.u32            %tile, %tile, 1;")
    w("\tsetp.lt.u32        %more, %tile, %tiles;")
    w("\tadd.u32            %wA, %sAst, %nxt;")
    w("\tadd.u32            %wB, %sBst, %nxt;")
    if KA:
        w(f"\t// Slice tile+1 is in registers already; slice tile+2 is asked for at k = {KA}.")
        w("\tadd.u32            %r, %tile, 1;")
        w("\tsetp.lt.u32        %ahead, %r, %tiles;")
        if cpa:
            w("\t// B's slice tile+1 goes straight into the other stage (cp.async).")
            load_B("@%more ", "%wB")
    else:
        load_A("@%more ")
        load_B("@%more ", "%wB")
    if P > 1:
        w(f"\t// (Part 1 of {P}: the rest follows part by part inside the loop below, so only")
        w(f"\t// {hA + hB} float4 per thread are in flight in registers at a time.)")
    if cpa:
        w("\tcp.async.commit_group;")
    if KA and cpa:
        w("\tadd.u64            %gB, %gB, %stepB;")
    w("\t// @end")
    w("")
    if STG == 2:
        w("\tadd.u32            %rA, %sAld, %cur;")
        w("\tadd.u32            %rB, %sBld, %cur;")
    w("\t// @inner-loop")
    for kk in range(BK):
        if P > 1 and kk and kk % (BK // P) == 0:
            part = kk // (BK // P)
            w(f"\t// Part {part} of the next slice: store part {part - 1}, ask for part {part}.")
            store_A("@%more ", "%wA", part - 1)
            store_B("@%more ", "%wB", part - 1)
            load_A("@%more ", part)
            load_B("@%more ", "%wB", part)
        if KA and kk == KA:
            w(f"\t// Between k = {kk - 1} and {kk}: slice tile+1, in registers since the slice before,")
            if STG == 2:
                w("\t// into the other stage (nobody reads it now: the barrier at the end of the previous")
                w("\t// slice saw to that; ptxas keeps these stores between the shared loads around them).")
            else:
                w("\t// into stage nxt (last read two slices ago: the barrier of the slice before saw to")
                w("\t// that; ptxas keeps these stores between the shared loads around them).")
            store_A("@%more ", "%wA")
            store_B("@%more ", "%wB")
            w(f"\t// Then ask for slice tile+2: {BK - kk} k-steps here and {kk} of the next slice to travel.")
            ask_ahead("%wB")
            if STG == 3:
                w("\tbar.sync           0;                    // everyone's slice tile+1 is in")
        s = 1 if STG == 3 and kk == 0 else 0
        if s:
            w(f"\t// k = 0: its fragments came with the slice before; {TMt*TNt} FMAs")
        else:
            w(f"\t// k = {kk}: {WMI} float4 of A, {WNI} float4 of B, {TMt*TNt} FMAs")
            frag_loads(kk, 0)
        for i in range(TMt):
            js = range(TNt) if not (a.snake and i % 2) else range(TNt - 1, -1, -1)
            w("\t" + "\n\t".join(f"fma.rn.f32         %acc{i*TNt+j}, %a{s*TMt + i}, %b{s*TNt + (j ^ X)}, %acc{i*TNt+j};"
                               for j in js))
    w("\t// @end")
    w("")
    w("\t// @swap")
    if not KA:
        w("\t// Slice tile+1 goes into the other stage; nobody reads that stage now")
        w("\t// (the barrier at the end of the previous slice saw to that).")
        store_A("@%more ", "%wA", P - 1)
        store_B("@%more ", "%wB", P - 1)
    if cpa:
        w("\tcp.async.wait_all;                       // this thread's copies have landed")
    if STG == 2:
        w("\tbar.sync           0;                    // everyone's have, and stage cur is free")
    else:
        w("\t// No barrier here: the stage slice tile+2 goes into next was last read two slices")
        w(f"\t// ago, before the barrier at k = {KA} of the slice before.")
    w(f"\tmov.u32            %r, {RING[0]};")   # the ring turns by one stage
    for dst, src in zip(RING, RING[1:] + ["%r"]):
        w(f"\tmov.u32            {dst}, {src};")
    if STG == 3:
        w("\t// k = 0's fragments of slice tile+1, behind this slice's last FMAs.")
        w("\tadd.u32            %rA, %sAld, %cur;")
        w("\tadd.u32            %rB, %sBld, %cur;")
        frag_loads(0, 1)
    if not KA:
        w(f"\tadd.u64            %gA, %gA, {BK*4};")
        w("\tadd.u64            %gB, %gB, %stepB;")
    w("\t@%more bra         SLICE;")
    w("\t// @end")
    w("")
    w("\t// @store")
    w(f"\t// Lane rows: by*{BM} + wRow*{WM} + ty*4 + {TR*4}*i + r; columns bx*{BN} + wCol*{WN} + tx*4 + {TC*4}*j.")
    w(f"\tshl.b32            %r, %by, {lg(BM)};")
    w(f"\tshl.b32            %s, %wRow, {lg(WM)};")
    w("\tadd.u32            %r, %r, %s;")
    w("\tshl.b32            %s, %ty, 2;")
    w("\tadd.u32            %r, %r, %s;")
    w(f"\tshl.b32            %s, %bx, {lg(BN)};")
    w(f"\tshl.b32            %q, %wCol, {lg(WN)};")
    w("\tadd.u32            %s, %s, %q;")
    w("\tshl.b32            %q, %tx, 2;")
    w("\tadd.u32            %s, %s, %q;")
    w("\tmul.wide.u32       %off, %r, %n;")
    w("\tcvt.u64.u32        %p, %s;")
    w("\tadd.u64            %off, %off, %p;")
    w("\tshl.b64            %off, %off, 2;")
    w("\tadd.u64            %p, %gC, %off;")
    w("\tmul.wide.u32       %off, %n, 4;          // one row of C, in bytes")
    w(f"\tmul.wide.u32       %aPass, %n, {(TR*4-3)*4};   // from the last row of a fragment to the next fragment")
    for i in range(TMt):
        for j in range(WNI):
            acc = ", ".join(f"%acc{i*TNt + 4*j + c}" for c in range(4))
            w(f"\tst.global.v4.f32    [%p+{j*TC*16}], {{{acc}}};")
        if i < TMt - 1:
            w("\tadd.u64            %p, %p, " + ("%aPass;" if i % 4 == 3 else "%off;"))
    w("\t// @end")
    w("\tret;")
    w("}")
    return "\n".join(o) + "\n"


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--bm", type=int, default=128)
    ap.add_argument("--bn", type=int, default=128)
    ap.add_argument("--bk", type=int, default=16)
    ap.add_argument("--wm", type=int, default=64)
    ap.add_argument("--wn", type=int, default=64)
    ap.add_argument("--tr", type=int, default=8)
    ap.add_argument("--cpasync", action="store_true")
    ap.add_argument("--maxnreg", type=int, default=0)
    ap.add_argument("--amap-lane", action="store_true")
    ap.add_argument("--cache", default="cg", choices=["cg", "ca"])
    ap.add_argument("--split", type=int, default=1,
                    help="stage the next slice through registers in this many parts (BK 32 with 2 parts "
                         "needs no more staging registers than BK 16 with 1)")
    ap.add_argument("--skew", action=argparse.BooleanOptionalAction, default=True,
                    help="start each group of 4 k-rows of As 512/BK bytes further on (conflict-free "
                         "transposed stores; --no-skew: the rows back to back, as before)")
    ap.add_argument("--swizzle", type=int, default=0,
                    help="walk the blocks in bands of this many block rows, column by column (0: row by row)")
    ap.add_argument("--bswap", action=argparse.BooleanOptionalAction, default=False,
                    help="B's columns swapped in pairs in shared memory, so each FFMA reads B and C "
                         "from different register banks")
    ap.add_argument("--snake", action=argparse.BooleanOptionalAction, default=True,
                    help="odd rows of FMAs right to left: each row starts with the B value in the reuse cache")
    ap.add_argument("--threads", type=int, default=THREADS)
    ap.add_argument("--stages", type=int, default=3, choices=[2, 3],
                    help="2: the barrier at the end of the loop; 3: right after the store at --ahead, "
                         "and k = 0's fragments read a slice early")
    ap.add_argument("--ahead", type=int, default=None,
                    help="load two slices ahead: store slice t+1 and ask for t+2 between k-steps K-1 and K "
                         "(default BK-2 with three stages, 3/4 of BK with two; 0: ask for t+1 at the top, "
                         "store it after the loop)")
    ap.add_argument("--entry", default="sgemm_warptile")
    args = ap.parse_args()
    print(emit(args), end="")
