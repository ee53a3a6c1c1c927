/* test_dtype: bf16 inputs, an output type and clusters — the dtype table and its conversions, `out:` and `cluster:`, --out and --cluster, tolerances, the check on 16-bit outputs, the emulator's refusal, the JSON keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fpconv.h"
#include "base/json.h"
#include "base/rng.h"
#include "base/util.h"
#include "cli/bench.h"
#include "cli/launch_opts.h"
#include "course/dtype.h"
#include "course/lesson.h"
#include "emu/emu.h"
#include "exec/backend.h"
#include "gpu/cuda.h"
#include "model/devices.h"
#include "model/model.h"
#include "run/launch.h"
#include "run/verify.h"
#include "launch_helper.h"

/* ---- the table ---- */

/* The numbers the course layer writes down are the driver's and cuBLAS's
 * (src/gpu/cuda.h declares them as cuda.h and library_types.h do). */
static void test_table_matches_cuda(void **st)
{
	(void)st;
	assert_int_equal(dtype_of(DTYPE_F32)->tmap_type, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
	assert_int_equal(dtype_of(DTYPE_F16)->tmap_type, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
	assert_int_equal(dtype_of(DTYPE_BF16)->tmap_type, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
	assert_int_equal(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 9);
	assert_int_equal(dtype_of(DTYPE_F32)->cublas_type, CUDA_R_32F);
	assert_int_equal(dtype_of(DTYPE_F16)->cublas_type, CUDA_R_16F);
	assert_int_equal(dtype_of(DTYPE_BF16)->cublas_type, CUDA_R_16BF);
	assert_int_equal(CUDA_R_16BF, 14);
	assert_int_equal(dtype_of(DTYPE_F32)->bytes, 4);
	assert_int_equal(dtype_of(DTYPE_F16)->bytes, 2);
	assert_int_equal(dtype_of(DTYPE_BF16)->bytes, 2);
	assert_int_equal(dtype_of(DTYPE_F32)->rng, RNG_F32);
	assert_int_equal(dtype_of(DTYPE_F16)->rng, RNG_F16);
	assert_int_equal(dtype_of(DTYPE_BF16)->rng, RNG_BF16);
	/* the f32 poison is the one the emulator and older code use */
	assert_int_equal(dtype_of(DTYPE_F32)->poison, VERIFY_POISON);
	/* every poison reads back as NaN through the type's own conversion */
	for (dtype d = DTYPE_F32; d < DTYPE_COUNT; d++) {
		uint32_t p = dtype_of(d)->poison;
		float f;
		dtype_to_f32(d, &p, &f, 1); /* little-endian: the low bytes first */
		assert_true(isnan(f));
	}
	assert_ptr_equal(dtype_of((dtype)99), dtype_of(DTYPE_NONE));
	assert_string_equal(dtype_name((dtype)99), "none");
}

static void test_names_and_pairs(void **st)
{
	(void)st;
	dtype d = DTYPE_NONE;
	assert_int_equal(dtype_parse("bf16", &d), 0);
	assert_int_equal(d, DTYPE_BF16);
	assert_int_equal(dtype_parse("f16", &d), 0);
	assert_int_equal(d, DTYPE_F16);
	assert_int_equal(dtype_parse("f32", &d), 0);
	assert_int_equal(d, DTYPE_F32);
	assert_int_equal(dtype_parse("none", &d), -1);
	assert_int_equal(dtype_parse("BF16", &d), -1);
	assert_int_equal(dtype_parse("", &d), -1);

	char err[200], name[32];
	/* the pairs cuBLAS GemmEx computes with f32 accumulation */
	assert_int_equal(dtype_pair_check(DTYPE_F32, DTYPE_F32, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_F16, DTYPE_F32, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_F16, DTYPE_F16, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_BF16, DTYPE_F32, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_BF16, DTYPE_BF16, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_F32, DTYPE_BF16, err, sizeof err), -1);
	assert_string_equal(err, "f32 inputs give an f32 output, not bf16 (cuBLAS has no reference for f32->bf16)");
	assert_int_equal(dtype_pair_check(DTYPE_F16, DTYPE_BF16, err, sizeof err), -1);
	assert_string_equal(err, "f16 inputs give an f32 or f16 output, not bf16 (cuBLAS GemmEx's pairs)");
	assert_int_equal(dtype_pair_check(DTYPE_BF16, DTYPE_F16, err, sizeof err), -1);

	dtype_pair_name(DTYPE_BF16, DTYPE_BF16, name, sizeof name);
	assert_string_equal(name, "bf16→bf16");
	dtype_pair_name(DTYPE_F16, DTYPE_F32, name, sizeof name);
	assert_string_equal(name, "f16→f32");
	dtype_pair_name(DTYPE_F32, DTYPE_F32, name, sizeof name);
	assert_string_equal(name, "f32");
}

/* ---- conversions (base/util.c) ---- */

static void test_bf16_rounding(void **st)
{
	(void)st;
	assert_int_equal(util_f32_to_bf16(1.0f), 0x3f80);
	assert_int_equal(util_f32_to_bf16(-2.0f), 0xc000);
	assert_int_equal(util_f32_to_bf16(0.0f), 0x0000);
	assert_int_equal(util_f32_to_bf16(-0.0f), 0x8000);
	/* round to nearest even: 1 + 2^-8 is half way between 1 and 1 + 2^-7 (odd): down to 1 */
	assert_int_equal(util_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);
	/* 1 + 3*2^-8 is half way between 1 + 2^-7 (odd) and 1 + 2^-6 (even): up */
	assert_int_equal(util_f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
	/* just above half way: up; just below: down */
	assert_int_equal(util_f32_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
	assert_int_equal(util_f32_to_bf16(1.0f + 0x1p-8f - 0x1p-20f), 0x3f80);
	/* 0.1 = 0x3dcccccd: the dropped half 0xcccd is above half: up to 0x3dcd */
	assert_int_equal(util_f32_to_bf16(0.1f), 0x3dcd);
	/* f32's range: the largest f32 rounds up to inf, the largest bf16 stays */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x7f7fffff)), 0x7f80);
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x7f7f0000)), 0x7f7f);
	assert_int_equal(util_f32_to_bf16(INFINITY), 0x7f80);
	assert_int_equal(util_f32_to_bf16(-INFINITY), 0xff80);
	/* NaN stays NaN, also one whose payload is only in the bits dropped
	 * (a plain shift would make it inf) */
	uint16_t n = util_f32_to_bf16(fpconv_bits_f32(0x7f800001));
	assert_true(isnan(util_bf16_to_f32(n)));
	assert_true(isnan(util_bf16_to_f32(util_f32_to_bf16(NAN))));
	assert_true(isnan(util_bf16_to_f32(util_f32_to_bf16(-NAN))));
	/* subnormals are kept (bf16 has f32's exponent) */
	assert_int_equal(util_f32_to_bf16(fpconv_bits_f32(0x00010000)), 0x0001);
	assert_true(util_bf16_to_f32(0x0001) == fpconv_bits_f32(0x00010000));
	assert_true(util_bf16_to_f32(0x3f80) == 1.0f);
	assert_true(util_bf16_to_f32(0xc2f7) == -123.5f);
}

