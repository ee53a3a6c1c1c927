/* test_emu_atom: issue 39's emulator gaps as the PTX ISA defines them: atom and red (each operation's edge cases, atomic across warps and blocks with no race), calls of a .func (recursion, its bound, two return paths, refused forms), vote/activemask/redux, bfind, copysign, cvt.sat, the emulated clock, the divergent barrier; nvcc's PTX of tests/students/ops/ with known outputs. */
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
#include "emu/emu_internal.h"
#include "base/util.h"

/* ---- running a kernel ---- */

typedef struct {
	uint8_t *buf[2];
	size_t bytes[2];
	int nbufs;
	unsigned grid, block;
	unsigned long long races;
	char err[512];
	emu_opcount cnt[512];
} run_t;

/* Runs entry 0 of text with a parameter per buffer (its address), on grid x
 * block threads; 0, or the emu_error with r->err. */
static int run_text(const char *text, run_t *r)
{
	emu_error why = EMU_OK;
	emu_module *m = emu_module_parse("t.ptx", text, &why, r->err, sizeof r->err);
	if (!m)
		return why ? (int)why : -1;
	assert_true(m->k[0].nops <= (int)(sizeof r->cnt / sizeof r->cnt[0]));
	uint8_t param[16];
	for (int i = 0; i < r->nbufs; i++) {
		uint64_t p = (uint64_t)(i + 1) << EMU_GLOBAL_SHIFT;
		memcpy(param + 8 * i, &p, 8);
	}
	memset(r->cnt, 0, sizeof r->cnt);
	emu_launch L = {.k = &m->k[0], .path = "t.ptx", .grid = {r->grid ? r->grid : 1, 1, 1},
			.block = {r->block ? r->block : 1, 1, 1}, .param = param, .nbufs = r->nbufs, .cnt = r->cnt,
			.max_warp_inst = 10000000};
	for (int i = 0; i < r->nbufs; i++)
		L.bufs[i] = (emu_buffer){r->buf[i], r->bytes[i]};
	int rc = (int)emu_exec(&L, r->err, sizeof r->err);
	r->races = L.races;
	if (L.races && !rc)
		run_error_text(&L.race, r->err, sizeof r->err);
	emu_module_free(m);
	return rc;
}

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* One thread: b, c (64 bits) at P[8], P[16] as %rd2, %rd3, their low halves
 * %r2, %r3 (and %f2, %fd2 the same bits); insn on the word at P[32]; its
 * result (dst, stored as st) to P[24]. */
static const char one_fmt[] = HEAD
	".visible .entry k(.param .u64 P)\n{\n"
	"\t.reg .b16 %%rs<4>;\n\t.reg .b32 %%r<4>;\n\t.reg .f32 %%f<4>;\n\t.reg .f64 %%fd<4>;\n\t.reg .b64 %%rd<4>;\n"
	"\tld.param.u64 %%rd1, [P];\n"
	"\tld.global.b64 %%rd2, [%%rd1+8];\n\tld.global.b64 %%rd3, [%%rd1+16];\n"
	"\tld.global.b16 %%rs2, [%%rd1+8];\n\tld.global.b16 %%rs3, [%%rd1+16];\n"
	"\tld.global.b32 %%r2, [%%rd1+8];\n\tld.global.b32 %%r3, [%%rd1+16];\n"
	"\tmov.b32 %%f2, %%r2;\n\tmov.b64 %%fd2, %%rd2;\n\tmov.b64 %%rd0, 0;\n\tmov.b32 %%r0, 0;\n"
	"\t%s;\n"
	"\tst.global.%s [%%rd1+24], %s;\n\tret;\n}\n";

/* The word at P[32] (mem) after insn with b, c; *old: what insn returned. */
static uint64_t atom1(const char *insn, const char *st, const char *dst, uint64_t mem, uint64_t b, uint64_t c,
		      uint64_t *old)
{
	static uint8_t buf[64];
	char text[2048];
	snprintf(text, sizeof text, one_fmt, insn, st, dst);
	memset(buf, 0, sizeof buf);
	memcpy(buf + 8, &b, 8);
	memcpy(buf + 16, &c, 8);
	memcpy(buf + 32, &mem, 8);
	run_t *r = calloc(1, sizeof *r);
	r->buf[0] = buf;
	r->bytes[0] = sizeof buf;
	r->nbufs = 1;
	if (run_text(text, r))
		fail_msg("%s: %s", insn, r->err);
	free(r);
	uint64_t out = 0, m = 0;
	memcpy(&out, buf + 24, 8);
	memcpy(&m, buf + 32, 8);
	if (old)
		*old = out;
	return m;
}

#define A32(insn, mem, b, c, old) ((uint32_t)atom1(insn, "b32", "%r0", mem, b, c, old))
#define A64(insn, mem, b, c, old) atom1(insn, "b64", "%rd0", mem, b, c, old)

static uint64_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static uint64_t dbits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

