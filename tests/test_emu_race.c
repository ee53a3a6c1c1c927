/* test_emu_race: the race detector (emu_race.c), one small hand-written kernel per kind of race — cp.async windows (read after write, write after read, the double-buffer loop without its trailing barrier), cluster shared memory, global bytes between blocks, shfl.sync and bar.warp.sync member masks, a bar.sync that part of the block never reaches — each reported with its words, both lines and the bytes, and its fixed twin with none. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"                                  \
	     ".visible .entry k(.param .u64 P)\n{\n"                                          \
	     "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n" \
	     "\t.shared .align 16 .b8 sm[2048];\n"                                            \
	     "\tmov.u32 %r1, %tid.x;\n\tld.param.u64 %rd1, [P];\n\tmov.u32 %r2, sm;\n"
#define TAIL "\tret;\n}\n"

typedef struct {
	uint8_t buf[65536];
	emu_opcount cnt[128];
	unsigned long long races;
	run_error race;
	char err[512];
	int rc;
} race_run;

static int race_c; /* P points at C (the third buffer) instead of A */

/* Runs text over grid blocks of block threads (cluster: blocks a cluster, 0: none). */
static race_run *run(const char *text, unsigned grid, unsigned block, unsigned cluster)
{
	race_run *r = calloc(1, sizeof *r);
	assert_non_null(r);
	emu_module *m = emu_module_parse("race.ptx", text, NULL, r->err, sizeof r->err);
	if (!m)
		fail_msg("%s", r->err);
	const emu_kernel *k = &m->k[0];
	assert_true(k->nops <= 128);
	uint8_t param[16] = {0};
	uint64_t p = (race_c ? 3ULL : 1ULL) << EMU_GLOBAL_SHIFT;
	memcpy(param, &p, 8);
	emu_launch L = {.k = k, .path = "race.ptx", .grid = {grid, 1, 1}, .block = {block, 1, 1},
			.cluster = {cluster, cluster ? 1 : 0, cluster ? 1 : 0}, .param = param,
			.bufs = {{r->buf, sizeof r->buf}, {r->buf, sizeof r->buf}, {r->buf, sizeof r->buf}}, .nbufs = 3,
			.cnt = r->cnt};
	r->rc = emu_exec(&L, r->err, sizeof r->err);
	r->races = L.races;
	r->race = L.race;
	emu_module_free(m);
	return r;
}

/* tmpl with @1@ and @2@ replaced by a and b (the kernels' text is full of %). */
static void fill(char *out, size_t n, const char *tmpl, const char *a, const char *b)
{
	size_t k = 0;
	for (const char *c = tmpl; *c && k + 1 < n; c++) {
		const char *put = !strncmp(c, "@1@", 3) ? a : !strncmp(c, "@2@", 3) ? b : NULL;
		if (put) {
			size_t m = strlen(put);
			assert_true(k + m < n);
			memcpy(out + k, put, m);
			k += m;
			c += 2;
		} else {
			out[k++] = *c;
		}
	}
	out[k] = 0;
}

/* The line of text that holds mark. */
static int line_of(const char *text, const char *mark)
{
	const char *at = strstr(text, mark);
	assert_non_null(at);
	int line = 1;
	for (const char *c = text; c < at; c++)
		line += *c == '\n';
	return line;
}

/* A race was reported with these words, at the line holding mark and the other access at mark2's. */
static void expect_race(const char *text, unsigned grid, unsigned block, unsigned cluster, const char *words,
			const char *mark, const char *mark2)
{
	race_run *r = run(text, grid, block, cluster);
	if (r->rc != EMU_OK)
		fail_msg("%s", r->err);
	if (!r->races || !strstr(r->race.msg, words))
		fail_msg("want '%s', got %llu races: %s", words, r->races, r->race.msg);
	assert_int_equal(r->race.line, line_of(text, mark));
	if (mark2)
		assert_int_equal(r->race.line2, line_of(text, mark2));
	free(r);
}

static void expect_none(const char *text, unsigned grid, unsigned block, unsigned cluster)
{
	race_run *r = run(text, grid, block, cluster);
	if (r->rc != EMU_OK)
		fail_msg("%s", r->err);
	if (r->races)
		fail_msg("want no race, got %llu: %s", r->races, r->race.msg);
	free(r);
}