/* Every non-NaN bit pattern of a 16-bit type survives the trip through f32. */
static void test_round_trips(void **st)
{
	(void)st;
	for (uint32_t h = 0; h < 0x10000; h++) {
		float b = util_bf16_to_f32((uint16_t)h), f = util_f16_to_f32((uint16_t)h);
		if (!isnan(b))
			assert_int_equal(util_f32_to_bf16(b), h);
		else
			assert_true(isnan(util_bf16_to_f32(util_f32_to_bf16(b))));
		if (!isnan(f))
			assert_int_equal(util_f32_to_f16(f), h);
	}
	/* f16's own round to nearest even */
	assert_int_equal(util_f32_to_f16(1.0f + 0x1p-11f), 0x3c00);
	assert_int_equal(util_f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3c02);
	/* arrays through the table, each way */
	float in[5] = {1.0f, -0.5f, 0.1f, 3.0e38f, 1e-6f}, out[5];
	uint16_t raw[5];
	dtype_from_f32(DTYPE_BF16, in, raw, 5);
	assert_int_equal(raw[0], 0x3f80);
	assert_int_equal(raw[2], 0x3dcd);
	dtype_to_f32(DTYPE_BF16, raw, out, 5);
	for (int i = 0; i < 5; i++) {
		assert_true(out[i] == dtype_round(DTYPE_BF16, in[i]));
		assert_true(fabsf(out[i] - in[i]) <= fabsf(in[i]) * 0x1p-8f);
	}
	dtype_from_f32(DTYPE_F16, in, raw, 5);
	dtype_to_f32(DTYPE_F16, raw, out, 5);
	assert_true(isinf(out[3])); /* 3e38 is far past f16's 65504: range, the difference bf16 makes */
	assert_true(out[1] == -0.5f);
	float f32s[5];
	dtype_from_f32(DTYPE_F32, in, f32s, 5);
	assert_memory_equal(f32s, in, sizeof in);
	assert_true(dtype_round(DTYPE_F32, 0.1f) == 0.1f);
}

static void test_rng_bf16(void **st)
{
	(void)st;
	enum { N = 20000 };
	static uint16_t h[N];
	static float as[N];
	rng r;
	rng_seed(&r, 11);
	rng_fill(&r, RNG_BF16, h, as, N);
	int neg = 0;
	for (int i = 0; i < N; i++) {
		float v = util_bf16_to_f32(h[i]);
		assert_true(isfinite(v) && v != 0.0f && v >= -1.0f && v <= 1.0f);
		assert_true(as[i] == v); /* the reference sees what was stored */
		neg += v < 0;
	}
	assert_true(neg > N / 2 - N / 50 && neg < N / 2 + N / 50);
}

/* ---- tolerances ---- */

static void test_tolerance_per_output_type(void **st)
{
	(void)st;
	/* lessons 1-9 keep theirs */
	assert_float_equal(run_tolerance(DTYPE_F32, DTYPE_F32), 1e-4, 1e-12);
	assert_float_equal(run_tolerance(DTYPE_F16, DTYPE_F32), 1e-3, 1e-12);
	assert_float_equal(run_tolerance(DTYPE_BF16, DTYPE_F32), 1e-3, 1e-12);
	/* a 16-bit output: the accumulation's room plus 2u of the output's rounding */
	assert_float_equal(run_tolerance(DTYPE_F16, DTYPE_F16), 2e-3, 1e-12);
	assert_float_equal(run_tolerance(DTYPE_BF16, DTYPE_BF16), 1e-2, 1e-12);
	for (dtype d = DTYPE_F16; d <= DTYPE_BF16; d++)
		assert_true(run_tolerance(d, d) >= 1e-3 + 2 * dtype_unit_roundoff(d));
	/* a request without an output type is f32 */
	run_request rq = {0};
	assert_int_equal(run_out(&rq), DTYPE_F32);
	rq.out = DTYPE_BF16;
	assert_int_equal(run_out(&rq), DTYPE_BF16);
}

/* ---- the check on 16-bit outputs (run/verify.c on plain arrays) ---- */

enum { R = 24, C = 20, KK = 256, NC = R * C };
static float a[R * KK], b[KK * C], ref[NC], got[NC], got2[NC], c0[NC];

/* A and B drawn in t; ref = the sums in one order, got = in the other,
 * each rounded once to the output type o, as cuBLAS and a kernel would. */
static void products(dtype t, dtype o, int drop_k)
{
	rng r;
	rng_seed(&r, 5);
	uint16_t *raw = malloc(sizeof a);
	rng_fill(&r, dtype_of(t)->rng, raw, a, R * KK);
	rng_fill(&r, dtype_of(t)->rng, raw, b, KK * C);
	free(raw);
	for (int i = 0; i < R; i++)
		for (int j = 0; j < C; j++) {
			float up = 0, down = 0;
			for (int k = 0; k < KK; k++)
				up += a[i * KK + k] * b[k * C + j];
			for (int k = KK - 1; k >= 0; k--)
				if (k != drop_k)
					down += a[i * KK + k] * b[k * C + j];
			ref[i * C + j] = dtype_round(o, up);
			got[i * C + j] = dtype_round(o, down);
		}
}

static verify_input vin(dtype t, dtype o, const float *with_c0)
{
	return (verify_input){.rows = R, .cols = C, .got = got, .ref = ref, .c0 = with_c0,
			      .tol = run_tolerance(t, o), .out = o};
}

