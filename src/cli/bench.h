/* bench: run requests through a worker with progress on the terminal, and print their results. */
#ifndef PTXTUTOR_BENCH_H
#define PTXTUTOR_BENCH_H

#include <stdio.h>

#include "base/json.h"
#include "run/run.h"

/* Runs one request in the shared worker child (started on first use), with a
 * progress line on stderr when it is a terminal; a fault, or a hang past the
 * request's deadline, restarts the worker and becomes the result. Always
 * fills res. */
void bench_run_one(const run_request *rq, const char *label, run_result *res);
/* Stops the shared worker. */
void bench_done(void);

/* A short human report of one result (JIT log included on JIT errors). */
void bench_print_result(FILE *out, const run_request *rq, const run_result *res);
/* "f16→f32", and ", clusters of 2x1x1" when it has them: what a run computes, as every table shows it. */
void bench_types(const run_request *rq, char *buf, size_t len);
/* The result as a JSON object (key may be NULL); prev_gflops > 0 adds
 * speedup. "dtype" is the inputs' type, "out" the output's; "cluster" [X, Y, Z]
 * only when the run has clusters. */
void bench_json_result(json_writer *w, const char *key, const run_request *rq, const run_result *res,
		       double prev_gflops);

#endif
