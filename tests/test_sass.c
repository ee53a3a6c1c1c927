/* test_sass: the .loc instrumentation (and ptxas accepting every lesson's copy when it is here), the nvdisasm/cuobjdump parsers on checked-in samples, grouping by PTX line, the counts, and the missing-tool line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "course/lesson.h"
#include "course/sass.h"
#include "course/sass_tools.h"

static const char *const kernel =
	".version 7.0\n"                                   /* 1 */
	".target sm_50\n"                                  /* 2 */
	".address_size 64\n"                               /* 3 */
	".file 3 \"old.cu\"\n"                             /* 4: nvcc's, commented out */
	".visible .entry demo(\n"                          /* 5 */
	"\t.param .u64 A)\n"                               /* 6 */
	"{\n"                                              /* 7 */
	"\t.reg .f32 %f<5>;\n"                             /* 8 */
	"\tld.param.u64 %rd1, [A];  // a; comment\n"       /* 9 */
	"LOOP:\n"                                          /* 10 */
	"\tld.global.v4.f32 {%f1, %f2,\n"                  /* 11: a statement over two lines */
	"\t\t%f3, %f4}, [%rd1];\n"                         /* 12 */
	"\t{\n"                                            /* 13: a block */
	"\t.loc 3 7 0\n"                                   /* 14: nvcc's, commented out */
	"\t/* a\n\t comment */ @%p1 bra LOOP;\n"           /* 15, 16 */
	"\t}\n"                                            /* 17 */
	"DONE: ret;\n"                                     /* 18 */
	"}\n";                                             /* 19 */

/* The .loc lines the copy carries, in order. */
static int locs_of(const char *text, int *lines, int max)
{
	int n = 0;
	for (const char *p = strstr(text, "\t.loc 1 "); p && n < max; p = strstr(p + 1, "\t.loc 1 "))
		lines[n++] = atoi(p + 8);
	return n;
}

static void test_instrument(void **state)
{
	(void)state;
	int n;
	char *out = sass_instrument(kernel, "k.ptx", &n);
	int lines[16], got = locs_of(out, lines, 16);
	/* The branch on line 16 starts inside a block comment: a .loc there would be commented out. */
	assert_int_equal(n, 3);
	assert_int_equal(got, 3);
	assert_int_equal(lines[0], 9);  /* ld.param */
	assert_int_equal(lines[1], 11); /* the vector load, once, before its first line */
	assert_int_equal(lines[2], 18); /* a label and an instruction on one line */
	assert_non_null(strstr(out, ".address_size 64\n.file 1 \"k.ptx\"\n"));
	assert_non_null(strstr(out, "// .file 3"));
	assert_non_null(strstr(out, "// \t.loc 3 7 0"));
	/* Nothing else changed: removing what was added gives the text back. */
	assert_null(strstr(out, ".loc 1 12 "));
	free(out);
}

static char *sample(const char *name)
{
	char rel[128], path[512];
	snprintf(rel, sizeof rel, "tests/data/sass/%s", name);
	util_path(path, sizeof path, rel);
	char *t = util_read_file(path, NULL, NULL, 0);
	assert_non_null(t);
	return t;
}

