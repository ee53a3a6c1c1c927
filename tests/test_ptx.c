/* test_ptx: the PTX tokenizer's classes, regions, folding and instruction mix on PTX written here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <limits.h>
#include <string.h>

#include "course/ptx.h"

/* A tiny kernel in the project's style: a region, a guard, a loop, an unrolled run. */
static const char *const sample =
	".version 7.0\n"                                   /* 1 */
	".target sm_50\n"                                  /* 2 */
	".address_size 64\n"                               /* 3 */
	"\n"                                               /* 4 */
	".visible .entry demo(.param .u64 A, .param .u32 N)\n" /* 5 */
	"{\n"                                              /* 6 */
	"\t.reg .pred %p<2>;\n"                            /* 7 */
	"\t.reg .f32 %acc;\n"                              /* 8 */
	"\t// @load\n"                                     /* 9 */
	"\tld.param.u64 %rdA, [A];  // the pointer\n"      /* 10 */
	"\tmov.u32 %r1, %tid.x;\n"                         /* 11 */
	"\t// @end\n"                                      /* 12 */
	"LOOP:\n"                                          /* 13 */
	"\tfma.rn.f32 %acc, %a0, %b0, %acc;\n"             /* 14 */
	"\tfma.rn.f32 %acc, %a1, %b1, %acc;\n"             /* 15 */
	"\tfma.rn.f32 %acc, %a2, %b2, %acc;\n"             /* 16 */
	"\tfma.rn.f32 %acc, %a3, %b3, %acc;\n"             /* 17 */
	"\tfma.rn.f32 %acc, %a4, %b4, %acc;\n"             /* 18 */
	"\tfma.rn.f32 %acc, %a5, %b5, %acc;\n"             /* 19 */
	"\tfma.rn.f32 %acc, %a6, %b6, %acc;\n"             /* 20 */
	"\t@!%p1 bra.uni LOOP;\n"                          /* 21 */
	"\t/* a block\n"                                   /* 22 */
	"\t   comment */ ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+16];\n" /* 23 */
	"\tst.shared.f32 [%rs], %acc;\n"                   /* 24 */
	"\tret;\n"                                         /* 25 */
	"}\n";

static int line_of(const ptx_doc *d, int l, const char **s)
{
	*s = d->text + d->lines[l].off;
	return d->lines[l].len;
}

/* Finds the token spelling `word` in a line and returns its class, or -1. */
static int class_of(const char *line, const char *word)
{
	ptx_token t[PTX_MAX_TOKENS];
	int blk = 0;
	int n = ptx_tokenize_line(line, (int)strlen(line), t, PTX_MAX_TOKENS, &blk);
	for (int i = 0; i < n; i++)
		if (t[i].len == (int)strlen(word) && !strncmp(line + t[i].off, word, (size_t)t[i].len))
			return (int)t[i].cls;
	return -1;
}

static void test_classes(void **st)
{
	(void)st;
	assert_int_equal(class_of(".version 7.0", ".version"), PTX_DIRECTIVE);
	assert_int_equal(class_of(".version 7.0", "7.0"), PTX_NUMBER);
	assert_int_equal(class_of(".reg .f32 %acc;", ".reg"), PTX_DIRECTIVE);
	assert_int_equal(class_of(".reg .f32 %acc;", ".f32"), PTX_TYPE);
	assert_int_equal(class_of(".reg .f32 %acc;", "%acc"), PTX_REG);
	const char *ld = "ld.global.f32 %f1, [%rd1]; // load";
	assert_int_equal(class_of(ld, "ld.global"), PTX_INSTR);
	assert_int_equal(class_of(ld, ".f32"), PTX_TYPE);
	assert_int_equal(class_of(ld, "%rd1"), PTX_REG);
	assert_int_equal(class_of(ld, "// load"), PTX_COMMENT);
	const char *br = "@!%p1 bra.uni LOOP;";
	assert_int_equal(class_of(br, "@!%p1"), PTX_PRED);
	assert_int_equal(class_of(br, "bra.uni"), PTX_INSTR);
	assert_int_equal(class_of(br, "LOOP"), PTX_LABEL);
	assert_int_equal(class_of("LOOP: add.s32 %r1, %r1, 1;", "LOOP:"), PTX_LABEL);
	assert_int_equal(class_of("LOOP: add.s32 %r1, %r1, 1;", "add"), PTX_INSTR);
	assert_int_equal(class_of("mov.u32 %r1, %tid.x;", "%tid.x"), PTX_REG);
	assert_int_equal(class_of("mov.b32 %f1, 0f3F800000;", "0f3F800000"), PTX_NUMBER);
	/* The entry name after a directive is a name, not an opcode. */
	assert_int_equal(class_of(".visible .entry demo(", "demo"), PTX_TEXT);
	/* Two statements on a line: the second opcode is found too. */
	assert_int_equal(class_of("add.s32 %r1, %r1, 1; bar.sync 0;", "bar.sync"), PTX_INSTR);
}

