/* exec/job: work in a child process behind a pipe — a plain-data answer of a fixed size comes back —
 * so the tutor's screen never waits for the emulator and a crash costs only the child. */
#ifndef PTXTUTOR_EXEC_JOB_H
#define PTXTUTOR_EXEC_JOB_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
	pid_t pid;                  /* -1 when none runs */
	int fd;                     /* the read end; -1 when none */
	size_t got, size;           /* bytes of the answer read so far, of size */
	void *out;                  /* where the answer goes (the caller's, size bytes) */
} exec_job;

#define EXEC_JOB_NONE {.pid = -1, .fd = -1}

/* fn(arg, out) runs in the child and fills out (size bytes), which is sent back. */
typedef void (*exec_job_fn)(const void *arg, void *out);

/* Forks the child. Returns 0, or -1 (pipe or fork failed; nothing left open). */
int exec_job_start(exec_job *j, exec_job_fn fn, const void *arg, void *out, size_t size);
/* Reads what is there without blocking. Returns 1 once the whole answer is in
 * j->out, -1 when the child died before it answered, 0 while it runs (and
 * when none runs). */
int exec_job_poll(exec_job *j);
/* Kills and reaps a running job. */
void exec_job_stop(exec_job *j);
/* exec_job_poll for a job started at `started` (util_now) that must answer within kill_after seconds
 * (exec_kill_after; 0: no limit): past it the child is killed; killed or dead, *rc is -1 and err says
 * which ("killed after N s (deadline)", "WHAT's process died before it answered"), and 1 is returned. */
int exec_job_poll_within(exec_job *j, double started, double kill_after, const char *what, int *rc, char *err,
			 size_t errlen);

#endif
