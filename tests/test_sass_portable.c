/* test_sass_portable: a recording carries no trace of the machine that made it — the writer makes the line info's paths to the PTX project-relative, and no committed recording holds an absolute path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "course/sass_record.h"
#include "course/sass_tools.h"

/* The writer: this machine's folder before the PTX's project path goes;
 * another file's path and the rest of each line stay as they are. */
static void test_format_relative(void **state)
{
	(void)state;
	sass_record r = {.lesson = 1, .hash = 1};
	util_strlcpy(r.ptx, "ptx/01_naive.ptx", sizeof r.ptx);
	sass_kernel k;
	sass_kernel_init(&k, "sgemm_naive");
	util_strlcpy(k.arch, "sm_90", sizeof k.arch);
	const char *body = "\t//## File \"/home/someone/src/ptxtutor/ptx/01_naive.ptx\", line 31\n"
			   "\t//## File \"/usr/include/other.ptx\", line 2\n"
			   "\t//## File \"/x/myptx/01_naive.ptx\", line 3\n"
			   "\t//## File \"ptx/01_naive.ptx\", line 4\n";
	char *t = sass_record_format(&r, &k, body);
	assert_non_null(strstr(t, "\t//## File \"ptx/01_naive.ptx\", line 31\n"));
	assert_non_null(strstr(t, "\t//## File \"/usr/include/other.ptx\", line 2\n"));
	assert_non_null(strstr(t, "\t//## File \"/x/myptx/01_naive.ptx\", line 3\n")); /* not the PTX: "myptx/" */
	assert_non_null(strstr(t, "\t//## File \"ptx/01_naive.ptx\", line 4\n"));
	assert_null(strstr(t, "/home/someone"));
	free(t);
	sass_kernel_free(&k);
}

/* Every committed recording: its line info names the PTX as the header does, never an absolute path. */
static void test_recordings_relative(void **state)
{
	(void)state;
	for (int n = 0; n <= 99; n++) {
		char rel[64], path[512];
		sass_record_rel(n, rel, sizeof rel);
		util_path(path, sizeof path, rel);
		char *t = util_read_file(path, NULL, NULL, 0);
		if (!t)
			continue;
		for (const char *p = strstr(t, "//## File \""); p; p = strstr(p + 1, "//## File \""))
			if (p[11] == '/') {
				fprintf(stderr, "%s: %.80s\n", rel, p);
				fail();
			}
		free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_relative),
		cmocka_unit_test(test_recordings_relative),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
