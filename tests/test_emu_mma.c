/* test_emu_mma: mma.sync m16n8k8 .tf32 and m16n8k16 .bf16 (and .f16) take their fragments where the PTX ISA puts them, compute D = A.B + C exactly when the sums are exact, read a tf32 as its top 19 bits, and the decoder refuses the shapes and types it does not run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "base/fpconv.h"
#include "base/util.h"

/* One warp; lane l's 64 bytes at P + 64 l: A's four registers at +0, B's two
 * at +16, C at +32, and the mma's D stored at +48. */
static const char kernel_fmt[] =
	".version 7.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 P)\n{\n"
	"\t.reg .b32 %%a<4>;\n\t.reg .b32 %%b<2>;\n\t.reg .f32 %%c<4>;\n\t.reg .f32 %%d<4>;\n"
	"\t.reg .u32 %%r1;\n\t.reg .b64 %%rd<3>;\n"
	"\tld.param.u64 %%rd1, [P];\n\tmov.u32 %%r1, %%tid.x;\n"
	"\tmul.wide.u32 %%rd2, %%r1, 64;\n\tadd.u64 %%rd1, %%rd1, %%rd2;\n"
	"\tld.global.v4.b32 {%%a0, %%a1, %%a2, %%a3}, [%%rd1];\n"
	"\tld.global.v2.b32 {%%b0, %%b1}, [%%rd1+16];\n"
	"\tld.global.v4.f32 {%%c0, %%c1, %%c2, %%c3}, [%%rd1+32];\n"
	"\tmma.sync.aligned.%s {%%d0, %%d1, %%d2, %%d3}, {%%a0, %%a1, %%a2, %%a3}, {%%b0, %%b1}, "
	"{%%c0, %%c1, %%c2, %%c3};\n"
	"\tst.global.v4.f32 [%%rd1+48], {%%d0, %%d1, %%d2, %%d3};\n\tret;\n}\n";

enum { T_F16, T_BF16, T_TF32 };

/* The bits of v (exact in the type) as the type stores it. */
static uint32_t bits_of(int t, float v)
{
	switch (t) {
	case T_F16: return util_f32_to_f16(v);
	case T_BF16: return fpconv_f32_bits(v) >> 16;
	default: return fpconv_f32_bits(v);
	}
}

/* Small values every type holds exactly, whose products and sums of up to 16
 * terms are exact in f32: the result cannot depend on the order of the sum. */
static int tiny; /* test_bf16_product_below_f32: one product of 2^-75 by 2^-75, C 2^-149 */
static float aval(int m, int k) { return tiny ? (m || k ? 0.0f : 0x1p-75f) : (float)((m * 7 + k * 3) % 11 - 5) / 4; }
static float bval(int k, int n) { return tiny ? (k || n ? 0.0f : 0x1p-75f) : (float)((k * 5 + n * 3) % 9 - 4) / 2; }
static float cval(int m, int n) { return tiny ? 0x1p-149f : (float)(m - 2 * n); }

typedef struct {
	uint8_t P[32 * 64];
	char err[256];
} mrun;

/* Packs A, B and C by the fragment layouts of PTX ISA 9.7.14.5.7 ("Matrix
 * Fragments for mma.m16n8k8", .tf32) and 9.7.14.5.8 (mma.m16n8k16, 16-bit
 * types), with groupID g = lane >> 2 and threadID_in_group t = lane % 4,
 * runs insn, returns -1 with err on failure. lowbits: ORed into every tf32
 * element's low 13 bits. */
static int run_mma(mrun *r, const char *shape, int type, uint32_t lowbits)
{
	memset(r->P, 0, sizeof r->P);
	for (int l = 0; l < 32; l++) {
		int g = l >> 2, t = l % 4;
		uint32_t a[4] = {0}, b[2] = {0};
		if (type == T_TF32) {
			/* a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4); b0 (t, g), b1 (t+4, g) */
			static const int ar[4] = {0, 8, 0, 8}, ac[4] = {0, 0, 4, 4};
			for (int i = 0; i < 4; i++)
				a[i] = bits_of(type, aval(g + ar[i], t + ac[i])) | lowbits;
			b[0] = bits_of(type, bval(t, g)) | lowbits;
			b[1] = bits_of(type, bval(t + 4, g)) | lowbits;
		} else {
			/* a_i: row g + 8 for a2,a3 and a6,a7; column 2t + (i & 1), + 8 for a4..a7; two per register, low first */
			for (int i = 0; i < 8; i++) {
				int row = g + 8 * ((i / 2) % 2), col = 2 * t + (i & 1) + 8 * (i / 4);
				a[i / 2] |= bits_of(type, aval(row, col)) << (16 * (i & 1));
			}
			/* b_i: row 2t + (i & 1), + 8 for b2,b3; column g */
			for (int i = 0; i < 4; i++)
				b[i / 2] |= bits_of(type, bval(2 * t + (i & 1) + 8 * (i / 2), g)) << (16 * (i & 1));
		}
		memcpy(r->P + 64 * l, a, 16);
		memcpy(r->P + 64 * l + 16, b, 8);
		for (int i = 0; i < 4; i++) { /* c_i: row g (+8 for c2, c3), column 2t + (i & 1) */
			float c = cval(g + 8 * (i / 2), 2 * t + (i & 1));
			memcpy(r->P + 64 * l + 32 + 4 * i, &c, 4);
		}
	}
	char text[2048];
	snprintf(text, sizeof text, kernel_fmt, shape);
	emu_module *m = emu_module_parse("mma.ptx", text, NULL, r->err, sizeof r->err);
	if (!m)
		return -1;
	static emu_opcount cnt[32];
	memset(cnt, 0, sizeof cnt);
	assert_true(m->k[0].nops <= 32);
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	emu_launch L = {.k = &m->k[0], .path = "mma.ptx", .grid = {1, 1, 1}, .block = {32, 1, 1},
			.param = (const uint8_t *)&p, .bufs = {{r->P, sizeof r->P}}, .nbufs = 1, .cnt = cnt};
	emu_error e = emu_exec(&L, r->err, sizeof r->err);
	emu_module_free(m);
	return e ? -1 : 0;
}

