/* test_deadline: every time limit is the request's one deadline — each builder (a lesson, a PTX file, the device, a cubin, a JIT check, an emulation, the accuracy experiment, the CLI's options) decides it once from launch_deadline or the user's limit; the parent's kill and the emulator's clock read it; no source computes another. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/cli.h"
#include "cli/launch_opts.h"
#include "exec/backend.h"
#include "launch_helper.h"
#include "run/accuracy.h"
#include "run/launch.h"

static course the_course;

/* `ptxtutor WORDS...` built into rq by the CLI's one builder: 0, or not 0 when refused. */
static int launch(const cli_command *cmd, const char *line, run_request *rq)
{
	cli_launch o;
	int rc = launch_words(cmd, line, &o);
	if (rc != -1)
		return rc;
	if (o.emulate || cmd == &cli_cmd_emulate)
		cli_launch_emulation_size(&o, &the_course);
	if (cmd == &cli_cmd_emulate)
		o.emulate = 1;
	memset(rq, 0x5a, sizeof *rq); /* the builder must set every field it owns */
	return cli_launch_request(&o, &the_course, rq);
}

/* The deadline the policy gives rq: decided, positive, at most the bound. */
static void decided(const run_request *rq)
{
	assert_true(rq->deadline_s > 0 && rq->deadline_s <= LAUNCH_DEADLINE_MAX_S);
	assert_true(rq->deadline_s == launch_deadline(rq));
}

/* Each kind of request leaves its builder with the policy's deadline. */
static void test_each_request_kind(void **state)
{
	(void)state;
	run_request rq;
	char err[512], ptx[600];
	const lesson *l = course_find(&the_course, "1");
	assert_non_null(l);
	assert_int_equal(launch_request_for_lesson(l, NULL, 512, 512, 512, &rq, err, sizeof err), 0);
	assert_int_equal(rq.backend, RUN_BACKEND_GPU);
	decided(&rq);
	double gpu512 = rq.deadline_s;
	assert_int_equal(launch_request_for_lesson(l, NULL, 4096, 4096, 4096, &rq, err, sizeof err), 0);
	decided(&rq);
	assert_true(rq.deadline_s > gpu512); /* a bigger problem may take longer */
	launch_target(&rq, RUN_BACKEND_EMU, RUN_KIND_RUN, NULL);
	decided(&rq);
	double emu = rq.deadline_s;
	launch_target(&rq, RUN_BACKEND_GPU, RUN_KIND_JIT_ONLY, NULL);
	decided(&rq);
	double jit = rq.deadline_s;
	assert_true(jit != emu);
	util_path(ptx, sizeof ptx, "tests/data/gemm_test.ptx");
	launch_ptx p = {.ptx = ptx, .entry = "gemm_f32", .grid = "N/16,M/16", .block = "16,16", .M = 64, .N = 64, .K = 64};
	assert_int_equal(launch_request_for_ptx(&p, &rq, err, sizeof err), 0);
	decided(&rq);
	launch_request_device(&rq);
	assert_int_equal(rq.kind, RUN_KIND_DEVICE);
	decided(&rq);
	launch_request_cubin(&rq, ptx, "gemm_f32", "/tmp/x.cubin", 0);
	assert_int_equal(rq.backend, RUN_BACKEND_CUBIN);
	decided(&rq);
	assert_true(rq.deadline_s == jit); /* a JIT is a JIT, for the SASS view or a check */
	/* the accuracy experiment's requests */
	const acc_format *f = acc_format_find("f32");
	assert_non_null(f);
	assert_int_equal(acc_request(f, &the_course, 256, 256, 256, RUN_BACKEND_EMU, &rq, err, sizeof err), 0);
	assert_int_equal(rq.backend, RUN_BACKEND_EMU);
	decided(&rq);
	assert_true(rq.deadline_s == emu);
}

/* The user's inputs, the same from every front end: a timeout is the
 * deadline; force lifts the policy's to its most. */
