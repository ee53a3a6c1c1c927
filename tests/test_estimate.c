/* test_estimate: the time estimate — its rule (model/estimate.c) on rates from a fixture, and the
 * emulator counts it reads: each CTA's read footprint, the L1 wavefronts of global loads, and the
 * scalar shared loads ptxas merges into one LDS.128 (emu_vgroup.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "model/devices.h"
#include "model/estimate.h"
#include "model/measured.h"

/* ---- the rule ---- */

/* Round numbers, so each term is easy to work out by hand. */
static const char rates[] =
	"gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n"
	"H100\td\t2026-11-25\tc\t0\t0\tceiling_issue\t1e12\twarp-inst/s\n"
	"H100\td\t2026-11-25\tc\t0\t0\tceiling_int\t5e11\twarp-inst/s\n"
	"H100\td\t2026-11-25\tc\t0\t0\tceiling_lsu\t2.5e11\twavefronts/s\n"
	"H100\td\t2026-11-25\tc\t0\t0\tceiling_mma_data\t6e14\tFLOP/s\n"
	"H100\td\t2026-11-25\tc\t0\t0\tceiling_wgmma_data\t8e14\tFLOP/s\n"
	"H100\td\t2026-11-25\tc\t0\t0\tceiling_l2\t5000\tGB/s\n"
	"H100\td\t2026-11-25\tc\t0\t0\tceiling_tma\t10000\tGB/s\n"
	"H100\td\t2026-11-25\tc\t0\t0\tceiling_dram\t3000\tGB/s\n";

static gpu_table table;

static const gpu_spec *gpu(const char *key)
{
	char err[256];
	if (!table.n)
		assert_true(devices_load(&table, err, sizeof err) > 0);
	const gpu_spec *g = devices_find(&table, key, err, sizeof err);
	assert_non_null(g);
	return g;
}

static void load_rates(const char *text)
{
	char err[256];
	assert_true(measured_parse("rates.tsv", text, err, sizeof err) > 0);
}

/* 132 blocks on the H100's 132 SMs: the busiest SM has one. */
static estimate_input one_block_each(void)
{
	return (estimate_input){.blocks = 132, .per_block = {.inst = 1e6}};
}

static void test_one_term_alone(void **state)
{
	(void)state;
	load_rates(rates);
	estimate e;
	estimate_input in = one_block_each();
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	/* 1e6 warp instructions on every SM: 132e6 at 1e12/s = 0.132 ms */
	assert_true(e.ok);
	assert_float_equal(e.term_ms[EST_ISSUE], 0.132, 1e-12);
	assert_float_equal(e.ms, 0.132, 1e-12);
	assert_int_equal(e.limit, EST_ISSUE);
	/* one block more than the SMs: the busiest SM runs two */
	in.blocks = 133;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_float_equal(e.ms, 0.264, 1e-12);
}

static void test_sm_pipes_add_as_squares(void **state)
{
	(void)state;
	load_rates(rates);
	estimate e;
	estimate_input in = one_block_each();
	in.per_block.lsu_wavefronts = 0.25e6; /* 0.132 ms at 2.5e11/s, as the issue slots */
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_float_equal(e.term_ms[EST_LSU], 0.132, 1e-12);
	assert_float_equal(e.sm_ms, 0.132 * sqrt(2), 1e-12);
	assert_float_equal(e.ms, e.sm_ms, 0);
	/* the root of the two sets the number, so the label names them together, not one pipe */
	assert_int_equal(e.limit, EST_SM_TOGETHER);
	assert_string_equal(estimate_term_key(e.limit), "sm");
	/* unequal: still the root, above the larger pipe (0.264) */
	in.per_block.lsu_wavefronts = 0.5e6;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_int_equal(e.limit, EST_SM_TOGETHER);
	assert_float_equal(e.ms, hypot(0.132, 0.264), 1e-12);
	/* an asynchronous engine above the root: it sets the number, and the label names it */
	in.per_block.l2_bytes = 5e9 / 132 * 0.3; /* 0.3 ms at 5000 GB/s */
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_int_equal(e.limit, EST_L2);
	assert_float_equal(e.ms, 0.3, 1e-9);
	in.per_block.l2_bytes = 0;
	in.per_block.lsu_wavefronts = 0.25e6;
	/* mma.sync is one of the SM's pipes too */
	in.per_block.mma_flops = 6e14 / 132 * 0.132e-3;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_float_equal(e.ms, 0.132 * sqrt(3), 1e-9);
}

