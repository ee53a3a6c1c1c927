/* test_emu_wgmma: the emulator's wgmma — descriptors and swizzles worked by hand, operand layouts, types, the async hazard rules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "emu/emu_wgmma.h"
#include "base/util.h"
#include "run/run.h"

/* ---- the descriptor, by hand (PTX ISA 9.7.15.5.1.2.2) ---- */

static void test_desc_decode(void **state)
{
	(void)state;
	/* lesson 9's B: start 0x2400 (>> 4 = 0x240), leading 8192 (0x200 << 16), stride 1024 (0x40 << 32), 128-byte swizzle */
	emu_wg_desc d = emu_wg_desc_decode(0x4000004002000240ULL);
	assert_int_equal(d.start, 0x2400);
	assert_int_equal(d.lbo, 8192);
	assert_int_equal(d.sbo, 1024);
	assert_int_equal(d.base, 0);
	assert_int_equal(d.swizzle, 1);
	/* base offset 5 in bits 49-51, 32-byte swizzle (3), start field all ones: 0x3fff << 4 */
	d = emu_wg_desc_decode((3ULL << 62) | (5ULL << 49) | 0x3fffULL);
	assert_int_equal(d.start, 0x3fff0);
	assert_int_equal(d.base, 5);
	assert_int_equal(d.swizzle, 3);
	assert_int_equal(d.lbo, 0);
	/* the unused bits 14-15, 30-31, 46-48, 52-61 are ignored */
	d = emu_wg_desc_decode(0x3ff00000c000c000ULL | (7ULL << 46));
	assert_int_equal(d.start, 0);
	assert_int_equal(d.lbo, 0);
	assert_int_equal(d.sbo, 0);
	assert_int_equal(d.base, 0);
	assert_int_equal(d.swizzle, 0);
}

/* Byte addresses of single f16 elements worked out from the PTX ISA's figures. */
static void test_desc_addresses(void **state)
{
	(void)state;
	emu_wg_desc none = {.start = 0, .lbo = 256, .sbo = 512, .swizzle = 0};
	/* K-major core matrices: row 1 is 16 bytes on, k 9 is in the second core matrix (LBO) at element 1 */
	assert_int_equal(emu_wg_desc_addr(&none, 1, 9, 2, 0), 16 + 256 + 2);
	assert_int_equal(emu_wg_desc_addr(&none, 9, 0, 2, 0), 512 + 16); /* row 9: next 8-row group (SBO) */
	/* MN-major core matrices: n 9 is in the second (SBO) at element 1, k 9 in the next 8 k (LBO), row 1 of it */
	assert_int_equal(emu_wg_desc_addr(&none, 9, 9, 2, 1), 512 + 2 + 256 + 16);

	emu_wg_desc s128 = {.start = 0, .lbo = 16, .sbo = 1024, .swizzle = 1};
	/* K-major 128-byte rows: row 1, chunk 0 is stored at chunk 0 ^ 1 = 1 */
	assert_int_equal(emu_wg_desc_addr(&s128, 1, 0, 2, 0), 128 + 16);
	assert_int_equal(emu_wg_desc_addr(&s128, 1, 8, 2, 0), 128);      /* chunk 1 -> 0 */
	assert_int_equal(emu_wg_desc_addr(&s128, 7, 3, 2, 0), 7 * 128 + 7 * 16 + 6); /* chunk 0 -> 7 */
	assert_int_equal(emu_wg_desc_addr(&s128, 9, 0, 2, 0), 1024 + 128 + 16);       /* row 9 = row 1 of atom 1 */
	/* MN-major: k-row 1, n 9 = chunk 1 -> chunk 0, element 1 */
	assert_int_equal(emu_wg_desc_addr(&s128, 9, 1, 2, 1), 128 + 2);
	emu_wg_desc s128b = s128;
	s128b.lbo = 8192;
	assert_int_equal(emu_wg_desc_addr(&s128b, 64, 0, 2, 1), 8192); /* n 64: the next 64 columns (LBO) */
	assert_int_equal(emu_wg_desc_addr(&s128b, 0, 8, 2, 1), 1024);  /* k 8: the next 8 k-rows (SBO) */

	emu_wg_desc s64 = {.start = 0, .sbo = 512, .swizzle = 2};
	assert_int_equal(emu_wg_desc_addr(&s64, 1, 0, 2, 0), 64);       /* rows 0-1 share phase 0 */
	assert_int_equal(emu_wg_desc_addr(&s64, 2, 0, 2, 0), 128 + 16); /* row 2: phase 1 */
	assert_int_equal(emu_wg_desc_addr(&s64, 7, 8, 2, 0), 7 * 64 + 16 * (1 ^ 3));

	emu_wg_desc s32 = {.start = 0, .sbo = 256, .swizzle = 3};
	assert_int_equal(emu_wg_desc_addr(&s32, 3, 0, 2, 0), 96);       /* rows 0-3: phase 0 */
	assert_int_equal(emu_wg_desc_addr(&s32, 4, 0, 2, 0), 128 + 16); /* rows 4-7: chunks swap */
	assert_int_equal(emu_wg_desc_addr(&s32, 4, 8, 2, 0), 128);

	/* a pattern that starts at 128 bytes (row 1 of the 1024-byte pattern): base offset 1 */
	emu_wg_desc based = {.start = 128, .sbo = 1024, .base = 1, .swizzle = 1};
	assert_int_equal(emu_wg_desc_addr(&based, 0, 0, 2, 0), 128);      /* its row 0: no XOR */
	assert_int_equal(emu_wg_desc_addr(&based, 1, 0, 2, 0), 256 + 16); /* its row 1 */
	/* tf32 (4 bytes, T = 4): K-major no swizzle, k 5 is the second core matrix, element 1 */
	assert_int_equal(emu_wg_desc_addr(&none, 0, 5, 4, 0), 256 + 4);
}

/* An f16 operand's value: every bit pattern as util_f16_to_f32 reads it (the emulator
 * has its normal numbers inline), the same bits, NaNs included. */
static void test_f16_values(void **state)
{
	(void)state;
	for (uint32_t h = 0; h < 65536; h++) {
		float a = emu_mma_elem(WG_F16, h), b = util_f16_to_f32((uint16_t)h);
		uint32_t ua, ub;
		memcpy(&ua, &a, 4), memcpy(&ub, &b, 4);
		if (ua != ub)
			fail_msg("f16 0x%04x: 0x%08x, util_f16_to_f32 0x%08x", h, ua, ub);
	}
}

/* What the emulator's operand reads rely on (emu_wgmma.c, gather): in every layout the
 * 16 / eb elements of a 16-byte chunk along the major dimension lie at consecutive
 * addresses from a 16-byte boundary. Every element of every descriptor field's corner
 * and of random ones, against emu_wg_desc_addr element by element. */
