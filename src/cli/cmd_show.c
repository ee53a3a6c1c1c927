/* cmd_show: `ptxtutor show LESSON` — a lesson's model: work, traffic per level, warp view, roofline, occupancy. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "model/devices.h"
#include "base/json.h"
#include "course/lesson.h"
#include "model/model.h"
#include "base/util.h"
#include "run/launch.h"

typedef struct {
	const char *gpu;
	long long size[3];
	expr_env set;
	int json, screen;
} show_opts;

static int cmd_show(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_show = {
	.name = "show",
	.synopsis = {"show LESSON [--gpu NAME] [--size N|M,N,K] [--set KEY=VALUE]... [--json|--screen]"},
	.summary = "a lesson's numbers: intensity, accesses, roofline, occupancy",
	.about = "The lesson's numbers from its cost model: FLOPs; loads and stores per output element\n"
		 "and in total for global memory, shared memory and registers; arithmetic intensity per\n"
		 "level; 32-byte sectors per warp request and shared-memory wavefronts; the roofline\n"
		 "(ridge point, bound, predicted time); occupancy step by step. LESSON is a number (3)\n"
		 "or an id (smem).\n",
	.opts = (const cli_opt[]){
		{.name = "gpu", .kind = CLI_STR, .off = offsetof(show_opts, gpu), .arg = "NAME",
		 .help = "a GPU from `ptxtutor gpus`, or live (default: this GPU, else h100)"},
		{.name = "size", .kind = CLI_SIZE, .off = offsetof(show_opts, size), .arg = "N|M,N,K",
		 .help = "problem size (default 4096)"},
		{.name = "set", .kind = CLI_SET, .off = offsetof(show_opts, set), .arg = "KEY=VAL",
		 .help = "change a lesson parameter for a what-if, e.g. --set TILE=16;\n"
			 "regs=R: the registers per thread (1..255), as in the tutor's t box"},
		{.name = "json", .kind = CLI_FLAG, .off = offsetof(show_opts, json),
		 .help = "print JSON (keys in docs/json.md)"},
		/* main hands `show ... --screen` to the tutor's parser first (it takes the tutor's options) */
		{.name = "screen", .kind = CLI_FLAG, .off = offsetof(show_opts, screen),
		 .help = "print the tutor's screen as text instead, with --width W --height H\n"
						   "--keys KEYS and the tutor's options (`ptxtutor 3 --help`)"},
		{0},
	},
	.notes = "Without --gpu on a machine with an NVIDIA GPU, the live device is used and the\n"
		 "kernel is JIT-compiled for its register count; otherwise registers per thread are\n"
		 "the lesson's recorded ptxas count (regs: in its front matter), labelled so.\n"
		 "Formulas: docs/model.md.\n",
	.max_args = 1,
	.run = cmd_show,
};

/* The lesson's name and parameters, then every key of the model's table
 * (model_json): the keys the prose placeholders use, one schema. */
static void print_json(const lesson *l, const model_result *r)
{
	json_writer w;
	json_begin(&w, stdout);
	json_obj(&w, NULL);
	json_str(&w, "lesson", l->id);
	json_int(&w, "number", l->number);
	json_str(&w, "model", r->model);
	json_obj(&w, "params");
	for (int i = 0; i < l->nparams; i++) {
		long long v = 0;
		expr_get(&r->env, l->params[i].name, &v);
		json_int(&w, l->params[i].name, v);
	}
	json_end(&w);
	model_json(r, &w);
	json_end(&w);
	json_finish(&w);
}

/* One row: a label and a few model keys formatted. */
static void row(const model_result *r, const char *label, const char *k1, const char *n1, const char *k2,
		const char *n2)
{
	char a[64], b[64];
	model_format(r, k1, a, sizeof a);
	printf("  %-13s %s %-20s", label, n1, a);
	if (k2) {
		model_format(r, k2, b, sizeof b);
		printf(" %s %s", n2, b);
	}
	printf("\n");
}

