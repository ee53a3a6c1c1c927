/* test_stalls: the stall model (model/stalls.c) on tiny synthetic traces, each built so one reason
 * must dominate, and its latency table read from measured rows. */
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
#include "model/measured.h"
#include "model/stalls.h"

static stall_params params(void)
{
	stall_params p = {.clock_mhz = 1000, .tma_gbs = 44}; /* 44 bytes a cycle on one SM at 1 GHz */
	double lat[STALL_NLAT] = {[STALL_LAT_FFMA] = 4, [STALL_LAT_IMAD] = 4, [STALL_LAT_MUFU] = 18,
				  [STALL_LAT_SHFL] = 23, [STALL_LAT_LDS] = 29, [STALL_LAT_L1] = 40,
				  [STALL_LAT_L2] = 260, [STALL_LAT_DRAM] = 480, [STALL_LAT_MMA] = 33, [STALL_LAT_BAR] = 24};
	memcpy(p.lat, lat, sizeof lat);
	return p;
}

/* A trace of `warps` warps in one block over the ops given. */
static void trace_new(stall_trace *t, int warps, const stall_op *ops, int nops)
{
	stall_trace_init(t, warps, 16);
	t->ops = calloc((size_t)nops, sizeof *t->ops);
	memcpy(t->ops, ops, (size_t)nops * sizeof *ops);
	t->nops = nops;
}

/* A trace of one op (ops[0]) that each of the warps issues n times. */
static void trace_repeat(stall_trace *t, int warps, const stall_op *ops, int n)
{
	trace_new(t, warps, ops, 1);
	for (int w = 0; w < warps; w++)
		for (int i = 0; i < n; i++)
			stall_trace_add(t, 0, w, 0);
}

/* One block on one SM as c says (blocks_per_sm, grid_blocks and sms set here). */
static void run_config(stall_trace *t, stall_result *r, stall_config c)
{
	stall_params p = params();
	c.blocks_per_sm = 1, c.grid_blocks = 1, c.sms = 1;
	char err[200];
	assert_int_equal(stall_model(t, &p, &c, r, err, sizeof err), 0);
}

/* One block on one SM; loads issued ahead (hoist) or not, an FFMA's cycles at its pipe (0: 1). */
static void run_with(stall_trace *t, stall_result *r, int hoist, double fma_cycles)
{
	run_config(t, r, (stall_config){.hoist_loads = hoist, .fma_cycles = fma_cycles});
}

static void run_hoisting(stall_trace *t, stall_result *r, int hoist)
{
	run_with(t, r, hoist, 0);
}

static void run(stall_trace *t, stall_result *r)
{
	run_hoisting(t, r, 0);
}

static double share(const stall_result *r, stall_reason k)
{
	return r->total[k] / r->warp_cycles;
}

/* Each FFMA reads the last one's result: it waits the FFMA latency, 3 cycles of 4 'wait'. */
static void test_dependent_chain_waits(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 10, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}}};
	stall_trace t;
	trace_new(&t, 1, ops, 1);
	for (int i = 0; i < 1000; i++)
		stall_trace_add(&t, 0, 0, 0);
	stall_result r;
	run(&t, &r);
	assert_int_equal(stall_top(r.total), STALL_WAIT);
	assert_true(share(&r, STALL_WAIT) > 0.7);
	assert_true(r.warp_cycles / r.issued > 3.9 && r.warp_cycles / r.issued < 4.1);
	assert_int_equal(r.nlines, 1);
	assert_int_equal(r.lines[0].top, STALL_WAIT);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* A global load the block never read, then its use, one warp: the use waits on long scoreboard. */
static void test_global_load_use_long_scoreboard(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 20, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}, .units = 1},
			  {.line = 21, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 2, .src = {1, 3}}};
	stall_trace t;
	trace_new(&t, 1, ops, 2);
	for (int i = 0; i < 100; i++) {
		stall_trace_add(&t, 0, 0, 0); /* no lines recorded: taken for a miss */
		stall_trace_add(&t, 0, 0, 1);
	}
	stall_result r;
	run(&t, &r);
	assert_int_equal(stall_top(r.total), STALL_LONG_SB);
	assert_int_equal(r.lines[1].line, 21);
	assert_int_equal(r.lines[1].top, STALL_LONG_SB); /* charged to the line that waits, the use */
	/* each pair: the L2 latency (no DRAM share configured) and the two issues */
	assert_true(r.cycles > 100 * 260 && r.cycles < 100 * 270);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* The same line read again and again: the first read misses, the others hit the L1. */
static void test_reuse_hits_l1(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 20, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .units = 1},
			  {.line = 21, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 2, .src = {1, 3}}};
	stall_trace t;
	trace_new(&t, 1, ops, 2);
	uint32_t line = 7;
	for (int i = 0; i < 100; i++) {
		stall_trace_lines(&t, stall_trace_add(&t, 0, 0, 0), &line, 1);
		stall_trace_add(&t, 0, 0, 1);
	}
	stall_result r;
	run(&t, &r);
	assert_true(r.cycles > 260 + 99 * 40 && r.cycles < 260 + 99 * 50);
	/* the hit rate said: 99 of 100 lines there, none on their way (each waited for) */
	assert_true(r.l1_lines == 100 && r.l1_hits == 99 && r.l1_fill_hits == 0);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* Lines past the L1's capacity (what shared memory leaves of it) are evicted: a second sweep misses too. */
static void test_l1_capacity(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 20, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .units = 1},
			  {.line = 21, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 2, .src = {1, 3}}};
	stall_trace t;
	trace_new(&t, 1, ops, 2);
	for (int sweep = 0; sweep < 2; sweep++)
		for (uint32_t line = 0; line < 4096; line++) { /* 512 KB */
			stall_trace_lines(&t, stall_trace_add(&t, 0, 0, 0), &line, 1);
			stall_trace_add(&t, 0, 0, 1);
		}
	stall_result r;
	run(&t, &r);
	assert_true(r.cycles > 2 * 4096 * 260);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* A ring of lines read twice, as build/gpu-l1-ways does on the GPU: 1700 stay in the L1 (the second
 * round hits), 1800 do not (the L1 keeps at most 1728, L1_MAX_BYTES: a round evicts what the next needs). */
static void test_l1_keeps_1728_lines(void **state)
{
	(void)state;
	double hits[2];
	for (int big = 0; big < 2; big++) {
		stall_op ops[] = {{.line = 20, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .units = 1},
				  {.line = 21, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 2, .src = {1, 3}}};
		stall_trace t;
		trace_new(&t, 1, ops, 2);
		uint32_t n = big ? 1800 : 1700;
		for (int round = 0; round < 2; round++)
			for (uint32_t line = 0; line < n; line++) {
				stall_trace_lines(&t, stall_trace_add(&t, 0, 0, 0), &line, 1);
				stall_trace_add(&t, 0, 0, 1);
			}
		stall_result r;
		run(&t, &r);
		hits[big] = (double)r.l1_hits / (double)r.l1_lines;
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(hits[0] > 0.49); /* the whole second round */
	assert_true(hits[1] < 0.01);
}

/* Two warps read one line at once: the second finds it on its way and waits for the same fill. */
static void test_hit_on_miss_waits_for_the_fill(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 20, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .units = 1},
			  {.line = 21, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 2, .src = {1, 3}}};
	stall_trace t;
	trace_new(&t, 2, ops, 2);
	uint32_t line = 3;
	for (int w = 0; w < 2; w++) {
		stall_trace_lines(&t, stall_trace_add(&t, 0, w, 0), &line, 1);
		stall_trace_add(&t, 0, w, 1);
	}
	stall_result r;
	run(&t, &r);
	/* both wait about the miss: two uses at long scoreboard, ~260 cycles each */
	assert_true(r.lines[1].cyc[STALL_LONG_SB] > 2 * 255 && r.lines[1].cyc[STALL_LONG_SB] < 2 * 265);
	assert_true(r.l1_lines == 2 && r.l1_hits == 1 && r.l1_fill_hits == 1);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* Warp 0 works 400 dependent FFMAs before bar.sync, warp 1 reaches it at once: warp 1 waits. bar.sync is
 * BAR.SYNC.DEFER_BLOCKING: warp 1 goes on through the ALU instruction after it and blocks at the first
 * other one (here a branch), where ncu samples its wait; nothing is charged at the bar.sync. */
