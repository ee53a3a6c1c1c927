/* test_emu: the PTX emulator — execution semantics, counts as Nsight Compute defines them, planted bugs, lesson kernels. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "emu/emu.h"
#include "course/argspec.h"
#include "emu/emu_internal.h"
#include "exec/backend.h"
#include "course/lesson.h"
#include "run/launch.h"
#include "base/util.h"

/* ---- helpers ---- */

static run_request req(const char *ptx, const char *entry, dtype dt, long long M, long long N, long long K,
		       unsigned gx, unsigned gy, unsigned bx, unsigned by)
{
	run_request rq;
	memset(&rq, 0, sizeof rq);
	util_path(rq.ptx_path, sizeof rq.ptx_path, ptx);
	util_strlcpy(rq.entry, entry, sizeof rq.entry);
	rq.dt = dt;
	rq.M = M;
	rq.N = N;
	rq.K = K;
	rq.grid[0] = gx;
	rq.grid[1] = gy;
	rq.grid[2] = 1;
	rq.block[0] = bx;
	rq.block[1] = by;
	rq.block[2] = 1;
	rq.verify = 1;
	return rq;
}

/* Runs a small kernel given as text directly through the interpreter, with
 * one global buffer (P) of 64 KiB and a u32 parameter S; returns per-op counts. */
typedef struct {
	uint8_t buf[65536];
	emu_opcount cnt[64];
	int nops;
	const emu_kernel *k;
	emu_module *m;
	unsigned long long races;
	char err[512];
} small_run;

static int run_small(small_run *s, const char *text, unsigned block, uint32_t S)
{
	memset(s->cnt, 0, sizeof s->cnt);
	s->m = emu_module_parse("small.ptx", text, NULL, s->err, sizeof s->err);
	if (!s->m)
		return -1;
	s->k = &s->m->k[0];
	assert_true(s->k->nops <= 64);
	s->nops = s->k->nops;
	uint8_t param[16] = {0};
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	for (int i = 0; i < s->k->nparams; i++) {
		if (s->k->params[i].bytes == 8)
			memcpy(param + s->k->params[i].offset, &p, 8);
		else
			memcpy(param + s->k->params[i].offset, &S, 4);
	}
	emu_launch L = {.k = s->k, .path = "small.ptx", .grid = {1, 1, 1}, .block = {block, 1, 1},
			.param = param, .bufs = {{s->buf, sizeof s->buf}}, .nbufs = 1, .cnt = s->cnt};
	int rc = emu_exec(&L, s->err, sizeof s->err);
	s->races = L.races;
	return rc;
}

/* The counts of the first op of a given code. */
static const emu_opcount *op_of(const small_run *s, int code)
{
	for (int i = 0; i < s->nops; i++)
		if (s->k->ops[i].code == code && s->k->ops[i].space != SP_PARAM)
			return &s->cnt[i];
	fail_msg("no op %d", code);
	return NULL;
}

static const char access_tmpl[] =
	".version 7.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 P, .param .u32 S)\n{\n"
	"\t.reg .b32 %%r<8>;\n\t.reg .f32 %%f<4>;\n\t.reg .b64 %%rd<4>;\n"
	"\t.shared .align 16 .b8 sm[16384];\n"
	"\tmov.u32 %%r1, %%tid.x;\n\tld.param.u32 %%r2, [S];\n\tmul.lo.s32 %%r3, %%r1, %%r2;\n"
	"\tmov.u32 %%r4, sm;\n\tadd.s32 %%r5, %%r4, %%r3;\n"
	"\tld.param.u64 %%rd1, [P];\n\tcvt.u64.u32 %%rd2, %%r3;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
	"\t%s\n\tret;\n}\n";

static void access_counts(const char *insn, uint32_t stride, int code, uint64_t *a, uint64_t *b)
{
	char text[2048];
	snprintf(text, sizeof text, access_tmpl, insn);
	small_run *s = calloc(1, sizeof *s);
	assert_non_null(s);
	int rc = run_small(s, text, 32, stride);
	if (rc)
		fail_msg("%s", s->err);
	const emu_opcount *c = op_of(s, code);
	if (strstr(insn, "global")) {
		assert_int_equal(c->requests, 1);
		*a = c->sectors;
		*b = 0;
	} else {
		*a = c->wavefronts;
		*b = c->wavefronts - c->ideal;
	}
	emu_module_free(s->m);
	free(s);
}

/* ---- shared-memory wavefronts and bank conflicts ---- */

static void test_shared_32bit(void **state)
{
	(void)state;
	uint64_t wf, bc;
	access_counts("ld.shared.f32 %f1, [%r5];", 4, OP_LD, &wf, &bc);
	assert_int_equal(wf, 1);
	assert_int_equal(bc, 0);
	access_counts("ld.shared.f32 %f1, [%r5];", 8, OP_LD, &wf, &bc); /* two lanes per bank */
	assert_int_equal(wf, 2);
	assert_int_equal(bc, 1);
	access_counts("ld.shared.f32 %f1, [%r5];", 128, OP_LD, &wf, &bc); /* one bank, 32 words */
	assert_int_equal(wf, 32);
	assert_int_equal(bc, 31);
	access_counts("ld.shared.f32 %f1, [%r5];", 0, OP_LD, &wf, &bc); /* broadcast */
	assert_int_equal(wf, 1);
	assert_int_equal(bc, 0);
	access_counts("st.shared.f32 [%r5], %f1;", 132, OP_ST, &wf, &bc); /* padded stride: conflict-free */
	assert_int_equal(wf, 1);
	assert_int_equal(bc, 0);
}

