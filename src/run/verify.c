/* verify: the one check of a run's output C against its reference, on plain arrays, for the GPU runner and the emulator alike. */
#include "run/verify.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fpconv.h"
#include "base/util.h"
#include "run/diagnose.h"

float verify_c0_again(float c0, dtype t)
{
	/* c0 is in [-1, 1] and never zero (base/rng), so in f32 and bf16 the
	 * scaled value is normal, exact, and of another exponent than c0. */
	if (t == DTYPE_NONE)
		t = DTYPE_F32;
	return dtype_round(t, ldexpf(c0, -dtype_of(t)->c0_shift));
}

void verify_second_c0(const float *c0, float *out, size_t n, dtype t)
{
	for (size_t i = 0; i < n; i++)
		out[i] = verify_c0_again(c0[i], t);
}

float *verify_reference(long long M, long long N, long long K, const float *a, int a_col, const float *b, int b_col,
			const float *c0, float alpha, float beta)
{
	size_t nc = (size_t)M * (size_t)N;
	double *acc = xcalloc(nc ? nc : 1, sizeof(double));
	for (long long i = 0; i < M; i++) {
		double *crow = acc + i * N;
		if (b_col) { /* B[k][j] is b[j*K + k]: a dot product with a column of B */
			for (long long j = 0; j < N; j++) {
				double sum = 0;
				for (long long kk = 0; kk < K; kk++)
					sum += (double)(a_col ? a[kk * M + i] : a[i * K + kk]) * b[j * K + kk];
				crow[j] = sum;
			}
			continue;
		}
		for (long long kk = 0; kk < K; kk++) {
			double x = a_col ? a[kk * M + i] : a[i * K + kk];
			const float *brow = b + kk * N;
			for (long long j = 0; j < N; j++)
				crow[j] += x * brow[j];
		}
	}
	float *ref = xmalloc((nc ? nc : 1) * sizeof(float));
	for (size_t i = 0; i < nc; i++)
		ref[i] = (float)((double)alpha * acc[i] + (c0 ? (double)beta * c0[i] : 0.0));
	free(acc);
	return ref;
}

/* The error norms, the worst element and the count off by more than tol
 * (elementwise, against tol * (|ref| + rms)), over finite outputs. */
static void measure(const verify_input *in, size_t n, verify_report *rep)
{
	double num = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		den += (double)in->ref[i] * in->ref[i];
		if (isfinite(in->got[i])) {
			double d = (double)in->got[i] - in->ref[i];
			num += d * d;
		}
	}
	double rms = sqrt(den / (double)(n ? n : 1)), worst = -1;
	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)in->got[i] - in->ref[i]), scale = fabs((double)in->ref[i]) + rms;
		double r = isfinite(in->got[i]) ? d / (scale > 0 ? scale : 1) : INFINITY;
		if (!(d <= in->tol * scale))
			rep->bad++;
		if (r > worst) {
			worst = r;
			rep->worst = i;
		}
	}
	rep->expected = in->ref[rep->worst];
	rep->got = in->got[rep->worst];
	rep->rel_err = rep->nonfinite ? NAN : sqrt(num) / (den > 0 ? sqrt(den) : 1);
}

/* The first element i with pick(i), or n. */
static size_t first_of(const verify_input *in, size_t n, int (*pick)(const verify_input *, size_t))
{
	size_t i = 0;
	while (i < n && !pick(in, i))
		i++;
	return i;
}

static int is_nonfinite(const verify_input *in, size_t i) { return !isfinite(in->got[i]); }
static int is_candidate(const verify_input *in, size_t i)
{
	return fpconv_f32_bits(in->got[i]) == fpconv_f32_bits(in->c0[i]);
}
/* Kept C0 through both launches (beta:), or kept the poison and came out 0 with C zeroed (no beta:). */
static int is_unwritten(const verify_input *in, size_t i)
{
	if (in->c0)
		return is_candidate(in, i) && fpconv_f32_bits(in->got2[i]) == fpconv_f32_bits(verify_c0_again(in->c0[i], in->out));
	return !isfinite(in->got[i]) && fpconv_f32_bits(in->got2[i]) == 0 && in->ref[i] != 0.0f;
}

static void where(const verify_input *in, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "row %zu, col %zu", i / (in->cols ? in->cols : 1), i % (in->cols ? in->cols : 1));
}

