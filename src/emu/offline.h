/* offline: a run request carried out by the CPU emulator instead of the GPU, answered as a run_result (the worker calls it when rq->emulate is set). */
#ifndef PTXTUTOR_OFFLINE_H
#define PTXTUTOR_OFFLINE_H

#include "run/run.h"

/* Parses and runs the request's PTX on the CPU (src/emu/), verifies C
 * against the CPU reference and fills res->emu with the counts. Statuses as
 * on a GPU: RUN_JIT_ERROR for a parse error (log: "FILE:LINE: message"),
 * RUN_FAULT for an out-of-bounds or misaligned access, RUN_TIMEOUT when the
 * instruction budget runs out (an endless loop), RUN_WRONG for a wrong result
 * or a shared-memory race, RUN_OK when verified. gflops stays 0: the CPU's
 * speed says nothing about the GPU's. Never exits. */
void offline_run(const run_request *rq, run_result *res);

#endif