static void test_shared_64_128bit(void **state)
{
	(void)state;
	uint64_t wf, bc;
	/* 64-bit: one wavefront per half-warp when the half-warp covers 32 banks */
	access_counts("ld.shared.v2.f32 {%f1, %f2}, [%r5];", 8, OP_LD, &wf, &bc);
	assert_int_equal(wf, 2);
	assert_int_equal(bc, 0);
	access_counts("ld.shared.v2.f32 {%f1, %f2}, [%r5];", 16, OP_LD, &wf, &bc);
	assert_int_equal(wf, 4);
	assert_int_equal(bc, 2);
	/* 128-bit: one wavefront per quarter-warp at best */
	access_counts("ld.shared.v4.f32 {%f0, %f1, %f2, %f3}, [%r5];", 16, OP_LD, &wf, &bc);
	assert_int_equal(wf, 4);
	assert_int_equal(bc, 0);
	access_counts("ld.shared.v4.f32 {%f0, %f1, %f2, %f3}, [%r5];", 32, OP_LD, &wf, &bc);
	assert_int_equal(wf, 8);
	assert_int_equal(bc, 4);
	access_counts("st.shared.v4.f32 [%r5], {%f0, %f1, %f2, %f3};", 0, OP_ST, &wf, &bc);
	assert_int_equal(wf, 4);
	/* uniform pairs (T == T^1, or T == T^2) halve the passes of wide loads */
	access_counts("shr.u32 %r6, %r1, 1; mul.lo.s32 %r6, %r6, %r2; add.s32 %r6, %r4, %r6;"
		      "ld.shared.v4.f32 {%f0, %f1, %f2, %f3}, [%r6];", 16, OP_LD, &wf, &bc);
	assert_int_equal(wf, 2);
	assert_int_equal(bc, 0);
	access_counts("and.b32 %r6, %r1, 1; shr.u32 %r7, %r1, 2; shl.b32 %r7, %r7, 1; or.b32 %r6, %r6, %r7;"
		      "mul.lo.s32 %r6, %r6, %r2; add.s32 %r6, %r4, %r6;"
		      "ld.shared.v2.f32 {%f0, %f1}, [%r6];", 8, OP_LD, &wf, &bc); /* T == T^2, 128 bytes */
	assert_int_equal(wf, 1);
	access_counts("ld.shared.v4.f32 {%f0, %f1, %f2, %f3}, [%r5];", 0, OP_LD, &wf, &bc); /* all one address */
	assert_int_equal(wf, 2);
	/* lanes l and l^16 sharing does not pair: quarter-warps, 2-way conflicts at a 32-byte stride */
	access_counts("and.b32 %r6, %r1, 15; mul.lo.s32 %r6, %r6, %r2; add.s32 %r6, %r4, %r6;"
		      "ld.shared.v4.f32 {%f0, %f1, %f2, %f3}, [%r6];", 32, OP_LD, &wf, &bc);
	assert_int_equal(wf, 8);
	assert_int_equal(bc, 4);
}

static void test_global_sectors(void **state)
{
	(void)state;
	uint64_t sec, unused;
	access_counts("ld.global.f32 %f1, [%rd3];", 4, OP_LD, &sec, &unused);
	assert_int_equal(sec, 4);
	access_counts("ld.global.f32 %f1, [%rd3];", 8, OP_LD, &sec, &unused);
	assert_int_equal(sec, 8);
	access_counts("ld.global.f32 %f1, [%rd3];", 128, OP_LD, &sec, &unused);
	assert_int_equal(sec, 32);
	access_counts("ld.global.f32 %f1, [%rd3];", 0, OP_LD, &sec, &unused);
	assert_int_equal(sec, 1);
	access_counts("ld.global.nc.v4.f32 {%f0, %f1, %f2, %f3}, [%rd3];", 16, OP_LD, &sec, &unused);
	assert_int_equal(sec, 16);
	access_counts("st.global.v2.f32 [%rd3], {%f0, %f1};", 8, OP_ST, &sec, &unused);
	assert_int_equal(sec, 8);
}

/* ---- execution semantics ---- */

/* Odd lanes take a detour; after reconvergence a butterfly shuffle sums the lane values. */
static const char divergence_ptx[] =
	".version 7.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 P, .param .u32 S)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<4>;\n"
	"\tmov.u32 %r1, %laneid;\n"
	"\tand.b32 %r2, %r1, 1;\n"
	"\tsetp.eq.u32 %p1, %r2, 1;\n"
	"\tmov.u32 %r3, 1;\n"
	"\t@%p1 bra ODD;\n"
	"\tmov.u32 %r3, 2;\n"
	"\tbra.uni JOIN;\n"
	"ODD:\n"
	"\tmov.u32 %r4, 0;\n"
	"LOOP:\n" /* odd lanes loop laneid times */
	"\tadd.u32 %r3, %r3, 10;\n"
	"\tadd.u32 %r4, %r4, 1;\n"
	"\tsetp.lt.u32 %p2, %r4, %r1;\n"
	"\t@%p2 bra LOOP;\n"
	"JOIN:\n"
	"\tmov.u32 %r5, %r3;\n"
	"\tshfl.sync.bfly.b32 %r6, %r5, 16, 31, 0xffffffff;\n\tadd.u32 %r5, %r5, %r6;\n"
	"\tshfl.sync.bfly.b32 %r6, %r5, 8, 31, 0xffffffff;\n\tadd.u32 %r5, %r5, %r6;\n"
	"\tshfl.sync.bfly.b32 %r6, %r5, 4, 31, 0xffffffff;\n\tadd.u32 %r5, %r5, %r6;\n"
	"\tshfl.sync.bfly.b32 %r6, %r5, 2, 31, 0xffffffff;\n\tadd.u32 %r5, %r5, %r6;\n"
	"\tshfl.sync.bfly.b32 %r6, %r5, 1, 31, 0xffffffff;\n\tadd.u32 %r5, %r5, %r6;\n"
	"\tshfl.sync.up.b32 %r7, %r1, 1, 0, 0xffffffff;\n"
	"\tld.param.u64 %rd1, [P];\n"
	"\tmul.wide.u32 %rd2, %r1, 16;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.v4.u32 [%rd3], {%r3, %r5, %r7, %r1};\n"
	"\tret;\n}\n";

static void test_divergence_and_shfl(void **state)
{
	(void)state;
	small_run *s = calloc(1, sizeof *s);
	assert_non_null(s);
	if (run_small(s, divergence_ptx, 32, 0))
		fail_msg("%s", s->err);
	uint32_t out[32][4];
	memcpy(out, s->buf, sizeof out);
	uint32_t total = 0;
	for (uint32_t l = 0; l < 32; l++) {
		uint32_t want = (l & 1) ? 1 + 10 * l : 2;
		assert_int_equal(out[l][0], want);
		total += want;
		assert_int_equal(out[l][2], l ? l - 1 : 0); /* shfl.up keeps lane 0's own value */
		assert_int_equal(out[l][3], l);
	}
	for (int l = 0; l < 32; l++)
		assert_int_equal(out[l][1], total);
	/* after reconvergence each shuffle issues once for the whole warp */
	assert_int_equal(op_of(s, OP_SHFL)->issued, 1);
	assert_int_equal(op_of(s, OP_SHFL)->threads, 32);
	emu_module_free(s->m);
	free(s);
}

static const char f16_ptx[] =
	".version 7.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 P, .param .u32 S)\n{\n"
	"\t.reg .b16 %h<4>;\n\t.reg .b32 %r<8>;\n\t.reg .f32 %f<8>;\n\t.reg .b64 %rd<4>;\n"
	"\tmov.f32 %f1, 0f3DCCCCCD;\n"          /* 0.1 */
	"\tcvt.rn.f16.f32 %h1, %f1;\n"
	"\tmov.f32 %f2, 0fC0400000;\n"          /* -3 */
	"\tcvt.rn.f16.f32 %h2, %f2;\n"
	"\tmov.b32 %r1, {%h1, %h2};\n"
	"\tmov.b32 {%h3, %h0}, %r1;\n"
	"\tcvt.f32.f16 %f3, %h0;\n"
	"\tcvt.rzi.s32.f32 %r2, %f3;\n"
	"\tex2.approx.f32 %f4, %f2;\n"
	"\trcp.rn.f32 %f5, %f2;\n"
	"\tcvt.rn.f32.s32 %f6, %r2;\n"
	"\tld.param.u64 %rd1, [P];\n"
	"\tst.global.v4.b32 [%rd1], {%r1, %r2, %f4, %f5};\n"
	"\tst.global.f32 [%rd1+16], %f6;\n"
	"\tret;\n}\n";

