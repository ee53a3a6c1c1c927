/* test_state: the last lesson and page survive a save and a load, in an isolated XDG_STATE_HOME. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course/state.h"

static char dir[256];

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/ptxtutor-state-test-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	setenv("XDG_STATE_HOME", dir, 1);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_path(void **st)
{
	(void)st;
	char p[512], want[512];
	assert_int_equal(state_path(p, sizeof p), 0);
	snprintf(want, sizeof want, "%s/ptxtutor/state", dir);
	assert_string_equal(p, want);
	/* A relative XDG path is ignored, as the spec says; HOME takes over. */
	setenv("XDG_STATE_HOME", "relative", 1);
	setenv("HOME", "/home/someone", 1);
	assert_int_equal(state_path(p, sizeof p), 0);
	assert_string_equal(p, "/home/someone/.local/state/ptxtutor/state");
	setenv("XDG_STATE_HOME", dir, 1);
}

static void test_round_trip(void **st)
{
	(void)st;
	state_data s;
	assert_int_equal(state_load(&s), -1); /* nothing saved yet */
	assert_string_equal(s.lesson, "");
	char err[256] = "";
	state_data w = {"smem", 3};
	assert_int_equal(state_save(&w, err, sizeof err), 0);
	assert_int_equal(state_load(&s), 0);
	assert_string_equal(s.lesson, "smem");
	assert_int_equal(s.page, 3);
	state_data w2 = {"naive", 0};
	assert_int_equal(state_save(&w2, err, sizeof err), 0);
	assert_int_equal(state_load(&s), 0);
	assert_string_equal(s.lesson, "naive");
	assert_int_equal(s.page, 0);
}

static void test_damaged_file(void **st)
{
	(void)st;
	char p[512];
	state_data s;
	assert_int_equal(state_path(p, sizeof p), 0);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("garbage\npage -7\nlesson\n", f);
	fclose(f);
	assert_int_equal(state_load(&s), -1);
	assert_int_equal(s.page, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
