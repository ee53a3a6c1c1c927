/* test_sass: the .loc instrumentation (and ptxas accepting every lesson's copy when it is here), the nvdisasm/cuobjdump parsers on checked-in samples, grouping by PTX line and the reverse, the counts, the figures behind {sass.*} (every one a lesson quotes is in the measured-data file; with nvdisasm, every row recomputed), and the missing-tool line. */
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
#include "course/ptx.h"
#include "course/sass_tools.h"
#include "model/measured.h"

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
	assert_false(k.ins[1].has_ctl); /* no encodings, no control bits: nothing to say */
	int *nlo, *nhi;
	char note[64];
	sass_loops_new(&k, &nlo, &nhi);
	assert_int_equal(sass_control_note(&k, nlo, nhi, 1, note, sizeof note), 0);
	free(nlo), free(nhi);
	/* the labels, and the loops their backward branches close */
	assert_int_equal(k.ins[4].label, 1);
	assert_int_equal(k.ins[12].label, 2);
	assert_int_equal(k.ins[5].label, -1);
	int lo[14], hi[14];
	sass_loops(&k, lo, hi);
	for (int i = 0; i < 14; i++) /* 4..9 the loop, 12 the trap's branch to itself, the rest none */
		if (lo[i] != (i >= 4 && i <= 9 ? 4 : i == 12 ? 12 : -1) || hi[i] != (i >= 4 && i <= 9 ? 9 : i == 12 ? 12 : -1))
			fail_msg("instruction %d: loop %d..%d", i, lo[i], hi[i]);
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

/* nvdisasm -g -hex, as the recordings have it: low_occ's tile loads (tests/heldout/low_occ.sass). The last
 * thirteen LDGs share scoreboard 5 and the STS of line 145, the first to wait on it, waits for them all. */
