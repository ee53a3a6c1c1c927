/* runner: JIT a PTX module (with its logs), launch it, time it and verify it against cuBLAS. */
#include "gpu/runner.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/rng.h"
#include "base/util.h"
#include "course/sass.h"
#include "gpu/cuda.h"
#include "gpu/lt.h"
#include "gpu/probe.h"
#include "model/grid.h"
#include "run/layout.h"
#include "run/verify.h"

/* ---- the run ---- */

typedef struct {
	const cuda_api *cu;
	CUmodule mod;
	CUfunction fn;
	CUdeviceptr A, B, C, R;
	CUevent e0, e1;
	dtype in, out;               /* A and B; C (and cuBLAS's R) */
	float *hc, *hr, *hc0, *hc2;  /* C out, reference, C0 (beta:), a second launch's C: as f32, M x N row-major */
	/* What A and B mean, tight (NULL when not kept): a host reference's
	 * inputs (DTYPE_REF_HOST), and a small error's diagnosis (run/diagnose.h) */
	float *ra, *rb;
	run_store sa, sb, sc;        /* how A, B and C (and cuBLAS's R) lie in memory (run/layout.h) */
	/* The check's reference is run/verify.c's on the host (host_reason), not a library call */
	int host_ref;
	void *ha, *hb;
	void *hraw;                  /* one C in the output type, on its way to or from the GPU */
	argspec_blas blas;           /* alpha, beta: the spec's, for cuBLAS too */
	float scale[2];              /* A's and B's per-tensor scales (FP8; 1 otherwise): scale:A, scale:B */
	/* The reference: cuBLAS (SGEMM, GemmEx) or cuBLASLt's plan (FP8); has_ref
	 * 0 when its library is missing, ref_why then says so in one line. */
	int has_ref;
	lt_plan *lt;
	char ref_why[200];
	/* kernel parameters: storage and pointers */
	CUtensorMap tm[ARGSPEC_MAX_TMAPS];
	int ntm;
	unsigned long long pv[ARGSPEC_MAX];
	void *pp[ARGSPEC_MAX];
	int np;
} run_state;

static void cleanup(run_state *s)
{
	const cuda_api *cu = s->cu;
	if (cu) {
		if (s->A) cu->MemFree(s->A);
		if (s->B) cu->MemFree(s->B);
		if (s->C) cu->MemFree(s->C);
		if (s->R) cu->MemFree(s->R);
		if (s->e0) cu->EventDestroy(s->e0);
		if (s->e1) cu->EventDestroy(s->e1);
		if (s->mod) cu->ModuleUnload(s->mod);
	}
	free(s->ha);
	free(s->hb);
	free(s->hc);
	free(s->hr);
	free(s->hc0);
	free(s->hc2);
	free(s->hraw);
	free(s->ra);
	free(s->rb);
}

