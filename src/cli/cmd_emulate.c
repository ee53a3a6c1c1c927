/* cmd_emulate: `ptxtutor emulate` — `run --emulate` in this process (the one pipeline: exec_run_with, the one report) with a progress line and Ctrl-C, plus the per-line table, a warp's view and the time estimate. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/launch_opts.h"
#include "exec/backend.h"
#include "exec/report.h"
#include "exec/warpview.h"
#include "exec/estimate_run.h"
#include "cli/emulate_stalls.h"
#include "model/measured.h"
#include "base/json.h"
#include "course/ptxloc.h"
#include "base/termsafe.h"
#include "base/util.h"
#include "run/launch.h"

static int cmd_emulate(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_emulate = {
	.name = "emulate",
	.synopsis = {"emulate LESSON [--size N|M,N,K] [--set KEY=VALUE]... [--lines|--estimate|--stalls] [--json|--csv]",
		     "emulate --ptx FILE [--entry NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]] --size M[,N,K] [options]"},
	.summary = "CPU: run a kernel in the emulator and count its memory traffic",
	.about = "Runs the kernel on the CPU, warp by warp, on random inputs; verifies C against a\n"
		 "double-precision reference; counts what Nsight Compute would: global requests and\n"
		 "32-byte sectors, shared-memory wavefronts and bank conflicts, instructions by class,\n"
		 "also per labelled region (// @name ... // @end). Reports races (a missing bar.sync,\n"
		 "an async copy's window, clusters, blocks on the same bytes, shfl.sync masks) and\n"
		 "out-of-bounds accesses with the PTX line. Default size 128.\n"
		 "The CPU time is estimated from the first blocks before going on: past the run\n"
		 "deadline (two minutes) it stops and says so (--force runs it anyway, for up to an hour);\n"
		 "--timeout S makes the deadline S seconds. On a terminal it shows its progress; Ctrl-C\n"
		 "stops it (exit 2). The report is `run --emulate`'s, text or JSON. LESSON is a number\n"
		 "(3) or an id (smem).\n"
		 "With --lines --baseline FILE, FILE runs too, with the same launch, and each\n"
		 "line's figures stand beside its own in FILE, with the difference: your edit\n"
		 "beside the shipped kernel, line by line.\n"
		 "With --estimate it runs only the first two blocks, at --size (default 4096), and says\n"
		 "how long the kernel would take on the GPU (--gpu, default h100): each count over the\n"
		 "pipe's sustained rate measured on that GPU (docs/model.md), beside the measured time\n"
		 "where assets/measured-h100.tsv has one.\n"
		 "With --stalls (same sample and size) it says why each PTX line waits: the blocks\n"
		 "replayed on a model of one SM, each cycle a warp does not issue charged to a reason\n"
		 "(long scoreboard, barrier, MIO throttle, ...) at the line that waits (docs/model.md).\n"
		 CLI_LAUNCH_EXAMPLE("emulate"),
	.opts = cli_emulate_opts,
	.max_args = 1,
	.run = cmd_emulate,
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* The progress line on a terminal, at most four times a second. */
static void on_progress(void *ctx, const exec_progress *p)
{
	double *last_shown = ctx;
	if (p->seconds - *last_shown < 0.25 && p->blocks_done < p->blocks)
		return;
	*last_shown = p->seconds;
	termsafe_progress("  emulating: block %lld of %lld (%.0f%%), %.1f s of about %.0f s; Ctrl-C stops",
			  p->blocks_done, p->blocks, 100.0 * (double)p->blocks_done / (double)p->blocks, p->seconds,
			  p->estimate_s > p->seconds ? p->estimate_s : p->seconds);
}

