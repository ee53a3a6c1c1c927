/* exec/estimate: a sampled emulation turned into the model's time estimate (see estimate.h). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include "exec/estimate.h"
#include "exec/backend.h"
#include "exec/stalls.h"
#include "course/sass_tools.h"
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

/* A PTX file's registers a thread, for the stall model's occupancy when no lesson recorded them:
 * ptxas's -v for the GPU's arch where ptxas is installed; 0 where not (EXEC_STALLS_REGS is then
 * assumed, and said). */
static int ptxas_regs(const run_request *rq, const gpu_spec *g)
{
	char err[256], arch[16];
	size_t len;
	char *text = util_read_file(rq->ptx_path, &len, err, sizeof err);
	if (!text)
		return 0;
	sass_arch_for(text, g->cc_major, g->cc_minor, arch, sizeof arch);
	free(text);
	sass_job j;
	sass_kernel k;
	sass_kernel_init(&k, rq->entry);
	int regs = 0;
	if (sass_job_start(&j, rq->ptx_path, err, sizeof err) == 0) {
		if (sass_job_ptxas(&j, arch, &k, err, sizeof err) == 0 && k.regs > 0)
			regs = k.regs;
		sass_job_end(&j);
	}
	sass_kernel_free(&k);
	return regs;
}

/* The stall model's SM over the same blocks: its cycles for the busiest SM's share of the grid into
 * in->sm_cycles, or out->latency_why. */
static void latency(const run_request *rq, const gpu_spec *g, int regs, exec_estimate_result *out)
{
	static exec_stalls_result s;
	if (regs <= 0 && (regs = ptxas_regs(rq, g)) > 0)
		out->regs_ptxas = 1;
	if (exec_stalls(rq, g, regs, &s) < 0) {
		snprintf(out->latency_why, sizeof out->latency_why, "%s", s.err);
		return;
	}
	if (s.cut)
		snprintf(out->latency_why, sizeof out->latency_why, "the trace was cut (its warps' tails are missing)");
	else {
		out->has_latency = 1;
		out->sm_cycles = s.r.cycles;
		out->waves = s.r.waves;
		out->blocks_per_sm = s.c.blocks_per_sm;
		out->regs = s.regs;
		out->regs_assumed = s.regs_assumed;
		out->issue_active = s.r.issue_active;
		out->in.sm_cycles = s.r.cycles * s.r.waves;
	}
	out->latency_seconds = s.emu_seconds + s.model_seconds;
	exec_stalls_free(&s);
}

/* The work itself; -1 with err set. */
static int sample(const run_request *rq, const gpu_spec *g, int regs, exec_estimate_result *out, char *err, int errlen)
{
	if (estimate_supported(g, err, errlen) < 0) /* before the blocks run: no use for them */
		return -1;
	dtype ty = rq->dt == DTYPE_NONE ? DTYPE_F32 : rq->dt;
	int f8 = ty == DTYPE_E4M3;
	if (ty == DTYPE_TF32 || (dtype_of(ty)->scaled && !f8)) {
		snprintf(err, (size_t)errlen, "no estimate for %s inputs: the tensor cores' sustained rates were measured "
			 "with f16 operands only (scripts/gpu-ceilings.sh), and %s runs at another rate", dtype_name(ty),
			 dtype_name(ty));
		return -1;
	}
	double t0 = util_now();
	emu_options opt = {.no_verify = 1, .zero_inputs = 1, .footprint = 1, .progress = enough,
			   .deadline_s = rq->deadline_s};
	static emu_result res; /* regions and messages: kilobytes */
	emu_error rc = emu_run(rq, &opt, &res, err, errlen);
	if (rc != EMU_OK && rc != EMU_ERR_CANCELLED)
		return -1;
	if (res.blocks_done <= 0) {
		snprintf(err, (size_t)errlen, "no block finished to estimate from");
		return -1;
	}
	out->blocks_run = res.blocks_done;
	out->seconds = res.seconds;
	estimate_input *in = &out->in;
	per_block(&res, &in->per_block);
	in->blocks = res.blocks;
	in->f8 = f8;
	/* The traced sample shares the deadline: the child is killed at the request's (exec_kill_after). */
	run_request traced = *rq;
	if (rq->deadline_s > 0)
		traced.deadline_s = rq->deadline_s - (util_now() - t0);
	if (rq->deadline_s > 0 && traced.deadline_s <= 0)
		snprintf(out->latency_why, sizeof out->latency_why, "the deadline came before the stall model ran");
	else
		latency(&traced, g, regs, out);
	double esz = dtype_of(rq->dt == DTYPE_NONE ? DTYPE_F32 : rq->dt)->bytes, osz = dtype_of(run_out(rq))->bytes;
	double M = (double)rq->M, N = (double)rq->N, K = (double)rq->K;
	in->dram_bytes = M * K * esz + K * N * esz + M * N * osz * (argspec_blas_of(&rq->args).has_beta ? 2 : 1);
	if (estimate_time(in, g, &out->e) < 0) {
		snprintf(err, (size_t)errlen, "%s", out->e.why);
		return -1;
	}
	for (int t = 0; t < EST_SM_TERMS; t++) {
		double ms = out->e.term_ms[t];
		out->sm_max_ms = ms > out->sm_max_ms ? ms : out->sm_max_ms;
		out->sm_sum_ms += ms;
	}
	return 0;
}

int exec_estimate(const run_request *rq, const gpu_spec *g, int regs, exec_estimate_result *out)
{
	char err[sizeof out->err];
	memset(out, 0, sizeof *out);
	out->rc = sample(rq, g, regs, out, err, sizeof err);
	if (out->rc < 0)
		util_strlcpy(out->err, err, sizeof out->err);
	return out->rc;
}

typedef struct {
	const run_request *rq;
	const gpu_spec *g;
	int regs;
} job_arg;

static void job(const void *arg, void *out)
{
	const job_arg *a = arg;
	setpriority(PRIO_PROCESS, 0, 10); /* background work: the tutor's own process keeps the CPU first */
	exec_estimate(a->rq, a->g, a->regs, out);
}

int exec_estimate_job_start(exec_estimate_job *j, const run_request *rq, const gpu_spec *g, int regs)
{
	job_arg a = {rq, g, regs}; /* read in the child, which has its own copy */
	j->rq = *rq;
	j->regs = regs;
	j->started = util_now();
	memset(&j->out, 0, sizeof j->out);
	if (exec_job_start(&j->job, job, &a, &j->out, sizeof j->out) == 0)
		return 0;
	j->out.rc = -1;
	snprintf(j->out.err, sizeof j->out.err, "cannot start the estimate's process");
	return -1;
}

int exec_estimate_job_poll(exec_estimate_job *j)
{
	int rc = exec_job_poll(&j->job);
	double kill_after = exec_kill_after(&j->rq);
	if (rc == 0 && j->job.pid > 0 && kill_after > 0 && util_now() - j->started > kill_after) {
		exec_job_stop(&j->job);
		j->out.rc = -1;
		snprintf(j->out.err, sizeof j->out.err, "killed after %.0f s (deadline)", kill_after);
		return 1;
	}
	if (rc >= 0)
		return rc;
	j->out.rc = -1;
	snprintf(j->out.err, sizeof j->out.err, "the estimate's process died before it answered");
	return 1;
}