static void print_text(const lesson *l, const model_result *r, int default_gpu)
{
	char v[64], w2[64];
	printf("Lesson %d (%s): %s   [model %s]\n", l->number, l->id, l->title, r->model);
	printf("GPU      %s (sm_%d%d, %d SMs)%s\n", r->gpu.name, r->gpu.cc_major, r->gpu.cc_minor, r->gpu.sms,
	       default_gpu ? "   (default; --gpu NAME for another)" : "");
	printf("Size     M=%lld N=%lld K=%lld", r->M, r->N, r->K);
	if (l->nparams) {
		printf("   params");
		for (int i = 0; i < l->nparams; i++) {
			long long x = 0;
			expr_get(&r->env, l->params[i].name, &x);
			printf(" %s=%lld%s", l->params[i].name, x,
			       x == l->params[i].value ? "" : l->params[i].runtime ? " (what-if)" : " (what-if, model only)");
		}
	}
	printf("\n\n");

	model_format(r, "flops", v, sizeof v);
	printf("Work       %s (2·M·N·K)\n", v);
	printf("Per output element (K=%lld):\n", r->K);
	row(r, "global", "per_output.global_loads", "loads", "per_output.global_stores", "stores");
	row(r, "shared", "per_output.shared_loads", "loads", "per_output.shared_stores", "stores");
	row(r, "registers", "per_output.reg_loads", "reads", "per_output.reg_stores", "acc. updates");
	printf("Whole problem (elements):\n");
	row(r, "global", "total.global_loads", "loads", "total.global_stores", "stores");
	row(r, "shared", "total.shared_loads", "loads", "total.shared_stores", "stores");
	printf("Bytes, whole problem:\n");
	row(r, "global", "bytes.global", "as issued", "bytes.dram_ideal", "ideal DRAM (each input once)");
	row(r, "shared", "bytes.shared", "as issued", NULL, NULL);
	printf("Arithmetic intensity:\n");
	row(r, "global", "ai.global", "as issued", "ai.dram_ideal", "ideal DRAM");
	row(r, "shared", "ai.shared", "as issued", NULL, NULL);
	printf("Warp view (one request in the main loop):\n");
	model_format(r, "sectors_per_request.A", v, sizeof v);
	model_format(r, "sectors_per_request.B", w2, sizeof w2);
	printf("  %-13s A %s, B %s (32-byte sectors per load)\n", "global", v, w2);
	model_format(r, "wavefronts.A", v, sizeof v);
	model_format(r, "wavefronts.B", w2, sizeof w2);
	printf("  %-13s A %s, B %s (wavefronts per read; 1 per 128 B is conflict-free)\n", "shared", v, w2);
	printf("Roofline (%s):\n", r->unit);
	model_format(r, "peak_tflops", v, sizeof v);
	model_format(r, "gpu.bw_gbs", w2, sizeof w2);
	if (isnan(r->ridge)) {
		printf("  %-13s unknown: no peak figures for this GPU in assets/gpus.tsv\n", "ridge");
	} else {
		printf("  %-13s %s / %s = %.2f FLOP/B\n", "ridge", v, w2, r->ridge);
		printf("  %-13s %s-bound if every load went to DRAM (%.2f FLOP/B %s the ridge)\n", "DRAM only",
		       r->regime_if_dram, r->ai_global, r->ai_global < r->ridge ? "below" : "at or above");
	}
	printf("  %-13s `ptxtutor emulate %d --estimate` (a time from the emulator's counts, docs/model.md)\n", "estimate",
	       l->number);
	printf("Lower bound (no run can be faster):\n");
	static const char *const lv[][2] = {{"compute", "bound.compute_ms"}, {"DRAM", "bound.dram_ms"},
					     {"L2", "bound.l2_ms"}, {"L1/shared", "bound.l1_ms"}};
	for (size_t i = 0; i < sizeof lv / sizeof lv[0]; i++) {
		model_format(r, lv[i][1], v, sizeof v);
		printf("  %-13s %s\n", lv[i][0], v);
	}
	model_format(r, "bound.ms", v, sizeof v);
	printf("  %-13s %s, set by %s: %s-bound\n", "bound", v, r->bound_limit, r->regime);
	if (!r->runs)
		printf("Launch: %s\n", r->why_not);
	else
		printf("Launch: %lld blocks (%lld clusters) for %lld tiles, %lld rounds\n", r->launch_blocks,
		       r->launch_clusters, r->blocks, r->launch_rounds);
	printf("Occupancy: %d threads, %d registers [%s], %d + %d B shared per block\n", r->threads,
	       r->regs_per_thread, r->regs_source, r->smem_static, r->smem_dynamic);
	for (int i = 0; i < r->occ.nsteps; i++)
		printf("  %d. %s\n", i + 1, r->occ.steps[i]);
}

