/* emu_exec_alu: arithmetic, bits, moves, conversions and comparisons, lane by lane. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_exec.h"
#include "base/checked.h"
#include "base/util.h"
#include "model/access.h"

/* ---- cvt ---- */

/* x rounded to f32 in a directed mode (rz, rm, rp), or to nearest. */
static uint64_t f32_rounded(double x, int rnd)
{
	float f = (float)x;
	if (rnd == RND_RZ && fabs((double)f) > fabs(x))
		f = nextafterf(f, 0.0f);
	else if (rnd == RND_RM && (double)f > x)
		f = nextafterf(f, -INFINITY);
	else if (rnd == RND_RP && (double)f < x)
		f = nextafterf(f, INFINITY);
	return FB(f);
}

/* A float rounded to an integral value (cvt.rni/rzi/rmi/rpi), or x as it is. */
static double integral(double x, int rnd)
{
	switch (rnd) {
	case RND_RNI: return nearbyint(x);
	case RND_RZI: return trunc(x);
	case RND_RMI: return floor(x);
	case RND_RPI: return ceil(x);
	default: return x;
	}
}

static uint64_t do_cvt(uint64_t v, int dt, int st, int rnd)
{
	int dk = emu_types[dt].kind, sk = emu_types[st].kind;
	int db = emu_types[dt].bytes, sb = emu_types[st].bytes;
	if (sk == 'f') {
		double x = getf(v, st);
		if (dk == 'f') {
			x = integral(x, rnd);
			return dt == ET_F32 && rnd >= RND_RZ && rnd <= RND_RP ? f32_rounded(x, rnd) : putf(x, dt);
		}
		if (isnan(x))
			return 0;
		x = integral(x, rnd);
		/* saturate against the exclusive bound 2^n, which a double holds
		 * exactly (2^63 - 1 does not: it rounds to 2^63 and the cast overflows) */
		if (dk == 's') {
			double lim = ldexp(1, 8 * db - 1);
			if (x >= lim)
				return (uint64_t)(wmask(db) >> 1);
			if (x < -lim)
				return (~(wmask(db) >> 1)) & wmask(db);
			return (uint64_t)(int64_t)x & wmask(db);
		}
		if (x >= ldexp(1, 8 * db))
			return wmask(db);
		if (x < 0) x = 0;
		return (uint64_t)x & wmask(db);
	}
	if (dk == 'f') {
		double x = sk == 's' ? (double)sx(v, sb) : (double)(v & wmask(sb));
		if (sb == 8 && dt == ET_F32) /* 64-bit integers: round once, from the integer */
			return FB(sk == 's' ? (float)sx(v, sb) : (float)(v & wmask(sb)));
		return dt == ET_F32 ? f32_rounded(x, rnd) : putf(x, dt);
	}
	uint64_t x = sk == 's' ? (uint64_t)sx(v, sb) : v & wmask(sb);
	return x & wmask(db);
}

/* ---- arithmetic ---- */

static inline uint64_t mul_hi(uint64_t a, uint64_t b, int tb, int sgn, uint64_t wm)
{
	__int128 p = sgn ? (__int128)sx(a, tb) * sx(b, tb) : (__int128)((unsigned __int128)(a & wm) * (b & wm));
	return (uint64_t)(p >> (8 * tb));
}

/* Integer mul.lo/.hi/.wide and mad: a * b + c (c is 0 for mul: it has two sources). */
void emu_exec_mad(const inst *x)
{
	const uint64_t w2 = wmask(2 * x->tb);
	switch (x->o->mod) {
	case MUL_LO:
		LANEWISE(x, (a * b + c) & wm);
		break;
	case MUL_WIDE: /* the low 64 bits of the product, computed unsigned: .wide of s64 must not overflow */
		if (x->sgn)
			LANEWISE(x, ((uint64_t)sx(a, tb) * (uint64_t)sx(b, tb) + c) & w2);
		else
			LANEWISE(x, ((a & wm) * (b & wm) + c) & w2);
		break;
	default:
		LANEWISE(x, (mul_hi(a, b, tb, sgn, wm) + c) & wm);
		break;
	}
}