static void test_f16_and_math(void **state)
{
	(void)state;
	assert_int_equal(util_f32_to_f16(1.0f), 0x3c00);
	assert_int_equal(util_f32_to_f16(65504.0f), 0x7bff);
	assert_int_equal(util_f32_to_f16(65520.0f), 0x7c00); /* rounds up to inf */
	assert_int_equal(util_f32_to_f16(0.1f), 0x2e66);
	assert_int_equal(util_f32_to_f16(-2.0f), 0xc000);
	assert_int_equal(util_f32_to_f16(1e-8f), 0);
	assert_int_equal(util_f32_to_f16(5.9604645e-8f), 1); /* the smallest subnormal */
	assert_true(util_f16_to_f32(0x0001) == 5.9604645e-8f);
	assert_true(isnan(util_f16_to_f32(util_f32_to_f16(NAN))));
	small_run *s = calloc(1, sizeof *s);
	assert_non_null(s);
	if (run_small(s, f16_ptx, 1, 0))
		fail_msg("%s", s->err);
	uint32_t w[5];
	memcpy(w, s->buf, sizeof w);
	assert_int_equal(w[0], 0x2e66u | (0xc200u << 16));
	assert_int_equal((int32_t)w[1], -3);
	float f[3];
	memcpy(&f[0], &w[2], 4);
	memcpy(&f[1], &w[3], 4);
	memcpy(&f[2], &w[4], 4);
	assert_true(fabsf(f[0] - 0.125f) < 1e-6f);
	assert_true(fabsf(f[1] + 1.0f / 3.0f) < 1e-7f);
	assert_true(f[2] == -3.0f);
	emu_module_free(s->m);
	free(s);
}

static void test_unsupported_and_parse_errors(void **state)
{
	(void)state;
	char err[256];
	emu_error why;
	const char *bad =
		".version 7.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 P)\n{\n\t.reg .b32 %r<4>;\n"
		"\tmov.u32 %r1, 7;\n\tvabsdiff4.u32.u32.u32 %r2, %r1, %r1, %r1;\n\tret;\n}\n";
	emu_module *m = emu_module_parse("bad.ptx", bad, &why, err, sizeof err);
	assert_null(m);
	assert_string_equal(err, "bad.ptx:8: unsupported instruction 'vabsdiff4.u32.u32.u32'");
	assert_int_equal(why, EMU_ERR_UNSUPPORTED);
	const char *sat =
		".version 7.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 P)\n{\n\t.reg .f32 %f<4>;\n"
		"\tadd.sat.f32 %f1, %f2, %f3;\n\tret;\n}\n";
	m = emu_module_parse("sat.ptx", sat, &why, err, sizeof err);
	assert_null(m);
	assert_string_equal(err, "sat.ptx:7: unsupported instruction 'add.sat.f32'");
	assert_int_equal(why, EMU_ERR_UNSUPPORTED);
	/* Hopper's mbarriers parse now (tests/test_emu_hopper.c runs them); a
	 * modifier the emulator does not run is still refused by name. */
	const char *hopper =
		".version 8.0\n.target sm_90a\n.address_size 64\n"
		".visible .entry k(.param .u64 P)\n{\n\t.reg .b32 %r<4>;\n"
		"\tmov.u32 %r1, 0;\n\tmbarrier.init.shared::cta.b64 [%r1], 1;\n\tret;\n}\n";
	m = emu_module_parse("h.ptx", hopper, &why, err, sizeof err);
	assert_non_null(m);
	emu_module_free(m);
	const char *hopper2 =
		".version 8.0\n.target sm_90a\n.address_size 64\n"
		".visible .entry k(.param .u64 P)\n{\n\t.reg .b32 %r<4>;\n"
		"\tmov.u32 %r1, 0;\n\tmbarrier.init.shared::cta.noinc.b64 [%r1], 1;\n\tret;\n}\n";
	m = emu_module_parse("h.ptx", hopper2, &why, err, sizeof err);
	assert_null(m);
	assert_string_equal(err, "h.ptx:8: unsupported instruction 'mbarrier.init.shared::cta.noinc.b64'");
	assert_int_equal(why, EMU_ERR_UNSUPPORTED);
	const char *undecl =
		".version 7.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 P)\n{\n\t.reg .b32 %r<4>;\n"
		"\tmov.u32 %r9, 1;\n\tret;\n}\n";
	m = emu_module_parse("undecl.ptx", undecl, &why, err, sizeof err);
	assert_null(m);
	assert_non_null(strstr(err, "undecl.ptx:7:"));
	assert_int_equal(why, EMU_ERR_PARSE);
	const char *nolabel =
		".version 7.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 P)\n{\n\tbra NOWHERE;\n\tret;\n}\n";
	m = emu_module_parse("nolabel.ptx", nolabel, &why, err, sizeof err);
	assert_null(m);
	assert_string_equal(err, "nolabel.ptx:6: unknown label 'NOWHERE'");
	assert_int_equal(why, EMU_ERR_PARSE);
}

static void test_endless_loop_stops(void **state)
{
	(void)state;
	const char *spin =
		".version 7.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 P)\n{\nL:\n\tbra L;\n}\n";
	char err[256];
	emu_module *m = emu_module_parse("spin.ptx", spin, NULL, err, sizeof err);
	assert_non_null(m);
	emu_opcount cnt[4] = {{0}};
	uint8_t param[8] = {0};
	emu_launch L = {.k = &m->k[0], .path = "spin.ptx", .grid = {1, 1, 1}, .block = {32, 1, 1},
			.param = param, .max_warp_inst = 1000, .cnt = cnt};
	assert_int_equal(emu_exec(&L, err, sizeof err), EMU_ERR_BUDGET);
	assert_non_null(strstr(err, "spin.ptx:7: stopped after 1000 warp instructions"));
	emu_module_free(m);
}

/* ---- the opcode table ---- */

/* One instruction at line 10 of a kernel with b32 %r, b64 %rd, f32 %f and pred %p registers. */
static emu_module *one_insn(const char *insn, emu_error *why, char *err, int errlen)
{
	char text[1024];
	snprintf(text, sizeof text,
		 ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 P)\n{\n"
		 "\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n\t.reg .f32 %%f<8>;\n\t.reg .pred %%p<4>;\n"
		 "\t%s;\n}\n", insn);
	return emu_module_parse("one.ptx", text, why, err, errlen);
}

