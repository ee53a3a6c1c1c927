/* test_lesson: the lesson format — front matter, pages, directives, launch shapes, size rules, messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "course/cond.h"
#include "course/lesson.h"

static const char good[] =
	"---\n"
	"id: smem\n"
	"title: Shared-memory blocking\n"
	"kernel: tests/data/gemm_test.ptx gemm_f32\n"
	"dtype: f32\n"
	"params: TILE=32 BK=8\n"
	"runtime: TILE\n"
	"block: TILE TILE\n"
	"tile: TILE TILE\n"
	"smem: 2*TILE*TILE*4\n"
	"multiple: 1 1 BK\n"
	"model: smem\n"
	"needs: sm_50\n"
	"regs: 38\n"
	"---\n"
	"# The idea\n"
	"Tiles of {param.TILE} by {param.TILE}.\n"
	"```\n"
	"# not a page: inside a fence\n"
	"@ptx not-a-directive\n"
	"```\n"
	"# The loop\n"
	"@ptx load-tile\n"
	"Text.\n"
	"@exercise ai.shared TILE=16 tol=0.05\n"
	"What is the shared intensity?\n"
	"Think about it.\n"
	"@hint Count loads per FMA.\n"
	"@answer It is {ai.shared} FLOP/B.\n"
	"After the exercise.\n";

static lesson *parse(const char *path, const char *text, char *err, int rc_expected)
{
	lesson *l = calloc(1, sizeof *l);
	int rc = lesson_parse(path, text, l, err, 256);
	assert_int_equal(rc, rc_expected);
	return l;
}

/* An FP8 lesson: e4m3 in, bf16 out, B stored N x K, both scales passed. */
static void test_fp8_front_matter(void **state)
{
	(void)state;
	char err[256] = "";
	lesson *l = parse("lessons/11-fp8.md",
			  "---\nid: fp8\ntitle: FP8\nkernel: ptx/x.ptx k\ndtype: e4m3\nout: bf16\nbmajor: k\n"
			  "args: A B C M N K scale:A scale:B\n---\n# P\nText.\n",
			  err, 0);
	assert_int_equal(l->dt, DTYPE_E4M3);
	assert_int_equal(l->out, DTYPE_BF16);
	assert_int_equal(l->b_kmajor, 1);
	lesson_free(l);
	free(l);
	l = parse("lessons/11-fp8.md", "---\nid: fp8\ntitle: FP8\nbmajor: n\n---\n# P\nText.\n", err, 0);
	assert_int_equal(l->b_kmajor, 0);
	lesson_free(l);
	free(l);
}

/* layout: and ld: (issue 39): kept as text, checked at load, laid out at launch. */
static void test_layout_front_matter(void **state)
{
	(void)state;
	char err[256] = "";
	lesson *l = parse("lessons/04-cm.md",
			  "---\nid: cm\ntitle: CM\nkernel: ptx/x.ptx k\ndtype: f32\nlayout: A=col,C=col\nld: A=M+4\n"
			  "args: M N K A ld:A B ld:B C ld:C\n---\n# P\nText.\n",
			  err, 0);
	assert_string_equal(l->layout, "A=col,C=col");
	assert_string_equal(l->ld, "A=M+4");
	lesson_free(l);
	free(l);
}

