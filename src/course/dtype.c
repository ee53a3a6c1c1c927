/* dtype: the element types a kernel reads and writes (f32, f16, bf16, tf32, e4m3, e5m2, s8, s32), and the one table of what each means to the runner, the check and the model. */
#include "course/dtype.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/fpconv.h"
#include "base/util.h"

/* The FP8 conversions in the table's 16-bit shape (the bits in the low
 * byte). Stores saturate, as cvt.rn.satfinite does: an input scaled to the
 * largest finite value must not round past it into NaN (e4m3) or inf. */
static float e4m3_to_f32(uint16_t h) { return fpconv_fp8_to_f32((uint8_t)h, FPCONV_E4M3); }
static uint16_t f32_to_e4m3(float f) { return fpconv_f32_to_fp8(f, FPCONV_E4M3, 1); }
static float e5m2_to_f32(uint16_t h) { return fpconv_fp8_to_f32((uint8_t)h, FPCONV_E5M2); }
static uint16_t f32_to_e5m2(float f) { return fpconv_f32_to_fp8(f, FPCONV_E5M2, 1); }

/* int8: -128 is the poison (never drawn) and reads back as NaN, so an
 * element nobody wrote fails the check as a float's NaN does. A store
 * rounds to nearest and saturates. */
static float s8_to_f32(uint16_t h) { return (int8_t)h == INT8_MIN ? NAN : (float)(int8_t)h; }
static uint16_t f32_to_s8(float f)
{
	if (isnan(f))
		return (uint8_t)INT8_MIN;
	float r = rintf(f);
	return (uint8_t)(int8_t)(r > 127 ? 127 : r < -127 ? -127 : r);
}

/* uint8: 255 is the poison (never drawn), the same way. */
static float u8_to_f32(uint16_t h) { return (uint8_t)h == UINT8_MAX ? NAN : (float)(uint8_t)h; }
static uint16_t f32_to_u8(float f)
{
	if (isnan(f))
		return UINT8_MAX;
	float r = rintf(f);
	return (uint8_t)(r > 254 ? 254 : r < 0 ? 0 : r);
}

/* int32, the same way with INT32_MIN (dtype_to_f32 and dtype_from_f32:
 * 4 bytes do not fit the table's 16-bit conversions). */
static float s32_to_f32(int32_t v) { return v == INT32_MIN ? NAN : (float)v; }
static int32_t f32_to_s32(float f)
{
	if (isnan(f))
		return INT32_MIN;
	double r = rint((double)f);
	return r >= 2147483647.0 ? INT32_MAX : r <= -2147483647.0 ? -INT32_MAX : (int32_t)r;
}

/* The CUDA numbers (tests/test_dtype.c checks them against src/gpu/cuda.h):
 * CUtensorMapDataType UINT8 0, FLOAT16 6, FLOAT32 7, BFLOAT16 9; cudaDataType
 * CUDA_R_32F 0, CUDA_R_16F 2, CUDA_R_16BF 14, CUDA_R_8F_E4M3 28, CUDA_R_8F_E5M2 29;
 * cublasComputeType_t CUBLAS_COMPUTE_32F 68, CUBLAS_COMPUTE_32F_FAST_TF32 77. */
