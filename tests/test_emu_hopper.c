/* test_emu_hopper: the emulator's Hopper machinery against hand-worked PTX ISA cases (tests/emu/hopper_*.ptx) and broken kernels (tests/emu/bug_*.ptx) that each get their diagnostic with the line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "base/util.h"
#include "course/lesson.h"
#include "emu/emu.h"
#include "emu/emu_hopper.h"
#include "emu/emu_internal.h"
#include "model/devices.h"
#include "model/model.h"
#include "run/launch.h"

/* A is 32 rows x 64 columns of 16-bit elements, element i holding i; C has
 * the same shape, filled with 0xee bytes; the maps have 64x8 boxes, 128B swizzle. */
enum { ROWS = 32, COLS = 64, BOXR = 8 };

typedef struct {
	uint16_t A[ROWS * COLS], C[ROWS * COLS * 2];
	emu_opcount cnt[128];
	char err[512];
	emu_module *m;
	unsigned long long races;
	run_error race;
} hrun;

static int run_file(hrun *h, const char *file, unsigned block, unsigned cluster, int tmap_buf, const uint32_t *u32s)
{
	char path[512];
	util_path(path, sizeof path, file);
	for (int i = 0; i < ROWS * COLS; i++)
		h->A[i] = (uint16_t)i;
	memset(h->C, 0xee, sizeof h->C);
	memset(h->cnt, 0, sizeof h->cnt);
	h->m = emu_module_load(path, NULL, h->err, sizeof h->err);
	if (!h->m)
		return -100;
	const emu_kernel *k = &h->m->k[0];
	assert_true(k->nops <= 128);
	emu_buffer bufs[3] = {{(uint8_t *)h->A, sizeof h->A}, {(uint8_t *)h->A, sizeof h->A},
			      {(uint8_t *)h->C, sizeof h->C}};
	emu_tmap tm;
	const unsigned box[2] = {COLS, BOXR};
	emu_tmap_build(&tm, tmap_buf, 2, ROWS, COLS, box, 3);
	uint8_t param[512] = {0};
	int nu = 0;
	for (int i = 0; i < k->nparams; i++) {
		const emu_param *p = &k->params[i];
		uint64_t c = 3ULL << EMU_GLOBAL_SHIFT;
		if (p->bytes == 128)
			memcpy(param + p->offset, &tm, sizeof tm);
		else if (p->bytes == 8)
			memcpy(param + p->offset, &c, 8);
		else
			memcpy(param + p->offset, &u32s[nu++], 4);
	}
	emu_launch L = {.k = k, .path = file, .grid = {cluster, 1, 1}, .block = {block, 1, 1}, .cluster = {cluster, 1, 1},
			.param = param, .bufs = {bufs[0], bufs[1], bufs[2]}, .nbufs = 3, .cnt = h->cnt,
			.max_warp_inst = 1000000};
	int rc = emu_exec(&L, h->err, sizeof h->err);
	h->races = L.races;
	h->race = L.race;
	return rc;
}

static void done(hrun *h)
{
	emu_module_free(h->m);
	free(h);
}

/* Where a 128B-swizzled box of 128-byte rows puts element (r, c): the byte's
 * 16-byte chunk XOR the row's index mod 8 (the CUDA driver's
 * CU_TENSOR_MAP_SWIZZLE_128B, CUTLASS's Swizzle<3,4,3>), worked by hand. */
static unsigned swz128(unsigned r, unsigned c)
{
	unsigned byte = 2 * c;
	return r * 128 + ((byte / 16) ^ (r % 8)) * 16 + byte % 16;
}

/* A's element at (row, col), 0 outside A as a TMA load fills it. */
static uint16_t a_at(long row, long col)
{
	return row < ROWS && col < COLS ? (uint16_t)(row * COLS + col) : 0;
}

