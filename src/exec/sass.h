/* exec/sass: the SASS view's one chain — this GPU's JIT through the worker, else ptxas for the modelled arch, else the lesson's recorded copy — with the policy as data, run here or as a job a loop polls. */
#ifndef PTXTUTOR_EXEC_SASS_H
#define PTXTUTOR_EXEC_SASS_H

#include <stddef.h>

#include "base/proc.h"
#include "course/sass_tools.h"
#include "exec/worker.h"

/* exec_sass's status besides 0, SASS_MISSING and SASS_FAILED: no GPU
 * answered and the policy allows nothing else (err says why). */
#define SASS_NO_GPU 2
/* The job was killed at its deadline, or cancelled. */
#define SASS_TIMEOUT 3
#define SASS_CANCELLED 4

/* What to compile: the PTX file, its entry, the modelled GPU's target (for
 * ptxas and a recording) and name, and the lesson whose recording may
 * stand in (0: none). */
typedef struct {
	char path[512];
	char entry[128];
	char arch[16];
	char gpu[64];
	int lesson;
} exec_sass_target;

/* Why a recording may not stand in: the one wording of each exception,
 * the CLI's and the tutor's. */
#define EXEC_SASS_NOREC_EDITED "recordings are of the shipped kernels, and this is your edited copy"
#define EXEC_SASS_NOREC_JIT "--jit asks for this GPU's own JIT"

/* The chain's policy: which links may answer, and (allow_recorded 0) why
 * the recording may not — one of EXEC_SASS_NOREC_*, or NULL for no reason
 * at all (a recording is being made: the missing tool's line alone). A JIT
 * that fails on the kernel (a GPU too old for it) falls to ptxas where
 * allowed, and the note says so. */
typedef struct {
	int allow_jit, allow_ptxas, allow_recorded;
	const char *why_not_recorded;
	double jit_deadline_s; /* the JIT request's deadline; 0: launch_deadline's */
} exec_sass_policy;

/* The chain's answer: status 0 with k (and, from ptxas, the disassembler's
 * text a recording keeps), else err (and, when no recording stood in, why
 * not: `sass --json` says it); note says which link was passed over. */
typedef struct {
	int status;
	sass_kernel k;
	char *disasm;
	char err[512];
	char why_not_recorded[300];
	char note[600];
} exec_sass_out;

/* Runs the chain here, blocking (each tool bounded by its deadline). w is
 * the worker for the JIT (started when it is not); NULL: one of its own,
 * stopped after. out is initialised here; free it with exec_sass_out_free. */
void exec_sass(const exec_sass_target *t, const exec_sass_policy *p, worker *w, exec_sass_out *out);
void exec_sass_out_free(exec_sass_out *out);

/* The chain in a child (base/proc.h), its temporary files in a folder of
 * the job's own that exec_sass_job_stop and the end of the job remove. */
typedef struct {
	proc p;
	int fd;                 /* the answer's pipe; -1 when none runs */
	char dir[512];          /* the job's temporary folder ("" when none) */
	char *buf;              /* the answer as read so far */
	size_t len, cap;
	double timeout_s;
} exec_sass_job;

#define EXEC_SASS_JOB_NONE {.p = PROC_NONE, .fd = -1}

/* Starts the chain for t under p in a child, killed after timeout_s (0:
 * twice the tools' limit and the JIT's deadline). Returns 0, or -1 (out of
 * descriptors or processes; nothing left behind). */
int exec_sass_job_start(exec_sass_job *j, const exec_sass_target *t, const exec_sass_policy *p, double timeout_s);
/* Reads what is there without blocking: 1 with the answer in *out (the job
 * is over, its folder gone), 0 while it runs. */
int exec_sass_job_poll(exec_sass_job *j, exec_sass_out *out);
/* Kills a running job and removes its folder. */
void exec_sass_job_stop(exec_sass_job *j);

/* Runs a job to its end, drawing progress on a terminal stderr and stopping
 * it at a SIGINT (status SASS_CANCELLED; the folder removed): the CLI's wait. */
void exec_sass_wait(const exec_sass_target *t, const exec_sass_policy *p, exec_sass_out *out);

#endif
