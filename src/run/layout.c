/* layout: where a run's A, B and C lie in memory (row- or column-major, leading dimension, padding). */
#include "run/layout.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

run_store run_store_of(const run_request *rq, char m)
{
	int i = m - 'A';
	long long rows = m == 'B' ? rq->K : rq->M, cols = m == 'A' ? rq->K : rq->N;
	run_store st = {.col = rq->layout.col[i] || (m == 'B' && rq->b_kmajor)};
	st.outer = st.col ? cols : rows;
	st.inner = st.col ? rows : cols;
	st.ld = rq->layout.ld[i] > st.inner ? rq->layout.ld[i] : st.inner;
	st.elems = (size_t)st.outer * (size_t)st.ld;
	return st;
}

int run_layout_plain(const run_request *rq)
{
	for (char m = 'A'; m <= 'C'; m++) {
		run_store st = run_store_of(rq, m);
		if (st.ld != st.inner || (st.col && m != 'B'))
			return 0;
	}
	return 1;
}

int run_layout_tight(const run_request *rq)
{
	for (char m = 'A'; m <= 'C'; m++)
		if (run_store_of(rq, m).ld != run_store_of(rq, m).inner)
			return 0;
	return 1;
}

run_blas_call run_blas_call_of(const run_request *rq)
{
	run_store sa = run_store_of(rq, 'A'), sb = run_store_of(rq, 'B'), sc = run_store_of(rq, 'C');
	int ccol = sc.col;
	const run_store *sx = ccol ? &sa : &sb, *sy = ccol ? &sb : &sa;
	return (run_blas_call){
		.m = ccol ? rq->M : rq->N, .n = ccol ? rq->N : rq->M, .k = rq->K,
		.first = ccol ? 'A' : 'B', .second = ccol ? 'B' : 'A',
		.trans_first = sx->col != ccol, .trans_second = sy->col != ccol,
		.ld_first = sx->ld, .ld_second = sy->ld, .ldc = sc.ld,
	};
}

/* The poison of t in its element's bytes (little-endian). */
static void poison_of(dtype t, uint8_t *out)
{
	const dtype_info *d = dtype_of(t == DTYPE_NONE ? DTYPE_F32 : t);
	for (int b = 0; b < d->bytes; b++)
		out[b] = (uint8_t)(d->poison >> (8 * b));
}

static void fill_poison(uint8_t *p, size_t n, const uint8_t *pz, int bytes)
{
	for (size_t i = 0; i < n; i++)
		memcpy(p + i * (size_t)bytes, pz, (size_t)bytes);
}

void run_store_spread(const run_store *st, dtype t, void *buf)
{
	int bytes = dtype_of(t)->bytes;
	uint8_t pz[4], *p = buf;
	poison_of(t, pz);
	size_t line = (size_t)st->inner * (size_t)bytes, stride = (size_t)st->ld * (size_t)bytes;
	if (stride == line)
		return;
	for (long long o = st->outer; o-- > 0;) { /* from the last line: a line moves only forward */
		memmove(p + (size_t)o * stride, p + (size_t)o * line, line);
		fill_poison(p + (size_t)o * stride + line, (size_t)(st->ld - st->inner), pz, bytes);
	}
}

void run_store_poison(const run_store *st, dtype t, void *buf)
{
	uint8_t pz[4];
	poison_of(t, pz);
	fill_poison(buf, st->elems, pz, dtype_of(t)->bytes);
}

/* The buffer index of logical element (r, c). */
static size_t at(const run_store *st, long long r, long long c)
{
	return st->col ? (size_t)c * (size_t)st->ld + (size_t)r : (size_t)r * (size_t)st->ld + (size_t)c;
}

void run_store_put(const run_store *st, dtype t, const float *logical, void *buf)
{
	int bytes = dtype_of(t)->bytes;
	long long rows = st->col ? st->inner : st->outer, cols = st->col ? st->outer : st->inner;
	if (!st->col && st->ld == st->inner) { /* the default: one conversion */
		dtype_from_f32(t, logical, buf, st->elems);
		return;
	}
	for (long long r = 0; r < rows; r++)
		for (long long c = 0; c < cols; c++)
			dtype_from_f32(t, &logical[(size_t)r * (size_t)cols + (size_t)c], (uint8_t *)buf + at(st, r, c) * (size_t)bytes, 1);
}

size_t run_store_get(const run_store *st, dtype t, const void *buf, float *logical)
{
	int bytes = dtype_of(t)->bytes;
	long long rows = st->col ? st->inner : st->outer, cols = st->col ? st->outer : st->inner;
	const uint8_t *p = buf;
	if (!st->col && st->ld == st->inner) {
		dtype_to_f32(t, buf, logical, st->elems);
		return 0;
	}
	for (long long r = 0; r < rows; r++)
		for (long long c = 0; c < cols; c++)
			dtype_to_f32(t, p + at(st, r, c) * (size_t)bytes, &logical[(size_t)r * (size_t)cols + (size_t)c], 1);
	uint8_t pz[4];
	poison_of(t, pz);
	size_t written = 0;
	for (long long o = 0; o < st->outer; o++)
		for (long long i = st->inner; i < st->ld; i++)
			written += memcmp(p + ((size_t)o * (size_t)st->ld + (size_t)i) * (size_t)bytes, pz, (size_t)bytes) != 0;
	return written;
}
