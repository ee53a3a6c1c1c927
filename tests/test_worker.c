/* test_worker: the worker protocol without a GPU — every request gets an answer; a child killed,
 * cancelled or past its deadline while busy is replaced, and the next request is answered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "exec/worker.h"
#include "run/launch.h"

/* A kernel with the lesson ABI that never ends: at 1024 the emulator runs it
 * until its instruction budget (1e7 + 2*M*N*K warp instructions, seconds), so
 * the child is certainly busy when the test kills it. */
static const char spin_ptx[] = ".version 7.0\n.target sm_50\n.address_size 64\n"
			       ".visible .entry spin(.param .u64 A, .param .u64 B, .param .u64 C,\n"
			       "\t.param .u32 M, .param .u32 N, .param .u32 K)\n{\nL:\n\tbra L;\n}\n";

static char spin_path[64];

static int setup(void **state)
{
	(void)state;
	util_strlcpy(spin_path, "/tmp/test_worker_XXXXXX", sizeof spin_path);
	int fd = mkstemp(spin_path);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, spin_ptx, sizeof spin_ptx - 1);
	close(fd);
	return n == (ssize_t)sizeof spin_ptx - 1 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unlink(spin_path);
	return 0;
}

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

/* An emulated run (no GPU needed) of an n x n x n problem in one 32x32 block. */
static run_request emulated(const char *path, const char *entry, long long n)
{
	run_request rq = {0};
	util_strlcpy(rq.ptx_path, path, sizeof rq.ptx_path);
	util_strlcpy(rq.entry, entry, sizeof rq.entry);
	rq.dt = DTYPE_F32;
	rq.M = rq.N = rq.K = n;
	rq.grid[0] = rq.grid[1] = rq.grid[2] = 1;
	rq.block[0] = rq.block[1] = 32;
	rq.block[2] = 1;
	rq.verify = 1;
	rq.backend = RUN_BACKEND_EMU;
	return rq;
}

/* Submits the endless kernel and checks, for a while, that no answer comes:
 * whatever happens next happens to a child in the middle of a run. */
static void submit_spin(worker *w, double deadline_s)
{
	run_request rq = emulated(spin_path, "spin", 1024);
	run_result res;
	rq.deadline_s = deadline_s;
	assert_int_equal(worker_submit(w, &rq), 0);
	for (int i = 0; i < 3; i++) {
		struct pollfd p = {worker_fd(w), POLLIN, 0};
		assert_int_equal(poll(&p, 1, 50), 0);
	}
	assert_int_equal(worker_poll(w, &res), 0);
}

/* The next request after a restart is answered, and answered right: the
 * naive test kernel, emulated and verified. */
static void next_is_answered(worker *w)
{
	char naive[512];
	util_path(naive, sizeof naive, "tests/emu/naive.ptx");
	run_request rq = emulated(naive, "gemm_naive", 32);
	assert_int_equal(worker_submit(w, &rq), 0);
	run_result res = wait_result(w);
	if (res.status != RUN_OK)
		fail_msg("after a restart: status %d, %s", res.status, res.msg);
	assert_int_equal(res.backend, RUN_BACKEND_EMU);
	assert_int_equal(res.verified, 1);
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
	assert_int_equal(worker_submit(&w, &rq), 0);
	assert_true(worker_fd(&w) >= 0);
	run_result res = wait_result(&w);
	/* No GPU here says why; with one, the missing file is a bad request. */
	assert_true(res.status == RUN_NO_GPU || res.status == RUN_BAD_REQUEST);
	assert_true(strlen(res.msg) > 10);
	assert_int_equal(worker_fd(&w), -1);
	next_is_answered(&w);
	worker_stop(&w);
}

