/* test_offline: a run request carried out by the CPU emulator — counts, verdicts, a parse error and a fault at their lines — directly and through the worker child. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course/lesson.h"
#include "emu/backend.h"
#include "run/launch.h"
#include "course/userptx.h"
#include "base/util.h"
#include "exec/worker.h"

static char dir[PATH_MAX];
static course crs;

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/ptxtutor-offline-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char err[4096] = "";
	return course_load(&crs, err, sizeof err) > 0 ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	course_free(&crs);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Lesson 1 (naive) at 128³, from the shipped file or a changed copy of it. */
static void naive_request(run_request *rq)
{
	const lesson *l = course_find(&crs, "naive");
	assert_non_null(l);
	char err[256];
	assert_int_equal(launch_request_for_lesson(l, NULL, 128, 128, 128, rq, err, sizeof err), 0);
	rq->backend = RUN_BACKEND_EMU;
}

/* Writes the naive kernel with line `line` (1-based) replaced by `with`
 * (several lines allowed) and points the request at it. */
static void edited(run_request *rq, int line, const char *with)
{
	char *text = util_read_file(rq->ptx_path, NULL, NULL, 0);
	assert_non_null(text);
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/01_naive.ptx", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	int n = 1;
	for (char *s = text; *s;) {
		char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (n++ == line)
			fprintf(f, "%s\n", with);
		else
			fprintf(f, "%.*s\n", (int)len, s);
		s += len + (e != NULL);
	}
	fclose(f);
	free(text);
	util_strlcpy(rq->ptx_path, path, sizeof rq->ptx_path);
}

static int line_of(const char *path, const char *needle)
{
	char *text = util_read_file(path, NULL, NULL, 0);
	assert_non_null(text);
	char *at = strstr(text, needle);
	assert_non_null(at);
	int n = 1;
	for (char *p = text; p < at; p++)
		n += *p == '\n';
	free(text);
	return n;
}

static void test_counts_and_verdict(void **st)
{
	(void)st;
	run_request rq;
	naive_request(&rq);
	run_result res;
	emu_backend_run(&rq, &res);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.emulated, 1);
	assert_int_equal(res.verified, 1);
	assert_true(res.rel_err < 1e-5);
	assert_true(res.gflops == 0);
	assert_int_equal(res.emu.M, 128);
	/* Per warp, one load of A touches 32 rows (32 sectors) and the load of B
	 * one address (1 sector), one of each per k: 16.5 on average. */
	assert_int_equal(res.emu.gld_requests, 2ULL * 128 * 128 * 128 / 32);
	assert_true(fabs((double)res.emu.gld_sectors / (double)res.emu.gld_requests - 16.5) < 1e-9);
	/* A warp's 32 stores go to 32 rows of C: 32 sectors. */
	assert_int_equal(res.emu.gst_requests, 128ULL * 128 / 32);
	assert_int_equal(res.emu.gst_sectors, 32 * res.emu.gst_requests);
	assert_int_equal(res.emu.sld_requests + res.emu.sst_requests, 0);

	/* A second load of B per k: more requests, fewer sectors per request. */
	int ln = line_of(rq.ptx_path, "ld.global.f32 %b, [%pB];");
	edited(&rq, ln, "\tld.global.f32 %b, [%pB];\n\tld.global.f32 %b, [%pB];");
	emu_backend_run(&rq, &res);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.emu.gld_requests, 3ULL * 128 * 128 * 128 / 32);
	assert_true(fabs((double)res.emu.gld_sectors / (double)res.emu.gld_requests - 34.0 / 3) < 1e-9);
}

static void test_wrong_result(void **st)
{
	(void)st;
	run_request rq;
	naive_request(&rq);
	int ln = line_of(rq.ptx_path, "fma.rn.f32 %acc, %a, %b, %acc;");
	edited(&rq, ln, "\tsub.f32 %acc, %acc, %a;");
	run_result res;
	emu_backend_run(&rq, &res);
	assert_int_equal(res.status, RUN_WRONG);
	assert_int_equal(res.verified, 0);
	assert_non_null(strstr(res.msg, "wrong values"));
}