/* ---- asynchronous copies ---- */

/* Lane 0 copies 16 bytes and arrives at the barrier without waiting; warp 1 reads them after it. */
static const char async_raw[] = HEAD
	"\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 bra SKIP;\n"
	"\tcp.async.ca.shared.global [%r2], [%rd1], 16; // COPY\n"
	"\tcp.async.commit_group;\n@1@"
	"SKIP:\n\tbar.sync 0;\n"
	"\tsetp.ne.u32 %p1, %r1, 32;\n\t@%p1 bra DONE;\n"
	"\tld.shared.f32 %f1, [%r2]; // READ\n"
	"DONE:\n\tcp.async.wait_all;\n" TAIL;

static void test_async_read_after_write(void **state)
{
	(void)state;
	char t[2048];
	fill(t, sizeof t, async_raw, "", "");
	expect_race(t, 1, 64, 0, "shared-memory race (async copy): warp 1 reads bytes 0..3 that the cp.async of warp 0",
		    "// READ", "// COPY");
	fill(t, sizeof t, async_raw, "\tcp.async.wait_group 0;\n", "");
	expect_none(t, 1, 64, 0);
}

/* Lane 0 copies and waits, but no barrier orders its bytes before warp 1 reads them. */
static const char async_nobar[] = HEAD
	"\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 bra SKIP;\n"
	"\tcp.async.ca.shared.global [%r2], [%rd1], 4; // COPY\n"
	"\tcp.async.wait_all;\n"
	"SKIP:\n@1@"
	"\tsetp.ne.u32 %p1, %r1, 32;\n\t@%p1 bra DONE;\n"
	"\tld.shared.f32 %f1, [%r2]; // READ\n"
	"DONE:\n" TAIL;

static void test_async_no_barrier_after_wait(void **state)
{
	(void)state;
	char t[2048];
	fill(t, sizeof t, async_nobar, "", "");
	expect_race(t, 1, 64, 0, "race (async copy): warp 1 reads bytes 0..3 that the cp.async of warp 0 at line", "// READ",
		    "// COPY");
	fill(t, sizeof t, async_nobar, "\tbar.sync 0;\n", "");
	expect_none(t, 1, 64, 0);
}

/* Warp 0 reads bytes; warp 1 then copies into them in the same barrier interval. */
static const char async_war[] = HEAD
	"\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra COPIER;\n"
	"\tld.shared.f32 %f1, [%r2]; // READ\n"
	"\tbra DONE;\n"
	"COPIER:\n@1@"
	"\tsetp.ne.u32 %p2, %r1, 32;\n\t@%p2 bra DONE;\n"
	"\tcp.async.ca.shared.global [%r2], [%rd1], 4; // COPY\n"
	"\tcp.async.wait_all;\n"
	"DONE:\n" TAIL;

static void test_async_write_after_read(void **state)
{
	(void)state;
	char t[2048];
	/* warp 0 runs first: its read is in the shadow when warp 1 issues */
	fill(t, sizeof t, async_war, "", "");
	expect_race(t, 1, 64, 0, "shared-memory race (write after read): the copy of warp 1 writes bytes 0..3 that warp 0 read",
		    "// COPY", "// READ");
}

/* The double-buffered loop: each warp prefetches its 512 bytes of the next
 * stage, waits for the current one and reads the other warp's half of it.
 * Without the trailing bar.sync a warp refills the stage the other still reads. */