static void test_async_engines_beside(void **state)
{
	(void)state;
	load_rates(rates);
	estimate e;
	estimate_input in = one_block_each();
	/* wgmma: 1 ms of tensor work beside 0.132 ms of issue: the tensor cores decide */
	in.per_block.wgmma_flops = 8e14 / 132 * 1e-3;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_float_equal(e.ms, 1.0, 1e-9);
	assert_int_equal(e.limit, EST_WGMMA);
	assert_float_equal(e.sm_ms, 0.132, 1e-12);
	/* L2: bytes through the L1 at ceiling_l2, the copy engine's at ceiling_tma */
	in.per_block.wgmma_flops = 0;
	in.per_block.l2_bytes = 5e9 / 132;   /* 1 ms at 5000 GB/s */
	in.per_block.tma_bytes = 10e9 / 132; /* 1 ms at 10000 GB/s */
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_float_equal(e.term_ms[EST_L2], 2.0, 1e-9);
	assert_float_equal(e.ms, 2.0, 1e-9);
	assert_int_equal(e.limit, EST_L2);
	/* DRAM: the kernel's bytes at ceiling_dram */
	in.per_block.l2_bytes = in.per_block.tma_bytes = 0;
	in.dram_bytes = 9e9; /* 3 ms */
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_float_equal(e.ms, 3.0, 1e-6);
	assert_int_equal(e.limit, EST_DRAM);
}

static void test_no_number_when_it_cannot_tell(void **state)
{
	(void)state;
	load_rates(rates);
	estimate e;
	estimate_input in = one_block_each();
	/* another GPU: its rates were never measured */
	assert_int_equal(estimate_time(&in, gpu("a100"), &e), -1);
	assert_false(e.ok);
	assert_non_null(strstr(e.why, "measured on an H100 only"));
	assert_non_null(strstr(e.why, gpu("a100")->name));
	/* no block ran */
	in.blocks = 0;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), -1);
	assert_non_null(strstr(e.why, "no block ran"));
	/* a rate missing from the file: named */
	char text[sizeof rates];
	util_strlcpy(text, rates, sizeof text);
	char *row = strstr(text, "H100\td\t2026-11-25\tc\t0\t0\tceiling_tma"), *end = row ? strchr(row, '\n') : NULL;
	assert_non_null(end);
	memmove(row, end + 1, strlen(end + 1) + 1); /* that one row out */
	load_rates(text);
	in = one_block_each();
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), -1);
	assert_non_null(strstr(e.why, "ceiling_tma"));
	char err[64];
	measured_parse("none.tsv", "", err, sizeof err); /* leave no fixture behind */
}

/* ---- the stall model's cycles at the power model's clock ---- */

/* The rates above and a clock model: 700 W cap, 2000 MHz at most, idle 100 W; f16 wgmma 1e-12 J a
 * FLOP above idle (600 W at 6e14/s), e4m3 wgmma at 1.2e15 FLOP/s. */
