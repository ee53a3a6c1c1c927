/* test_gpu: the runner and worker on a real GPU — verify, time, JIT logs, faults, hangs, bf16 and 16-bit outputs, clusters, run --lineinfo (skips without a driver). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/lesson.h"
#include "gpu/runner.h"
#include "run/launch.h"
#include "base/util.h"
#include "exec/worker.h"

static worker w;
static char why[256];

static run_request request(const char *entry, dtype dt, long long M, long long N, long long K)
{
	run_request rq = {0};
	util_path(rq.ptx_path, sizeof rq.ptx_path, "tests/data/gemm_test.ptx");
	util_strlcpy(rq.entry, entry, sizeof rq.entry);
	rq.dt = dt;
	rq.block[0] = rq.block[1] = 16;
	rq.block[2] = 1;
	rq.grid[0] = (unsigned)((N + 15) / 16);
	rq.grid[1] = (unsigned)((M + 15) / 16);
	rq.grid[2] = 1;
	rq.M = M, rq.N = N, rq.K = K;
	rq.verify = 1;
	return rq;
}

static run_result run(const run_request *rq, double deadline)
{
	run_result res;
	run_request timed = *rq;
	timed.deadline_s = deadline;
	assert_int_equal(worker_submit(&w, &timed), 0);
	while (!worker_poll(&w, &res)) {
		struct pollfd p = {worker_fd(&w), POLLIN, 0};
		poll(&p, 1, 100);
	}
	return res;
}

/* Skips every test when the worker's first answer says there is no GPU. */
/* The same naive shape over another test kernel file. */
static run_request request_in(const char *file, const char *entry, dtype dt, dtype out, long long M, long long N,
			      long long K)
{
	run_request rq = request(entry, dt, M, N, K);
	util_path(rq.ptx_path, sizeof rq.ptx_path, file);
	rq.out = out;
	return rq;
}

static int setup(void **state)
{
	(void)state;
	if (worker_start(&w))
		return -1;
	run_request rq = request("gemm_f32", DTYPE_F32, 64, 64, 64);
	run_result res;
	rq.deadline_s = 60;
	assert_int_equal(worker_submit(&w, &rq), 0);
	while (!worker_poll(&w, &res)) {
		struct pollfd p = {worker_fd(&w), POLLIN, 0};
		poll(&p, 1, 100);
	}
	if (res.status == RUN_NO_GPU)
		util_strlcpy(why, res.msg, sizeof why);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	worker_stop(&w);
	return 0;
}

#define NEED_GPU()                                                             \
	do {                                                                   \
		if (why[0]) {                                                  \
			printf("skipping: no GPU (%s)\n", why);                \
			skip();                                                \
		}                                                              \
	} while (0)

static void test_f32_verifies_and_times(void **state)
{
	(void)state;
	NEED_GPU();
	run_request rq = request("gemm_f32", DTYPE_F32, 300, 170, 90); /* not multiples of 16 */
	rq.time = 1;
	run_result res = run(&rq, 60);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	assert_true(res.rel_err < res.tol);
	assert_true(res.gflops > 0 && res.cublas_gflops > 0);
	assert_true(res.repeats >= 3);
	/* timed a block at a time: a short kernel gets many launches a block, each side its own */
	assert_true(res.block > 1 && res.cublas_block > 1);
	assert_true(res.spread >= 0 && res.cublas_spread >= 0);
	assert_non_null(strstr(res.timing, "steady: "));
	assert_true(res.regs > 0);
	assert_true(res.blocks_per_sm > 0);
}

/* --burst: the GPU idles first, and the result says so. */
static void test_burst_timing(void **state)
{
	(void)state;
	NEED_GPU();
	run_request rq = request("gemm_f32", DTYPE_F32, 256, 256, 256);
	rq.time = 1;
	rq.timing = RUN_TIMING_BURST;
	run_result res = run(&rq, 60);
	assert_int_equal(res.status, RUN_OK);
	assert_non_null(strstr(res.timing, "burst: "));
	assert_true(res.ms > 0 && res.cublas_ms > 0);
}

static void test_f16_verifies_against_gemmex(void **state)
{
	(void)state;
	NEED_GPU();
	run_request rq = request("gemm_f16", DTYPE_F16, 128, 256, 200);
	run_result res = run(&rq, 60);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
}

