/* cmd_accuracy: `ptxtutor accuracy` — the same GEMM in every number format against an f64 reference, as a table, JSON or a terminal plot. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/json.h"
#include "base/termsafe.h"
#include "base/util.h"
#include "cli/cli.h"
#include "exec/backend.h"
#include "exec/wait.h"
#include "run/accuracy.h"
#include "run/launch.h"

#define ACC_WHERE_ANY 0
#define ACC_WHERE_GPU 1
#define ACC_WHERE_EMU 2
#define ACC_MAX_FORMATS 16
#define ACC_DEFAULT_KS "256,1024,4096,16384"
/* M x N: 256 is the smallest size every row's tile divides; emulated, the
 * three formats of today take 15 s at the default Ks on one core (measured
 * on a shared 2-core x86 machine, about 2 s of it the f64 references and
 * the emulator's own checks). On a GPU the CPU's f64 reference is what
 * takes time: 2.3e10 multiply-adds at 1024 over the default Ks. */
#define ACC_EMU_SIZE 256
#define ACC_GPU_SIZE 1024
#define ACC_MAX_BYTES (8.0 * (1 << 30)) /* host memory the command may take */

typedef struct {
	const char *k, *size, *dist, *formats;
	int where, json, plot, seed;
} accuracy_opts;

static int dist_ok(const char *s, char *why, size_t len)
{
	acc_dist d;
	if (!acc_dist_parse(s, &d))
		return 0;
	snprintf(why, len, "uniform, normal or outliers");
	return -1;
}

