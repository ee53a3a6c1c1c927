/* test_occupancy: occ_compute against the blog's RTX A6000 example and hand-worked H100 and T4 cases. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "model/occupancy.h"

/* Figures as in assets/gpus.tsv (tests do not read files). */
static const gpu_spec a6000 = {
	.key = "a6000", .cc_major = 8, .cc_minor = 6, .sms = 84, .smem_per_sm = 102400, .smem_per_block = 49152,
	.smem_optin = 101376, .smem_reserved = 1024, .regs_per_sm = 65536, .regs_per_block = 65536,
	.max_threads_per_sm = 1536, .max_threads_per_block = 1024, .max_warps_per_sm = 48, .max_blocks_per_sm = 16,
	.warp_alloc_regs = 256,
};
static const gpu_spec h100 = {
	.key = "h100", .cc_major = 9, .cc_minor = 0, .sms = 132, .smem_per_sm = 233472, .smem_per_block = 49152,
	.smem_optin = 232448, .smem_reserved = 1024, .regs_per_sm = 65536, .regs_per_block = 65536,
	.max_threads_per_sm = 2048, .max_threads_per_block = 1024, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
	.warp_alloc_regs = 256,
};
static const gpu_spec t4 = {
	.key = "t4", .cc_major = 7, .cc_minor = 5, .sms = 40, .smem_per_sm = 65536, .smem_per_block = 49152,
	.smem_optin = 65536, .smem_reserved = 0, .regs_per_sm = 65536, .regs_per_block = 65536,
	.max_threads_per_sm = 1024, .max_threads_per_block = 1024, .max_warps_per_sm = 32, .max_blocks_per_sm = 16,
	.warp_alloc_regs = 256,
};

static int has_step(const occ_result *r, const char *needle)
{
	for (int i = 0; i < r->nsteps; i++)
		if (strstr(r->steps[i], needle))
			return 1;
	return 0;
}

/* The blog's example: 1024 threads, 37 registers, 8192 B static shared memory.
 * warps 32/block -> 48/32 = 1; registers 37*32 = 1184 -> 1280 per warp,
 * 16384/1280 = 12 per scheduler -> 48 warps -> 1; shared 8192 + 1024 = 9216 ->
 * 102400/9216 = 11; blocks 16. Result 1 block, 32 of 48 warps = 66.7 %. */
static void a6000_blog_example(void **state)
{
	(void)state;
	occ_result r;
	occ_input in = {.threads = 1024, .regs = 37, .smem_static = 8192};
	assert_int_equal(occ_compute(&a6000, &in, &r), 0);
	assert_int_equal(r.warps_per_block, 32);
	assert_int_equal(r.limit_warps, 1);
	assert_int_equal(r.regs_per_warp, 1280);
	assert_int_equal(r.limit_regs, 1);
	assert_int_equal(r.smem_per_block, 9216);
	assert_int_equal(r.limit_smem, 11);
	assert_int_equal(r.limit_blocks, 16);
	assert_int_equal(r.blocks_per_sm, 1);
	assert_int_equal(r.active_warps, 32);
	assert_int_equal(r.max_warps, 48);
	assert_float_equal(r.occupancy, 32.0 / 48.0, 1e-9);
	assert_string_equal(r.limiter, "warps");
	assert_true(has_step(&r, "also registers"));
	assert_true(has_step(&r, "66.7%"));
	assert_true(has_step(&r, "37 x 32 = 1184"));
}

/* H100, 256 threads, 128 registers, 48 KiB dynamic shared memory:
 * warps 8 -> 64/8 = 8 blocks; registers 128*32 = 4096 per warp, 16384/4096 =
 * 4 per scheduler -> 16 warps -> 2 blocks; shared 49152 + 1024 = 50176 (a
 * multiple of 128) -> 233472/50176 = 4; blocks 32. Result 2, by registers,
 * 16 of 64 warps = 25 %. */
