/* test_worker: the worker protocol without a GPU — every request gets an answer, cancel restarts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <signal.h>
#include <string.h>

#include "base/util.h"
#include "gpu/worker.h"

static run_result wait_result(worker *w)
{
	run_result res;
	double t0 = util_now();
	while (!worker_poll(w, &res)) {
		struct pollfd p = {worker_fd(w), POLLIN, 0};
		poll(&p, 1, 100);
		assert_true(util_now() - t0 < 60);
	}
	return res;
}

static void test_answers_and_survives(void **state)
{
	(void)state;
	worker w;
	assert_int_equal(worker_start(&w), 0);
	run_request rq = {0};
	util_strlcpy(rq.ptx_path, "/nonexistent/k.ptx", sizeof rq.ptx_path);
	util_strlcpy(rq.entry, "k", sizeof rq.entry);
	rq.M = rq.N = rq.K = 16;
	rq.grid[0] = rq.grid[1] = rq.grid[2] = rq.block[0] = rq.block[1] = rq.block[2] = 1;
	assert_int_equal(worker_submit(&w, &rq, 30), 0);
	assert_true(worker_fd(&w) >= 0);
	run_result res = wait_result(&w);
	/* No GPU here says why; with one, the missing file is a bad request. */
	assert_true(res.status == RUN_NO_GPU || res.status == RUN_BAD_REQUEST);
	assert_true(strlen(res.msg) > 10);
	assert_int_equal(worker_fd(&w), -1);

	/* A child that dies mid-run is reported and replaced. */
	assert_int_equal(worker_submit(&w, &rq, 30), 0);
	kill(w.pid, SIGKILL);
	res = wait_result(&w);
	assert_true(res.status == RUN_FAULT || res.status == RUN_NO_GPU || res.status == RUN_BAD_REQUEST);
	assert_true(w.pid > 0);

	/* Cancel kills and restarts; the next request is answered. */
	assert_int_equal(worker_submit(&w, &rq, 30), 0);
	worker_cancel(&w, &res);
	assert_int_equal(res.status, RUN_CANCELLED);
	assert_int_equal(worker_submit(&w, &rq, 30), 0);
	res = wait_result(&w);
	assert_true(res.status == RUN_NO_GPU || res.status == RUN_BAD_REQUEST);
	worker_stop(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_answers_and_survives)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