/* Parses a module with one instruction in one_fmt; 0 when the emulator takes it, else the message in err. */
static int takes(const char *insn, char *err, size_t n)
{
	char text[2048];
	snprintf(text, sizeof text, one_fmt, insn, "b32", "%r0");
	emu_module *m = emu_module_parse("t.ptx", text, NULL, err, (int)n);
	emu_module_free(m);
	return m ? 0 : -1;
}

/* ---- atom, red ---- */

static void test_atom_ops(void **st)
{
	(void)st;
	uint64_t old;
	/* inc wraps to 0 from b on; dec to b from 0 or above b (PTX ISA atom) */
	assert_int_equal(A32("atom.global.inc.u32 %r0, [%rd1+32], %r2", 4, 5, 0, &old), 5);
	assert_int_equal(old, 4);
	assert_int_equal(A32("atom.global.inc.u32 %r0, [%rd1+32], %r2", 5, 5, 0, &old), 0);
	assert_int_equal(A32("atom.global.inc.u32 %r0, [%rd1+32], %r2", 9, 5, 0, &old), 0);
	assert_int_equal(A32("atom.global.dec.u32 %r0, [%rd1+32], %r2", 0, 5, 0, &old), 5);
	assert_int_equal(A32("atom.global.dec.u32 %r0, [%rd1+32], %r2", 7, 5, 0, &old), 5);
	assert_int_equal(A32("atom.global.dec.u32 %r0, [%rd1+32], %r2", 3, 5, 0, &old), 2);
	/* cas: c stored only where the old value equals b; the old value returned either way */
	assert_int_equal(A32("atom.global.cas.b32 %r0, [%rd1+32], %r2, %r3", 7, 7, 9, &old), 9);
	assert_int_equal(old, 7);
	assert_int_equal(A32("atom.global.cas.b32 %r0, [%rd1+32], %r2, %r3", 8, 7, 9, &old), 8);
	assert_int_equal(old, 8);
	assert_int_equal(A64("atom.global.cas.b64 %rd0, [%rd1+32], %rd2, %rd3", 1ULL << 40, 1ULL << 40, 3, &old), 3);
	/* min, max: signed or unsigned by the type; a signed old value comes back sign-extended */
	assert_int_equal(A32("atom.global.min.s32 %r0, [%rd1+32], %r2", 5, 0xfffffffe, 0, &old), 0xfffffffe);
	assert_int_equal(A32("atom.global.min.u32 %r0, [%rd1+32], %r2", 5, 0xfffffffe, 0, &old), 5);
	assert_int_equal(A32("atom.global.max.s32 %r0, [%rd1+32], %r2", 5, 0xfffffffe, 0, &old), 5);
	assert_int_equal(A32("atom.global.max.u32 %r0, [%rd1+32], %r2", 5, 0xfffffffe, 0, &old), 0xfffffffe);
	A64("atom.global.min.s32 %r0, [%rd1+32], %r2; cvt.s64.s32 %rd0, %r0", 0xfffffff0, 3, 0, &old);
	assert_true(old == 0xfffffffffffffff0ULL);
	assert_true(A64("atom.global.max.s64 %rd0, [%rd1+32], %rd2", (uint64_t)-5, 2, 0, &old) == 2);
	/* bits, exchange, wrap-around add of u64 */
	assert_int_equal(A32("atom.global.and.b32 %r0, [%rd1+32], %r2", 0xff0, 0x0ff, 0, NULL), 0x0f0);
	assert_int_equal(A32("atom.global.or.b32 %r0, [%rd1+32], %r2", 0xf00, 0x00f, 0, NULL), 0xf0f);
	assert_int_equal(A32("atom.global.xor.b32 %r0, [%rd1+32], %r2", 0xff0, 0x0ff, 0, NULL), 0xf0f);
	assert_int_equal(A32("atom.global.exch.b32 %r0, [%rd1+32], %r2", 11, 22, 0, &old), 22);
	assert_int_equal(old, 11);
	assert_true(A64("atom.global.add.u64 %rd0, [%rd1+32], %rd2", ~0ULL, 2, 0, &old) == 1);
	assert_int_equal(A32("atom.global.add.u32 %r0, [%rd1+32], %r2", 0xffffffff, 2, 0, NULL), 1);
	/* the high word of a 32-bit atomic's neighbour is untouched */
	assert_true(A64("atom.global.add.u32 %r0, [%rd1+32], %r2", 0x500000001ULL, 1, 0, NULL) == 0x500000002ULL);
	/* floats: f32 rounds to nearest; on global memory subnormals flush to zero, on shared they stay */
	assert_true(A32("atom.global.add.f32 %f0, [%rd1+32], %f2; mov.b32 %r0, %f0", fbits(1.0f), fbits(0x1p-24f), 0, NULL) ==
		    fbits(1.0f));
	assert_true(A32("atom.global.add.f32 %f0, [%rd1+32], %f2; mov.b32 %r0, %f0", fbits(1.0f),
			fbits(0x1.8p-24f), 0, NULL) == fbits(1.0f + 0x1p-23f));
	assert_true(A32("atom.global.add.f32 %f0, [%rd1+32], %f2; mov.b32 %r0, %f0", fbits(0x1p-140f), fbits(0x1p-140f), 0,
			NULL) == 0);
	assert_true(A32("atom.global.add.f32 %f0, [%rd1+32], %f2; mov.b32 %r0, %f0", fbits(-0x1p-140f), fbits(-0.0f), 0,
			NULL) == fbits(-0.0f));
	assert_true(A64("atom.global.add.f64 %fd0, [%rd1+32], %fd2; mov.b64 %rd0, %fd0", dbits(1.0), dbits(0x1p-60), 0,
			NULL) == dbits(1.0 + 0x1p-60));
	/* f16x2: each half on its own (1.0 + 1.0, 2.0 + 0.5) */
	assert_int_equal(A32("atom.global.add.noftz.f16x2 %r0, [%rd1+32], %r2", 0x40003c00, 0x38003c00, 0, NULL), 0x41004000);
	/* f16 and bf16 scalars (atomicAdd of __half), a 16-bit cas */
	assert_int_equal(A32("atom.global.add.noftz.f16 %rs0, [%rd1+32], %rs2; cvt.u32.u16 %r0, %rs0", 0x12344000, 0x3c00, 0,
			     &old), 0x12344200);
	assert_int_equal(old, 0x4000);
	assert_int_equal(A32("atom.global.add.noftz.bf16 %rs0, [%rd1+32], %rs2", 0x3f80, 0x3f80, 0, NULL), 0x4000);
	assert_int_equal(A32("atom.global.cas.b16 %rs0, [%rd1+32], %rs2, %rs3", 0x77770005, 5, 9, NULL), 0x77770009);
	/* red: no result, the same update */
	assert_int_equal(A32("red.global.add.u32 [%rd1+32], %r2", 40, 2, 0, NULL), 42);
	assert_int_equal(A32("red.relaxed.gpu.global.max.s32 [%rd1+32], %r2", 0xfffffff0, 3, 0, NULL), 3);
	/* the orders and scopes change nothing; a generic address resolves to global memory */
	assert_int_equal(A32("atom.acq_rel.sys.global.add.u32 %r0, [%rd1+32], %r2", 1, 2, 0, NULL), 3);
	assert_int_equal(A32("atom.release.cta.add.u32 %r0, [%rd1+32], %r2", 1, 2, 0, NULL), 3);
}

