#!/usr/bin/env python3
"""Writes ptx/06_vectorized.ptx: 2D blocktiling with 128-bit global and shared accesses.

The unrolled inner loop (8 k-steps x 64 FMAs) is why this is generated; the
output is meant to be read. Run from the project root:
    python3 ptx/gen/06_vectorized.py > ptx/06_vectorized.ptx
Options (scratch comparisons only, the committed file uses the defaults):
    --no-prefetch  load each slice only after the previous one is used up
    --split        spread the thread's 8x8 into four 4x4 pieces 64 apart
    --entry NAME
"""
import argparse

from banner import banner

BM, BN, BK, TM, TN, NT = 128, 128, 8, 8, 8, 256


def emit(args):
    pre, sp = args.prefetch, args.split
    hi = 256 if sp else 16   # byte offset of the second float4 of a fragment
    o = []
    w = o.append
    w(banner() + "// Lesson 6: 2D blocktiling with 128-bit (vectorised) loads and stores.")
    w("//")
    w(f"// One block of {NT} threads computes a {BM}x{BN} tile of C; each thread a")
    w(f"// {TM}x{TN} block of it, kept in 64 registers. The K loop walks {BK}-wide")
    w("// slices of A and B through shared memory. Compared with lesson 5:")
    w("//  * global loads are ld.global.cg.v4.f32: one instruction moves 16 bytes;")
    w("//    .cg caches them in L2 only: a tile element is read again by the other")
    w("//    blocks of its block row or column, mostly on other SMs, so the reuse is")
    w("//    in L2; L1 fills would only share the SRAM with the shared-memory tiles;")
    w("//  * the A slice is stored transposed (As[k][m]), so the 8 A values a thread")
    w("//    needs for one k are adjacent and come in with two ld.shared.v4.f32;")
    w("//  * C is written with st.global.v4.f32;")
    w("//  * the A and B pieces pass through registers anyway (A must be transposed),")
    w("//    so the loads for slice t+1 are issued before the math on slice t and")
    w("//    arrive while the FMAs run.")
    w("// Needs M % 128 == 0, N % 128 == 0, K % 8 == 0.")
    w("")
    w(".version 7.0")
    w(".target sm_50")
    w(".address_size 64")
    w("")
    w("// Dynamic shared memory: As (8 x 128 floats, transposed) then Bs (8 x 128).")
    w(".extern .shared .align 16 .b8 smem[];")
    w("")
    w(f".visible .entry {args.entry}(")
    w("\t.param .u64 A, .param .u64 B, .param .u64 C,")
    w("\t.param .u32 M, .param .u32 N, .param .u32 K)")
    w("{")
    w("\t.reg .pred  %more;")
    w("\t.reg .b32   %t, %bx, %by, %n, %k, %tiles, %tile;")
    w("\t.reg .b32   %thRow, %thCol, %aRow, %aCol, %bRow, %bCol, %r, %s, %q;  // r, s, q: scratch")
    w("\t.reg .b32   %sA, %sB, %sAst, %sBst, %sAld, %sBld;")
    w("\t.reg .b64   %gA, %gB, %gC, %stepB, %rowC, %off, %w;")
    w("\t.reg .f32   %acc<64>;        // acc(i*8+j) = C[thRow*8+i][thCol*8+j]")
    w("\t.reg .f32   %a<8>, %b<8>;    // A column and B row for one k")
    w("\t.reg .f32   %ldA<4>, %ldB<4>; // a 16-byte piece of A and of B in flight")
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
    w("\tmov.u32            %bx, %ctaid.x;        // block column: N / 128 of them")
    w("\tmov.u32            %by, %ctaid.y;        // block row: M / 128 of them")
    w("\t// The thread's 8x8 block of C: 16 x 16 threads cover 128 x 128.")
    w("\tshr.u32            %thRow, %t, 4;")
    w("\tand.b32            %thCol, %t, 15;")
    w("\t// Loading A (128 x 8): two float4 per row, one per thread.")
    w("\tshr.u32            %aRow, %t, 1;")
    w("\tand.b32            %aCol, %t, 1;")
    w("\tshl.b32            %aCol, %aCol, 2;      // 0 or 4")
    w("\t// Loading B (8 x 128): 32 float4 per row, one per thread.")
    w("\tshr.u32            %bRow, %t, 5;")
    w("\tand.b32            %bCol, %t, 31;")
    w("\tshl.b32            %bCol, %bCol, 2;")
    w("\t// gA = &A[by*128 + aRow][aCol]")
    w("\tshl.b32            %r, %by, 7;")
    w("\tadd.u32            %r, %r, %aRow;")
    w("\tmul.wide.u32       %off, %r, %k;")
    w("\tcvt.u64.u32        %w, %aCol;")
    w("\tadd.u64            %off, %off, %w;")
    w("\tshl.b64            %off, %off, 2;")
    w("\tadd.u64            %gA, %gA, %off;")
    w("\t// gB = &B[bRow][bx*128 + bCol]")
    w("\tshl.b32            %r, %bx, 7;")
    w("\tadd.u32            %r, %r, %bCol;")
    w("\tmad.lo.u32         %s, %bRow, %n, %r;")
    w("\tmul.wide.u32       %off, %s, 4;")
    w("\tadd.u64            %gB, %gB, %off;")
    w("\tmul.wide.u32       %stepB, %n, 32;       // 8 rows of B, in bytes")
    w("\t// Shared addresses: As at smem, Bs 4096 bytes further.")
    w("\tmov.u32            %sA, smem;")
    w("\tadd.u32            %sB, %sA, 4096;")
    w("\t// This thread's float4 of A goes to As[aCol..aCol+3][aRow] (transposed).")
    w("\tshl.b32            %r, %aCol, 7;")
    w("\tadd.u32            %r, %r, %aRow;")
    w("\tshl.b32            %r, %r, 2;")
    w("\tadd.u32            %sAst, %sA, %r;")
    w("\tshl.b32            %r, %bRow, 7;")
    w("\tadd.u32            %r, %r, %bCol;")
    w("\tshl.b32            %r, %r, 2;")
    w("\tadd.u32            %sBst, %sB, %r;")
    if sp:
        w("\t// Reading: As[k][thRow*4 ..+3] and As[k][64 + thRow*4 ..+3], the same")
        w("\t// for Bs with thCol; k and the 64 are in the offset.")
    else:
        w("\t// Reading: As[k][thRow*8 ..+7] and Bs[k][thCol*8 ..+7], k in the offset.")
    w(f"\tshl.b32            %r, %thRow, {4 if sp else 5};")
    w("\tadd.u32            %sAld, %sA, %r;")
    w(f"\tshl.b32            %r, %thCol, {4 if sp else 5};")
    w("\tadd.u32            %sBld, %sB, %r;")
    w("\tshr.u32            %tiles, %k, 3;        // K / 8 slices")
    w("\tmov.u32            %tile, 0;")
    w("\t// @end")
    w("")
    w("\t// Every accumulator starts at zero.")
    for i in range(0, 64, 8):
        w("\t" + "\n\t".join(f"mov.f32            %acc{j}, 0f00000000;" for j in range(i, i + 8)))
    w("")

    def load_regs(pred=""):
        w(f"\t{pred}ld.global.cg.v4.f32 {{%ldA0, %ldA1, %ldA2, %ldA3}}, [%gA];")
        w(f"\t{pred}ld.global.cg.v4.f32 {{%ldB0, %ldB1, %ldB2, %ldB3}}, [%gB];")

    def store_regs(pred=""):
        for i in range(4):
            w(f"\t{pred}st.shared.f32       [%sAst+{i*512}], %ldA{i};")
        w(f"\t{pred}st.shared.v4.f32    [%sBst], {{%ldB0, %ldB1, %ldB2, %ldB3}};")

    if pre:
        w("\t// @load-tile")
        w("\t// The first slice comes in before the loop; each iteration then asks")
        w("\t// for the next one before doing the math on the current one.")
        load_regs()
        w("\t// @end")
    w("")
    w("TILE:")
    w("\t// @store-tile")
    if not pre:
        load_regs()
    store_regs()
    w("\t// @end")
    w("\t// @barrier")
    w("\tbar.sync           0;                    // the slice is in shared memory")
    w("\t// @end")
    if pre:
        w("\t// @prefetch")
        w("\t// Start the next slice's loads now; they land while the FMAs run.")
        w("\tadd.u32            %tile, %tile, 1;")
        w("\tsetp.lt.u32        %more, %tile, %tiles;")
        w("\tadd.u64            %gA, %gA, 32;")
        w("\tadd.u64            %gB, %gB, %stepB;")
        load_regs("@%more ")
        w("\t// @end")
    w("")
    w("\t// @inner-loop")
    for kk in range(BK):
        w(f"\t// k = {kk}: A column (8 values) and B row (8 values), 64 FMAs")
        w(f"\tld.shared.v4.f32    {{%a0, %a1, %a2, %a3}}, [%sAld+{kk*512}];")
        w(f"\tld.shared.v4.f32    {{%a4, %a5, %a6, %a7}}, [%sAld+{kk*512+hi}];")
        w(f"\tld.shared.v4.f32    {{%b0, %b1, %b2, %b3}}, [%sBld+{kk*512}];")
        w(f"\tld.shared.v4.f32    {{%b4, %b5, %b6, %b7}}, [%sBld+{kk*512+hi}];")
        for i in range(TM):
            w("\t" + "\n\t".join(f"fma.rn.f32         %acc{i*8+j}, %a{i}, %b{j}, %acc{i*8+j};" for j in range(0, 4)))
            w("\t" + "\n\t".join(f"fma.rn.f32         %acc{i*8+j}, %a{i}, %b{j}, %acc{i*8+j};" for j in range(4, 8)))
    w("\t// @end")
    w("\tbar.sync           0;                    // all reads done before the next store")
    if not pre:
        w("\tadd.u64            %gA, %gA, 32;         // 8 columns of A further")
        w("\tadd.u64            %gB, %gB, %stepB;     // 8 rows of B further")
        w("\tadd.u32            %tile, %tile, 1;")
        w("\tsetp.lt.u32        %more, %tile, %tiles;")
    w("\t@%more bra         TILE;")
    w("")
    w("\t// @store")
    if sp:
        w("\t// Rows thRow*4+i and 64+thRow*4+i; in each, columns thCol*4 and 64+thCol*4.")
    else:
        w("\t// Row thRow*8+i of the thread's block: two 16-byte stores per row.")
    w("\tshl.b32            %r, %by, 7;")
    w(f"\tshl.b32            %s, %thRow, {2 if sp else 3};")
    w("\tadd.u32            %r, %r, %s;")
    w("\tshl.b32            %s, %bx, 7;")
    w(f"\tshl.b32            %q, %thCol, {2 if sp else 3};")
    w("\tadd.u32            %s, %s, %q;")
    w("\tmul.wide.u32       %off, %r, %n;")
    w("\tcvt.u64.u32        %w, %s;")
    w("\tadd.u64            %off, %off, %w;")
    w("\tshl.b64            %off, %off, 2;")
    w("\tadd.u64            %rowC, %gC, %off;")
    w("\tmul.wide.u32       %off, %n, 4;          // one row of C, in bytes")
    if sp:
        w("\tmul.wide.u32       %stepB, %n, 244;      // 61 rows: from row thRow*4+3 to 64+thRow*4")
    for i in range(TM):
        w(f"\tst.global.v4.f32    [%rowC], {{%acc{i*8}, %acc{i*8+1}, %acc{i*8+2}, %acc{i*8+3}}};")
        w(f"\tst.global.v4.f32    [%rowC+{hi}], {{%acc{i*8+4}, %acc{i*8+5}, %acc{i*8+6}, %acc{i*8+7}}};")
        if i < TM - 1:
            w("\tadd.u64            %rowC, %rowC, " + ("%stepB;" if sp and i == 3 else "%off;"))
    w("\t// @end")
    w("\tret;")
    w("}")
    return "\n".join(x for x in o) + "\n"


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-prefetch", dest="prefetch", action="store_false")
    ap.add_argument("--split", action="store_true")
    ap.add_argument("--entry", default="sgemm_vectorized")
    print(emit(ap.parse_args()), end="")