static void test_good_lesson(void **state)
{
	(void)state;
	char err[256] = "";
	lesson *l = parse("lessons/03-smem.md", good, err, 0);
	assert_int_equal(l->number, 3);
	assert_string_equal(l->id, "smem");
	assert_string_equal(l->entry, "gemm_f32");
	assert_int_equal(l->dt, DTYPE_F32);
	assert_int_equal(l->b_kmajor, 0); /* bmajor's default: B stored K x N */
	assert_int_equal(l->nparams, 2);
	assert_true(l->params[0].runtime);
	assert_false(l->params[1].runtime);
	assert_int_equal(l->needs_sm, 50);
	assert_int_equal(l->regs, 38);
	assert_int_equal(l->npages, 2);
	assert_string_equal(l->pages[0].title, "The idea");
	assert_int_equal(l->pages[0].line, 16);
	assert_non_null(strstr(l->pages[0].text, "# not a page"));
	assert_int_equal(l->pages[0].nanchors, 0);
	assert_int_equal(l->pages[1].nanchors, 1);
	assert_string_equal(l->pages[1].anchors[0], "load-tile");
	assert_int_equal(l->pages[1].nex, 1);
	const lesson_exercise *ex = &l->pages[1].ex[0];
	assert_string_equal(ex->key, "ai.shared");
	assert_string_equal(ex->question, "What is the shared intensity?\nThink about it.");
	assert_string_equal(ex->hint, "Count loads per FMA.");
	assert_string_equal(ex->answer, "It is {ai.shared} FLOP/B.");
	assert_true(ex->tol > 0.049 && ex->tol < 0.051);
	long long tile = 0;
	assert_true(expr_get(&ex->overrides, "TILE", &tile));
	assert_int_equal(tile, 16);
	assert_non_null(strstr(l->pages[1].text, "After the exercise."));
	assert_null(strstr(l->pages[1].text, "What is the shared"));
	lesson_free(l);
	free(l);
}

static void test_launch_and_size_rule(void **state)
{
	(void)state;
	char err[256];
	lesson *l = parse("lessons/03-smem.md", good, err, 0);
	expr_env over = {0}, env;
	lesson_launch ln;
	expr_set(&over, "TILE", 16);
	lesson_env(l, &over, 1000, 600, 64, &env);
	assert_int_equal(lesson_launch_for(l, &env, &ln, err, sizeof err), 0);
	assert_int_equal(ln.block[0], 16);
	assert_int_equal(ln.block[1], 16);
	assert_int_equal(ln.grid[0], 38); /* ceil(600/16) */
	assert_int_equal(ln.grid[1], 63); /* ceil(1000/16) */
	assert_int_equal(ln.smem, 2 * 16 * 16 * 4);
	assert_int_equal(lesson_check_size(l, &env, err, sizeof err), 0);
	lesson_env(l, NULL, 1000, 1000, 1001, &env);
	assert_int_equal(lesson_check_size(l, &env, err, sizeof err), -1);
	assert_non_null(strstr(err, "K of 8"));
	assert_non_null(strstr(err, "--size 1000,1000,1000"));
	lesson_free(l);
	free(l);
}

static const char hopper[] =
	"---\n"
	"id: wgmma\n"
	"title: T\n"
	"kernel: ptx/09_wgmma.ptx hgemm_wgmma\n"
	"dtype: f16\n"
	"params: BM=128 BN=256 BK=64\n"
	"block: 384\n"
	"tile: BM BN\n"
	"grid: persistent\n"
	"args: tmap:A:BK:BM:128B tmap:B:64:BK C M N K\n"
	"---\n"
	"# P\n";

/* A persistent lesson keeps its per-tile grid (the runner caps it to the
 * GPU); its args are evaluated at launch (tests/test_argspec.c). */
static void test_args_and_persistent_grid(void **state)
{
	(void)state;
	char err[256] = "";
	lesson *l = parse("lessons/09-wgmma.md", hopper, err, 0);
	expr_env over = {0}, env;
	lesson_launch ln;
	expr_set(&over, "BK", 32);
	lesson_env(l, &over, 1024, 512, 256, &env);
	assert_int_equal(lesson_launch_for(l, &env, &ln, err, sizeof err), 0);
	assert_true(ln.persistent);
	assert_int_equal(ln.grid[0], 2);
	assert_int_equal(ln.grid[1], 8);
	lesson_free(l);
	free(l);

	l = parse("lessons/03-smem.md", good, err, 0);
	lesson_env(l, NULL, 64, 64, 64, &env);
	assert_int_equal(lesson_launch_for(l, &env, &ln, err, sizeof err), 0);
	assert_false(ln.persistent);
	lesson_free(l);
	free(l);
}