static const dtype_info types[DTYPE_COUNT] = {
	[DTYPE_NONE] = {.name = "none", .tmap_type = -1, .cublas_type = -1, .cublas_compute = -1},
	[DTYPE_F32] = {.name = "f32", .bytes = 4, .tmap_type = 7, .cublas_type = 0, .cublas_compute = 68,
		       .ref = DTYPE_REF_SGEMM, .rng = RNG_F32, .poison = 0x7fc00000u, .exp_bits = 8, .mant_bits = 23,
		       .bias = 127, .has_inf = 1, .c0_shift = 40},
	[DTYPE_F16] = {.name = "f16", .bytes = 2, .tmap_type = 6, .cublas_type = 2, .cublas_compute = 68,
		       .ref = DTYPE_REF_GEMMEX, .rng = RNG_F16, .poison = 0x7e00u, .exp_bits = 5, .mant_bits = 10,
		       .bias = 15, .has_inf = 1,
		       /* f16 stops at 2^-24 (subnormal): C0 in [-1, 1] shifted further would round to zero */
		       .c0_shift = 8, .to_f32 = util_f16_to_f32, .from_f32 = util_f32_to_f16},
	[DTYPE_BF16] = {.name = "bf16", .bytes = 2, .tmap_type = 9, .cublas_type = 14, .cublas_compute = 68,
			.ref = DTYPE_REF_GEMMEX, .rng = RNG_BF16, .poison = 0x7fc0u, .exp_bits = 8, .mant_bits = 7,
			.bias = 127, .has_inf = 1, .c0_shift = 40, .to_f32 = util_bf16_to_f32,
			.from_f32 = util_f32_to_bf16},
	/* f32 in memory and in cuBLAS's call; CUBLAS_COMPUTE_32F_FAST_TF32 lets
	 * cuBLAS round the inputs to tf32 on the tensor cores, as the kernel does */
	[DTYPE_TF32] = {.name = "tf32", .bytes = 4, .tmap_type = 7, .cublas_type = 0, .cublas_compute = 77,
			.ref = DTYPE_REF_GEMMEX, .rng = RNG_F32, .poison = 0x7fc00000u, .exp_bits = 8,
			.mant_bits = 10, .bias = 127, .has_inf = 1, .kernel_rounds = 1, .c0_shift = 40},
	/* OCP 8-bit floats (base/fpconv.h): e4m3 trades inf and all but one NaN
	 * for one more binade (448); e5m2 is IEEE-like. */
	[DTYPE_E4M3] = {.name = "e4m3", .bytes = 1, .tmap_type = 0, .cublas_type = 28, .cublas_compute = 68,
			.ref = DTYPE_REF_LT, .rng = RNG_F32, .poison = 0x7fu, .exp_bits = 4, .mant_bits = 3, .bias = 7,
			/* never an output (dtype_pair_check), so no C0 is shifted in it */
			.nan = DTYPE_NAN_ALL_ONES, .scaled = 1, .c0_shift = 0, .to_f32 = e4m3_to_f32,
			.from_f32 = f32_to_e4m3},
	[DTYPE_E5M2] = {.name = "e5m2", .bytes = 1, .tmap_type = 0, .cublas_type = 29, .cublas_compute = 68,
			.ref = DTYPE_REF_LT, .rng = RNG_F32, .poison = 0x7eu, .exp_bits = 5, .mant_bits = 2, .bias = 15,
			.has_inf = 1, .scaled = 1, .c0_shift = 0, .to_f32 = e5m2_to_f32, .from_f32 = f32_to_e5m2},
	/* issue 39: int8 GEMM, checked against GemmEx with CUBLAS_COMPUTE_32I
	 * (CUDA_R_8I inputs, CUDA_R_32I output); no tensor map type of its own here */
	[DTYPE_S8] = {.name = "s8", .bytes = 1, .tmap_type = 0, .cublas_type = 3, .cublas_compute = 72,
		      .ref = DTYPE_REF_GEMMEX, .rng = RNG_F32, .poison = 0x80u, .integer = 1, .int_lo = -127, .int_hi = 127,
		      .to_f32 = s8_to_f32, .from_f32 = f32_to_s8},
	/* cuBLAS's GemmEx lists CUDA_R_8I inputs only (CUDA_R_8U = 8 is a
	 * cudaDataType it has no GEMM for): checked on the host */
	[DTYPE_U8] = {.name = "u8", .bytes = 1, .tmap_type = 0, .cublas_type = 8, .cublas_compute = -1,
		      .ref = DTYPE_REF_HOST, .rng = RNG_F32, .poison = 0xffu, .integer = 1, .int_lo = 1, .int_hi = 254,
		      .to_f32 = u8_to_f32, .from_f32 = f32_to_u8},
	[DTYPE_S32] = {.name = "s32", .bytes = 4, .tmap_type = -1, .cublas_type = 10, .cublas_compute = 72,
		       .ref = DTYPE_REF_GEMMEX, .rng = RNG_F32, .poison = 0x80000000u, .integer = 1},
};

const dtype_info *dtype_of(dtype d)
{
	return (unsigned)d < DTYPE_COUNT ? &types[d] : &types[DTYPE_NONE];
}

const char *dtype_name(dtype d)
{
	return dtype_of(d)->name;
}

const char *dtype_names(void)
{
	return "f32, f16, bf16, tf32, e4m3, e5m2, s8, u8 or s32";
}

const char *dtype_reference(dtype in)
{
	dtype_ref r = dtype_of(in)->ref;
	return r == DTYPE_REF_LT ? "cuBLASLt" : r == DTYPE_REF_HOST ? "the CPU's f64 reference" : "cuBLAS";
}

int dtype_parse(const char *s, dtype *out)
{
	for (dtype d = DTYPE_F32; d < DTYPE_COUNT; d++)
		if (!strcmp(s, types[d].name)) {
			*out = d;
			return 0;
		}
	return -1;
}

