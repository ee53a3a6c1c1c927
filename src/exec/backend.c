/* exec/backend: the table of run backends; the one place that knows which backends exist. */
#include "exec/backend.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "emu/backend.h"
#include "gpu/jitcubin.h"
#include "gpu/runner.h"

static const exec_backend backends[] = {
	{.id = RUN_BACKEND_GPU, .name = "GPU", .refuses = NULL, .run = runner_run},
	{.id = RUN_BACKEND_EMU, .name = "CPU emulator", .refuses = emu_backend_refuses, .run = emu_backend_run},
	{.id = RUN_BACKEND_CUBIN, .name = "driver JIT to cubin", .refuses = NULL, .run = jitcubin_run},
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

void exec_run(const run_request *rq, run_result *res)
{
	const exec_backend *b = exec_backend_of(rq->backend);
	if (b) {
		b->run(rq, res);
		return;
	}
	memset(res, 0, sizeof *res);
	res->status = RUN_BAD_REQUEST;
	res->verified = -1;
	snprintf(res->msg, sizeof res->msg, "no backend %d", (int)rq->backend);
}

static void run_in_child(const void *arg, void *out)
{
	exec_run(arg, out);
}

static void died(run_result *r, const char *why)
{
	memset(r, 0, sizeof *r);
	r->status = RUN_FAULT;
	snprintf(r->msg, sizeof r->msg, "%s", why);
}

int exec_run_job_start(exec_run_job *j, const run_request *rq)
{
	if (exec_job_start(&j->job, run_in_child, rq, &j->out, sizeof j->out) == 0)
		return 0;
	died(&j->out, "cannot start a process for the run");
	return -1;
}

int exec_run_job_poll(exec_run_job *j)
{
	int rc = exec_job_poll(&j->job);
	if (rc < 0)
		died(&j->out, "the run's process died before it answered");
	return rc ? 1 : 0;
}