/* Which types, modifiers and operand counts each opcode takes: legal forms
 * decode to their op, illegal ones name the instruction at its line. */
static void test_decode_table(void **state)
{
	(void)state;
	static const struct {
		const char *insn;
		emu_error why;
		int code, cls, flags; /* when it decodes */
		const char *msg;      /* when not; NULL: "unsupported instruction '<opcode>'" */
	} cases[] = {
		{"mul.f32 %f1, %f2, %f3", EMU_OK, OP_MUL, EMU_CLS_FP, 0, NULL},
		{"mul.wide.s32 %rd1, %r1, %r2", EMU_OK, OP_MUL, EMU_CLS_INT, 0, NULL},
		{"mul.s32 %r1, %r2, %r3", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},  /* integer mul needs .lo/.hi/.wide */
		{"mul.lo.f32 %f1, %f2, %f3", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"mad.rn.f32 %f1, %f2, %f3, %f4", EMU_OK, OP_FMA, EMU_CLS_FP, 0, NULL},
		{"mad.f16 %f1, %f2, %f3, %f4", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"fma.rn.f16 %f1, %f2, %f3, %f4", EMU_OK, OP_FMA, EMU_CLS_FP, 0, NULL},
		{"rem.f32 %f1, %f2, %f3", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"add.lo.s32 %r1, %r2, %r3", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"add.rz.f32 %f1, %f2, %f3", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL}, /* directed: f64 add sub mul only */
		{"fma.rn.f64 %rd1, %rd2, %rd3, %rd3", EMU_OK, OP_FMA, EMU_CLS_FP, 0, NULL},
		{"dp4a.u32.s32 %r1, %r2, %r3, %r4", EMU_OK, OP_DP, EMU_CLS_INT, 0, NULL},
		{"and.pred %p1, %p2, %p3", EMU_OK, OP_AND, EMU_CLS_INT, 0, NULL},
		{"add.pred %p1, %p2, %p3", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"sqrt.approx.f32 %f1, %f2", EMU_OK, OP_SQRT, EMU_CLS_FP, 0, NULL},
		{"sqrt.u32 %r1, %r2", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"setp.ltu.s32 %p1, %r1, %r2", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"setp.ltu.f32 %p1, %f1, %f2", EMU_OK, OP_SETP, EMU_CLS_FP, 0, NULL},
		{"setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3", EMU_OK, OP_SETP, EMU_CLS_INT, OPF_SRC_NEG, NULL},
		{"setp.s32 %p1, %r1, %r2", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"setp.lt.and.s32 %p1, %r1, %r2", EMU_ERR_PARSE, 0, 0, 0, "'setp.lt.and.s32' takes 4 operands, got 3"},
		{"selp.f32 %f1, %f2, %f3, %p1", EMU_OK, OP_SELP, EMU_CLS_INT, 0, NULL},
		{"cvt.s32.f32 %r1, %f1", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},  /* float -> int needs .rni/.rzi/... */
		{"cvt.rzi.s32.f32 %r1, %f1", EMU_OK, OP_CVT, EMU_CLS_MOVE, 0, NULL},
		{"cvt.rz.f32.s32 %f1, %r1", EMU_OK, OP_CVT, EMU_CLS_MOVE, 0, NULL},
		{"cvt.rz.f16.f32 %f1, %f2", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},  /* directed rounding is for f32 */
		{"cvta.to.global.u64 %rd1, %rd2", EMU_OK, OP_CVTA, EMU_CLS_MOVE, 0, NULL},
		{"cvta.to.param.u64 %rd1, %rd2", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"cvta.u64 %rd1, %rd2", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"ld.global.nc.v2.f32 {%f1, %f2}, [%rd1+8]", EMU_OK, OP_LD, EMU_CLS_LD_GLOBAL, OPF_NC, NULL},
		{"ld.shared.nc.f32 %f1, [%rd1]", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"ld.volatile.shared.v2.f32 {%f1, %f2}, [%rd1]", EMU_OK, OP_LD, EMU_CLS_LD_SHARED, 0, NULL},
		{"ld.param.u64 %rd1, [P]", EMU_OK, OP_LD, EMU_CLS_MOVE, 0, NULL},
		{"st.param.u64 [P], %rd1", EMU_ERR_UNSUPPORTED, 0, 0, 0, "st.param outside a call's arguments"},
		{"ld.global.shared.f32 %f1, [%rd1]", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"ld.global.v4.f32 {%f1, %f2}, [%rd1]", EMU_ERR_PARSE, 0, 0, 0, "'ld.global.v4.f32' needs 4 registers"},
		{"ld.global.f32 %f1, [P]", EMU_ERR_PARSE, 0, 0, 0, "parameter 'P' read outside ld.param"},
		{"shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1", EMU_OK, OP_SHFL, EMU_CLS_SHFL, OPF_PRED_OUT, NULL},
		{"shfl.sync.up.down.b32 %r1, %r2, 1, 0, -1", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"shfl.up.b32 %r1, %r2, 1, 0, -1", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r1, %r2}, [%rd1]", EMU_OK, OP_LDMATRIX,
		 EMU_CLS_LDMATRIX, OPF_TRANS, NULL},
		{"ldmatrix.sync.aligned.m8n8.x2.global.b16 {%r1, %r2}, [%rd1]", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"ldmatrix.sync.aligned.m8n8.b16 {%r1, %r2}, [%rd1]", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, "
		 "{%r5, %r6}, {%f1, %f2, %f3, %f4}", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"cp.async.ca.shared.global [%rd1], [%rd2], 16, %r1", EMU_OK, OP_CPASYNC, EMU_CLS_CP_ASYNC, OPF_HAS_SRCSZ,
		 NULL},
		{"cp.async.wait_all", EMU_OK, OP_CPWAIT, EMU_CLS_CP_ASYNC, OPF_WAIT_ALL, NULL},
		{"cp.async.wait_group %r1", EMU_ERR_PARSE, 0, 0, 0, "cp.async.wait_group takes an integer"},
		{"cp.async.bulk.commit_group", EMU_OK, OP_BULK, EMU_CLS_CP_ASYNC, 0, NULL},
		{"cp.async.bulk.wait_group.read 0", EMU_OK, OP_BULK, EMU_CLS_CP_ASYNC, OPF_READ, NULL},
		{"mov.u32 %r1, %cluster_ctarank", EMU_OK, OP_MOV, EMU_CLS_MOVE, 0, NULL},
		{"mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2", EMU_OK, OP_MBAR, EMU_CLS_BARRIER, OPF_PARITY,
		 NULL},
		{"mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1]", EMU_OK, OP_MBAR, EMU_CLS_BARRIER,
		 OPF_CLUSTER_SP, NULL},
		{"mbarrier.arrive.weird.b64 _, [%r1]", EMU_ERR_UNSUPPORTED, 0, 0, 0, NULL},
		{"setmaxnreg.inc.sync.aligned.u32 20", EMU_ERR_PARSE, 0, 0, 0,
		 "setmaxnreg takes a register count 24..256, a multiple of 8"},
		{"bar.warp.sync -1", EMU_OK, OP_NOP, EMU_CLS_CONTROL, 0, NULL},
		{"barrier.cta.sync.aligned 0", EMU_OK, OP_BAR, EMU_CLS_BARRIER, 0, NULL},
		{"bar.arrive 0, 64", EMU_OK, OP_CLUSTER, EMU_CLS_BARRIER, 0, NULL},
		{"@!%p1 bra.uni L", EMU_ERR_PARSE, 0, 0, 0, "unknown label 'L'"},
		{"@%q bra.uni L", EMU_ERR_PARSE, 0, 0, 0, "unknown predicate '%q'"},
		{"add.s32 %r1, %r2", EMU_ERR_PARSE, 0, 0, 0, "'add.s32' takes 3 operands, got 2"},
		{"ret %r1", EMU_ERR_PARSE, 0, 0, 0, "'ret' takes no operands"},
		{"bar.sync 0, 32, 1", EMU_ERR_PARSE, 0, 0, 0, "'bar.sync' takes 1 or 2 operands, got 3"},
		{"add.s32 %r1, %r2, %nope", EMU_ERR_PARSE, 0, 0, 0, "unknown register or symbol '%nope'"},
		{"add.s32 1, %r2, %r3", EMU_ERR_PARSE, 0, 0, 0, "bad destination '1'"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char err[512], want[512];
		emu_error why = EMU_ERR_FAULT;
		emu_module *m = one_insn(cases[i].insn, &why, err, sizeof err);
		if (why != cases[i].why)
			fail_msg("%s: code %d, want %d (%s)", cases[i].insn, why, cases[i].why, m ? "decoded" : err);
		if (!m) {
			const char *in = cases[i].insn[0] == '@' ? strchr(cases[i].insn, ' ') + 1 : cases[i].insn;
			if (cases[i].msg)
				snprintf(want, sizeof want, "one.ptx:10: %s", cases[i].msg);
			else
				snprintf(want, sizeof want, "one.ptx:10: unsupported instruction '%.*s'", (int)strcspn(in, " "), in);
			assert_string_equal(err, want);
			continue;
		}
		const emu_op *o = &m->k[0].ops[0];
		if (o->code != cases[i].code || o->cls != cases[i].cls || (o->flags & cases[i].flags) != cases[i].flags)
			fail_msg("%s: code %d class %d flags %d", cases[i].insn, o->code, o->cls, o->flags);
		emu_module_free(m);
	}
	/* The fields that the modifiers set. */
	char err[256];
	emu_module *m = one_insn("cvta.to.shared.u64 %rd1, %rd2", NULL, err, sizeof err);
	assert_non_null(m);
	assert_int_equal(m->k[0].ops[0].mod, CVTA_TO);
	assert_int_equal(m->k[0].ops[0].space, SP_SHARED);
	emu_module_free(m);
	m = one_insn("cvta.global.u64 %rd1, %rd2", NULL, err, sizeof err);
	assert_non_null(m);
	assert_int_equal(m->k[0].ops[0].mod, CVTA_FROM);
	emu_module_free(m);
	m = one_insn("setp.geu.or.f32 %p1|%p2, %f1, 0f3F800000, %p3", NULL, err, sizeof err);
	assert_non_null(m);
	assert_int_equal(m->k[0].ops[0].mod, CMP_GEU);
	assert_int_equal(m->k[0].ops[0].type2, 2);
	assert_int_equal(m->k[0].ops[0].ndst, 2);
	assert_int_equal(m->k[0].ops[0].nsrc, 3);
	emu_module_free(m);
	m = one_insn("cvt.rni.s32.f64 %r1, %rd1", NULL, err, sizeof err);
	assert_non_null(m);
	assert_int_equal(m->k[0].ops[0].type, ET_S32);
	assert_int_equal(m->k[0].ops[0].type2, ET_F64);
	assert_int_equal(m->k[0].ops[0].mod, RND_RNI);
	emu_module_free(m);
	m = one_insn("ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+-16]", NULL, err, sizeof err);
	assert_non_null(m);
	assert_int_equal(m->k[0].ops[0].vec, 4);
	assert_int_equal(m->k[0].ops[0].ndst, 4);
	assert_int_equal(m->k[0].ops[0].imm, -16);
	emu_module_free(m);
}

