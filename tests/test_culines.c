/* test_culines: the .file/.loc reader (course/ptxloc.c) and the emulator's errors as data, with the CUDA line nvcc recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "course/ptxloc.h"
#include "emu/emu.h"
#include "run/launch.h"

static const char *const MODULE =
	".version 8.0\n"                                           /* 1 */
	".target sm_80\n"                                          /* 2 */
	".address_size 64\n"                                       /* 3 */
	".visible .entry k(.param .u64 p)\n"                       /* 4 */
	"{\n"                                                      /* 5 */
	"\t.reg .b32 %r<4>;\n"                                     /* 6 */
	"\t.loc\t1 7 0\n"                                          /* 7 */
	"\tmov.u32 %r1, %tid.x;\n"                                 /* 8 */
	"\tmov.u32 %r2, %ntid.x;\n"                                /* 9 */
	"\t.loc\t2 3 73, function_name $L__info_string0, inlined_at 1 9 3\n" /* 10 */
	"\tadd.s32 %r3, %r1, %r2;\n"                               /* 11 */
	"\t.loc\t1 0 0\n"                                          /* 12: line 0, none */
	"\tret;\n"                                                 /* 13 */
	"}\n"                                                      /* 14 */
	"\tmov.u32 %r1, %tid.x;\n"                                 /* 15: after the function: none */
	"\t.file\t1 \"/nowhere/k.cu\"\n"                           /* 16 */
	"\t.file\t2 \"/nowhere/inc/twice.cuh\", 1700000000, 96\n"   /* 17 */
	"\t.loc\t9 5 0\n"                                          /* 18: no .file 9 */
	"\tnop;\n";                                                /* 19 */

static void test_loc_scan(void **state)
{
	(void)state;
	ptx_locs *l = ptx_locs_scan(MODULE);
	assert_non_null(l);
	assert_int_equal(l->nfiles, 2);
	const char *f = NULL;
	assert_int_equal(ptx_loc_of(l, 8, &f), 7);
	assert_string_equal(f, "/nowhere/k.cu");
	assert_int_equal(ptx_loc_of(l, 9, &f), 7);
	/* an inlined call: the callee's line, in its own file (the .file with a time and a size) */
	assert_int_equal(ptx_loc_of(l, 11, &f), 3);
	assert_string_equal(f, "/nowhere/inc/twice.cuh");
	assert_int_equal(ptx_loc_of(l, 13, NULL), 0);   /* .loc 1 0 0 */
	assert_int_equal(ptx_loc_of(l, 15, NULL), 0);   /* past the function's } */
	assert_int_equal(ptx_loc_of(l, 19, NULL), 0);   /* a file never declared */
	assert_int_equal(ptx_loc_of(l, 0, NULL), 0);
	assert_int_equal(ptx_loc_of(l, 999, NULL), 0);
	assert_int_equal(ptx_loc_of(NULL, 8, NULL), 0);
	ptx_locs_free(l);
	/* inlined from a header of the toolkit (wmma's mma.hpp): the student's line that called it */
	static const char toolkit[] =
		".visible .entry k()\n{\n"
		"\t.loc\t2 255 5, function_name $L__info_string0, inlined_at 1 18 3\n"
		"\tmov.u32 %r1, %tid.x;\n}\n"
		"\t.file\t1 \"/home/s/bf16.cu\"\n"
		"\t.file\t2 \"/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/mma.hpp\"\n";
	l = ptx_locs_scan(toolkit);
	assert_non_null(l);
	assert_int_equal(ptx_loc_of(l, 4, &f), 18);
	assert_string_equal(f, "/home/s/bf16.cu");
	ptx_locs_free(l);
	/* no .loc, or no .loc that names a declared file: nothing */
	assert_null(ptx_locs_scan(".version 8.0\n.entry k()\n{\n\tret;\n}\n"));
	assert_null(ptx_locs_scan("\t.loc 3 4 0\n\tret;\n"));
	assert_null(ptx_locs_scan(NULL));
	/* a .loc word inside another name is no directive */
	assert_null(ptx_locs_scan("\t.file 1 \"a.cu\"\n\t.locx 1 4 0\n\tret;\n"));
}

static void test_loc_source(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_culines_XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cu[256], ptx[256], found[256], line[64];
	snprintf(cu, sizeof cu, "%s/k.cu", dir);
	snprintf(ptx, sizeof ptx, "%s/k.ptx", dir);
	FILE *fp = fopen(cu, "w");
	assert_non_null(fp);
	fputs("// k\n\t  c[i] = a[i];  \n", fp);
	fclose(fp);
	/* where nvcc recorded it */
	assert_int_equal(ptx_loc_source(cu, ptx, found, sizeof found), 0);
	assert_string_equal(found, cu);
	/* moved: beside the PTX, by its name */
	assert_int_equal(ptx_loc_source("/elsewhere/k.cu", ptx, found, sizeof found), 0);
	assert_string_equal(found, cu);
	assert_int_equal(ptx_loc_source("/elsewhere/other.cu", ptx, found, sizeof found), -1);
	assert_int_equal(ptx_loc_source("", ptx, found, sizeof found), -1);
	assert_int_equal(ptx_loc_text_line("// k\n\t  c[i] = a[i];  \n", 2, line, sizeof line), 0);
	assert_string_equal(line, "c[i] = a[i];");
	assert_int_equal(ptx_loc_text_line("one\n", 3, line, sizeof line), -1);
	unlink(cu);
	rmdir(dir);
}

