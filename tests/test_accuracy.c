/* test_accuracy: the accuracy experiment's parts — the f64 reference and the error measures on hand-worked inputs, the distributions' moments, the format rows against their lessons, the guards, the run_request hook in the emulator, and the plot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "course/dtype.h"
#include "course/lesson.h"
#include "exec/backend.h"
#include "exec/worker.h"
#include "run/accuracy.h"
#include "run/launch.h"

/* [1 2 3; 4 5 6] · [7 8; 9 10; 11 12] = [58 64; 139 154], worked by hand. */
static void test_reference(void **state)
{
	(void)state;
	const float a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12};
	double ref[4];
	assert_int_equal(acc_reference(a, b, 2, 2, 3, ref, NULL), 0);
	assert_true(ref[0] == 58 && ref[1] == 64 && ref[2] == 139 && ref[3] == 154);
	/* double accumulation: 2^24 + 1 + 1 - 2^24 is 2 in f64 (0 in f32, left to right) */
	const float x[] = {16777216.0f, 1, 1, -16777216.0f}, y[] = {1, 1, 1, 1};
	acc_reference(x, y, 1, 1, 4, ref, NULL);
	assert_true(ref[0] == 2.0);
	volatile int stop = 1; /* a stop asked for before it starts: no row done */
	assert_int_equal(acc_reference(a, b, 2, 2, 3, ref, &stop), -1);
	assert_true(ref[0] == 0);
}

static void test_measure(void **state)
{
	(void)state;
	acc_error e;
	const double ref[] = {3, 4};
	const float c[] = {3, 5}; /* error (0, 1): 1 / 5 norm-wise; largest element error 1 / largest |ref| 4 */
	acc_measure(ref, c, 2, &e);
	assert_true(fabs(e.rel_fro - 0.2) < 1e-15);
	assert_true(fabs(e.max_rel - 0.25) < 1e-15);
	assert_int_equal(e.nonfinite, 0);
	const float same[] = {3, 4};
	acc_measure(ref, same, 2, &e);
	assert_true(e.rel_fro == 0 && e.max_rel == 0);
	const float bad[] = {3, NAN}; /* NaN never passes as a small error */
	acc_measure(ref, bad, 2, &e);
	assert_int_equal(e.nonfinite, 1);
	assert_true(isnan(e.rel_fro) && isnan(e.max_rel));
}

static void moments(acc_dist d, size_t n, double *mean, double *var, double *lo, double *hi, size_t *big)
{
	float *v = malloc(n * sizeof *v);
	rng r;
	acc_seed(&r, 1, 1024);
	acc_draw(&r, d, v, n);
	double s = 0, s2 = 0;
	*lo = INFINITY, *hi = -INFINITY, *big = 0;
	for (size_t i = 0; i < n; i++) {
		s += v[i], s2 += (double)v[i] * v[i];
		*lo = v[i] < *lo ? v[i] : *lo, *hi = v[i] > *hi ? v[i] : *hi;
		*big += fabsf(v[i]) > 10;
	}
	*mean = s / (double)n;
	*var = s2 / (double)n - *mean * *mean;
	free(v);
}

static void test_distributions(void **state)
{
	(void)state;
	const size_t n = 200000;
	double mean, var, lo, hi;
	size_t big;
	moments(ACC_UNIFORM, n, &mean, &var, &lo, &hi, &big);
	assert_true(fabs(mean) < 0.01 && fabs(var - 1.0 / 3) < 0.01 && lo >= -1 && hi <= 1 && big == 0);
	moments(ACC_NORMAL, n, &mean, &var, &lo, &hi, &big);
	assert_true(fabs(mean) < 0.01 && fabs(var - 1) < 0.02 && big == 0 && lo < -3.5 && hi > 3.5);
	/* 1% of values x 100: about n/100 beyond 10 (normal alone: none), variance 0.99 + 100 */
	moments(ACC_OUTLIERS, n, &mean, &var, &lo, &hi, &big);
	assert_true(big > n / 200 && big < n / 50);
	assert_true(var > 80 && var < 125);
	/* the same seed and K give the same inputs; another K others */
	float a[8], b[8], c[8];
	rng r;
	acc_seed(&r, 7, 256), acc_draw(&r, ACC_NORMAL, a, 8);
	acc_seed(&r, 7, 256), acc_draw(&r, ACC_NORMAL, b, 8);
	acc_seed(&r, 7, 1024), acc_draw(&r, ACC_NORMAL, c, 8);
	assert_memory_equal(a, b, sizeof a);
	assert_memory_not_equal(a, c, sizeof a);
	acc_dist d;
	assert_int_equal(acc_dist_parse("outliers", &d), 0);
	assert_int_equal(d, ACC_OUTLIERS);
	assert_int_equal(acc_dist_parse("cauchy", &d), -1);
}