/* D's elements as the lanes stored them against A.B + C in double: the number that differ. */
static int wrong(const mrun *r, int K)
{
	int bad = 0;
	for (int l = 0; l < 32; l++)
		for (int i = 0; i < 4; i++) {
			int row = (l >> 2) + 8 * (i / 2), col = 2 * (l % 4) + (i & 1);
			double ref = cval(row, col);
			for (int k = 0; k < K; k++)
				ref += (double)aval(row, k) * bval(k, col);
			float got;
			memcpy(&got, r->P + 64 * l + 48 + 4 * i, 4);
			bad += got != ref;
		}
	return bad;
}

static void check(const char *shape, int type, int K, uint32_t lowbits)
{
	mrun r;
	if (run_mma(&r, shape, type, lowbits) < 0)
		fail_msg("%s: %s", shape, r.err);
	int bad = wrong(&r, K);
	if (bad)
		fail_msg("%s (low bits 0x%x): %d of 128 elements of D wrong", shape, lowbits, bad);
}

static void test_tf32_m16n8k8(void **st)
{
	(void)st;
	check("m16n8k8.row.col.f32.tf32.tf32.f32", T_TF32, 8, 0);
}

/* The low 13 bits of a tf32 operand are ignored (emu_mma_elem): junk there
 * changes nothing; were they read as f32, D would differ. */
static void test_tf32_low_bits_ignored(void **st)
{
	(void)st;
	check("m16n8k8.row.col.f32.tf32.tf32.f32", T_TF32, 8, 0x1fff);
}

static void test_bf16_m16n8k16(void **st)
{
	(void)st;
	check("m16n8k16.row.col.f32.bf16.bf16.f32", T_BF16, 16, 0);
}

static void test_f16_m16n8k16(void **st)
{
	(void)st;
	check("m16n8k16.row.col.f32.f16.f16.f32", T_F16, 16, 0);
}

/* A product below f32's range is not exact in f32: 2^-75 * 2^-75 = 2^-150, half the
 * least subnormal, and D = C + A.B rounds once (fmaf): 2^-149 + 2^-150 is a tie, to
 * even, 2^-148. Rounding the product first (to 0, a tie too) would leave 2^-149. */
static void test_bf16_product_below_f32(void **st)
{
	(void)st;
	mrun r;
	tiny = 1;
	int rc = run_mma(&r, "m16n8k16.row.col.f32.bf16.bf16.f32", T_BF16, 0);
	tiny = 0;
	if (rc < 0)
		fail_msg("%s", r.err);
	for (int l = 0; l < 32; l++)
		for (int i = 0; i < 4; i++) {
			float got, want = l == 0 && i == 0 ? 0x1p-148f : 0x1p-149f;
			memcpy(&got, r.P + 64 * l + 48 + 4 * i, 4);
			if (got != want)
				fail_msg("lane %d, d%d: %a, want %a", l, i, (double)got, (double)want);
		}
}

/* Shapes, types and their pairs the emulator does not run are refused by name. */
static void test_refused(void **st)
{
	(void)st;
	static const char *const bad[] = {
		"m16n8k8.row.col.f32.bf16.bf16.f32",   /* bf16 k8: not run */
		"m16n8k16.row.col.f32.tf32.tf32.f32",  /* tf32 is k8 */
		"m16n8k16.row.col.f32.f16.bf16.f32",   /* A and B differ */
		"m16n8k8.row.col.f32.tf32.f16.f32",
		"m16n8k4.row.col.f32.tf32.tf32.f32",   /* no such shape here */
		"m16n8k16.col.row.f32.f16.f16.f32",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		mrun r;
		if (run_mma(&r, bad[i], T_F16, 0) == 0)
			fail_msg("%s ran", bad[i]);
		if (!strstr(r.err, "unsupported instruction"))
			fail_msg("%s: %s", bad[i], r.err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tf32_m16n8k8),
		cmocka_unit_test(test_tf32_low_bits_ignored),
		cmocka_unit_test(test_bf16_m16n8k16),
		cmocka_unit_test(test_f16_m16n8k16),
		cmocka_unit_test(test_bf16_product_below_f32),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