static void test_slow_warp_barrier(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 30, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}},
			  {.line = 31, .kind = STALL_K_BAR},
			  {.line = 32, .kind = STALL_K_INT, .ndst = 1, .dst = {2}},
			  {.line = 33, .kind = STALL_K_OTHER, .nsrc = 1, .src = {2}}};
	stall_trace t;
	trace_new(&t, 2, ops, 4);
	for (int i = 0; i < 400; i++)
		stall_trace_add(&t, 0, 0, 0);
	for (int w = 0; w < 2; w++)
		for (uint32_t op = 1; op <= 3; op++)
			stall_trace_add(&t, 0, w, op);
	stall_result r;
	run(&t, &r);
	assert_int_equal(r.lines[1].line, 31);
	assert_true(r.lines[1].cyc[STALL_BARRIER] == 0);
	assert_int_equal(r.lines[2].line, 32);
	assert_true(r.lines[2].cyc[STALL_BARRIER] == 0); /* issued while the barrier was still open */
	assert_int_equal(r.lines[3].line, 33);
	assert_int_equal(r.lines[3].top, STALL_BARRIER);
	/* warp 1 waits about warp 0's 1600 cycles, plus the barrier's latency */
	assert_true(r.lines[3].cyc[STALL_BARRIER] > 1600 && r.lines[3].cyc[STALL_BARRIER] < 1700);
	assert_int_equal(r.lines[3].for_line[0], 0); /* for the barrier, not for line 32's result it also reads */
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* After a barrier releases, a warp still in the ALU instructions that followed its bar.sync does not
 * wait; but no load issues ahead across an open barrier: warp 1's load after the bar.sync (and an
 * independent FFMA) waits for warp 0, even with loads hoisted. */
static void test_no_load_passes_an_open_barrier(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 30, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}},
			  {.line = 31, .kind = STALL_K_BAR},
			  {.line = 32, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 1, .src = {3}},
			  {.line = 33, .kind = STALL_K_LDG, .ndst = 1, .dst = {2}, .units = 1}};
	stall_trace t;
	trace_new(&t, 2, ops, 4);
	for (int i = 0; i < 400; i++)
		stall_trace_add(&t, 0, 0, 0);
	for (int w = 0; w < 2; w++)
		for (uint32_t op = 1; op <= 3; op++)
			stall_trace_add(&t, 0, w, op);
	stall_result r;
	run_hoisting(&t, &r, 1);
	assert_int_equal(r.lines[3].line, 33);
	assert_int_equal(r.lines[3].top, STALL_BARRIER);
	assert_true(r.lines[3].cyc[STALL_BARRIER] > 1600);
	assert_true(r.lines[2].cyc[STALL_BARRIER] == 0);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* 400 independent FFMAs of one warp: one a cycle; with the kernel's FFMAs at 1.5 cycles each for their
 * register banks (stall_config.fma_cycles, model/regbanks.h), 600, the rest a dispatch stall. */
static void test_fma_cycles_from_register_banks(void **state)
{
	(void)state;
	double cycles[2];
	for (int i = 0; i < 2; i++) {
		stall_op ops[] = {{.line = 1, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}}};
		stall_trace t;
		trace_repeat(&t, 1, ops, 400);
		stall_result r;
		run_with(&t, &r, 0, i ? 1.5 : 0);
		cycles[i] = r.cycles;
		if (i)
			assert_int_equal(r.lines[0].top, STALL_DISPATCH);
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(cycles[0] >= 400 && cycles[0] <= 402);
	assert_true(cycles[1] >= 598 && cycles[1] <= 602);
}

/* wgmma.fence (WARPGROUP.ARRIVE) waits for the warpgroup's four warps: warps 1-3 wait for warp 0's 400
 * dependent FFMAs at their fence (barrier); the other warpgroup (warps 4-7) does not wait for them.
 * Then each wgmma.wait_group waits for its op, charged barrier (WARPGROUP.DEPBAR). */
static void test_wgmma_fence_waits_for_its_warpgroup(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 30, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}},
			  {.line = 31, .kind = STALL_K_WGFENCE},
			  {.line = 32, .kind = STALL_K_WGMMA, .units = 2.0 * 16 * 256 * 16},
			  {.line = 33, .kind = STALL_K_WGCOMMIT},
			  {.line = 34, .kind = STALL_K_WGWAIT, .wait_n = 0}};
	stall_trace t;
	trace_new(&t, 8, ops, 5);
	for (int i = 0; i < 400; i++)
		stall_trace_add(&t, 0, 0, 0);
	for (int w = 0; w < 8; w++)
		for (uint32_t k = 1; k <= 4; k++)
			stall_trace_add(&t, 0, w, k);
	stall_result r;
	run(&t, &r);
	assert_int_equal(r.lines[1].line, 31);
	assert_int_equal(r.lines[1].top, STALL_BARRIER);
	assert_true(r.lines[2].cyc[STALL_BARRIER] == 0);
	/* warps 1-3 wait about warp 0's 1600 cycles each; warps 4-7 only their siblings' cycle of skew */
	assert_true(r.lines[1].cyc[STALL_BARRIER] > 3 * 1590 && r.lines[1].cyc[STALL_BARRIER] < 3 * 1610 + 40);
	/* the wait_group: each warp's op, 128 cycles on its sub-partition's pipe, and the tensor latency */
	assert_int_equal(r.lines[4].top, STALL_BARRIER);
	assert_true(r.lines[4].cyc[STALL_BARRIER] > 8 * 128 && r.lines[4].cyc[STALL_BARRIER] < 8 * (128 + 33 + 8));
	assert_true(r.cycles > 1596 + 128 + 33 - 1 && r.cycles < 1600 + 128 + 33 + 40);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* A wgmma.fence that the rest of its warpgroup never reaches (not .aligned, which the emulator lets a
 * warp do): warps 1-3 wait at a bar.sync for warp 0, warp 0 at its fence for them; the fence ends when
 * nothing else can run, and the model still answers. */
static void test_lone_wgmma_fence_ends(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 40, .kind = STALL_K_WGFENCE},
			  {.line = 41, .kind = STALL_K_BAR},
			  {.line = 42, .kind = STALL_K_INT, .ndst = 1, .dst = {2}}};
	stall_trace t;
	trace_new(&t, 4, ops, 3);
	stall_trace_add(&t, 0, 0, 0);
	for (int w = 0; w < 4; w++) {
		stall_trace_add(&t, 0, w, 1);
		stall_trace_add(&t, 0, w, 2);
	}
	stall_result r;
	run(&t, &r);
	assert_true(r.issued == 9);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* Independent FFMAs, one warp on each sub-partition: every cycle issues; the SM is issue-bound. */
static void test_independent_issue_bound(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 40, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}}};
	stall_trace t;
	trace_repeat(&t, 4, ops, 500);
	stall_result r;
	run(&t, &r);
	assert_int_equal(stall_top(r.total), STALL_SELECTED);
	assert_true(share(&r, STALL_SELECTED) > 0.99);
	assert_true(r.issue_active > 0.99);
	assert_true(r.cycles >= 500 && r.cycles <= 502);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* Many warps on one sub-partition with independent work: all but one wait their turn. */
