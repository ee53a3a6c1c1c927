/* test_fpconv: f32 -> TF32, bf16, f16, e4m3 and e5m2 and back against bit patterns worked by hand (ties, saturation, NaN, subnormals, -0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base/fpconv.h"
#include "base/util.h"

/* Each expected value below is written as bits, with the arithmetic that
 * gives it in the comment; none is computed by the code under test. */

#define TF32(x, r, sat) fpconv_f32_to_tf32(fpconv_bits_f32(x), r, sat)
#define E4M3(f) fpconv_f32_to_fp8(f, FPCONV_E4M3, 1)
#define E5M2(f) fpconv_f32_to_fp8(f, FPCONV_E5M2, 1)

/* tf32 keeps sign, 8 exponent bits and the top 10 mantissa bits: the f32's
 * low 13 bits go, and a tie is low 13 bits == 0x1000. */
static void test_tf32(void **st)
{
	(void)st;
	for (int r = FPCONV_RN; r <= FPCONV_RNA; r++) {
		assert_int_equal(TF32(0x3f800000, r, 0), 0x3f800000); /* 1.0 exact */
		assert_int_equal(TF32(0x3f800fff, r, 0), 0x3f800000); /* just below the tie: down */
		assert_int_equal(TF32(0x3f801001, r, 0), 0x3f802000); /* just above: up one unit (bit 13) */
		assert_int_equal(TF32(0x3f803000, r, 0), 0x3f804000); /* tie, kept LSB odd: up either way */
		assert_int_equal(TF32(0x7f7fe000, r, 0), 0x7f7fe000); /* largest finite tf32 */
		assert_int_equal(TF32(0x7f7fefff, r, 0), 0x7f7fe000); /* 0xfff < 0x1000: down */
		/* f32 max: low 13 bits 0x1fff round up, the mantissa carries into
		 * the exponent: 0x7f800000 = inf; .satfinite keeps 0x7f7fe000 */
		assert_int_equal(TF32(0x7f7fffff, r, 0), 0x7f800000);
		assert_int_equal(TF32(0x7f7fffff, r, 1), 0x7f7fe000);
		assert_int_equal(TF32(0x7f800000, r, 0), 0x7f800000); /* inf stays inf */
		assert_int_equal(TF32(0xff800000, r, 1), 0xff7fe000); /* -inf, satfinite: -max */
		assert_int_equal(TF32(0x7fc00000, r, 0), 0x7fc00000); /* quiet NaN */
		assert_int_equal(TF32(0xffc00000, r, 1), 0xffc00000); /* -NaN stays NaN under satfinite */
		/* NaN whose payload is only in the dropped bits: truncating would
		 * give 0x7f800000 (inf); it must stay a NaN, the quiet bit set */
		assert_int_equal(TF32(0x7f800001, r, 0), 0x7fc00000);
		assert_int_equal(TF32(0x80000000, r, 0), 0x80000000); /* -0 */
		/* subnormal input: 0x00012345's low 13 bits 0x0345 < 0x1000 */
		assert_int_equal(TF32(0x00012345, r, 0), 0x00012000);
		/* subnormal just above a tie: the smallest tf32 subnormal, 2^-136 */
		assert_int_equal(TF32(0x00001001, r, 0), 0x00002000);
		/* largest subnormals, tie with kept 0x3ff odd: up into the smallest normal */
		assert_int_equal(TF32(0x007ff000, r, 0), 0x00800000);
	}
	/* the ties where the modes differ: kept part 0x3f800 (bit 13 = 0) is even */
	assert_int_equal(TF32(0x3f801000, FPCONV_RN, 0), 0x3f800000);  /* to even: down */
	assert_int_equal(TF32(0x3f801000, FPCONV_RNA, 0), 0x3f802000); /* away from 0: up */
	assert_int_equal(TF32(0xbf801000, FPCONV_RN, 0), 0xbf800000);  /* -(1 + 2^-11) */
	assert_int_equal(TF32(0xbf801000, FPCONV_RNA, 0), 0xbf802000); /* away: to -(1 + 2^-10) */
	/* subnormal tie 0x00001000 = half of 2^-136: to even 0, away 2^-136 */
	assert_int_equal(TF32(0x00001000, FPCONV_RN, 0), 0x00000000);
	assert_int_equal(TF32(0x00001000, FPCONV_RNA, 0), 0x00002000);
}

