/* lt: references through cuBLASLt — FP8's, and the fastest of the heuristic's list for any type (bench --reference best) — one plan (descriptors, layouts, the algorithm) per shape, chosen once and kept. */
#include "gpu/lt.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/demangle.h"
#include "base/util.h"
#include "gpu/probe.h"

/* The workspace the heuristic may plan for, allocated once (the size
 * cuBLAS's own docs recommend on Hopper). */
#define LT_WORKSPACE (32u << 20)
/* Plans kept: a bench or a check walks a handful of sizes. */
#define LT_PLANS 16
/* --reference best: how many of the heuristic's algorithms are timed (the
 * issue asks for at least eight; the list is rarely longer for one shape),
 * and each one's timing: a block of launches of about LT_TRY_MS, the best of
 * LT_TRY_BLOCKS, after one untimed call. A short burst each: enough to rank
 * kernels that differ by a few percent (the winner is then timed steady,
 * alternating with ours, as every reference is). */
#define LT_CANDIDATES 16
#define LT_TRY_MS 20.0
#define LT_TRY_BLOCKS 3

struct lt_plan {
	lt_shape sh;
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t la, lb, lc;
	cublasLtMatmulAlgo_t algo;
	size_t workspace;
	CUdeviceptr scales;       /* two f32 on the GPU, 16 bytes apart: Lt's A scale (our B's), then Lt's B scale (our A's) */
	/* best: the heuristic's list, until lt_pick_fastest times it and keeps one */
	cublasLtMatmulHeuristicResult_t cand[LT_CANDIDATES];
	int ncand, picked;
	char name[LT_NAME_LEN];
};

static lt_plan plans[LT_PLANS];
static int nplans;
static CUdeviceptr workspace;
/* Each scale on its own 16 bytes: the alignment of any vector load of it. */
#define LT_SCALE_STRIDE 16

static int same(const lt_shape *a, const lt_shape *b)
{
	return a->M == b->M && a->N == b->N && a->K == b->K && a->in == b->in && a->out == b->out &&
	       a->b_kmajor == b->b_kmajor && a->best == b->best && a->promote == b->promote;
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
	const dtype_info *t = dtype_of(sh->in);
	int ab = t->cublas_type, c = dtype_of(sh->out)->cublas_type;
	/* the types GemmEx is given for the same run (gpu/runner.c): int8 sums
	 * and scales in int32, every other type's in f32 */
	int compute = dtype_compute(sh->in, sh->out), scale_type = compute == CUBLAS_COMPUTE_32I ? CUDA_R_32I : CUDA_R_32F;
	int ta = sh->b_kmajor ? CUBLAS_OP_T : CUBLAS_OP_N, tb = CUBLAS_OP_N;
	unsigned long long m = (unsigned long long)sh->N, n = (unsigned long long)sh->M, k = (unsigned long long)sh->K;
	/* Fast accumulation: the sums stay in the tensor cores for the whole K,
	 * as lesson 11's kernel keeps them (its wgmmas accumulate into the same
	 * registers throughout); cuBLASLt's default instead adds partial sums
	 * into f32 on the CUDA cores every few k-steps, more accurate and more
	 * work. Same types, same accumulation: a like-for-like reference. */
	int8_t fast = !sh->promote;
	int st;
	if ((st = cu->ltMatmulDescCreate(&p->desc, compute, scale_type)) ||
	    (t->scaled && (st = cu->ltMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast))) ||
	    (st = cu->ltMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta)) ||
	    (st = cu->ltMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb)) ||
	    (st = cu->ltMatrixLayoutCreate(&p->la, ab, sh->b_kmajor ? k : m, sh->b_kmajor ? m : k,
					   sh->b_kmajor ? (long long)k : (long long)m)) ||
	    (st = cu->ltMatrixLayoutCreate(&p->lb, ab, k, n, (long long)k)) ||
	    (st = cu->ltMatrixLayoutCreate(&p->lc, c, m, n, (long long)m))) {
		snprintf(why, len, "cuBLASLt refused the %s descriptors (status %d)", dtype_name(sh->in), st);
		return -1;
	}
	if (!t->scaled)
		return 0;
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

