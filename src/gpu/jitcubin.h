/* jitcubin: the driver's JIT as a compiler for the SASS view — the cubin a module load of the PTX makes, with line information, nothing launched. */
#ifndef PTXTUTOR_JITCUBIN_H
#define PTXTUTOR_JITCUBIN_H

#include "run/run.h"

/* Compiles rq->ptx_path (PTX) with CU_JIT_GENERATE_LINE_INFO as `run` loads a
 * module (cuModuleLoadDataEx), the cubin taken from the JIT's cache, which the
 * process's first call points at a folder of its own; where that cannot be (CUDA
 * already started here, the cache disabled, no entry found) links it with
 * cuLinkCreate / cuLinkAddData / cuLinkComplete instead (other code: msg says
 * "(cuLink)"). Writes the cubin to rq->cubin_path, and answers RUN_OK with msg
 * "driver JIT 580.159.04" (the kernel module's
 * version, else the driver API's "CUDA 13.0"), log the JIT's verbose info log
 * (ptxas -v's lines: registers, stack, spills), the device's name and
 * compute capability; RUN_NO_GPU without a driver, RUN_JIT_ERROR with the
 * error log when the PTX does not compile, RUN_BAD_REQUEST when a file
 * cannot be read or written. */
void jitcubin_run(const run_request *rq, run_result *res);

/* The cubin in the JIT cache under dir whose entry holds mark: the ELF after it, cut at its section and
 * program headers (a malloc'd copy, *size its bytes), else NULL. */
void *jitcubin_cached(const char *dir, const char *mark, size_t *size);

#endif
