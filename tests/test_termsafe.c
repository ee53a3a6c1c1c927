/* test_termsafe: base/termsafe escapes every byte a terminal acts on (C0 but \n and \t, DEL, C1, invalid UTF-8)
 * as \xHH and passes valid UTF-8 untouched; its stream does the same across write boundaries and at the end;
 * the JSON writer escapes the same bytes its own way, so JSON passes the filter unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"
#include "base/termsafe.h"
#include "base/util.h"

static char *escaped(const char *s, size_t n)
{
	static strbuf out;
	out.len = 0;
	sb_appendn(&out, "", 0);
	assert_int_equal(termsafe_escape(&out, s, n, 1), n);
	return out.data;
}

#define ESC(lit) escaped(lit, sizeof lit - 1)

static void test_controls_escaped(void **state)
{
	(void)state;
	assert_string_equal(ESC("\033]0;PWNED\a"), "\\x1b]0;PWNED\\x07");
	assert_string_equal(ESC("FAIL\r\033[2KSOLVED"), "FAIL\\x0d\\x1b[2KSOLVED");
	assert_string_equal(ESC("a\x7f" "b"), "a\\x7fb");
	assert_string_equal(ESC("nul\0end"), "nul\\x00end");
	assert_string_equal(ESC("\b\f\v\x1f"), "\\x08\\x0c\\x0b\\x1f");
	/* C1 as UTF-8 (U+009B, the one-byte CSI) and raw */
	assert_string_equal(ESC("\xc2\x9b" "31m"), "\\xc2\\x9b31m");
	assert_string_equal(ESC("\xc2\x80\xc2\x9f"), "\\xc2\\x80\\xc2\\x9f");
	assert_string_equal(ESC("\x9b" "31m"), "\\x9b31m");
}

static void test_invalid_utf8_escaped(void **state)
{
	(void)state;
	assert_string_equal(ESC("\xff\xfe"), "\\xff\\xfe");
	assert_string_equal(ESC("\xc0\xaf"), "\\xc0\\xaf");              /* overlong '/' */
	assert_string_equal(ESC("\xed\xa0\x80"), "\\xed\\xa0\\x80");       /* a surrogate */
	assert_string_equal(ESC("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
	assert_string_equal(ESC("x\xe2\x86"), "x\\xe2\\x86");             /* cut short at the very end */
	assert_string_equal(ESC("\xe2\x86z"), "\\xe2\\x86z");
}

static void test_valid_text_untouched(void **state)
{
	(void)state;
	const char *ok[] = {
		"plain ASCII, tabs\tand\nnewlines\n",
		"f16\xe2\x86\x92" "f32 10\xc2\xb3 \xe2\x94\x8c\xe2\x94\x80\xe2\x94\x90 \xe2\x9c\x93 \xc2\xa0nbsp \xf0\x9f\x98\x80",
		"\xc2\xa0 is the first character after C1",
		"\\x1b written out already stays as it is",
	};
	for (size_t i = 0; i < ARRAY_LEN(ok); i++)
		assert_string_equal(escaped(ok[i], strlen(ok[i])), ok[i]);
}

/* With more to come, a sequence cut short at the end is left for the next call. */
static void test_escape_leaves_a_cut_sequence(void **state)
{
	(void)state;
	strbuf out = {0};
	assert_int_equal(termsafe_escape(&out, "ab\xe2\x86", 4, 0), 2);
	assert_string_equal(out.data, "ab");
	assert_int_equal(termsafe_escape(&out, "\xe2\x86\x92", 3, 0), 3);
	assert_string_equal(out.data, "ab\xe2\x86\x92");
	/* but an invalid one is escaped at once */
	assert_int_equal(termsafe_escape(&out, "\xe2\x41", 2, 0), 2);
	assert_string_equal(out.data, "ab\xe2\x86\x92\\xe2A");
	sb_free(&out);
}

/* The stream over a file: the text written in two pieces, cut at each byte
 * in turn, and a byte a write, comes out as escaping it whole would; a sequence cut short at the
 * very end is written out, escaped, by termsafe_flush. The stream lasts for
 * the process (a few at most), so one stream takes every cut. */
static void test_stream_across_writes(void **state)
{
	(void)state;
	const char text[] = "\xe2\x86\x92 ok \033[31m\xc2\x9b\x9b \xf0\x9f\x98\x80 end";
	const size_t n = sizeof text - 1;
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	FILE *f = termsafe_open(fileno(tmp), _IOFBF);
	assert_non_null(f);
	strbuf want = {0};
	for (size_t cut = 0; cut <= n; cut++) {
		fwrite(text, 1, cut, f);
		fflush(f);
		fwrite(text + cut, 1, n - cut, f);
		fflush(f);
		sb_append(&want, ESC(text));
	}
	for (size_t i = 0; i < n; i++) { /* a byte a write */
		fputc(text[i], f);
		fflush(f);
	}
	sb_append(&want, ESC(text));
	fputs("\xe2\x86", f); /* cut short, and nothing follows */
	assert_int_equal(termsafe_flush(), 0);
	sb_append(&want, "\\xe2\\x86");
	char *got = xcalloc(1, want.len + 2);
	assert_int_equal(pread(fileno(tmp), got, want.len + 1, 0), (ssize_t)want.len);
	assert_string_equal(got, want.data);
	free(got);
	sb_free(&want);
}

/* The JSON writer's strings hold no byte the filter would change. */
static void test_json_passes_unchanged(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer w;
	json_begin(&w, f);
	json_obj(&w, NULL);
	json_str(&w, "t", "Naive\033]0;PWNED\a \xc2\x9b\x9b\x7f \xe2\x86\x92\t\r\n");
	json_end(&w);
	json_finish(&w);
	fclose(f);
	assert_non_null(strstr(buf, "\"Naive\\u001b]0;PWNED\\u0007 \\u009b\\ufffd\\u007f \xe2\x86\x92\\t\\r\\n\""));
	assert_string_equal(escaped(buf, len), buf);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls_escaped),
		cmocka_unit_test(test_invalid_utf8_escaped),
		cmocka_unit_test(test_valid_text_untouched),
		cmocka_unit_test(test_escape_leaves_a_cut_sequence),
		cmocka_unit_test(test_stream_across_writes),
		cmocka_unit_test(test_json_passes_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