static void test_atom_refused(void **st)
{
	(void)st;
	char err[512];
	assert_int_equal(takes("atom.global.add.u32 %r0, [%rd1+32], %r2", err, sizeof err), 0);
	assert_int_equal(takes("atom.global.inc.s32 %r0, [%rd1+32], %r2", err, sizeof err), -1);   /* inc is .u32's */
	assert_non_null(strstr(err, "unsupported instruction 'atom.global.inc.s32'"));
	assert_int_equal(takes("atom.global.and.u32 %r0, [%rd1+32], %r2", err, sizeof err), -1);   /* bits are .b32 */
	assert_int_equal(takes("red.global.cas.b32 [%rd1+32], %r2, %r3", err, sizeof err), -1);    /* red does not compare */
	assert_int_equal(takes("atom.global.cas.b32 %r0, [%rd1+32], %r2", err, sizeof err), -1);   /* cas takes c */
	assert_non_null(strstr(err, "takes 4 operands"));
	assert_int_equal(takes("atom.shared::cluster.add.u32 %r0, [%rd1+32], %r2", err, sizeof err), -1);
	/* out of bounds: the same check and message as ld/st, named an atomic */
	static uint8_t buf[64];
	run_t *r = calloc(1, sizeof *r);
	char text[2048];
	snprintf(text, sizeof text, one_fmt, "atom.global.add.u32 %r0, [%rd1+64], %r2", "b32", "%r0");
	r->buf[0] = buf;
	r->bytes[0] = sizeof buf;
	r->nbufs = 1;
	assert_int_equal(run_text(text, r), EMU_ERR_FAULT);
	assert_non_null(strstr(r->err, "out-of-bounds global atomic of 4 bytes at A+64"));
	snprintf(text, sizeof text, one_fmt, "atom.global.add.u32 %r0, [%rd1+2], %r2", "b32", "%r0");
	assert_int_equal(run_text(text, r), EMU_ERR_FAULT);
	assert_non_null(strstr(r->err, "misaligned 4-byte access"));
	free(r);
}

/* Every thread of 2 blocks of 64 adds 1 to a global word and to a shared
 * one; after bar.sync thread 0 adds the shared total to a second global word
 * with red. Atomics by several warps on one shared word are no race; the
 * same with a plain load and store is one. */
static const char many_fmt[] = HEAD
	".visible .entry k(.param .u64 P)\n{\n"
	"\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n\t.shared .align 4 .b32 s;\n"
	"\tld.param.u64 %%rd1, [P];\n\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r5, 1;\n"
	"\tsetp.ne.u32 %%p1, %%r1, 0;\n"
	"\t@!%%p1 st.shared.u32 [s], 0;\n\tbar.sync 0;\n"
	"\tatom.global.add.u32 %%r2, [%%rd1], %%r5;\n"
	"\t%s;\n"
	"\tbar.sync 0;\n"
	"\t@%%p1 bra DONE;\n\tld.shared.u32 %%r4, [s];\n\tred.global.add.u32 [%%rd1+4], %%r4;\n"
	"DONE:\n\tret;\n}\n";

