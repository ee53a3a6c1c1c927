/* grid: grid_persistent, the persistent grid's size in blocks, clusters and rounds (pure arithmetic, no driver). */
#include "model/grid.h"

static long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

int grid_persistent(long long tiles, long long cluster, long long fit, grid_shape *out)
{
	out->blocks = out->clusters = 0;
	out->rounds = 0;
	if (fit < 1 || cluster < 1 || tiles < 0)
		return -1;
	if (cluster == 1) {
		/* Lessons without clusters keep one block per SM slot, as they were
		 * measured: no trimming, never more blocks than tiles. */
		out->blocks = out->clusters = tiles && tiles < fit ? tiles : fit;
		out->rounds = tiles ? ceil_div(tiles, out->blocks) : 1;
		return 0;
	}
	long long ctiles = ceil_div(tiles, cluster);
	if (ctiles == 0) { /* no tile count (run --ptx --grid persistent): every cluster that fits */
		out->clusters = fit;
		out->rounds = 1;
	} else {
		out->rounds = ceil_div(ctiles, fit);
		out->clusters = ceil_div(ctiles, out->rounds);
	}
	out->blocks = out->clusters * cluster;
	return 0;
}