static void test_verify_16bit_outputs(void **st)
{
	(void)st;
	static const dtype outs[] = {DTYPE_BF16, DTYPE_F16};
	for (size_t n = 0; n < ARRAY_LEN(outs); n++) {
		dtype o = outs[n];
		verify_report rep;
		/* another summation order, rounded once each: within the tolerance */
		products(o, o, -1);
		verify_input in = vin(o, o, NULL);
		verify_check(&in, &rep);
		assert_int_equal(rep.again, VERIFY_AGAIN_NONE);
		assert_int_equal(rep.kind, VERIFY_PASS);

		/* a k term dropped: wrong */
		products(o, o, 7);
		verify_check(&in, &rep);
		assert_int_equal(rep.kind, VERIFY_WRONG);

		/* a row never written keeps the type's NaN poison, read back as f32 */
		products(o, o, -1);
		uint32_t p = dtype_of(o)->poison;
		float nan16;
		dtype_to_f32(o, &p, &nan16, 1);
		for (int j = 0; j < C; j++)
			got[3 * C + j] = nan16;
		verify_check(&in, &rep);
		assert_int_equal(rep.again, VERIFY_AGAIN_ZERO);
		memcpy(got2, got, sizeof got2);
		for (int j = 0; j < C; j++)
			got2[3 * C + j] = 0.0f; /* C zeroed, the row still not written */
		in.got2 = got2;
		verify_check(&in, &rep);
		assert_int_equal(rep.kind, VERIFY_UNWRITTEN);
		assert_int_equal(rep.unwritten, C);

		/* with beta: C0 drawn in the output type; a row that keeps C0's bits through
		 * both launches was not written, in f16 (2^-8) and bf16 (2^-40) alike */
		products(o, o, -1);
		rng r;
		rng_seed(&r, 9);
		uint16_t raw[NC];
		rng_fill(&r, dtype_of(o)->rng, raw, c0, NC);
		for (int j = 0; j < C; j++)
			got[5 * C + j] = c0[5 * C + j];
		in = vin(o, o, c0);
		verify_check(&in, &rep);
		assert_int_equal(rep.again, VERIFY_AGAIN_C0);
		verify_second_c0(c0, got2, NC, o);
		for (int i = 0; i < NC; i++) {
			assert_true(got2[i] != c0[i]);
			assert_true(got2[i] == dtype_round(o, got2[i])); /* what the type stores, exactly */
			assert_true(got2[i] == verify_c0_again(c0[i], o));
			if (i / C != 5)
				got2[i] = ref[i];
		}
		in.got2 = got2;
		verify_check(&in, &rep);
		assert_int_equal(rep.kind, VERIFY_UNWRITTEN);
		assert_int_equal(rep.unwritten, C);
	}
	/* the f32 second C0 is the one it always was */
	assert_true(verify_c0_again(0.75f, DTYPE_F32) == ldexpf(0.75f, -40));
	assert_true(verify_c0_again(0.75f, DTYPE_NONE) == ldexpf(0.75f, -40));
	assert_true(verify_c0_again(0.75f, DTYPE_F16) == ldexpf(0.75f, -8));
}

/* ---- clusters ---- */

static void test_cluster_rules(void **st)
{
	(void)st;
	char err[256];
	unsigned c[3];
	run_request rq = {0};
	rq.grid[0] = 3, rq.grid[1] = 2, rq.grid[2] = 1;
	assert_int_equal(run_cluster(&rq, c), 1); /* unset: none */
	assert_true(c[0] == 1 && c[1] == 1 && c[2] == 1);
	assert_int_equal(run_check_cluster(&rq, err, sizeof err), 0);
	rq.cluster[0] = 2;
	assert_int_equal(run_cluster(&rq, c), 2);
	assert_int_equal(run_check_cluster(&rq, err, sizeof err), -1);
	assert_string_equal(err, "the grid 3x2x1 is not a multiple of the cluster 2x1x1 (x)");
	rq.grid[0] = 4;
	assert_int_equal(run_check_cluster(&rq, err, sizeof err), 0);
	rq.cluster[0] = 1, rq.cluster[1] = 2;
	assert_int_equal(run_check_cluster(&rq, err, sizeof err), 0);
	rq.cluster[0] = 4, rq.cluster[1] = 4;
	assert_int_equal(run_cluster(&rq, c), LESSON_MAX_CLUSTER + 1);
	assert_int_equal(run_check_cluster(&rq, err, sizeof err), -1);
	assert_string_equal(err, "a cluster of 4x4x1 is more than the 8 blocks a portable cluster has");
	rq.cluster[0] = 0xffffffffu, rq.cluster[1] = 0xffffffffu; /* no overflow to a small product */
	assert_int_equal(run_check_cluster(&rq, err, sizeof err), -1);
	/* a persistent grid is sized by the runner, in whole clusters along x */
	rq.persistent = 1;
	rq.cluster[0] = 1, rq.cluster[1] = 2;
	assert_int_equal(run_check_cluster(&rq, err, sizeof err), -1);
	assert_non_null(strstr(err, "a persistent grid is 1-D, so its cluster is too"));
	rq.cluster[0] = 2, rq.cluster[1] = 1;
	rq.grid[0] = 7;
	assert_int_equal(run_check_cluster(&rq, err, sizeof err), 0);
}

/* ---- the lesson's keys and its request ---- */

static const char lesson10[] =
	"---\n"
	"id: bfc\n"
	"title: bf16 in clusters\n"
	"kernel: tests/data/gemm_cluster.ptx gemm_bf16_cluster2\n"
	"dtype: bf16\n"
	"out: bf16\n"
	"cluster: 2\n"
	"block: 16 16\n"
	"tile: 16 16\n"
	"multiple: 1 32 1\n"
	"needs: sm_90\n"
	"---\n"
	"# P\n";

static void test_lesson_out_and_cluster(void **st)
{
	(void)st;
	char err[512] = "";
	lesson l;
	assert_int_equal(lesson_parse("lessons/10-bfc.md", lesson10, &l, err, sizeof err), 0);
	assert_int_equal(l.dt, DTYPE_BF16);
	assert_int_equal(l.out, DTYPE_BF16);
	assert_true(l.cluster[0] == 2 && l.cluster[1] == 1 && l.cluster[2] == 1);
	run_request rq;
	assert_int_equal(launch_request_for_lesson(&l, NULL, 64, 96, 48, &rq, err, sizeof err), 0);
	assert_int_equal(rq.dt, DTYPE_BF16);
	assert_int_equal(rq.out, DTYPE_BF16);
	assert_true(rq.cluster[0] == 2 && rq.cluster[1] == 1 && rq.cluster[2] == 1);
	assert_true(rq.grid[0] == 6 && rq.grid[1] == 4);
	/* an odd grid (N = 48: 3 blocks across) is said in one line before any GPU work */
	lesson odd = l;
	util_strlcpy(odd.multiple[1], "16", LESSON_EXPR);
	assert_int_equal(launch_request_for_lesson(&odd, NULL, 64, 48, 48, &rq, err, sizeof err), -1);
	assert_string_equal(err, "lessons/10-bfc.md: at 64x48x48 the grid 3x4x1 is not a multiple of the cluster 2x1x1 (x)");
	lesson_free(&l);

	/* the defaults: f32 out, no cluster (lessons 1-9 are unchanged) */
	static const char plain[] = "---\nid: p\ntitle: P\nkernel: tests/data/gemm_test.ptx gemm_f16\ndtype: f16\n"
				    "block: 16 16\ntile: 16 16\n---\n# P\n";
	assert_int_equal(lesson_parse("lessons/08-p.md", plain, &l, err, sizeof err), 0);
	assert_int_equal(l.out, DTYPE_F32);
	assert_true(l.cluster[0] == 1 && l.cluster[1] == 1 && l.cluster[2] == 1);
	assert_int_equal(launch_request_for_lesson(&l, NULL, 64, 48, 48, &rq, err, sizeof err), 0);
	assert_int_equal(run_out(&rq), DTYPE_F32);
	assert_int_equal(run_cluster(&rq, (unsigned[3]){0}), 1);
	lesson_free(&l);

	/* cluster: 2 2 2 is 8 blocks, the portable limit: accepted */
	static const char eight[] = "---\nid: e\ntitle: E\ncluster: 2 2 2\n---\n# P\n";
	assert_int_equal(lesson_parse("lessons/10-e.md", eight, &l, err, sizeof err), 0);
	assert_true(l.cluster[0] == 2 && l.cluster[1] == 2 && l.cluster[2] == 2);
	lesson_free(&l);
	static const char nine[] = "---\nid: e\ntitle: E\ncluster: 3 3\n---\n# P\n";
	assert_int_equal(lesson_parse("lessons/10-e.md", nine, &l, err, sizeof err), -1);
	assert_string_equal(err, "lessons/10-e.md:4: a cluster of 3x3x1 is 9 blocks; at most 8 is portable (larger sizes "
				 "need an opt-in this tutor does not make)");
}

