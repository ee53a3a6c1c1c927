/* test_emu_wmma: wmma.load/store/mma (issue 39): every fragment lands where emu_wmma_frag_pos says, which is the GPU's mapping (tests/wmma-layout-sm90.tsv), and round-trips through store in either layout, one mma of every form, shape and layout computes D = A.B + C exactly, .satfinite clamps, the counts (ptxas's accesses) and the budget, the refusals, and nvcc's s8 WMMA GEMM against an integer reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "emu/emu_wmma.h"
#include "base/fpconv.h"
#include "base/util.h"

static const char *const tname[WMT_NTYPES] = {"f16", "bf16", "tf32", "s8", "u8", "f32", "s32"};
static const int tbytes[WMT_NTYPES] = {2, 2, 4, 1, 1, 4, 4};

static const struct {
	const char *name;
	int m, n, k;
} shapes[] = {{"m16n16k16", 16, 16, 16}, {"m32n8k16", 32, 8, 16}, {"m8n32k16", 8, 32, 16}, {"m16n16k8", 16, 16, 8}};

/* ---- a one-warp kernel over four buffers P0..P3 ---- */

#define BUF 65536

typedef struct {
	uint8_t buf[4][BUF];
	char err[512];
	emu_opcount cnt[64];
	int nops;
	long long budget;
} wrun;

static void vec(char *out, size_t n, const char *reg, int count)
{
	size_t at = (size_t)snprintf(out, n, "{");
	for (int i = 0; i < count; i++)
		at += (size_t)snprintf(out + at, n - at, "%s%%%s%d", i ? ", " : "", reg, i);
	snprintf(out + at, n - at, "}");
}

/* Runs body (PTX with %rd0..%rd3 holding P0..P3) on one warp of `threads`
 * lanes: EMU_OK or why not, with r->err. */
static emu_error run(wrun *r, const char *body, unsigned threads)
{
	char text[8192];
	snprintf(text, sizeof text,
		 ".version 7.0\n.target sm_80\n.address_size 64\n"
		 ".visible .entry k(.param .u64 P0, .param .u64 P1, .param .u64 P2, .param .u64 P3)\n{\n"
		 "\t.reg .b32 %%a<8>;\n\t.reg .b32 %%b<8>;\n\t.reg .b32 %%c<8>;\n\t.reg .b32 %%d<8>;\n"
		 "\t.reg .b64 %%rd<8>;\n\t.reg .u32 %%t<4>;\n"
		 "\tld.param.u64 %%rd0, [P0];\n\tld.param.u64 %%rd1, [P1];\n"
		 "\tld.param.u64 %%rd2, [P2];\n\tld.param.u64 %%rd3, [P3];\n%s\tret;\n}\n", body);
	emu_error why = EMU_OK;
	emu_module *m = emu_module_parse("wmma.ptx", text, &why, r->err, sizeof r->err);
	if (!m)
		return why ? why : EMU_ERR_PARSE;
	assert_true(m->k[0].nops <= 64);
	r->nops = m->k[0].nops;
	memset(r->cnt, 0, sizeof r->cnt);
	uint64_t p[4];
	for (int i = 0; i < 4; i++)
		p[i] = (uint64_t)(i + 1) << EMU_GLOBAL_SHIFT;
	emu_launch L = {.k = &m->k[0], .path = "wmma.ptx", .grid = {1, 1, 1}, .block = {threads, 1, 1},
			.param = (const uint8_t *)p, .nbufs = 4, .cnt = r->cnt, .max_warp_inst = r->budget};
	for (int i = 0; i < 4; i++)
		L.bufs[i] = (emu_buffer){r->buf[i], BUF};
	emu_error e = emu_exec(&L, r->err, sizeof r->err);
	emu_module_free(m);
	return e;
}

/* ---- element values ---- */

/* Distinct bits per position for the layout tests: index i of the matrix, in the type's width. */
static uint32_t tag(int eb, int i)
{
	return eb == 1 ? (uint32_t)(i % 251 + 1) : eb == 2 ? (uint32_t)(i + 1) : (uint32_t)(i * 7 + 1);
}

