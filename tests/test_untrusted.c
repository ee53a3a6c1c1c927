/* test_untrusted: one regression test per finding of the fuzzing campaign (issue 18) — the emulator as a sandbox, checked arithmetic, strict parsers, clean output. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/checked.h"
#include "base/expr.h"
#include "base/json.h"
#include "base/util.h"
#include "course/userptx.h"
#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "emu/emu_parser.h"
#include "model/model.h"

/* ---- helpers ---- */

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"
#define ENTRY ".visible .entry k(.param .u64 P, .param .u32 S)\n{\n"

/* One kernel run directly: a 64 KiB global buffer at P, S = 1, one block. */
typedef struct {
	uint8_t buf[65536];
	emu_opcount cnt[256];
	emu_error why;     /* of the parse, or of the run */
	int parsed;
	char err[512];
} run;

static emu_error run_text(run *r, const char *text, unsigned bx, unsigned by, unsigned smem_dynamic,
			  long long budget, double deadline_s)
{
	memset(r->cnt, 0, sizeof r->cnt);
	memset(r->buf, 0, sizeof r->buf);
	emu_module *m = emu_module_parse("t.ptx", text, &r->why, r->err, sizeof r->err);
	r->parsed = m != NULL;
	if (!m)
		return r->why;
	const emu_kernel *k = &m->k[0];
	assert_true(k->nops <= 256);
	uint8_t param[64] = {0};
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	uint32_t one = 1;
	memcpy(param, &p, 8);
	memcpy(param + 8, &one, 4);
	emu_launch L = {.k = k, .path = "t.ptx", .grid = {1, 1, 1}, .block = {bx, by, 1}, .smem_dynamic = smem_dynamic,
			.param = param, .bufs = {{r->buf, sizeof r->buf}}, .nbufs = 1, .cnt = r->cnt,
			.max_warp_inst = budget, .deadline = deadline_s > 0 ? util_now() + deadline_s : 0};
	r->why = emu_exec(&L, r->err, sizeof r->err);
	emu_module_free(m);
	return r->why;
}

static run *new_run(void)
{
	run *r = calloc(1, sizeof *r);
	assert_non_null(r);
	return r;
}

/* A kernel body after the header, with %p = P and a few registers. */
static emu_error body(run *r, const char *decls_and_code)
{
	char text[8192];
	snprintf(text, sizeof text,
		 HDR ENTRY "\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<8>;\n\t.reg .u64 %%p;\n"
			   "\tld.param.u64 %%p, [P];\n%s\n\tret;\n}\n",
		 decls_and_code);
	return run_text(r, text, 32, 1, 0, 0, 0);
}

static void expect(run *r, emu_error got, emu_error want, const char *needle)
{
	if (got != want || (needle && !strstr(r->err, needle)))
		fail_msg("got %d '%s', want %d with '%s'", got, r->err, want, needle ? needle : "");
}

static uint64_t u64_at(const run *r, size_t off)
{
	uint64_t v;
	memcpy(&v, r->buf + off, 8);
	return v;
}

/* ---- shared memory: the bounds check wrapped ---- */

static void test_shared_negative_offset(void **state)
{
	(void)state;
	run *r = new_run();
	/* a + 4 wrapped to 0 and then (uint32_t)a wrote 4 GB past the allocation */
	expect(r, body(r, "\t.shared .align 4 .b8 sh[64];\n\tst.shared.u32 [sh+-4], 7;"), EMU_ERR_FAULT,
	       "out-of-bounds shared access of 4 bytes at offset -4");
	expect(r, body(r, "\t.shared .align 4 .b8 sh[64];\n\tld.shared.u32 %r1, [sh+64];"), EMU_ERR_FAULT,
	       "out-of-bounds shared access");
	/* through a generic address into the shared window */
	expect(r, body(r, "\t.shared .align 4 .b8 sh[64];\n\tcvta.shared.u64 %rd1, sh;\n\tst.u32 [%rd1+64], 1;"),
	       EMU_ERR_FAULT, "out-of-bounds shared access");
	free(r);
}

