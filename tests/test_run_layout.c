/* test_run_layout: issue 39's layouts and types — --layout/--ld parsed (and refused in one line), matrices laid out row- or column-major with padded leading dimensions and read back with their padding checked, the CPU reference of a column-major A and B, u8 and s8->f32, and the diagnosis of a wrong result (run/diagnose.c): each candidate found in an output made by it, none in a right one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "course/argspec.h"
#include "course/dtype.h"
#include "run/diagnose.h"
#include "run/layout.h"
#include "run/verify.h"

static expr_env env_of(long long M, long long N, long long K)
{
	expr_env e = {0};
	expr_set(&e, "M", M);
	expr_set(&e, "N", N);
	expr_set(&e, "K", K);
	return e;
}

static void test_parse(void **st)
{
	(void)st;
	argspec_layout l;
	char err[200];
	expr_env e = env_of(6, 5, 4);
	assert_int_equal(argspec_layout_parse("A=col,C=col", "A=M+2, C=M+1", &e, &l, err, sizeof err), 0);
	assert_int_equal(l.col[0], 1);
	assert_int_equal(l.col[1], 0);
	assert_int_equal(l.col[2], 1);
	assert_true(l.ld[0] == 8 && l.ld[1] == 0 && l.ld[2] == 7);
	assert_int_equal(argspec_layout_parse("col", NULL, &e, &l, err, sizeof err), 0);
	assert_true(l.col[0] && l.col[1] && l.col[2]);
	assert_int_equal(argspec_layout_parse(NULL, "B=max(N,8)", &e, &l, err, sizeof err), 0);
	assert_true(l.ld[1] == 8);
	char buf[80];
	argspec_layout_format(&l, buf, sizeof buf);
	assert_string_equal(buf, "A=row,B=row(ld 8),C=row");
	assert_int_equal(argspec_layout_default(&(argspec_layout){0}), 1);
	/* refused, each with why */
	assert_int_equal(argspec_layout_parse("A=diag", NULL, &e, &l, err, sizeof err), -1);
	assert_non_null(strstr(err, "A is row or col, not 'diag'"));
	assert_int_equal(argspec_layout_parse("A=col", "A=M-1", &e, &l, err, sizeof err), -1);
	assert_non_null(strstr(err, "less than the tight one (6: the rows of a column-major A)"));
	assert_int_equal(argspec_layout_parse(NULL, "D=4", &e, &l, err, sizeof err), -1);
	/* a syntax check without sizes leaves expressions over M N K for later */
	assert_int_equal(argspec_layout_parse("B=col", "A=K+4", NULL, &l, err, sizeof err), 0);
	assert_true(l.ld[0] == 0);
	/* ld:A in an args spec: a u32 the run fills in */
	argspec a;
	assert_int_equal(argspec_parse("M N K A ld:A B ld:B C ld:C", NULL, &a, err, sizeof err), 0);
	assert_int_equal(a.item[4].kind, ARG_LD);
	assert_int_equal(a.item[4].name, 'A');
	assert_int_equal(a.item[4].bytes, 4);
	argspec_format_item(&a.item[8], buf, sizeof buf);
	assert_string_equal(buf, "ld:C");
	assert_int_equal(argspec_parse("ld:D", NULL, &a, err, sizeof err), -1);
}

/* A 3 x 2 matrix stored column-major with ld 4: spread, read back, padding poisoned and watched. */
static void test_store(void **st)
{
	(void)st;
	run_request rq = {.M = 3, .N = 2, .K = 5};
	rq.layout.col[2] = 1, rq.layout.ld[2] = 4;
	run_store sc = run_store_of(&rq, 'C');
	assert_true(sc.col && sc.outer == 2 && sc.inner == 3 && sc.ld == 4 && sc.elems == 8);
	float logical[6] = {1, 2, 3, 4, 5, 6}, back[6], buf[8];
	run_store_poison(&sc, DTYPE_F32, buf);
	run_store_put(&sc, DTYPE_F32, logical, buf);
	/* (r, c) at c*4 + r: column 0 is 1 3 5, column 1 is 2 4 6 */
	assert_true(buf[0] == 1 && buf[1] == 3 && buf[2] == 5 && isnan(buf[3]) && buf[4] == 2 && buf[6] == 6);
	assert_int_equal(run_store_get(&sc, DTYPE_F32, buf, back), 0);
	assert_memory_equal(back, logical, sizeof back);
	buf[7] = 0; /* a kernel wrote into the padding */
	assert_int_equal(run_store_get(&sc, DTYPE_F32, buf, back), 1);
	/* spread: a tight row-major A (3 x 5) to ld 7, in place, s8's poison in the padding */
	rq.layout.ld[0] = 7;
	run_store sa = run_store_of(&rq, 'A');
	int8_t a[21];
	for (int i = 0; i < 15; i++)
		a[i] = (int8_t)(i + 1);
	run_store_spread(&sa, DTYPE_S8, a);
	assert_true(a[0] == 1 && a[4] == 5 && a[5] == -128 && a[6] == -128 && a[7] == 6 && a[11] == 10 && a[14] == 11 && a[20] == -128);
	/* B column-major with b_kmajor as with --layout B=col */
	run_request kq = {.M = 3, .N = 2, .K = 5, .b_kmajor = 1};
	assert_true(run_store_of(&kq, 'B').col && run_store_of(&kq, 'B').ld == 5);
	assert_int_equal(run_layout_plain(&kq), 1);
	assert_int_equal(run_layout_plain(&rq), 0);
	assert_int_equal(run_layout_tight(&kq), 1);
	assert_int_equal(run_layout_tight(&rq), 0);
}

