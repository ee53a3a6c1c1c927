/* dtype: the element types a kernel reads and writes (f32, f16, bf16, tf32, e4m3, e5m2), and the one table of what each means to the runner, the check and the model. */
#ifndef PTXTUTOR_DTYPE_H
#define PTXTUTOR_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"

/* DTYPE_NONE: a lesson without a kernel. A run request's output type may be
 * left DTYPE_NONE too, and then means f32 (run/run.h's run_out). */
typedef enum {
	DTYPE_NONE,
	DTYPE_F32,
	DTYPE_F16,
	DTYPE_BF16,
	DTYPE_TF32,   /* stored as f32; the kernel rounds to tf32 itself (cvt.rna.tf32.f32) */
	DTYPE_E4M3,   /* OCP FP8, 1 byte, with a per-tensor scale */
	DTYPE_E5M2,   /* OCP FP8, 1 byte, with a per-tensor scale */
	DTYPE_S8,     /* int8 inputs (A, B), multiplied exactly */
	DTYPE_S32,    /* int32 output of s8 inputs: the exact sums */
	DTYPE_U8,     /* unsigned int8 inputs: cuBLAS has no u8 GEMM, checked against the CPU's f64 reference */
	DTYPE_COUNT
} dtype;

/* How a format encodes NaN (the bit-field facts a lesson shows). */
typedef enum {
	DTYPE_NAN_IEEE,       /* exponent all ones, mantissa not zero (all ones and zero mantissa: inf) */
	DTYPE_NAN_ALL_ONES,   /* only S.1111.111 (e4m3): the top exponent holds finite values too */
} dtype_nan;

/* Which library call is a run's reference (src/gpu/runner.c). */
typedef enum {
	DTYPE_REF_SGEMM,      /* cuBLAS SGEMM (f32) */
	DTYPE_REF_GEMMEX,     /* cuBLAS GemmEx with the table's compute type */
	DTYPE_REF_LT,         /* cuBLASLt cublasLtMatmul with per-tensor scales (FP8) */
	DTYPE_REF_HOST,       /* no library GEMM: run/verify.c's f64 reference on the host (u8) */
} dtype_ref;

/* One element type. The CUDA numbers are the enums of the driver's and
 * cuBLAS's headers, written as numbers here so that the course layer needs
 * no CUDA header; tests/test_dtype.c checks them against src/gpu/cuda.h,
 * which declares them ABI-compatibly with cuda.h and library_types.h. */
typedef struct {
	const char *name;          /* "bf16", as lessons and options spell it */
	int bytes;                 /* bytes per element; 0 for none */
	/* CUtensorMapDataType: FLOAT32 7, FLOAT16 6, BFLOAT16 9; UINT8 0 for the
	 * FP8 types (TMA copies bytes, it never converts them); -1 none */
	int tmap_type;
	/* cudaDataType: CUDA_R_32F 0, CUDA_R_16F 2, CUDA_R_16BF 14, CUDA_R_8F_E4M3 28,
	 * CUDA_R_8F_E5M2 29, CUDA_R_8I 3, CUDA_R_32I 10; tf32 is stored as CUDA_R_32F; -1 none */
	int cublas_type;
	/* cublasComputeType_t of the reference: CUBLAS_COMPUTE_32F 68,
	 * CUBLAS_COMPUTE_32F_FAST_TF32 77 (inputs rounded to tf32 inside cuBLAS),
	 * or CUBLAS_COMPUTE_32I 72 (int8 inputs, int32 sums and int32 alpha, beta) */
	int cublas_compute;
	dtype_ref ref;             /* which call is the reference */
	rng_format rng;            /* how base/rng.c draws a matrix of it (an FP8 type: the f32 values, then scaled) */
	uint32_t poison;           /* a quiet NaN in this type (low `bytes` bytes): C before a run without beta: */
	/* The bit fields, as a lesson draws them (sign bits are always 1). */
	int exp_bits, mant_bits, bias;
	int has_inf;               /* an exponent of all ones with a zero mantissa is inf */
	dtype_nan nan;
	/* The stored values are f32 and the kernel rounds them to this type
	 * itself (tf32): the kernel and the reference round separately. */
	int kernel_rounds;
	/* FP8: a per-tensor scale maps the largest |value| to the largest finite
	 * value (dtype_scale_for); real value = stored value x scale. */
	int scaled;
	/* An integer type (s8, u8, s32): exact arithmetic, so the check's
	 * tolerance is 0 with an integer output; the poison reads back as NaN.
	 * Inputs are drawn uniform in [int_lo, int_hi] but 0 (dtype_fill). */
	int integer;
	int int_lo, int_hi;
	/* The second C0 of a check under beta: (run/verify.c): C0 times 2^-shift,
	 * exact for C0 in [-1, 1] in this type. */
	int c0_shift;
	/* A 16-bit (base/util.c) or 8-bit (base/fpconv.c, .rn.satfinite) type's
	 * conversions, the bits in the low bytes; NULL for f32 and tf32, stored as f32. */
	float (*to_f32)(uint16_t h);
	uint16_t (*from_f32)(float f);
} dtype_info;

/* The entry of d; DTYPE_NONE's for a value outside the enum. */
const dtype_info *dtype_of(dtype d);
/* "f32", "f16", "bf16", "none". */
const char *dtype_name(dtype d);
/* The library a run of inputs `in` is checked and timed against, as text
 * says it: "cuBLAS" (SGEMM, GemmEx), "cuBLASLt" (FP8), or "the CPU's f64
 * reference" (u8: checked on the host, timed alone). */