static void test_crowded_subpartition_not_selected(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 50, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}}};
	stall_trace t;
	trace_repeat(&t, 16, ops, 100);
	stall_result r;
	run(&t, &r);
	assert_int_equal(stall_top(r.total), STALL_NOT_SELECTED);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* The table comes from measured rows; a missing one is named. */
static void test_params_from_measured_rows(void **state)
{
	(void)state;
	char text[4096] = "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n", err[256];
	for (int i = 0; i < STALL_NLAT; i++)
		if (i != STALL_LAT_L2)
			snprintf(text + strlen(text), sizeof text - strlen(text), "H100\td\t2026-11-28\tc\t0\t0\t%s\t%d\tcycles\n",
				 stall_lat_key((stall_lat)i), 10 + i);
	assert_true(measured_parse("fixture.tsv", text, err, sizeof err) > 0);
	stall_params p;
	assert_int_equal(stall_params_load(&p, err, sizeof err), -1);
	assert_non_null(strstr(err, "latency_l2"));
	snprintf(text + strlen(text), sizeof text - strlen(text), "H100\td\t2026-11-28\tc\t0\t0\tlatency_l2\t270\tcycles\n");
	assert_true(measured_parse("fixture.tsv", text, err, sizeof err) > 0);
	assert_int_equal(stall_params_load(&p, err, sizeof err), -1);
	assert_non_null(strstr(err, "ceiling_tma"));
	snprintf(text + strlen(text), sizeof text - strlen(text), "H100\td\t2026-11-28\tc\t0\t0\tceiling_tma\t9000\tGB/s\n");
	static const char *const more_rows[][2] = {{"latency_mhz", "2000\tcount"},     {"latency_l2_ns", "70\tns"},
						  {"latency_dram_ns", "250\tns"},    {"latency_bar_warps", "8\tcount"},
						  {"latency_bar_per_warp", "2\tcycles"}};
	for (int i = 0; i < 5; i++) { /* each missing one named, in turn */
		assert_true(measured_parse("fixture.tsv", text, err, sizeof err) > 0);
		assert_int_equal(stall_params_load(&p, err, sizeof err), -1);
		assert_non_null(strstr(err, more_rows[i][0]));
		snprintf(text + strlen(text), sizeof text - strlen(text), "H100\td\t2026-11-28\tc\t0\t0\t%s\t%s\n",
			 more_rows[i][0], more_rows[i][1]);
	}
	assert_true(measured_parse("fixture.tsv", text, err, sizeof err) > 0);
	assert_int_equal(stall_params_load(&p, err, sizeof err), 0);
	assert_true(p.lat[STALL_LAT_L2] == 270 && p.lat[STALL_LAT_FFMA] == 10 && p.tma_gbs == 9000);
	/* at the rows' clock the rows; below it L2 and DRAM lose their ns parts times the drop in GHz (500
	 * MHz: 35 cycles of L2's), the rest (the SM's own) the same */
	assert_true(stall_latency_at(&p, STALL_LAT_L2, 2000) == 270 && stall_latency_at(&p, STALL_LAT_L2, 1500) == 235);
	assert_true(stall_latency_at(&p, STALL_LAT_DRAM, 1990) == p.lat[STALL_LAT_DRAM] - 2.5);
	assert_true(stall_latency_at(&p, STALL_LAT_L1, 1500) == p.lat[STALL_LAT_L1]);
	assert_true(p.clock_mhz == STALL_CLOCK_MHZ_DEFAULT && !p.clock_measured);
}

/* The emulator's trace of a real kernel: every issued instruction once, in each warp's order, the
 * global loads with their lines; the model replays it and charges every cycle. */
static void test_emulator_trace(void **state)
{
	(void)state;
	run_request rq;
	memset(&rq, 0, sizeof rq);
	util_path(rq.ptx_path, sizeof rq.ptx_path, "tests/emu/naive.ptx");
	util_strlcpy(rq.entry, "gemm_naive", sizeof rq.entry);
	rq.dt = DTYPE_F32;
	rq.M = rq.N = 64, rq.K = 64;
	rq.grid[0] = rq.grid[1] = 2, rq.grid[2] = 1;
	rq.block[0] = rq.block[1] = 32, rq.block[2] = 1;
	stall_trace t;
	memset(&t, 0, sizeof t);
	emu_options opt = {.no_verify = 1, .zero_inputs = 1, .trace = &t};
	static emu_result res;
	char err[512];
	if (emu_run(&rq, &opt, &res, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(t.nblocks, 4);
	assert_int_equal(t.warps_per_block, 32);
	assert_int_equal(t.nrecs, res.total.inst_total);
	size_t loads = 0, with_lines = 0;
	for (int w = 0; w < t.nblocks * t.warps_per_block; w++)
		for (size_t i = 0; i < t.warps[w].n; i++) {
			const stall_rec *r = &t.warps[w].rec[i];
			assert_true(r->op < (uint32_t)t.nops);
			if (t.ops[r->op].kind == STALL_K_LDG) {
				loads++;
				with_lines += r->mem != STALL_NO_MEM && t.mem[r->mem] >= 1;
			}
		}
	assert_int_equal(loads, res.total.inst[EMU_CLS_LD_GLOBAL]);
	assert_int_equal(with_lines, loads);
	stall_params p = params();
	stall_config c = {.blocks_per_sm = 2, .grid_blocks = 4, .sms = 2};
	stall_result r;
	assert_int_equal(stall_model(&t, &p, &c, &r, err, sizeof err), 0);
	assert_true(r.issued == (double)res.total.inst_total / 2); /* two resident blocks of the four */
	assert_true(r.warp_cycles >= r.issued && r.total[STALL_LONG_SB] > 0);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* Lesson 2's loop: each load reuses one register after the last one's use, its address a step on.
 * In PTX order the loads wait one after another; as ptxas schedules (addresses and loads issued
 * ahead, the register renamed) their latencies overlap, and each use still reads its own load. */
static void test_loads_issue_ahead_renamed(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 1, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}, .units = 1},
			  {.line = 2, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 2, .src = {1, 3}},
			  {.line = 3, .kind = STALL_K_INT, .ndst = 1, .dst = {2}, .nsrc = 1, .src = {2}}};
	double cycles[3];
	for (int hoist = 0; hoist <= 2; hoist++) {
		stall_trace t;
		trace_new(&t, 1, ops, 3);
		for (int i = 0; i < 64; i++)
			for (int k = 0; k < 3; k++)
				stall_trace_add(&t, 0, 0, (uint32_t)k); /* every load a miss */
		stall_result r;
		run_hoisting(&t, &r, hoist);
		cycles[hoist] = r.cycles;
		assert_true(r.issued == 64 * 3);
		/* every use waits on its load: no use runs before a load issued after it */
		assert_int_equal(r.lines[1].top, STALL_LONG_SB);
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(cycles[0] > 64 * 260);              /* in order: one latency each */
	assert_true(cycles[1] > 64 * 260);              /* loads alone: the address step still waits */
	assert_true(cycles[2] < 64 * 260 / 3);           /* addresses and loads ahead: overlapped */
}

/* Two warpgroups on named barriers 1 and 2 (bar.sync id, 64): each waits only for its own pair (at the
 * branch after it: a barrier's wait shows at the first instruction that is not ALU work). */
static void test_named_barriers(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 1, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}},
			  {.line = 2, .kind = STALL_K_BAR, .bar_warps = 2},
			  {.line = 3, .kind = STALL_K_OTHER}};
	stall_trace t;
	trace_new(&t, 4, ops, 3);
	for (int w = 0; w < 4; w++) {
		for (int i = 0; i < (w == 3 ? 500 : 0); i++) /* warp 3, of barrier 2, is slow */
			stall_trace_add(&t, 0, w, 0);
		stall_trace_add(&t, 0, w, 1)->mem = w < 2 ? 1 : 2;
		stall_trace_add(&t, 0, w, 2);
	}
	stall_result r;
	run(&t, &r);
	/* warps 0 and 1 pass at once; warp 2 waits for warp 3's ~2000 cycles */
	assert_true(r.lines[2].cyc[STALL_BARRIER] > 2000 && r.lines[2].cyc[STALL_BARRIER] < 2000 + 3 * 100);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* A TMA copy, then mbarrier.try_wait: the try_wait issues (SYNCS.PHASECHK) and its predicate comes back
 * once the copy lands; the branch that reads it waits, long scoreboard, charged at the line before the
 * try_wait's, where ptxas's line table puts the spin loop's first test. */