static void h100_register_bound(void **state)
{
	(void)state;
	occ_result r;
	occ_input in = {.threads = 256, .regs = 128, .smem_dynamic = 49152};
	assert_int_equal(occ_compute(&h100, &in, &r), 0);
	assert_int_equal(r.limit_warps, 8);
	assert_int_equal(r.limit_regs, 2);
	assert_int_equal(r.smem_per_block, 50176);
	assert_int_equal(r.limit_smem, 4);
	assert_int_equal(r.blocks_per_sm, 2);
	assert_string_equal(r.limiter, "registers");
	assert_int_equal(r.active_warps, 16);
	assert_float_equal(r.occupancy, 0.25, 1e-9);
}

/* H100, 128 threads, 40 registers, no shared memory: warps 4 -> 16;
 * registers 1280 per warp -> 12 per scheduler -> 48 warps -> 12 blocks;
 * shared: only the 1024 reserved -> 233472/1024 = 228; blocks 32.
 * Result 12 by registers, 48 of 64 warps = 75 %. */
static void h100_reserved_only(void **state)
{
	(void)state;
	occ_result r;
	occ_input in = {.threads = 128, .regs = 40};
	assert_int_equal(occ_compute(&h100, &in, &r), 0);
	assert_int_equal(r.limit_regs, 12);
	assert_int_equal(r.limit_smem, 228);
	assert_int_equal(r.blocks_per_sm, 12);
	assert_string_equal(r.limiter, "registers");
	assert_float_equal(r.occupancy, 0.75, 1e-9);
}

/* H100, 128 threads, 32 registers, 100000 B dynamic: 100000 + 1024 = 101024,
 * rounded up to 128 -> 101120; 233472/101120 = 2 blocks, the binding limit
 * (warps 16, registers 16, blocks 32); 8 of 64 warps = 12.5 %. Above 48 KiB,
 * so the step notes the opt-in. */
static void h100_shared_bound(void **state)
{
	(void)state;
	occ_result r;
	occ_input in = {.threads = 128, .regs = 32, .smem_dynamic = 100000};
	assert_int_equal(occ_compute(&h100, &in, &r), 0);
	assert_int_equal(r.smem_per_block, 101120);
	assert_int_equal(r.limit_smem, 2);
	assert_int_equal(r.limit_regs, 16);
	assert_int_equal(r.blocks_per_sm, 2);
	assert_string_equal(r.limiter, "shared");
	assert_float_equal(r.occupancy, 0.125, 1e-9);
	assert_true(has_step(&r, "opt in"));
}

/* T4 (sm_75: 32 warps, 64 KiB, nothing reserved), 256 threads, 64 registers,
 * 16384 B static: warps 8 -> 4; registers 2048 per warp -> 8 per scheduler ->
 * 32 warps -> 4; shared 65536/16384 = 4; blocks 16. All three tie at 4:
 * 32 of 32 warps = 100 %. */
static void t4_three_way_tie(void **state)
{
	(void)state;
	occ_result r;
	occ_input in = {.threads = 256, .regs = 64, .smem_static = 16384};
	assert_int_equal(occ_compute(&t4, &in, &r), 0);
	assert_int_equal(r.limit_warps, 4);
	assert_int_equal(r.limit_regs, 4);
	assert_int_equal(r.limit_smem, 4);
	assert_int_equal(r.blocks_per_sm, 4);
	assert_string_equal(r.limiter, "warps");
	assert_true(has_step(&r, "also registers, shared"));
	assert_float_equal(r.occupancy, 1.0, 1e-9);
}

/* T4, 96 threads (3 warps), 33 registers, 5000 B: warps 32/3 = 10;
 * registers 33*32 = 1056 -> 1280, 12 per scheduler -> 48 warps / 3 = 16;
 * shared 5000 -> 5120, 65536/5120 = 12; blocks 16. Result 10 by warps,
 * 30 of 32 warps = 93.75 %. */