void emu_exec_mul(const inst *x)
{
	if (x->isf || x->o->mod == MUL_LO)
		ARITH(x, *);
	else
		emu_exec_mad(x);
}

/* fma.rn: one rounding of a * b + c (libm's fma and fmaf are exact to the last bit). */
void emu_exec_fma(const inst *x)
{
	if (is_half(x->t) && x->o->mod == FMA_RELU)
		LANEWISE(x, relu16(half2(OP_FMA, t, a, b, c), t));
	else if (is_half(x->t))
		LANEWISE(x, half2(OP_FMA, t, a, b, c));
	else if (x->t == ET_F32)
		LANEWISE(x, FB(fmaf(F(a), F(b), F(c))));
	else
		LANEWISE(x, putf(fma(getf(a, t), getf(b, t), getf(c, t)), t));
}

/* Division by zero gives all ones; the signed MIN / -1 wraps to MIN. */
static inline uint64_t div_int(uint64_t a, uint64_t b, int tb, int sgn, uint64_t wm)
{
	int64_t q;
	if (!(b & wm))
		return wm;
	if (sgn)
		return ck_div_i64(sx(a, tb), sx(b, tb), &q) ? (0 - a) & wm : (uint64_t)q & wm;
	return ((a & wm) / (b & wm)) & wm;
}

void emu_exec_div(const inst *x)
{
	if (x->t == ET_F64) /* div.rn.f64: IEEE division */
		LANEWISE(x, putf(getf(a, t) / getf(b, t), t));
	else if (x->isf)
		LANEWISE(x, FB(F(a) / F(b)));
	else
		LANEWISE(x, div_int(a, b, tb, sgn, wm));
}

static inline uint64_t min_max_int(uint64_t a, uint64_t b, int mx, int tb, int sgn, uint64_t wm)
{
	if (sgn) {
		int64_t x = sx(a, tb), y = sx(b, tb);
		return (uint64_t)((mx ? x > y : x < y) ? x : y) & wm;
	}
	a &= wm;
	b &= wm;
	return (mx ? a > b : a < b) ? a : b;
}

/* min and max of f32 as the emulator has always computed them (through
 * glibc's fminf and fmaxf), spelt out because the compiler may swap the
 * operands of those calls: a quiet NaN loses to a number, a signalling one
 * wins, quietened; of two NaNs b wins, quietened; of two values that compare
 * equal (-0 and +0) a wins. */
static inline uint64_t min_max_f32(uint64_t a, uint64_t b, int mx)
{
	const uint32_t quiet = 0x400000, ua = (uint32_t)a, ub = (uint32_t)b;
	float x = F(a), y = F(b);
	if (isnan(x) && isnan(y))
		return ub | quiet;
	if (isnan(x))
		return ua & quiet ? ub : ua | quiet;
	if (isnan(y))
		return ub & quiet ? ua : ub | quiet;
	return (mx ? y > x : y < x) ? ub : ua;
}

void emu_exec_min_max(const inst *x)
{
	const int mx = x->o->code == OP_MAX, nanmod = x->o->mod == MINMAX_NAN;
	if (x->t == ET_F64)
		LANEWISE(x, min_max_f64(a, b, mx, nanmod));
	else if (x->t == ET_BF16 || x->t == ET_BF16X2)
		LANEWISE(x, min_max_bf16(a, b, t, mx, nanmod));
	else if (x->isf)
		LANEWISE(x, min_max_f32(a, b, mx));
	else
		LANEWISE(x, min_max_int(a, b, mx, tb, sgn, wm));
}

void emu_exec_neg(const inst *x)
{
	if (x->isf)
		LANEWISE(x, a ^ sign_mask(t));
	else
		LANEWISE(x, (0 - a) & wm);
}

static inline uint64_t abs_int(uint64_t a, int tb, uint64_t wm)
{
	int64_t x = sx(a, tb);
	return (x < 0 ? 0 - (uint64_t)x : (uint64_t)x) & wm;
}

