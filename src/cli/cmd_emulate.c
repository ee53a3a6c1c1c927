/* cmd_emulate: `ptxtutor emulate` — run a kernel on the CPU with the PTX interpreter, verify it and print its traffic counts. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/launch_opts.h"
#include "emu/backend.h"
#include "emu/emu.h"
#include "exec/report.h"
#include "exec/warpview.h"
#include "exec/estimate.h"
#include "model/measured.h"
#include "base/json.h"
#include "base/termsafe.h"
#include "base/util.h"
#include "run/launch.h"

const cli_command cli_cmd_emulate = {
	.name = "emulate",
	.synopsis = {"emulate LESSON [--size N|M,N,K] [--set KEY=VALUE]... [--lines|--estimate] [--json|--csv]",
		     "emulate --ptx FILE [--entry NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]] --size M[,N,K] [options]"},
	.summary = "CPU: run a kernel in the emulator and count its memory traffic",
	.about = "Runs the kernel on the CPU, warp by warp, on random inputs; verifies C against a\n"
		 "double-precision reference; counts what Nsight Compute would: global requests and\n"
		 "32-byte sectors, shared-memory wavefronts and bank conflicts, instructions by class,\n"
		 "also per labelled region (// @name ... // @end). Reports shared-memory races\n"
		 "(a missing bar.sync) and out-of-bounds accesses with the PTX line. Default size 128.\n"
		 "The CPU time is estimated from the first blocks before going on: past the run\n"
		 "deadline (two minutes) it stops and says so (--force runs it anyway); --timeout S\n"
		 "stops it after S seconds of wall time. On a terminal it shows its progress; Ctrl-C stops it and prints what was\n"
		 "counted so far. LESSON is a number (3) or an id (smem).\n"
		 "With --estimate it runs only the first two blocks, at --size (default 4096), and says\n"
		 "how long the kernel would take on the GPU (--gpu, default h100): each count over the\n"
		 "pipe's sustained rate measured on that GPU (docs/model.md), beside the measured time\n"
		 "where assets/measured-h100.tsv has one.\n" CLI_LAUNCH_EXAMPLE("emulate"),
	.opts = cli_emulate_opts,
	.max_args = 1,
	.run = cmd_emulate,
};

/* The probe: the estimate is made once the first blocks took this long. */
#define EMULATE_PROBE_S 0.1

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* What the progress callback knows and decided. */
typedef struct {
	int force, tty, decided;
	double limit_s; /* the longest emulation started without --force: the run deadline */
	double estimate_s, last_shown;
	unsigned long long estimate_inst;
	enum { GOING, STOPPED_CTRL_C, STOPPED_TOO_LONG } stop;
} watch;

static int on_progress(void *ctx, const emu_progress *p)
{
	watch *w = ctx;
	if (interrupted) {
		w->stop = STOPPED_CTRL_C;
		return 1;
	}
	if (!w->decided && (p->seconds >= EMULATE_PROBE_S || p->blocks_done == p->blocks)) {
		/* from the probe: warp instructions per block, and their rate */
		w->decided = 1;
		double per_block = (double)p->inst / (double)p->blocks_done;
		w->estimate_inst = (unsigned long long)(per_block * (double)p->blocks);
		w->estimate_s = p->inst ? p->seconds * (double)w->estimate_inst / (double)p->inst : 0;
		if (w->estimate_s > w->limit_s && !w->force) {
			w->stop = STOPPED_TOO_LONG;
			return 1;
		}
	}
	if (w->tty && (p->seconds - w->last_shown >= 0.25 || p->blocks_done == p->blocks)) {
		w->last_shown = p->seconds;
		termsafe_progress("  emulating: block %lld of %lld (%.0f%%), %.1f s of about %.0f s; Ctrl-C stops",
			     p->blocks_done, p->blocks, 100.0 * (double)p->blocks_done / (double)p->blocks, p->seconds,
			     w->estimate_s > p->seconds ? w->estimate_s : p->seconds);
		if (p->blocks_done == p->blocks)
			termsafe_progress(NULL);
	}
	return 0;
}

