/* diagnose: what a check that fails by a small margin is consistent with — the one table of the common precision mistakes, each a reference computed again under it. */
#ifndef PTXTUTOR_DIAGNOSE_H
#define PTXTUTOR_DIAGNOSE_H

#include <stddef.h>

#include "course/dtype.h"

/* A wrong result closer than this (rel. error) is diagnosed; a larger one is a logic bug, not precision. */
#define DIAGNOSE_MAX_REL 0.05
/* The elements of C a diagnosis recomputes (evenly spread): K products each,
 * per candidate, so a 4096^3 run on the GPU stays under a second. */
#define DIAGNOSE_SAMPLES 1024

typedef struct {
	long long M, N, K;
	const float *a, *b;       /* what the inputs mean, tight, as verify_reference takes them */
	int a_col, b_col, c_col;  /* as the run lays them out */
	int integer;              /* integer inputs: an exact sum is expected */
	int tight;                /* every leading dimension is the tight one: the layout candidates apply */
	dtype out;                /* C's type: each candidate is rounded to it, as the kernel's C is */
	const float *got;         /* the kernel's C, M x N row-major, as f32 */
	const float *c0;          /* C0 (beta:), M x N row-major; NULL: none */
	float alpha, beta;
	double tol;               /* the run's tolerance */
} diagnose_input;

/* When the kernel's output matches one candidate of the table (its rel.
 * error against that candidate within max(tol, 1e-5) and under a quarter of
 * its error against the exact reference, on the sample): 1, its phrase in
 * buf ("an f16 accumulator", "A read column-major (run it with --layout
 * A=col,B=row,C=row)") and its error in *err (may be NULL); 0 when none
 * matches. The rounding candidates are tried only below DIAGNOSE_MAX_REL
 * (a larger error is a logic bug), the layout ones only when every leading
 * dimension is tight. */
int diagnose_precision(const diagnose_input *in, char *buf, size_t len, double *err);

/* The candidates' phrases in table order (NULL past the end), for the docs and tests. */
const char *diagnose_candidate(int i);

#endif