static void test_ldmatrix_negative_offset(void **state)
{
	(void)state;
	run *r = new_run();
	expect(r, body(r, "\t.shared .align 16 .b8 sh[256];\n\tmov.u32 %r1, sh;\n"
			  "\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [%r1+-16];"),
	       EMU_ERR_FAULT, "out-of-bounds shared access of 16 bytes");
	free(r);
}

static void test_cpasync_negative_offset(void **state)
{
	(void)state;
	run *r = new_run();
	expect(r, body(r, "\t.shared .align 16 .b8 sh[64];\n\tcp.async.ca.shared.global [sh+-16], [%p], 16;\n"
			  "\tcp.async.wait_all;"),
	       EMU_ERR_FAULT, "out-of-bounds shared access of 16 bytes");
	free(r);
}

static void test_cpasync_param_name_is_no_address(void **state)
{
	(void)state;
	run *r = new_run();
	expect(r, body(r, "\t.shared .align 16 .b8 sh[64];\n\tcp.async.ca.shared.global [P+-32], [%p], 16;"),
	       EMU_ERR_PARSE, "not a parameter's name");
	expect(r, body(r, "\t.shared .align 16 .b8 sh[64];\n\tcp.async.ca.shared.global [sh], [P], 16;"), EMU_ERR_PARSE,
	       "not a parameter's name");
	expect(r, body(r, "\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [S];"), EMU_ERR_PARSE,
	       "not a parameter's name");
	free(r);
}

/* ---- cp.async src-size 0xffffffff was -1, then a 255-byte copy ---- */

static void test_cpasync_src_size_unsigned(void **state)
{
	(void)state;
	run *r = new_run();
	expect(r, body(r, "\t.shared .align 16 .b8 sh[64];\n\tmov.u32 %r1, 0xffffffff;\n"
			  "\tcp.async.ca.shared.global [sh], [%p], 16, %r1;\n\tcp.async.wait_all;"),
	       EMU_ERR_FAULT, "src-size 4294967295 exceeds the copy size 16");
	/* a legal src-size still zero-fills the rest */
	expect(r, body(r, "\t.shared .align 16 .b8 sh[64];\n\tcp.async.ca.shared.global [sh], [%p], 16, 4;\n"
			  "\tcp.async.wait_all;\n\tld.shared.u32 %r1, [sh+8];\n\tst.global.u32 [%p+64], %r1;"),
	       EMU_OK, NULL);
	assert_int_equal(r->buf[64], 0);
	free(r);
}

/* ---- vector register ranges: %v<N> is N vectors ---- */

static void test_vector_register_ranges(void **state)
{
	(void)state;
	run *r = new_run();
	/* %v1.x aliased %v0.x: both stores wrote 2 */
	expect(r, body(r, "\t.reg .v4 .b32 %v<2>;\n\tmov.b32 %v0.x, 1;\n\tmov.b32 %v1.x, 2;\n\tmov.b32 %v0.w, 3;\n"
			  "\tst.global.u32 [%p], %v0.x;\n\tst.global.u32 [%p+4], %v1.x;\n\tst.global.u32 [%p+8], %v0.w;"),
	       EMU_OK, NULL);
	assert_int_equal(r->buf[0], 1);
	assert_int_equal(r->buf[4], 2);
	assert_int_equal(r->buf[8], 3);
	/* one vector of four: all four registers exist (the file held one) */
	expect(r, body(r, "\t.reg .v4 .b32 %v<1>;\n\tmov.b32 %v0.w, 9;\n\tmov.b32 %v0.x, 8;\n"
			  "\tst.global.v4.b32 [%p+16], %v0;"),
	       EMU_OK, NULL);
	assert_int_equal(r->buf[16], 8);
	assert_int_equal(r->buf[28], 9);
	free(r);
}

/* ---- .shared and .param sizes: negative, huge, over-aligned ---- */