/* Sets the status from a failed driver call; faults poison the context. */
static void set_cuda_error(run_result *res, CUresult r, const char *what)
{
	int fault = r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_TIMEOUT ||
		    (r >= 710 && r <= 720 && r != CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
	res->status = fault ? RUN_FAULT : RUN_LAUNCH_ERROR;
	snprintf(res->msg, sizeof res->msg, "%s: %s%s", what, cuda_error(r),
		 fault ? " (the GPU context is lost; the worker restarts)" : "");
}

/* A tensor map over one of the matrices (an ARG_TMAP item): the whole
 * matrix as a 2-D tensor, columns innermost, and the item's box of INNER
 * columns x OUTER rows that one TMA copy moves into shared memory. */
static int build_tensor_map(run_state *s, const argspec_item *it, CUtensorMap *tm, run_result *res)
{
	/* A is M x K, B is K x N, C is M x N, each a tensor of its lines (rows
	 * or columns, run/layout.h) ld apart; A and B have the input type, C the output type. */
	char m = it->name;
	CUdeviceptr base = m == 'A' ? s->A : m == 'B' ? s->B : s->C;
	const run_store *st = m == 'A' ? &s->sa : m == 'B' ? &s->sb : &s->sc;
	const dtype_info *t = dtype_of(m == 'C' ? s->out : s->in);
	unsigned long long dims[2] = {(unsigned long long)st->inner, (unsigned long long)st->outer};
	unsigned long long strides[1] = {(unsigned long long)st->ld * (unsigned)t->bytes};
	unsigned one[2] = {1, 1};
	CUresult r = s->cu->TensorMapEncodeTiled(tm, t->tmap_type, 2, (void *)(uintptr_t)base, dims, strides, it->box, one,
						  CU_TENSOR_MAP_INTERLEAVE_NONE, (int)it->swizzle,
						  CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS) {
		char tok[ARGSPEC_TOKEN];
		argspec_format_item(it, tok, sizeof tok);
		snprintf(res->msg, sizeof res->msg,
			 "--args: the driver refused %s (is the inner side wider than the swizzle?): %.60s", tok,
			 cuda_error(r));
		return -1;
	}
	return 0;
}

/* The kernel's parameters, from the request's parsed list: storage and pointers. */
static int build_params(run_state *s, const run_request *rq, run_result *res)
{
	const argspec *a = argspec_or_default(&rq->args);
	const CUdeviceptr bufs[3] = {s->A, s->B, s->C};
	const long long sizes[3] = {rq->M, rq->N, rq->K};
	s->np = s->ntm = 0;
	for (int i = 0; i < a->n; i++) {
		const argspec_item *it = &a->item[i];
		unsigned long long *slot = &s->pv[i];
		void *param = slot;
		uint32_t u32;
		*slot = 0;
		switch (it->kind) {
		case ARG_MATRIX: *slot = bufs[it->name - 'A']; break;
		case ARG_SIZE:
			u32 = (uint32_t)sizes[strchr("MNK", it->name) - "MNK"];
			memcpy(slot, &u32, 4);
			break;
		case ARG_LITERAL:
		case ARG_SCALAR: memcpy(slot, &it->bits, it->bytes); break; /* the low bytes: little-endian */
		case ARG_SCALE: memcpy(slot, &s->scale[it->name - 'A'], 4); break;
		case ARG_LD:
			u32 = (uint32_t)(it->name == 'A' ? s->sa : it->name == 'B' ? s->sb : s->sc).ld;
			memcpy(slot, &u32, 4);
			break;
		case ARG_TMAP:
			if (build_tensor_map(s, it, &s->tm[s->ntm], res))
				return -1;
			param = &s->tm[s->ntm++];
			break;
		}
		s->pp[s->np++] = param;
	}
	return 0;
}

/* Refuses a module whose .target the GPU cannot run, before the JIT says so
 * less clearly: sm_NN needs compute capability N.N or newer, sm_NNa exactly it. */
static int check_target(const char *ptx, run_result *res)
{
	const char *t = strstr(ptx, ".target");
	int sm = 0;
	char a = 0;
	if (!t || sscanf(t, ".target sm_%d%c", &sm, &a) < 1)
		return 0;
	int have = res->cc_major * 10 + res->cc_minor;
	int specific = a == 'a';
	if (have >= sm && (!specific || have == sm))
		return 0;
	res->status = RUN_UNSUPPORTED;
	snprintf(res->msg, sizeof res->msg, "this kernel needs sm_%d%s (its .target); %.60s is sm_%d", sm,
		 specific ? "a" : "", res->gpu, have);
	return -1;
}

/* A launch configuration for cuLaunchKernelEx with the request's cluster
 * (at points to the one attribute it uses). */
static void cluster_config(const run_request *rq, const unsigned grid[3], CUlaunchConfig *cfg, CUlaunchAttribute *at)
{
	unsigned c[3];
	run_cluster(rq, c);
	memset(at, 0, sizeof *at);
	at->id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	at->value.clusterDim.x = c[0];
	at->value.clusterDim.y = c[1];
	at->value.clusterDim.z = c[2];
	*cfg = (CUlaunchConfig){.gridDimX = grid[0], .gridDimY = grid[1], .gridDimZ = grid[2],
				.blockDimX = rq->block[0], .blockDimY = rq->block[1], .blockDimZ = rq->block[2],
				.sharedMemBytes = rq->smem, .attrs = at, .numAttrs = 1};
}

static CUresult launch(run_state *s, const run_request *rq, const run_result *res)
{
	unsigned c[3];
	if (run_cluster(rq, c) == 1)
		return s->cu->LaunchKernel(s->fn, res->grid[0], res->grid[1], res->grid[2], rq->block[0], rq->block[1],
					   rq->block[2], rq->smem, NULL, s->pp, NULL);
	CUlaunchConfig cfg;
	CUlaunchAttribute at;
	cluster_config(rq, res->grid, &cfg, &at);
	return s->cu->LaunchKernelEx(&cfg, s->fn, s->pp, NULL);
}

/* A persistent kernel's 1-D grid, sized by grid_persistent (model/grid.h,
 * the rule the model uses too) from what the driver says fits: blocks per SM
 * times SMs, or with clusters cuOccupancyMaxActiveClusters (a cluster's
 * blocks must fit on the SMs of one GPC at once, which blocks per SM times
 * SMs does not know). */
static int persistent_grid(run_state *s, const run_request *rq, run_result *res)
{
	unsigned c[3];
	unsigned long long cs = run_cluster(rq, c);
	long long tiles = (long long)rq->grid[0] * rq->grid[1] * rq->grid[2];
	long long fit = (long long)res->spec.sms * res->blocks_per_sm;
	if (cs > 1) {
		unsigned long long rounded = ((unsigned long long)tiles + cs - 1) / cs * cs;
		unsigned g[3] = {(unsigned)(rounded ? rounded : cs), 1, 1};
		CUlaunchConfig cfg;
		CUlaunchAttribute at;
		int clusters = 0;
		cluster_config(rq, g, &cfg, &at);
		CUresult r = s->cu->OccupancyMaxActiveClusters(&clusters, s->fn, &cfg);
		if (r != CUDA_SUCCESS) {
			set_cuda_error(res, r, "cannot size the grid in clusters (cuOccupancyMaxActiveClusters)");
			return -1;
		}
		if (clusters < 1) {
			res->status = RUN_LAUNCH_ERROR;
			snprintf(res->msg, sizeof res->msg, "no cluster of %llu such blocks fits on %.60s at once", cs,
				 res->gpu);
			return -1;
		}
		fit = clusters;
	}
	grid_shape grid;
	/* No block fits (fit 0, no clusters): one block, and the launch says why. */
	res->grid[0] = grid_persistent(tiles, (long long)cs, fit, &grid) ? 1 : (unsigned)grid.blocks;
	res->grid[1] = res->grid[2] = 1;
	return 0;
}

char *runner_module_text(const run_request *rq, int *line_info, char *err, size_t errlen)
{
	*line_info = 0;
	char *ptx = util_read_file(rq->ptx_path, NULL, err, errlen);
	if (!ptx || !rq->lineinfo)
		return ptx;
	/* The .file is what ncu --import-source reads the lines from: the
	 * original file, absolute, so it is found whatever the profiler's cwd
	 * (a name with a character a PTX string cannot hold falls back to the
	 * path as given, then to a plain name). */
	char abs[PATH_MAX];
	const char *name = realpath(rq->ptx_path, abs) && !strpbrk(abs, "\"\\\n") ? abs : rq->ptx_path;
	char *inst = sass_instrument(ptx, strpbrk(name, "\"\\\n") ? "kernel.ptx" : name, NULL);
	free(ptx);
	*line_info = 1;
	return inst;
}

static int load_module(run_state *s, const run_request *rq, run_result *res)
{
	const cuda_api *cu = s->cu;
	char err[512];
	int line_info;
	char *ptx = runner_module_text(rq, &line_info, err, sizeof err);
	if (!ptx) {
		res->status = RUN_BAD_REQUEST;
		util_strlcpy(res->msg, err, sizeof res->msg);
		return -1;
	}
	if (check_target(ptx, res)) {
		free(ptx);
		return -1;
	}
	static char info[RUN_LOG / 2], elog[RUN_LOG / 2];
	info[0] = elog[0] = '\0';
	int opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
		      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE, CU_JIT_GENERATE_LINE_INFO};
	void *vals[] = {info, (void *)(uintptr_t)sizeof info, elog, (void *)(uintptr_t)sizeof elog, (void *)1,
			(void *)(uintptr_t)line_info};
	/* Without --lineinfo the option is left out: the load is as it always was. */
	unsigned nopts = ARRAY_LEN(opts) - (line_info ? 0 : 1);
	CUresult r = cu->ModuleLoadDataEx(&s->mod, ptx, nopts, opts, vals);
	free(ptx);
	snprintf(res->log, sizeof res->log, "%s%s%s", elog, elog[0] && info[0] ? "\n" : "", info);
	if (r != CUDA_SUCCESS) {
		s->mod = NULL;
		res->status = RUN_JIT_ERROR;
		snprintf(res->msg, sizeof res->msg, "the JIT rejected %.100s: %.130s", rq->ptx_path, cuda_error(r));
		return -1;
	}
	r = cu->ModuleGetFunction(&s->fn, s->mod, rq->entry);
	if (r != CUDA_SUCCESS) {
		res->status = RUN_BAD_REQUEST;
		snprintf(res->msg, sizeof res->msg, "no entry '%.160s' in %.80s", rq->entry, rq->ptx_path);
		return -1;
	}
	cu->FuncGetAttribute(&res->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, s->fn);
	cu->FuncGetAttribute(&res->smem_static, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, s->fn);
	cu->FuncGetAttribute(&res->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, s->fn);
	cu->FuncGetAttribute(&res->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, s->fn);
	/* Above 48 KB the block must opt in to its dynamic shared memory. */
	if (rq->smem > 48 * 1024 &&
	    (r = cu->FuncSetAttribute(s->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)rq->smem))) {
		set_cuda_error(res, r, "cannot give the kernel its dynamic shared memory");
		return -1;
	}
	int threads = (int)(rq->block[0] * rq->block[1] * rq->block[2]);
	cu->OccupancyMaxActiveBlocksPerMultiprocessor(&res->blocks_per_sm, s->fn, threads, rq->smem);
	memcpy(res->grid, rq->grid, sizeof res->grid);
	if (rq->persistent)
		return persistent_grid(s, rq, res);
	return 0;
}