static void test_parse_error_at_its_line(void **st)
{
	(void)st;
	run_request rq;
	naive_request(&rq);
	int ln = line_of(rq.ptx_path, "fma.rn.f32 %acc, %a, %b, %acc;");
	edited(&rq, ln, "\tfmaa.rn.f32 %acc, %a, %b, %acc;");
	run_result res;
	emu_backend_run(&rq, &res);
	assert_int_equal(res.status, RUN_JIT_ERROR);
	assert_int_equal(res.emulated, 1);
	/* The message names the file without its folder; the log in full. */
	char want[64];
	snprintf(want, sizeof want, "01_naive.ptx:%d:", ln);
	assert_true(!strncmp(res.msg, want, strlen(want)));
	assert_non_null(strstr(res.log, dir));
	userptx_mark m[4];
	assert_int_equal(userptx_marks(res.log, rq.ptx_path, m, 4), 1);
	assert_int_equal(m[0].line, ln);
	assert_non_null(strstr(m[0].msg, "fmaa"));
	/* and as data: the file, the line and the message without them */
	assert_string_equal(res.where.path, rq.ptx_path);
	assert_int_equal(res.where.line, ln);
	assert_true(!strncmp(res.where.msg, "unsupported instruction 'fmaa", 29));
}

static void test_fault_at_its_line(void **st)
{
	(void)st;
	run_request rq;
	naive_request(&rq);
	int ln = line_of(rq.ptx_path, "st.global.f32 [%pC], %acc;");
	edited(&rq, ln, "\tadd.u64 %pC, %pC, 0x10000000000;\n\tst.global.f32 [%pC], %acc;");
	run_result res;
	emu_backend_run(&rq, &res);
	assert_int_equal(res.status, RUN_FAULT);
	assert_non_null(strstr(res.msg, "out-of-bounds"));
	userptx_mark m[4];
	assert_int_equal(userptx_marks(res.msg, rq.ptx_path, m, 4), 1);
	assert_int_equal(m[0].line, ln + 1);
}

static void test_bad_entry(void **st)
{
	(void)st;
	run_request rq;
	naive_request(&rq);
	util_strlcpy(rq.entry, "nope", sizeof rq.entry);
	run_result res;
	emu_backend_run(&rq, &res);
	assert_int_equal(res.status, RUN_BAD_REQUEST);
	assert_non_null(strstr(res.msg, "nope"));
}

static run_result wait_result(worker *w)
{
	run_result res;
	double t0 = util_now();
	while (!worker_poll(w, &res)) {
		struct pollfd p = {worker_fd(w), POLLIN, 0};
		poll(&p, 1, 100);
		assert_true(util_now() - t0 < 120);
	}
	return res;
}

/* The tutor's path: the worker child emulates; a fault restarts it and the
 * next request is answered by the new child. */
static void test_through_the_worker(void **st)
{
	(void)st;
	worker w;
	assert_int_equal(worker_start(&w), 0);
	run_request rq;
	naive_request(&rq);
	assert_int_equal(worker_submit(&w, &rq, 60), 0);
	run_result res = wait_result(&w);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.emulated, 1);
	assert_int_equal(res.emu.gld_requests, 2ULL * 128 * 128 * 128 / 32);

	int ln = line_of(rq.ptx_path, "st.global.f32 [%pC], %acc;");
	run_request bad = rq;
	edited(&bad, ln, "\tadd.u64 %pC, %pC, 0x10000000000;\n\tst.global.f32 [%pC], %acc;");
	pid_t before = w.pid;
	assert_int_equal(worker_submit(&w, &bad, 60), 0);
	res = wait_result(&w);
	assert_int_equal(res.status, RUN_FAULT);
	assert_true(w.pid > 0 && w.pid != before);

	assert_int_equal(worker_submit(&w, &rq, 60), 0);
	res = wait_result(&w);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	worker_stop(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_and_verdict),
		cmocka_unit_test(test_wrong_result),
		cmocka_unit_test(test_parse_error_at_its_line),
		cmocka_unit_test(test_fault_at_its_line),
		cmocka_unit_test(test_bad_entry),
		cmocka_unit_test(test_through_the_worker),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
