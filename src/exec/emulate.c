/* exec/emulate: the emulator row's run — options from the request (its deadline, the per-line rows), the probe's admission, progress and cancel, and the counts by kind. */
#include "exec/emulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "emu/backend.h"
#include "emu/emu.h"
#include "run/launch.h"

_Static_assert(RUN_INST_CLASSES == EMU_CLS_COUNT, "run_emu_kinds.inst has a slot per emu_class");

/* What the progress hook knows and decided. */
typedef struct {
	const run_request *rq;
	const exec_run_opts *opt;
	int decided, cancelled;
	double estimate_s;
	char refused[320];          /* the probe's verdict when past the deadline */
} watch;

static int on_block(void *ctx, const emu_progress *p)
{
	watch *w = ctx;
	if (w->opt && w->opt->cancel && *w->opt->cancel) {
		w->cancelled = 1;
		return 1;
	}
	if (!w->decided && (p->seconds >= EXEC_PROBE_S || p->blocks_done == p->blocks)) {
		/* from the probe: warp instructions per block, and their rate */
		w->decided = 1;
		double per_block = (double)p->inst / (double)p->blocks_done;
		unsigned long long inst = (unsigned long long)(per_block * (double)p->blocks);
		w->estimate_s = p->inst ? p->seconds * (double)inst / (double)p->inst : 0;
		if (p->blocks_done < p->blocks &&
		    launch_admit(w->rq, w->estimate_s, inst, p->blocks_done, p->blocks, w->refused, sizeof w->refused))
			return 1;
	}
	if (w->opt && w->opt->progress) {
		exec_progress e = {p->blocks_done, p->blocks, p->seconds, w->estimate_s};
		w->opt->progress(w->opt->ctx, &e);
	}
	return 0;
}

static void gkind(const emu_gmem *g, run_gkind *k)
{
	k->requests = (long long)g->requests, k->sectors = (long long)g->sectors;
}

static void skind(const emu_smem *s, run_skind *k)
{
	k->requests = (long long)s->requests, k->wavefronts = (long long)s->wavefronts;
	k->bank_conflicts = (long long)s->bank_conflicts;
}

/* The emulator's counts by kind as the result carries them (run.h). */
static void take_kinds(const emu_counts *c, run_emu_kinds *k)
{
	gkind(&c->gld, &k->gld), gkind(&c->gst, &k->gst), gkind(&c->gcp, &k->gcp);
	gkind(&c->lld, &k->lld), gkind(&c->lst, &k->lst);
	skind(&c->sld, &k->sld), skind(&c->sst, &k->sst), skind(&c->sldsm, &k->sldsm), skind(&c->scp, &k->scp);
	for (int i = 0; i < RUN_INST_CLASSES; i++)
		k->inst[i] = (long long)c->inst[i];
	k->thread_inst = (long long)c->thread_inst;
	k->barriers = (long long)c->barriers;
	k->wgmma_inst = (long long)c->wgmma.inst, k->wgmma_flops = (long long)c->wgmma.flops;
	k->wgmma_smem_bytes = (long long)c->wgmma.smem_bytes;
	k->wgmma_smem_wavefronts = (long long)c->wgmma.smem_wavefronts;
}

/* The emulation, once the module parsed; fills res. */
static void emulate(const run_request *rq, const exec_run_opts *opt, const emu_module *m, run_result *res)
{
	watch w = {.rq = rq, .opt = opt};
	run_line_counts *lines = xcalloc(RUN_MAX_LINES, sizeof *lines);
	/* the emulator reads the cancel flag inside a block, on a time basis
	 * (Ctrl-C within a second); on_block reads it between blocks too */
	emu_options o = {.module = m, .lines = lines, .max_lines = RUN_MAX_LINES, .progress = on_block,
			 .progress_ctx = &w, .deadline_s = rq->deadline_s, .cancel = opt ? opt->cancel : NULL};
	emu_result *er = xcalloc(1, sizeof *er);
	emu_error why = emu_run(rq, &o, er, NULL, 0);
	if (why == EMU_ERR_CANCELLED && w.refused[0]) {
		run_error_msg(&er->error, "%s", w.refused);
		emu_backend_failed(rq, EMU_ERR_DEADLINE, &er->error, res);
	} else if (why == EMU_ERR_CANCELLED) {
		run_error_msg(&er->error, "stopped by Ctrl-C after %lld of %lld blocks, %llu warp instructions, %.1f s",
			      er->blocks_done, er->blocks, er->total.inst_total, er->seconds);
		emu_backend_failed(rq, why, &er->error, res);
	} else if (why == EMU_ERR_DEADLINE) {
		/* said as the worker says a kill, with where the kernel was */
		char at[RUN_PATH + 64];
		emu_backend_failed(rq, why, &er->error, res);
		run_error_format(&res->where, at, sizeof at);
		snprintf(res->msg, sizeof res->msg, "stopped after %.3g s (deadline); %.200s", rq->deadline_s, at);
	} else if (why != EMU_OK) {
		emu_backend_failed(rq, why, &er->error, res);
	} else {
		emu_backend_result(rq, er, lines, res);
		res->emu.warps = er->warps;
		take_kinds(&er->total, &res->emu.by_kind);
		for (int r = 0; r < res->nregions; r++)
			take_kinds(&er->regions[r].c, &res->regions[r].by_kind);
	}
	res->printed = er->printed;
	res->local_bytes = er->local_bytes; /* as the driver's cuFuncGetAttribute says it of a GPU run */ /* what the kernel printed, a fault's run too: the lines before an assert */
	free(er);
	free(lines);
}

void exec_emulate(const run_request *rq, const exec_run_opts *opt, run_result *res)
{
	char err[RUN_LOG / 2];
	if (emu_refuses(rq, NULL, err, sizeof err)) {
		emu_backend_refused(rq, err, res);
		return;
	}
	run_error e;
	emu_module *m = emu_module_load_at(rq->ptx_path, NULL, NULL, &e);
	if (!m) {
		emu_backend_failed(rq, EMU_ERR_PARSE, &e, res); /* the emulator's JIT error */
		return;
	}
	emulate(rq, opt, m, res);
	emu_module_free(m);
}