static const char power_rows[] =
	"H100\td\t2026-11-28\tc\t0\t0\tpower_limit_w\t700\tW\n"
	"H100\td\t2026-11-28\tc\t0\t0\tpower_max_mhz\t2000\tcount\n"
	"H100\td\t2026-11-28\tc\t0\t0\tpower_idle_w\t100\tW\n"
	"H100\td\t2026-11-28\tc\t0\t0\tpower_wgmma_data_w\t700\tW\n"
	"H100\td\t2026-11-28\tc\t0\t0\tpower_wgmma_data_rate\t6e14\tFLOP/s\n"
	"H100\td\t2026-11-28\tc\t0\t0\tpower_wgmma_f8_w\t700\tW\n"
	"H100\td\t2026-11-28\tc\t0\t0\tpower_wgmma_f8_rate\t1.2e15\tFLOP/s\n";

static void load_with_power(void)
{
	static char text[sizeof rates + sizeof power_rows];
	snprintf(text, sizeof text, "%s%s", rates, power_rows);
	load_rates(text);
}

static void test_latency_sets_the_sm_time(void **state)
{
	(void)state;
	load_with_power();
	estimate e;
	estimate_input in = one_block_each();
	/* 2e6 cycles with no power-hungry work: the highest clock, 1 ms; the root rule's 0.132 ms is
	 * beside it, not the estimate */
	in.sm_cycles = 2e6;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_true(e.has_clock);
	assert_false(e.clock_capped);
	assert_float_equal(e.clock_mhz, 2000, 1e-9);
	assert_float_equal(e.term_ms[EST_LATENCY], 1.0, 1e-12);
	assert_float_equal(e.ms, 1.0, 1e-12);
	assert_int_equal(e.limit, EST_LATENCY);
	assert_string_equal(estimate_term_key(e.limit), "latency");
	assert_float_equal(e.sm_ms, 0.132, 1e-12);
	/* L2 longer than the SM: it sets the number (what one simulated SM does not see) */
	in.per_block.l2_bytes = 5e9 / 132 * 1.5; /* 1.5 ms at 5000 GB/s */
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_int_equal(e.limit, EST_L2);
	assert_float_equal(e.ms, 1.5, 1e-9);
	in.per_block.l2_bytes = 0;
	/* wgmma at 9e5 FLOPs a cycle: 1.8e12 FLOPs in 2e6 cycles, 1.8 J; at 2 GHz 1900 W, so the cap holds
	 * the clock at 600 W x 2e6 cycles / 1.8 J = 667 MHz, and the time is 3 ms */
	in.per_block.wgmma_flops = 1.8e12 / 132;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_true(e.clock_capped);
	assert_float_equal(e.clock_mhz, 600 * 2e6 / 1.8 / 1e6, 1e-6);
	assert_float_equal(e.ms, 3.0, 1e-6);
	assert_float_equal(e.power_w, 700, 1e-6);
	/* the same FLOPs in e4m3: their own rate divides them (1.5 ms alone), their own energy (5e-13 J) */
	in.f8 = 1;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_float_equal(e.term_ms[EST_WGMMA], 1.5, 1e-9);
	assert_float_equal(e.clock_mhz, 600 * 2e6 / 0.9 / 1e6, 1e-6);
	/* no FP8 rate row: no number, in the words the tests and the pane know */
	load_rates(rates);
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), -1);
	assert_non_null(strstr(e.why, "no estimate for e4m3 inputs"));
	/* cycles but no clock model (no power rows): the root rule stands in, and says why */
	in.f8 = 0;
	assert_int_equal(estimate_time(&in, gpu("h100"), &e), 0);
	assert_false(e.has_clock);
	assert_int_equal(e.limit, EST_WGMMA);
	assert_non_null(strstr(e.latency_why, "power_limit_w"));
	char err[64];
	measured_parse("none.tsv", "", err, sizeof err);
}

/* ---- the emulator's counts the estimate reads ---- */

/* tests/emu/naive.ptx at 128: 16 blocks of 32x32 threads, each reading 32 rows of A and 32
 * columns of B, 128 floats each: 2 x 32 x 512 B = 32 KiB, 1024 sectors a block. */