/* The counts of the first op of a code (and mod). */
static const emu_opcount *op_of(const hrun *h, int code, int mod)
{
	const emu_kernel *k = &h->m->k[0];
	for (int i = 0; i < k->nops; i++)
		if (k->ops[i].code == code && k->ops[i].mod == mod)
			return &h->cnt[i];
	fail_msg("no op %d.%d", code, mod);
	return NULL;
}

/* The line of a file that holds text first. */
static int line_of(const char *file, const char *text)
{
	char path[512], buf[512];
	util_path(path, sizeof path, file);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	int n = 0, at = 0;
	while (!at && fgets(buf, sizeof buf, f)) {
		n++;
		if (strstr(buf, text))
			at = n;
	}
	fclose(f);
	assert_true(at > 0);
	return at;
}

/* emu_tmap_copy element by element, as a 2D box is defined: element (r, c) of the box
 * at shared offset (r * box0 + c) * elem, swizzled, and tensor element (y + r, x + c)
 * if inside the tensor (a load's zero otherwise), which must lie in the buffer. */
static int tmap_reference(const emu_tmap *t, int x, int y, uint8_t *g, uint64_t gbytes, uint8_t *smem, int store,
			  long long *bad)
{
	for (unsigned r = 0; r < t->box[1]; r++)
		for (unsigned c = 0; c < t->box[0]; c++) {
			uint8_t *sp = smem + emu_swizzle((r * t->box[0] + c) * t->elem, t->swizzle);
			long long col = (long long)x + c, row = (long long)y + r;
			if (col < 0 || row < 0 || (uint64_t)col >= t->dims[0] || (uint64_t)row >= t->dims[1]) {
				if (!store)
					memset(sp, 0, t->elem);
				continue;
			}
			uint64_t off = (uint64_t)row * t->strides[1] + (uint64_t)col * t->strides[0];
			if (off + t->elem > gbytes) {
				*bad = (long long)off;
				return -1;
			}
			if (store)
				memcpy(g + off, sp, t->elem);
			else
				memcpy(sp, g + off, t->elem);
		}
	return 0;
}

/* The copy a row of the box at a time against the reference: boxes inside the tensor,
 * across each of its edges and outside it, every swizzle and element size, loads and
 * stores, and a buffer too short for the tensor (the fault at the same first byte). */
static void test_tmap_copy_rows(void **st)
{
	(void)st;
	enum { ROWS_ = 40, COLS_ = 72, GB = ROWS_ * COLS_ * 4 };
	static uint8_t g1[GB], g2[GB], s1[8192], s2[8192];
	const int xs[] = {0, 8, -8, 64, 70, -100, 200}, ys[] = {0, 3, -5, 36, 39};
	int cases = 0;
	for (int elem = 1; elem <= 4; elem *= 2)
		for (int swz = 0; swz < 4; swz++)
			for (int store = 0; store < 2; store++)
				for (int short_buf = 0; short_buf < 2; short_buf++)
					for (size_t xi = 0; xi < sizeof xs / sizeof *xs; xi++)
						for (size_t yi = 0; yi < sizeof ys / sizeof *ys; yi++) {
							emu_tmap t;
							const unsigned box[2] = {(unsigned)(64 / elem), 8};
							emu_tmap_build(&t, 0, elem, ROWS_, COLS_, box, swz);
							uint64_t gbytes = (uint64_t)ROWS_ * COLS_ * elem - (short_buf ? 100 : 0);
							for (int i = 0; i < GB; i++)
								g1[i] = g2[i] = (uint8_t)(i * 7 + 3);
							for (int i = 0; i < 8192; i++)
								s1[i] = s2[i] = (uint8_t)(i * 5 + 1);
							emu_buffer buf = {g1, gbytes};
							const int32_t c[5] = {xs[xi], ys[yi]};
							char why[200] = "", want[200] = "";
							long long bad = 0;
							int rc = emu_tmap_copy(&t, c, &buf, s1, 0, store, why, sizeof why);
							int rrc = tmap_reference(&t, xs[xi], ys[yi], g2, gbytes, s2, store, &bad);
							if (rrc < 0)
								snprintf(want, sizeof want, "the tensor map reaches byte %lld of a "
									 "%llu-byte buffer", bad, (unsigned long long)gbytes);
							if (rc != rrc || strcmp(why, want) || memcmp(g1, g2, GB) || memcmp(s1, s2, 8192))
								fail_msg("elem %d swizzle %d %s at (%d, %d)%s: rc %d (want %d), '%s' "
									 "(want '%s'), or the bytes differ", elem, swz,
									 store ? "store" : "load", xs[xi], ys[yi],
									 short_buf ? ", short buffer" : "", rc, rrc, why, want);
							cases += rrc < 0;
						}
	assert_true(cases > 10); /* the short buffer's faults were among them */
}