static void test_wrong_and_unwritten_results_fail(void **state)
{
	(void)state;
	NEED_GPU();
	/* M and N swapped in the parameter list: a wrong product. */
	run_request rq = request("gemm_f32", DTYPE_F32, 96, 160, 64);
	char err[256];
	assert_int_equal(argspec_parse("A B C N M K", NULL, &rq.args, err, sizeof err), 0);
	run_result res = run(&rq, 60);
	assert_int_equal(res.status, RUN_WRONG);
	assert_int_equal(res.verified, 0);
	/* Half the grid: the other half stays NaN-poisoned. */
	rq = request("gemm_f32", DTYPE_F32, 96, 160, 64);
	rq.grid[1] /= 2;
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_WRONG);
	assert_non_null(strstr(res.msg, "NaN"));
}

/* Lesson 9 through the lesson's own request: tensor maps from its args, a
 * persistent grid capped to the GPU. Elsewhere than sm_90 it must refuse. */
static void test_tensor_maps_and_persistent_grid(void **state)
{
	(void)state;
	NEED_GPU();
	static course c;
	char err[512];
	course_load(&c, NULL, 0);
	const lesson *l = course_find(&c, "wgmma");
	assert_non_null(l);
	run_request rq;
	assert_int_equal(launch_request_for_lesson(l, NULL, 512, 512, 512, &rq, err, sizeof err), 0);
	run_result res = run(&rq, 60);
	if (res.cc_major * 10 + res.cc_minor != 90) {
		assert_int_equal(res.status, RUN_UNSUPPORTED);
		assert_non_null(strstr(res.msg, "needs sm_90a"));
		printf("lesson 9 refused on sm_%d%d, as it must: %s\n", res.cc_major, res.cc_minor, res.msg);
		course_free(&c);
		return;
	}
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	assert_int_equal(res.grid[0], 2 * 4); /* fewer tiles than SMs: one block each */
	assert_int_equal(res.grid[1], 1);
	assert_int_equal(launch_request_for_lesson(l, NULL, 2048, 4096, 256, &rq, err, sizeof err), 0);
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	assert_int_equal(res.grid[0], (unsigned)(res.spec.sms * res.blocks_per_sm)); /* 256 tiles, one wave */

	/* A 128-byte swizzle cannot take a box 64 f32 (256 bytes) wide: the
	 * driver's refusal is reported, as is a matrix that does not exist. */
	rq.dt = DTYPE_F32;
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_BAD_REQUEST);
	assert_non_null(strstr(res.msg, "the driver refused tmap:A:64:128:128B"));
	assert_int_equal(argspec_parse("tmap:D:64:64 C M N K", NULL, &rq.args, err, sizeof err), -1);
	assert_non_null(strstr(err, "'tmap:D:64:64'"));
	course_free(&c);
}

static void test_jit_error_has_log_with_line(void **state)
{
	(void)state;
	NEED_GPU();
	char err[256], path[] = "/tmp/ptxtutor-broken-XXXXXX";
	char src[512];
	util_path(src, sizeof src, "tests/data/gemm_test.ptx");
	char *text = util_read_file(src, NULL, err, sizeof err);
	assert_non_null(text);
	char *p = strstr(text, "fma.rn.f32");
	memcpy(p, "fma.rn.q32", 10);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	free(text);
	run_request rq = request("gemm_f32", DTYPE_F32, 64, 64, 64);
	util_strlcpy(rq.ptx_path, path, sizeof rq.ptx_path);
	run_result res = run(&rq, 60);
	remove(path);
	assert_int_equal(res.status, RUN_JIT_ERROR);
	assert_non_null(strstr(res.log, "line"));
}

static void test_fault_restarts_worker(void **state)
{
	(void)state;
	NEED_GPU();
	run_request rq = request("fault_store", DTYPE_F32, 64, 64, 64);
	run_result res = run(&rq, 60);
	assert_int_equal(res.status, RUN_FAULT);
	rq = request("gemm_f32", DTYPE_F32, 64, 64, 64);
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
}

static void test_hang_is_killed_at_deadline(void **state)
{
	(void)state;
	NEED_GPU();
	run_request rq = request("hang", DTYPE_F32, 64, 64, 64);
	double t0 = util_now();
	run_result res = run(&rq, 3);
	assert_int_equal(res.status, RUN_TIMEOUT);
	assert_true(util_now() - t0 < 10);
	rq = request("gemm_f32", DTYPE_F32, 64, 64, 64);
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_OK);
}

