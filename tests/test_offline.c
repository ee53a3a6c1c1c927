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
#include "exec/backend.h"
#include "run/launch.h"
#include "course/userptx.h"
#include "base/util.h"
#include "lines_helper.h"
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
	launch_target(rq, RUN_BACKEND_EMU, RUN_KIND_RUN, NULL);
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

static void test_counts_and_verdict(void **st)
{
	(void)st;
	run_request rq;
	naive_request(&rq);
	run_result res;
	exec_run(&rq, &res);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.backend, RUN_BACKEND_EMU);
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
	exec_run(&rq, &res);
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
	exec_run(&rq, &res);
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
	exec_run(&rq, &res);
	assert_int_equal(res.status, RUN_JIT_ERROR);
	assert_int_equal(res.backend, RUN_BACKEND_EMU);
	/* The message names the file without its folder; the log in full. */
	char want[64];
	snprintf(want, sizeof want, "01_naive.ptx:%d:", ln);
	assert_true(!strncmp(res.msg, want, strlen(want)));
	assert_non_null(strstr(res.log, dir));
	/* as data: the file, the line and the message without them */
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
	exec_run(&rq, &res);
	assert_int_equal(res.status, RUN_FAULT);
	assert_non_null(strstr(res.msg, "out-of-bounds"));
	/* the line as data, the block apart from the message */
	assert_string_equal(res.where.path, rq.ptx_path);
	assert_int_equal(res.where.line, ln + 1);
	assert_int_equal(res.where.has_block, 1);
	assert_null(strstr(res.where.msg, "(block"));
	assert_non_null(strstr(res.msg, "(block 0,0,0)"));
}

static void test_bad_entry(void **st)
{
	(void)st;
	run_request rq;
	naive_request(&rq);
	util_strlcpy(rq.entry, "nope", sizeof rq.entry);
	run_result res;
	exec_run(&rq, &res);
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
	assert_int_equal(worker_submit(&w, &rq), 0);
	run_result res = wait_result(&w);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.backend, RUN_BACKEND_EMU);
	assert_int_equal(res.emu.gld_requests, 2ULL * 128 * 128 * 128 / 32);

	int ln = line_of(rq.ptx_path, "st.global.f32 [%pC], %acc;");
	run_request bad = rq;
	edited(&bad, ln, "\tadd.u64 %pC, %pC, 0x10000000000;\n\tst.global.f32 [%pC], %acc;");
	pid_t before = w.pid;
	assert_int_equal(worker_submit(&w, &bad), 0);
	res = wait_result(&w);
	assert_int_equal(res.status, RUN_FAULT);
	assert_true(w.pid > 0 && w.pid != before);

	assert_int_equal(worker_submit(&w, &rq), 0);
	res = wait_result(&w);
	assert_int_equal(res.status, RUN_OK);
	assert_int_equal(res.verified, 1);
	assert_true(res.nlines > 0 && res.lines[0].inst > 0); /* the per-line rows crossed the pipe */
	worker_stop(&w);
}

/* The lines' figures summed, and the lines of one region (mask 0: all). */
static run_line_counts line_sum(const run_line_counts *l, int n, unsigned region)
{
	run_line_counts s = {0};
	for (int i = 0; i < n; i++)
		if (!region || (l[i].regions & region))
			run_line_add(&s, &l[i]);
	return s;
}

/* Every lesson the emulator runs: its per-line figures add up to the
 * kernel's totals, and each region's to the region's figures. */
