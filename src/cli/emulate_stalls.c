/* emulate_stalls: the stall model's report per PTX (or CUDA) line, from exec/stalls.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/emulate_stalls.h"
#include "exec/stalls.h"
#include "course/ptxloc.h"
#include "base/json.h"
#include "base/util.h"

#define HOT_LINES 15 /* the text report's lines, the costliest first */

static double line_cycles(const stall_line *l)
{
	double s = 0;
	for (int k = 0; k < STALL_NREASONS; k++)
		s += l->cyc[k];
	return s;
}

/* --by cu: the rows summed per CUDA line (the PTX lines without one apart, as line 0); *cu_file:
 * the .cu nvcc named for the first of them. */
static int sum_by_cu(const stall_result *r, const ptx_locs *locs, stall_line *out, const char **cu_file)
{
	int n = 0;
	*cu_file = NULL;
	for (int i = 0; i < r->nlines; i++) {
		const char *file = NULL;
		int cu = ptx_loc_of(locs, r->lines[i].line, &file), j;
		if (cu && !*cu_file)
			*cu_file = file;
		for (j = 0; j < n && out[j].line != cu; j++)
			;
		if (j == n)
			memset(&out[n++], 0, sizeof *out), out[j].line = cu;
		out[j].issued += r->lines[i].issued;
		for (int k = 0; k < STALL_NREASONS; k++)
			out[j].cyc[k] += r->lines[i].cyc[k];
		for (int f = 0; f < STALL_FOR && r->lines[i].for_line[f]; f++) /* the results' lines as CUDA lines too */
			stall_line_for(&out[j], ptx_loc_of(locs, r->lines[i].for_line[f], NULL), r->lines[i].for_cyc[f]);
	}
	for (int i = 0; i < n; i++)
		out[i].top = stall_top(out[i].cyc);
	return n;
}

static int by_cycles(const void *a, const void *b)
{
	double x = line_cycles(a), y = line_cycles(b);
	return x < y ? 1 : x > y ? -1 : ((const stall_line *)a)->line - ((const stall_line *)b)->line;
}

static void print_json(const exec_stalls_result *s, const char *name, const run_request *rq, const char *gpu,
		       const stall_line *rows, int n, const char *unit)
{
	const stall_result *r = &s->r;
	json_writer w;
	json_begin(&w, stdout);
	json_obj(&w, NULL);
	json_str(&w, "kernel", name);
	json_str(&w, "entry", rq->entry);
	json_str(&w, "gpu", gpu);
	json_int(&w, "M", rq->M), json_int(&w, "N", rq->N), json_int(&w, "K", rq->K);
	json_num(&w, "ms", r->ms);
	json_num(&w, "clock_mhz", s->c.clock_mhz);
	json_str(&w, "clock_from", exec_stalls_clock_keys[s->clock_from]);
	json_num(&w, "cycles", r->cycles);
	json_num(&w, "waves", r->waves);
	json_int(&w, "blocks_per_sm", s->c.blocks_per_sm);
	json_int(&w, "blocks_resident", s->r.blocks);
	json_int(&w, "warps", r->warps);
	json_int(&w, "regs", s->regs);
	json_bool(&w, "regs_assumed", s->regs_assumed);
	json_num(&w, "fma_cycles", s->c.fma_cycles);
	json_bool(&w, "debug_build", s->c.debug);
	json_bool(&w, "debug_sass", s->debug_sass);
	json_num(&w, "warp_cycles_per_issue", r->issued > 0 ? r->warp_cycles / r->issued : 0);
	json_num(&w, "issue_active", r->issue_active);
	json_num(&w, "l1_hit_rate", r->l1_lines > 0 ? r->l1_hits / r->l1_lines : 0);
	json_num(&w, "l1_fill_hit_rate", r->l1_lines > 0 ? r->l1_fill_hits / r->l1_lines : 0);
	json_str(&w, "top", stall_reason_key(stall_top(r->total)));
	json_obj(&w, "total");
	for (int k = 0; k < STALL_NREASONS; k++)
		json_num(&w, stall_reason_key((stall_reason)k), r->total[k]);
	json_end(&w);
	json_obj(&w, "latency");
	for (int k = 0; k < STALL_NLAT; k++)
		json_num(&w, stall_lat_key((stall_lat)k), s->p.lat[k]);
	json_end(&w);
	json_int(&w, "blocks_sampled", s->blocks_run);
	json_bool(&w, "trace_cut", s->cut);
	json_num(&w, "emulate_seconds", s->emu_seconds);
	json_num(&w, "model_seconds", s->model_seconds);
	json_str(&w, "by", unit);
	json_arr(&w, "lines");
	for (int i = 0; i < n; i++) {
		json_obj(&w, NULL);
		json_int(&w, "line", rows[i].line);
		json_num(&w, "issued", rows[i].issued);
		json_num(&w, "cycles", line_cycles(&rows[i]));
		json_str(&w, "top", stall_reason_key(rows[i].top));
		json_obj(&w, "stalls");
		for (int k = 0; k < STALL_NREASONS; k++)
			json_num(&w, stall_reason_key((stall_reason)k), rows[i].cyc[k]);
		json_end(&w);
		json_arr(&w, "waits_for");
		for (int f = 0; f < STALL_FOR && rows[i].for_line[f]; f++) {
			json_obj(&w, NULL);
			json_int(&w, "line", rows[i].for_line[f]);
			json_num(&w, "cycles", rows[i].for_cyc[f]);
			json_end(&w);
		}
		json_end(&w);
		json_end(&w);
	}
	json_end(&w);
	json_end(&w);
	json_finish(&w);
}

