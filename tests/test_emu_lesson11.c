/* test_emu_lesson11: lesson 11's kernels run in the emulator on hand-made inputs and agree with a C reference that rounds the inputs as the format does: gemm_tf32 (cvt.rna to tf32), gemm_3xtf32 (hi + lo), gemm_bf16 from ptx/11_formats.ptx, and gemm_e4m3 / gemm_e5m2 (B stored N x K, scales, bf16 out through TMA, clusters) from ptx/11_fp8.ptx. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_hopper.h"
#include "emu/emu_internal.h"
#include "base/fpconv.h"
#include "base/util.h"

static float bf16_value(uint16_t h) { return fpconv_bits_f32((uint32_t)h << 16); }

/* Deterministic inputs: xorshift, values in [-1, 1) with all 23 mantissa bits used. */
static uint64_t rng_state;
static uint32_t next_u32(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}
static float next_unit(void) { return (float)((double)next_u32() / 2147483648.0 - 1.0); }

/* tf32 as cvt.rna.tf32.f32 makes it, worked here on the bits: round to
 * nearest at bit 13, ties away from zero (no NaN, inf or overflow in these inputs). */
static float rna_tf32(float x)
{
	uint32_t u = fpconv_f32_bits(x);
	return fpconv_bits_f32((u + 0x1000u) & 0xffffe000u);
}

/* bf16 by round to nearest even (cvt.rn.bf16.f32), for the inputs and for C. */
static uint16_t rn_bf16(float x)
{
	uint32_t u = fpconv_f32_bits(x);
	return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

typedef struct {
	emu_module *m;
	emu_opcount *cnt;
	char err[512];
} krun;

/* Loads the entry of a shipped PTX file and runs it with the parameter bytes given. */
static int launch(krun *r, const char *file, const char *entry, const uint8_t *param, emu_buffer *bufs, int nbufs,
		  const unsigned grid[3], unsigned block, unsigned cluster, unsigned smem)
{
	char path[512];
	util_path(path, sizeof path, file);
	r->m = emu_module_load_entry(path, entry, NULL, r->err, sizeof r->err);
	if (!r->m)
		return -1;
	const emu_kernel *k = emu_find_kernel(r->m, entry);
	assert_non_null(k);
	r->cnt = calloc((size_t)k->nops, sizeof *r->cnt);
	if (!cluster) /* the file's */
		cluster = k->reqcluster[0] ? k->reqcluster[0] : 1;
	emu_launch L = {.k = k, .path = file, .grid = {grid[0], grid[1], grid[2]}, .block = {block, 1, 1},
			.cluster = {cluster, 1, 1}, .smem_dynamic = smem, .param = param, .nbufs = nbufs, .cnt = r->cnt};
	for (int i = 0; i < nbufs; i++)
		L.bufs[i] = bufs[i];
	int rc = emu_exec(&L, r->err, sizeof r->err);
	if (!rc && L.races)
		run_error_text(&L.race, r->err, sizeof r->err);
	return rc || L.races ? -1 : 0;
}

static void unload(krun *r)
{
	emu_module_free(r->m);
	free(r->cnt);
}

/* Parameter i of the entry: its offset, checked to have the size expected. */
static int param_at(const emu_module *m, const char *entry, int i, int bytes)
{
	const emu_kernel *k = emu_find_kernel(m, entry);
	assert_true(i < k->nparams);
	assert_int_equal(k->params[i].bytes, bytes);
	return k->params[i].offset;
}

/* ---- ptx/11_formats.ptx ---- */

enum { F_TF32, F_3XTF32, F_BF16 };
static const char *const fentry[] = {"gemm_tf32", "gemm_3xtf32", "gemm_bf16"};

/* What each format makes of an f32 input x: the value(s) the tensor cores multiply. */
static void split(int fmt, float x, double *hi, double *lo)
{
	*lo = 0;
	if (fmt == F_BF16) {
		*hi = bf16_value(rn_bf16(x));
	} else {
		float h = rna_tf32(x);
		*hi = h;
		if (fmt == F_3XTF32)
			*lo = rna_tf32(x - h);
	}
}

/* Runs the entry at M x N x K, checks every element of C against the products
 * of the rounded inputs (3xTF32: hi.lo + lo.hi + hi.hi) accumulated in double,
 * within f32 accumulation's error. Returns the relative error of C against the
 * exact product of the f32 inputs (||C - AB|| / ||AB||) through err_exact. */
static void run_formats(int fmt, int M, int N, int K, double *err_exact)
{
	int es = fmt == F_BF16 ? 2 : 4, bm = 128, bn = fmt == F_BF16 ? 256 : 128;
	unsigned smem = fmt == F_BF16 ? 4 * (128 * 32 + 32 * 256) * 2 : 3 * (128 * 32 + 32 * 128) * 4;
	float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
	uint8_t *A = malloc((size_t)M * K * es), *B = malloc((size_t)K * N * es);
	float *C = malloc(sizeof(float) * M * N);
	rng_state = 0x9e3779b97f4a7c15ULL + (uint64_t)fmt;
	for (int i = 0; i < M * K; i++)
		a[i] = next_unit();
	for (int i = 0; i < K * N; i++)
		b[i] = next_unit();
	for (int i = 0; i < M * K; i++) {
		if (es == 2) {
			uint16_t h = rn_bf16(a[i]);
			memcpy(A + 2 * i, &h, 2);
		} else {
			memcpy(A + 4 * i, &a[i], 4);
		}
	}
	for (int i = 0; i < K * N; i++) {
		if (es == 2) {
			uint16_t h = rn_bf16(b[i]);
			memcpy(B + 2 * i, &h, 2);
		} else {
			memcpy(B + 4 * i, &b[i], 4);
		}
	}
	memset(C, 0xff, sizeof(float) * M * N); /* NaN: an element never written fails */
	krun r;
	uint8_t param[64] = {0};
	emu_buffer bufs[3] = {{A, (uint64_t)M * K * es}, {B, (uint64_t)K * N * es}, {(uint8_t *)C, sizeof(float) * M * N}};
	const char *file = "ptx/11_formats.ptx";
	char path[512];
	util_path(path, sizeof path, file);
	emu_module *m = emu_module_load_entry(path, fentry[fmt], NULL, r.err, sizeof r.err);
	if (!m)
		fail_msg("%s", r.err);
	for (int i = 0; i < 3; i++) {
		uint64_t v = (uint64_t)(i + 1) << EMU_GLOBAL_SHIFT;
		memcpy(param + param_at(m, fentry[fmt], i, 8), &v, 8);
	}
	const uint32_t sizes[3] = {(uint32_t)M, (uint32_t)N, (uint32_t)K};
	for (int i = 0; i < 3; i++)
		memcpy(param + param_at(m, fentry[fmt], 3 + i, 4), &sizes[i], 4);
	emu_module_free(m);
	const unsigned grid[3] = {(unsigned)(N / bn), (unsigned)(M / bm), 1};
	if (launch(&r, file, fentry[fmt], param, bufs, 3, grid, 256, 1, smem) < 0)
		fail_msg("%s: %s", fentry[fmt], r.err);
	unload(&r);
	double num = 0, den = 0;
	int bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double ref = 0, mag = 0, exact = 0;
			for (int k = 0; k < K; k++) {
				double ah, al, bh, bl;
				split(fmt, a[i * K + k], &ah, &al);
				split(fmt, b[k * N + j], &bh, &bl);
				ref += ah * bl + al * bh + ah * bh;
				mag += fabs(ah * bh);
				exact += (double)a[i * K + k] * b[k * N + j];
			}
			double got = C[i * N + j];
			/* f32 accumulation: a rounding of at most 2^-24 of the partial sums a step */
			bad += !(fabs(got - ref) <= 0x1p-18 * mag);
			num += (got - exact) * (got - exact);
			den += exact * exact;
		}
	free(a), free(b), free(A), free(B), free(C);
	if (bad)
		fail_msg("%s at %dx%dx%d: %d elements differ from the rounded inputs' product", fentry[fmt], M, N, K, bad);
	*err_exact = sqrt(num / den);
}

