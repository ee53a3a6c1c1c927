/* accuracy: the number-format accuracy experiment as data — the one table of format rows (a kernel each), the input distributions, the f64 reference from the f32 inputs, the error measures and the terminal plot. */
#ifndef PTXTUTOR_ACCURACY_H
#define PTXTUTOR_ACCURACY_H

#include <stddef.h>
#include <stdio.h>

#include "base/rng.h"
#include "course/lesson.h"
#include "run/run.h"

/* How A and B are drawn (f32). Outliers: normal(0,1), and each element,
 * independently with probability ACC_OUTLIER_P, times ACC_OUTLIER_X: a few
 * large values stretch the range a format must hold (FP8 scales, f16's
 * range against bf16's). */
typedef enum { ACC_UNIFORM, ACC_NORMAL, ACC_OUTLIERS, ACC_DIST_COUNT } acc_dist;
#define ACC_OUTLIER_P 0.01
#define ACC_OUTLIER_X 100.0

/* "uniform", "normal", "outliers". */
const char *acc_dist_name(acc_dist d);
/* Returns 0, or -1 when s names no distribution. */
int acc_dist_parse(const char *s, acc_dist *out);
/* n values of d from r. */
void acc_draw(rng *r, acc_dist d, float *out, size_t n);
/* The generator for one K's inputs: the same seed and K give the same A and
 * B whatever else the K list holds. */
void acc_seed(rng *r, unsigned long long seed, long long K);

/* One format: a lesson's kernel, launched as its lesson launches it (the
 * one place a launch is written is the lesson's front matter), or a kernel
 * run as `run --ptx` takes it (each launch field an expression over M N K),
 * and the GPU it needs. */
typedef struct {
	const char *name;         /* shown: "f16→f32" */
	/* the lesson whose launch it takes; 0: none, the fields below say it */
	int lesson;
	const char *ptx, *entry;  /* path from the project's root; with a lesson, the entry may be
				   * another of its file's, of the same launch (e5m2 beside e4m3) */
	const char *dtype, *out;  /* A and B, C (NULL: f32; with a lesson: the lesson's) */
	const char *needs;        /* "sm_80": the lowest GPU that runs it */
	/* without a lesson: the launch, each an expression over M N K, and the
	 * tile M, N and K must be multiples of */
	const char *grid, *block, *smem;
	long long tile[3];
} acc_format;

/* The rows, in the order the table shows them. */
const acc_format *acc_formats(int *n);
/* The row named s (its name, or its name with "->" for "→"); NULL for none. */
const acc_format *acc_format_find(const char *s);
/* Fills a request for row f at M x N x K on the backend given: not verified,
 * not timed; a lesson's row from the course c. Returns 0, or -1 with one
 * line in err that starts with the row's name ("tf32: ptx/11_formats.ptx not
 * found", a size that is not a whole number of tiles, a type this build does
 * not know). */
int acc_request(const acc_format *f, const course *c, long long M, long long N, long long K, run_backend backend,
		run_request *rq, char *err, int errlen);
/* Whether a GPU of compute capability cc (90: sm_90) runs row f: 0, or -1
 * with "needs sm_90a (this GPU: sm_80)" in err. */
int acc_runs_on(const acc_format *f, int cc, char *err, int errlen);

/* ref = A·B (A M x K, B K x N, row-major f32) accumulated in double.
 * stop (NULL: none) is read after each row: nonzero stops it (a 1024 x
 * 1024 x 16384 reference takes seconds). Returns 0, or -1 when stopped. */
int acc_reference(const float *a, const float *b, long long M, long long N, long long K, double *ref,
		  const volatile int *stop);

/* How far a C is from the reference. */
typedef struct {
	double rel_fro;           /* ||C - ref||_F / ||ref||_F; NaN when C has a non-finite element */
	double max_rel;           /* max |C - ref| over elements, / max |ref| */
	size_t nonfinite;         /* NaN or infinite elements of C */
} acc_error;

void acc_measure(const double *ref, const float *c, size_t n, acc_error *e);

/* The plot: log10(rel. error) against K, one glyph per series. */
#define ACC_MAX_K 16
typedef struct {
	const char *name;
	double err[ACC_MAX_K];    /* per K; not positive or not finite: not drawn */
} acc_series;

/* The chart for nk Ks and ns series, at most width columns wide (>= 40):
 * a row per third of a decade, K on a log2 axis, a legend line. */
void acc_plot(FILE *out, const long long *ks, int nk, const acc_series *s, int ns, int width);

#endif
