#!/usr/bin/env python3
"""puzzles_gen: writes the practice puzzles (lessons/puzzles/*.md, ptx/puzzles/, tests/puzzles/*.variants)
from the lessons' kernels. Each puzzle's solution is a lesson kernel (with a few extra regions around the
lines its checks measure), its start and its wrong variants are line edits of that solution, written in the
same "- LINE / + LINE" form tests/test_puzzles.c applies. Run from the project root after changing a spec
or a lesson kernel; the files it writes are committed."""
import os

def apply(text, edits):
    """edits: [(old trimmed line, [new lines])], matched in order, first match after the previous one."""
    out, h = [], 0
    for line in text.split('\n'):
        if h < len(edits) and line.strip() == edits[h][0]:
            out += ['\t' + n for n in edits[h][1]]
            h += 1
        else:
            out.append(line)
    assert h == len(edits), 'edit not applied: %r' % (edits[h][0],)
    return '\n'.join(out)

def wrap(text, regions):
    """regions: [(name, first trimmed line, last trimmed line)]: markers around them."""
    lines = text.split('\n')
    for name, first, last in regions:
        i = next(k for k, l in enumerate(lines) if l.strip() == first)
        j = next(k for k in range(i, len(lines)) if lines[k].strip() == last)
        ind = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
        lines[j + 1:j + 1] = [ind + '// @end']
        lines[i:i] = [ind + '// @' + name]
    return '\n'.join(lines)

def edits_text(edits):
    s = ''
    for old, new in edits:
        s += '- ' + old + '\n' + ''.join('+ ' + n + '\n' for n in new)
    return s

P = []
def puzzle(**kw):
    P.append(kw)

# ---------------------------------------------------------------- lesson 1
puzzle(id='01-bounds', lesson=1, title='Threads past the edge of C', base='ptx/01_naive.ptx', entry='sgemm_naive',
    grid='ceil(N/32),ceil(M/32)', block='32,32', sizes='64 100,68,36',
    start=[('setp.ge.or.u32 %outside, %col, %N, %outside;', ['// TODO: and the column?'])],
    checks=['verified | the grid is rounded up to whole blocks: a thread whose row is >= M or whose column is >= N must leave before it touches A, B or C'],
    hints=['At 100x68x36 the last blocks hang over the edge of C: the emulator names the access that left the matrix.',
           'Rows are checked against M. What bounds the column?',
           'setp.ge.or.u32 %outside, %col, %N, %outside; ORs the second test into the first predicate.'],
    goal='''The grid is ceil(N/32) x ceil(M/32) blocks of 32 x 32 threads, so when M or N is
not a multiple of 32 some threads own no element of C. The `@bounds` region
sends the threads below the last row home, but not those right of the last
column: at 100x68x36 they read past B's rows and write past C's. Make every
thread outside C leave, and keep the result right at 64 and 100x68x36.''',
    variants=[
        ('off by one: > instead of >=', [('setp.ge.u32 %outside, %row, %M;', ['setp.gt.u32 %outside, %row, %M;'])], 'verified: out-of-bounds global load'),
        ('the column compared with M', [('setp.ge.or.u32 %outside, %col, %N, %outside;', ['setp.ge.or.u32 %outside, %col, %M, %outside;'])], 'verified: at 100x68x36'),
        ('the branch forgotten', [('@%outside bra DONE;', [])], 'verified: out-of-bounds global load'),
    ])

puzzle(id='01-stride', lesson=1, title='Walking down a column of B', base='ptx/01_naive.ptx', entry='sgemm_naive',
    grid='ceil(N/32),ceil(M/32)', block='32,32', sizes='64 96,64,32 100,68,36',
    start=[('mul.wide.u32 %strideB, %N, 4;', ['mul.wide.u32 %strideB, %K, 4;'])],
    checks=['verified | A is walked along a row (4 bytes a step), B down a column: one step of k moves one row of B, N floats'],
    hints=['At 64x64x64 the kernel is right: K = N there. Which stride confuses the two?',
           'B is K x N, row-major: element B[k][col] is at (k*N + col)*4 bytes.',
           'strideB = N * 4 bytes: mul.wide.u32 %strideB, %N, 4;'],
    goal='''The inner loop of lesson 1 walks `%pA` along a row of A and `%pB` down a column
of B. This copy steps `%pB` by the wrong number of bytes, which square sizes
hide. Fix the step so C is right at 64, 96x64x32 and 100x68x36.''',
    variants=[
        ('a step in floats, not bytes', [('mul.wide.u32 %strideB, %N, 4;', ['mul.wide.u32 %strideB, %N, 1;'])], 'verified: C is wrong'),
        ('A walked down a column too', [('add.u64 %pA, %pA, 4;', ['add.u64 %pA, %pA, %strideB;'])], 'verified: out-of-bounds global load'),
        ('the stride of M', [('mul.wide.u32 %strideB, %N, 4;', ['mul.wide.u32 %strideB, %M, 4;'])], 'verified: out-of-bounds global load'),
    ])

# ---------------------------------------------------------------- lesson 2
coal = [('mad.lo.u32 %row, %by, %dimx, %tx;', ['mad.lo.u32 %row, %by, %dimy, %ty;']),
        ('mad.lo.u32 %col, %bx, %dimy, %ty;', ['mad.lo.u32 %col, %bx, %dimx, %tx;'])]
naive = [('mad.lo.u32 %row, %by, %dimy, %ty;', ['mad.lo.u32 %row, %by, %dimx, %tx;']),
         ('mad.lo.u32 %col, %bx, %dimx, %tx;', ['mad.lo.u32 %col, %bx, %dimy, %ty;'])]
puzzle(id='02-coalesce', lesson=2, title="Coalesce lesson 1's loads", base='ptx/01_naive.ptx', entry='sgemm_naive',
    grid='ceil(N/32),ceil(M/32)', block='32,32', sizes='64 96,64,40', pre=coal,
    regions=[('aload', 'ld.global.f32 %a, [%pA];        // 32 lanes, 32 rows: 32 sectors', 'ld.global.f32 %a, [%pA];        // 32 lanes, 32 rows: 32 sectors'),
             ('bload', 'ld.global.f32 %b, [%pB];        // 32 lanes, one address: 1 sector', 'ld.global.f32 %b, [%pB];        // 32 lanes, one address: 1 sector'),
             ('cstore', 'st.global.f32 [%pC], %acc;', 'st.global.f32 [%pC], %acc;')],
    start=naive,
    checks=['verified',
            'sectors aload <= 1 | the 32 lanes of a warp hold 32 rows of C, so their A addresses are a whole row (K*4 bytes) apart: one sector each. Let threadIdx.x pick the column and all lanes share one row of A',
            'sectors bload <= 4 | neighbouring lanes must read neighbouring floats of a row of B: 32 lanes x 4 bytes = 4 sectors',
            'sectors cstore <= 4 | neighbouring lanes must write neighbouring floats of C'],
    hints=['A warp is 32 threads with consecutive threadIdx.x. Which index should they differ in?',
           'Swap the roles: threadIdx.x (and blockDim.x) for the column, threadIdx.y for the row.',
           'row = blockIdx.y * blockDim.y + threadIdx.y; col = blockIdx.x * blockDim.x + threadIdx.x.'],
    goal='''This is lesson 1's kernel: threadIdx.x picks the row, so the 32 lanes of a warp
read 32 different rows of A (32 sectors per request) and write a column of C.
Change only the `@index` region so that a warp's A load is one broadcast
sector, its B load and its C store 4 sectors (128 contiguous bytes), and C
stays right. The measured lines are marked `@aload`, `@bload` and `@cstore`.''',
    variants=[
        ('the uncoalesced original', naive, 'sectors: 32 lanes of a warp hold 32 rows'),
        ('only the column swapped', [('mad.lo.u32 %row, %by, %dimy, %ty;', ['mad.lo.u32 %row, %by, %dimx, %tx;'])], 'verified: C is wrong'),
        ('block indices swapped with the threads', [('mad.lo.u32 %row, %by, %dimy, %ty;', ['mad.lo.u32 %row, %bx, %dimy, %ty;']),
            ('mad.lo.u32 %col, %bx, %dimx, %tx;', ['mad.lo.u32 %col, %by, %dimx, %tx;'])], 'verified: C is wrong'),
    ])

