/* occupancy: resident blocks per SM as the CUDA driver computes it, with the working as steps. */
#ifndef PTXTUTOR_OCCUPANCY_H
#define PTXTUTOR_OCCUPANCY_H

#include "model/devices.h"
#include "base/json.h"

#define OCC_MAX_STEPS 12
#define OCC_STEP_LEN 200

/* One launch configuration. Plain ints so a test or a driver comparison can
 * sweep them in a loop. */
typedef struct {
	int threads;       /* threads per block */
	int regs;          /* registers per thread (from the JIT, or recorded) */
	int smem_static;   /* bytes of static shared memory per block */
	int smem_dynamic;  /* bytes of dynamic shared memory per block */
} occ_input;

typedef struct {
	int warps_per_block;
	int regs_per_warp;      /* regs × 32 rounded up to the allocation unit */
	int smem_per_block;     /* static + dynamic + reserved, rounded to 128 */
	int limit_warps;        /* blocks per SM allowed by each resource */
	int limit_regs;
	int limit_smem;
	int limit_blocks;
	int blocks_per_sm;      /* the minimum of the four */
	int active_warps;       /* blocks_per_sm × warps_per_block */
	int max_warps;          /* the SM's maximum */
	double occupancy;       /* active_warps / max_warps, 0..1 */
	const char *limiter;    /* "warps", "registers", "shared" or "blocks" */
	char steps[OCC_MAX_STEPS][OCC_STEP_LEN]; /* the working, one line each */
	int nsteps;
} occ_result;

/* Computes occupancy of one block shape on g. Returns 0; or -1 when the block
 * cannot launch at all (too many threads, registers or shared memory per
 * block): then blocks_per_sm is 0 and the last step says why. */
int occ_compute(const gpu_spec *g, const occ_input *in, occ_result *out);

/* Writes r as a JSON object under key (NULL inside arrays / at the top):
 * blocks_per_sm, active_warps, max_warps, occupancy, limiter, limits, steps. */
void occ_json(json_writer *w, const char *key, const occ_result *r);
/* The same keys into an object the caller has open. */
void occ_json_fields(json_writer *w, const occ_result *r);

#endif