/* The outputs each input type has a reference for (dtype_pair_check). */
static const struct {
	dtype in;
	dtype out[3];             /* DTYPE_NONE-terminated */
	const char *library;      /* the call that is the reference, as the message names it */
} pairs[] = {
	/* cuBLAS GemmEx with CUBLAS_COMPUTE_32F takes A, B and C all f32, or
	 * 16-bit A and B with C in f32 or in the same 16-bit type */
	{DTYPE_F32, {DTYPE_F32}, "cuBLAS SGEMM"},
	{DTYPE_F16, {DTYPE_F32, DTYPE_F16}, "cuBLAS GemmEx"},
	{DTYPE_BF16, {DTYPE_F32, DTYPE_BF16}, "cuBLAS GemmEx"},
	{DTYPE_TF32, {DTYPE_F32}, "cuBLAS GemmEx"},
	/* cuBLASLt's FP8 table (sm_89+): A and B e4m3 with C/D bf16, f16 or f32
	 * (and FP8 D); e5m2 only beside an e4m3 operand */
	{DTYPE_E4M3, {DTYPE_F32, DTYPE_BF16}, "cuBLASLt"},
	/* cuBLASLt multiplies e5m2 only by e4m3 and A and B share one type
	 * here: an e5m2 run is checked by the emulator's CPU reference, and on a
	 * GPU it runs unchecked, saying so (gpu/runner.c prepare_reference) */
	{DTYPE_E5M2, {DTYPE_F32, DTYPE_BF16}, "cuBLASLt"},
	/* GemmEx's integer row: CUDA_R_8I A and B, CUDA_R_32I C, CUBLAS_COMPUTE_32I;
	 * and its CUBLAS_COMPUTE_32F row of CUDA_R_8I A and B with CUDA_R_32F C */
	{DTYPE_S8, {DTYPE_S32, DTYPE_F32}, "cuBLAS GemmEx"},
	/* no library GEMM: the CPU's f64 reference, on the GPU as in the emulator */
	{DTYPE_U8, {DTYPE_S32, DTYPE_F32}, "the CPU reference"},
};

int dtype_compute(dtype in, dtype out)
{
	const dtype_info *t = dtype_of(in);
	return t->integer && !dtype_of(out)->integer ? 68 : t->cublas_compute;
}

dtype dtype_default_out(dtype in)
{
	for (size_t i = 0; i < ARRAY_LEN(pairs); i++)
		if (pairs[i].in == in)
			return pairs[i].out[0];
	return DTYPE_F32;
}

int dtype_pair_check(dtype in, dtype out, char *err, size_t errlen)
{
	if (in == DTYPE_NONE) /* a zeroed request's inputs: f32, as the runner reads them */
		in = DTYPE_F32;
	if (out == DTYPE_NONE)
		out = DTYPE_F32;
	for (size_t i = 0; i < ARRAY_LEN(pairs); i++) {
		if (pairs[i].in != in)
			continue;
		char list[64] = "";
		for (int j = 0; j < 3 && pairs[i].out[j] != DTYPE_NONE; j++) {
			if (pairs[i].out[j] == out)
				return 0;
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? " or " : "",
				 dtype_name(pairs[i].out[j]));
		}
		if (in == DTYPE_F32)
			snprintf(err, errlen, "f32 inputs give an f32 output, not %s (cuBLAS has no reference for f32->%s)",
				 dtype_name(out), dtype_name(out));
		else
			snprintf(err, errlen, "%s inputs give an %s output, not %s (%s's pairs)", dtype_name(in), list,
				 dtype_name(out), pairs[i].library);
		return -1;
	}
	snprintf(err, errlen, "%s inputs have no reference", dtype_name(in));
	return -1;
}

void dtype_pair_name(dtype in, dtype out, char *buf, size_t len)
{
	if (in == out && in == DTYPE_F32) /* the only pair f32 inputs have: one name says it */
		snprintf(buf, len, "%s", dtype_name(in));
	else
		snprintf(buf, len, "%s→%s", dtype_name(in), dtype_name(out));
}

/* Element i of a buffer of 1- or 2-byte elements, as the table's 16-bit bits. */
static uint16_t small_at(const void *p, int bytes, size_t i)
{
	return bytes == 1 ? ((const uint8_t *)p)[i] : ((const uint16_t *)p)[i];
}

void dtype_to_f32(dtype d, const void *src, float *dst, size_t n)
{
	const dtype_info *t = dtype_of(d);
	if (d == DTYPE_S32) {
		for (size_t i = 0; i < n; i++) {
			int32_t v;
			memcpy(&v, (const uint8_t *)src + 4 * i, 4);
			dst[i] = s32_to_f32(v);
		}
		return;
	}
	if (!t->to_f32) {
		memmove(dst, src, n * sizeof *dst);
		return;
	}
	for (size_t i = 0; i < n; i++)
		dst[i] = t->to_f32(small_at(src, t->bytes, i));
}