static void test_parse_nvdisasm(void **state)
{
	(void)state;
	char *t = sample("naive.nvdisasm"), err[200];
	sass_kernel k = {.regs = -1};
	assert_int_equal(sass_parse_disasm(t, "sgemm_naive", &k, err, sizeof err), 0);
	assert_int_equal(k.n, 14);
	assert_int_equal(k.regs, 28);
	assert_true(k.has_lines);
	assert_int_equal(k.ins[0].line, 0); /* before any line marker */
	assert_int_equal(k.ins[1].line, 45);
	assert_string_equal(k.ins[1].text, "S2R R0, SR_TID.X");
	assert_string_equal(k.ins[9].text, "@!P1 BRA `(.L_x_1)");
	assert_int_equal(k.ins[9].addr, 0x90);
	/* Grouped: line 81's two loads together, in address order, before line 82. */
	const sass_instr **o = sass_by_line(&k);
	assert_int_equal(o[3]->line, 59);
	assert_int_equal(o[4]->line, 81);
	assert_int_equal(o[4]->addr, 0x40);
	assert_int_equal(o[5]->line, 81);
	assert_int_equal(o[5]->addr, 0x70);
	assert_int_equal(o[6]->line, 82);
	free(o);
	sass_counts c;
	sass_count(&k, 0, 0, &c);
	assert_int_equal(c.total, 14);
	assert_int_equal(c.kind[SASS_FFMA], 2);
	assert_int_equal(c.kind[SASS_LDG], 3);
	assert_int_equal(c.kind[SASS_STG], 1);
	assert_int_equal(c.kind[SASS_REUSE], 1);
	assert_int_equal(c.kind[SASS_LDS], 0);
	sass_count(&k, 81, 83, &c); /* a region */
	assert_int_equal(c.total, 5);
	assert_int_equal(c.kind[SASS_FFMA], 2);
	/* The other function is kept apart, and a missing one is an error. */
	assert_int_equal(sass_parse_disasm(t, "other_kernel", &k, err, sizeof err), 0);
	assert_int_equal(k.n, 2);
	assert_int_equal(k.regs, 8);
	assert_int_equal(sass_parse_disasm(t, "sgemm", &k, err, sizeof err), -1);
	assert_non_null(strstr(err, "sgemm"));
	sass_kernel_free(&k);
	free(t);
}

static void test_parse_cuobjdump(void **state)
{
	(void)state;
	char *t = sample("naive.cuobjdump"), err[200];
	sass_kernel k = {.regs = -1};
	assert_int_equal(sass_parse_disasm(t, "sgemm_naive", &k, err, sizeof err), 0);
	assert_int_equal(k.n, 5); /* the encoding lines are no instructions */
	assert_false(k.has_lines);
	sass_counts c;
	sass_count(&k, 0, 0, &c);
	assert_int_equal(c.kind[SASS_LDS], 1);
	assert_int_equal(c.kind[SASS_LDS128], 1);
	sass_kernel_free(&k);
	free(t);
}

static void test_classify(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		sass_kind kind;
		int want;
	} cases[] = {
		{"LDS.U.128 R4, [R2]", SASS_LDS128, 1}, {"LDS.64 R4, [R2]", SASS_LDS128, 0},
		{"LDS R4, [R2]", SASS_LDS, 1},          {"LDSM.16.M88.4 R4, [R2]", SASS_LDS, 0},
		{"LDSM.16.M88.4 R4, [R2]", SASS_LDSM, 1}, {"@!P0 LDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64]", SASS_LDGSTS, 1},
		{"LDGSTS.E [R1], [R2.64]", SASS_LDG, 0}, {"HMMA.16816.F32 R4, R8, R12, R4", SASS_HMMA, 1},
		{"HGMMA.64x128x16.F32 R24, gdesc[UR4], R24", SASS_HGMMA, 1}, {"BAR.SYNC.DEFER_BLOCKING 0x0", SASS_BAR, 1},
		{"STL [R1], R2", SASS_STL, 1},          {"FFMA R1, R2.reuse, R3, R1", SASS_REUSE, 1},
		{"FFMA.FTZ R1, R2, R3, R1", SASS_FFMA, 1}, {"FFMA2 R1, R2, R3, R1", SASS_FFMA, 0},
		{"UTMALDG.2D [UR8], [UR4]", SASS_UTMALDG, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sass_counts c = {0};
		sass_count_instr(cases[i].text, &c);
		if (c.kind[cases[i].kind] != cases[i].want)
			fail_msg("'%s': %s %d, want %d", cases[i].text, sass_kind_name(cases[i].kind),
				 c.kind[cases[i].kind], cases[i].want);
		assert_int_equal(c.total, 1);
	}
}

