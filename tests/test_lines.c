/* test_lines: the one line reader — line numbers from 1, CRLF read as LF, blank lines reported, no phantom last line — and the TSV splitter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/lines.h"

/* Every line of text as "N:line|", so one string shows numbers and contents. */
static void read_all(const char *text, char *out, size_t len)
{
	lines it;
	size_t used = 0;
	out[0] = '\0';
	lines_init(&it, text);
	for (char *s; (s = lines_next(&it));)
		used += (size_t)snprintf(out + used, len - used, "%d:%s|", it.line, s);
	lines_free(&it);
}

static void test_numbers_and_ends(void **state)
{
	(void)state;
	char got[256];
	read_all("a\nb\n", got, sizeof got);
	assert_string_equal(got, "1:a|2:b|"); /* no empty line 3 after the final '\n' */
	read_all("a\nb", got, sizeof got);
	assert_string_equal(got, "1:a|2:b|");
	read_all("a\r\nb\r\n", got, sizeof got);
	assert_string_equal(got, "1:a|2:b|");
	read_all("\n\r\n  \nx\n\n", got, sizeof got);
	assert_string_equal(got, "1:|2:|3:  |4:x|5:|");
	/* Only the '\r' of a CRLF goes: one inside a line stays. */
	read_all("a\rb\r\r\n", got, sizeof got);
	assert_string_equal(got, "1:a\rb\r|");
	read_all("", got, sizeof got);
	assert_string_equal(got, "");
	read_all(NULL, got, sizeof got);
	assert_string_equal(got, "");
	read_all("\n", got, sizeof got);
	assert_string_equal(got, "1:|");
}

/* The reader works on its own copy: the caller's text is untouched and a line may be cut. */
static void test_lines_are_a_copy(void **state)
{
	(void)state;
	const char text[] = "k\tv\r\nz\n";
	lines it;
	lines_init(&it, text);
	char *s = lines_next(&it);
	assert_string_equal(s, "k\tv");
	s[0] = 'X';
	assert_string_equal(lines_next(&it), "z");
	assert_null(lines_next(&it));
	assert_null(lines_next(&it));
	assert_int_equal(it.line, 2);
	lines_free(&it);
	assert_string_equal(text, "k\tv\r\nz\n");
}

static void test_split_tsv(void **state)
{
	(void)state;
	char *f[4];
	char a[] = "x\t\ty";
	assert_int_equal(lines_split_tsv(a, f, 4), 3);
	assert_string_equal(f[0], "x");
	assert_string_equal(f[1], "");
	assert_string_equal(f[2], "y");
	char b[] = "";
	assert_int_equal(lines_split_tsv(b, f, 4), 1);
	assert_string_equal(f[0], "");
	/* More fields than room: all counted, the last stored one keeps the rest. */
	char c[] = "1\t2\t3\t4\t5\t6";
	assert_int_equal(lines_split_tsv(c, f, 3), 6);
	assert_string_equal(f[0], "1");
	assert_string_equal(f[1], "2");
	assert_string_equal(f[2], "3\t4\t5\t6");
	char d[] = "a\tb\t";
	assert_int_equal(lines_split_tsv(d, f, 4), 3);
	assert_string_equal(f[2], "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_and_ends),
		cmocka_unit_test(test_lines_are_a_copy),
		cmocka_unit_test(test_split_tsv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
