/* cmd_occupancy: `ptxtutor occupancy` — the occupancy calculator on its own, step by step. */
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "model/devices.h"
#include "base/json.h"
#include "model/occupancy.h"

typedef struct {
	const char *gpu;
	int threads, regs, smem;
	int json;
} occupancy_opts;

static int cmd_occupancy(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_occupancy = {
	.name = "occupancy",
	.synopsis = {"occupancy --gpu NAME --threads T --regs R [--smem BYTES] [--json]"},
	.summary = "occupancy as the driver computes it, step by step",
	.about = "Blocks per SM and occupancy as the CUDA driver computes them, with the working:\n"
		 "the limits from warps, registers (per warp, rounded to 256, over 4 schedulers),\n"
		 "shared memory (plus the bytes reserved per block, in 128-byte units) and the\n"
		 "SM's block limit.\n",
	.opts = (const cli_opt[]){
		{.name = "gpu", .letter = 'g', .kind = CLI_STR, .off = offsetof(occupancy_opts, gpu), .arg = "NAME",
		 .help = "a GPU from `ptxtutor gpus`, or live: this machine's (default: h100)"},
		{.name = "threads", .letter = 't', .kind = CLI_INT, .off = offsetof(occupancy_opts, threads),
		 .arg = "T", .help = "threads per block (required)", .lo = 1, .hi = 1 << 30},
		{.name = "regs", .letter = 'r', .kind = CLI_INT, .off = offsetof(occupancy_opts, regs), .arg = "R",
		 .help = "registers per thread (ptxas -v, or cuFuncGetAttribute; required)", .lo = 0, .hi = 1 << 30},
		{.name = "smem", .letter = 's', .kind = CLI_INT, .off = offsetof(occupancy_opts, smem), .arg = "BYTES",
		 .help = "shared memory per block, static + dynamic (default 0)", .lo = 0, .hi = 1 << 30},
		{.name = "json", .letter = 'j', .kind = CLI_FLAG, .off = offsetof(occupancy_opts, json),
		 .help = "print JSON (keys in docs/json.md)"},
		{0},
	},
	.max_args = 0,
	.run = cmd_occupancy,
};

static int cmd_occupancy(const cli_command *self, int argc, char **argv)
{
	occupancy_opts o = {.threads = -1, .regs = -1};
	int nargs, rc = cli_parse(self, argc, argv, &o, &nargs);
	if (rc >= 0)
		return rc;
	if (o.threads < 0 || o.regs < 0) {
		cli_error(self, "--threads and --regs are required");
		return 2;
	}
	static gpu_table t; /* 32 rows of about 700 bytes */
	gpu_spec live;
	const gpu_spec *g = cli_gpu(self, o.gpu, NULL, &t, &live);
	if (!g)
		return 2;
	occ_input in = {.threads = o.threads, .regs = o.regs, .smem_dynamic = o.smem};
	occ_result r;
	rc = occ_compute(g, &in, &r);
	if (o.json) {
		json_writer w;
		json_begin(&w, stdout);
		json_obj(&w, NULL);
		json_str(&w, "gpu", g->name);
		json_int(&w, "threads", in.threads);
		json_int(&w, "regs", in.regs);
		json_int(&w, "smem", in.smem_dynamic);
		occ_json_fields(&w, &r);
		json_bool(&w, "launchable", rc == 0);
		json_end(&w);
		json_finish(&w);
	} else {
		printf("%s (sm_%d%d): %d threads, %d registers, %d B shared per block\n\n", g->name, g->cc_major,
		       g->cc_minor, in.threads, in.regs, in.smem_dynamic);
		for (int i = 0; i < r.nsteps; i++)
			printf("  %d. %s\n", i + 1, r.steps[i]);
		printf("\n%d %s per SM, %d of %d warps: %.1f%% occupancy, limited by %s\n", r.blocks_per_sm,
		       r.blocks_per_sm == 1 ? "block" : "blocks", r.active_warps, r.max_warps, 100 * r.occupancy,
		       r.limiter);
	}
	return rc == 0 ? 0 : 1;
}