/* ---- the model's bytes ---- */

static void test_model_counts_output_bytes(void **st)
{
	(void)st;
	static gpu_table t;
	char msg[256];
	assert_true(devices_load(&t, msg, sizeof msg) > 0);
	const gpu_spec *g = devices_find(&t, "h100", msg, sizeof msg);
	assert_non_null(g);
	static const char mk[] = "---\nid: w\ntitle: W\nkernel: ptx/09_wgmma.ptx gemm\ndtype: %s\nout: %s\nmodel: wgmma\n"
				 "params: BM=128 BN=128 BK=64\nblock: 384\ntile: BM BN\n---\n# P\n";
	char text[512], err[512];
	double dram[3];
	static const char *const pairs[3][2] = {{"f16", "f32"}, {"bf16", "f32"}, {"bf16", "bf16"}};
	for (int i = 0; i < 3; i++) {
		lesson l;
		model_result r;
		snprintf(text, sizeof text, mk, pairs[i][0], pairs[i][1]);
		assert_int_equal(lesson_parse("lessons/10-w.md", text, &l, err, sizeof err), 0);
		assert_int_equal(model_compute(&l, NULL, 4096, 4096, 4096, g, &r, err, sizeof err), 0);
		assert_int_equal(r.elem_bytes, 2);
		assert_int_equal(r.out_bytes, i == 2 ? 2 : 4);
		dram[i] = r.dram_ideal_bytes;
		lesson_free(&l);
	}
	const double n2 = 4096.0 * 4096.0;
	assert_float_equal(dram[0], 2 * n2 * 2 + n2 * 4, 1);
	assert_float_equal(dram[1], dram[0], 1);          /* bf16 inputs are as wide as f16 ones */
	assert_float_equal(dram[2], 2 * n2 * 2 + n2 * 2, 1); /* C in bf16: half the output bytes */
	/* lesson 11's formats: tf32 is 4 bytes in memory (the kernel rounds), e4m3 one */
	static const char *const narrow[2][2] = {{"tf32", "f32"}, {"e4m3", "bf16"}};
	for (int i = 0; i < 2; i++) {
		lesson l;
		model_result r;
		snprintf(text, sizeof text, mk, narrow[i][0], narrow[i][1]);
		assert_int_equal(lesson_parse("lessons/11-w.md", text, &l, err, sizeof err), 0);
		assert_int_equal(model_compute(&l, NULL, 4096, 4096, 4096, g, &r, err, sizeof err), 0);
		assert_int_equal(r.elem_bytes, i ? 1 : 4);
		assert_float_equal(r.dram_ideal_bytes, 2 * n2 * (i ? 1 : 4) + n2 * (i ? 2 : 4), 1);
		lesson_free(&l);
	}
}

/* ---- the emulator's types: every pair a check has a reference for ---- */

static void test_emulator_refuses(void **st)
{
	(void)st;
	char err[512];
	run_request rq = {0};
	util_path(rq.ptx_path, sizeof rq.ptx_path, "tests/data/gemm_16bit.ptx");
	util_strlcpy(rq.entry, "gemm_bf16_bf16", sizeof rq.entry);
	rq.M = rq.N = rq.K = 32;
	rq.grid[0] = rq.grid[1] = 2, rq.grid[2] = 1;
	rq.block[0] = rq.block[1] = 16, rq.block[2] = 1;
	rq.verify = 1;
	rq.args = (argspec){0};
	/* what it runs: f32, f16 and bf16 in, the outputs GemmEx pairs with them, clusters */
	rq.dt = DTYPE_F32;
	assert_int_equal(emu_refuses(&rq, NULL, err, sizeof err), 0);
	rq.dt = DTYPE_F16, rq.out = DTYPE_F32;
	assert_int_equal(emu_refuses(&rq, NULL, err, sizeof err), 0);
	rq.dt = rq.out = DTYPE_BF16, rq.cluster[0] = 2;
	assert_int_equal(emu_refuses(&rq, "lesson 10", err, sizeof err), 0);
	rq.cluster[0] = 0;
	/* and the bf16 kernels verify: inputs rounded to bf16, C written as bf16 */
	emu_result *er = calloc(1, sizeof *er);
	assert_int_equal(emu_run(&rq, NULL, er, err, sizeof err), EMU_OK);
	assert_int_equal(er->verified, 1);
	rq.out = DTYPE_F32;
	util_strlcpy(rq.entry, "gemm_bf16_f32", sizeof rq.entry);
	assert_int_equal(emu_run(&rq, NULL, er, err, sizeof err), EMU_OK);
	assert_int_equal(er->verified, 1);
	free(er);
	/* what it does not: a pair no reference checks */
	rq.dt = DTYPE_F32, rq.out = DTYPE_F16;
	assert_int_equal(emu_refuses(&rq, "lesson 10", err, sizeof err), -1);
	assert_non_null(strstr(err, "the emulator runs the types a GPU check has a reference for; lesson 10: "));
	run_result res;
	rq.backend = RUN_BACKEND_EMU;
	exec_run(&rq, &res);
	assert_int_equal(res.status, RUN_EMU_REFUSED); /* its own status: not "GPU too old" */
	assert_non_null(strstr(res.msg, "the emulator runs the types"));
}

/* ---- --out and --cluster ---- */

static int launch(const char *line, run_request *rq)
{
	cli_launch o;
	static course c;
	if (launch_words(&cli_cmd_run, line, &o) != -1)
		return -1;
	return cli_launch_request(&o, &c, rq);
}