/* Two boxes through one mbarrier, phases 0 and 1 waited for by parity; the
 * box at (32, 20) has its right half, the one at (32, 28) also its lower
 * half out of A: zeros. */
static void test_tma_swizzle_oob_two_phases(void **st)
{
	(void)st;
	hrun *h = calloc(1, sizeof *h);
	const uint32_t xy[2] = {32, 20};
	assert_int_equal(run_file(h, "tests/emu/hopper_tma.ptx", 32, 1, 0, xy), EMU_OK);
	for (unsigned round = 0; round < 2; round++)
		for (unsigned r = 0; r < BOXR; r++)
			for (unsigned c = 0; c < COLS; c++) {
				uint16_t got = h->C[(round * 1024 + swz128(r, c)) / 2];
				uint16_t want = a_at(20 + 8 * round + r, 32 + c);
				if (got != want)
					fail_msg("round %u (%u, %u): got %u, want %u", round, r, c, got, want);
			}
	/* a copy counts its box once from L2 and once into shared memory */
	assert_int_equal(op_of(h, OP_BULK, BK_LOAD)->bytes_l2, 2048);
	assert_int_equal(op_of(h, OP_BULK, BK_LOAD)->bytes_smem, 2048);
	done(h);
}

/* issue 40: hopper_tma.ptx with two warps, warp 1's lane 0 the producer:
 * without the bar.sync after the reads, its second copy refills the tile
 * that warp 0 read in the same phase (a write after read); with it, none.
 * (Warp 1's lanes read the bytes past the box.) */
static void test_tma_write_after_read(void **st)
{
	(void)st;
	char src[512];
	util_path(src, sizeof src, "tests/emu/hopper_tma.ptx");
	char *text = util_read_file(src, NULL, NULL, 0);
	assert_non_null(text);
	char *lead = strstr(text, "setp.eq.u32     %leader, %r1, 0;");
	assert_non_null(lead);
	memcpy(lead, "setp.eq.u32 %leader, %r1, 32;   ", 32); /* the same length */
	char *tile = strstr(text, "tile[1024]"); /* room for warp 1's lanes, which read past the box */
	assert_non_null(tile);
	memcpy(tile, "tile[2048]", 10);
	char path[128];
	snprintf(path, sizeof path, "/tmp/test_emu_hopper_war_%d.ptx", (int)getpid());
	const uint32_t xy[2] = {32, 20};
	for (int cut = 0; cut < 2; cut++) {
		if (cut) {
			char *bar = strstr(text, "\tbar.sync        0;                         // every lane");
			assert_non_null(bar);
			memcpy(bar, "\t//", 3); /* the line becomes a comment */
		}
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		hrun *h = calloc(1, sizeof *h);
		if (run_file(h, path, 64, 1, 0, xy) != EMU_OK)
			fail_msg("cut %d: %s", cut, h->err);
		if (!cut) {
			assert_int_equal(h->races, 0);
		} else {
			assert_true(h->races > 0);
			char want[160];
			snprintf(want, sizeof want, "shared-memory race (write after read): the TMA copy of warp 1 writes bytes 0..3 "
				 "that warp 0 read at line %d", line_of("tests/emu/hopper_tma.ptx", "ld.shared.v4.b32 {%r12"));
			if (!strstr(h->race.msg, want))
				fail_msg("want '%s', got '%s'", want, h->race.msg);
			assert_int_equal(h->race.line, line_of("tests/emu/hopper_tma.ptx", "cp.async.bulk.tensor"));
		}
		done(h);
	}
	unlink(path);
	free(text);
}