static const char double_buffer[] = HEAD
	"\tshl.b32 %r3, %r1, 4;\n\tadd.u32 %r4, %r2, %r3;\n"
	"\txor.b32 %r5, %r3, 512;\n\tadd.u32 %r5, %r2, %r5;\n"
	"\tcvt.u64.u32 %rd2, %r3;\n\tadd.u64 %rd2, %rd1, %rd2;\n"
	"\tmov.u32 %r6, 0;\n"
	"\tcp.async.cg.shared.global [%r4], [%rd2], 16;\n\tcp.async.commit_group;\n"
	"LOOP:\n"
	"\tadd.u32 %r7, %r6, 1;\n\tand.b32 %r8, %r7, 1;\n\tmul.lo.u32 %r8, %r8, 1024;\n\tadd.u32 %r9, %r4, %r8;\n"
	"\tcp.async.cg.shared.global [%r9], [%rd2], 16; // PREFETCH\n"
	"\tcp.async.commit_group;\n\tcp.async.wait_group 1;\n\tbar.sync 0;\n"
	"\tand.b32 %r8, %r6, 1;\n\tmul.lo.u32 %r8, %r8, 1024;\n\tadd.u32 %r9, %r5, %r8;\n"
	"\tld.shared.f32 %f1, [%r9]; // READ\n@1@"
	"\tadd.u32 %r6, %r6, 1;\n\tsetp.lt.u32 %p1, %r6, 4;\n\t@%p1 bra LOOP;\n"
	"\tcp.async.wait_all;\n" TAIL;

static void test_double_buffer_without_trailing_barrier(void **state)
{
	(void)state;
	char t[4096];
	fill(t, sizeof t, double_buffer, "", "");
	expect_race(t, 1, 64, 0, "shared-memory race (write after read): warp 1 reads bytes", "// READ", "// PREFETCH");
	fill(t, sizeof t, double_buffer, "\tbar.sync 0;\n", "");
	expect_none(t, 1, 64, 0);
}

/* An ordinary write and a copy into the same bytes, in both orders. */
static const char async_waw[] = HEAD
	"\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra SECOND;\n"
	"\t@1@ // FIRST\n"
	"\tbra DONE;\n"
	"SECOND:\n"
	"\tsetp.ne.u32 %p2, %r1, 32;\n\t@%p2 bra DONE;\n"
	"\t@2@ // LATER\n"
	"DONE:\n\tbar.sync 0;\n\tcp.async.wait_all;\n" TAIL;

static void test_async_and_ordinary_write(void **state)
{
	(void)state;
	char t[2048];
	const char *st = "st.shared.f32 [%r2], %f1;", *cp = "cp.async.ca.shared.global [%r2], [%rd1], 4;";
	fill(t, sizeof t, async_waw, st, cp);
	expect_race(t, 1, 64, 0, "race (async copy): the copy of warp 1 writes bytes 0..3 that warp 0 wrote", "// LATER",
		    "// FIRST");
	fill(t, sizeof t, async_waw, cp, st);
	expect_race(t, 1, 64, 0, "race (async copy): warp 1 writes bytes 0..3 while the cp.async of warp 0", "// LATER",
		    "// FIRST");
}

/* ---- distributed shared memory ---- */

static const char cluster_read[] = HEAD
	"\tmov.u32 %r3, %cluster_ctarank;\n@1@"
	"\tsetp.ne.u32 %p1, %r3, 0;\n\t@%p1 bra READER;\n"
	"\tst.shared.f32 [%r2], %f1; // WRITE\n"
	"\tbra DONE;\n"
	"READER:\n"
	"\tmapa.shared::cluster.u32 %r4, %r2, 0;\n"
	"\tld.shared::cluster.f32 %f2, [%r4]; // READ\n"
	"DONE:\n\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n" TAIL;

static void test_cluster(void **state)
{
	(void)state;
	char t[2048];
	fill(t, sizeof t, cluster_read, "", "");
	expect_race(t, 2, 32, 2, "shared-memory race (cluster): block rank 1 warp 0 reads bytes 0..3 of block rank 0's", "// READ",
		    "// WRITE");
	/* the write before a barrier.cluster, the read after it: ordered */
	static const char fixed[] = HEAD
		"\tmov.u32 %r3, %cluster_ctarank;\n"
		"\tsetp.ne.u32 %p1, %r3, 0;\n\t@%p1 bra SYNC;\n"
		"\tst.shared.f32 [%r2], %f1;\n"
		"SYNC:\n\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n"
		"\t@!%p1 bra DONE;\n"
		"\tmapa.shared::cluster.u32 %r4, %r2, 0;\n"
		"\tld.shared::cluster.f32 %f2, [%r4];\n"
		"DONE:\n\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n" TAIL;
	expect_none(fixed, 2, 32, 2);
}