static void test_cli_out_and_cluster(void **st)
{
	(void)st;
	run_request rq;
	char ptx[600], line[800];
	util_path(ptx, sizeof ptx, "tests/data/gemm_16bit.ptx");
	snprintf(line, sizeof line, "run --ptx %s --entry gemm_bf16_bf16 --grid N/16,M/16 --block 16,16 --size 64 "
				    "--dtype bf16 --out bf16", ptx);
	assert_int_equal(launch(line, &rq), 0);
	assert_int_equal(rq.dt, DTYPE_BF16);
	assert_int_equal(rq.out, DTYPE_BF16);
	assert_int_equal(run_cluster(&rq, (unsigned[3]){0}), 1);
	/* the default output is f32 */
	snprintf(line, sizeof line, "run --ptx %s --entry gemm_bf16_f32 --grid N/16,M/16 --block 16,16 --size 64 --dtype bf16",
		 ptx);
	assert_int_equal(launch(line, &rq), 0);
	assert_int_equal(rq.out, DTYPE_F32);
	/* clusters, in the grid's multiples */
	snprintf(line, sizeof line, "run --ptx %s --entry gemm_bf16_bf16 --grid N/16,M/16 --block 16,16 --size 64 "
				    "--dtype bf16 --out bf16 --cluster 2,1", ptx);
	assert_int_equal(launch(line, &rq), 0);
	assert_true(rq.cluster[0] == 2 && rq.cluster[1] == 1 && rq.cluster[2] == 1);
	snprintf(line, sizeof line, "run --ptx %s --entry gemm_bf16_bf16 --grid N/16,M/16 --block 16,16 --size 64 "
				    "--dtype bf16 --cluster 4,2", ptx);
	assert_int_equal(launch(line, &rq), 0);
	assert_true(rq.cluster[0] == 4 && rq.cluster[1] == 2 && rq.cluster[2] == 1);
	snprintf(line, sizeof line, "run --ptx %s --entry gemm_bf16_bf16 --grid persistent --block 16,16 --size 64 "
				    "--dtype bf16 --cluster 2", ptx);
	assert_int_equal(launch(line, &rq), 0);
	assert_true(rq.persistent && rq.cluster[0] == 2);
	/* refusals, each one line on stderr */
	static const char *const bad[] = {
		"--dtype bf16 --out f16",   /* no such pair */
		"--out f16",                /* f32 inputs */
		"--dtype f64",
		"--out half",
		"--dtype bf16 --cluster 3", /* grid 4x4 */
		"--dtype bf16 --cluster 4,4", /* 16 blocks */
		"--dtype bf16 --cluster 0",
		"--dtype bf16 --cluster 2,1,1,1",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		snprintf(line, sizeof line, "run --ptx %s --entry gemm_bf16_bf16 --grid N/16,M/16 --block 16,16 --size 64 %s",
			 ptx, bad[i]);
		if (launch(line, &rq) != -1)
			fail_msg("'%s' was not refused", bad[i]);
	}
	/* a lesson's types and cluster are its front matter's */
	assert_int_equal(launch("run 9 --out bf16", &rq), -1);
	assert_int_equal(launch("run 9 --cluster 2", &rq), -1);
}

/* --dtype tf32/e4m3 and --bmajor make the request; the pairs without a reference are refused. */
static void test_cli_narrow_types_and_bmajor(void **st)
{
	(void)st;
	char ptx[512], line[1024];
	run_request rq;
	util_path(ptx, sizeof ptx, "tests/data/gemm_fp8.ptx");
	snprintf(line, sizeof line, "run --ptx %s --entry gemm_e4m3_f32 --grid N/16,M/16 --block 16,16 --size 64 "
				    "--dtype e4m3 --bmajor k --args A,B,C,M,N,K,scale:A,scale:B", ptx);
	assert_int_equal(launch(line, &rq), 0);
	assert_int_equal(rq.dt, DTYPE_E4M3);
	assert_int_equal(rq.out, DTYPE_F32);
	assert_int_equal(rq.b_kmajor, 1);
	assert_int_equal(rq.args.item[6].kind, ARG_SCALE);
	snprintf(line, sizeof line, "run --ptx %s --entry gemm_tf32_f32 --grid N/16,M/16 --block 16,16 --size 64 "
				    "--dtype tf32 --bmajor n", ptx);
	assert_int_equal(launch(line, &rq), 0);
	assert_int_equal(rq.dt, DTYPE_TF32);
	assert_int_equal(rq.b_kmajor, 0);
	static const char *const bad[] = {
		"--dtype e4m3 --out f16", /* not in cuBLASLt's FP8 table here */
		"--dtype tf32 --out bf16",
		"--bmajor t",
		"--bmajor",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		snprintf(line, sizeof line, "run --ptx %s --entry gemm_tf32_f32 --grid N/16,M/16 --block 16,16 --size 64 %s",
			 ptx, bad[i]);
		if (launch(line, &rq) != -1)
			fail_msg("'%s' was not refused", bad[i]);
	}
	/* a lesson's B layout is its front matter's */
	assert_int_equal(launch("run 9 --bmajor k", &rq), -1);
}

/* ---- JSON ---- */

static char *json_of(const run_request *rq)
{
	run_result res;
	memset(&res, 0, sizeof res);
	res.status = RUN_OK;
	res.verified = 1;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer w;
	json_begin(&w, f);
	bench_json_result(&w, NULL, rq, &res, 0);
	json_finish(&w);
	fclose(f);
	return buf;
}

static void test_json_types_and_cluster(void **st)
{
	(void)st;
	run_request rq = {0};
	util_strlcpy(rq.entry, "k", sizeof rq.entry);
	rq.dt = DTYPE_F16;
	char *j = json_of(&rq);
	assert_non_null(strstr(j, "\"dtype\": \"f16\""));
	assert_non_null(strstr(j, "\"out\": \"f32\""));
	assert_null(strstr(j, "\"cluster\""));
	free(j);
	rq.dt = rq.out = DTYPE_BF16;
	rq.cluster[0] = 2;
	j = json_of(&rq);
	assert_non_null(strstr(j, "\"dtype\": \"bf16\""));
	assert_non_null(strstr(j, "\"out\": \"bf16\""));
	assert_non_null(strstr(j, "\"cluster\": [\n    2,\n    1,\n    1\n  ]"));
	free(j);
	char types[64];
	bench_types(&rq, types, sizeof types);
	assert_string_equal(types, "bf16→bf16, clusters of 2x1x1");
}

/* ---- tf32, e4m3, e5m2 (lesson 11) ---- */

