/* proc: start a child (a program or a function), set up, killed with its parent, reaped on every path, killed at its deadline. */
#include "base/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

/* A SIGCHLD ignored by whoever started us (it is inherited across exec)
 * makes the kernel reap our children itself: their status is gone and a
 * blocking waitpid waits for all of them. Nothing here ignores it on
 * purpose, so it goes back to the default before a child starts. */
static void sigchld_default(void)
{
	struct sigaction sa;
	if (sigaction(SIGCHLD, NULL, &sa) == 0 && (sa.sa_handler == SIG_IGN || (sa.sa_flags & SA_NOCLDWAIT))) {
		struct sigaction dfl = {.sa_handler = SIG_DFL};
		sigemptyset(&dfl.sa_mask);
		sigaction(SIGCHLD, &dfl, NULL);
	}
}

/* In the child, first: it dies with the parent, and starts with the signal
 * state a program expects, whatever ours is. */
static void child_setup(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) /* the parent died before prctl */
		_exit(127);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
}

/* Every descriptor from lo up closed (close_range where the kernel has it). */
static void close_from(int lo)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lo, ~0u, 0) == 0)
		return;
#endif
	long max = sysconf(_SC_OPEN_MAX);
	for (int fd = lo; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
		close(fd);
}

/* fork(), or a stand-in a test installs to make it fail. */
static pid_t (*fork_fn)(void) = fork;

void proc_set_fork(pid_t (*fn)(void))
{
	fork_fn = fn ? fn : fork;
}

static void start(proc *p, pid_t pid, double timeout_s)
{
	p->pid = pid;
	p->deadline = timeout_s > 0 ? util_now() + timeout_s : 0;
}

int proc_spawn(proc *p, char *const argv[], const char *out, double timeout_s)
{
	*p = (proc)PROC_NONE;
	sigchld_default();
	pid_t parent = getpid();
	pid_t pid = fork_fn();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		child_setup(parent);
		setpgid(0, 0);
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), n = open("/dev/null", O_RDONLY);
		if (o < 0 || n < 0 || dup2(n, 0) < 0 || dup2(o, 1) < 0 || dup2(o, 2) < 0)
			_exit(127);
		close_from(3);
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
	start(p, pid, timeout_s);
	p->group = 1;
	return 0;
}

int proc_fork(proc *p, int (*fn)(void *arg), void *arg, double timeout_s)
{
	*p = (proc)PROC_NONE;
	sigchld_default();
	fflush(NULL); /* no buffered output written twice */
	pid_t parent = getpid();
	pid_t pid = fork_fn();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		child_setup(parent);
		_exit(fn(arg));
	}
	start(p, pid, timeout_s);
	return 0;
}

static int decode(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : PROC_LOST;
}

/* waitpid, retried only on EINTR: ECHILD (reaped elsewhere) ends it. */
static int reap(proc *p, int flags, int *status)
{
	int st;
	pid_t r;
	while ((r = waitpid(p->pid, &st, flags)) < 0 && errno == EINTR)
		;
	if (r == 0)
		return 0;
	*status = r == p->pid ? decode(st) : PROC_LOST;
	p->pid = -1;
	return 1;
}

void proc_kill(proc *p)
{
	if (p->pid <= 0)
		return;
	if (p->group)
		kill(-p->pid, SIGKILL); /* what it started too */
	kill(p->pid, SIGKILL);
	int status;
	reap(p, 0, &status);
}

int proc_poll(proc *p, int *status)
{
	if (p->pid <= 0) {
		*status = PROC_LOST;
		return 1;
	}
	if (reap(p, WNOHANG, status))
		return 1;
	if (p->deadline > 0 && util_now() >= p->deadline) {
		proc_kill(p);
		*status = PROC_TIMEOUT;
		return 1;
	}
	return 0;
}

int proc_wait(proc *p)
{
	int status;
	if (p->pid > 0 && p->deadline <= 0) {
		reap(p, 0, &status);
		return status;
	}
	/* with a deadline: poll, 1 ms at first, up to 20 ms between looks */
	long ns = 1000000;
	while (!proc_poll(p, &status)) {
		struct timespec ts = {0, ns};
		nanosleep(&ts, NULL);
		ns = ns < 20000000 ? ns * 2 : ns;
	}
	return status;
}