void dtype_from_f32(dtype d, const float *src, void *dst, size_t n)
{
	const dtype_info *t = dtype_of(d);
	if (d == DTYPE_S32) {
		for (size_t i = 0; i < n; i++) {
			int32_t v = f32_to_s32(src[i]);
			memcpy((uint8_t *)dst + 4 * i, &v, 4);
		}
		return;
	}
	if (!t->from_f32) {
		memmove(dst, src, n * sizeof *src);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint16_t h = t->from_f32(src[i]);
		if (t->bytes == 1)
			((uint8_t *)dst)[i] = (uint8_t)h;
		else
			((uint16_t *)dst)[i] = h;
	}
}

float dtype_round(dtype d, float v)
{
	const dtype_info *t = dtype_of(d);
	if (d == DTYPE_S32)
		return s32_to_f32(f32_to_s32(v));
	if (t->kernel_rounds) {
		uint32_t u = fpconv_f32_to_tf32(v, FPCONV_RNA, 0);
		memcpy(&v, &u, 4);
		return v;
	}
	return t->from_f32 ? t->to_f32(t->from_f32(v)) : v;
}

/* ---- the bit fields' consequences ---- */

double dtype_unit_roundoff(dtype d)
{
	return ldexp(1.0, -(dtype_of(d)->mant_bits + 1));
}

double dtype_eps(dtype d)
{
	return ldexp(1.0, -dtype_of(d)->mant_bits);
}

double dtype_max_finite(dtype d)
{
	const dtype_info *t = dtype_of(d);
	if (!t->exp_bits)
		return 0;
	/* IEEE: the top exponent field is inf and NaN, so the largest finite has
	 * the one below it and a mantissa of all ones. e4m3: the top field holds
	 * finite values, all but S.1111.111 (NaN): the mantissa stops one short. */
	int top = (1 << t->exp_bits) - (t->nan == DTYPE_NAN_ALL_ONES ? 1 : 2);
	double mant = 2.0 - ldexp(1.0, -t->mant_bits) * (t->nan == DTYPE_NAN_ALL_ONES ? 2 : 1);
	return ldexp(mant, top - t->bias);
}

double dtype_min_normal(dtype d)
{
	const dtype_info *t = dtype_of(d);
	return t->exp_bits ? ldexp(1.0, 1 - t->bias) : 0;
}

double dtype_min_subnormal(dtype d)
{
	const dtype_info *t = dtype_of(d);
	return t->exp_bits ? ldexp(1.0, 1 - t->bias - t->mant_bits) : 0;
}

const char *dtype_nan_text(dtype d)
{
	return dtype_of(d)->nan == DTYPE_NAN_ALL_ONES ? "S.1111.111 only (no inf)"
						      : "exponent all ones, mantissa not zero";
}

/* ---- {fmt.TYPE.FIELD} ---- */

static double f_bits(dtype d) { return 8.0 * dtype_of(d)->bytes - (d == DTYPE_TF32 ? 13 : 0); }
static double f_exp_bits(dtype d) { return dtype_of(d)->exp_bits; }
static double f_mant_bits(dtype d) { return dtype_of(d)->mant_bits; }
static double f_bias(dtype d) { return dtype_of(d)->bias; }
static double f_has_inf(dtype d) { return dtype_of(d)->has_inf; }
static double f_min_normal_exp(dtype d) { return log2(dtype_min_normal(d)); }
static double f_min_subnormal_exp(dtype d) { return log2(dtype_min_subnormal(d)); }
static double f_eps_exp(dtype d) { return -dtype_of(d)->mant_bits; }

static const struct {
	const char *field;
	double (*value)(dtype d);
	int integer;              /* shown as an integer */
	const char *help;
} fmt_fields[] = {
	{"bits", f_bits, 1, "significant bits of the format: 1 + exp_bits + mant_bits (tf32: 19, in a 32-bit register)"},
	{"exp_bits", f_exp_bits, 1, "exponent bits"},
	{"mant_bits", f_mant_bits, 1, "mantissa (fraction) bits"},
	{"bias", f_bias, 1, "exponent bias"},
	{"has_inf", f_has_inf, 1, "1 when the format has infinities (e4m3: 0)"},
	{"max", dtype_max_finite, 0, "the largest finite value"},
	{"min_normal", dtype_min_normal, 0, "the smallest normal value"},
	{"min_subnormal", dtype_min_subnormal, 0, "the smallest subnormal value"},
	{"eps", dtype_eps, 0, "the spacing next to 1, 2^-mant_bits"},
	{"unit_roundoff", dtype_unit_roundoff, 0, "the largest relative rounding error, eps/2"},
	{"min_normal_exp", f_min_normal_exp, 1, "min_normal as a power of two: 2^this"},
	{"min_subnormal_exp", f_min_subnormal_exp, 1, "min_subnormal as a power of two: 2^this"},
	{"eps_exp", f_eps_exp, 1, "eps as a power of two: 2^this"},
};

