/* exec/puzzle_job: a puzzle check as an exec_job (exec/job.h), one at a time (the tutor, --watch) or a folder of them in parallel (the grader). */
#include "exec/puzzle_job.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef struct {
	const puzzle *p;
	const char *path;
} check_arg;

static void check(const void *arg, void *out)
{
	const check_arg *c = arg;
	puzzle_check_file(c->p, c->path, out);
}

int puzzle_job_start(puzzle_job *j, const puzzle *p, const char *path)
{
	check_arg c = {p, path}; /* read in the child, which has its own copy */
	return exec_job_start(&j->job, check, &c, &j->out, sizeof j->out);
}

/* What a check that never answered came to: one failed check saying why. */
static void lost(puzzle_outcome *out, const char *why)
{
	memset(out, 0, sizeof *out);
	out->n = 1;
	snprintf(out->v[0].name, sizeof out->v[0].name, "the check");
	snprintf(out->v[0].msg, sizeof out->v[0].msg, "%s", why);
}

int puzzle_job_poll(puzzle_job *j, puzzle_outcome *out)
{
	int rc = exec_job_poll(&j->job);
	if (rc == 1)
		*out = j->out;
	if (rc >= 0)
		return rc;
	lost(out, "the checking process died before it answered");
	return 1;
}

void puzzle_job_stop(puzzle_job *j)
{
	exec_job_stop(&j->job);
}

int puzzle_job_run_all(const puzzle *p, puzzle_batch *b, int n, int jobs, double timeout_s,
		       volatile sig_atomic_t *interrupted)
{
	puzzle_job *slot = xcalloc((size_t)jobs, sizeof *slot);
	int *at = xcalloc((size_t)jobs, sizeof *at); /* the item each slot checks; -1: free */
	double *t0 = xcalloc((size_t)jobs, sizeof *t0);
	struct pollfd *pf = xcalloc((size_t)jobs, sizeof *pf);
	int next = 0, running = 0, rc = 0;
	for (int s = 0; s < jobs; s++)
		at[s] = -1, slot[s] = (puzzle_job)PUZZLE_JOB_NONE;
	while (next < n || running) {
		for (int s = 0; s < jobs && next < n; s++) {
			if (at[s] >= 0)
				continue;
			puzzle_batch *it = &b[next];
			t0[s] = util_now();
			if (puzzle_job_start(&slot[s], p, it->path) < 0) {
				lost(&it->out, "could not start a checking process (fork failed)");
				it->done = 1;
			} else {
				at[s] = next;
				running++;
			}
			next++;
		}
		int k = 0;
		for (int s = 0; s < jobs; s++)
			if (at[s] >= 0)
				pf[k++] = (struct pollfd){slot[s].job.fd, POLLIN, 0};
		if (k)
			poll(pf, (nfds_t)k, 20);
		if (interrupted && *interrupted) {
			rc = -1;
			break;
		}
		for (int s = 0; s < jobs; s++) {
			if (at[s] < 0)
				continue;
			puzzle_batch *it = &b[at[s]];
			double took = util_now() - t0[s];
			if (puzzle_job_poll(&slot[s], &it->out)) {
				it->seconds = took;
			} else if (timeout_s > 0 && took >= timeout_s) {
				puzzle_job_stop(&slot[s]);
				char why[160];
				snprintf(why, sizeof why, "stopped at its deadline: %g s per file (--timeout)", timeout_s);
				lost(&it->out, why);
				it->seconds = took;
				it->timed_out = 1;
			} else {
				continue;
			}
			it->done = 1;
			at[s] = -1;
			running--;
		}
	}
	for (int s = 0; s < jobs; s++)
		if (at[s] >= 0)
			puzzle_job_stop(&slot[s]);
	free(slot), free(at), free(t0), free(pf);
	return rc;
}