/* The reference of a column-major A and B is the row-major one's. */
static void test_reference_majors(void **st)
{
	(void)st;
	enum { M = 5, N = 4, K = 3 };
	float a[M * K], b[K * N], at[M * K], bt[K * N];
	rng g;
	rng_seed(&g, 3);
	rng_fill(&g, RNG_F32, a, NULL, M * K);
	rng_fill(&g, RNG_F32, b, NULL, K * N);
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			at[k * M + i] = a[i * K + k];
	for (int k = 0; k < K; k++)
		for (int j = 0; j < N; j++)
			bt[j * K + k] = b[k * N + j];
	float *r = verify_reference(M, N, K, a, 0, b, 0, NULL, 1, 0);
	float *rc = verify_reference(M, N, K, at, 1, bt, 1, NULL, 1, 0);
	assert_memory_equal(r, rc, sizeof(float) * M * N);
	free(r);
	free(rc);
}

static void test_types(void **st)
{
	(void)st;
	char err[200];
	assert_int_equal(dtype_pair_check(DTYPE_U8, DTYPE_S32, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_U8, DTYPE_F32, err, sizeof err), 0);
	assert_int_equal(dtype_of(DTYPE_U8)->ref, DTYPE_REF_HOST);
	dtype d;
	assert_int_equal(dtype_parse("u8", &d), 0);
	assert_int_equal(d, DTYPE_U8);
	uint8_t in[4096];
	float real[4096], scale;
	rng g;
	rng_seed(&g, 9);
	dtype_fill(&g, DTYPE_U8, in, real, 4096, &scale);
	int lo = 255, hi = 0;
	for (int i = 0; i < 4096; i++) {
		assert_true(real[i] == (float)in[i]);
		lo = in[i] < lo ? in[i] : lo, hi = in[i] > hi ? in[i] : hi;
	}
	assert_true(lo == 1 && hi == 254); /* never 0, never the poison 255 */
	assert_true(isnan(dtype_round(DTYPE_U8, NAN)));
	assert_true(run_tolerance(DTYPE_U8, DTYPE_S32) == 0 && run_tolerance(DTYPE_U8, DTYPE_F32) == 1e-5);
}

/* An output made under each rounding candidate is named by it; the exact one by none. */
static void test_diagnose(void **st)
{
	(void)st;
	enum { M = 16, N = 16, K = 512 };
	static float a[M * K], b[K * N], got[M * N];
	rng g;
	rng_seed(&g, 11);
	rng_fill(&g, RNG_F32, a, NULL, M * K);
	rng_fill(&g, RNG_F32, b, NULL, K * N);
	static const struct {
		dtype inputs, acc;
		const char *want;
	} cases[] = {
		{DTYPE_BF16, DTYPE_NONE, "inputs rounded to bf16"},
		{DTYPE_TF32, DTYPE_NONE, "inputs rounded to tf32"},
		{DTYPE_NONE, DTYPE_F16, "an f16 accumulator"},
		{DTYPE_NONE, DTYPE_NONE, NULL},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				float acc = 0;
				for (int k = 0; k < K; k++) {
					float x = a[i * K + k], y = b[k * N + j];
					if (cases[c].inputs != DTYPE_NONE)
						x = dtype_round(cases[c].inputs, x), y = dtype_round(cases[c].inputs, y);
					acc = fmaf(x, y, acc);
					if (cases[c].acc != DTYPE_NONE)
						acc = dtype_round(cases[c].acc, acc);
				}
				got[i * N + j] = acc;
			}
		diagnose_input in = {.M = M, .N = N, .K = K, .a = a, .b = b, .out = DTYPE_F32, .got = got, .alpha = 1,
				     .tol = 1e-4, .tight = 1};
		char phrase[128];
		int found = diagnose_precision(&in, phrase, sizeof phrase, NULL);
		if (!cases[c].want) {
			assert_int_equal(found, 0);
			continue;
		}
		assert_int_equal(found, 1);
		assert_string_equal(phrase, cases[c].want);
	}
	/* A read in the other major: a column-major A's buffer indexed row-major (M = K: no fault) */
	enum { S = 12 };
	static float sa[S * S], sb[S * S], sg[S * S];
	rng_fill(&g, RNG_F32, sa, NULL, S * S);
	rng_fill(&g, RNG_F32, sb, NULL, S * S);
	float *r = verify_reference(S, S, S, sa, 0, sb, 0, NULL, 1, 0); /* what a row-major read of it computes */
	memcpy(sg, r, sizeof sg);
	free(r);
	diagnose_input in = {.M = S, .N = S, .K = S, .a = sa, .a_col = 1, .b = sb, .out = DTYPE_F32, .got = sg,
			     .alpha = 1, .tol = 1e-4, .tight = 1};
	char phrase[128];
	assert_int_equal(diagnose_precision(&in, phrase, sizeof phrase, NULL), 1);
	assert_string_equal(phrase, "A read row-major (run it with --layout A=row,B=row,C=row)");
	in.tight = 0; /* padded lines: no layout candidate */
	assert_int_equal(diagnose_precision(&in, phrase, sizeof phrase, NULL), 0);
	for (int i = 0; diagnose_candidate(i); i++)
		assert_true(strlen(diagnose_candidate(i)) > 0);
}

