/* test_emu_cvt: the emulator runs cvt to and from tf32, e4m3x2 and e5m2x2 bit-exactly, packs pairs as the PTX ISA says, and refuses the other forms. */
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

/* One thread: x = P[0] and y = P[4] (f32), h = P[0] (b16) as the source
 * pair, the instruction, then its result to P[16]. */
static const char kernel_fmt[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 P)\n{\n"
	"\t.reg .b16 %%h<4>;\n\t.reg .b32 %%r<4>;\n\t.reg .f32 %%f<4>;\n\t.reg .b64 %%rd<2>;\n"
	"\tld.param.u64 %%rd1, [P];\n"
	"\tld.global.f32 %%f1, [%%rd1];\n\tld.global.f32 %%f2, [%%rd1+4];\n\tld.global.b16 %%h1, [%%rd1];\n"
	"\t%s;\n"
	"\tst.global.%s [%%rd1+16], %s;\n\tret;\n}\n";

/* One thread of kernel 0 of m over buf (64 bytes, its one global buffer); NULL, or the emulator's error. */
static const char *launch_one(emu_module *m, uint8_t *buf, char *err, size_t errlen)
{
	static emu_opcount cnt[16]; /* the launch counts per op */
	assert_true(m->k[0].nops <= 16);
	memset(cnt, 0, sizeof cnt);
	uint64_t p = 1ULL << EMU_GLOBAL_SHIFT;
	uint8_t param[8];
	memcpy(param, &p, 8);
	emu_launch L = {.k = &m->k[0], .path = "cvt.ptx", .grid = {1, 1, 1}, .block = {1, 1, 1},
			.param = param, .bufs = {{buf, 64}}, .nbufs = 1, .cnt = cnt};
	return emu_exec(&L, err, (int)errlen) ? err : NULL;
}

/* Runs insn (its result in dst, stored as st) on inputs x and y (bits);
 * returns the 32 bits stored. */
static uint32_t run_cvt(const char *insn, const char *st, const char *dst, uint32_t x, uint32_t y)
{
	static uint8_t buf[64];
	char text[1024], err[256];
	snprintf(text, sizeof text, kernel_fmt, insn, st, dst);
	emu_module *m = emu_module_parse("cvt.ptx", text, NULL, err, sizeof err);
	if (!m)
		fail_msg("%s: %s", insn, err);
	memset(buf, 0, sizeof buf);
	memcpy(buf, &x, 4);
	memcpy(buf + 4, &y, 4);
	if (launch_one(m, buf, err, sizeof err))
		fail_msg("%s: %s", insn, err);
	emu_module_free(m);
	uint32_t out;
	memcpy(&out, buf + 16, 4);
	return out;
}

#define CVT32(insn, x, y) run_cvt(insn, "b32", "%r1", x, y)
#define CVT16(insn, x, y) run_cvt(insn, "b16", "%h2", x, y)

static void test_tf32(void **st)
{
	(void)st;
	/* 1 + 2^-11 = 0x3f801000: tf32 drops the low 13 bits and this is the tie;
	 * .rna goes away from zero to 1 + 2^-10, .rn to the even 1.0 */
	assert_int_equal(CVT32("cvt.rna.tf32.f32 %r1, %f1", 0x3f801000, 0), 0x3f802000);
	assert_int_equal(CVT32("cvt.rn.tf32.f32 %r1, %f1", 0x3f801000, 0), 0x3f800000);
	assert_int_equal(CVT32("cvt.rna.tf32.f32 %r1, %f1", 0xbf801000, 0), 0xbf802000);
	/* f32 max rounds past the largest tf32 (0x7f7fe000): inf, or that with .satfinite */
	assert_int_equal(CVT32("cvt.rna.tf32.f32 %r1, %f1", 0x7f7fffff, 0), 0x7f800000);
	assert_int_equal(CVT32("cvt.rna.satfinite.tf32.f32 %r1, %f1", 0x7f7fffff, 0), 0x7f7fe000);
}

static void test_fp8_pairs(void **st)
{
	(void)st;
	/* a = 1.0 -> e4m3 0x38 into the upper byte, b = -inf -> -448 = 0xfe (satfinite) into the lower */
	assert_int_equal(CVT16("cvt.rn.satfinite.e4m3x2.f32 %h2, %f1, %f2", 0x3f800000, 0xff800000), 0x38fe);
	/* a = 1.375 -> e5m2 tie 0x3d/0x3e, even 0x3e; b = NaN -> 0x7e; 1e6 -> 57344 = 0x7b */
	assert_int_equal(CVT16("cvt.rn.satfinite.e5m2x2.f32 %h2, %f1, %f2", 0x3fb00000, 0x7fc00000), 0x3e7e);
	assert_int_equal(CVT16("cvt.rn.satfinite.e5m2x2.f32 %h2, %f1, %f2", 0x49742400, 0x80000000), 0x7b80);
	/* h = 0x7e38: upper byte 0x7e = 448 = f16 0x5f00 to the upper half, 0x38 = 1.0 = 0x3c00 to the lower */
	assert_int_equal(CVT32("cvt.rn.f16x2.e4m3x2 %r1, %h1", 0x7e38, 0), 0x5f003c00);
	assert_int_equal(CVT32("cvt.rn.f16x2.e4m3x2 %r1, %h1", 0x7f80, 0), 0x7fff8000); /* NaN, -0 */
	/* e5m2 is an f16's top byte: 0x7c = inf, 0x01 = 2^-16 */
	assert_int_equal(CVT32("cvt.rn.f16x2.e5m2x2 %r1, %h1", 0x7c01, 0), 0x7c000100);
	/* bf16x2 packs the same way: 1.0 = 0x3f80 upper; 0x3f818000 is a tie, 0x3f81 odd: 0x3f82 */
	assert_int_equal(CVT32("cvt.rn.bf16x2.f32 %r1, %f1, %f2", 0x3f800000, 0x3f818000), 0x3f803f82);
}

/* The forms the PTX ISA lacks, or the emulator does not run, stay refused. */
static void test_refused(void **st)
{
	(void)st;
	static const struct {
		const char *insn;
		emu_error why;
	} cases[] = {
		{"cvt.rn.e4m3x2.f32 %h2, %f1, %f2", EMU_ERR_UNSUPPORTED},      /* .satfinite is required */
		{"cvt.rna.f32.f32 %f1, %f2", EMU_ERR_UNSUPPORTED},             /* .rna is tf32's */
		{"cvt.rna.s32.f32 %r1, %f2", EMU_ERR_UNSUPPORTED},
		{"cvt.rz.tf32.f32 %r1, %f1", EMU_ERR_UNSUPPORTED},
		{"cvt.rn.satfinite.tf32.f32 %r1, %f1", EMU_ERR_UNSUPPORTED},   /* sm_100 */
		{"cvt.rn.satfinite.f32.f32 %f1, %f2", EMU_ERR_UNSUPPORTED},
		{"cvt.f32.e4m3x2 %f1, %h1", EMU_ERR_UNSUPPORTED},
		{"cvt.rn.satfinite.e4m3x2.f16x2 %h2, %r1", EMU_ERR_UNSUPPORTED},
		{"cvt.rn.satfinite.e4m3x2.f32 %h2, %f1", EMU_ERR_PARSE},       /* two sources */
		{"cvt.rn.f16x2.e4m3x2 %r1, %h1, %h2", EMU_ERR_PARSE},          /* one source */
		{"mov.e4m3x2 %h2, %h1", EMU_ERR_UNSUPPORTED},                  /* instruction types of cvt only */
		{"mov.tf32 %r1, %r2", EMU_ERR_UNSUPPORTED},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[1024], err[256] = "";
		emu_error why = EMU_OK;
		snprintf(text, sizeof text, kernel_fmt, cases[i].insn, "b32", "%r1");
		emu_module *m = emu_module_parse("cvt.ptx", text, &why, err, sizeof err);
		if (m)
			fail_msg("'%s' decoded", cases[i].insn);
		if (why != cases[i].why)
			fail_msg("'%s': %d (%s), want %d", cases[i].insn, why, err, cases[i].why);
		assert_non_null(strstr(err, cases[i].insn[0] == 'c' ? "cvt" : "mov"));
	}
	/* nor do declarations name them */
	emu_error why = EMU_OK;
	char err[256] = "";
	emu_module *m = emu_module_parse("cvt.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n"
					 ".visible .entry k()\n{\n\t.reg .tf32 %t<2>;\n\tret;\n}\n", &why, err, sizeof err);
	assert_null(m);
	assert_int_equal(why, EMU_ERR_UNSUPPORTED);
	assert_non_null(strstr(err, "tf32"));
}

/* cvt between integer types: the source's low bytes, sign- or zero-extended as its
 * type says, cut to the destination's width (PTX ISA, cvt: integer conversions), each
 * pair of 16-, 32- and 64-bit types on values near every width's edges. */
static void test_int_to_int(void **st)
{
	(void)st;
	static const char *const reg[3] = {"%h1", "%r1", "%rd3"};
	static const uint64_t vals[] = {0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x12345678, 0x80000000,
					0xffffffff, 0x123456789abcdef0ULL, 0x8000000000000000ULL, ~0ULL};
	int checked = 0;
	for (int sw = 0; sw < 3; sw++)
		for (int dw = 0; dw < 3; dw++)
			for (int ss = 0; ss < 2; ss++)
				for (int ds = 0; ds < 2; ds++) {
					int sb = 2 << sw, db = 2 << dw;
					char text[1024], err[256];
					snprintf(text, sizeof text,
						 ".version 8.0\n.target sm_90\n.address_size 64\n"
						 ".visible .entry k(.param .u64 P)\n{\n"
						 "\t.reg .b16 %%h<3>;\n\t.reg .b32 %%r<3>;\n\t.reg .b64 %%rd<5>;\n"
						 "\tld.param.u64 %%rd1, [P];\n\tld.global.b16 %%h1, [%%rd1];\n"
						 "\tld.global.b32 %%r1, [%%rd1];\n\tld.global.b64 %%rd3, [%%rd1];\n"
						 "\tcvt.%s%d.%s%d %s, %s;\n\tst.global.b%d [%%rd1+16], %s;\n\tret;\n}\n",
						 ds ? "s" : "u", 8 * db, ss ? "s" : "u", 8 * sb,
						 dw == 0 ? "%h2" : dw == 1 ? "%r2" : "%rd4", reg[sw], 8 * db,
						 dw == 0 ? "%h2" : dw == 1 ? "%r2" : "%rd4");
					emu_module *m = emu_module_parse("cvt.ptx", text, NULL, err, sizeof err);
					if (!m)
						fail_msg("%s", err);
					for (size_t v = 0; v < sizeof vals / sizeof *vals; v++) {
						static uint8_t buf[64];
						memset(buf, 0, sizeof buf);
						memcpy(buf, &vals[v], 8);
						if (launch_one(m, buf, err, sizeof err))
							fail_msg("%s", err);
						uint64_t src = sb == 8 ? vals[v] : vals[v] & ((1ULL << (8 * sb)) - 1);
						if (ss && sb < 8 && (src >> (8 * sb - 1) & 1))
							src |= ~0ULL << (8 * sb);
						uint64_t want = db == 8 ? src : src & ((1ULL << (8 * db)) - 1), got = 0;
						memcpy(&got, buf + 16, 8);
						if (got != want)
							fail_msg("cvt.%s%d.%s%d of 0x%llx: 0x%llx, want 0x%llx", ds ? "s" : "u", 8 * db,
								 ss ? "s" : "u", 8 * sb, (unsigned long long)vals[v],
								 (unsigned long long)got, (unsigned long long)want);
						checked++;
					}
					emu_module_free(m);
				}
	assert_int_equal(checked, 36 * 14);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tf32),
		cmocka_unit_test(test_fp8_pairs),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_int_to_int),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
