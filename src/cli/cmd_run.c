/* cmd_run: `ptxtutor run` — one kernel (a lesson's or your own PTX) on the GPU, verified and timed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "cli/launch_opts.h"
#include "base/json.h"
#include "base/util.h"
#include "run/launch.h"

static const char run_usage[] =
	"usage: ptxtutor run LESSON [--size N|M,N,K] [--set KEY=VALUE]... [--json]\n"
	"       ptxtutor run --ptx FILE --entry NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
	"                    [--args SPEC] [--smem BYTES] [--dtype f32|f16] --size M[,N,K] [--json]\n\n"
	"Runs one kernel on the GPU: JIT (the log is shown on errors), launch, verify against\n"
	"cuBLAS on fresh random inputs, time (median of repeats) beside cuBLAS.\n\n"
	"  --grid, --block, --smem  expressions over M, N, K: '--grid N/32,M/32', 'ceil(M/BM)';\n"
	"                '--grid persistent': one block per SM slot (the kernel loops over tiles)\n"
	"  --args SPEC   the kernel's parameters in order: A B C (buffers), M N K (u32), or\n"
	"                typed literals u32:8192 s32:-1 u64:0 s64:-1 f32:1.5 f64:0.5 f16:1\n"
	"                (default 'A B C M N K'),\n"
	"                or TMA tensor maps tmap:A|B|C:INNER:OUTER[:none|32B|64B|128B] (a box of\n"
	"                INNER columns x OUTER rows, e.g. tmap:A:64:128:128B)\n"
	"  --dtype       f32: f32 A, B, C (cuBLAS SGEMM); f16: f16 A, B, f32 C (cuBLAS GemmEx)\n"
	"  --timeout S   kill the run after S seconds (default: from the problem size)\n"
	"  --emulate     run on the CPU with the PTX interpreter instead\n";

int cmd_run(int argc, char **argv)
{
	cli_launch o;
	int rc = cli_launch_parse(argc, argv, &o, run_usage);
	if (rc)
		return rc > 0 ? 0 : 2;
	static course c;
	if (o.lesson)
		cli_course(&c);
	run_request rq;
	if (cli_launch_request(&o, &c, &rq)) {
		course_free(&c);
		return 2;
	}
	if (o.emulate) {
		course_free(&c);
		char *eargv[64];
		int n = 0;
		eargv[n++] = "emulate";
		for (int i = 1; i < argc && n < 63; i++)
			if (strcmp(argv[i], "--emulate"))
				eargv[n++] = argv[i];
		eargv[n] = NULL;
		return cmd_emulate(n, eargv);
	}
	run_result res;
	char label[128];
	snprintf(label, sizeof label, "%s at %lldx%lldx%lld", o.lesson ? o.lesson : rq.entry, rq.M, rq.N, rq.K);
	bench_run_one(&rq, o.timeout > 0 ? o.timeout : launch_deadline(&rq), label, &res);
	if (o.json) {
		json_writer w;
		json_begin(&w, stdout);
		bench_json_result(&w, NULL, &rq, &res, 0);
		json_finish(&w);
	} else {
		bench_print_result(stdout, &rq, &res);
	}
	course_free(&c);
	return res.status == RUN_OK ? 0 : 1;
}