/* BLAS's column-major GEMM, C(m x n) = op(X)·op(Y), as cuBLAS computes it. */
static void blas_gemm(const run_blas_call *c, const float *x, const float *y, float *out)
{
	for (long long i = 0; i < c->m; i++)
		for (long long j = 0; j < c->n; j++) {
			double sum = 0;
			for (long long l = 0; l < c->k; l++) {
				float xv = c->trans_first ? x[l + i * c->ld_first] : x[i + l * c->ld_first];
				float yv = c->trans_second ? y[j + l * c->ld_second] : y[l + j * c->ld_second];
				sum += (double)xv * yv;
			}
			out[i + j * c->ldc] = (float)sum;
		}
}

/* The GPU check's cuBLAS call (run_blas_call_of), run here on buffers laid
 * out as the run lays them, gives the reference in every layout, tight or padded. */
static void test_blas_call_every_layout(void **st)
{
	(void)st;
	enum { M = 7, N = 5, K = 3 };
	float a[M * K], b[K * N];
	rng g;
	rng_seed(&g, 5);
	rng_fill(&g, RNG_F32, a, NULL, M * K);
	rng_fill(&g, RNG_F32, b, NULL, K * N);
	float *want = verify_reference(M, N, K, a, 0, b, 0, NULL, 1, 0);
	for (int mask = 0; mask < 16; mask++) {
		run_request rq = {.M = M, .N = N, .K = K};
		for (int i = 0; i < 3; i++)
			rq.layout.col[i] = (unsigned char)(mask >> i & 1);
		if (mask & 8) /* padded, each by another amount */
			rq.layout.ld[0] = (rq.layout.col[0] ? M : K) + 2, rq.layout.ld[1] = (rq.layout.col[1] ? K : N) + 3,
			rq.layout.ld[2] = (rq.layout.col[2] ? M : N) + 1;
		run_store sa = run_store_of(&rq, 'A'), sb = run_store_of(&rq, 'B'), sc = run_store_of(&rq, 'C');
		float *ba = calloc(sa.elems, sizeof(float)), *bb = calloc(sb.elems, sizeof(float));
		float *bc = calloc(sc.elems, sizeof(float)), got[M * N];
		run_store_put(&sa, DTYPE_F32, a, ba);
		run_store_put(&sb, DTYPE_F32, b, bb);
		run_store_poison(&sc, DTYPE_F32, bc);
		run_blas_call c = run_blas_call_of(&rq);
		blas_gemm(&c, c.first == 'A' ? ba : bb, c.second == 'A' ? ba : bb, bc);
		assert_int_equal(run_store_get(&sc, DTYPE_F32, bc, got), 0); /* the padding untouched */
		for (int i = 0; i < M * N; i++)
			assert_true(fabsf(got[i] - want[i]) <= 1e-6f * (1 + fabsf(want[i])));
		free(ba);
		free(bb);
		free(bc);
	}
	/* the default is cuBLAS's row-major trick: Cᵀ = Bᵀ·Aᵀ, nothing transposed */
	run_blas_call c = run_blas_call_of(&(run_request){.M = M, .N = N, .K = K});
	assert_true(c.first == 'B' && !c.trans_first && !c.trans_second && c.m == N && c.n == M && c.ld_first == N &&
		    c.ld_second == K && c.ldc == N);
	free(want);
}

/* Right values with the padding written: wrong, and said so. */
static void test_padding_written(void **st)
{
	(void)st;
	float ref[4] = {1, 2, 3, 4};
	verify_input in = {.rows = 2, .cols = 2, .got = ref, .ref = ref, .tol = 1e-4, .pad_written = 2};
	verify_report rep;
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_WRONG);
	assert_non_null(strstr(rep.msg, "wrote 2 elements of C's padding"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_reference_majors),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_diagnose),
		cmocka_unit_test(test_padding_written),
		cmocka_unit_test(test_blas_call_every_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
