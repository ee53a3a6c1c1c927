/* test_access: the one counter of sectors and wavefronts (src/model/access.c) on hand-made warp accesses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "model/access.h"

#define ALL 0xffffffffu

/* Lane l at base + l·stride. */
static access_counts strided(access_kind kind, int64_t base, int64_t stride, uint32_t mask, int bytes)
{
	int64_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = base + l * stride;
	access_counts c;
	assert_int_equal(access_count(kind, a, mask, bytes, &c), 0);
	return c;
}

static unsigned sectors(int64_t stride, uint32_t mask, int bytes)
{
	access_counts c = strided(ACCESS_GLOBAL_STORE, 0, stride, mask, bytes);
	assert_int_equal(c.wavefronts, 0); /* stores: sectors only */
	assert_int_equal(strided(ACCESS_GLOBAL_LOAD, 0, stride, mask, bytes).sectors, c.sectors);
	return c.sectors;
}

/* L1 wavefronts of a global load: one per 128-byte line. */
static unsigned lines(int64_t base, int64_t stride, uint32_t mask, int bytes)
{
	return strided(ACCESS_GLOBAL_LOAD, base, stride, mask, bytes).wavefronts;
}

static unsigned wavefronts(access_kind kind, int64_t stride, int bytes, unsigned *ideal)
{
	access_counts c = strided(kind, 0, stride, ALL, bytes);
	assert_int_equal(c.sectors, 0);
	*ideal = c.ideal;
	return c.wavefronts;
}

static void global_sectors(void **state)
{
	(void)state;
	assert_int_equal(sectors(4, ALL, 4), 4);      /* 128 contiguous bytes */
	assert_int_equal(sectors(128, ALL, 4), 32);   /* a row each */
	assert_int_equal(sectors(0, ALL, 4), 1);      /* one element for all */
	assert_int_equal(sectors(16, ALL, 16), 16);   /* 512 contiguous bytes */
	assert_int_equal(sectors(4, 0x1, 4), 1);      /* one lane */
	assert_int_equal(sectors(4, 0, 4), 0);        /* none */
	/* a 16-byte piece across a sector boundary counts both sectors */
	access_counts c = strided(ACCESS_GLOBAL_STORE, 24, 0, 0x1, 16);
	assert_int_equal(c.sectors, 2);
}

/* The strides scripts/gpu-l1.sh measured on the H100 (per request:
 * l1tex__data_pipe_lsu_wavefronts_mem_lgds), and what follows from the rule. */
static void global_load_wavefronts(void **state)
{
	(void)state;
	assert_int_equal(lines(0, 4, ALL, 4), 1);       /* measured: 128 contiguous bytes */
	assert_int_equal(lines(0, 32, ALL, 4), 8);      /* measured: a sector each, 4 to a line */
	assert_int_equal(lines(0, 128, ALL, 4), 32);    /* measured: a line each */
	assert_int_equal(lines(0, 16384, ALL, 4), 32);  /* measured: lesson 1's A at K = 4096 */
	assert_int_equal(lines(0, 0, ALL, 4), 1);       /* one word for all */
	assert_int_equal(lines(0, 16, ALL, 16), 4);     /* 512 contiguous bytes */
	assert_int_equal(lines(64, 4, ALL, 4), 2);      /* 128 bytes across a line boundary */
	assert_int_equal(lines(0, 128, 0x0000000f, 4), 4);
	assert_int_equal(lines(0, 4, 0, 4), 0);         /* no lane */
}

static void shared_banks(void **state)
{
	(void)state;
	unsigned ideal;
	assert_int_equal(wavefronts(ACCESS_SHARED_LOAD, 4, 4, &ideal), 1);    /* 32 banks */
	assert_int_equal(ideal, 1);
	assert_int_equal(wavefronts(ACCESS_SHARED_LOAD, 8, 4, &ideal), 2);    /* two words per bank */
	assert_int_equal(wavefronts(ACCESS_SHARED_LOAD, 128, 4, &ideal), 32); /* one bank */
	assert_int_equal(wavefronts(ACCESS_SHARED_LOAD, 0, 4, &ideal), 1);    /* broadcast */
	assert_int_equal(wavefronts(ACCESS_SHARED_STORE, 132, 4, &ideal), 1); /* padded rows */
	/* 16 bytes: 8 lanes a pass; a 32-byte stride puts two lanes on each bank */
	assert_int_equal(wavefronts(ACCESS_SHARED_LOAD, 16, 16, &ideal), 4);
	assert_int_equal(ideal, 4);
	assert_int_equal(wavefronts(ACCESS_SHARED_LOAD, 32, 16, &ideal), 8);
	assert_int_equal(wavefronts(ACCESS_SHARED_LOAD, 8, 8, &ideal), 2);   /* 16 lanes a pass */
	assert_int_equal(ideal, 2);
}