static void test_try_wait_charged_at_the_line_before(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 10, .kind = STALL_K_TMA, .units = 4096},
			  {.line = 11, .kind = STALL_K_MBAR_WAIT, .ndst = 1, .dst = {3}},
			  {.line = 12, .kind = STALL_K_OTHER, .nsrc = 1, .src = {3}}};
	stall_trace t;
	trace_new(&t, 1, ops, 3);
	for (uint32_t i = 0; i < 3; i++)
		stall_trace_add(&t, 0, 0, i);
	stall_result r;
	run(&t, &r);
	assert_int_equal(r.nlines, 3);
	assert_true(r.lines[1].cyc[STALL_LONG_SB] == 0 && r.lines[2].cyc[STALL_LONG_SB] == 0);
	assert_int_equal(r.lines[0].top, STALL_LONG_SB);
	/* the copy's bytes at 44 a cycle, then L2 (c.l2_miss 0): about 93 + 260 cycles */
	assert_true(r.lines[0].cyc[STALL_LONG_SB] > 300 && r.lines[0].cyc[STALL_LONG_SB] < 400);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* The copy engine's bytes a cycle are its GB/s at the clock the cycles are read at: at half the clock
 * a copy takes half the cycles (4096 bytes: about 93 at 1 GHz, 47 at 500 MHz), the L2's latency alike. */
static void test_tma_bytes_a_cycle_follow_the_clock(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 10, .kind = STALL_K_TMA, .units = 4096},
			  {.line = 11, .kind = STALL_K_MBAR_WAIT, .ndst = 1, .dst = {3}},
			  {.line = 12, .kind = STALL_K_OTHER, .nsrc = 1, .src = {3}}};
	double wait[2];
	for (int i = 0; i < 2; i++) {
		stall_trace t;
		trace_new(&t, 1, ops, 3);
		for (uint32_t k = 0; k < 3; k++)
			stall_trace_add(&t, 0, 0, k);
		stall_result r;
		run_config(&t, &r, (stall_config){.clock_mhz = i ? 500 : 0});
		wait[i] = r.lines[0].cyc[STALL_LONG_SB];
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(wait[0] - wait[1] > 40 && wait[0] - wait[1] < 53);
}

/* A global load also takes the MIO's pipe 1.675 cycles (LG_MIO_CYCLES): a shuffle after 20 of them
 * starts about 33 cycles on, so the FMA that reads it waits its 23 cycles and most of that too. */
static void test_global_loads_take_the_mio_pipe(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 60, .kind = STALL_K_LDG, .units = 1}, /* no result: none waits for another */
			  {.line = 61, .kind = STALL_K_SHFL, .ndst = 1, .dst = {1}},
			  {.line = 62, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 1, .src = {1}}};
	double wait[2];
	for (int loads = 0; loads <= 20; loads += 20) {
		stall_trace t;
		trace_new(&t, 1, ops, 3);
		for (int i = 0; i < loads; i++)
			stall_trace_add(&t, 0, 0, 0);
		stall_trace_add(&t, 0, 0, 1);
		stall_trace_add(&t, 0, 0, 2);
		stall_result r;
		run(&t, &r);
		wait[loads > 0] = r.lines[r.nlines - 1].cyc[STALL_SHORT_SB];
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(wait[0] >= 22 && wait[0] <= 24);
	assert_true(wait[1] - wait[0] > 8); /* 20 x 1.675 = 33.5 cycles of the pipe, 20 of them issue */
}

/* A barrier frees its warps latency_bar cycles after the last arrives, and bar_per_warp more for each warp
 * past latency_bar's (gpu-latency: 16, 20, 28, 44, 76 cycles for 2, 4, 8, 16, 32 warps): all 32 warps at a
 * bar.sync wait 24 x 2 cycles longer than with a per-warp cost of 0, each charged at the op after it. */
static void test_barrier_release_grows_with_its_warps(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 70, .kind = STALL_K_BAR}, {.line = 71, .kind = STALL_K_LDG, .units = 1}};
	double wait[2];
	for (int i = 0; i < 2; i++) {
		stall_trace t;
		trace_new(&t, 32, ops, 2);
		for (int w = 0; w < 32; w++) {
			stall_trace_add(&t, 0, w, 0)->mem = 0;
			stall_trace_add(&t, 0, w, 1);
		}
		stall_params p = params();
		p.bar_warps = 8, p.bar_per_warp = i ? 2 : 0;
		stall_config c = {.blocks_per_sm = 1, .grid_blocks = 1, .sms = 1};
		stall_result r;
		char err[200];
		assert_int_equal(stall_model(&t, &p, &c, &r, err, sizeof err), 0);
		wait[i] = r.lines[1].cyc[STALL_BARRIER];
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(wait[1] - wait[0] == 32 * 24 * 2);
}

/* barrier.cluster.wait: the block's warps wait for each other there (the replay's block stands for its
 * cluster's), charged at the wait itself, where its SASS blocks (ncu: lesson 10's idle producer warps
 * at line 465), not at the instruction after it as a bar.sync's. */
static void test_cluster_barrier_charged_at_the_wait(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 40, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}},
			  {.line = 41, .kind = STALL_K_BAR},
			  {.line = 42, .kind = STALL_K_OTHER}};
	stall_trace t;
	trace_new(&t, 2, ops, 3);
	for (int i = 0; i < 100; i++) /* warp 0: 100 dependent FFMAs first */
		stall_trace_add(&t, 0, 0, 0);
	for (int w = 0; w < 2; w++) {
		stall_trace_add(&t, 0, w, 1)->mem = STALL_BAR_CLUSTER;
		stall_trace_add(&t, 0, w, 2);
	}
	stall_result r;
	run(&t, &r);
	assert_int_equal(r.lines[1].line, 41);
	assert_int_equal(r.lines[1].top, STALL_BARRIER);
	assert_true(r.lines[1].cyc[STALL_BARRIER] > 350); /* warp 1 waits out warp 0's ~400 cycles */
	/* after it only the last to arrive, for the release's latency (latency_bar, 24 here) */
	assert_true(r.lines[2].cyc[STALL_BARRIER] <= 24);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* A bar.sync whose wait ptxas's SASS shows at another op (bar_shows: lesson 3's second load before its
 * first): warp 1 waits for warp 0's 100 FFMAs, charged there, not at the PTX's first load after it; and
 * without bar_shows at that first load. Both when the warp blocks at the barrier and when the barrier
 * opened while it still issued the ALU op between. */