/* cuBLAS is column-major: the call that computes C = A·B in the run's
 * layouts is run/layout.c's run_blas_call_of (tests/test_run_layout.c runs
 * it on the CPU). With the spec's alpha and beta; out must hold C0 when beta is given.
 * The call is the table's (dtype_info.ref): SGEMM, GemmEx with the table's
 * compute type (tf32: CUBLAS_COMPUTE_32F_FAST_TF32; s8: CUBLAS_COMPUTE_32I
 * to s32, CUBLAS_COMPUTE_32F to f32), or cuBLASLt's kept plan. */
static int reference(run_state *s, const run_request *rq, CUdeviceptr out)
{
	const cuda_api *cu = s->cu;
	run_blas_call bc = run_blas_call_of(rq);
	int m = (int)bc.m, n = (int)bc.n, k = (int)bc.k;
	CUdeviceptr x = bc.first == 'A' ? s->A : s->B, y = bc.second == 'A' ? s->A : s->B;
	int tx = bc.trans_first ? CUBLAS_OP_T : CUBLAS_OP_N, ty = bc.trans_second ? CUBLAS_OP_T : CUBLAS_OP_N;
	int ldx = (int)bc.ld_first, ldy = (int)bc.ld_second, ldc = (int)bc.ldc;
	float alpha = s->blas.alpha, beta = s->blas.has_beta ? s->blas.beta : 0.0f;
	const int32_t ialpha = 1, ibeta = 0; /* CUBLAS_COMPUTE_32I's scale type is int32; s8 has no alpha:, beta: */
	const dtype_info *t = dtype_of(s->in);
	if (s->lt) /* FP8's plan, or the fastest of cuBLASLt's list (--reference best) */
		return lt_matmul(cu, s->lt, alpha, beta, s->A, s->B, out);
	/* GemmEx: the kernel's own input and output types and f32 accumulation
	 * (f32 alpha and beta), the same work as the kernel. */
	if (t->ref == DTYPE_REF_GEMMEX) {
		int ab = t->cublas_type, c = dtype_of(s->out)->cublas_type;
		int compute = dtype_compute(s->in, s->out), i32 = compute == CUBLAS_COMPUTE_32I;
		return cu->blasGemmEx(cu->blas, tx, ty, m, n, k, i32 ? (const void *)&ialpha : &alpha, (void *)(uintptr_t)x, ab,
				      ldx, (void *)(uintptr_t)y, ab, ldy, i32 ? (const void *)&ibeta : &beta,
				      (void *)(uintptr_t)out, c, ldc, compute, CUBLAS_GEMM_DEFAULT);
	}
	return cu->blasSgemm(cu->blas, tx, ty, m, n, k, &alpha, (const float *)(uintptr_t)x, ldx,
			     (const float *)(uintptr_t)y, ldy, &beta, (float *)(uintptr_t)out, ldc);
}

