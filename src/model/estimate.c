/* estimate: a kernel's time from its counts, the stall model's cycles at the power model's clock, and the measured sustained rates (see estimate.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/estimate.h"
#include "model/measured.h"
#include "base/util.h"

/* Each term: its name, its key, and the measured rate it divides by (a row of the measured file). */
static const struct {
	const char *name, *key, *rate;
} terms[EST_NTERMS] = {
	[EST_ISSUE] = {"issue slots", "issue", "measured.ceiling_issue"},
	[EST_INT] = {"integer pipe", "int", "measured.ceiling_int"},
	[EST_LSU] = {"L1/shared wavefronts", "lsu", "measured.ceiling_lsu"},
	/* the tensor pipes at the rate a GEMM's operands allow: random data draws more power than
	 * constant operands, and the 700 W cap lowers the clock (1.3-1.6 GHz, not 1.98) */
	[EST_MMA] = {"mma.sync tensor pipe", "mma", "measured.ceiling_mma_data"},
	[EST_WGMMA] = {"wgmma tensor pipe", "wgmma", "measured.ceiling_wgmma_data"},
	[EST_L2] = {"L2 -> SM", "l2", "measured.ceiling_l2"}, /* and ceiling_tma for the copy engine's bytes */
	[EST_DRAM] = {"DRAM", "dram", "measured.ceiling_dram"},
	/* not a rate: the stall model's cycles at the power model's clock (no row divides it) */
	[EST_LATENCY] = {"latency: the SM's warps wait, as the stall model replays them", "latency", NULL},
};

/* e4m3 tensor FLOPs: the FP8 wgmma test's rate (scripts/gpu-power.cu), in place of ceiling_wgmma_data. */
#define F8_RATE "measured.power_wgmma_f8_rate"

const char *estimate_term_name(estimate_term t)
{
	if (t == EST_SM_TOGETHER) /* the rates are measured; how they combine was chosen (docs/model.md) */
		return "the SM's pipes together (the root of their squares, a rule chosen on lessons 2 and 5)";
	return (unsigned)t < EST_NTERMS ? terms[t].name : "?";
}

const char *estimate_term_key(estimate_term t)
{
	return t == EST_SM_TOGETHER ? "sm" : (unsigned)t < EST_NTERMS ? terms[t].key : "?";
}

/* The rates were measured on one GPU; another has its own clock, memory and power limit. */
static int measured_here(const gpu_spec *g)
{
	return g->cc_major == 9 && g->cc_minor == 0 && g->sms == 132 && strstr(g->name, "H100");
}

int estimate_supported(const gpu_spec *g, int f8, char *why, int len)
{
	double r;
	char err[160];
	if (measured_load(err, sizeof err) < 0) {
		snprintf(why, (size_t)len, "no estimate: %s", err);
		return -1;
	}
	if (!measured_here(g)) {
		snprintf(why, (size_t)len, "no estimate for the %s: the pipe rates were measured on an H100 only "
			 "(scripts/gpu-ceilings.sh makes them)", g->name);
		return -1;
	}
	if (f8 && !(measured_value(0, F8_RATE, &r) == 0 && r > 0)) { /* the words tests/e2e_estimate.sh knows */
		snprintf(why, (size_t)len, "no estimate for e4m3 inputs: the FP8 tensor rate was not measured (%s has no "
			 "power_wgmma_f8_rate row: scripts/gpu-power.sh)", MEASURED_FILE);
		return -1;
	}
	return 0;
}

/* A measured rate by its key ("measured.ceiling_lsu"): 0, or -1 with e->why naming the missing row. */
static int rate_of(const char *key, double *r, estimate *e)
{
	if (measured_value(0, key, r) == 0 && *r > 0)
		return 0;
	snprintf(e->why, sizeof e->why, "no estimate: %s has no %s row", MEASURED_FILE, key + strlen("measured."));
	return -1;
}

/* The stall model's SM in place of the root rule: its cycles (issue, pipes, occupancy, latencies and
 * their overlap, which the root stood in for) at the clock the power cap allows for the kernel's work,
 * and beside it what one simulated SM does not see, L2 and DRAM bandwidth across the GPU. Returns 0, or
 * -1 with e->latency_why when there is no clock to put the cycles at (the root rule stands in). */
