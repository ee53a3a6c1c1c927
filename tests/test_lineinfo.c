/* test_lineinfo: `run --lineinfo` (for Nsight Compute's source view) — the option reaches the run request, only `run` takes it, and the text the GPU runner hands the JIT is the `.loc` copy of the very file, its `.file` the absolute path, with line information asked of the driver; without it the file goes as it is. No GPU needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/cli.h"
#include "cli/launch_opts.h"
#include "course/lesson.h"
#include "course/sass.h"
#include "gpu/runner.h"
#include "launch_helper.h"

static course the_course;

/* `ptxtutor WORDS...` parsed by cmd's table and built into rq: 0, -1 when the
 * request is refused, or cli_launch_parse's exit status (2: bad options). */
static int launch(const cli_command *cmd, const char *line, run_request *rq)
{
	cli_launch o;
	int rc = launch_words(cmd, line, &o);
	if (rc != -1)
		return rc;
	memset(rq, 0x5a, sizeof *rq); /* whatever was there before: the builder must set the field */
	return cli_launch_request(&o, &the_course, rq);
}

static void test_request_carries_lineinfo(void **state)
{
	(void)state;
	run_request rq;
	assert_int_equal(launch(&cli_cmd_run, "run 1 --size 256 --lineinfo", &rq), 0);
	assert_int_equal(rq.lineinfo, 1);
	assert_int_equal(rq.backend, RUN_BACKEND_GPU);
	assert_int_equal(launch(&cli_cmd_run, "run 1 --size 256", &rq), 0);
	assert_int_equal(rq.lineinfo, 0);
	/* a kernel of one's own */
	char ptx[600], line[900];
	util_path(ptx, sizeof ptx, "tests/data/gemm_test.ptx");
	snprintf(line, sizeof line, "run --ptx %s --entry gemm_f32 --grid N/16,M/16 --block 16,16 --size 64 --lineinfo", ptx);
	assert_int_equal(launch(&cli_cmd_run, line, &rq), 0);
	assert_int_equal(rq.lineinfo, 1);
	/* run --emulate carries it too (the emulator ignores it); emulate has no such option */
	assert_int_equal(launch(&cli_cmd_run, "run 1 --size 128 --emulate --lineinfo", &rq), 0);
	assert_int_equal(rq.backend, RUN_BACKEND_EMU);
	assert_int_equal(rq.lineinfo, 1);
	assert_int_equal(launch(&cli_cmd_emulate, "emulate 1 --lineinfo", &rq), 2);
}

/* text without the lines sass_instrument adds (".loc 1 N 0" and the one ".file 1"). */
static char *without_directives(const char *text)
{
	char *out = xcalloc(strlen(text) + 1, 1), *o = out;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
		if (strncmp(p, "\t.loc 1 ", 8) && strncmp(p, ".file 1 \"", 9)) {
			memcpy(o, p, len);
			o += len;
		}
		p += len;
	}
	return out;
}

/* What the runner loads for lesson N with and without --lineinfo. */
static void check_lesson(int n)
{
	char cmd[64], err[256], abs[PATH_MAX];
	run_request rq;
	snprintf(cmd, sizeof cmd, "run %d --size 256 --lineinfo", n);
	assert_int_equal(launch(&cli_cmd_run, cmd, &rq), 0);
	char *orig = util_read_file(rq.ptx_path, NULL, err, sizeof err);
	assert_non_null(orig);
	assert_non_null(realpath(rq.ptx_path, abs));

	int li = -1;
	char *text = runner_module_text(&rq, &li, err, sizeof err);
	assert_non_null(text);
	assert_int_equal(li, 1);
	/* exactly the SASS view's instrumentation, named by the absolute path */
	char *want = sass_instrument(orig, abs, NULL);
	assert_string_equal(text, want);
	char file[PATH_MAX + 16];
	snprintf(file, sizeof file, "\n.file 1 \"%s\"\n", abs);
	assert_non_null(strstr(text, file));
	assert_true(abs[0] == '/');
	/* every .loc names the original line that follows it */
	char **lines = NULL;
	int nlines = 0;
	for (char *p = orig, *e; *p; p = e + 1) {
		e = strchr(p, '\n');
		lines = xreallocarray(lines, (size_t)nlines + 1, sizeof *lines);
		lines[nlines++] = p;
		if (!e)
			break;
	}
	int locs = 0;
	for (const char *p = strstr(text, "\t.loc 1 "); p; p = strstr(p + 1, "\t.loc 1 ")) {
		int ln = atoi(p + 8);
		assert_in_range(ln, 1, nlines);
		const char *next = strchr(p, '\n') + 1;
		size_t len = strcspn(lines[ln - 1], "\n");
		if (strncmp(next, lines[ln - 1], len))
			fail_msg("lesson %d: .loc 1 %d is not followed by line %d", n, ln, ln);
		locs++;
	}
	assert_true(locs > 10);
	/* nothing else changed */
	char *plain = without_directives(text);
	assert_string_equal(plain, orig);
	free(plain);
	free(text);
	free(want);
	free(lines);

	/* without --lineinfo: the file as it is, no line-information option */
	rq.lineinfo = 0;
	text = runner_module_text(&rq, &li, err, sizeof err);
	assert_non_null(text);
	assert_int_equal(li, 0);
	assert_string_equal(text, orig);
	free(text);
	free(orig);
}

static void test_runner_loads_the_loc_copy(void **state)
{
	(void)state;
	for (int i = 0; i < the_course.n; i++)
		if (the_course.l[i].ptx_path[0])
			check_lesson(the_course.l[i].number);
}

/* A relative --ptx path still gives the profiler an absolute .file. */
static void test_relative_path_made_absolute(void **state)
{
	(void)state;
	char root[PATH_MAX], cwd[PATH_MAX], err[256];
	util_path(root, sizeof root, ".");
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(root), 0);
	run_request rq;
	assert_int_equal(launch(&cli_cmd_run,
				"run --ptx tests/data/gemm_test.ptx --entry gemm_f32 --grid N/16,M/16 --block 16,16 "
				"--size 64 --lineinfo",
				&rq),
			 0);
	int li;
	char *text = runner_module_text(&rq, &li, err, sizeof err);
	assert_non_null(text);
	char abs[PATH_MAX], file[PATH_MAX + 16];
	assert_non_null(realpath("tests/data/gemm_test.ptx", abs));
	snprintf(file, sizeof file, ".file 1 \"%s\"\n", abs);
	assert_non_null(strstr(text, file));
	free(text);
	/* a file that is not there: one line, no text */
	util_strlcpy(rq.ptx_path, "tests/data/no-such.ptx", sizeof rq.ptx_path);
	assert_null(runner_module_text(&rq, &li, err, sizeof err));
	assert_true(err[0] != '\0');
	assert_int_equal(chdir(cwd), 0);
}

int main(void)
{
	char errs[4096];
	if (course_load(&the_course, errs, sizeof errs) <= 0) {
		fprintf(stderr, "course_load: %s\n", errs);
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_carries_lineinfo),
		cmocka_unit_test(test_runner_loads_the_loc_copy),
		cmocka_unit_test(test_relative_path_made_absolute),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	course_free(&the_course);
	return rc;
}