/* --reference best: cuBLASLt with the types GemmEx (or FP8's plan) would
 * get, every algorithm of its heuristic's list timed on this run's operands
 * once per shape (C0 in R), the fastest kept and named. */
static int prepare_best(run_state *s, const run_request *rq, run_result *res)
{
	if (s->in == DTYPE_E5M2) {
		snprintf(s->ref_why, sizeof s->ref_why, "cuBLASLt multiplies e5m2 only by e4m3");
		return 0;
	}
	lt_shape sh = {.M = rq->M, .N = rq->N, .K = rq->K, .in = s->in, .out = s->out, .b_kmajor = s->sb.col,
		       .best = 1, .promote = rq->reference == RUN_REF_BEST_PROMOTING};
	s->lt = lt_plan_for(s->cu, &sh, s->ref_why, sizeof s->ref_why);
	CUresult r = s->lt ? lt_set_scales(s->cu, s->lt, s->scale[0], s->scale[1]) : CUDA_SUCCESS;
	if (r) {
		set_cuda_error(res, r, "cannot copy the FP8 scales");
		return -1;
	}
	lt_args a = {.alpha = s->blas.alpha, .beta = s->blas.has_beta ? s->blas.beta : 0.0f, .A = s->A, .B = s->B,
		     .out = s->R};
	if (!s->lt || lt_pick_fastest(s->cu, s->lt, &a, s->ref_why, sizeof s->ref_why)) {
		s->lt = NULL;
		return 0;
	}
	util_strlcpy(res->ref_name, lt_name(s->lt), sizeof res->ref_name);
	s->has_ref = 1;
	return 0;
}

/* Whether the reference can run: its library, and for FP8 cuBLASLt's plan
 * of this shape (chosen once per shape, then kept) with this run's scales.
 * Sets has_ref, or ref_why. 0, or -1 after a failed copy (status set). */
static int prepare_reference(run_state *s, const run_request *rq, run_result *res)
{
	const cuda_api *cu = s->cu;
	s->has_ref = 0;
	if (s->host_ref) /* verify_reference on the host: no library call to time */
		return 0;
	util_strlcpy(res->ref_name, dtype_reference(s->in), sizeof res->ref_name);
	if (rq->reference != RUN_REF_DEFAULT && run_layout_plain(rq)) /* the lessons' layouts; another layout keeps the default call */
		return prepare_best(s, rq, res);
	if (dtype_of(s->in)->ref != DTYPE_REF_LT) {
		s->has_ref = cu->blas != NULL;
		snprintf(s->ref_why, sizeof s->ref_why, "cuBLAS (libcublas.so.13/12/11) not found");
		return 0;
	}
	if (s->in == DTYPE_E5M2) { /* dtype.c's pairs */
		snprintf(s->ref_why, sizeof s->ref_why,
			 "cuBLASLt multiplies e5m2 only by e4m3 (the emulator checks e5m2 x e5m2 against the CPU)");
		return 0;
	}
	if (!run_layout_plain(rq)) {
		snprintf(s->ref_why, sizeof s->ref_why, "the cuBLASLt FP8 reference here takes A and C row-major and tight "
			 "(B either way): --layout and --ld are for the other types");
		return 0;
	}
	lt_shape sh = {.M = rq->M, .N = rq->N, .K = rq->K, .in = s->in, .out = s->out, .b_kmajor = s->sb.col};
	s->lt = lt_plan_for(cu, &sh, s->ref_why, sizeof s->ref_why);
	if (!s->lt)
		return 0;
	CUresult r = lt_set_scales(cu, s->lt, s->scale[0], s->scale[1]);
	if (r) {
		set_cuda_error(res, r, "cannot copy the FP8 scales");
		return -1;
	}
	s->has_ref = 1;
	return 0;
}

/* A C on the GPU from f32 values (M x N row-major), stored in the output
 * type and C's layout (exactly, for values that came from it: C0 is drawn
 * in it); the padding the poison. */
static CUresult put_c(run_state *s, CUdeviceptr c, const float *v)
{
	run_store_poison(&s->sc, s->out, s->hraw);
	run_store_put(&s->sc, s->out, v, s->hraw);
	return s->cu->MemcpyHtoD(c, s->hraw, s->sc.elems * (size_t)dtype_of(s->out)->bytes);
}

/* A C from the GPU, in the output type and C's layout, into f32 values
 * (M x N row-major) for the check; *pad (may be NULL): the padding
 * elements that lost the poison. */
static CUresult get_c(run_state *s, float *v, CUdeviceptr c, size_t *pad)
{
	CUresult r = s->cu->MemcpyDtoH(s->hraw, c, s->sc.elems * (size_t)dtype_of(s->out)->bytes);
	size_t p = run_store_get(&s->sc, s->out, s->hraw, v);
	if (pad)
		*pad = p;
	return r;
}

/* C before a launch: C0 (beta:), or the NaN poison of the output type
 * (an FP8 output has no reference, so C is 2 or 4 bytes an element). */
static CUresult set_c(run_state *s, CUdeviceptr c, const float *c0)
{
	const dtype_info *t = dtype_of(s->out);
	size_t n = s->sc.elems;
	if (c0)
		return put_c(s, c, c0);
	return t->bytes == 2 ? s->cu->MemsetD16(c, (unsigned short)t->poison, n) : s->cu->MemsetD32(c, t->poison, n);
}

/* Whether the check's reference must be the host's: a type cuBLAS has no
 * GEMM for (u8), or an int8 GEMM with an s32 C in a layout cuBLAS's
 * CUBLAS_COMPUTE_32I path refuses (leading dimensions multiples of 4, and
 * the second operand not transposed: run_blas_call_of's). Sets host_ref,
 * and ref_why to say so (integer sums in f64 are exact: the same check). */
