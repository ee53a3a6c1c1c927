/* base/fpconv: exact conversions between f32 and the narrow float formats of the tensor cores (TF32, e4m3, e5m2), with PTX cvt's rounding rules. */
#include <math.h>
#include <string.h>
#include "base/fpconv.h"
#include "base/util.h"

/* A binary float format narrower than f32, as bits right-aligned in a word:
 * sign, ebits of exponent (bias 2^(ebits-1) - 1), mbits of mantissa. */
typedef struct {
	const char *name;
	int ebits, mbits;
	uint32_t maxfin;  /* bits of the largest finite value */
	uint32_t inf;     /* bits of +inf; 0 when the format has none */
	uint32_t qnan;    /* bits of +NaN; a NaN input ORs in its top payload bits */
} fpformat;

/* tf32 as its 19 significant bits (the f32 pattern shifted right by 13). */
static const fpformat tf32_format = {"tf32", 8, 10, 0x3fbff, 0x3fc00, 0x3fe00};

static const fpformat fp8_formats[FPCONV_FP8_COUNT] = {
	[FPCONV_E4M3] = {"e4m3", 4, 3, 0x7e, 0, 0x7f},     /* S.1111.111 is the only NaN */
	[FPCONV_E5M2] = {"e5m2", 5, 2, 0x7b, 0x7c, 0x7e},  /* quiet NaN S.11111.1x */
};

/* The f32 with bits x in format f, rounded to nearest (ties by r).
 * Every step is on integers: the f32's significand sig is shifted right by
 * the s bits below the result's last place and rounded on what fell off. */
static uint32_t encode(uint32_t x, const fpformat *f, fpconv_round r, int satfinite)
{
	const int m = f->mbits, emin = 2 - (1 << (f->ebits - 1)); /* emin = 1 - bias */
	const uint32_t sign = (x >> 31) << (f->ebits + m), ax = x & 0x7fffffffu, man = x & 0x7fffffu;
	if (ax > 0x7f800000u)
		return sign | f->qnan | (man >> (23 - m));
	/* what an overflow gives: .satfinite clamps (infinities too), else inf,
	 * or NaN where the format has no inf */
	const uint32_t big = satfinite ? f->maxfin : f->inf ? f->inf : f->qnan;
	if (ax == 0x7f800000u)
		return sign | big;
	int exp = (int)(ax >> 23);
	uint32_t sig = exp ? man | 0x800000u : man;
	if (!exp)
		exp = 1; /* an f32 subnormal: sig * 2^(1 - 150) */
	/* te: the exponent of the result's binade (emin for a subnormal result);
	 * the result's last place is 2^(te - m), the f32's is 2^(exp - 150). */
	int lead = exp - 127, te = lead > emin ? lead : emin;
	int s = te - m - (exp - 150); /* >= 23 - m >= 1 for every format here */
	uint32_t n = 0;
	if (s <= 25) { /* else sig < 2^24 < half a last place: rounds to 0 */
		uint32_t rem = sig & ((1u << s) - 1), half = 1u << (s - 1);
		n = sig >> s;
		if (rem > half || (rem == half && (r == FPCONV_RNA || (n & 1))))
			n++; /* a carry out of the mantissa steps the exponent, as it should */
	}
	/* n holds the implicit bit of a normal result, which adds the 1 that
	 * turns te - emin into the biased exponent; a subnormal's n is its mantissa */
	uint32_t bits = ((uint32_t)(te - emin) << m) + n;
	return sign | (bits > f->maxfin ? big : bits);
}

uint32_t fpconv_f32_to_tf32(float f, fpconv_round r, int satfinite)
{
	return encode(fpconv_f32_bits(f), &tf32_format, r, satfinite) << 13;
}

uint8_t fpconv_f32_to_fp8(float f, fpconv_fp8 k, int satfinite)
{
	return (uint8_t)encode(fpconv_f32_bits(f), &fp8_formats[k], FPCONV_RN, satfinite);
}

float fpconv_fp8_to_f32(uint8_t v, fpconv_fp8 k)
{
	const fpformat *f = &fp8_formats[k];
	const int m = f->mbits, emin = 2 - (1 << (f->ebits - 1));
	const uint32_t a = v & 0x7fu, man = a & ((1u << m) - 1), ex = a >> m;
	const float s = (v & 0x80) ? -1.0f : 1.0f;
	if (a > f->maxfin)
		return f->inf && a == f->inf ? s * INFINITY : NAN;
	if (!ex) /* subnormal: man * 2^(emin - m) */
		return s * ldexpf((float)man, emin - m);
	return s * ldexpf((float)(man | (1u << m)), (int)ex - 1 + emin - m);
}

uint16_t fpconv_fp8_to_f16(uint8_t v, fpconv_fp8 k)
{
	const fpformat *f = &fp8_formats[k];
	if ((v & 0x7fu) > f->maxfin && (v & 0x7fu) != f->inf)
		return 0x7fff;
	/* exact: f16 has e5m2's exponent range and more, and 10 mantissa bits */
	return util_f32_to_f16(fpconv_fp8_to_f32(v, k));
}

const char *fpconv_fp8_name(fpconv_fp8 k)
{
	return fp8_formats[k].name;
}