static int cmd_accuracy(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_accuracy = {
	.name = "accuracy",
	.synopsis = {"accuracy [--k LIST] [--size M,N] [--dist D] [--formats LIST] [--gpu|--emulate] [--seed N] [--json|--plot]"},
	.summary = "the same GEMM in every number format, its error against f64",
	.about = "Draws A (M x K) and B (K x N) in f32, computes C = A*B in double on the CPU from\n"
		 "those f32 inputs, runs each format's kernel on the same inputs (so the rounding of\n"
		 "the inputs to the format counts) and reports the relative error\n"
		 "||C - ref||_F / ||ref||_F and the largest element error, max |C - ref| / max |ref|.\n"
		 "Runs on the GPU when there is one, else on the CPU emulator.\n"
		 "Distributions: uniform in [-1, 1]; normal(0, 1); outliers: normal(0, 1) with each\n"
		 "value, independently with probability 1/100, multiplied by 100.\n",
	.notes = "Formats (--formats, default: all):\n"
		 "  f32        lesson 7's kernel (CUDA cores)\n"
		 "  f16->f32   lesson 8 (mma.sync, sm_80)\n"
		 "  bf16->bf16 lesson 10 (wgmma, sm_90a: an H100 or the emulator)\n"
		 "  e4m3->bf16 lesson 11 (8-bit wgmma with per-tensor scales, sm_90a)\n"
		 "  tf32, 3xtf32, bf16->f32 (ptx/11_formats.ptx, mma.sync, sm_80) and e5m2->bf16\n"
		 "  (ptx/11_fp8.ptx): lesson 11's companions. A row the GPU cannot run says why.\n"
		 "Sizes: M and N (default " "256 emulated, 1024 on a GPU) must be whole tiles of every\n"
		 "kernel (256 is); each K a multiple of 128. The same seed gives the same inputs.\n"
		 "Exit status: 0, 1 when a run failed (a fault, a time-out), 2 on bad options.\n",
	.opts = (const cli_opt[]){
		{.name = "k", .kind = CLI_STR, .off = offsetof(accuracy_opts, k), .arg = "LIST",
		 .help = "the Ks, comma-separated (default " ACC_DEFAULT_KS ")"},
		{.name = "size", .kind = CLI_STR, .off = offsetof(accuracy_opts, size), .arg = "M,N",
		 .help = "C's size, or N for N x N (default 256 emulated, 1024 on a GPU)"},
		{.name = "dist", .kind = CLI_NAME, .off = offsetof(accuracy_opts, dist), .arg = "D", .check = dist_ok,
		 .help = "the inputs: uniform, normal or outliers (default normal)"},
		{.name = "formats", .kind = CLI_STR, .off = offsetof(accuracy_opts, formats), .arg = "LIST",
		 .help = "the formats, comma-separated (below; default: all)"},
		{.name = "gpu", .kind = CLI_FLAG, .off = offsetof(accuracy_opts, where), .value = ACC_WHERE_GPU,
		 .help = "run on the GPU (an error without one)"},
		{.name = "emulate", .letter = 'e', .kind = CLI_FLAG, .off = offsetof(accuracy_opts, where),
		 .value = ACC_WHERE_EMU, .help = "run on the CPU emulator, even with a GPU"},
		{.name = "seed", .kind = CLI_INT, .off = offsetof(accuracy_opts, seed), .arg = "N",
		 .help = "the inputs' random seed (default 1)", .lo = 0, .hi = 2147483647},
		{.name = "json", .letter = 'j', .kind = CLI_FLAG, .off = offsetof(accuracy_opts, json),
		 .help = "print JSON (keys in docs/json.md)"},
		{.name = "plot", .letter = 'p', .kind = CLI_FLAG, .off = offsetof(accuracy_opts, plot),
		 .help = "after the table, a plot of log10(error) against K"},
		{0},
	},
	.max_args = 0,
	.run = cmd_accuracy,
};

/* What the command measures, once parsed. */
typedef struct {
	long long M, N;
	long long ks[ACC_MAX_K];
	int nk;
	const acc_format *fmt[ACC_MAX_FORMATS];
	int nf;
	acc_dist dist;
	unsigned long long seed;
	run_backend backend;
	char gpu[64];               /* the device's name, or "CPU emulator" */
	int cc;                     /* GPU: compute capability, 90 for sm_90 */
	const course *course;       /* the lessons whose launches rows take */
} acc_plan;

/* One cell: a format at one K. */
typedef struct {
	int ran;                    /* 1: measured (err holds it) */
	int failed;                 /* the run failed (not refused up front): the exit status says so */
	int refused;                /* the backend refused it before any input was drawn (msg says why) */
	acc_error err;
	double seconds;
	char msg[256];              /* why it did not run */
} acc_cell;

static volatile int interrupted; /* set by the handler; an int, as acc_reference reads it */

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* "256,1024": positive integers, at most max of them. Returns the count, or -1. */
static int parse_list(const char *s, long long *out, int max, long long hi)
{
	int n = 0;
	const char *p = s;
	for (;;) {
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (end == p || errno || v < 1 || v > hi || n == max || (*end && *end != ','))
			return -1;
		out[n++] = v;
		if (!*end)
			return n;
		p = end + 1;
	}
}

/* The formats named in a comma-separated list, or every row. */
static int pick_formats(const cli_command *self, const char *list, acc_plan *p)
{
	int nrows;
	const acc_format *rows = acc_formats(&nrows);
	p->nf = 0;
	if (!list) {
		for (int i = 0; i < nrows && p->nf < ACC_MAX_FORMATS; i++)
			p->fmt[p->nf++] = &rows[i];
		return 0;
	}
	char buf[512];
	util_strlcpy(buf, list, sizeof buf);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const acc_format *f = acc_format_find(t);
		if (!f || p->nf == ACC_MAX_FORMATS) {
			cli_error(self, "--formats: no format '%s' (f32, 3xtf32, tf32, f16->f32, bf16->f32, bf16->bf16, "
					"e4m3->bf16, e5m2->bf16)", cli_arg(t));
			return -1;
		}
		p->fmt[p->nf++] = f;
	}
	if (!p->nf) {
		cli_error(self, "--formats wants a comma-separated list of formats, not '%s'", cli_arg(list));
		return -1;
	}
	return 0;
}

/* exec_wait on an exec_run_job. */
static int job_fd(void *j)
{
	return ((exec_run_job *)j)->job.fd;
}

