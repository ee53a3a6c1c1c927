/* layout: where a run's A, B and C lie in memory (row- or column-major, leading dimension, padding), for the GPU runner and the emulator alike. */
#ifndef PTXTUTOR_RUN_LAYOUT_H
#define PTXTUTOR_RUN_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

/* One matrix as stored: `outer` lines of `inner` elements, each line `ld`
 * elements after the one before; a row-major matrix's lines are its rows,
 * a column-major one's its columns. The elements past `inner` in a line
 * are padding: a correct kernel never touches them. */
typedef struct {
	long long outer, inner, ld;
	int col;                  /* column-major */
	size_t elems;             /* outer * ld: the buffer's elements */
} run_store;

/* Matrix m ('A' M x K, 'B' K x N, 'C' M x N) of rq, from rq->layout (B is
 * column-major with rq->b_kmajor too). */
run_store run_store_of(const run_request *rq, char m);
/* Whether every matrix of rq is row-major and tight, but B column-major
 * and tight when b_kmajor: the layouts run_request had before --layout. */
int run_layout_plain(const run_request *rq);

/* Whether every matrix of rq has its tight leading dimension. */
int run_layout_tight(const run_request *rq);

/* buf holds a tight outer x inner matrix of `bytes`-byte elements (as
 * run_make_input stores it); spreads it to its lines ld apart, in place,
 * and fills the padding with the type's poison (t->poison's low bytes):
 * a kernel that reads the padding gets NaN (a float type) or -128 (s8). */
void run_store_spread(const run_store *st, dtype t, void *buf);
/* The whole buffer, padding included, filled with the type's poison. */
void run_store_poison(const run_store *st, dtype t, void *buf);
/* A logical rows x cols row-major f32 matrix into its elements, stored in
 * type t; the padding is left as it is. */
void run_store_put(const run_store *st, dtype t, const float *logical, void *buf);
/* Its elements back into a logical row-major f32 matrix; returns how many
 * padding elements no longer hold the poison (a kernel wrote past its lines). */
size_t run_store_get(const run_store *st, dtype t, const void *buf, float *logical);

/* The column-major GEMM (BLAS's, cuBLAS's) that computes rq's C = A·B in
 * its layouts: C(m x n) = op(first)·op(second), each op transposed (1) or
 * not, the leading dimensions the stores'. A column-major C is A·B with
 * m = M, n = N; a row-major C is Cᵀ = Bᵀ·Aᵀ with m = N, n = M, B first.
 * An operand that already has the shape wanted, column-major, is not
 * transposed: a row-major matrix with leading dimension ld is its
 * transpose, column-major, with the same ld. */
typedef struct {
	long long m, n, k;
	char first, second;       /* 'A' or 'B' */
	int trans_first, trans_second;
	long long ld_first, ld_second, ldc;
} run_blas_call;
run_blas_call run_blas_call_of(const run_request *rq);

#endif