static void test_block_comment_spans_lines(void **st)
{
	(void)st;
	int blk = 0;
	unsigned char cls[128];
	const char *a = "mov.u32 %r1, 0; /* starts";
	ptx_classify_line(a, (int)strlen(a), cls, &blk);
	assert_int_equal(blk, 1);
	assert_int_equal(cls[0], PTX_INSTR);
	assert_int_equal(cls[strlen(a) - 1], PTX_COMMENT);
	const char *b = "still */ ret;";
	ptx_classify_line(b, (int)strlen(b), cls, &blk);
	assert_int_equal(blk, 0);
	assert_int_equal(cls[0], PTX_COMMENT);
	assert_int_equal(cls[strlen(b) - 4], PTX_INSTR); /* "ret" */
}

static void test_load_regions(void **st)
{
	(void)st;
	ptx_doc d;
	char err[256];
	assert_int_equal(ptx_load(&d, sample, err, sizeof err), 0);
	assert_int_equal(d.nlines, 26);
	const ptx_region *r = ptx_region_find(&d, "load");
	assert_non_null(r);
	assert_int_equal(r->first, 8);
	assert_int_equal(r->last, 11);
	assert_null(ptx_region_find(&d, "store"));
	/* Line 23 starts inside the block comment opened on line 22. */
	assert_int_equal(d.lines[22].block_in, 1);
	assert_int_equal(d.lines[21].block_in, 0);
	const char *s;
	int n = line_of(&d, 9, &s);
	assert_int_equal(n, (int)strlen("\tld.param.u64 %rdA, [A];  // the pointer"));
	ptx_free(&d);
}

static void test_region_problems(void **st)
{
	(void)st;
	ptx_doc d;
	char err[256];
	const char *bad = "// @a\nret;\n// @end\n// @end\n// @b\n// @b\nret;\n";
	int p = ptx_load(&d, bad, err, sizeof err);
	assert_int_equal(p, 4); /* a stray @end, @b twice, two unclosed @b */
	assert_non_null(strstr(err, "line 4: @end without an open region"));
	assert_non_null(strstr(err, "defined twice"));
	/* Unclosed regions run to the end of the file so a lesson still shows them. */
	const ptx_region *r = ptx_region_find(&d, "b");
	assert_non_null(r);
	assert_int_equal(r->last, d.nlines - 1);
	ptx_free(&d);
}

/* The one region scanner (the emulator and lesson checks call it too) on a
 * text with every kind of problem: nesting, a duplicate, a stray @end, a name
 * too long, one region over the limit and an unclosed region. */