static void test_narrow_rows(void **st)
{
	(void)st;
	dtype d;
	assert_int_equal(dtype_parse("tf32", &d), 0);
	assert_int_equal(d, DTYPE_TF32);
	assert_int_equal(dtype_parse("e4m3", &d), 0);
	assert_int_equal(d, DTYPE_E4M3);
	assert_int_equal(dtype_parse("e5m2", &d), 0);
	assert_int_equal(d, DTYPE_E5M2);
	/* the CUDA numbers, as src/gpu/cuda.h declares them */
	assert_int_equal(dtype_of(DTYPE_TF32)->bytes, 4);
	assert_int_equal(dtype_of(DTYPE_TF32)->cublas_type, CUDA_R_32F);
	assert_int_equal(dtype_of(DTYPE_TF32)->cublas_compute, CUBLAS_COMPUTE_32F_FAST_TF32);
	assert_int_equal(CUBLAS_COMPUTE_32F_FAST_TF32, 77);
	assert_int_equal(dtype_of(DTYPE_F16)->cublas_compute, CUBLAS_COMPUTE_32F);
	assert_int_equal(dtype_of(DTYPE_E4M3)->bytes, 1);
	assert_int_equal(dtype_of(DTYPE_E5M2)->bytes, 1);
	assert_int_equal(dtype_of(DTYPE_E4M3)->cublas_type, CUDA_R_8F_E4M3);
	assert_int_equal(dtype_of(DTYPE_E5M2)->cublas_type, CUDA_R_8F_E5M2);
	assert_int_equal(CUDA_R_8F_E4M3, 28);
	assert_int_equal(CUDA_R_8F_E5M2, 29);
	assert_int_equal(dtype_of(DTYPE_E4M3)->tmap_type, CU_TENSOR_MAP_DATA_TYPE_UINT8);
	assert_int_equal(dtype_of(DTYPE_E5M2)->tmap_type, CU_TENSOR_MAP_DATA_TYPE_UINT8);
	assert_int_equal(CU_TENSOR_MAP_DATA_TYPE_UINT8, 0);
	assert_int_equal(dtype_of(DTYPE_E4M3)->ref, DTYPE_REF_LT);
	assert_int_equal(dtype_of(DTYPE_TF32)->ref, DTYPE_REF_GEMMEX);
	/* the bit fields */
	assert_int_equal(dtype_of(DTYPE_E4M3)->exp_bits, 4);
	assert_int_equal(dtype_of(DTYPE_E4M3)->mant_bits, 3);
	assert_int_equal(dtype_of(DTYPE_E4M3)->bias, 7);
	assert_int_equal(dtype_of(DTYPE_E4M3)->has_inf, 0);
	assert_int_equal(dtype_of(DTYPE_E5M2)->has_inf, 1);
	assert_string_equal(dtype_nan_text(DTYPE_E4M3), "S.1111.111 only (no inf)");
	assert_string_equal(dtype_nan_text(DTYPE_E5M2), "exponent all ones, mantissa not zero");
	/* e4m3 round trip through the table: 1.0 is 0.0111.000 = 0x38, 448 is 0x7e */
	uint8_t b[3];
	float f[3] = {1.0f, 448.0f, -1000.0f}, back[3];
	dtype_from_f32(DTYPE_E4M3, f, b, 3);
	assert_int_equal(b[0], 0x38);
	assert_int_equal(b[1], 0x7e);
	assert_int_equal(b[2], 0xfe); /* satfinite: -448, not NaN */
	dtype_to_f32(DTYPE_E4M3, b, back, 3);
	assert_true(back[0] == 1.0f && back[1] == 448.0f && back[2] == -448.0f);
	/* tf32 is stored as f32; what the kernel keeps is cvt.rna: 1 + 2^-11 ties away to 1 + 2^-10 */
	assert_true(dtype_round(DTYPE_TF32, 1.0f + 0x1p-11f) == 1.0f + 0x1p-10f);
	assert_true(dtype_round(DTYPE_TF32, 1.0f + 0x1p-12f) == 1.0f);
}

/* The extremes, computed from the bit fields, against values worked by hand
 * from the OCP FP8 spec and IEEE 754. */
static void test_derived_extremes(void **st)
{
	(void)st;
	assert_true(dtype_max_finite(DTYPE_E4M3) == 448.0);     /* 1.110 x 2^8 */
	assert_true(dtype_min_normal(DTYPE_E4M3) == 0x1p-6);
	assert_true(dtype_min_subnormal(DTYPE_E4M3) == 0x1p-9);
	assert_true(dtype_max_finite(DTYPE_E5M2) == 57344.0);   /* 1.11 x 2^15 */
	assert_true(dtype_min_normal(DTYPE_E5M2) == 0x1p-14);
	assert_true(dtype_min_subnormal(DTYPE_E5M2) == 0x1p-16);
	assert_true(dtype_eps(DTYPE_TF32) == 0x1p-10);
	assert_true(dtype_unit_roundoff(DTYPE_TF32) == 0x1p-11);
	assert_true(dtype_max_finite(DTYPE_F16) == 65504.0);
	assert_true(dtype_min_subnormal(DTYPE_F16) == 0x1p-24);
	assert_true(dtype_max_finite(DTYPE_F32) == (double)3.40282347e38f);
	assert_true(dtype_max_finite(DTYPE_BF16) == (double)util_bf16_to_f32(0x7f7f));
	assert_true(dtype_unit_roundoff(DTYPE_BF16) == 0x1p-8);
	/* and they are what the conversions do: the largest finite survives, the next value up saturates to it */
	for (dtype d = DTYPE_E4M3; d <= DTYPE_E5M2; d++) {
		float mx = (float)dtype_max_finite(d), sub = (float)dtype_min_subnormal(d);
		assert_true(dtype_round(d, mx) == mx);
		assert_true(dtype_round(d, mx * 2) == mx);
		assert_true(dtype_round(d, sub) == sub);
		assert_true(dtype_round(d, sub * 0.25f) == 0.0f);
		assert_true(dtype_round(d, 1.0f + (float)dtype_eps(d)) == 1.0f + (float)dtype_eps(d));
		assert_true(dtype_round(d, 1.0f + (float)dtype_eps(d) * 0.25f) == 1.0f);
	}
}

