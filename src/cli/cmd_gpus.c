/* cmd_gpus: `ptxtutor gpus` — the built-in GPU table, as text or JSON. */
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "model/devices.h"
#include "base/json.h"

typedef struct {
	int json;
} gpus_opts;

static int cmd_gpus(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_gpus = {
	.name = "gpus",
	.synopsis = {"gpus [--json]"},
	.summary = "the built-in GPU models (assets/gpus.tsv)",
	.about = "The GPU models in assets/gpus.tsv that --gpu NAME picks from: compute capability,\n"
		 "SMs, peaks (FP32 and tensor cores, f16 in / f32 accumulate, dense), bandwidth, the\n"
		 "FP32 ridge point, and the per-SM limits occupancy uses. NAME is a key (h100, a100-40)\n"
		 "or part of a name (\"4090\"), case-insensitive; `a100` is the 80 GB card; `live` is\n"
		 "the GPU of this machine, read through its driver.\n",
	.opts = (const cli_opt[]){
		{.name = "json", .letter = 'j', .kind = CLI_FLAG, .off = offsetof(gpus_opts, json),
		 .help = "print JSON (keys in docs/json.md)"},
		{0},
	},
	.run = cmd_gpus,
};

static int cmd_gpus(const cli_command *self, int argc, char **argv)
{
	gpus_opts o = {0};
	int nargs, rc = cli_parse(self, argc, argv, &o, &nargs);
	if (rc >= 0)
		return rc;
	static gpu_table t; /* 32 rows of about 700 bytes */
	char err[256];
	if (devices_load(&t, err, sizeof err) < 0) {
		cli_error(self, "%s", err);
		return 1;
	}
	if (o.json) {
		json_writer w;
		json_begin(&w, stdout);
		json_arr(&w, NULL);
		for (int i = 0; i < t.n; i++) {
			const gpu_spec *g = &t.g[i];
			char cc[16];
			snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
			json_obj(&w, NULL);
			json_str(&w, "key", g->key);
			json_str(&w, "name", g->name);
			json_str(&w, "cc", cc);
			json_int(&w, "sms", g->sms);
			json_int(&w, "clock_mhz", g->clock_mhz);
			json_num(&w, "fp32_tflops", g->fp32_tflops);
			json_num(&w, "tensor_tflops", g->tensor_tflops);
			json_num(&w, "tf32_tflops", g->tf32_tflops);
			json_num(&w, "fp8_tflops", g->fp8_tflops);
			json_num(&w, "bw_gbs", g->bw_gbs);
			json_num(&w, "ridge_fp32", g->fp32_tflops * 1e3 / g->bw_gbs);
			json_num(&w, "ridge_tensor", g->tensor_tflops * 1e3 / g->bw_gbs);
			json_int(&w, "l2_kb", g->l2_kb);
			json_int(&w, "smem_per_sm", g->smem_per_sm);
			json_int(&w, "smem_per_block", g->smem_per_block);
			json_int(&w, "smem_optin", g->smem_optin);
			json_int(&w, "smem_reserved", g->smem_reserved);
			json_int(&w, "regs_per_sm", g->regs_per_sm);
			json_int(&w, "regs_per_block", g->regs_per_block);
			json_int(&w, "max_threads_per_sm", g->max_threads_per_sm);
			json_int(&w, "max_threads_per_block", g->max_threads_per_block);
			json_int(&w, "max_warps_per_sm", g->max_warps_per_sm);
			json_int(&w, "max_blocks_per_sm", g->max_blocks_per_sm);
			json_int(&w, "warp_alloc_regs", g->warp_alloc_regs);
			json_str(&w, "source", g->source);
			json_end(&w);
		}
		json_end(&w);
		json_finish(&w);
		return 0;
	}
	printf("%-9s %-35s %-4s %4s %5s %6s %7s %6s %6s %6s %7s %6s %5s\n", "key", "name", "cc", "SMs", "MHz",
	       "FP32TF", "tensTF", "GB/s", "ridge", "L2 MB", "smem/SM", "warps", "blks");
	for (int i = 0; i < t.n; i++) {
		const gpu_spec *g = &t.g[i];
		char cc[16];
		snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
		printf("%-9s %-35s %-4s %4d %5d %6.1f %7.1f %6.0f %6.1f %6.0f %6dK %6d %5d\n", g->key, g->name, cc, g->sms,
		       g->clock_mhz, g->fp32_tflops, g->tensor_tflops, g->bw_gbs, g->fp32_tflops * 1e3 / g->bw_gbs,
		       g->l2_kb / 1024.0, g->smem_per_sm / 1024, g->max_warps_per_sm, g->max_blocks_per_sm);
	}
	printf("\nridge = FP32 peak / bandwidth (FLOP/B); tensor = f16 in, f32 accumulate, dense. "
	       "Sources: ptxtutor gpus --json, or assets/gpus.tsv.\n");
	return 0;
}