void emu_exec_abs(const inst *x)
{
	if (x->isf)
		LANEWISE(x, a & ~sign_mask(t) & wm);
	else
		LANEWISE(x, abs_int(a, tb, wm));
}

void emu_exec_not(const inst *x)
{
	if (x->t == ET_PRED)
		LANEWISE(x, !(a & 1));
	else
		LANEWISE(x, ~a & wm);
}

/* rcp, sqrt, rsqrt (f32 and f64) and ex2, lg2 (f32): .rn is the IEEE
 * operation; .approx is computed exactly here, within any error the ISA allows. */
void emu_exec_math(const inst *x)
{
	const int code = x->o->code;
	if (x->t == ET_F64) {
		if (code == OP_RCP)
			LANEWISE(x, putf(1.0 / getf(a, t), t));
		else if (code == OP_SQRT)
			LANEWISE(x, putf(sqrt(getf(a, t)), t));
		else
			LANEWISE(x, putf(1.0 / sqrt(getf(a, t)), t));
		return;
	}
	switch (code) {
	case OP_RCP: LANEWISE(x, FB(1.0f / F(a))); break;
	case OP_SQRT: LANEWISE(x, FB(sqrtf(F(a)))); break;
	case OP_RSQRT: LANEWISE(x, FB(1.0f / sqrtf(F(a)))); break;
	case OP_EX2: LANEWISE(x, FB(exp2f(F(a)))); break;
	default: LANEWISE(x, FB(log2f(F(a)))); break;
	}
}

/* issue 39: dp4a and dp2a, the signedness of a in the op's type, of b in type2. */
void emu_exec_dp(const inst *x)
{
	const int sa = x->o->type == ET_S32, sb = x->o->type2 == ET_S32, mode = x->o->mod;
	LANEWISE(x, dot_bytes((uint32_t)a, (uint32_t)b, (uint32_t)c, sa, sb, mode));
}

/* ---- moves and conversions ---- */

void emu_exec_pack(const inst *x)
{
	const emu_op *o = x->o;
	int part = x->tb * 8 / o->nsrc;
	uint64_t pm = wmask(part / 8);
	for_each_lane(l, x->em) {
		uint64_t v = 0;
		for (int i = 0; i < o->nsrc; i++)
			v |= (x->R[o->src[i] * 32 + l] & pm) << (i * part);
		x->d[l] = v;
	}
}

void emu_exec_unpack(const inst *x)
{
	const emu_op *o = x->o;
	int part = x->tb * 8 / o->ndst;
	uint64_t pm = wmask(part / 8);
	for_each_lane(l, x->em) {
		uint64_t v = x->s0[l];
		for (int i = 0; i < o->ndst; i++)
			if (o->dst[i] >= 0)
				x->R[o->dst[i] * 32 + l] = (v >> (i * part)) & pm;
	}
}

/* The 8-bit float format of an e4m3x2 or e5m2x2 operand. */
static fpconv_fp8 fp8_of(int t)
{
	return t == ET_E5M2X2 ? FPCONV_E5M2 : FPCONV_E4M3;
}

/* cvt with tf32 or 8-bit floats (emu_decode.c's cvt_forms; base/fpconv.c
 * rounds). The pairs as PTX ISA 9.7.9.21 packs them: a, or a's upper byte,
 * into the upper half of d. */
static void exec_cvt_narrow(const inst *x)
{
	const int sat = (x->o->flags & OPF_SATFINITE) != 0, st = x->o->type2;
	const fpconv_round r = x->o->mod == RND_RNA ? FPCONV_RNA : FPCONV_RN;
	if (x->t == ET_TF32)
		LANEWISE(x, fpconv_f32_to_tf32(F(a), r, sat));
	else if (st == ET_F32) /* cvt.rn.satfinite.e4m3x2.f32 d, a, b */
		LANEWISE(x, (uint64_t)fpconv_f32_to_fp8(F(a), fp8_of(t), sat) << 8 |
				    fpconv_f32_to_fp8(F(b), fp8_of(t), sat));
	else /* cvt.rn.f16x2.e4m3x2 d, a */
		LANEWISE(x, (uint64_t)fpconv_fp8_to_f16((uint8_t)(a >> 8), fp8_of(st)) << 16 |
				    fpconv_fp8_to_f16((uint8_t)a, fp8_of(st)));
}