/* issue 40: race_tma_nowait.ptx as written (warp 1 waits on the mbarrier before it
 * reads the tile) is clean; without warp 1's wait, its read of the landed tile races,
 * named with the copy's line and the mbarrier. */
static void test_tma_read_without_wait(void **st)
{
	(void)st;
	const char *file = "tests/emu/race_tma_nowait.ptx";
	const uint32_t xy[2] = {32, 20};
	hrun *h = calloc(1, sizeof *h);
	assert_int_equal(run_file(h, file, 64, 1, 0, xy), EMU_OK);
	assert_int_equal(h->races, 0);
	done(h);
	char src[512], path[128];
	util_path(src, sizeof src, file);
	char *text = util_read_file(src, NULL, NULL, 0);
	assert_non_null(text);
	char *wait = strstr(text, "WAIT1:\n\tmbarrier.try_wait");
	assert_non_null(wait);
	wait = strchr(wait, '\n') + 1;
	memcpy(wait, "//", 2); /* the wait and its branch back become comments */
	memcpy(strchr(wait, '\n') + 1, "//", 2);
	snprintf(path, sizeof path, "/tmp/test_emu_hopper_nowait_%d.ptx", (int)getpid());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	h = calloc(1, sizeof *h);
	assert_int_equal(run_file(h, path, 64, 1, 0, xy), EMU_OK);
	char want[200];
	snprintf(want, sizeof want, "shared-memory race (async copy): warp 1 reads bytes 0..3 that the TMA copy issued at line %d "
		 "wrote, completing phase 0 of the mbarrier at smem+0x400, which warp 1 has not waited on",
		 line_of(file, "cp.async.bulk.tensor"));
	if (!h->races || !strstr(h->race.msg, want) || h->race.line != line_of(file, "ld.shared.v4.b32"))
		fail_msg("%llu races, line %d: '%s'; want '%s'", h->races, h->race.line, h->race.msg, want);
	done(h);
	unlink(path);
	free(text);
}

/* Each CTA of a pair multicasts half: both hold both halves, the partner's
 * copy completing bytes on this CTA's mbarrier; the arrivals through mapa
 * let both finish. */
static void test_multicast_remote_arrive(void **st)
{
	(void)st;
	hrun *h = calloc(1, sizeof *h);
	assert_int_equal(run_file(h, "tests/emu/hopper_multicast.ptx", 32, 2, 0, NULL), EMU_OK);
	for (unsigned rank = 0; rank < 2; rank++)
		for (unsigned half = 0; half < 2; half++)
			for (unsigned r = 0; r < BOXR; r++)
				for (unsigned c = 0; c < COLS; c++) {
					uint16_t got = h->C[(rank * 2048 + half * 1024 + swz128(r, c)) / 2];
					if (got != a_at(8 * half + r, c))
						fail_msg("CTA %u half %u (%u, %u): got %u", rank, half, r, c, got);
				}
	/* distributed shared memory: each CTA got the partner's 7 + rank */
	assert_int_equal(h->C[2048 + 0], 8);
	assert_int_equal(h->C[2048 + 2], 7);
	/* two copies of 1024 bytes: read once each from L2, written to two CTAs each */
	assert_int_equal(op_of(h, OP_BULK, BK_LOAD)->bytes_l2, 2048);
	assert_int_equal(op_of(h, OP_BULK, BK_LOAD)->bytes_smem, 4096);
	assert_int_equal(op_of(h, OP_CLUSTER, CL_ARRIVE)->issued, 2); /* the first: one warp in each CTA */
	done(h);
}

/* A TMA store of a tile written with generic stores and fenced: the box at
 * (32, 28) writes only what lies inside C. */
