/* model_lessons: the table of per-lesson cost models: what each kernel moves and how a warp of it addresses memory (model.c combines them with the GPU). */
#ifndef PTXTUTOR_MODEL_LESSONS_H
#define PTXTUTOR_MODEL_LESSONS_H

#include "base/expr.h"

typedef struct model_def model_def;

/* Traffic per output element per unit of K (multiply by K for the whole loop). */
typedef struct {
	double gl_A, gl_B; /* elements of A and of B loaded from global memory */
	double sh_A, sh_B; /* elements of A and of B read from shared memory */
	double sh_stores;  /* elements written to shared memory */
	int k_per_op;      /* k steps one multiply-accumulate instruction covers (1 FFMA, 16 mma) */
	int smem_operands; /* the tensor cores read A and B from shared memory (wgmma), not registers */
	int l1_bypass;     /* every global load skips L1 (ld.global.cg, cp.async.cg, TMA): each reaches L2 */
} model_traffic;

/* One warp-wide request of each kind, counted by access_count: 32-byte
 * sectors per global load of A and B, shared-memory wavefronts per read of
 * A and B (NAN where the kernel has no such per-thread access). */
typedef struct {
	double sectors_A, sectors_B;
	double gwavefronts_A, gwavefronts_B; /* L1 wavefronts of those loads: one per 128-byte line */
	double wavefronts_A, wavefronts_B;
	double sideal_A, sideal_B;           /* those reads' passes with no bank conflict */
	int gvec_A, gvec_B;  /* elements per lane of those global loads (0: no per-thread load) */
	int svec_A, svec_B;  /* and of the shared reads */
} model_warp;

/* The cost models by name (the front matter's `model:`); NULL when unknown. */
const model_def *model_find(const char *name);
/* The params a model reads with the values it assumes when the lesson has
 * none, space-separated ("TILE=32"). */
const char *model_params(const model_def *m);

/* The i-th model of the table, NULL past its end. */
const model_def *model_lessons_at(int i);
/* Its name and its unit ("fp32" or "tensor"). */
const char *model_lessons_name(const model_def *m);
const char *model_lessons_unit(const model_def *m);
/* Adds the model's assumed params (model_params) where env has none. */
void model_lessons_defaults(const model_def *m, expr_env *env);
/* What the kernel moves, from env (the lesson's params, what-ifs, defaults). */
void model_lessons_traffic(const model_def *m, const expr_env *env, model_traffic *t);
/* Its warp view, with elem_bytes per A/B element. */
void model_lessons_warp(const model_def *m, const expr_env *env, int elem_bytes, model_warp *out);

#endif
