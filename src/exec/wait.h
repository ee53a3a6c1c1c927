/* exec/wait: the command line's one wait on a child (a worker's run, a one-shot job) — poll with a progress line on a terminal, stop it at Ctrl-C. */
#ifndef PTXTUTOR_EXEC_WAIT_H
#define PTXTUTOR_EXEC_WAIT_H

#include <signal.h>

/* How to wait on one kind of child: the fd that becomes readable when it
 * answers (-1: none; the wait then looks every 200 ms), whether it is done
 * (1; its own poll, which enforces its deadline), and how to stop it. */
typedef struct {
	int (*fd)(void *job);
	int (*done)(void *job);
	void (*stop)(void *job);
} exec_waiter;

/* Waits until job is done. On a terminal stderr, "  LABEL ... 1.2 s" is kept
 * up to date (label NULL: no line). When *interrupted becomes non-zero (a
 * SIGINT handler's flag; NULL: never) the job is stopped. Returns 0 when it
 * is done, -1 when it was stopped. */
int exec_wait(const exec_waiter *w, void *job, const char *label, volatile sig_atomic_t *interrupted);

#endif
