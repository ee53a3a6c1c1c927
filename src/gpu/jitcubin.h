/* jitcubin: the driver's JIT as a compiler for the SASS view — PTX linked with line information into a cubin file, nothing launched. */
#ifndef PTXTUTOR_JITCUBIN_H
#define PTXTUTOR_JITCUBIN_H

#include "run/run.h"

/* Links rq->ptx_path (PTX) with cuLinkCreate / cuLinkAddData / cuLinkComplete
 * and CU_JIT_GENERATE_LINE_INFO, writes the cubin to rq->cubin_path, and
 * answers RUN_OK with msg "driver JIT 580.159.04" (the kernel module's
 * version, else the driver API's "CUDA 13.0"), log the JIT's verbose info log
 * (ptxas -v's lines: registers, stack, spills), the device's name and
 * compute capability; RUN_NO_GPU without a driver, RUN_JIT_ERROR with the
 * error log when the PTX does not compile, RUN_BAD_REQUEST when a file
 * cannot be read or written. */
void jitcubin_run(const run_request *rq, run_result *res);

#endif
