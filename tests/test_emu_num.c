/* test_emu_num: issue 39's numeric instructions bit by bit as the PTX ISA gives them: f64 arithmetic and conversions, bf16x2 arithmetic rounded once, dp4a and dp2a; and the forms refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"

/* One thread: the 64-bit inputs x, y, z at P[0], P[8], P[16] as %fd1..3
 * (f64) and their low 32 bits as %r1..3; the instruction; then its result
 * (%fd0 or %r0, stored as st) to P[24]. */
static const char kernel_fmt[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 P)\n{\n"
	"\t.reg .pred %%p<2>;\n\t.reg .b16 %%rs<2>;\n\t.reg .b32 %%r<4>;\n\t.reg .f32 %%f<4>;\n\t.reg .f64 %%fd<4>;\n\t.reg .b64 %%rd<2>;\n"
	"\tld.param.u64 %%rd1, [P];\n"
	"\tld.global.f64 %%fd1, [%%rd1];\n\tld.global.f64 %%fd2, [%%rd1+8];\n\tld.global.f64 %%fd3, [%%rd1+16];\n"
	"\tld.global.b32 %%r1, [%%rd1];\n\tld.global.b32 %%r2, [%%rd1+8];\n\tld.global.b32 %%r3, [%%rd1+16];\n"
	"\tmov.b32 %%f1, %%r1;\n"
	"\t%s;\n"
	"\tst.global.%s [%%rd1+24], %s;\n\tret;\n}\n";

/* Runs insn on x, y, z (bits); returns the bits stored. */
static uint64_t run3(const char *insn, const char *st, const char *dst, uint64_t x, uint64_t y, uint64_t z)
{
	static uint8_t buf[64];
	static emu_opcount cnt[32];
	char text[2048], err[256];
	snprintf(text, sizeof text, kernel_fmt, insn, st, dst);
	emu_module *m = emu_module_parse("num.ptx", text, NULL, err, sizeof err);
	if (!m)
		fail_msg("%s: %s", insn, err);
	assert_true(m->k[0].nops <= 32);
	memset(cnt, 0, sizeof cnt);
	memset(buf, 0, sizeof buf);
	memcpy(buf, &x, 8);
	memcpy(buf + 8, &y, 8);
	memcpy(buf + 16, &z, 8);
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	uint8_t param[8];
	memcpy(param, &p, 8);
	emu_launch L = {.k = &m->k[0], .path = "num.ptx", .grid = {1, 1, 1}, .block = {1, 1, 1},
			.param = param, .bufs = {{buf, sizeof buf}}, .nbufs = 1, .cnt = cnt};
	if (emu_exec(&L, err, sizeof err))
		fail_msg("%s: %s", insn, err);
	emu_module_free(m);
	uint64_t out = 0;
	memcpy(&out, buf + 24, 8);
	return out;
}

static uint64_t D(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

static double DV(uint64_t u)
{
	double d;
	memcpy(&d, &u, 8);
	return d;
}

#define F64(insn, x, y, z) run3(insn, "f64", "%fd0", D(x), D(y), D(z))
#define B32(insn, x, y, z) ((uint32_t)run3(insn, "b32", "%r0", x, y, z))

/* Parses a module with the one instruction; 0 when the emulator takes it. */
static int takes(const char *insn)
{
	char text[2048], err[256];
	snprintf(text, sizeof text, kernel_fmt, insn, "b32", "%r0");
	emu_module *m = emu_module_parse("num.ptx", text, NULL, err, sizeof err);
	if (!m)
		return -1;
	emu_module_free(m);
	return 0;
}

static void test_f64_arith(void **st)
{
	(void)st;
	/* 0.1 + 0.2 in double is 0.30000000000000004, not the f32 sum */
	assert_true(F64("add.rn.f64 %fd0, %fd1, %fd2", 0.1, 0.2, 0) == D(0.1 + 0.2));
	assert_true(F64("sub.f64 %fd0, %fd1, %fd2", 1.0, 1.0, 0) == D(0.0));
	assert_true(F64("mul.rn.f64 %fd0, %fd1, %fd2", 1e300, 1e10, 0) == D(INFINITY));
	/* fma rounds once: (1 + 2^-30)^2 - (1 + 2^-29) = 2^-60 exactly, 0 when rounded twice */
	double a = 1 + ldexp(1, -30);
	assert_true(F64("fma.rn.f64 %fd0, %fd1, %fd2, %fd3", a, a, -(1 + ldexp(1, -29))) == D(ldexp(1, -60)));
	assert_true(F64("mad.rn.f64 %fd0, %fd1, %fd2, %fd3", a, a, -(1 + ldexp(1, -29))) == D(ldexp(1, -60)));
	assert_true(F64("div.rn.f64 %fd0, %fd1, %fd2", 1.0, 3.0, 0) == D(1.0 / 3.0));
	assert_true(F64("div.rn.f64 %fd0, %fd1, %fd2", -1.0, 0.0, 0) == D(-INFINITY));
	assert_true(isnan(DV(F64("div.rn.f64 %fd0, %fd1, %fd2", 0.0, 0.0, 0))));
	assert_true(F64("rcp.rn.f64 %fd0, %fd1", 4.0, 0, 0) == D(0.25));
	assert_true(F64("rcp.approx.ftz.f64 %fd0, %fd1", -0.0, 0, 0) == D(-INFINITY));
	assert_true(F64("sqrt.rn.f64 %fd0, %fd1", 2.0, 0, 0) == D(sqrt(2.0)));
	assert_true(F64("sqrt.rn.f64 %fd0, %fd1", -0.0, 0, 0) == D(-0.0));
	assert_true(isnan(DV(F64("sqrt.rn.f64 %fd0, %fd1", -1.0, 0, 0))));
	/* neg and abs only flip or clear the sign bit: -0, and a NaN keeps its payload */
	assert_true(F64("neg.f64 %fd0, %fd1", 0.0, 0, 0) == D(-0.0));
	assert_true(run3("abs.f64 %fd0, %fd1", "f64", "%fd0", 0xfff0000000000001ULL, 0, 0) == 0x7ff0000000000001ULL);
	assert_true(F64("selp.f64 %fd0, %fd1, %fd2, %p1", 1.0, 2.0, 0) == D(2.0)); /* %p1 is 0 */
	assert_true(F64("mov.f64 %fd0, 0d3FF8000000000000", 0, 0, 0) == D(1.5));
}

/* add, sub, mul .rz .rm .rp of f64 (nvcc's round() is add.rz.f64): the exact result 1 + 2^-60 */
static void test_f64_directed(void **st)
{
	(void)st;
	const double t = 0x1p-60, up = 1 + 0x1p-52;
	assert_true(F64("add.rz.f64 %fd0, %fd1, %fd2", 1.0, t, 0) == D(1.0));
	assert_true(F64("add.rp.f64 %fd0, %fd1, %fd2", 1.0, t, 0) == D(up));
	assert_true(F64("add.rm.f64 %fd0, %fd1, %fd2", 1.0, t, 0) == D(1.0));
	assert_true(F64("add.rm.f64 %fd0, %fd1, %fd2", -1.0, -t, 0) == D(-up));
	assert_true(F64("add.rz.f64 %fd0, %fd1, %fd2", -1.0, -t, 0) == D(-1.0));
	assert_true(F64("sub.rz.f64 %fd0, %fd1, %fd2", up, t, 0) == D(1.0)); /* 1 + 2^-52 - 2^-60: below, toward 0 */
	assert_true(F64("sub.rp.f64 %fd0, %fd1, %fd2", up, t, 0) == D(up));
	/* (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104 */
	assert_true(F64("mul.rp.f64 %fd0, %fd1, %fd2", up, up, 0) == D(1 + 0x1.8p-51));
	assert_true(F64("mul.rz.f64 %fd0, %fd1, %fd2", up, up, 0) == D(1 + 0x1p-51));
	assert_true(F64("mul.rm.f64 %fd0, %fd1, %fd2", -up, up, 0) == D(-(1 + 0x1.8p-51)));
	/* exact results stay; an exact zero sum is -0 under .rm, +0 otherwise */
	assert_true(F64("add.rm.f64 %fd0, %fd1, %fd2", 3.0, -3.0, 0) == D(-0.0));
	assert_true(F64("add.rz.f64 %fd0, %fd1, %fd2", 3.0, -3.0, 0) == D(0.0));
	assert_true(F64("add.rm.f64 %fd0, %fd1, %fd2", 0.0, 0.0, 0) == D(0.0));
	assert_true(F64("add.rp.f64 %fd0, %fd1, %fd2", 0.5, 0.25, 0) == D(0.75));
	/* overflow: toward zero stops at the largest finite, away from it is inf */
	assert_true(F64("mul.rz.f64 %fd0, %fd1, %fd2", 1e300, 1e300, 0) == D(0x1.fffffffffffffp1023));
	assert_true(F64("mul.rm.f64 %fd0, %fd1, %fd2", 1e300, 1e300, 0) == D(0x1.fffffffffffffp1023));
	assert_true(F64("mul.rp.f64 %fd0, %fd1, %fd2", 1e300, 1e300, 0) == D(INFINITY));
	assert_true(F64("mul.rp.f64 %fd0, %fd1, %fd2", -1e300, 1e300, 0) == D(-0x1.fffffffffffffp1023));
	assert_true(F64("add.rz.f64 %fd0, %fd1, %fd2", INFINITY, 1.0, 0) == D(INFINITY));
}

static void test_f64_min_max_setp(void **st)
{
	(void)st;
	/* a NaN loses to a number; two NaNs give the canonical NaN; -0 < +0 */
	assert_true(F64("min.f64 %fd0, %fd1, %fd2", NAN, 2.0, 0) == D(2.0));
	assert_true(F64("max.f64 %fd0, %fd1, %fd2", 2.0, NAN, 0) == D(2.0));
	assert_true(F64("min.f64 %fd0, %fd1, %fd2", NAN, NAN, 0) == 0x7fffffffffffffffULL);
	assert_true(F64("min.f64 %fd0, %fd1, %fd2", 0.0, -0.0, 0) == D(-0.0));
	assert_true(F64("max.f64 %fd0, %fd1, %fd2", -0.0, 0.0, 0) == D(0.0));
	assert_true(F64("max.f64 %fd0, %fd1, %fd2", -3.0, -2.0, 0) == D(-2.0));
	/* setp.f64: ordered compares are false on NaN, unordered true */
	assert_int_equal(B32("setp.lt.f64 %p1, %fd1, %fd2;\n\tselp.b32 %r0, 1, 0, %p1", D(1.0), D(1.0 + 0x1p-52), 0), 1);
	assert_int_equal(B32("setp.lt.f64 %p1, %fd1, %fd2;\n\tselp.b32 %r0, 1, 0, %p1", D(NAN), D(1.0), 0), 0);
	assert_int_equal(B32("setp.ltu.f64 %p1, %fd1, %fd2;\n\tselp.b32 %r0, 1, 0, %p1", D(NAN), D(1.0), 0), 1);
	assert_int_equal(B32("setp.eq.f64 %p1, %fd1, %fd2;\n\tselp.b32 %r0, 1, 0, %p1", D(0.0), D(-0.0), 0), 1);
}

static void test_f64_cvt(void **st)
{
	(void)st;
	/* f64 -> f32 with each rounding: 1 + 2^-30 is between two floats */
	double a = 1 + ldexp(1, -30);
	assert_int_equal(B32("cvt.rn.f32.f64 %f2, %fd1;\n\tmov.b32 %r0, %f2", D(a), 0, 0), 0x3f800000);
	assert_int_equal(B32("cvt.rp.f32.f64 %f2, %fd1;\n\tmov.b32 %r0, %f2", D(a), 0, 0), 0x3f800001);
	assert_int_equal(B32("cvt.rz.f32.f64 %f2, %fd1;\n\tmov.b32 %r0, %f2", D(-a), 0, 0), 0xbf800000);
	assert_int_equal(B32("cvt.rm.f32.f64 %f2, %fd1;\n\tmov.b32 %r0, %f2", D(-a), 0, 0), 0xbf800001);
	assert_int_equal(B32("cvt.rn.f32.f64 %f2, %fd1;\n\tmov.b32 %r0, %f2", D(1e300), 0, 0), 0x7f800000);
	/* f32 -> f64 is exact */
	assert_true(F64("cvt.f64.f32 %fd0, %f1", 0, 0, 0) == D(0.0));
	assert_true(run3("cvt.f64.f32 %fd0, %f1", "f64", "%fd0", 0x3dcccccd, 0, 0) == D((double)0.1f));
	/* ints: .rn from s32 exact; to s32 .rzi truncates, .rni to even, saturating, NaN -> 0 */
	assert_true(run3("cvt.rn.f64.s32 %fd0, %r1", "f64", "%fd0", 0xffffffff, 0, 0) == D(-1.0));
	assert_true(run3("cvt.rn.f64.u32 %fd0, %r1", "f64", "%fd0", 0xffffffff, 0, 0) == D(4294967295.0));
	assert_int_equal(B32("cvt.rzi.s32.f64 %r0, %fd1", D(-2.7), 0, 0), (uint32_t)-2);
	assert_int_equal(B32("cvt.rni.s32.f64 %r0, %fd1", D(2.5), 0, 0), 2);
	assert_int_equal(B32("cvt.rni.s32.f64 %r0, %fd1", D(1e10), 0, 0), 0x7fffffff);
	assert_int_equal(B32("cvt.rmi.u32.f64 %r0, %fd1", D(-5.0), 0, 0), 0);
	assert_int_equal(B32("cvt.rzi.s32.f64 %r0, %fd1", D(NAN), 0, 0), 0);
	/* f64 -> f16 rounds once: 1 + 2^-11 + 2^-40 is above the tie, so up
	 * (through f32 it would be the tie 1 + 2^-11, rounded to even 1.0) */
	assert_int_equal(B32("cvt.rn.f16.f64 %rs0, %fd1;\n\tcvt.u32.u16 %r0, %rs0", D(1 + 0x1p-11 + 0x1p-40), 0, 0),
			 0x3c01);
}

/* bf16 bits of v (exact for the values used here). */
static uint32_t bf(float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	return u >> 16;
}

#define PAIR(hi, lo) ((uint64_t)bf(hi) << 16 | bf(lo))

static void test_bf16x2(void **st)
{
	(void)st;
	/* each half on its own: a in the upper half, b in the lower */
	assert_int_equal(B32("add.rn.bf16x2 %r0, %r1, %r2", PAIR(1, 2), PAIR(3, -5), 0), PAIR(4, -3));
	assert_int_equal(B32("sub.bf16x2 %r0, %r1, %r2", PAIR(1, 2), PAIR(3, -5), 0), PAIR(-2, 7));
	assert_int_equal(B32("mul.bf16x2 %r0, %r1, %r2", PAIR(1.5, -2), PAIR(3, 0.25), 0), PAIR(4.5, -0.5));
	/* rounding to 8 bits: (1 + 2^-7)(1 + 2^-7) = 1 + 2^-6 + 2^-14 -> 1 + 2^-6 */
	float a = 1 + 0x1p-7f;
	assert_int_equal(B32("mul.rn.bf16x2 %r0, %r1, %r2", PAIR(a, 1), PAIR(a, 1), 0), PAIR(1 + 0x1p-6f, 1));
	/* fma rounds once: 1 * (1 + 2^-7) + 2^-8 is a tie in bf16 (to even: 1 + 2^-6, odd
	 * 1 + 2^-7 rounds up), and with a product of 1 + 2^-14 more it goes up, not to
	 * the tie's even neighbour: a*b = (1+2^-7)^2 = 1 + 2^-6 + 2^-14, + (-2^-6) = 1 + 2^-14 -> 1 */
	assert_int_equal(B32("fma.rn.bf16x2 %r0, %r1, %r2, %r3", PAIR(a, 1), PAIR(a, 1), PAIR(-0x1p-6f, 0x1p-8f)),
			 PAIR(1, 1));
	/* (130/128)(160/128) = 1.26953125 is the tie between 162/128 (even) and
	 * 163/128; a tiny addend puts it above, so up. Rounded to f32 first, the
	 * addend would vanish and the tie go to even. Without it, to even. */
	assert_int_equal(B32("fma.rn.bf16x2 %r0, %r1, %r2, %r3", PAIR(1.015625f, 1.015625f), PAIR(1.25f, 1.25f),
			     PAIR(0x1p-60f, 0)), PAIR(163 / 128.0f, 162 / 128.0f));
	assert_int_equal(B32("fma.rn.bf16x2 %r0, %r1, %r2, %r3", PAIR(1.015625f, 1), PAIR(1.25f, 1), PAIR(-0x1p-60f, 0)),
			 PAIR(162 / 128.0f, 1));
	/* f16x2 too: (1 + 2^-9) * 1.25 is the tie between 0x3d02 (even) and 0x3d03;
	 * + 2^-24 (0x0001) it is above it. Through f32 the addend vanished. */
	assert_int_equal(B32("fma.rn.f16x2 %r0, %r1, %r2, %r3", 0x3c023c02, 0x3d003d00, 0x00010000), 0x3d033d02);
	/* overflow to inf; NaN results are the canonical 0x7fff */
	assert_int_equal(B32("add.bf16x2 %r0, %r1, %r2", PAIR(3e38f, 0), PAIR(3e38f, 0), 0), PAIR(INFINITY, 0));
	assert_int_equal(B32("fma.rn.bf16x2 %r0, %r1, %r2, %r3", PAIR(INFINITY, 1), PAIR(0, 1), 0) >> 16, 0x7fff);
	/* .relu: a negative result is +0, a NaN the canonical 0x7fff */
	assert_int_equal(B32("fma.rn.relu.bf16x2 %r0, %r1, %r2, %r3", PAIR(-2, 2), PAIR(3, 3), PAIR(1, 1)), PAIR(0, 7));
	assert_int_equal(B32("fma.rn.relu.bf16x2 %r0, %r1, %r2, %r3", PAIR(INFINITY, 1), PAIR(0, -1), 0), 0x7fff0000);
	/* -0 + -0 = -0; x - x = +0 */
	assert_int_equal(B32("add.bf16x2 %r0, %r1, %r2", 0x80008000, 0x80008000, 0), 0x80008000);
	assert_int_equal(B32("sub.bf16x2 %r0, %r1, %r2", PAIR(2, 3), PAIR(2, 3), 0), 0);
	/* bf16 subnormals are kept (no .ftz for bf16): 2^-130 * 2^-1 = 2^-131 */
	assert_int_equal(B32("mul.bf16x2 %r0, %r1, %r2", PAIR(0x1p-130f, 1), PAIR(0.5, 1), 0), PAIR(0x1p-131f, 1));
	/* neg and abs flip and clear both halves' signs, NaN payloads untouched */
	assert_int_equal(B32("neg.bf16x2 %r0, %r1", PAIR(1, -0.0f), 0, 0), PAIR(-1, 0));
	assert_int_equal(B32("abs.bf16x2 %r0, %r1", 0xffc1bf80, 0, 0), 0x7fc13f80);
	/* min and max: a NaN loses, -0 < +0; .NaN makes any NaN the canonical one */
	assert_int_equal(B32("min.bf16x2 %r0, %r1, %r2", PAIR(NAN, 0), PAIR(2, -0.0f), 0), PAIR(2, -0.0f));
	assert_int_equal(B32("max.bf16x2 %r0, %r1, %r2", PAIR(-1, -0.0f), PAIR(-3, 0), 0), PAIR(-1, 0));
	assert_int_equal(B32("min.NaN.bf16x2 %r0, %r1, %r2", PAIR(NAN, 1), PAIR(2, 3), 0), 0x7fff0000 | bf(1));
	/* cvt.rn.bf16x2.f32 d, a, b: a to the upper half */
	assert_int_equal(B32("mov.b32 %f2, %r2;\n\tcvt.rn.bf16x2.f32 %r0, %f1, %f2", 0x3f808000, 0x40000000, 0),
			 PAIR(1, 2));
}

static void test_dp(void **st)
{
	(void)st;
	/* bytes (low first) 1, 2, 3, 4 and 5, 6, 7, 8: 5 + 12 + 21 + 32 = 70, plus c */
	assert_int_equal(B32("dp4a.u32.u32 %r0, %r1, %r2, %r3", 0x04030201, 0x08070605, 1000), 1070);
	/* 0xff is -1 signed, 255 unsigned: each side by its own type */
	assert_int_equal(B32("dp4a.s32.s32 %r0, %r1, %r2, %r3", 0xffffffff, 0x01010101, 0), (uint32_t)-4);
	assert_int_equal(B32("dp4a.s32.u32 %r0, %r1, %r2, %r3", 0xffffffff, 0x01010101, 0), (uint32_t)-4);
	assert_int_equal(B32("dp4a.u32.s32 %r0, %r1, %r2, %r3", 0x01010101, 0xffffffff, 0), (uint32_t)-4);
	assert_int_equal(B32("dp4a.s32.u32 %r0, %r1, %r2, %r3", 0x01010101, 0xffffffff, 0), 1020);
	assert_int_equal(B32("dp4a.u32.u32 %r0, %r1, %r2, %r3", 0xffffffff, 0xffffffff, 0), 4 * 255 * 255);
	/* -128 * -128 four times = 65536; the accumulator wraps modulo 2^32, never saturates */
	assert_int_equal(B32("dp4a.s32.s32 %r0, %r1, %r2, %r3", 0x80808080, 0x80808080, 0x7fffffff),
			 (uint32_t)(0x7fffffffu + 65536u));
	assert_int_equal(B32("dp4a.s32.s32 %r0, %r1, %r2, 5", 0x00000003, 0x000000fe, 0), (uint32_t)(5 - 6));
	/* dp2a: a's 16-bit halves times b's bytes 0, 1 (.lo) or 2, 3 (.hi) */
	assert_int_equal(B32("dp2a.lo.u32.u32 %r0, %r1, %r2, %r3", 0x00030002, 0x0a0b0405, 7), 7 + 2 * 5 + 3 * 4);
	assert_int_equal(B32("dp2a.hi.u32.u32 %r0, %r1, %r2, %r3", 0x00030002, 0x0a0b0405, 7), 7 + 2 * 11 + 3 * 10);
	assert_int_equal(B32("dp2a.lo.s32.s32 %r0, %r1, %r2, %r3", 0x8000ffff, 0x000080ff, 0),
			 (uint32_t)(-1 * -1 + -32768 * -128));
	assert_int_equal(B32("dp2a.hi.u32.s32 %r0, %r1, %r2, %r3", 0xffff0001, 0xff020000, 0),
			 (uint32_t)(1 * 2 + 65535 * -1));
}

static void test_refused(void **st)
{
	(void)st;
	assert_int_equal(takes("add.rn.f64 %fd0, %fd1, %fd2"), 0);
	/* directed roundings: f64 add, sub, mul only; never computed as .rn */
	assert_int_equal(takes("add.rz.f64 %fd0, %fd1, %fd2"), 0);
	assert_int_equal(takes("add.rz.f32 %f2, %f1, %f1"), -1);
	assert_int_equal(takes("mul.rp.bf16x2 %r0, %r1, %r2"), -1);
	assert_int_equal(takes("fma.rm.f64 %fd0, %fd1, %fd2, %fd3"), -1);
	assert_int_equal(takes("div.rz.f64 %fd0, %fd1, %fd2"), -1);
	/* .relu is the 16-bit floats' */
	assert_int_equal(takes("fma.rn.relu.f32 %f2, %f1, %f1, %f1"), -1);
	assert_int_equal(takes("fma.rn.relu.f16x2 %r0, %r1, %r2, %r3"), 0);
	/* .NaN is bf16's here; f32 would ignore it */
	assert_int_equal(takes("min.NaN.f32 %f2, %f1, %f1"), -1);
	assert_int_equal(takes("min.NaN.s32 %r0, %r1, %r2"), -1);
	/* dp4a takes u32 and s32 only; dp2a needs .lo or .hi */
	assert_int_equal(takes("dp4a.s16.s32 %r0, %r1, %r2, %r3"), -1);
	assert_int_equal(takes("dp2a.u32.u32 %r0, %r1, %r2, %r3"), -1);
	assert_int_equal(takes("dp4a.s32.s32 %r0, %r1, %r2"), -1);
	/* ex2 and lg2 stay f32 */
	assert_int_equal(takes("ex2.approx.f64 %fd0, %fd1"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f64_arith),
		cmocka_unit_test(test_f64_directed),
		cmocka_unit_test(test_f64_min_max_setp),
		cmocka_unit_test(test_f64_cvt),
		cmocka_unit_test(test_bf16x2),
		cmocka_unit_test(test_dp),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