static void test_shared_sizes(void **state)
{
	(void)state;
	run *r = new_run();
	expect(r, body(r, "\t.shared .b8 sh[-16];"), EMU_ERR_PARSE, "bad size of .shared 'sh'");
	expect(r, body(r, "\t.shared .b32 sh[1073741824];"), EMU_ERR_PARSE, "bad size of .shared 'sh'");
	expect(r, body(r, "\t.shared .b32 sh[65536][65536];"), EMU_ERR_PARSE, "bad size of .shared");
	expect(r, body(r, "\t.shared .b32 a[40000];\n\t.shared .b32 b[40000];"), EMU_ERR_UNSUPPORTED,
	       "takes .shared past 233472 bytes");
	expect(r, body(r, "\t.shared .align 2147483647 .b8 sh[4];"), EMU_ERR_PARSE, "bad .align");
	expect(r, body(r, "\t.shared .align 3 .b8 sh[4];"), EMU_ERR_PARSE, "bad .align");
	free(r);
}

static void test_param_sizes(void **state)
{
	(void)state;
	run *r = new_run();
	const char *align = HDR ".visible .entry k(.param .u32 S, .param .align 2147483647 .b8 x[16])\n{\n\tret;\n}\n";
	expect(r, run_text(r, align, 32, 1, 0, 0, 0), EMU_ERR_PARSE, "bad .align in parameter 2");
	const char *neg = HDR ".visible .entry k(.param .b8 x[-9])\n{\n\tret;\n}\n";
	expect(r, run_text(r, neg, 32, 1, 0, 0, 0), EMU_ERR_PARSE, "bad array size in parameter 1");
	const char *big = HDR ".visible .entry k(.param .b8 x[32000], .param .b8 y[32000])\n{\n\tret;\n}\n";
	expect(r, run_text(r, big, 32, 1, 0, 0, 0), EMU_ERR_UNSUPPORTED, "more than 32764 bytes");
	/* ld.param stays inside the parameter it names */
	expect(r, body(r, "\tld.param.u32 %r1, [P+-4];"), EMU_ERR_PARSE, "outside 'P'");
	expect(r, body(r, "\tld.param.u64 %rd1, [S];"), EMU_ERR_PARSE, "outside 'S'");
	expect(r, body(r, "\tld.param.u32 %r1, [P+4];\n\tst.global.u32 [%p], %r1;"), EMU_OK, NULL);
	free(r);
}

/* ---- the interpreter's integer arithmetic: no trap, no undefined behaviour ---- */

static void test_div_rem_abs_min(void **state)
{
	(void)state;
	run *r = new_run();
	expect(r, body(r, "\tmov.b64 %rd1, 0x8000000000000000;\n"
			  "\tdiv.s64 %rd2, %rd1, -1;\n\trem.s64 %rd3, %rd1, -1;\n\tabs.s64 %rd4, %rd1;\n"
			  "\tmul.wide.s32 %rd5, -2147483648, -2147483648;\n"
			  "\tst.global.u64 [%p], %rd2;\n\tst.global.u64 [%p+8], %rd3;\n\tst.global.u64 [%p+16], %rd4;\n"
			  "\tst.global.u64 [%p+24], %rd5;"),
	       EMU_OK, NULL);
	assert_true(u64_at(r, 0) == 0x8000000000000000ULL); /* wraps, as the hardware */
	assert_true(u64_at(r, 8) == 0);
	assert_true(u64_at(r, 16) == 0x8000000000000000ULL);
	assert_true(u64_at(r, 24) == 0x4000000000000000ULL);
	free(r);
}

static void test_cvt_saturates(void **state)
{
	(void)state;
	run *r = new_run();
	/* 1e30 and -1e30 as f32 (0f7149F2CA, 0fF149F2CA) */
	expect(r, body(r, "\tcvt.rzi.s64.f32 %rd1, 0f7149F2CA;\n\tcvt.rzi.s64.f32 %rd2, 0fF149F2CA;\n"
			  "\tcvt.rzi.u64.f32 %rd3, 0f7149F2CA;\n\tcvt.rzi.s32.f32 %r1, 0f7149F2CA;\n"
			  "\tst.global.u64 [%p], %rd1;\n\tst.global.u64 [%p+8], %rd2;\n\tst.global.u64 [%p+16], %rd3;\n"
			  "\tst.global.u32 [%p+24], %r1;"),
	       EMU_OK, NULL);
	assert_true(u64_at(r, 0) == (uint64_t)INT64_MAX);
	assert_true(u64_at(r, 8) == (uint64_t)INT64_MIN);
	assert_true(u64_at(r, 16) == UINT64_MAX);
	uint32_t s32;
	memcpy(&s32, r->buf + 24, 4);
	assert_int_equal(s32, 0x7fffffff);
	free(r);
}