static void test_atom_many(void **st)
{
	(void)st;
	static uint8_t buf[16];
	run_t *r = calloc(1, sizeof *r);
	char text[2048];
	r->buf[0] = buf;
	r->bytes[0] = sizeof buf;
	r->nbufs = 1;
	r->grid = 2;
	r->block = 64;
	snprintf(text, sizeof text, many_fmt, "atom.shared.add.u32 %r3, [s], %r5");
	memset(buf, 0, sizeof buf);
	assert_int_equal(run_text(text, r), 0);
	assert_int_equal(r->races, 0);
	uint32_t w[2];
	memcpy(w, buf, 8);
	assert_int_equal(w[0], 128);
	assert_int_equal(w[1], 128);
	/* counted as stores: one request a warp for the global and the shared atom */
	int n = 0;
	for (int i = 0; i < 64; i++)
		n += r->cnt[i].issued == 4 && r->cnt[i].requests == 4 && r->cnt[i].sectors == 4; /* the global atom */
	assert_int_equal(n, 1);
	/* a generic address in the shared window is a shared atomic */
	snprintf(text, sizeof text, many_fmt, "mov.u64 %rd2, s; cvta.shared.u64 %rd2, %rd2; atom.add.u32 %r3, [%rd2], %r5");
	memset(buf, 0, sizeof buf);
	assert_int_equal(run_text(text, r), 0);
	assert_int_equal(r->races, 0);
	memcpy(w, buf, 8);
	assert_int_equal(w[1], 128);
	/* without the atomic the warps race on s */
	snprintf(text, sizeof text, many_fmt, "ld.shared.u32 %r3, [s]; add.u32 %r3, %r3, 1; st.shared.u32 [s], %r3");
	run_text(text, r);
	assert_true(r->races > 0);
	assert_non_null(strstr(r->err, "shared-memory race"));
	free(r);
}

/* ---- calls of a .func ---- */

/* f(n) = n <= 0 ? 0 : n + f(n - 1), each lane n = its lane id (LIMIT: the
 * recursion's stop, or none); out[lane] = f(lane). Lanes leave the
 * recursion at different depths and return together. */
static const char rec_fmt[] = HEAD
	".func (.param .b32 ret) f(.param .b32 n)\n{\n"
	"\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<5>;\n"
	"\tld.param.u32 %%r1, [n];\n\tmov.u32 %%r4, 0;\n"
	"\t%s\n"
	"\tsub.s32 %%r2, %%r1, 1;\n"
	"\t{\n\t.param .b32 a0;\n\tst.param.b32 [a0+0], %%r2;\n\t.param .b32 r0;\n"
	"\tcall.uni (r0), f, (a0);\n\tld.param.b32 %%r3, [r0+0];\n\t}\n"
	"\tadd.s32 %%r4, %%r1, %%r3;\n"
	"L_END:\n\tst.param.b32 [ret+0], %%r4;\n\tret;\n}\n"
	".visible .entry k(.param .u64 P)\n{\n"
	"\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n"
	"\tld.param.u64 %%rd1, [P];\n\tmov.u32 %%r1, %%tid.x;\n"
	"\t{\n\t.param .b32 a0;\n\tst.param.b32 [a0+0], %%r1;\n\t.param .b32 r0;\n"
	"\tcall.uni (r0), f, (a0);\n\tld.param.b32 %%r2, [r0+0];\n\t}\n"
	"\tmul.wide.u32 %%rd2, %%r1, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n\tst.global.u32 [%%rd3], %%r2;\n\tret;\n}\n";

static void test_call_recursion(void **st)
{
	(void)st;
	static uint8_t buf[128];
	run_t *r = calloc(1, sizeof *r);
	char text[4096];
	r->buf[0] = buf;
	r->bytes[0] = sizeof buf;
	r->nbufs = 1;
	r->block = 32;
	snprintf(text, sizeof text, rec_fmt, "setp.le.s32 %p1, %r1, 0;\n\t@%p1 bra L_END;");
	assert_int_equal(run_text(text, r), 0);
	for (int l = 0; l < 32; l++) {
		uint32_t v;
		memcpy(&v, buf + 4 * l, 4);
		assert_int_equal(v, l * (l + 1) / 2);
	}
	/* without a stop: the depth limit, with a message, not the host's stack */
	snprintf(text, sizeof text, rec_fmt, "");
	assert_int_equal(run_text(text, r), EMU_ERR_FAULT);
	assert_non_null(strstr(r->err, "call of f: calls nested 256 deep in lane 0 (recursion without end?)"));
	free(r);
}

