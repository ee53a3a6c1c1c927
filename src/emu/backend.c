/* emu/backend: run_request → CPU emulator → run_result, so the tutor's run pane and worker need no second protocol. */
#include "emu/backend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "base/util.h"

static void take_counts(const run_request *rq, const emu_result *er, run_emu_counts *c)
{
	const emu_counts *t = &er->total;
	memset(c, 0, sizeof *c);
	c->M = rq->M, c->N = rq->N, c->K = rq->K;
	c->gld_requests = t->gld.requests + t->gcp.requests;
	c->gld_sectors = t->gld.sectors + t->gcp.sectors;
	c->gst_requests = t->gst.requests;
	c->gst_sectors = t->gst.sectors;
	c->sld_requests = t->sld.requests + t->sldsm.requests;
	c->sld_wavefronts = t->sld.wavefronts + t->sldsm.wavefronts;
	c->sld_conflicts = t->sld.bank_conflicts + t->sldsm.bank_conflicts;
	c->sst_requests = t->sst.requests + t->scp.requests;
	c->sst_wavefronts = t->sst.wavefronts + t->scp.wavefronts;
	c->sst_conflicts = t->sst.bank_conflicts + t->scp.bank_conflicts;
	c->inst = t->inst_total;
	c->races = er->races;
	c->tma_l2_bytes = t->tma_l2_bytes;
	c->tma_smem_bytes = t->tma_smem_bytes;
	c->tma_store_bytes = t->tma_store_bytes;
	c->mbarrier_ops = t->mbarrier_ops;
	c->cluster_barriers = t->cluster_barriers;
	c->seconds = er->seconds;
}

/* Which run status a failed emulation is. A module that does not parse never
 * gets here: that is the emulator's JIT error, whatever the reason. */
static run_status failure_status(emu_error why)
{
	static const struct {
		emu_error why;
		run_status st;
	} map[] = {
		{EMU_ERR_PARSE, RUN_JIT_ERROR},
		{EMU_ERR_UNSUPPORTED, RUN_FAULT},   /* at run time: bar.sync with a partial thread count */
		{EMU_ERR_FAULT, RUN_FAULT},         /* out of bounds, misaligned */
		{EMU_ERR_BUDGET, RUN_TIMEOUT},      /* the instruction budget: an endless loop */
		{EMU_ERR_DEADLINE, RUN_TIMEOUT},
		{EMU_ERR_BAD_REQUEST, RUN_BAD_REQUEST},
		{EMU_ERR_CANCELLED, RUN_CANCELLED},
	};
	for (size_t i = 0; i < ARRAY_LEN(map); i++)
		if (map[i].why == why)
			return map[i].st;
	return RUN_FAULT;
}

/* The log of a located problem: the paths whole, and the CUDA line's text under it. */
static void write_log(const run_error *e, char *log, size_t len)
{
	run_error_text(e, log, len);
	char src[sizeof e->cu_text + 16];
	run_error_source(e, src, sizeof src);
	size_t n = strlen(log);
	if (src[0] && n + 1 < len)
		snprintf(log + n, len - n, "\n%s", src);
}

/* What every emulated result starts with. */
static void blank(const run_request *rq, run_result *res)
{
	memset(res, 0, sizeof *res);
	res->backend = RUN_BACKEND_EMU;
	memcpy(res->grid, rq->grid, sizeof res->grid);
	res->verified = -1;
	res->rel_err = NAN;
	res->emu.M = rq->M, res->emu.N = rq->N, res->emu.K = rq->K;
	util_strlcpy(res->gpu, "CPU emulator", sizeof res->gpu);
}

/* The regions' figures and the lines' (rows as emu_run wrote them, at most RUN_MAX_LINES). */
static void take_lines(const emu_result *er, const run_line_counts *lines, run_result *res)
{
	res->nregions = er->nregions < PTX_MAX_REGIONS ? er->nregions : PTX_MAX_REGIONS;
	for (int r = 0; r < res->nregions; r++) {
		run_region_counts *o = &res->regions[r];
		util_strlcpy(o->name, er->regions[r].name, sizeof o->name);
		o->first_line = er->regions[r].first_line;
		o->last_line = er->regions[r].last_line;
		emu_counts_line(&er->regions[r].c, &o->c);
	}
	if (!lines)
		return;
	res->nlines = er->nlines < RUN_MAX_LINES ? er->nlines : RUN_MAX_LINES;
	memcpy(res->lines, lines, (size_t)res->nlines * sizeof *lines);
	res->lines_total = er->lines_total;
}

void emu_backend_result(const run_request *rq, const emu_result *er, const run_line_counts *lines, run_result *res)
{
	blank(rq, res);
	take_counts(rq, er, &res->emu);
	take_lines(er, lines, res);
	if (rq->persistent) /* the grid the emulator sized, as the runner reports the one it launched */
		res->grid[0] = (unsigned)er->blocks, res->grid[1] = res->grid[2] = 1;
	res->rel_err = er->rel_error;
	res->tol = er->tol;
	util_strlcpy(res->consistent_with, er->consistent_with, sizeof res->consistent_with);
	res->verified = er->verified == 1 && !er->races ? 1 : er->verified == -1 ? -1 : 0;
	res->status = res->verified == 0 ? RUN_WRONG : RUN_OK;
	res->ms = er->seconds * 1e3;
	if (er->races) {
		res->where = er->race;
		run_error_format(&res->where, res->msg, sizeof res->msg);
		write_log(&res->where, res->log, sizeof res->log);
	} else {
		util_strlcpy(res->msg, er->msg, sizeof res->msg);
	}
}

void emu_backend_failed(const run_request *rq, emu_error why, const run_error *e, run_result *res)
{
	blank(rq, res);
	res->status = failure_status(why);
	res->where = *e;
	write_log(e, res->log, sizeof res->log);
	run_error_format(e, res->msg, sizeof res->msg);
}

void emu_backend_refused(const run_request *rq, const char *why, run_result *res)
{
	blank(rq, res);
	res->status = RUN_EMU_REFUSED; /* said, not failed: the emulator lacks it, the kernel may be fine */
	util_strlcpy(res->msg, why, sizeof res->msg);
	run_error_msg(&res->where, "%s", why);
}

int emu_backend_refuses(const run_request *rq, run_error *why)
{
	run_error_msg(why, "%s", "");
	if (emu_refuses(rq, NULL, why->msg, sizeof why->msg))
		return 1;
	/* a size the request has (the tutor asks about a kernel before it has one) */
	if (rq->M > 0 && rq->N > 0 && rq->K > 0 && emu_size_refuses(rq, why->msg, sizeof why->msg))
		return 1;
	emu_module *m = emu_module_load_at(rq->ptx_path, NULL, NULL, why);
	if (m) {
		emu_module_free(m);
		return 0;
	}
	return 1;
}