static void test_region_scanner(void **st)
{
	(void)st;
	char text[4096] = "// @outer\n"   /* 1 */
			  "  // @inner\n" /* 2: nested */
			  "ret;\n"        /* 3 */
			  "// @end\n"     /* 4: closes inner */
			  "//@outer\n"    /* 5: defined twice */
			  "// @end\n"     /* 6 */
			  "// @end\n"     /* 7: closes the first outer */
			  "// @end\n"     /* 8: stray */
			  "// @a_name_that_is_far_too_long_to_be_a_region_name_x\n" /* 9 */
			  "// @end\n"     /* 10: closes the refused one quietly */
			  "ret; // @notamarker\n" /* 11 */
			  "// @open\n";   /* 12: never closed */
	/* 4 regions so far; 29 more make one too many (lines 13, 15, ... 69). */
	for (int i = 0; i < 29; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "// @r%d\n// @end\n", i);
	ptx_regions rs;
	assert_int_equal(ptx_regions_scan(text, &rs), 5);
	assert_int_equal(rs.n, PTX_MAX_REGIONS);
	const ptx_region *r = ptx_regions_find(&rs, "outer");
	assert_ptr_equal(r, &rs.r[0]);
	assert_int_equal(r->first, 0);
	assert_int_equal(r->last, 6);
	r = ptx_regions_find(&rs, "inner");
	assert_non_null(r);
	assert_int_equal(r->first, 1);
	assert_int_equal(r->last, 3);
	assert_string_equal(rs.r[2].name, "outer");
	assert_int_equal(rs.r[2].first, 4);
	assert_int_equal(rs.r[2].last, 5);
	r = ptx_regions_find(&rs, "open");
	assert_non_null(r);
	assert_int_equal(r->first, 11);
	assert_int_equal(r->last, 69); /* the last line */
	r = ptx_regions_find(&rs, "r27");
	assert_non_null(r);
	assert_int_equal(r->first, 66);
	assert_int_equal(r->last, 67);
	assert_null(ptx_regions_find(&rs, "r28"));
	assert_null(ptx_regions_find(&rs, "notamarker"));
	static const struct {
		int line;
		const char *msg;
	} want[] = {
		{5, "region @outer is defined twice"},
		{8, "@end without an open region"},
		{9, "region name @a_name_that_is_f... is longer than 47 characters"},
		{69, "too many regions (at @r28): at most 32"},
		{12, "region @open has no @end"},
	};
	for (int i = 0; i < 5; i++) {
		assert_int_equal(rs.problem[i].line, want[i].line);
		assert_string_equal(rs.problem[i].msg, want[i].msg);
	}
	/* The document view reports the same answers as "line N: message". */
	ptx_doc d;
	char err[1024];
	assert_int_equal(ptx_load(&d, text, err, sizeof err), 5);
	assert_int_equal(d.nlines, 70);
	assert_non_null(strstr(err, "line 9: region name @a_name_that_is_f... is longer than 47 characters\n"));
	assert_non_null(strstr(err, "line 12: region @open has no @end\n"));
	assert_ptr_equal(ptx_region_find(&d, "inner"), &d.regions.r[1]);
	ptx_free(&d);
	/* Past PTX_MAX_PROBLEMS problems, the count goes on and the view says how many more. */
	char strays[256] = "";
	for (int i = 0; i < PTX_MAX_PROBLEMS + 3; i++)
		strcat(strays, "// @end\n");
	assert_int_equal(ptx_regions_scan(strays, &rs), PTX_MAX_PROBLEMS + 3);
	assert_int_equal(rs.problem[PTX_MAX_PROBLEMS - 1].line, PTX_MAX_PROBLEMS);
	assert_int_equal(ptx_load(&d, strays, err, sizeof err), PTX_MAX_PROBLEMS + 3);
	assert_non_null(strstr(err, "(3 more problems)"));
	ptx_free(&d);
}

static void test_shape(void **st)
{
	(void)st;
	char a[64], b[64], c[64];
	const char *x = "\tfma.rn.f32 %acc12, %a0, %b0, %acc12; // one";
	const char *y = "  fma.rn.f32   %acc3, %a7, %b7, %acc3;";
	const char *z = "\tadd.f32 %acc3, %a7, %b7;";
	ptx_shape(x, (int)strlen(x), a, sizeof a);
	ptx_shape(y, (int)strlen(y), b, sizeof b);
	ptx_shape(z, (int)strlen(z), c, sizeof c);
	assert_string_equal(a, "fma.rn.f# %acc#, %a#, %b#, %acc#;");
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
}

static void test_folds_and_view(void **st)
{
	(void)st;
	ptx_doc d;
	assert_int_equal(ptx_load(&d, sample, NULL, 0), 0);
	assert_int_equal(d.nfolds, 1);
	assert_int_equal(d.folds[0].first, 13);
	assert_int_equal(d.folds[0].n, 7);

	int all = ptx_view(&d, 0, -1, -1, NULL, 0);
	assert_int_equal(all, d.nlines);
	ptx_row rows[64];
	int n = ptx_view(&d, 1, -1, -1, rows, 64);
	/* 7 lines become 2 shown + a summary + the last: 3 rows fewer. */
	assert_int_equal(n, d.nlines - 3);
	assert_int_equal(rows[13].line, 13);
	assert_int_equal(rows[14].line, 14);
	assert_int_equal(rows[15].hidden, 4);
	assert_int_equal(rows[15].line, 15);
	assert_int_equal(rows[16].line, 19);
	assert_int_equal(rows[17].line, 20);
	/* A highlighted range inside the run keeps it open. */
	assert_int_equal(ptx_view(&d, 1, 16, 16, rows, 64), d.nlines);
	/* A range that covers the whole run folds it all the same. */
	assert_int_equal(ptx_view(&d, 1, 12, 21, rows, 64), d.nlines - 3);
	/* A range elsewhere does not. */
	assert_int_equal(ptx_view(&d, 1, 8, 11, rows, 64), d.nlines - 3);
	/* Truncation: never writes more than max. */
	assert_int_equal(ptx_view(&d, 0, -1, -1, rows, 5), 5);
	ptx_free(&d);
}