/* Each broken lesson names its file and the line of the problem. */
static void test_errors_name_file_and_line(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{"---\nid: x\ntitle: T\ncolour: red\n---\n# P\n", "lessons/09-x.md:4: unknown front-matter key 'colour'"},
		/* conditional prose: balanced on each page, outside exercises */
		{"---\nid: x\ntitle: T\n---\n# P\ntext\n@else\n", "lessons/09-x.md:7: @else without an @if on this page"},
		{"---\nid: x\ntitle: T\n---\n# P\n@endif\n", "lessons/09-x.md:6: @endif without an @if on this page"},
		{"---\nid: x\ntitle: T\n---\n# P\n@if launch.runs\na\n# Q\n",
		 "lessons/09-x.md:8: @if of line 6 has no @endif before the next page"},
		{"---\nid: x\ntitle: T\n---\n# P\n@if launch.runs\n@if 1\n@endif\n",
		 "lessons/09-x.md:8: @if of line 6 has no @endif"},
		{"---\nid: x\ntitle: T\n---\n# P\n@if a\n@else\n@else\n@endif\n",
		 "lessons/09-x.md:8: a second @else for the @if of line 6"},
		{"---\nid: x\ntitle: T\n---\n# P\n@if\n@endif\n", "lessons/09-x.md:6: @if wants a condition"},
		{"---\nid: x\ntitle: T\n---\n# P\n@exercise ai.shared\nQ?\n@if a\n",
		 "lessons/09-x.md:8: @if inside an exercise"},
		{"---\nid: x\ntitle: T\ndtype: f64\n---\n# P\n", "lessons/09-x.md:4: dtype must be f32, f16, bf16, tf32, e4m3, e5m2, s8, u8 or s32, or none"},
		{"---\nid: x\ntitle: T\nlayout: A=diag\n---\n# P\n", "lessons/09-x.md:4: layout: 'A=diag': A is row or col, not 'diag'"},
		{"---\nid: x\ntitle: T\nout: f8\n---\n# P\n", "lessons/09-x.md:4: out must be f32, f16, bf16, tf32, e4m3, e5m2, s8, u8 or s32, not 'f8'"},
		/* a pair cuBLAS has no reference for: the line of `out:`, wherever dtype is */
		{"---\nid: x\ntitle: T\nkernel: a.ptx k\nout: bf16\ndtype: f16\n---\n# P\n",
		 "lessons/09-x.md:5: out: f16 inputs give an f32 or f16 output, not bf16"},
		{"---\nid: x\ntitle: T\nkernel: a.ptx k\ndtype: f32\nout: f16\n---\n# P\n",
		 "lessons/09-x.md:6: out: f32 inputs give an f32 output, not f16"},
		{"---\nid: x\ntitle: T\nbmajor: col\n---\n# P\n",
		 "lessons/09-x.md:4: bmajor is 'n' (B stored K x N, row-major) or 'k' (B stored N x K, K-major), not 'col'"},
		{"---\nid: x\ntitle: T\nkernel: a.ptx k\ndtype: e4m3\nout: f16\n---\n# P\n",
		 "lessons/09-x.md:6: out: e4m3 inputs give an f32 or bf16 output, not f16 (cuBLASLt's pairs)"},
		{"---\nid: x\ntitle: T\ncluster: 4 4\n---\n# P\n",
		 "lessons/09-x.md:4: a cluster of 4x4x1 is 16 blocks; at most 8 is portable"},
		{"---\nid: x\ntitle: T\ncluster: 16\n---\n# P\n", "lessons/09-x.md:4: cluster wants blocks per cluster X [Y [Z]], each 1 to 8, got '16'"},
		{"---\nid: x\ntitle: T\ncluster: 2 x\n---\n# P\n", "lessons/09-x.md:4: cluster wants blocks per cluster"},
		{"---\nid: x\ntitle: T\ncluster: 0\n---\n# P\n", "lessons/09-x.md:4: cluster wants blocks per cluster"},
		{"---\nid: x\ntitle: T\ncluster: 1 1 1 1\n---\n# P\n", "lessons/09-x.md:4: cluster wants 1 to 3 values"},
		{"---\nid: x\ntitle: T\nparams: TILE\n---\n# P\n", "lessons/09-x.md:4: param 'TILE' is not KEY=INTEGER"},
		{"---\nid: x\ntitle: T\n---\n# P\n@frobnicate\n", "lessons/09-x.md:6: unknown directive '@frobnicate'"},
		{"---\nid: x\ntitle: T\n---\nhello\n# P\n", "lessons/09-x.md:5: text before the first page heading"},
		{"---\nid: x\ntitle: T\n---\n# P\n@exercise flops\nQ?\n@hint h\n", "exercise of line 6 has no @answer"},
		{"---\nid: x\ntitle: T\n", "front matter is not closed"},
		{"id: x\n", "lessons/09-x.md:1: a lesson starts with a front-matter block"},
		{"---\nid: x\ntitle: T\nneeds: volta\n---\n# P\n", "lessons/09-x.md:4: needs wants sm_NN"},
		{"---\nid: x\ntitle: T\ngrid: 132\n---\n# P\n", "lessons/09-x.md:4: grid is 'persistent'"},
		{"---\nid: x\ntitle: T\n---\n# P\n@hint h\n", "lessons/09-x.md:6: @hint outside an exercise"},
		{"---\nid: x\ntitle: T\n---\n# P\n@answer a\n", "lessons/09-x.md:6: @answer without an @exercise"},
		{"---\nid: x\ntitle: T\n---\n# P\n@ptx\n", "lessons/09-x.md:6: @ptx wants one region name"},
		{"---\nid: x\ntitle: T\n---\n@ptx a\n# P\n", "lessons/09-x.md:5: @ptx before the first page heading"},
		{"---\nid: x\ntitle: T\n---\n# P\n@ptx a\n@ptx b\n@ptx c\n@ptx d\n@ptx e\n",
		 "lessons/09-x.md:10: too many @ptx anchors on one page (at most 4)"},
		{"---\nid: x\ntitle: T\n---\n# P\n@exercise flops T=1 T2=2 T3=3 T4=4 T5=5 T6=6 T7=7 T8=8 T9=9 "
		 "T10=10 T11=11 T12=12 T13=13 T14=14 T15=15 T16=16 T17=17 T18=18 T19=19 T20=20 T21=21 T22=22 "
		 "T23=23 T24=24 T25=25 T26=26 T27=27 T28=28 T29=29 T30=30 T31=31 T32=32 T33=33\n",
		 "lessons/09-x.md:6: @exercise sets more than"},
		{"---\nid: a-very-long-identifier-of-forty-characters\ntitle: T\n---\n# P\n",
		 "lessons/09-x.md:2: id is longer than 31 characters"},
		{"---\nid: x\ntitle: T\nblock: 1 2 3 4\n---\n# P\n", "lessons/09-x.md:4: block wants 1 to 3 values, got 4"},
		{"---\nid: x\ntitle: T\nparams: A=1\nruntime: B\n---\n# P\n", "lessons/09-x.md:5: runtime names 'B'"},
		{"---\nid: x\ntitle: T\nregs: 300\n---\n# P\n", "lessons/09-x.md:4: regs wants registers per thread"},
		{"---\nid: x\ntitle: T\nkernel: a.ptx\n---\n# P\n", "lessons/09-x.md:4: kernel wants 'PATH ENTRY'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[256] = "";
		lesson *l = parse("lessons/09-x.md", cases[i].text, err, -1);
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: got '%s', want '%s'", i, err, cases[i].want);
		free(l);
	}
}

