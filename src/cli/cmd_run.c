/* cmd_run: `ptxtutor run` — one kernel (a lesson's or your own PTX) on the GPU, verified and timed. */
#include <stdio.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "cli/launch_opts.h"
#include "base/util.h"

static int cmd_run(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_run = {
	.name = "run",
	.synopsis = {"run LESSON [--size N|M,N,K] [--set KEY=VALUE]... [--json]",
		     "run --ptx FILE [--entry NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]] --size M[,N,K] [options]"},
	.summary = "GPU: run one kernel, verified and timed",
	.about = "Runs one kernel on the GPU: JIT (the log is shown on errors), launch, verify against\n"
		 "cuBLAS on fresh random inputs, time beside cuBLAS (a block of each in turn, median of 7\n"
		 "rounds, after 1 s of the same work: bench --help says more), then verify one more\n"
		 "launch (a kernel that keeps state between launches is wrong there). With --emulate\n"
		 "the same request runs on the CPU emulator (its counts in the report; `emulate` adds\n"
		 "its progress and regions). LESSON is a number (3) or an id (smem).\n" CLI_LAUNCH_EXAMPLE("run"),
	.opts = cli_run_opts,
	.max_args = 1,
	.run = cmd_run,
};

static int cmd_run(const cli_command *self, int argc, char **argv)
{
	cli_launch o;
	int rc = cli_launch_parse(self, argc, argv, &o);
	if (rc >= 0)
		return rc;
	course c = {0};
	if (o.lesson)
		cli_course(&c);
	if (o.emulate)
		cli_launch_emulation_size(&o, &c);
	run_request rq; /* --emulate: the same request, for the CPU emulator backend */
	int bad = cli_launch_request(&o, &c, &rq);
	course_free(&c);
	if (bad)
		return 2;
	static run_result res; /* ~230 KiB */
	char title[RUN_ENTRY], label[RUN_ENTRY + 64];
	cli_launch_title(&o, &rq, title, sizeof title);
	snprintf(label, sizeof label, "%s at %lldx%lldx%lld", title, rq.M, rq.N, rq.K);
	bench_run_one(&rq, label, &res);
	return cli_launch_report(&o, &rq, &res);
}