static void test_fmt_placeholders(void **st)
{
	(void)st;
	char buf[32];
	double v;
	assert_int_equal(dtype_fmt_format("fmt.e4m3.max", buf, sizeof buf), 0);
	assert_string_equal(buf, "448");
	assert_int_equal(dtype_fmt_format("fmt.e5m2.max", buf, sizeof buf), 0);
	assert_string_equal(buf, "57344");
	assert_int_equal(dtype_fmt_format("fmt.e4m3.min_normal", buf, sizeof buf), 0);
	assert_string_equal(buf, "0.015625");
	assert_int_equal(dtype_fmt_format("fmt.e4m3.min_subnormal_exp", buf, sizeof buf), 0);
	assert_string_equal(buf, "-9");
	assert_int_equal(dtype_fmt_format("fmt.tf32.eps_exp", buf, sizeof buf), 0);
	assert_string_equal(buf, "-10");
	assert_int_equal(dtype_fmt_format("fmt.tf32.bits", buf, sizeof buf), 0);
	assert_string_equal(buf, "19");
	assert_int_equal(dtype_fmt_format("fmt.bf16.mant_bits", buf, sizeof buf), 0);
	assert_string_equal(buf, "7");
	assert_int_equal(dtype_fmt_value("fmt.e5m2.min_subnormal", &v), 0);
	assert_true(v == 0x1p-16);
	assert_int_equal(dtype_fmt_value("fmt.e4m3.has_inf", &v), 0);
	assert_true(v == 0);
	assert_int_equal(dtype_fmt_value("fmt.e4m3.nope", &v), -1);
	assert_int_equal(dtype_fmt_value("fmt.e3m4.max", &v), -1);
	assert_int_equal(dtype_fmt_value("fmt.none.max", &v), -1);
	assert_int_equal(dtype_fmt_value("fmt.e4m3", &v), -1);
	/* through the model's placeholder keys, as a lesson uses them */
	assert_true(model_known("fmt.e4m3.max"));
	assert_false(model_known("fmt.e4m3.maximum"));
	static model_result mr; /* the format's facts need no lesson, GPU or size */
	model_format(&mr, "fmt.e5m2.max", buf, sizeof buf);
	assert_string_equal(buf, "57344");
	assert_int_equal(model_value(&mr, "fmt.e4m3.min_normal", &v), 0);
	assert_true(v == 0x1p-6);
	const char *help;
	assert_string_equal(dtype_fmt_field(0, &help), "bits");
	assert_null(dtype_fmt_field(99, &help));
}

static void test_scales_and_fill(void **st)
{
	(void)st;
	float v[4] = {0.5f, -2.0f, 1.0f, 1e-9f};
	/* the largest |value| (2) maps to 448: scale 2/448 */
	assert_true(dtype_scale_for(DTYPE_E4M3, v, 4) == (float)(2.0 / 448.0));
	assert_true(dtype_scale_for(DTYPE_E5M2, v, 4) == (float)(2.0 / 57344.0));
	assert_true(dtype_scale_for(DTYPE_BF16, v, 4) == 1.0f);
	assert_true(dtype_scale_for(DTYPE_TF32, v, 4) == 1.0f);
	float zero[2] = {0, 0};
	assert_true(dtype_scale_for(DTYPE_E4M3, zero, 2) == 1.0f);
	uint8_t q[4];
	float real[4];
	float sc = dtype_scale_for(DTYPE_E4M3, v, 4);
	dtype_quantize(DTYPE_E4M3, v, 4, sc, q, real);
	assert_int_equal(q[1], 0xfe);          /* -2 / scale = -448 */
	assert_true(real[1] == -448.0f * sc);  /* what the kernel means: stored x scale */
	assert_int_equal(q[0], 0x6e);          /* 112 = 1.110 x 2^6: 0.1101.110 */
	assert_int_equal(q[3], 0x01);          /* a value that rounds to 0 is kept as the smallest subnormal */
	/* a random e4m3 input: every stored value nonzero and finite, the largest at 448, real = stored x scale */
	rng r;
	rng_seed(&r, 7);
	enum { N = 4096 };
	uint8_t *raw = malloc(N);
	float *re = malloc(N * sizeof(float)), scale = 0;
	dtype_fill(&r, DTYPE_E4M3, raw, re, N, &scale);
	assert_true(scale > 0 && scale < 1.0f / 400); /* max |v| <= 1 */
	int at_max = 0;
	for (int i = 0; i < N; i++) {
		float s = fpconv_fp8_to_f32(raw[i], FPCONV_E4M3);
		assert_true(s != 0 && isfinite(s) && fabsf(s) <= 448.0f);
		assert_true(re[i] == s * scale);
		at_max += fabsf(s) == 448.0f;
	}
	assert_true(at_max >= 1);
	/* a 16-bit type fills as before, scale 1 */
	uint16_t h[8];
	float hf[8];
	dtype_fill(&r, DTYPE_BF16, h, hf, 8, &scale);
	assert_true(scale == 1.0f);
	assert_true(hf[0] == util_bf16_to_f32(h[0]));
	free(raw);
	free(re);
}

static void test_narrow_pairs_and_tolerances(void **st)
{
	(void)st;
	char err[256];
	assert_int_equal(dtype_pair_check(DTYPE_TF32, DTYPE_F32, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_E4M3, DTYPE_F32, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_E4M3, DTYPE_BF16, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_TF32, DTYPE_BF16, err, sizeof err), -1);
	assert_string_equal(err, "tf32 inputs give an f32 output, not bf16 (cuBLAS GemmEx's pairs)");
	assert_int_equal(dtype_pair_check(DTYPE_E4M3, DTYPE_E4M3, err, sizeof err), -1);
	assert_string_equal(err, "e4m3 inputs give an f32 or bf16 output, not e4m3 (cuBLASLt's pairs)");
	/* cuBLASLt has no e5m2 x e5m2 matmul: allowed, checked by the emulator only (gpu/runner.c) */
	assert_int_equal(dtype_pair_check(DTYPE_E5M2, DTYPE_BF16, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_E5M2, DTYPE_F16, err, sizeof err), -1);
	/* tf32: 1e-3 + 4u (u = 2^-11) rounded up; FP8: 1e-2, plus 2u of a bf16 output */
	assert_float_equal(run_tolerance(DTYPE_TF32, DTYPE_F32), 3e-3, 1e-12);
	assert_true(run_tolerance(DTYPE_TF32, DTYPE_F32) >= 1e-3 + 4 * dtype_unit_roundoff(DTYPE_TF32));
	assert_float_equal(run_tolerance(DTYPE_E4M3, DTYPE_F32), 1e-2, 1e-12);
	assert_float_equal(run_tolerance(DTYPE_E4M3, DTYPE_BF16), 2e-2, 1e-12);
}

/* The emulator runs a hand-written e4m3 kernel (tests/data/gemm_fp8.ptx):
 * inputs quantized with their scales, B stored N x K, the scales passed as
 * scale:A scale:B, checked against the CPU reference of the real values. */