static void test_call_refused(void **st)
{
	(void)st;
	char err[512];
	const char *ptr = HEAD ".func (.param .b32 ret) f(.param .b32 n)\n{\n\tret;\n}\n"
		".visible .entry k(.param .u64 P)\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, f;\n"
		"\t{\n\t.param .b32 a0;\n\t.param .b32 r0;\n\tproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"\tcall (r0), %rd1, (a0), proto;\n\t}\n\tret;\n}\n";
	assert_null(emu_module_parse("t.ptx", ptr, NULL, err, sizeof err));
	assert_non_null(strstr(err, "t.ptx:11: the address of .func 'f' (a function pointer): the emulator runs direct calls"));
	const char *ptr2 = HEAD ".func (.param .b32 ret) f(.param .b32 n)\n{\n\tret;\n}\n"
		".visible .entry k(.param .u64 P)\n{\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [P];\n"
		"\t{\n\t.param .b32 a0;\n\t.param .b32 r0;\n\tproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"\tcall (r0), %rd1, (a0), proto;\n\t}\n\tret;\n}\n";
	assert_null(emu_module_parse("t.ptx", ptr2, NULL, err, sizeof err));
	assert_non_null(strstr(err, "t.ptx:16: call through a function pointer ('%rd1'): the emulator runs direct calls of "
				    "the module's .func only"));
	const char *args = HEAD ".func (.param .b32 ret) f(.param .b32 n)\n{\n\tst.param.b32 [ret+0], 1;\n\tret;\n}\n"
		".visible .entry k(.param .u64 P)\n{\n"
		"\t{\n\t.param .b32 a0;\n\t.param .b32 a1;\n\t.param .b32 r0;\n\tcall.uni (r0), f, (a0, a1);\n\t}\n\tret;\n}\n";
	assert_null(emu_module_parse("t.ptx", args, NULL, err, sizeof err));
	assert_non_null(strstr(err, "call of 'f' with 2 arguments and 1 return values; it takes 1 and gives 1"));
	const char *none = HEAD ".visible .entry k(.param .u64 P)\n{\n"
		"\t{\n\t.param .b32 a0;\n\tcall.uni g, (a0);\n\t}\n\tret;\n}\n";
	assert_null(emu_module_parse("t.ptx", none, NULL, err, sizeof err));
	assert_non_null(strstr(err, "call to 'g': no .func of that name in the module"));
	const char *strct = HEAD ".func f(.param .align 4 .b8 s[8])\n{\n\tret;\n}\n"
		".visible .entry k(.param .u64 P)\n{\n"
		"\t{\n\t.param .align 4 .b8 a0[8];\n\tcall.uni f, (a0);\n\t}\n\tret;\n}\n";
	assert_null(emu_module_parse("t.ptx", strct, NULL, err, sizeof err));
	assert_non_null(strstr(err, "an array (a struct by value)"));
}

/* ---- nvcc's PTX (tests/students/ops/) ---- */

static char *read_ops(const char *name)
{
	char path[512], rel[128];
	snprintf(rel, sizeof rel, "tests/students/ops/%s", name);
	util_path(path, sizeof path, rel);
	char *text = util_read_file(path, NULL, NULL, 0);
	if (!text)
		fail_msg("cannot read %s", path);
	return text;
}

/* atomics_all.cu: every atomic nvcc writes for CUDA's atomic functions decodes. */
static void test_atomics_all_decode(void **st)
{
	(void)st;
	char *text = read_ops("atomics_all.sm80.ptx"), err[512];
	emu_module *m = emu_module_parse("atomics_all.ptx", text, NULL, err, sizeof err);
	if (!m)
		fail_msg("%s", err);
	int n = 0;
	for (int i = 0; i < m->k[0].nops; i++)
		n += m->k[0].ops[i].code == OP_ATOM;
	assert_true(n >= 30);
	emu_module_free(m);
	free(text);
}

/* calls_G.cu: recursion, two return paths and __shfl_down_sync, each a .func of a -G build. */
static void test_calls_G(void **st)
{
	(void)st;
	static uint8_t buf[128];
	char *text = read_ops("calls_G.sm80.ptx");
	run_t *r = calloc(1, sizeof *r);
	r->buf[0] = buf;
	r->bytes[0] = sizeof buf;
	r->nbufs = 1;
	r->block = 32;
	assert_int_equal(run_text(text, r), 0);
	for (int t = 0; t < 32; t++) {
		int32_t v;
		memcpy(&v, buf + 4 * t, 4);
		int n = t % 8;
		assert_int_equal(v, n * (n + 1) / 2 + (t & 1 ? 100 : 200) + (t == 0 ? 496 : 0));
	}
	free(r);
	free(text);
}

/* warp_ops.cu: 28 lanes (28..31 exited), in[t] = t - 10; the words each lane wrote (the .cu says which).
 * The same from the -G build, where each intrinsic is a call of a .func. */