/* `emulate --lines`: the per-line table with each line's PTX, or CSV, from the result's rows. */
static void print_lines(const char *name, const run_request *rq, const run_result *res, int csv, int by_cu)
{
	run_report rep;
	run_report_make(&rep, rq, res, 0);
	char err[256];
	size_t len;
	char *text = util_read_file(rq->ptx_path, &len, err, sizeof err);
	ptx_locs *locs = ptx_locs_scan(text); /* the CUDA line of each PTX line, when nvcc recorded them */
	rep.locs = locs;
	if (csv || by_cu) {
		if (by_cu && !csv)
			printf("%s at %lldx%lldx%lld on the CPU: %s; per CUDA line, summed over the grid\n", name, rq->M, rq->N,
			       rq->K, res->verified == 1 ? "VERIFIED" : "FAILED");
		if (by_cu && csv)
			exec_report_cu_csv(stdout, &rep);
		else if (by_cu)
			exec_report_cu_text(stdout, &rep, rq->ptx_path);
		else
			exec_report_lines_csv(stdout, &rep);
		ptx_locs_free(locs);
		free(text);
		return;
	}
	static const char *src[RUN_MAX_LINES * 8];
	int nsrc = 0;
	for (char *p = text, *nl; p && *p && nsrc < (int)ARRAY_LEN(src); p = nl + 1) {
		src[nsrc++] = p;
		if (!(nl = strchr(p, '\n')))
			break;
		*nl = 0;
	}
	printf("%s at %lldx%lldx%lld on the CPU: %s; per line, summed over the grid\n", name, rq->M, rq->N, rq->K,
	       res->verified == 1 ? "VERIFIED" : "FAILED");
	exec_report_lines_text(stdout, &rep, src, nsrc);
	ptx_locs_free(locs);
	free(text);
}

/* A text cut into its lines in place (NUL for each end); *n of them. */
static const char **lines_of(char *text, int *n)
{
	int cap = 256;
	const char **v = xmalloc((size_t)cap * sizeof *v);
	*n = 0;
	for (char *p = text, *nl; p && *p; p = nl + 1) {
		if (*n == cap)
			v = xreallocarray(v, (size_t)(cap *= 2), sizeof *v);
		v[(*n)++] = p;
		if (!(nl = strchr(p, '\n')))
			break;
		*nl = 0;
	}
	return v;
}

/* `emulate --lines --baseline FILE`: the run's per-line figures beside FILE's (run with the same launch),
 * the lines matched by a diff of the two texts. Returns the exit status. */
static int print_baseline(const char *name, const run_request *rq, const run_result *res, const run_request *bq,
			  const run_result *base, int csv)
{
	char err[RUN_PATH + 64], berr[RUN_PATH + 64];
	char *text = util_read_file(rq->ptx_path, NULL, err, sizeof err);
	char *btext = util_read_file(bq->ptx_path, NULL, berr, sizeof berr);
	if (!text || !btext) {
		cli_error(NULL, "%s", text ? berr : err);
		free(text), free(btext);
		return 2;
	}
	linediff d;
	linediff_match(&d, text, btext);
	run_report rep, brep;
	run_report_make(&rep, rq, res, 0);
	run_report_make(&brep, bq, base, 0);
	if (csv) {
		exec_report_baseline_csv(stdout, &rep, &brep, &d);
	} else {
		int n, nb;
		const char **src = lines_of(text, &n), **bsrc = lines_of(btext, &nb);
		printf("%s at %lldx%lldx%lld on the CPU: %s; per line, summed over the grid, beside %s (%s)\n", name,
		       rq->M, rq->N, rq->K, res->verified == 1 ? "VERIFIED" : "FAILED", bq->ptx_path,
		       base->verified == 1 ? "VERIFIED" : "FAILED");
		exec_report_baseline_text(stdout, &rep, &brep, &d, src, bsrc);
		free(src), free(bsrc);
	}
	linediff_free(&d);
	free(text), free(btext);
	return res->status == RUN_OK ? 0 : 1;
}

