/* base/fpconv: exact conversions between f32 and the narrow float formats of the tensor cores (TF32, e4m3, e5m2), with PTX cvt's rounding rules. */
#ifndef PTXTUTOR_BASE_FPCONV_H
#define PTXTUTOR_BASE_FPCONV_H

#include <stdint.h>
#include <string.h>

/* An f32's bits and back, with no conversion (memcpy: no aliasing rules broken). */
static inline uint32_t fpconv_f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static inline float fpconv_bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* f16 and bf16 live in base/util.c (util_f32_to_f16, util_f32_to_bf16 and
 * back); this module adds the formats lesson 11 needs, each rounded from the
 * f32's bits with integer arithmetic, so no host rounding mode takes part.
 *
 * The rules, from the PTX ISA's cvt (9.7.9.21 in PTX 8.x):
 * - cvt.rna.tf32.f32 rounds to nearest, ties away from zero; cvt.rn.tf32.f32
 *   (sm_90) to nearest, ties to even. A tf32 sits in a 32-bit register as an
 *   f32 whose low 13 bits are 0.
 * - cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 round to nearest even; .satfinite
 *   (required there) gives NaN for NaN and the sign-preserved largest finite
 *   value for any input whose magnitude is above it, infinities included.
 * - e4m3 (OCP 8-bit FP): bias 7, no infinities, NaN is S.1111.111, largest
 *   finite 448 (0x7e). e5m2: bias 15, IEEE-like, largest finite 57344 (0x7b),
 *   inf 0x7c. */

typedef enum { FPCONV_E4M3, FPCONV_E5M2, FPCONV_FP8_COUNT } fpconv_fp8;

typedef enum {
	FPCONV_RN,    /* to nearest, ties to even */
	FPCONV_RNA,   /* to nearest, ties away from zero */
} fpconv_round;

/* f32 -> tf32 bits (an f32 pattern, low 13 bits 0). Without satfinite a
 * value past the largest finite tf32 becomes inf, as an IEEE format does;
 * with it, the largest finite (0x7f7fe000) of its sign. NaN stays a quiet
 * NaN (its sign and top payload bits kept), inf stays inf unless satfinite. */
uint32_t fpconv_f32_to_tf32(float f, fpconv_round r, int satfinite);

/* f32 -> e4m3 or e5m2 bits, rounded to nearest even. satfinite as PTX's; without
 * it an overflow gives inf (e5m2) or NaN (e4m3, which has no inf), as the
 * OCP spec's non-saturating mode. NaN: e4m3 S.1111.111; e5m2 a quiet NaN
 * S.11111.1x keeping the payload's next bit (cuda_fp8.hpp does the same). */
uint8_t fpconv_f32_to_fp8(float f, fpconv_fp8 k, int satfinite);

/* e4m3 or e5m2 bits -> f32 and -> f16 bits: both exact (every 8-bit value
 * is an f16). A NaN gives the canonical 0x7fff f16, sign dropped, as
 * cvt.rn.f16x2.e4m3x2 does in cuda_fp8.hpp's reference. */
float fpconv_fp8_to_f32(uint8_t v, fpconv_fp8 k);
uint16_t fpconv_fp8_to_f16(uint8_t v, fpconv_fp8 k);

/* "e4m3" or "e5m2". */
const char *fpconv_fp8_name(fpconv_fp8 k);

#endif