static void test_parse_control_bits(void **state)
{
	(void)state;
	char path[512], err[200];
	util_path(path, sizeof path, "tests/heldout/low_occ.sass");
	char *t = util_read_file(path, NULL, NULL, 0);
	assert_non_null(t);
	sass_kernel k = {.regs = -1};
	assert_int_equal(sass_parse_disasm(t, "heldout_low_occ", &k, err, sizeof err), 0);
	assert_int_equal(k.n, 480);
	int ldg5 = 0, sts145 = -1;
	for (int i = 0; i < k.n; i++) {
		assert_true(k.ins[i].has_ctl);
		if (sts145 < 0 && k.ins[i].line == 145 && !strncmp(k.ins[i].text, "STS", 3))
			sts145 = i;
	}
	assert_true(sts145 >= 40);
	for (int i = sts145 - 40; i < sts145; i++) /* the loop's tile loads before it */
		ldg5 += !strncmp(k.ins[i].text, "LDG", 3) && k.ins[i].wbar == 5;
	assert_int_equal(ldg5, 13);
	assert_int_equal(k.ins[sts145].wait, 1 << 5);
	assert_int_equal(k.ins[sts145].rbar, 0); /* its source registers' read */
	assert_int_equal(k.ins[sts145 + 1].wait, 0);
	/* said for a reader: the lines of the loads it waits for, the ones the STS sets */
	int *lo, *hi;
	char note[160];
	sass_loops_new(&k, &lo, &hi);
	assert_true(sass_control_note(&k, lo, hi, sts145, note, sizeof note) > 0);
	assert_string_equal(note, "waits sb5 <- 142 144 147 149 +9; sets sb0 on reading its registers");
	int len = sass_control_note(&k, lo, hi, sts145 + 1, note, sizeof note);
	assert_string_equal(note, "sets sb0 on reading its registers");
	assert_int_equal(len, (int)strlen(note));
	assert_int_equal(sass_control_note(&k, lo, hi, sts145 - 40, note, 8), 7); /* cut to the room */
	free(lo), free(hi);
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
	/* their control bits: S2R and LDS set scoreboard 0, the FFMA waits on it; LDC, FFMA no scoreboard */
	for (int i = 0; i < 5; i++)
		assert_true(k.ins[i].has_ctl);
	assert_int_equal(k.ins[0].wbar, 7);
	assert_int_equal(k.ins[1].wbar, 0);
	assert_int_equal(k.ins[2].wbar, 0);
	assert_int_equal(k.ins[2].rbar, 7);
	assert_int_equal(k.ins[3].wait, 1);
	assert_int_equal(k.ins[3].wbar, 7);
	assert_int_equal(k.ins[2].wait, 0);
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

/* Each of texts[0..n) is in the class f says (want 1) or not (want 0). */
static void each_is(int (*f)(const char *), const char *const *texts, size_t n, int want, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (!f(texts[i]) != !want)
			fail_msg("'%s' is %s%s", texts[i], want ? "" : "not ", what);
}

/* The INT pipe's opcodes, past a guard; the rest not (a debug build's fill, exec/stalls.c). */
static void test_alu(void **state)
{
	(void)state;
	const char *alu[] = {"MOV R16, R16", "@P0 IADD3 R1, R2, 0x1, RZ", "SHF.L.U64.HI R17, R16, 0x7, R17",
			     "IADD3.X R23, R23, R17, RZ, P0, !PT", "ISETP.LT.AND P0, PT, R21, 0x20, PT", "LEA R16, R17, R16, 0x18"};
	const char *other[] = {"LD.E R16, desc[UR4][R16.64]", "S2R R17, SR_CgaCtaId", "R2UR UR4, R14", "BRA 0xdb0",
			       "FMUL R16, R23, R16", "MOVM.16.MT88 R4, R4", "BAR.SYNC.DEFER_BLOCKING 0x0"};
	each_is(sass_alu, alu, sizeof alu / sizeof *alu, 1, "on the INT pipe");
	each_is(sass_alu, other, sizeof other / sizeof *other, 0, "on the INT pipe");
}

/* Loops inside loops: each instruction's innermost; a forward branch closes none. */
static void test_nested_loops(void **state)
{
	(void)state;
	const char *t = "\t.section\t.text.k,\"ax\",@progbits\n"
			".text.k:\n"
			"        /*0000*/                   MOV R1, RZ ;\n"
			".L_x_0:\n"
			"        /*0010*/                   LDG.E R2, desc[UR4][R4.64] ;\n"
			".L_x_7:\n"
			"        /*0020*/                   LDG.E R3, desc[UR4][R6.64] ;\n"
			"        /*0030*/              @P0 BRA `(.L_x_7) ;\n"
			"        /*0040*/              @P1 BRA `(.L_x_9) ;\n"
			"        /*0050*/              @P2 BRA `(.L_x_0) ;\n"
			".L_x_9:\n"
			"        /*0060*/                   EXIT ;\n";
	char err[200];
	sass_kernel k = {.regs = -1};
	assert_int_equal(sass_parse_disasm(t, "k", &k, err, sizeof err), 0);
	assert_int_equal(k.n, 7);
	int lo[7], hi[7], want_lo[7] = {-1, 1, 2, 2, 1, 1, -1}, want_hi[7] = {-1, 5, 3, 3, 5, 5, -1};
	sass_loops(&k, lo, hi);
	for (int i = 0; i < 7; i++)
		if (lo[i] != want_lo[i] || hi[i] != want_hi[i])
			fail_msg("instruction %d: loop %d..%d, not %d..%d", i, lo[i], hi[i], want_lo[i], want_hi[i]);
	sass_kernel_free(&k);
}

/* The LG queue's instructions: global and local loads and stores, cp.async's LDGSTS; not shared memory,
 * constants or generic accesses. */
static void test_lg(void **state)
{
	(void)state;
	const char *lg[] = {"LDG.E R4, desc[UR4][R2.64]", "@!P3 LDG.E.128 R4, desc[UR4][R2.64]", "STG.E desc[UR4][R2.64], R9",
			    "LDL R4, [R1+0x8]", "STL [R1], R4", "LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64]"};
	const char *other[] = {"LDS.U.128 R4, [R2]", "STS [R2], R4", "LDC R1, c[0x0][0x28]", "LD.E R16, desc[UR4][R16.64]",
			       "LDSM.16.M88.4 R4, [R2]", "FFMA R0, R9, R11, R0"};
	each_is(sass_lg, lg, sizeof lg / sizeof *lg, 1, "an LG instruction");
	each_is(sass_lg, other, sizeof other / sizeof *other, 0, "an LG instruction");
}

/* IMADs of every form (the FMA pipe's heavy half), and what touches memory (constants aside). */
static void test_imad_memory(void **state)
{
	(void)state;
	const char *imad[] = {"IMAD R5, R3, R4, R5", "IMAD.MOV.U32 R9, RZ, RZ, R15", "@P2 IMAD.WIDE.U32 R16, R3, 0x4, R12",
			      "IMAD.SHL.U32 R4, R4, 0x4, RZ", "IMAD.IADD R2, R2, 0x1, R3", "IMAD.X R15, RZ, RZ, R15, P3"};
	const char *not_imad[] = {"IADD3 R1, R2, 0x1, RZ", "IMNMX R1, R2, R3, PT", "FFMA R0, R9, R11, R0", "MOV R1, R2"};
	const char *mem[] = {"LDG.E R4, desc[UR4][R2.64]", "STS [R2], R4", "LDS.U.128 R4, [R2]", "LDL R4, [R1+0x8]",
			     "@P0 ATOMG.E.ADD.STRONG.GPU PT, R2, desc[UR4][R4.64], R6", "REDG.E.ADD.STRONG.GPU desc[UR4][R2.64], R5",
			     "LDSM.16.M88.4 R4, [R2]", "LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64]", "ST.E desc[UR4][R2.64], R5"};
	const char *not_mem[] = {"LDC R1, c[0x0][0x28]", "ISETP.EQ.AND P0, PT, R1, 0x2, PT", "MOV R1, R2", "BAR.SYNC.DEFER_BLOCKING 0x0"};
	each_is(sass_imad, imad, sizeof imad / sizeof *imad, 1, "an IMAD");
	each_is(sass_imad, not_imad, sizeof not_imad / sizeof *not_imad, 0, "an IMAD");
	each_is(sass_memory, mem, sizeof mem / sizeof *mem, 1, "a memory access");
	each_is(sass_memory, not_mem, sizeof not_mem / sizeof *not_mem, 0, "a memory access");
}

/* After a deferred barrier a warp issues arithmetic (lesson 3's SASS before its first LDG), not a
 * memory, control or barrier instruction. */
static void test_passes_bar(void **state)
{
	(void)state;
	const char *pass[] = {"LEA R2, P3, R9, R2, 0x2", "VIADD R16, R16, UR11", "CS2R R4, SRZ",
			      "UISETP.NE.U32.AND UP0, UPT, UR11, 0x20, UPT", "IMAD.WIDE.U32 R22, R21, 0x4, R22",
			      "FFMA R0, R9, R11, R0", "DFMA R2, R4, R6, R2", "@P2 IADD3 R6, P3, R6, 0x4, RZ"};
	const char *block[] = {"@P4 LDG.E R4, desc[UR12][R2.64]", "LDS.128 R4, [R2]", "LDC R1, c[0x0][0x28]",
			       "ULDC UR5, c[0x0][0x230]", "@!P0 BRA `(.L_x_1)", "BAR.SYNC.DEFER_BLOCKING 0x0",
			       "HMMA.16816.F32 R4, R8, R12, R4", "STS [R2], R4"};
	for (size_t i = 0; i < sizeof pass / sizeof *pass; i++)
		assert_true(sass_passes_bar(pass[i]));
	for (size_t i = 0; i < sizeof block / sizeof *block; i++)
		assert_false(sass_passes_bar(block[i]));
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
	char path[512], err[512], *was = getenv("PTXTUTOR_CUDA_BIN");
	was = was ? xstrdup(was) : NULL;
	setenv("PTXTUTOR_CUDA_BIN", "/nonexistent", 1);
	assert_int_equal(sass_find_tool("ptxas", path, sizeof path), -1);
	sass_kernel k;
	char ptx[512];
	util_path(ptx, sizeof ptx, "ptx/01_naive.ptx");
	assert_int_equal(sass_build(ptx, "sgemm_naive", "sm_90", &k, err, sizeof err), SASS_MISSING);
	assert_string_equal(err, sass_missing_line());
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "nvidia-cuda-toolkit"));
	/* What the caller set (stand-in tools) holds for the tests after this one. */
	if (was)
		setenv("PTXTUTOR_CUDA_BIN", was, 1);
	else
		unsetenv("PTXTUTOR_CUDA_BIN");
	free(was);
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