/* --warp and --estimate run the emulator on their own: refuse up front what it would refuse. */
static int refused(const run_request *rq)
{
	run_error why;
	char msg[RUN_PATH + 300];
	if (!exec_refuses(rq, &why))
		return 0;
	run_error_format(&why, msg, sizeof msg);
	cli_error(NULL, "%s", msg);
	return 1;
}

/* `emulate --warp LINE[,WARP[,NTH]]`: one access as the warp view draws it. */
static int print_warp(const cli_command *self, const run_request *rq, const char *spec)
{
	exec_warp_access wa = {0};
	long long v[3] = {0, 0, 1};
	int n = 0;
	char *end;
	for (const char *p = spec; n < 3; p = end + 1) {
		v[n++] = strtoll(p, &end, 10);
		if (end == p || (*end && *end != ',') || v[n - 1] < (n == 2 ? 0 : 1)) {
			cli_error(self, "--warp takes LINE[,WARP[,NTH]]: a line from 1, a warp from 0, an execution from 1");
			return 2;
		}
		if (!*end)
			break;
	}
	if (n == 3 && *end) {
		cli_error(self, "--warp takes LINE[,WARP[,NTH]]: a line from 1, a warp from 0, an execution from 1");
		return 2;
	}
	wa.line = (int)v[0], wa.warp = (int)v[1], wa.nth = v[2] - 1;
	char err[512];
	if (exec_warp_record(rq, &wa, err, sizeof err)) {
		cli_error(self, "%s", err);
		return 2;
	}
	char rows[EXEC_WARP_ROWS][EXEC_WARP_COLS];
	int nr = exec_warp_rows(&wa, rows, EXEC_WARP_ROWS);
	for (int i = 0; i < nr; i++)
		printf("%s\n", rows[i]);
	return wa.found ? 0 : 1;
}

/* emulate --estimate: the time on a GPU from a sample of blocks (exec/estimate.c), with the
 * measured time beside it where the measured-data file has one for this lesson and size. */