static void test_line_sums_equal_totals(void **st)
{
	(void)st;
	int ran = 0;
	for (int i = 0; i < crs.n; i++) {
		const lesson *l = &crs.l[i];
		run_request rq;
		char err[512];
		long long e = launch_emulation_size(l, NULL);
		if (!l->ptx_path[0] || launch_request_for_lesson(l, NULL, e ? e : 128, e ? e : 128, e ? e : 128, &rq, err, sizeof err))
			continue;
		launch_target(&rq, RUN_BACKEND_EMU, RUN_KIND_RUN, NULL);
		run_error why;
		if (emu_backend_refuses(&rq, &why)) /* lessons 9-10 until the emulator reads them */
			continue;
		static run_result res;
		exec_run(&rq, &res);
		print_message("lesson %d: %s, %d of %d lines\n", l->number, run_status_name(res.status), res.nlines,
			      res.lines_total);
		assert_int_equal(res.status, RUN_OK);
		assert_true(res.nlines > 0 && res.nlines <= RUN_MAX_LINES && res.lines_total >= res.nlines);
		run_line_counts s = line_sum(res.lines, res.nlines, 0);
		const run_emu_counts *t = &res.emu;
		assert_true(s.inst == t->inst);
		assert_true(s.g_requests == t->gld_requests + t->gst_requests);
		assert_true(s.g_sectors == t->gld_sectors + t->gst_sectors);
		assert_true(s.s_requests == t->sld_requests + t->sst_requests);
		assert_true(s.s_wavefronts == t->sld_wavefronts + t->sst_wavefronts);
		assert_true(s.s_conflicts == t->sld_conflicts + t->sst_conflicts);
		for (int r = 0; r < res.nregions && res.nlines == res.lines_total; r++) {
			run_line_counts rs = line_sum(res.lines, res.nlines, 1u << r);
			assert_memory_equal(&rs.inst, &res.regions[r].c.inst, sizeof rs - offsetof(run_line_counts, inst));
		}
		for (int k = 1; k < res.nlines; k++) /* in line order, the summed row (line 0) last */
			assert_true(res.lines[k].line > res.lines[k - 1].line || (!res.lines[k].line && k == res.nlines - 1));
		ran++;
	}
	assert_true(ran >= 8); /* lessons 1-8 at least */
}

/* More lines than rows: the costliest are kept, in line order, and the
 * rest summed into line 0, so the rows still add up to the totals. */
static void test_lines_beyond_the_bound(void **st)
{
	(void)st;
	const lesson *l = course_find(&crs, "3");
	assert_non_null(l);
	run_request rq;
	char err[512];
	assert_int_equal(launch_request_for_lesson(l, NULL, 64, 64, 64, &rq, err, sizeof err), 0);
	static run_line_counts all[RUN_MAX_LINES], few[8];
	static emu_result ra, rf;
	emu_options oa = {.lines = all, .max_lines = RUN_MAX_LINES}, of = {.lines = few, .max_lines = 8};
	assert_int_equal(emu_run(&rq, &oa, &ra, err, sizeof err), EMU_OK);
	assert_int_equal(emu_run(&rq, &of, &rf, err, sizeof err), EMU_OK);
	assert_true(ra.nlines == ra.lines_total && ra.lines_total > 8);
	assert_int_equal(rf.nlines, 8);
	assert_int_equal(rf.lines_total, ra.lines_total);
	assert_int_equal(few[7].line, 0);
	run_line_counts sa = line_sum(all, ra.nlines, 0), sf = line_sum(few, 8, 0);
	assert_memory_equal(&sa.inst, &sf.inst, sizeof sa - offsetof(run_line_counts, inst));
	assert_true(sa.bytes == ra.total.bytes && sa.bytes > 0);
	/* every kept line costs at least as much as any line left out */
	unsigned long long kept_min = ~0ULL, dropped_max = 0;
	for (int i = 0; i < 7; i++)
		kept_min = run_line_cost(&few[i]) < kept_min ? run_line_cost(&few[i]) : kept_min;
	for (int i = 0; i < ra.nlines; i++) {
		int kept = 0;
		for (int j = 0; j < 7; j++)
			kept |= few[j].line == all[i].line;
		if (!kept && run_line_cost(&all[i]) > dropped_max)
			dropped_max = run_line_cost(&all[i]);
	}
	assert_true(kept_min >= dropped_max);
}

/* Lesson 1's loads of A: one sector a lane (32 per request), 4 bytes a
 * lane; its store of C: 4 bytes for every element. */
static void test_naive_lines(void **st)
{
	(void)st;
	run_request rq;
	naive_request(&rq);
	static run_result res;
	exec_run(&rq, &res);
	assert_int_equal(res.status, RUN_OK);
	int la = line_of(rq.ptx_path, "ld.global.f32 %a"), lc = line_of(rq.ptx_path, "st.global.f32 [%pC]");
	const run_line_counts *a = NULL, *c = NULL;
	for (int i = 0; i < res.nlines; i++) {
		a = res.lines[i].line == la ? &res.lines[i] : a;
		c = res.lines[i].line == lc ? &res.lines[i] : c;
	}
	assert_non_null(a);
	assert_non_null(c);
	assert_true(a->g_sectors == 32 * a->g_requests && a->g_requests == 128ULL * 128 * 128 / 32);
	assert_true(a->bytes == 4ULL * 128 * 128 * 128);
	assert_true(c->bytes == 4ULL * 128 * 128 && c->inst == 128ULL * 128 / 32);
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
		cmocka_unit_test(test_line_sums_equal_totals),
		cmocka_unit_test(test_lines_beyond_the_bound),
		cmocka_unit_test(test_naive_lines),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
