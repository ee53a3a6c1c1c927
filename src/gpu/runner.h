/* runner: JIT a PTX module (with its logs), launch it, time it and verify it against cuBLAS. */
#ifndef PTXTUTOR_RUNNER_H
#define PTXTUTOR_RUNNER_H

#include "run/run.h"

/* Runs a request in this process (the worker's child calls it). Never
 * exits: every failure becomes a status and a message. */
void runner_run(const run_request *rq, run_result *res);

#endif
