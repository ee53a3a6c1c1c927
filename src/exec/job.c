/* exec/job: fork (base/proc.c), compute in the child, send the plain-data answer back over a pipe. */
#define _GNU_SOURCE /* pipe2 */
#include "exec/job.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/util.h"

/* What the child needs: the work, and where its answer goes. */
typedef struct {
	exec_job_fn fn;
	const void *arg;
	void *out;
	size_t size;
	int rd, wr;                 /* the pipe: the child writes, the parent reads */
} job_child;

static int child(void *p)
{
	const job_child *c = p;
	close(c->rd);
	c->fn(c->arg, c->out);
	const char *b = c->out;
	for (size_t n = 0; n < c->size;) {
		ssize_t w = write(c->wr, b + n, c->size - n);
		if (w <= 0 && errno != EINTR)
			return 1;
		n += w > 0 ? (size_t)w : 0;
	}
	return 0;
}

int exec_job_start(exec_job *j, exec_job_fn fn, const void *arg, void *out, size_t size)
{
	int fds[2];
	*j = (exec_job)EXEC_JOB_NONE;
	/* close-on-exec: a program the tutor starts later ($EDITOR, ptxas) holds no end of it */
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	job_child c = {.fn = fn, .arg = arg, .out = out, .size = size, .rd = fds[0], .wr = fds[1]};
	proc p;
	if (proc_fork(&p, child, &c, 0) < 0) {
		close(fds[0]), close(fds[1]);
		return -1;
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	j->pid = p.pid, j->fd = fds[0], j->out = out, j->size = size;
	return 0;
}

/* Closes the pipe and reaps the child: killed first unless it has answered. */
static void reap(exec_job *j, int kill)
{
	if (j->fd >= 0)
		close(j->fd);
	proc p = {.pid = j->pid};
	if (kill)
		proc_kill(&p);
	else if (p.pid > 0)
		proc_wait(&p);
	j->fd = -1, j->pid = -1;
}

int exec_job_poll(exec_job *j)
{
	if (j->fd < 0)
		return 0;
	for (;;) {
		ssize_t r = read(j->fd, (char *)j->out + j->got, j->size - j->got);
		if (r > 0) {
			j->got += (size_t)r;
			if (j->got < j->size)
				continue;
			reap(j, 0);
			return 1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return 0;
		reap(j, 0); /* end of file before a whole answer: the child died */
		return -1;
	}
}

void exec_job_stop(exec_job *j)
{
	reap(j, 1);
}

int exec_job_poll_within(exec_job *j, double started, double kill_after, const char *what, int *rc, char *err,
			 size_t errlen)
{
	int got = exec_job_poll(j);
	if (got == 0 && j->pid > 0 && kill_after > 0 && util_now() - started > kill_after) {
		exec_job_stop(j);
		*rc = -1;
		snprintf(err, errlen, "killed after %.0f s (deadline)", kill_after);
		return 1;
	}
	if (got >= 0)
		return got;
	*rc = -1;
	snprintf(err, errlen, "%s's process died before it answered", what);
	return 1;
}