/* ---- global memory between blocks ---- */

static const char blocks_tmpl[] = HEAD
	"\tmov.u32 %r3, %ctaid.x;\n"
	"\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 bra DONE;\n"
	"\tmul.wide.u32 %rd2, %r3, @1@;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
	"\tsetp.ne.u32 %p2, %r3, 0;\n\t@%p2 bra OTHER;\n"
	"\tst.global.f32 [%rd3], %f1; // FIRST\n"
	"\tbra DONE;\n"
	"OTHER:\n"
	"\t@2@ // SECOND\n"
	"DONE:\n" TAIL;

static void test_between_blocks(void **state)
{
	(void)state;
	char t[2048];
	/* split-K: both blocks store to the same word of C */
	fill(t, sizeof t, blocks_tmpl, "0", "st.global.f32 [%rd3], %f1;");
	expect_race(t, 2, 32, 0,
		    "global-memory race (between blocks): block (1,0,0) writes bytes A+0..3 that block (0,0,0) wrote at line",
		    "// SECOND", "// FIRST");
	fill(t, sizeof t, blocks_tmpl, "0", "ld.global.f32 %f2, [%rd3];");
	expect_race(t, 2, 32, 0, "race (between blocks): block (1,0,0) reads bytes A+0..3 that block (0,0,0) wrote", "// SECOND",
		    "// FIRST");
	/* C is watched for reads too: block 0 reads C's word, block 1 then writes it */
	fill(t, sizeof t, blocks_tmpl, "0", "st.global.f32 [%rd3], %f1;");
	char *c = strstr(t, "\tst.global.f32 [%rd3], %f1; // FIRST"); /* an ld of the same length in its place */
	assert_non_null(c);
	memcpy(c, "\tld.global.f32 %f2, [%rd3]; // FIRST", strlen("\tld.global.f32 %f2, [%rd3]; // FIRST"));
	race_c = 1;
	expect_race(t, 2, 32, 0, "race (between blocks): block (1,0,0) writes bytes C+0..3 that block (0,0,0) read at line",
		    "// SECOND", "// FIRST");
	race_c = 0;
	/* each block its own word */
	fill(t, sizeof t, blocks_tmpl, "4", "st.global.f32 [%rd3], %f1;");
	expect_none(t, 2, 32, 0);
	/* f16 stores of two blocks into one 4-byte word, each its own 2 bytes: no race */
	static const char halves[] = HEAD
		"\t.reg .b16 %h<2>;\n"
		"\tmov.u32 %r3, %ctaid.x;\n"
		"\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 bra DONE;\n"
		"\tmul.wide.u32 %rd2, %r3, 2;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
		"\tmov.b16 %h1, 0;\n\tst.global.b16 [%rd3], %h1;\n"
		"DONE:\n" TAIL;
	expect_none(halves, 2, 32, 0);
	/* in a cluster too: its blocks run together, but nothing orders their global stores */
	fill(t, sizeof t, blocks_tmpl, "0", "st.global.f32 [%rd3], %f1;");
	expect_race(t, 2, 32, 2, "race (between blocks)", "// SECOND", "// FIRST");
}

/* ---- warp level ---- */

static const char shfl_tmpl[] = HEAD
	"\tsetp.lt.u32 %p1, %r1, 16;\n"
	"\t@1@shfl.sync.bfly.b32 %r3, %r1, 1, 31, @2@; // SHFL\n" TAIL;