# ---------------------------------------------------------------- lesson 3
SM3 = dict(base='ptx/03_smem.ptx', entry='sgemm_smem', grid='ceil(N/32),ceil(M/32)', block='32,32', smem='8192',
           sizes='64 100,68,36')
nobar1 = [('bar.sync 0;', ['// TODO: a barrier?'])]
puzzle(id='03-barriers', lesson=3, title='The tile load and its two barriers', **SM3,
    start=[('bar.sync 0;', ['// TODO']), ('bar.sync 0;', ['// TODO'])],
    checks=['race | a warp read shared memory that another warp was still writing (or overwrote a tile still being read): put a bar.sync between them',
            'verified'],
    hints=['The emulator names the two lines that race and the warps involved.',
           'One barrier: every thread has stored its element of both tiles before anyone reads them.',
           'The other: every thread has finished its dot product before the next tile overwrites As and Bs (after @inner-loop).'],
    goal='''Lesson 3's kernel copies a 32x32 tile of A and of B into shared memory, then
every thread reads a row of As and a column of Bs. Both of its `bar.sync`
lines are gone. Put back the barriers the tile needs (and no more) so that no
warp reads a tile before it is written, nor overwrites one still being read.''',
    variants=[
        ('no barrier after the store', [('bar.sync 0;', [])], 'race: shared-memory race'),
        ('no barrier after the dot product', [('bar.sync 0;', ['bar.sync 0;']), ('bar.sync 0;', [])], 'race: shared-memory race'),
        ('the first barrier before the store', [('st.shared.f32 [%sAst], %nextA;', ['bar.sync 0;', 'st.shared.f32 [%sAst], %nextA;']), ('bar.sync 0;', [])], 'race: shared-memory race'),
    ])

puzzle(id='03-race', lesson=3, title='Find the race', **SM3,
    start=[('bar.sync 0;', ['bar.sync 0;']), ('bar.sync 0;', ['// (nothing here)'])],
    checks=['race | read the race: which line wrote, which read, and which barrier would have ordered them',
            'verified'],
    hints=['Run the check: the race names a store line, a load line and two warps.',
           'A fast warp finishes its dot product and stores the next tile while a slow warp still reads this one.',
           'bar.sync 0; after the dot product (the @barrier-2 region).'],
    goal='''This copy of lesson 3's kernel gives a right answer often enough on a GPU, but
not always. Run the check, read the emulator's race report, and fix the
kernel with the smallest change.''',
    variants=[
        ('the barrier moved before the dot product', [('bar.sync 0;', ['bar.sync 0;', 'bar.sync 0;']), ('bar.sync 0;', [])], 'race: shared-memory race'),
        ('a bar.warp.sync instead', [('bar.sync 0;', ['bar.sync 0;']), ('bar.sync 0;', ['bar.warp.sync -1;'])], 'race: shared-memory race'),
        ('the first barrier lost instead', [('bar.sync 0;', [])], 'race: shared-memory race'),
    ])

# ---------------------------------------------------------------- lesson 4
B4 = dict(base='ptx/04_blocktile1d.ptx', entry='sgemm_blocktile1d', grid='ceil(N/64),ceil(M/64)', block='512',
          sizes='64 128,64,72 100,68,36')
loadb = ['ld.shared.f32 %b0, [%sB+0];', 'ld.shared.f32 %b1, [%sB+256];', 'ld.shared.f32 %b2, [%sB+512];',
         'ld.shared.f32 %b3, [%sB+768];', 'ld.shared.f32 %b4, [%sB+1024];', 'ld.shared.f32 %b5, [%sB+1280];',
         'ld.shared.f32 %b6, [%sB+1536];', 'ld.shared.f32 %b7, [%sB+1792];']
puzzle(id='04-load-b', lesson=4, title='The eight B values a thread keeps', **B4,
    start=[(l, [l.replace('+%d]' % (256 * d), '+%d]' % (4 * d))]) for d, l in enumerate(loadb) if d],
    checks=['verified | the thread keeps Bs[d][tc] for d = 0..7: row d of the 8 x 64 tile is d*64 floats (d*256 bytes) on',
            'conflicts load-b <= 0 | lanes must read neighbouring floats of one row of Bs: one bank each'],
    hints=['Bs is the 8 x 64 slice of B, row-major, in shared memory. %sB already points at Bs[0][tc].',
           'One row of Bs is 64 floats.',
           'Offsets 0, 256, 512, ... 1792 bytes.'],
    goal='''In lesson 4 each thread computes 8 outputs of one column and keeps the 8 values
of B it needs, Bs[0..7][tc], in registers for the whole tile. The `@load-b`
offsets here walk along a row instead of down the column. Fix them so C is
right and the loads stay free of bank conflicts.''',
    variants=[
        ('rows of 32 floats', [(l, [l.replace('+%d]' % (256 * d), '+%d]' % (128 * d))]) for d, l in enumerate(loadb) if d], 'verified: C is wrong'),
        ('one row off', [(loadb[7], ['ld.shared.f32 %b7, [%sB+1536];'])], 'verified: C is wrong'),
        ('all eight from row 0', [(l, [l.replace('+%d]' % (256 * d), '+0]')]) for d, l in enumerate(loadb) if d], 'verified: C is wrong'),
    ])

puzzle(id='04-broadcast-a', lesson=4, title='A broadcast of A', **B4,
    start=[('mul.lo.u32 %tmp, %tr, 256;', ['mul.lo.u32 %tmp, %tc, 256;'])],
    checks=['verified', 'conflicts inner-loop <= 0 | all 32 lanes of a warp share tr and must read the same As row (one broadcast); lanes that read different rows of As take turns at the same banks'],
    hints=['Which of tc and tr is the same in all 32 lanes of a warp?',
           'Thread t computes rows tr*8 .. tr*8+7 of the tile; As is 64 x 8 floats, 32 bytes a row.',
           'sA = As + tr * 8 rows * 32 bytes: mul.lo.u32 %tmp, %tr, 256;'],
    goal='''Each thread of lesson 4 computes 8 rows of one column. All lanes of a warp work
on the same 8 rows, so their reads of As are one broadcast. This copy
points `%sA` at the wrong rows: fix it (one line after `@load-map`).''',
    variants=[
        ('rows of 8 bytes', [('mul.lo.u32 %tmp, %tr, 256;', ['mul.lo.u32 %tmp, %tr, 32;'])], 'verified: C is wrong'),
        ('the lane picks the row', [('mul.lo.u32 %tmp, %tr, 256;', ['mul.lo.u32 %tmp, %tc, 32;'])], 'conflicts: bank conflicts'),
        ('the thread number picks the row', [('mul.lo.u32 %tmp, %tr, 256;', ['mul.lo.u32 %tmp, %t, 8;'])], 'verified:'),
    ])

