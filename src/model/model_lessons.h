/* model_lessons: the table of per-lesson cost models (model.c's private interface to it). */
#ifndef PTXTUTOR_MODEL_LESSONS_H
#define PTXTUTOR_MODEL_LESSONS_H

#include "model/model.h"

/* Traffic per output element per unit of K (multiply by K for the whole loop). */
typedef struct {
	double gl_loads;   /* elements of A and B loaded from global memory */
	double sh_loads;   /* elements read from shared memory */
	double sh_stores;  /* elements written to shared memory */
	int k_per_op;      /* k steps one multiply-accumulate instruction covers (1 FFMA, 16 mma) */
	int smem_operands; /* the tensor cores read A and B from shared memory (wgmma), not registers */
} model_traffic;

/* The i-th model of the table, NULL past its end. */
const model_def *model_lessons_at(int i);
/* Its name and its unit ("fp32" or "tensor"). */
const char *model_lessons_name(const model_def *m);
const char *model_lessons_unit(const model_def *m);
/* Adds the model's assumed params (model_params) where env has none. */
void model_lessons_defaults(const model_def *m, expr_env *env);
/* What the kernel moves, from env (the lesson's params, what-ifs, defaults). */
void model_lessons_traffic(const model_def *m, const expr_env *env, model_traffic *t);
/* Its warp view into r's sectors_A/B and wavefronts_A/B, per request,
 * counted by access_count with r->elem_bytes per A/B element (NAN where the
 * kernel has no such per-thread access). */
void model_lessons_warp(const model_def *m, const expr_env *env, model_result *r);

#endif