static void test_parse_int_limits(void **state)
{
	(void)state;
	int64_t v;
	assert_int_equal(emu_parse_int("-9223372036854775808", &v), 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(emu_parse_int("0xffffffffffffffff", &v), 0);
	assert_true(v == -1);
	assert_int_equal(emu_parse_int("-9223372036854775809", &v), -1);
	assert_int_equal(emu_parse_int("18446744073709551616", &v), -1); /* was clamped to 2^64 - 1 */
	assert_int_equal(emu_parse_int("0x", &v), -1);
	uint64_t bits;
	assert_int_equal(emu_parse_literal("0f3F800000", ET_F32, &bits), 0);
	assert_true(bits == 0x3f800000);
	assert_int_equal(emu_parse_literal("0fZZZZZZZZ", ET_F32, &bits), -1); /* was read as 0 */
	assert_int_equal(emu_parse_literal("0d3FF00000000000zz", ET_F64, &bits), -1);
}

/* ---- resource limits: refused with a message, never an abort ---- */

static void test_register_limit(void **state)
{
	(void)state;
	run *r = new_run();
	expect(r, body(r, "\t.reg .b32 %x<100000>;"), EMU_ERR_PARSE, "bad register range");
	expect(r, body(r, "\t.reg .b32 %x<5000>, %y<5000>;"), EMU_ERR_UNSUPPORTED, "more than 8192 registers");
	expect(r, body(r, "\t.reg .v4 .b32 %x<4000>;"), EMU_ERR_UNSUPPORTED, "more than 8192 registers");
	/* 65 names in one .reg were cut to 64, the last dropped */
	char decl[1024] = "\t.reg .b32 ";
	for (int i = 0; i < 65; i++)
		snprintf(decl + strlen(decl), sizeof decl - strlen(decl), "%s%%n%d", i ? ", " : "", i);
	strcat(decl, ";");
	expect(r, body(r, decl), EMU_ERR_UNSUPPORTED, "more than 64 names in one .reg");
	free(r);
}

static void test_param_count_limit(void **state)
{
	(void)state;
	run *r = new_run();
	char text[4096] = HDR ".visible .entry k(";
	for (int i = 0; i < 65; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "%s.param .u32 p%d", i ? ", " : "", i);
	strcat(text, ")\n{\n\tret;\n}\n");
	expect(r, run_text(r, text, 32, 1, 0, 0, 0), EMU_ERR_UNSUPPORTED, "more than 64 parameters");
	free(r);
}

static void test_launch_limits(void **state)
{
	(void)state;
	run *r = new_run();
	const char *empty = HDR ENTRY "\tret;\n}\n";
	/* 641 x 6700417 = 2^32 + 1 threads wrapped to one */
	expect(r, run_text(r, empty, 641, 6700417, 0, 0, 0), EMU_ERR_BAD_REQUEST, "bad launch shape");
	expect(r, run_text(r, empty, 32, 1, 2147483647u, 0, 0), EMU_ERR_BAD_REQUEST, "more than the emulator's 233472");
	expect(r, run_text(r, empty, 32, 33, 0, 0, 0), EMU_ERR_BAD_REQUEST, "at most 1024 threads");
	free(r);
}

/* A grid of many blocks of an empty kernel: set-up is charged to the budget
 * (10000 blocks of 32 warps: 320 thousand instructions fit a budget of 500
 * thousand; with a warp's set-up, at least one instruction, 640 thousand do
 * not). Ten times smaller than the 3.2 million in 5 million it was, the same
 * ratio: the emulator stops after about 7800 blocks, not 78000 (4 s). */
static void test_block_setup_is_budgeted(void **state)
{
	(void)state;
	char err[256];
	emu_module *m = emu_module_parse("t.ptx", HDR ENTRY "\tret;\n}\n", NULL, err, sizeof err);
	assert_non_null(m);
	emu_opcount cnt[4] = {{0}};
	uint8_t param[16] = {0};
	emu_launch L = {.k = &m->k[0], .path = "t.ptx", .grid = {10000, 1, 1}, .block = {1024, 1, 1},
			.param = param, .max_warp_inst = 500000, .cnt = cnt};
	assert_int_equal(emu_exec(&L, err, sizeof err), EMU_ERR_BUDGET);
	emu_module_free(m);
}

static void test_wall_clock_deadline(void **state)
{
	(void)state;
	run *r = new_run();
	const char *spin = HDR ENTRY "L:\n\tbra L;\n}\n";
	double t0 = util_now();
	expect(r, run_text(r, spin, 32, 1, 0, 1000000000000LL, 0.2), EMU_ERR_DEADLINE, "wall-clock deadline");
	assert_true(util_now() - t0 < 5);
	free(r);
}

/* Copies issued in a loop and never waited for: refused before memory runs out. */
static void test_cpasync_pending_limit(void **state)
{
	(void)state;
	run *r = new_run();
	const char *loop = HDR ENTRY "\t.reg .u64 %p;\n\t.shared .align 16 .b8 sh[64];\n\tld.param.u64 %p, [P];\n"
			   "L:\n\tcp.async.ca.shared.global [sh], [%p], 16;\n\tbra L;\n}\n";
	expect(r, run_text(r, loop, 32, 1, 0, 100000000, 0), EMU_ERR_FAULT, "cp.async copies of one warp outstanding");
	free(r);
}

/* ---- expressions: checked, never a trap ---- */

static void test_expr_overflow(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"(-9223372036854775807-1)/-1", /* SIGFPE */
		"99999999999999999999",        /* digit accumulation */
		"9223372036854775807+1", "-9223372036854775807-2", "3037000500*3037000500",
		"-(-9223372036854775807-1)", "ceil(9223372036854775807/2)*3", "x", "1/0", "1%0",
	};
	expr_env env = {0};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		long long v = 12345;
		char err[128] = "";
		if (expr_eval(bad[i], &env, &v, err, sizeof err) != -1)
			fail_msg("'%s' gave %lld", bad[i], v);
		assert_true(err[0] != 0);
		assert_true(v == 12345);
	}
	long long v;
	char err[128];
	assert_int_equal(expr_eval("(-9223372036854775807-1)%-1", &env, &v, err, sizeof err), 0);
	assert_true(v == 0);
	assert_int_equal(expr_eval("-9223372036854775807-1", &env, &v, err, sizeof err), 0);
	assert_true(v == LLONG_MIN);
}