static int with_latency(const estimate_input *in, const estimate_block *b, estimate *e)
{
	power_params p;
	char err[160];
	if (power_params_load(&p, err, sizeof err) < 0) {
		snprintf(e->latency_why, sizeof e->latency_why, "no clock for its cycles: %s", err);
		return -1;
	}
	double n = (double)in->blocks;
	power_input pi = {.sm_cycles = in->sm_cycles,
			  .fixed_s = fmax(e->term_ms[EST_L2], e->term_ms[EST_DRAM]) / 1e3,
			  .work = {
				  [PWR_FFMA] = n * b->inst,
				  [PWR_LSU] = n * b->lsu_wavefronts,
				  [PWR_MMA] = n * b->mma_flops,
				  [PWR_WGMMA] = in->f8 ? 0 : n * b->wgmma_flops,
				  [PWR_WGMMA_F8] = in->f8 ? n * b->wgmma_flops : 0,
				  [PWR_L2] = n * (b->l2_bytes + b->tma_bytes), /* the bytes, by the L1 or the copy engine */
				  [PWR_DRAM] = in->dram_bytes,
			  }};
	power_result r;
	if (power_clock(&p, &pi, &r) < 0) {
		snprintf(e->latency_why, sizeof e->latency_why, "no clock for its cycles");
		return -1;
	}
	e->has_clock = 1;
	e->clock_mhz = r.mhz;
	e->clock_max_mhz = p.max_mhz;
	e->clock_capped = r.capped;
	e->power_w = r.watts;
	util_strlcpy(e->clock_missing, p.missing, sizeof e->clock_missing);
	e->term_ms[EST_LATENCY] = 1e3 * in->sm_cycles / (r.mhz * 1e6);
	e->limit = EST_LATENCY;
	for (int t = EST_L2; t <= EST_DRAM; t++)
		if (e->term_ms[t] > e->term_ms[e->limit])
			e->limit = (estimate_term)t;
	e->ms = e->term_ms[e->limit];
	snprintf(e->source, sizeof e->source, "the stall model's cycles at %.0f MHz (%s; power_* rows), L2 and DRAM "
		 "at the sustained rates in %s", r.mhz, r.capped ? "the power cap's clock" : "the highest clock",
		 MEASURED_FILE);
	return 0;
}

int estimate_time(const estimate_input *in, const gpu_spec *g, estimate *e)
{
	memset(e, 0, sizeof *e);
	double rate[EST_NTERMS];
	if (estimate_supported(g, in->f8, e->why, sizeof e->why) < 0)
		return -1;
	double tma_rate;
	for (int t = 0; t < EST_NTERMS; t++)
		if (terms[t].rate && rate_of(in->f8 && t == EST_WGMMA ? F8_RATE : terms[t].rate, &rate[t], e) < 0)
			return -1;
	if (rate_of("measured.ceiling_tma", &tma_rate, e) < 0)
		return -1;
	const estimate_block *b = &in->per_block;
	if (in->blocks <= 0 || !(b->inst > 0)) {
		snprintf(e->why, sizeof e->why, "no estimate: no block ran");
		return -1;
	}
	/* The busiest SM's share of the grid: the pipes are per SM, so an SM
	 * with one block more than another finishes later. */
	double busiest = ceil((double)in->blocks / g->sms), per_sm = g->sms;
	double work[EST_NTERMS] = {
		[EST_ISSUE] = busiest * b->inst * per_sm,
		[EST_INT] = busiest * b->int_inst * per_sm,
		[EST_LSU] = busiest * b->lsu_wavefronts * per_sm,
		[EST_MMA] = busiest * b->mma_flops * per_sm,
		[EST_WGMMA] = busiest * b->wgmma_flops * per_sm,
		/* the copy engine's bytes counted at the L1 path's rate, so one rate divides them all below */
		[EST_L2] = (double)in->blocks * (b->l2_bytes + b->tma_bytes * rate[EST_L2] / tma_rate) / 1e9,
		[EST_DRAM] = in->dram_bytes / 1e9,
	};
	/* The SM's pipes share the warp schedulers: an instruction waiting on a busy pipe holds its warp,
	 * so two pipes near their limit slow each other. How much depends on what the schedulers have to
	 * switch to (warps, independent instructions), which the counts do not say: between the largest
	 * pipe alone (full overlap) and their sum (none), the root of the sum of squares was chosen by
	 * looking at lessons 2 and 5 (docs/model.md). The asynchronous engines (wgmma, the memory levels)
	 * overlap the SM's work: the largest of them and the SM's time decides. */
	double sq = 0;
	estimate_term largest = EST_ISSUE;
	int sm_pipes = 0;
	for (int t = 0; t < EST_LATENCY; t++) {
		e->term_ms[t] = 1e3 * work[t] / rate[t];
		if (t < EST_SM_TERMS) {
			sq += e->term_ms[t] * e->term_ms[t];
			sm_pipes += e->term_ms[t] > 0;
		}
		if (e->term_ms[t] > e->term_ms[largest])
			largest = (estimate_term)t;
	}
	e->sm_ms = sqrt(sq);
	e->ok = 1;
	if (in->sm_cycles > 0 && with_latency(in, b, e) == 0)
		return 0;
	/* An SM pipe's term is never above sm_ms; with two or more at work the root is above each, and
	 * then it, not the largest pipe, sets the number: the label says so. */
	int sm_sets = e->sm_ms > e->term_ms[largest] && sm_pipes > 1;
	e->ms = sm_sets ? e->sm_ms : e->term_ms[largest];
	e->limit = sm_sets ? EST_SM_TOGETHER : largest;
	snprintf(e->source, sizeof e->source, "the sustained rates in %s (scripts/gpu-ceilings.sh)", MEASURED_FILE);
	return 0;
}
