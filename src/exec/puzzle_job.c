/* exec/puzzle_job: fork, check in the child, send the plain-data outcome back over a pipe. */
#include "exec/puzzle_job.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int puzzle_job_start(puzzle_job *j, const puzzle *p, const char *path)
{
	int fds[2];
	memset(j, 0, sizeof *j);
	j->pid = -1, j->fd = -1;
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
		puzzle_outcome o;
		puzzle_check_file(p, path, &o);
		const char *b = (const char *)&o;
		for (size_t n = 0; n < sizeof o;) {
			ssize_t w = write(fds[1], b + n, sizeof o - n);
			if (w <= 0 && errno != EINTR)
				_exit(1);
			n += w > 0 ? (size_t)w : 0;
		}
		_exit(0);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	j->pid = pid, j->fd = fds[0];
	return 0;
}

static void reap(puzzle_job *j)
{
	if (j->fd >= 0)
		close(j->fd);
	if (j->pid > 0)
		while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR)
			;
	j->fd = -1, j->pid = -1;
}

int puzzle_job_poll(puzzle_job *j, puzzle_outcome *out)
{
	if (j->fd < 0)
		return 0;
	for (;;) {
		ssize_t r = read(j->fd, (char *)&j->out + j->got, sizeof j->out - j->got);
		if (r > 0) {
			j->got += (size_t)r;
			if (j->got < sizeof j->out)
				continue;
			*out = j->out;
			reap(j);
			return 1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return 0;
		/* end of file before a whole outcome: the child died */
		memset(out, 0, sizeof *out);
		out->n = 1;
		snprintf(out->v[0].name, sizeof out->v[0].name, "the check");
		snprintf(out->v[0].msg, sizeof out->v[0].msg, "the checking process died before it answered");
		reap(j);
		return 1;
	}
}

void puzzle_job_stop(puzzle_job *j)
{
	if (j->pid > 0)
		kill(j->pid, SIGKILL);
	reap(j);
}
