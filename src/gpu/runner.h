/* runner: JIT a PTX module (with its logs), launch it, time it and verify it against cuBLAS. */
#ifndef PTXTUTOR_RUNNER_H
#define PTXTUTOR_RUNNER_H

#include <stdio.h>

#include "run/run.h"

/* Runs a request in this process (the worker's child calls it). Never
 * exits: every failure becomes a status and a message. */
void runner_run(const run_request *rq, run_result *res);

/* The kernel's printf output: the driver writes it to stdout (fd 1) when the
 * host synchronises, where it would break `run --json` and the tutor's
 * screen. runner_run points fd 1 at an unnamed file for the run
 * (runner_stdout_begin) and puts what was written into res->printed
 * (runner_stdout_end); tests call the two around writes of their own. */
typedef struct {
	int saved;              /* fd 1 as it was; -1: nothing redirected */
	FILE *file;
	long keep;              /* the bytes kept (runner_stdout_mark); -1: all */
} runner_stdout;
void runner_stdout_begin(runner_stdout *c);
/* What is written from here on is not kept: the timed launches of a kernel
 * print again what its first (checked) launch printed, once a launch. */
void runner_stdout_mark(runner_stdout *c);
void runner_stdout_end(runner_stdout *c, run_printf *p);

/* The PTX text the runner hands the JIT for rq: the file as it is, or with
 * rq->lineinfo the `.loc` copy (course/sass.c sass_instrument) whose `.file`
 * names the file by its absolute path, so that a profiler shows its lines.
 * Returns the malloc'd text, or NULL with err when the file cannot be read.
 * *line_info is the value of CU_JIT_GENERATE_LINE_INFO to pass (0 or 1). */
char *runner_module_text(const run_request *rq, int *line_info, char *err, size_t errlen);

#endif
