/* test_rng: the one random generator — deterministic per seed, and matrices that are never zero, in range, in f32 and f16. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/util.h"

#define N 200000

static void test_deterministic_per_seed(void **st)
{
	(void)st;
	rng a, b, c;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	rng_seed(&c, 43);
	int differ = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a);
		assert_int_equal(x, rng_next(&b));
		differ += x != rng_next(&c);
	}
	assert_true(differ > 990);
	/* Seed 0 is a seed like any other, not a stuck state. */
	rng_seed(&a, 0);
	assert_true(rng_next(&a) != rng_next(&a));
	for (int i = 0; i < 1000; i++) {
		double u = rng_unit(&a);
		assert_true(u >= 0.0 && u < 1.0);
	}
}

/* Fills f32 and f16 matrices; checks every value and that the seed decides them. */
static void test_fill_never_zero_in_range(void **st)
{
	(void)st;
	static float f[N], g[N], as[N];
	static uint16_t h[N];
	rng r;
	rng_seed(&r, 7);
	rng_fill(&r, RNG_F32, f, NULL, N);
	rng_seed(&r, 7);
	rng_fill(&r, RNG_F32, g, as, N);
	assert_memory_equal(f, g, sizeof f);
	assert_memory_equal(f, as, sizeof f);
	int neg = 0;
	double sum = 0;
	for (int i = 0; i < N; i++) {
		assert_true(isfinite(f[i]) && f[i] != 0.0f && f[i] >= -1.0f && f[i] <= 1.0f);
		neg += f[i] < 0;
		sum += f[i];
	}
	/* Uniform on [-1, 1]: both signs, mean near 0 (sd of the mean ~0.0013). */
	assert_true(neg > N / 2 - N / 50 && neg < N / 2 + N / 50);
	assert_true(fabs(sum / N) < 0.01);

	rng_seed(&r, 7);
	rng_fill(&r, RNG_F16, h, as, N);
	for (int i = 0; i < N; i++) {
		float v = util_f16_to_f32(h[i]);
		assert_true(isfinite(v) && v != 0.0f && v >= -1.0f && v <= 1.0f);
		assert_true(as[i] == v); /* what the reference sees is what was stored */
	}
	rng_seed(&r, 8);
	rng_fill(&r, RNG_F32, g, NULL, N);
	assert_memory_not_equal(f, g, sizeof f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic_per_seed),
		cmocka_unit_test(test_fill_never_zero_in_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
