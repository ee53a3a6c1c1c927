/* exec/backend: the table of run backends (GPU runner, CPU emulator, JIT-to-cubin) — a request's backend field picks a row; the row says whether it would refuse the request, whether it keeps its own deadline, and runs it. */
#ifndef PTXTUTOR_EXEC_BACKEND_H
#define PTXTUTOR_EXEC_BACKEND_H

#include "exec/job.h"
#include "exec/run_opts.h"
#include "run/run.h"

/* One backend, nvtop's vendor-table shape: a new backend is a row (its
 * name is run_backend_name's, in src/run/run.c). */
typedef struct {
	run_backend id;
	/* 0 when it would take the request; 1 with the reason in *why when it
	 * refuses it before any work (NULL: never refuses up front). */
	int (*refuses)(const run_request *rq, run_error *why);
	/* Carries the request out in this process; never exits: every failure
	 * becomes a status and a message in *res. opt may be NULL. */
	void (*run)(const run_request *rq, const exec_run_opts *opt, run_result *res);
	/* 1: it stops itself cleanly at rq->deadline_s (the emulator), so its
	 * parent kills it only LAUNCH_KILL_GRACE_S later; 0: the kill is the
	 * deadline. */
	int keeps_deadline;
} exec_backend;

/* The row for a backend; NULL for a value outside the table. */
const exec_backend *exec_backend_of(run_backend id);

/* Whether rq's backend would refuse it up front (the UI asks before offering
 * r). Returns 0, or 1 with the reason in *why; an unknown backend refuses. */
int exec_refuses(const run_request *rq, run_error *why);

/* Runs rq on its backend in this process (the worker's child calls it; so
 * does `emulate`, with progress and Ctrl-C). res->backend is rq->backend
 * whatever happened. An unknown backend answers RUN_BAD_REQUEST. */
void exec_run(const run_request *rq, run_result *res);
void exec_run_with(const run_request *rq, const exec_run_opts *opt, run_result *res);

/* When a parent kills a child running rq, in seconds after it started:
 * rq->deadline_s, plus LAUNCH_KILL_GRACE_S for a backend that keeps its
 * own; 0 (never) for a request without a deadline. */
double exec_kill_after(const run_request *rq);

/* A result for a run that did not answer (killed at its deadline,
 * cancelled, its child died): status and message, the backend that ran. */
void exec_run_lost(const run_request *rq, run_status st, const char *msg, run_result *res);

/* exec_run in a child of its own (exec/job.h), beside the worker: the tutor's
 * per-line counts after a GPU run come from such an emulation. */
typedef struct {
	exec_job job;
	run_request rq;             /* what was sent: its backend and deadline */
	double started;
	run_result out;
} exec_run_job;

/* Returns 0, or -1 when the child could not start (out says so). */
int exec_run_job_start(exec_run_job *j, const run_request *rq);
/* 1 with j->out (a child that died: RUN_FAULT saying so; one past
 * exec_kill_after: killed, RUN_TIMEOUT), 0 while it runs. */
int exec_run_job_poll(exec_run_job *j);

#endif