static void test_dies_mid_run(void **state)
{
	(void)state;
	worker w;
	assert_int_equal(worker_start(&w), 0);
	submit_spin(&w, 0);
	pid_t busy = w.pid;
	kill(busy, SIGKILL);
	run_result res = wait_result(&w);
	if (res.status != RUN_FAULT || !strstr(res.msg, "died (signal 9)"))
		fail_msg("a child killed mid-run: status %d, '%s'", res.status, res.msg);
	assert_int_equal(res.backend, RUN_BACKEND_EMU); /* the worker knows what it sent */
	/* Restarted at once, not at the next submit. */
	assert_true(w.pid > 0 && w.pid != busy);
	assert_int_equal(kill(w.pid, 0), 0);
	next_is_answered(&w);
	worker_stop(&w);
}

static void test_cancel_mid_run(void **state)
{
	(void)state;
	worker w;
	assert_int_equal(worker_start(&w), 0);
	submit_spin(&w, 0);
	pid_t busy = w.pid;
	run_result res;
	worker_cancel(&w, &res);
	assert_int_equal(res.status, RUN_CANCELLED);
	assert_int_equal(res.backend, RUN_BACKEND_EMU);
	assert_true(w.pid > 0 && w.pid != busy);
	assert_int_equal(worker_fd(&w), -1);
	next_is_answered(&w);
	worker_stop(&w);
}

static void test_deadline_mid_run(void **state)
{
	(void)state;
	worker w;
	assert_int_equal(worker_start(&w), 0);
	submit_spin(&w, 0.5);
	pid_t busy = w.pid;
	double t0 = util_now();
	run_result res = wait_result(&w);
	/* The request's deadline, well before the emulator's own budget: the
	 * emulator stops itself there (the worker would kill it a grace later). */
	if (res.status != RUN_TIMEOUT || !strstr(res.msg, "deadline"))
		fail_msg("a run past its deadline: status %d, '%s'", res.status, res.msg);
	assert_int_equal(res.backend, RUN_BACKEND_EMU);
	assert_true(util_now() - t0 < 0.5 + LAUNCH_KILL_GRACE_S);
	/* a clean stop: the same child answers the next request */
	assert_true(w.pid == busy);
	next_is_answered(&w);
	worker_stop(&w);
}

/* The descriptors open in this process: /proc/self/fd's entries. */
static int open_fds(void)
{
	int n = 0;
	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

static pid_t failing_fork(void)
{
	errno = EAGAIN;
	return -1;
}

/* A fork that fails leaves no pipe open, and a restart that cannot start a
 * child makes submit fail instead of writing to a closed descriptor. */
static void test_failed_start_leaks_nothing(void **state)
{
	(void)state;
	worker w;
	int before = open_fds();
	worker_set_fork(failing_fork);
	for (int i = 0; i < 8; i++)
		assert_int_equal(worker_start(&w), -1);
	assert_int_equal(open_fds(), before);
	assert_int_equal(w.pid, -1);
	assert_int_equal(w.to_child, -1);
	worker_set_fork(NULL);

	/* A child that died between runs, and no new one can be forked. */
	assert_int_equal(worker_start(&w), 0);
	kill(w.pid, SIGKILL);
	waitpid(w.pid, NULL, 0);
	worker_set_fork(failing_fork);
	run_request rq = {0};
	rq.backend = RUN_BACKEND_EMU;
	assert_int_equal(worker_submit(&w, &rq), -1);
	assert_int_equal(w.busy, 0);
	assert_int_equal(w.pid, -1);
	assert_int_equal(worker_fd(&w), -1);
	worker_set_fork(NULL);
	/* and once fork works again, the next submit starts a child */
	run_request ok = emulated(spin_path, "spin", 32);
	assert_int_equal(worker_submit(&w, &ok), 0);
	worker_stop(&w);
	assert_int_equal(open_fds(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers_and_survives),
		cmocka_unit_test(test_dies_mid_run),
		cmocka_unit_test(test_cancel_mid_run),
		cmocka_unit_test(test_deadline_mid_run),
		cmocka_unit_test(test_failed_start_leaks_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