/* issue 39: cvt.sat (PTX ISA 9.7.9.21): a float result clamped to [0, 1],
 * NaN to +0; an integer to the destination type's range (a float source
 * saturates anyway). */
static uint64_t cvt_sat(uint64_t v, int dt, int st, int rnd)
{
	int dk = emu_types[dt].kind, db = emu_types[dt].bytes, sb = emu_types[st].bytes;
	if (dk == 'f') {
		double r = getf(do_cvt(v, dt, st, rnd), dt);
		return putf(isnan(r) || r <= 0 ? 0.0 : r > 1 ? 1.0 : r, dt);
	}
	if (emu_types[st].kind == 'f')
		return do_cvt(v, dt, st, rnd);
	if (emu_types[st].kind == 's') {
		int64_t x = sx(v, sb), hi = (int64_t)(wmask(db) >> (dk == 's')), lo = dk == 's' ? -hi - 1 : 0;
		return (uint64_t)(x < lo ? lo : x > hi ? hi : x) & wmask(db);
	}
	uint64_t x = v & wmask(sb), hi = wmask(db) >> (dk == 's');
	return x > hi ? hi : x;
}

/* cvt between integer types, the source's width and sign and the destination's
 * mask looked up once (the address arithmetic's cvt.u64.u32 and cvt.s64.s32). */
static void cvt_int(const inst *x, int st)
{
	const int sb = emu_types[st].bytes, sgn_src = emu_types[st].kind == 's';
	const uint64_t sm = wmask(sb), dm = wmask(emu_types[x->t].bytes);
	if (sgn_src)
		LANEWISE(x, (uint64_t)sx(a, sb) & dm);
	else
		LANEWISE(x, a & sm & dm);
}

void emu_exec_cvt(const inst *x)
{
	const int rnd = x->o->mod, st = x->o->type2;
	if (x->o->flags & OPF_SAT)
		LANEWISE(x, cvt_sat(a, t, st, rnd));
	else if (x->t == ET_TF32 || x->t == ET_E4M3X2 || x->t == ET_E5M2X2 || st == ET_E4M3X2 || st == ET_E5M2X2)
		exec_cvt_narrow(x);
	else if (x->t == ET_F16X2) /* a to the upper half, b to the lower */
		LANEWISE(x, (do_cvt(a, ET_F16, ET_F32, rnd) << 16) | do_cvt(b, ET_F16, ET_F32, rnd));
	else if (x->t == ET_BF16X2) /* cvt.rn.bf16x2.f32 d, a, b (9.7.9.21): the same halves */
		LANEWISE(x, (do_cvt(a, ET_BF16, ET_F32, rnd) << 16) | do_cvt(b, ET_BF16, ET_F32, rnd));
	else if (emu_types[x->t].kind != 'f' && emu_types[st].kind != 'f') /* integer to integer: do_cvt's last lines */
		cvt_int(x, st);
	else
		LANEWISE(x, do_cvt(a, t, st, rnd));
}

void emu_exec_cvta(const inst *x)
{
	if (x->o->space == SP_PARAM) /* a tensor map's address (cvta.param, PTX ISA 9.7.9.17) */
		LANEWISE(x, (x->o->mod == CVTA_TO ? a - EMU_PARAM_WINDOW : a + EMU_PARAM_WINDOW) & wm);
	else if (x->o->space == SP_LOCAL) /* a thread's local offset <-> its generic address */
		LANEWISE(x, (x->o->mod == CVTA_TO ? a - EMU_LOCAL_WINDOW : (a & 0xffffffffULL) + EMU_LOCAL_WINDOW) & wm);
	else if (x->o->space != SP_SHARED)
		LANEWISE(x, a & wm);
	else if (x->o->mod == CVTA_TO)
		LANEWISE(x, (a - EMU_SHARED_WINDOW) & wm);
	else
		LANEWISE(x, ((a & 0xffffffffULL) + EMU_SHARED_WINDOW) & wm);
}

