/* test_acc_plot: the accuracy plot names series that lie on the same points (lecture review F12): none is hidden without a word. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "run/accuracy.h"

static char *plot(const acc_series *s, int ns)
{
	const long long ks[] = {256, 1024, 4096, 16384};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	acc_plot(f, ks, 4, s, ns, 80);
	fclose(f);
	return buf;
}

/* tf32 and f16→f32 at the same error at every K: one legend item with both
 * names, drawn with the first one's glyph (not '#', which hid both). */
static void test_same_points_named(void **state)
{
	(void)state;
	acc_series s[3] = {{.name = "f32", .err = {1e-7, 2e-7, 4e-7, 8e-7}},
			   {.name = "tf32", .err = {2.94e-4, 2.94e-4, 2.94e-4, 2.94e-4}},
			   {.name = "f16→f32", .err = {2.94e-4, 2.94e-4, 2.94e-4, 2.94e-4}}};
	char *buf = plot(s, 3);
	assert_non_null(strstr(buf, "o tf32 = f16→f32"));
	assert_null(strstr(buf, "x f16→f32"));
	char *axis = strstr(buf, "+---");
	assert_non_null(axis);
	int os = 0, shared = 0;
	for (char *p = strchr(buf, '\n'); p < axis; p++) /* the rows, past the title */
		os += *p == 'o', shared += *p == '#';
	assert_int_equal(os, 4); /* the four points drawn as tf32's */
	assert_int_equal(shared, 0);
	assert_null(strstr(buf, "(under #)"));
	free(buf);
}

/* A series all of whose points lie under other series' points ('#') says so in the legend. */
static void test_hidden_named(void **state)
{
	(void)state;
	acc_series s[3] = {{.name = "a", .err = {1e-3, 1e-5, NAN, NAN}},
			   {.name = "b", .err = {NAN, NAN, 1e-3, 1e-5}},
			   {.name = "c", .err = {1e-3, NAN, 1e-3, NAN}}};
	char *buf = plot(s, 3);
	assert_non_null(strstr(buf, "+ c (under #)"));
	assert_non_null(strstr(buf, "* a   o b"));
	free(buf);
}

/* A format that did not run (no point at any K) is named apart, not given a
 * glyph the plot never draws; "# several" only where a '#' is drawn. */
static void test_no_point_named_apart(void **state)
{
	(void)state;
	acc_series s[3] = {{.name = "f32", .err = {1e-7, 2e-7, 4e-7, 8e-7}},
			   {.name = "f16→f32", .err = {NAN, NAN, NAN, NAN}},
			   {.name = "tf32", .err = {2.94e-4, 2.94e-4, 2.94e-4, 2.94e-4}}};
	char *buf = plot(s, 3);
	assert_non_null(strstr(buf, "no point: f16→f32"));
	assert_null(strstr(buf, "o f16→f32"));
	assert_non_null(strstr(buf, "+ tf32"));
	assert_null(strstr(buf, "several"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_points_named),
		cmocka_unit_test(test_hidden_named),
		cmocka_unit_test(test_no_point_named_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