static int print_estimate(const cli_command *self, const cli_launch *o, const run_request *rq, int lesson, int regs)
{
	static gpu_table t;
	gpu_spec spec;
	const gpu_spec *g = cli_gpu(self, o->gpu ? o->gpu : "h100", NULL, &t, &spec);
	if (!g)
		return 2;
	static exec_estimate_result r;
	char name[RUN_ENTRY];
	if (exec_estimate(rq, g, regs, &r) < 0) {
		cli_error(self, "%s", r.err);
		return 2;
	}
	cli_launch_title(o, rq, name, sizeof name);
	const estimate *e = &r.e;
	double measured = 0;
	if (lesson < 0 || rq->M != rq->N || rq->N != rq->K || measured_lesson_ms(lesson, rq->M, &measured) < 0)
		measured = 0;
	if (o->json) {
		json_writer w;
		json_begin(&w, stdout);
		json_obj(&w, NULL);
		json_str(&w, "kernel", name);
		json_str(&w, "gpu", g->name);
		json_int(&w, "M", rq->M), json_int(&w, "N", rq->N), json_int(&w, "K", rq->K);
		json_num(&w, "ms", e->ms);
		json_str(&w, "limit", estimate_term_key(e->limit));
		json_obj(&w, "terms_ms");
		for (int i = 0; i < EST_NTERMS; i++)
			json_num(&w, estimate_term_key((estimate_term)i), e->term_ms[i]);
		json_end(&w);
		json_num(&w, "sm_ms", e->sm_ms);
		json_num(&w, "sm_max_ms", r.sm_max_ms);
		json_num(&w, "sm_sum_ms", r.sm_sum_ms);
		json_int(&w, "blocks", r.in.blocks);
		json_int(&w, "blocks_sampled", r.blocks_run);
		json_num(&w, "sample_seconds", r.seconds);
		if (measured > 0) {
			json_num(&w, "measured_ms", measured);
			json_num(&w, "error", e->ms / measured - 1);
		}
		json_str(&w, "rates", e->source);
		if (e->has_clock) { /* the power model's clock (model/power.h) */
			json_num(&w, "clock_mhz", e->clock_mhz);
			json_num(&w, "clock_max_mhz", e->clock_max_mhz);
			json_bool(&w, "clock_capped", e->clock_capped);
			json_num(&w, "power_w", e->power_w);
			json_str(&w, "clock_kinds_missing", e->clock_missing);
		}
		if (r.has_latency) { /* the stall model's SM (exec/stalls.h) */
			json_obj(&w, "latency");
			json_num(&w, "cycles", r.sm_cycles);
			json_num(&w, "waves", r.waves);
			json_int(&w, "blocks_per_sm", r.blocks_per_sm);
			json_int(&w, "regs", r.regs);
			json_bool(&w, "regs_assumed", r.regs_assumed);
			json_bool(&w, "regs_ptxas", r.regs_ptxas);
			json_num(&w, "issue_active", r.issue_active);
			json_num(&w, "seconds", r.latency_seconds);
			json_end(&w);
		} else
			json_str(&w, "latency_why", r.latency_why);
		json_obj(&w, "tolerance"); /* what tests/e2e_estimate.sh holds it to, on the H100 */
		json_num(&w, "lessons", ESTIMATE_TOL_LESSONS);
		json_num(&w, "heldout", ESTIMATE_TOL_HELDOUT);
		json_end(&w);
		json_end(&w);
		json_finish(&w);
		return 0;
	}
	printf("%s at %lldx%lldx%lld on the %s: estimate %.3g ms, limited by %s\n", name, rq->M, rq->N, rq->K, g->name,
	       e->ms, estimate_term_name(e->limit));
	printf("  from %lld of %lld blocks emulated (%.1f s) and %s\n", r.blocks_run, r.in.blocks, r.seconds, e->source);
	if (r.has_latency)
		printf("  %-22s %10.3g ms%s: %.4g cycles a wave x %.0f waves at %.0f MHz (%s, %.0f W modelled); "
		       "%d blocks an SM, %d registers a thread%s, issue active %.0f%% (%.1f s)\n",
		       "the stall model's SM", e->term_ms[EST_LATENCY], e->limit == EST_LATENCY ? "  <- the estimate" : "",
		       r.sm_cycles, r.waves, e->clock_mhz, e->clock_capped ? "the power cap's clock" : "the highest clock",
		       e->power_w, r.blocks_per_sm, r.regs, r.regs_assumed ? " (assumed)" : r.regs_ptxas ? " (ptxas)" : "", 100 * r.issue_active,
		       r.latency_seconds);
	else
		printf("  no stall model (%s): the SM's pipes combine by the root rule\n", r.latency_why);
	if (e->has_clock && *e->clock_missing)
		printf("  the clock model has no power rows for %s (counted as free; scripts/gpu-power.sh)\n", e->clock_missing);
	if (r.has_latency)
		printf("  beside it, each pipe and level alone at its sustained rate (the rule without the stall model):\n");
	int sm_decides = e->ms == e->sm_ms;
	for (int i = 0; i < EST_LATENCY; i++) {
		if (i == EST_SM_TERMS) {
			printf("  %-22s %10.3g ms%s\n", "SM pipes together", e->sm_ms,
			       sm_decides ? "  <- the estimate (root of the sum of their squares)" : "");
			/* The root is a chosen rule between two limits (docs/model.md): both beside it. */
			printf("  %-22s %10.3g ms  (overlapping fully)\n", "  their max", r.sm_max_ms);
			printf("  %-22s %10.3g ms  (taking turns)\n", "  their sum", r.sm_sum_ms);
		}
		printf("  %-22s %10.3g ms%s\n", estimate_term_name((estimate_term)i), e->term_ms[i],
		       !sm_decides && i == (int)e->limit ? "  <- the estimate" : "");
	}
	if (measured > 0)
		printf("  measured on the H100 (%s): %.3g ms; the estimate is %+.0f%%\n", MEASURED_FILE, measured,
		       100 * (e->ms / measured - 1));
	return 0;
}