static void host_reason(run_state *s, const run_request *rq)
{
	run_blas_call bc = run_blas_call_of(rq);
	if (dtype_of(s->in)->ref == DTYPE_REF_HOST)
		snprintf(s->ref_why, sizeof s->ref_why, "cuBLAS has no %s GEMM: checked against the CPU's f64 reference, "
			 "not timed against a library", dtype_name(s->in));
	else if (dtype_compute(s->in, s->out) == CUBLAS_COMPUTE_32I && (bc.ld_first % 4 || bc.ld_second % 4 || bc.ldc % 4))
		snprintf(s->ref_why, sizeof s->ref_why, "cuBLAS's int8 GEMM needs leading dimensions that are multiples of "
			 "4, not A %lld, B %lld, C %lld: checked against the CPU's f64 reference, not timed against cuBLAS",
			 s->sa.ld, s->sb.ld, s->sc.ld);
	else if (dtype_compute(s->in, s->out) == CUBLAS_COMPUTE_32I && bc.trans_second)
		snprintf(s->ref_why, sizeof s->ref_why, "cuBLAS's int8 GEMM takes its second operand untransposed, which "
			 "these layouts would need: checked against the CPU's f64 reference, not timed against cuBLAS");
	else
		return;
	s->host_ref = 1;
}

/* The host's reference (host_reason) into s->hr, from what the inputs mean. */
static void host_reference(run_state *s, const run_request *rq)
{
	float *ref = verify_reference(rq->M, rq->N, rq->K, s->ra, s->sa.col, s->rb, s->sb.col, s->hc0, s->blas.alpha,
				      s->blas.beta);
	dtype_from_f32(s->out, ref, s->hraw, (size_t)rq->M * (size_t)rq->N); /* rounded to C's type, as cuBLAS's is */
	dtype_to_f32(s->out, s->hraw, s->hr, (size_t)rq->M * (size_t)rq->N);
	free(ref);
}

/* What verify_check compares: ours (s->hc) with the reference (s->hr). */
static verify_input check_input(const run_state *s, const run_request *rq, const run_result *res, size_t pad)
{
	return (verify_input){.rows = (size_t)rq->M, .cols = (size_t)rq->N, .got = s->hc, .ref = s->hr, .c0 = s->hc0,
			      .tol = res->tol, .out = s->out, .pad_written = pad, .a = s->ra, .b = s->rb, .a_col = s->sa.col,
			      .b_col = s->sb.col, .c_col = s->sc.col, .tight = run_layout_tight(rq),
			      .integer = dtype_of(s->in)->integer, .K = rq->K,
			      .alpha = s->blas.alpha, .beta = s->blas.beta};
}

/* After the timed launches, one more from C0, checked again: a kernel that keeps state
 * between launches (a __device__ counter it does not reset) passes its first launch and
 * is wrong after; the times would be of a wrong kernel. Only where the first check passed
 * in one launch (a kernel the check launched twice is left as it was judged), so an
 * element equal to C0 now is one this launch did not write. */
static int recheck(run_state *s, const run_request *rq, run_result *res)
{
	const cuda_api *cu = s->cu;
	CUresult r;
	if ((r = set_c(s, s->C, s->hc0)) || (r = launch(s, rq, res)) || (r = cu->CtxSynchronize())) {
		set_cuda_error(res, r, "the launch after the timing failed");
		return -1;
	}
	size_t pad = 0;
	get_c(s, s->hc, s->C, &pad);
	verify_input in = check_input(s, rq, res, pad);
	verify_report rep;
	verify_check(&in, &rep);
	if (rep.kind != VERIFY_PASS) { /* the first check needed no second launch: C0 kept now means unwritten */
		res->verified = 0;
		res->status = RUN_WRONG;
		snprintf(res->msg, sizeof res->msg, "right at the first launch, wrong after the timed ones (state kept "
			 "between launches: a __device__ variable not reset?): %.60s",
			 rep.again ? "elements of C left unwritten" : rep.msg);
	}
	return 0;
}

/* The check (run/verify.c) against cuBLAS, with the second launch it may
 * ask for. 0, or -1 after a failed driver call (status set). */
static int verify(run_state *s, const run_request *rq, run_result *res, size_t nC)
{
	const cuda_api *cu = s->cu;
	CUresult r;
	int host = s->host_ref;
	if (!host && ((r = set_c(s, s->R, s->hc0)) || reference(s, rq, s->R) || (r = cu->CtxSynchronize()))) {
		char what[48];
		snprintf(what, sizeof what, "%s failed", dtype_reference(s->in));
		set_cuda_error(res, r ? r : CUDA_ERROR_LAUNCH_FAILED, what);
		return -1;
	}
	size_t pad = 0;
	get_c(s, s->hc, s->C, &pad);
	if (host)
		host_reference(s, rq);
	else
		get_c(s, s->hr, s->R, NULL);
	verify_input in = check_input(s, rq, res, pad);
	verify_report rep;
	verify_check(&in, &rep);
	if (rep.again) {
		s->hc2 = xmalloc(nC * 4);
		if (rep.again == VERIFY_AGAIN_C0)
			verify_second_c0(s->hc0, s->hc2, nC, s->out);
		else
			memset(s->hc2, 0, nC * 4);
		if ((r = put_c(s, s->C, s->hc2)) || (r = launch(s, rq, res)) || (r = cu->CtxSynchronize())) {
			set_cuda_error(res, r, "the second launch of the check failed");
			return -1;
		}
		get_c(s, s->hc2, s->C, NULL);
		in.got2 = s->hc2;
		verify_check(&in, &rep);
	}
	res->rel_err = rep.rel_err;
	res->verified = rep.kind == VERIFY_PASS;
	util_strlcpy(res->consistent_with, rep.consistent_with, sizeof res->consistent_with);
	if (!res->verified) {
		res->status = RUN_WRONG;
		util_strlcpy(res->msg, rep.msg, sizeof res->msg);
	}
	return 0;
}

