/* test_verify: the one output check (run/verify.c) — each kind of failure named, unwritten elements caught with and without beta through the second launch, the demangler of titles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/demangle.h"
#include "base/rng.h"
#include "run/verify.h"

#define R 6
#define C 5
#define NE (R * C)

static float ref[NE], c0[NE], got[NE], got2[NE];

/* A reference, C0 (finite, never zero) and an output equal to the reference. */
static void setup_arrays(void)
{
	rng g;
	rng_seed(&g, 7);
	rng_fill(&g, RNG_F32, ref, NULL, NE);
	rng_fill(&g, RNG_F32, c0, NULL, NE);
	memcpy(got, ref, sizeof got);
}

static verify_input input(const float *with_c0)
{
	return (verify_input){.rows = R, .cols = C, .got = got, .ref = ref, .c0 = with_c0, .tol = 1e-4};
}

static void test_pass_needs_no_second_launch(void **st)
{
	(void)st;
	setup_arrays();
	verify_report rep;
	verify_input in = input(c0);
	verify_check(&in, &rep);
	assert_int_equal(rep.again, VERIFY_AGAIN_NONE);
	assert_int_equal(rep.kind, VERIFY_PASS);
	in = input(NULL);
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_PASS);
}

/* With beta: an element left alone keeps C0's bits through both launches: always reported. */
static void test_unwritten_with_beta(void **st)
{
	(void)st;
	setup_arrays();
	for (int j = 0; j < C; j++)
		got[1 * C + j] = c0[1 * C + j]; /* row 1 never written */
	verify_report rep;
	verify_input in = input(c0);
	verify_check(&in, &rep);
	assert_int_equal(rep.again, VERIFY_AGAIN_C0);
	/* the second launch: C = C0', the kernel writes the same elements */
	verify_second_c0(c0, got2, NE, DTYPE_F32);
	for (int i = 0; i < NE; i++) {
		assert_true(got2[i] != c0[i] && got2[i] != 0 && isfinite(got2[i]));
		if (i / C != 1)
			got2[i] = ref[i];
	}
	in.got2 = got2;
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_UNWRITTEN);
	assert_int_equal(rep.unwritten, C);
	assert_non_null(strstr(rep.msg, "5 of 30 elements of C were never written (the first at row 1, col 0)"));
}

/* An element whose right value happens to equal C0 is written in the second launch: not reported. */
static void test_written_candidate_is_cleared(void **st)
{
	(void)st;
	setup_arrays();
	c0[7] = ref[7]; /* beta = 1, alpha*A*B = 0 there, say */
	verify_report rep;
	verify_input in = input(c0);
	verify_check(&in, &rep);
	assert_int_equal(rep.again, VERIFY_AGAIN_C0);
	memcpy(got2, ref, sizeof got2);
	got2[7] = ref[7] + ldexpf(c0[7], -40); /* the kernel's value with C0' */
	in.got2 = got2;
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_PASS);
}

/* Without beta: NaN outputs; with C zeroed, a reading kernel is right (suggest beta:) and an unwritten element is 0. */
static void test_nan_without_beta(void **st)
{
	(void)st;
	setup_arrays();
	for (int i = 0; i < NE; i++)
		got[i] = NAN;
	verify_report rep;
	verify_input in = input(NULL);
	verify_check(&in, &rep);
	assert_int_equal(rep.again, VERIFY_AGAIN_ZERO);
	memcpy(got2, ref, sizeof got2);
	in.got2 = got2;
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_NONFINITE);
	assert_true(rep.reads_c);
	assert_non_null(strstr(rep.msg, "add beta:VALUE to --args"));
	got2[3] = 0.0f; /* element 3 never written */
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_UNWRITTEN);
	assert_int_equal(rep.unwritten, 1);
	assert_non_null(strstr(rep.msg, "(the first at row 0, col 3)"));
	assert_non_null(strstr(rep.msg, "NaN poison"));
	got2[3] = NAN; /* it computes NaN whatever C holds */
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_NONFINITE);
	assert_false(rep.reads_c);
	assert_non_null(strstr(rep.msg, "still wrong"));
}

