/* proc: the one child-process helper — a child started with its descriptors set up and no others, killed with its parent, reaped on every path, and killed at a deadline. */
#ifndef PTXTUTOR_PROC_H
#define PTXTUTOR_PROC_H

#include <sys/types.h>

typedef struct {
	pid_t pid;                  /* -1 when none runs */
	double deadline;            /* util_now() after which proc_wait kills it; 0: none */
	int group;                  /* it leads a process group of its own (proc_spawn): a kill takes the group */
} proc;

#define PROC_NONE {.pid = -1}

/* proc_wait's status besides the exit status (0..255) and 128 + a signal: */
#define PROC_TIMEOUT (-2)       /* killed at its deadline */
#define PROC_LOST (-3)          /* it ended, but its status is gone (someone else reaped it) */

/* Starts the program at path argv[0] with stdin from /dev/null and stdout
 * and stderr into the file out (created 0600, truncated). The child holds
 * no other descriptor of ours, is in a process group of its own (so a kill
 * takes what it started too) and gets SIGKILL when we die. timeout_s > 0
 * sets its deadline. Returns 0, or -1 with errno (nothing left running). */
int proc_spawn(proc *p, char *const argv[], const char *out, double timeout_s);

/* Forks a child that runs fn(arg) and exits with its return value: killed
 * with its parent like proc_spawn's, but in our process group and with our
 * descriptors (open the ones it must not pass on close-on-exec). */
int proc_fork(proc *p, int (*fn)(void *arg), void *arg, double timeout_s);

/* Whether the child has ended, without blocking: 1 with its status (as
 * proc_wait's) in *status, 0 while it runs. Past its deadline it is killed
 * and reaped, and the status is PROC_TIMEOUT. */
int proc_poll(proc *p, int *status);

/* Blocks until the child ends or its deadline passes (it is killed then);
 * returns its exit status (0..255), 128 + the signal that ended it,
 * PROC_TIMEOUT or PROC_LOST. Reaped in every case; p->pid is -1 after. */
int proc_wait(proc *p);

/* Kills the child (and its process group) and reaps it. */
void proc_kill(proc *p);

/* Tests only: the fork every start calls (NULL: fork itself), so a
 * failing fork can be planted. */
void proc_set_fork(pid_t (*fn)(void));

#endif
