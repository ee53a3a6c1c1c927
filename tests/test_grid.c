/* test_grid: grid_persistent, the persistent grid's blocks, clusters and rounds, against cases worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/grid.h"

static void expect(long long tiles, long long cluster, long long fit, long long blocks, long long clusters,
		   long long rounds)
{
	grid_shape g;
	assert_int_equal(grid_persistent(tiles, cluster, fit, &g), 0);
	assert_int_equal(g.blocks, blocks);
	assert_int_equal(g.clusters, clusters);
	assert_int_equal(g.rounds, rounds);
}

/* No clusters: one block per SM slot, never more blocks than tiles, no trimming. */
static void without_clusters(void **state)
{
	(void)state;
	/* Lesson 9 at 4096³ on an H100: 32 × 16 = 512 tiles of 128 × 256, 132
	 * slots: 132 blocks, ceil(512 / 132) = 4 rounds. */
	expect(512, 1, 132, 132, 132, 4);
	/* Fewer tiles than slots: one block per tile, one round. */
	expect(100, 1, 132, 100, 100, 1);
	/* Unknown tile count (run --ptx --grid persistent): every slot. */
	expect(0, 1, 132, 132, 132, 1);
}

/* Clusters: launch no more clusters than the fewest rounds need. */
static void with_clusters(void **state)
{
	(void)state;
	/* Lesson 10 at 4096³ on an H100: 512 tiles in pairs = 256 cluster tiles;
	 * 66 pairs fit: ceil(256 / 66) = 4 rounds, ceil(256 / 4) = 64 pairs,
	 * 128 blocks. */
	expect(512, 2, 66, 128, 64, 4);
	/* 8192³: 2048 tiles = 1024 pairs; ceil(1024 / 66) = 16 rounds of 64. */
	expect(2048, 2, 66, 128, 64, 16);
	/* An odd tile count rounds up to whole clusters: 7 tiles = 4 pairs, 3
	 * fit: 2 rounds of 2 pairs. */
	expect(7, 2, 3, 4, 2, 2);
	/* Clusters of 4, 33 fit, 100 tiles = 25 clusters: one round of all 25. */
	expect(100, 4, 33, 100, 25, 1);
	/* Unknown tile count: every cluster that fits. */
	expect(0, 2, 66, 132, 66, 1);
}

/* Nothing fits, or a nonsense cluster: -1. */
static void refusals(void **state)
{
	(void)state;
	grid_shape g;
	assert_int_equal(grid_persistent(512, 1, 0, &g), -1);
	assert_int_equal(grid_persistent(512, 2, 0, &g), -1);
	assert_int_equal(grid_persistent(512, 0, 66, &g), -1);
	assert_int_equal(g.blocks, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(without_clusters),
		cmocka_unit_test(with_clusters),
		cmocka_unit_test(refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