static void test_nonfinite_with_beta_and_wrong_values(void **st)
{
	(void)st;
	setup_arrays();
	got[4] = INFINITY;
	verify_report rep;
	verify_input in = input(c0);
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_NONFINITE);
	assert_non_null(strstr(rep.msg, "C started finite"));
	got[4] = ref[4];
	got[2 * C + 3] = ref[2 * C + 3] + 0.5f;
	verify_check(&in, &rep);
	assert_int_equal(rep.kind, VERIFY_WRONG);
	assert_int_equal(rep.worst, 2 * C + 3);
	char want[128];
	snprintf(want, sizeof want, "the worst at row 2, col 3: expected %.6g, got %.6g", ref[2 * C + 3],
		 ref[2 * C + 3] + 0.5f);
	assert_non_null(strstr(rep.msg, want));
}

/* The CPU reference with B stored N x K is the same product as with B K x N. */
static void test_reference_b_kmajor(void **st)
{
	(void)st;
	enum { M = 3, N = 2, K = 4 };
	/* worked by hand: A = [[1,2,3,4],[0,1,0,1],[2,0,0,-1]], B (K x N) = [[1,0],[0,1],[1,1],[2,-1]] */
	const float a[M * K] = {1, 2, 3, 4, 0, 1, 0, 1, 2, 0, 0, -1};
	const float b_kn[K * N] = {1, 0, 0, 1, 1, 1, 2, -1};
	const float b_nk[N * K] = {1, 0, 1, 2, 0, 1, 1, -1}; /* the same B, each column a row */
	const float want[M * N] = {12, 1, 2, 0, 0, 1};
	float *r1 = verify_reference(M, N, K, a, 0, b_kn, 0, NULL, 1.0f, 0.0f);
	float *r2 = verify_reference(M, N, K, a, 0, b_nk, 1, NULL, 1.0f, 0.0f);
	for (int i = 0; i < M * N; i++) {
		assert_true(r1[i] == want[i]);
		assert_true(r2[i] == want[i]);
	}
	free(r1);
	free(r2);
	/* alpha and beta: 2*A*B - C0 */
	const float c0[M * N] = {1, 1, 1, 1, 1, 1};
	float *r3 = verify_reference(M, N, K, a, 0, b_nk, 1, c0, 2.0f, -1.0f);
	assert_true(r3[0] == 23 && r3[1] == 1 && r3[3] == -1);
	free(r3);
}

static void test_demangle(void **st)
{
	(void)st;
	static const struct {
		const char *in, *out;
		int ok;
	} cases[] = {
		{"_Z15sgemmWarptilingILi64ELi64ELi8ELi32ELi32ELi4ELi8EEviiifPKfS1_fPf",
		 "sgemmWarptiling<64, 64, 8, 32, 32, 4, 8>", 1},
		{"_Z11sgemm_naiveiiifPKfS0_fPf", "sgemm_naive", 1},
		{"_ZN2ns4gemmIfLb1ELin3ELj7EEEvPf", "ns::gemm<float, true, -3, 7u>", 1},
		{"_Z4tileIPK6__halfEvv", "tile<__half const*>", 1},
		{"gemm_naive", "gemm_naive", 0},
		{"_Z3fooIS_Evv", "_Z3fooIS_Evv", 0},   /* substitutions are not read: copied */
		{"_Z99short", "_Z99short", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char out[128];
		assert_int_equal(demangle(cases[i].in, out, sizeof out), cases[i].ok);
		assert_string_equal(out, cases[i].out);
	}
	char small[8];
	assert_int_equal(demangle("_Z15sgemmWarptilingILi64EEvv", small, sizeof small), 0); /* does not fit: copied, cut */
	assert_int_equal(strlen(small), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass_needs_no_second_launch),
		cmocka_unit_test(test_reference_b_kmajor),
		cmocka_unit_test(test_unwritten_with_beta),
		cmocka_unit_test(test_written_candidate_is_cleared),
		cmocka_unit_test(test_nan_without_beta),
		cmocka_unit_test(test_nonfinite_with_beta_and_wrong_values),
		cmocka_unit_test(test_demangle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