# ---------------------------------------------------------------- lesson 6
B6 = dict(base='ptx/06_vectorized.ptx', entry='sgemm_vectorized', grid='N/128,M/128', block='256', smem='(128+128)*8*4',
          sizes='128 256,128,64')
puzzle(id='06-v4', lesson=6, title='One ld.global.v4 instead of four', **B6,
    regions=[('aload', 'ld.global.cg.v4.f32 {%ldA0, %ldA1, %ldA2, %ldA3}, [%gA];', 'ld.global.cg.v4.f32 {%ldA0, %ldA1, %ldA2, %ldA3}, [%gA];')],
    start=[('ld.global.cg.v4.f32 {%ldA0, %ldA1, %ldA2, %ldA3}, [%gA];', ['ld.global.cg.f32 %ldA0, [%gA];', 'ld.global.cg.f32 %ldA1, [%gA+4];', 'ld.global.cg.f32 %ldA2, [%gA+8];', 'ld.global.cg.f32 %ldA3, [%gA+12];'])],
    checks=['verified | a 16-byte load needs a 16-byte aligned address: %gA points at A[row][aCol] with aCol 0 or 4', 'count aload ld.global <= 1 | four floats side by side in A come in one 16-byte ld.global.v4.f32 (one instruction, one request)',
            ],
    hints=['A vector load names four registers in braces: {%ldA0, %ldA1, %ldA2, %ldA3}.',
           'A 16-byte load needs a 16-byte aligned address: aCol is 0 or 4 floats, and K is a multiple of 8.',
           'ld.global.cg.v4.f32 {%ldA0, %ldA1, %ldA2, %ldA3}, [%gA];'],
    goal='''Lesson 6 moves 16 bytes per instruction. In the first tile load (`@aload`) this
copy fetches its four floats of A with four scalar loads: four instructions
and four requests where one would do. Make it one vector load, at the
alignment it needs.''',
    variants=[
        ('the scalar original', [('ld.global.cg.v4.f32 {%ldA0, %ldA1, %ldA2, %ldA3}, [%gA];', ['ld.global.cg.f32 %ldA0, [%gA];', 'ld.global.cg.f32 %ldA1, [%gA+4];', 'ld.global.cg.f32 %ldA2, [%gA+8];', 'ld.global.cg.f32 %ldA3, [%gA+12];'])], 'count: one 16-byte ld.global.v4.f32'),
        ('two v2 loads', [('ld.global.cg.v4.f32 {%ldA0, %ldA1, %ldA2, %ldA3}, [%gA];', ['ld.global.cg.v2.f32 {%ldA0, %ldA1}, [%gA];', 'ld.global.cg.v2.f32 {%ldA2, %ldA3}, [%gA+8];'])], 'count: has 2 ld.global'),
        ('a v4 one float off', [('ld.global.cg.v4.f32 {%ldA0, %ldA1, %ldA2, %ldA3}, [%gA];', ['ld.global.cg.v4.f32 {%ldA0, %ldA1, %ldA2, %ldA3}, [%gA+4];'])], 'verified: misaligned'),
    ])

puzzle(id='06-store-transposed', lesson=6, title='A stored transposed', **B6,
    start=[('st.shared.f32       [%sAst+512], %ldA1;', ['st.shared.f32       [%sAst+4], %ldA1;']),
           ('st.shared.f32       [%sAst+1024], %ldA2;', ['st.shared.f32       [%sAst+8], %ldA2;']),
           ('st.shared.f32       [%sAst+1536], %ldA3;', ['st.shared.f32       [%sAst+12], %ldA3;'])],
    checks=['verified | As is stored transposed, As[k][row]: the four floats of A[row][k..k+3] go to four rows of As, 128 floats (512 bytes) apart'],
    hints=['The inner loop reads As[k][thRow*8 .. +7]: k is the row of As.',
           'A row of As holds all 128 rows of the A tile: 512 bytes.',
           'Offsets 0, 512, 1024, 1536.'],
    goal='''Lesson 6 loads a float4 of A (4 values of k along one row of A) and stores it
transposed, so that the inner loop reads 8 consecutive rows of A for one k
with two 16-byte shared loads. This copy's `@store-tile` puts the four values
side by side instead. Fix the offsets.''',
    variants=[
        ('one value in the wrong row', [('st.shared.f32       [%sAst+1536], %ldA3;', ['st.shared.f32       [%sAst+1024], %ldA3;'])], 'verified: C is wrong'),
        ('rows of 64 floats', [('st.shared.f32       [%sAst+512], %ldA1;', ['st.shared.f32       [%sAst+256], %ldA1;']),
           ('st.shared.f32       [%sAst+1024], %ldA2;', ['st.shared.f32       [%sAst+512], %ldA2;']),
           ('st.shared.f32       [%sAst+1536], %ldA3;', ['st.shared.f32       [%sAst+768], %ldA3;'])], 'verified: C is wrong'),
        ('the side-by-side original', [('st.shared.f32       [%sAst+512], %ldA1;', ['st.shared.f32       [%sAst+4], %ldA1;'])], 'verified: C is wrong'),
    ])

# ---------------------------------------------------------------- lesson 5
B5 = dict(base='ptx/05_blocktile2d.ptx', entry='sgemm_blocktile2d', grid='ceil(N/128),ceil(M/128)', block='256',
          sizes='128 256,128,64 100,68,36')
puzzle(id='05-thread-grid', lesson=5, title='A 16 x 16 grid of 8 x 8 tiles', **B5,
    start=[('and.b32 %tc, %t, 15;', ['and.b32 %tc, %t, 31;']), ('shr.u32 %tr, %t, 4;', ['shr.u32 %tr, %t, 5;'])],
    checks=['verified | 256 threads, each an 8 x 8 tile of outputs, cover the 128 x 128 block tile as a 16 x 16 grid: tc = t % 16, tr = t / 16',
            'conflicts inner-loop <= 0 | each half-warp must share its row tr (a broadcast of As) and read neighbouring columns of Bs'],
    hints=['128 / 8 = 16 threads along each side of the block tile.',
           'The 32 lanes of a warp should span two thread rows: t % 16 for the column.',
           'and.b32 %tc, %t, 15; shr.u32 %tr, %t, 4;'],
    goal='''Lesson 5 gives each of 256 threads an 8 x 8 tile of C: 64 outputs from 8 + 8
values loaded per k. This copy lays the threads out as a 32 x 8 grid, which
does not match the 128 x 128 block tile. Fix `@index`, and keep the inner
loop free of bank conflicts.''',
    variants=[
        ('row and column swapped', [('and.b32 %tc, %t, 15;', ['shr.u32 %tc, %t, 4;']), ('shr.u32 %tr, %t, 4;', ['and.b32 %tr, %t, 15;'])], 'conflicts: bank conflicts'),
        ('8 x 32 threads', [('and.b32 %tc, %t, 15;', ['and.b32 %tc, %t, 7;']), ('shr.u32 %tr, %t, 4;', ['shr.u32 %tr, %t, 3;'])], 'verified:'),
        ('block tiles of 64', [('mul.lo.u32 %row0, %tmp, 128;', ['mul.lo.u32 %row0, %tmp, 64;'])], 'verified: C is wrong'),
    ])

