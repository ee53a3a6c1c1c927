/* exec/puzzle_job: a puzzle check in a child process (exec/job.h), so the tutor's screen never waits for the emulator and a crashing check costs only the child. */
#ifndef PTXTUTOR_PUZZLE_JOB_H
#define PTXTUTOR_PUZZLE_JOB_H

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

#endif
