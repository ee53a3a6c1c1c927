/* test_regbanks: the register-bank cost of FFMA streams (model/regbanks.c) on streams whose cost can be
 * counted by hand, and the FFMAs read from SASS text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/regbanks.h"

#define N 256

/* Every FFMA reads three registers of one bank: three reads a cycle apart, three cycles an FFMA. */
static void test_one_bank_three_cycles(void **state)
{
	(void)state;
	regbank_ffma f[N];
	for (int i = 0; i < N; i++)
		f[i] = (regbank_ffma){.a = 2 * (i % 8), .b = 20 + 2 * (i % 8), .c = 40 + 2 * (i % 8)};
	assert_true(regbank_stream_cycles(f, N) > 2.95 && regbank_stream_cycles(f, N) < 3.05);
}

/* a and b in bank 0, c in bank 1: bank 0 reads two a cycle, two cycles an FFMA; with a from the reuse
 * cache (the same a, flagged), one. */
static void test_two_banks_and_reuse(void **state)
{
	(void)state;
	regbank_ffma f[N];
	for (int i = 0; i < N; i++)
		f[i] = (regbank_ffma){.a = 2 * (i % 8), .b = 20 + 2 * (i % 8), .c = 41 + 2 * (i % 8)};
	double two = regbank_stream_cycles(f, N);
	for (int i = 0; i < N; i++)
		f[i] = (regbank_ffma){.a = 4, .b = 20 + 2 * (i % 8), .c = 41 + 2 * (i % 8), .reuse = 1};
	double cached = regbank_stream_cycles(f, N);
	assert_true(two > 1.95 && two < 2.05);
	assert_true(cached > 0.99 && cached < 1.05);
	assert_true(regbank_stream_cycles(f, 0) == 0);
}

/* The FFMAs of a kernel's SASS: a guarded one and .reuse flags read, an immediate or RZ operand and
 * other instructions left out; no FFMA costs 1. */
static void test_ffmas_from_sass(void **state)
{
	(void)state;
	const char *text[] = {"FFMA R2, R4, R6, R8", "@P0 FFMA R3, R4.reuse, R6, R8", "FFMA R5, R4, 2, R8",
			      "FFMA R5, RZ, R6, R8", "LDS.128 R4, [R2]", "FFMA.FTZ R2, R4, R6, R8"};
	sass_instr ins[6];
	memset(ins, 0, sizeof ins);
	for (int i = 0; i < 6; i++)
		strcpy(ins[i].text, text[i]);
	sass_kernel k = {.ins = ins, .n = 2};
	/* two FFMAs of one bank each, the second's a not yet cached (its own flag sets the cache): six
	 * reads, the second issues at cycle 6, seven cycles for two */
	assert_true(regbank_ffma_cycles(&k) > 3.49 && regbank_ffma_cycles(&k) < 3.51);
	k.ins = ins + 2, k.n = 4; /* none in the register form */
	assert_true(regbank_ffma_cycles(&k) == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_bank_three_cycles),
		cmocka_unit_test(test_two_banks_and_reuse),
		cmocka_unit_test(test_ffmas_from_sass),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
