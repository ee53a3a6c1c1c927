/* exec/backend: the table of run backends; the one place that knows which backends exist. */
#include "exec/backend.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "model/devices.h"
#include "emu/backend.h"
#include "exec/emulate.h"
#include "gpu/jitcubin.h"
#include "gpu/runner.h"
#include "run/launch.h"

static void gpu_run(const run_request *rq, const exec_run_opts *opt, run_result *res)
{
	(void)opt; /* the runner has no progress to give and is killed to cancel */
	runner_run(rq, res);
}

static void cubin_run(const run_request *rq, const exec_run_opts *opt, run_result *res)
{
	(void)opt;
	jitcubin_run(rq, res);
}

static const exec_backend backends[] = {
	{.id = RUN_BACKEND_GPU, .refuses = NULL, .run = gpu_run, .keeps_deadline = 0},
	{.id = RUN_BACKEND_EMU, .refuses = emu_backend_refuses, .run = exec_emulate, .keeps_deadline = 1},
	{.id = RUN_BACKEND_CUBIN, .refuses = NULL, .run = cubin_run, .keeps_deadline = 0},
};

const exec_backend *exec_backend_of(run_backend id)
{
	for (size_t i = 0; i < ARRAY_LEN(backends); i++)
		if (backends[i].id == id)
			return &backends[i];
	return NULL;
}

int exec_refuses(const run_request *rq, run_error *why)
{
	const exec_backend *b = exec_backend_of(rq->backend);
	memset(why, 0, sizeof *why);
	if (!b) {
		snprintf(why->msg, sizeof why->msg, "no backend %d", (int)rq->backend);
		return 1;
	}
	return b->refuses ? b->refuses(rq, why) != 0 : 0;
}

void exec_run_lost(const run_request *rq, run_status st, const char *msg, run_result *res)
{
	memset(res, 0, sizeof *res);
	res->status = st;
	res->verified = -1;
	res->backend = rq->backend;
	util_strlcpy(res->msg, msg, sizeof res->msg);
}

/* A GPU's peaks and sources are not the driver's to say: the table's row of
 * the same chip fills them (a report's share of the peak needs them). */
static void complete_spec(run_result *res)
{
	static gpu_table table;
	static int loaded; /* 1 read, -1 unreadable */
	char err[256];
	if (res->spec.sms <= 0 || res->spec.fp32_tflops > 0)
		return;
	if (!loaded)
		loaded = devices_load(&table, err, sizeof err) > 0 ? 1 : -1;
	if (loaded > 0)
		devices_complete(&table, &res->spec);
}

void exec_run_with(const run_request *rq, const exec_run_opts *opt, run_result *res)
{
	const exec_backend *b = exec_backend_of(rq->backend);
	if (!b) {
		char msg[64];
		snprintf(msg, sizeof msg, "no backend %d", (int)rq->backend);
		exec_run_lost(rq, RUN_BAD_REQUEST, msg, res);
		return;
	}
	b->run(rq, opt, res);
	res->backend = rq->backend; /* the pipeline says who ran it, not the backend */
	complete_spec(res);
}

void exec_run(const run_request *rq, run_result *res)
{
	exec_run_with(rq, NULL, res);
}

double exec_kill_after(const run_request *rq)
{
	const exec_backend *b = exec_backend_of(rq->backend);
	if (rq->deadline_s <= 0)
		return 0;
	return rq->deadline_s + (b && b->keeps_deadline ? LAUNCH_KILL_GRACE_S : 0);
}

static void run_in_child(const void *arg, void *out)
{
	exec_run(arg, out);
}

int exec_run_job_start(exec_run_job *j, const run_request *rq)
{
	j->rq = *rq;
	j->started = util_now();
	if (exec_job_start(&j->job, run_in_child, &j->rq, &j->out, sizeof j->out) == 0)
		return 0;
	exec_run_lost(rq, RUN_FAULT, "cannot start a process for the run", &j->out);
	return -1;
}

int exec_run_job_poll(exec_run_job *j)
{
	int rc = exec_job_poll(&j->job);
	if (rc < 0)
		exec_run_lost(&j->rq, RUN_FAULT, "the run's process died before it answered", &j->out);
	double kill_after = exec_kill_after(&j->rq);
	if (rc == 0 && j->job.pid > 0 && kill_after > 0 && util_now() - j->started > kill_after) {
		char msg[96];
		exec_job_stop(&j->job);
		snprintf(msg, sizeof msg, "killed after %.0f s (deadline)", kill_after);
		exec_run_lost(&j->rq, RUN_TIMEOUT, msg, &j->out);
		return 1;
	}
	return rc ? 1 : 0;
}