/* ---- regions ---- */

/* The emulator's regions are the one scanner's: nested regions give each op
 * the mask of the regions it is in, and a marker problem is a parse error. */
static void test_regions_from_the_scanner(void **state)
{
	(void)state;
	char text[1024], err[256];
	const char *fmt = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 P)\n{\n"
			  "\t.reg .b32 %%r<4>;\n"          /* 6 */
			  "\t// @%s\n"                     /* 7 */
			  "\tmov.u32 %%r1, 1;\n"           /* 8 */
			  "\t// @inner\n"                  /* 9 */
			  "\tadd.u32 %%r1, %%r1, 1;\n"     /* 10 */
			  "\t// @end\n"                    /* 11 */
			  "%s"                             /* 12: the outer @end */
			  "\tret;\n}\n";
	snprintf(text, sizeof text, fmt, "outer", "\t// @end\n");
	emu_error why;
	emu_module *m = emu_module_parse("r.ptx", text, &why, err, sizeof err);
	assert_non_null(m);
	assert_int_equal(m->nregions, 2);
	assert_string_equal(m->regions[0].name, "outer");
	assert_int_equal(m->regions[0].first_line, 7);
	assert_int_equal(m->regions[0].last_line, 12);
	assert_string_equal(m->regions[1].name, "inner");
	assert_int_equal(m->regions[1].first_line, 9);
	assert_int_equal(m->regions[1].last_line, 11);
	assert_int_equal(m->k[0].ops[0].regions, 1);
	assert_int_equal(m->k[0].ops[1].regions, 3);
	assert_int_equal(m->k[0].ops[2].regions, 0); /* ret */
	emu_module_free(m);
	snprintf(text, sizeof text, fmt, "outer", "");
	assert_null(emu_module_parse("r.ptx", text, &why, err, sizeof err));
	assert_int_equal(why, EMU_ERR_PARSE);
	assert_string_equal(err, "r.ptx:7: region @outer has no @end");
	snprintf(text, sizeof text, fmt, "inner", "\t// @end\n");
	assert_null(emu_module_parse("r.ptx", text, &why, err, sizeof err));
	assert_string_equal(err, "r.ptx:9: region @inner is defined twice");
	snprintf(text, sizeof text, fmt, "a-region-name-of-more-than-forty-seven-characters", "\t// @end\n");
	assert_null(emu_module_parse("r.ptx", text, &why, err, sizeof err));
	assert_string_equal(err, "r.ptx:7: region name @a-region-name-of... is longer than 47 characters");
}