static void gmem_json(json_writer *w, const char *key, const emu_gmem *g)
{
	json_obj(w, key);
	json_int(w, "requests", (long long)g->requests);
	json_int(w, "sectors", (long long)g->sectors);
	json_num(w, "sectors_per_request", g->requests ? (double)g->sectors / (double)g->requests : 0.0);
	json_end(w);
}

static void smem_json(json_writer *w, const char *key, const emu_smem *s)
{
	json_obj(w, key);
	json_int(w, "requests", (long long)s->requests);
	json_int(w, "wavefronts", (long long)s->wavefronts);
	json_int(w, "bank_conflicts", (long long)s->bank_conflicts);
	json_end(w);
}

static emu_gmem gsum(const emu_counts *c)
{
	return (emu_gmem){c->gld.requests + c->gst.requests + c->gcp.requests,
			  c->gld.sectors + c->gst.sectors + c->gcp.sectors, c->gld.wavefronts};
}

static emu_smem ssum(const emu_counts *c)
{
	const emu_smem *p[] = {&c->sld, &c->sst, &c->sldsm, &c->scp};
	emu_smem s = {0};
	for (size_t i = 0; i < ARRAY_LEN(p); i++) {
		s.requests += p[i]->requests;
		s.wavefronts += p[i]->wavefronts;
		s.ideal += p[i]->ideal;
		s.bank_conflicts += p[i]->bank_conflicts;
	}
	return s;
}

static void counts_json(json_writer *w, const emu_counts *c)
{
	emu_gmem g = gsum(c);
	json_obj(w, "global");
	json_int(w, "requests", (long long)g.requests);
	json_int(w, "sectors", (long long)g.sectors);
	json_num(w, "sectors_per_request", g.requests ? (double)g.sectors / (double)g.requests : 0.0);
	gmem_json(w, "load", &c->gld);
	gmem_json(w, "store", &c->gst);
	gmem_json(w, "cp_async", &c->gcp);
	json_end(w);
	emu_smem s = ssum(c);
	json_obj(w, "shared");
	json_int(w, "requests", (long long)s.requests);
	json_int(w, "wavefronts", (long long)s.wavefronts);
	json_int(w, "bank_conflicts", (long long)s.bank_conflicts);
	smem_json(w, "load", &c->sld);
	smem_json(w, "store", &c->sst);
	smem_json(w, "ldmatrix", &c->sldsm);
	smem_json(w, "cp_async", &c->scp);
	json_end(w);
	json_obj(w, "instructions");
	for (int i = 0; i < EMU_CLS_COUNT; i++)
		json_int(w, emu_class_name((emu_class)i), (long long)c->inst[i]);
	json_int(w, "total", (long long)c->inst_total);
	json_int(w, "thread_total", (long long)c->thread_inst);
	json_end(w);
	json_int(w, "barriers", (long long)c->barriers);
	if (c->wgmma.inst) { /* Hopper kernels only: the other lessons' output stays as it was */
		json_obj(w, "wgmma");
		json_int(w, "instructions", (long long)c->wgmma.inst);
		json_int(w, "flops", (long long)c->wgmma.flops);
		json_int(w, "smem_bytes", (long long)c->wgmma.smem_bytes);
		json_int(w, "smem_wavefronts", (long long)c->wgmma.smem_wavefronts);
		json_end(w);
	}
}

/* What `emulate --json` adds to the run report: the launch, the counts by
 * kind (per instruction class, loads apart from cp.async) and per region. */
struct extras {
	const run_request *rq;
	const emu_result *res;
};

