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
	state_data w = {.lesson = "smem", .page = 3};
	assert_int_equal(state_save(&w, err, sizeof err), 0);
	assert_int_equal(state_load(&s), 0);
	assert_string_equal(s.lesson, "smem");
	assert_int_equal(s.page, 3);
	state_data w2 = {.lesson = "naive", .page = 0};
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

/* Pages read and exercises solved, per lesson, survive a save and a load. */
static void test_progress(void **st)
{
	(void)st;
	char err[256] = "";
	state_data w = {.lesson = "smem", .page = 2};
	state_progress *p = state_progress_get(&w, "smem");
	assert_non_null(p);
	state_mark(&p->read, 0);
	state_mark(&p->read, 3);
	state_mark(&p->solved, 1);
	state_mark(&p->read, STATE_MAX_BITS); /* past the set: not kept */
	p = state_progress_get(&w, "mma");
	state_mark(&p->read, 63);
	assert_ptr_equal(state_progress_get(&w, "smem"), &w.prog[0]);
	assert_int_equal(state_save(&w, err, sizeof err), 0);

	state_data s;
	assert_int_equal(state_load(&s), 0);
	assert_int_equal(s.nprog, 2);
	const state_progress *q = state_progress_find(&s, "smem");
	assert_non_null(q);
	assert_int_equal(state_count(q->read, 8), 2);
	assert_true(state_marked(q->read, 3) && !state_marked(q->read, 2));
	assert_int_equal(state_count(q->solved, 4), 1);
	assert_true(state_marked(q->solved, 1));
	q = state_progress_find(&s, "mma");
	assert_non_null(q);
	assert_true(state_marked(q->read, 63));
	assert_int_equal(state_count(q->read, 8), 0); /* only the first n count */
	assert_null(state_progress_find(&s, "naive"));

	/* A damaged progress line is skipped, the rest kept. */
	char path[512];
	assert_int_equal(state_path(path, sizeof path), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("lesson smem\nread smem zz\nread\nsolved naive 5\n", f);
	fclose(f);
	assert_int_equal(state_load(&s), 0);
	assert_null(state_progress_find(&s, "smem"));
	assert_non_null(state_progress_find(&s, "naive"));
	assert_int_equal(state_progress_find(&s, "naive")->solved, 5);

	/* At most STATE_MAX_LESSONS lessons are remembered. */
	state_data full = {.lesson = "x"};
	for (int i = 0; i < STATE_MAX_LESSONS; i++) {
		char id[16];
		snprintf(id, sizeof id, "l%d", i);
		assert_non_null(state_progress_get(&full, id));
	}
	assert_null(state_progress_get(&full, "one-more"));
}

/* A state file edited on Windows (CRLF) with blank lines reads as the plain one. */
static void test_crlf_and_blank_lines(void **st)
{
	(void)st;
	state_data s;
	assert_int_equal(state_parse("\r\nlesson smem\r\n\r\npage 4\r\nread smem 9\r\n\r\nsolved smem 2\r\n", &s), 0);
	assert_string_equal(s.lesson, "smem");
	assert_int_equal(s.page, 4);
	const state_progress *q = state_progress_find(&s, "smem");
	assert_non_null(q);
	assert_true(q->read == 9 && q->solved == 2);
	/* The last line needs no end, and a line of spaces is no lesson. */
	assert_int_equal(state_parse("page 1\nlesson mma", &s), 0);
	assert_string_equal(s.lesson, "mma");
	assert_int_equal(state_parse("page 1\r\nlesson   \r\n", &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged_file),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_crlf_and_blank_lines),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