static void put(uint8_t *p, int eb, uint32_t v) { memcpy(p, &v, (size_t)eb); }

static uint32_t get(const uint8_t *p, int eb)
{
	uint32_t v = 0;
	memcpy(&v, p, (size_t)eb);
	return v;
}

/* Small values every type holds exactly, whose products and sums are exact in f32 and f16. */
static double aval(int t, int m, int k)
{
	int v = (m * 7 + k * 3) % 11;
	return t == WMT_U8 ? v : t == WMT_S8 ? v - 5 : (v - 5) / 4.0;
}
static double bval(int t, int k, int n)
{
	int v = (k * 5 + n * 3) % 9;
	return t == WMT_U8 ? v : t == WMT_S8 ? v - 4 : (v - 4) / 2.0;
}
static double cval(int m, int n) { return m - 2 * n; }

static uint32_t enc(int t, double v)
{
	switch (t) {
	case WMT_F16: return util_f32_to_f16((float)v);
	case WMT_BF16: return fpconv_f32_bits((float)v) >> 16;
	case WMT_TF32: case WMT_F32: return fpconv_f32_bits((float)v);
	default: return (uint32_t)(int32_t)v;
	}
}

static double dec(int t, uint32_t v)
{
	switch (t) {
	case WMT_F16: return util_f16_to_f32((uint16_t)v);
	case WMT_F32: return fpconv_bits_f32(v);
	default: return (int32_t)v;
	}
}

/* Element (r, c) of a rows x cols matrix at p, row- or column-major with the stride ld. */
static uint8_t *at(uint8_t *p, int col_major, int ld, int eb, int r, int c)
{
	return p + (size_t)(col_major ? c * ld + r : r * ld + c) * (size_t)eb;
}

/* A stride with 32 more bytes than the matrix needs: the rows are not packed. */
static int stride_of(int col_major, int rows, int cols, int eb) { return (col_major ? rows : cols) + 32 / eb; }

/* ---- layouts ---- */

/* wmma.load.a/b: each lane's registers hold what emu_wmma_frag_pos says, f16's repeats included. */
static void test_load_ab_layout(void **st)
{
	(void)st;
	static wrun r;
	static const int ab_types[] = {WMT_F16, WMT_BF16, WMT_S8, WMT_U8, WMT_TF32};
	int runs = 0;
	for (size_t s = 0; s < 4; s++)
		for (int which = WM_LOAD_A; which <= WM_LOAD_B; which++)
			for (size_t ti = 0; ti < 5; ti++)
				for (int colm = 0; colm < 2; colm++) {
					int t = ab_types[ti];
					emu_wmma_frag f;
					if (emu_wmma_frag_of(which, shapes[s].m, shapes[s].n, shapes[s].k, t, &f) < 0)
						continue;
					int eb = tbytes[t], ld = stride_of(colm, f.rows, f.cols, eb);
					memset(&r, 0, sizeof r);
					for (int i = 0; i < f.rows; i++)
						for (int j = 0; j < f.cols; j++)
							put(at(r.buf[0], colm, ld, eb, i, j), eb, tag(eb, i * f.cols + j));
					char regs[256], body[2048];
					vec(regs, sizeof regs, "a", f.nregs);
					size_t n = (size_t)snprintf(body, sizeof body,
						"\twmma.load.%c.sync.aligned.%s.%s.global.%s %s, [%%rd0], %d;\n"
						"\tmov.u32 %%t0, %%tid.x;\n\tmul.wide.u32 %%rd4, %%t0, 32;\n"
						"\tadd.u64 %%rd4, %%rd4, %%rd1;\n", which == WM_LOAD_A ? 'a' : 'b',
						colm ? "col" : "row", shapes[s].name, tname[t], regs, ld);
					for (int i = 0; i < f.nregs; i++)
						n += (size_t)snprintf(body + n, sizeof body - n,
								      "\tst.global.b32 [%%rd4+%d], %%a%d;\n", 4 * i, i);
					if (run(&r, body, 32) != EMU_OK)
						fail_msg("%s %c %s %s: %s", shapes[s].name, which == WM_LOAD_A ? 'a' : 'b',
							 tname[t], colm ? "col" : "row", r.err);
					for (int l = 0; l < 32; l++)
						for (int e = 0; e < f.nregs * f.per_reg; e++) {
							int row, col;
							emu_wmma_frag_pos(&f, l, e, &row, &col);
							uint32_t want = tag(eb, row * f.cols + col);
							uint32_t got = get(r.buf[1] + 32 * l + 4 * (e / f.per_reg) + eb * (e % f.per_reg), eb);
							if (got != want)
								fail_msg("%s %c %s %s: lane %d element %d is 0x%x, want (%d, %d)'s 0x%x",
									 shapes[s].name, which == WM_LOAD_A ? 'a' : 'b', tname[t],
									 colm ? "col" : "row", l, e, got, row, col, want);
						}
					runs++;
				}
	assert_int_equal(runs, 4 * 2 * 3 * 2 + 2 * 2); /* three shapes x A, B x 4 types x 2 layouts; tf32 */
}