/* ---- run statuses ---- */

/* The emulator's row (exec_run) answers each emulator failure with the run status of its code. */
static void test_failure_statuses(void **state)
{
	(void)state;
	static const struct {
		const char *body;
		const char *args;
		run_status st;
		const char *says;
	} cases[] = {
		{"L:\n\tbra L;\n", "", RUN_TIMEOUT, "stopped after"},
		{"\tmbarrier.init.shared::cta.b64 [%rd1], 1;\n", "", RUN_FAULT, "out-of-bounds shared access"},
		{"\tld.param.u64 %rd1, [A];\n\tld.global.f32 %f1, [%rd1+-4];\n", "", RUN_FAULT, "out-of-bounds global load"},
		{"\tret;\n", "A B C M N", RUN_BAD_REQUEST, ""}, /* one parameter short */
	};
	char path[64];
	snprintf(path, sizeof path, "/tmp/test_emu_st_%d.ptx", (int)getpid());
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, ".version 8.0\n.target sm_80\n.address_size 64\n"
			".visible .entry k(.param .u64 A, .param .u64 B, .param .u64 C, .param .u32 M, .param .u32 N, "
			".param .u32 K)\n{\n\t.reg .b64 %%rd<2>;\n\t.reg .f32 %%f<2>;\n%s}\n", cases[i].body);
		fclose(f);
		run_request rq = req("tests/emu/naive.ptx", "k", DTYPE_F32, 32, 32, 32, 1, 1, 32, 1);
		util_strlcpy(rq.ptx_path, path, sizeof rq.ptx_path);
		char why[200];
		if (cases[i].args[0] && argspec_parse(cases[i].args, NULL, &rq.args, why, sizeof why))
			fail_msg("case %zu: args: %s", i, why);
		rq.backend = RUN_BACKEND_EMU;
		static run_result res;
		exec_run(&rq, &res);
		if (res.status != cases[i].st || !strstr(res.log, cases[i].says))
			fail_msg("case %zu: status %d, log '%s'", i, res.status, res.log);
	}
	unlink(path);
}

/* ---- whole GEMMs: our own test kernels ---- */

static void test_naive_gemm(void **state)
{
	(void)state;
	static const long long sizes[][3] = {{1, 1, 1}, {100, 100, 64}, {33, 65, 17}, {128, 128, 128}};
	for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
		long long M = sizes[i][0], N = sizes[i][1], K = sizes[i][2];
		run_request rq = req("tests/emu/naive.ptx", "gemm_naive", DTYPE_F32, M, N, K,
				     (unsigned)((N + 31) / 32), (unsigned)((M + 31) / 32), 32, 32);
		emu_result res;
		char err[512];
		if (emu_run(&rq, NULL, &res, err, sizeof err))
			fail_msg("%s", err);
		assert_int_equal(res.verified, 1);
		assert_int_equal(res.races, 0);
		assert_true(res.rel_error < 1e-5);
	}
	/* exact counts at 128: per warp and k, one request for A (1 sector: the lanes share a row)
	 * and one for B (4 sectors: 32 consecutive floats) */
	run_request rq = req("tests/emu/naive.ptx", "gemm_naive", DTYPE_F32, 128, 128, 128, 4, 4, 32, 32);
	emu_result res;
	char err[512];
	assert_int_equal(emu_run(&rq, NULL, &res, err, sizeof err), 0);
	long long warps = 128 * 128 / 32;
	assert_int_equal(res.total.gld.requests, warps * 128 * 2);
	assert_int_equal(res.total.gld.sectors, warps * 128 * 5);
	assert_int_equal(res.total.gst.requests, warps);
	assert_int_equal(res.total.gst.sectors, warps * 4);
	assert_int_equal(res.total.sld.requests, 0);
	/* the @inner region holds all the loads */
	int inner = -1;
	for (int r = 0; r < res.nregions; r++)
		if (!strcmp(res.regions[r].name, "inner"))
			inner = r;
	assert_true(inner >= 0);
	assert_int_equal(res.regions[inner].c.gld.requests, res.total.gld.requests);
	assert_int_equal(res.regions[inner].c.inst[EMU_CLS_FP], warps * 128);
}

static void test_smem_gemm(void **state)
{
	(void)state;
	static const long long sizes[][3] = {{32, 32, 32}, {64, 96, 128}, {128, 128, 128}};
	for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
		long long M = sizes[i][0], N = sizes[i][1], K = sizes[i][2];
		run_request rq = req("tests/emu/smem.ptx", "gemm_smem", DTYPE_F32, M, N, K,
				     (unsigned)(N / 32), (unsigned)(M / 32), 32, 32);
		emu_result res;
		char err[512];
		if (emu_run(&rq, NULL, &res, err, sizeof err))
			fail_msg("%s", err);
		assert_int_equal(res.verified, 1);
		assert_int_equal(res.races, 0);
		long long warps = M * N / 32, tiles = K / 32;
		/* each warp: 2 global loads and 2 shared stores per tile, 64 shared loads */
		assert_int_equal(res.total.gld.requests, warps * tiles * 2);
		assert_int_equal(res.total.gld.sectors, warps * tiles * 2 * 4);
		assert_int_equal(res.total.sst.requests, warps * tiles * 2);
		assert_int_equal(res.total.sld.requests, warps * tiles * 64);
		assert_int_equal(res.total.sld.wavefronts, warps * tiles * 64);
		assert_int_equal(res.total.sld.bank_conflicts, 0);
		assert_int_equal(res.total.barriers, warps * tiles * 2);
	}
}

static void test_mma_gemm(void **state)
{
	(void)state;
	static const long long sizes[][3] = {{32, 32, 16}, {64, 32, 48}, {128, 128, 128}};
	for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
		long long M = sizes[i][0], N = sizes[i][1], K = sizes[i][2];
		run_request rq = req("tests/emu/mma.ptx", "gemm_mma", DTYPE_F16, M, N, K,
				     (unsigned)(N / 32), (unsigned)(M / 32), 128, 1);
		emu_result res;
		char err[512];
		if (emu_run(&rq, NULL, &res, err, sizeof err))
			fail_msg("%s", err);
		assert_int_equal(res.verified, 1);
		assert_true(res.rel_error < 1e-5); /* exact f16 products, f32 sums */
		assert_int_equal(res.races, 0);
		long long blocks = M * N / 1024, steps = K / 16, warps = blocks * 4;
		/* cp.async: 4 warps each copy 512 contiguous-ish bytes per step */
		assert_int_equal(res.total.gcp.requests, warps * steps);
		assert_int_equal(res.total.scp.wavefronts, warps * steps * 4);
		assert_int_equal(res.total.sldsm.requests, warps * steps * 2);
		/* 32-byte A rows: 2-way conflicts; 64-byte B rows: 4-way (no swizzle) */
		assert_int_equal(res.total.sldsm.wavefronts, warps * steps * (4 * 2 + 4 * 4));
		assert_int_equal(res.total.sldsm.bank_conflicts, warps * steps * (24 - 8));
		assert_int_equal(res.total.inst[EMU_CLS_MMA], warps * steps * 2);
	}
}

