/* emu_alu: the scalar semantics of the PTX operations the interpreter runs lane by lane: pure functions of bits. */
#ifndef PTXTUTOR_EMU_ALU_H
#define PTXTUTOR_EMU_ALU_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "emu/emu_internal.h"
#include "base/checked.h"
#include "base/fpconv.h"
#include "base/util.h"

/* ---- value helpers ---- */

static inline float F(uint64_t v) { return fpconv_bits_f32((uint32_t)v); }
static inline uint64_t FB(float f) { return fpconv_f32_bits(f); }

static inline uint64_t wmask(int bytes)
{
	return bytes >= 8 ? ~0ULL : (1ULL << (8 * bytes)) - 1;
}

static inline int64_t sx(uint64_t v, int bytes)
{
	if (bytes >= 8)
		return (int64_t)v;
	int sh = 64 - 8 * bytes;
	return (int64_t)(v << sh) >> sh;
}

/* A float-typed value as a double (f16 in the low bits, f32, f64). */
static inline double getf(uint64_t v, int t)
{
	if (t == ET_F32)
		return F(v);
	if (t == ET_F16)
		return util_f16_to_f32((uint16_t)v);
	if (t == ET_BF16)
		return util_bf16_to_f32((uint16_t)v);
	double d;
	memcpy(&d, &v, 8);
	return d;
}

/* s + e rounded once to nearest even, to p significand bits, the smallest
 * normal 2^emin, inf from 2^emax on; e is the error of s (0 when s is
 * exact), which decides a tie s lands on. A double result through float
 * and then to f16 or bf16 would round twice (a tie made by the first
 * rounding goes the wrong way in the second). */
static inline double round_p(double s, double e, int p, int emin, int emax)
{
	if (!isfinite(s) || s == 0)
		return s;
	int ex;
	(void)frexp(fabs(s), &ex);        /* |s| = f 2^ex, f in [0.5, 1) */
	if (ex < emin + 1)
		ex = emin + 1;            /* subnormals: the smallest normals' quantum */
	double scaled = ldexp(fabs(s), p - ex), q = floor(scaled), rem = scaled - q;
	double err = s < 0 ? -e : e;      /* the error's direction, in magnitude */
	if (rem > 0.5 || (rem == 0.5 && (err > 0 || (err == 0 && fmod(q, 2) != 0))))
		q += 1;
	double r = ldexp(q, ex - p);
	return copysign(r >= ldexp(1, emax) ? INFINITY : r, s);
}

/* d (plus its error e) as f16 or bf16 bits, rounded once; NaN and inf as base/util.c converts them. */
static inline uint16_t to_half(double d, double e, int t)
{
	if (!isfinite(d))
		return t == ET_BF16 ? util_f32_to_bf16((float)d) : util_f32_to_f16((float)d);
	if (t == ET_BF16)
		return util_f32_to_bf16((float)round_p(d, e, 8, -126, 128));
	return util_f32_to_f16((float)round_p(d, e, 11, -14, 16));
}

static inline uint64_t putf(double d, int t)
{
	if (t == ET_F32)
		return FB((float)d);
	if (t == ET_F16 || t == ET_BF16)
		return to_half(d, 0, t);
	uint64_t v;
	memcpy(&v, &d, 8);
	return v;
}

/* ---- bit instructions and packed halves (the PTX ISA's definitions) ---- */

static inline int popc(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

static inline uint64_t brev(uint64_t v, int bytes)
{
	uint64_t r = 0;
	for (int i = 0; i < 8 * bytes; i++)
		r |= ((v >> i) & 1) << (8 * bytes - 1 - i);
	return r;
}

/* bfe: len bits of a from pos, sign-extended from the field's top bit for signed types. */
static inline uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int bytes, int sgn)
{
	int bits = 8 * bytes;
	pos &= 0xff;
	len &= 0xff;
	int64_t sa = sx(a, bytes);
	int top = pos + len - 1 < (uint32_t)bits ? (int)(pos + len - 1) : bits - 1;
	int sbit = sgn && len ? (int)((sa >> top) & 1) : 0;
	uint64_t r = 0;
	for (int i = 0; i < bits; i++) {
		int b = (uint32_t)i < len && pos + (uint32_t)i < (uint32_t)bits ? (int)((a >> (pos + i)) & 1) : sbit;
		r |= (uint64_t)b << i;
	}
	return r & wmask(bytes);
}

