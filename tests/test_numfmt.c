/* test_numfmt: the one number formatter — the cases where the model's prose and the panes used to disagree, and its rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base/numfmt.h"

static char buf[64];

/* SI prefixes: lower-case k for 10^3 (model_format wrote "1.50 KB", the
 * roofline "1.5 k"); three significant digits (model_format wrote
 * "17.18 GFLOP", the panes "17.2 G"). */
static void test_si_prefixes(void **state)
{
	(void)state;
	assert_string_equal(numfmt_si(buf, sizeof buf, 1500, "B"), "1.5 kB");
	assert_string_equal(numfmt_si(buf, sizeof buf, 17179869184.0, "FLOP"), "17.2 GFLOP");
	assert_string_equal(numfmt_si(buf, sizeof buf, 137438953472.0, "FLOP"), "137 GFLOP");
	assert_string_equal(numfmt_si(buf, sizeof buf, 19.5e12, "FLOP/s"), "19.5 TFLOP/s");
	assert_string_equal(numfmt_si(buf, sizeof buf, 19.5e12, ""), "19.5 T");
	assert_string_equal(numfmt_si(buf, sizeof buf, 512, "B"), "512 B");
	/* No prefix and no unit: no trailing space (model_format wrote "512 "). */
	assert_string_equal(numfmt_si(buf, sizeof buf, 512, ""), "512");
	/* 999.7 k would round to "1000 k". */
	assert_string_equal(numfmt_si(buf, sizeof buf, 999700, "B"), "1 MB");
	assert_string_equal(numfmt_si(buf, sizeof buf, 999400, "B"), "999 kB");
	assert_string_equal(numfmt_si(buf, sizeof buf, 2.5e15, "FLOP"), "2.5 PFLOP");
	assert_null(strchr(numfmt_si(buf, sizeof buf, 3e3, "B"), 'K'));
}

/* The fraction search: the model tried every denominator up to 1024, the
 * numbers pane only powers of two up to 128 ("3K/256" and "K/3" were
 * missing from the pane). */
static void test_k_fractions(void **state)
{
	(void)state;
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 256, 4096), "K/16");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 8192, 4096), "2K");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 4096, 4096), "K");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 4608, 4096), "9K/8");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 48, 4096), "3K/256");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 4096 / 3.0, 4096), "K/3");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 1, 1024), "K/1024");
	/* Lowest terms: 2K/32 is K/16. */
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 128, 2048), "K/16");
	/* None: not a small fraction, zero, negative, no K. */
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 5, 4096), "");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 1, 4096), "");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 0, 4096), "");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, -256, 4096), "");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, 256, 0), "");
	assert_string_equal(numfmt_kfrac(buf, sizeof buf, NAN, 4096), "");
}

/* Significant digits: the model wrote "%.2f" ("12.54", "2.00", "1024.00"),
 * the panes three significant digits ("12.5"). */
static void test_significant_digits(void **state)
{
	(void)state;
	assert_string_equal(numfmt_sig(buf, sizeof buf, 12.5433), "12.5");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 0.25), "0.25");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 2.0), "2");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 3.994), "3.99");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 137.44), "137");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 1024.0), "1024");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 4608.3), "4608");
	assert_string_equal(numfmt_sig(buf, sizeof buf, -0.125), "-0.125");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 0), "0");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 0.00123), "0.00123");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 1.5e-5), "1.5e-05");
	assert_string_equal(numfmt_sig(buf, sizeof buf, 2.5e7), "2.5e+07");
	assert_string_equal(numfmt_sig(buf, sizeof buf, NAN), "n/a");
	assert_string_equal(numfmt_sig(buf, sizeof buf, INFINITY), "n/a");
	/* With a unit: the model wrote "%.4f ms" below 0.1 ms and "%.2f FLOP/B". */
	assert_string_equal(numfmt_unit(buf, sizeof buf, 0.0123, "ms"), "0.0123 ms");
	assert_string_equal(numfmt_unit(buf, sizeof buf, 1.2345, "ms"), "1.23 ms");
	assert_string_equal(numfmt_unit(buf, sizeof buf, 31.51, "FLOP/B"), "31.5 FLOP/B");
	assert_string_equal(numfmt_unit(buf, sizeof buf, 1555, "GB/s"), "1555 GB/s");
}

/* Counts: whole numbers in full (the panes wrote "1e+07" from a million
 * up), others as values (the model wrote "1.50"). */
static void test_counts(void **state)
{
	(void)state;
	assert_string_equal(numfmt_count(buf, sizeof buf, 8192), "8192");
	assert_string_equal(numfmt_count(buf, sizeof buf, 4607.9999999999), "4608");
	assert_string_equal(numfmt_count(buf, sizeof buf, 1e7), "10000000");
	assert_string_equal(numfmt_count(buf, sizeof buf, 1.5), "1.5");
	assert_string_equal(numfmt_count(buf, sizeof buf, 3.156), "3.16");
	assert_string_equal(numfmt_count(buf, sizeof buf, 0.5), "0.5");
	assert_string_equal(numfmt_count(buf, sizeof buf, 0), "0");
}

/* Percentages: the model wrote "50.0%", the occupancy line "67%" for 2/3. */
static void test_percentages(void **state)
{
	(void)state;
	assert_string_equal(numfmt_pct(buf, sizeof buf, 0.5), "50%");
	assert_string_equal(numfmt_pct(buf, sizeof buf, 1), "100%");
	assert_string_equal(numfmt_pct(buf, sizeof buf, 2.0 / 3), "66.7%");
	assert_string_equal(numfmt_pct(buf, sizeof buf, 0.05), "5%");
	assert_string_equal(numfmt_pct(buf, sizeof buf, 0.1875), "18.8%");
}

static void test_ratios_and_sizes(void **state)
{
	(void)state;
	assert_string_equal(numfmt_ratio(buf, sizeof buf, 33, 2), "16.5");
	assert_string_equal(numfmt_ratio(buf, sizeof buf, 12, 10), "1.2");
	assert_string_equal(numfmt_ratio(buf, sizeof buf, 5, 0), "0");
	assert_string_equal(numfmt_size(buf, sizeof buf, 4096, 4096, 4096, 0), "4096\u00B3");
	assert_string_equal(numfmt_size(buf, sizeof buf, 128, 128, 128, 1), "128^3");
	assert_string_equal(numfmt_size(buf, sizeof buf, 128, 256, 512, 0), "128x256x512");
}

/* A short buffer gets a cut, terminated string. */
static void test_cut_to_fit(void **state)
{
	(void)state;
	char small[5];
	memset(small, 'x', sizeof small);
	assert_ptr_equal(numfmt_si(small, sizeof small, 17179869184.0, "FLOP"), small);
	assert_string_equal(small, "17.2");
	assert_string_equal(numfmt_kfrac(small, sizeof small, 48, 4096), "3K/2");
	assert_string_equal(numfmt_count(small, sizeof small, 123456), "1234");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_si_prefixes),
		cmocka_unit_test(test_k_fractions),
		cmocka_unit_test(test_significant_digits),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_percentages),
		cmocka_unit_test(test_ratios_and_sizes),
		cmocka_unit_test(test_cut_to_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