/* The course the lesson rows take their launches from, loaded once. */
static const course *lessons(void)
{
	static course c;
	static int loaded;
	char errs[4096];
	if (!loaded++)
		course_load(&c, errs, sizeof errs);
	return &c;
}

/* A lesson's row is its lesson's request (the launch written once, in the
 * front matter), the e5m2 row lesson 11's with its own entry and type; and
 * a lesson row without the course says so in one line. */
static void test_rows_match_lessons(void **state)
{
	(void)state;
	char err[256];
	int n, checked = 0;
	const acc_format *rows = acc_formats(&n);
	for (int i = 0; i < n; i++) {
		if (!rows[i].lesson)
			continue;
		char num[8];
		snprintf(num, sizeof num, "%d", rows[i].lesson);
		const lesson *l = course_find(lessons(), num);
		assert_non_null(l);
		run_request a, b;
		assert_int_equal(acc_request(&rows[i], lessons(), 256, 256, 1024, RUN_BACKEND_EMU, &a, err, sizeof err), 0);
		assert_int_equal(launch_request_for_lesson(l, NULL, 256, 256, 1024, &b, err, sizeof err), 0);
		assert_string_equal(a.ptx_path, b.ptx_path);
		assert_string_equal(a.entry, rows[i].entry);
		assert_memory_equal(a.grid, b.grid, sizeof a.grid);
		assert_int_equal(a.smem, b.smem);
		assert_int_equal(run_cluster(&a, a.cluster), run_cluster(&b, b.cluster));
		assert_int_equal(a.b_kmajor, b.b_kmajor);
		assert_int_equal(a.verify, 0); /* the experiment measures its own error */
		assert_int_equal(a.backend, RUN_BACKEND_EMU);
		if (strcmp(rows[i].entry, b.entry)) { /* e5m2 beside lesson 11's e4m3 */
			assert_string_equal(rows[i].name, "e5m2→bf16");
			assert_int_equal(a.dt, DTYPE_E5M2);
			assert_int_equal(b.dt, DTYPE_E4M3);
		} else {
			assert_int_equal(a.dt, b.dt);
		}
		checked++;
	}
	assert_int_equal(checked, 5); /* lessons 7, 8, 10 and 11 (e4m3 and e5m2) */
	run_request rq;
	assert_int_equal(acc_request(acc_format_find("f32"), NULL, 256, 256, 256, RUN_BACKEND_EMU, &rq, err, sizeof err), -1);
	assert_string_equal(err, "f32: lesson 7 is not in the course");
}

static void test_guards(void **state)
{
	(void)state;
	char err[256];
	run_request rq;
	acc_format f = {.name = "x", .ptx = "ptx/no_such.ptx", .entry = "k", .grid = "1", .block = "32",
			.needs = "sm_80", .tile = {1, 1, 1}};
	assert_int_equal(acc_request(&f, lessons(), 64, 64, 64, RUN_BACKEND_EMU, &rq, err, sizeof err), -1);
	assert_string_equal(err, "x: ptx/no_such.ptx not found");
	f.ptx = "ptx/07_warptile.ptx";
	assert_int_equal(acc_request(&f, lessons(), 64, 64, 64, RUN_BACKEND_EMU, &rq, err, sizeof err), -1);
	assert_string_equal(err, "x: ptx/07_warptile.ptx has no entry k");
	/* a size that is not whole tiles: one line, no launch */
	const acc_format *f32 = acc_format_find("f32");
	assert_int_equal(acc_request(f32, lessons(), 64, 256, 1024, RUN_BACKEND_EMU, &rq, err, sizeof err), -1);
	assert_non_null(strstr(err, "f32: lesson 7 (warptile) needs M a multiple of 128, N of 128 and K of 16"));
	/* names: as shown, or with -> for the arrow */
	assert_ptr_equal(acc_format_find("f16->f32"), acc_format_find("f16→f32"));
	assert_non_null(acc_format_find("bf16->bf16"));
	assert_null(acc_format_find("f64"));
	/* the GPU a row needs: sm_90a on that GPU only, sm_80 on it and later */
	const acc_format *bf = acc_format_find("bf16->bf16"), *h = acc_format_find("f16->f32");
	assert_int_equal(acc_runs_on(bf, 90, err, sizeof err), 0);
	assert_int_equal(acc_runs_on(bf, 80, err, sizeof err), -1);
	assert_string_equal(err, "needs sm_90a (this GPU: sm_80)");
	assert_int_equal(acc_runs_on(bf, 100, err, sizeof err), -1);
	assert_int_equal(acc_runs_on(h, 90, err, sizeof err), 0);
	assert_int_equal(acc_runs_on(h, 75, err, sizeof err), -1);
	/* every row has its kernel in this tree */
	int n;
	const acc_format *rows = acc_formats(&n);
	for (int i = 0; i < n; i++)
		assert_int_equal(acc_request(&rows[i], lessons(), 256, 256, 256, RUN_BACKEND_EMU, &rq, err, sizeof err), 0);
}

