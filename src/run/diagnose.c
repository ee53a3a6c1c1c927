/* diagnose: what a check that fails by a small margin is consistent with — the one table of the common precision mistakes, each a reference computed again under it. */
#include "run/diagnose.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"

/* One mistake: where a value is rounded and to what (DTYPE_NONE: kept exact,
 * in double). The exact reference is the row of all NONE. */
typedef struct {
	const char *phrase;       /* after "consistent with " */
	dtype inputs;             /* each A and B element rounded to this before the product */
	dtype product;            /* each product rounded to this */
	dtype acc;                /* the running sum rounded to this after each add (k in order) */
} candidate;

static const candidate candidates[] = {
	{"inputs rounded to bf16", DTYPE_BF16, DTYPE_NONE, DTYPE_NONE},
	{"inputs rounded to f16", DTYPE_F16, DTYPE_NONE, DTYPE_NONE},
	{"inputs rounded to tf32", DTYPE_TF32, DTYPE_NONE, DTYPE_NONE},
	{"products rounded to bf16", DTYPE_NONE, DTYPE_BF16, DTYPE_NONE},
	{"products rounded to f16", DTYPE_NONE, DTYPE_F16, DTYPE_NONE},
	{"an f16 accumulator", DTYPE_NONE, DTYPE_NONE, DTYPE_F16},
	{"a bf16 accumulator", DTYPE_NONE, DTYPE_NONE, DTYPE_BF16},
	/* integer inputs sum exactly in int32; an f32 sum rounds once past 2^24 */
	{"an f32 accumulator (an exact int32 sum was expected)", DTYPE_NONE, DTYPE_NONE, DTYPE_F32},
};

const char *diagnose_candidate(int i)
{
	return i >= 0 && i < (int)ARRAY_LEN(candidates) ? candidates[i].phrase : NULL;
}

static double round_to(dtype d, double v)
{
	if (d == DTYPE_NONE)
		return v;
	if (d == DTYPE_F32)
		return (float)v;
	return dtype_round(d, (float)v);
}

/* Element (i, j) of C under candidate c. */
static double element(const diagnose_input *in, const candidate *c, long long i, long long j)
{
	double acc = 0;
	for (long long k = 0; k < in->K; k++) {
		double x = in->a_col ? in->a[k * in->M + i] : in->a[i * in->K + k];
		double y = in->b_col ? in->b[j * in->K + k] : in->b[k * in->N + j];
		double p = round_to(c->product, round_to(c->inputs, x) * round_to(c->inputs, y));
		acc = round_to(c->acc, acc + p);
	}
	double v = (double)in->alpha * acc + (in->c0 ? (double)in->beta * in->c0[i * in->N + j] : 0.0);
	return round_to(in->out == DTYPE_NONE ? DTYPE_F32 : in->out, v);
}

/* ||got - candidate|| / ||candidate|| over the sample. */
static double error_under(const diagnose_input *in, const candidate *c)
{
	size_t n = (size_t)in->M * (size_t)in->N, ns = n < DIAGNOSE_SAMPLES ? n : DIAGNOSE_SAMPLES;
	double num = 0, den = 0;
	for (size_t s = 0; s < ns; s++) {
		size_t e = (size_t)((double)s * (double)n / (double)ns);
		double want = element(in, c, (long long)e / in->N, (long long)e % in->N), d = in->got[e] - want;
		if (!isfinite(in->got[e]))
			return INFINITY;
		num += d * d;
		den += want * want;
	}
	return sqrt(num) / (den > 0 ? sqrt(den) : 1);
}

const char *diagnose_precision(const diagnose_input *in, double *err)
{
	static const candidate exact = {"", DTYPE_NONE, DTYPE_NONE, DTYPE_NONE};
	if (in->M <= 0 || in->N <= 0)
		return NULL;
	double base = error_under(in, &exact), best = INFINITY, room = in->tol > 1e-5 ? in->tol : 1e-5;
	const char *found = NULL;
	for (size_t i = 0; i < ARRAY_LEN(candidates); i++) {
		double e = error_under(in, &candidates[i]);
		if (e <= room && e < base / 4 && e < best) {
			best = e;
			found = candidates[i].phrase;
		}
	}
	if (found && err)
		*err = best;
	return found;
}
