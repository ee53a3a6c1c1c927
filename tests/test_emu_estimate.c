/* test_emu_estimate: more of the emulator counts the time estimate reads (test_estimate.c has the
 * rule and the first cases): the read footprint against repeated loads, the L1 wavefronts of global
 * loads by stride and width, mma.sync's FLOPs, and the LDS.128 merge against a real 16-byte load. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "emu/emu.h"
#include "emu/emu_internal.h"

/* A kernel with a global pointer P and a u32 S: %rd3 = P + tid * S, %r5 = sm + tid * S. */
static const char tmpl[] =
	".version 7.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 P, .param .u32 S)\n{\n"
	"\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<8>;\n\t.reg .f32 %%f<8>;\n\t.reg .pred %%p<2>;\n"
	"\t.shared .align 16 .b8 sm[16384];\n"
	"\tld.param.u64 %%rd1, [P];\n\tld.param.u32 %%r2, [S];\n"
	"\tmov.u32 %%r1, %%tid.x;\n\tmul.lo.s32 %%r3, %%r1, %%r2;\n"
	"\tcvt.u64.u32 %%rd2, %%r3;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
	"\tmov.u32 %%r4, sm;\n\tadd.s32 %%r5, %%r4, %%r3;\n"
	"%s\tret;\n}\n";

/* What one run gives back, summed over the ops of one kind (ld.global or ld.shared). */
typedef struct {
	uint64_t issued, requests, sectors, gwave;  /* ld.global */
	uint64_t sissued, swave, swave_sass, merged; /* ld.shared */
	int groups;                                  /* LDS.128 groups marked (their first load) */
	unsigned long long footprint;
} sums;

/* Runs body on `blocks` blocks of `threads` threads with S; footprint as asked. */
static sums run(const char *body, uint32_t S, unsigned blocks, unsigned threads, int footprint)
{
	static uint8_t buf[16384];
	static emu_opcount cnt[64];
	char text[4096], err[512];
	snprintf(text, sizeof text, tmpl, body);
	emu_module *m = emu_module_parse("k.ptx", text, NULL, err, sizeof err);
	if (!m)
		fail_msg("%s", err);
	const emu_kernel *k = &m->k[0];
	assert_true(k->nops <= 64);
	memset(cnt, 0, sizeof cnt);
	uint8_t param[16] = {0};
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	for (int i = 0; i < k->nparams; i++)
		memcpy(param + k->params[i].offset, k->params[i].bytes == 8 ? (void *)&p : (void *)&S,
		       (size_t)k->params[i].bytes);
	emu_launch L = {.k = k, .path = "k.ptx", .grid = {blocks, 1, 1}, .block = {threads, 1, 1}, .param = param,
			.bufs = {{buf, sizeof buf}}, .nbufs = 1, .cnt = cnt, .footprint = footprint};
	if (emu_exec(&L, err, sizeof err))
		fail_msg("%s", err);
	sums s = {.footprint = L.footprint_sectors};
	for (int i = 0; i < k->nops; i++) {
		const emu_op *o = &k->ops[i];
		const emu_opcount *c = &cnt[i];
		if (o->code == OP_LD && o->space == SP_GLOBAL)
			s.issued += c->issued, s.requests += c->requests, s.sectors += c->sectors, s.gwave += c->gwave;
		if (o->code == OP_LD && o->space == SP_SHARED)
			s.sissued += c->issued, s.swave += c->wavefronts, s.swave_sass += c->wave_sass,
				s.merged += c->merged, s.groups += o->vgroup == 0;
	}
	emu_module_free(m);
	return s;
}

/* Each thread of block b reads A[b][tid] twice and one word of B[b] 4 KiB on: 32 x 4 B = 4 sectors,
 * and 1 (each block its own bytes, 1 KiB apart). */
#define PER_BLOCK "\tmov.u32 %r6, %ctaid.x;\n\tmul.wide.u32 %rd4, %r6, 1024;\n\tadd.s64 %rd5, %rd3, %rd4;\n" \
		  "\tadd.s64 %rd6, %rd1, %rd4;\n"

