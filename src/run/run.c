/* run: the names of the run statuses and the tolerance a check allows. */
#include "run/run.h"

const char *run_status_name(run_status s)
{
	static const char *const names[] = {
		[RUN_OK] = "ok",
		[RUN_WRONG] = "wrong result",
		[RUN_NO_GPU] = "no GPU",
		[RUN_JIT_ERROR] = "JIT error",
		[RUN_LAUNCH_ERROR] = "launch error",
		[RUN_FAULT] = "kernel fault",
		[RUN_TIMEOUT] = "timed out",
		[RUN_CANCELLED] = "cancelled",
		[RUN_BAD_REQUEST] = "bad request",
		[RUN_UNSUPPORTED] = "GPU too old",
	};
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

double run_tolerance(dtype d)
{
	/* Both sides see identical inputs; only the order of the f32 sums differs.
	 * f16 lessons keep f32 accumulation, but tensor-core sums are grouped
	 * differently again, so they get more room. NaN fails either way. */
	return d == DTYPE_F16 ? 1e-3 : 1e-4;
}
