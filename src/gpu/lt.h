/* lt: references through cuBLASLt — FP8's, and the fastest of the heuristic's list for any type (bench --reference best) — one plan (descriptors, layouts, the algorithm) per shape, chosen once and kept. */
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
	/* The fastest of the heuristic's list (lt_pick_fastest) instead of its
	 * first choice; for every type, with GemmEx's types and compute. */
	int best;
	/* FP8: partial sums promoted into f32 (cuBLASLt's default) instead of
	 * FAST_ACCUM's, for a kernel that promotes (lesson 11's --promote 1). */
	int promote;
} lt_shape;

/* The operands of a call: what lt_pick_fastest times the candidates on. */
typedef struct {
	float alpha, beta;
	CUdeviceptr A, B, out;
} lt_args;

#define LT_NAME_LEN 200

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

/* A best plan: times each algorithm of the heuristic's list on a's operands
 * (out is overwritten), keeps the fastest and names it (lt_name). Once per
 * plan; 0, or -1 with one line in why when none ran. */
int lt_pick_fastest(const cuda_api *cu, lt_plan *p, const lt_args *a, char *why, size_t len);
/* "sm90_xmma_gemm_... (fastest of 8)": the kernel CUPTI saw, else the
 * configuration's numbers; empty before lt_pick_fastest. */
const char *lt_name(const lt_plan *p);

#endif