# Padding: As rows of 128 + 4 floats, so the two lanes that store one row of A
# (its floats k..k+3 and k+4..k+7, transposed) land in different banks.
def pad6(stride):
    e = [('add.u32            %sB, %sA, 4096;', ['add.u32            %%sB, %%sA, %d;' % (8 * stride * 4)]),
         ('shl.b32            %r, %aCol, 7;', ['mul.lo.u32         %%r, %%aCol, %d;' % stride])]
    e += [('st.shared.f32       [%%sAst+%d], %%ldA%d;' % (512 * q, q), ['st.shared.f32       [%%sAst+%d], %%ldA%d;' % (4 * stride * q, q)]) for q in (1, 2, 3)]
    for k in range(1, 8):
        e.append(('ld.shared.v4.f32    {%%a0, %%a1, %%a2, %%a3}, [%%sAld+%d];' % (512 * k), ['ld.shared.v4.f32    {%%a0, %%a1, %%a2, %%a3}, [%%sAld+%d];' % (4 * stride * k)]))
        e.append(('ld.shared.v4.f32    {%%a4, %%a5, %%a6, %%a7}, [%%sAld+%d];' % (512 * k + 16), ['ld.shared.v4.f32    {%%a4, %%a5, %%a6, %%a7}, [%%sAld+%d];' % (4 * stride * k + 16)]))
    return e
def unpad6(stride):
    """the edits that take the padded solution back to rows of 128 floats"""
    return [(new[0], [old]) for old, new in pad6(stride)]
B6pad = dict(B6, smem='(132+128)*8*4')
puzzle(id='06-pad', lesson=6, title='Pad the transposed A tile', **B6pad, pre=pad6(132),
    start=unpad6(132),
    checks=['verified | float4 reads of As need rows that stay 16-byte aligned: pad by a multiple of 4 floats, and move every read and Bs with the rows', 'conflicts store-tile <= 0 | two lanes store the two float4 halves of one row of A into rows aCol and aCol+4 of As: with rows of 128 floats (512 bytes) both land in the same bank. Pad each row of As by a few floats'],
    hints=['The conflict is in @store-tile: lanes 2r and 2r+1 write As[aCol][r] and As[aCol+4][r].',
           'A row of 128 floats is a multiple of 32 banks; a row of 132 is not, and keeps float4 reads 16-byte aligned.',
           'Rows of 132 floats: the store offsets, the read offsets in @inner-loop (528 per k), Bs after 8 x 132 floats, and smem (132+128)*8*4.'],
    goal="""Lesson 6 stores A transposed: a thread's float4 of A goes down four rows of
As. The two lanes that share a row of A write the same bank, 2-way bank
conflicts on every store. Pad the rows of As so that the stores are
conflict-free, and keep everything that reads As (and Bs after it) right.
The launch already gives (132+128)*8*4 bytes of shared memory.""",
    variants=[
        ('the unpadded original', unpad6(132), 'conflicts: the same bank'),
        ('one float of padding', [(a[1][0], [b[1][0]]) for a, b in zip(pad6(132), pad6(129))], 'verified: misaligned'),
        ('the reads not moved', [(new[0], [old]) for old, new in pad6(132)[5:]], 'verified: C is wrong'),
    ])

# ---------------------------------------------------------------- lesson 8 (swizzle)
unswizzle = [('xor.b32         %x, %ldCol, %ldKey;', ['mov.b32         %x, %ldCol;']),
             ('xor.b32         %x, %ldCol, %ldKey;', ['mov.b32         %x, %ldCol;']),
             ('xor.b32         %y, %y, %ldKey;', []),
             ('xor.b32         %y, %y, %ldKey;', [])]

# ---------------------------------------------------------------- lesson 7
B7 = dict(base='ptx/07_warptile.ptx', entry='sgemm_warptile', grid='N/128,M/128', block='128', smem='3*((128+128)*16*4+3*32)',
          sizes='128 256,128,64')
puzzle(id='07-warp-index', lesson=7, title='Which warp tile, which lane', **B7,
    start=[('shr.u32            %wRow, %warp, 1;', ['shr.u32            %wRow, %warp, 2;']),
           ('and.b32            %wCol, %warp, 1;', ['and.b32            %wCol, %warp, 3;'])],
    checks=['verified | the 4 warps tile the 128 x 128 block as 2 rows x 2 columns of 64 x 64 warp tiles: wRow = warp / 2, wCol = warp % 2'],
    hints=['BM/WM = 128/64 = 2 warp rows, BN/WN = 128/64 = 2 warp columns.',
           'warp = t / 32 runs 0..3; a row of warp tiles holds 2 of them.',
           'shr.u32 %wRow, %warp, 1; and.b32 %wCol, %warp, 1;'],
    goal='''In lesson 7 each of the block's 4 warps owns a 64 x 64 warp tile of the
128 x 128 block tile. This copy places the warps as if the block were one
row of 4 warp tiles. Fix the two lines of `@index` that place a warp.''',
    variants=[
        ('every warp in row 0', [('shr.u32            %wRow, %warp, 1;', ['shr.u32            %wRow, %warp, 2;'])], 'verified: C is wrong'),
        ('the lane grid 4 x 8', [('shr.u32            %ty, %lane, 2;', ['shr.u32            %ty, %lane, 3;']), ('and.b32            %tx, %lane, 3;', ['and.b32            %tx, %lane, 7;'])], 'verified:'),
        ('the warp from the lane', [('shr.u32            %warp, %t, 5;', ['shr.u32            %warp, %t, 3;'])], 'verified:'),
    ])

puzzle(id='07-frag-index', lesson=7, title="A lane's fragment in the warp tile", **B7,
    start=[('shl.b32            %r, %wRow, 6;', ['shl.b32            %r, %wRow, 5;'])],
    checks=['verified | a lane\'s fragment starts at As[k][wRow*64 + ty*4] (a warp tile covers 64 rows of A: 64 floats of each row of As) and Bs[k][wCol*64 + tx*4] (64 columns of Bs), in bytes', 'conflicts inner-loop <= 0'],
    hints=['The comment above @frag-index gives the formula.', 'wRow*64: a shift by 6.', 'shl.b32 %r, %wRow, 6;'],
    goal='''The fragment reads of lesson 7 start at As[k][wRow*64 + ty*4] and
Bs[k][wCol*64 + tx*4]. This copy gets the warp's row offset wrong. Fix
`@frag-index` so C is right and the shared loads stay conflict-free.''',
    variants=[
        ('ty times 8', [('shl.b32            %s, %ty, 2;', ['shl.b32            %s, %ty, 3;'])], 'verified:'),
        ('B in warp columns of 32', [('shl.b32            %r, %wCol, 6;', ['shl.b32            %r, %wCol, 5;'])], 'verified:'),
        ('bytes forgotten', [('mov.u32            %sAld, smem;', ['mov.u32            %sAld, smem;', 'shr.u32            %r, %r, 2;'])], 'verified:'),
    ])

# ---------------------------------------------------------------- lesson 8
B8 = dict(base='ptx/08_mma.ptx', entry='hgemm_mma', grid='N/256,M/128', block='256', smem='4*(128*32+32*256)*2',
          dtype='f16', sizes='128,256,64 256,256,96')