const char *dtype_reference(dtype in);
/* The type named s (not "none"); returns 0, or -1 when s names no type. */
int dtype_parse(const char *s, dtype *out);
/* "f32, f16, bf16, tf32, e4m3, e5m2, s8, u8 or s32": the names a message lists. */
const char *dtype_names(void);
/* The output a run of inputs `in` has when none is named: the first of its
 * pairs (f32 for the float types, s32 for s8). */
dtype dtype_default_out(dtype in);

/* The cublasComputeType_t of the reference of `in` -> `out`: the input's,
 * but CUBLAS_COMPUTE_32F (68) for integer inputs with a float output
 * (GemmEx's CUDA_R_8I -> CUDA_R_32F row). */
int dtype_compute(dtype in, dtype out);

/* Whether a kernel may read `in` and write `out`: the pairs a library call
 * computes with f32 accumulation, so the check has a reference of the same
 * types: f32->f32, f16->f32, f16->f16, bf16->f32, bf16->bf16 (cuBLAS GemmEx),
 * tf32->f32 (GemmEx, CUBLAS_COMPUTE_32F_FAST_TF32), s8->s32 (GemmEx,
 * CUBLAS_COMPUTE_32I), s8->f32 (GemmEx, CUBLAS_COMPUTE_32F), u8->s32 and
 * u8->f32 (the CPU's reference), e4m3->f32, e4m3->bf16
 * (cuBLASLt; its FP8 table has no e5m2 x e5m2 matmul, so e5m2 inputs, which
 * are A's and B's both here, have no pair). Returns 0, or -1 with one line
 * in err that says which outputs `in` allows. */
int dtype_pair_check(dtype in, dtype out, char *err, size_t errlen);
/* "bf16→bf16", "f16→f32": inputs and output as tables and headers show them
 * ("f32" alone for f32 inputs, whose output is always f32). */
void dtype_pair_name(dtype in, dtype out, char *buf, size_t len);

/* n elements of type d at src into f32, and back (round to nearest even). */
void dtype_to_f32(dtype d, const void *src, float *dst, size_t n);
void dtype_from_f32(dtype d, const float *src, void *dst, size_t n);
/* One value rounded to d and back: what storing it in d keeps (tf32:
 * cvt.rna.tf32.f32, what a kernel of the course does with its f32 inputs). */
float dtype_round(dtype d, float v);

/* ---- the bit fields' consequences, computed from the table ---- */

/* u = 2^-(mantissa bits + 1): the largest relative error of rounding to d. */
double dtype_unit_roundoff(dtype d);
/* The spacing next to 1, 2^-mantissa bits (tf32: 2^-10). */
double dtype_eps(dtype d);
/* The largest finite value (e4m3: 448, e5m2: 57344, f16: 65504). */
double dtype_max_finite(dtype d);
/* The smallest normal value, 2^(1 - bias) (e4m3: 2^-6). */
double dtype_min_normal(dtype d);
/* The smallest subnormal value, 2^(1 - bias - mantissa bits) (e4m3: 2^-9). */
double dtype_min_subnormal(dtype d);
/* "exponent all ones, mantissa not zero" or "S.1111.111 only": for prose. */
const char *dtype_nan_text(dtype d);

/* Lesson placeholders {fmt.TYPE.FIELD}, e.g. {fmt.e4m3.max}: FIELD is bits,
 * exp_bits, mant_bits, bias, has_inf, max, min_normal, min_subnormal, eps,
 * unit_roundoff, or min_normal_exp, min_subnormal_exp, eps_exp (the power of
 * two: "2^{fmt.e4m3.min_normal_exp}"). dtype_fmt_value returns 0 with the
 * number, or -1 for a key of no such type or field; dtype_fmt_format writes
 * it as prose shows it (integers as integers, others to 7 significant digits);
 * dtype_fmt_field(i) lists the fields (NULL past the end) for the docs. */
int dtype_fmt_value(const char *key, double *out);
int dtype_fmt_format(const char *key, char *buf, size_t len);
const char *dtype_fmt_field(int i, const char **help);

/* ---- per-tensor scales (FP8) ---- */

/* The scale of a tensor of values v in type d: max|v| / dtype_max_finite(d)
 * for an FP8 type, so that the largest |value| maps to the largest finite
 * value (1 when all are zero); 1.0f for every other type. */
float dtype_scale_for(dtype d, const float *v, size_t n);
/* Stores n values v in type d as v / scale (rounded to nearest even,
 * saturating), writing the stored bits to `stored` and, when real is not
 * NULL, the value the kernel means, stored value x scale, to real (real may
 * be v itself). A value that would round to zero is stored as the smallest
 * subnormal of its sign, so no input is zero. */
void dtype_quantize(dtype d, const float *v, size_t n, float scale, void *stored, float *real);
/* A run's random input of type d: n values uniform in [-1, 1], never zero
 * as stored (base/rng.c), drawn as f32 and for an FP8 type quantized with
 * its own per-tensor scale. stored receives n elements of d; real the values
 * the kernel's product means (stored x scale, as f32: the reference's
 * inputs); *scale the scale (1 for non-FP8 types). */
void dtype_fill(rng *r, dtype d, void *stored, float *real, size_t n, float *scale);

#endif