static int job_done(void *j)
{
	return exec_run_job_poll(j);
}

static void job_stop(void *j)
{
	exec_job_stop(&((exec_run_job *)j)->job);
}

/* A request in a child of its own (exec/backend.h), so a fault or a hung
 * kernel costs only the child (killed at the request's deadline by
 * exec_run_job_poll), with a progress line on a terminal and Ctrl-C
 * honoured. Returns 0, or -1 when interrupted. */
static int run_child(const run_request *rq, const char *label, run_result *res)
{
	static const exec_waiter waiter = {.fd = job_fd, .done = job_done, .stop = job_stop};
	static exec_run_job j; /* its result is ~220 KiB */
	double t0 = util_now();
	if (exec_run_job_start(&j, rq)) { /* j.out says why */
		memcpy(res, &j.out, sizeof *res);
		return 0;
	}
	if (exec_wait(&waiter, &j, label, &interrupted) < 0) {
		char msg[64];
		snprintf(msg, sizeof msg, "stopped after %.0f s", util_now() - t0);
		exec_run_lost(rq, RUN_CANCELLED, msg, res);
		return -1;
	}
	memcpy(res, &j.out, sizeof *res);
	return interrupted ? -1 : 0;
}

/* Where the runs go: --gpu, --emulate, or the GPU when there is one (asked
 * in a child, as every GPU call is). Returns 0, or -1 after one line. */
static int pick_backend(const cli_command *self, int where, acc_plan *p)
{
	static run_result res;
	if (where != ACC_WHERE_EMU) {
		run_request rq;
		launch_request_device(&rq);
		if (run_child(&rq, "looking for a GPU", &res))
			return -1;
		if (res.status == RUN_OK && res.spec.sms > 0) {
			p->backend = RUN_BACKEND_GPU;
			util_strlcpy(p->gpu, res.gpu, sizeof p->gpu);
			p->cc = res.cc_major * 10 + res.cc_minor;
			return 0;
		}
		if (where == ACC_WHERE_GPU) {
			cli_error(self, "--gpu: %s", res.msg[0] ? res.msg : "no GPU");
			return -1;
		}
	}
	p->backend = RUN_BACKEND_EMU;
	util_strlcpy(p->gpu, "CPU emulator", sizeof p->gpu);
	return 0;
}

static int plan(const cli_command *self, const accuracy_opts *o, acc_plan *p)
{
	memset(p, 0, sizeof *p);
	p->nk = parse_list(o->k ? o->k : ACC_DEFAULT_KS, p->ks, ACC_MAX_K, 1 << 20);
	if (p->nk < 0) {
		cli_error(self, "--k wants up to %d positive integers, comma-separated, not '%s'", ACC_MAX_K, cli_arg(o->k));
		return 2;
	}
	long long mn[2] = {0, 0};
	int n = o->size ? parse_list(o->size, mn, 2, 1 << 16) : 0;
	if (n < 0 || (o->size && n == 0)) {
		cli_error(self, "--size wants M,N or N (1 to 65536), not '%s'", cli_arg(o->size));
		return 2;
	}
	if (n == 1)
		mn[1] = mn[0];
	acc_dist_parse(o->dist ? o->dist : "normal", &p->dist);
	p->seed = (unsigned long long)o->seed;
	if (pick_formats(self, o->formats, p))
		return 2;
	if (pick_backend(self, o->where, p))
		return interrupted ? 130 : 1;
	long long dflt = p->backend == RUN_BACKEND_EMU ? ACC_EMU_SIZE : ACC_GPU_SIZE;
	p->M = n ? mn[0] : dflt;
	p->N = n ? mn[1] : dflt;
	for (int k = 0; k < p->nk; k++) { /* A, B and C in f32, the reference in f64, here */
		double bytes = ((double)(p->M + p->N) * (double)p->ks[k] + 3.0 * (double)p->M * (double)p->N) * 4;
		if (bytes > ACC_MAX_BYTES) {
			cli_error(self, "%lld x %lld at K = %lld needs %.1f GiB here (A, B, C, the f64 reference), over %.0f GiB",
				  p->M, p->N, p->ks[k], bytes / (1 << 30), ACC_MAX_BYTES / (1 << 30));
			return 2;
		}
	}
	return -1;
}