/* The heuristic's first choice for the workspace we have, asked once; for
 * best, its whole list (up to LT_CANDIDATES), the first kept until
 * lt_pick_fastest has timed them. */
static int choose(const cuda_api *cu, lt_plan *p, char *why, size_t len)
{
	cublasLtMatmulPreference_t pref = NULL;
	unsigned long long ws = LT_WORKSPACE;
	cublasLtMatmulHeuristicResult_t *res = p->cand;
	int got = 0, st;
	memset(res, 0, sizeof p->cand);
	if ((st = cu->ltMatmulPreferenceCreate(&pref)) ||
	    (st = cu->ltMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws)) ||
	    (st = cu->ltMatmulAlgoGetHeuristic(cu->lt, p->desc, p->la, p->lb, p->lc, p->lc, pref,
					       p->sh.best ? LT_CANDIDATES : 1, res, &got)) ||
	    got < 1) {
		if (pref)
			cu->ltMatmulPreferenceDestroy(pref);
		snprintf(why, len, "cuBLASLt has no algorithm for %s at %lldx%lldx%lld%s (status %d)",
			 dtype_name(p->sh.in), p->sh.M, p->sh.N, p->sh.K,
			 p->sh.b_kmajor || !dtype_of(p->sh.in)->scaled ? "" : " with B stored K x N (FP8 wants it N x K: bmajor: k)",
			 st);
		return -1;
	}
	cu->ltMatmulPreferenceDestroy(pref);
	p->ncand = got;
	p->algo = res[0].algo;
	p->workspace = res[0].workspaceSize;
	return 0;
}