puzzle(id='08-ldmatrix-rows', lesson=8, title='ldmatrix row addresses', **B8,
    start=[('and.b32         %x, %lane, 15;', ['and.b32         %x, %lane, 7;'])],
    checks=['verified | for ldmatrix.x4 lanes 8j..8j+7 give the 8 row addresses of matrix j: lanes 0-15 rows 0-15 of the left half, lanes 16-31 the same rows of the right half',
            'conflicts ldmatrix <= 0 | the 8 rows of one matrix must sit in 8 different groups of 4 banks: the swizzle (the chunk XOR row bits) spreads them, on the read as on the write'],
    hints=['Matrix 0 is rows 0-7, matrix 1 rows 8-15 (k 0-7), matrices 2 and 3 the same rows at k 8-15.',
           'So lane l points at row l % 16, chunk l / 16.',
           'and.b32 %x, %lane, 15;'],
    goal='''In lesson 8 each lane of a warp hands `ldmatrix.x4` the address of one row of a
16 x 16 block of A. This copy gives lanes 8-15 the rows of lanes 0-7. Fix the
row (the first lines after "Read map for ldmatrix.x4").''',
    variants=[
        ('chunk from lanes 8-15', [('shr.u32         %y, %lane, 4;', ['shr.u32         %y, %lane, 3;'])], 'verified: C is wrong'),
        ('rows 32 bytes apart', [('mad.lo.u32      %ldA0, %x, 64, %y;', ['mad.lo.u32      %ldA0, %x, 32, %y;'])], 'verified: C is wrong'),
        ('the swizzle forgotten on the read', [('xor.b32         %y, %y, %ldKey;', [])], 'verified: C is wrong'),
    ])

puzzle(id='08-c-fragment', lesson=8, title='Where the mma leaves C', **B8,
    start=[('mad.lo.u32      %x, %warpM, 64, %grp;', ['mad.lo.u32      %x, %warpM, 64, %quad;']),
           ('mad.lo.u32      %y, %quad, 2, %y;           // column of c0', ['mad.lo.u32      %y, %grp, 2, %y;           // column of c0'])],
    checks=['verified | C element i of mma.m16n8k16 sits at row groupID + 8*(i/2), column 2*t + (i%2), with groupID = lane/4 and t = lane%4'],
    hints=['groupID = lane / 4 (%grp) picks the row, t = lane % 4 (%quad) the pair of columns.',
           'c0, c1 are row groupID; c2, c3 row groupID + 8.',
           'row: %warpM*64 + %grp; column: %quad*2.'],
    goal='''After the last `mma.sync` each lane holds 4 floats of every 16 x 8 tile of C.
This copy's epilogue writes them where the lane's row and column would be if
groupID and t were swapped. Fix the two lines after `EPILOGUE:`.''',
    variants=[
        ('c2, c3 one row down', [('mul.wide.u32    %rowStepC, %n, 32;          // 8 rows of C in bytes', ['mul.wide.u32    %rowStepC, %n, 4;          // 8 rows of C in bytes'])], 'verified: C is wrong'),
        ('columns of 1', [('mad.lo.u32      %y, %quad, 2, %y;           // column of c0', ['mad.lo.u32      %y, %quad, 1, %y;           // column of c0'])], 'verified:'),
        ('c0 and c2 swapped', [('st.global.v2.f32 [%pC], {%acc0, %acc1};', ['st.global.v2.f32 [%pC], {%acc2, %acc3};']), ('st.global.v2.f32 [%t64], {%acc2, %acc3};', ['st.global.v2.f32 [%t64], {%acc0, %acc1};'])], 'verified: C is wrong'),
    ])

puzzle(id='08-cp-async-wait', lesson=8, title='A cp.async ring: commit and wait', **B8,
    start=[('cp.async.wait_group 2;', ['cp.async.wait_group 3;']), ('cp.async.wait_group 2;', ['cp.async.wait_group 3;'])],
    checks=['verified | with 4 stages, 3 tiles are in flight: wait until at most 2 groups are pending, so the oldest tile has landed',
            'race | cp.async.wait_group waits only for this thread\'s own copies: the bar.sync after it makes every thread\'s copies visible to the block before ldmatrix reads them'],
    hints=['Each tile is one commit group; the prologue commits 3.',
           'cp.async.wait_group N waits until at most N of this thread\'s groups are still pending.',
           'cp.async.wait_group 2; then bar.sync 0; (both places).'],
    goal='''Lesson 8 keeps a 4-stage ring of tiles in shared memory, filled by cp.async:
one commit group per tile, 3 in flight. Before a tile is read, the thread
waits for its copies and the block meets at a barrier. This copy waits for
too little. Fix the wait counts (two places).''',
    variants=[
        ('no wait at all in the loop', [('cp.async.wait_group 2;', ['cp.async.wait_group 2;']), ('cp.async.wait_group 2;', [])], 'verified: C is wrong'),
        ('the barrier after the wait forgotten', [('bar.sync 0;', ['bar.sync 0;']), ('bar.sync 0;', [])], 'race: shared-memory race'),
        ('no commit in the loop', [('cp.async.commit_group;', ['cp.async.commit_group;']), ('cp.async.commit_group;', ['cp.async.commit_group;']), ('cp.async.commit_group;', ['cp.async.commit_group;']), ('cp.async.commit_group;', [])], 'verified:'),
    ])

puzzle(id='08-swizzle', lesson=8, title='Swizzle instead of padding', **B8,
    start=unswizzle,
    checks=['verified', 'conflicts ldmatrix <= 0 | an ldmatrix reads 8 rows at the same column: rows 64 bytes (A) or 512 bytes (B) apart fall into the same banks. XOR the 16-byte chunk with a few bits of the row, the same way where cp.async writes and where ldmatrix reads'],
    hints=['The padding of lesson 3 would cost shared memory and 16-byte alignment; a XOR of the chunk index costs neither.',
           'A: chunk ^ ((row >> 1) & 3) (two 64-byte rows share a 128-byte line); B: chunk ^ (k & 7).',
           'Four places: the A and B copy maps (xor.b32 %x, %ldCol, %ldKey) and the A and B read maps (xor.b32 %y, %y, %ldKey).'],
    goal="""This copy of lesson 8's kernel stores its tiles in shared memory row after
row, unswizzled: right, but every ldmatrix of a 16-byte column of 8 rows
hits the same banks. Swizzle the chunks (as the comment of `@swizzle` says)
on both sides so that the ldmatrix loads are conflict-free.""",
    variants=[
        ('the unswizzled original', unswizzle, 'conflicts: XOR the 16-byte chunk'),
        ('swizzled on the write only', unswizzle[2:], 'verified: C is wrong'),
        ('swizzled on the read only', unswizzle[:2], 'verified: C is wrong'),
    ])

# ---------------------------------------------------------------- lessons 9-11 (Hopper)
def ln(path, prefix, nth=0):
    """The nth trimmed line of a kernel that starts with prefix: an edit's '- LINE', comment and all."""
    hits = [l.strip() for l in open(path).read().split('\n') if l.strip().startswith(prefix)]
    return hits[nth]

def entry_only(text, entry):
    """A module's header and one of its entries (the others left out: the student edits one kernel)."""
    i = text.index('.visible .entry')
    j = text.index('.visible .entry %s(' % entry)
    k = text.find('.visible .entry', j + 1)
    return text[:i] + text[j:k if k >= 0 else len(text)].rstrip('\n') + '\n'

K9 = 'ptx/09_wgmma.ptx'
B9 = dict(base=K9, entry='hgemm_wgmma', grid='persistent', block='384', smem='4*(128*64+64*256)*2+2*2*64*32*4+2*4*8+1024',
          dtype='f16', args='tmap:A:64:128:128B tmap:B:64:64:128B tmap:C:32:64:128B M N K', sizes='128,256,384')
XTX9 = ln(K9, 'mbarrier.arrive.expect_tx')
def expect9(n):
    return [(XTX9, ['mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%full], %d;' % n])]