/* wmma.load.c then wmma.store.d, each layout to each: the matrix comes back whole (and transposed in
 * memory where the layouts differ); the registers in between hold it as emu_wmma_frag_pos says. */
static void test_cd_round_trip(void **st)
{
	(void)st;
	static wrun r;
	static const int cd_types[] = {WMT_F16, WMT_F32, WMT_S32};
	int runs = 0;
	for (size_t s = 0; s < 4; s++)
		for (size_t ti = 0; ti < 3; ti++)
			for (int lc = 0; lc < 2; lc++)
				for (int sc = 0; sc < 2; sc++) {
					int t = cd_types[ti];
					emu_wmma_frag f;
					if (emu_wmma_frag_of(WM_LOAD_C, shapes[s].m, shapes[s].n, shapes[s].k, t, &f) < 0)
						continue;
					int eb = tbytes[t], ld = stride_of(lc, f.rows, f.cols, eb), sd = stride_of(sc, f.rows, f.cols, eb) + 32 / eb;
					memset(&r, 0, sizeof r);
					for (int i = 0; i < f.rows; i++)
						for (int j = 0; j < f.cols; j++)
							put(at(r.buf[0], lc, ld, eb, i, j), eb, tag(eb, i * f.cols + j));
					char regs[256], body[2048];
					vec(regs, sizeof regs, "c", f.nregs);
					size_t n = (size_t)snprintf(body, sizeof body,
						"\twmma.load.c.sync.aligned.%s.%s.global.%s %s, [%%rd0], %d;\n"
						"\twmma.store.d.sync.aligned.%s.%s.%s [%%rd1], %s, %d;\n"
						"\tmov.u32 %%t0, %%tid.x;\n\tmul.wide.u32 %%rd4, %%t0, 32;\n\tadd.u64 %%rd4, %%rd4, %%rd2;\n",
						lc ? "col" : "row", shapes[s].name, tname[t], regs, ld, sc ? "col" : "row",
						shapes[s].name, tname[t], regs, sd);
					for (int i = 0; i < f.nregs; i++)
						n += (size_t)snprintf(body + n, sizeof body - n,
								      "\tst.global.b32 [%%rd4+%d], %%c%d;\n", 4 * i, i);
					if (run(&r, body, 32) != EMU_OK)
						fail_msg("%s %s: %s", shapes[s].name, tname[t], r.err);
					for (int i = 0; i < f.rows; i++)
						for (int j = 0; j < f.cols; j++)
							if (get(at(r.buf[1], sc, sd, eb, i, j), eb) != tag(eb, i * f.cols + j))
								fail_msg("%s %s %s->%s: (%d, %d) did not round-trip", shapes[s].name,
									 tname[t], lc ? "col" : "row", sc ? "col" : "row", i, j);
					for (int l = 0; l < 32; l++)
						for (int e = 0; e < f.nregs * f.per_reg; e++) {
							int row, col;
							emu_wmma_frag_pos(&f, l, e, &row, &col);
							if (get(r.buf[2] + 32 * l + 4 * (e / f.per_reg) + eb * (e % f.per_reg), eb) !=
							    tag(eb, row * f.cols + col))
								fail_msg("%s %s: lane %d element %d is not (%d, %d)", shapes[s].name,
									 tname[t], l, e, row, col);
						}
					runs++;
				}
	assert_int_equal(runs, 3 * 3 * 4 + 4); /* three shapes x 3 types x 4 layout pairs; m16n16k8 f32 */
}