/* On a machine with a GPU and no --gpu, the worker (as for every GPU path)
 * JITs the lesson's kernel for the live device: a RUN_KIND_JIT_ONLY request at the
 * size nearest 1024^3 the lesson accepts (registers do not depend on it), or
 * a request that only describes the device when the lesson has no kernel.
 * Returns 1 with live (the caller completes it from the table) and res, or 0
 * when there is no GPU: then the table's default and the recorded registers
 * are used. */
static int ask_gpu(const lesson *l, const expr_env *ov, gpu_spec *live, run_result *res)
{
	run_request rq;
	expr_env env;
	long long near[3];
	char err[256];
	lesson_env(l, ov, 1024, 1024, 1024, &env);
	if (lesson_nearest_size(l, &env, near, err, sizeof err) ||
	    launch_request_for_lesson(l, ov, near[0], near[1], near[2], &rq, err, sizeof err)) {
		launch_request_device(&rq);
	} else {
		launch_target(&rq, RUN_BACKEND_GPU, RUN_KIND_JIT_ONLY, NULL);
	}
	bench_run_one(&rq, "the JIT for the register count", res);
	bench_done();
	if (res->status == RUN_NO_GPU || res->spec.sms == 0)
		return 0;
	*live = res->spec;
	return 1;
}

/* --set regs=R: the registers per thread as a what-if (the tutor's t box
 * offers them beside the lesson's parameters), taken out of the lesson's
 * parameters. Returns 0 (not set), R, or -1 (out of 1..255). */
static int take_regs(expr_env *ov, long long *asked)
{
	for (int i = 0; i < ov->n; i++)
		if (!strcmp(ov->v[i].name, "regs")) {
			*asked = ov->v[i].value;
			ov->v[i] = ov->v[--ov->n];
			return *asked >= 1 && *asked <= 255 ? (int)*asked : -1;
		}
	return 0;
}

static int cmd_show(const cli_command *self, int argc, char **argv)
{
	show_opts o = {.size = {4096, 4096, 4096}};
	int nargs, rc = cli_parse(self, argc, argv, &o, &nargs);
	if (rc >= 0)
		return rc;
	if (o.screen)
		return cmd_screen(&cli_cmd_tutor, argc, argv);
	if (nargs == 0) {
		cli_error(self, "which lesson? (ptxtutor list)");
		return 2;
	}
	long long M = o.size[0], N = o.size[1], K = o.size[2];
	const char *gpu = o.gpu;
	expr_env ov = o.set;
	long long asked = 0;
	int regs = take_regs(&ov, &asked);
	if (regs < 0) {
		cli_error(self, "regs=%lld is out of range (1..255 registers a thread)", asked);
		return 2;
	}
	char msg[1024];
	course c = {0};
	cli_course(&c);
	const lesson *l = cli_lesson(self, &c, argv[1]);
	if (!l) {
		course_free(&c);
		return 2;
	}
	static gpu_table t; /* 32 rows of about 700 bytes */
	static gpu_spec live;
	static run_result jit;
	/* The live GPU, asked through the lesson's own JIT (its registers come with it). */
	int is_live = (!gpu || !strcasecmp(gpu, "live")) && ask_gpu(l, &ov, &live, &jit);
	const gpu_spec *g = cli_gpu(self, gpu, is_live ? &live : NULL, &t, &live);
	if (!g) {
		course_free(&c);
		return 2;
	}
	if (is_live)
		devices_complete(&t, &live);
	static model_result r;
	if (model_compute(l, &ov, M, N, K, g, &r, msg, sizeof msg) < 0) {
		cli_error(self, "%s", msg);
		course_free(&c);
		return 2;
	}
	if (is_live && jit.status == RUN_OK && jit.regs > 0) {
		r.smem_static = jit.smem_static;
		model_set_regs(&r, jit.regs, "JIT on this GPU");
	}
	if (regs > 0)
		model_set_regs(&r, regs, "what-if");
	/* The model holds for any size; the kernel may not: say so, still show. */
	if (lesson_check_size(l, &r.env, msg, sizeof msg) < 0)
		cli_error(self, "note: %s (the kernel would refuse this size)", msg);
	if (o.json)
		print_json(l, &r);
	else
		print_text(l, &r, gpu == NULL && !is_live);
	course_free(&c);
	return 0;
}