static void test_tma_store_clips(void **st)
{
	(void)st;
	hrun *h = calloc(1, sizeof *h);
	const uint32_t xy[2] = {32, 28};
	assert_int_equal(run_file(h, "tests/emu/hopper_store.ptx", 32, 1, 2, xy), EMU_OK);
	for (unsigned row = 0; row < ROWS; row++)
		for (unsigned col = 0; col < COLS; col++) {
			unsigned r = row - 28, c = col - 32; /* wrap: outside the box when negative */
			uint16_t want = row >= 28 && col >= 32 && r < BOXR && c < COLS ? (uint16_t)(swz128(r, c) / 2) : 0xeeee;
			if (h->C[row * COLS + col] != want)
				fail_msg("C(%u, %u): got %u, want %u", row, col, h->C[row * COLS + col], want);
		}
	assert_int_equal(op_of(h, OP_BULK, BK_STORE)->bytes_l2, 1024);
	assert_int_equal(h->races, 0);
	done(h);
	/* issue 40: two blocks (a cluster of 2) store the same box: a race between blocks, on the store's line */
	h = calloc(1, sizeof *h);
	assert_int_equal(run_file(h, "tests/emu/hopper_store.ptx", 32, 2, 2, xy), EMU_OK);
	if (!h->races || !strstr(h->race.msg, "global-memory race (between blocks): block (1,0,0) writes bytes C+"))
		fail_msg("%llu races: '%s'", h->races, h->race.msg);
	assert_int_equal(h->race.line, line_of("tests/emu/hopper_store.ptx", "cp.async.bulk.tensor"));
	done(h);
}

/* stmatrix: lane l's register j holds row l/4, columns 2(l%4) and 2(l%4)+1
 * of matrix j (low half first), or with .trans that matrix's column l/4,
 * rows 2(l%4) and 2(l%4)+1, as the PTX ISA's fragment figures show. */
static uint16_t held(unsigned lane, unsigned j, unsigned half)
{
	return (uint16_t)(lane + 128 * j + 64 * half);
}

static void test_stmatrix_and_elect(void **st)
{
	(void)st;
	hrun *h = calloc(1, sizeof *h);
	assert_int_equal(run_file(h, "tests/emu/hopper_stmatrix.ptx", 32, 1, 0, NULL), EMU_OK);
	for (unsigned j = 0; j < 2; j++)
		for (unsigned r = 0; r < 8; r++)
			for (unsigned c = 0; c < 8; c++) {
				uint16_t plain = h->C[(16 * (8 * j + r) + 2 * c) / 2];
				uint16_t trans = h->C[(256 + 16 * (8 * j + r) + 2 * c) / 2];
				if (plain != held(4 * r + c / 2, j, c % 2) || trans != held(4 * c + r / 2, j, r % 2))
					fail_msg("matrix %u (%u, %u): %u and %u", j, r, c, plain, trans);
			}
	assert_int_equal(h->C[256], 0); /* elect.sync: the lowest lane of a full mask */
	done(h);
}

/* bar.arrive lets the producer go on; bar.sync with the same count waits
 * for it: the consumer sees every word, with no race. */
static void test_named_barrier(void **st)
{
	(void)st;
	hrun *h = calloc(1, sizeof *h);
	assert_int_equal(run_file(h, "tests/emu/hopper_namedbar.ptx", 64, 1, 0, NULL), EMU_OK);
	for (unsigned l = 0; l < 32; l++) {
		uint32_t v;
		memcpy(&v, (uint8_t *)h->C + 4 * l, 4);
		assert_int_equal(v, 3 * l + 11);
	}
	assert_int_equal(h->races, 0);
	done(h);
}

/* Broken kernels: each stops with its diagnostic at the line that is wrong. */
static void expect_error(const char *file, unsigned block, int tmap_buf, const uint32_t *u32s, const char *want)
{
	hrun *h = calloc(1, sizeof *h);
	int rc = run_file(h, file, block, 1, tmap_buf, u32s);
	if (rc != EMU_ERR_FAULT || !strstr(h->err, want))
		fail_msg("%s: rc %d, '%s'; want '%s'", file, rc, h->err, want);
	done(h);
}

