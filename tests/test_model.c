/* test_model: the cost models against the lecture's A100 figures and the blog's per-output counts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "model/model.h"
#include "model/measured.h"
#include "run/launch.h"
#include "base/util.h"

/* A100 40GB: 19.5 TFLOP/s FP32, 312 tensor, 1555 GB/s (the lecture's card). */
static const gpu_spec a100_40 = {
	.key = "a100-40", .name = "NVIDIA A100 SXM4 40GB", .cc_major = 8, .cc_minor = 0, .sms = 108,
	.clock_mhz = 1410, .fp32_tflops = 19.5, .tensor_tflops = 312, .bw_gbs = 1555, .l2_kb = 40960,
	.smem_per_sm = 167936, .smem_per_block = 49152, .smem_optin = 166912, .smem_reserved = 1024,
	.regs_per_sm = 65536, .regs_per_block = 65536, .max_threads_per_sm = 2048, .max_threads_per_block = 1024,
	.max_warps_per_sm = 64, .max_blocks_per_sm = 32, .warp_alloc_regs = 256,
};

/* Builds a lesson the way the front matter would. */
static lesson make(const char *id, const char *model, const char *params, const char *bx, const char *by,
		   const char *bm, const char *bn, const char *smem, int regs)
{
	lesson l;
	memset(&l, 0, sizeof l);
	util_strlcpy(l.id, id, sizeof l.id);
	util_strlcpy(l.model, model, sizeof l.model);
	snprintf(l.path, sizeof l.path, "lessons/%s.md", id);
	l.dt = DTYPE_F32;
	/* "A=1 B=2" */
	char buf[128];
	util_strlcpy(buf, params, sizeof buf);
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '=');
		*eq = '\0';
		util_strlcpy(l.params[l.nparams].name, tok, EXPR_NAME_MAX);
		l.params[l.nparams++].value = atoll(eq + 1);
	}
	util_strlcpy(l.block[0], bx, LESSON_EXPR);
	util_strlcpy(l.block[1], by, LESSON_EXPR);
	util_strlcpy(l.block[2], "1", LESSON_EXPR);
	util_strlcpy(l.tile[0], bm, LESSON_EXPR);
	util_strlcpy(l.tile[1], bn, LESSON_EXPR);
	util_strlcpy(l.smem, smem, LESSON_EXPR);
	l.regs = regs;
	return l;
}

static model_result run(const lesson *l, const expr_env *ov, long long n)
{
	model_result r;
	char err[256] = "";
	int rc = model_compute(l, ov, n, n, n, &a100_40, &r, err, sizeof err);
	if (rc)
		fprintf(stderr, "model_compute: %s\n", err);
	assert_int_equal(rc, 0);
	return r;
}

static void fmt(const model_result *r, const char *key, const char *want)
{
	char buf[96];
	model_format(r, key, buf, sizeof buf);
	assert_string_equal(buf, want);
}

/* Lecture: the naive kernel does 2 FLOPs per two 4-byte loads = 0.25 FLOP/B
 * (the one 4-byte store per output moves it by 1/(2K) only). */
static void naive_quarter_flop_per_byte(void **state)
{
	(void)state;
	lesson l = make("naive", "naive", "", "32", "32", "32", "32", "0", 0);
	model_result r = run(&l, NULL, 4096);
	assert_float_equal(r.ai_global, 0.25, 0.25 * 1e-3);
	assert_float_equal(r.global.loads_per_output, 2 * 4096.0, 1e-9);
	assert_float_equal(r.flops, 2.0 * 4096 * 4096 * 4096, 1);
	assert_true(isnan(r.ai_shared));
	fmt(&r, "ai.global", "0.25 FLOP/B");
	fmt(&r, "per_output.global_loads", "2K = 8192");
	/* Lanes walk rows of A: 32 sectors for A, one broadcast sector of B. */
	assert_float_equal(r.sectors_A, 32, 0);
	assert_float_equal(r.sectors_B, 1, 0);
	/* 0.25 FLOP/B against a ridge of 12.5: memory-bound if every load went
	 * to DRAM. The regime proper is the level that binds the bound: this
	 * GPU struct has no L2 or L1 figures, so compute (7 ms) outlasts the
	 * DRAM term. */
	assert_string_equal(r.regime_if_dram, "memory");
	assert_string_equal(r.bound_limit, "compute");
	assert_string_equal(r.regime, "compute");
}

/* Coalescing changes the warp view, not the counts: 1 sector of A
 * (broadcast; ptx/02 reads 16 bytes of A at once, still one sector) and 4
 * of B (32 floats = 128 B). */
static void coalesced_sectors(void **state)
{
	(void)state;
	lesson l = make("coalesced", "coalesced", "", "1024", "1", "32", "32", "0", 0);
	model_result r = run(&l, NULL, 4096);
	assert_float_equal(r.sectors_A, 1, 0);
	assert_float_equal(r.sectors_B, 4, 0);
	assert_float_equal(r.ai_global, 0.25, 0.25 * 1e-3);
}

/* The hierarchical bound, worked by hand on the A100 40GB with its table
 * figures for L2 (5120 B/clk x 1.41 GHz) and the shared path (108 SMs x
 * 128 B/clk x 1.41 GHz). */
