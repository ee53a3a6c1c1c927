/* exec/puzzle_job: a puzzle check as an exec_job (exec/job.h). */
#include "exec/puzzle_job.h"

#include <stdio.h>
#include <string.h>

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

int puzzle_job_poll(puzzle_job *j, puzzle_outcome *out)
{
	int rc = exec_job_poll(&j->job);
	if (rc == 1)
		*out = j->out;
	if (rc >= 0)
		return rc;
	memset(out, 0, sizeof *out);
	out->n = 1;
	snprintf(out->v[0].name, sizeof out->v[0].name, "the check");
	snprintf(out->v[0].msg, sizeof out->v[0].msg, "the checking process died before it answered");
	return 1;
}

void puzzle_job_stop(puzzle_job *j)
{
	exec_job_stop(&j->job);
}
