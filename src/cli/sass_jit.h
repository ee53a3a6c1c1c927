/* sass_jit: the SASS view's cubin from the GPU's own JIT — the worker child links the `.loc` copy with line information, this side disassembles it. */
#ifndef PTXTUTOR_SASS_JIT_H
#define PTXTUTOR_SASS_JIT_H

#include <stddef.h>

#include "course/sass_tools.h"
#include "exec/worker.h"

/* sass_jit_build's status when no GPU answered (err says why): the caller
 * compiles with ptxas instead. */
#define SASS_NO_GPU 2

/* The kernel's SASS from the driver's JIT: the instrumented copy of ptx_path
 * is sent to worker w (started when it is not; a request that runs) as a
 * run_request for RUN_BACKEND_CUBIN, the child writes the cubin, and it is
 * disassembled here; k->compiler says "driver JIT 580.x", registers, stack and
 * spills come from the JIT's verbose log. Waits for the answer (at most
 * deadline_s; 0: launch_deadline's for the JIT). Returns 0, SASS_MISSING, SASS_FAILED or SASS_NO_GPU, with a
 * one-line err. */
int sass_jit_build(worker *w, const char *ptx_path, const char *entry, double deadline_s, sass_kernel *k,
		   char *err, size_t errlen);

#endif