static void test_barrier_wait_shows_where_sass_orders_it(void **state)
{
	(void)state;
	for (int shows = 0; shows < 2; shows++) {
		stall_op ops[] = {{.line = 50, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}},
				  {.line = 51, .kind = STALL_K_BAR, .bar_shows = shows ? 5 : 0},
				  {.line = 52, .kind = STALL_K_INT, .ndst = 1, .dst = {2}},
				  {.line = 53, .kind = STALL_K_LDS, .ndst = 1, .dst = {3}, .units = 1},
				  {.line = 54, .kind = STALL_K_LDS, .ndst = 1, .dst = {4}, .units = 1}};
		stall_trace t;
		trace_new(&t, 2, ops, 5);
		for (int i = 0; i < 100; i++) /* warp 0: 100 dependent FFMAs first */
			stall_trace_add(&t, 0, 0, 0);
		for (int w = 0; w < 2; w++) {
			stall_trace_add(&t, 0, w, 1)->mem = 0;
			for (uint32_t k = 2; k < 5; k++)
				stall_trace_add(&t, 0, w, k);
		}
		stall_result r;
		run(&t, &r);
		assert_int_equal(r.lines[3].line, 53);
		assert_int_equal(r.lines[4].line, 54);
		double at53 = r.lines[3].cyc[STALL_BARRIER], at54 = r.lines[4].cyc[STALL_BARRIER];
		assert_true((shows ? at54 : at53) > 300); /* 100 FFMAs at 4 cycles: warp 1 waits about 400 */
		assert_true((shows ? at53 : at54) == 0);
		stall_result_free(&r);
		stall_trace_free(&t);
	}
}

/* A load whose scoreboard ptxas's SASS waits on first at another line (wait_shows: low_occ's thirteen LDGs
 * sharing one, waited on at the STS of line 145): its use's long-scoreboard wait is charged there; without
 * wait_shows at the use. The time is the same either way. */
static void test_load_wait_shows_where_sass_waits(void **state)
{
	(void)state;
	long long cycles[2];
	for (int shows = 0; shows < 2; shows++) {
		stall_op ops[] = {{.line = 20, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}, .units = 1,
				   .wait_shows = shows ? 2 : 0},
				  {.line = 21, .kind = STALL_K_INT, .ndst = 1, .dst = {4}},
				  {.line = 22, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 2, .src = {1, 3}}};
		stall_trace t;
		trace_new(&t, 1, ops, 3);
		for (int i = 0; i < 100; i++)
			for (uint32_t k = 0; k < 3; k++)
				stall_trace_add(&t, 0, 0, k);
		stall_result r;
		run(&t, &r);
		assert_int_equal(r.lines[1].line, 21);
		assert_int_equal(r.lines[2].line, 22);
		double at21 = r.lines[1].cyc[STALL_LONG_SB], at22 = r.lines[2].cyc[STALL_LONG_SB];
		assert_true((shows ? at21 : at22) > 100 * 250); /* the L2's latency, each time */
		assert_true((shows ? at22 : at21) == 0);
		cycles[shows] = r.cycles;
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(cycles[0] == cycles[1]);
}

/* An op whose SASS rewrites a register a queued LG access has not read yet waits for the L1 to start on that
 * access (war_on: lesson 1's pointer step after its LDG, ncu's long scoreboard there): the second load waits
 * behind the first's 512 lines, so the add that rewrites its address waits about that long; without war_on,
 * not at all. */
static void test_write_waits_for_a_queued_read(void **state)
{
	(void)state;
	for (int war = 0; war < 2; war++) {
		stall_op ops[] = {{.line = 30, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {5}, .units = 512},
				  {.line = 31, .kind = STALL_K_LDG, .ndst = 1, .dst = {2}, .nsrc = 1, .src = {6}, .units = 1},
				  {.line = 32, .kind = STALL_K_INT, .ndst = 1, .dst = {6}, .nsrc = 1, .src = {6}, .war_on = war ? 2 : 0}};
		stall_trace t;
		trace_new(&t, 1, ops, 3);
		for (uint32_t k = 0; k < 3; k++)
			stall_trace_add(&t, 0, 0, k);
		stall_result r;
		run(&t, &r);
		assert_int_equal(r.lines[2].line, 32);
		double at32 = r.lines[2].cyc[STALL_LONG_SB];
		assert_true(war ? at32 > 400 && at32 < 600 : at32 == 0);
		stall_result_free(&r);
		stall_trace_free(&t);
	}
}

/* Each line says whose results it waited for: the use of a load waits for the load's line (long
 * scoreboard) and for the FMA before it (its accumulator, wait), the load's the longer; stall_line_for
 * keeps the three longest, the longest first. */
static void test_line_says_what_it_waits_for(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 40, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}, .units = 1},
			  {.line = 41, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 2, .src = {1, 3}}};
	stall_trace t;
	trace_new(&t, 1, ops, 2);
	for (int i = 0; i < 50; i++)
		for (uint32_t k = 0; k < 2; k++)
			stall_trace_add(&t, 0, 0, k);
	stall_result r;
	run(&t, &r);
	assert_int_equal(r.lines[1].line, 41);
	assert_int_equal(r.lines[1].for_line[0], 40);
	assert_true(r.lines[1].for_cyc[0] > 50 * 250);
	assert_int_equal(r.lines[0].for_line[0], 0); /* the load waits for nothing */
	stall_result_free(&r);
	stall_trace_free(&t);
	stall_line l = {0};
	double cyc[] = {5, 30, 10, 20, 1};
	for (int i = 0; i < 5; i++)
		stall_line_for(&l, 100 + i, cyc[i]);
	stall_line_for(&l, 103, 15); /* 103 again: 35 in all */
	stall_line_for(&l, 0, 99);   /* no line: nothing */
	assert_int_equal(l.for_line[0], 103);
	assert_int_equal(l.for_line[1], 101);
	assert_int_equal(l.for_line[2], 102);
	assert_true(l.for_cyc[0] == 35 && l.for_cyc[2] == 10);
}

/* A wgmma holds its warp's next wgmma as it issues, 0.11 cycles a column of N (gpu-queues: 28.4 cycles
 * apart for n256), not its other instructions: charged as wait while only its own wgmmas are in its
 * sub-partition's tensor pipe, as MIO throttle behind another warp's (gpu-wgmma-stalls under ncu, one
 * warp a sub-partition: the HGMMAs' samples 91% wait; two: 81% MIO throttle). */
static void test_wgmma_holds_its_next_wgmma(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 30, .kind = STALL_K_WGMMA, .units = 512 * 256},
			  {.line = 31, .kind = STALL_K_INT, .ndst = 1, .dst = {1}},
			  {.line = 32, .kind = STALL_K_WGMMA, .units = 512 * 256}};
	for (int warps = 4; warps <= 8; warps += 4) { /* one warp a sub-partition, then two */
		stall_trace t;
		trace_new(&t, warps, ops, 3);
		for (int w = 0; w < warps; w++)
			for (int i = 0; i < 8; i++)
				for (uint32_t k = 0; k < 3; k++)
					stall_trace_add(&t, 0, w, k);
		stall_result r;
		run(&t, &r);
		assert_int_equal(r.lines[1].line, 31);
		assert_int_equal(r.lines[1].top, STALL_SELECTED); /* the INT op does not wait for the wgmma */
		assert_int_equal(r.lines[2].line, 32);
		if (warps == 4) {
			assert_int_equal(r.lines[2].top, STALL_WAIT);
			assert_true(r.lines[2].cyc[STALL_WAIT] >= 32 * 26 && r.lines[2].cyc[STALL_WAIT] <= 32 * 28);
		} else {
			assert_int_equal(r.lines[2].top, STALL_MIO);
		}
		stall_result_free(&r);
		stall_trace_free(&t);
	}
}

/* A grid smaller than a wave: an SM holds the blocks the grid gives it (3 blocks on 2 SMs: 2), not all
 * that fit (4). */