static void test_emulator_fp8_and_tf32(void **st)
{
	(void)st;
	char err[512];
	run_request rq;
	memset(&rq, 0, sizeof rq);
	util_path(rq.ptx_path, sizeof rq.ptx_path, "tests/data/gemm_fp8.ptx");
	util_strlcpy(rq.entry, "gemm_e4m3_f32", sizeof rq.entry);
	rq.M = 48, rq.N = 32, rq.K = 80;
	rq.grid[0] = 2, rq.grid[1] = 3, rq.grid[2] = 1;
	rq.block[0] = rq.block[1] = 16, rq.block[2] = 1;
	rq.verify = 1;
	rq.dt = DTYPE_E4M3, rq.out = DTYPE_F32, rq.b_kmajor = 1;
	assert_int_equal(argspec_parse("A B C M N K scale:A scale:B", NULL, &rq.args, err, sizeof err), 0);
	emu_result *er = calloc(1, sizeof *er);
	assert_int_equal(emu_run(&rq, NULL, er, err, sizeof err), EMU_OK);
	assert_int_equal(er->verified, 1);
	/* the products of e4m3 values are exact in f32: only the sums' order and the scales' rounding differ */
	assert_true(er->rel_error < 1e-5);
	/* B read as N x K while the check thinks K x N: wrong */
	rq.b_kmajor = 0;
	assert_int_equal(emu_run(&rq, NULL, er, err, sizeof err), EMU_OK);
	assert_int_equal(er->verified, 0);
	/* the scales left out (1 instead): wrong by their product */
	rq.b_kmajor = 1;
	assert_int_equal(argspec_parse("A B C M N K f32:1 f32:1", NULL, &rq.args, err, sizeof err), 0);
	assert_int_equal(emu_run(&rq, NULL, er, err, sizeof err), EMU_OK);
	assert_int_equal(er->verified, 0);
	/* tf32: f32 inputs, the kernel rounds with cvt.rna.tf32.f32, the check allows it */
	util_strlcpy(rq.entry, "gemm_tf32_f32", sizeof rq.entry);
	rq.dt = DTYPE_TF32, rq.b_kmajor = 0, rq.args = (argspec){0};
	assert_int_equal(emu_run(&rq, NULL, er, err, sizeof err), EMU_OK);
	assert_int_equal(er->verified, 1);
	assert_true(er->rel_error > 0 && er->rel_error < run_tolerance(DTYPE_TF32, DTYPE_F32));
	free(er);
}


/* ---- int8 (issue 39) ---- */

/* s8 inputs, an s32 output: cuBLAS's integer numbers, exact conversions,
 * the poisons NaN, the draw, the only pair, tolerance 0, no alpha:/beta:. */
static void test_int8(void **st)
{
	(void)st;
	assert_int_equal(dtype_of(DTYPE_S8)->cublas_type, CUDA_R_8I);
	assert_int_equal(dtype_of(DTYPE_S32)->cublas_type, CUDA_R_32I);
	assert_int_equal(dtype_of(DTYPE_S8)->cublas_compute, CUBLAS_COMPUTE_32I);
	assert_int_equal(CUDA_R_8I, 3);
	assert_int_equal(CUDA_R_32I, 10);
	assert_int_equal(CUBLAS_COMPUTE_32I, 72);
	/* conversions: exact, rounded to nearest and saturated on the way in */
	int8_t b[4];
	float f[4] = {-127, 3.6f, 1000, -1000}, g[4];
	dtype_from_f32(DTYPE_S8, f, b, 4);
	assert_int_equal(b[0], -127);
	assert_int_equal(b[1], 4);
	assert_int_equal(b[2], 127);
	assert_int_equal(b[3], -127);
	dtype_to_f32(DTYPE_S8, b, g, 4);
	assert_true(g[0] == -127 && g[1] == 4 && g[2] == 127);
	int32_t w[3];
	float v[3] = {16777216, -5, NAN};
	dtype_from_f32(DTYPE_S32, v, w, 3);
	assert_int_equal(w[0], 16777216);
	assert_int_equal(w[1], -5);
	assert_int_equal(w[2], INT32_MIN); /* the poison */
	dtype_to_f32(DTYPE_S32, w, g, 3);
	assert_true(g[0] == 16777216 && g[1] == -5 && isnan(g[2]));
	/* the draw: in [-127, 127], never 0 nor the poison -128, the real values the same */
	rng r;
	rng_seed(&r, 7);
	int8_t in[4096];
	float real[4096], scale;
	dtype_fill(&r, DTYPE_S8, in, real, 4096, &scale);
	int neg = 0;
	for (int i = 0; i < 4096; i++) {
		assert_true(in[i] != 0 && in[i] != -128);
		assert_true(real[i] == (float)in[i]);
		neg += in[i] < 0;
	}
	assert_true(scale == 1.0f && neg > 1800 && neg < 2300);
	/* the pairs: s32, the default output, exact; f32 (GemmEx's CUBLAS_COMPUTE_32F row) */
	char err[200];
	assert_int_equal(dtype_pair_check(DTYPE_S8, DTYPE_S32, err, sizeof err), 0);
	assert_int_equal(dtype_pair_check(DTYPE_S8, DTYPE_F32, err, sizeof err), 0);
	assert_int_equal(dtype_compute(DTYPE_S8, DTYPE_F32), CUBLAS_COMPUTE_32F);
	assert_int_equal(dtype_compute(DTYPE_S8, DTYPE_S32), CUBLAS_COMPUTE_32I);
	assert_true(run_tolerance(DTYPE_S8, DTYPE_F32) == 1e-5);
	assert_int_equal(dtype_pair_check(DTYPE_S8, DTYPE_F16, err, sizeof err), -1);
	assert_string_equal(err, "s8 inputs give an s32 or f32 output, not f16 (cuBLAS GemmEx's pairs)");
	assert_int_equal(dtype_pair_check(DTYPE_S32, DTYPE_S32, err, sizeof err), -1);
	assert_int_equal(dtype_default_out(DTYPE_S8), DTYPE_S32);
	assert_int_equal(dtype_default_out(DTYPE_F16), DTYPE_F32);
	assert_true(run_tolerance(DTYPE_S8, DTYPE_S32) == 0);
	/* alpha: and beta: are refused for integer inputs, not for floats */
	run_request rq;
	memset(&rq, 0, sizeof rq);
	rq.dt = DTYPE_S8;
	assert_int_equal(argspec_parse("M N K alpha:1 A B beta:0 C", NULL, &rq.args, err, sizeof err), 0);
	assert_int_equal(run_check_int_blas(&rq, err, sizeof err), -1);
	assert_non_null(strstr(err, "s8 inputs multiply as C = A*B"));
	rq.dt = DTYPE_F32;
	assert_int_equal(run_check_int_blas(&rq, err, sizeof err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_cuda),
		cmocka_unit_test(test_names_and_pairs),
		cmocka_unit_test(test_bf16_rounding),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_rng_bf16),
		cmocka_unit_test(test_tolerance_per_output_type),
		cmocka_unit_test(test_verify_16bit_outputs),
		cmocka_unit_test(test_cluster_rules),
		cmocka_unit_test(test_lesson_out_and_cluster),
		cmocka_unit_test(test_model_counts_output_bytes),
		cmocka_unit_test(test_emulator_refuses),
		cmocka_unit_test(test_cli_out_and_cluster),
		cmocka_unit_test(test_json_types_and_cluster),
		cmocka_unit_test(test_narrow_rows),
		cmocka_unit_test(test_derived_extremes),
		cmocka_unit_test(test_fmt_placeholders),
		cmocka_unit_test(test_scales_and_fill),
		cmocka_unit_test(test_narrow_pairs_and_tolerances),
		cmocka_unit_test(test_emulator_fp8_and_tf32),
		cmocka_unit_test(test_cli_narrow_types_and_bmajor),
		cmocka_unit_test(test_int8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
