/* test_emu_local: local memory (ld/st.local, the depot through cvta.local and generic addresses, bounds, the resident limit, counts), vprintf's conversions and limits, __assertfail's message, and the GPU runner's capture of stdout. */
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
#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "gpu/runner.h"

/* Runs entry k of the module text on one block of `block` threads with one
 * u32 buffer `out` (words) as its only parameter; printf lines into *pf. */
static emu_error launch(const char *text, unsigned block, uint32_t *out, size_t words, run_printf *pf,
			emu_opcount **cnt_out, emu_module **mod_out, char *err, int errlen)
{
	emu_module *m = emu_module_parse("local.ptx", text, NULL, err, errlen);
	if (!m)
		fail_msg("%s", err);
	const emu_kernel *k = emu_find_kernel(m, "k");
	assert_non_null(k);
	uint8_t param[8];
	uint64_t a = 1ULL << EMU_GLOBAL_SHIFT;
	memcpy(param, &a, 8);
	emu_opcount *cnt = xcalloc((size_t)k->nops, sizeof *cnt);
	emu_launch L = {.k = k, .path = m->path, .param = param, .nbufs = 1, .cnt = cnt, .grid = {1, 1, 1},
			.block = {block, 1, 1}, .mod = m, .printed = pf};
	L.bufs[0] = (emu_buffer){(uint8_t *)out, words * 4};
	emu_error rc = emu_exec(&L, err, errlen);
	if (cnt_out)
		*cnt_out = cnt;
	else
		free(cnt);
	if (mod_out)
		*mod_out = m;
	else
		emu_module_free(m);
	return rc;
}

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* Each thread writes tid*10 + j into word j of an 8-word local array with
 * st.local (at the depot's address made generic and back: cvta.local,
 * cvta.to.local), then reads word (tid % 8) back through the generic address that
 * cvta.local makes of the depot (as -G builds do through %SP). */
static const char local_kernel[] = HEAD
	".visible .entry k(.param .u64 k_param_0)\n{\n"
	"\t.local .align 16 .b8 __local_depot0[32];\n\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
	"\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n\tcvta.to.local.u64 %rd0, %SP;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tmov.u32 %r1, %tid.x;\n\tmul.lo.u32 %r2, %r1, 10;\n"
	"\tmov.u32 %r3, 0;\n"
	"$L_fill:\n\tadd.u32 %r4, %r2, %r3;\n\tmul.wide.u32 %rd2, %r3, 4;\n\tadd.u64 %rd3, %rd0, %rd2;\n"
	"\tst.local.u32 [%rd3], %r4;\n\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, 8;\n\t@%p1 bra $L_fill;\n"
	"\trem.u32 %r5, %r1, 8;\n\tmul.wide.u32 %rd4, %r5, 4;\n\tadd.u64 %rd5, %SP, %rd4;\n\tld.u32 %r6, [%rd5];\n"
	"\tld.local.v4.u32 {%r4, %r5, %r3, %r7}, [%SPL+16];\n\tadd.u32 %r6, %r6, %r7;\n"
	"\tmul.wide.u32 %rd6, %r1, 4;\n\tadd.u64 %rd7, %rd1, %rd6;\n\tst.global.u32 [%rd7], %r6;\n\tret;\n}\n";

static void test_local_memory(void **st)
{
	(void)st;
	char err[512];
	uint32_t out[64];
	memset(out, 0, sizeof out);
	emu_opcount *cnt;
	emu_module *m;
	assert_int_equal(launch(local_kernel, 64, out, 64, NULL, &cnt, &m, err, sizeof err), EMU_OK);
	for (unsigned t = 0; t < 64; t++) /* word t % 8, plus word 7 from the .v4 at +16 */
		assert_int_equal(out[t], (t * 10 + t % 8) + (t * 10 + 7));
	const emu_kernel *k = emu_find_kernel(m, "k");
	assert_int_equal(k->local_bytes, 32);
	/* the counts: st.local 8 times a warp; the generic load of a local address is a local load too */
	for (int i = 0; i < k->nops; i++) {
		const emu_op *o = &k->ops[i];
		if (o->code == OP_ST && o->space == SP_LOCAL) {
			assert_int_equal(o->cls, EMU_CLS_ST_LOCAL);
			assert_int_equal(cnt[i].lrequests, 2 * 8);
			/* the same offset in every lane: 32 words interleaved, 128 bytes, 4 sectors */
			assert_int_equal(cnt[i].lsectors, 2 * 8 * 4);
		}
		if (o->code == OP_LD && o->space == SP_GENERIC) {
			assert_int_equal(cnt[i].lrequests, 2);
			assert_int_equal(cnt[i].requests, 0); /* no global request */
		}
		if (o->code == OP_LD && o->space == SP_LOCAL) /* .v4: 4 words, 4 sectors each */
			assert_int_equal(cnt[i].lsectors, 2 * 16);
	}
	free(cnt);
	emu_module_free(m);
}

