/* test_emu_nvcc: the emulator reads nvcc's PTX — the bit, packed-half and conversion instructions computed as the PTX ISA says, assert's call, names of any length, and one entry parsed without the others. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/util.h"
#include "emu/emu.h"
#include "emu/emu_internal.h"

/* Runs k on grid x block threads with up to three u32 buffers; params are u64 buffer addresses then u32 scalars. */
static emu_error launch(const emu_module *m, const char *entry, unsigned grid, unsigned block, uint32_t *bufs[3],
			size_t words, const uint32_t *scalars, int nscalars, char *err, int errlen)
{
	const emu_kernel *k = emu_find_kernel(m, entry);
	assert_non_null(k);
	uint8_t param[256] = {0};
	int nb = k->nparams - nscalars;
	for (int i = 0; i < k->nparams; i++) {
		uint64_t v = i < nb ? (uint64_t)(i + 1) << EMU_GLOBAL_SHIFT : scalars[i - nb];
		memcpy(param + k->params[i].offset, &v, (size_t)k->params[i].bytes);
	}
	emu_opcount *cnt = xcalloc((size_t)k->nops, sizeof *cnt);
	emu_launch L = {.k = k, .path = m->path, .param = param, .nbufs = nb, .cnt = cnt, .grid = {grid, 1, 1},
			.block = {block, 1, 1}, .mod = m};
	for (int i = 0; i < nb; i++)
		L.bufs[i] = (emu_buffer){(uint8_t *)bufs[i], words * 4};
	emu_error rc = emu_exec(&L, err, errlen);
	free(cnt);
	return rc;
}

static uint32_t brev32(uint32_t v)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((v >> i) & 1u) << (31 - i);
	return r;
}

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
	uint64_t v = ((uint64_t)y << 32) | x;
	uint32_t r = 0;
	for (int i = 0; i < 4; i++)
		r |= (uint32_t)(uint8_t)(v >> (8 * ((s >> (4 * i)) & 7))) << (8 * i);
	return r;
}

/* mixed.cu's bit_tricks, as nvcc compiled it, against the same C on the CPU. */
static void test_bit_tricks_as_nvcc_compiled_them(void **st)
{
	(void)st;
	for (int sm = 80; sm <= 90; sm += 10) {
		char path[512], rel[64], err[512];
		snprintf(rel, sizeof rel, "tests/data/blas/mixed.sm_%d.ptx", sm);
		util_path(path, sizeof path, rel);
		emu_module *m = emu_module_load_entry(path, "_Z10bit_tricksPKjPjPfi", NULL, err, sizeof err);
		if (!m)
			fail_msg("%s", err);
		enum { N = 200 };
		static uint32_t x[N], out[N], f[N];
		rng g;
		rng_seed(&g, 3);
		for (int i = 0; i < N; i++)
			x[i] = (uint32_t)rng_next(&g);
		x[0] = 0, x[1] = 0xffffffffu;
		uint32_t *bufs[3] = {x, out, f}, n = N;
		assert_int_equal(launch(m, "_Z10bit_tricksPKjPjPfi", 4, 64, bufs, N, &n, 1, err, sizeof err), EMU_OK);
		for (int i = 0; i < N; i++) {
			uint32_t v = x[i];
			uint32_t w = brev32(v) ^ (uint32_t)__builtin_popcount(v);
			w = byte_perm(w, v, 0x5140);
			uint64_t hl = ((uint64_t)w << 32) | v;
			w ^= (uint32_t)((hl << (i & 31)) >> 32);
			uint32_t field = (v >> 5) & 0x3ff;
			w = (w & ~(0x3ffu << 11)) | (field << 11);
			w = (w > v ? w : v) - (w < v ? w : v);
			if (out[i] != w)
				fail_msg("sm_%d element %d: 0x%08x, want 0x%08x", sm, i, out[i], w);
			float want = (float)w / (float)(v | 1u) + 1.0f / (float)(i + 1) + 1.0f / sqrtf((float)(v & 0xffff) + 1.0f);
			float got;
			memcpy(&got, &f[i], 4);
			assert_true(fabsf(got - want) <= 1e-5f * fabsf(want));
		}
		emu_module_free(m);
	}
}

