/* exec/worker: every backend in a child process behind a pipe, so a faulting or hanging kernel costs a restart, never the UI. */
#ifndef PTXTUTOR_WORKER_H
#define PTXTUTOR_WORKER_H

#include <signal.h>
#include <sys/types.h>

#include "run/run.h"

typedef struct {
	pid_t pid;
	int to_child, from_child;   /* pipe ends held by the parent */
	int busy;
	double started;             /* util_now() when the request was sent */
	double deadline;            /* seconds after start when it is killed (exec_kill_after); 0 none */
	run_request sent;           /* the request running: a result made up for it names its backend */
	size_t got;                 /* bytes of the current result read so far */
	run_result partial;
} worker;

/* Forks the child. The child touches CUDA only when the first request comes.
 * Returns 0, or -1 with no descriptor left open (pipe or fork failed). */
int worker_start(worker *w);
/* Tests only: the fork worker_start calls (NULL: fork itself), so a failing
 * fork can be planted. */
void worker_set_fork(pid_t (*fn)(void));
/* Sends a request; the run is killed at exec_kill_after(rq) (its deadline;
 * a request with deadline_s 0 runs until it ends). */
int worker_submit(worker *w, const run_request *rq);
/* The fd to poll() for readability while busy; -1 when none. */
int worker_fd(const worker *w);
/* Reads what is available without blocking. Returns 1 when a whole result is
 * in *out, 0 while still running, and 1 with RUN_TIMEOUT or RUN_FAULT when the
 * deadline passed or the child died (it is then restarted); a result made up
 * so has the backend of the request sent (exec_run_lost). */
int worker_poll(worker *w, run_result *out);
/* Waits for the run submitted (exec_wait: a progress line labelled label on
 * a terminal, cancelled when *interrupted is set; NULL: never). Returns 0
 * with the result in *out, or -1 cancelled (*out says RUN_CANCELLED). */
int worker_wait(worker *w, run_result *out, const char *label, volatile sig_atomic_t *interrupted);
/* Kills the current run and restarts the child; *out says RUN_CANCELLED. */
void worker_cancel(worker *w, run_result *out);
void worker_stop(worker *w);

#endif