static void test_desc_chunks(void **state)
{
	(void)state;
	srand(7);
	int checked = 0;
	for (int it = 0; it < 400; it++) {
		uint64_t bits = (uint64_t)rand() << 33 ^ (uint64_t)rand() << 11 ^ (uint64_t)rand();
		if (it < 8) /* the corners: every field all zeros, then all ones */
			bits = it % 2 ? ~0ULL : 0;
		emu_wg_desc d = emu_wg_desc_decode(bits);
		d.swizzle = it % 4;
		for (int eb = 1; eb <= 4; eb *= 2)
			for (int mn_major = 0; mn_major < 2; mn_major++) {
				int T = 16 / eb, K = 2 * T; /* a wgmma's K is two chunks of each type */
				for (int mn = 0; mn < 64; mn += mn_major ? T : 1)
					for (int k = 0; k < K; k += mn_major ? 1 : T) {
						uint32_t a = emu_wg_desc_addr(&d, mn, k, eb, mn_major);
						assert_int_equal(a % 16, 0);
						for (int j = 1; j < T; j++, checked++)
							assert_int_equal(emu_wg_desc_addr(&d, mn + (mn_major ? j : 0),
											  k + (mn_major ? 0 : j), eb, mn_major),
									 a + (uint32_t)(j * eb));
					}
			}
	}
	assert_true(checked > 1000000);
}

/* ---- kernels ---- */

enum { T_F16, T_BF16, T_TF32, T_E4M3, T_E5M2 };

typedef struct {
	int n, k, atype, d16;        /* N, K, input type, f16 accumulators */
	int a_regs;                  /* A from registers */
	int trans_a, trans_b;
	int swz_a, swz_b;            /* descriptor swizzle modes: 0 none, 1 128B, 2 64B, 3 32B */
	int lay_b;                   /* 1 + the swizzle the host lays B out with (a wrong descriptor); 0: as swz_b */
	int scale_d, scale_a, scale_b;
	int no_fence, early_read, threads; /* no_fence: 1 no wgmma.fence, 2 one before C is loaded (too early) */
	int proxy;                   /* fence.proxy.async: 0 before the bar.sync, 1 none, 2 after it (too late) */
	int skew;                    /* 1: B's descriptor + warp (differs across the warpgroup); 2: warp 3 skips the wgmma */
	int repeat;                  /* the wgmma this many times (0: once) before the commit */
	uint64_t bdesc;              /* B's descriptor, if not 0 (a hostile one) */
} kspec;

static const char *const tnames[] = {"f16", "bf16", "tf32", "e4m3", "e5m2"};
static const int tbytes[] = {2, 2, 4, 1, 1};

/* Buffer P: the shared image (32 KiB: A at 0, B at 8192), the descriptors,
 * A's register fragments, C in, D out (both in the fragment's row-major place). */
#define SMEM 32768
#define DESC 32768
#define AREG 32784
#define CIN 36864
#define DOUT 102400
#define PBYTES 172032

