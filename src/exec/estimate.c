/* exec/estimate: a sampled emulation's counts, per block, and the model's rule over them (see estimate.h). */
#include <stdio.h>
#include <string.h>
#include "exec/estimate.h"
#include "emu/emu.h"
#include "course/argspec.h"
#include "course/dtype.h"
#include "base/util.h"

/* The progress callback: stop once the sample ran (called after each cluster). */
static int enough(void *ctx, const emu_progress *p)
{
	(void)ctx;
	return p->blocks_done >= EXEC_ESTIMATE_BLOCKS;
}

/* The counts of the blocks that ran, per block, as the model reads them. */
static void per_block(const emu_result *res, estimate_block *b)
{
	const emu_counts *c = &res->total;
	double n = (double)res->blocks_done;
	b->inst = (double)(c->inst_total - c->inst_merged) / n; /* as the SASS issues them */
	b->int_inst = (double)c->inst[EMU_CLS_INT] / n;
	b->lsu_wavefronts = (double)(c->gld.wavefronts + c->smem_wavefronts_sass) / n;
	b->mma_flops = (double)c->mma_flops / n;
	b->wgmma_flops = (double)c->wgmma.flops / n;
	b->l2_bytes = 32.0 * (double)(res->footprint_sectors + c->gst.sectors) / n;
	b->tma_bytes = (double)(c->tma_l2_bytes + c->tma_store_bytes) / n;
}

/* What the model cannot estimate, before any block runs; -1 with err set. */
static int supported(const run_request *rq, const gpu_spec *g, char *err, int errlen)
{
	dtype ty = rq->dt == DTYPE_NONE ? DTYPE_F32 : rq->dt;
	int f8 = ty == DTYPE_E4M3;
	if (estimate_supported(g, f8, err, errlen) < 0) /* before the blocks run: no use for them */
		return -1;
	if (ty == DTYPE_TF32 || (dtype_of(ty)->scaled && !f8)) {
		snprintf(err, (size_t)errlen, "no estimate for %s inputs: the tensor cores' sustained rates were measured "
			 "with f16 operands only (scripts/gpu-ceilings.sh), and %s runs at another rate", dtype_name(ty),
			 dtype_name(ty));
		return -1;
	}
	return 0;
}

/* The sample's counts per block into out->in, and the kernel's DRAM bytes; -1 with err set. */
static int counts(const run_request *rq, const emu_result *res, exec_estimate_result *out, char *err, int errlen)
{
	if (res->blocks_done <= 0) {
		snprintf(err, (size_t)errlen, "no block finished to estimate from");
		return -1;
	}
	dtype ty = rq->dt == DTYPE_NONE ? DTYPE_F32 : rq->dt;
	out->blocks_run = res->blocks_done;
	out->seconds = res->seconds;
	estimate_input *in = &out->in;
	per_block(res, &in->per_block);
	in->blocks = res->blocks;
	in->f8 = ty == DTYPE_E4M3;
	double esz = dtype_of(ty)->bytes, osz = dtype_of(run_out(rq))->bytes;
	double M = (double)rq->M, N = (double)rq->N, K = (double)rq->K;
	in->dram_bytes = M * K * esz + K * N * esz + M * N * osz * (argspec_blas_of(&rq->args).has_beta ? 2 : 1);
	return 0;
}

/* The sample run here; -1 with err set. */
static int sample(const run_request *rq, exec_estimate_result *out, char *err, int errlen)
{
	emu_options opt = {.no_verify = 1, .zero_inputs = 1, .footprint = 1, .progress = enough,
			   .deadline_s = rq->deadline_s};
	static emu_result res; /* regions and messages: kilobytes */
	emu_error rc = emu_run(rq, &opt, &res, err, errlen);
	if (rc != EMU_OK && rc != EMU_ERR_CANCELLED)
		return -1;
	return counts(rq, &res, out, err, errlen);
}

/* out->rc and out->err from a step's result. */
static int done(exec_estimate_result *out, int rc, const char *err)
{
	out->rc = rc;
	if (rc < 0)
		util_strlcpy(out->err, err, sizeof out->err);
	return rc;
}

int exec_estimate_supported(const run_request *rq, const gpu_spec *g, exec_estimate_result *out)
{
	char err[sizeof out->err];
	return done(out, supported(rq, g, err, sizeof err), err);
}

int exec_estimate_counts(const run_request *rq, const emu_result *res, exec_estimate_result *out)
{
	char err[sizeof out->err];
	return done(out, counts(rq, res, out, err, sizeof err), err);
}

int exec_estimate_sample(const run_request *rq, const gpu_spec *g, exec_estimate_result *out)
{
	char err[sizeof out->err];
	if (exec_estimate_supported(rq, g, out) < 0)
		return out->rc;
	return done(out, sample(rq, out, err, sizeof err), err);
}

int exec_estimate_rule(const gpu_spec *g, exec_estimate_result *out)
{
	if (estimate_time(&out->in, g, &out->e) < 0) {
		util_strlcpy(out->err, out->e.why, sizeof out->err);
		return out->rc = -1;
	}
	if (*out->e.latency_why) { /* the stall model ran, but its cycles had no clock: the root rule stood in */
		out->has_latency = 0;
		util_strlcpy(out->latency_why, out->e.latency_why, sizeof out->latency_why);
	}
	out->sm_max_ms = out->sm_sum_ms = 0;
	for (int t = 0; t < EST_SM_TERMS; t++) {
		double ms = out->e.term_ms[t];
		out->sm_max_ms = ms > out->sm_max_ms ? ms : out->sm_max_ms;
		out->sm_sum_ms += ms;
	}
	return out->rc = 0;
}
