/* cmd_bench: `ptxtutor bench` — each lesson and cuBLAS timed in one run, as a table, CSV or JSON. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/bench.h"
#include "run/fields.h"
#include "cli/cli.h"
#include "base/util.h"
#include "run/launch.h"
#include "base/json.h"

static const char details[] =
	"Times each lesson's kernel and cuBLAS (SGEMM for f32, GemmEx with the lesson's own input\n"
	"and output types for f16 and bf16) in the same run: median of repeats, GFLOP/s, % of\n"
	"cuBLAS, speed-up over the previous lesson of the same types, the relative error against\n"
	"cuBLAS. Default: every lesson with a kernel, at 4096.\n";

enum { OUT_TABLE, OUT_CSV, OUT_JSON };

int cmd_bench(const cli_command *self, int argc, char **argv)
{
	static const struct option opts[] = {{"size", required_argument, 0, 's'}, {"csv", no_argument, 0, 'c'},
					     {"json", no_argument, 0, 'j'},        {"help", no_argument, 0, 'h'},
					     {0}};
	long long M = 4096, N = 4096, K = 4096;
	int fmt = OUT_TABLE, ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 's') {
			if (cli_parse_size(optarg, &M, &N, &K))
				return 2;
		} else if (ch == 'c')
			fmt = OUT_CSV;
		else if (ch == 'j')
			fmt = OUT_JSON;
		else {
			cli_usage(self, ch == 'h' ? stdout : stderr, details);
			return ch == 'h' ? 0 : 2;
		}
	}
	static course c;
	cli_course(&c);
	const lesson **todo = xcalloc((size_t)(argc + c.n), sizeof *todo); /* the named lessons, or all */
	int n = 0;
	for (int i = optind; i < argc; i++) {
		const lesson *l = course_find(&c, argv[i]);
		if (!l) {
			fprintf(stderr, "ptxtutor: no lesson '%s' (see ptxtutor list)\n", argv[i]);
			free(todo);
			return 2;
		}
		todo[n++] = l;
	}
	if (optind == argc)
		for (int i = 0; i < c.n; i++)
			if (c.l[i].ptx_path[0])
				todo[n++] = &c.l[i];

	json_writer w;
	char date[32];
	time_t now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
	if (fmt == OUT_JSON) {
		json_begin(&w, stdout);
		json_obj(&w, NULL);
		json_str(&w, "date", date);
		json_arr(&w, "results");
	} else if (fmt == OUT_CSV) {
		printf("lesson,id,M,N,K,ms,gflops,cublas_gflops,pct_of_cublas,speedup,rel_error,verified,status,dtype,out\n");
	}
	int failures = 0, header = 0;
	double prev = 0;
	for (int i = 0; i < n; i++) {
		const lesson *l = todo[i];
		run_request rq;
		run_result res;
		char err[512], label[96];
		if (launch_request_for_lesson(l, NULL, M, N, K, &rq, err, sizeof err)) {
			fprintf(stderr, "ptxtutor: %s\n", err);
			failures++;
			continue;
		}
		snprintf(label, sizeof label, "lesson %d (%s)", l->number, l->id);
		bench_run_one(&rq, launch_deadline(&rq, 0), label, &res);
		int ok = res.status == RUN_OK;
		/* A lesson this GPU cannot run (lesson 9 before Hopper) is said, not failed. */
		failures += !ok && res.status != RUN_UNSUPPORTED;
		double pct = res.cublas_gflops > 0 ? 100.0 * res.gflops / res.cublas_gflops : 0;
		double speedup = prev > 0 && res.gflops > 0 ? res.gflops / prev : 0;
		if (fmt == OUT_JSON) {
			json_obj(&w, NULL);
			json_int(&w, "lesson", l->number);
			json_str(&w, "id", l->id);
			bench_json_result(&w, "run", &rq, &res, prev);
			json_end(&w);
		} else if (fmt == OUT_CSV) {
			/* the types last, so the columns before them stay where they were */
			printf("%d,%s,%lld,%lld,%lld,%.5f,%.1f,%.1f,%.1f,%.2f,%.3g,%d,%s,%s,%s\n", l->number, l->id, M, N, K,
			       res.ms, res.gflops, res.cublas_gflops, pct, speedup, res.rel_err, res.verified,
			       run_status_name(res.status), dtype_name(rq.dt), dtype_name(run_out(&rq)));
		} else {
			if (!header && res.gpu[0]) {
				printf("GPU %s (sm_%d%d), size %lldx%lldx%lld, %s\n", res.gpu, res.cc_major, res.cc_minor, M,
				       N, K, date);
				printf("%-3s %-14s %-9s %10s %10s %11s %9s %8s %9s %s\n", "#", "lesson", "types", "ms",
				       "GFLOP/s", "cuBLAS GF/s", "%cuBLAS", "speedup", "rel.err", "verified");
				header = 1;
			}
			char types[32];
			dtype_pair_name(rq.dt, run_out(&rq), types, sizeof types);
			printf("%-3d %-14s ", l->number, l->id);
			cli_pad(stdout, types, 9);
			if (!ok && res.status != RUN_WRONG) {
				printf(" %s: %s\n", run_status_name(res.status), res.msg);
				if (res.status == RUN_JIT_ERROR)
					printf("%s\n", res.log);
				continue;
			}
			/* every figure as the run report writes it (run/fields.c) */
			run_report rep;
			char f[6][48];
			run_report_make(&rep, &rq, &res, prev);
			printf(" %10s %10s %11s %9s %8s %9s %s\n", run_figure(&rep, "ms", f[0], sizeof f[0]),
			       run_figure(&rep, "gflops", f[1], sizeof f[1]), run_figure(&rep, "cublas_gflops", f[2], sizeof f[2]),
			       run_figure(&rep, "pct_of_cublas", f[3], sizeof f[3]),
			       speedup > 0 ? run_figure(&rep, "speedup", f[4], sizeof f[4]) : "-",
			       run_figure(&rep, "rel_error", f[5], sizeof f[5]),
			       res.verified == 1 ? "yes" : res.verified == 0 ? "NO" : "-");
		}
		/* Speed-up is against the lesson before, in the same types. */
		if (ok)
			prev = (i + 1 < n && (todo[i + 1]->dt != l->dt || todo[i + 1]->out != l->out)) ? 0 : res.gflops;
	}
	if (fmt == OUT_JSON) {
		json_end(&w);
		json_int(&w, "failures", failures);
		json_end(&w);
		json_finish(&w);
	}
	bench_done();
	free(todo);
	course_free(&c);
	return failures ? 1 : 0;
}
