/* lt: the FP8 reference through cuBLASLt — one plan (descriptors, layouts, the algorithm) per shape, chosen once and kept. */
#ifndef PTXTUTOR_LT_H
#define PTXTUTOR_LT_H

#include <stddef.h>

#include "course/dtype.h"
#include "gpu/cuda.h"

/* The shape and types of one matmul: our row-major C (M x N) = A (M x K) .
 * B, with B stored K x N, or N x K when b_kmajor. */
typedef struct {
	long long M, N, K;
	dtype in, out;
	int b_kmajor;
} lt_shape;

typedef struct lt_plan lt_plan;

/* The plan of a shape: made on the first call (descriptors, layouts, the
 * heuristic's first algorithm for a 32 MiB workspace) and kept for the
 * process, so every later reference of that shape runs the same algorithm
 * (issue #27: the reference at its own steady best, not a new heuristic
 * pick per call). NULL with one line in why when cuBLASLt is missing or
 * has no algorithm for it (FP8 on Hopper wants B stored N x K: bmajor: k). */
lt_plan *lt_plan_for(const cuda_api *cu, const lt_shape *sh, char *why, size_t len);

/* The per-tensor scales of A and B (real = stored x scale), copied to the
 * plan's device f32 pair that its descriptor points at. Once per run,
 * before the matmuls: a copy inside a timed block would time it too. */
CUresult lt_set_scales(const cuda_api *cu, lt_plan *p, float scale_a, float scale_b);

/* out = alpha * (scale_a*A) . (scale_b*B) + beta * out, out in the shape's
 * output type (it holds C0 when beta is not 0). Returns cublasStatus_t (0 ok). */
int lt_matmul(const cuda_api *cu, const lt_plan *p, float alpha, float beta, CUdeviceptr A, CUdeviceptr B,
	      CUdeviceptr out);

#endif