/* bf16 is the top 16 bits of the f32; a tie is low 16 bits == 0x8000. */
static void test_bf16(void **st)
{
	(void)st;
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x3f800000)), 0x3f80); /* 1.0 */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x3f808000)), 0x3f80); /* tie, 0x3f80 even: down */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x3f818000)), 0x3f82); /* tie, 0x3f81 odd: up */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x3f807fff)), 0x3f80); /* below the tie */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x3f808001)), 0x3f81); /* above the tie */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x7f7f0000)), 0x7f7f); /* largest finite bf16 */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x7f7f7fff)), 0x7f7f);
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x7f7f8000)), 0x7f80); /* tie, odd: up, carry = inf */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x7f7fffff)), 0x7f80); /* f32 max overflows to inf */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0xff800000)), 0xff80); /* -inf */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x7fc00000)), 0x7fc0); /* NaN */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x7f800001)), 0x7fc0); /* payload below 16 bits: still NaN */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0xffc00000)), 0xffc0);
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x00012345)), 0x0001); /* subnormal in and out, 0x2345 < 0x8000 */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x00008000)), 0x0000); /* subnormal tie to even 0 */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x00018000)), 0x0002); /* subnormal tie, 1 odd: 2 */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x80000000)), 0x8000); /* -0 */
	assert_true(fpconv_f32_bits(util_bf16_to_f32(0x3f81)) == 0x3f810000);
}

/* f16: 5 exponent bits (bias 15), 10 mantissa bits. */
static void test_f16(void **st)
{
	(void)st;
	assert_int_equal(util_f32_to_f16(1.0f), 0x3c00);
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x3f801000)), 0x3c00); /* 1 + 2^-11: tie, 0x3c00 even */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x3f803000)), 0x3c02); /* 1 + 3*2^-11: tie, 0x3c01 odd */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x3f800fff)), 0x3c00); /* below the tie */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x3f801001)), 0x3c01); /* above the tie */
	assert_int_equal(util_f32_to_f16(65504.0f), 0x7bff);       /* largest finite: 1.1111111111b * 2^15 */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x477fefff)), 0x7bff); /* 65519.99...: below the tie */
	assert_int_equal(util_f32_to_f16(65520.0f), 0x7c00);       /* tie 65504/65536, odd: up to inf */
	assert_int_equal(util_f32_to_f16(-1e5f), 0xfc00);          /* overflow: -inf (no satfinite) */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x7fc00000)), 0x7e00); /* NaN: 0x7c00 | quiet 0x200 */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x7f800001)), 0x7e00); /* payload below 13 bits: still NaN */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x33800000)), 0x0001); /* 2^-24: smallest subnormal */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x33000000)), 0x0000); /* 2^-25: tie to even 0 */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x33000001)), 0x0001); /* just above 2^-25 */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x33c00000)), 0x0002); /* 3*2^-25: tie, 1 odd: 2 */
	assert_int_equal(util_f32_to_f16(fpconv_bits_f32(0x80000001)), 0x8000); /* subnormal f32 in: -0 */
	assert_int_equal(util_f32_to_f16(-0.0f), 0x8000);
}