static void print_csv(const stall_line *rows, int n, const char *unit)
{
	printf("%s,issued,cycles,top", unit);
	for (int k = 0; k < STALL_NREASONS; k++)
		printf(",%s", stall_reason_key((stall_reason)k));
	printf("\n");
	for (int i = 0; i < n; i++) {
		printf("%d,%.0f,%.0f,%s", rows[i].line, rows[i].issued, line_cycles(&rows[i]), stall_reason_key(rows[i].top));
		for (int k = 0; k < STALL_NREASONS; k++)
			printf(",%.0f", rows[i].cyc[k]);
		printf("\n");
	}
}

/* The text: the kernel's totals, then the costliest lines with their PTX (or CUDA) text. */
static void print_text(const exec_stalls_result *s, const char *name, const run_request *rq, const char *gpu,
		       stall_line *rows, int n, const char *unit, const char *text)
{
	const stall_result *r = &s->r;
	printf("%s at %lldx%lldx%lld on the %s: why each %s line waits (stall model, %d warps on one SM)\n", name, rq->M,
	       rq->N, rq->K, gpu, unit, r->warps);
	printf("  estimate %.3g ms: %.0f cycles a wave x %.0f waves at %.0f MHz (%s)\n", r->ms, r->cycles, r->waves,
	       s->c.clock_mhz, exec_stalls_clock_names[s->clock_from]);
	char fit[48] = "";
	if (r->blocks < s->c.blocks_per_sm) /* a grid smaller than a wave: fewer than fit */
		snprintf(fit, sizeof fit, " (%d fit; the grid has fewer)", s->c.blocks_per_sm);
	printf("  warp cycles per issued instruction %.2f; issue active %.0f%%; %d block%s an SM%s, %d registers a "
	       "thread%s\n",
	       r->issued > 0 ? r->warp_cycles / r->issued : 0, 100 * r->issue_active, r->blocks, r->blocks == 1 ? "" : "s",
	       fit, s->regs, s->regs_assumed ? " (assumed)" : "");
	if (r->l1_lines > 0)
		printf("  L1: %.0f%% of the lines its global loads read were there or on their way (%.0f%% a fill in flight)\n",
		       100 * r->l1_hits / r->l1_lines, 100 * r->l1_fill_hits / r->l1_lines);
	if (s->c.debug)
		printf("  a debug build (.target ..., debug: no optimisation, every SASS instruction holds its warp %d "
		       "cycles)%s\n", STALL_DEBUG_HOLD, s->debug_sass ? ", replayed as its SASS issues" :
		       ": its SASS unknown here (no recording beside it, no ptxas and disassembler), one a PTX instruction");
	printf("  all lines:");
	for (int k = 0; k < STALL_NREASONS; k++)
		if (r->total[k] > 0.005 * r->warp_cycles)
			printf(" %s %.0f%%", stall_reason_name((stall_reason)k), 100 * r->total[k] / r->warp_cycles);
	printf("\n");
	if (s->cut)
		printf("  (the trace was cut at %u instructions: the warps' ends are missing)\n", STALL_MAX_RECS);
	qsort(rows, (size_t)n, sizeof *rows, by_cycles);
	printf("  %6s %6s %8s  %-23s %-23s %-13s %s\n", unit, "cycles", "cyc/inst", "top reason", "then", "waits for", "");
	for (int i = 0; i < n && i < HOT_LINES; i++) {
		double c = line_cycles(&rows[i]);
		double rest[STALL_NREASONS];
		memcpy(rest, rows[i].cyc, sizeof rest);
		rest[rows[i].top] = 0;
		stall_reason second = stall_top(rest);
		char src[96] = "", fors[40] = "";
		if (text)
			ptx_loc_text_line(text, rows[i].line, src, sizeof src);
		for (int f = 0, o = 0; f < STALL_FOR && rows[i].for_line[f] && o < (int)sizeof fors; f++)
			o += snprintf(fors + o, sizeof fors - (size_t)o, "%s%d", f ? " " : "", rows[i].for_line[f]);
		printf("  %6d %5.1f%% %8.1f  %-18s %3.0f%% %-18s %3.0f%%  %-13s %s\n", rows[i].line, 100 * c / r->warp_cycles,
		       rows[i].issued > 0 ? c / rows[i].issued : 0, stall_reason_name(rows[i].top),
		       100 * rows[i].cyc[rows[i].top] / c, rest[second] > 0 ? stall_reason_name(second) : "",
		       rest[second] > 0 ? 100 * rest[second] / c : 0, fors, src);
	}
}

