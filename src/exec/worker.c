/* exec/worker: every backend in a child process behind a pipe, so a faulting or hanging kernel costs a restart, never the UI. */
#define _GNU_SOURCE /* pipe2 */
#include "exec/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/util.h"
#include "exec/backend.h"
#include "exec/wait.h"

void worker_set_fork(pid_t (*fn)(void))
{
	proc_set_fork(fn);
}

/* Reads or writes exactly n bytes, retrying on EINTR; returns 0 or -1. */
static int full_io(int fd, void *buf, size_t n, int writing)
{
	char *p = buf;
	while (n) {
		ssize_t k = writing ? write(fd, p, n) : read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The pipes' ends: the child reads down[0] and writes up[1]. */
typedef struct {
	int down[2], up[2];
} worker_pipes;

/* The child (set up by base/proc: killed with its parent, signals at their
 * defaults): one request in, one result out, until the pipe closes. CUDA is
 * first touched here, after the fork, so the parent never holds a context. */
static int child_loop(void *arg)
{
	const worker_pipes *pp = arg;
	int in = pp->down[0], out = pp->up[1];
	close(pp->down[1]);
	close(pp->up[0]);
	signal(SIGINT, SIG_IGN); /* the UI decides when we stop */
	static run_request rq;
	static run_result res;
	while (full_io(in, &rq, sizeof rq, 0) == 0) {
		/* Every backend runs here, the CPU emulator too, so a slow or
		 * endless emulation never freezes the screen either. */
		exec_run(&rq, &res);
		if (full_io(out, &res, sizeof res, 1))
			break;
		/* A fault leaves a sticky error in the context: start afresh. */
		if (res.status == RUN_FAULT)
			return 3;
	}
	return 0;
}

int worker_start(worker *w)
{
	worker_pipes pp;
	memset(w, 0, sizeof *w);
	w->pid = -1;
	w->to_child = w->from_child = -1;
	/* close-on-exec: ptxas and $EDITOR, started later, hold no end of them */
	if (pipe2(pp.down, O_CLOEXEC))
		return -1;
	if (pipe2(pp.up, O_CLOEXEC)) {
		close(pp.down[0]);
		close(pp.down[1]);
		return -1;
	}
	proc p;
	if (proc_fork(&p, child_loop, &pp, 0) < 0) {
		close(pp.down[0]);
		close(pp.down[1]);
		close(pp.up[0]);
		close(pp.up[1]);
		return -1;
	}
	close(pp.down[0]);
	close(pp.up[1]);
	fcntl(pp.up[0], F_SETFL, O_NONBLOCK);
	w->pid = p.pid;
	w->to_child = pp.down[1];
	w->from_child = pp.up[0];
	return 0;
}

/* Reaps the child (base/proc: waitpid again on EINTR only), killed first
 * when asked; returns its status as proc_wait gives it. */
static int reap_child(worker *w, int kill_it)
{
	proc p = {.pid = w->pid};
	int status = PROC_LOST;
	if (p.pid > 0 && kill_it)
		proc_kill(&p);
	else if (p.pid > 0)
		status = proc_wait(&p);
	w->pid = -1;
	return status;
}

static void reap(worker *w, int kill_it)
{
	reap_child(w, kill_it);
	if (w->to_child >= 0)
		close(w->to_child);
	if (w->from_child >= 0)
		close(w->from_child);
	w->to_child = w->from_child = -1;
	w->busy = 0;
}

void worker_stop(worker *w)
{
	reap(w, 1);
}

/* Returns worker_start's result: a child that could not be started leaves
 * w stopped (pid -1), and the next submit tries again. */
static int restart(worker *w, int kill_it)
{
	reap(w, kill_it);
	return worker_start(w);
}

int worker_submit(worker *w, const run_request *rq)
{
	if (rq->a_host || rq->b_host || rq->c_host) /* pointers mean nothing in the worker (run.h) */
		return -1;
	if (w->pid <= 0 && worker_start(w))
		return -1;
	if (w->busy)
		return -1;
	/* A write to a child that died between runs raises SIGPIPE: ignore it
	 * for the call and restart instead. */
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	int rc = full_io(w->to_child, (void *)rq, sizeof *rq, 1);
	if (rc && restart(w, 1) == 0)
		rc = full_io(w->to_child, (void *)rq, sizeof *rq, 1);
	signal(SIGPIPE, old);
	if (rc)
		return -1;
	w->busy = 1;
	w->got = 0;
	w->started = util_now();
	w->sent = *rq;
	w->deadline = exec_kill_after(rq);
	return 0;
}

int worker_fd(const worker *w)
{
	return w->busy ? w->from_child : -1;
}

int worker_poll(worker *w, run_result *out)
{
	if (!w->busy)
		return 0;
	for (;;) {
		ssize_t k = read(w->from_child, (char *)&w->partial + w->got, sizeof w->partial - w->got);
		if (k > 0) {
			w->got += (size_t)k;
			if (w->got < sizeof w->partial)
				continue;
			*out = w->partial;
			w->busy = 0;
			if (out->status == RUN_FAULT)
				restart(w, 0); /* the child exits by itself after a fault; a failed start is retried on submit */
			return 1;
		}
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			break;
		/* End of file: the child died without answering. */
		int status = reap_child(w, 0);
		run_request sent = w->sent; /* restart clears w */
		char msg[160];
		const char *again = restart(w, 0) == 0 ? "it was restarted" : "it could not be restarted";
		if (status > 128)
			snprintf(msg, sizeof msg, "the worker died (signal %d); %s", status - 128, again);
		else
			snprintf(msg, sizeof msg, "the worker exited (status %d); %s", status, again);
		exec_run_lost(&sent, RUN_FAULT, msg, out);
		return 1;
	}
	if (w->deadline > 0 && util_now() - w->started > w->deadline) {
		char msg[160];
		double deadline = w->deadline; /* restart clears w */
		run_request sent = w->sent;
		const char *again = restart(w, 1) == 0 ? "was restarted" : "could not be restarted";
		snprintf(msg, sizeof msg, "killed after %.0f s (deadline); the worker %s", deadline, again);
		exec_run_lost(&sent, RUN_TIMEOUT, msg, out);
		return 1;
	}
	return 0;
}

typedef struct {
	worker *w;
	run_result *out;
} worker_waiting;

static int wait_fd(void *p)
{
	return worker_fd(((worker_waiting *)p)->w);
}

static int wait_done(void *p)
{
	worker_waiting *ww = p;
	return worker_poll(ww->w, ww->out);
}

static void wait_stop(void *p)
{
	worker_waiting *ww = p;
	worker_cancel(ww->w, ww->out);
}

int worker_wait(worker *w, run_result *out, const char *label, volatile sig_atomic_t *interrupted)
{
	static const exec_waiter waiter = {.fd = wait_fd, .done = wait_done, .stop = wait_stop};
	worker_waiting ww = {w, out};
	return exec_wait(&waiter, &ww, label, interrupted);
}

void worker_cancel(worker *w, run_result *out)
{
	run_request sent = w->sent; /* restart clears w */
	exec_run_lost(&sent, RUN_CANCELLED, restart(w, 1) == 0 ? "cancelled; the worker was restarted"
							       : "cancelled; the worker could not be restarted", out);
}