/* Pairs of lanes on one address halve the passes of a wide load, not of a store. */
static void pairs_only_for_loads(void **state)
{
	(void)state;
	unsigned ideal;
	assert_int_equal(wavefronts(ACCESS_SHARED_LOAD, 0, 16, &ideal), 2);
	assert_int_equal(ideal, 2);
	assert_int_equal(wavefronts(ACCESS_SHARED_STORE, 0, 16, &ideal), 4);
	assert_int_equal(ideal, 4);
	/* lanes 2i and 2i+1 share a 16-byte piece: 16 lanes a pass */
	int64_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = (l / 2) * 16;
	access_counts c;
	assert_int_equal(access_count(ACCESS_SHARED_LOAD, a, ALL, 16, &c), 0);
	assert_int_equal(c.wavefronts, 2);
	/* an inactive partner does not break the pairing */
	a[1] = 4096 + 12345 * 16;
	assert_int_equal(access_count(ACCESS_SHARED_LOAD, a, ALL & ~0x2u, 16, &c), 0);
	assert_int_equal(c.wavefronts, 2);
}

/* ldmatrix: 8 rows of 16 bytes per matrix, one pass when they miss each other's banks. */
static void ldmatrix_rows(void **state)
{
	(void)state;
	unsigned ideal;
	assert_int_equal(wavefronts(ACCESS_LDMATRIX, 16, 0, &ideal), 4);    /* x4, rows packed */
	assert_int_equal(ideal, 4);
	assert_int_equal(wavefronts(ACCESS_LDMATRIX, 128, 16, &ideal), 32); /* every row in banks 0-3 */
	assert_int_equal(wavefronts(ACCESS_LDMATRIX, 0, 16, &ideal), 4);    /* no pairing */
	access_counts c = strided(ACCESS_LDMATRIX, 0, 16, 0xffu, 16);         /* x1 */
	assert_int_equal(c.wavefronts, 1);
	assert_int_equal(c.ideal, 1);
}

/* Negative and extreme addresses (a what-if such as PAD=-100) count like
 * any others: the pattern matters, not where it sits. */
static void any_address(void **state)
{
	(void)state;
	static const int64_t bases[] = {0, -4096, -128 * 1000003LL, INT64_MIN, INT64_MAX - 4095};
	static const int64_t strides[] = {4, 8, -136, 128, 0};
	for (size_t s = 0; s < sizeof strides / sizeof *strides; s++) {
		access_counts ref = strided(ACCESS_SHARED_LOAD, 0, strides[s], ALL, 16);
		access_counts gref = strided(ACCESS_GLOBAL_LOAD, 0, strides[s], ALL, 16);
		for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
			if (strides[s] < 0 && bases[b] == INT64_MIN)
				continue; /* would leave the range */
			access_counts c = strided(ACCESS_SHARED_LOAD, bases[b], strides[s], ALL, 16);
			assert_int_equal(c.wavefronts, ref.wavefronts);
			assert_int_equal(c.ideal, ref.ideal);
			c = strided(ACCESS_GLOBAL_LOAD, bases[b], strides[s], ALL, 16);
			assert_int_equal(c.sectors, gref.sectors);
		}
	}
	/* a row stride of -136 bytes: rows r and r+1 overlap in two banks */
	access_counts c = strided(ACCESS_LDMATRIX, 0, -136, ALL, 16);
	assert_int_equal(c.wavefronts, 8);
}

static void bad_input(void **state)
{
	(void)state;
	int64_t a[32] = {0};
	access_counts c = {7, 7, 7};
	assert_int_equal(access_count(ACCESS_SHARED_LOAD, a, ALL, 0, &c), -1);
	assert_int_equal(c.wavefronts + c.ideal + c.sectors, 0);
	assert_int_equal(access_count(ACCESS_GLOBAL_LOAD, a, ALL, ACCESS_MAX_BYTES + 1, &c), -1);
	assert_int_equal(access_count(ACCESS_KIND_COUNT, a, ALL, 4, &c), -1);
	assert_int_equal(access_count(ACCESS_GLOBAL_LOAD, a, ALL, ACCESS_MAX_BYTES, &c), 0);
	assert_int_equal(c.sectors, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(global_sectors),
		cmocka_unit_test(global_load_wavefronts),
		cmocka_unit_test(shared_banks),
		cmocka_unit_test(pairs_only_for_loads),
		cmocka_unit_test(ldmatrix_rows),
		cmocka_unit_test(any_address),
		cmocka_unit_test(bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