static void test_ptxas_v(void **state)
{
	(void)state;
	char *t = sample("ptxas-v.txt");
	sass_kernel k = {.regs = -1, .stack = -1, .spill_stores = -1, .spill_loads = -1};
	sass_parse_ptxas_v(t, "other_kernel", &k);
	assert_int_equal(k.regs, 12);
	assert_int_equal(k.stack, 16);
	assert_int_equal(k.spill_stores, 4);
	assert_int_equal(k.spill_loads, 4);
	sass_parse_ptxas_v(t, "sgemm_naive", &k);
	assert_int_equal(k.regs, 28);
	assert_int_equal(k.stack, 0);
	free(t);
}

static void test_arch(void **state)
{
	(void)state;
	char arch[16];
	sass_arch_for(".target sm_90a\n", 9, 0, arch, sizeof arch);
	assert_string_equal(arch, "sm_90a");
	sass_arch_for(".target sm_80 // a comment\n", 9, 0, arch, sizeof arch);
	assert_string_equal(arch, "sm_90");
	sass_arch_for(".target sm_90a\n", 8, 0, arch, sizeof arch);
	assert_string_equal(arch, "sm_80");
}

/* Without the tools: one line that says what is needed and where to get it. */
static void test_missing_tool(void **state)
{
	(void)state;
	char path[512], err[512];
	setenv("PTXTUTOR_CUDA_BIN", "/nonexistent", 1);
	assert_int_equal(sass_find_tool("ptxas", path, sizeof path), -1);
	sass_kernel k;
	char ptx[512];
	util_path(ptx, sizeof ptx, "ptx/01_naive.ptx");
	assert_int_equal(sass_build(ptx, "sgemm_naive", "sm_90", &k, err, sizeof err), SASS_MISSING);
	assert_string_equal(err, sass_missing_line());
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "nvidia-cuda-toolkit"));
	unsetenv("PTXTUTOR_CUDA_BIN");
}

/* Every lesson's instrumented copy assembles with ptxas -lineinfo (skipped without ptxas). */
static void test_lessons_assemble(void **state)
{
	(void)state;
	char ptxas[512];
	if (sass_find_tool("ptxas", ptxas, sizeof ptxas) < 0)
		skip();
	course c;
	course_load(&c, NULL, 0);
	int tried = 0;
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		if (!l->ptx_path[0])
			continue;
		char path[512], arch[16], tmp[] = "/tmp/ptxtutor-test-XXXXXX";
		util_path(path, sizeof path, l->ptx_path);
		char *text = util_read_file(path, NULL, NULL, 0);
		assert_non_null(text);
		int n;
		char *inst = sass_instrument(text, path, &n);
		assert_true(n > 10);
		sass_arch_for(text, 9, 0, arch, sizeof arch);
		int fd = mkstemp(tmp);
		assert_true(fd >= 0);
		FILE *f = fdopen(fd, "w");
		fputs(inst, f);
		fclose(f);
		free(inst);
		free(text);
		char cmd[1200];
		snprintf(cmd, sizeof cmd, "'%s' -arch=%s -lineinfo -o /dev/null %s 2>&1", ptxas, arch, tmp);
		int rc = system(cmd);
		unlink(tmp);
		if (rc != 0)
			fail_msg("lesson %d: ptxas -lineinfo refused the instrumented copy of %s", l->number, l->ptx_path);
		tried++;
	}
	assert_true(tried >= 9);
	course_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instrument),     cmocka_unit_test(test_parse_nvdisasm),
		cmocka_unit_test(test_parse_cuobjdump), cmocka_unit_test(test_classify),
		cmocka_unit_test(test_ptxas_v),        cmocka_unit_test(test_arch),
		cmocka_unit_test(test_missing_tool),   cmocka_unit_test(test_lessons_assemble),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