/* issue 40: the run ends, with races; the first has these words at line (and other, when not 0). */
static void expect_race(const char *file, unsigned block, int tmap_buf, const uint32_t *u32s, const char *want, int line,
			int other)
{
	hrun *h = calloc(1, sizeof *h);
	int rc = run_file(h, file, block, 1, tmap_buf, u32s);
	if (rc != EMU_OK || !h->races || !strstr(h->race.msg, want) || h->race.line != line || (other && h->race.line2 != other))
		fail_msg("%s: rc %d, '%s', %llu races, first at line %d (and %d): '%s'; want '%s' at line %d (and %d)", file, rc,
			 h->err, h->races, h->race.line, h->race.line2, h->race.msg, want, line, other);
	done(h);
}

static void test_broken_kernels(void **st)
{
	(void)st;
	char want[512];
	const uint32_t xy[2] = {0, 0};
	const char *early[] = {"tests/emu/bug_tma_early.ptx", "tests/emu/bug_parity.ptx"};
	for (int i = 0; i < 2; i++) {
		/* reading the tile before its phase completed: without a wait, or
		 * waiting for the parity of the phase before (done already) */
		snprintf(want, sizeof want, "%s:%d: shared-memory race (async copy): reads shared bytes 0..15 before the TMA copy "
			 "issued at line %d has written them: wait on its mbarrier (smem+0x400) for the phase it completes first",
			 early[i], line_of(early[i], "ld.shared.v4.b32 {%r12"), line_of(early[i], "cp.async.bulk.tensor"));
		expect_error(early[i], 32, 0, xy, want);
	}
	const char *tx = "tests/emu/bug_expect_tx.ptx";
	snprintf(want, sizeof want, "%s:%d: deadlock: every warp waits and no copy is in flight; warp 0 waits on the mbarrier "
		 "at smem+0x400 (block rank 0, initialised at line %d) for the phase of parity 0, which no copy or arrival will "
		 "complete (it is in phase 0, 0 of its 1 arrivals pending, 1024 bytes expected that no copy brings)", tx,
		 line_of(tx, "mbarrier.try_wait"), line_of(tx, "mbarrier.init"));
	expect_error(tx, 32, 0, xy, want);
	/* too few bytes expected: the copy over-completes the phase, whose tx-count
	 * goes below 0 and never back; the warp polls with test_wait */
	const char *sh = "tests/emu/bug_expect_tx_short.ptx";
	snprintf(want, sizeof want, "%s:%d: deadlock: every warp waits and no copy is in flight; warp 0 waits on the mbarrier "
		 "at smem+0x400 (block rank 0, initialised at line %d) for the phase of parity 0, which no copy or arrival will "
		 "complete (it is in phase 0, 0 of its 1 arrivals pending, 512 bytes more completed than expect_tx announced)",
		 sh, line_of(sh, "mbarrier.test_wait"), line_of(sh, "mbarrier.init"));
	expect_error(sh, 32, 0, xy, want);
	const char *fe = "tests/emu/bug_fence.ptx";
	snprintf(want, sizeof want, "shared-memory race (proxy): the TMA store reads shared bytes 0..3 that warp 0 wrote at "
		 "line %d with no fence.proxy.async after: the copy engine may not see them", line_of(fe, "st.shared"));
	expect_race(fe, 32, 2, xy, want, line_of(fe, "cp.async.bulk.tensor"), line_of(fe, "st.shared"));
	const char *mr = "tests/emu/bug_setmaxnreg.ptx";
	snprintf(want, sizeof want, "%s:%d: deadlock: setmaxnreg.inc 256 waits for registers the block's pool of 8192 (64 a "
		 "thread at launch) never frees", mr, line_of(mr, "@%p setmaxnreg"));
	expect_error(mr, 128, 0, xy, want);
}

