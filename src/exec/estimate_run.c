/* exec/estimate_run: the whole estimate of a run request (see estimate_run.h): the counted sample, the
 * stall model's SM over the same blocks, the model's rule; here or in a child. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include "exec/estimate_run.h"
#include "exec/backend.h"
#include "exec/stalls.h"
#include "base/util.h"

/* The stall model's SM over the sample's blocks: its cycles for the busiest SM's share of the grid
 * into out->in.sm_cycles, or out->latency_why; and the counts of the same traced run into out->in
 * (returns 0), which saves emulating the blocks a second time; -1 where the traced run gave none. */
static int latency(const run_request *rq, const gpu_spec *g, int regs, exec_estimate_result *out)
{
	static exec_stalls_result s;
	int rc = exec_stalls(rq, g, regs, &s);
	out->regs_ptxas = s.regs_ptxas;
	if (rc < 0)
		snprintf(out->latency_why, sizeof out->latency_why, "%s", s.err);
	else if (s.cut)
		snprintf(out->latency_why, sizeof out->latency_why, "the trace was cut (its warps' tails are missing)");
	else {
		out->has_latency = 1;
		out->sm_cycles = s.r.cycles;
		out->waves = s.r.waves;
		out->blocks_per_sm = s.c.blocks_per_sm;
		out->regs = s.regs;
		out->regs_assumed = s.regs_assumed;
		out->issue_active = s.r.issue_active;
		out->in.sm_cycles = s.r.cycles * s.r.waves;
	}
	out->latency_seconds = s.emu_seconds + s.model_seconds;
	int counted = s.emu && exec_estimate_counts(rq, s.emu, out) == 0;
	if (counted)
		out->in.dram_bytes += s.dram_rereads; /* what the L2 could not keep, read again */
	exec_stalls_free(&s);
	return counted ? 0 : -1;
}

int exec_estimate(const run_request *rq, const gpu_spec *g, int regs, exec_estimate_result *out)
{
	memset(out, 0, sizeof *out);
	if (exec_estimate_supported(rq, g, out) < 0)
		return out->rc;
	/* One emulation of the sample, traced: the stall model replays it and the rule takes its counts. The
	 * counted run alone where the stall model could not run (no latency rows) or its run gave nothing. */
	if (latency(rq, g, regs, out) < 0) {
		out->has_latency = 0;
		if (exec_estimate_sample(rq, g, out) < 0)
			return out->rc;
	}
	return exec_estimate_rule(g, out);
}

typedef struct {
	const run_request *rq;
	const gpu_spec *g;
	int regs;
} job_arg;

static void job(const void *arg, void *out)
{
	const job_arg *a = arg;
	setpriority(PRIO_PROCESS, 0, 10); /* background work: the tutor's own process keeps the CPU first */
	exec_estimate(a->rq, a->g, a->regs, out);
}

int exec_estimate_job_start(exec_estimate_job *j, const run_request *rq, const gpu_spec *g, int regs)
{
	job_arg a = {rq, g, regs}; /* read in the child, which has its own copy */
	j->rq = *rq;
	j->regs = regs;
	j->started = util_now();
	memset(&j->out, 0, sizeof j->out);
	if (exec_job_start(&j->job, job, &a, &j->out, sizeof j->out) == 0)
		return 0;
	j->out.rc = -1;
	snprintf(j->out.err, sizeof j->out.err, "cannot start the estimate's process");
	return -1;
}

int exec_estimate_job_poll(exec_estimate_job *j)
{
	return exec_job_poll_within(&j->job, j->started, exec_kill_after(&j->rq), "the estimate", &j->out.rc,
				    j->out.err, sizeof j->out.err);
}
