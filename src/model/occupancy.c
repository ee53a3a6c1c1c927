/* occupancy: blocks per SM from warps, registers, shared memory and the block limit, as the driver computes it. */
#include "model/occupancy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

/* The register file is split between four warp schedulers (sub-partitions)
 * on every architecture since Maxwell; a warp's registers live in one. */
#define OCC_SUBPARTITIONS 4
/* Shared memory is handed out in 128-byte units (sm_70 and later). */
#define OCC_SMEM_UNIT 128
#define OCC_MAX_REGS_PER_THREAD 255

static int round_up(int x, int unit) { return unit > 0 ? (x + unit - 1) / unit * unit : x; }
static int div_up(int a, int b) { return (a + b - 1) / b; }

static void step(occ_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void step(occ_result *r, const char *fmt, ...)
{
	if (r->nsteps >= OCC_MAX_STEPS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->steps[r->nsteps++], OCC_STEP_LEN, fmt, ap);
	va_end(ap);
}

static const char *plural(int n, const char *one, const char *many) { return n == 1 ? one : many; }

/* Stops with blocks_per_sm = 0 and the reason as the last step. */
static int cannot_launch(occ_result *r, const char *limiter)
{
	r->blocks_per_sm = 0;
	r->active_warps = 0;
	r->occupancy = 0;
	r->limiter = limiter;
	return -1;
}

int occ_compute(const gpu_spec *g, const occ_input *in, occ_result *r)
{
	memset(r, 0, sizeof *r);
	r->max_warps = g->max_warps_per_sm;
	r->limiter = "warps";

	if (in->threads <= 0 || in->regs < 0 || in->smem_static < 0 || in->smem_dynamic < 0) {
		step(r, "Invalid input: threads %d, registers %d, shared %d + %d B", in->threads, in->regs,
		     in->smem_static, in->smem_dynamic);
		return cannot_launch(r, "warps");
	}
	if (in->threads > g->max_threads_per_block) {
		step(r, "A block of %d threads cannot launch: the limit is %d threads per block", in->threads,
		     g->max_threads_per_block);
		return cannot_launch(r, "warps");
	}

	/* Warps: the scheduler tracks whole warps, so a partial warp costs a full one. */
	r->warps_per_block = div_up(in->threads, 32);
	step(r, "Warps per block: ceil(%d threads / 32) = %d", in->threads, r->warps_per_block);
	r->limit_warps = g->max_warps_per_sm / r->warps_per_block;
	step(r, "Warp limit: %d warps per SM / %d per block = %d %s", g->max_warps_per_sm, r->warps_per_block,
	     r->limit_warps, plural(r->limit_warps, "block", "blocks"));

	/* Registers: allocated per warp in units, and each warp's registers come
	 * from one scheduler's quarter of the register file. */
	if (in->regs == 0) {
		r->limit_regs = g->max_blocks_per_sm;
		step(r, "Register limit: registers per thread unknown, so no limit is applied");
	} else if (in->regs > OCC_MAX_REGS_PER_THREAD) {
		step(r, "%d registers per thread cannot launch: the limit is %d", in->regs, OCC_MAX_REGS_PER_THREAD);
		return cannot_launch(r, "registers");
	} else {
		int unit = g->warp_alloc_regs > 0 ? g->warp_alloc_regs : 256;
		r->regs_per_warp = round_up(in->regs * 32, unit);
		step(r, "Registers per warp: %d x 32 = %d, rounded up to a multiple of %d = %d", in->regs, in->regs * 32,
		     unit, r->regs_per_warp);
		int per_block = r->regs_per_warp * r->warps_per_block;
		if (per_block > g->regs_per_block) {
			step(r, "Registers per block: %d per warp x %d warps = %d > %d allowed per block: cannot launch",
			     r->regs_per_warp, r->warps_per_block, per_block, g->regs_per_block);
			return cannot_launch(r, "registers");
		}
		int per_sched = g->regs_per_sm / OCC_SUBPARTITIONS;
		int warps_per_sched = per_sched / r->regs_per_warp;
		int warps = warps_per_sched * OCC_SUBPARTITIONS;
		r->limit_regs = warps / r->warps_per_block;
		step(r, "Register limit: %d registers / %d schedulers = %d each; %d / %d = %d warps each; x %d = %d warps per SM; / %d per block = %d %s",
		     g->regs_per_sm, OCC_SUBPARTITIONS, per_sched, per_sched, r->regs_per_warp, warps_per_sched,
		     OCC_SUBPARTITIONS, warps, r->warps_per_block, r->limit_regs,
		     plural(r->limit_regs, "block", "blocks"));
	}

	/* Shared memory: the system reserves some per block (sm_80+), and the
	 * total is allocated in 128-byte units. */
	int asked = in->smem_static + in->smem_dynamic;
	int optin = g->smem_optin > 0 ? g->smem_optin : g->smem_per_block;
	if (asked > optin) {
		step(r, "Shared memory: %d B per block is more than the %d B a block may use: cannot launch", asked, optin);
		return cannot_launch(r, "shared");
	}
	r->smem_per_block = round_up(asked + g->smem_reserved, OCC_SMEM_UNIT);
	r->limit_smem = r->smem_per_block ? g->smem_per_sm / r->smem_per_block : g->max_blocks_per_sm;
	if (r->smem_per_block == 0)
		step(r, "Shared memory limit: none used, so no limit");
	else
		step(r, "Shared memory per block: %d static + %d dynamic + %d reserved = %d B, rounded up to %d B = %d B; limit: %d / %d = %d %s",
		     in->smem_static, in->smem_dynamic, g->smem_reserved, asked + g->smem_reserved, OCC_SMEM_UNIT,
		     r->smem_per_block, g->smem_per_sm, r->smem_per_block, r->limit_smem,
		     plural(r->limit_smem, "block", "blocks"));
	if (asked > g->smem_per_block)
		step(r, "Note: more than %d B per block needs the kernel to opt in (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)",
		     g->smem_per_block);

	r->limit_blocks = g->max_blocks_per_sm;
	step(r, "Block limit: at most %d blocks per SM on sm_%d%d", g->max_blocks_per_sm, g->cc_major, g->cc_minor);

	/* The first limit in this order that reaches the minimum is named; ties
	 * are listed in the step. */
	const struct {
		const char *name;
		int v;
	} lim[] = {
		{"warps", r->limit_warps},
		{"registers", r->limit_regs},
		{"shared", r->limit_smem},
		{"blocks", r->limit_blocks},
	};
	int best = 0;
	for (int i = 1; i < (int)ARRAY_LEN(lim); i++)
		if (lim[i].v < lim[best].v)
			best = i;
	r->blocks_per_sm = lim[best].v;
	r->limiter = lim[best].name;
	char also[64] = "";
	for (int i = 0; i < (int)ARRAY_LEN(lim); i++)
		if (i != best && lim[i].v == lim[best].v) {
			size_t l = strlen(also);
			snprintf(also + l, sizeof also - l, "%s%s", l ? ", " : " (also ", lim[i].name);
		}
	if (also[0])
		strncat(also, ")", sizeof also - strlen(also) - 1);
	step(r, "Blocks per SM: min(%d, %d, %d, %d) = %d, limited by %s%s", r->limit_warps, r->limit_regs,
	     r->limit_smem, r->limit_blocks, r->blocks_per_sm, r->limiter, also);

	r->active_warps = r->blocks_per_sm * r->warps_per_block;
	r->occupancy = r->max_warps ? (double)r->active_warps / r->max_warps : 0;
	step(r, "Occupancy: %d %s x %d warps = %d of %d warps = %.1f%%", r->blocks_per_sm,
	     plural(r->blocks_per_sm, "block", "blocks"), r->warps_per_block, r->active_warps, r->max_warps,
	     100.0 * r->occupancy);
	if (r->blocks_per_sm == 0)
		return -1;
	return 0;
}

void occ_json_fields(json_writer *w, const occ_result *r)
{
	json_int(w, "blocks_per_sm", r->blocks_per_sm);
	json_int(w, "active_warps", r->active_warps);
	json_int(w, "max_warps", r->max_warps);
	json_num(w, "occupancy", r->occupancy);
	json_str(w, "limiter", r->limiter);
	json_obj(w, "limits");
	json_int(w, "warps", r->limit_warps);
	json_int(w, "registers", r->limit_regs);
	json_int(w, "shared", r->limit_smem);
	json_int(w, "blocks", r->limit_blocks);
	json_end(w);
	json_int(w, "warps_per_block", r->warps_per_block);
	json_int(w, "regs_per_warp", r->regs_per_warp);
	json_int(w, "smem_per_block", r->smem_per_block);
	json_arr(w, "steps");
	for (int i = 0; i < r->nsteps; i++)
		json_str(w, NULL, r->steps[i]);
	json_end(w);
}

void occ_json(json_writer *w, const char *key, const occ_result *r)
{
	json_obj(w, key);
	occ_json_fields(w, r);
	json_end(w);
}