/* bf16 inputs, and C in f32, f16 or bf16: checked against GemmEx with the
 * same types, at a size no tile divides. */
/* Lesson 11's formats: tf32 checked against GemmEx with
 * CUBLAS_COMPUTE_32F_FAST_TF32 (B stored either way), e4m3 with per-tensor
 * scales and B stored N x K against cuBLASLt, whose plan is chosen once and
 * timed like GemmEx. The kernels are tests/data/gemm_fp8.ptx (sm_89). */
static void test_tf32_and_fp8_references(void **state)
{
	(void)state;
	NEED_GPU();
	const char *file = "tests/data/gemm_fp8.ptx";
	for (int bk = 0; bk < 2; bk++) {
		run_request rq = request_in(file, bk ? "gemm_tf32_f32_bk" : "gemm_tf32_f32", DTYPE_TF32, DTYPE_F32, 300, 170,
					    90);
		rq.b_kmajor = bk;
		rq.time = 1;
		run_result res = run(&rq, 60);
		if (res.cc_major * 10 + res.cc_minor < 89) {
			assert_int_equal(res.status, RUN_UNSUPPORTED);
			printf("tf32 and e4m3 test kernels need sm_89: %s\n", res.msg);
			return;
		}
		printf("tf32%s: %s, rel. error %.3g (tolerance %.0e), cuBLAS %.1f GFLOP/s\n", bk ? " (B N x K)" : "",
		       run_status_name(res.status), res.rel_err, res.tol, res.cublas_gflops);
		assert_int_equal(res.status, RUN_OK);
		assert_int_equal(res.verified, 1);
		assert_true(res.rel_err < res.tol);
		assert_true(res.cublas_gflops > 0);
	}
	run_request rq = request_in(file, "gemm_e4m3_f32", DTYPE_E4M3, DTYPE_F32, 256, 128, 192);
	rq.b_kmajor = 1;
	rq.time = 1;
	char err[256];
	assert_int_equal(argspec_parse("A B C M N K scale:A scale:B", NULL, &rq.args, err, sizeof err), 0);
	run_result res = run(&rq, 60);
	printf("e4m3: %s, %s, rel. error %.3g (tolerance %.0e), cuBLASLt %.1f GFLOP/s; %s\n", run_status_name(res.status),
	       res.msg, res.rel_err, res.tol, res.cublas_gflops, res.timing);
	assert_int_equal(res.status, RUN_OK);
	if (res.verified == -1) { /* no libcublasLt: one line says so, the run still ran */
		assert_non_null(strstr(res.msg, "cuBLASLt"));
		return;
	}
	assert_int_equal(res.verified, 1);
	assert_true(res.rel_err < res.tol);
	assert_true(res.cublas_gflops > 0);
	assert_non_null(strstr(res.timing, "cuBLASLt"));
	/* the same shape again: the kept plan, the same answer */
	res = run(&rq, 60);
	assert_int_equal(res.verified, 1);
	/* the scales left out: wrong by their product */
	assert_int_equal(argspec_parse("A B C M N K f32:1 f32:1", NULL, &rq.args, err, sizeof err), 0);
	rq.time = 0;
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_WRONG);
	/* B stored K x N: cuBLASLt's FP8 wants it N x K ("TN"), and the kernel reads N x K: never verified */
	assert_int_equal(argspec_parse("A B C M N K scale:A scale:B", NULL, &rq.args, err, sizeof err), 0);
	rq.b_kmajor = 0;
	res = run(&rq, 60);
	printf("e4m3, B K x N: %s: %s\n", run_status_name(res.status), res.msg);
	assert_true(res.verified != 1);
}