static int cmd_emulate(const cli_command *self, int argc, char **argv)
{
	cli_launch o;
	int rc = cli_launch_parse(self, argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.csv && (!(o.lines || o.stalls) || o.json)) {
		cli_error(self, "--csv goes with --lines or --stalls, without --json");
		return 2;
	}
	if (o.stalls && (o.lines || o.estimate || o.warp)) {
		cli_error(self, "--stalls goes without --lines, --estimate and --warp");
		return 2;
	}
	if (o.clock > 0 && !o.stalls) {
		cli_error(self, "--clock goes with --stalls");
		return 2;
	}
	if (o.by && !(o.lines || o.stalls)) {
		cli_error(self, "--by goes with --lines or --stalls");
		return 2;
	}
	if (o.baseline && (!o.lines || o.json || (o.by && strcmp(o.by, "ptx")))) {
		cli_error(self, "--baseline goes with --lines (per PTX line), without --json");
		return 2;
	}
	if (o.baseline && access(o.baseline, R_OK)) {
		cli_error(self, "--baseline %s: %s", cli_arg(o.baseline), strerror(errno));
		return 2;
	}
	course c = {0};
	if (o.lesson)
		cli_course(&c);
	if ((o.estimate || o.stalls) && !o.M) /* the size bench times at */
		o.M = o.N = o.K = EXEC_ESTIMATE_SIZE;
	cli_launch_emulation_size(&o, &c);
	o.emulate = 1; /* `run --emulate`'s request */
	run_request rq;
	const lesson *l = o.lesson ? course_find(&c, o.lesson) : NULL;
	int number = l ? l->number : -1, regs = l ? l->regs : 0, bad = cli_launch_request(&o, &c, &rq);
	course_free(&c);
	if (bad)
		return 2;
	if ((o.warp || o.estimate || o.stalls) && refused(&rq))
		return 2;
	if (o.warp)
		return print_warp(self, &rq, o.warp);
	if (o.estimate)
		return print_estimate(self, &o, &rq, number, regs);
	if (o.stalls)
		return cli_emulate_stalls(self, &o, &rq, regs);
	static run_result res; /* ~230 KiB */
	double last_shown = -1;
	int tty = isatty(2) && !o.json;
	exec_run_opts opt = {.progress = tty ? on_progress : NULL, .ctx = &last_shown, .cancel = &interrupted};
	struct sigaction sa = {.sa_handler = on_sigint}, old;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	exec_run_with(&rq, &opt, &res);
	static run_result base; /* --baseline: the same launch of the other file */
	run_request bq = rq;
	if (o.baseline && !interrupted && run_has_counts(&res)) {
		util_strlcpy(bq.ptx_path, o.baseline, sizeof bq.ptx_path);
		exec_run_with(&bq, &opt, &base);
	}
	sigaction(SIGINT, &old, NULL);
	if (tty)
		termsafe_progress(NULL);
	if (o.baseline && run_has_counts(&res) && !run_has_counts(&base)) {
		cli_error(self, "--baseline %s did not run: %s", cli_arg(o.baseline), base.msg);
		return 2;
	}
	if (o.baseline && run_has_counts(&res)) {
		char name[RUN_ENTRY];
		cli_launch_title(&o, &rq, name, sizeof name);
		return print_baseline(name, &rq, &res, &bq, &base, o.csv);
	}
	if (o.lines && !o.json && run_has_counts(&res)) {
		char name[RUN_ENTRY];
		cli_launch_title(&o, &rq, name, sizeof name);
		print_lines(name, &rq, &res, o.csv, o.by && !strcmp(o.by, "cu"));
		return res.status == RUN_OK ? 0 : 1;
	}
	return cli_launch_report(&o, &rq, &res);
}
