/* exec/estimate_run: the whole time estimate of a run request — the counted sample (exec/estimate.h),
 * the stall model's SM over the same blocks (exec/stalls.h), the model's rule (model/estimate.h) —
 * here, or in a child process for the tutor. */
#ifndef PTXTUTOR_EXEC_ESTIMATE_RUN_H
#define PTXTUTOR_EXEC_ESTIMATE_RUN_H

#include "exec/estimate.h"
#include "exec/job.h"

/* Estimates rq's time on g, with `regs` registers a thread for the stall model's occupancy (the
 * lesson's recorded value; 0: not known, then ptxas's where it is installed, else EXEC_STALLS_REGS,
 * said). rq->deadline_s bounds both samples together (a block that alone takes longer gives no
 * estimate; no time left for the traced one: the root rule, said). Returns out->rc: 0, or -1 with one
 * line in out->err (the emulator could not run it, or the model has no rates for g). */
int exec_estimate(const run_request *rq, const gpu_spec *g, int regs, exec_estimate_result *out);

/* The same in a child process (exec/job.h), for the tutor: its screen stays
 * live while the blocks run. */
typedef struct {
	exec_job job;
	run_request rq;             /* what the child runs: its deadline */
	int regs;
	double started;
	exec_estimate_result out;
} exec_estimate_job;

/* Returns 0, or -1 when the child could not start (out says so). */
int exec_estimate_job_start(exec_estimate_job *j, const run_request *rq, const gpu_spec *g, int regs);
/* 1 with j->out (rc -1 and err if the child died or was killed at
 * exec_kill_after), 0 while it runs. */
int exec_estimate_job_poll(exec_estimate_job *j);

#endif