static void test_user_limits(void **state)
{
	(void)state;
	run_request rq;
	char err[256];
	assert_int_equal(launch_request_for_lesson(course_find(&the_course, "1"), NULL, 128, 128, 128, &rq, err, sizeof err), 0);
	launch_target(&rq, RUN_BACKEND_EMU, RUN_KIND_RUN, &(launch_limits){.timeout_s = 7});
	assert_true(rq.deadline_s == 7);
	launch_target(&rq, RUN_BACKEND_EMU, RUN_KIND_RUN, &(launch_limits){.force = 1});
	assert_true(rq.deadline_s == LAUNCH_DEADLINE_MAX_S);
	launch_target(&rq, RUN_BACKEND_EMU, RUN_KIND_RUN, &(launch_limits){.timeout_s = 3, .force = 1});
	assert_true(rq.deadline_s == 3);
	launch_target(&rq, RUN_BACKEND_GPU, RUN_KIND_RUN, &(launch_limits){0});
	decided(&rq);
}

/* The CLI: run, run --emulate and emulate build the same request, --timeout
 * and --force read (run --force included: issue 38). */
static void test_cli_options(void **state)
{
	(void)state;
	run_request a, b;
	assert_int_equal(launch(&cli_cmd_run, "run 3 --emulate", &a), 0);
	assert_int_equal(launch(&cli_cmd_emulate, "emulate 3", &b), 0);
	assert_int_equal(a.backend, RUN_BACKEND_EMU);
	decided(&a);
	assert_memory_equal(&a, &b, sizeof a);
	assert_int_equal(launch(&cli_cmd_run, "run 3 --size 256 --timeout 7", &a), 0);
	assert_true(a.deadline_s == 7 && a.backend == RUN_BACKEND_GPU);
	assert_int_equal(launch(&cli_cmd_emulate, "emulate 3 --timeout 2.5", &a), 0);
	assert_true(a.deadline_s == 2.5);
	assert_int_equal(launch(&cli_cmd_run, "run 3 --emulate --force", &a), 0);
	assert_true(a.deadline_s == LAUNCH_DEADLINE_MAX_S);
	assert_int_equal(launch(&cli_cmd_emulate, "emulate 3 --force", &b), 0);
	assert_true(b.deadline_s == LAUNCH_DEADLINE_MAX_S);
	assert_int_equal(launch(&cli_cmd_run, "run 3 --size 256", &a), 0);
	decided(&a);
}

/* The parent's kill: the deadline itself for a backend that cannot stop
 * cleanly, a grace after it for the emulator, which stops itself; none
 * without a deadline. */
static void test_kill_after(void **state)
{
	(void)state;
	run_request rq = {0};
	assert_true(exec_kill_after(&rq) == 0);
	rq.deadline_s = 10;
	rq.backend = RUN_BACKEND_GPU;
	assert_true(exec_kill_after(&rq) == 10);
	rq.backend = RUN_BACKEND_EMU;
	assert_true(exec_kill_after(&rq) == 10 + LAUNCH_KILL_GRACE_S);
	rq.backend = RUN_BACKEND_CUBIN;
	assert_true(exec_kill_after(&rq) == 10);
}

/* The probe's admission: on under the deadline, refused over it, saying why. */
static void test_admit(void **state)
{
	(void)state;
	run_request rq = {.deadline_s = 120};
	char why[320] = "";
	assert_int_equal(launch_admit(&rq, 100, 1000, 2, 64, why, sizeof why), 0);
	assert_int_equal(launch_admit(&rq, 500, 1000, 2, 64, why, sizeof why), -1);
	assert_non_null(strstr(why, "about 500 s"));
	assert_non_null(strstr(why, "the limit is 120 s"));
}

