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

static inline uint64_t putf(double d, int t)
{
	if (t == ET_F32)
		return FB((float)d);
	if (t == ET_F16)
		return util_f32_to_f16((float)d);
	if (t == ET_BF16)
		return util_f32_to_bf16((float)d);
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

/* One f16x2 operation, half by half, through f32 (exact for add, sub, mul and fma of halves but the final rounding). */
static inline uint64_t half2(int code, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t r = 0;
	for (int h = 0; h < 2; h++) {
		float x = util_f16_to_f32((uint16_t)(a >> (16 * h))), y = util_f16_to_f32((uint16_t)(b >> (16 * h)));
		float z = util_f16_to_f32((uint16_t)(c >> (16 * h)));
		double v = code == OP_ADD ? (double)x + y : code == OP_SUB ? (double)x - y
			 : code == OP_MUL ? (double)x * y : (double)x * y + z;
		r |= (uint64_t)util_f32_to_f16((float)v) << (16 * h);
	}
	return r;
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