/* ---- mma ---- */

/* Loads A, B (layouts ca, cb) and C (row-major), runs wmma.mma with the given name tail, stores D
 * row-major, and counts D's elements that differ from A.B + C (done in double: exact here). */
static int mma_wrong(wrun *r, size_t s, int at_, int bt, int ct, int dt, int ca, int cb, const char *form, int sat)
{
	int M = shapes[s].m, N = shapes[s].n, K = shapes[s].k;
	emu_wmma_frag fa, fb, fc, fd;
	assert_int_equal(emu_wmma_frag_of(WM_LOAD_A, M, N, K, at_, &fa), 0);
	assert_int_equal(emu_wmma_frag_of(WM_LOAD_B, M, N, K, bt, &fb), 0);
	assert_int_equal(emu_wmma_frag_of(WM_LOAD_C, M, N, K, ct, &fc), 0);
	assert_int_equal(emu_wmma_frag_of(WM_LOAD_C, M, N, K, dt, &fd), 0);
	memset(r, 0, sizeof *r);
	int lda = stride_of(ca, M, K, tbytes[at_]), ldb = stride_of(cb, K, N, tbytes[bt]);
	for (int m = 0; m < M; m++)
		for (int k = 0; k < K; k++)
			put(at(r->buf[0], ca, lda, tbytes[at_], m, k), tbytes[at_], enc(at_, aval(at_, m, k)));
	for (int k = 0; k < K; k++)
		for (int n = 0; n < N; n++)
			put(at(r->buf[1], cb, ldb, tbytes[bt], k, n), tbytes[bt], enc(bt, bval(bt, k, n)));
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++)
			put(at(r->buf[2], 0, N, tbytes[ct], m, n), tbytes[ct],
			    enc(ct, cval(m, n) + (sat ? 2147483647.0 - 64 : 0)));
	char ra[128], rb[128], rc[128], rd[128], body[2048];
	vec(ra, sizeof ra, "a", fa.nregs);
	vec(rb, sizeof rb, "b", fb.nregs);
	vec(rc, sizeof rc, "c", fc.nregs);
	vec(rd, sizeof rd, "d", fd.nregs);
	snprintf(body, sizeof body,
		 "\twmma.load.a.sync.aligned.%s.%s.global.%s %s, [%%rd0], %d;\n"
		 "\twmma.load.b.sync.aligned.%s.%s.%s %s, [%%rd1], %d;\n"
		 "\twmma.load.c.sync.aligned.row.%s.global.%s %s, [%%rd2];\n"
		 "\twmma.mma.sync.aligned.%s.%s.%s.%s %s, %s, %s, %s;\n"
		 "\twmma.store.d.sync.aligned.row.%s.global.%s [%%rd3], %s;\n",
		 ca ? "col" : "row", shapes[s].name, tname[at_], ra, lda, cb ? "col" : "row", shapes[s].name, tname[bt], rb,
		 ldb, shapes[s].name, tname[ct], rc, ca ? "col" : "row", cb ? "col" : "row", shapes[s].name, form, rd, ra,
		 rb, rc, shapes[s].name, tname[dt], rd);
	if (run(r, body, 32) != EMU_OK)
		fail_msg("%s %s: %s", shapes[s].name, form, r->err);
	int bad = 0;
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			double want = cval(m, n) + (sat ? 2147483647.0 - 64 : 0);
			for (int k = 0; k < K; k++)
				want += aval(at_, m, k) * bval(bt, k, n);
			if (sat && want > 2147483647.0)
				want = 2147483647.0;
			bad += dec(dt, get(at(r->buf[3], 0, N, tbytes[dt], m, n), tbytes[dt])) != want;
		}
	return bad;
}

