/* exec/run_opts: what a caller in this process adds to a run (a progress callback, a cancel flag) — shared by the backend table and the emulator's row. */
#ifndef PTXTUTOR_EXEC_RUN_OPTS_H
#define PTXTUTOR_EXEC_RUN_OPTS_H

#include <signal.h>

/* Where a run in this process is, for a progress line: blocks done of all
 * and the seconds so far (the emulator calls after each block). */
typedef struct {
	long long blocks_done, blocks;
	double seconds;
	double estimate_s;          /* the probe's estimate of the whole run; 0 before it */
} exec_progress;

/* What a caller in this process adds to a run (exec_run_with): none of it
 * changes the result of a run that goes to its end, so `emulate` and
 * `run --emulate` report the same. */
typedef struct {
	void (*progress)(void *ctx, const exec_progress *p); /* NULL: none */
	void *ctx;
	/* Set (by a SIGINT handler) to stop the run: it ends RUN_CANCELLED
	 * with the blocks done said. NULL: none. */
	volatile sig_atomic_t *cancel;
} exec_run_opts;

#endif