static void t4_partial_warps(void **state)
{
	(void)state;
	occ_result r;
	occ_input in = {.threads = 96, .regs = 33, .smem_dynamic = 5000};
	assert_int_equal(occ_compute(&t4, &in, &r), 0);
	assert_int_equal(r.warps_per_block, 3);
	assert_int_equal(r.limit_warps, 10);
	assert_int_equal(r.regs_per_warp, 1280);
	assert_int_equal(r.limit_regs, 16);
	assert_int_equal(r.smem_per_block, 5120);
	assert_int_equal(r.limit_smem, 12);
	assert_int_equal(r.blocks_per_sm, 10);
	assert_string_equal(r.limiter, "warps");
	assert_float_equal(r.occupancy, 30.0 / 32.0, 1e-9);
}

/* A 33-thread block still takes two whole warps. */
static void partial_warp_rounds_up(void **state)
{
	(void)state;
	occ_result r;
	occ_input in = {.threads = 33, .regs = 16};
	assert_int_equal(occ_compute(&h100, &in, &r), 0);
	assert_int_equal(r.warps_per_block, 2);
	assert_int_equal(r.limit_warps, 32);
}

static void cannot_launch(void **state)
{
	(void)state;
	occ_result r;
	occ_input too_many_threads = {.threads = 2048, .regs = 32};
	assert_int_equal(occ_compute(&h100, &too_many_threads, &r), -1);
	assert_int_equal(r.blocks_per_sm, 0);

	/* 255 registers: 8160 -> 8192 per warp x 32 warps = 262144 > 65536 per block. */
	occ_input too_many_regs = {.threads = 1024, .regs = 255};
	assert_int_equal(occ_compute(&h100, &too_many_regs, &r), -1);
	assert_string_equal(r.limiter, "registers");
	assert_true(has_step(&r, "cannot launch"));

	occ_input too_much_smem = {.threads = 128, .regs = 32, .smem_dynamic = 232449};
	assert_int_equal(occ_compute(&h100, &too_much_smem, &r), -1);
	assert_string_equal(r.limiter, "shared");
	occ_input just_fits = {.threads = 128, .regs = 32, .smem_dynamic = 232448};
	assert_int_equal(occ_compute(&h100, &just_fits, &r), 0);
	assert_int_equal(r.blocks_per_sm, 1);
}

/* Without a register count the register limit does not bind. */
static void unknown_registers(void **state)
{
	(void)state;
	occ_result r;
	occ_input in = {.threads = 1024, .regs = 0};
	assert_int_equal(occ_compute(&h100, &in, &r), 0);
	assert_int_equal(r.blocks_per_sm, 2);
	assert_string_equal(r.limiter, "warps");
	assert_true(has_step(&r, "unknown"));
}

/* Sweeping threads as the driver comparison will: occupancy never exceeds 1
 * and more registers never raise it. */
static void sweep_is_monotonic(void **state)
{
	(void)state;
	for (int t = 32; t <= 1024; t += 32) {
		double prev = 2;
		for (int regs = 16; regs <= 255; regs++) {
			occ_result r;
			occ_input in = {.threads = t, .regs = regs};
			if (occ_compute(&h100, &in, &r) < 0)
				break;
			assert_true(r.occupancy <= 1.0 && r.occupancy > 0);
			assert_true(r.occupancy <= prev);
			prev = r.occupancy;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a6000_blog_example),
		cmocka_unit_test(h100_register_bound),
		cmocka_unit_test(h100_reserved_only),
		cmocka_unit_test(h100_shared_bound),
		cmocka_unit_test(t4_three_way_tie),
		cmocka_unit_test(t4_partial_warps),
		cmocka_unit_test(partial_warp_rounds_up),
		cmocka_unit_test(cannot_launch),
		cmocka_unit_test(unknown_registers),
		cmocka_unit_test(sweep_is_monotonic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