/* The timing policy (run_timing in run/run.h; the measurements behind it
 * in docs/benchmarks.md, "Timing cuBLAS so that it repeats"). */
#define TIMING_BLOCK_MS 25.0 /* steady: a block is launches back to back for about this long */
#define TIMING_BURST_MS 5.0  /* burst: a short block, */
#define TIMING_IDLE_US 100000 /* after the GPU idled this long (its power and clock back at rest) */
#define TIMING_BLOCK_MAX 500
#define TIMING_ROUNDS 7      /* timed rounds: a block of ours, then a block of cuBLAS */
#define TIMING_WARM_S 1.0    /* steady: untimed rounds first, so the clock is the one this work holds */

/* n launches back to back between one pair of events: the time of one, in
 * ms; which = 0 ours, 1 cuBLAS. */
static int time_block(run_state *s, const run_request *rq, int which, int n, double *ms, run_result *res)
{
	const cuda_api *cu = s->cu;
	CUresult r = CUDA_SUCCESS;
	cu->EventRecord(s->e0, NULL);
	for (int i = 0; i < n && r == CUDA_SUCCESS; i++)
		r = which ? (reference(s, rq, s->R) ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS) : launch(s, rq, res);
	cu->EventRecord(s->e1, NULL);
	if (r == CUDA_SUCCESS)
		r = cu->EventSynchronize(s->e1);
	if (r != CUDA_SUCCESS) {
		char what[48];
		snprintf(what, sizeof what, "%s failed while timing", which ? dtype_reference(s->in) : "the kernel");
		set_cuda_error(res, r, what);
		return -1;
	}
	float f = 0;
	cu->EventElapsedTime(&f, s->e0, s->e1);
	*ms = f / n;
	return 0;
}

static int block_of(double one_ms, const run_request *rq)
{
	double ms = rq->timing == RUN_TIMING_BURST ? TIMING_BURST_MS : TIMING_BLOCK_MS;
	int n = one_ms > 0 ? (int)(ms / one_ms + 0.5) : TIMING_BLOCK_MAX;
	return n < 1 ? 1 : n > TIMING_BLOCK_MAX ? TIMING_BLOCK_MAX : n;
}

/* (slowest - fastest) / median of n times. */
static double spread(const double *t, int n)
{
	double lo = t[0], hi = t[0];
	for (int i = 1; i < n; i++)
		lo = t[i] < lo ? t[i] : lo, hi = t[i] > hi ? t[i] : hi;
	double tmp[TIMING_ROUNDS];
	memcpy(tmp, t, (size_t)n * sizeof *t);
	double med = util_median(tmp, n);
	return med > 0 ? (hi - lo) / med : 0;
}

/* Ours and cuBLAS, a block of each per round (run_timing says why and how);
 * the medians, spreads, block sizes and the method in words go to res.
 * first_ms is our first launch's time, which sizes our block. */
static int time_both(run_state *s, const run_request *rq, double first_ms, run_result *res)
{
	int blas = s->has_ref, rc = 0;
	double ours[TIMING_ROUNDS], theirs[TIMING_ROUNDS], mhz[TIMING_ROUNDS], one = 0;
	int burst = rq->timing == RUN_TIMING_BURST;
	int n = block_of(first_ms, rq), nb = 1;
	if (blas && (rc = time_block(s, rq, 1, 1, &one, res)) == 0) /* its first call sizes its block */
		nb = block_of(one, rq);
	if (!rc && !burst) {
		double t0 = util_now(), x;
		while (!rc && util_now() - t0 < TIMING_WARM_S)
			rc = time_block(s, rq, 0, n, &x, res) || (blas && time_block(s, rq, 1, nb, &x, res));
	}
	for (int i = 0; i < TIMING_ROUNDS && !rc; i++) {
		if (burst)
			usleep(TIMING_IDLE_US);
		rc = time_block(s, rq, 0, n, &ours[i], res);
		mhz[i] = probe_sm_mhz(); /* the clock our block ran at, read as it ends */
		if (!rc && blas && burst)
			usleep(TIMING_IDLE_US);
		rc = rc || (blas && time_block(s, rq, 1, nb, &theirs[i], res));
	}
	if (rc)
		return -1;
	res->repeats = TIMING_ROUNDS, res->block = n, res->cublas_block = blas ? nb : 0;
	res->spread = spread(ours, TIMING_ROUNDS);
	res->cublas_spread = blas ? spread(theirs, TIMING_ROUNDS) : 0;
	res->ms = util_median(ours, TIMING_ROUNDS);
	res->cublas_ms = blas ? util_median(theirs, TIMING_ROUNDS) : 0;
	res->sm_mhz = util_median(mhz, TIMING_ROUNDS);
	snprintf(res->timing, sizeof res->timing, "%s: %d rounds of %d of ours and %d of %s back to back, %s",
		 rq->timing == RUN_TIMING_BURST ? "burst" : "steady", TIMING_ROUNDS, n, res->cublas_block, dtype_reference(s->in),
		 burst ? "each after 0.1 s idle" : "after 1 s of the same untimed");
	return 0;
}

/* Before the JIT: a pair of types cuBLAS has a reference for, and a cluster
 * this GPU and driver can launch (sm_90, cuLaunchKernelEx: CUDA 12 drivers).
 * 0, or -1 with the status and one line set. */