static void test_local_bounds(void **st)
{
	(void)st;
	char err[512], text[4096];
	uint32_t out[32];
	/* one word past the 32 bytes of a thread: a fault that says so */
	util_strlcpy(text, local_kernel, sizeof text);
	char *at = strstr(text, "[%SPL+16]");
	assert_non_null(at);
	memcpy(at, "[%SPL+32]", 9);
	assert_int_equal(launch(text, 32, out, 32, NULL, NULL, NULL, err, sizeof err), EMU_ERR_FAULT);
	if (!strstr(err, "out-of-bounds local access of 16 bytes at offset 32 (a thread has 32 bytes of .local)"))
		fail_msg("%s", err);
	/* a misaligned one */
	memcpy(at, "[%SPL+4] ", 9);
	assert_int_equal(launch(text, 32, out, 32, NULL, NULL, NULL, err, sizeof err), EMU_ERR_FAULT);
	assert_non_null(strstr(err, "misaligned 16-byte local access at offset 4"));
}

/* Local memory counts against the resident limit: 512 KiB a thread x 1024 threads is 512 MiB. */
static void test_local_resident_limit(void **st)
{
	(void)st;
	char err[512], text[4096];
	uint32_t out[32];
	util_strlcpy(text, local_kernel, sizeof text);
	char *at = strstr(text, "__local_depot0[32]");
	assert_non_null(at);
	char big[sizeof text];
	snprintf(big, sizeof big, "%.*s__local_depot0[524288]%s", (int)(at - text), text, at + strlen("__local_depot0[32]"));
	assert_int_equal(launch(big, 1024, out, 32, NULL, NULL, NULL, err, sizeof err), EMU_ERR_BAD_REQUEST);
	if (!strstr(err, "524288 bytes of local memory a thread") || !strstr(err, "more than the emulator's limit"))
		fail_msg("%s", err);
	/* and more than a thread may have is refused by the parser */
	snprintf(big, sizeof big, "%.*s__local_depot0[524289]%s", (int)(at - text), text, at + strlen("__local_depot0[32]"));
	emu_module *m = emu_module_parse("local.ptx", big, NULL, err, sizeof err);
	assert_null(m);
	assert_non_null(strstr(err, "bad size of .local '__local_depot0'"));
}

/* ".global .align 1 .b8 NAME[n] = {...};" of a C string, terminator included. */
static void bytes_of(char *out, size_t n, const char *name, const char *s)
{
	int k = snprintf(out, n, ".global .align 1 .b8 %s[%zu] = {", name, strlen(s) + 1);
	for (const char *p = s;; p++) {
		k += snprintf(out + k, n - (size_t)k, "%d%s", (unsigned char)*p, *p ? ", " : "};\n");
		if (!*p)
			break;
	}
}

/* printf(fmt, ...) with the arguments nvcc packs into the depot: each at an
 * offset aligned to its size. Threads below `upto` print. */
static const char printf_body[] =
	".visible .entry k(.param .u64 k_param_0)\n{\n"
	"\t.local .align 16 .b8 __local_depot0[64];\n\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .f64 %fd<4>;\n\t.reg .b64 %rd<12>;\n"
	"\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n\tmov.u32 %r1, %tid.x;\n"
	"\tsetp.ge.u32 %p1, %r1, %UPTO;\n\t@%p1 bra $L_end;\n"
	"\tneg.s32 %r2, %r1;\n\tst.local.u32 [%SPL+0], %r2;\n"            /* %d: -tid */
	"\tst.local.u32 [%SPL+4], %r1;\n"                                  /* %u */
	"\tmov.f64 %fd1, 0d3FF8000000000000;\n\tst.local.f64 [%SPL+8], %fd1;\n" /* %f: 1.5 */
	"\tmov.u32 %r3, 255;\n\tst.local.u32 [%SPL+16], %r3;\n"            /* %x */
	"\tmov.u64 %rd1, $s;\n\tcvta.global.u64 %rd2, %rd1;\n\tst.local.u64 [%SPL+24], %rd2;\n" /* %s */
	"\tmov.u32 %r4, 65;\n\tst.local.u32 [%SPL+32], %r4;\n"             /* %c */
	"\tmov.u64 %rd3, -5;\n\tst.local.u64 [%SPL+40], %rd3;\n"           /* %lld */
	"\tmov.f64 %fd2, 0d40C3880000000000;\n\tst.local.f64 [%SPL+48], %fd2;\n" /* %e %g: 10000 */
	"\tst.local.f64 [%SPL+56], %fd2;\n"
	"\tmov.u64 %rd4, $fmt;\n\tcvta.global.u64 %rd5, %rd4;\n\tadd.u64 %rd6, %SP, 0;\n"
	"\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd5;\n\t.param .b64 param1;\n"
	"\tst.param.b64 [param1+0], %rd6;\n\t.param .b32 retval0;\n"
	"\tcall.uni (retval0), vprintf, (param0, param1);\n\tld.param.b32 %r5, [retval0+0];\n\t}\n"
	"$L_end:\n\tret;\n}\n";