/* Every form the PTX ISA gives these types, every shape, every layout of A and B. */
static void test_mma_forms(void **st)
{
	(void)st;
	static wrun r;
	static const struct {
		int a, b, c, d;
		const char *form;     /* the name's types */
		int k8;               /* the tf32 shape only, else the three 16-k shapes */
	} forms[] = {
		{WMT_F16, WMT_F16, WMT_F32, WMT_F32, "f32.f32", 0},
		{WMT_F16, WMT_F16, WMT_F16, WMT_F16, "f16.f16", 0},
		{WMT_F16, WMT_F16, WMT_F16, WMT_F32, "f32.f16", 0},
		{WMT_F16, WMT_F16, WMT_F32, WMT_F16, "f16.f32", 0},
		{WMT_BF16, WMT_BF16, WMT_F32, WMT_F32, "f32.bf16.bf16.f32", 0},
		{WMT_S8, WMT_S8, WMT_S32, WMT_S32, "s32.s8.s8.s32", 0},
		{WMT_U8, WMT_U8, WMT_S32, WMT_S32, "s32.u8.u8.s32", 0},
		{WMT_S8, WMT_U8, WMT_S32, WMT_S32, "s32.s8.u8.s32", 0},
		{WMT_TF32, WMT_TF32, WMT_F32, WMT_F32, "f32.tf32.tf32.f32", 1},
	};
	int runs = 0;
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		for (size_t s = 0; s < 4; s++) {
			if ((s == 3) != forms[i].k8)
				continue;
			for (int ca = 0; ca < 2; ca++)
				for (int cb = 0; cb < 2; cb++) {
					int bad = mma_wrong(&r, s, forms[i].a, forms[i].b, forms[i].c, forms[i].d, ca, cb,
							    forms[i].form, 0);
					if (bad)
						fail_msg("%s %s %s.%s: %d elements of D wrong", shapes[s].name, forms[i].form,
							 ca ? "col" : "row", cb ? "col" : "row", bad);
					runs++;
				}
		}
	assert_int_equal(runs, (8 * 3 + 1) * 4);
}

/* .satfinite clamps at INT32_MAX; without it the sum wraps (and so differs from the clamped reference). */
static void test_satfinite(void **st)
{
	(void)st;
	static wrun r;
	assert_int_equal(mma_wrong(&r, 0, WMT_U8, WMT_U8, WMT_S32, WMT_S32, 0, 1, "s32.u8.u8.s32.satfinite", 1), 0);
	assert_int_equal(get(r.buf[3], 4), 2147483647u); /* (0, 0): 2^31 - 65 plus more than 64 clamps */
	assert_true(mma_wrong(&r, 0, WMT_U8, WMT_U8, WMT_S32, WMT_S32, 0, 1, "s32.u8.u8.s32", 1) > 0);
	assert_true((int32_t)get(r.buf[3], 4) < 0);
}

/* ---- counts, budget, the rules ---- */

static const char c_load_mma_store[] =
	"\twmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd2], 16;\n"
	"\twmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%rd0];\n"
	"\twmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7}, [%rd1];\n"
	"\twmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7}, "
	"{%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, {%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7}, "
	"{%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7};\n"
	"\twmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd3], {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7}, 16;\n";

