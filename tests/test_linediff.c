/* test_linediff: lines matched by content — an inserted, a removed and a changed line, blanks at the ends ignored, a moved line matched once, empty texts — the matching `emulate --lines --baseline` and the PTX pane's B use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/linediff.h"

/* The map a_to_b as "1>1 2>0 ...", so one string shows the whole match. */
static void shown(const linediff *d, char *out, size_t len)
{
	size_t used = 0;
	out[0] = 0;
	for (int i = 1; i <= d->na; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%d>%d", i > 1 ? " " : "", i, d->a_to_b[i]);
}

static void expect(const char *a, const char *b, const char *want)
{
	linediff d;
	char got[256];
	linediff_match(&d, a, b);
	shown(&d, got, sizeof got);
	assert_string_equal(got, want);
	/* the other way agrees */
	for (int i = 1; i <= d.na; i++)
		if (d.a_to_b[i])
			assert_int_equal(d.b_to_a[d.a_to_b[i]], i);
	linediff_free(&d);
}

static void test_edits(void **st)
{
	(void)st;
	expect("a\nb\nc\n", "a\nb\nc\n", "1>1 2>2 3>3");
	expect("a\nX\nb\nc\n", "a\nb\nc\n", "1>1 2>0 3>2 4>3");       /* inserted: the lines after keep their partners */
	expect("a\nc\n", "a\nb\nc\n", "1>1 2>3");                     /* removed */
	expect("a\nB\nc\nd\n", "a\nb\nc\nd\n", "1>1 2>0 3>3 4>4");     /* changed */
	expect("\ta\n  b  \nc\r\n", "a\nb\nc\n", "1>1 2>2 3>3");       /* blanks at both ends are not content */
	expect("b\na\n", "a\nb\n", "1>0 2>1");                        /* moved: matched once, in order */
	expect("x\ny\nz\n", "p\nq\n", "1>0 2>0 3>0");
	expect("", "a\n", "");
	expect("a\n", "", "1>0");
	/* the middle by LCS, between a common start and end */
	expect("s\n1\n2\n3\n4\ne\n", "s\n2\n9\n4\n1\ne\n", "1>1 2>0 3>2 4>0 5>4 6>6");
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_edits)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