puzzle(id='09-expect-tx', lesson=9, title='The bytes a stage brings', **B9,
    start=[(XTX9, ['// TODO: the bytes the copies below bring (this counts elements)',
                   'mbarrier.arrive.expect_tx.shared::cta.b64 _, [%full], 24576;'])],
    checks=['verified | a full barrier completes its phase when its arrivals and its tx-count both reach 0: expect_tx must name exactly the bytes the stage\'s copies bring, A\'s 128 x 64 and B\'s 64 x 256 f16 at 2 bytes an element'],
    hints=['Count what lands in one stage: one box of A (64 x 128) and four boxes of B (64 x 64).',
           'An f16 is 2 bytes: the count is bytes, not elements.',
           'mbarrier.arrive.expect_tx.shared::cta.b64 _, [%full], 49152;'],
    goal="""The producer thread arrives on a stage's `full` mbarrier with `expect_tx`:
the phase completes only when the bytes it names have landed. This copy
counts the stage in elements. Make the count right, so that the consumers
neither read a tile before it lands nor wait for bytes no copy brings.""",
    variants=[
        ('elements, not bytes', expect9(24576), 'verified: before the TMA copy'),
        ('A only', expect9(16384), 'verified: deadlock'),
        ('two stages', expect9(98304), 'verified: deadlock'),
    ])

PW9 = ln(K9, 'xor.b32         %x, %phase, 1;')
FLIP9 = ln(K9, '@%p xor.b32     %phase, %phase, 1;')
CW9 = ln(K9, 'mbarrier.try_wait.parity.shared::cta.b64 %p, [%full], %phase;')
puzzle(id='09-parity', lesson=9, title='Phase parity on a ring of mbarriers', **B9,
    start=[(PW9, ['mov.b32         %x, %phase;                // TODO: the parity a free slot shows'])],
    checks=['verified | try_wait.parity P returns once the phase of parity P has completed. A fresh empty barrier has completed none, yet every slot is free: the producer waits on the parity before (phase ^ 1); both sides flip phase as the ring wraps'],
    hints=['At the first pass the empty barriers are fresh: no phase has completed, yet every slot is free.',
           'A fresh barrier counts as having completed the phase before phase 0, of parity 1.',
           'xor.b32 %x, %phase, 1; before the producer\'s try_wait (the consumers wait on %phase itself).'],
    goal="""Lesson 9's ring: the producer waits on a stage's `empty` mbarrier until
both consumers have released it, the consumers wait on its `full` mbarrier
until its bytes have landed, and each side flips its phase bit each time the
ring wraps (K = 384: 6 k-tiles on a ring of 4 stages). This copy makes
the producer wait on the wrong parity. Fix it.""",
    variants=[
        ('the producer waits on its own parity', [(PW9, ['mov.b32 %x, %phase;'])], 'verified: deadlock'),
        ('the producer never flips its phase', [(FLIP9, [])], 'verified: more arrivals than its count'),
        ('the consumers wait on the other parity', [(CW9, ['xor.b32 %x, %phase, 1;', 'mbarrier.try_wait.parity.shared::cta.b64 %p, [%full], %x;'])], 'verified: before the TMA copy'),
    ])

HI9 = ln(K9, 'mov.u32         %hi, 0x40000040;')
def hi9(v):
    return [(HI9, ['mov.u32         %%hi, %s;' % v])]
puzzle(id='09-descriptor', lesson=9, title='A wgmma matrix descriptor', **B9,
    start=[(HI9, ['mov.u32         %hi, 0;                    // TODO: the stride byte offset (bits 32-45), the swizzle (62-63)'])],
    checks=['verified | the TMA wrote every tile with the 128-byte swizzle, in groups of 8 rows of 128 bytes: the descriptor must say the same, stride byte offset 1024 >> 4 = 64 in bits 32-45 and mode 1 (128-byte) in bits 62-63, in the high word 0x40 and 1 << 30'],
    hints=['The high word holds bits 32-63: the stride byte offset >> 4 from its bit 0, the swizzle mode in its bits 30-31.',
           'Eight 128-byte rows make one swizzle pattern: the next 8 rows start 1024 bytes on.',
           'mov.u32 %hi, 0x40000040;'],
    goal="""A wgmma reads A and B from shared memory through 64-bit matrix
descriptors: the start address, the leading and stride byte offsets (each
>> 4) and the swizzle mode, each in its own bit field. This copy leaves the
high word (the stride and the swizzle) zero. Set it for the tiles the TMA
wrote with the 128-byte swizzle.""",
    variants=[
        ('no swizzle', hi9('0x00000040'), 'verified: C is wrong'),
        ('a stride of 512 bytes', hi9('0x40000020'), 'verified: C is wrong'),
        ('the 64-byte swizzle', hi9('0x80000040'), 'verified: C is wrong'),
    ])

WF9 = ln(K9, 'wgmma.fence.sync.aligned;')
WG1 = ln(K9, 'wgmma.wait_group.sync.aligned 1;')
WG0 = ln(K9, 'wgmma.wait_group.sync.aligned 0;')
puzzle(id='09-wgmma-wait', lesson=9, title='wgmma: fence, commit, wait', **B9,
    start=[(WF9, ['// TODO: the accumulators were just touched by other instructions'])],
    checks=['verified | wgmma is asynchronous: wgmma.fence orders the registers other instructions touched before it, and only a wgmma.wait_group that retires a group frees its accumulators and its shared operands',
            'count wgmma wgmma.wait_group <= 1 | one wait per k-tile: wait_group 1 keeps one group in flight while the previous stage goes back to the producer'],
    hints=['The emulator names the line where a register or a shared tile is used while a wgmma still holds it.',
           'The first wgmma of a k-tile comes after a wgmma.fence.sync.aligned; a stage goes back to the producer only once the group reading it has retired.',
           'wgmma.fence.sync.aligned; before the first wgmma.mma_async (k16 slice 0).'],
    goal="""Lesson 9's consumers issue four wgmmas per k-tile as one group, keep one
group in flight while they hand the previous stage back, and wait for all of
them before the epilogue reads the accumulators. This copy lost the fence
before the first wgmma (ptxas would patch it: "warpgroup.arrive is injected
... by compiler", info C7519; the PTX ISA asks for it). Put the asynchronous
steps back in order.""",
    variants=[
        ('no wgmma.fence', [(WF9, [])], 'verified: no wgmma.fence.sync.aligned before it'),
        ('three groups in flight', [(WG1, ['wgmma.wait_group.sync.aligned 3;'])], 'verified: has not completed'),
        ('no wait before the epilogue', [(WG0, [])], 'verified: before a wgmma.wait_group retires it'),
        ('two waits in the loop', [(WG1, ['wgmma.wait_group.sync.aligned 1;', 'wgmma.wait_group.sync.aligned 0;'])], 'count: one wait per k-tile'),
    ])

K10 = 'ptx/10_cluster.ptx'
B10 = dict(base=K10, entry='gemm_cluster', grid='persistent', block='384', cluster='2',
           smem='3*(128*64+64*256)*2+128*256*2+2*3*8+1024', dtype='bf16', out='bf16',
           args='tmap:A:64:128:128B tmap:B:64:64:128B tmap:C:64:64:128B M N K', sizes='256,256,256')