/* Runs one format at one K on the inputs given; fills the cell. Returns 0,
 * or -1 when interrupted. */
static int run_cell(const acc_plan *p, const acc_format *f, long long K, const float *a, const float *b, float *c,
		    const double *ref, int step, acc_cell *cell)
{
	static run_result res;
	run_request rq;
	if (cell->refused)
		return 0;
	memset(cell, 0, sizeof *cell);
	if (acc_request(f, p->course, p->M, p->N, K, p->backend, &rq, cell->msg, sizeof cell->msg))
		return 0;
	if (p->backend == RUN_BACKEND_GPU && acc_runs_on(f, p->cc, cell->msg, sizeof cell->msg))
		return 0;
	size_t nc = (size_t)p->M * (size_t)p->N;
	for (size_t i = 0; i < nc; i++) /* an element the run never gives back counts as NaN */
		c[i] = NAN;
	rq.a_host = a, rq.b_host = b, rq.c_host = c;
	char label[160];
	snprintf(label, sizeof label, "%s at K = %lld (%d of %d)", f->name, K, step, p->nf * p->nk);
	if (run_child(&rq, label, &res))
		return -1;
	/* the emulator checks against its own tolerance too: a miss is a result here, not a failure */
	if (res.status != RUN_OK && res.status != RUN_WRONG) {
		snprintf(cell->msg, sizeof cell->msg, "%s", res.msg[0] ? res.msg : run_status_name(res.status));
		cell->failed = res.status != RUN_UNSUPPORTED && res.status != RUN_EMU_REFUSED && res.status != RUN_NO_GPU &&
			       res.status != RUN_BAD_REQUEST;
		return 0;
	}
	acc_measure(ref, c, nc, &cell->err);
	cell->ran = 1;
	cell->failed = cell->err.nonfinite > 0;
	cell->seconds = res.backend == RUN_BACKEND_EMU ? res.emu.seconds : res.ms * 1e-3;
	return 0;
}

/* Asks the backend, before any input is drawn or allocated, whether it
 * takes each cell's request (the emulator's 16384 a side and 2 GiB of
 * buffers among its limits): a cell it refuses says why and does not run.
 * Returns 0, or -1 after one line when it refuses every cell. */
static int admit(const cli_command *self, const acc_plan *p, acc_cell *cells)
{
	int taken = 0;
	for (int f = 0; f < p->nf; f++)
		for (int k = 0; k < p->nk; k++) {
			acc_cell *c = &cells[f * p->nk + k];
			run_request rq;
			run_error why;
			char m[192];
			c->refused = 1;
			if (acc_request(p->fmt[f], p->course, p->M, p->N, p->ks[k], p->backend, &rq, c->msg, sizeof c->msg))
				continue;
			if (exec_refuses(&rq, &why)) {
				run_error_format(&why, m, sizeof m);
				snprintf(c->msg, sizeof c->msg, "%s at K = %lld: %s", p->fmt[f]->name, p->ks[k], m);
				continue;
			}
			c->refused = 0;
			taken++;
		}
	if (!taken)
		cli_error(self, "%s", cells[0].msg);
	return taken ? 0 : -1;
}

/* acc_draw in pieces of about 10 ms, Ctrl-C read between them (drawing
 * 2 x 16M values takes seconds on a busy machine); the same values as one
 * call. Returns 0, or -1 when interrupted. */
static int draw(rng *r, acc_dist d, float *out, size_t n)
{
	const size_t piece = (size_t)1 << 18;
	for (size_t i = 0; i < n && !interrupted; i += piece)
		acc_draw(r, d, out + i, n - i < piece ? n - i : piece);
	return interrupted ? -1 : 0;
}