static char *printf_kernel(const char *fmt, int upto)
{
	size_t n = 16384;
	char *t = xmalloc(n);
	int k = snprintf(t, n, HEAD ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n");
	bytes_of(t + k, n - (size_t)k, "$fmt", fmt);
	k = (int)strlen(t);
	bytes_of(t + k, n - (size_t)k, "$s", "hi");
	k = (int)strlen(t);
	char upto_s[16];
	snprintf(upto_s, sizeof upto_s, "%d", upto);
	const char *at = strstr(printf_body, "%UPTO");
	snprintf(t + k, n - (size_t)k, "%.*s%s%s", (int)(at - printf_body), printf_body, upto_s, at + 5);
	return t;
}

static void test_printf_conversions(void **st)
{
	(void)st;
	char err[512];
	uint32_t out[64];
	run_printf pf = {0};
	char *text = printf_kernel("d=%d u=%u f=%f x=%x s=%s c=%c lld=%lld e=%e g=%g 100%%\n", 2);
	assert_int_equal(launch(text, 64, out, 64, &pf, NULL, NULL, err, sizeof err), EMU_OK);
	assert_int_equal(pf.lines, 2);
	assert_int_equal(pf.dropped, 0);
	assert_string_equal(pf.text,
			    "[block 0,0,0 thread 0,0,0] d=0 u=0 f=1.500000 x=ff s=hi c=A lld=-5 e=1.000000e+04 g=10000 100%\n"
			    "[block 0,0,0 thread 1,0,0] d=-1 u=1 f=1.500000 x=ff s=hi c=A lld=-5 e=1.000000e+04 g=10000 100%\n");
	free(text);
	/* widths, precision, %i and %ld, two lines in one call, no newline at the end */
	memset(&pf, 0, sizeof pf);
	text = printf_kernel("[%5i|%-3u|%.2f|%08x]\nnext %ld", 1);
	assert_int_equal(launch(text, 32, out, 64, &pf, NULL, NULL, err, sizeof err), EMU_OK);
	/* %ld reads 8 bytes at offset 24 (the string's pointer: a number here) */
	assert_int_equal(pf.lines, 2);
	assert_non_null(strstr(pf.text, "[block 0,0,0 thread 0,0,0] [    0|0  |1.50|000000ff]\n[block 0,0,0 thread 0,0,0] next "));
	free(text);
	/* a conversion the emulator does not run is a fault, not a guess */
	text = printf_kernel("%n\n", 1);
	assert_int_equal(launch(text, 32, out, 64, &pf, NULL, NULL, err, sizeof err), EMU_ERR_FAULT);
	assert_non_null(strstr(err, "printf conversion '%n' is not one the emulator runs"));
	free(text);
	/* an argument past the buffer (the depot's 64 bytes) */
	text = printf_kernel("%f %f %f %f %f %f %f %f %f\n", 1);
	assert_int_equal(launch(text, 32, out, 64, &pf, NULL, NULL, err, sizeof err), EMU_ERR_FAULT);
	assert_non_null(strstr(err, "printf's argument 64 bytes into its buffer is outside it"));
	free(text);
}

/* The first RUN_PRINTF_LINES lines are kept, by block then thread; the rest counted. */
static void test_printf_limit(void **st)
{
	(void)st;
	char err[512];
	uint32_t out[256];
	run_printf pf = {0};
	char *text = printf_kernel("%d %u\n", 256);
	assert_int_equal(launch(text, 256, out, 256, &pf, NULL, NULL, err, sizeof err), EMU_OK);
	assert_int_equal(pf.lines, RUN_PRINTF_LINES);
	assert_int_equal(pf.dropped, 256 - RUN_PRINTF_LINES);
	assert_non_null(strstr(pf.text, "[block 0,0,0 thread 99,0,0] -99 99\n"));
	assert_null(strstr(pf.text, "thread 100,0,0"));
	/* in thread order: thread 31's line before thread 32's */
	assert_true(strstr(pf.text, "thread 31,0,0") < strstr(pf.text, "thread 32,0,0"));
	free(text);
}

/* nvcc's assert: the message, file, line and function from the PTX's
 * strings, the thread and block; a fault. printf lines before it are kept. */
static void test_assert_message(void **st)
{
	(void)st;
	char path[RUN_PATH], err[1024];
	util_path(path, sizeof path, "tests/students/local/assert.ptx");
	run_request rq = {.dt = DTYPE_F32, .grid = {2, 2, 1}, .block = {16, 16, 1}, .M = 32, .N = 32, .K = 32};
	util_strlcpy(rq.ptx_path, path, sizeof rq.ptx_path);
	util_strlcpy(rq.entry, "gemm_assert", sizeof rq.entry);
	emu_result *res = xcalloc(1, sizeof *res);
	assert_int_equal(emu_run(&rq, NULL, res, err, sizeof err), EMU_ERR_FAULT);
	if (!strstr(err, "assert.ptx:80: assert failed: row < M - 1 && \"row in range\" at assert.cu:7 in void "
			 "gemm_assert(const float *, const float *, float *, int, int, int) (thread 0,15,0) (block 0,1,0)"))
		fail_msg("%s", err);
	/* launched over rows 0..15 only, no row reaches M - 1: it runs (and C's
	 * rows 16..31, never written, fail the check) */
	rq.grid[1] = 1;
	assert_int_equal(emu_run(&rq, NULL, res, err, sizeof err), EMU_OK);
	assert_int_equal(res->verified, 0);
	free(res);
}

/* A printing kernel of the students' folder through emu_run: verified, the lines, local counts by kind. */
static void test_students_printf(void **st)
{
	(void)st;
	char path[RUN_PATH], err[1024];
	util_path(path, sizeof path, "tests/students/local/printf.ptx");
	run_request rq = {.dt = DTYPE_F32, .grid = {2, 2, 1}, .block = {16, 16, 1}, .M = 32, .N = 32, .K = 32};
	util_strlcpy(rq.ptx_path, path, sizeof rq.ptx_path);
	util_strlcpy(rq.entry, "gemm_printf", sizeof rq.entry);
	emu_result *res = xcalloc(1, sizeof *res);
	assert_int_equal(emu_run(&rq, NULL, res, err, sizeof err), EMU_OK);
	assert_int_equal(res->verified, 1);
	assert_int_equal(res->local_bytes, 48);
	assert_int_equal(res->printed.lines, 2);
	assert_non_null(strstr(res->printed.text, "[block 0,0,0 thread 1,0,0] row 0 col 1 acc "));
	assert_non_null(strstr(res->printed.text, " hex ff s=hi c=z ll=-5\n"));
	/* 2 threads: 6 local stores (one a .v2) of one lane each, no loads */
	assert_int_equal(res->total.lst.requests, 6);
	assert_int_equal(res->total.inst[EMU_CLS_ST_LOCAL], 6);
	assert_int_equal(res->total.lld.requests, 0);
	free(res);
}

/* The GPU runner's capture: what is written to stdout (stdio and fd 1) during
 * a run lands in the result, line by line, and not on stdout. */
static void test_stdout_capture(void **st)
{
	(void)st;
	run_printf pf = {0};
	runner_stdout c;
	runner_stdout_begin(&c);
	assert_true(c.saved >= 0);
	assert_int_equal(write(1, "raw\n", 4), 4);
	printf("from stdio %d\nlast", 7); /* buffered: the end flushes it, as the driver's writes */
	runner_stdout_end(&c, &pf);
	assert_int_equal(pf.lines, 3);
	assert_string_equal(pf.text, "raw\nfrom stdio 7\nlast\n");
	/* fd 1 is back: a second capture starts empty */
	memset(&pf, 0, sizeof pf);
	runner_stdout_begin(&c);
	runner_stdout_end(&c, &pf);
	assert_int_equal(pf.lines, 0);
	/* the first (checked) launch's lines are kept, the timed launches' repeats not */
	memset(&pf, 0, sizeof pf);
	runner_stdout_begin(&c);
	printf("first launch\n");
	runner_stdout_mark(&c);
	printf("first launch\nfirst launch\n");
	runner_stdout_end(&c, &pf);
	assert_int_equal(pf.lines, 1);
	assert_string_equal(pf.text, "first launch\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_local_memory),
		cmocka_unit_test(test_local_bounds),
		cmocka_unit_test(test_local_resident_limit),
		cmocka_unit_test(test_printf_conversions),
		cmocka_unit_test(test_printf_limit),
		cmocka_unit_test(test_assert_message),
		cmocka_unit_test(test_students_printf),
		cmocka_unit_test(test_stdout_capture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
