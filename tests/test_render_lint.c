/* test_render_lint: every lesson × page × GPU of assets/gpus.tsv rendered by the tutor's own text renderer (ui_prose, as `show N --screen --page P --gpu G` draws it), and the text checked for what no page may say: zero blocks, warps or SMs, nan, inf, impossible negatives, unfilled {placeholders}, "> " in mid-sentence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "course/cond.h"
#include "course/lesson.h"
#include "model/calc.h"
#include "model/devices.h"
#include "model/model.h"
#include "ui/lines.h"
#include "ui/prose.h"

/* Wide enough that no paragraph wraps: a phrase is never split over lines. */
#define LINT_WIDTH 4000

/* What a rendered line must not hold; prose only (fenced code is exempt
 * where the rule says so). */
static const struct {
	const char *re;
	int code_too; /* also in code (a fenced block, `code`) */
	const char *why;
} rules[] = {
	{"(^|[^0-9.,])0 (blocks?|warps?|SMs?|clusters?|rounds?)([^a-z]|$)", 1, "zero blocks/warps/SMs"},
	{"[×x] 0 (blocks?|warps?)", 1, "zero blocks/warps/SMs"},
	{"(^|[^a-z])(nan|inf)([^a-z]|$)", 1, "nan or inf"},
	{"(^|[^a-z])n/a([^a-z]|$)", 0, "a figure the model does not have (n/a)"},
	{"(^|[ (=])-[0-9.]+ ?(blocks?|warps?|SMs?|ms|bytes|B|KiB|MB|GB|TFLOP/s|GFLOP/s|%|FLOP/B|registers|tiles|rounds)([^a-z]|$)", 0,
	 "a negative value where none can be"},
	{"\\{[A-Za-z_][A-Za-z0-9_.]*\\??\\}", 1, "an unfilled placeholder"},
	{"[^ ] +> [^ ]", 0, "a quote marker '> ' in mid-sentence"},
};

static regex_t compiled[sizeof rules / sizeof rules[0]];

/* Problems in one rendered line (UTF-8 text; code: the line is fenced
 * code), each told on stderr with where (NULL: quietly). */
static int lint_rendered(const char *where, const char *text, int code)
{
	int bad = 0;
	for (size_t i = 0; i < ARRAY_LEN(rules); i++) {
		if (code && !rules[i].code_too)
			continue;
		if (regexec(&compiled[i], text, 0, NULL, 0) == 0) {
			if (where)
				fprintf(stderr, "%s: %s: %s\n", where, rules[i].why, text);
			bad++;
		}
	}
	return bad;
}

/* A rendered line back as UTF-8. */
static void line_text(const ui_lines *t, int i, char *out, size_t len, int *code)
{
	size_t o = 0;
	*code = 0;
	for (int k = t->start[i]; k < t->start[i + 1] && o + 5 < len; k++) {
		uint32_t cp = t->cp[k];
		if (t->role[k] == UI_ROLE_CODE && (o == 0 || *code))
			*code = 1; /* a line that starts in code is a fenced line */
		if (cp < 0x80)
			out[o++] = (char)cp;
		else if (cp < 0x800)
			out[o++] = (char)(0xC0 | cp >> 6), out[o++] = (char)(0x80 | (cp & 0x3F));
		else if (cp < 0x10000)
			out[o++] = (char)(0xE0 | cp >> 12), out[o++] = (char)(0x80 | (cp >> 6 & 0x3F)),
			out[o++] = (char)(0x80 | (cp & 0x3F));
		else
			out[o++] = (char)(0xF0 | cp >> 18), out[o++] = (char)(0x80 | (cp >> 12 & 0x3F)),
			out[o++] = (char)(0x80 | (cp >> 6 & 0x3F)), out[o++] = (char)(0x80 | (cp & 0x3F));
	}
	out[o] = '\0';
	while (o > 0 && out[o - 1] == ' ')
		out[--o] = '\0';
	size_t lead = strspn(out, " ");
	*code = *code && lead < o;
}

/* Renders text with the tutor's renderer and lints every line. */
static int lint_page(const char *where, const model_result *m, const char *text)
{
	ui_lines t;
	ui_lines_init(&t);
	ui_prose(&t, m, text, LINT_WIDTH);
	int bad = 0;
	char line[4 * LINT_WIDTH + 8];
	for (int i = 0; i < t.nlines; i++) {
		int code;
		line_text(&t, i, line, sizeof line, &code);
		char at[512];
		snprintf(at, sizeof at, "%s, row %d", where, i + 1);
		bad += lint_rendered(at, line, code);
	}
	ui_lines_free(&t);
	return bad;
}