/* bfi: len bits of f into b at pos. */
static inline uint64_t bfi(uint64_t f, uint64_t b, uint32_t pos, uint32_t len, int bytes)
{
	int bits = 8 * bytes;
	pos &= 0xff;
	len &= 0xff;
	for (uint32_t i = 0; i < len && pos + i < (uint32_t)bits; i++)
		b = (b & ~(1ULL << (pos + i))) | (((f >> i) & 1) << (pos + i));
	return b & wmask(bytes);
}

/* prmt: bytes of {b, a} picked by c (the default mode: a nibble per byte, bit 3 replicates the sign). */
static inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	uint64_t x = ((uint64_t)b << 32) | a;
	uint32_t sel = c & 0xffff, r = 0;
	if (mode != PRMT_DEFAULT) {
		/* the other modes' selectors, by c's low two bits (d.b3 in the top nibble) */
		static const uint16_t shifts[][4] = {
			[PRMT_F4E] = {0x3210, 0x4321, 0x5432, 0x6543}, [PRMT_B4E] = {0x5670, 0x6701, 0x7012, 0x0123},
			[PRMT_RC8] = {0x0000, 0x1111, 0x2222, 0x3333}, [PRMT_ECL] = {0x3210, 0x3211, 0x3222, 0x3333},
			[PRMT_ECR] = {0x0000, 0x1110, 0x2210, 0x3210}, [PRMT_RC16] = {0x1010, 0x3232, 0x1010, 0x3232},
		};
		sel = shifts[mode][c & 3];
	}
	for (int i = 0; i < 4; i++) {
		uint32_t nib = (sel >> (4 * i)) & 0xf;
		uint8_t byte = (uint8_t)(x >> (8 * (nib & 7)));
		if (mode == PRMT_DEFAULT && (nib & 8))
			byte = byte & 0x80 ? 0xff : 0;
		r |= (uint32_t)byte << (8 * i);
	}
	return r;
}

/* lop3: any function of three inputs, its truth table in lut (a = 0xf0, b = 0xcc, c = 0xaa). */
static inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t r = 0;
	for (int i = 0; i < 8; i++)
		if (lut & (1u << i))
			r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
	return r;
}

/* shf: the funnel shift of the 64-bit {b, a} by c, left or right, c wrapped mod 32 or clamped to 32. */
static inline uint32_t shf(uint32_t a, uint32_t b, uint32_t c, int right, int clamp)
{
	uint32_t n = clamp ? (c > 32 ? 32 : c) : c & 31;
	uint64_t x = ((uint64_t)b << 32) | a;
	return right ? (uint32_t)(x >> n) : (uint32_t)((x << n) >> 32);
}

/* One add, sub, mul or fma of f16 or bf16 values, each half of a pair
 * (f16x2, bf16x2) on its own: the product of two halves is exact in a
 * double, the sum's error comes from TwoSum, and the result is rounded
 * once (.rn, the only rounding of these forms). A bf16 NaN result is the
 * canonical 0x7fff (the ISA leaves a plain result's payload open and names
 * the canonical NaN under .relu); an f16 one stays a quiet NaN, as before. */
