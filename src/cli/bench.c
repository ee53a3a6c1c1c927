/* bench: run requests through a worker with progress on the terminal, and print their results. */
#include "cli/bench.h"

#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "exec/worker.h"

static worker shared;
static int started;

void bench_run_one(const run_request *rq, double deadline_s, const char *label, run_result *res)
{
	if (!started) {
		if (worker_start(&shared)) {
			memset(res, 0, sizeof *res);
			res->status = RUN_NO_GPU;
			util_strlcpy(res->msg, "cannot start the GPU worker process", sizeof res->msg);
			return;
		}
		started = 1;
	}
	if (worker_submit(&shared, rq, deadline_s)) {
		memset(res, 0, sizeof *res);
		res->status = RUN_FAULT;
		util_strlcpy(res->msg, "cannot send the request to the GPU worker", sizeof res->msg);
		return;
	}
	int tty = isatty(2);
	double t0 = util_now();
	for (;;) {
		struct pollfd p = {worker_fd(&shared), POLLIN, 0};
		poll(&p, 1, 200);
		if (worker_poll(&shared, res))
			break;
		if (tty)
			fprintf(stderr, "\r  running %s ... %.1f s ", label, util_now() - t0);
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
}

void bench_done(void)
{
	if (started)
		worker_stop(&shared);
	started = 0;
}

void bench_types(const run_request *rq, char *buf, size_t len)
{
	unsigned c[3];
	char types[32];
	dtype_pair_name(rq->dt, run_out(rq), types, sizeof types);
	if (run_cluster(rq, c) > 1)
		snprintf(buf, len, "%s, clusters of %ux%ux%u", types, c[0], c[1], c[2]);
	else
		snprintf(buf, len, "%s", types);
}

void bench_print_result(FILE *out, const run_request *rq, const run_result *res)
{
	char types[64];
	bench_types(rq, types, sizeof types);
	fprintf(out, "%s %s: %s\n", rq->entry, run_status_name(res->status), res->msg);
	fprintf(out, "  types      %s\n", types);
	if (res->gpu[0])
		fprintf(out, "  gpu        %s (sm_%d%d)\n", res->gpu, res->cc_major, res->cc_minor);
	if (res->status == RUN_JIT_ERROR || (res->status != RUN_OK && res->log[0]))
		fprintf(out, "  JIT log:\n%s\n", res->log);
	if (res->status != RUN_OK && res->status != RUN_WRONG)
		return;
	fprintf(out, "  launch     grid %u,%u,%u%s  block %u,%u,%u  dynamic smem %u B\n", res->grid[0], res->grid[1],
		res->grid[2], rq->persistent ? " (persistent: one block per SM slot)" : "", rq->block[0], rq->block[1],
		rq->block[2], rq->smem);
	fprintf(out, "  kernel     %d registers/thread, %d B static smem, %d B local, %d blocks/SM (driver)\n",
		res->regs, res->smem_static, res->local_bytes, res->blocks_per_sm);
	if (res->verified >= 0)
		fprintf(out, "  check      rel. error %.3g (tolerance %.0e): %s\n", res->rel_err, res->tol,
			res->verified ? "PASS" : "FAIL");
	if (res->gflops > 0) {
		fprintf(out, "  time       %.4f ms, %.1f GFLOP/s (median of %d)\n", res->ms, res->gflops, res->repeats);
		if (res->cublas_gflops > 0)
			fprintf(out, "  cuBLAS     %.4f ms, %.1f GFLOP/s -> ours is %.1f%% of cuBLAS\n", res->cublas_ms,
				res->cublas_gflops, 100.0 * res->gflops / res->cublas_gflops);
	}
}

void bench_json_result(json_writer *w, const char *key, const run_request *rq, const run_result *res,
		       double prev_gflops)
{
	json_obj(w, key);
	json_str(w, "entry", rq->entry);
	json_str(w, "status", run_status_name(res->status));
	json_str(w, "message", res->msg);
	json_str(w, "gpu", res->gpu);
	json_int(w, "M", rq->M);
	json_int(w, "N", rq->N);
	json_int(w, "K", rq->K);
	json_str(w, "dtype", dtype_name(rq->dt));
	json_str(w, "out", dtype_name(run_out(rq)));
	unsigned c[3];
	if (run_cluster(rq, c) > 1) {
		json_arr(w, "cluster");
		for (int i = 0; i < 3; i++)
			json_int(w, NULL, c[i]);
		json_end(w);
	}
	json_int(w, "registers", res->regs);
	json_int(w, "smem_static", res->smem_static);
	json_int(w, "smem_dynamic", rq->smem);
	json_int(w, "local_bytes", res->local_bytes);
	json_int(w, "blocks_per_sm", res->blocks_per_sm);
	json_num(w, "ms", res->gflops > 0 ? res->ms : NAN);
	json_num(w, "gflops", res->gflops > 0 ? res->gflops : NAN);
	json_num(w, "cublas_ms", res->cublas_gflops > 0 ? res->cublas_ms : NAN);
	json_num(w, "cublas_gflops", res->cublas_gflops > 0 ? res->cublas_gflops : NAN);
	json_num(w, "pct_of_cublas", res->cublas_gflops > 0 ? 100.0 * res->gflops / res->cublas_gflops : NAN);
	json_num(w, "speedup", prev_gflops > 0 && res->gflops > 0 ? res->gflops / prev_gflops : NAN);
	json_num(w, "rel_error", res->rel_err);
	if (res->verified < 0)
		json_null(w, "verified");
	else
		json_bool(w, "verified", res->verified);
	json_int(w, "repeats", res->repeats);
	if (res->status == RUN_JIT_ERROR)
		json_str(w, "jit_log", res->log);
	json_end(w);
}
