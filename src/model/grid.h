/* grid: the grid a persistent kernel launches — how many blocks and clusters, and in how many rounds of tiles; one rule for the runner and the model. */
#ifndef PTXTUTOR_GRID_H
#define PTXTUTOR_GRID_H

typedef struct {
	long long blocks;   /* blocks launched: the grid's size */
	long long clusters; /* clusters launched: blocks ÷ the cluster size (blocks when there are no clusters) */
	long long rounds;   /* whole rounds of tiles: ceil(tiles ÷ blocks); 1 when the tile count is unknown */
} grid_shape;

/* The 1-D grid of a persistent kernel: every block resident from start to
 * end, each looping over tiles. `tiles` is the count of output tiles (0:
 * unknown, launch all that fit), `cluster` the blocks per cluster (1: none),
 * `fit` how many of them can be resident at once: clusters when cluster > 1
 * (the driver's cuOccupancyMaxActiveClusters, or the model's SMs × blocks
 * per SM ÷ cluster), else blocks (SMs × blocks per SM).
 *
 * Without clusters: min(tiles, fit) blocks, as lesson 9 was measured. With
 * clusters the tiles are counted in cluster tiles (ceil(tiles ÷ cluster)),
 * handed out round-robin; a partly empty round takes as long as a full one,
 * so no more clusters are launched than the fewest rounds need:
 * rounds = ceil(ctiles ÷ fit), clusters = ceil(ctiles ÷ rounds) (4096³ on an
 * H100, 128×256 tiles in pairs: 256 cluster tiles, 66 fit, 4 rounds of 64).
 * Returns 0, or -1 when fit < 1 or cluster < 1 (nothing can run). */
int grid_persistent(long long tiles, long long cluster, long long fit, grid_shape *out);

#endif