static void test_small_grid_fills_fewer_blocks(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 1, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}}};
	stall_trace t;
	trace_repeat(&t, 2, ops, 10);
	stall_params p = params();
	stall_config c = {.blocks_per_sm = 4, .grid_blocks = 3, .sms = 2};
	stall_result r;
	char err[200];
	assert_int_equal(stall_model(&t, &p, &c, &r, err, sizeof err), 0);
	assert_int_equal(r.blocks, 2);
	assert_int_equal(r.warps, 4);
	assert_true(r.waves == 1);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* Producer and consumer on two mbarriers (slots 0 and 1): the consumer's wait on slot 1 lasts until the
 * producer's second copy, 400 dependent FFMAs later, lands; its wait on slot 0, whose copy landed long
 * before, is short, though a newer copy (slot 1's) was issued since. */
static void test_mbarrier_waits_for_its_own_phase(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 20, .kind = STALL_K_TMA, .units = 4096},
			  {.line = 21, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {1}},
			  {.line = 22, .kind = STALL_K_MBAR_WAIT, .ndst = 1, .dst = {3}},
			  {.line = 23, .kind = STALL_K_OTHER, .nsrc = 1, .src = {3}}};
	stall_trace t;
	trace_new(&t, 2, ops, 4);
	stall_trace_add(&t, 0, 0, 0)->mem = 0;
	for (int i = 0; i < 400; i++)
		stall_trace_add(&t, 0, 0, 1);
	stall_trace_add(&t, 0, 0, 0)->mem = 1;
	for (uint32_t slot = 1; slot + 1 > 0; slot--) { /* slot 1, then slot 0: each waits for one copy */
		uint32_t v[3] = {slot, 0, 1};
		stall_trace_lines(&t, stall_trace_add(&t, 0, 1, 2), v, 3);
		stall_trace_add(&t, 0, 1, 3);
	}
	stall_result r;
	run(&t, &r);
	assert_int_equal(r.lines[1].line, 21); /* the line before the try_wait's */
	assert_true(r.lines[3].cyc[STALL_LONG_SB] == 0);
	/* ~1600 cycles of FFMAs, the copy's ~93 cycles and L2's 260, latency_lds twice */
	double w = r.lines[1].cyc[STALL_LONG_SB];
	assert_true(w > 1900 && w < 2100);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* Sixteen warps (four a sub-partition) whose uncoalesced loads (32 lines each) fill the LG queues:
 * the queue serves them in turn, so they all run to about the end (a fixed priority ran some to the
 * end alone, the others done long before: warp cycles well under 16 x the cycles). */
static void test_throttled_warps_share_the_queue(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 40, .kind = STALL_K_LDG, .units = 32}};
	stall_trace t;
	trace_repeat(&t, 16, ops, 100);
	stall_result r;
	run(&t, &r);
	/* 1600 loads of 32 lines at one line a cycle, but the last 128 (32 a sub-partition) still queued when
	 * the warps are done (the replay ends at its last issue) */
	assert_true(r.cycles > (1600 - 4 * 32) * 32 * 0.98 && r.cycles < 1600 * 32 * 1.02);
	assert_true(r.warp_cycles > 0.9 * 16 * r.cycles); /* each done once its last loads are queued */
	assert_int_equal(r.lines[0].top, STALL_LG);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* One warp's independent 32-line loads (32 cycles of the L1's each), n of them, each standing for `places`
 * SASS LDGs: the LG throttle it meets. */
static double lg_throttle_of(int n, int places)
{
	stall_op ops[] = {{.line = 40, .kind = STALL_K_LDG, .units = 32, .lg_sass = places}};
	stall_trace t;
	trace_repeat(&t, 1, ops, n);
	stall_result r;
	run(&t, &r);
	double lg = r.total[STALL_LG];
	stall_result_free(&r);
	stall_trace_free(&t);
	return lg;
}

/* A sub-partition's LG queue holds 32 SASS instructions until the L1 starts on them: one warp's first 34
 * loads issue a cycle apart, its 35th to 40th each when the L1 starts on the one 32 before it (its 3rd to
 * 8th, 32 cycles apart: 190 cycles in all); a load that stands for an unrolled loop's 4 LDGs takes 4
 * places, so 8 of them fill it. */
static void test_lg_queue_holds_32(void **state)
{
	(void)state;
	assert_true(lg_throttle_of(32, 1) == 0);
	double lg = lg_throttle_of(40, 1);
	assert_true(lg > 5 * 32 && lg < 7 * 32);
	assert_true(lg_throttle_of(8, 4) == 0);
	assert_true(lg_throttle_of(10, 4) > 0);
	assert_true(lg_throttle_of(40, 4) > 4 * lg); /* 40 of 4 places: four times the instructions */
}

/* Load r1, use it, load r3, use it, the loop's branch, 16 times, one warp, loads issued ahead; each load takes the whole LG
 * queue (32 places) and 512 cycles of the L1, so the second waits for the first's places to start. Its LG
 * throttle (line 3) and the first use's long scoreboard (line 2), the second load at place `at` in the
 * SASS (the first use at 10). */
static void load_ahead_held(int at, double *lg3, double *lsb2)
{
	stall_op ops[] = {{.line = 1, .kind = STALL_K_LDG, .ndst = 1, .dst = {1}, .units = 512, .lg_sass = 32, .sass_at = 1},
			  {.line = 2, .kind = STALL_K_FMA, .ndst = 1, .dst = {2}, .nsrc = 2, .src = {1, 2}, .sass_at = 10},
			  {.line = 3, .kind = STALL_K_LDG, .ndst = 1, .dst = {3}, .units = 512, .lg_sass = 32, .sass_at = at},
			  {.line = 4, .kind = STALL_K_FMA, .ndst = 1, .dst = {4}, .nsrc = 2, .src = {3, 4}, .sass_at = 11},
			  {.line = 5, .kind = STALL_K_OTHER, .sass_at = 20}};
	stall_trace t;
	trace_new(&t, 1, ops, 5);
	for (int i = 0; i < 16; i++)
		for (uint32_t k = 0; k < 5; k++)
			stall_trace_add(&t, 0, 0, k);
	stall_result r;
	run_hoisting(&t, &r, 2);
	*lg3 = r.lines[2].cyc[STALL_LG], *lsb2 = r.lines[1].cyc[STALL_LONG_SB];
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* Where ptxas's SASS issues the second load before the first use (an unrolled loop's loads all first), a
 * warp waiting for the first load's data while LG throttle holds the second waits at the second on the GPU:
 * charged there; where the SASS has it after the use, the use's long scoreboard keeps the wait. */
static void test_load_ahead_held_at_its_line(void **state)
{
	(void)state;
	double lg_before, lsb_before, lg_after, lsb_after;
	load_ahead_held(5, &lg_before, &lsb_before);
	load_ahead_held(12, &lg_after, &lsb_after);
	assert_true(lg_before > 15 * 400); /* each round about the first load's 512 cycles */
	assert_true(lg_after < lg_before / 4);
	assert_true(lsb_after > lsb_before + lg_before / 2); /* the same wait, at the use */
}

/* load r1; store r1 to shared; load r2; store r2 (then a branch, where `branch`), 32 times, every global
 * load a miss, replayed with loads issued ahead: its cycles, and the second store's top reason in *top. The
 * ops' sass_at are sass[0..4] (0: no recording). */
static double loads_and_stores(uint8_t ld, const int sass[5], int branch, stall_reason *top)
{
	stall_op ops[] = {{.line = 1, .kind = ld, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {5}, .units = 1, .sass_at = sass[0]},
			  {.line = 2, .kind = STALL_K_STS, .nsrc = 1, .src = {1}, .units = 1, .sass_at = sass[1]},
			  {.line = 3, .kind = ld, .ndst = 1, .dst = {2}, .nsrc = 1, .src = {5}, .units = 1, .sass_at = sass[2]},
			  {.line = 4, .kind = STALL_K_STS, .nsrc = 1, .src = {2}, .units = 1, .sass_at = sass[3]},
			  {.line = 5, .kind = STALL_K_OTHER, .sass_at = sass[4]}};
	int n = branch ? 5 : 4;
	stall_trace t;
	trace_new(&t, 1, ops, n);
	for (int i = 0; i < 32; i++)
		for (int k = 0; k < n; k++)
			stall_trace_add(&t, 0, 0, (uint32_t)k);
	stall_result r;
	run_hoisting(&t, &r, 2);
	double cycles = r.cycles;
	*top = r.lines[3].top;
	stall_result_free(&r);
	stall_trace_free(&t);
	return cycles;
}