static inline uint64_t half2(int code, int t, uint64_t a, uint64_t b, uint64_t c)
{
	const int bf = t == ET_BF16 || t == ET_BF16X2, n = t == ET_F16X2 || t == ET_BF16X2 ? 2 : 1;
	const int ht = bf ? ET_BF16 : ET_F16;
	uint64_t r = 0;
	for (int h = 0; h < n; h++) {
		double x = getf(a >> (16 * h) & 0xffff, ht), y = getf(b >> (16 * h) & 0xffff, ht);
		double z = getf(c >> (16 * h) & 0xffff, ht);
		double p = code == OP_MUL || code == OP_FMA ? x * y : x;
		double q = code == OP_FMA ? z : code == OP_SUB ? -y : code == OP_ADD ? y : 0;
		double s = p + q, bb = s - p, e = (p - (s - bb)) + (q - bb); /* TwoSum: s + e = p + q exactly */
		uint16_t v = isnan(s) && bf ? 0x7fff : to_half(s, isfinite(s) ? e : 0, ht);
		r |= (uint64_t)v << (16 * h);
	}
	return r;
}

/* add, sub or mul of f64 with rounding rnd: .rn, or .rz .rm .rp, which
 * step the round-to-nearest result one place when its exact error (TwoSum,
 * or fma for a product) points the other way; an overflow stops at the
 * largest finite where the direction says so; an exact zero sum is -0
 * under .rm (IEEE 754). A product's error is exact unless it underflows. */
static inline double f64_arith(int code, double x, double y, int rnd)
{
	if (code == OP_SUB)
		y = -y;
	double s = code == OP_MUL ? x * y : x + y;
	if (rnd < RND_RZ || rnd > RND_RP || isnan(s) || !isfinite(x) || !isfinite(y))
		return s;
	if (isinf(s))
		return rnd == RND_RZ || (rnd == RND_RM) == (s > 0) ? copysign(0x1.fffffffffffffp1023, s) : s;
	if (s == 0 && code != OP_MUL && rnd == RND_RM)
		return x == 0 && y == 0 && !signbit(x) && !signbit(y) ? 0.0 : -0.0;
	double e;
	if (code == OP_MUL) {
		e = fma(x, y, -s);
	} else {
		double bb = s - x;
		e = (x - (s - bb)) + (y - bb);
	}
	if (e == 0 || s == 0)
		return s;
	if (rnd == RND_RZ)
		return (e < 0) != (s < 0) ? nextafter(s, 0) : s;
	if (rnd == RND_RM)
		return e < 0 ? nextafter(s, -INFINITY) : s;
	return e > 0 ? nextafter(s, INFINITY) : s;
}

/* fma.relu on each 16-bit half: a negative result is +0, a NaN the
 * canonical 0x7fff (PTX ISA 9.7.4.4); -0 and the rest as they are. */
static inline uint64_t relu16(uint64_t v, int t)
{
	const int n = t == ET_F16X2 || t == ET_BF16X2 ? 2 : 1, ht = t == ET_BF16 || t == ET_BF16X2 ? ET_BF16 : ET_F16;
	uint64_t r = 0;
	for (int h = 0; h < n; h++) {
		uint64_t x = v >> (16 * h) & 0xffff;
		double f = getf(x, ht);
		r |= (isnan(f) ? 0x7fff : f < 0 ? 0 : x) << (16 * h);
	}
	return r;
}

/* The sign bits of a float type (both halves of a pair): what neg flips and abs clears. */
static inline uint64_t sign_mask(int t)
{
	switch (t) {
	case ET_F64: return 1ULL << 63;
	case ET_F32: return 0x80000000ULL;
	case ET_F16X2: case ET_BF16X2: return 0x80008000ULL;
	default: return 0x8000ULL;
	}
}

/* min and max as the PTX ISA gives them for f64, bf16 and bf16x2: a NaN
 * loses to a number, two NaNs (or one under .NaN) give the canonical NaN,
 * and -0 is smaller than +0. nan is the canonical NaN's bits, sign the sign bit. */