static void bound_levels_by_hand(void **state)
{
	(void)state;
	gpu_spec g = a100_40;
	g.l2_gbs = 7219;
	g.smem_gbs = 19492;
	char err[256];
	model_result r;
	long long n = 2048;
	double n3 = (double)n * n * n;

	/* smem, TILE = 32: per output per k, As as float4 (1/(32*4) requests of
	 * 2 wavefronts), Bs one float (1/32 of 1), the two tile copies (1/32 of
	 * an element each, 4 sectors = 1 wavefront a request): 25/512. */
	lesson l = make("smem", "smem", "TILE=32", "TILE", "TILE", "TILE", "TILE", "2*TILE*TILE*4", 32);
	assert_int_equal(model_compute(&l, NULL, n, n, n, &g, &r, err, sizeof err), 0);
	assert_float_equal(r.l1_wavefronts, 25.0 / 512 * n3, 1);
	assert_float_equal(r.bound_l1_ms, 1e3 * r.l1_wavefronts * 128 / (19492e9), 1e-9);
	assert_float_equal(r.bound_compute_ms, 1e3 * 2 * n3 / 19.5e12, 1e-9);
	/* Plain loads may hit L1: the L2 level is the square bound, 108 SMs each
	 * fetching 2*sqrt(n^2/108)*n floats, plus C. */
	assert_float_equal(r.l2_min_bytes, 108 * 2 * sqrt((double)n * n / 108) * n * 4 + (double)n * n * 4, 1);
	assert_float_equal(r.bound_dram_ms, 1e3 * 3.0 * n * n * 4 / 1555e9, 1e-9);
	assert_string_equal(r.bound_limit, "L1/shared");
	assert_float_equal(r.bound_ms, r.bound_l1_ms, 0);
	fmt(&r, "bound.limit", "L1/shared");

	/* blocktile2d loads with .cg: every issued byte reaches L2. */
	lesson b = make("bt2d", "blocktile2d", "BM=128 BN=128 BK=8 TM=8 TN=8", "BM*BN/(TM*TN)", "1", "BM", "BN", "0", 0);
	assert_int_equal(model_compute(&b, NULL, n, n, n, &g, &r, err, sizeof err), 0);
	assert_float_equal(r.l2_min_bytes, r.global.bytes, 0);
	assert_string_equal(r.bound_limit, "compute");

	/* A GPU row without the on-chip figures: those levels drop out. */
	assert_int_equal(model_compute(&l, NULL, n, n, n, &a100_40, &r, err, sizeof err), 0);
	assert_true(isnan(r.bound_l2_ms) && isnan(r.bound_l1_ms));
	assert_string_equal(r.bound_limit, "compute");
	fmt(&r, "bound.l2_ms", "n/a");
}

/* The measured-data file: its rows, their units as the prose writes them,
 * and the errors a broken file gives. */
static void measured_rows_and_errors(void **state)
{
	(void)state;
	const char *good = "# comment\n"
			   "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n"
			   "G\t1.0\t2026-01-01\tbench\t2\t4096\tms\t18.0166\tms\n"
			   "G\t1.0\t2026-01-01\tbench\t2\t4096\tpct_cublas\t14.8\t%\n"
			   "G\t1.0\t2026-01-01\tbench\t2\t4096\tspeedup\t15.28\tx\n"
			   "G\t1.0\t2026-01-01\tbench\t2\t4096\tgflops\t7628.5\tGFLOP/s\n"
			   "H\t2.0\t2026-01-02\tncu\t8\t4096\tncu_duration\t348\tus\n";
	char err[256];
	assert_int_equal(measured_parse("t.tsv", good, err, sizeof err), 5);
	lesson l = make("coalesced", "coalesced", "BS=32", "BS", "BS", "BS", "BS", "0", 0);
	l.number = 2;
	model_result r = run(&l, NULL, 1024);
	double v;
	assert_int_equal(model_value(&r, "measured.ms", &v), 0);
	assert_float_equal(v, 18.0166, 0);
	fmt(&r, "measured.ms", "18 ms");
	fmt(&r, "measured.pct_cublas", "14.8%");
	fmt(&r, "measured.speedup", "15.3×");
	fmt(&r, "measured.gflops", "7.63 TFLOP/s");
	fmt(&r, "measured.tflops", "7.63 TFLOP/s");
	fmt(&r, "measured.L8.ncu_duration", "348 µs");
	fmt(&r, "measured.date", "2026-01-01");
	fmt(&r, "measured.L8.gpu", "H");
	fmt(&r, "measured.nothing", "n/a");
	assert_int_equal(model_value(&r, "measured.nothing", &v), -1);
	assert_true(model_known("measured.ms") && model_known("measured.L8.ncu_duration"));
	assert_false(model_known("measured.") || model_known("measured.L8.") || model_known("measured.Ms"));
	int lesson_no;
	long long size;
	double ms;
	assert_int_equal(measured_ms_row(0, &lesson_no, &size, &ms), 0);
	assert_true(lesson_no == 2 && size == 4096 && ms == 18.0166);
	assert_int_equal(measured_ms_row(1, &lesson_no, &size, &ms), -1);

	assert_int_equal(measured_parse("t.tsv", "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n"
						 "G\t1\td\tc\t2\t4096\tms\t1\tparsecs\n", err, sizeof err), -1);
	assert_non_null(strstr(err, "t.tsv:2: unknown unit 'parsecs'"));
	assert_int_equal(measured_parse("t.tsv", "gpu\tdriver\n", err, sizeof err), -1);
	assert_non_null(strstr(err, "t.tsv:1:"));
	assert_int_equal(measured_parse("t.tsv", "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n"
						 "G\t1\td\tc\tx\t4096\tms\t1\tms\n", err, sizeof err), -1);
	assert_non_null(strstr(err, "t.tsv:2: lesson is not a number"));
	/* Back to the shipped file for the other tests. */
	char path[512];
	util_path(path, sizeof path, MEASURED_FILE);
	char *text = util_read_file(path, NULL, err, sizeof err);
	assert_non_null(text);
	assert_true(measured_parse(MEASURED_FILE, text, err, sizeof err) > 0);
	free(text);
}