/* text with every "\n" written as "\r\n" (a file saved on Windows); the caller frees it. */
static char *crlf(const char *text)
{
	strbuf t = {0};
	for (const char *p = text; *p; p++)
		sb_appendn(&t, *p == '\n' ? "\r\n" : p, *p == '\n' ? 2 : 1);
	return t.data;
}

/* A CRLF file reads as the LF one, line numbers included; blank lines count in the numbering. */
static void test_crlf_and_blank_lines(void **state)
{
	(void)state;
	char err[256] = "";
	char *dos = crlf(good);
	lesson *a = parse("lessons/03-smem.md", good, err, 0);
	lesson *b = parse("lessons/03-smem.md", dos, err, 0);
	assert_int_equal(b->npages, a->npages);
	assert_int_equal(b->regs, 38);
	for (int i = 0; i < a->npages; i++) {
		assert_string_equal(b->pages[i].title, a->pages[i].title);
		assert_int_equal(b->pages[i].line, a->pages[i].line);
		assert_string_equal(b->pages[i].text, a->pages[i].text);
	}
	assert_null(strchr(b->pages[1].text, '\r'));
	assert_string_equal(b->pages[1].ex[0].question, a->pages[1].ex[0].question);
	assert_string_equal(b->pages[1].ex[0].hint, "Count loads per FMA.");
	assert_int_equal(b->pages[1].ex[0].line, a->pages[1].ex[0].line);
	lesson_free(a);
	lesson_free(b);
	free(a);
	free(b);
	free(dos);
	/* Errors name the line they are on, past blank lines, in the front matter and in the body. */
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"---\n\nid: x\n\n\nfrob: 1\n---\n# P\n", "lessons/09-x.md:6: unknown front-matter key 'frob'"},
		{"---\nid: x\ntitle: T\n---\n\n# P\n\n\n@frob\n", "lessons/09-x.md:9: unknown directive"},
		{"---\nid: x\ntitle: T\n---\n# P\n\n@exercise flops\nQ?\n\n", "lessons/09-x.md:9: exercise of line 7 has no @answer"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (int dos_ends = 0; dos_ends < 2; dos_ends++) {
			char *text = dos_ends ? crlf(cases[i].text) : xstrdup(cases[i].text);
			lesson *l = parse("lessons/09-x.md", text, err, -1);
			if (!strstr(err, cases[i].want))
				fail_msg("case %zu%s: got '%s', want '%s'", i, dos_ends ? " (CRLF)" : "", err, cases[i].want);
			free(l);
			free(text);
		}
}