static void write_extras(json_writer *w, void *ctx)
{
	const struct extras *x = ctx;
	json_str(w, "ptx", x->rq->ptx_path);
	json_arr(w, "grid");
	for (int i = 0; i < 3; i++)
		json_int(w, NULL, x->rq->grid[i]);
	json_end(w);
	json_arr(w, "block");
	for (int i = 0; i < 3; i++)
		json_int(w, NULL, x->rq->block[i]);
	json_end(w);
	json_int(w, "warps", x->res->warps);
	if (x->res->races)
		json_str(w, "race", x->res->race_msg);
	json_obj(w, "counts");
	counts_json(w, &x->res->total);
	json_end(w);
	json_obj(w, "regions");
	for (int r = 0; r < x->res->nregions; r++) {
		json_obj(w, x->res->regions[r].name);
		json_int(w, "first_line", x->res->regions[r].first_line);
		json_int(w, "last_line", x->res->regions[r].last_line);
		counts_json(w, &x->res->regions[r].c);
		json_end(w);
	}
	json_end(w);
}

/* The run report's schema (docs/json.md) on stdout; after a whole run
 * (er not NULL) with what only `emulate` has. */
static void report_json(const run_request *rq, const run_result *rr, const emu_result *er)
{
	run_report rep;
	json_writer w;
	struct extras x = {rq, er};
	run_report_make(&rep, rq, rr, 0);
	json_begin(&w, stdout);
	exec_report_json(&w, NULL, &rep, er ? write_extras : NULL, &x);
	json_finish(&w);
}

static void print_counts(FILE *f, const emu_counts *c, const char *indent)
{
	const struct { const char *name; const emu_gmem *g; } gm[] = {
		{"global loads", &c->gld}, {"global stores", &c->gst}, {"cp.async reads", &c->gcp},
	};
	const struct { const char *name; const emu_smem *s; } sm[] = {
		{"shared loads", &c->sld}, {"shared stores", &c->sst},
		{"ldmatrix", &c->sldsm}, {"cp.async writes", &c->scp},
	};
	fprintf(f, "%s%-16s %12s %12s %9s\n", indent, "", "requests", "sectors", "sect/req");
	for (size_t i = 0; i < ARRAY_LEN(gm); i++)
		if (gm[i].g->requests || i < 2)
			fprintf(f, "%s%-16s %12llu %12llu %9.2f\n", indent, gm[i].name, gm[i].g->requests, gm[i].g->sectors,
				gm[i].g->requests ? (double)gm[i].g->sectors / (double)gm[i].g->requests : 0.0);
	fprintf(f, "%s%-16s %12s %12s %9s\n", indent, "", "requests", "wavefronts", "conflicts");
	for (size_t i = 0; i < ARRAY_LEN(sm); i++)
		if (sm[i].s->requests || i < 2)
			fprintf(f, "%s%-16s %12llu %12llu %9llu\n", indent, sm[i].name, sm[i].s->requests,
				sm[i].s->wavefronts, sm[i].s->bank_conflicts);
	fprintf(f, "%sinstructions (per warp): %llu;", indent, c->inst_total);
	for (int i = 0; i < EMU_CLS_COUNT; i++)
		if (c->inst[i])
			fprintf(f, " %s %llu", emu_class_name((emu_class)i), c->inst[i]);
	fprintf(f, "; barriers %llu\n", c->barriers);
	if (c->wgmma.inst)
		fprintf(f, "%swgmma (per warpgroup): %llu, %llu FLOPs, %llu shared operand bytes (%llu wavefronts)\n", indent,
			c->wgmma.inst, c->wgmma.flops, c->wgmma.smem_bytes, c->wgmma.smem_wavefronts);
}