static void test_16bit_outputs_verify(void **state)
{
	(void)state;
	NEED_GPU();
	static const struct {
		const char *entry;
		dtype in, out;
		double tol;
	} cases[] = {
		{"gemm_bf16_f32", DTYPE_BF16, DTYPE_F32, 1e-3},
		{"gemm_bf16_bf16", DTYPE_BF16, DTYPE_BF16, 1e-2},
		{"gemm_f16_f16", DTYPE_F16, DTYPE_F16, 2e-3},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		run_request rq = request_in("tests/data/gemm_16bit.ptx", cases[i].entry, cases[i].in, cases[i].out, 300, 170, 90);
		rq.time = 1;
		run_result res = run(&rq, 60);
		if (res.cc_major < 8) {
			assert_int_equal(res.status, RUN_UNSUPPORTED);
			printf("16-bit outputs need sm_80 (cvt.rn.bf16.f32): %s\n", res.msg);
			return;
		}
		printf("%s: %s, rel. error %.3g (tolerance %.0e), cuBLAS %.1f GFLOP/s\n", cases[i].entry,
		       run_status_name(res.status), res.rel_err, res.tol, res.cublas_gflops);
		assert_int_equal(res.status, RUN_OK);
		assert_int_equal(res.verified, 1);
		assert_float_equal(res.tol, cases[i].tol, 1e-12);
		assert_true(res.rel_err < res.tol);
		assert_true(res.gflops > 0 && res.cublas_gflops > 0); /* GemmEx took the same types */
	}
	/* The wrong output type for the kernel: bf16 written, f32 read back is garbage. */
	run_request rq = request_in("tests/data/gemm_16bit.ptx", "gemm_bf16_bf16", DTYPE_BF16, DTYPE_F32, 64, 64, 64);
	run_result res = run(&rq, 60);
	assert_int_equal(res.status, RUN_WRONG);
}

/* A 16-bit C that is never written keeps the type's NaN poison, or C0
 * through both launches under beta:, and fails. */
static void test_16bit_unwritten_fails(void **state)
{
	(void)state;
	NEED_GPU();
	char err[256];
	run_request rq = request_in("tests/data/gemm_16bit.ptx", "gemm_bf16_bf16", DTYPE_BF16, DTYPE_BF16, 96, 160, 64);
	rq.grid[1] /= 2;
	run_result res = run(&rq, 60);
	if (res.cc_major < 8)
		return;
	assert_int_equal(res.status, RUN_WRONG);
	assert_non_null(strstr(res.msg, "never written"));
	rq = request_in("tests/data/gemm_16bit.ptx", "gemm_f16_f16", DTYPE_F16, DTYPE_F16, 96, 160, 64);
	rq.grid[0] -= 1;
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_WRONG);
	assert_non_null(strstr(res.msg, "never written"));
	/* beta: C0 drawn in the output type, the reference alpha*A*B + beta*C0 from GemmEx */
	static const struct {
		const char *entry;
		dtype t;
	} blas[] = {{"gemm_bf16_blas", DTYPE_BF16}, {"gemm_f16_blas", DTYPE_F16}};
	for (size_t i = 0; i < 2; i++) {
		rq = request_in("tests/data/gemm_16bit.ptx", blas[i].entry, blas[i].t, blas[i].t, 96, 160, 64);
		assert_int_equal(argspec_parse("M N K alpha:1.5 A B beta:0.5 C", NULL, &rq.args, err, sizeof err), 0);
		res = run(&rq, 60);
		printf("%s: %s: %s\n", blas[i].entry, run_status_name(res.status), res.msg);
		assert_int_equal(res.status, RUN_OK);
		assert_int_equal(res.verified, 1);
		rq.grid[1] /= 2;
		res = run(&rq, 60);
		assert_int_equal(res.status, RUN_WRONG);
		assert_non_null(strstr(res.msg, "they kept C0 through two launches"));
	}
}

/* Clusters of two blocks: the kernel writes nothing unless it is one of two
 * in its cluster, so only a real cluster launch verifies. */