/* The messages for an unknown key or directive list the parser's tables, every name of them. */
static void test_tables_in_messages(void **state)
{
	(void)state;
	char err[256] = "";
	lesson *l = parse("lessons/09-x.md", "---\nid: x\ntitle: T\n---\n# P\n@frob\n", err, -1);
	free(l);
	int n = 0;
	const char *help;
	for (const char *name; (name = lesson_directive(n, &help)); n++) {
		assert_non_null(strstr(err, name));
		assert_int_equal(strncmp(help, name, strlen(name)), 0);
	}
	assert_int_equal(n, 10); /* @ptx @numbers @warpview @exercise @hint @check @answer @if @else @endif */
	assert_null(lesson_directive(-1, NULL));

	l = parse("lessons/09-x.md", "---\nid: x\nfrob: 1\n---\n# P\n", err, -1);
	free(l);
	assert_non_null(strstr(err, "lessons/09-x.md:3: unknown front-matter key 'frob' (known: id, title, kernel,"));
	for (n = 0; lesson_key(n, &help); n++) {
		char name[40];
		snprintf(name, sizeof name, " %s%s", lesson_key(n, NULL), lesson_key(n + 1, NULL) ? "," : ")");
		if (!strstr(err, name))
			fail_msg("'%s' does not list '%s'", err, name);
	}
}

/* Pages and exercises are allocated as they come: far more than the old
 * fixed 16 pages and 6 exercises per page, none dropped. */