static void test_mix(void **st)
{
	(void)st;
	ptx_doc d;
	assert_int_equal(ptx_load(&d, sample, NULL, 0), 0);
	ptx_mix_entry m[16];
	int total = 0;
	int n = ptx_mix(&d, m, 16, &total);
	/* fma x7, ld.param, mov, bra, ld.global.v4, st.shared, ret. */
	assert_int_equal(total, 13);
	assert_int_equal(n, 7);
	assert_string_equal(m[0].op, "fma");
	assert_int_equal(m[0].count, 7);
	int seen = 0;
	for (int i = 0; i < n; i++) {
		seen += !strcmp(m[i].op, "ld.global.v4") && m[i].count == 1;
		seen += !strcmp(m[i].op, "st.shared") && m[i].count == 1;
		seen += !strcmp(m[i].op, "ld.param") && m[i].count == 1;
		seen += !strcmp(m[i].op, "bra") && m[i].count == 1;
	}
	assert_int_equal(seen, 4);
	ptx_free(&d);
}

/* A debug build (nvcc -G) says so in its .target; nothing else does. */
static void test_is_debug(void **state)
{
	(void)state;
	assert_true(ptx_is_debug(".version 9.0\n.target sm_90, debug\n.address_size 64\n"));
	assert_true(ptx_is_debug("//\n.target sm_90a,debug\n"));
	assert_true(ptx_is_debug(".target sm_90, texmode_independent, debug // -G\n"));
	assert_false(ptx_is_debug(".version 9.0\n.target sm_90\n// a debug build would say so\n"));
	assert_false(ptx_is_debug(".target sm_90 // debug\n"));
	assert_false(ptx_is_debug(".target sm_90, debugger\n"));
	assert_false(ptx_is_debug(NULL));
}

/* Static shared memory: every type's size, vectors, dimensions, alignment;
 * dynamic arrays, instructions and comments count nothing. The review of
 * 2026-11-27 found .u32/.f16 arrays counted as one byte an element. */
static void test_static_smem(void **state)
{
	(void)state;
	assert_int_equal(ptx_static_smem(".version 7.0\n.target sm_50\n.shared .align 16 .b8 a[2048];\n"
					 ".shared .align 16 .b8 b[2048];\n"), 4096);
	assert_int_equal(ptx_static_smem(".shared .u32 a[256]; .shared .f32 b[256];\n.shared .f16 c[256];"), 2560);
	assert_int_equal(ptx_static_smem(".shared .v4 .f32 a[2][8];\n\tld.shared.f32 %f1, [a];\n"
					 ".extern .shared .align 16 .b8 dyn[];\n// .shared .f32 x[9];\n/* .shared .b64 y[9]; */"),
			 256);
	/* a 2-byte variable, then an 8-byte one aligned to 8: 2 + 6 padding + 8 */
	assert_int_equal(ptx_static_smem(".shared .b16 h[1];\n.shared .b64 d[1];"), 16);
	assert_int_equal(ptx_static_smem(".entry k()\n{\n\t.shared .align 4 .b8 s[100];\n\tret;\n}"), 100);
	assert_int_equal(ptx_static_smem(".shared .b8 huge[4000000000][4000000000];"), INT_MAX);
	assert_int_equal(ptx_static_smem(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_block_comment_spans_lines),
		cmocka_unit_test(test_load_regions),
		cmocka_unit_test(test_region_problems),
		cmocka_unit_test(test_region_scanner),
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_folds_and_view),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_static_smem),
		cmocka_unit_test(test_is_debug),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