static void test_footprint_and_global_wavefronts(void **state)
{
	(void)state;
	run_request rq;
	memset(&rq, 0, sizeof rq);
	util_path(rq.ptx_path, sizeof rq.ptx_path, "tests/emu/naive.ptx");
	util_strlcpy(rq.entry, "gemm_naive", sizeof rq.entry);
	rq.dt = DTYPE_F32;
	rq.M = rq.N = rq.K = 128;
	rq.grid[0] = rq.grid[1] = 4, rq.grid[2] = 1;
	rq.block[0] = rq.block[1] = 32, rq.block[2] = 1;
	static emu_result res;
	char err[512];
	emu_options opt = {.footprint = 1};
	assert_int_equal(emu_run(&rq, &opt, &res, err, sizeof err), 0);
	assert_int_equal(res.footprint_sectors, 16 * 1024);
	/* each request is one 128-byte line (A: the lanes share a word; B: 32 neighbours) */
	assert_int_equal(res.total.gld.wavefronts, res.total.gld.requests);
	/* only when asked: the set costs time */
	opt.footprint = 0;
	assert_int_equal(emu_run(&rq, &opt, &res, err, sizeof err), 0);
	assert_int_equal(res.footprint_sectors, 0);
}

/* A kernel of scalar shared loads from one base, %r5 = sm + tid * S. */
static const char loads_tmpl[] =
	".version 7.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 P, .param .u32 S)\n{\n"
	"\t.reg .b32 %%r<8>;\n\t.reg .f32 %%f<8>;\n\t.reg .pred %%p<2>;\n"
	"\t.shared .align 16 .b8 sm[16384];\n"
	"\tmov.u32 %%r1, %%tid.x;\n\tld.param.u32 %%r2, [S];\n\tmul.lo.s32 %%r3, %%r1, %%r2;\n"
	"\tmov.u32 %%r4, sm;\n\tadd.s32 %%r5, %%r4, %%r3;\n\tsetp.eq.u32 %%p1, %%r1, 99;\n"
	"%s\tret;\n}\n";

typedef struct {
	uint8_t buf[4096];
	emu_opcount cnt[64];
	const emu_kernel *k;
	emu_module *m;
} loads_run;

/* Runs one warp of the kernel with body; returns the sums over its shared loads. */
static void run_loads(const char *body, uint32_t S, int *groups, uint64_t *wave, uint64_t *wave_sass,
		      uint64_t *merged)
{
	char text[4096], err[512];
	snprintf(text, sizeof text, loads_tmpl, body);
	loads_run *r = calloc(1, sizeof *r);
	assert_non_null(r);
	r->m = emu_module_parse("loads.ptx", text, NULL, err, sizeof err);
	if (!r->m)
		fail_msg("%s", err);
	r->k = &r->m->k[0];
	assert_true(r->k->nops <= 64);
	uint8_t param[16] = {0};
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	for (int i = 0; i < r->k->nparams; i++)
		memcpy(param + r->k->params[i].offset, r->k->params[i].bytes == 8 ? (void *)&p : (void *)&S,
		       (size_t)r->k->params[i].bytes);
	emu_launch L = {.k = r->k, .path = "loads.ptx", .grid = {1, 1, 1}, .block = {32, 1, 1}, .param = param,
			.bufs = {{r->buf, sizeof r->buf}}, .nbufs = 1, .cnt = r->cnt};
	if (emu_exec(&L, err, sizeof err))
		fail_msg("%s", err);
	*groups = 0, *wave = *wave_sass = *merged = 0;
	for (int i = 0; i < r->k->nops; i++) {
		const emu_op *o = &r->k->ops[i];
		if (o->code != OP_LD || o->space != SP_SHARED)
			continue;
		*groups += o->vgroup == 0;
		*wave += r->cnt[i].wavefronts;
		*wave_sass += r->cnt[i].wave_sass;
		*merged += r->cnt[i].merged;
	}
	emu_module_free(r->m);
	free(r);
}