/* Every @if of a page evaluates (else it would silently read as false). */
static int conditions_evaluate(const char *where, const model_result *m, const char *text)
{
	int bad = 0;
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		const char *expr;
		char why[160];
		if (cond_line(line, &expr) == COND_IF && isnan(calc_eval(expr, m, CALC_KEYS, why, sizeof why))) {
			fprintf(stderr, "%s: @if %s: %s\n", where, expr, why);
			bad++;
		}
		p = nl ? nl + 1 : NULL;
	}
	return bad;
}

static int setup(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(rules); i++)
		if (regcomp(&compiled[i], rules[i].re, REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, "bad rule %s\n", rules[i].re);
			return -1;
		}
	return 0;
}

/* The rules catch what they are for, and pass what is fine. */
static void rules_find(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int code, bad;
	} cases[] = {
		{"the tensor pipe busy 77.3% of the time, with 0 warps per SM", 0, 1},
		{"the runner launches one block per SM slot, 40 × 0 blocks on the NVIDIA T4", 0, 2},
		{"blocks per SM: 0, with 0 warps per SM", 0, 1},
		{"a bound of nan ms", 0, 1},
		{"at inf FLOP/B", 0, 1},
		{"reads n/a in bands", 0, 1},
		{"-3 blocks per SM", 0, 1},
		{"it takes {launch.blocks?} blocks", 0, 1},
		{"so > 132 blocks run", 0, 1},
		{"32 tiles > a block row", 0, 1},
		/* fine */
		{"> Worked example, an H100 at 8192³: 132 SMs, one block each", 0, 0},
		{"128 blocks in 4 rounds on 132 SMs, 10 warps per SM", 0, 0},
		{"information, infer, finance; 2⁻⁸ and 1-2 blocks", 0, 0},
		{"  add.s64 %descB, %descB, 128;  // +2048 bytes (>> 4)", 1, 0},
		{"  st.global.v2.f32 [%gC+0], {%d0, %d1};", 1, 0},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		int got = lint_rendered(NULL, cases[i].text, cases[i].code);
		if (got != cases[i].bad)
			fail_msg("case %zu '%s': %d problems, want %d", i, cases[i].text, got, cases[i].bad);
	}
}

/* A multi-line block quote renders with one "> " where it starts (review
 * 9.7), and @if chooses its branch from the model. */
static void quotes_and_conditions(void **state)
{
	(void)state;
	ui_lines t;
	ui_lines_init(&t);
	ui_prose(&t, NULL, "> Worked example: 32 tiles\n> a block row.\n\nAfter.\n@if 1\nshown\n@else\nhidden\n@endif\n", 80);
	char line[256];
	int code;
	line_text(&t, 0, line, sizeof line, &code);
	assert_string_equal(line, "> Worked example: 32 tiles a block row.");
	line_text(&t, 2, line, sizeof line, &code);
	assert_string_equal(line, "After. hidden"); /* no model: every @if is false */
	ui_lines_free(&t);
}

/* Every lesson, page, exercise question and answer on every GPU of the
 * table, at the default size and one odd shape. */
static void every_page_every_gpu(void **state)
{
	(void)state;
	static course c;
	static gpu_table table;
	char errs[8192] = "", err[512];
	assert_true(course_load(&c, errs, sizeof errs) > 0);
	assert_true(devices_load(&table, err, sizeof err) > 0);
	static const long long sizes[][3] = {{4096, 4096, 4096}, {1024, 2048, 512}};
	int bad = 0, pages = 0;
	for (int g = 0; g < table.n; g++)
		for (size_t s = 0; s < ARRAY_LEN(sizes); s++)
			for (int i = 0; i < c.n; i++) {
				const lesson *l = &c.l[i];
				model_result r;
				if (model_compute(l, NULL, sizes[s][0], sizes[s][1], sizes[s][2], &table.g[g], &r, err,
						  sizeof err))
					fail_msg("%s on %s: %s", l->path, table.g[g].key, err);
				for (int p = 0; p < l->npages; p++) {
					const lesson_page *pg = &l->pages[p];
					char where[512];
					snprintf(where, sizeof where, "%s page %d (%s) --gpu %s --size %lld,%lld,%lld", l->path,
						 p + 1, pg->title, table.g[g].key, sizes[s][0], sizes[s][1], sizes[s][2]);
					bad += conditions_evaluate(where, &r, pg->text);
					bad += lint_page(where, &r, pg->text);
					for (int e = 0; e < pg->nex; e++) {
						bad += lint_page(where, &r, pg->ex[e].question);
						bad += lint_page(where, &r, pg->ex[e].answer);
					}
					pages++;
				}
			}
	course_free(&c);
	assert_true(pages >= 11 * table.n);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rules_find),
		cmocka_unit_test(quotes_and_conditions),
		cmocka_unit_test(every_page_every_gpu),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