/* The measured file saved with CRLF and blank lines: every unit read and written
 * as its table says, and an error names its own line. */
static void measured_crlf_units_and_lines(void **state)
{
	(void)state;
	const char *text = "# comment\r\n\r\n"
			   "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\r\n"
			   "\r\n"
			   "G\t1.0\t2026-01-01\tbench\t3\t4096\tms\t2.5\tms\r\n"
			   "G\t1.0\t2026-01-01\tncu\t3\t4096\tncu_duration\t348\tus\r\n"
			   "G\t1.0\t2026-01-01\tbench\t3\t4096\tpct_cublas\t14.8\t%\r\n"
			   "G\t1.0\t2026-01-01\tbench\t3\t4096\tgflops\t7628.5\tGFLOP/s\r\n"
			   "G\t1.0\t2026-01-01\tbench\t3\t4096\tspeedup\t15.28\tx\r\n"
			   "G\t1.0\t2026-01-01\tncu\t3\t4096\tdram_mb\t12.5\tMB\r\n"
			   "G\t1.0\t2026-01-01\tncu\t3\t4096\tsmem_b\t4096\tB\r\n"
			   "G\t1.0\t2026-01-01\tsass\t3\t0\tinstructions\t1234567\tcount\r\n"
			   "G\t1.0\t2026-01-01\tsass\t3\t0\tregisters\t128\tregs\r\n";
	static const struct {
		const char *key, *unit, *shown;
	} want[] = {
		{"measured.L3.ms", "ms", "2.5 ms"},		{"measured.L3.ncu_duration", "us", "348 µs"},
		{"measured.L3.pct_cublas", "%", "14.8%"},	{"measured.L3.gflops", "GFLOP/s", "7.63 TFLOP/s"},
		{"measured.L3.speedup", "x", "15.3×"},		{"measured.L3.dram_mb", "MB", "12.5 MB"},
		{"measured.L3.smem_b", "B", "4096 B"},		{"measured.L3.instructions", "count", "1234567"},
		{"measured.L3.registers", "regs", "128 regs"},
	};
	char err[256], buf[64];
	assert_int_equal(measured_parse("t.tsv", text, err, sizeof err), (int)ARRAY_LEN(want));
	for (int i = 0; i < (int)ARRAY_LEN(want); i++) {
		measured_info m;
		assert_int_equal(measured_row(i, &m), 0);
		assert_string_equal(m.unit, want[i].unit);
		measured_format(0, want[i].key, buf, sizeof buf);
		assert_string_equal(buf, want[i].shown);
	}
	measured_format(0, "measured.L3.command", buf, sizeof buf);
	assert_string_equal(buf, "bench"); /* no '\r' carried into the text columns */
	/* Line 6 is the bad one: two comment/blank lines, the header, a blank, a good row. */
	assert_int_equal(measured_parse("t.tsv", "# c\r\n\r\ngpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\r\n\r\n"
						 "G\t1\td\tc\t2\t4096\tms\t1\tms\r\n"
						 "G\t1\td\tc\t2\t4096\tms\t1\tparsecs\r\n", err, sizeof err), -1);
	assert_non_null(strstr(err, "t.tsv:6: unknown unit 'parsecs'"));
	assert_int_equal(measured_parse("t.tsv", "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n\n\n"
						 "G\t1\td\tc\t2\t4096\tms\t1\tms\textra\tmore\n", err, sizeof err), -1);
	assert_non_null(strstr(err, "t.tsv:4: wrong number of tab-separated fields: '11'"));
	/* Back to the shipped file for the other tests. */
	char path[512];
	util_path(path, sizeof path, MEASURED_FILE);
	char *shipped = util_read_file(path, NULL, err, sizeof err);
	assert_non_null(shipped);
	assert_true(measured_parse(MEASURED_FILE, shipped, err, sizeof err) > 0);
	free(shipped);
}

/* What-ifs the kernel cannot run: one line, from the one place. */
static void whatif_reasons(void **state)
{
	(void)state;
	char err[256];
	lesson l = make("smem", "smem", "TILE=32", "TILE", "TILE", "TILE", "TILE", "2*TILE*TILE*4", 32);
	l.params[0].runtime = 1;
	expr_env ov = {0};
	expr_set(&ov, "TILE", 64);
	assert_int_equal(model_check_params(&l, &ov, err, sizeof err), -1);
	assert_string_equal(err, "TILE=64: block 64x64x1 is 4096 threads; a block holds 1 to 1024");
	model_result r;
	assert_int_equal(model_compute(&l, &ov, 1024, 1024, 1024, &a100_40, &r, err, sizeof err), -1);
	assert_string_equal(err, "TILE=64: block 64x64x1 is 4096 threads; a block holds 1 to 1024");
	expr_set(&ov, "TILE", 0);
	assert_int_equal(model_check_params(&l, &ov, err, sizeof err), -1);
	assert_string_equal(err, "TILE=0 is out of range (TILE is 1..4096)");
	assert_int_equal(model_compute(&l, &ov, 1024, 1024, 1024, &a100_40, &r, err, sizeof err), -1);
	assert_string_equal(err, "TILE=0 is out of range (TILE is 1..4096)");
	expr_set(&ov, "TILE", 7); /* the kernel handles ragged tiles */
	assert_int_equal(model_check_params(&l, &ov, err, sizeof err), 0);
	assert_int_equal(launch_model_only(&l, &ov, err, sizeof err), 0);
	l.params[0].runtime = 0;
	assert_int_equal(launch_model_only(&l, &ov, err, sizeof err), 1);
	assert_string_equal(err, "model-only what-if: the kernel is built for TILE=32 (TILE=7 changes the model, not the PTX)");
	expr_set(&ov, "TILE", 32); /* the lesson's own value is no what-if */
	assert_int_equal(launch_model_only(&l, &ov, err, sizeof err), 0);
}

