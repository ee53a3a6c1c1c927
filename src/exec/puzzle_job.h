/* exec/puzzle_job: a puzzle check in a child process (exec/job.h), so the tutor's screen never waits for the emulator and a crashing check costs only the child. */
#ifndef PTXTUTOR_PUZZLE_JOB_H
#define PTXTUTOR_PUZZLE_JOB_H

#include <signal.h>

#include "exec/job.h"
#include "exec/puzzle_check.h"

typedef struct {
	exec_job job;
	puzzle_outcome out;
} puzzle_job;

#define PUZZLE_JOB_NONE {.job = EXEC_JOB_NONE}

/* Forks a child that runs puzzle_check_file(p, path) and sends the outcome.
 * Returns 0, or -1 (pipe or fork failed; nothing left open). */
int puzzle_job_start(puzzle_job *j, const puzzle *p, const char *path);
/* Reads what is there without blocking. Returns 1 with the outcome in *out
 * (a child that died gives one failed check saying so), 0 while it runs. */
int puzzle_job_poll(puzzle_job *j, puzzle_outcome *out);
/* Kills and reaps a running check. */
void puzzle_job_stop(puzzle_job *j);

/* One file of a batch (the grader, `puzzle --check-dir`): its path in, its
 * outcome out. */
typedef struct {
	const char *path;
	puzzle_outcome out;            /* a check that died or met its deadline: one failed check saying so */
	double seconds;                /* wall time from its start to its answer (or its kill) */
	int timed_out;                 /* killed at timeout_s */
	int done;
} puzzle_batch;

/* Checks the n files of b against p, each in a child of its own, at most
 * jobs at a time; a child still running timeout_s after its start (> 0) is
 * killed and its file fails. A file's fault, hang or crash costs only its
 * own child. Returns 0 once every file has its outcome, or -1 when
 * *interrupted became set (NULL: never): the running children are killed,
 * the files not done keep done 0. */
int puzzle_job_run_all(const puzzle *p, puzzle_batch *b, int n, int jobs, double timeout_s,
		       volatile sig_atomic_t *interrupted);

#endif
