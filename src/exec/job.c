/* exec/job: fork, compute in the child, send the plain-data answer back over a pipe. */
#include "exec/job.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int exec_job_start(exec_job *j, exec_job_fn fn, const void *arg, void *out, size_t size)
{
	int fds[2];
	*j = (exec_job)EXEC_JOB_NONE;
	if (pipe(fds) < 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]), close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		fn(arg, out);
		const char *b = out;
		for (size_t n = 0; n < size;) {
			ssize_t w = write(fds[1], b + n, size - n);
			if (w <= 0 && errno != EINTR)
				_exit(1);
			n += w > 0 ? (size_t)w : 0;
		}
		_exit(0);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	j->pid = pid, j->fd = fds[0], j->out = out, j->size = size;
	return 0;
}

static void reap(exec_job *j)
{
	if (j->fd >= 0)
		close(j->fd);
	if (j->pid > 0)
		while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR)
			;
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
			reap(j);
			return 1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return 0;
		reap(j); /* end of file before a whole answer: the child died */
		return -1;
	}
}

void exec_job_stop(exec_job *j)
{
	if (j->pid > 0)
		kill(j->pid, SIGKILL);
	reap(j);
}