/* A global load after a shared store issues ahead of it (another state space: ptxas moves it so);
 * a shared load after one does not (it may read what the store writes). */
static void test_global_load_passes_shared_store(void **state)
{
	(void)state;
	static const int none[5] = {0};
	stall_reason top;
	/* the global loads run ahead of the stores, several steps' in flight (kept behind them, two latencies a step) */
	assert_true(loads_and_stores(STALL_K_LDG, none, 0, &top) < 32 * 260 / 2);
	/* the shared loads stay behind the stores: two latencies a step */
	assert_true(loads_and_stores(STALL_K_LDS, none, 0, &top) > 64 * 29 * 0.95);
}

/* The same four ops in a loop, with ptxas's SASS recorded: where it issues the second LDG after the
 * first STS (stall_op.sass_at), the load does not pass that store while it waits: two latencies a
 * step, as the GPU runs that SASS; recorded the other way round, it passes: one. */
static void test_global_load_keeps_sass_order(void **state)
{
	(void)state;
	static const int before[5] = {1, 3, 2, 4, 5}, after[5] = {1, 2, 3, 4, 5};
	stall_reason top;
	assert_true(loads_and_stores(STALL_K_LDG, before, 1, &top) < 32 * 270 * 1.1); /* the two loads together */
	assert_true(loads_and_stores(STALL_K_LDG, after, 1, &top) > 32 * 2 * 260 * 0.9); /* in turn */
	assert_int_equal(top, STALL_LONG_SB); /* the second store waits for its load's data */
}

/* low_occ's inner loop: a shared load, then 8 more, each just before the FFMA that uses it (the PTX's
 * order). A shared load passes an FFMA still waiting for an earlier one (ptxas puts them ahead): one
 * latency a step, not one a pair. A global load does not (latency_chain's SASS keeps them near their
 * use): its FFMAs wait in turn. */
static void test_shared_load_passes_a_waiting_use(void **state)
{
	(void)state;
	double cycles[2];
	for (int kind = 0; kind < 2; kind++) {
		uint8_t ld = kind ? STALL_K_LDG : STALL_K_LDS;
		stall_op ops[17] = {{.line = 1, .kind = ld, .ndst = 1, .dst = {10}, .nsrc = 1, .src = {20}, .units = 1}};
		for (int j = 1; j <= 8; j++) {
			ops[2 * j - 1] = (stall_op){.line = 2 * j, .kind = ld, .ndst = 1, .dst = {10 + j}, .nsrc = 1,
						    .src = {20}, .units = 1};
			ops[2 * j] = (stall_op){.line = 2 * j + 1, .kind = STALL_K_FMA, .ndst = 1, .dst = {30 + j},
						.nsrc = 2, .src = {10, 10 + j}};
		}
		stall_trace t;
		trace_new(&t, 1, ops, 17);
		for (int i = 0; i < 16; i++)
			for (int k = 0; k < 17; k++)
				stall_trace_add(&t, 0, 0, (uint32_t)k); /* every global load a miss */
		stall_result r;
		run_hoisting(&t, &r, 2);
		cycles[kind] = r.cycles;
		assert_int_equal(r.lines[2].top, kind ? STALL_LONG_SB : STALL_SHORT_SB); /* the first use waits */
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(cycles[0] < 16 * 29 * 1.5); /* the shared loads: about one latency a step (in turn: 82 cycles) */
	assert_true(cycles[1] > 16 * 2 * 260);  /* the global loads: a miss or more a pair of uses */
}

/* A shared load with no wavefronts of its own (ptxas merged it into its group's LDS.128, whose
 * leader carries the group's) adds nothing at MIO. */
static void test_merged_shared_load_costs_no_mio(void **state)
{
	(void)state;
	double cycles[2];
	for (int merged = 0; merged < 2; merged++) {
		stall_op ops[] = {{.line = 1, .kind = STALL_K_LDS, .units = merged ? 0 : 4}}; /* no result: no waits of its own */
		stall_trace t;
		trace_repeat(&t, 32, ops, 100);
		stall_result r;
		run(&t, &r);
		cycles[merged] = r.cycles;
		if (!merged)
			assert_int_equal(r.lines[0].top, STALL_MIO);
		stall_result_free(&r);
		stall_trace_free(&t);
	}
	assert_true(cycles[0] > 3200 * 4 * 0.95); /* 3200 loads of 4 wavefronts at one a cycle */
	assert_true(cycles[1] < 3200 / 4 * 1.2);  /* issue alone: four sub-partitions, one a cycle each */
}

/* A debug build: every instruction holds its warp STALL_DEBUG_HOLD cycles, charged wait, however
 * independent; the same trace optimised issues every cycle. */
static void test_debug_build_holds_each_instruction(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 60, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}}};
	stall_trace t;
	trace_repeat(&t, 1, ops, 200);
	stall_result r;
	run_config(&t, &r, (stall_config){.debug = 1});
	assert_int_equal(stall_top(r.total), STALL_WAIT);
	assert_true(r.cycles >= 199 * STALL_DEBUG_HOLD && r.cycles <= 199 * STALL_DEBUG_HOLD + 2);
	stall_result_free(&r);
	run(&t, &r);
	assert_true(r.cycles <= 202);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* A debug build waits for every scoreboard: an instruction that does not read a load's result
 * still waits for it (long scoreboard); optimised, it issues at once. */
static void test_debug_build_waits_for_every_load(void **state)
{
	(void)state;
	stall_op ops[11] = {{.line = 71, .kind = STALL_K_INT, .ndst = 1, .dst = {12}, .nsrc = 1, .src = {13}}};
	for (int i = 1; i <= 10; i++) /* ten loads into ten registers: none waits for another */
		ops[i] = (stall_op){.line = 70, .kind = STALL_K_LDG, .ndst = 1, .dst = {i}, .nsrc = 1, .src = {14}, .units = 1};
	stall_trace t;
	trace_new(&t, 1, ops, 11);
	for (int i = 1; i <= 10; i++) {
		stall_trace_add(&t, 0, 0, (uint32_t)i);
		stall_trace_add(&t, 0, 0, 0);
	}
	stall_result r;
	run_config(&t, &r, (stall_config){.debug = 1});
	assert_int_equal(r.lines[1].top, STALL_LONG_SB);
	assert_true(r.cycles > 10 * 260);
	stall_result_free(&r);
	run(&t, &r);
	assert_true(r.cycles < 2 * 260);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* A debug build's mov is a MOV on the INT pipe, one in two cycles a sub-partition: 16 warps of movs
 * take twice the cycles of their issue; optimised, a mov only issues. */
static void test_debug_build_mov_on_the_int_pipe(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 75, .kind = STALL_K_MOVE, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}}};
	stall_trace t;
	trace_repeat(&t, 64, ops, 100);
	stall_result r;
	run_config(&t, &r, (stall_config){.debug = 1});
	assert_true(r.cycles >= 2 * 16 * 100 - 2);
	assert_true(r.total[STALL_MATH] > 0);
	stall_result_free(&r);
	run(&t, &r);
	assert_true(r.cycles <= 16 * 100 + 2);
	stall_result_free(&r);
	stall_trace_free(&t);
}

/* The fill of a debug build's SASS: before every record of an op, its ALU then its other
 * instructions, as ops of the op's line; the issued count and the lines follow. */