static int check_types_and_cluster(const run_state *s, const run_request *rq, run_result *res)
{
	unsigned c[3];
	char why[200];
	if (dtype_pair_check(s->in, s->out, why, sizeof why) || run_check_int_blas(rq, why, sizeof why) ||
	    run_check_cluster(rq, why, sizeof why)) {
		res->status = RUN_BAD_REQUEST;
		util_strlcpy(res->msg, why, sizeof res->msg);
		return -1;
	}
	if (run_cluster(rq, c) == 1)
		return 0;
	int have = res->cc_major * 10 + res->cc_minor;
	if (have < 90 || !s->cu->LaunchKernelEx || !s->cu->OccupancyMaxActiveClusters) {
		res->status = RUN_UNSUPPORTED;
		if (have < 90)
			snprintf(res->msg, sizeof res->msg, "clusters need sm_90 and CUDA 12: %.60s is sm_%d", res->gpu, have);
		else
			snprintf(res->msg, sizeof res->msg,
				 "clusters need sm_90 and CUDA 12: this driver (%d) has no cuLaunchKernelEx",
				 s->cu->driver_version);
		return -1;
	}
	return 0;
}

/* Fresh random inputs for every run, never zeros, on the host: A and B in
 * the input type (an FP8 input drawn as f32 and stored with its per-tensor
 * scale, dtype_fill) and their layouts (run/layout.h: nA and nB elements,
 * padding included), C0 with beta:, and the buffers the check reads C into
 * (nC: M x N). 0, or -1 when the host is out of memory. */
static int make_inputs(run_state *s, const run_request *rq, size_t nA, size_t nB, size_t nC)
{
	size_t es = (size_t)dtype_of(s->in)->bytes;
	int scaled = dtype_of(s->in)->scaled, host = s->host_ref;
	/* kept for a diagnosis up to 2^27 elements (512 MiB as f32); a host reference needs them */
	int keep = host || (rq->verify && nA + nB <= (size_t)1 << 27);
	rng gen;
	rng_seed(&gen, (uint64_t)(util_now() * 1e9));
	s->blas = argspec_blas_of(&rq->args);
	s->ha = malloc(nA * es);
	s->hb = malloc(nB * es);
	s->hc = malloc(nC * 4);
	s->hr = malloc(nC * 4);
	s->hraw = malloc(s->sc.elems * 4);
	s->hc0 = s->blas.has_beta ? malloc(nC * 4) : NULL;
	/* the drawn values of an FP8 input before scaling: scratch the size of the larger */
	float *drawn = scaled ? malloc((nA > nB ? nA : nB) * sizeof(float)) : NULL;
	if (keep) {
		s->ra = malloc(nA * sizeof(float));
		s->rb = malloc(nB * sizeof(float));
	}
	int ok = s->ha && s->hb && s->hc && s->hr && s->hraw && (s->hc0 || !s->blas.has_beta) && (drawn || !scaled) &&
		 (!host || (s->ra && s->rb));
	if (ok) {
		run_make_input(&gen, s->in, rq->a_host, rq->M, rq->K, s->sa.col, s->ha, s->ra ? s->ra : drawn, &s->scale[0]);
		run_make_input(&gen, s->in, rq->b_host, rq->K, rq->N, s->sb.col, s->hb, s->rb ? s->rb : drawn, &s->scale[1]);
		run_store_spread(&s->sa, s->in, s->ha);
		run_store_spread(&s->sb, s->in, s->hb);
		if (s->hc0) /* C0: random, finite, never zero, drawn in the output type (hc0 holds what it stores) */
			rng_fill(&gen, dtype_of(s->out)->rng, s->hraw, s->hc0, nC);
	}
	free(drawn);
	return ok ? 0 : -1;
}

/* ---- the kernel's printf output (issue 39) ---- */

void runner_stdout_begin(runner_stdout *c)
{
	fflush(stdout);
	c->keep = -1;
	c->file = tmpfile();
	c->saved = c->file ? dup(1) : -1;
	if (c->saved >= 0 && dup2(fileno(c->file), 1) < 0) {
		close(c->saved);
		c->saved = -1;
	}
}

void runner_stdout_mark(runner_stdout *c)
{
	if (c->saved < 0)
		return;
	fflush(stdout);
	c->keep = (long)lseek(1, 0, SEEK_CUR);
}

void runner_stdout_end(runner_stdout *c, run_printf *p)
{
	if (c->saved >= 0) {
		fflush(stdout);
		dup2(c->saved, 1);
		close(c->saved);
		c->saved = -1;
		enum { MAX = 1 << 20 }; /* the device's printf buffer holds 1 MiB by default */
		char *text = xmalloc(MAX);
		rewind(c->file);
		size_t n = fread(text, 1, c->keep >= 0 && c->keep < MAX ? (size_t)c->keep : MAX, c->file);
		run_printf_text(p, text, n);
		free(text);
	}
	if (c->file)
		fclose(c->file);
	c->file = NULL;
}

static void run_gpu(const run_request *rq, run_result *res, runner_stdout *printed);

void runner_run(const run_request *rq, run_result *res)
{
	runner_stdout c;
	runner_stdout_begin(&c);
	run_gpu(rq, res, &c);
	runner_stdout_end(&c, &res->printed);
}

