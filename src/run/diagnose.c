/* diagnose: what a check that fails by a small margin is consistent with — the one table of the common precision mistakes, each a reference computed again under it. */
#include "run/diagnose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

/* One mistake: where a value is rounded and to what (DTYPE_NONE: kept exact,
 * in double), or which matrices the kernel indexes in the other major than
 * the run lays them out in. The exact reference is the row of all zero. */
typedef struct {
	const char *phrase;       /* after "consistent with "; NULL: made from flip */
	dtype inputs;             /* each A and B element rounded to this before the product */
	dtype product;            /* each product rounded to this */
	dtype acc;                /* the running sum rounded to this after each add (k in order) */
	unsigned flip;            /* FLIP_A, FLIP_B, FLIP_C: read (written) in the other major */
	int integer;              /* a mistake of integer inputs only (with float ones it is what is expected) */
} candidate;

enum { FLIP_A = 1, FLIP_B = 2, FLIP_C = 4 };

static const candidate candidates[] = {
	{"inputs rounded to bf16", .inputs = DTYPE_BF16, .product = DTYPE_NONE, .acc = DTYPE_NONE},
	/* tf32 and f16 keep the same 10 mantissa bits: for inputs in [-1, 1]
	 * they differ only at ties (rna, rne) and below f16's normals, so the
	 * two match alike and the earlier, tf32 (what tensor cores do), is named */
	{"inputs rounded to tf32", .inputs = DTYPE_TF32, .product = DTYPE_NONE, .acc = DTYPE_NONE},
	{"inputs rounded to f16", .inputs = DTYPE_F16, .product = DTYPE_NONE, .acc = DTYPE_NONE},
	{"products rounded to bf16", .inputs = DTYPE_NONE, .product = DTYPE_BF16, .acc = DTYPE_NONE},
	{"products rounded to f16", .inputs = DTYPE_NONE, .product = DTYPE_F16, .acc = DTYPE_NONE},
	{"an f16 accumulator", .inputs = DTYPE_NONE, .product = DTYPE_NONE, .acc = DTYPE_F16},
	{"a bf16 accumulator", .inputs = DTYPE_NONE, .product = DTYPE_NONE, .acc = DTYPE_BF16},
	/* integer inputs sum exactly in int32; an f32 sum rounds once past 2^24 */
	{"an f32 accumulator (an exact int32 sum was expected)", .inputs = DTYPE_NONE, .product = DTYPE_NONE, .acc = DTYPE_F32,
	 .integer = 1},
	/* layouts (tight ones only): fewer matrices first; all three is a
	 * column-major kernel run on row-major matrices, or the reverse */
	{.flip = FLIP_A}, {.flip = FLIP_B}, {.flip = FLIP_C},
	{.flip = FLIP_A | FLIP_B}, {.flip = FLIP_A | FLIP_C}, {.flip = FLIP_B | FLIP_C},
	{.flip = FLIP_A | FLIP_B | FLIP_C},
};

const char *diagnose_candidate(int i)
{
	if (i < 0 || i >= (int)ARRAY_LEN(candidates))
		return NULL;
	return candidates[i].phrase ? candidates[i].phrase : "A, B or C indexed in the other major than --layout's";
}

/* "A read column-major, C written column-major (run it with --layout
 * A=col,B=row,C=col)": the flipped matrices, and the layout the kernel uses. */
static void flip_phrase(const diagnose_input *in, unsigned flip, char *buf, size_t len)
{
	const int col[3] = {in->a_col, in->b_col, in->c_col};
	char lay[32];
	size_t used = 0;
	buf[0] = '\0';
	for (int m = 0; m < 3 && used < len; m++)
		if (flip & (1u << m))
			used += (size_t)snprintf(buf + used, len - used, "%s%c %s %s-major", used ? ", " : "", "ABC"[m],
						 m == 2 ? "written" : "read", col[m] ? "row" : "column");
	int k[3];
	for (int m = 0; m < 3; m++)
		k[m] = col[m] ^ !!(flip & (1u << m));
	snprintf(lay, sizeof lay, "A=%s,B=%s,C=%s", k[0] ? "col" : "row", k[1] ? "col" : "row", k[2] ? "col" : "row");
	if (used < len)
		snprintf(buf + used, len - used, " (run it with --layout %s)", lay);
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
	if (c->flip & FLIP_C) { /* the kernel's (i', j') landed where we read (i, j) */
		long long at = in->c_col ? j * in->M + i : i * in->N + j;
		i = in->c_col ? at / in->N : at % in->M;
		j = in->c_col ? at % in->N : at / in->M;
	}
	int a_col = in->a_col ^ !!(c->flip & FLIP_A), b_col = in->b_col ^ !!(c->flip & FLIP_B);
	double acc = 0;
	for (long long k = 0; k < in->K; k++) {
		double x = a_col ? in->a[k * in->M + i] : in->a[i * in->K + k];
		double y = b_col ? in->b[j * in->K + k] : in->b[k * in->N + j];
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

int diagnose_precision(const diagnose_input *in, char *buf, size_t len, double *err)
{
	static const candidate exact = {.phrase = ""};
	if (in->M <= 0 || in->N <= 0)
		return 0;
	double base = error_under(in, &exact), best = INFINITY, room = in->tol > 1e-5 ? in->tol : 1e-5;
	const candidate *found = NULL;
	for (size_t i = 0; i < ARRAY_LEN(candidates); i++) {
		const candidate *c = &candidates[i];
		if (c->integer > in->integer || (c->flip ? !in->tight : !(base < DIAGNOSE_MAX_REL)))
			continue; /* a flip reads another element only where lines are tight; rounding explains small errors only */
		double e = error_under(in, c);
		/* a later candidate must be clearly better: near-ties keep the earlier row */
		if (e <= room && e < base / 4 && e < best / 2) {
			best = e;
			found = c;
		}
	}
	if (!found)
		return 0;
	if (found->phrase)
		snprintf(buf, len, "%s", found->phrase);
	else
		flip_phrase(in, found->flip, buf, len);
	if (err)
		*err = best;
	return 1;
}