static void test_expr_depth(void **state)
{
	(void)state;
	char deep[20000];
	size_t n = 0;
	for (int i = 0; i < 5000; i++)
		deep[n++] = '(';
	deep[n++] = '1';
	for (int i = 0; i < 5000; i++)
		deep[n++] = ')';
	deep[n] = 0;
	long long v;
	char err[128];
	assert_int_equal(expr_eval(deep, NULL, &v, err, sizeof err), -1);
	assert_non_null(strstr(err, "nested"));
	memset(deep, '-', 10000);
	strcpy(deep + 10000, "1");
	assert_int_equal(expr_eval(deep, NULL, &v, err, sizeof err), -1);
	assert_int_equal(expr_eval("((((1))))", NULL, &v, err, sizeof err), 0);
	assert_int_equal(v, 1);
}

/* ---- parameters: one check with ranges (show 8 --set PAD=-100 indexed per_bank[-4]) ---- */

static void test_param_ranges(void **state)
{
	(void)state;
	lesson *l = calloc(1, sizeof *l);
	assert_non_null(l);
	strcpy(l->id, "mma");
	strcpy(l->params[0].name, "PAD");
	strcpy(l->params[1].name, "BM");
	l->params[1].value = 128;
	l->nparams = 2;
	char err[256];
	expr_env ov = {0};
	assert_int_equal(model_check_params(l, &ov, err, sizeof err), 0);
	expr_set(&ov, "PAD", -100);
	assert_int_equal(model_check_params(l, &ov, err, sizeof err), -1);
	assert_string_equal(err, "PAD=-100 is out of range (PAD is 0..256)");
	expr_set(&ov, "PAD", 8);
	expr_set(&ov, "BM", LLONG_MAX); /* an overflowing what-if */
	assert_int_equal(model_check_params(l, &ov, err, sizeof err), -1);
	assert_non_null(strstr(err, "BM=9223372036854775807 is out of range (BM is 1..4096)"));
	expr_env none = {0};
	l->params[1].value = 0; /* a lesson's own value is checked too */
	assert_int_equal(model_check_params(l, &none, err, sizeof err), -1);
	assert_non_null(strstr(err, "lesson mma: BM=0 is out of range"));
	free(l);
}