/* ---- planted bugs ---- */

static void test_bug_missing_barrier(void **state)
{
	(void)state;
	static const char *const files[] = {"tests/emu/bug_nobar1.ptx", "tests/emu/bug_nobar2.ptx"};
	for (size_t i = 0; i < ARRAY_LEN(files); i++) {
		run_request rq = req(files[i], "gemm_smem", DTYPE_F32, 64, 64, 64, 2, 2, 32, 32);
		emu_result res;
		char err[512];
		if (emu_run(&rq, NULL, &res, err, sizeof err))
			fail_msg("%s", err);
		assert_true(res.races > 0);
		assert_non_null(strstr(res.race_msg, "shared-memory race"));
		assert_non_null(strstr(res.race_msg, files[i] + strlen("tests/emu/")));
		assert_non_null(strstr(res.msg, "race"));
	}
}

static void test_bug_off_by_one(void **state)
{
	(void)state;
	run_request rq = req("tests/emu/bug_offbyone.ptx", "gemm_naive", DTYPE_F32, 100, 100, 64, 4, 4, 32, 32);
	emu_result res;
	char err[512];
	assert_int_equal(emu_run(&rq, NULL, &res, err, sizeof err), EMU_ERR_FAULT);
	assert_non_null(strstr(err, "bug_offbyone.ptx:50: out-of-bounds global load of 4 bytes at A+25600"));
	/* the correct kernel at the same size passes */
	rq = req("tests/emu/naive.ptx", "gemm_naive", DTYPE_F32, 100, 100, 64, 4, 4, 32, 32);
	assert_int_equal(emu_run(&rq, NULL, &res, err, sizeof err), 0);
	assert_int_equal(res.verified, 1);
}

