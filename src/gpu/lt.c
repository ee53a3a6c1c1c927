/* lt: the FP8 reference through cuBLASLt — one plan (descriptors, layouts, the algorithm) per shape, chosen once and kept. */
#include "gpu/lt.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

/* The workspace the heuristic may plan for, allocated once (the size
 * cuBLAS's own docs recommend on Hopper). */
#define LT_WORKSPACE (32u << 20)
/* Plans kept: a bench or a check walks a handful of sizes. */
#define LT_PLANS 16

struct lt_plan {
	lt_shape sh;
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t la, lb, lc;
	cublasLtMatmulAlgo_t algo;
	size_t workspace;
	CUdeviceptr scales;       /* two f32 on the GPU, 16 bytes apart: Lt's A scale (our B's), then Lt's B scale (our A's) */
};

static lt_plan plans[LT_PLANS];
static int nplans;
static CUdeviceptr workspace;
/* Each scale on its own 16 bytes: the alignment of any vector load of it. */
#define LT_SCALE_STRIDE 16

static int same(const lt_shape *a, const lt_shape *b)
{
	return a->M == b->M && a->N == b->N && a->K == b->K && a->in == b->in && a->out == b->out &&
	       a->b_kmajor == b->b_kmajor;
}

static void drop(const cuda_api *cu, lt_plan *p)
{
	if (p->la) cu->ltMatrixLayoutDestroy(p->la);
	if (p->lb) cu->ltMatrixLayoutDestroy(p->lb);
	if (p->lc) cu->ltMatrixLayoutDestroy(p->lc);
	if (p->desc) cu->ltMatmulDescDestroy(p->desc);
	if (p->scales) cu->MemFree(p->scales);
	memset(p, 0, sizeof *p);
}

/* The descriptors of the call. cuBLASLt is column-major: our row-major
 * C (M x N) is its N x M matrix D = op(A_lt) . op(B_lt) with A_lt our B and
 * B_lt our A (as the GemmEx reference in gpu/runner.c).
 *  - B_lt: our A, M x K row-major, is column-major K x M with ld K: op N.
 *  - A_lt: our B stored N x K row-major (b_kmajor) is column-major K x N
 *    with ld K, and op(A_lt) must be N x K: op T. This is the "TN" layout,
 *    both operands K-major, that cuBLASLt's FP8 kernels on Hopper require.
 *    B stored K x N (row-major) is column-major N x K with ld N: op N, which
 *    FP8 has no algorithm for, and the heuristic says so.
 *  - D (and C): N x M, ld N, the output type. */
static int describe(const cuda_api *cu, lt_plan *p, char *why, size_t len)
{
	const lt_shape *sh = &p->sh;
	int ab = dtype_of(sh->in)->cublas_type, c = dtype_of(sh->out)->cublas_type;
	int ta = sh->b_kmajor ? CUBLAS_OP_T : CUBLAS_OP_N, tb = CUBLAS_OP_N;
	unsigned long long m = (unsigned long long)sh->N, n = (unsigned long long)sh->M, k = (unsigned long long)sh->K;
	/* Fast accumulation: the sums stay in the tensor cores for the whole K,
	 * as lesson 11's kernel keeps them (its wgmmas accumulate into the same
	 * registers throughout); cuBLASLt's default instead adds partial sums
	 * into f32 on the CUDA cores every few k-steps, more accurate and more
	 * work. Same types, same accumulation: a like-for-like reference. */
	int8_t fast = 1;
	int st;
	if ((st = cu->ltMatmulDescCreate(&p->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F)) ||
	    (st = cu->ltMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast)) ||
	    (st = cu->ltMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta)) ||
	    (st = cu->ltMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb)) ||
	    (st = cu->ltMatrixLayoutCreate(&p->la, ab, sh->b_kmajor ? k : m, sh->b_kmajor ? m : k,
					   sh->b_kmajor ? (long long)k : (long long)m)) ||
	    (st = cu->ltMatrixLayoutCreate(&p->lb, ab, k, n, (long long)k)) ||
	    (st = cu->ltMatrixLayoutCreate(&p->lc, c, m, n, (long long)m))) {
		snprintf(why, len, "cuBLASLt refused the %s descriptors (status %d)", dtype_name(sh->in), st);
		return -1;
	}
	/* the scales: device pointers to f32, Lt's A is our B */
	CUresult r = cu->MemAlloc(&p->scales, 2 * LT_SCALE_STRIDE);
	void *sa = (void *)(uintptr_t)p->scales, *sb = (void *)(uintptr_t)(p->scales + LT_SCALE_STRIDE);
	if (r || (st = cu->ltMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa, sizeof sa)) ||
	    (st = cu->ltMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb, sizeof sb))) {
		snprintf(why, len, "cuBLASLt: cannot set the FP8 scales (%s)", r ? cuda_error(r) : "refused");
		return -1;
	}
	return 0;
}

