/* dtype: the element types a kernel reads and writes (f32, f16, bf16), and the one table of what each means to the runner, the check and the model. */
#ifndef PTXTUTOR_DTYPE_H
#define PTXTUTOR_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"

/* DTYPE_NONE: a lesson without a kernel. A run request's output type may be
 * left DTYPE_NONE too, and then means f32 (run/run.h's run_out). */
typedef enum { DTYPE_NONE, DTYPE_F32, DTYPE_F16, DTYPE_BF16, DTYPE_COUNT } dtype;

/* One element type. The CUDA numbers are the enums of the driver's and
 * cuBLAS's headers, written as numbers here so that the course layer needs
 * no CUDA header; tests/test_dtype.c checks them against src/gpu/cuda.h,
 * which declares them ABI-compatibly with cuda.h and library_types.h. */
typedef struct {
	const char *name;          /* "bf16", as lessons and options spell it */
	int bytes;                 /* bytes per element; 0 for none */
	int tmap_type;             /* CUtensorMapDataType: FLOAT32 7, FLOAT16 6, BFLOAT16 9; -1 none */
	int cublas_type;           /* cudaDataType: CUDA_R_32F 0, CUDA_R_16F 2, CUDA_R_16BF 14; -1 none */
	rng_format rng;            /* how base/rng.c fills a matrix of it */
	uint32_t poison;           /* a quiet NaN in this type (low `bytes` bytes): C before a run without beta: */
	/* A rel. error ||got - ref|| / ||ref|| as the rounding of a result to this
	 * type allows: 2u, u = 2^-(mantissa bits + 1), see run/run.c run_tolerance. */
	double unit_roundoff;
	/* The second C0 of a check under beta: (run/verify.c): C0 times 2^-shift,
	 * exact for C0 in [-1, 1] in this type. */
	int c0_shift;
	/* A 16-bit type's conversions (base/util.c); NULL for f32, stored as is. */
	float (*to_f32)(uint16_t h);
	uint16_t (*from_f32)(float f);
} dtype_info;

/* The entry of d; DTYPE_NONE's for a value outside the enum. */
const dtype_info *dtype_of(dtype d);
/* "f32", "f16", "bf16", "none". */
const char *dtype_name(dtype d);
/* The type named s (not "none"); returns 0, or -1 when s names no type. */
int dtype_parse(const char *s, dtype *out);
/* "f32, f16 or bf16": the names a message lists. */
const char *dtype_names(void);

/* Whether a kernel may read `in` and write `out`: the pairs cuBLAS's GemmEx
 * computes with f32 accumulation, so the check has a reference of the same
 * types: f32->f32, f16->f32, f16->f16, bf16->f32, bf16->bf16. Returns 0, or
 * -1 with one line in err that says which outputs `in` allows. */
int dtype_pair_check(dtype in, dtype out, char *err, size_t errlen);
/* "bf16→bf16", "f16→f32": inputs and output as tables and headers show them
 * ("f32" alone for f32 inputs, whose output is always f32). */
void dtype_pair_name(dtype in, dtype out, char *buf, size_t len);

/* n elements of type d at src into f32, and back (round to nearest even). */
void dtype_to_f32(dtype d, const void *src, float *dst, size_t n);
void dtype_from_f32(dtype d, const float *src, void *dst, size_t n);
/* One value rounded to d and back: what storing it in d keeps. */
float dtype_round(dtype d, float v);

#endif
