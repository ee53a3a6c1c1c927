/* test_gpu: the runner and worker on a real GPU — verify, time, JIT logs, faults, hangs (skips without a driver). */
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
#include "gpu/worker.h"

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
	rq.min_seconds = 0.05;
	return rq;
}

static run_result run(const run_request *rq, double deadline)
{
	run_result res;
	assert_int_equal(worker_submit(&w, rq, deadline), 0);
	while (!worker_poll(&w, &res)) {
		struct pollfd p = {worker_fd(&w), POLLIN, 0};
		poll(&p, 1, 100);
	}
	return res;
}

/* Skips every test when the worker's first answer says there is no GPU. */
static int setup(void **state)
{
	(void)state;
	if (worker_start(&w))
		return -1;
	run_request rq = request("gemm_f32", DTYPE_F32, 64, 64, 64);
	run_result res;
	assert_int_equal(worker_submit(&w, &rq, 60), 0);
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
	assert_true(res.regs > 0);
	assert_true(res.blocks_per_sm > 0);
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
	rq.min_seconds = 0.05;
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
	rq.min_seconds = 0.05;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f32_verifies_and_times),
		cmocka_unit_test(test_f16_verifies_against_gemmex),
		cmocka_unit_test(test_wrong_and_unwritten_results_fail),
		cmocka_unit_test(test_tensor_maps_and_persistent_grid),
		cmocka_unit_test(test_jit_error_has_log_with_line),
		cmocka_unit_test(test_fault_restarts_worker),
		cmocka_unit_test(test_hang_is_killed_at_deadline),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