MASK10 = ln(K10, 'mov.b16         %mask, 3;')
MC1 = ln(K10, 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster')
MC2 = ln(K10, '[%y], [%tmB, {%x, %kx}], [%full], %mask;')
RX10 = ln(K10, 'mul.lo.u32      %x, %rank, 128;')
RY10 = ln(K10, 'mad.lo.u32      %y, %rank, 16384, %sB;')
PLAIN = 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes'
P2 = '[%y], [%tmB, {%x, %kx}], [%full];'
STEP = ['add.u32 %x, %x, 64;', 'add.u32 %y, %y, 8192;']
def mask10(v):
    return [(MASK10, ['mov.b16         %%mask, %d;' % v])]
# every block loads all four boxes of B itself, lesson 9's way: right, but B read twice from L2
alone10 = [(RX10, ['mov.u32 %x, 0;']), (RY10, ['mov.u32 %y, %sB;']), (MC1, [PLAIN]), (MC2, [P2]),
           (MC1, [PLAIN]), (MC2, [P2] + STEP + [PLAIN, P2] + STEP + [PLAIN, P2])]
puzzle(id='10-multicast', lesson=10, title='Multicast B to both blocks of a cluster', **B10,
    start=[(MASK10, ['mov.b16         %mask, 1;                 // TODO: the blocks each copy lands in'])],
    checks=['verified | each block copies 2 of B\'s 4 boxes and expects the whole stage (49152 bytes): the other 2 boxes come from the partner, which sends them only with a ctaMask that names both blocks',
            'tma producer <= 0.67 | a block should read its A (16384 bytes) and half of B (16384) from L2 and land 49152: B read once for the pair and multicast to both blocks'],
    hints=['The ctaMask has a bit per block of the cluster (by %cluster_ctarank): the copy lands in every block whose bit is set.',
           'Both blocks of the pair multiply the same B tile; each fetches half of it for both.',
           'mov.b16 %mask, 3;'],
    goal="""In lesson 10 the two blocks of a cluster work on the same columns of C and
so need the same tile of B. Each fetches half of it (2 of the 4 boxes) with
`.multicast::cluster`: the copy lands in both blocks' shared memory at the
same offset and completes its bytes on both blocks' `full` barrier. This
copy's ctaMask sends each half to one block only. Fix the mask.""",
    variants=[
        ('only to itself', mask10(1), 'verified: deadlock'),
        ('only to block 1', mask10(2), 'verified: deadlock'),
        ('no multicast: every block loads all of B', alone10, 'tma: B read once for the pair'),
    ])

EMPTY10 = [ln(K10, 'mbarrier.init.shared::cta.b64 [%%bars+%d], 4;' % o) for o in (24, 32, 40)]
def empty10(n):
    return [(e, [e.replace('], 4;', '], %d;' % n, 1)]) for e in EMPTY10]
MAPA1 = ln(K10, '@%p mapa.shared::cluster.u32 %y, %x, 1;')
puzzle(id='10-empty', lesson=10, title='A stage freed by both blocks of a cluster', **B10,
    start=[(e, [e.replace('], 4;', '], 2;', 1).replace('two consumers in each of the two blocks', 'TODO: who frees a stage?')]) for e in EMPTY10],
    checks=['verified | a stage of B lands in both blocks, so it is refilled only once the consumers of both are done: each of the pair\'s 4 consumer warpgroups arrives on both blocks\' empty barrier (mapa), and the count is the arrivals that complete a phase'],
    hints=['Count the arrivals that reach one block\'s empty[s] in one pass of the ring: look at @release.',
           'Each consumer warpgroup (2 a block) arrives once on block 0\'s empty[s] and once on block 1\'s.',
           'mbarrier.init.shared::cta.b64 [%bars+24], 4; and the same for +32 and +40.'],
    goal="""In lesson 10 a block's producer may not refill a stage while the partner's
consumers still read B from it: its copies of B land in both blocks. So each
consumer warpgroup releases a stage on the `empty` mbarrier of both blocks
(`mapa` gives the partner's address). This copy initialises the empty
barriers with lesson 9's count. Give them the count that matches the
arrivals.""",
    variants=[
        ('lesson 9\'s count', empty10(2), 'verified: before the TMA copy'),
        ('every thread\'s arrival', empty10(8), 'verified: deadlock'),
        ('both arrivals on block 0', [(MAPA1, ['@%p mapa.shared::cluster.u32 %y, %x, 0;'])], 'verified: deadlock'),
    ])

FP10 = ln(K10, 'fence.proxy.async.shared::cta;')
puzzle(id='10-fence-proxy', lesson=10, title='stmatrix, then the copy engine', **B10,
    start=[(FP10, ['// TODO: the TMA store below reads what stmatrix wrote'])],
    checks=['verified | stmatrix writes through the generic proxy, the TMA store reads through the async proxy: every warp that wrote the staging tile runs fence.proxy.async.shared::cta after its writes, before the barrier that lets one thread issue the store'],
    hints=['The emulator names the bytes, the warp that wrote them and the line.',
           'A fence orders only its own warp\'s writes: all four warps of the warpgroup need one, and the barrier after it.',
           'fence.proxy.async.shared::cta; just before bar.sync %bid, 128; (the one before the stores).'],
    goal="""Lesson 10's epilogue converts the accumulators to bf16, writes them swizzled
into a staging tile with `stmatrix`, and one thread hands the tile to the
copy engine with `cp.async.bulk.tensor` stores. The copy engine is another
proxy: it may not see generic writes without a proxy fence. Put the fence
where every writer executes it.""",
    variants=[
        ('no fence', [(FP10, [])], 'verified: with no fence.proxy.async after'),
        ('only the leader fences', [(FP10, ['@%leader fence.proxy.async.shared::cta;'])], 'verified: with no fence.proxy.async after'),
        ('a generic fence', [(FP10, ['fence.acq_rel.cta;'])], 'verified: with no fence.proxy.async after'),
    ])

K11 = 'ptx/11_fp8.ptx'
B11 = dict(base=K11, entry_only=True, entry='gemm_e4m3', grid='persistent', block='384',
           smem='3*(128*128+256*128)+2*128*256+2*3*8+1024', dtype='e4m3', out='bf16', bmajor='k',
           args='tmap:A:128:128:128B tmap:B:128:64:128B tmap:C:64:64:128B M N K scale:A scale:B',
           sizes='128,256,512')
SC11 = ln(K11, 'mul.f32         %scale, %scale, %scaleB;')
FAC11 = ln(K11, '// The epilogue\'s factor')
EPI11 = [l for l in (x.strip() for x in entry_only(open(K11).read(), 'gemm_e4m3').split('\n'))
         if l.startswith('mul.f32 %d')]
puzzle(id='11-fp8-scales', lesson=11, title='FP8 scales in the epilogue', **B11,
    start=[(FAC11, ['// The epilogue\'s factor.']), (SC11, ['// TODO: the factor the accumulators need'])],
    checks=['verified | A\'s real values are its stored e4m3 values x scale_a, B\'s x scale_b, so the accumulated products are the real ones / (scale_a x scale_b): the epilogue multiplies each accumulator by scale_a x scale_b',
            'count epilogue mul.f32 <= 32 | one multiply per accumulator: fold scale_a x scale_b into one factor once per thread, before the tile loop'],
    hints=['The kernel loads both scales into %scale and %scaleB; the epilogue multiplies by %scale alone.',
           'sum (a_i sa)(b_i sb) = sa sb sum a_i b_i.',
           'mul.f32 %scale, %scale, %scaleB; after the two ld.param.f32.'],
    goal="""FP8 keeps a per-tensor scale beside each input: the real value is the stored
e4m3 value times the scale (lesson 11). The tensor cores multiply the stored
values, so the scales are applied once, in the epilogue. This copy loads
both scales but applies only scale_a. Fix the factor (one multiply per
accumulator).""",
    variants=[
        ('scale_a only', [(SC11, [])], 'verified: C is wrong'),
        ('divided by scale_b', [(SC11, ['div.rn.f32 %scale, %scale, %scaleB;'])], 'verified: C is wrong'),
        ('two multiplies per accumulator', [(SC11, [])] + [(l, [l, l.replace('%scale;', '%scaleB;')]) for l in EPI11],
         'count: one multiply per accumulator'),
    ])

BX11 = [ln(K11, '[%y], [%tmB, {%kx, %x}], [%full];', i) for i in range(4)]
OFF11 = ln(K11, 'add.u32         %y, %sB, 8192;')
BC11 = ln(K11, '// B: 4 boxes of 64 of its N x K rows')
N64 = ln(K11, 'add.u32         %x, %n0, 64;')
puzzle(id='11-kmajor-b', lesson=11, title='FP8 wants a K-major B', **B11,
    start=[(BC11, ['// B: 4 boxes of 64 rows. TODO: a box\'s coordinates, innermost first'])]
          + [(b, ['                [%y], [%tmB, {%x, %kx}], [%full];']) for b in BX11],
    checks=['verified | an 8-bit wgmma reads B K-major only, so B is stored N x K: its tensor map\'s inner dimension is K, and a TMA copy\'s coordinates go innermost first, {k, n}'],
    hints=['Look at the tensor map of B in the goal: box 128 (K, bytes) x 64 (rows of N).',
           'The coordinates of cp.async.bulk.tensor are innermost first: A\'s are {%kx, %m0}.',
           '[%y], [%tmB, {%kx, %x}], [%full]; for the four boxes of B.'],
    goal="""A wgmma on 8-bit inputs takes no transpose: both A and B must be K-major in
shared memory (128 bytes of K per row). So lesson 11 stores B as N x K
(`bmajor: k`, tensor map `tmap:B:128:64`: 128 bytes of K by 64 rows of
N) and the producer copies 4 boxes of 64 rows of N. This copy still gives
B's coordinates in lesson 10's order (n, k). Fix the four copies.""",
    variants=[
        ('lesson 10\'s order', [(b, ['[%y], [%tmB, {%x, %kx}], [%full];']) for b in BX11], 'verified: C is wrong'),
        ('the first box in lesson 10\'s order', [(BX11[0], ['[%y], [%tmB, {%x, %kx}], [%full];'])], 'verified: C is wrong'),
        ('boxes 4096 bytes apart', [(OFF11, ['add.u32 %y, %sB, 4096;'])], 'verified: C is wrong'),
        ('boxes 32 rows apart', [(N64, ['add.u32 %x, %n0, 32;'])], 'verified: C is wrong'),
    ])

K11F = 'ptx/11_formats.ptx'
MMA_TF32 = 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32'
# the lo x hi products (A's lo, B's hi) of the four unrolled copies, in file order
LOHI = [l for l in (x.strip() for x in entry_only(open(K11F).read(), 'gemm_3xtf32').split('\n'))
        if l.startswith(MMA_TF32) and '{%alo' in l and '{%bhi' in l]
assert len(LOHI) == 64
puzzle(id='11-3xtf32', lesson=11, title='3xTF32: which products', base=K11F, entry_only=True, entry='gemm_3xtf32',
    grid='N/128,M/128', block='256', smem='98304', sizes='128,128,96 256,128,64',
    start=[(l, ['// TODO: the lo x hi products of this slice'] if i % 16 == 0 else []) for i, l in enumerate(LOHI)],
    checks=['verified | x = hi + lo with hi and lo tf32: x.y = hi.hi + hi.lo + lo.hi + lo.lo. Each of the three large terms is needed for f32 accuracy: one left out costs about 2^-12 of each product, TF32\'s own error',
            'count mma-3x mma <= 48 | lo.lo is at most 2^-22 of a product, below f32\'s rounding: a fourth mma per product costs a third more tensor-core time for nothing'],
    hints=['The split makes %ahi/%alo (A) and %bhi/%blo (B); the mmas of @mma-3x multiply pairs of them.',
           'Three products per tile: hi.lo, lo.hi and hi.hi (the small ones first). Which is missing?',
           'After the 16 hi.lo mmas of each copy, 16 more with {%alo...} from A and {%bhi...} from B (four copies, one per k slice).'],
    goal="""3xTF32 recovers f32 accuracy from TF32 tensor cores: each f32 is split
into hi = tf32(x) and lo = tf32(x - hi), and each product into the terms
that matter. This copy of lesson 11's gemm_3xtf32 multiplies only two of
them: C is off by about TF32's own error. Add the missing products (16
mmas in each of the four unrolled k slices, marked TODO) and no more.""",
    variants=[
        ('two products', [(l, []) for l in LOHI], 'verified: C is wrong'),
        ('hi.lo twice', [(l, [l.replace('%alo', '%ahi').replace('%bhi', '%blo')]) for l in LOHI], 'verified: C is wrong'),
        ('lo.lo instead of lo.hi', [(l, [l.replace('%bhi', '%blo')]) for l in LOHI], 'verified: C is wrong'),
        ('four products', [(l, [l, l.replace('%bhi', '%blo')]) for l in LOHI], 'count: below f32\'s rounding'),
    ])

def main():
    for p in P:
        pid = p['id']
        base = open(p['base']).read()
        if p.get('entry_only'):
            base = entry_only(base, p['entry'])
        sol = apply(base, p.get('pre', []))
        sol = wrap(sol, p.get('regions', []))
        first = sol.split('\n', 1)
        sol = '// puzzles/solutions/%s.ptx: the reference solution of puzzle %s (from %s).\n%s' % (pid, pid, p['base'], sol)
        start = apply(sol, p['start'])
        start = start.replace('// puzzles/solutions/%s.ptx: the reference solution of puzzle %s' % (pid, pid),
                              '// puzzles/%s.ptx: puzzle %s (ptxtutor puzzle %s)' % (pid, pid, pid), 1)
        open('ptx/puzzles/solutions/%s.ptx' % pid, 'w').write(sol)
        open('ptx/puzzles/%s.ptx' % pid, 'w').write(start)
        md = '---\nlesson: %d\ntitle: %s\nstart: ptx/puzzles/%s.ptx\nsolution: ptx/puzzles/solutions/%s.ptx\n' % (p['lesson'], p['title'], pid, pid)
        md += 'entry: %s\ngrid: %s\nblock: %s\n' % (p['entry'], p['grid'], p['block'])
        if p.get('smem', '0') != '0':
            md += 'smem: %s\n' % p['smem']
        for key in ('dtype', 'out', 'bmajor', 'cluster', 'args'):
            if p.get(key):
                md += '%s: %s\n' % (key, p[key])
        md += 'sizes: %s\n' % p['sizes']
        # the parser's fields (src/course/puzzle.h): a why and a hint of at most 255 characters
        for c in p['checks']:
            assert len(c.split('|', 1)[-1].strip()) < 256, '%s: a check\'s why over 255 characters' % pid
        for h in p['hints']:
            assert len(h) < 256, '%s: a hint over 255 characters' % pid
        md += ''.join('check: %s\n' % c for c in p['checks'])
        md += ''.join('hint: %s\n' % h for h in p['hints'])
        md += '---\n' + p['goal'].strip() + '\n'
        open('lessons/puzzles/%s.md' % pid, 'w').write(md)
        v = '# Wrong solutions of puzzle %s, as edits of its reference solution (scripts/puzzles_gen.py):\n' % pid
        v += '# each "- LINE" of the solution (trimmed, in order) becomes the "+ LINE"s after it;\n'
        v += '# "expect: CHECK: TEXT" is the failing check and what its message must say.\n'
        for name, edits, expect in p['variants']:
            v += '\nvariant: %s\n%sexpect: %s\n' % (name, edits_text(edits), expect)
        open('tests/puzzles/%s.variants' % pid, 'w').write(v)

main()
