/* runner: JIT a PTX module (with its logs), launch it, time it and verify it against cuBLAS. */
#ifndef PTXTUTOR_RUNNER_H
#define PTXTUTOR_RUNNER_H

#include "run/run.h"

/* Runs a request in this process (the worker's child calls it). Never
 * exits: every failure becomes a status and a message. */
void runner_run(const run_request *rq, run_result *res);

/* The PTX text the runner hands the JIT for rq: the file as it is, or with
 * rq->lineinfo the `.loc` copy (course/sass.c sass_instrument) whose `.file`
 * names the file by its absolute path, so that a profiler shows its lines.
 * Returns the malloc'd text, or NULL with err when the file cannot be read.
 * *line_info is the value of CU_JIT_GENERATE_LINE_INFO to pass (0 or 1). */
char *runner_module_text(const run_request *rq, int *line_info, char *err, size_t errlen);

#endif