const char *dtype_fmt_field(int i, const char **help)
{
	if (i < 0 || i >= (int)ARRAY_LEN(fmt_fields))
		return NULL;
	if (help)
		*help = fmt_fields[i].help;
	return fmt_fields[i].field;
}

/* The row of "fmt.TYPE.FIELD", with the type; -1 when it names none. */
static int fmt_lookup(const char *key, dtype *d)
{
	char name[16];
	const char *dot;
	if (strncmp(key, "fmt.", 4) || !(dot = strchr(key + 4, '.')) || (size_t)(dot - key - 4) >= sizeof name)
		return -1;
	memcpy(name, key + 4, (size_t)(dot - key - 4));
	name[dot - key - 4] = '\0';
	if (dtype_parse(name, d))
		return -1;
	for (size_t i = 0; i < ARRAY_LEN(fmt_fields); i++)
		if (!strcmp(dot + 1, fmt_fields[i].field))
			return (int)i;
	return -1;
}

int dtype_fmt_value(const char *key, double *out)
{
	dtype d;
	int i = fmt_lookup(key, &d);
	if (i < 0)
		return -1;
	*out = fmt_fields[i].value(d);
	return 0;
}

int dtype_fmt_format(const char *key, char *buf, size_t len)
{
	dtype d;
	int i = fmt_lookup(key, &d);
	if (i < 0)
		return -1;
	double v = fmt_fields[i].value(d);
	if (fmt_fields[i].integer || (v == floor(v) && fabs(v) < 1e15))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.7g", v);
	return 0;
}

/* ---- per-tensor scales ---- */

float dtype_scale_for(dtype d, const float *v, size_t n)
{
	if (!dtype_of(d)->scaled)
		return 1.0f;
	float amax = 0;
	for (size_t i = 0; i < n; i++)
		amax = fabsf(v[i]) > amax ? fabsf(v[i]) : amax;
	return amax > 0 && isfinite(amax) ? (float)(amax / dtype_max_finite(d)) : 1.0f;
}

void dtype_quantize(dtype d, const float *v, size_t n, float scale, void *stored, float *real)
{
	const dtype_info *t = dtype_of(d);
	float tiny = (float)dtype_min_subnormal(d);
	for (size_t i = 0; i < n; i++) {
		float q = dtype_round(d, v[i] / scale);
		if (q == 0.0f && v[i] != 0.0f && t->from_f32)
			q = copysignf(tiny, v[i]); /* a zero input would hide a kernel that skips a term */
		if (t->from_f32)
			dtype_from_f32(d, &q, (uint8_t *)stored + i * (size_t)t->bytes, 1);
		else
			memcpy((uint8_t *)stored + i * 4, &v[i], 4); /* f32, tf32: stored as drawn */
		if (real)
			real[i] = t->from_f32 ? q * scale : v[i];
	}
}

void dtype_fill(rng *r, dtype d, void *stored, float *real, size_t n, float *scale)
{
	const dtype_info *t = dtype_of(d);
	*scale = 1.0f;
	if (t->integer) { /* uniform in [int_lo, int_hi] but 0 (a zero hides a skipped term) */
		int span = t->int_hi - t->int_lo + (t->int_lo < 0 ? 0 : 1); /* values, 0 left out */
		for (size_t i = 0; i < n; i++) {
			int v = (int)(rng_next(r) % (uint64_t)span) + t->int_lo;
			v += v >= 0 && t->int_lo < 0;
			float f = (float)v;
			dtype_from_f32(d, &f, (uint8_t *)stored + i * (size_t)t->bytes, 1);
			if (real)
				real[i] = f;
		}
		return;
	}
	if (!t->scaled) {
		rng_fill(r, t->rng, stored, real, n);
		return;
	}
	/* drawn as f32 into real, then stored as v / scale */
	rng_fill(r, RNG_F32, real, NULL, n);
	*scale = dtype_scale_for(d, real, n);
	dtype_quantize(d, real, n, *scale, stored, real);
}