/* One thread: out[i] = instruction i of what nvcc emits for bit fields, lop3, funnel shifts, packed halves, roundings. */
static const char isa_kernel[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry isa(.param .u64 in, .param .u64 out)\n{\n"
	"\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<4>;\n"
	"\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
	"\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n"   /* 0xf0f01234 0x87654321 0x0000ffff 0x80000000 */
	"\tbfe.u32 %r10, %r2, 4, 8;\n\tst.global.u32 [%rd2], %r10;\n"
	"\tbfe.s32 %r11, %r2, 28, 8;\n\tst.global.u32 [%rd2+4], %r11;\n"
	"\tbfi.b32 %r12, %r3, %r1, 8, 12;\n\tst.global.u32 [%rd2+8], %r12;\n"
	"\tlop3.b32 %r13, %r1, %r2, %r3, 0x96;\n\tst.global.u32 [%rd2+12], %r13;\n" /* a ^ b ^ c */
	"\tlop3.b32 %r14, %r1, %r2, %r3, 0xe8;\n\tst.global.u32 [%rd2+16], %r14;\n" /* majority */
	"\tclz.b32 %r15, %r3;\n\tst.global.u32 [%rd2+20], %r15;\n"
	"\tshf.r.clamp.b32 %r16, %r1, %r2, 40;\n\tst.global.u32 [%rd2+24], %r16;\n"
	"\tshf.r.wrap.b32 %r17, %r1, %r2, 36;\n\tst.global.u32 [%rd2+28], %r17;\n"
	"\tprmt.b32 %r18, %r1, %r2, 0x3b1f;\n\tst.global.u32 [%rd2+32], %r18;\n"  /* sign replication on nibble 0xb, 0xf */
	"\tprmt.b32.ecl %r19, %r1, %r2, 2;\n\tst.global.u32 [%rd2+36], %r19;\n"
	"\tmov.b32 %r20, 0x3c004000;\n"                                          /* halves {2.0, 1.0} */
	"\tmul.rn.f16x2 %r21, %r20, %r20;\n\tst.global.u32 [%rd2+40], %r21;\n"    /* {4, 1} */
	"\tfma.rn.f16x2 %r22, %r20, %r20, %r20;\n\tst.global.u32 [%rd2+44], %r22;\n" /* {6, 2} */
	"\tmov.f32 %f1, 0f40400000;\n\tmov.f32 %f2, 0fBF800000;\n"                /* 3, -1 */
	"\tcvt.rn.f16x2.f32 %r23, %f1, %f2;\n\tst.global.u32 [%rd2+48], %r23;\n"  /* {3 upper, -1 lower} */
	"\tmov.u32 %r24, 16777217;\n"
	"\tcvt.rm.f32.u32 %f3, %r24;\n\tst.global.f32 [%rd2+52], %f3;\n"
	"\tcvt.rp.f32.u32 %f3, %r24;\n\tst.global.f32 [%rd2+56], %f3;\n"
	"\tpopc.b32 %r25, %r1;\n\tst.global.u32 [%rd2+60], %r25;\n"
	"\tbrev.b32 %r26, %r4;\n\tst.global.u32 [%rd2+64], %r26;\n"
	"\tret;\n}\n"
	/* another entry, with an instruction the emulator does not run */
	".visible .entry other(.param .u64 in)\n{\n\t.reg .b32 %r<4>;\n\tvabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r1;\n\tret;\n}\n";

static void test_instructions_as_the_isa_says(void **st)
{
	(void)st;
	char err[512];
	emu_module *m = emu_module_parse_entry("isa.ptx", isa_kernel, "isa", NULL, err, sizeof err);
	if (!m)
		fail_msg("%s", err);
	static uint32_t in[4] = {0xf0f01234u, 0x87654321u, 0x0000ffffu, 0x80000000u}, out[17];
	uint32_t *bufs[3] = {in, out, NULL};
	assert_int_equal(launch(m, "isa", 1, 1, bufs, 17, NULL, 0, err, sizeof err), EMU_OK);
	uint32_t a = in[0], b = in[1], c = in[2];
	float f16777216 = 16777216.0f, f16777218 = 16777218.0f;
	uint32_t rm, rp;
	memcpy(&rm, &f16777216, 4);
	memcpy(&rp, &f16777218, 4);
	const uint32_t want[17] = {
		0x32,                             /* bits 4..11 of 0x87654321 */
		0xfffffff8u,                      /* bits 28..35, sign of bit 31 */
		(a & ~0x000fff00u) | ((c & 0xfff) << 8),
		a ^ b ^ c,
		(a & b) | (a & c) | (b & c),
		16,
		b,                                /* clamped to 32: the upper word */
		(uint32_t)((((uint64_t)b << 32) | a) >> 4),
		0, 0, /* prmt: below */ 0x3c004400u, 0x40004600u, 0x4200bc00u, rm, rp, (uint32_t)__builtin_popcount(a), 1,
	};
	/* prmt 0x3b1f: byte0 = sign of byte 7 (0x87 -> 0xff), byte1 = byte 1 (0x12), byte2 = sign of byte 3
	 * (0xf0 -> 0xff), byte3 = byte 3 (0xf0) */
	assert_int_equal(out[8], 0xf0ff12ffu);
	/* prmt.ecl with c = 2: bytes {3, 2, 2, 2} of a */
	assert_int_equal(out[9], 0xf0f0f0f0u);
	for (int i = 0; i < 17; i++)
		if (i != 8 && i != 9 && out[i] != want[i])
			fail_msg("instruction %d: 0x%08x, want 0x%08x", i, out[i], want[i]);
	emu_module_free(m);
	/* the other entry is refused at its own line, and only when asked for */
	assert_null(emu_module_parse_entry("isa.ptx", isa_kernel, "other", NULL, err, sizeof err));
	assert_non_null(strstr(err, "unsupported instruction 'vabsdiff4.u32.u32.u32'"));
	assert_null(emu_module_parse("isa.ptx", isa_kernel, NULL, err, sizeof err));
	/* a name that is none: the entries are listed */
	emu_error why;
	assert_null(emu_module_parse_entry("isa.ptx", isa_kernel, "nope", &why, err, sizeof err));
	assert_int_equal(why, EMU_ERR_BAD_REQUEST);
	assert_string_equal(err, "isa.ptx: no .entry 'nope'; its entries: isa, other");
}

/* nvcc's assert(): module-level strings, an argument block of .param, call.uni __assertfail. */
static const char assert_kernel[] =
	".version 9.0\n.target sm_80\n.address_size 64\n"
	".extern .func __assertfail\n(\n\t.param .b64 __assertfail_param_0,\n\t.param .b64 __assertfail_param_1,\n"
	"\t.param .b32 __assertfail_param_2,\n\t.param .b64 __assertfail_param_3,\n\t.param .b64 __assertfail_param_4\n)\n;\n"
	".global .align 1 .b8 $str[6] = {105, 32, 60, 32, 110};\n"
	".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u32 %r2, [k_param_1];\n\tmov.u32 %r1, %tid.x;\n\tsetp.lt.s32 %p1, %r1, %r2;\n"
	"\t@%p1 bra $L__BB0_2;\n\tmov.u64 %rd2, $str;\n\tcvta.global.u64 %rd3, %rd2;\n"
	"\t{ // callseq 0, 0\n\t.reg .b32 temp_param_reg;\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd3;\n"
	"\t.param .b64 param1;\n\tst.param.b64 [param1+0], %rd3;\n\t.param .b32 param2;\n\tst.param.b32 [param2+0], 3;\n"
	"\t.param .b64 param3;\n\tst.param.b64 [param3+0], %rd3;\n\t.param .b64 param4;\n\tst.param.b64 [param4+0], 1;\n"
	"\tcall.uni \n\t__assertfail, \n\t(\n\tparam0, \n\tparam1, \n\tparam2, \n\tparam3, \n\tparam4\n\t);\n"
	"\t} // callseq 0\n$L__BB0_2:\n\tret;\n}\n";

static void test_assert_stops_the_kernel(void **st)
{
	(void)st;
	char err[512];
	emu_module *m = emu_module_parse("assert.ptx", assert_kernel, NULL, err, sizeof err);
	if (!m)
		fail_msg("%s", err);
	static uint32_t c[64];
	uint32_t *bufs[3] = {c, NULL, NULL}, n = 32;
	assert_int_equal(launch(m, "k", 1, 32, bufs, 64, &n, 1, err, sizeof err), EMU_OK);
	n = 16;
	assert_int_equal(launch(m, "k", 1, 32, bufs, 64, &n, 1, err, sizeof err), EMU_ERR_FAULT);
	if (!strstr(err, "assert.ptx:37: assert failed: i < n at i < n:3 in i < n (thread 16,0,0)"))
		fail_msg("%s", err);
	emu_module_free(m);
}

/* __device__ variables (issue 39's students, lesson 10's workspace): module-level .global memory the
 * kernel writes, reads and adds to atomically, zeroed at each launch; an access past its end faults
 * and names it; a declaration larger than the emulator holds is refused at its line. */
static const char device_vars[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".global .align 4 .u32 ticket;\n"
	".global .align 4 .b8 slots[128];\n"
	".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n"
	"\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tld.param.u32 %r5, [k_param_1];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u64 %rd2, slots;\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tadd.u32 %r2, %r1, 7;\n\tst.global.u32 [%rd4], %r2;\n"          /* slot i = i + 7 */
	"\tmov.u64 %rd5, ticket;\n\tatom.global.add.u32 %r3, [%rd5], 1;\n"   /* ticket: 0, 1, ... */
	"\tmul.wide.u32 %rd6, %r5, 4;\n\tadd.s64 %rd6, %rd4, %rd6;\n\tld.global.cg.u32 %r4, [%rd6];\n" /* slot i + shift */
	"\tadd.s64 %rd7, %rd1, %rd3;\n\tadd.u32 %r4, %r4, %r3;\n\tst.global.u32 [%rd7], %r4;\n\tret;\n}\n";

static void test_device_variables(void **st)
{
	(void)st;
	char err[512];
	emu_module *m = emu_module_parse("vars.ptx", device_vars, NULL, err, sizeof err);
	if (!m)
		fail_msg("%s", err);
	static uint32_t c[64];
	uint32_t *bufs[3] = {c, NULL, NULL}, shift = 0;
	for (int run = 0; run < 2; run++) { /* the second launch starts from zeroes again */
		assert_int_equal(launch(m, "k", 1, 32, bufs, 64, &shift, 1, err, sizeof err), EMU_OK);
		for (unsigned i = 0; i < 32; i++) /* lane i read its own slot (i + 7) and drew ticket i */
			assert_int_equal(c[i], 2 * i + 7);
	}
	shift = 1; /* lane 31 reads slot 32: past the 128 bytes */
	assert_int_equal(launch(m, "k", 1, 32, bufs, 64, &shift, 1, err, sizeof err), EMU_ERR_FAULT);
	if (!strstr(err, "out-of-bounds global load of 4 bytes at module-level variable 1+128 (it holds 128 bytes)"))
		fail_msg("%s", err);
	emu_module_free(m);
	char big[sizeof device_vars + 32];
	snprintf(big, sizeof big, "%s", device_vars);
	char *at = strstr(big, "slots[128]");
	memcpy(at, "slots[1000000000]", 17);
	memmove(at + 17, strstr(device_vars, "slots[128]") + 10, strlen(strstr(device_vars, "slots[128]") + 10) + 1);
	assert_null(emu_module_parse("big.ptx", big, NULL, err, sizeof err));
	if (!strstr(err, "big.ptx:5: a module-level variable of more than 268435456 bytes"))
		fail_msg("%s", err);
}

/* Names longer than 63 characters work everywhere; one over the limit is refused by name, never cut. */
static void test_long_names(void **st)
{
	(void)st;
	char name[700], text[4096], err[512];
	for (int len = 300; len <= 600; len += 300) {
		memset(name, 'x', (size_t)len);
		name[0] = '_';
		name[len] = '\0';
		snprintf(text, sizeof text,
			 ".version 8.0\n.target sm_80\n.address_size 64\n"
			 ".visible .entry %s(.param .u64 %s_param_0)\n{\n\t.reg .b64 %%rd<2>;\n"
			 "\tld.param.u64 %%rd1, [%s_param_0];\n\tbra.uni %s_label;\n%s_label:\n\tret;\n}\n",
			 name, name, name, name, name);
		emu_module *m = emu_module_parse_entry("long.ptx", text, name, NULL, err, sizeof err);
		if (len < EMU_NAME - 8) {
			if (!m)
				fail_msg("%s", err);
			assert_non_null(emu_find_kernel(m, name));
		} else {
			assert_null(m);
			assert_non_null(strstr(err, "characters; the emulator takes up to 511"));
		}
		emu_module_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bit_tricks_as_nvcc_compiled_them),
		cmocka_unit_test(test_instructions_as_the_isa_says),
		cmocka_unit_test(test_assert_stops_the_kernel),
		cmocka_unit_test(test_device_variables),
		cmocka_unit_test(test_long_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
