/* cmd_check: `ptxtutor check` — verify lessons against cuBLAS at several sizes, square and not. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "base/util.h"
#include "run/launch.h"

typedef struct {
	const char *sizes;
} check_opts;

static int cmd_check(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_check = {
	.name = "check",
	.synopsis = {"check [LESSON...] [--sizes LIST]"},
	.summary = "GPU: verify lessons against cuBLAS at several sizes",
	.about = "Verifies each lesson's kernel against cuBLAS on fresh random inputs at several sizes.\n"
		 "A size a lesson cannot take is moved to its nearest valid size. The exit status is\n"
		 "non-zero if any check fails.\n",
	.opts = (const cli_opt[]){
		{.name = "sizes", .kind = CLI_STR, .off = offsetof(check_opts, sizes), .arg = "LIST",
		 .help = "sizes separated by ';' or spaces, each N or M,N,K, at most 16\n"
		 "(default '128;1000;4096;1000,1200,800')"},
		{0},
	},
	.max_args = -1,
	.run = cmd_check,
};

static int cmd_check(const cli_command *self, int argc, char **argv)
{
	check_opts o = {.sizes = "128;1000;4096;1000,1200,800"};
	int nargs, rc = cli_parse(self, argc, argv, &o, &nargs);
	if (rc >= 0)
		return rc;
	long long list[16][3];
	int nsizes = 0;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", o.sizes);
	for (char *tok = strtok(buf, "; "); tok; tok = strtok(NULL, "; ")) {
		if (nsizes == 16) {
			cli_error(self, "--sizes: at most 16 sizes");
			return 2;
		}
		if (cli_parse_size(self, "--sizes", tok, list[nsizes]))
			return 2;
		nsizes++;
	}
	if (nsizes == 0) {
		cli_error(self, "--sizes wants at least one size, not '%s'", cli_arg(o.sizes));
		return 2;
	}
	course c = {0};
	cli_course(&c);
	const lesson **todo = xcalloc((size_t)(nargs + c.n), sizeof *todo); /* the named lessons, or all */
	int n = 0;
	for (int i = 1; i <= nargs; i++) {
		if (!(todo[n] = cli_lesson(self, &c, argv[i]))) {
			free(todo);
			course_free(&c);
			return 2;
		}
		n++;
	}
	if (nargs == 0)
		for (int i = 0; i < c.n; i++)
			if (c.l[i].ptx_path[0])
				todo[n++] = &c.l[i];

	int pass = 0, fail = 0, skipped = 0;
	for (int i = 0; i < n; i++) {
		const lesson *l = todo[i];
		for (int s = 0; s < nsizes; s++) {
			long long M = list[s][0], N = list[s][1], K = list[s][2];
			expr_env env;
			long long near[3];
			char why[256];
			lesson_env(l, NULL, M, N, K, &env);
			if (lesson_nearest_size(l, &env, near, why, sizeof why) == 0)
				M = near[0], N = near[1], K = near[2];
			run_request rq;
			static run_result res; /* ~230 KiB */
			char err[512], label[96];
			if (launch_request_for_lesson(l, NULL, M, N, K, &rq, err, sizeof err)) {
				printf("FAIL lesson %d (%s): %s\n", l->number, l->id, err);
				fail++;
				continue;
			}
			rq.time = 0;
			snprintf(label, sizeof label, "lesson %d at %lldx%lldx%lld", l->number, M, N, K);
			bench_run_one(&rq, label, &res);
			if (res.status == RUN_NO_GPU || res.status == RUN_UNSUPPORTED) {
				printf("SKIP lesson %d (%s): %s\n", l->number, l->id, res.msg);
				skipped++;
				break;
			}
			int ok = res.status == RUN_OK && res.verified == 1;
			char types[32];
			dtype_pair_name(rq.dt, run_out(&rq), types, sizeof types);
			printf("%s lesson %d (%-12s) %5lldx%-5lldx%-5lld ", ok ? "PASS" : "FAIL", l->number, l->id, M, N, K);
			cli_pad(stdout, types, 9);
			printf(" rel.err %.2e (tol. %.0e)  %s\n", res.rel_err, res.tol, ok ? "" : res.msg);
			if (res.status == RUN_JIT_ERROR)
				printf("%s\n", res.log);
			pass += ok;
			fail += !ok;
		}
	}
	printf("%d passed, %d failed, %d skipped\n", pass, fail, skipped);
	bench_done();
	free(todo);
	course_free(&c);
	return fail ? 1 : 0;
}