/* Lecture: ridge = 19.5 TFLOP/s / 1555 GB/s = 12.5 FLOP/B ("about 12"). */
static void a100_fp32_ridge(void **state)
{
	(void)state;
	lesson l = make("naive", "naive", "", "32", "32", "32", "32", "0", 0);
	model_result r = run(&l, NULL, 1024);
	assert_float_equal(r.ridge, 19.5e12 / 1555e9, 1e-9);
	assert_true(r.ridge > 12 && r.ridge < 13);
	assert_string_equal(r.unit, "fp32");
	/* memory bound if every load went to DRAM */
	assert_string_equal(r.regime_if_dram, "memory");
}

/* Lecture: tiles of width 2, 4, 8, 16 give 0.5, 1, 2, 4 FLOP/B (T/4). The
 * model also counts the 4-byte store of each output: 2K / (8K/T + 4), which
 * at K = 4096 is within 0.2 % of T/4 (3.99 for T = 16). */
static void tiling_widths(void **state)
{
	(void)state;
	lesson l = make("smem", "smem", "TILE=32", "TILE", "TILE", "TILE", "TILE", "2*TILE*TILE*4", 0);
	const int width[] = {2, 4, 8, 16};
	const double want[] = {0.5, 1, 2, 4};
	for (int i = 0; i < 4; i++) {
		expr_env ov = {0};
		expr_set(&ov, "TILE", width[i]);
		model_result r = run(&l, &ov, 4096);
		assert_float_equal(r.ai_global, want[i], want[i] * 2e-3);
		assert_float_equal(r.ai_global, 2 * 4096.0 / (8 * 4096.0 / width[i] + 4), 1e-9);
		assert_int_equal(r.threads, width[i] * width[i]);
	}
}

/* Blog: shared-memory blocking with a 32 tile: K/16 global, 2K shared loads
 * per output; each tile element is stored to shared once: K/16 stores. */
static void smem_32_counts(void **state)
{
	(void)state;
	lesson l = make("smem", "smem", "TILE=32", "TILE", "TILE", "TILE", "TILE", "2*TILE*TILE*4", 0);
	model_result r = run(&l, NULL, 4096);
	assert_float_equal(r.global.loads_per_output, 4096.0 / 16, 1e-9);
	assert_float_equal(r.shared.loads_per_output, 2 * 4096.0, 1e-9);
	assert_float_equal(r.shared.stores_per_output, 4096.0 / 16, 1e-9);
	fmt(&r, "per_output.global_loads", "K/16 = 256");
	fmt(&r, "per_output.shared_loads", "2K = 8192");
	/* 2 FLOPs per 2 shared loads of 4 bytes, plus the stores: just under 0.25. */
	assert_true(r.ai_shared < 0.25 && r.ai_shared > 0.24);
	/* T/4 = 8 for the loads; the output store makes it 8192/1028 = 7.97. */
	assert_float_equal(r.ai_global, 8192.0 / 1028, 1e-9);
	/* A warp copies one 32-float row of each tile: 4 sectors. Inner loop:
	 * ptx/03 reads As[ty][k..k+3] as one 16-byte load that all 32 lanes share
	 * (pairs uniform: 2 passes of 16 lanes, 1 wavefront each); Bs[k][tx] is
	 * 32 consecutive words: 1 wavefront. */
	assert_float_equal(r.sectors_A, 4, 0);
	assert_float_equal(r.sectors_B, 4, 0);
	assert_float_equal(r.wavefronts_A, 2, 0);
	assert_float_equal(r.wavefronts_B, 1, 0);
	assert_int_equal(r.smem_dynamic, 8192);
}

/* Blog: 1D blocktiling 64x64x8, TM=8: K/32 global, 9K/8 shared per output.
 * Global: (64+64)*8 loads per 8-deep slice for 64*64 outputs = K/32.
 * Shared: per k a thread reads 1 B value and 8 A values for 8 outputs. */