static size_t emit(char *t, size_t n, size_t at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t emit(char *t, size_t n, size_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(t + at, n - at, fmt, ap);
	va_end(ap);
	assert_true(w >= 0 && at + (size_t)w < n);
	return at + (size_t)w;
}

static int nacc(const kspec *s) { return s->d16 ? s->n / 4 : s->n / 2; }

/* Byte offset of accumulator register i from the thread's (row 16w+g, column 2t) element. */
static int acc_off(const kspec *s, int i)
{
	int e = s->d16 ? 2 * i : i, eb = s->d16 ? 2 : 4;
	return (8 * ((e / 2) % 2) * s->n + 8 * (e / 4) + e % 2) * eb;
}

/* The PTX of one wgmma test: copy the image into shared memory, load C, fence, wgmma, wait, store D. */
static void kernel_text(const kspec *s, char *t, size_t n)
{
	size_t at = 0;
	int eb = s->d16 ? 2 : 4, nd = nacc(s), sixteen = s->atype <= T_BF16;
	at = emit(t, n, at, ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry wg(.param .u64 P)\n{\n"
		  "\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<8>;\n\t.reg .b32 %%d<128>;\n\t.reg .b32 %%a<4>;\n"
		  "\t.reg .pred %%p, %%p1;\n\t.shared .align 1024 .b8 sm[%d];\n", SMEM);
	at = emit(t, n, at, "\tld.param.u64 %%rd0, [P];\n\tmov.u32 %%r0, %%tid.x;\n\tmov.u32 %%r1, 0;\n"
		  "COPY:\n\tmad.lo.u32 %%r2, %%r1, %d, %%r0;\n\tshl.b32 %%r3, %%r2, 2;\n\tcvt.u64.u32 %%rd1, %%r3;\n"
		  "\tadd.u64 %%rd2, %%rd0, %%rd1;\n\tld.global.u32 %%r4, [%%rd2];\n\tmov.u32 %%r5, sm;\n"
		  "\tadd.u32 %%r5, %%r5, %%r3;\n\tst.shared.u32 [%%r5], %%r4;\n\tadd.u32 %%r1, %%r1, 1;\n"
		  "\tsetp.lt.u32 %%p, %%r1, %d;\n\t@%%p bra COPY;\n%s\tbar.sync 0;\n%s",
		  s->threads, SMEM / 4 / s->threads, s->proxy == 0 ? "\tfence.proxy.async.shared::cta;\n" : "",
		  s->proxy == 2 ? "\tfence.proxy.async.shared::cta;\n" : "");
	at = emit(t, n, at, "\tld.global.u64 %%rd3, [%%rd0+%d];\n\tld.global.u64 %%rd4, [%%rd0+%d];\n", DESC, DESC + 8);
	/* the thread's place in D: row 16 * warp + g, column 2t */
	at = emit(t, n, at, "\tshr.u32 %%r6, %%r0, 5;\n\tand.b32 %%r7, %%r0, 31;\n\tshr.u32 %%r8, %%r7, 2;\n"
		  "\tand.b32 %%r9, %%r7, 3;\n\tmad.lo.u32 %%r10, %%r6, 16, %%r8;\n\tmul.lo.u32 %%r10, %%r10, %d;\n"
		  "\tmad.lo.u32 %%r10, %%r9, 2, %%r10;\n\tmul.lo.u32 %%r10, %%r10, %d;\n\tcvt.u64.u32 %%rd5, %%r10;\n"
		  "\tadd.u64 %%rd6, %%rd0, %%rd5;\n\tmul.wide.u32 %%rd7, %%r0, 16;\n\tadd.u64 %%rd7, %%rd0, %%rd7;\n",
		  s->n, eb);
	for (int i = 0; i < 4; i++)
		at = emit(t, n, at, "\tld.global.b32 %%a%d, [%%rd7+%d];\n", i, AREG + 4 * i);
	if (s->no_fence == 2)
		at = emit(t, n, at, "\twgmma.fence.sync.aligned;\n");
	for (int i = 0; i < nd; i++)
		at = emit(t, n, at, "\tld.global.b32 %%d%d, [%%rd6+%d];\n", i, CIN + acc_off(s, i));
	if (s->skew == 1)
		at = emit(t, n, at, "\tcvt.u64.u32 %%rd1, %%r6;\n\tadd.u64 %%rd4, %%rd4, %%rd1;\n");
	at = emit(t, n, at, "\tmov.u32 %%r11, %d;\n\tsetp.ne.u32 %%p, %%r11, 0;\n", s->scale_d);
	if (!s->no_fence)
		at = emit(t, n, at, "\twgmma.fence.sync.aligned;\n");
	if (s->skew == 2) /* a guard that is false on every lane of warp 3 */
		at = emit(t, n, at, "\tsetp.ne.u32 %%p1, %%r6, 3;\n\t@%%p1 ");
	for (int rep = 0; rep < (s->repeat ? s->repeat : 1); rep++) {
		at = emit(t, n, at, "\twgmma.mma_async.sync.aligned.m64n%dk%d.%s.%s.%s\n\t\t{", s->n, s->k,
			  s->d16 ? "f16" : "f32", tnames[s->atype], tnames[s->atype]);
		for (int i = 0; i < nd; i++)
			at = emit(t, n, at, "%s%%d%d", i ? ", " : "", i);
		at = emit(t, n, at, "},\n\t\t%s, %%rd4, %%p, %d, %d", s->a_regs ? "{%a0, %a1, %a2, %a3}" : "%rd3",
			  s->scale_a, s->scale_b);
		if (sixteen && !s->a_regs)
			at = emit(t, n, at, ", %d", s->trans_a);
		if (sixteen)
			at = emit(t, n, at, ", %d", s->trans_b);
		at = emit(t, n, at, ";\n");
	}
	at = emit(t, n, at, "\twgmma.commit_group.sync.aligned;\n");
	if (s->early_read)
		at = emit(t, n, at, "\tst.global.b32 [%%rd6+%d], %%d0;\n", DOUT);
	at = emit(t, n, at, "\twgmma.wait_group.sync.aligned 0;\n");
	for (int i = 0; i < nd; i++)
		at = emit(t, n, at, "\tst.global.b32 [%%rd6+%d], %%d%d;\n", DOUT + acc_off(s, i), i);
	emit(t, n, at, "\tret;\n}\n");
}

/* ---- the host's side: values, their bits, where the layouts put them ---- */

static int aval(int m, int k) { return (m * 37 + k * 11 + 5) % 9 - 4; }  /* -4..4: exact in every type */
static int bval(int k, int n) { return (k * 13 + n * 29 + 3) % 9 - 4; }

static uint32_t bits_of(int type, int v)
{
	static const uint8_t e4m3[] = {0x00, 0x38, 0x40, 0x44, 0x48}; /* 0..4 */
	static const uint8_t e5m2[] = {0x00, 0x3c, 0x40, 0x42, 0x44};
	float f = (float)v;
	uint32_t u;
	memcpy(&u, &f, 4);
	switch (type) {
	case T_F16: return util_f32_to_f16(f);
	case T_BF16: return u >> 16;
	case T_TF32: return u;
	case T_E4M3: return (uint32_t)e4m3[abs(v)] | (v < 0 ? 0x80u : 0);
	default: return (uint32_t)e5m2[abs(v)] | (v < 0 ? 0x80u : 0);
	}
}

/* Where element (mn, k) of a tile goes, from the pictures of the PTX ISA (9.7.15.5.1.2) and lesson 9:
 * swizzled, rows of W bytes (a row holds one mn's k run, K-major, or one k's mn run, MN-major) in
 * atoms of 8 rows, the 16-byte chunk c of row r stored at c ^ (r mod 8) * W / 128; not swizzled,
 * core matrices of 8 rows x 16 bytes. LBO and SBO as the descriptor of put() says. */
static uint32_t place(int swz, int mn_major, int mn, int k, int eb, uint32_t lbo, uint32_t sbo)
{
	static const int W[] = {16, 128, 64, 32};
	int w = W[swz];
	if (!swz) {
		if (!mn_major)
			return (uint32_t)(mn / 8) * sbo + (uint32_t)(k * eb / 16) * lbo + (uint32_t)(mn % 8 * 16 + k * eb % 16);
		return (uint32_t)(mn * eb / 16) * sbo + (uint32_t)(k / 8) * lbo + (uint32_t)(k % 8 * 16 + mn * eb % 16);
	}
	int row, byte;
	uint32_t at;
	if (!mn_major) {
		row = mn % 8;
		byte = k * eb;
		at = (uint32_t)(mn / 8) * sbo;
	} else {
		int per = w / eb; /* mn in a row */
		row = k % 8;
		byte = mn % per * eb;
		at = (uint32_t)(mn / per) * lbo + (uint32_t)(k / 8) * sbo;
	}
	int chunk = (byte / 16) ^ (row * w / 128);
	return at + (uint32_t)(row * w + chunk * 16 + byte % 16);
}

/* LBO and SBO for a tile: tight packing. */
static void strides(int swz, int mn_major, int mnext, int kext, int eb, uint32_t *lbo, uint32_t *sbo)
{
	static const int W[] = {16, 128, 64, 32};
	if (!swz) {
		/* K-major: k chunks of 128 bytes, then 8-row groups; MN-major: mn chunks, then 8-k groups */
		*lbo = 128;
		*sbo = (uint32_t)(kext * eb / 16) * 128;
		if (mn_major) {
			*sbo = 128;
			*lbo = (uint32_t)(mnext * eb / 16) * 128;
		}
		return;
	}
	*sbo = (uint32_t)(8 * W[swz]);
	*lbo = mn_major ? (uint32_t)(W[swz] * ((kext + 7) / 8 * 8)) : 16;
}

static uint64_t desc_of(uint32_t start, uint32_t lbo, uint32_t sbo, int swz)
{
	return (uint64_t)(start >> 4) | (uint64_t)(lbo >> 4) << 16 | (uint64_t)(sbo >> 4) << 32 | (uint64_t)swz << 62;
}

static void put(uint8_t *p, uint32_t at, int type, int v)
{
	uint32_t b = bits_of(type, v);
	memcpy(p + at, &b, (size_t)tbytes[type]);
}

typedef struct {
	uint8_t *P;
	char err[512];
	emu_error rc;
	emu_opcount cnt[1024];
	int nops, wg_op;
	double *ref;                /* 64 x N */
} wrun;

static int cval(int m, int n) { return (m * 7 + n * 3) % 5 - 2; }

/* Lays A, B, A's fragments and C out, runs the kernel, computes the reference. */
static void run_spec(const kspec *s0, wrun *r)
{
	kspec s = *s0;
	s.n = s.n ? s.n : 16;
	s.k = s.k ? s.k : 16;
	if (!s.threads)
		s.threads = 128;
	if (!s.scale_a)
		s.scale_a = 1;
	if (!s.scale_b)
		s.scale_b = 1;
	int eb = tbytes[s.atype], N = s.n, K = s.k;
	memset(r, 0, sizeof *r);
	r->P = calloc(1, PBYTES);
	r->ref = calloc((size_t)64 * N, sizeof *r->ref);
	assert_non_null(r->P);
	uint32_t la, sa, lb, sb;
	strides(s.swz_a, s.trans_a, 64, K, eb, &la, &sa);
	strides(s.swz_b, s.trans_b, N, K, eb, &lb, &sb);
	int lay_b = s.lay_b ? s.lay_b - 1 : s.swz_b;
	for (int m = 0; m < 64; m++)
		for (int k = 0; k < K; k++)
			put(r->P, place(s.swz_a, s.trans_a, m, k, eb, la, sa), s.atype, aval(m, k));
	for (int k = 0; k < K; k++)
		for (int n = 0; n < N; n++)
			put(r->P, 8192 + place(lay_b, s.trans_b, n, k, eb, lb, sb), s.atype, bval(k, n));
	uint64_t da = desc_of(0, la, sa, s.swz_a), db = s.bdesc ? s.bdesc : desc_of(8192, lb, sb, s.swz_b);
	memcpy(r->P + DESC, &da, 8);
	memcpy(r->P + DESC + 8, &db, 8);
	/* A's register fragments, as the PTX ISA's figures for m64nNk16/k8/k32 place them */
	for (int tid = 0; tid < 128; tid++) {
		int w = tid / 32, g = tid % 32 / 4, t = tid % 4;
		uint32_t regs[4] = {0};
		for (int i = 0; i < 4; i++) {
			int per = 4 / eb < 1 ? 1 : 4 / eb; /* elements per register */
			for (int h = 0; h < per; h++) {
				int e = i * per + h, row, col;
				if (K == 16) {
					row = g + 8 * (e / 2 % 2);
					col = 2 * t + e % 2 + 8 * (e / 4);
				} else if (K == 8) {
					row = g + 8 * (e % 2);
					col = t + 4 * (e / 2);
				} else {
					row = g + 8 * (e / 4 % 2);
					col = 4 * t + e % 4 + 16 * (e / 8);
				}
				regs[i] |= bits_of(s.atype, aval(16 * w + row, col)) << (8 * eb * h);
			}
		}
		memcpy(r->P + AREG + 16 * tid, regs, 16);
	}
	/* C in the same place D goes; the reference */
	for (int m = 0; m < 64; m++)
		for (int n = 0; n < N; n++) {
			float c = (float)cval(m, n);
			if (s.d16) {
				uint16_t h = util_f32_to_f16(c);
				memcpy(r->P + CIN + (m * N + n) * 2, &h, 2);
			} else {
				memcpy(r->P + CIN + (m * N + n) * 4, &c, 4);
			}
			double acc = s.scale_d ? c : 0;
			for (int k = 0; k < K; k++)
				acc += (double)s.scale_a * s.scale_b * aval(m, k) * bval(k, n);
			r->ref[m * N + n] = acc;
		}
	char text[65536];
	kernel_text(&s, text, sizeof text);
	emu_module *mod = emu_module_parse("wg.ptx", text, &r->rc, r->err, sizeof r->err);
	if (!mod)
		return;
	const emu_kernel *k = &mod->k[0];
	assert_true(k->nops <= 1024);
	r->nops = k->nops;
	for (int i = 0; i < k->nops; i++)
		if (k->ops[i].code == OP_WGMMA)
			r->wg_op = i;
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	emu_launch L = {.k = k, .path = "wg.ptx", .grid = {1, 1, 1}, .block = {(unsigned)s.threads, 1, 1},
			.param = (const uint8_t *)&p, .bufs = {{r->P, PBYTES}}, .nbufs = 1, .cnt = r->cnt};
	r->rc = emu_exec(&L, r->err, sizeof r->err);
	emu_module_free(mod);
}

/* D as the kernel stored it against the reference: the number of elements that differ. */
static int mismatches(const kspec *s, const wrun *r)
{
	int bad = 0;
	for (int m = 0; m < 64; m++)
		for (int n = 0; n < s->n; n++) {
			double got;
			if (s->d16) {
				uint16_t h;
				memcpy(&h, r->P + DOUT + (m * s->n + n) * 2, 2);
				got = util_f16_to_f32(h);
			} else {
				float f;
				memcpy(&f, r->P + DOUT + (m * s->n + n) * 4, 4);
				got = f;
			}
			bad += !(got == r->ref[m * s->n + n]);
		}
	return bad;
}

static void done(wrun *r)
{
	free(r->P);
	free(r->ref);
}

/* Runs a spec that must compute D exactly. */
static void exact(kspec s)
{
	s.n = s.n ? s.n : 16;
	s.k = s.k ? s.k : 16;
	wrun r;
	run_spec(&s, &r);
	if (r.rc)
		fail_msg("m64n%dk%d %s: %s", s.n, s.k, tnames[s.atype], r.err);
	int bad = mismatches(&s, &r);
	if (bad)
		fail_msg("m64n%dk%d %s swizzle %d/%d trans %d/%d: %d of %d elements wrong", s.n, s.k, tnames[s.atype], s.swz_a,
			 s.swz_b, s.trans_a, s.trans_b, bad, 64 * s.n);
	done(&r);
}

#define SPEC(...) ((kspec){__VA_ARGS__})

static void test_swizzle_modes(void **state)
{
	(void)state;
	for (int swz = 0; swz < 4; swz++) {
		exact(SPEC(.swz_a = swz, .swz_b = swz));
		exact(SPEC(.n = 64, .swz_a = swz, .swz_b = swz, .scale_d = 1));
	}
}

static void test_transposed(void **state)
{
	(void)state;
	for (int swz = 0; swz < 4; swz++) {
		exact(SPEC(.n = 64, .swz_a = 1, .swz_b = swz, .trans_b = 1));            /* B N-major: lesson 9's B */
		exact(SPEC(.n = 32, .swz_a = swz, .swz_b = 1, .trans_a = 1, .scale_d = 1)); /* A M-major */
	}
}

static void test_a_from_registers(void **state)
{
	(void)state;
	exact(SPEC(.n = 32, .a_regs = 1, .swz_b = 1, .scale_d = 1));
	exact(SPEC(.n = 8, .a_regs = 1, .swz_b = 0, .trans_b = 1));
	exact(SPEC(.n = 16, .k = 8, .atype = T_TF32, .a_regs = 1, .swz_b = 1));
	exact(SPEC(.n = 16, .k = 32, .atype = T_E4M3, .a_regs = 1, .swz_b = 2));
}

static void test_types(void **state)
{
	(void)state;
	exact(SPEC(.n = 24, .atype = T_BF16, .swz_a = 1, .swz_b = 1, .scale_d = 1));
	exact(SPEC(.n = 16, .d16 = 1, .swz_a = 1, .swz_b = 3, .scale_d = 1));                    /* f16 accumulators */
	exact(SPEC(.n = 40, .k = 8, .atype = T_TF32, .swz_a = 1, .swz_b = 2, .scale_d = 1));
	exact(SPEC(.n = 16, .k = 32, .atype = T_E4M3, .swz_a = 1, .swz_b = 1));
	exact(SPEC(.n = 16, .k = 32, .atype = T_E5M2, .d16 = 1, .swz_a = 3, .swz_b = 0, .scale_d = 1));
	exact(SPEC(.n = 256, .swz_a = 0, .swz_b = 0, .scale_d = 1));                             /* 128 accumulators */
	exact(SPEC(.n = 16, .swz_a = 1, .swz_b = 1, .scale_a = -1, .scale_d = 1));              /* imm-scale-a */
	exact(SPEC(.n = 16, .swz_a = 1, .swz_b = 1, .scale_b = -1));
}

/* m64n8k16 with random f16 inputs against a scalar double reference. */
static void scalar_reference(int nans)
{
	kspec s = SPEC(.n = 8, .k = 16, .swz_a = 1, .swz_b = 1, .scale_d = 1);
	wrun r;
	run_spec(&s, &r);
	assert_int_equal(r.rc, EMU_OK);
	/* random halves in [-1, 1] over the integers run_spec laid out: A and B as f16 in place */
	uint32_t la, sa, lb, sb;
	strides(1, 0, 64, 16, 2, &la, &sa);
	strides(1, 0, 8, 16, 2, &lb, &sb);
	uint64_t x = 88172645463325252ULL;
	double A[64][16], B[16][8];
	float Af[64][16], Bf[16][8];
	for (int m = 0; m < 64; m++)
		for (int k = 0; k < 16; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint16_t h = util_f32_to_f16((float)((double)(x >> 11) / 9007199254740992.0 * 2 - 1));
			if (nans && (m * 16 + k) % 37 == 5) /* quiet NaNs of different payloads */
				h = (uint16_t)(0x7e00 | (m * 16 + k) % 0x1ff);
			A[m][k] = util_f16_to_f32(h);
			Af[m][k] = A[m][k];
			memcpy(r.P + place(1, 0, m, k, 2, la, sa), &h, 2);
		}
	for (int k = 0; k < 16; k++)
		for (int n = 0; n < 8; n++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint16_t h = util_f32_to_f16((float)((double)(x >> 11) / 9007199254740992.0 * 2 - 1));
			if (nans && (k * 8 + n) % 11 == 3)
				h = (uint16_t)(0xfe00 | (k * 8 + n + 77) % 0x1ff);
			B[k][n] = util_f16_to_f32(h);
			Bf[k][n] = B[k][n];
			memcpy(r.P + 8192 + place(1, 0, n, k, 2, lb, sb), &h, 2);
		}
	char text[65536], err[512];
	s.threads = 128;
	s.scale_a = s.scale_b = 1;
	kernel_text(&s, text, sizeof text);
	emu_module *mod = emu_module_parse("wg.ptx", text, NULL, err, sizeof err);
	if (!mod)
		fail_msg("%s", err);
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	emu_launch L = {.k = &mod->k[0], .path = "wg.ptx", .grid = {1, 1, 1}, .block = {128, 1, 1},
			.param = (const uint8_t *)&p, .bufs = {{r.P, PBYTES}}, .nbufs = 1, .cnt = r.cnt};
	assert_int_equal(emu_exec(&L, err, sizeof err), EMU_OK);
	for (int m = 0; m < 64; m++)
		for (int n = 0; n < 8; n++) {
			double ref = cval(m, n);
			for (int k = 0; k < 16; k++)
				ref += A[m][k] * B[k][n];
			float got;
			memcpy(&got, r.P + DOUT + (m * 8 + n) * 4, 4);
			if (nans) { /* the sum in k order in f32, as the emulator computes it: the same bits, NaNs' too */
				float acc = (float)cval(m, n), sign = 1.0f;
				for (int k = 0; k < 16; k++)
					acc += sign * Af[m][k] * Bf[k][n];
				uint32_t ug, ur;
				memcpy(&ug, &got, 4), memcpy(&ur, &acc, 4);
				if (ug != ur)
					fail_msg("D[%d][%d] = 0x%08x, reference 0x%08x", m, n, ug, ur);
			} else if (fabs(got - ref) > 1e-5 * (1 + fabs(ref))) {
				fail_msg("D[%d][%d] = %.9g, reference %.9g", m, n, (double)got, ref);
			}
		}
	emu_module_free(mod);
	done(&r);
}

static void test_scalar_reference(void **state)
{
	(void)state;
	scalar_reference(0);
}

/* NaN operands: the outputs they reach are NaN with the bits the sum in k order gives. */
static void test_nan_operands(void **state)
{
	(void)state;
	scalar_reference(1);
}

static void test_counts(void **state)
{
	(void)state;
	kspec s = SPEC(.n = 64, .k = 16, .swz_a = 1, .swz_b = 1);
	wrun r;
	run_spec(&s, &r);
	assert_int_equal(r.rc, EMU_OK);
	const emu_opcount *c = &r.cnt[r.wg_op];
	assert_int_equal(c->issued, 4);                   /* one per warp */
	assert_int_equal(c->wg_inst, 1);                  /* one warpgroup instruction */
	assert_int_equal(c->wg_flops, 2 * 64 * 64 * 16);
	assert_int_equal(c->wg_bytes, 64 * 16 * 2 + 64 * 16 * 2);  /* A 64x16 and B 16x64 halves */
	done(&r);
	s.a_regs = 1;                                      /* A from registers reads no shared memory */
	run_spec(&s, &r);
	assert_int_equal(r.rc, EMU_OK);
	assert_int_equal(r.cnt[r.wg_op].wg_bytes, 64 * 16 * 2);
	done(&r);
}

/* ---- broken kernels ---- */

static void expect_fault(kspec s, const char *what, int line_of_op)
{
	wrun r;
	run_spec(&s, &r);
	assert_int_equal(r.rc, EMU_ERR_FAULT);
	if (!strstr(r.err, what))
		fail_msg("expected '%s' in: %s", what, r.err);
	(void)line_of_op;
	done(&r);
}

static void test_read_before_wait(void **state)
{
	(void)state;
	kspec s = SPEC(.n = 16, .k = 16, .swz_a = 1, .swz_b = 1, .early_read = 1);
	wrun r;
	run_spec(&s, &r);
	assert_int_equal(r.rc, EMU_ERR_FAULT);
	/* the store's line, and the wgmma's */
	char text[65536];
	s.threads = 128;
	s.scale_a = s.scale_b = 1;
	kernel_text(&s, text, sizeof text);
	int line = 1, st_line = 0, wg_line = 0;
	for (const char *p = text; *p; p++) {
		if (!wg_line && !strncmp(p, "\twgmma.mma_async", 16))
			wg_line = line;
		if (!st_line && !strncmp(p, "\tst.global.b32", 14))
			st_line = line;
		line += *p == '\n';
	}
	char want[64];
	snprintf(want, sizeof want, "wg.ptx:%d: reads a register", st_line);
	if (!strstr(r.err, want))
		fail_msg("expected '%s' in: %s", want, r.err);
	snprintf(want, sizeof want, "wgmma.mma_async at line %d", wg_line);
	if (!strstr(r.err, want))
		fail_msg("expected '%s' in: %s", want, r.err);
	done(&r);
}

static void test_missing_fence(void **state)
{
	(void)state;
	expect_fault(SPEC(.swz_a = 1, .swz_b = 1, .no_fence = 1), "wg.ptx:57: wgmma.mma_async with no "
		     "wgmma.fence.sync.aligned before it: the warpgroup's first wgmma needs one", 0);
	/* the fence, then C loaded into the accumulators (line 48 loads d0): the fence must come after */
	expect_fault(SPEC(.swz_a = 1, .swz_b = 1, .no_fence = 2), "wg.ptx:58: wgmma.mma_async uses accumulator register "
		     "0, accessed at line 48 with no wgmma.fence.sync.aligned after it", 0);
}

/* Operands written by st.shared reach wgmma (the async proxy) only through
 * the writers' fence.proxy.async before the bar.sync: none, or one after the
 * bar.sync (warp 1 has not fenced when warp 0 issues), is named with the st's line. */
static void test_missing_proxy_fence(void **state)
{
	(void)state;
	expect_fault(SPEC(.swz_a = 1, .swz_b = 1, .proxy = 1), "which the st at line 23 (warp 0) wrote with no "
		     "fence.proxy.async after it", 0);
	expect_fault(SPEC(.swz_a = 1, .swz_b = 1, .proxy = 2), "which the st at line 23 (warp 1) wrote with no "
		     "fence.proxy.async after it", 0);
}

/* .sync.aligned: the warps of a warpgroup give the same descriptors and all issue each wgmma. */
static void test_aligned(void **state)
{
	(void)state;
	expect_fault(SPEC(.swz_a = 1, .swz_b = 1, .skew = 1), "give this wgmma.mma_async different descriptors", 0);
	expect_fault(SPEC(.swz_a = 1, .swz_b = 1, .skew = 2), "warp 0 issued 1 wgmma.mma_async but warp 3 of its "
		     "warpgroup 0", 0);
}

/* A hostile descriptor (start, LBO and SBO at their largest) reads nothing outside the block's shared memory. */
static void test_hostile_descriptor(void **state)
{
	(void)state;
	expect_fault(SPEC(.swz_a = 1, .bdesc = 0x3fff3fff3fffULL), "outside the block's 32768 bytes", 0);
	expect_fault(SPEC(.swz_a = 1, .bdesc = 0xffffffffffffffffULL), "outside the block's 32768 bytes", 0);
}

/* The wgmmas of a warp in flight are bounded: each holds its results. */
static void test_in_flight_limit(void **state)
{
	(void)state;
	exact(SPEC(.swz_a = 1, .swz_b = 1, .repeat = 64)); /* scale-d false: each of the 64 gives D = A*B */
	expect_fault(SPEC(.swz_a = 1, .swz_b = 1, .repeat = 65), "more than 64 wgmma.mma_async of warp 0 in flight", 0);
}

static void test_partial_warpgroup(void **state)
{
	(void)state;
	expect_fault(SPEC(.swz_a = 1, .swz_b = 1, .threads = 64), "needs a whole warpgroup of 128 threads", 0);
}

/* Data laid out with the 128-byte swizzle, read through a 64-byte descriptor: wrong, and the check sees it. */
static void test_wrong_swizzle(void **state)
{
	(void)state;
	for (int lay = 0; lay < 4; lay++) {
		kspec s = SPEC(.n = 64, .k = 16, .swz_a = 1, .swz_b = (lay + 1) % 4, .lay_b = lay + 1);
		wrun r;
		run_spec(&s, &r);
		assert_int_equal(r.rc, EMU_OK);
		assert_true(mismatches(&s, &r) > 0);
		done(&r);
	}
}

static void test_parse_errors(void **state)
{
	(void)state;
	static const struct {
		const char *insn;
		emu_error why;
		const char *msg;
	} cases[] = {
		{"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2}, %rd3, %rd4, 1, 1, 1, 0, 0",
		 EMU_ERR_PARSE, "takes 4 accumulator registers, got 3"},
		{"wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {%d0}, %rd3, %rd4, 1, 1, 1, 0, 0",
		 EMU_ERR_UNSUPPORTED, "unsupported instruction"},
		{"wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%d0, %d1}, %rd3, %rd4, 1, 1, 1, 0, 0",
		 EMU_ERR_UNSUPPORTED, "m64nNk16 f16/bf16"},
		{"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %rd3, %rd4, 1, 2, 1, 0, 0",
		 EMU_ERR_PARSE, "imm-scale-a must be 1 or -1"},
		{"wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%d0, %d1, %d2, %d3}, %rd3, %rd4, 1, 1, 1, 0, 0",
		 EMU_ERR_PARSE, "takes 6 operands, got 8"},
		{"wgmma.wait_group.sync.aligned %r1", EMU_ERR_PARSE, "wgmma.wait_group takes an integer"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[2048], err[512];
		snprintf(text, sizeof text,
			 ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry wg()\n{\n"
			 "\t.reg .b32 %%d<8>;\n\t.reg .b32 %%r<2>;\n\t.reg .b64 %%rd<8>;\n\t%s;\n\tret;\n}\n", cases[i].insn);
		emu_error why = EMU_OK;
		emu_module *m = emu_module_parse("p.ptx", text, &why, err, sizeof err);
		assert_null(m);
		assert_int_equal(why, cases[i].why);
		if (!strstr(err, cases[i].msg) || !strstr(err, "p.ptx:9:"))
			fail_msg("case %zu: expected 'p.ptx:9:' and '%s' in: %s", i, cases[i].msg, err);
	}
}

/* ---- lesson 9's consumer: one k-tile, as its TMA boxes lay it out ---- */

#define L9_SMEM 40960   /* A: 64 rows x 128 B; B: 4 boxes of 64 k-rows x 128 B */
#define L9_DOUT 40960
#define L9_BYTES (L9_DOUT + 64 * 256 * 4)

/* ptx/09_wgmma.ptx's @descriptors and @wgmma for one warpgroup and one k-tile of 64:
 * the same descriptor words, four m64n256k16 with the descriptors advanced between. */
static void l9_text(char *t, size_t n)
{
	size_t at = emit(t, n, 0, ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry l9(.param .u64 P)\n{\n"
			 "\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<8>;\n\t.reg .f32 %%d<128>;\n\t.reg .pred %%p, %%one;\n"
			 "\t.reg .u32 %%lo, %%hi;\n\t.reg .b64 %%descA, %%descB;\n\t.shared .align 1024 .b8 sm[%d];\n"
			 "\tld.param.u64 %%rd0, [P];\n\tmov.u32 %%r0, %%tid.x;\n\tmov.u32 %%r1, 0;\n"
			 "COPY:\n\tmad.lo.u32 %%r2, %%r1, 128, %%r0;\n\tshl.b32 %%r3, %%r2, 2;\n\tcvt.u64.u32 %%rd1, %%r3;\n"
			 "\tadd.u64 %%rd2, %%rd0, %%rd1;\n\tld.global.u32 %%r4, [%%rd2];\n\tmov.u32 %%r5, sm;\n"
			 "\tadd.u32 %%r5, %%r5, %%r3;\n\tst.shared.u32 [%%r5], %%r4;\n\tadd.u32 %%r1, %%r1, 1;\n"
			 "\tsetp.lt.u32 %%p, %%r1, %d;\n\t@%%p bra COPY;\n\tfence.proxy.async.shared::cta;\n\tbar.sync 0;\n",
			 L9_SMEM, L9_SMEM / 512);
	at = emit(t, n, at, "\tmov.u32 %%r6, sm;\n\tadd.u32 %%r7, %%r6, 8192;\n"
		  "\tshr.u32 %%lo, %%r6, 4;\n\tor.b32 %%lo, %%lo, 0x10000;\n\tmov.u32 %%hi, 0x40000040;\n"
		  "\tmov.b64 %%descA, {%%lo, %%hi};\n\tshr.u32 %%lo, %%r7, 4;\n\tor.b32 %%lo, %%lo, 0x2000000;\n"
		  "\tmov.b64 %%descB, {%%lo, %%hi};\n\tsetp.ne.u32 %%p, %%r0, %%r0;\n\tsetp.eq.u32 %%one, %%r0, %%r0;\n"
		  "\twgmma.fence.sync.aligned;\n");
	for (int j = 0; j < 4; j++) {
		if (j)
			at = emit(t, n, at, "\tadd.s64 %%descA, %%descA, 2;\n\tadd.s64 %%descB, %%descB, 128;\n");
		at = emit(t, n, at, "\twgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {");
		for (int i = 0; i < 128; i++)
			at = emit(t, n, at, "%s%%d%d", i ? ", " : "", i);
		at = emit(t, n, at, "}, %%descA, %%descB, %s, 1, 1, 0, 1;\n", j ? "%one" : "%p");
	}
	at = emit(t, n, at, "\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n"
		  "\tshr.u32 %%r8, %%r0, 5;\n\tand.b32 %%r9, %%r0, 31;\n\tshr.u32 %%r10, %%r9, 2;\n\tand.b32 %%r11, %%r9, 3;\n"
		  "\tmad.lo.u32 %%r12, %%r8, 16, %%r10;\n\tshl.b32 %%r12, %%r12, 8;\n\tmad.lo.u32 %%r12, %%r11, 2, %%r12;\n"
		  "\tmul.wide.u32 %%rd3, %%r12, 4;\n\tadd.u64 %%rd3, %%rd0, %%rd3;\n");
	for (int i = 0; i < 128; i++)
		at = emit(t, n, at, "\tst.global.f32 [%%rd3+%d], %%d%d;\n", L9_DOUT + (8 * (i / 2 % 2) * 256 + 8 * (i / 4) + i % 2) * 4, i);
	emit(t, n, at, "\tret;\n}\n");
}

/* The tiles as lesson 9 draws TMA's 128-byte swizzle: chunk c of row r at c ^ (r mod 8);
 * A 64 rows of 64 halves, B 4 boxes of 64 columns, 64 k-rows each. */
static void test_lesson9_consumer(void **state)
{
	(void)state;
	uint8_t *P = calloc(1, L9_BYTES);
	assert_non_null(P);
	for (int m = 0; m < 64; m++)
		for (int k = 0; k < 64; k++)
			put(P, (uint32_t)(m * 128 + ((k / 8) ^ (m % 8)) * 16 + k % 8 * 2), T_F16, aval(m, k));
	for (int k = 0; k < 64; k++)
		for (int n = 0; n < 256; n++)
			put(P, (uint32_t)(8192 + n / 64 * 8192 + k * 128 + ((n % 64 / 8) ^ (k % 8)) * 16 + n % 8 * 2), T_F16,
			    bval(k, n));
	static char text[200000];
	l9_text(text, sizeof text);
	char err[512];
	emu_module *mod = emu_module_parse("l9.ptx", text, NULL, err, sizeof err);
	if (!mod)
		fail_msg("%s", err);
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	emu_opcount *cnt = calloc((size_t)mod->k[0].nops, sizeof *cnt);
	emu_launch L = {.k = &mod->k[0], .path = "l9.ptx", .grid = {1, 1, 1}, .block = {128, 1, 1},
			.param = (const uint8_t *)&p, .bufs = {{P, L9_BYTES}}, .nbufs = 1, .cnt = cnt};
	if (emu_exec(&L, err, sizeof err))
		fail_msg("%s", err);
	for (int m = 0; m < 64; m++)
		for (int n = 0; n < 256; n++) {
			double ref = 0;
			for (int k = 0; k < 64; k++)
				ref += aval(m, k) * bval(k, n);
			float got;
			memcpy(&got, P + L9_DOUT + (m * 256 + n) * 4, 4);
			if (got != ref)
				fail_msg("D[%d][%d] = %g, want %g", m, n, (double)got, ref);
		}
	free(cnt);
	emu_module_free(mod);
	free(P);
}

/* ---- a whole GEMM through emu_run: tests/emu/wgmma.ptx ---- */

/* Runs tests/emu/wgmma.ptx, with one edit to its text when from is not NULL. */
static emu_error run_gemm(long long M, long long N, long long K, const char *from, const char *to, emu_result *res,
			  char *err, int errlen)
{
	char path[512];
	util_path(path, sizeof path, "tests/emu/wgmma.ptx");
	size_t len;
	char rerr[256];
	char *text = util_read_file(path, &len, rerr, sizeof rerr);
	assert_non_null(text);
	if (from) {
		char *at = strstr(text, from);
		assert_non_null(at);
		size_t nf = strlen(from), nt = strlen(to);
		char *edited = malloc(len + nt + 1);
		assert_non_null(edited);
		memcpy(edited, text, (size_t)(at - text));
		memcpy(edited + (at - text), to, nt);
		strcpy(edited + (at - text) + nt, at + nf);
		free(text);
		text = edited;
	}
	emu_error why = EMU_OK;
	emu_module *m = emu_module_parse(path, text, &why, err, errlen);
	free(text);
	if (!m)
		return why;
	run_request rq;
	memset(&rq, 0, sizeof rq);
	util_strlcpy(rq.ptx_path, path, sizeof rq.ptx_path);
	util_strlcpy(rq.entry, "gemm_wgmma", sizeof rq.entry);
	rq.dt = DTYPE_F16;
	rq.M = M;
	rq.N = N;
	rq.K = K;
	rq.grid[0] = (unsigned)(N / 64);
	rq.grid[1] = (unsigned)(M / 64);
	rq.grid[2] = 1;
	rq.block[0] = 128;
	rq.block[1] = rq.block[2] = 1;
	rq.verify = 1;
	emu_options opt = {.module = m};
	why = emu_run(&rq, &opt, res, err, errlen);
	emu_module_free(m);
	return why;
}

static void test_gemm(void **state)
{
	(void)state;
	static const long long sizes[][3] = {{64, 64, 16}, {128, 128, 128}, {192, 128, 48}, {64, 256, 32}};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		long long M = sizes[i][0], N = sizes[i][1], K = sizes[i][2];
		emu_result res;
		char err[512];
		if (run_gemm(M, N, K, NULL, NULL, &res, err, sizeof err))
			fail_msg("%s", err);
		assert_int_equal(res.verified, 1);
		assert_true(res.rel_error < 1e-5); /* exact f16 products, f32 sums */
		long long insts = M / 64 * (N / 64) * (K / 16);
		assert_int_equal(res.total.wgmma.inst, insts);
		assert_int_equal(res.total.wgmma.flops, 2 * M * N * K);
		/* each instruction reads A 64x16 and B 16x64 halves: 2 KiB each, 32 wavefronts */
		assert_int_equal(res.total.wgmma.smem_bytes, insts * 4096);
		assert_int_equal(res.total.wgmma.smem_wavefronts, insts * 32);
		assert_int_equal(res.total.inst[EMU_CLS_MMA], insts * 4 * 4); /* fence, mma, commit, wait per warp */
	}
}

/* The kernel's broken variants: each caught, with its line. */
static void test_gemm_broken(void **state)
{
	(void)state;
	emu_result res;
	char err[512];
	/* A's descriptor says 64-byte swizzle for data laid out with the 32-byte one: a wrong answer, caught by the check */
	assert_int_equal(run_gemm(128, 128, 64, "0xC0000010", "0x80000010", &res, err, sizeof err), EMU_OK);
	assert_int_equal(res.verified, 0);
	/* no wait, one k-slice: the epilogue reads an accumulator of the wgmma in flight */
	assert_int_equal(run_gemm(64, 64, 16, "\twgmma.wait_group.sync.aligned 0;\n", "", &res, err, sizeof err),
			 EMU_ERR_FAULT);
	if (!strstr(err, "reads a register that the wgmma.mma_async at line 87 holds"))
		fail_msg("%s", err);
	/* no wgmma.fence at all */
	assert_int_equal(run_gemm(64, 64, 32, "\twgmma.fence.sync.aligned;", "", &res, err, sizeof err), EMU_ERR_FAULT);
	if (!strstr(err, "wgmma.ptx:87: wgmma.mma_async with no wgmma.fence.sync.aligned before it"))
		fail_msg("%s", err);
	/* no wait: the next slice's st.shared overwrites the tile the wgmma may still be reading */
	assert_int_equal(run_gemm(64, 64, 32, "\twgmma.wait_group.sync.aligned 0;\n", "", &res, err, sizeof err),
			 EMU_ERR_FAULT);
	if (!strstr(err, "wgmma.ptx:77: writes shared bytes 0..15, which the wgmma.mma_async at line 87 (warp 0) reads "
			 "as A and has not completed"))
		fail_msg("%s", err);
	/* no fence.proxy.async after the st.shared: caught at the wgmma that reads the bytes */
	assert_int_equal(run_gemm(64, 64, 32, "\tfence.proxy.async.shared::cta;", "", &res, err, sizeof err),
			 EMU_ERR_FAULT);
	if (!strstr(err, "wgmma.ptx:87: shared-memory race (proxy): wgmma.mma_async reads A's element (0, 0) at shared offset 0, which the st at "
			 "line 77 (warp 0) wrote with no fence.proxy.async after it"))
		fail_msg("%s", err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_desc_decode),
		cmocka_unit_test(test_desc_addresses),
		cmocka_unit_test(test_desc_chunks),
		cmocka_unit_test(test_f16_values),
		cmocka_unit_test(test_swizzle_modes),
		cmocka_unit_test(test_transposed),
		cmocka_unit_test(test_a_from_registers),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_scalar_reference),
		cmocka_unit_test(test_nan_operands),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_read_before_wait),
		cmocka_unit_test(test_missing_fence),
		cmocka_unit_test(test_missing_proxy_fence),
		cmocka_unit_test(test_aligned),
		cmocka_unit_test(test_hostile_descriptor),
		cmocka_unit_test(test_in_flight_limit),
		cmocka_unit_test(test_partial_warpgroup),
		cmocka_unit_test(test_wrong_swizzle),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_lesson9_consumer),
		cmocka_unit_test(test_gemm),
		cmocka_unit_test(test_gemm_broken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