static void test_tf32(void **st)
{
	(void)st;
	double e;
	run_formats(F_TF32, 256, 256, 96, &e);
	/* tf32 keeps 11 significant bits: the error against f32's product is ~2^-12, far above f32's */
	if (!(e > 1e-5 && e < 1e-3))
		fail_msg("gemm_tf32's error against the f32 product is %g", e);
}

static void test_3xtf32(void **st)
{
	(void)st;
	double e;
	run_formats(F_3XTF32, 128, 256, 64, &e);
	/* hi + lo carries 22 bits: the error is f32 accumulation's, a hundred times below tf32's */
	if (!(e < 2e-6))
		fail_msg("gemm_3xtf32's error against the f32 product is %g", e);
}

static void test_bf16(void **st)
{
	(void)st;
	double e;
	run_formats(F_BF16, 256, 256, 64, &e);
	if (!(e > 1e-4 && e < 1e-2))
		fail_msg("gemm_bf16's error against the f32 product is %g", e);
}

/* ---- ptx/11_fp8.ptx ---- */

/* A random 8-bit pattern that is a finite value of the format. */
static uint8_t next_fp8(fpconv_fp8 f)
{
	for (;;) {
		uint8_t v = (uint8_t)next_u32();
		if (isfinite(fpconv_fp8_to_f32(v, f)))
			return v;
	}
}

/* M x N x K with scales 0.5 and 0.25; C (bf16) against the double product of
 * the 8-bit values times the scales, within bf16's rounding. */