static void blocktile1d_counts(void **state)
{
	(void)state;
	lesson l = make("bt1d", "blocktile1d", "BM=64 BN=64 BK=8 TM=8", "BM*BN/TM", "1", "BM", "BN", "0", 0);
	model_result r = run(&l, NULL, 4096);
	assert_float_equal(r.global.loads_per_output, 4096.0 / 32, 1e-9);
	assert_float_equal(r.shared.loads_per_output, 9 * 4096.0 / 8, 1e-9);
	fmt(&r, "per_output.global_loads", "K/32 = 128");
	fmt(&r, "per_output.shared_loads", "9K/8 = 4608");
	assert_int_equal(r.threads, 512);
	/* The A tile is 8 floats wide: a warp covers 4 rows of 32 B = 4 sectors.
	 * Shared: As rows are read 16 bytes at a time, the same address in all
	 * lanes (2 passes of 16 lanes); Bs[k][tc] 32 neighbouring floats: 1. */
	assert_float_equal(r.sectors_A, 4, 0);
	assert_float_equal(r.sectors_B, 4, 0);
	assert_float_equal(r.wavefronts_A, 2, 0);
	assert_float_equal(r.wavefronts_B, 1, 0);
}

/* 2D blocktiling 128x128x8, TM=TN=8: K/64 global, (8+8)/64 = K/4 shared.
 * ptx/05 spreads a thread's outputs 16 rows / 16 columns apart, so a warp's
 * reads are As[tr][d..d+3] for tr = 0, 1 (16-byte loads, each row a 16-lane
 * broadcast: pairs share an address, so a half-warp per pass, 2 wavefronts,
 * the ideal) and Bs[k][tc] for 16 neighbouring tc: 1 wavefront, no conflict. */
static void blocktile2d_counts_and_conflicts(void **state)
{
	(void)state;
	lesson l = make("bt2d", "blocktile2d", "BM=128 BN=128 BK=8 TM=8 TN=8", "BM*BN/(TM*TN)", "1", "BM", "BN",
			"0", 0);
	model_result r = run(&l, NULL, 4096);
	fmt(&r, "per_output.global_loads", "K/64 = 64");
	fmt(&r, "per_output.shared_loads", "K/4 = 1024");
	assert_float_equal(r.wavefronts_A, 2, 0);
	assert_float_equal(r.wavefronts_B, 1, 0);
	assert_int_equal(r.threads, 256);
}

/* Vectorised (ptx/06): the same counts, float4 accesses. Global: a warp's
 * 32 x 16 B of the 8-wide A tile = 16 rows of 32 B = 16 sectors; B: one
 * 512 B row segment = 16 sectors (all bytes used in both).
 * Shared: A transposed, As[k][tr*8 ..]: lanes 0-15 and 16-31 each share one
 * piece (l^1 uniform, so 16 lanes per pass): 2 wavefronts. B: Bs[k][tc*8 ..],
 * 8 lanes per pass at 8-word strides: words 0 and 32 (and 8/40, ...) share
 * a bank, 2 passes per group, 8 in all: a 2-way conflict. */
static void vectorized_warp_view(void **state)
{
	(void)state;
	lesson l = make("vec", "vectorized", "BM=128 BN=128 BK=8 TM=8 TN=8 VW=4", "(BM/TM)*(BN/TN)", "1", "BM", "BN",
			"(BM+BN)*BK*4", 0);
	model_result r = run(&l, NULL, 4096);
	fmt(&r, "per_output.global_loads", "K/64 = 64");
	assert_float_equal(r.sectors_A, 16, 0);
	assert_float_equal(r.sectors_B, 16, 0);
	assert_float_equal(r.wavefronts_A, 2, 0);
	assert_float_equal(r.wavefronts_B, 8, 0);
	assert_int_equal(r.smem_dynamic, 8192);
}

