/* exec/puzzle_job: a puzzle check in a child process behind a pipe, so the tutor's screen never waits for the emulator and a crashing check costs only the child. */
#ifndef PTXTUTOR_PUZZLE_JOB_H
#define PTXTUTOR_PUZZLE_JOB_H

#include <stddef.h>
#include <sys/types.h>

#include "exec/puzzle_check.h"

typedef struct {
	pid_t pid;                  /* -1 when none runs */
	int fd;                     /* the read end; -1 when none */
	size_t got;                 /* bytes of out read so far */
	puzzle_outcome out;
} puzzle_job;

/* Forks a child that runs puzzle_check_file(p, path) and sends the outcome.
 * Returns 0, or -1 (pipe or fork failed; nothing left open). */
int puzzle_job_start(puzzle_job *j, const puzzle *p, const char *path);
/* Reads what is there without blocking. Returns 1 with the outcome in *out
 * (a child that died gives one failed check saying so), 0 while it runs. */
int puzzle_job_poll(puzzle_job *j, puzzle_outcome *out);
/* Kills and reaps a running check. */
void puzzle_job_stop(puzzle_job *j);

#endif