static void test_bug_ldmatrix_layout(void **state)
{
	(void)state;
	run_request rq = req("tests/emu/bug_ldmatrix.ptx", "gemm_mma", DTYPE_F16, 64, 64, 64, 2, 2, 128, 1);
	emu_result res;
	char err[512];
	if (emu_run(&rq, NULL, &res, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(res.verified, 0);
	assert_true(res.rel_error > 0.1);
	assert_true(res.bad_elems > 64 * 64 / 2);
}

static void test_bug_cp_async_no_wait(void **state)
{
	(void)state;
	run_request rq = req("tests/emu/bug_nowait.ptx", "gemm_mma", DTYPE_F16, 64, 64, 64, 2, 2, 128, 1);
	emu_result res;
	char err[512];
	if (emu_run(&rq, NULL, &res, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(res.verified, 0);
}

/* A parsed module can be reused across runs (the TUI keeps one). */
static void test_module_reuse(void **state)
{
	(void)state;
	char path[512], err[512];
	util_path(path, sizeof path, "tests/emu/smem.ptx");
	emu_module *m = emu_module_load(path, NULL, err, sizeof err);
	assert_non_null(m);
	const char *names[4];
	assert_int_equal(emu_module_entries(m, names, 4), 1);
	assert_string_equal(names[0], "gemm_smem");
	emu_options opt = {.module = m, .seed = 42};
	for (int n = 32; n <= 96; n += 32) {
		run_request rq = req("tests/emu/smem.ptx", "gemm_smem", DTYPE_F32, n, n, n, (unsigned)n / 32, (unsigned)n / 32, 32, 32);
		emu_result res;
		assert_int_equal(emu_run(&rq, &opt, &res, err, sizeof err), 0);
		assert_int_equal(res.verified, 1);
	}
	run_request rq = req("tests/emu/smem.ptx", "no_such_entry", DTYPE_F32, 32, 32, 32, 1, 1, 32, 32);
	emu_result res;
	assert_int_equal(emu_run(&rq, &opt, &res, err, sizeof err), EMU_ERR_BAD_REQUEST);
	assert_non_null(strstr(err, "no .entry 'no_such_entry'"));
	emu_module_free(m);
}

/* ---- the command ---- */

/* Runs `ptxtutor emulate ARGS` in this process; returns its status and what it printed. */
static int emulate_cmd(char *out, size_t outlen, const char *const *args, int n)
{
	char *argv[32];
	int argc = 0;
	argv[argc++] = "emulate";
	for (int i = 0; i < n; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	char tmpl[] = "/tmp/test_emu_XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	int rc = cli_cmd_emulate.run(&cli_cmd_emulate, argc, argv); /* its row: its option table */
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	lseek(fd, 0, SEEK_SET);
	ssize_t got = read(fd, out, outlen - 1);
	out[got > 0 ? got : 0] = 0;
	close(fd);
	unlink(tmpl);
	return rc;
}

static void test_emulate_command(void **state)
{
	(void)state;
	static char out[1 << 16];
	char naive[600], nobar[600], bad[600];
	util_path(naive, sizeof naive, "tests/emu/naive.ptx");
	util_path(nobar, sizeof nobar, "tests/emu/bug_nobar2.ptx");
	const char *const ok[] = {"--ptx", naive, "--entry", "gemm_naive", "--grid", "ceil(N/32),ceil(M/32)",
				  "--block", "32,32", "--size", "64,96,40", "--json"};
	assert_int_equal(emulate_cmd(out, sizeof out, ok, 11), 0);
	assert_non_null(strstr(out, "\"verified\": true"));
	assert_non_null(strstr(out, "\"sectors_per_request\""));
	assert_non_null(strstr(out, "\"bank_conflicts\""));
	assert_non_null(strstr(out, "\"regions\": ["));     /* per_line.regions, with their counts by kind */
	assert_non_null(strstr(out, "\"name\": \"inner\""));
	assert_non_null(strstr(out, "\"by_kind\": {"));
	const char *const racy[] = {"--ptx", nobar, "--entry", "gemm_smem", "--grid", "N/32,M/32",
				    "--block", "32,32", "--size", "64"};
	assert_int_equal(emulate_cmd(out, sizeof out, racy, 10), 1);
	assert_non_null(strstr(out, "FAILED"));
	assert_non_null(strstr(out, "shared-memory race"));
	snprintf(bad, sizeof bad, "/tmp/test_emu_bad_%d.ptx", (int)getpid());
	FILE *f = fopen(bad, "w");
	assert_non_null(f);
	fputs(".version 7.0\n.target sm_80\n.address_size 64\n"
	      ".visible .entry k(.param .u64 A, .param .u64 B, .param .u64 C, .param .u32 M, .param .u32 N, .param .u32 K)\n"
	      "{\n\t.reg .b32 %r<2>;\n\tvabsdiff4.u32.u32.u32 %r1, %r0, %r0, %r0;\n\tret;\n}\n", f);
	fclose(f);
	const char *const unsup[] = {"--ptx", bad, "--entry", "k", "--grid", "1", "--block", "32", "--size", "32"};
	assert_int_equal(emulate_cmd(out, sizeof out, unsup, 10), 2);
	assert_non_null(strstr(out, ":7: unsupported instruction 'vabsdiff4.u32.u32.u32'"));
	unlink(bad);
}

/* ---- the lessons ---- */

/* The whole course, or a failure: a lesson that does not load is not quietly left untested. */
static int load_course(course *c)
{
	char errs[4096] = "";
	int n = course_load(c, errs, sizeof errs);
	if (errs[0])
		fail_msg("course_load: %s", errs);
	if (n <= 0)
		fail_msg("course_load found no lessons");
	return n;
}

static void test_lessons(void **state)
{
	(void)state;
	static course c;
	int n = load_course(&c);
	int ran = 0;
	for (int i = 0; i < n; i++) {
		const lesson *l = &c.l[i];
		if (!l->ptx_path[0] || l->needs_arch_specific || l->dt == DTYPE_NONE)
			continue;
		static const long long sizes[][3] = {
			{128, 128, 128}, {256, 256, 128}, {128, 256, 192}, {128, 512, 64}, {100, 72, 36},
		};
		int ok_sizes = 0;
		for (size_t s = 0; s < ARRAY_LEN(sizes); s++) {
			run_request rq;
			char err[512];
			expr_env none = {0};
			if (launch_request_for_lesson(l, &none, sizes[s][0], sizes[s][1], sizes[s][2], &rq, err, sizeof err))
				continue; /* not a valid size for this lesson */
			emu_result res;
			if (emu_run(&rq, NULL, &res, err, sizeof err))
				fail_msg("lesson %d at %lldx%lldx%lld: %s", l->number, rq.M, rq.N, rq.K, err);
			if (res.verified != 1 || res.races)
				fail_msg("lesson %d at %lldx%lldx%lld: %s", l->number, rq.M, rq.N, rq.K, res.msg);
			print_message("lesson %d (%s) at %lldx%lldx%lld: verified, rel. error %.2g, %.2f s\n",
				      l->number, l->id, rq.M, rq.N, rq.K, res.rel_error, res.seconds);
			ok_sizes++;
		}
		if (ok_sizes < 2)
			fail_msg("lesson %d: fewer than two of the test sizes are valid", l->number);
		ran++;
	}
	course_free(&c);
	if (!ran)
		fail_msg("no lesson kernel ran on the emulator");
}

/* Mutants of the real lesson kernels: deleting any bar.sync or cp.async.wait_group
 * line must give a race or a wrong result; so must dropping an ldmatrix .trans. */
static int mutant_caught(const run_request *rq, const char *path, const char *text, char *err, int errlen)
{
	emu_module *m = emu_module_parse(path, text, NULL, err, errlen);
	if (!m)
		return -1;
	emu_options opt = {.module = m};
	emu_result res;
	int rc = emu_run(rq, &opt, &res, err, errlen);
	emu_module_free(m);
	if (rc)
		return 1; /* stopped with an error: caught too */
	return res.races > 0 || res.verified != 1;
}

static void test_lesson_mutants(void **state)
{
	(void)state;
	static course c;
	int n = load_course(&c), mutants = 0;
	static const char *const deletions[] = {"bar.sync", "barrier.sync", "cp.async.wait_group", "cp.async.wait_all"};
	for (int i = 0; i < n; i++) {
		const lesson *l = &c.l[i];
		if (!l->ptx_path[0] || l->needs_arch_specific || l->dt == DTYPE_NONE)
			continue;
		run_request rq;
		char err[512], path[600];
		expr_env none = {0};
		if (launch_request_for_lesson(l, &none, 128, 128, 128, &rq, err, sizeof err) &&
		    launch_request_for_lesson(l, &none, 256, 256, 256, &rq, err, sizeof err))
			continue;
		util_path(path, sizeof path, l->ptx_path);
		char *text = util_read_file(path, NULL, NULL, 0);
		assert_non_null(text);
		int line = 1;
		for (char *p = text; *p; line++) {
			char *eol = strchr(p, '\n');
			size_t len = eol ? (size_t)(eol - p) : strlen(p);
			char code[256];
			snprintf(code, sizeof code, "%.*s", (int)(len < 255 ? len : 255), p);
			char *cmt = strstr(code, "//");
			if (cmt)
				*cmt = 0;
			int del = 0;
			for (size_t d = 0; d < ARRAY_LEN(deletions); d++)
				del |= strstr(code, deletions[d]) != NULL;
			char *tr = strstr(code, "ldmatrix") ? strstr(code, ".trans") : NULL;
			if (del || tr) {
				char *mut = strdup(text);
				assert_non_null(mut);
				if (del)
					memset(mut + (p - text), ' ', len);
				else { /* cut the 6 characters out of the opcode */
					char *q = mut + (p - text) + (tr - code);
					memmove(q, q + 6, strlen(q + 6) + 1);
				}
				int caught = mutant_caught(&rq, path, mut, err, sizeof err);
				free(mut);
				if (caught < 0)
					fail_msg("lesson %d line %d: the mutant does not parse: %s", l->number, line, err);
				if (!caught)
					fail_msg("lesson %d: %s at line %d is not needed by the emulator's check (%s)",
						 l->number, del ? "deleting the line" : "dropping .trans", line, code);
				mutants++;
			}
			if (!eol)
				break;
			p = eol + 1;
		}
		free(text);
	}
	course_free(&c);
	if (!mutants)
		fail_msg("no lesson kernel gave a mutant (no barrier, wait or ldmatrix .trans found)");
	print_message("%d lesson mutants caught\n", mutants);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_32bit),
		cmocka_unit_test(test_shared_64_128bit),
		cmocka_unit_test(test_global_sectors),
		cmocka_unit_test(test_divergence_and_shfl),
		cmocka_unit_test(test_f16_and_math),
		cmocka_unit_test(test_unsupported_and_parse_errors),
		cmocka_unit_test(test_endless_loop_stops),
		cmocka_unit_test(test_decode_table),
		cmocka_unit_test(test_regions_from_the_scanner),
		cmocka_unit_test(test_failure_statuses),
		cmocka_unit_test(test_naive_gemm),
		cmocka_unit_test(test_smem_gemm),
		cmocka_unit_test(test_mma_gemm),
		cmocka_unit_test(test_bug_missing_barrier),
		cmocka_unit_test(test_bug_off_by_one),
		cmocka_unit_test(test_bug_ldmatrix_layout),
		cmocka_unit_test(test_bug_cp_async_no_wait),
		cmocka_unit_test(test_module_reuse),
		cmocka_unit_test(test_emulate_command),
		cmocka_unit_test(test_lessons),
		cmocka_unit_test(test_lesson_mutants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