/* The heuristic's first choice for the workspace we have, asked once. */
static int choose(const cuda_api *cu, lt_plan *p, char *why, size_t len)
{
	cublasLtMatmulPreference_t pref = NULL;
	unsigned long long ws = LT_WORKSPACE;
	cublasLtMatmulHeuristicResult_t res;
	int got = 0, st;
	memset(&res, 0, sizeof res);
	if ((st = cu->ltMatmulPreferenceCreate(&pref)) ||
	    (st = cu->ltMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws)) ||
	    (st = cu->ltMatmulAlgoGetHeuristic(cu->lt, p->desc, p->la, p->lb, p->lc, p->lc, pref, 1, &res, &got)) ||
	    got < 1) {
		if (pref)
			cu->ltMatmulPreferenceDestroy(pref);
		snprintf(why, len, "cuBLASLt has no algorithm for %s at %lldx%lldx%lld%s (status %d)",
			 dtype_name(p->sh.in), p->sh.M, p->sh.N, p->sh.K,
			 p->sh.b_kmajor ? "" : " with B stored K x N (FP8 wants it N x K: bmajor: k)", st);
		return -1;
	}
	cu->ltMatmulPreferenceDestroy(pref);
	p->algo = res.algo;
	p->workspace = res.workspaceSize;
	return 0;
}

lt_plan *lt_plan_for(const cuda_api *cu, const lt_shape *sh, char *why, size_t len)
{
	if (!cu->lt) {
		util_strlcpy(why, cu->lt_why[0] ? cu->lt_why : "cuBLASLt not loaded: FP8 runs are not checked", len);
		return NULL;
	}
	for (int i = 0; i < nplans; i++)
		if (same(&plans[i].sh, sh))
			return &plans[i];
	CUresult r;
	if (!workspace && (r = cu->MemAlloc(&workspace, LT_WORKSPACE))) {
		workspace = 0;
		snprintf(why, len, "cuBLASLt: cannot allocate its workspace: %s", cuda_error(r));
		return NULL;
	}
	if (nplans == LT_PLANS) /* full: the last plan made makes room */
		drop(cu, &plans[--nplans]);
	lt_plan *p = &plans[nplans];
	memset(p, 0, sizeof *p);
	p->sh = *sh;
	if (describe(cu, p, why, len) || choose(cu, p, why, len)) {
		drop(cu, p);
		return NULL;
	}
	nplans++;
	return p;
}

CUresult lt_set_scales(const cuda_api *cu, lt_plan *p, float scale_a, float scale_b)
{
	CUresult r = cu->MemcpyHtoD(p->scales, &scale_b, sizeof scale_b); /* Lt's A is our B */
	return r ? r : cu->MemcpyHtoD(p->scales + LT_SCALE_STRIDE, &scale_a, sizeof scale_a);
}

int lt_matmul(const cuda_api *cu, const lt_plan *p, float alpha, float beta, CUdeviceptr A, CUdeviceptr B,
	      CUdeviceptr out)
{
	void *d = (void *)(uintptr_t)out;
	return cu->ltMatmul(cu->lt, p->desc, &alpha, (const void *)(uintptr_t)B, p->la, (const void *)(uintptr_t)A, p->lb,
			    &beta, d, p->lc, d, p->lc, &p->algo, (void *)(uintptr_t)workspace, p->workspace, NULL);
}