static void run_fp8(const char *entry, fpconv_fp8 f, int M, int N, int K, unsigned nclusters)
{
	const float sa = 0.5f, sb = 0.25f;
	uint8_t *A = malloc((size_t)M * K), *B = malloc((size_t)N * K);
	uint16_t *C = malloc(sizeof(uint16_t) * M * N);
	rng_state = 0x243f6a8885a308d3ULL;
	for (int i = 0; i < M * K; i++)
		A[i] = next_fp8(f);
	for (int i = 0; i < N * K; i++)
		B[i] = next_fp8(f); /* N x K: B's column n is row n here */
	memset(C, 0xff, sizeof(uint16_t) * M * N);
	emu_buffer bufs[3] = {{A, (uint64_t)M * K}, {B, (uint64_t)N * K}, {(uint8_t *)C, sizeof(uint16_t) * M * N}};
	/* the args tmap:A:128:128:128B tmap:B:128:64:128B tmap:C:64:64:128B M N K scale:A scale:B */
	emu_tmap tm[3];
	const unsigned boxA[2] = {128, 128}, boxB[2] = {128, 64}, boxC[2] = {64, 64};
	emu_tmap_build(&tm[0], 0, 1, (uint64_t)M, (uint64_t)K, boxA, 3);
	emu_tmap_build(&tm[1], 1, 1, (uint64_t)N, (uint64_t)K, boxB, 3);
	emu_tmap_build(&tm[2], 2, 2, (uint64_t)M, (uint64_t)N, boxC, 3);
	char why[160];
	for (int i = 0; i < 3; i++)
		if (!emu_tmap_check(&tm[i], bufs, 3, why, sizeof why))
			fail_msg("tensor map %d: %s", i, why);
	krun r;
	uint8_t param[512] = {0};
	/* FP8_PTX, FP8_SMEM: a variant of ptx/gen/11_fp8.py and its shared bytes (tests/e2e_fp8_variants.sh) */
	const char *file = getenv("FP8_PTX") ? getenv("FP8_PTX") : "ptx/11_fp8.ptx";
	char path[512];
	util_path(path, sizeof path, file);
	emu_module *m = emu_module_load_entry(path, entry, NULL, r.err, sizeof r.err);
	if (!m)
		fail_msg("%s", r.err);
	for (int i = 0; i < 3; i++)
		memcpy(param + param_at(m, entry, i, 128), &tm[i], sizeof tm[i]);
	const uint32_t sizes[3] = {(uint32_t)M, (uint32_t)N, (uint32_t)K};
	for (int i = 0; i < 3; i++)
		memcpy(param + param_at(m, entry, 3 + i, 4), &sizes[i], 4);
	memcpy(param + param_at(m, entry, 6, 4), &sa, 4);
	memcpy(param + param_at(m, entry, 7, 4), &sb, 4);
	emu_module_free(m);
	/* 384 threads, in clusters as the file asks (.reqnctapercluster; none: 1, as scripts/gpu-lesson11.py
	 * launches it: with clusters of 2 a file built without them has both blocks of a pair compute and
	 * store the same tile, a race between blocks); the shared memory the file's header asks at BN 256, 3 stages */
	unsigned smem = 3 * (128 * 128 + 256 * 128) + 2 * 256 * 64 * 2 + 2 * 3 * 8 + 1024;
	if (getenv("FP8_SMEM"))
		smem = (unsigned)atoi(getenv("FP8_SMEM"));
	const unsigned grid[3] = {2 * nclusters, 1, 1};
	if (launch(&r, file, entry, param, bufs, 3, grid, 384, 0, smem) < 0)
		fail_msg("%s: %s", entry, r.err);
	unload(&r);
	/* the reference's values by their bits, converted once (the conversion was most of the test's time) */
	double val[256];
	for (int v = 0; v < 256; v++)
		val[v] = fpconv_fp8_to_f32((uint8_t)v, f);
	int bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double ref = 0, mag = 0;
			for (int k = 0; k < K; k++) {
				double p = val[A[i * K + k]] * val[B[j * K + k]];
				ref += p;
				mag += fabs(p);
			}
			ref *= (double)sa * sb;
			mag *= (double)sa * sb;
			double got = bf16_value(C[i * N + j]);
			bad += !(fabs(got - ref) <= 0x1p-8 * fabs(ref) + 0x1p-18 * mag);
		}
	free(A), free(B), free(C);
	if (bad)
		fail_msg("%s at %dx%dx%d: %d of %d elements of C wrong", entry, M, N, K, bad, M * N);
}

/* One cluster, one tile pair: the ring, multicast, the scales, the TMA store. */
static void test_e4m3_one_cluster(void **st)
{
	(void)st;
	run_fp8("gemm_e4m3", FPCONV_E4M3, 256, 256, 256, 1);
}

/* Two clusters walking 4 cluster tiles each (persistent loop, overlapped epilogue), K of 3 ring laps. */
static void test_e4m3_persistent(void **st)
{
	(void)st;
	run_fp8("gemm_e4m3", FPCONV_E4M3, 512, 512, 384, 2);
}

static void test_e5m2(void **st)
{
	(void)st;
	run_fp8("gemm_e5m2", FPCONV_E5M2, 256, 512, 256, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tf32),
		cmocka_unit_test(test_3xtf32),
		cmocka_unit_test(test_bf16),
		cmocka_unit_test(test_e4m3_one_cluster),
		cmocka_unit_test(test_e4m3_persistent),
		cmocka_unit_test(test_e5m2),
	};
	/* a variant (FP8_PTX) changes only the FP8 cases: the other formats' are not run again */
	if (getenv("FP8_PTX"))
		cmocka_set_test_filter("test_e*");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