int cli_emulate_stalls(const cli_command *self, const cli_launch *o, const run_request *rq, int regs)
{
	static gpu_table t;
	gpu_spec spec;
	const gpu_spec *g = cli_gpu(self, o->gpu ? o->gpu : "h100", NULL, &t, &spec);
	if (!g)
		return 2;
	static exec_stalls_result s;
	if (exec_stalls_at(rq, g, regs, o->clock, &s) < 0) {
		cli_error(self, "%s", s.err);
		return 2;
	}
	char name[RUN_ENTRY];
	cli_launch_title(o, rq, name, sizeof name);
	int by_cu = o->by && !strcmp(o->by, "cu");
	char err[256];
	size_t len;
	char *text = util_read_file(rq->ptx_path, &len, err, sizeof err);
	ptx_locs *locs = by_cu && text ? ptx_locs_scan(text) : NULL;
	if (by_cu && !locs) {
		cli_error(self, "--by cu: %s has no .loc lines (compile with nvcc -lineinfo)", rq->ptx_path);
		free(text);
		exec_stalls_free(&s);
		return 2;
	}
	stall_line *rows = xcalloc((size_t)s.r.nlines + 1, sizeof *rows);
	int n = s.r.nlines;
	const char *cu_file = NULL;
	char *cu_text = NULL, cu_path[RUN_PATH];
	if (by_cu) {
		n = sum_by_cu(&s.r, locs, rows, &cu_file);
		if (cu_file && ptx_loc_source(cu_file, rq->ptx_path, cu_path, sizeof cu_path) == 0)
			cu_text = util_read_file(cu_path, &len, err, sizeof err); /* NULL: the lines go without their text */
	} else
		memcpy(rows, s.r.lines, (size_t)n * sizeof *rows);
	const char *unit = by_cu ? "cu_line" : "line";
	if (o->json)
		print_json(&s, name, rq, g->name, rows, n, unit);
	else if (o->csv)
		print_csv(rows, n, unit);
	else
		print_text(&s, name, rq, g->name, rows, n, by_cu ? "CUDA" : "PTX", by_cu ? cu_text : text);
	free(rows);
	free(cu_text);
	ptx_locs_free(locs);
	free(text);
	exec_stalls_free(&s);
	return 0;
}