/* The Hopper lessons (sm_90a: 9 and up) as shipped, wgmma and all: the copy engine, the mbarrier
 * rings, the cluster pair, setmaxnreg, named barriers, the warpgroup MMAs
 * and the TMA store run to the end at the lessons' valid sizes, square and
 * not, verified against the CPU reference with no deadlock or race, and the
 * global bytes they move (TMA loads once from L2, TMA and st.global stores)
 * are the model's (tests/test_model_emu.c compares the shared level too). */
static void test_lessons_verified(void **st)
{
	(void)st;
	static course c;
	static gpu_table gt;
	char err[1024], errs[2048] = "";
	assert_true(course_load(&c, errs, sizeof errs) > 0);
	assert_true(devices_load(&gt, err, sizeof err) > 0);
	static const long long sizes[][3] = {{256, 256, 256}, {512, 256, 128}};
	emu_result *res = calloc(1, sizeof *res);
	int lessons = 0;
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		const int n = l->number;
		if (!l->ptx_path[0] || !l->needs_arch_specific)
			continue;
		lessons++;
		for (int s = 0; s < 2; s++) {
			const long long M = sizes[s][0], N = sizes[s][1], K = sizes[s][2];
			model_result r;
			run_request rq;
			if (model_compute(l, NULL, M, N, K, devices_default(&gt), &r, err, sizeof err) ||
			    launch_request_for_lesson(l, NULL, M, N, K, &rq, err, sizeof err))
				fail_msg("lesson %d at %lldx%lldx%lld: %s", n, M, N, K, err);
			emu_options o = {0};
			if (emu_run(&rq, &o, res, err, sizeof err) != EMU_OK || res->races || res->verified != 1)
				fail_msg("lesson %d at %lldx%lldx%lld: %s%s (verified %d, rel. error %g)", n, M, N, K, err,
					 res->race_msg, res->verified, res->rel_error);
			const emu_counts *t = &res->total;
			double moved = (double)(t->tma_l2_bytes + t->tma_store_bytes) + 32.0 * (double)t->gst.sectors;
			if (moved != r.global.bytes)
				fail_msg("lesson %d at %lldx%lldx%lld: the emulator moves %.0f global bytes, the model %.0f", n, M, N,
					 K, moved, r.global.bytes);
			assert_true(t->mbarrier_ops > 0);
			assert_int_equal(t->cluster_barriers > 0, l->cluster[0] * l->cluster[1] * l->cluster[2] > 1);
			/* every multiply-add of C ran through wgmma: 2·M·N·K FLOPs */
			assert_true((double)t->wgmma.flops == 2.0 * (double)M * (double)N * (double)K);
		}
	}
	free(res);
	course_free(&c);
	assert_true(lessons >= 2); /* 9 and 10 at least */
}

/* Where wgmma meets TMA, on lesson 9's kernel edited two ways (at
 * 128x256x1024, so the ring of 4 stages is refilled): without the
 * consumers' wait on the full barrier, the first wgmma reads its operands
 * before the copies land; with wgmma.wait_group 3 instead of 1, a stage is
 * handed back to the producer while the wgmmas reading it are in flight,
 * and the next copy into it overwrites their operands. Each is named at its line. */