/* The hook: the emulator stores the caller's f32 inputs in the kernel's
 * type (f16 here: 0.1 and 1/3 are not f16 values) and hands C back as f32,
 * which then equals the f32-accumulated product of the rounded inputs. */
static void test_hook_rounds_inputs(void **state)
{
	(void)state;
	const long long M = 128, N = 256, K = 32;
	float *a = malloc(M * K * sizeof *a), *b = malloc(K * N * sizeof *b), *c = malloc(M * N * sizeof *c);
	for (long long i = 0; i < M * K; i++)
		a[i] = (i % 3 ? 0.1f : 1.0f / 3) * (float)(1 + i % 5);
	for (long long i = 0; i < K * N; i++)
		b[i] = (i % 2 ? -0.7f : 0.3f) * (float)(1 + i % 7);
	for (long long i = 0; i < M * N; i++)
		c[i] = NAN;
	char err[256];
	run_request rq;
	assert_int_equal(acc_request(acc_format_find("f16->f32"), lessons(), M, N, K, RUN_BACKEND_EMU, &rq, err, sizeof err), 0);
	rq.a_host = a, rq.b_host = b, rq.c_host = c;
	run_result *res = malloc(sizeof *res);
	exec_run(&rq, res);
	assert_int_equal(res->status, RUN_OK);
	double worst_rounded = 0, worst_f32 = 0;
	for (long long i = 0; i < M; i += 17)
		for (long long j = 0; j < N; j += 13) {
			double r = 0, u = 0;
			for (long long k = 0; k < K; k++) {
				r += (double)dtype_round(DTYPE_F16, a[i * K + k]) * dtype_round(DTYPE_F16, b[k * N + j]);
				u += (double)a[i * K + k] * b[k * N + j];
			}
			double got = c[i * N + j];
			worst_rounded = fmax(worst_rounded, fabs(got - r) / fmax(fabs(r), 1));
			worst_f32 = fmax(worst_f32, fabs(got - u) / fmax(fabs(u), 1));
		}
	assert_true(worst_rounded < 1e-5);       /* f32 accumulation of the f16 inputs */
	assert_true(worst_f32 > 10 * worst_rounded); /* and visibly not the f32 inputs' product */
	/* host pointers mean nothing in the worker's process: refused, and no worker started for it */
	worker w = {.pid = -1};
	assert_int_equal(worker_submit(&w, &rq), -1);
	assert_true(w.pid <= 0);
	free(res);
	free(a);
	free(b);
	free(c);
}

/* The plot: each series on its decade's row at its K's column, a shared
 * point marked, and no line wider than 80 columns. */
static void test_plot(void **state)
{
	(void)state;
	const long long ks[] = {256, 1024, 4096, 16384};
	acc_series s[3] = {{.name = "f32", .err = {1e-7, 2e-7, 4e-7, 8e-7}},
			   {.name = "bf16→bf16", .err = {1e-3, 1e-3, 1e-3, NAN}},
			   {.name = "other", .err = {1e-3, 0, 0, 0}}};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	acc_plot(f, ks, 4, s, 3, 80);
	fclose(f);
	char *row3 = strstr(buf, "\n  1e-3 |"), *row7 = strstr(buf, "\n  1e-7 |");
	assert_non_null(row3);
	assert_non_null(row7);
	row3 += strlen("\n  1e-3 |"), row7 += strlen("\n  1e-7 |");
	assert_int_equal(row3[0], '#');         /* bf16 and other at K = 256 */
	assert_int_equal(row7[0], '*');         /* f32 at K = 256 */
	assert_int_equal(strchr(row3, '\n') - row3, 48); /* bf16 last at K = 4096: column round(70 * 4/6) of 71 */
	assert_non_null(strstr(buf, "* f32"));
	assert_non_null(strstr(buf, "o bf16→bf16"));
	assert_non_null(strstr(buf, "# several"));
	for (char *line = buf; *line;) {
		char *end = strchr(line, '\n');
		int cols = 0;
		for (char *p = line; p < end; p++)
			cols += ((unsigned char)*p & 0xc0) != 0x80;
		assert_true(cols <= 80);
		line = end + 1;
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_rows_match_lessons),
		cmocka_unit_test(test_guards),
		cmocka_unit_test(test_hook_rounds_inputs),
		cmocka_unit_test(test_plot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