/* ---- comparisons ---- */

static inline int setp_cmp(int cmp, int t, uint64_t a, uint64_t b)
{
	int k = emu_types[t].kind, by = emu_types[t].bytes;
	if (k == 'f') {
		double x = getf(a, t), y = getf(b, t);
		int un = isnan(x) || isnan(y);
		switch (cmp) {
		case CMP_EQ: return !un && x == y;
		case CMP_NE: return !un && x != y;
		case CMP_LT: return !un && x < y;
		case CMP_LE: return !un && x <= y;
		case CMP_GT: return !un && x > y;
		case CMP_GE: return !un && x >= y;
		case CMP_EQU: return un || x == y;
		case CMP_NEU: return un || x != y;
		case CMP_LTU: return un || x < y;
		case CMP_LEU: return un || x <= y;
		case CMP_GTU: return un || x > y;
		case CMP_GEU: return un || x >= y;
		case CMP_NUM: return !un;
		case CMP_NAN: return un;
		default: return 0;
		}
	}
	uint64_t ua = a & wmask(by), ub = b & wmask(by);
	int64_t sa = sx(a, by), sb = sx(b, by);
	int sgn = k == 's';
	switch (cmp) {
	case CMP_EQ: return ua == ub;
	case CMP_NE: return ua != ub;
	case CMP_LT: return sgn ? sa < sb : ua < ub;
	case CMP_LE: return sgn ? sa <= sb : ua <= ub;
	case CMP_GT: return sgn ? sa > sb : ua > ub;
	case CMP_GE: return sgn ? sa >= sb : ua >= ub;
	case CMP_LO: return ua < ub;
	case CMP_LS: return ua <= ub;
	case CMP_HI: return ua > ub;
	case CMP_HS: return ua >= ub;
	default: return 0;
	}
}

void emu_exec_setp(const inst *x)
{
	const emu_op *o = x->o;
	uint64_t *d = x->d, *q = o->ndst > 1 && o->dst[1] >= 0 ? &x->R[o->dst[1] * 32] : NULL;
	const uint64_t *s0 = x->s0, *s1 = x->s1, *s2 = x->s2;
	const int t = x->t, neg = (o->flags & OPF_SRC_NEG) != 0;
	const uint32_t em = x->em;
	/* a loop's 32-bit compare, without setp_cmp's switch on every lane */
	int fast = d && !o->type2 && !q && (t == ET_U32 || t == ET_S32 || t == ET_B32);
	if (fast && (o->mod == CMP_LT || o->mod == CMP_LO) && t != ET_S32) {
		for_each_lane(l, em) d[l] = (uint32_t)s0[l] < (uint32_t)s1[l];
		return;
	}
	if (fast && o->mod == CMP_LT && t == ET_S32) {
		for_each_lane(l, em) d[l] = (int32_t)s0[l] < (int32_t)s1[l];
		return;
	}
	if (fast && (o->mod == CMP_GE || o->mod == CMP_HS) && t != ET_S32) {
		for_each_lane(l, em) d[l] = (uint32_t)s0[l] >= (uint32_t)s1[l];
		return;
	}
	for_each_lane(l, em) {
		int r = setp_cmp(o->mod, t, s0[l], s1[l]), nr = !r;
		if (o->type2) {
			int cv = (int)(s2[l] & 1) ^ neg;
			if (o->type2 == 1) { r = r && cv; nr = nr && cv; }
			else if (o->type2 == 2) { r = r || cv; nr = nr || cv; }
			else { r ^= cv; nr ^= cv; }
		}
		if (d) d[l] = (uint64_t)r;
		if (q) q[l] = (uint64_t)nr;
	}
}
