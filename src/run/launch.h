/* launch: a run request for a lesson (its launch shape, parameter list and size rule applied), and how long a run may take. */
#ifndef PTXTUTOR_LAUNCH_H
#define PTXTUTOR_LAUNCH_H

#include "base/expr.h"
#include "course/lesson.h"
#include "run/run.h"


/* Nonzero when the overrides change a parameter the kernel does not honour
 * at run time (not in the lesson's `runtime:`): such a what-if changes the
 * model only, and err says "model-only what-if: the kernel is built for X=V". */
int launch_model_only(const lesson *l, const expr_env *overrides, char *err, int errlen);

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
long long launch_emulation_size(const lesson *l, const expr_env *overrides);

/* A deadline in seconds for a run of this size: generous, so only a hung
 * kernel meets it (it assumes at least 5 GFLOP/s). */
double launch_deadline(const run_request *rq);

#endif
