/* lines_helper: for tests that point at a PTX line by its text (include after cmocka.h). */
#ifndef PTXTUTOR_TESTS_LINES_HELPER_H
#define PTXTUTOR_TESTS_LINES_HELPER_H

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The 1-based line of the first line of path that has needle. */
static inline int line_of(const char *path, const char *needle)
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

#endif