static void test_lesson9_wgmma_meets_tma(void **st)
{
	(void)st;
	static course c;
	char err[1024], errs[2048] = "", path[64];
	assert_true(course_load(&c, errs, sizeof errs) > 0);
	const lesson *l = course_find(&c, "9");
	assert_non_null(l);
	run_request rq;
	if (launch_request_for_lesson(l, NULL, 128, 256, 1024, &rq, err, sizeof err))
		fail_msg("%s", err);
	char *orig = util_read_file(rq.ptx_path, NULL, err, sizeof err);
	assert_non_null(orig);
	snprintf(path, sizeof path, "/tmp/test_emu_hopper_%d.ptx", (int)getpid());
	util_strlcpy(rq.ptx_path, path, sizeof rq.ptx_path);
	static const struct {
		const char *from, *to, *want;
	} cut[] = {
		{"\tmbarrier.try_wait.parity.shared::cta.b64 %p, [%full], %phase;\n\t@!%p bra        C_WAIT;",
		 "\n", ": reads shared bytes 0..2047 before the TMA copy issued at line "},
		{"wgmma.wait_group.sync.aligned 1;", "wgmma.wait_group.sync.aligned 3;",
		 ": the TMA copy writes shared bytes 49152..65535, which the wgmma.mma_async at line "},
	};
	emu_result *res = calloc(1, sizeof *res);
	for (size_t i = 0; i < ARRAY_LEN(cut); i++) {
		char *at = strstr(orig, cut[i].from);
		assert_non_null(at);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "%.*s%s%s", (int)(at - orig), orig, cut[i].to, at + strlen(cut[i].from));
		fclose(f);
		emu_options o = {0};
		emu_error rc = emu_run(&rq, &o, res, err, sizeof err);
		if (rc != EMU_ERR_FAULT || !strstr(err, cut[i].want) || !strstr(err, path))
			fail_msg("edit %zu: rc %d, '%s'; want '%s'", i, rc, err, cut[i].want);
	}
	unlink(path);
	free(res);
	free(orig);
	course_free(&c);
}

/* Generic writes to a tile, then a TMA load over it and a wgmma that reads
 * it: the copy engine wrote the bytes last, so no fence.proxy.async is
 * missing (no false fault), and D[0][0] is row 0 of A (f16 bit patterns 0..15,
 * k * 2^-24) times itself: the sum of k^2, 1240, times 2^-48, exactly. */
static void test_wgmma_after_tma(void **st)
{
	(void)st;
	hrun *h = calloc(1, sizeof *h);
	int rc = run_file(h, "tests/emu/hopper_wgmma_tma.ptx", 128, 1, 0, NULL);
	if (rc)
		fail_msg("rc %d: %s", rc, h->err);
	float d;
	memcpy(&d, h->C, sizeof d);
	assert_true(d == ldexpf(1240.0f, -48));
	done(h);
}

/* The mbarrier's arithmetic (PTX ISA 9.7.13.15.2): a phase completes when
 * both its arrivals and its tx-count are spent, whatever their order. */
static void test_mbar_phases(void **st)
{
	(void)st;
	emu_mbar m;
	emu_mbar_init(&m, 64, 2, 1);
	assert_int_equal(emu_mbar_tx(&m, -100), 0);    /* bytes may land before expect_tx */
	assert_int_equal(emu_mbar_arrive(&m, 1), 0);
	assert_int_equal(emu_mbar_tx(&m, 100), 0);     /* tx-count 0, one arrival pending */
	assert_true(emu_mbar_parity_done(&m, 1));      /* the phase "before" phase 0 */
	assert_false(emu_mbar_parity_done(&m, 0));
	assert_int_equal(emu_mbar_arrive(&m, 1), 1);   /* phase 0 completes */
	assert_int_equal(m.phase, 1);
	assert_int_equal(m.pending, 2);
	assert_true(emu_mbar_parity_done(&m, 0));
	assert_false(emu_mbar_parity_done(&m, 1));
	assert_int_equal(emu_mbar_arrive(&m, 3), -1);  /* more arrivals than pending */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tmap_copy_rows),
		cmocka_unit_test(test_tma_swizzle_oob_two_phases),
		cmocka_unit_test(test_tma_write_after_read),
		cmocka_unit_test(test_tma_read_without_wait),
		cmocka_unit_test(test_multicast_remote_arrive),
		cmocka_unit_test(test_tma_store_clips),
		cmocka_unit_test(test_stmatrix_and_elect),
		cmocka_unit_test(test_named_barrier),
		cmocka_unit_test(test_broken_kernels),
		cmocka_unit_test(test_mbar_phases),
		cmocka_unit_test(test_lessons_verified),
		cmocka_unit_test(test_lesson9_wgmma_meets_tma),
		cmocka_unit_test(test_wgmma_after_tma),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