static inline uint64_t min_max_ieee(uint64_t a, uint64_t b, double x, double y, int mx, int nanmod,
				    uint64_t nan, uint64_t sign)
{
	if ((isnan(x) && isnan(y)) || (nanmod && (isnan(x) || isnan(y))))
		return nan;
	if (isnan(x))
		return b;
	if (isnan(y))
		return a;
	if (x == y) /* -0 and +0 (or equal values): max takes the one without the sign bit */
		return ((a & sign) == 0) == (mx != 0) ? a : b;
	return (mx ? x > y : x < y) ? a : b;
}

static inline uint64_t min_max_f64(uint64_t a, uint64_t b, int mx, int nanmod)
{
	return min_max_ieee(a, b, getf(a, ET_F64), getf(b, ET_F64), mx, nanmod, 0x7fffffffffffffffULL, 1ULL << 63);
}

static inline uint64_t min_max_bf16(uint64_t a, uint64_t b, int t, int mx, int nanmod)
{
	uint64_t r = 0;
	for (int h = 0; h < (t == ET_BF16X2 ? 2 : 1); h++) {
		uint64_t x = a >> (16 * h) & 0xffff, y = b >> (16 * h) & 0xffff;
		r |= min_max_ieee(x, y, getf(x, ET_BF16), getf(y, ET_BF16), mx, nanmod, 0x7fff, 0x8000) << (16 * h);
	}
	return r;
}

/* dp4a: c + the four products of a's and b's bytes; dp2a: c + the two
 * products of a's 16-bit halves with b's bytes 0, 1 (.lo) or 2, 3 (.hi).
 * Each value is sign- or zero-extended by its type (sa, sb); the sum wraps
 * modulo 2^32, as the 32-bit accumulator does (no saturation). */
static inline uint64_t dot_bytes(uint32_t a, uint32_t b, uint32_t c, int sa, int sb, int mode)
{
	uint32_t d = c;
	const int n = mode == DP_4A ? 4 : 2, wa = mode == DP_4A ? 8 : 16, b0 = mode == DP_2A_HI ? 2 : 0;
	for (int i = 0; i < n; i++) {
		uint32_t ua = a >> (wa * i) & ((1u << wa) - 1), ub = b >> (8 * (b0 + i)) & 0xff;
		int32_t x = sa ? (int32_t)sx(ua, wa / 8) : (int32_t)ua, y = sb ? (int32_t)(int8_t)ub : (int32_t)ub;
		d += (uint32_t)(x * y);
	}
	return d;
}

/* Shifts past the width give 0, or the sign for a signed shr. */
static inline uint64_t shl(uint64_t a, uint64_t b, int tb, uint64_t wm)
{
	uint32_t sh = (uint32_t)b;
	return sh >= (uint32_t)(8 * tb) ? 0 : (a << sh) & wm;
}

static inline uint64_t shr(uint64_t a, uint64_t b, int tb, int sgn, uint64_t wm)
{
	uint32_t sh = (uint32_t)b;
	if (sgn)
		return (uint64_t)(sx(a, tb) >> (sh >= (uint32_t)(8 * tb) ? 8 * tb - 1 : (int)sh)) & wm;
	return sh >= (uint32_t)(8 * tb) ? 0 : (a & wm) >> sh;
}

static inline uint64_t clz(uint64_t a, int tb, uint64_t wm)
{
	return (uint64_t)(a & wm ? __builtin_clzll(a & wm) - (64 - 8 * tb) : 8 * tb);
}

/* The remainder of a division by zero is a; of MIN / -1 it is 0. */
static inline uint64_t rem_int(uint64_t a, uint64_t b, int tb, int sgn, uint64_t wm)
{
	int64_t r;
	if (!(b & wm))
		return a & wm;
	if (sgn)
		return ck_mod_i64(sx(a, tb), sx(b, tb), &r) ? 0 : (uint64_t)r & wm;
	return ((a & wm) % (b & wm)) & wm;
}

#endif