/* Every K: draw A and B, the reference, then each format on them. Returns 0, or -1 when interrupted. */
static int measure(const acc_plan *p, acc_cell *cells)
{
	size_t nc = (size_t)p->M * (size_t)p->N;
	float *c = mmap(NULL, nc * sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED) {
		cli_error(&cli_cmd_accuracy, "no memory for C (%lld x %lld)", p->M, p->N);
		return -1;
	}
	double *ref = xmalloc(nc * sizeof *ref);
	int rc = 0, step = 0;
	for (int k = 0; k < p->nk && !rc; k++) {
		long long K = p->ks[k];
		int any = 0;
		for (int f = 0; f < p->nf; f++)
			any |= !cells[f * p->nk + k].refused;
		if (!any) /* no input to draw for a K every row refused */
			continue;
		float *a = xmalloc((size_t)(p->M * K) * sizeof *a), *b = xmalloc((size_t)(K * p->N) * sizeof *b);
		rng r;
		acc_seed(&r, p->seed, K);
		if (isatty(2))
			termsafe_progress("  the f64 reference at K = %lld ...", K);
		rc = draw(&r, p->dist, a, (size_t)(p->M * K));
		if (!rc)
			rc = draw(&r, p->dist, b, (size_t)(K * p->N));
		if (!rc)
			rc = acc_reference(a, b, p->M, p->N, K, ref, &interrupted);
		for (int f = 0; f < p->nf && !rc; f++)
			rc = run_cell(p, p->fmt[f], K, a, b, c, ref, ++step, &cells[f * p->nk + k]);
		free(a);
		free(b);
	}
	free(ref);
	munmap(c, nc * sizeof *c);
	return rc;
}

static void print_json(const acc_plan *p, const acc_cell *cells)
{
	json_writer w;
	json_begin(&w, stdout);
	json_obj(&w, NULL);
	json_int(&w, "M", p->M);
	json_int(&w, "N", p->N);
	json_str(&w, "dist", acc_dist_name(p->dist));
	json_int(&w, "seed", (long long)p->seed);
	json_str(&w, "backend", p->backend == RUN_BACKEND_EMU ? "emulator" : "gpu");
	json_str(&w, "device", p->gpu);
	json_arr(&w, "k");
	for (int k = 0; k < p->nk; k++)
		json_int(&w, NULL, p->ks[k]);
	json_end(&w);
	json_arr(&w, "formats");
	for (int f = 0; f < p->nf; f++) {
		const acc_format *x = p->fmt[f];
		json_obj(&w, NULL);
		json_str(&w, "name", x->name);
		json_str(&w, "ptx", x->ptx);
		json_str(&w, "entry", x->entry);
		json_str(&w, "needs", x->needs);
		json_arr(&w, "results");
		for (int k = 0; k < p->nk; k++) {
			const acc_cell *c = &cells[f * p->nk + k];
			json_obj(&w, NULL);
			json_int(&w, "K", p->ks[k]);
			if (c->ran) {
				json_num(&w, "rel_err", c->err.rel_fro);
				json_num(&w, "max_rel_err", c->err.max_rel);
				json_int(&w, "nonfinite", (long long)c->err.nonfinite);
				json_num(&w, "seconds", c->seconds);
			} else {
				json_str(&w, "error", c->msg);
			}
			json_end(&w);
		}
		json_end(&w);
		json_end(&w);
	}
	json_end(&w);
	json_end(&w);
	json_finish(&w);
}

/* One table: a row per format, a column per K; which = 0 the norm-wise error, 1 the largest element's. */
static void print_table(const acc_plan *p, const acc_cell *cells, int which)
{
	printf("\n%s\n", which ? "max |C - ref| / max |ref|" : "||C - ref||_F / ||ref||_F");
	cli_pad(stdout, "format", 12);
	for (int k = 0; k < p->nk; k++) {
		char h[32];
		snprintf(h, sizeof h, "K = %lld", p->ks[k]);
		printf("%13s", h);
	}
	printf("\n");
	for (int f = 0; f < p->nf; f++) {
		cli_pad(stdout, p->fmt[f]->name, 12);
		for (int k = 0; k < p->nk; k++) {
			const acc_cell *c = &cells[f * p->nk + k];
			if (c->ran)
				printf("%13.2e", which ? c->err.max_rel : c->err.rel_fro);
			else
				printf("%13s", "-");
		}
		printf("\n");
	}
}

