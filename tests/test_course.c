/* test_course: a course is as long as its lessons folder — no fixed number of lessons, none
 * dropped without a file:line message — in a root of its own (util_root is set once per process). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "course/lesson.h"

enum { LESSONS = 40 }; /* the old fixed array held 16 */

static char root[64];

static void write_file(const char *rel, const char *text)
{
	char path[512];
	util_path(path, sizeof path, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	util_strlcpy(root, "/tmp/test_course_XXXXXX", sizeof root);
	if (!mkdtemp(root))
		return -1;
	setenv("PTXTUTOR_ROOT", root, 1);
	char dir[512];
	util_path(dir, sizeof dir, "lessons");
	return mkdir(dir, 0700);
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

static void test_many_lessons(void **state)
{
	(void)state;
	for (int i = 0; i < LESSONS; i++) {
		char rel[64], text[256];
		snprintf(rel, sizeof rel, "lessons/%02d-l%d.md", i, i);
		snprintf(text, sizeof text, "---\nid: l%d\ntitle: Lesson %d\n---\n# Page\nText.\n", i, i);
		write_file(rel, text);
	}
	write_file("lessons/99-broken.md", "---\nid: b\ntitle: B\ncolour: red\n---\n# P\n");
	course c;
	char errs[1024];
	assert_int_equal(course_load(&c, errs, sizeof errs), LESSONS);
	assert_int_equal(c.n, LESSONS);
	for (int i = 0; i < LESSONS; i++)
		assert_int_equal(c.l[i].number, i);
	assert_ptr_equal(course_find(&c, "l39"), &c.l[LESSONS - 1]);
	assert_string_equal(c.l[LESSONS - 1].title, "Lesson 39");
	/* The one that fails says where, and only it is missing. */
	assert_non_null(strstr(errs, "lessons/99-broken.md:4: unknown front-matter key 'colour'"));
	assert_null(course_find(&c, "b"));
	course_free(&c);
	assert_int_equal(c.n, 0);
	assert_null(c.l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_many_lessons)};
	return cmocka_run_group_tests(tests, setup, teardown);
}