/* With C zeroed, are the outputs that were NaN now right? Then the kernel reads C. */
static int right_with_zero_c(const verify_input *in, size_t n)
{
	double num = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(in->got2[i]))
			return 0;
		double d = (double)in->got2[i] - in->ref[i];
		num += d * d;
		den += (double)in->ref[i] * in->ref[i];
	}
	return sqrt(num) <= in->tol * (den > 0 ? sqrt(den) : 1);
}

void verify_check(const verify_input *in, verify_report *rep)
{
	size_t n = in->rows * in->cols;
	char at[64];
	memset(rep, 0, sizeof *rep);
	for (size_t i = 0; i < n; i++)
		rep->nonfinite += !isfinite(in->got[i]);
	measure(in, n, rep);
	if (!in->got2) {
		/* first call: does it need a second launch? */
		size_t cand = 0;
		for (size_t i = 0; in->c0 && i < n; i++)
			cand += is_candidate(in, i);
		rep->again = cand ? VERIFY_AGAIN_C0 : !in->c0 && rep->nonfinite ? VERIFY_AGAIN_ZERO : VERIFY_AGAIN_NONE;
		if (rep->again) {
			rep->kind = in->c0 ? VERIFY_UNWRITTEN : VERIFY_NONFINITE;
			snprintf(rep->msg, sizeof rep->msg, "not decided yet: a second launch is needed");
			return;
		}
	} else {
		for (size_t i = 0; i < n; i++)
			rep->unwritten += is_unwritten(in, i);
		rep->reads_c = !in->c0 && !rep->unwritten && right_with_zero_c(in, n);
	}
	if (rep->unwritten) {
		rep->kind = VERIFY_UNWRITTEN;
		where(in, first_of(in, n, is_unwritten), at, sizeof at);
		snprintf(rep->msg, sizeof rep->msg, "%zu of %zu elements of C were never written (the first at %s): %s",
			 rep->unwritten, n, at,
			 in->c0 ? "they kept C0 through two launches" : "they kept the NaN poison, and 0 with C zeroed");
	} else if (rep->nonfinite) {
		rep->kind = VERIFY_NONFINITE;
		where(in, first_of(in, n, is_nonfinite), at, sizeof at);
		if (rep->reads_c)
			snprintf(rep->msg, sizeof rep->msg,
				 "%zu of %zu outputs are NaN because the kernel reads C, which was poisoned with NaN "
				 "(with C zeroed they are right): add beta:VALUE to --args", rep->nonfinite, n);
		else
			snprintf(rep->msg, sizeof rep->msg, "%zu of %zu outputs are NaN or Inf (the first at %s)%s",
				 rep->nonfinite, n, at,
				 in->c0 ? "; C started finite, so the kernel computed them"
					: "; C was poisoned with NaN, but with C zeroed they are still wrong");
	} else if (!(rep->rel_err <= in->tol)) {
		rep->kind = VERIFY_WRONG;
		where(in, rep->worst, at, sizeof at);
		char tol[32]; /* 0 for integer types (run_tolerance): the check is exact */
		snprintf(tol, sizeof tol, in->tol == 0 ? "0 (the check is exact)" : "%.0e", in->tol);
		char why[160] = "";
		if (in->a && in->b) {
			diagnose_input d = {.M = (long long)in->rows, .N = (long long)in->cols, .K = in->K, .a = in->a,
					    .b = in->b, .a_col = in->a_col, .b_col = in->b_col, .c_col = in->c_col,
					    .tight = in->tight, .integer = in->integer, .out = in->out, .got = in->got, .c0 = in->c0,
					    .alpha = in->alpha, .beta = in->beta, .tol = in->tol};
			if (diagnose_precision(&d, rep->consistent_with, sizeof rep->consistent_with, NULL))
				snprintf(why, sizeof why, ", consistent with %s", rep->consistent_with);
		}
		util_cutf(rep->msg, sizeof rep->msg, /* a long diagnosis is cut, not an error */
			 "wrong values: rel. error %.3g > tolerance %s%s; %zu of %zu elements off, the worst at %s: "
			 "expected %.6g, got %.6g", rep->rel_err, tol, why, rep->bad, n, at, rep->expected, rep->got);
	} else if (in->pad_written) {
		rep->kind = VERIFY_WRONG;
		snprintf(rep->msg, sizeof rep->msg,
			 "the values are right, but the kernel wrote %zu elements of C's padding (between a line's end and "
			 "its leading dimension): index C with ld:C, not the tight width", in->pad_written);
	} else {
		rep->kind = VERIFY_PASS;
		snprintf(rep->msg, sizeof rep->msg, "rel. error %.3g within %.0e", rep->rel_err, in->tol);
	}
}