static void test_trace_expand_fills_before_each_record(void **state)
{
	(void)state;
	stall_op ops[] = {{.line = 80, .kind = STALL_K_LDS, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {2}, .units = 1},
			  {.line = 81, .kind = STALL_K_FMA, .ndst = 1, .dst = {3}, .nsrc = 1, .src = {1}}};
	stall_trace t;
	trace_new(&t, 2, ops, 2);
	for (int w = 0; w < 2; w++)
		for (int i = 0; i < 3; i++) {
			stall_trace_add(&t, 0, w, 0);
			stall_trace_add(&t, 0, w, 1);
		}
	stall_fill fill[] = {{.alu = 3, .imad = 2, .other = 1}, {0}};
	assert_int_equal(stall_trace_expand(&t, fill), 0);
	assert_int_equal(t.nops, 5);
	assert_int_equal(t.ops[2].kind, STALL_K_INT);
	assert_int_equal(t.ops[3].kind, STALL_K_IMAD);
	assert_int_equal(t.ops[4].kind, STALL_K_OTHER);
	for (int i = 2; i < 5; i++)
		assert_int_equal(t.ops[i].line, 80);
	assert_int_equal(t.warps[1].n, 3 * 8);
	assert_int_equal(t.nrecs, 2 * 3 * 8);
	uint32_t want[] = {2, 2, 2, 3, 3, 4, 0, 1};
	for (int i = 0; i < 8; i++)
		assert_int_equal(t.warps[1].rec[8 + i].op, want[i]);
	stall_result r;
	run_config(&t, &r, (stall_config){.debug = 1});
	assert_int_equal(r.issued, 2 * 3 * 8);
	assert_int_equal(r.nlines, 2);
	assert_true(r.lines[0].issued == 2 * 3 * 7);
	stall_result_free(&r);
	/* past the trace's limit: nothing changes */
	stall_fill huge[5]; /* one an op: the two and their fill's */
	for (int i = 0; i < 5; i++)
		huge[i] = (stall_fill){.alu = UINT16_MAX, .imad = UINT16_MAX, .other = UINT16_MAX};
	for (int i = 0; i < 2000; i++)
		stall_trace_add(&t, 0, 0, 0);
	size_t before = t.nrecs;
	assert_int_equal(stall_trace_expand(&t, huge), -1);
	assert_int_equal(t.nrecs, before);
	assert_int_equal(t.nops, 5);
	stall_trace_free(&t);
}

/* One warp's FFMAs and integer ops, alternating, none reading another's result, as a warp of each kind n:
 * its cycles. */
static double fma_with(uint8_t kind)
{
	stall_op ops[] = {{.line = 1, .kind = STALL_K_FMA, .ndst = 1, .dst = {1}, .nsrc = 1, .src = {9}},
			  {.line = 2, .kind = kind, .ndst = 1, .dst = {2}, .nsrc = 1, .src = {9}}};
	stall_trace t;
	trace_new(&t, 1, ops, 2);
	for (int i = 0; i < 400; i++) {
		stall_trace_add(&t, 0, 0, 0);
		stall_trace_add(&t, 0, 0, 1);
	}
	stall_result r;
	run(&t, &r);
	double c = r.cycles;
	stall_result_free(&r);
	stall_trace_free(&t);
	return c;
}

/* An IMAD takes the FMA pipe's heavy half two cycles, so FFMAs and IMADs share a pipe (800 instructions:
 * 400 x 3 cycles), where FFMAs and ALU work each have one (800 issues, a cycle each). */
static void test_imad_shares_the_fma_pipe(void **state)
{
	(void)state;
	double alu = fma_with(STALL_K_INT), imad = fma_with(STALL_K_IMAD);
	assert_true(alu > 780 && alu < 840);
	assert_true(imad > 1150 && imad < 1250);
}

/* The MIO queue counts instructions, not work: a warp's first MIO_ENTRIES shared loads of 32 wavefronts
 * each issue at once, one more waits (MIO throttle) until the oldest it passes starts, 32 cycles in. */
static void test_mio_queue_counts_instructions(void **state)
{
	(void)state;
	stall_op ops[8];
	for (int i = 0; i < 8; i++) /* eight loads into eight registers: none waits for another */
		ops[i] = (stall_op){.line = 90, .kind = STALL_K_LDS, .ndst = 1, .dst = {i + 1}, .nsrc = 1, .src = {15}, .units = 32};
	for (int n = 6; n <= 8; n += 2) {
		stall_trace t;
		trace_new(&t, 1, ops, 8);
		for (int i = 0; i < n; i++)
			stall_trace_add(&t, 0, 0, (uint32_t)i);
		stall_result r;
		run(&t, &r);
		if (n == 6)
			assert_true(r.total[STALL_MIO] == 0);
		else
			assert_true(r.total[STALL_MIO] >= 20 && r.total[STALL_MIO] <= 32);
		stall_result_free(&r);
		stall_trace_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dependent_chain_waits),
		cmocka_unit_test(test_global_load_use_long_scoreboard),
		cmocka_unit_test(test_reuse_hits_l1),
		cmocka_unit_test(test_l1_capacity),
		cmocka_unit_test(test_hit_on_miss_waits_for_the_fill),
		cmocka_unit_test(test_slow_warp_barrier),
		cmocka_unit_test(test_no_load_passes_an_open_barrier),
		cmocka_unit_test(test_fma_cycles_from_register_banks),
		cmocka_unit_test(test_wgmma_fence_waits_for_its_warpgroup),
		cmocka_unit_test(test_lone_wgmma_fence_ends),
		cmocka_unit_test(test_independent_issue_bound),
		cmocka_unit_test(test_crowded_subpartition_not_selected),
		cmocka_unit_test(test_params_from_measured_rows),
		cmocka_unit_test(test_emulator_trace),
		cmocka_unit_test(test_loads_issue_ahead_renamed),
		cmocka_unit_test(test_shared_load_passes_a_waiting_use),
		cmocka_unit_test(test_named_barriers),
		cmocka_unit_test(test_try_wait_charged_at_the_line_before),
		cmocka_unit_test(test_tma_bytes_a_cycle_follow_the_clock),
		cmocka_unit_test(test_wgmma_holds_its_next_wgmma),
		cmocka_unit_test(test_small_grid_fills_fewer_blocks),
		cmocka_unit_test(test_cluster_barrier_charged_at_the_wait),
		cmocka_unit_test(test_barrier_wait_shows_where_sass_orders_it),
		cmocka_unit_test(test_load_wait_shows_where_sass_waits),
		cmocka_unit_test(test_write_waits_for_a_queued_read),
		cmocka_unit_test(test_line_says_what_it_waits_for),
		cmocka_unit_test(test_global_loads_take_the_mio_pipe),
		cmocka_unit_test(test_barrier_release_grows_with_its_warps),
		cmocka_unit_test(test_mbarrier_waits_for_its_own_phase),
		cmocka_unit_test(test_throttled_warps_share_the_queue),
		cmocka_unit_test(test_lg_queue_holds_32),
		cmocka_unit_test(test_load_ahead_held_at_its_line),
		cmocka_unit_test(test_imad_shares_the_fma_pipe),
		cmocka_unit_test(test_global_load_passes_shared_store),
		cmocka_unit_test(test_l1_keeps_1728_lines),
		cmocka_unit_test(test_global_load_keeps_sass_order),
		cmocka_unit_test(test_merged_shared_load_costs_no_mio),
		cmocka_unit_test(test_debug_build_holds_each_instruction),
		cmocka_unit_test(test_debug_build_waits_for_every_load),
		cmocka_unit_test(test_debug_build_mov_on_the_int_pipe),
		cmocka_unit_test(test_trace_expand_fills_before_each_record),
		cmocka_unit_test(test_mio_queue_counts_instructions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
