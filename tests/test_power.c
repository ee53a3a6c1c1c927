/* test_power: the clock model (model/power.c) on a fixture of round numbers: each kind's energy from its
 * row, the clock a capped kernel holds, one under the cap at the highest clock, memory-bound work, and
 * the rows it cannot do without. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/measured.h"
#include "model/power.h"

#define ROW "H100\td\t2026-11-28\tc\t0\t0\t"
/* idle 100 W; wgmma: 600 W above idle at 6e14 FLOP/s = 1e-12 J a FLOP; FFMA: 200 W at 1e12 warp
 * instructions/s = 2e-10 J each; L2: 100 W at 5000 GB/s = 2e-11 J a byte. */
static const char rows[] = "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n" ROW
			   "power_limit_w\t700\tW\n" ROW "power_max_mhz\t2000\tcount\n" ROW "power_idle_w\t100\tW\n" ROW
			   "power_wgmma_data_w\t700\tW\n" ROW "power_wgmma_data_rate\t6e14\tFLOP/s\n" ROW
			   "power_ffma_w\t300\tW\n" ROW "power_ffma_rate\t1e12\twarp-inst/s\n" ROW "power_l2_w\t200\tW\n" ROW
			   "power_l2_rate\t5000\tGB/s\n";

static power_params load(const char *text)
{
	char err[256];
	assert_true(measured_parse("power.tsv", text, err, sizeof err) > 0);
	power_params p;
	assert_int_equal(power_params_load(&p, err, sizeof err), 0);
	return p;
}

static void test_energy_per_unit(void **state)
{
	(void)state;
	power_params p = load(rows);
	assert_int_equal(p.nkinds, 3);
	assert_float_equal(p.joules[PWR_WGMMA], 1e-12, 1e-24);
	assert_float_equal(p.joules[PWR_FFMA], 2e-10, 1e-22);
	assert_float_equal(p.joules[PWR_L2], 2e-11, 1e-23); /* GB/s: per byte */
	assert_float_equal(p.joules[PWR_MMA], 0, 0);
	assert_string_equal(p.missing, "lsu, mma_data, wgmma_f8, dram");
}

/* 4e5 FLOPs a cycle for 1e6 cycles: at 2 GHz 900 W; the cap holds it at (700 - 100) / 1e-12 J / 4e5 =
 * 1.5 GHz, 0.667 ms. Half the FLOPs a cycle: 500 W at 2 GHz, under the cap. */
static void test_capped_clock(void **state)
{
	(void)state;
	power_params p = load(rows);
	power_input in = {.sm_cycles = 1e6};
	in.work[PWR_WGMMA] = 4e11;
	power_result r;
	assert_int_equal(power_clock(&p, &in, &r), 0);
	assert_true(r.capped);
	assert_float_equal(r.mhz, 1500, 1e-6);
	assert_float_equal(r.watts, 700, 1e-6);
	assert_float_equal(r.seconds, 1e6 / 1.5e9, 1e-12);
	in.work[PWR_WGMMA] = 2e11;
	assert_int_equal(power_clock(&p, &in, &r), 0);
	assert_false(r.capped);
	assert_float_equal(r.mhz, 2000, 1e-9);
	assert_float_equal(r.watts, 500, 1e-9);
	/* the kinds add: 1e9 warp instructions more cost 0.2 J, 900 W at 2 GHz -> 1.5 GHz again */
	in.work[PWR_FFMA] = 1e9;
	assert_int_equal(power_clock(&p, &in, &r), 0);
	assert_true(r.capped);
	assert_float_equal(r.mhz, 1500, 1e-6);
}

/* The voltage follows the clock: wgmma at full rate, 4e5 FLOPs a cycle, held at 1500 MHz by the cap;
 * at 3e5 a cycle, at 1800 MHz (not 2000, as a constant energy would give): 600 W above idle where
 * 1500 MHz's energy gives 540, so gamma = ln(600 / 540) / ln(1.2). A kernel at 3e5 FLOPs a cycle is
 * given 1800 MHz back. */