static void print_text(const acc_plan *p, const acc_cell *cells)
{
	printf("C = A*B, M x N = %lld x %lld, A and B %s (seed %llu), on the %s%s\n", p->M, p->N,
	       p->dist == ACC_UNIFORM ? "uniform in [-1, 1]" : p->dist == ACC_NORMAL ? "normal(0, 1)"
										 : "normal(0, 1) with 1% x 100",
	       p->seed, p->backend == RUN_BACKEND_EMU ? "" : "GPU ", p->gpu);
	printf("reference: C in f64 on the CPU from the same f32 inputs\n");
	print_table(p, cells, 0);
	print_table(p, cells, 1);
	/* each row's reasons, once per distinct message */
	int said = 0;
	for (int f = 0; f < p->nf; f++)
		for (int k = 0; k < p->nk; k++) {
			const acc_cell *c = &cells[f * p->nk + k];
			int dup = 0;
			for (int j = 0; j < k && !dup; j++)
				dup = !cells[f * p->nk + j].ran && !strcmp(cells[f * p->nk + j].msg, c->msg);
			if (c->ran || dup)
				continue;
			if (!said++)
				printf("\n");
			if (!strncmp(c->msg, p->fmt[f]->name, strlen(p->fmt[f]->name)))
				printf("%s\n", c->msg);
			else
				printf("%s at K = %lld: %s\n", p->fmt[f]->name, p->ks[k], c->msg);
		}
}

static void print_plot(const acc_plan *p, const acc_cell *cells)
{
	acc_series s[ACC_MAX_FORMATS];
	for (int f = 0; f < p->nf; f++) {
		s[f].name = p->fmt[f]->name;
		for (int k = 0; k < p->nk; k++) {
			const acc_cell *c = &cells[f * p->nk + k];
			s[f].err[k] = c->ran ? c->err.rel_fro : NAN;
		}
	}
	printf("\n");
	acc_plot(stdout, p->ks, p->nk, s, p->nf, 80);
}

static int cmd_accuracy(const cli_command *self, int argc, char **argv)
{
	accuracy_opts o = {.seed = 1};
	int nargs, rc = cli_parse(self, argc, argv, &o, &nargs);
	if (rc >= 0)
		return rc;
	if (o.json && o.plot) {
		cli_error(self, "--plot draws for a terminal; with --json, leave it out");
		return 2;
	}
	struct sigaction sa = {.sa_handler = on_interrupt}, old_int, old_term;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	acc_plan p;
	rc = plan(self, &o, &p);
	acc_cell *cells = NULL;
	static course lessons; /* large: not on the stack */
	char errs[1024];
	if (rc < 0) {
		course_load(&lessons, errs, sizeof errs); /* a lesson it lacks: its row says so */
		p.course = &lessons;
		cells = xcalloc((size_t)(p.nf * p.nk), sizeof *cells);
		if (admit(self, &p, cells))
			rc = 2;
		else
			rc = measure(&p, cells) ? (interrupted ? 130 : 1) : -1;
	}
	if (isatty(2))
		termsafe_progress(NULL);
	if (rc == 130)
		cli_error(&cli_cmd_accuracy, "cancelled");
	if (rc < 0) {
		if (o.json)
			print_json(&p, cells);
		else
			print_text(&p, cells);
		if (o.plot)
			print_plot(&p, cells);
		rc = 0;
		for (int i = 0; i < p.nf * p.nk; i++)
			rc = cells[i].failed ? 1 : rc;
	}
	free(cells);
	course_free(&lessons);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}