static void test_member_mask(void **state)
{
	(void)state;
	char t[2048];
	fill(t, sizeof t, shfl_tmpl, "", "0x0000ffff");
	expect_race(t, 1, 32, 0,
		    "race (warp mask): lane 16 of warp 0 runs shfl.sync with member mask 0x0000ffff, which leaves it out", "// SHFL",
		    NULL);
	fill(t, sizeof t, shfl_tmpl, "@%p1 ", "0xffffffff");
	expect_race(t, 1, 32, 0, "race (warp mask): shfl.sync with member mask 0xffffffff names lane 16 of warp 0, which does not "
				 "run it", "// SHFL", NULL);
	fill(t, sizeof t, shfl_tmpl, "@%p1 ", "0x0000ffff");
	expect_none(t, 1, 32, 0);
	fill(t, sizeof t, shfl_tmpl, "", "0xffffffff");
	expect_none(t, 1, 32, 0);
	/* __syncwarp(): bar.warp.sync -1 under a guard that lets half the warp run it */
	static const char warpsync[] = HEAD
		"\tsetp.lt.u32 %p1, %r1, 16;\n"
		"\t@%p1 bar.warp.sync -1; // SYNC\n" TAIL;
	expect_race(warpsync, 1, 32, 0, "race (warp mask): bar.warp.sync with member mask 0xffffffff names lane 16 of warp 0",
		    "// SYNC", NULL);
	/* __ballot_sync(0x0000ffff, ...) run by the whole warp, and __reduce_add_sync under a guard */
	static const char vote[] = HEAD
		"\tsetp.lt.u32 %p1, %r1, 16;\n"
		"\tvote.sync.ballot.b32 %r3, %p1, 0x0000ffff; // VOTE\n" TAIL;
	expect_race(vote, 1, 32, 0,
		    "race (warp mask): lane 16 of warp 0 runs vote.sync with member mask 0x0000ffff, which leaves it out",
		    "// VOTE", NULL);
	static const char redux[] = HEAD
		"\tsetp.lt.u32 %p1, %r1, 16;\n"
		"\t@%p1 redux.sync.add.u32 %r3, %r1, 0xffffffff; // REDUX\n" TAIL;
	expect_race(redux, 1, 32, 0, "race (warp mask): redux.sync with member mask 0xffffffff names lane 16 of warp 0",
		    "// REDUX", NULL);
	static const char vote_ok[] = HEAD
		"\tsetp.lt.u32 %p1, %r1, 16;\n"
		"\tvote.sync.ballot.b32 %r3, %p1, 0xffffffff;\n" TAIL;
	expect_none(vote_ok, 1, 32, 0);
}

/* Warp 0 waits at barrier 0, warp 1 at barrier 1: on a GPU the block hangs. */
static void test_barrier_part_of_block(void **state)
{
	(void)state;
	static const char t[] = HEAD
		"\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra OTHER;\n"
		"\tbar.sync 0; // BAR0\n\tbra DONE;\n"
		"OTHER:\n\tbar.sync 1; // BAR1\n"
		"DONE:\n" TAIL;
	race_run *r = run(t, 1, 64, 0);
	assert_int_equal(r->rc, EMU_ERR_FAULT);
	char want[256];
	snprintf(want, sizeof want,
		 "race.ptx:%d: bar.sync 0 at line %d: barrier reached by 32 of 64 threads: on a GPU this hangs (warp 1 waits at "
		 "line %d instead)", line_of(t, "// BAR0"), line_of(t, "// BAR0"), line_of(t, "// BAR1"));
	if (!strstr(r->err, want))
		fail_msg("want '%s', got '%s'", want, r->err);
	free(r);
}

/* The checks off (PTXTUTOR_NO_RACE=1, what docs/emulator.md's cost table compares against): nothing reported. */
static void test_checks_off(void **state)
{
	(void)state;
	char t[2048];
	fill(t, sizeof t, async_raw, "", "");
	setenv("PTXTUTOR_NO_RACE", "1", 1);
	race_run *r = run(t, 1, 64, 0);
	unsetenv("PTXTUTOR_NO_RACE");
	assert_int_equal(r->rc, EMU_OK);
	assert_int_equal(r->races, 0);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_async_read_after_write),
		cmocka_unit_test(test_async_no_barrier_after_wait),
		cmocka_unit_test(test_async_write_after_read),
		cmocka_unit_test(test_double_buffer_without_trailing_barrier),
		cmocka_unit_test(test_async_and_ordinary_write),
		cmocka_unit_test(test_cluster),
		cmocka_unit_test(test_between_blocks),
		cmocka_unit_test(test_member_mask),
		cmocka_unit_test(test_barrier_part_of_block),
		cmocka_unit_test(test_checks_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