static void warp_ops(const char *file)
{
	static uint8_t out[32 * 16 * 4], in[32 * 4];
	char *text = read_ops(file);
	run_t *r = calloc(1, sizeof *r);
	for (int t = 0; t < 32; t++) {
		float x = (float)(t - 10);
		memcpy(in + 4 * t, &x, 4);
	}
	memset(out, 0, sizeof out);
	r->buf[0] = out;
	r->bytes[0] = sizeof out;
	r->buf[1] = in;
	r->bytes[1] = sizeof in;
	r->nbufs = 2;
	r->block = 32;
	assert_int_equal(run_text(text, r), 0);
	for (int t = 0; t < 32; t++) {
		uint32_t o[16];
		memcpy(o, out + 64 * t, 64);
		if (t >= 28) {
			for (int i = 0; i < 16; i++)
				assert_int_equal(o[i], 0);
			continue;
		}
		assert_int_equal(o[0], 0x0ffff800);                 /* ballot of t > 10 */
		assert_int_equal(o[1], 0x0fffffff);                 /* activemask: 28 lanes */
		assert_int_equal(o[2], 1);                          /* any t == 5 */
		assert_int_equal(o[3], 0);                          /* all t < 20 */
		assert_int_equal(o[4], 378);                        /* sum of 0..27 */
		assert_int_equal(o[5], (uint32_t)-17);              /* min of 10 - t */
		assert_int_equal(o[6], 0xff);                       /* or of 1 << t % 8 */
		assert_int_equal(o[7], t ? (uint32_t)__builtin_ctz((unsigned)t) + 3 : 0); /* __ffs(4t): brev, bfind.shiftamt */
		assert_int_equal(o[8], t ? (uint32_t)__builtin_clz((unsigned)t) : 32);
		float cs, sat;
		memcpy(&cs, &o[9], 4);
		memcpy(&sat, &o[10], 4);
		assert_true(cs == (t < 10 ? -2.5f : 2.5f));         /* copysignf(2.5, t - 10): +0 at t = 10 */
		float want = (float)(t - 10) * 0.25f;
		assert_true(sat == (want < 0 ? 0.0f : want > 1 ? 1.0f : want));
		assert_int_equal(o[11], 1);                         /* the clock went forward */
		assert_int_equal(o[12], t & 1 ? 0x0aaaaaaa : 26);   /* inside a branch: its lanes only */
		assert_int_equal(o[13], 10);                        /* signed max of 10 - t */
		assert_int_equal(o[14], 0xf0);                      /* xor of 0..27 is 0; and of 0xf0 | t */
		assert_int_equal(o[15], (uint32_t)(31 - __builtin_clz((unsigned)t + 1)));
	}
	free(r);
	free(text);
}

static void test_warp_ops(void **st)
{
	(void)st;
	warp_ops("warp_ops.sm80.ptx");
	warp_ops("warp_ops_G.sm80.ptx");
}

/* ---- vote, redux, bfind, copysign, cvt.sat, clock by hand ---- */

static void test_bits(void **st)
{
	(void)st;
	/* bfind: the highest non-sign bit; 0xffffffff when none; .shiftamt its distance from the top */
	assert_int_equal(A32("bfind.u32 %r0, %r2", 0, 0, 0, NULL) == 0, 1);
	uint64_t v;
	A64("bfind.u32 %r0, %r2; cvt.u64.u32 %rd0, %r0", 0, 0, 0, &v);
	assert_true(v == 0xffffffffu);
	A64("bfind.s32 %r0, %r2; cvt.u64.u32 %rd0, %r0", 0, 0xffffffff, 0, &v);
	assert_true(v == 0xffffffffu);                      /* -1: no 0 bit */
	A64("bfind.s32 %r0, %r2; cvt.u64.u32 %rd0, %r0", 0, 0xfffffff0, 0, &v);
	assert_true(v == 3);                                /* -16: its highest 0 is bit 3 */
	A64("bfind.u32 %r0, %r2; cvt.u64.u32 %rd0, %r0", 0, 0x80000000, 0, &v);
	assert_true(v == 31);
	A64("bfind.shiftamt.u32 %r0, %r2; cvt.u64.u32 %rd0, %r0", 0, 0x00010000, 0, &v);
	assert_true(v == 15);
	A64("bfind.shiftamt.u32 %r0, %r2; cvt.u64.u32 %rd0, %r0", 0, 0, 0, &v);
	assert_true(v == 0xffffffffu);
	A64("bfind.u64 %r0, %rd2; cvt.u64.u32 %rd0, %r0", 0, 1ULL << 40, 0, &v);
	assert_true(v == 40);
	A64("bfind.shiftamt.s64 %r0, %rd2; cvt.u64.u32 %rd0, %r0", 0, 1, 0, &v);
	assert_true(v == 63);
	/* copysign d, a, b: b's magnitude, a's sign; NaN payloads and -0 kept */
	A64("copysign.f32 %f0, %f2, %f2; mov.b32 %r0, %f0; cvt.u64.u32 %rd0, %r0", 0, fbits(-0.0f), 0, &v);
	assert_true(v == fbits(-0.0f));
	A64("mov.b32 %f1, 0f7fc00001; copysign.f32 %f0, %f2, %f1; mov.b32 %r0, %f0; cvt.u64.u32 %rd0, %r0", 0, fbits(-1.0f),
	    0, &v);
	assert_true(v == 0xffc00001u);
	A64("mov.f64 %fd1, 0d4004000000000000; copysign.f64 %fd0, %fd2, %fd1; mov.b64 %rd0, %fd0", 0, dbits(-3.0), 0, &v);
	assert_true(v == dbits(-2.5));
	/* cvt.sat: floats to [0, 1] and NaN to +0; integers to the destination's range */
	const float fin[] = {-0.5f, 0.25f, 1.5f, NAN, -0.0f, INFINITY};
	const float fout[] = {0.0f, 0.25f, 1.0f, 0.0f, 0.0f, 1.0f};
	for (int i = 0; i < 6; i++) {
		A64("cvt.sat.f32.f32 %f0, %f2; mov.b32 %r0, %f0; cvt.u64.u32 %rd0, %r0", 0, fbits(fin[i]), 0, &v);
		assert_true(v == fbits(fout[i]));
	}
	A64("cvt.sat.f64.f64 %fd0, %fd2; mov.b64 %rd0, %fd0", 0, dbits(7.0), 0, &v);
	assert_true(v == dbits(1.0));
	A64("cvt.sat.s8.s32 %r0, %r2; cvt.s64.s8 %rd0, %r0", 0, 300, 0, &v);
	assert_true(v == 127);
	A64("cvt.sat.s8.s32 %r0, %r2; cvt.s64.s8 %rd0, %r0", 0, (uint32_t)-300, 0, &v);
	assert_true(v == (uint64_t)-128);
	A64("cvt.sat.u8.s32 %r0, %r2; cvt.u64.u32 %rd0, %r0", 0, (uint32_t)-5, 0, &v);
	assert_true(v == 0);
	A64("cvt.sat.s32.u32 %r0, %r2; cvt.u64.u32 %rd0, %r0", 0, 0xffffffff, 0, &v);
	assert_true(v == 0x7fffffff);
	A64("cvt.rzi.sat.s32.f32 %r0, %f2; cvt.u64.u32 %rd0, %r0", 0, fbits(3e9f), 0, &v);
	assert_true(v == 0x7fffffff);
	char err[512];
	assert_int_equal(takes("cvt.sat.f32.s32 %f0, %r2", err, sizeof err), -1); /* an integer to [0, 1]: not PTX */
	assert_int_equal(takes("cvt.rn.satfinite.sat.tf32.f32 %r0, %f2", err, sizeof err), -1);
}

