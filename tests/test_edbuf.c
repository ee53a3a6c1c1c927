/* test_edbuf: the inline editor's buffer — load and save round trips (empty, no final newline, CRLF kept), insert, split at the end, join at a line's start, delete, cursor moves over tabs and UTF-8. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ui/edbuf.h"

/* The buffer's saved text, checked against its byte count. */
static void assert_text(const edbuf *b, const char *want)
{
	size_t n;
	char *t = edbuf_text(b, &n);
	assert_string_equal(t, want);
	assert_int_equal(n, strlen(want));
	assert_int_equal(b->bytes, n);
	free(t);
}

static void round_trip(const char *text, int lines)
{
	edbuf b;
	assert_int_equal(edbuf_load(&b, text, strlen(text)), 0);
	assert_int_equal(b.n, lines);
	assert_false(b.modified);
	assert_text(&b, text);
	edbuf_free(&b);
}

static void test_round_trips(void **state)
{
	(void)state;
	round_trip("", 1);               /* an empty file is one empty line */
	round_trip("\n", 1);
	round_trip("a\nb\n", 2);
	round_trip("a\nb", 2);           /* no final newline: none is added */
	round_trip("a\r\nb\r\n", 2);     /* CRLF throughout: kept */
	round_trip("a\r\nb\n", 2);       /* mixed: the \r stays a byte of its line */
	round_trip("\n\n\n", 3);
}

static void test_crlf_kept_on_edit(void **state)
{
	(void)state;
	edbuf b;
	edbuf_load(&b, "ab\r\ncd\r\n", 8);
	assert_true(b.crlf);
	assert_int_equal(b.l[0].len, 2); /* the \r is not in the line */
	edbuf_move(&b, EDBUF_RIGHT, 1);
	assert_int_equal(edbuf_split(&b), 0);
	assert_text(&b, "a\r\nb\r\ncd\r\n");
	assert_int_equal(edbuf_backspace(&b), 0);
	assert_text(&b, "ab\r\ncd\r\n");
	edbuf_free(&b);
}

static void test_insert_and_split_at_end(void **state)
{
	(void)state;
	edbuf b;
	edbuf_load(&b, "", 0);
	assert_int_equal(edbuf_insert(&b, "add", 3), 0);
	assert_true(b.modified);
	assert_text(&b, "add");
	assert_int_equal(edbuf_split(&b), 0); /* at the end: a new empty line */
	assert_int_equal(b.n, 2);
	assert_int_equal(b.cy, 1);
	assert_int_equal(b.cx, 0);
	assert_text(&b, "add\n");
	edbuf_insert(&b, "x", 1);
	assert_text(&b, "add\nx");
	edbuf_move(&b, EDBUF_UP, 1);
	edbuf_move(&b, EDBUF_HOME, 1);
	edbuf_insert(&b, "\t", 1);
	assert_text(&b, "\tadd\nx");
	edbuf_free(&b);
}

static void test_join_and_delete(void **state)
{
	(void)state;
	edbuf b;
	edbuf_load(&b, "one\ntwo\n", 8);
	assert_int_equal(edbuf_backspace(&b), -1); /* nothing before the start */
	edbuf_move(&b, EDBUF_DOWN, 1);
	assert_int_equal(b.cy, 1);
	assert_int_equal(b.cx, 0);
	assert_int_equal(edbuf_backspace(&b), 0); /* at a line's start: joins it to the line above */
	assert_int_equal(b.n, 1);
	assert_int_equal(b.cy, 0);
	assert_int_equal(b.cx, 3);
	assert_text(&b, "onetwo\n");
	assert_int_equal(edbuf_delete(&b), 0);
	assert_text(&b, "onewo\n");
	edbuf_move(&b, EDBUF_END, 1);
	assert_int_equal(edbuf_delete(&b), -1); /* the last line's end: nothing after */
	edbuf_free(&b);

	edbuf_load(&b, "ab\ncd", 5);
	edbuf_move(&b, EDBUF_END, 1);
	assert_int_equal(edbuf_delete(&b), 0); /* at a line's end: joins the next */
	assert_text(&b, "abcd");
	edbuf_free(&b);
}

static void test_utf8_and_tabs(void **state)
{
	(void)state;
	edbuf b;
	const char *t = "\xC3\xA9x\n\tz\n"; /* é is two bytes, one column */
	edbuf_load(&b, t, strlen(t));
	edbuf_move(&b, EDBUF_RIGHT, 1);
	assert_int_equal(b.cx, 2);
	assert_int_equal(edbuf_col(&b, 0, b.cx), 1);
	assert_int_equal(edbuf_backspace(&b), 0);
	assert_text(&b, "x\n\tz\n");
	assert_int_equal(edbuf_col(&b, 1, 1), 4); /* a tab to column 4, as the PTX pane */
	edbuf_move(&b, EDBUF_RIGHT, 1);
	edbuf_move(&b, EDBUF_RIGHT, 1);   /* past the end of line 0: to line 1 */
	assert_int_equal(b.cy, 1);
	edbuf_move(&b, EDBUF_DOWN, 5);    /* stops at the last line */
	assert_int_equal(b.cy, 1);
	edbuf_free(&b);
}

static void test_scroll(void **state)
{
	(void)state;
	edbuf b;
	edbuf_load(&b, "1\n2\n3\n4\n5\n6\n", 12);
	edbuf_move(&b, EDBUF_DOWN, 4);
	edbuf_scroll(&b, 3, 10);
	assert_int_equal(b.top, 2);
	edbuf_move(&b, EDBUF_UP, 4);
	edbuf_scroll(&b, 3, 10);
	assert_int_equal(b.top, 0);
	edbuf_free(&b);
}

static void test_bounded(void **state)
{
	(void)state;
	edbuf b;
	assert_int_equal(edbuf_load(&b, "", EDBUF_MAX + 1), -1);
	edbuf_load(&b, "a", 1);
	b.bytes = EDBUF_MAX; /* as if the file were at the limit */
	assert_int_equal(edbuf_insert(&b, "x", 1), -1);
	assert_int_equal(edbuf_split(&b), -1);
	assert_int_equal(b.l[0].len, 1);
	edbuf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),   cmocka_unit_test(test_crlf_kept_on_edit),
		cmocka_unit_test(test_insert_and_split_at_end), cmocka_unit_test(test_join_and_delete),
		cmocka_unit_test(test_utf8_and_tabs), cmocka_unit_test(test_scroll),
		cmocka_unit_test(test_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