static void test_clusters(void **state)
{
	(void)state;
	NEED_GPU();
	run_request rq = request_in("tests/data/gemm_cluster.ptx", "gemm_bf16_cluster2", DTYPE_BF16, DTYPE_BF16, 128, 256,
				    64);
	rq.cluster[0] = 2;
	rq.time = 1;
	run_result res = run(&rq, 60);
	if (res.cc_major * 10 + res.cc_minor < 90) {
		assert_int_equal(res.status, RUN_UNSUPPORTED);
		assert_non_null(strstr(res.msg, "clusters need sm_90 and CUDA 12: "));
		printf("clusters refused on sm_%d%d, as they must be: %s\n", res.cc_major, res.cc_minor, res.msg);
		return;
	}
	printf("cluster 2x1x1: %s: %s (%.1f GFLOP/s)\n", run_status_name(res.status), res.msg, res.gflops);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	assert_true(res.gflops > 0);
	/* the same kernel without clusters writes nothing: the NaN poison fails it */
	rq.cluster[0] = 0;
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_WRONG);
	/* clusters along y */
	rq.cluster[1] = 2;
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	/* a grid that is not whole clusters: one line, no launch */
	rq = request_in("tests/data/gemm_cluster.ptx", "gemm_bf16_cluster2", DTYPE_BF16, DTYPE_BF16, 128, 48, 64);
	rq.cluster[0] = 2;
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_BAD_REQUEST);
	assert_string_equal(res.msg, "the grid 3x8x1 is not a multiple of the cluster 2x1x1 (x)");

	/* persistent: a 1-D grid of whole clusters, at most one wave of them */
	rq = request_in("tests/data/gemm_cluster.ptx", "gemm_bf16_cluster2_persistent", DTYPE_BF16, DTYPE_BF16, 2048,
			2048, 64);
	rq.cluster[0] = 2;
	rq.persistent = 1;
	res = run(&rq, 60);
	printf("persistent in clusters: grid %u (%u tiles, %d SMs, %d blocks/SM): %s\n", res.grid[0],
	       rq.grid[0] * rq.grid[1], res.spec.sms, res.blocks_per_sm, res.msg);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	assert_int_equal(res.grid[0] % 2, 0);
	assert_true(res.grid[0] <= (unsigned)(res.spec.sms * res.blocks_per_sm));
	assert_true(res.grid[0] < rq.grid[0] * rq.grid[1]); /* 16384 tiles: one wave, not a block per tile */
	/* fewer tiles than a wave: the tiles rounded up to the cluster (3x1 = 3 tiles -> 4 blocks) */
	rq = request_in("tests/data/gemm_cluster.ptx", "gemm_bf16_cluster2_persistent", DTYPE_BF16, DTYPE_BF16, 16, 48, 64);
	rq.cluster[0] = 2;
	rq.persistent = 1;
	res = run(&rq, 60);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	assert_int_equal(res.grid[0], 4);
}

/* A lesson's `out:` and `cluster:` through its own request, as lesson 10 will run. */
static void test_lesson_with_out_and_cluster(void **state)
{
	(void)state;
	NEED_GPU();
	static const char text[] = "---\nid: bfc\ntitle: bf16 in clusters\n"
				   "kernel: tests/data/gemm_cluster.ptx gemm_bf16_cluster2\n"
				   "dtype: bf16\nout: bf16\ncluster: 2\nblock: 16 16\ntile: 16 16\nmultiple: 1 32 1\n"
				   "needs: sm_90\n---\n# P\n";
	char err[512];
	lesson l;
	assert_int_equal(lesson_parse("lessons/10-bfc.md", text, &l, err, sizeof err), 0);
	run_request rq;
	assert_int_equal(launch_request_for_lesson(&l, NULL, 256, 512, 128, &rq, err, sizeof err), 0);
	lesson_free(&l);
	run_result res = run(&rq, 60);
	if (res.cc_major * 10 + res.cc_minor < 90) {
		assert_int_equal(res.status, RUN_UNSUPPORTED);
		return;
	}
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	assert_float_equal(res.tol, 1e-2, 1e-12);
	assert_true(res.cublas_gflops > 0);
}

/* run --lineinfo: the .loc copy JITs with line information, runs, verifies,
 * and gets the same registers (line information changes no instruction). */
static void test_lineinfo_runs_the_same(void **state)
{
	(void)state;
	NEED_GPU();
	run_request rq = request("gemm_f32", DTYPE_F32, 128, 96, 64);
	run_result plain = run(&rq, 60);
	rq.lineinfo = 1;
	run_result li = run(&rq, 60);
	assert_int_equal(li.status, RUN_OK);
	assert_int_equal(li.verified, 1);
	assert_int_equal(li.regs, plain.regs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f32_verifies_and_times),
		cmocka_unit_test(test_burst_timing),
		cmocka_unit_test(test_f16_verifies_against_gemmex),
		cmocka_unit_test(test_wrong_and_unwritten_results_fail),
		cmocka_unit_test(test_tensor_maps_and_persistent_grid),
		cmocka_unit_test(test_jit_error_has_log_with_line),
		cmocka_unit_test(test_fault_restarts_worker),
		cmocka_unit_test(test_hang_is_killed_at_deadline),
		cmocka_unit_test(test_16bit_outputs_verify),
		cmocka_unit_test(test_tf32_and_fp8_references),
		cmocka_unit_test(test_16bit_unwritten_fails),
		cmocka_unit_test(test_clusters),
		cmocka_unit_test(test_lesson_with_out_and_cluster),
		cmocka_unit_test(test_lineinfo_runs_the_same),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