static void test_counts_and_budget(void **st)
{
	(void)st;
	static wrun r;
	memset(&r, 0, sizeof r);
	assert_int_equal(run(&r, c_load_mma_store, 32), EMU_OK);
	/* ops: 4 ld.param, load.c, load.a, load.b, mma, store.d, ... */
	const emu_opcount *lc = &r.cnt[4], *la = &r.cnt[5], *mm = &r.cnt[7], *sd = &r.cnt[8];
	/* as ptxas's SASS (scripts/gpu-wmma-layout.cu): C's f32 pairs, 8 bytes a lane, 8 rows of 32 bytes: four
	 * LDG.E.64 of 8 sectors */
	assert_int_equal(lc->requests, 4);
	assert_int_equal(lc->sectors, 32);
	/* f16 A: four registers loaded (the other four repeat them), each an 8x8 tile, 16 bytes of 8 rows */
	assert_int_equal(la->requests, 4);
	assert_int_equal(la->bytes, 4 * 32 * 4);
	assert_int_equal(la->sectors, 4 * 8);
	/* D stored col-major: a pair lies across memory, so an element at a time; each 4 columns of 8 rows */
	assert_int_equal(sd->requests, 8);
	assert_int_equal(sd->sectors, 8 * 4);
	assert_int_equal(mm->wg_flops, 2 * 16 * 16 * 16);
	assert_int_equal(mm->issued, 1);
	/* the mma is charged 8192 / 16 = 512 warp instructions: 400 is not enough, 600 is */
	r.budget = 400;
	assert_int_equal(run(&r, c_load_mma_store, 32), EMU_ERR_BUDGET);
	r.budget = 600;
	assert_int_equal(run(&r, c_load_mma_store, 32), EMU_OK);
	/* f16 B row-major (its pairs lie across memory): a 32-bit word a lane of each 8x8 tile's transpose, as
	 * ptxas's LDG.E and MOVM.16.MT88: 4 requests of 8 rows x 16 bytes (Nsight Compute on tests/heldout/
	 * wmma_f16: 8.0 sectors a request, docs/benchmarks.md); an element at a time it was 8 requests */
	r.budget = 0;
	assert_int_equal(run(&r, "\twmma.load.b.sync.aligned.row.m16n16k16.global.f16 "
				 "{%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7}, [%rd1];\n", 32), EMU_OK);
	assert_int_equal(r.cnt[4].requests, 4);
	assert_int_equal(r.cnt[4].sectors, 4 * 8);
}

/* emu_wmma_frag_pos is the GPU's mapping: every shape, type, matrix and layout of the table an H200 printed
 * (scripts/gpu-wmma-layout.cu, tests/wmma-layout-sm90.tsv). */
static void test_layout_is_the_gpus(void **st)
{
	(void)st;
	char path[1024], line[1024];
	const char *root = getenv("PTXTUTOR_ROOT");
	snprintf(path, sizeof path, "%s/tests/wmma-layout-sm90.tsv", root ? root : ".");
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	static const char *const types[] = {[WMT_F16] = "f16", [WMT_BF16] = "bf16", [WMT_TF32] = "tf32", [WMT_S8] = "s8",
					    [WMT_U8] = "u8", [WMT_F32] = "f32", [WMT_S32] = "s32"};
	int lines = 0;
	while (fgets(line, sizeof line, fp)) {
		char which[4], shape[16], type[8], layout[4];
		int lane, at;
		if (line[0] == '#' || sscanf(line, "%3s %15s %7s %3s %d %n", which, shape, type, layout, &lane, &at) != 5)
			continue;
		int s = 0, t = 0;
		while (strcmp(shapes[s].name, shape))
			assert_true(++s < 4);
		while (!types[t] || strcmp(types[t], type))
			assert_true(++t < WMT_NTYPES);
		emu_wmma_frag f;
		int w = which[0] == 'a' ? WM_LOAD_A : which[0] == 'b' ? WM_LOAD_B : WM_LOAD_C;
		assert_int_equal(emu_wmma_frag_of(w, shapes[s].m, shapes[s].n, shapes[s].k, t, &f), 0);
		int e = 0, row, col, n;
		for (const char *p = line + at; sscanf(p, "%d,%d%n", &row, &col, &n) == 2; p += n, e++) {
			int r2, c2;
			emu_wmma_frag_pos(&f, lane, e, &r2, &c2);
			if (r2 != row || c2 != col)
				fail_msg("%s %s %s %s lane %d element %d: the GPU's (%d, %d), the emulator's (%d, %d)",
					 which, shape, type, layout, lane, e, row, col, r2, c2);
		}
		assert_int_equal(e, f.nregs * f.per_reg);
		lines++;
	}
	fclose(fp);
	assert_int_equal(lines, 1920); /* 60 fragments x 32 lanes */
}