static void test_footprint_counts_each_sector_once_per_block(void **state)
{
	(void)state;
	const char *body = PER_BLOCK "\tld.global.f32 %f0, [%rd5];\n\tld.global.f32 %f1, [%rd5];\n"
			   "\tld.global.f32 %f2, [%rd6+4096];\n";
	sums s = run(body, 4, 3, 32, 1);
	/* the traffic counts every request: 3 blocks x (4 + 4 + 1) sectors */
	assert_int_equal(s.sectors, 3 * 9);
	/* the footprint each distinct sector once a block, summed over the blocks */
	assert_int_equal(s.footprint, 3 * 5);
	/* blocks reading the same bytes: each still counts them (a CTA's footprint, not the grid's) */
	s = run("\tld.global.f32 %f0, [%rd3];\n\tld.global.f32 %f1, [%rd1+4096];\n", 4, 3, 32, 1);
	assert_int_equal(s.footprint, 3 * 5);
	/* two warps in a block reading the same words: still once */
	s = run("\tand.b32 %r6, %r1, 31;\n\tmul.wide.u32 %rd4, %r6, 4;\n\tadd.s64 %rd5, %rd1, %rd4;\n"
		"\tld.global.f32 %f0, [%rd5];\n", 4, 2, 64, 1);
	assert_int_equal(s.footprint, 2 * 4);
	s = run(body, 4, 3, 32, 0);
	assert_int_equal(s.footprint, 0);
}

/* One L1 wavefront per 128-byte line a request touches. */
static void test_global_load_wavefronts_per_line(void **state)
{
	(void)state;
	sums s = run("\tld.global.f32 %f0, [%rd3];\n", 4, 1, 32, 0); /* 128 contiguous bytes */
	assert_int_equal(s.requests, 1);
	assert_int_equal(s.gwave, 1);
	s = run("\tld.global.f32 %f0, [%rd3];\n", 128, 1, 32, 0); /* a line a lane */
	assert_int_equal(s.requests, 1);
	assert_int_equal(s.gwave, 32);
	s = run("\tld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd3];\n", 16, 1, 32, 0); /* 512 contiguous bytes */
	assert_int_equal(s.requests, 1);
	assert_int_equal(s.gwave, 4);
	/* per warp: two warps, twice the wavefronts */
	s = run("\tld.global.f32 %f0, [%rd3];\n", 128, 1, 64, 0);
	assert_int_equal(s.gwave, 64);
}

/* tests/emu/mma.ptx does only the product's own work on the tensor pipe: 2MNK FLOPs, 4096 an instruction. */
static void test_mma_flops_are_the_products(void **state)
{
	(void)state;
	static const long long sizes[][3] = {{32, 32, 16}, {64, 32, 48}};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		long long M = sizes[i][0], N = sizes[i][1], K = sizes[i][2];
		run_request rq;
		memset(&rq, 0, sizeof rq);
		util_path(rq.ptx_path, sizeof rq.ptx_path, "tests/emu/mma.ptx");
		util_strlcpy(rq.entry, "gemm_mma", sizeof rq.entry);
		rq.dt = DTYPE_F16;
		rq.M = M, rq.N = N, rq.K = K;
		rq.grid[0] = (unsigned)(N / 32), rq.grid[1] = (unsigned)(M / 32), rq.grid[2] = 1;
		rq.block[0] = 128, rq.block[1] = rq.block[2] = 1;
		static emu_result res;
		char err[512];
		if (emu_run(&rq, NULL, &res, err, sizeof err))
			fail_msg("%s", err);
		assert_int_equal(res.total.mma_flops, 2 * M * N * K);
		assert_int_equal(res.total.inst[EMU_CLS_MMA] * EMU_MMA_FLOPS(16), res.total.mma_flops);
	}
}