lt_plan *lt_plan_for(const cuda_api *cu, const lt_shape *sh, char *why, size_t len)
{
	if (!cu->lt) {
		util_strlcpy(why, cu->lt_why[0] ? cu->lt_why : "cuBLASLt not loaded", len);
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
	if (!p->scales) /* a type of no scales */
		return CUDA_SUCCESS;
	CUresult r = cu->MemcpyHtoD(p->scales, &scale_b, sizeof scale_b); /* Lt's A is our B */
	return r ? r : cu->MemcpyHtoD(p->scales + LT_SCALE_STRIDE, &scale_a, sizeof scale_a);
}

/* One call with an algorithm and its workspace (int8's scales are int32). */
static int matmul_with(const cuda_api *cu, const lt_plan *p, const cublasLtMatmulAlgo_t *algo, size_t ws, float alpha,
		       float beta, CUdeviceptr A, CUdeviceptr B, CUdeviceptr out)
{
	void *d = (void *)(uintptr_t)out;
	int32_t ia = (int32_t)alpha, ib = (int32_t)beta;
	int i32 = dtype_compute(p->sh.in, p->sh.out) == CUBLAS_COMPUTE_32I;
	return cu->ltMatmul(cu->lt, p->desc, i32 ? (const void *)&ia : &alpha, (const void *)(uintptr_t)B, p->la,
			    (const void *)(uintptr_t)A, p->lb, i32 ? (const void *)&ib : &beta, d, p->lc, d, p->lc, algo,
			    (void *)(uintptr_t)workspace, ws, NULL);
}

int lt_matmul(const cuda_api *cu, const lt_plan *p, float alpha, float beta, CUdeviceptr A, CUdeviceptr B,
	      CUdeviceptr out)
{
	return matmul_with(cu, p, &p->algo, p->workspace, alpha, beta, A, B, out);
}

/* One candidate's time, ms a call: the best of LT_TRY_BLOCKS blocks; -1
 * when it fails (an algorithm the heuristic lists may still refuse). */
static double try_one(const cuda_api *cu, const lt_plan *p, int i, const lt_args *a, CUevent e0, CUevent e1)
{
	const cublasLtMatmulHeuristicResult_t *c = &p->cand[i];
	float f = 0;
	if (matmul_with(cu, p, &c->algo, c->workspaceSize, a->alpha, a->beta, a->A, a->B, a->out) ||
	    cu->EventRecord(e0, NULL) ||
	    matmul_with(cu, p, &c->algo, c->workspaceSize, a->alpha, a->beta, a->A, a->B, a->out) ||
	    cu->EventRecord(e1, NULL) || cu->EventSynchronize(e1) || cu->EventElapsedTime(&f, e0, e1))
		return -1;
	int n = f > 0 ? (int)(LT_TRY_MS / f) + 1 : 1;
	double best = -1;
	for (int b = 0; b < LT_TRY_BLOCKS; b++) {
		int bad = cu->EventRecord(e0, NULL) != 0;
		for (int k = 0; k < n && !bad; k++)
			bad = matmul_with(cu, p, &c->algo, c->workspaceSize, a->alpha, a->beta, a->A, a->B, a->out) != 0;
		if (bad || cu->EventRecord(e1, NULL) || cu->EventSynchronize(e1) || cu->EventElapsedTime(&f, e0, e1))
			return -1;
		best = best < 0 || f / n < best ? f / n : best;
	}
	return best;
}

/* The algorithm's name: the kernel it launches (CUPTI, demangled, its
 * arguments dropped), else its configuration's numbers from cuBLASLt. */
static void name_algo(const cuda_api *cu, lt_plan *p, const lt_args *a)
{
	const char *sym = NULL;
	if (probe_names_begin() == 0) {
		lt_matmul(cu, p, a->alpha, a->beta, a->A, a->B, a->out);
		cu->CtxSynchronize();
		sym = probe_names_end();
	}
	if (sym) {
		demangle(sym, p->name, sizeof p->name);
		char *paren = strchr(p->name, '(');
		if (paren)
			*paren = '\0';
		return;
	}
	unsigned id = 0, tile = 0, stages = 0, splitk = 0;
	size_t w;
	if (cu->ltMatmulAlgoConfigGetAttribute) {
		cu->ltMatmulAlgoConfigGetAttribute(&p->algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &w);
		cu->ltMatmulAlgoConfigGetAttribute(&p->algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &w);
		cu->ltMatmulAlgoConfigGetAttribute(&p->algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &w);
		cu->ltMatmulAlgoConfigGetAttribute(&p->algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof splitk, &w);
	}
	snprintf(p->name, sizeof p->name, "cuBLASLt algo %u (tile id %u, stages id %u, split-k %u)", id, tile, stages,
		 splitk);
}

int lt_pick_fastest(const cuda_api *cu, lt_plan *p, const lt_args *a, char *why, size_t len)
{
	if (p->picked)
		return 0;
	CUevent e0 = NULL, e1 = NULL;
	if (cu->EventCreate(&e0, 0) || cu->EventCreate(&e1, 0)) {
		snprintf(why, len, "cuBLASLt: cannot create the events that time its algorithms");
		if (e0)
			cu->EventDestroy(e0);
		return -1;
	}
	double best = -1;
	int tried = 0;
	for (int i = 0; i < p->ncand; i++) {
		double ms = try_one(cu, p, i, a, e0, e1);
		tried += ms > 0;
		if (ms > 0 && (best < 0 || ms < best)) {
			best = ms;
			p->algo = p->cand[i].algo;
			p->workspace = p->cand[i].workspaceSize;
		}
	}
	cu->EventDestroy(e0);
	cu->EventDestroy(e1);
	cu->CtxSynchronize(); /* a refused candidate leaves no error behind: the calls return it */
	if (best < 0) {
		snprintf(why, len, "cuBLASLt: none of the %d algorithms its heuristic listed ran", p->ncand);
		return -1;
	}
	p->picked = 1;
	char kernel[LT_NAME_LEN];
	name_algo(cu, p, a);
	util_strlcpy(kernel, p->name, sizeof kernel);
	snprintf(p->name, sizeof p->name, "%.160s (fastest of %d)", kernel, tried);
	return 0;
}

const char *lt_name(const lt_plan *p)
{
	return p->name;
}