static void test_rules(void **st)
{
	(void)st;
	static wrun r;
	memset(&r, 0, sizeof r);
	/* .sync.aligned: all 32 lanes */
	assert_int_equal(run(&r, c_load_mma_store, 16), EMU_ERR_FAULT);
	assert_non_null(strstr(r.err, "wmma needs all 32 lanes of the warp"));
	/* the address a multiple of the fragment's 32 bytes (8 f32 registers) */
	assert_int_equal(run(&r, "\twmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
				 "{%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd2+16], 16;\n", 32), EMU_ERR_FAULT);
	assert_non_null(strstr(r.err, "not a multiple of the fragment's 32 bytes"));
	/* ... and the stride of 16 bytes: 12 floats are 48, 13 are not */
	assert_int_equal(run(&r, "\twmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
				 "{%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd2], 12;\n", 32), EMU_OK);
	assert_int_equal(run(&r, "\twmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
				 "{%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd2], 13;\n", 32), EMU_ERR_FAULT);
	assert_non_null(strstr(r.err, "stride of 13 elements is 52 bytes, not a multiple of 16"));
	/* f16's m32n8k16 B row-major at its default stride, 8 elements, 16 bytes: runs */
	assert_int_equal(run(&r, "\twmma.load.b.sync.aligned.row.m32n8k16.global.f16 "
				 "{%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7}, [%rd1];\n", 32), EMU_OK);
	/* every lane the same address */
	assert_int_equal(run(&r, "\tmov.u32 %t0, %tid.x;\n\tmul.wide.u32 %rd4, %t0, 32;\n\tadd.u64 %rd2, %rd2, %rd4;\n"
				 "\twmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
				 "{%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd2], 16;\n", 32), EMU_ERR_FAULT);
	assert_non_null(strstr(r.err, "lane 1 gives another address"));
	/* out of the buffer */
	assert_int_equal(run(&r, "\twmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
				 "{%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd2+65504], 16;\n", 32), EMU_ERR_FAULT);
	assert_non_null(strstr(r.err, "out-of-bounds global load"));
}

/* Through shared memory, by .shared and by generic addresses: a store then a load gives the matrix back. */
static void test_shared(void **st)
{
	(void)st;
	static wrun r;
	memset(&r, 0, sizeof r);
	for (int i = 0; i < 256; i++)
		put(r.buf[0] + 4 * i, 4, (uint32_t)i * 3 + 1);
	static const char body[] =
		"\t.shared .align 32 .b8 S[1024];\n"
		"\tmov.u64 %rd5, S;\n\tcvta.shared.u64 %rd6, %rd5;\n"
		"\twmma.load.c.sync.aligned.row.m16n16k16.global.s32 {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd0];\n"
		"\twmma.store.d.sync.aligned.col.m16n16k16.shared.s32 [%rd5], {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7};\n"
		"\twmma.load.c.sync.aligned.col.m16n16k16.s32 {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7}, [%rd6];\n"
		"\twmma.store.d.sync.aligned.row.m16n16k16.global.s32 [%rd1], {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7};\n";
	assert_int_equal(run(&r, body, 32), EMU_OK);
	assert_memory_equal(r.buf[0], r.buf[1], 1024);
	/* the shared store and the generic load counted on the shared side */
	/* ops: 4 ld.param, mov, cvta, load.c, store.d .shared, load.c generic, ... */
	assert_int_equal(r.cnt[7].requests2, 8);
	assert_int_equal(r.cnt[8].requests2, 8);
	assert_int_equal(r.cnt[8].requests, 0);
}

/* Shapes, types, layouts and operand counts the PTX ISA does not give are refused by name. */
static void test_refused(void **st)
{
	(void)st;
	static wrun r;
	static const char *const bad[] = {
		"wmma.load.a.sync.aligned.row.m16n16k8.global.f16 {%a0, %a1, %a2, %a3}, [%rd0];",   /* f16 is k16 */
		"wmma.load.a.sync.aligned.row.m16n16k16.global.tf32 {%a0, %a1, %a2, %a3}, [%rd0];", /* tf32 is k8 */
		"wmma.load.a.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%rd0];", /* no .sync */
		"wmma.load.c.sync.aligned.row.m16n16k16.global.bf16 {%c0, %c1, %c2, %c3}, [%rd0];",
		"wmma.load.d.sync.aligned.row.m16n16k16.global.f32 {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd0];",
		"wmma.store.d.sync.aligned.m16n16k16.global.f32 [%rd0], {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7};",
		"wmma.mma.sync.aligned.row.col.m16n16k16.f16.bf16.bf16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, "
		"{%b0, %b1, %b2, %b3}, {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7};",                 /* bf16 accumulates in f32 */
		"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%d0}, {%a0}, {%b0}, {%c0};",
		"wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64 {%d0, %d1}, {%a0}, {%b0}, {%c0, %c1};",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char body[512];
		snprintf(body, sizeof body, "\t%s\n", bad[i]);
		if (run(&r, body, 32) != EMU_ERR_UNSUPPORTED || !strstr(r.err, "unsupported instruction 'wmma."))
			fail_msg("%s: %s", bad[i], r.err);
	}
	/* the right form with the wrong number of registers */
	assert_int_equal(run(&r, "\twmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3}, [%rd0];\n",
			     32), EMU_ERR_PARSE);
	assert_non_null(strstr(r.err, "a fragment here is 8 registers, got 4"));
}

