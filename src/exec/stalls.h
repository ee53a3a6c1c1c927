/* exec/stalls: a sampled emulation traced warp by warp and replayed by the stall model
 * (model/stalls.h): why each PTX line waits, on one SM of the GPU, offline. */
#ifndef PTXTUTOR_EXEC_STALLS_H
#define PTXTUTOR_EXEC_STALLS_H

#include "model/devices.h"
#include "model/stalls.h"
#include "run/run.h"

typedef struct {
	int rc;                      /* 0, or -1 with err */
	char err[320];
	stall_result r;              /* stall_result_free it (exec_stalls_free) */
	stall_params p;
	stall_config c;
	int regs;                    /* registers a thread the occupancy used */
	int regs_assumed;            /* 1: not known, EXEC_STALLS_REGS assumed */
	long long blocks_run;        /* blocks emulated (the trace holds up to STALL_MAX_BLOCKS) */
	int cut;                     /* the trace hit STALL_MAX_RECS: the warps' tails are missing */
	double emu_seconds, model_seconds;
} exec_stalls_result;

/* The registers a thread assumed when the kernel's are not known (a PTX file without a recorded value). */
#define EXEC_STALLS_REGS 64

/* Traces rq's first blocks (as the estimate samples them: exec/estimate.h) and replays them on one SM
 * of g with `regs` registers a thread (0: not known). Returns out->rc. */
int exec_stalls(const run_request *rq, const gpu_spec *g, int regs, exec_stalls_result *out);
void exec_stalls_free(exec_stalls_result *out);

#endif
