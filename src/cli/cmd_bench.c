/* cmd_bench: `ptxtutor bench` — each lesson and cuBLAS timed in one run, as a table, CSV or JSON. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/bench.h"
#include "cli/launch_opts.h"
#include "exec/report.h"
#include "run/fields.h"
#include "cli/cli.h"
#include "base/util.h"
#include "run/launch.h"
#include "base/json.h"

enum { OUT_TABLE, OUT_CSV, OUT_JSON };

typedef struct {
	long long size[3];
	int fmt;
	int timing;    /* 2: --burst; 0 or 1 (--steady): steady (a flag's value cannot be 0) */
	const char *reference; /* "default" or "best" (NULL: default) */
} bench_opts;



static int cmd_bench(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_bench = {
	.name = "bench",
	.synopsis = {"bench [LESSON...] [--size N|M,N,K] [--steady|--burst] [--reference R] [--csv|--json]"},
	.summary = "GPU: time lessons beside cuBLAS",
	.about = "Times each lesson's kernel and cuBLAS (SGEMM for f32, GemmEx with the lesson's own input\n"
		 "and output types for f16, bf16 and tf32; cuBLASLt with the same types and scales for FP8) in the\n"
		 "same run: median of rounds, GFLOP/s, % of cuBLAS (the columns say cuBLAS for both),\n"
		 "speed-up over the previous lesson of the same types, the relative error against it.\n"
		 "Default: every lesson with a kernel, at 4096.\n"
		 "Ours and cuBLAS take turns a block at a time: each block launches back to back for about\n"
		 "25 ms between one pair of events; 7 rounds, the median of each side and its spread\n"
		 "((slowest - fastest round) / median) are shown. --steady (the default) times after 1 s of\n"
		 "the same work untimed: the clock the GPU holds under it, a sustained figure. --burst times\n"
		 "blocks of about 5 ms, each after the GPU idled 0.1 s: short bursts at a rested clock, as\n"
		 "in many published figures (about 2 s a lesson).\n"
		 "--reference best times every algorithm of cuBLASLt's heuristic list for the same types once\n"
		 "per shape and keeps the fastest (named, with its kernel where CUPTI is installed) instead;\n"
		 "best-promoting is the same for FP8 with cuBLASLt's promotion of partial sums (no FAST_ACCUM).\n"
		 "Where NVML reads the SM clock, each row also gives ours and the reference as a share of the\n"
		 "peak for its types at the clock our timed blocks held.\n"
		 "docs/benchmarks.md says what moves cuBLAS's time and why it is timed so.\n",
	.opts = (const cli_opt[]){
		{.name = "size", .kind = CLI_SIZE, .off = offsetof(bench_opts, size), .arg = "N|M,N,K",
		 .help = "the problem size (default 4096)"},
		{.name = "steady", .kind = CLI_FLAG, .off = offsetof(bench_opts, timing), .value = 1,
		 .help = "time after a warm-up of the same work (the default)"},
		{.name = "burst", .kind = CLI_FLAG, .off = offsetof(bench_opts, timing), .value = 2,
		 .help = "time after the GPU idled, its clock at the maximum"},
		{.name = "reference", .kind = CLI_NAME, .off = offsetof(bench_opts, reference), .arg = "R",
		 .check = cli_reference_ok, .help = "default: the library's call; best: the fastest of cuBLASLt's list"},
		{.name = "csv", .kind = CLI_FLAG, .off = offsetof(bench_opts, fmt),
		 .help = "print CSV, a header line first", .value = OUT_CSV},
		{.name = "json", .kind = CLI_FLAG, .off = offsetof(bench_opts, fmt),
		 .help = "print JSON (keys in docs/json.md)", .value = OUT_JSON},
		{0},
	},
	.max_args = -1,
	.run = cmd_bench,
};

/* bench --csv's columns after lesson and id: run report fields (run/fields.c), written by
 * exec_report_csv_row as the JSON has them; the types last, so the columns before them stay where they were. */
static const char *const csv_keys[] = {
	"M", "N", "K", "ms", "gflops", "cublas_gflops", "pct_of_cublas", "speedup", "rel_error", "verified", "status",
	"dtype", "out", "spread", "cublas_spread", "reference", "sm_mhz", "pct_of_peak", "cublas_pct_of_peak",
};

static int cmd_bench(const cli_command *self, int argc, char **argv)
{
	bench_opts o = {.size = {4096, 4096, 4096}, .fmt = OUT_TABLE};
	int nargs, rc = cli_parse(self, argc, argv, &o, &nargs);
	if (rc >= 0)
		return rc;
	long long M = o.size[0], N = o.size[1], K = o.size[2];
	int fmt = o.fmt;
	course c = {0};
	cli_course(&c);
	const lesson **todo = xcalloc((size_t)(nargs + c.n), sizeof *todo); /* the named lessons, or all */
	int n = 0;
	for (int i = 1; i <= nargs; i++) {
		const lesson *l = cli_lesson(self, &c, argv[i]);
		if (!l) {
			free(todo);
			course_free(&c);
			return 2;
		}
		todo[n++] = l;
	}
	if (nargs == 0)
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
		fputs("lesson,id", stdout);
		exec_report_csv_header(stdout, csv_keys, (int)ARRAY_LEN(csv_keys));
		putchar('\n');
	}
	int failures = 0, header = 0;
	int timed = 0;
	double prev = 0;
	for (int i = 0; i < n; i++) {
		const lesson *l = todo[i];
		run_request rq;
		static run_result res; /* ~230 KiB */
		char err[512], label[96];
		int bad = launch_request_for_lesson(l, NULL, M, N, K, &rq, err, sizeof err);
		rq.timing = o.timing == 2 ? RUN_TIMING_BURST : RUN_TIMING_STEADY;
		rq.reference = o.reference ? (run_ref)run_ref_parse(o.reference) : RUN_REF_DEFAULT;
		if (bad) {
			cli_error(self, "%s", err);
			failures++;
			continue;
		}
		snprintf(label, sizeof label, "lesson %d (%s)", l->number, l->id);
		bench_run_one(&rq, label, &res);
		int ok = res.status == RUN_OK;
		/* A lesson this GPU cannot run (lesson 9 before Hopper) is said, not failed. */
		failures += !ok && res.status != RUN_UNSUPPORTED;
		double speedup = prev > 0 && res.gflops > 0 ? res.gflops / prev : 0;
		if (fmt == OUT_JSON) {
			json_obj(&w, NULL);
			json_int(&w, "lesson", l->number);
			json_str(&w, "id", l->id);
			bench_json_result(&w, "run", &rq, &res, prev);
			json_end(&w);
		} else if (fmt == OUT_CSV) {
			run_report rep;
			run_report_make(&rep, &rq, &res, prev);
			printf("%d,%s", l->number, l->id);
			exec_report_csv_row(stdout, &rep, csv_keys, (int)ARRAY_LEN(csv_keys));
			putchar('\n');
		} else {
			if (!header && res.gpu[0]) {
				printf("GPU %s (sm_%d%d), size %lldx%lldx%lld, %s\n", res.gpu, res.cc_major, res.cc_minor, M,
				       N, K, date);
				printf("%-3s %-14s %-9s %10s %10s %11s %9s %7s %7s %8s %9s %s\n", "#", "lesson", "types", "ms",
				       "GFLOP/s", "cuBLAS GF/s", "%cuBLAS", "spread", "cuBLAS±", "speedup", "rel.err", "verified");
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
			char f[8][48];
			run_report_make(&rep, &rq, &res, prev);
			printf(" %10s %10s %11s %9s %7s %7s %8s %9s %s\n", run_figure(&rep, "ms", f[0], sizeof f[0]),
			       run_figure(&rep, "gflops", f[1], sizeof f[1]), run_figure(&rep, "cublas_gflops", f[2], sizeof f[2]),
			       run_figure(&rep, "pct_of_cublas", f[3], sizeof f[3]), run_figure(&rep, "spread", f[6], sizeof f[6]),
			       run_figure(&rep, "cublas_spread", f[7], sizeof f[7]),
			       speedup > 0 ? run_figure(&rep, "speedup", f[4], sizeof f[4]) : "-",
			       run_figure(&rep, "rel_error", f[5], sizeof f[5]),
			       res.verified == 1 ? "yes" : res.verified == 0 ? "NO" : "-");
			/* what it was measured against, and how far from the hardware */
			if (rep.reference && rq.reference != RUN_REF_DEFAULT) /* the columns say cuBLAS otherwise */
				printf("    vs %s\n", rep.reference);
			if (!isnan(rep.pct_of_peak))
				printf("    at %s MHz: ours %s, the reference %s of the %s peak at that clock\n",
				       run_figure(&rep, "sm_mhz", f[0], sizeof f[0]), run_figure(&rep, "pct_of_peak", f[1], sizeof f[1]),
				       run_figure(&rep, "cublas_pct_of_peak", f[2], sizeof f[2]), types);
		}
		timed |= res.timing[0] != 0;
		/* Speed-up is against the lesson before, in the same types. */
		if (ok)
			prev = (i + 1 < n && (todo[i + 1]->dt != l->dt || todo[i + 1]->out != l->out)) ? 0 : res.gflops;
	}
	if (fmt == OUT_TABLE && timed) /* how the figures were made, once (each run's own words are in --json) */
		printf("timed %s: ours and cuBLAS in turn, a block of about %d ms of launches each, 7 rounds, %s\n",
		       o.timing == 2 ? "burst" : "steady", o.timing == 2 ? 5 : 25,
		       o.timing == 2 ? "each after 0.1 s idle (bursts)" : "after 1 s of the same untimed");
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