/* ---- nvcc's s8 kernel (tests/students/wmma/s8.cu) ---- */

static void run_student_s8(const char *file)
{
	enum { M = 32, N = 48, K = 64 };
	char path[1024], err[512];
	const char *root = getenv("PTXTUTOR_ROOT");
	snprintf(path, sizeof path, "%s/tests/students/wmma/%s", root ? root : ".", file);
	emu_error why = EMU_OK;
	emu_module *m = emu_module_load_entry(path, "wmma_s8", &why, err, sizeof err);
	if (!m)
		fail_msg("%s: %s", path, err);
	const emu_kernel *k = emu_find_kernel(m, "wmma_s8");
	assert_non_null(k);
	assert_int_equal(k->nparams, 6);
	static int8_t A[M * K], B[N * K];
	static int32_t C[M * N];
	uint64_t seed = 12345;
	for (int i = 0; i < M * K; i++)
		A[i] = (int8_t)((seed = seed * 6364136223846793005ULL + 1442695040888963407ULL) >> 56);
	for (int i = 0; i < N * K; i++)
		B[i] = (int8_t)((seed = seed * 6364136223846793005ULL + 1442695040888963407ULL) >> 56);
	A[0] = B[0] = -128; /* the extremes */
	A[1] = B[1] = 127;
	memset(C, 0x7f, sizeof C);
	uint8_t param[64] = {0};
	uint64_t ptr[3] = {1ULL << EMU_GLOBAL_SHIFT, 2ULL << EMU_GLOBAL_SHIFT, 3ULL << EMU_GLOBAL_SHIFT};
	uint32_t dims[3] = {M, N, K};
	for (int i = 0; i < 3; i++) {
		memcpy(param + k->params[i].offset, &ptr[i], 8);
		memcpy(param + k->params[3 + i].offset, &dims[i], 4);
	}
	emu_opcount *cnt = calloc((size_t)k->nops, sizeof *cnt);
	emu_launch L = {.k = k, .path = path, .grid = {(N / 16 + 1) / 2, M / 16, 1}, .block = {64, 1, 1}, .param = param,
			.bufs = {{(uint8_t *)A, sizeof A}, {(uint8_t *)B, sizeof B}, {(uint8_t *)C, sizeof C}}, .nbufs = 3,
			.cnt = cnt};
	emu_error e = emu_exec(&L, err, sizeof err);
	free(cnt);
	emu_module_free(m);
	if (e != EMU_OK)
		fail_msg("%s: %s", file, err);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t want = 0;
			for (int kk = 0; kk < K; kk++)
				want += A[i * K + kk] * B[j * K + kk];
			if (C[i * N + j] != want)
				fail_msg("%s: C(%d, %d) = %d, want %d", file, i, j, C[i * N + j], want);
		}
}

static void test_student_s8(void **st)
{
	(void)st;
	run_student_s8("s8.sm80.ptx");
	run_student_s8("s8.sm90.ptx");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_ab_layout),
		cmocka_unit_test(test_cd_round_trip),
		cmocka_unit_test(test_mma_forms),
		cmocka_unit_test(test_satfinite),
		cmocka_unit_test(test_counts_and_budget),
		cmocka_unit_test(test_layout_is_the_gpus),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_student_s8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
