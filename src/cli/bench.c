/* bench: run requests through a worker with progress on the terminal, and print their results. */
#include "cli/bench.h"

#include <stdio.h>
#include <string.h>

#include "base/termsafe.h"
#include "base/util.h"
#include "exec/backend.h"
#include "exec/report.h"
#include "exec/worker.h"

static worker shared;
static int started;

void bench_run_one(const run_request *rq, const char *label, run_result *res)
{
	if (!started) {
		if (worker_start(&shared)) {
			exec_run_lost(rq, RUN_NO_GPU, "cannot start the GPU worker process", res);
			return;
		}
		started = 1;
	}
	if (worker_submit(&shared, rq)) {
		exec_run_lost(rq, RUN_FAULT, "cannot send the request to the GPU worker", res);
		return;
	}
	char what[200];
	snprintf(what, sizeof what, "running %s", label);
	worker_wait(&shared, res, what, NULL);
}

void bench_done(void)
{
	if (started)
		worker_stop(&shared);
	started = 0;
}

void bench_types(const run_request *rq, char *buf, size_t len)
{
	exec_report_types(rq, buf, len);
}

void bench_print_result(FILE *out, const run_request *rq, const run_result *res)
{
	exec_report_text(out, rq->entry, rq, res);
}

void bench_json_result(json_writer *w, const char *key, const run_request *rq, const run_result *res,
		       double prev_gflops)
{
	run_report rep;
	run_report_make(&rep, rq, res, prev_gflops);
	exec_report_json(w, key, &rep, NULL, NULL);
}