/* One warp of 32; lanes at or above LIMIT exit first. Each lane stores the
 * vote or reduction INSN makes (into %r3) at out[lane]. */
static const char warp_fmt[] = HEAD
	".visible .entry k(.param .u64 P)\n{\n"
	"\t.reg .pred %%p<4>;\n\t.reg .b32 %%r<6>;\n\t.reg .b64 %%rd<4>;\n"
	"\tld.param.u64 %%rd1, [P];\n\tmov.u32 %%r1, %%laneid;\n"
	"\tsetp.ge.u32 %%p1, %%r1, %d;\n\t@%%p1 bra DONE;\n"
	"\tsetp.lt.u32 %%p2, %%r1, 4;\n\tmov.u32 %%r2, %%r1;\n"
	"\t%s;\n"
	"\tmul.wide.u32 %%rd2, %%r1, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n\tst.global.u32 [%%rd3], %%r3;\n"
	"DONE:\n\tret;\n}\n";

static uint32_t warp1(const char *insn, int limit, int lane)
{
	static uint8_t buf[128];
	char text[2048];
	snprintf(text, sizeof text, warp_fmt, limit, insn);
	memset(buf, 0xee, sizeof buf);
	run_t *r = calloc(1, sizeof *r);
	r->buf[0] = buf;
	r->bytes[0] = sizeof buf;
	r->nbufs = 1;
	r->block = 32;
	if (run_text(text, r))
		fail_msg("%s: %s", insn, r->err);
	free(r);
	uint32_t v;
	memcpy(&v, buf + 4 * lane, 4);
	return v;
}