/* An unknown --set key names the lesson's params. */
static void unknown_override(void **state)
{
	(void)state;
	lesson l = make("smem", "smem", "TILE=32", "TILE", "TILE", "TILE", "TILE", "2*TILE*TILE*4", 0);
	expr_env ov = {0};
	expr_set(&ov, "BM", 64);
	model_result r;
	char err[256];
	assert_int_equal(model_compute(&l, &ov, 1024, 1024, 1024, &a100_40, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "'BM'"));
	assert_non_null(strstr(err, "TILE"));

	lesson none = make("basics", "", "", "1", "1", "1", "1", "0", 0);
	assert_int_equal(model_compute(&none, NULL, 1024, 1024, 1024, &a100_40, &r, err, sizeof err), -1);
	assert_string_equal(err, "lesson basics has no kernel to model");

	lesson bad = make("x", "nosuch", "", "32", "1", "32", "32", "0", 0);
	assert_int_equal(model_compute(&bad, NULL, 1024, 1024, 1024, &a100_40, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown model 'nosuch'"));
}

/* Occupancy follows the launch shape and the recorded registers; the JIT's
 * count replaces it. smem TILE=32 on the A100: 1024 threads, 8 KiB dynamic.
 * 37 registers: 1280 per warp, 12 per scheduler = 48 warps < 64: 1 block of
 * 32 warps (50 %), by registers. With 32: 1024 per warp, 16 per scheduler =
 * 64 warps: 2 blocks (100 %), by warps (and registers). */
static void occupancy_from_launch(void **state)
{
	(void)state;
	lesson l = make("smem", "smem", "TILE=32", "TILE", "TILE", "TILE", "TILE", "2*TILE*TILE*4", 37);
	model_result r = run(&l, NULL, 4096);
	assert_true(r.occ_ok);
	assert_int_equal(r.threads, 1024);
	assert_int_equal(r.occ.blocks_per_sm, 1);
	assert_string_equal(r.regs_source, "recorded (ptxas -arch=sm_90)");
	fmt(&r, "occupancy.occupancy", "50%");
	fmt(&r, "occupancy.limiter", "registers");
	model_set_regs(&r, 32, "JIT");
	assert_int_equal(r.occ.blocks_per_sm, 2);
	assert_string_equal(r.regs_source, "JIT");
	fmt(&r, "occupancy.occupancy", "100%");
	fmt(&r, "occupancy.limiter", "warps");
}

/* Tensor-core lessons use the tensor peak and 2-byte inputs. ptx/08:
 * 128x256 block tile, BK=32, 64x64 warp tiles. Global: (128+256)/(128*256)
 * = 3K/256; shared: (64+64)/(64*64) = K/32. cp.async copies: A rows of 64 B
 * (4 chunks), 8 rows per warp = 16 sectors; B 32 chunks of one row = 16.
 * ldmatrix.x4 through the XOR swizzle: A rows 0-7 at chunk 0 land at chunks
 * 0,0,1,1,2,2,3,3 of rows 64 B apart: words 0,16,36,52,72,88,108,124, all
 * in different banks: 1 wavefront per 8-lane matrix, 4 per request. B rows
 * 512 B apart at chunks k^0: 8 different bank groups: 4. Without swizzle
 * or padding (a 512 B stride puts every row in the same banks) B would
 * need 8 passes per matrix; padding each row by 8 halves also gives 4. */
static void mma_uses_tensor_peak(void **state)
{
	(void)state;
	lesson l = make("mma", "mma", "BM=128 BN=256 BK=32 WM=64 WN=64 STAGES=4 PAD=0", "(BM/WM)*(BN/WN)*32", "1",
			"BM", "BN", "STAGES*(BM*BK+BK*BN)*2", 226);
	l.dt = DTYPE_F16;
	model_result r = run(&l, NULL, 4096);
	assert_string_equal(r.unit, "tensor");
	assert_float_equal(r.ridge, 312e12 / 1555e9, 1e-9);
	assert_int_equal(r.elem_bytes, 2);
	/* ideal DRAM: (2 * 4096^2 * 2 + 4096^2 * 4) bytes for 2 * 4096^3 FLOPs = 4096/4 */
	assert_float_equal(r.ai_dram_ideal, 1024, 1e-6);
	fmt(&r, "per_output.global_loads", "3K/256 = 48");
	fmt(&r, "per_output.shared_loads", "K/32 = 128");
	assert_float_equal(r.sectors_A, 16, 0);
	assert_float_equal(r.sectors_B, 16, 0);
	assert_float_equal(r.wavefronts_A, 4, 0);
	assert_float_equal(r.wavefronts_B, 4, 0);
	assert_int_equal(r.threads, 256);
	assert_int_equal(r.smem_dynamic, 98304);
	fmt(&r, "launch.smem", "98304");
	fmt(&r, "occupancy.smem", "99328"); /* + 1024 reserved, a multiple of 128 */
	/* 226 registers x 32 = 7232 -> 7424 per warp (29 x 256); 16384/7424 =
	 * 2 warps per scheduler = 8 warps = 1 block of 8 warps: 12.5 % on the A100. */
	assert_int_equal(r.occ.blocks_per_sm, 1);
	assert_string_equal(r.occ.limiter, "registers");

	expr_env ov = {0};
	expr_set(&ov, "PAD", 8);
	r = run(&l, &ov, 4096);
	assert_float_equal(r.wavefronts_A, 4, 0);
	assert_float_equal(r.wavefronts_B, 4, 0);
}

/* Warptiling as ptx/07 does it: 128x128x16 block tile, 64x32 warp tiles,
 * WNITER=2 fragments of TM x TN = 4x4 across: TC = 32/(2*4) = 4 lanes along
 * N, 8 along M, WMITER = 64/(8*4) = 2. A lane owns 8x8 outputs and reads
 * 8 + 8 values per k: 16/64 = K/4 shared loads; global K/64.
 * Shared reads are float4. A: lanes 4q..4q+3 share a piece (l^1 and l^2
 * read the same address), so a pass takes 16 lanes = 4 distinct 16-byte
 * pieces, 16 words in 16 banks: 1 wavefront per pass, 2 in all. B: 4
 * adjacent pieces per 8 lanes, no pairing: 4 passes of 1 = 4.
 * Global: A rows of 16 floats (64 B) by float4, 8 rows per warp = 16
 * sectors; B 32 float4 of one row = 512 B = 16. */
static void warptile_counts(void **state)
{
	(void)state;
	lesson l = make("wt", "warptile", "BM=128 BN=128 BK=16 WM=64 WN=32 WNITER=2 TM=4 TN=4 VW=4",
			"(BM/WM)*(BN/WN)*32", "1", "BM", "BN", "2*(BM+BN)*BK*4", 128);
	model_result r = run(&l, NULL, 4096);
	fmt(&r, "per_output.global_loads", "K/64 = 64");
	fmt(&r, "per_output.shared_loads", "K/4 = 1024");
	assert_float_equal(r.wavefronts_A, 2, 0);
	assert_float_equal(r.wavefronts_B, 4, 0);
	assert_float_equal(r.sectors_A, 16, 0);
	assert_float_equal(r.sectors_B, 16, 0);
	assert_int_equal(r.threads, 256);
	/* WNITER=1: 8 lanes along N, 4 along M, WMITER = 4: a lane owns 16 x 4,
	 * (16 + 4)/64 = 5K/16. */
	expr_env ov = {0};
	expr_set(&ov, "WNITER", 1);
	r = run(&l, &ov, 4096);
	fmt(&r, "per_output.shared_loads", "5K/16 = 1280");
}

/* wgmma: TMA and the tensor cores touch memory without per-thread requests:
 * the warp view is n/a (null in JSON); a 64 x 128 warpgroup tile reads
 * (64 + 128)/(64*128) = 3/128 per k from shared memory, and no operand from
 * registers. A GPU without tensor cores falls back to
 * the FP32 peak and says so. */
static void wgmma_without_requests(void **state)
{
	(void)state;
	lesson l = make("hopper", "wgmma", "BM=128 BN=128 BK=64", "128", "1", "BM", "BN", "0", 0);
	l.dt = DTYPE_F16;
	model_result r = run(&l, NULL, 4096);
	assert_true(isnan(r.sectors_A) && isnan(r.wavefronts_B));
	fmt(&r, "sectors_per_request.A", "n/a");
	fmt(&r, "per_output.shared_loads", "3K/128 = 96");
	assert_int_equal(r.regs.stores_per_output, 4096 / 16);
	/* Its operands come from shared memory through descriptors, not registers. */
	assert_int_equal(r.regs.loads_per_output, 0);
	/* 32 x 32 tiles of 128 x 128. At 168 registers a scheduler holds 3 warps,
	 * so an A100 SM holds 3 blocks of 4 warps; 108 SMs: 1024 / 324 = 3.16 waves. */
	l.regs = 168;
	r = run(&l, NULL, 4096);
	fmt(&r, "launch.tiles", "1024");
	assert_int_equal(r.occ.blocks_per_sm, 3);
	assert_float_equal(r.waves, 1024.0 / (108 * 3), 1e-12);
	fmt(&r, "launch.waves", "3.16");

	gpu_spec old = a100_40;
	old.tensor_tflops = 0;
	char err[128];
	assert_int_equal(model_compute(&l, NULL, 4096, 4096, 4096, &old, &r, err, sizeof err), 0);
	assert_string_equal(r.unit, "fp32 (no tensor cores)");
	assert_float_equal(r.peak_tflops, 19.5, 0);

	/* A live GPU with no table row has no peaks: the roofline is unknown. */
	old.fp32_tflops = 0;
	assert_int_equal(model_compute(&l, NULL, 4096, 4096, 4096, &old, &r, err, sizeof err), 0);
	assert_true(isnan(r.ridge));
	fmt(&r, "regime_if_dram", "unknown");
	fmt(&r, "ridge", "n/a");
	/* The bound still has its DRAM term, so the regime is known. */
	fmt(&r, "bound.limit", "DRAM");
	fmt(&r, "regime", "memory");
}

/* Roofline switches from memory to compute bound as the tile grows, and the
 * prediction follows the larger of the two times. */
static void bound_follows_ridge(void **state)
{
	(void)state;
	lesson l = make("bt2d", "blocktile2d", "BM=128 BN=128 BK=8 TM=8 TN=8", "BM*BN/(TM*TN)", "1", "BM", "BN",
			"0", 0);
	model_result r = run(&l, NULL, 4096);
	/* K/64 loads of 4 B + one 4 B store: 8192 / (256 + 4) = 31.5 FLOP/B > 12.5 */
	assert_float_equal(r.ai_global, 8192.0 / 260, 1e-9);
	assert_string_equal(r.regime, "compute");
	assert_string_equal(r.regime_if_dram, "compute");
}

/* Lesson 10's model on the A100 (108 SMs, one 384-thread block of 168
 * registers per SM): multicast halves B's L2 loads, and the tile-order keys
 * count the panels one round of 108 running tiles reads, worked by hand. */
static void cluster_traffic_and_tile_order(void **state)
{
	(void)state;
	lesson l = make("cluster", "cluster", "BM=128 BN=256 BK=64 CM=2 MC=1 G=8", "384", "1", "BM", "BN", "100000", 168);
	l.dt = l.out = DTYPE_BF16;
	model_result r = run(&l, NULL, 4096);
	/* Per output: K/256 of A and K/(128·2) of B. */
	assert_float_equal(r.global.loads_per_output, 4096.0 / 256 + 4096.0 / 256, 1e-9);
	assert_int_equal(r.out_bytes, 2);
	/* 512 tiles, 108 at a time: 5 rounds. Bands of 8 cluster rows = 16 block
	 * rows: a round spans 16 rows × ceil(108/16) = 7 columns of tiles. */
	double wave = (16.0 * 128 + 7.0 * 256) * 4096 * 2;
	assert_float_equal(r.wave_bytes, wave, 1e-3);
	assert_float_equal(r.order_dram_bytes, 5 * wave + 4096.0 * 4096 * 2, 1e-3);
	/* Without multicast each block loads all of B; row by row a round spans
	 * ceil(108/16) = 7 whole block rows and all 16 columns. */
	expr_env ov = {0};
	expr_set(&ov, "MC", 0);
	expr_set(&ov, "G", 0);
	r = run(&l, &ov, 4096);
	assert_float_equal(r.global.loads_per_output, 4096.0 / 256 + 4096.0 / 128, 1e-9);
	assert_float_equal(r.wave_bytes, (7.0 * 128 + 16.0 * 256) * 4096 * 2, 1e-3);
}

/* The shipped lessons, run through the emulator (which executes their PTX):
 * for every kernel whose global loads use each byte of a sector once (all
 * but lessons 1 and 2, which rely on broadcasts), the sectors the emulator
 * counts, times 32 bytes, must equal the global bytes the model says the
 * kernel loads. This ties the model's per-output counts to the real PTX.
 * For lesson 1 the warp views are checked instead. */
static void shipped_lessons_match_emulator(void **state)
{
	(void)state;
	static course c;
	char errs[2048] = "";
	if (course_load(&c, errs, sizeof errs) <= 0) {
		print_message("no lessons found (%s)\n", errs);
		skip();
	}
	int checked = 0;
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		/* Lessons 9, 10 and 11 load through TMA, whose copies the model does not count per warp. */
		if (!l->model[0] || !l->ptx_path[0] || !strcmp(l->model, "coalesced") || !strcmp(l->model, "wgmma") ||
		    !strcmp(l->model, "cluster") || !strcmp(l->model, "fp8"))
			continue;
		/* The smallest size every shipped lesson accepts (lesson 8: N % 256). */
		const long long M = 128, N = 256, K = 128;
		model_result r;
		char err[512];
		assert_int_equal(model_compute(l, NULL, M, N, K, &a100_40, &r, err, sizeof err), 0);
		run_request rq;
		assert_int_equal(launch_request_for_lesson(l, NULL, M, N, K, &rq, err, sizeof err), 0);
		emu_options opt = {.no_verify = 1};
		static emu_result er;
		int rc = emu_run(&rq, &opt, &er, err, sizeof err);
		if (rc)
			print_error("%s: %s\n", l->id, err);
		assert_int_equal(rc, 0);
		if (!strcmp(l->model, "naive")) {
			/* One load of A and one of B per k: the emulator's average sectors
			 * per request is the mean of the model's two warp views. */
			double avg = (double)er.total.gld.sectors / (double)er.total.gld.requests;
			assert_float_equal(avg, (r.sectors_A + r.sectors_B) / 2, 1e-9);
			checked++;
			continue;
		}
		double emu_bytes = 32.0 * (double)(er.total.gld.sectors + er.total.gcp.sectors);
		double model_bytes = r.global.loads * r.elem_bytes;
		if (fabs(emu_bytes - model_bytes) > 1e-9 * model_bytes)
			print_error("%s: emulator %.0f B, model %.0f B of global loads\n", l->id, emu_bytes, model_bytes);
		assert_float_equal(emu_bytes, model_bytes, 1e-9 * model_bytes);
		checked++;
	}
	course_free(&c);
	assert_true(checked >= 1);
}

static void keys_and_values(void **state)
{
	(void)state;
	lesson l = make("smem", "smem", "TILE=32", "TILE", "TILE", "TILE", "TILE", "2*TILE*TILE*4", 0);
	model_result r = run(&l, NULL, 2048);
	double v;
	assert_true(model_known("ai.global"));
	assert_true(model_known("occupancy.limiter"));
	assert_true(model_known("param.TILE"));
	assert_false(model_known("ai.gmem"));
	assert_false(model_known("param."));
	assert_int_equal(model_value(&r, "param.TILE", &v), 0);
	assert_float_equal(v, 32, 0);
	assert_int_equal(model_value(&r, "param.NOPE", &v), -1);
	assert_int_equal(model_value(&r, "gpu.sms", &v), 0);
	assert_float_equal(v, 108, 0);
	assert_int_equal(model_value(&r, "regime", &v), -1);
	fmt(&r, "gpu.name", "NVIDIA A100 SXM4 40GB");
	fmt(&r, "regime_if_dram", "memory"); /* 7.9 FLOP/B below the ridge of 12.5 */
	fmt(&r, "regime", !strcmp(r.bound_limit, "compute") ? "compute" : "memory");
	fmt(&r, "param.TILE", "32");
	fmt(&r, "gpu.bw_gbs", "1555 GB/s");
	fmt(&r, "flops", "17.2 GFLOP");
	fmt(&r, "ridge", "12.5 FLOP/B");
	fmt(&r, "sectors_per_request.A", "4");
	/* every listed key has a value or a string */
	for (int i = 0; i < model_key_count(); i++) {
		char buf[64];
		assert_true(model_known(model_key_name(i)));
		model_format(&r, model_key_name(i), buf, sizeof buf);
		assert_true(buf[0] != '\0');
		assert_null(strchr(buf, '?'));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(naive_quarter_flop_per_byte),
		cmocka_unit_test(coalesced_sectors),
		cmocka_unit_test(a100_fp32_ridge),
		cmocka_unit_test(bound_levels_by_hand),
		cmocka_unit_test(measured_rows_and_errors),
		cmocka_unit_test(measured_crlf_units_and_lines),
		cmocka_unit_test(whatif_reasons),
		cmocka_unit_test(tiling_widths),
		cmocka_unit_test(smem_32_counts),
		cmocka_unit_test(blocktile1d_counts),
		cmocka_unit_test(blocktile2d_counts_and_conflicts),
		cmocka_unit_test(vectorized_warp_view),
		cmocka_unit_test(unknown_override),
		cmocka_unit_test(occupancy_from_launch),
		cmocka_unit_test(mma_uses_tensor_peak),
		cmocka_unit_test(warptile_counts),
		cmocka_unit_test(wgmma_without_requests),
		cmocka_unit_test(cluster_traffic_and_tile_order),
		cmocka_unit_test(bound_follows_ridge),
		cmocka_unit_test(keys_and_values),
		cmocka_unit_test(shipped_lessons_match_emulator),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