/* e4m3: bias 7, 3 mantissa bits, 1.0 = 0.0111.000 = 0x38; .satfinite. */
static void test_e4m3(void **st)
{
	(void)st;
	assert_int_equal(E4M3(1.0f), 0x38);
	assert_int_equal(E4M3(-2.0f), 0xc0);     /* 1.1000.000 */
	assert_int_equal(E4M3(1.0625f), 0x38);   /* 1 + 1/16: tie 0x38/0x39, to even */
	assert_int_equal(E4M3(1.1875f), 0x3a);   /* 1 + 3/16: tie 0x39/0x3a, to even */
	assert_int_equal(E4M3(fpconv_bits_f32(0x3f87ffff)), 0x38); /* just below 1.0625 */
	assert_int_equal(E4M3(fpconv_bits_f32(0x3f880001)), 0x39); /* just above */
	assert_int_equal(E4M3(448.0f), 0x7e);    /* largest finite: 1.110b * 2^8 = 0.1111.110 */
	assert_int_equal(E4M3(464.0f), 0x7e);    /* tie 448/480 (480 would be 0x7f, NaN): even 0x7e */
	assert_int_equal(E4M3(500.0f), 0x7e);    /* satfinite: above max -> max */
	assert_int_equal(E4M3(-1e30f), 0xfe);
	assert_int_equal(E4M3(INFINITY), 0x7e);  /* satfinite clamps inf too */
	assert_int_equal(E4M3(-INFINITY), 0xfe);
	assert_int_equal(E4M3(fpconv_bits_f32(0x7fc00000)), 0x7f); /* NaN: S.1111.111 */
	assert_int_equal(E4M3(fpconv_bits_f32(0xffc00000)), 0xff);
	assert_int_equal(E4M3(ldexpf(1, -9)), 0x01);  /* smallest subnormal 2^-9 */
	assert_int_equal(E4M3(ldexpf(1, -10)), 0x00); /* tie 0 / 2^-9: even 0 */
	assert_int_equal(E4M3(ldexpf(3, -10)), 0x02); /* tie 1 / 2 (x 2^-9): even 2 */
	assert_int_equal(E4M3(ldexpf(7, -9)), 0x07);  /* largest subnormal */
	assert_int_equal(E4M3(ldexpf(15, -10)), 0x08); /* tie 7 / 8: even, the smallest normal 2^-6 */
	assert_int_equal(E4M3(fpconv_bits_f32(0x00000001)), 0x00); /* subnormal f32 in */
	assert_int_equal(E4M3(fpconv_bits_f32(0x80000001)), 0x80);
	assert_int_equal(E4M3(-0.0f), 0x80);
	/* without satfinite (OCP's non-saturating mode; PTX's f32 form has none):
	 * e4m3 has no inf, so an overflow is NaN */
	assert_int_equal(fpconv_f32_to_fp8(500.0f, FPCONV_E4M3, 0), 0x7f);
	assert_int_equal(fpconv_f32_to_fp8(-INFINITY, FPCONV_E4M3, 0), 0xff);
	assert_int_equal(fpconv_f32_to_fp8(464.0f, FPCONV_E4M3, 0), 0x7e);
}

/* e5m2: bias 15, 2 mantissa bits, 1.0 = 0.01111.00 = 0x3c; inf 0x7c. */
static void test_e5m2(void **st)
{
	(void)st;
	assert_int_equal(E5M2(1.0f), 0x3c);
	assert_int_equal(E5M2(1.125f), 0x3c);    /* 1 + 1/8: tie 0x3c/0x3d, even */
	assert_int_equal(E5M2(1.375f), 0x3e);    /* 1 + 3/8: tie 0x3d/0x3e, even */
	assert_int_equal(E5M2(fpconv_bits_f32(0x3f8fffff)), 0x3c); /* just below 1.125 */
	assert_int_equal(E5M2(fpconv_bits_f32(0x3f900001)), 0x3d); /* just above */
	assert_int_equal(E5M2(57344.0f), 0x7b);  /* largest finite: 1.11b * 2^15 = 0.11110.11 */
	assert_int_equal(E5M2(61440.0f), 0x7b);  /* tie 57344/65536: satfinite keeps max */
	assert_int_equal(E5M2(INFINITY), 0x7b);
	assert_int_equal(E5M2(-INFINITY), 0xfb);
	assert_int_equal(fpconv_f32_to_fp8(61440.0f, FPCONV_E5M2, 0), 0x7c); /* no satfinite: tie, odd -> inf */
	assert_int_equal(fpconv_f32_to_fp8(60000.0f, FPCONV_E5M2, 0), 0x7b); /* below the tie */
	assert_int_equal(fpconv_f32_to_fp8(-INFINITY, FPCONV_E5M2, 0), 0xfc);
	assert_int_equal(E5M2(fpconv_bits_f32(0x7fc00000)), 0x7e); /* quiet NaN 0.11111.10 */
	assert_int_equal(E5M2(fpconv_bits_f32(0x7fa00000)), 0x7f); /* payload's second bit kept: 0.11111.11 */
	assert_int_equal(E5M2(fpconv_bits_f32(0xffc00000)), 0xfe);
	assert_int_equal(E5M2(ldexpf(1, -16)), 0x01); /* smallest subnormal 2^-16 */
	assert_int_equal(E5M2(ldexpf(1, -17)), 0x00); /* tie: even 0 */
	assert_int_equal(E5M2(ldexpf(3, -17)), 0x02); /* tie 1/2: even 2 */
	assert_int_equal(E5M2(-0.0f), 0x80);
}