/* `emulate --lines`: the per-line table with each line's PTX, or CSV. */
static void print_lines(const run_request *rq, const emu_result *er, const run_line_counts *lines, int csv,
			const char *name)
{
	run_result *rr = xcalloc(1, sizeof *rr);
	run_report rep;
	emu_backend_result(rq, er, lines, rr);
	run_report_make(&rep, rq, rr, 0);
	if (csv) {
		exec_report_lines_csv(stdout, &rep);
	} else {
		char err[256];
		size_t len;
		char *text = util_read_file(rq->ptx_path, &len, err, sizeof err);
		static const char *src[RUN_MAX_LINES * 8];
		int nsrc = 0;
		for (char *p = text, *nl; p && *p && nsrc < (int)ARRAY_LEN(src); p = nl + 1) {
			src[nsrc++] = p;
			if (!(nl = strchr(p, '\n')))
				break;
			*nl = 0;
		}
		printf("%s at %lldx%lldx%lld on the CPU: %s; per line, summed over the grid\n", name, rq->M, rq->N, rq->K,
		       er->verified == 1 && !er->races ? "VERIFIED" : "FAILED");
		exec_report_lines_text(stdout, &rep, src, nsrc);
		free(text);
	}
	free(rr);
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
static int print_estimate(const cli_command *self, const cli_launch *o, const run_request *rq, int lesson, double limit_s)
{
	static gpu_table t;
	gpu_spec spec;
	const gpu_spec *g = cli_gpu(self, o->gpu ? o->gpu : "h100", NULL, &t, &spec);
	if (!g)
		return 2;
	static exec_estimate_result r;
	char name[RUN_ENTRY];
	if (exec_estimate(rq, g, limit_s, &r) < 0) {
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
		json_int(&w, "blocks", r.in.blocks);
		json_int(&w, "blocks_sampled", r.blocks_run);
		json_num(&w, "sample_seconds", r.seconds);
		if (measured > 0) {
			json_num(&w, "measured_ms", measured);
			json_num(&w, "error", e->ms / measured - 1);
		}
		json_str(&w, "rates", e->source);
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
	int sm_decides = e->ms == e->sm_ms;
	for (int i = 0; i < EST_NTERMS; i++) {
		if (i == EST_SM_TERMS)
			printf("  %-22s %10.3g ms%s\n", "SM pipes together", e->sm_ms,
			       sm_decides ? "  <- the estimate (root of the sum of their squares)" : "");
		printf("  %-22s %10.3g ms%s\n", estimate_term_name((estimate_term)i), e->term_ms[i],
		       !sm_decides && i == (int)e->limit ? "  <- the estimate" : "");
	}
	if (measured > 0)
		printf("  measured on the H100 (%s): %.3g ms; the estimate is %+.0f%%\n", MEASURED_FILE, measured,
		       100 * (e->ms / measured - 1));
	return 0;
}

int cmd_emulate(const cli_command *self, int argc, char **argv)
{
	cli_launch o;
	int rc = cli_launch_parse(self, argc, argv, &o);
	if (rc >= 0)
		return rc;
	course c = {0};
	if (o.lesson)
		cli_course(&c);
	if (o.estimate && !o.M) /* the size bench times at */
		o.M = o.N = o.K = EXEC_ESTIMATE_SIZE;
	cli_launch_emulation_size(&o, &c);
	run_request rq;
	if (cli_launch_request(&o, &c, &rq)) {
		course_free(&c);
		return 2;
	}
	rq.backend = RUN_BACKEND_EMU;
	double limit_s = launch_deadline(&rq, 0);
	emu_result res;
	char err[512], what[64] = "";
	const lesson *l = o.lesson ? course_find(&c, o.lesson) : NULL;
	int number = l ? l->number : -1; /* the course is freed next */
	if (l)
		snprintf(what, sizeof what, "lesson %d", l->number);
	course_free(&c);
	if (emu_refuses(&rq, what[0] ? what : NULL, err, sizeof err)) {
		if (o.json) {
			run_result rr;
			emu_backend_refused(&rq, err, &rr);
			report_json(&rq, &rr, NULL);
		}
		cli_error(self, "%s", err);
		return 2;
	}
	if (o.warp)
		return print_warp(self, &rq, o.warp);
	if (o.estimate)
		return print_estimate(self, &o, &rq, number, limit_s);
	watch w = {.force = o.force, .tty = isatty(2) && !o.json, .limit_s = limit_s};
	if (o.csv && (!o.lines || o.json)) {
		cli_error(self, "--csv goes with --lines, without --json");
		return 2;
	}
	static run_line_counts lines[RUN_MAX_LINES]; /* the rows a run result carries */
	emu_options opt = {.progress = on_progress, .progress_ctx = &w,
			   .deadline_s = o.timeout, /* --timeout S: the emulator's wall-clock deadline */
			   .lines = o.lines ? lines : NULL, .max_lines = RUN_MAX_LINES};
	struct sigaction sa = {.sa_handler = on_sigint}, old;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	emu_error erc = emu_run(&rq, &opt, &res, err, sizeof err);
	sigaction(SIGINT, &old, NULL);
	if (w.tty)
		termsafe_progress(NULL);
	if (erc == EMU_ERR_CANCELLED && w.stop == STOPPED_TOO_LONG) {
		snprintf(err, sizeof err,
			 "this emulation would take about %.0f s of CPU time (%.3g warp instructions, from a probe of "
			 "%lld of %lld blocks); the limit is %.0f s: use a smaller --size, or --force",
			 w.estimate_s, (double)w.estimate_inst, res.blocks_done, res.blocks, limit_s);
	} else if (erc == EMU_ERR_CANCELLED) {
		cli_error(self, "stopped by Ctrl-C after %lld of %lld blocks, %llu warp instructions, %.1f s; "
			  "the counts so far:", res.blocks_done, res.blocks, res.total.inst_total, res.seconds);
		print_counts(stderr, &res.total, "  ");
		return 130;
	}
	if (erc) {
		if (o.json) {
			run_result rr;
			emu_backend_failed(&rq, erc, err, &rr);
			report_json(&rq, &rr, NULL);
		}
		cli_error(self, "%s", err);
		return 2;
	}
	char name[RUN_ENTRY];
	cli_launch_title(&o, &rq, name, sizeof name);
	if (o.json) {
		run_result rr;
		emu_backend_result(&rq, &res, opt.lines, &rr);
		report_json(&rq, &rr, &res);
	} else if (o.lines) {
		print_lines(&rq, &res, opt.lines, o.csv, name);
	} else {
		char types[32];
		dtype_pair_name(rq.dt, run_out(&rq), types, sizeof types);
		printf("%s at %lldx%lldx%lld on the CPU (%s): %s\n", name, rq.M, rq.N, rq.K, types,
		       res.verified == 1 && !res.races ? "VERIFIED" : "FAILED");
		printf("  %s\n", res.msg);
		if (res.verified >= 0) {
			/* the figures as the run report writes them (run/fields.c) */
			run_result rr;
			run_report rep;
			char f[3][48];
			emu_backend_result(&rq, &res, opt.lines, &rr);
			run_report_make(&rep, &rq, &rr, 0);
			printf("  rel. error %s (tolerance %s); %s; grid %ux%ux%u, block %ux%ux%u, %lld warps\n",
			       run_figure(&rep, "rel_error", f[0], sizeof f[0]), run_figure(&rep, "tolerance", f[1], sizeof f[1]),
			       run_figure(&rep, "emu.seconds", f[2], sizeof f[2]), rr.grid[0], rr.grid[1], rr.grid[2],
			       rq.block[0], rq.block[1], rq.block[2], res.warps);
		}
		if (res.races > 1)
			printf("  %llu racing shared-memory accesses in all\n", res.races);
		/* the totals as the tutor and `run --emulate` aggregate them, then by kind */
		run_result rr;
		run_report rep;
		emu_backend_result(&rq, &res, opt.lines, &rr);
		run_report_make(&rep, &rq, &rr, 0);
		exec_report_counts(stdout, &rep, "  ");
		printf("  by kind:\n");
		print_counts(stdout, &res.total, "    ");
		for (int r = 0; r < res.nregions; r++) {
			printf("  region @%s (lines %d-%d):\n", res.regions[r].name, res.regions[r].first_line, res.regions[r].last_line);
			print_counts(stdout, &res.regions[r].c, "    ");
		}
	}
	return res.verified == 1 && !res.races ? 0 : 1;
}