#define FOUR "\tld.shared.f32 %f0, [%r5];\n\tld.shared.f32 %f1, [%r5+4];\n" \
	     "\tld.shared.f32 %f2, [%r5+8];\n\tld.shared.f32 %f3, [%r5+12];\n"

static void test_four_loads_merge_into_lds128(void **state)
{
	(void)state;
	int groups;
	uint64_t wave, sass, merged;
	/* 16 bytes a lane, lanes adjacent: as PTX four 4-way conflicted loads (16 wavefronts);
	 * as one LDS.128, 512 contiguous bytes: 4 wavefronts, three instructions folded */
	run_loads(FOUR, 16, &groups, &wave, &sass, &merged);
	assert_int_equal(groups, 1);
	assert_int_equal(wave, 16);
	assert_int_equal(sass, 4);
	assert_int_equal(merged, 3);
	/* in another order, with arithmetic between: still one group */
	run_loads("\tld.shared.f32 %f0, [%r5];\n\tadd.f32 %f4, %f0, %f0;\n\tld.shared.f32 %f2, [%r5+8];\n"
		  "\tld.shared.f32 %f1, [%r5+4];\n\tld.shared.f32 %f3, [%r5+12];\n",
		  16, &groups, &wave, &sass, &merged);
	assert_int_equal(groups, 1);
	assert_int_equal(merged, 3);
}

static void test_what_stops_the_merge(void **state)
{
	(void)state;
	int groups;
	uint64_t wave, sass, merged;
	/* a base 16-byte aligned in some lanes only (20 bytes apart): counted load by load */
	run_loads(FOUR, 20, &groups, &wave, &sass, &merged);
	assert_int_equal(groups, 1);
	assert_int_equal(merged, 0);
	assert_int_equal(sass, wave);
	/* a store between them, a barrier, three loads only, a predicated one: no group */
	static const char *const bodies[] = {
		"\tld.shared.f32 %f0, [%r5];\n\tld.shared.f32 %f1, [%r5+4];\n\tst.shared.f32 [%r5+64], %f1;\n"
		"\tld.shared.f32 %f2, [%r5+8];\n\tld.shared.f32 %f3, [%r5+12];\n",
		"\tld.shared.f32 %f0, [%r5];\n\tld.shared.f32 %f1, [%r5+4];\n\tbar.sync 0;\n"
		"\tld.shared.f32 %f2, [%r5+8];\n\tld.shared.f32 %f3, [%r5+12];\n",
		"\tld.shared.f32 %f0, [%r5];\n\tld.shared.f32 %f1, [%r5+4];\n\tld.shared.f32 %f2, [%r5+8];\n",
		"\tld.shared.f32 %f0, [%r5];\n\t@%p1 ld.shared.f32 %f1, [%r5+4];\n"
		"\tld.shared.f32 %f2, [%r5+8];\n\tld.shared.f32 %f3, [%r5+12];\n",
		"\tld.shared.f32 %f0, [%r5+4];\n\tld.shared.f32 %f1, [%r5+8];\n"
		"\tld.shared.f32 %f2, [%r5+12];\n\tld.shared.f32 %f3, [%r5+16];\n", /* +4 is no 16-byte start */
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		run_loads(bodies[i], 16, &groups, &wave, &sass, &merged);
		if (groups || merged || sass != wave)
			fail_msg("case %zu: %d groups, %llu merged, %llu of %llu wavefronts", i, groups,
				 (unsigned long long)merged, (unsigned long long)sass, (unsigned long long)wave);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_term_alone),
		cmocka_unit_test(test_sm_pipes_add_as_squares),
		cmocka_unit_test(test_async_engines_beside),
		cmocka_unit_test(test_no_number_when_it_cannot_tell),
		cmocka_unit_test(test_latency_sets_the_sm_time),
		cmocka_unit_test(test_footprint_and_global_wavefronts),
		cmocka_unit_test(test_four_loads_merge_into_lds128),
		cmocka_unit_test(test_what_stops_the_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