static void test_warp_votes(void **st)
{
	(void)st;
	assert_int_equal(warp1("vote.sync.ballot.b32 %r3, %p2, 0xffffffff", 32, 7), 0xf);
	assert_int_equal(warp1("vote.sync.ballot.b32 %r3, !%p2, 0xffffffff", 32, 7), 0xfffffff0);
	assert_int_equal(warp1("vote.sync.ballot.b32 %r3, %p2, 0x3", 32, 7), 0x3); /* members only */
	assert_int_equal(warp1("vote.sync.any.pred %p3, %p2, -1; selp.u32 %r3, 1, 0, %p3", 32, 9), 1);
	assert_int_equal(warp1("vote.sync.all.pred %p3, %p2, -1; selp.u32 %r3, 1, 0, %p3", 32, 9), 0);
	assert_int_equal(warp1("vote.sync.all.pred %p3, %p2, -1; selp.u32 %r3, 1, 0, %p3", 4, 2), 1); /* lanes 0..3 left */
	assert_int_equal(warp1("vote.sync.uni.pred %p3, %p2, -1; selp.u32 %r3, 1, 0, %p3", 4, 2), 1);
	assert_int_equal(warp1("vote.sync.uni.pred %p3, %p2, -1; selp.u32 %r3, 1, 0, %p3", 32, 2), 0);
	assert_int_equal(warp1("activemask.b32 %r3", 20, 3), 0xfffff);
	assert_int_equal(warp1("mov.u32 %r3, 0; @%p2 activemask.b32 %r3", 32, 3), 0xf); /* a guard is no member */
	assert_int_equal(warp1("redux.sync.add.u32 %r3, %r2, -1", 32, 0), 496);
	assert_int_equal(warp1("redux.sync.add.u32 %r3, %r2, -1", 10, 9), 45);          /* exited lanes are no members */
	assert_int_equal(warp1("sub.s32 %r2, 5, %r1; redux.sync.min.s32 %r3, %r2, -1", 32, 0), (uint32_t)-26);
	assert_int_equal(warp1("sub.s32 %r2, 5, %r1; redux.sync.min.u32 %r3, %r2, -1", 32, 0), 0);
	assert_int_equal(warp1("sub.s32 %r2, 5, %r1; redux.sync.max.s32 %r3, %r2, -1", 32, 0), 5);
	assert_int_equal(warp1("sub.s32 %r2, 5, %r1; redux.sync.max.u32 %r3, %r2, -1", 32, 0), 0xffffffff);
	assert_int_equal(warp1("or.b32 %r2, %r1, 0x100; redux.sync.and.b32 %r3, %r2, -1", 32, 0), 0x100);
	assert_int_equal(warp1("shl.b32 %r2, 1, %r1; redux.sync.or.b32 %r3, %r2, 0xff", 32, 31), 0xff);
	assert_int_equal(warp1("redux.sync.xor.b32 %r3, %r2, -1", 3, 0), 3);              /* 0 ^ 1 ^ 2 */
	char err[512];
	assert_int_equal(takes("redux.sync.add.b32 %r0, %r2, -1", err, sizeof err), -1);  /* add is .u32/.s32's */
	assert_int_equal(takes("redux.sync.and.u32 %r0, %r2, -1", err, sizeof err), -1);  /* and is .b32's */
	assert_int_equal(takes("vote.sync.ballot.pred %r0, %r2, -1", err, sizeof err), -1);
	assert_int_equal(takes("vote.ballot.b32 %r0, %r2", err, sizeof err), -1);         /* sm_70+: .sync */
}

static void test_clock(void **st)
{
	(void)st;
	uint64_t a, b;
	const char *two = "mov.u64 %rd2, %clock64; add.u32 %r2, %r2, 1; mov.u64 %rd3, %clock64; sub.s64 %rd0, %rd3, %rd2";
	A64(two, 0, 0, 0, &a);
	A64(two, 0, 0, 0, &b);
	assert_true(a == 2 && b == 2); /* deterministic: the instructions between the reads */
	A64("mov.u32 %r1, %clock; mov.u64 %rd2, %globaltimer; cvt.u64.u32 %rd3, %r1; sub.s64 %rd0, %rd2, %rd3", 0, 0, 0, &a);
	assert_true(a == 1);
	char err[512];
	assert_int_equal(takes("mov.u32 %r0, %clock64", err, sizeof err), -1);
	assert_non_null(strstr(err, "%clock64 is 64 bits"));
}

/* ---- a divergent barrier ---- */

static void test_divergent_barrier(void **st)
{
	(void)st;
	const char *text = HEAD ".visible .entry k(.param .u64 P)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n"
		"\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 8;\n\t@!%p1 bra ELSE;\n"
		"\tbar.sync 0;\n\tbra.uni END;\n"
		"ELSE:\n\tbar.sync 0;\n"
		"END:\n\tret;\n}\n";
	static uint8_t buf[16];
	run_t *r = calloc(1, sizeof *r);
	r->buf[0] = buf;
	r->bytes[0] = sizeof buf;
	r->nbufs = 1;
	r->block = 64;
	assert_int_equal(run_text(text, r), EMU_ERR_FAULT);
	assert_non_null(strstr(r->err, "t.ptx:14: bar.sync: barrier reached by lanes 8-31 of warp 0 while lanes 0-7 are at "
				       "the bar.sync of PTX line 11: divergent barrier"));
	/* the same bar.sync reached at two times by parts of a warp is one arrival, as before */
	const char *late = HEAD ".visible .entry k(.param .u64 P)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n"
		"\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 8;\n\t@%p1 bra JOIN;\n"
		"\tadd.u32 %r2, %r1, 1;\n"
		"JOIN:\n\tbar.sync 0;\n\tret;\n}\n";
	assert_int_equal(run_text(late, r), 0);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atom_ops),
		cmocka_unit_test(test_atom_refused),
		cmocka_unit_test(test_atom_many),
		cmocka_unit_test(test_call_recursion),
		cmocka_unit_test(test_call_refused),
		cmocka_unit_test(test_atomics_all_decode),
		cmocka_unit_test(test_calls_G),
		cmocka_unit_test(test_warp_ops),
		cmocka_unit_test(test_bits),
		cmocka_unit_test(test_warp_votes),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_divergent_barrier),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
