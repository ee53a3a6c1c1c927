/* launch: the one builder of run requests — for a lesson (its launch shape, parameter list and size rule applied) or for a PTX file with its own shape — and the one deadline policy. */
#ifndef PTXTUTOR_LAUNCH_H
#define PTXTUTOR_LAUNCH_H

#include "base/expr.h"
#include "course/lesson.h"
#include "run/run.h"


/* Nonzero when the overrides change a parameter the kernel does not honour
 * at run time (not in the lesson's `runtime:`): such a what-if changes the
 * model only, and err says "model-only what-if: the kernel is built for X=V". */
int launch_model_only(const lesson *l, const expr_env *overrides, char *err, int errlen);

/* The size a run gets when none is given (`run`, `bench`). */
#define LAUNCH_DEFAULT_SIZE 1024

/* Fills a request to run lesson l at size M, N, K with parameter overrides
 * (may be NULL): verified and timed. Returns 0, or -1 with one line in err
 * (no kernel, a what-if that model_check_params refuses or that is
 * model-only, a size the lesson refuses, a front-matter expression or an
 * args line that does not evaluate). */
int launch_request_for_lesson(const lesson *l, const expr_env *overrides, long long M, long long N, long long K,
			      run_request *rq, char *err, int errlen);

/* The size an emulated run of l uses: the first of LAUNCH_EMU_SIZES cubed
 * the lesson accepts (small enough to feel live on one core); 0 when none.
 * A what-if that cannot run at all gets the first size, so that the request
 * that follows says why. */
#define LAUNCH_EMU_SIZES {128, 256, 512}
/* A kernel of one's own emulated without --size: this size cubed. */
#define LAUNCH_EMU_DEFAULT 128
long long launch_emulation_size(const lesson *l, const expr_env *overrides);

/* A kernel of one's own (`run --ptx`, `emulate --ptx`): the launch shape
 * as text, each of grid, block, smem and cluster "X[,Y[,Z]]" expressions over
 * M N K ("persistent" for the grid), the parameter spec (NULL: "A B C M N K"),
 * the types by name (NULL: f32), how B is stored ("n" or "k"; NULL: n).
 * The entry is already resolved. */
typedef struct {
	const char *ptx, *entry;
	const char *grid, *block, *smem, *cluster;
	const char *args, *dtype, *out, *bmajor;
	const char *layout, *ld;  /* "A=col,C=col", "A=M+8": course/argspec.h argspec_layout_parse; NULL: row-major, tight */
	long long M, N, K;
} launch_ptx;

/* Fills a request for a kernel of one's own: verified and timed, as a
 * lesson's. Returns 0, or -1 with one line in err naming the option at
 * fault ("--grid '...': ..."). */
int launch_request_for_ptx(const launch_ptx *p, run_request *rq, char *err, int errlen);

/* What the user asked of a request's time, the same inputs from every
 * front end (the CLI's --timeout and --force, the tutor's
 * PTXTUTOR_DEADLINE_S): a timeout > 0 is the deadline; force lifts the
 * policy's to LAUNCH_DEADLINE_MAX_S (a long emulation run on purpose). */
typedef struct {
	double timeout_s;
	int force;
} launch_limits;

/* Where a built request goes and for how long: sets its backend, how far
 * it goes, and its one deadline (rq->deadline_s: lim's timeout, or the
 * policy's, launch_deadline). The builders below end with
 * launch_target(rq, RUN_BACKEND_GPU, RUN_KIND_RUN, NULL); whoever wants
 * another backend or kind calls it again, never sets the fields by hand. */
void launch_target(run_request *rq, run_backend backend, run_kind kind, const launch_limits *lim);

/* A request that only describes the device (no PTX), with its deadline. */
void launch_request_device(run_request *rq);
/* A request to link the PTX's entry with the driver's JIT and write the
 * cubin to out (the SASS view); timeout_s > 0 overrides the deadline. */
void launch_request_cubin(run_request *rq, const char *ptx_path, const char *entry, const char *out, double timeout_s);

/* The deadline policy, the one place that says how long a request may take,
 * in seconds, from the request alone (its backend, kind and size), so the
 * CLI and the tutor get the same one. A GPU run gets a floor plus the time
 * at a slow 5 GFLOP/s, so only a hung kernel meets it; a JIT (check, SASS)
 * and an emulation get fixed budgets; nothing gets more than
 * LAUNCH_DEADLINE_MAX_S. Called by launch_target only: read rq->deadline_s. */
#define LAUNCH_DEADLINE_MAX_S 3600.0
double launch_deadline(const run_request *rq);

/* A backend that stops itself at its deadline (the emulator) is killed by
 * its parent only this long after it, so its own clean answer comes first. */
#define LAUNCH_KILL_GRACE_S 5.0

/* The admission rule for a run whose time a probe estimated (the emulator
 * times its first blocks): 0 to go on, or -1 with one line in why when the
 * estimate is past the request's deadline (stopped at once, not killed at
 * the deadline minutes later). */
int launch_admit(const run_request *rq, double estimate_s, unsigned long long estimate_inst, long long blocks_done,
		 long long blocks, char *why, int len);

#endif