/* A backend is a line of RUN_BACKENDS and a row of exec/backend.c: each has both. */
static void test_every_backend_has_a_row(void **state)
{
	(void)state;
	for (int b = 0; b < RUN_BACKEND_COUNT; b++) {
		assert_non_null(exec_backend_of((run_backend)b));
		assert_string_not_equal(run_backend_name((run_backend)b), "?");
	}
	assert_null(exec_backend_of(RUN_BACKEND_COUNT));
	run_request rq = {.backend = RUN_BACKEND_COUNT};
	static run_result res;
	exec_run(&rq, &res);
	assert_int_equal(res.status, RUN_BAD_REQUEST);
}

/* A lost run (killed, cancelled, a dead child) says the backend it was sent to. */
static void test_lost_runs_name_their_backend(void **state)
{
	(void)state;
	run_request rq = {.backend = RUN_BACKEND_EMU};
	static run_result res;
	exec_run_lost(&rq, RUN_TIMEOUT, "killed after 125 s (deadline)", &res);
	assert_int_equal(res.backend, RUN_BACKEND_EMU);
	assert_int_equal(res.status, RUN_TIMEOUT);
	assert_string_equal(run_backend_name(res.backend), "CPU emulator");
}

/* Appends to list every line of the sources under dir that holds what. */
static void grep_tree(const char *dir, const char *what, char *list, size_t len)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		char path[1024];
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (n > 2 && !strcmp(e->d_name + n - 2, ".c")) {
			char err[256];
			size_t sz;
			char *text = util_read_file(path, &sz, err, sizeof err);
			assert_non_null(text);
			int line = 1;
			for (char *p = text; *p; p++) {
				char *eol = strchr(p, '\n');
				if (eol)
					*eol = 0;
				if (strstr(p, what))
					snprintf(list + strlen(list), len - strlen(list), "%s:%d: %s\n", path, line, p);
				line++;
				if (!eol)
					break;
				p = eol;
			}
			free(text);
		} else if (!strchr(e->d_name, '.')) {
			grep_tree(path, what, list, len);
		}
	}
	closedir(d);
}

/* The time limits, listed from the sources: the policy is called by the
 * request's builder only, and every limit handed to the emulator is the
 * request's own deadline. A new limit elsewhere fails here, by name. */
static void test_time_limits_listed(void **state)
{
	(void)state;
	char src[600];
	static char list[16384];
	util_path(src, sizeof src, "src");
	list[0] = 0;
	grep_tree(src, "launch_deadline(", list, sizeof list);
	for (char *l = list; *l; l = strchr(l, '\n') + 1)
		if (!strstr(l, "src/run/launch.c:"))
			fail_msg("the deadline policy called outside the request's builder:\n%s", l);
	list[0] = 0;
	grep_tree(src, ".deadline_s =", list, sizeof list);
	int n = 0;
	for (char *l = list; *l; l = strchr(l, '\n') + 1, n++) {
		char *nl = strchr(l, '\n');
		*nl = 0;
		if (!strstr(l, ".deadline_s = rq->deadline_s") && !strstr(l, ".deadline_s = rq.deadline_s") &&
		    !strstr(l, "src/cli/cmd_tui.c:") /* the tutor's input, PTXTUTOR_DEADLINE_S, to launch_limits */ &&
		    !(strstr(l, "src/exec/puzzle_check.c:") && strstr(l, "= end - util_now() > 0.001")) /* the rest of the
		      file's one deadline, the first size's request's, for each next size */)
			fail_msg("a time limit that is not the request's deadline: %s", l);
		*nl = '\n';
	}
	/* the emulator row, the warp view, the estimate and the puzzle check */
	assert_true(n >= 4);
}

int main(void)
{
	char errs[4096];
	if (course_load(&the_course, errs, sizeof errs) <= 0) {
		fprintf(stderr, "course_load: %s\n", errs);
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_request_kind),
		cmocka_unit_test(test_user_limits),
		cmocka_unit_test(test_cli_options),
		cmocka_unit_test(test_kill_after),
		cmocka_unit_test(test_admit),
		cmocka_unit_test(test_lost_runs_name_their_backend),
		cmocka_unit_test(test_every_backend_has_a_row),
		cmocka_unit_test(test_time_limits_listed),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	course_free(&the_course);
	return rc;
}