/* lines.cu's line that holds text. */
static int cu_line(const char *text)
{
	char path[1024];
	util_path(path, sizeof path, "tests/students/lines/lines.cu");
	char *t = util_read_file(path, NULL, NULL, 0);
	assert_non_null(t);
	const char *at = strstr(t, text);
	assert_non_null(at);
	int n = 1;
	for (const char *p = t; p < at; p++)
		n += *p == '\n';
	free(t);
	return n;
}

static emu_error run_entry(const char *entry, emu_result *res, char *err, int errlen)
{
	char path[1024];
	util_path(path, sizeof path, "tests/students/lines/lines.ptx");
	launch_ptx lp = {.ptx = path, .entry = entry, .grid = "N/16,M/16", .block = "16,16", .dtype = "f32", .M = 32, .N = 32, .K = 32};
	run_request rq;
	assert_int_equal(launch_request_for_ptx(&lp, &rq, err, errlen), 0);
	return emu_run(&rq, NULL, res, err, errlen);
}

/* A fault as data: the PTX file and line, the CUDA line above it with its
 * text (lines.cu beside the PTX: nvcc recorded a path that is gone), the
 * block and warp, the message alone; the text form is that, written. */
static void test_fault_as_data(void **state)
{
	(void)state;
	emu_result *res = xcalloc(1, sizeof *res);
	char err[2048], want[2048];
	assert_int_equal(run_entry("gemm_oob", res, err, sizeof err), EMU_ERR_FAULT);
	const run_error *e = &res->error;
	assert_non_null(strstr(e->path, "tests/students/lines/lines.ptx"));
	assert_true(e->line > 0);
	assert_int_equal(e->cu_line, cu_line("acc += A[(row + 1) * K + k]"));
	assert_non_null(strstr(e->cu_path, "tests/students/lines/lines.cu"));
	assert_string_equal(e->cu_text, "acc += A[(row + 1) * K + k] * B[k * N + col];");
	assert_int_equal(e->has_block, 1);
	assert_int_equal(e->block[0], 0);
	assert_int_equal(e->block[1], 1);
	assert_true(e->warp >= 0 && e->warp < 8);
	assert_string_equal(e->msg, "out-of-bounds global load of 4 bytes at A+4096 (buffer holds 4096 bytes)");
	run_error_text(e, want, sizeof want);
	assert_string_equal(err, want);
	/* a race, the same way */
	memset(res, 0, sizeof *res);
	assert_int_equal(run_entry("gemm_race", res, err, sizeof err), EMU_OK);
	assert_true(res->races > 0);
	assert_int_equal(res->race.cu_line, cu_line("tile[threadIdx.y][threadIdx.x] = B["));
	assert_true(res->race.line2 > 0);
	assert_int_equal(res->race.cu_line2, cu_line("acc += A[row * K + k0 + k] * tile[k][threadIdx.x];"));
	assert_int_equal(res->race.has_block, 1);
	assert_true(res->race.warp >= 0);
	assert_non_null(strstr(res->race.msg, "shared-memory race: warp"));
	run_error_text(&res->race, want, sizeof want);
	assert_string_equal(res->race_msg, want);
	free(res);
}

/* A parse error carries the CUDA line too, and a module without .loc none. */
static void test_parse_error_as_data(void **state)
{
	(void)state;
	const char *text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
			   "\t.loc 1 12 5\n\tfrobnicate.u32 %r1;\n\tret;\n}\n\t.file 1 \"/nowhere/k.cu\"\n";
	run_error e;
	emu_error why;
	assert_null(emu_module_parse_at("/x/k.ptx", text, NULL, &why, &e));
	assert_int_equal(why, EMU_ERR_UNSUPPORTED);
	assert_string_equal(e.path, "/x/k.ptx");
	assert_int_equal(e.line, 7);
	assert_int_equal(e.cu_line, 12);
	assert_string_equal(e.cu_path, "/nowhere/k.cu");
	assert_string_equal(e.cu_text, ""); /* not found: no text */
	assert_int_equal(e.has_block, 0);
	char line[1024];
	run_error_format(&e, line, sizeof line);
	assert_true(!strncmp(line, "k.cu:12: ", 9));
	assert_non_null(strstr(line, " (PTX line 7)"));
	/* the string API writes the same */
	char err[1024];
	assert_null(emu_module_parse("/x/k.ptx", text, NULL, err, sizeof err));
	assert_true(!strncmp(err, "/nowhere/k.cu:12: ", 18));
	/* without .loc, as before: the PTX line */
	const char *plain = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n";
	assert_null(emu_module_parse("/x/k.ptx", plain, NULL, err, sizeof err));
	assert_true(!strncmp(err, "/x/k.ptx:6: ", 12));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loc_scan),
		cmocka_unit_test(test_loc_source),
		cmocka_unit_test(test_fault_as_data),
		cmocka_unit_test(test_parse_error_as_data),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
