/* cmd_occupancy: `ptxtutor occupancy` — the occupancy calculator on its own, step by step. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "model/devices.h"
#include "base/json.h"
#include "model/occupancy.h"

static const char details[] =
	"Blocks per SM and occupancy as the CUDA driver computes them, with the working:\n"
	"the limits from warps, registers (per warp, rounded to 256, over 4 schedulers),\n"
	"shared memory (plus the bytes reserved per block, in 128-byte units) and the\n"
	"SM's block limit.\n\n"
	"  --gpu NAME      a GPU from `ptxtutor gpus` (default: h100)\n"
	"  --threads T     threads per block\n"
	"  --regs R        registers per thread (ptxas -v, or cuFuncGetAttribute)\n"
	"  --smem BYTES    shared memory per block, static + dynamic (default 0)\n"
	"  --json          print JSON (keys in docs/json.md)\n";

static int parse_int(const char *opt, const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < 0 || v > (1 << 30)) {
		fprintf(stderr, "ptxtutor occupancy: %s wants a non-negative integer, not '%s'\n", opt, s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int cmd_occupancy(const cli_command *self, int argc, char **argv)
{
	static const struct option opts[] = {
		{"gpu", required_argument, 0, 'g'},   {"threads", required_argument, 0, 't'},
		{"regs", required_argument, 0, 'r'},  {"smem", required_argument, 0, 's'},
		{"json", no_argument, 0, 'j'},        {"help", no_argument, 0, 'h'},
		{0},
	};
	const char *gpu = NULL;
	int json = 0, ch, have_threads = 0, have_regs = 0;
	occ_input in = {0};
	optind = 1;
	while ((ch = getopt_long(argc, argv, "g:t:r:s:jh", opts, NULL)) != -1) {
		switch (ch) {
		case 'g': gpu = optarg; break;
		case 't': if (parse_int("--threads", optarg, &in.threads)) return 2; have_threads = 1; break;
		case 'r': if (parse_int("--regs", optarg, &in.regs)) return 2; have_regs = 1; break;
		case 's': if (parse_int("--smem", optarg, &in.smem_dynamic)) return 2; break;
		case 'j': json = 1; break;
		case 'h': cli_usage(self, stdout, details); return 0;
		default: cli_usage(self, stderr, details); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ptxtutor occupancy: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (!have_threads || !have_regs) {
		fprintf(stderr, "ptxtutor occupancy: --threads and --regs are required\n");
		cli_usage(self, stderr, details);
		return 2;
	}
	static gpu_table t;
	char msg[512];
	if (devices_load(&t, msg, sizeof msg) < 0) {
		fprintf(stderr, "ptxtutor: %s\n", msg);
		return 1;
	}
	const gpu_spec *g = gpu ? devices_find(&t, gpu, msg, sizeof msg) : devices_default(&t);
	if (!g) {
		fprintf(stderr, "ptxtutor occupancy: %s\n", gpu ? msg : "no GPU table");
		return 2;
	}
	occ_result r;
	int rc = occ_compute(g, &in, &r);
	if (json) {
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