static void test_many_pages_and_exercises(void **state)
{
	(void)state;
	enum { PAGES = 40, EXERCISES = 9 };
	strbuf t = {0};
	sb_append(&t, "---\nid: big\ntitle: Big\n---\n");
	for (int p = 0; p < PAGES; p++) {
		sb_printf(&t, "# Page %d\nText %d.\n", p, p);
		for (int e = 0; e < EXERCISES; e++)
			sb_printf(&t, "@exercise flops\nQ %d.%d?\n@hint h\n@answer a %d.%d\n", p, e, p, e);
	}
	char err[256] = "";
	lesson *l = parse("lessons/07-big.md", t.data, err, 0);
	assert_int_equal(l->npages, PAGES);
	for (int p = 0; p < PAGES; p++) {
		char want[32];
		snprintf(want, sizeof want, "Page %d", p);
		assert_string_equal(l->pages[p].title, want);
		assert_int_equal(l->pages[p].nex, EXERCISES);
		snprintf(want, sizeof want, "a %d.%d", p, EXERCISES - 1);
		assert_string_equal(l->pages[p].ex[EXERCISES - 1].answer, want);
		snprintf(want, sizeof want, "Q %d.0?", p);
		assert_string_equal(l->pages[p].ex[0].question, want);
	}
	/* The last @exercise line: after the front matter (4 lines), 39 whole pages
	 * (2 + 4 * 9 lines each), the last page's 2 lines and 8 exercises. */
	int last = 4 + (2 + 4 * EXERCISES) * (PAGES - 1) + 2 + 4 * (EXERCISES - 1) + 1;
	assert_int_equal(l->pages[PAGES - 1].ex[EXERCISES - 1].line, last);
	lesson_free(l);
	assert_int_equal(l->npages, 0);
	assert_null(l->pages);
	free(l);
	sb_free(&t);
}

/* docs/ARCHITECTURE.md's table of front-matter keys is the parser's table:
 * the same keys in the same order, each with the same meaning. */
static void test_key_table_matches_docs(void **state)
{
	(void)state;
	char path[1024], err[256];
	util_path(path, sizeof path, "docs/ARCHITECTURE.md");
	char *doc = util_read_file(path, NULL, err, sizeof err);
	assert_non_null(doc);
	const char *p = strstr(doc, "| key | meaning |\n|---|---|\n");
	assert_non_null(p);
	p = strchr(strchr(p, '\n') + 1, '\n') + 1;
	int i = 0;
	for (; !strncmp(p, "| `", 3); i++) {
		const char *e = strchr(p, '\n');
		char row[1024], want[1024];
		snprintf(row, sizeof row, "%.*s", (int)(e - p), p);
		const char *help, *key = lesson_key(i, &help);
		if (!key)
			fail_msg("docs/ARCHITECTURE.md has a key the parser does not know: %s", row);
		snprintf(want, sizeof want, "| `%s` | %s |", key, help);
		if (strcmp(row, want))
			fail_msg("docs/ARCHITECTURE.md's row\n  %s\nis not the parser's\n  %s", row, want);
		p = e + 1;
	}
	if (lesson_key(i, NULL))
		fail_msg("docs/ARCHITECTURE.md lacks the key '%s'", lesson_key(i, NULL));
	assert_true(i >= 15);
	free(doc);
}

static int known(const char *key)
{
	return !strcmp(key, "ai.shared") || !strncmp(key, "param.", 6);
}

static void test_validate(void **state)
{
	(void)state;
	char err[256], errs[2048];
	lesson *l = parse("lessons/03-smem.md", good, err, 0);
	/* The test kernel has no @load-tile region: one problem, at the page's line. */
	assert_int_equal(lesson_validate(l, known, errs, sizeof errs), 1);
	assert_non_null(strstr(errs, "lessons/03-smem.md:22: unknown @ptx anchor 'load-tile'"));
	lesson_free(l);
	free(l);

	char *text = strdup(good);
	char *p = strstr(text, "{param.TILE}");
	memcpy(p, "{nope.TILE }", 12); /* '{nope.TILE }' is not a placeholder: braces with a space */
	p = strstr(text, "{ai.shared}");
	memcpy(p, "{ai.wrong1}", 11);
	l = parse("lessons/03-smem.md", text, err, 0);
	assert_int_equal(lesson_validate(l, known, errs, sizeof errs), 2);
	assert_non_null(strstr(errs, "unknown placeholder {ai.wrong1}"));
	lesson_free(l);
	free(l);
	free(text);
}