static void test_voltage_follows_the_clock(void **state)
{
	(void)state;
	static const char intensity[] = ROW "power_wgmma_data_mhz\t1500\tcount\n" ROW "power_wgmma_75_w\t700\tW\n" ROW
					"power_wgmma_75_mhz\t1800\tcount\n" ROW "power_wgmma_75_rate\t5.4e14\tFLOP/s\n";
	static char text[sizeof rows + sizeof intensity];
	snprintf(text, sizeof text, "%s%s", rows, intensity);
	power_params p = load(text);
	assert_float_equal(p.gamma, log(600.0 / 540) / log(1.2), 1e-12);
	power_input in = {.sm_cycles = 1e6};
	in.work[PWR_WGMMA] = 3e11;
	power_result r;
	assert_int_equal(power_clock(&p, &in, &r), 0);
	assert_true(r.capped);
	assert_float_equal(r.mhz, 1800, 1e-6);
	/* and at its own rate, its own clock */
	in.work[PWR_WGMMA] = 4e11;
	assert_int_equal(power_clock(&p, &in, &r), 0);
	assert_float_equal(r.mhz, 1500, 1e-6);
	/* under the cap too: 3e14 FLOP/s at 2000 MHz drawing 500 W, 400 W above idle where 1500 MHz's energy
	 * gives 300: (4/3)^gamma = 4/3, gamma 1 */
	static const char under[] = ROW "power_wgmma_data_mhz\t1500\tcount\n" ROW "power_wgmma_50_w\t500\tW\n" ROW
				    "power_wgmma_50_mhz\t2000\tcount\n" ROW "power_wgmma_50_rate\t3e14\tFLOP/s\n";
	snprintf(text, sizeof text, "%s%s", rows, under);
	p = load(text);
	assert_float_equal(p.gamma, 1, 1e-12);
	/* a row whose operations cost less at a higher clock: no gamma below 0 */
	static const char saturated[] = ROW "power_wgmma_data_mhz\t1500\tcount\n" ROW "power_wgmma_75_w\t650\tW\n" ROW
					"power_wgmma_75_mhz\t2000\tcount\n" ROW "power_wgmma_75_rate\t6e14\tFLOP/s\n";
	snprintf(text, sizeof text, "%s%s", rows, saturated);
	p = load(text);
	assert_float_equal(p.gamma, 0, 0);
}

/* Memory sets the time (1 ms, longer than the SMs' 0.5 ms at 2 GHz): the same FLOPs over twice the
 * time draw half the power, under the cap. */
static void test_memory_bound(void **state)
{
	(void)state;
	power_params p = load(rows);
	power_input in = {.sm_cycles = 1e6, .fixed_s = 1e-3};
	in.work[PWR_WGMMA] = 4e11;
	power_result r;
	assert_int_equal(power_clock(&p, &in, &r), 0);
	assert_false(r.capped);
	assert_float_equal(r.mhz, 2000, 1e-9);
	assert_float_equal(r.seconds, 1e-3, 1e-15);
	assert_float_equal(r.watts, 100 + 0.4 / 1e-3, 1e-9);
}

static void test_missing_rows(void **state)
{
	(void)state;
	char err[256];
	power_params p;
	static const char no_limit[] = "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n" ROW
				       "power_max_mhz\t2000\tcount\n";
	assert_true(measured_parse("power.tsv", no_limit, err, sizeof err) > 0);
	assert_int_equal(power_params_load(&p, err, sizeof err), -1);
	assert_non_null(strstr(err, "has no power_limit_w row"));
	/* no cycles: no clock */
	p = load(rows);
	power_input in = {0};
	power_result r;
	assert_int_equal(power_clock(&p, &in, &r), -1);
	/* no idle row: each kind carries the whole board's power (wgmma: 700 W / 6e14 FLOP/s) */
	static const char no_idle[] = "gpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n" ROW
				      "power_limit_w\t700\tW\n" ROW "power_max_mhz\t2000\tcount\n" ROW
				      "power_wgmma_data_w\t700\tW\n" ROW "power_wgmma_data_rate\t6e14\tFLOP/s\n";
	p = load(no_idle);
	assert_float_equal(p.idle_w, 0, 0);
	assert_float_equal(p.joules[PWR_WGMMA], 700 / 6e14, 1e-24);
	measured_parse("none.tsv", "", err, sizeof err); /* leave no fixture behind */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_energy_per_unit),
		cmocka_unit_test(test_capped_clock),
		cmocka_unit_test(test_memory_bound),
		cmocka_unit_test(test_voltage_follows_the_clock),
		cmocka_unit_test(test_missing_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