/* 8-bit floats back to f32 and f16: exact. */
static void test_fp8_decode(void **st)
{
	(void)st;
	assert_true(fpconv_fp8_to_f32(0x38, FPCONV_E4M3) == 1.0f);
	assert_true(fpconv_fp8_to_f32(0x7e, FPCONV_E4M3) == 448.0f);
	assert_true(fpconv_fp8_to_f32(0x01, FPCONV_E4M3) == ldexpf(1, -9));
	assert_true(fpconv_fp8_to_f32(0x07, FPCONV_E4M3) == ldexpf(7, -9));
	assert_true(fpconv_f32_bits(fpconv_fp8_to_f32(0x80, FPCONV_E4M3)) == 0x80000000); /* -0 */
	assert_true(isnan(fpconv_fp8_to_f32(0x7f, FPCONV_E4M3)));
	assert_true(isnan(fpconv_fp8_to_f32(0xff, FPCONV_E4M3)));
	assert_true(fpconv_fp8_to_f32(0x78, FPCONV_E4M3) == 256.0f); /* 0.1111.000: e4m3 has no inf */
	assert_true(fpconv_fp8_to_f32(0x7b, FPCONV_E5M2) == 57344.0f);
	assert_true(fpconv_fp8_to_f32(0xfc, FPCONV_E5M2) == -INFINITY);
	assert_true(isnan(fpconv_fp8_to_f32(0x7d, FPCONV_E5M2)));
	assert_true(fpconv_fp8_to_f32(0x01, FPCONV_E5M2) == ldexpf(1, -16));
	/* f16 bits: 448 = 1.11b * 2^8 -> exponent 8+15 = 10111, mantissa 11 -> 0x5f00;
	 * 2^-9 is an f16 normal: exponent 6 -> 0x1800 */
	assert_int_equal(fpconv_fp8_to_f16(0x38, FPCONV_E4M3), 0x3c00);
	assert_int_equal(fpconv_fp8_to_f16(0x7e, FPCONV_E4M3), 0x5f00);
	assert_int_equal(fpconv_fp8_to_f16(0x01, FPCONV_E4M3), 0x1800);
	assert_int_equal(fpconv_fp8_to_f16(0xc0, FPCONV_E4M3), 0xc000);
	assert_int_equal(fpconv_fp8_to_f16(0x80, FPCONV_E4M3), 0x8000);
	assert_int_equal(fpconv_fp8_to_f16(0xff, FPCONV_E4M3), 0x7fff); /* NaN: canonical, sign dropped */
	/* e5m2 is the top byte of an f16 */
	assert_int_equal(fpconv_fp8_to_f16(0x3c, FPCONV_E5M2), 0x3c00);
	assert_int_equal(fpconv_fp8_to_f16(0x7b, FPCONV_E5M2), 0x7b00);
	assert_int_equal(fpconv_fp8_to_f16(0x01, FPCONV_E5M2), 0x0100);
	assert_int_equal(fpconv_fp8_to_f16(0xfc, FPCONV_E5M2), 0xfc00);
	assert_int_equal(fpconv_fp8_to_f16(0xfd, FPCONV_E5M2), 0x7fff);
	assert_string_equal(fpconv_fp8_name(FPCONV_E5M2), "e5m2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tf32),
		cmocka_unit_test(test_bf16),
		cmocka_unit_test(test_f16),
		cmocka_unit_test(test_e4m3),
		cmocka_unit_test(test_e5m2),
		cmocka_unit_test(test_fp8_decode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