/* The figures: words, scopes, the kernel-only ones, the reverse map. */
static void test_figures(void **state)
{
	(void)state;
	char *t = sample("naive.nvdisasm"), err[200], key[64];
	sass_kernel k = {.regs = -1, .stack = 0, .spill_stores = 4, .spill_loads = 8};
	assert_int_equal(sass_parse_disasm(t, "sgemm_naive", &k, err, sizeof err), 0);
	sass_counts all, loop;
	sass_count(&k, 0, 0, &all);
	sass_count(&k, 81, 83, &loop);
	int v;
	assert_int_equal(sass_figure(&k, &all, 1, "instructions", &v), 0);
	assert_int_equal(v, 14);
	assert_int_equal(sass_figure(&k, &loop, 0, "LDG", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(sass_figure(&k, &loop, 0, "reuse", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(sass_figure(&k, &all, 1, "LDS128", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(sass_figure(&k, &all, 1, "registers", &v), 0);
	assert_int_equal(v, 28);
	assert_int_equal(sass_figure(&k, &all, 1, "spills", &v), 0);
	assert_int_equal(v, 12);
	/* Registers are the kernel's, not a region's; unknown words and spellings fail. */
	assert_int_equal(sass_figure(&k, &loop, 0, "registers", &v), -1);
	assert_int_equal(sass_figure(&k, &all, 1, "LDS.128", &v), -1);
	assert_int_equal(sass_figure(&k, &all, 1, "ffma", &v), -1);
	assert_int_equal(sass_figure(&k, &all, 1, "LDS12", &v), -1);
	assert_int_equal(sass_figure(&k, &all, 1, "", &v), -1);
	/* Every row word is a figure of the kernel. */
	int kernel_only;
	const char *unit, *w;
	for (int i = 0; (w = sass_row_word(i, &kernel_only, &unit)) != NULL; i++)
		if (sass_figure(&k, &all, 1, w, &v) < 0)
			fail_msg("row word %s is no figure", w);
	sass_scope_key("inner-loop", key, sizeof key);
	assert_string_equal(key, "inner_loop");
	sass_scope_key(NULL, key, sizeof key);
	assert_string_equal(key, "kernel");
	/* The reverse: line 81's instructions, in address order. */
	int idx[4];
	assert_int_equal(sass_of_line(&k, 81, idx, 4), 2);
	assert_int_equal(k.ins[idx[0]].addr, 0x40);
	assert_int_equal(k.ins[idx[1]].addr, 0x70);
	assert_int_equal(sass_of_line(&k, 82, idx, 4), 1);
	assert_int_equal(sass_of_line(&k, 500, idx, 4), 0);
	sass_kernel_free(&k);
	free(t);
}

static void reload_measured(void)
{
	char path[512], err[300];
	util_path(path, sizeof path, MEASURED_FILE);
	char *text = util_read_file(path, NULL, err, sizeof err);
	assert_non_null(text);
	assert_true(measured_parse(MEASURED_FILE, text, err, sizeof err) >= 0);
	free(text);
}

/* {sass.*} keys read rows of the measured-data file: lesson, scope, word. */
static void test_sass_keys(void **state)
{
	(void)state;
	const char *text = "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n"
			   "G\tptxas 13.0.88 + nvdisasm 13.0.88\t2026-01-01\tptxtutor sass 5 --rows\t5\t0\tsass.inner_loop.LDS128\t16\tcount\n"
			   "G\tptxas 13.0.88 + nvdisasm 13.0.88\t2026-01-01\tptxtutor sass 5 --rows\t5\t0\tsass.kernel.registers\t128\tregs\n"
			   "G\tptxas 13.0.88 + nvdisasm 13.0.88\t2026-01-01\tptxtutor sass 5 --rows\t5\t0\tsass.kernel.spills\t0\tB\n";
	char err[300], buf[64];
	assert_int_equal(measured_parse("t.tsv", text, err, sizeof err), 3);
	double v;
	assert_int_equal(measured_value(5, "sass.L5.inner_loop.LDS128", &v), 0);
	assert_true(v == 16);
	assert_int_equal(measured_value(5, "sass.inner_loop.LDS128", &v), 0); /* the lesson's own */
	assert_int_equal(measured_value(4, "sass.inner_loop.LDS128", &v), -1);
	measured_format(5, "sass.L5.inner_loop.LDS128", buf, sizeof buf);
	assert_string_equal(buf, "16");
	measured_format(0, "sass.L5.kernel.registers", buf, sizeof buf);
	assert_non_null(strstr(buf, "128"));
	measured_format(0, "sass.L5.kernel.HMMA", buf, sizeof buf);
	assert_string_equal(buf, "n/a");
	assert_true(measured_known("sass.L5.inner_loop.LDS128"));
	assert_true(measured_known("sass.kernel.reuse"));
	assert_false(measured_known("sass.L5.LDS128"));          /* no scope */
	assert_false(measured_known("sass.L5.inner-loop.LDS128")); /* '-' is '_' in a key */
	assert_false(measured_known("sass.L5.a.b.c"));
	/* A metric with capitals is a SASS figure's only. */
	assert_int_equal(measured_parse("t.tsv", "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n"
						 "G\t1\td\tc\t2\t4096\tMs\t1\tms\n", err, sizeof err), -1);
	reload_measured();
}

/* Calls f on each {sass.*} key in s. */
static void each_sass_key(const char *s, void (*f)(const char *key, void *ctx), void *ctx)
{
	for (const char *p = s ? strstr(s, "{sass.") : NULL; p; p = strstr(p + 1, "{sass.")) {
		size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
		char key[96];
		snprintf(key, sizeof key, "%.*s", (int)n, p + 1);
		f(key, ctx);
	}
}

typedef struct {
	const lesson *l;
	const ptx_regions *rs;
	int bad, seen;
} key_ctx;

/* A key a lesson quotes: a real scope of the kernel it names, a figure word, and a row. */
static void check_key(const char *key, void *vctx)
{
	key_ctx *c = vctx;
	c->seen++;
	int lesson = c->l->number;
	const char *p = key + 5;
	if (p[0] == 'L' && p[1] >= '0' && p[1] <= '9')
		lesson = (int)strtol(p + 1, (char **)&p, 10), p++;
	const char *dot = strchr(p, '.');
	double v;
	if (!measured_known(key) || !dot) {
		fprintf(stderr, "%s: {%s} is not a sass.[LN.]SCOPE.WORD key\n", c->l->path, key);
		c->bad++;
		return;
	}
	if (measured_value(c->l->number, key, &v) < 0) {
		fprintf(stderr, "%s: {%s}: no row in %s (scripts/gpu-sass.sh --rows prints them)\n", c->l->path, key,
			MEASURED_FILE);
		c->bad++;
	}
	/* The scope is checked against the lesson's own PTX where the key names it. */
	if (lesson == c->l->number && c->rs) {
		int ok = !strncmp(p, "kernel.", 7);
		for (int i = 0; i < c->rs->n && !ok; i++) {
			char sk[64];
			sass_scope_key(c->rs->r[i].name, sk, sizeof sk);
			ok = strlen(sk) == (size_t)(dot - p) && !strncmp(sk, p, strlen(sk));
		}
		if (!ok) {
			fprintf(stderr, "%s: {%s}: no region '%.*s' in %s\n", c->l->path, key, (int)(dot - p), p,
				c->l->ptx_path);
			c->bad++;
		}
	}
	sass_kernel k = {.regs = 1, .stack = 0, .spill_stores = 0, .spill_loads = 0};
	sass_counts cnt = {0};
	int iv;
	if (sass_figure(&k, &cnt, !strncmp(p, "kernel.", 7), dot + 1, &iv) < 0) {
		fprintf(stderr, "%s: {%s}: '%s' is no SASS figure of that scope\n", c->l->path, key, dot + 1);
		c->bad++;
	}
}

/* Every {sass.*} a lesson quotes names a region of its kernel and a figure,
 * and has its row in the measured-data file. */
static void test_lesson_sass_keys(void **state)
{
	(void)state;
	reload_measured();
	course c;
	course_load(&c, NULL, 0);
	int bad = 0;
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		ptx_regions rs = {0};
		char path[512];
		char *text = NULL;
		if (l->ptx_path[0]) {
			util_path(path, sizeof path, l->ptx_path);
			text = util_read_file(path, NULL, NULL, 0);
			ptx_regions_scan(text ? text : "", &rs);
		}
		key_ctx kc = {l, text ? &rs : NULL, 0, 0};
		for (int p = 0; p < l->npages; p++) {
			each_sass_key(l->pages[p].text, check_key, &kc);
			for (int e = 0; e < l->pages[p].nex; e++) {
				each_sass_key(l->pages[p].ex[e].question, check_key, &kc);
				each_sass_key(l->pages[p].ex[e].answer, check_key, &kc);
			}
		}
		bad += kc.bad;
		free(text);
	}
	course_free(&c);
	assert_int_equal(bad, 0);
}

/* With ptxas and nvdisasm here (the GPU machine): every SASS row of the
 * measured-data file recomputed from the lesson's PTX. A row made by other
 * tool versions (or by a driver's JIT) is left out and said: a new ptxas may
 * schedule differently, which is no error in the file. */
static void test_rows_recompute(void **state)
{
	(void)state;
	char path[512];
	if (sass_find_tool("ptxas", path, sizeof path) < 0 || sass_find_tool("nvdisasm", path, sizeof path) < 0) {
		fprintf(stderr, "skip: recomputing the SASS rows needs ptxas and nvdisasm (the GPU machine has both)\n");
		skip();
	}
	reload_measured();
	char here[128];
	snprintf(here, sizeof here, "ptxas %s + nvdisasm %s", sass_tool_version("ptxas"), sass_tool_version("nvdisasm"));
	course c;
	course_load(&c, NULL, 0);
	int checked = 0, other = 0, bad = 0;
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		if (!l->ptx_path[0])
			continue;
		sass_kernel k;
		ptx_regions rs = {0};
		int built = 0;
		measured_info r;
		for (int j = 0; measured_row(j, &r) == 0; j++) {
			if (r.lesson != l->number || strncmp(r.metric, "sass.", 5))
				continue;
			if (strcmp(r.driver, here)) {
				other++;
				continue;
			}
			if (!built) {
				char arch[16], err[512];
				util_path(path, sizeof path, l->ptx_path);
				char *text = util_read_file(path, NULL, NULL, 0);
				assert_non_null(text);
				sass_arch_for(text, 9, 0, arch, sizeof arch);
				ptx_regions_scan(text, &rs);
				free(text);
				if (sass_build(path, l->entry, arch, &k, err, sizeof err))
					fail_msg("lesson %d: %s", l->number, err);
				built = 1;
			}
			/* sass.SCOPE.WORD: the scope's lines, its counts, the figure. */
			char scope[64];
			const char *dot = strchr(r.metric + 5, '.');
			snprintf(scope, sizeof scope, "%.*s", (int)(dot - r.metric - 5), r.metric + 5);
			int first = 0, last = 0, found = !strcmp(scope, "kernel");
			for (int g = 0; g < rs.n && !found; g++) {
				char sk[64];
				sass_scope_key(rs.r[g].name, sk, sizeof sk);
				if (!strcmp(sk, scope))
					first = rs.r[g].first + 1, last = rs.r[g].last + 1, found = 1;
			}
			sass_counts cnt;
			sass_count(&k, first, last, &cnt);
			int v;
			if (!found || sass_figure(&k, &cnt, !first, dot + 1, &v) < 0 || v != (int)r.value) {
				fprintf(stderr, "lesson %d %s: file %g, now %d%s\n", l->number, r.metric, r.value,
					found ? v : -1, found ? "" : " (no such region)");
				bad++;
			}
			checked++;
		}
		if (built)
			sass_kernel_free(&k);
	}
	course_free(&c);
	fprintf(stderr, "SASS rows: %d recomputed with %s, %d made by other tools left out\n", checked, here, other);
	assert_int_equal(bad, 0);
	if (!checked)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instrument),     cmocka_unit_test(test_parse_nvdisasm),
		cmocka_unit_test(test_parse_cuobjdump), cmocka_unit_test(test_parse_control_bits), cmocka_unit_test(test_classify), cmocka_unit_test(test_alu),
		cmocka_unit_test(test_passes_bar),
		cmocka_unit_test(test_ptxas_v),        cmocka_unit_test(test_arch),
		cmocka_unit_test(test_missing_tool),   cmocka_unit_test(test_lessons_assemble),
		cmocka_unit_test(test_nested_loops),   cmocka_unit_test(test_lg),
		cmocka_unit_test(test_imad_memory),             cmocka_unit_test(test_figures),        cmocka_unit_test(test_sass_keys),
		cmocka_unit_test(test_lesson_sass_keys), cmocka_unit_test(test_rows_recompute),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