static void run_gpu(const run_request *rq, run_result *res, runner_stdout *printed)
{
	run_state s = {0};
	char why[256];
	memset(res, 0, sizeof *res);
	res->verified = -1;
	s.in = rq->dt == DTYPE_NONE ? DTYPE_F32 : rq->dt;
	s.out = run_out(rq);
	res->tol = run_tolerance(s.in, s.out);
	res->rel_err = NAN;

	s.cu = cuda_load(why, sizeof why);
	if (!s.cu) {
		res->status = RUN_NO_GPU;
		util_strlcpy(res->msg, why, sizeof res->msg);
		return;
	}
	const cuda_api *cu = s.cu;
	cu->DeviceGetName(res->gpu, sizeof res->gpu, cu->dev);
	cu->DeviceGetAttribute(&res->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, cu->dev);
	cu->DeviceGetAttribute(&res->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, cu->dev);
	cuda_device_spec(&res->spec);
	if (rq->kind == RUN_KIND_DEVICE) {
		res->status = RUN_OK;
		snprintf(res->msg, sizeof res->msg, "%s, sm_%d%d, %d SMs", res->gpu, res->cc_major, res->cc_minor,
			 res->spec.sms);
		return;
	}
	if (rq->M <= 0 || rq->N <= 0 || rq->K <= 0 || rq->M * rq->N > (1LL << 31) || rq->K > (1 << 20)) {
		res->status = RUN_BAD_REQUEST;
		snprintf(res->msg, sizeof res->msg, "size %lldx%lldx%lld is out of range", rq->M, rq->N, rq->K);
		return;
	}
	if (check_types_and_cluster(&s, rq, res) || load_module(&s, rq, res))
		goto out;
	if (rq->kind == RUN_KIND_JIT_ONLY) {
		res->status = RUN_OK;
		snprintf(res->msg, sizeof res->msg, "the JIT accepted it: %d registers, %d B static shared, %d blocks/SM",
			 res->regs, res->smem_static, res->blocks_per_sm);
		goto out;
	}

	size_t es = (size_t)dtype_of(s.in)->bytes, eo = (size_t)dtype_of(s.out)->bytes;
	s.sa = run_store_of(rq, 'A'), s.sb = run_store_of(rq, 'B'), s.sc = run_store_of(rq, 'C');
	host_reason(&s, rq);
	size_t nA = s.sa.elems, nB = s.sb.elems, nC = (size_t)(rq->M * rq->N);
	CUresult r;
	if ((r = cu->MemAlloc(&s.A, nA * es)) || (r = cu->MemAlloc(&s.B, nB * es)) || (r = cu->MemAlloc(&s.C, s.sc.elems * eo)) ||
	    (r = cu->MemAlloc(&s.R, s.sc.elems * eo)) || (r = cu->EventCreate(&s.e0, 0)) || (r = cu->EventCreate(&s.e1, 0))) {
		set_cuda_error(res, r, "cannot allocate the matrices");
		goto out;
	}
	if (make_inputs(&s, rq, nA, nB, nC)) {
		res->status = RUN_BAD_REQUEST;
		snprintf(res->msg, sizeof res->msg, "out of host memory for %lldx%lldx%lld", rq->M, rq->N, rq->K);
		goto out;
	}
	/* the parameters after the inputs: scale:A and scale:B pass theirs */
	if (build_params(&s, rq, res)) {
		res->status = RUN_BAD_REQUEST;
		goto out;
	}
	if ((r = cu->MemcpyHtoD(s.A, s.ha, nA * es)) || (r = cu->MemcpyHtoD(s.B, s.hb, nB * es)) ||
	    /* C0 with beta:; else NaN, so an element the kernel never writes fails. */
	    (r = set_c(&s, s.C, s.hc0))) {
		set_cuda_error(res, r, "cannot copy the inputs");
		goto out;
	}

	/* The first launch is the check and the warm-up: module load, JIT and
	 * handle creation stay out of the timed runs. */
	cu->EventRecord(s.e0, NULL);
	r = launch(&s, rq, res);
	cu->EventRecord(s.e1, NULL);
	if (r != CUDA_SUCCESS) {
		set_cuda_error(res, r, "the launch failed");
		goto out;
	}
	if ((r = cu->CtxSynchronize())) {
		set_cuda_error(res, r, "the kernel failed");
		goto out;
	}
	runner_stdout_mark(printed); /* its printf lines, flushed at the synchronisation: the ones kept */
	if (rq->c_host && (r = get_c(&s, rq->c_host, s.C, NULL))) { /* C as f32 for the accuracy experiment */
		set_cuda_error(res, r, "cannot copy C back");
		goto out;
	}
	float first_ms = 0;
	cu->EventElapsedTime(&first_ms, s.e0, s.e1);
	res->status = RUN_OK;
	res->ms = first_ms;

	if ((rq->verify || rq->time) && prepare_reference(&s, rq, res))
		goto out;
	if (rq->verify) {
		if (!s.has_ref && !s.host_ref) {
			res->verified = -1;
			snprintf(res->msg, sizeof res->msg, "ran, but not verified: %.200s", s.ref_why);
		} else if (verify(&s, rq, res, nC)) {
			goto out;
		}
	}

	if (rq->time && res->status == RUN_OK) {
		probe_clock_open(cu);
		if (s.has_ref)
			reference(&s, rq, s.R); /* load the library's own kernels */
		if (time_both(&s, rq, first_ms, res))
			goto out;
		if (res->verified == 1 && !s.hc2 && recheck(&s, rq, res))
			goto out;
		double flop = 2.0 * (double)rq->M * (double)rq->N * (double)rq->K;
		res->gflops = flop / (res->ms * 1e-3) / 1e9;
		res->cublas_gflops = res->cublas_ms > 0 ? flop / (res->cublas_ms * 1e-3) / 1e9 : 0;
	}
	if (res->status == RUN_OK && !res->msg[0] && res->verified == 1 && s.host_ref)
		snprintf(res->msg, sizeof res->msg, "verified: %.200s", s.ref_why);
	else if (res->status == RUN_OK && !res->msg[0])
		snprintf(res->msg, sizeof res->msg, "%s%s", res->verified == 1 ? "verified against " : "ran",
			 res->verified == 1 ? dtype_reference(s.in) : "");
out:
	cleanup(&s);
}