#define FOUR "\tld.shared.f32 %f0, [%r5];\n\tld.shared.f32 %f1, [%r5+4];\n" \
	     "\tld.shared.f32 %f2, [%r5+8];\n\tld.shared.f32 %f3, [%r5+12];\n"
#define V4 "\tld.shared.v4.f32 {%f0, %f1, %f2, %f3}, [%r5];\n"

/* The four merged loads cost what one ld.shared.v4 costs, at any stride; the PTX counts stay as they were. */
static void test_merged_loads_cost_one_v4(void **state)
{
	(void)state;
	/* 0: every lane one word, a broadcast as scalars, four quarter-warp passes as 16 bytes */
	static const uint32_t strides[] = {0, 16, 32, 64};
	for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++) {
		sums four = run(FOUR, strides[i], 1, 64, 0), v4 = run(V4, strides[i], 1, 64, 0);
		sums one = run("\tld.shared.f32 %f0, [%r5];\n", strides[i], 1, 64, 0);
		if (four.swave_sass != v4.swave)
			fail_msg("stride %u: merged %llu wavefronts, ld.shared.v4 %llu", strides[i],
				 (unsigned long long)four.swave_sass, (unsigned long long)v4.swave);
		/* two warps: three folded instructions each */
		assert_int_equal(four.merged, 2 * 3);
		/* as PTX: four loads issued per warp, each costing what one such scalar load costs */
		assert_int_equal(four.sissued, 2 * 4);
		assert_int_equal(four.swave, 4 * one.swave);
	}
}

/* A branch landing between the loads: ptxas cannot merge across it (some warps enter there), even
 * when no thread takes it (tid 99 does not exist). */
static void test_no_merge_across_a_branch_target(void **state)
{
	(void)state;
	sums s = run("\tsetp.eq.u32 %p1, %r1, 99;\n\t@%p1 bra L;\n"
		     "\tld.shared.f32 %f0, [%r5];\n\tld.shared.f32 %f1, [%r5+4];\n"
		     "L:\n\tld.shared.f32 %f2, [%r5+8];\n\tld.shared.f32 %f3, [%r5+12];\n", 16, 1, 32, 0);
	assert_int_equal(s.sissued, 4);
	assert_int_equal(s.groups, 0);
	assert_int_equal(s.merged, 0);
	assert_int_equal(s.swave_sass, s.swave);
	/* without the branch the same loads are one group */
	s = run(FOUR, 16, 1, 32, 0);
	assert_int_equal(s.groups, 1);
}

/* The base register written between the loads: the last two are from another base, no group. */
static void test_no_merge_when_the_base_changes(void **state)
{
	(void)state;
	sums s = run("\tld.shared.f32 %f0, [%r5];\n\tld.shared.f32 %f1, [%r5+4];\n\tadd.s32 %r5, %r5, 16;\n"
		     "\tld.shared.f32 %f2, [%r5+8];\n\tld.shared.f32 %f3, [%r5+12];\n", 16, 1, 32, 0);
	assert_int_equal(s.groups, 0);
	assert_int_equal(s.merged, 0);
	assert_int_equal(s.swave_sass, s.swave);
	/* a write to another register is plain arithmetic: still one group */
	s = run("\tld.shared.f32 %f0, [%r5];\n\tld.shared.f32 %f1, [%r5+4];\n\tadd.s32 %r6, %r5, 16;\n"
		"\tld.shared.f32 %f2, [%r5+8];\n\tld.shared.f32 %f3, [%r5+12];\n", 16, 1, 32, 0);
	assert_int_equal(s.groups, 1);
	assert_int_equal(s.merged, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_footprint_counts_each_sector_once_per_block),
		cmocka_unit_test(test_global_load_wavefronts_per_line),
		cmocka_unit_test(test_mma_flops_are_the_products),
		cmocka_unit_test(test_merged_loads_cost_one_v4),
		cmocka_unit_test(test_no_merge_across_a_branch_target),
		cmocka_unit_test(test_no_merge_when_the_base_changes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