static void test_course_loads_shipped_lessons(void **state)
{
	(void)state;
	static course c;
	char errs[4096];
	int n = course_load(&c, errs, sizeof errs);
	assert_string_equal(errs, "");
	assert_int_equal(n, c.n);
	for (int i = 1; i < c.n; i++)
		assert_true(c.l[i - 1].number < c.l[i].number);
	if (c.n > 0) {
		assert_ptr_equal(course_find(&c, c.l[0].id), &c.l[0]);
		char num[8];
		snprintf(num, sizeof num, "%d", c.l[0].number);
		assert_ptr_equal(course_find(&c, num), &c.l[0]);
	}
	assert_null(course_find(&c, "no-such-lesson"));
	course_free(&c);
}

/* A lesson naming an unknown anchor is dropped with its file:line; the rest stay. */
static void test_course_validate_drops_broken(void **state)
{
	(void)state;
	course c = {.l = calloc(3, sizeof(lesson))};
	char err[256], errs[1024] = "";
	const char *ok = "---\nid: a\ntitle: A\n---\n# P\n{ai.shared}\n";
	const char *bad = "---\nid: b\ntitle: B\n---\n# P\n@ptx nowhere\n";
	assert_int_equal(lesson_parse("lessons/01-a.md", ok, &c.l[0], err, sizeof err), 0);
	assert_int_equal(lesson_parse("lessons/02-b.md", bad, &c.l[1], err, sizeof err), 0);
	assert_int_equal(lesson_parse("lessons/03-a.md", ok, &c.l[2], err, sizeof err), 0);
	c.n = 3;
	assert_int_equal(course_validate(&c, known, errs, sizeof errs), 1);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.l[0].number, 1);
	assert_int_equal(c.l[1].number, 3);
	assert_non_null(strstr(errs, "lessons/02-b.md:5: unknown @ptx anchor 'nowhere'"));
	course_free(&c);
}

/* "yes" holds, anything else does not. */
static int says_yes(const char *expr, void *ctx)
{
	(*(int *)ctx)++;
	return !strcmp(expr, "yes");
}

/* @if/@else/@endif stay in the page's text, and cond_select keeps the
 * branches taken: nested, with @else, with a condition not evaluated under a
 * branch not taken, and a fenced "@if" that is text. */
static void test_conditional_text(void **state)
{
	(void)state;
	char err[256] = "";
	lesson *l = parse("lessons/09-x.md",
			  "---\nid: x\ntitle: T\n---\n# P\na\n@if yes\nb\n@if no\nc\n@else\nd\n@endif\n@else\ne\n"
			  "@if yes\nf\n@endif\n@endif\n```\n@if no\n```\ng\n",
			  err, 0);
	assert_non_null(l);
	assert_non_null(strstr(l->pages[0].text, "@if yes\nb\n@if no\n"));
	int evals = 0;
	char *got = cond_select(l->pages[0].text, says_yes, &evals);
	assert_string_equal(got, "a\nb\nd\n```\n@if no\n```\ng\n");
	assert_int_equal(evals, 2); /* the inner "yes" of the else branch is never asked */
	free(got);
	assert_int_equal(cond_line("@iffy", NULL), COND_NONE);
	assert_int_equal(cond_line("@endif", NULL), COND_ENDIF);
	lesson_free(l);
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_lesson),
		cmocka_unit_test(test_fp8_front_matter),
		cmocka_unit_test(test_layout_front_matter),
		cmocka_unit_test(test_launch_and_size_rule),
		cmocka_unit_test(test_args_and_persistent_grid),
		cmocka_unit_test(test_errors_name_file_and_line),
		cmocka_unit_test(test_crlf_and_blank_lines),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_tables_in_messages),
		cmocka_unit_test(test_many_pages_and_exercises),
		cmocka_unit_test(test_conditional_text),
		cmocka_unit_test(test_key_table_matches_docs),
		cmocka_unit_test(test_course_loads_shipped_lessons),
		cmocka_unit_test(test_course_validate_drops_broken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