/* ---- the rest ---- */

static void test_checked_helpers(void **state)
{
	(void)state;
	assert_true(ck_within(0, 4, 4));
	assert_false(ck_within(1, 4, 4));
	assert_false(ck_within((uint64_t)-4, 4, 64)); /* -4 + 4 wraps to 0 */
	assert_false(ck_within(0, 5, 4));
	int64_t v;
	assert_int_equal(ck_align_up_i64(5, 4, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(ck_align_up_i64(INT64_MAX - 1, 16, &v), -1);
	assert_int_equal(ck_align_up_i64(4, 3, &v), -1);
	assert_int_equal(ck_div_i64(INT64_MIN, -1, &v), -1);
	assert_int_equal(ck_mod_i64(INT64_MIN, -1, &v), 0);
	assert_int_equal(v, 0);
}

static void test_json_invalid_utf8(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer w;
	json_begin(&w, f);
	w.pretty = 0;
	/* a stray byte, a truncated sequence, an overlong '/', a surrogate, DEL; then valid é and 😀 */
	json_str(&w, NULL, "a\xff" "b\xc3" "c\xc0\xaf" "d\xed\xa0\x80" "e\x7f" "\xc3\xa9\xf0\x9f\x98\x80");
	json_finish(&w);
	fclose(f);
	assert_string_equal(buf, "\"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffde\\u007f\xc3\xa9\xf0\x9f\x98\x80\"\n");
	free(buf);
}

static void test_userptx_huge_line_numbers(void **state)
{
	(void)state;
	userptx_mark marks[4];
	/* the line number overflowed an int */
	int n = userptx_marks("ptxas application ptx input, line 99999999999999999999; error   : x\n"
			      "ptxas application ptx input, line 99999999999; error   : x\n"
			      "ptxas application ptx input, line 12; error   : fine\n",
			      marks, 4);
	assert_int_equal(n, 1);
	assert_int_equal(marks[0].line, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_negative_offset),
		cmocka_unit_test(test_ldmatrix_negative_offset),
		cmocka_unit_test(test_cpasync_negative_offset),
		cmocka_unit_test(test_cpasync_param_name_is_no_address),
		cmocka_unit_test(test_cpasync_src_size_unsigned),
		cmocka_unit_test(test_vector_register_ranges),
		cmocka_unit_test(test_shared_sizes),
		cmocka_unit_test(test_param_sizes),
		cmocka_unit_test(test_div_rem_abs_min),
		cmocka_unit_test(test_cvt_saturates),
		cmocka_unit_test(test_parse_int_limits),
		cmocka_unit_test(test_register_limit),
		cmocka_unit_test(test_param_count_limit),
		cmocka_unit_test(test_launch_limits),
		cmocka_unit_test(test_block_setup_is_budgeted),
		cmocka_unit_test(test_wall_clock_deadline),
		cmocka_unit_test(test_cpasync_pending_limit),
		cmocka_unit_test(test_expr_overflow),
		cmocka_unit_test(test_expr_depth),
		cmocka_unit_test(test_param_ranges),
		cmocka_unit_test(test_checked_helpers),
		cmocka_unit_test(test_json_invalid_utf8),
		cmocka_unit_test(test_userptx_huge_line_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
