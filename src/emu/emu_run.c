/* emu_run: one emulated launch end to end: inputs, parameters, the grid, the CPU reference and the counts. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/checked.h"
#include "base/rng.h"
#include "base/util.h"
#include "emu/emu_hopper.h"
#include "emu/emu_internal.h"
#include "emu/emu_trace.h"
#include "model/access.h"
#include "model/grid.h"
#include "run/layout.h"
#include "run/verify.h"

static const char *const class_names[EMU_CLS_COUNT] = {
	[EMU_CLS_FP] = "fp", [EMU_CLS_INT] = "int", [EMU_CLS_MOVE] = "move",
	[EMU_CLS_LD_GLOBAL] = "ld_global", [EMU_CLS_ST_GLOBAL] = "st_global",
	[EMU_CLS_LD_SHARED] = "ld_shared", [EMU_CLS_ST_SHARED] = "st_shared",
	[EMU_CLS_CP_ASYNC] = "cp_async", [EMU_CLS_LDMATRIX] = "ldmatrix", [EMU_CLS_MMA] = "mma",
	[EMU_CLS_SHFL] = "shfl", [EMU_CLS_BARRIER] = "barrier", [EMU_CLS_CONTROL] = "control",
	[EMU_CLS_LD_LOCAL] = "ld_local", [EMU_CLS_ST_LOCAL] = "st_local",
};

const char *emu_class_name(emu_class c)
{
	return (unsigned)c < EMU_CLS_COUNT ? class_names[c] : "?";
}

static void smem_add(emu_smem *a, const emu_smem *b)
{
	a->requests += b->requests;
	a->wavefronts += b->wavefronts;
	a->ideal += b->ideal;
	a->bank_conflicts += b->bank_conflicts;
}

void emu_counts_add(emu_counts *a, const emu_counts *b)
{
	for (int i = 0; i < EMU_CLS_COUNT; i++)
		a->inst[i] += b->inst[i];
	a->inst_total += b->inst_total;
	a->thread_inst += b->thread_inst;
	a->gld.requests += b->gld.requests;
	a->gld.sectors += b->gld.sectors;
	a->gld.wavefronts += b->gld.wavefronts;
	a->gst.requests += b->gst.requests;
	a->gst.sectors += b->gst.sectors;
	a->gcp.requests += b->gcp.requests;
	a->gcp.sectors += b->gcp.sectors;
	a->lld.requests += b->lld.requests;
	a->lld.sectors += b->lld.sectors;
	a->lst.requests += b->lst.requests;
	a->lst.sectors += b->lst.sectors;
	smem_add(&a->sld, &b->sld);
	smem_add(&a->sst, &b->sst);
	smem_add(&a->sldsm, &b->sldsm);
	smem_add(&a->scp, &b->scp);
	a->barriers += b->barriers;
	a->wgmma.inst += b->wgmma.inst;
	a->wgmma.flops += b->wgmma.flops;
	a->wgmma.smem_bytes += b->wgmma.smem_bytes;
	a->wgmma.smem_wavefronts += b->wgmma.smem_wavefronts;
	a->tma_l2_bytes += b->tma_l2_bytes;
	a->tma_smem_bytes += b->tma_smem_bytes;
	a->tma_store_bytes += b->tma_store_bytes;
	a->mbarrier_ops += b->mbarrier_ops;
	a->cluster_barriers += b->cluster_barriers;
	a->mma_flops += b->mma_flops;
	a->smem_wavefronts_sass += b->smem_wavefronts_sass;
	a->inst_merged += b->inst_merged;
	a->bytes += b->bytes;
}

void emu_counts_line(const emu_counts *c, run_line_counts *out)
{
	memset(out, 0, sizeof *out);
	out->inst = c->inst_total;
	out->threads = c->thread_inst;
	out->g_requests = c->gld.requests + c->gst.requests + c->gcp.requests;
	out->g_sectors = c->gld.sectors + c->gst.sectors + c->gcp.sectors;
	const emu_smem *s[] = {&c->sld, &c->sst, &c->sldsm, &c->scp};
	for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
		out->s_requests += s[i]->requests;
		out->s_wavefronts += s[i]->wavefronts;
		out->s_conflicts += s[i]->bank_conflicts;
	}
	out->bytes = c->bytes;
}

/* The counts of one static instruction as a count set. */
static void op_counts(const emu_op *o, const emu_opcount *c, emu_counts *out)
{
	memset(out, 0, sizeof *out);
	out->inst[o->cls] = c->issued;
	out->inst_total = c->issued;
	out->thread_inst = c->threads;
	emu_gmem g = {c->requests, c->sectors, o->code == OP_LD || (o->code == OP_WMMA && o->mod <= WM_LOAD_C) ? c->gwave : 0};
	emu_smem s = {c->requests2, c->wavefronts, c->ideal, c->wavefronts - c->ideal};
	switch (o->code) {
	case OP_LD: out->gld = g; out->sld = s; out->lld = (emu_gmem){c->lrequests, c->lsectors, 0}; break;
	case OP_ST: case OP_ATOM: /* issue 39: a read-modify-write counted as its store */
		out->gst = g; out->sst = s; out->lst = (emu_gmem){c->lrequests, c->lsectors, 0}; break;
	case OP_CPASYNC: out->gcp = g; out->scp = s; break;
	case OP_LDMATRIX: out->sldsm = s; break;
	case OP_STMATRIX: out->sst = s; break;
	case OP_BAR: out->barriers = c->issued; break;
	case OP_MMA: out->mma_flops = c->issued * EMU_MMA_FLOPS(o->mod); break;
	case OP_WMMA: /* issue 39: a wmma.mma's FLOPs were summed as it ran (its shape is in k->wmma) */
		if (o->mod == WM_MMA)
			out->mma_flops = c->wg_flops;
		else if (o->mod == WM_STORE_D)
			out->gst = g, out->sst = s;
		else
			out->gld = g, out->sld = s;
		break;
	case OP_WGMMA: out->wgmma = (emu_wgmma_counts){c->wg_inst, c->wg_flops, c->wg_bytes, c->wg_bytes / 128}; break;
	case OP_MBAR: out->mbarrier_ops = c->issued; break;
	case OP_CLUSTER: out->cluster_barriers = o->mod == CL_ARRIVE ? c->issued : 0; break;
	case OP_BULK:
		if (o->mod == BK_LOAD) {
			out->tma_l2_bytes = c->bytes_l2;
			out->tma_smem_bytes = c->bytes_smem;
		} else if (o->mod == BK_STORE) {
			out->tma_store_bytes = c->bytes_l2;
		}
		break;
	default: break;
	}
	out->smem_wavefronts_sass = c->wave_sass;
	out->inst_merged = c->merged;
	/* a cp.async moves its bytes once: counted on the global side */
	out->bytes = c->bytes + (o->code == OP_CPASYNC ? 0 : c->bytes2);
}

static int errf(char *err, int errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int errf(char *err, int errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, (size_t)errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A tensor map the way gpu/runner.c's cuTensorMapEncodeTiled call makes
 * it: the whole matrix as a 2-D tensor, columns innermost, the item's box
 * and swizzle (L2 promotion has no meaning here; out-of-bounds reads fill
 * zeros, as CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE does). */
static int build_tmap(const run_request *rq, const argspec_item *it, const emu_param *p, const emu_buffer *bufs,
		      uint8_t *param, run_error *e)
{
	char tok[ARGSPEC_TOKEN], why[160];
	argspec_format_item(it, tok, sizeof tok);
	if (p->bytes != 128)
		return errf(e->msg, (int)sizeof e->msg, "%s: parameter '%s' is %d bytes; a tensor map (%s) takes 128", rq->ptx_path, p->name,
			    p->bytes, tok);
	char m = it->name;
	run_store st = run_store_of(rq, m); /* its lines are the tensor's rows, whichever major */
	long long rows = st.outer, cols = st.inner;
	if (st.ld != st.inner)
		return errf(e->msg, (int)sizeof e->msg, "--args: %s: the emulator's tensor maps cover tight matrices only "
			    "(%c's leading dimension is %lld, not %lld)", tok, m, st.ld, st.inner);
	int elem = dtype_of(m == 'C' ? run_out(rq) : rq->dt)->bytes;
	emu_tmap t;
	emu_tmap_build(&t, m - 'A', elem, (uint64_t)rows, (uint64_t)cols, it->box, (int)it->swizzle);
	if (!emu_tmap_check(&t, bufs, 3, why, sizeof why))
		return errf(e->msg, (int)sizeof e->msg, "--args: %s: %s", tok, why);
	memcpy(param + p->offset, &t, sizeof t);
	return 0;
}

/* Fills the parameter buffer from the request's parsed list; each item must
 * have the size of the kernel's parameter in its place. */
static int build_params(const run_request *rq, const emu_kernel *k, const emu_buffer *bufs, const float scale[2],
			uint8_t *param, run_error *e)
{
	const argspec *a = argspec_or_default(&rq->args);
	const long long sizes[3] = {rq->M, rq->N, rq->K};
	for (int i = 0; i < a->n; i++) {
		const argspec_item *it = &a->item[i];
		char tok[ARGSPEC_TOKEN];
		argspec_format_item(it, tok, sizeof tok);
		if (i >= k->nparams)
			break;
		const emu_param *p = &k->params[i];
		if (it->kind == ARG_TMAP) {
			if (build_tmap(rq, it, p, bufs, param, e) < 0)
				return -1;
			continue;
		}
		uint64_t v = it->bits;
		if (it->kind == ARG_MATRIX)
			v = (uint64_t)(it->name - 'A' + 1) << EMU_GLOBAL_SHIFT;
		else if (it->kind == ARG_SIZE)
			v = (uint64_t)sizes[strchr("MNK", it->name) - "MNK"];
		else if (it->kind == ARG_LD)
			v = (uint64_t)run_store_of(rq, it->name).ld;
		else if (it->kind == ARG_SCALE) { /* the f32 bits of that input's scale */
			uint32_t u;
			memcpy(&u, &scale[it->name - 'A'], 4);
			v = u;
		}
		if ((int)it->bytes != p->bytes)
			return errf(e->msg, (int)sizeof e->msg, "%s: parameter %d ('%s') of '%s' is %d bytes, the args spec gives %d (%s)",
				    rq->ptx_path, i + 1, p->name, k->name, p->bytes, it->bytes, tok);
		if (p->offset < 0 || !ck_within((uint64_t)p->offset, it->bytes, (uint64_t)k->param_bytes))
			return errf(e->msg, (int)sizeof e->msg, "%s: parameter %d ('%s') lies outside the parameter space", rq->ptx_path,
				    i + 1, p->name); /* the parser lays them out inside; a hand-made kernel may not */
		memcpy(param + p->offset, &v, it->bytes); /* the low bytes: little-endian */
	}
	if (a->n != k->nparams)
		return errf(e->msg, (int)sizeof e->msg, "%s: '%s' takes %d parameters, the args spec gives %d", rq->ptx_path, k->name,
			    k->nparams, a->n);
	return 0;
}

/* A persistent kernel's grid, by model/grid.h's rule (the runner's), with
 * what fits modelled on an H100 SXM: 132 SMs, 233472 bytes of shared memory
 * and 2048 threads an SM, 1 KB of it reserved a block; rq->grid holds the tiles. */
static void persistent_grid(const run_request *rq, emu_launch *L)
{
	/* no tile grid (run --ptx --grid persistent): every cluster that fits, as the runner launches */
	long long tiles = rq->grid[0] ? (long long)L->grid[0] * L->grid[1] * L->grid[2] : 0;
	long long cs = (long long)L->cluster[0] * L->cluster[1] * L->cluster[2];
	long long threads = (long long)L->block[0] * L->block[1] * L->block[2];
	long long smem = (long long)L->k->smem_static + rq->smem + 1024;
	long long per_sm = 233472 / smem < 2048 / threads ? 233472 / smem : 2048 / threads;
	long long fit = 132 * (per_sm < 1 ? 1 : per_sm);
	grid_shape g;
	if (grid_persistent(tiles, cs, cs > 1 ? fit / cs : fit, &g) == 0)
		L->grid[0] = (unsigned)g.blocks;
	L->grid[1] = L->grid[2] = 1;
}

/* One launch of the kernel over the request's grid with the given C;
 * cnt receives the per-instruction counts. end: util_now() after which it
 * stops (the run's one deadline: a check's second launch stays within it); 0: none. */
static emu_error launch_once(const run_request *rq, const emu_options *opt, double end, const emu_module *m,
			     const emu_kernel *k, const uint8_t *param, emu_buffer bufs[3], emu_opcount *cnt, run_printf *printed,
			     emu_launch *L, run_error *e)
{
	*L = (emu_launch){
		.k = k, .path = m->path, .smem_dynamic = rq->smem, .param = param, .mod = m, .printed = printed,
		.bufs = {bufs[0], bufs[1], bufs[2]}, .nbufs = 3, .max_warp_inst = opt->max_warp_inst, .cnt = cnt,
		.progress = opt->progress, .progress_ctx = opt->progress_ctx,
		.deadline = end, .cancel = opt->cancel,
		.footprint = opt->footprint,
	};
	if (!L->max_warp_inst) {
		/* A GEMM needs well under one warp instruction per multiply-add; twice
		 * that bounds a runaway loop to seconds at the sizes the tutor uses. */
		double mnk = (double)rq->M * (double)rq->N * (double)rq->K;
		L->max_warp_inst = (long long)fmin(1e7 + 2 * mnk, 1e10);
	}
	memcpy(L->grid, rq->grid, sizeof L->grid);
	memcpy(L->block, rq->block, sizeof L->block);
	run_cluster(rq, L->cluster);
	if (L->cluster[0] * L->cluster[1] * L->cluster[2] == 1 && k->reqcluster[0]) /* .reqnctapercluster */
		for (int i = 0; i < 3; i++)
			L->cluster[i] = k->reqcluster[i] ? k->reqcluster[i] : 1;
	for (int i = 0; i < 3; i++) {
		if (!L->grid[i])
			L->grid[i] = 1;
		if (!L->block[i])
			L->block[i] = 1;
	}
	if (rq->persistent)
		persistent_grid(rq, L);
	if (!opt->trace)
		return emu_exec_at(L, e);
	unsigned threads = L->block[0] * L->block[1] * L->block[2];
	stall_trace_init(opt->trace, (int)((threads + 31) / 32), k->nregs);
	L->tracer = emu_tracer_new(opt->trace, k);
	emu_error rc = emu_exec_at(L, e);
	emu_tracer_free(L->tracer);
	L->tracer = NULL;
	emu_trace_ops(k, cnt, opt->trace);
	return rc;
}

void emu_record_arm(emu_record *r, const unsigned ctaid[3], int warp)
{
	if (warp != r->warp || memcmp(ctaid, r->block, sizeof r->block))
		return;
	r->armed = r->seen++ == r->nth;
}

void emu_record_take(emu_record *r, int kind, const int64_t addr[32], uint32_t mask, int bytes)
{
	r->armed = 0; /* a cp.async counts its global side first: that one */
	r->found = 1;
	r->kind = kind;
	r->bytes = bytes;
	r->mask = mask;
	int global = kind == ACCESS_GLOBAL_LOAD || kind == ACCESS_GLOBAL_STORE;
	r->buffer = -1;
	for (int l = 0; l < 32; l++) {
		int64_t a = mask >> l & 1 ? addr[l] : 0;
		if (global && (mask >> l & 1) && r->buffer < 0)
			r->buffer = (int)(a >> EMU_GLOBAL_SHIFT) - 1;
		r->addr[l] = global ? a & ((1LL << EMU_GLOBAL_SHIFT) - 1) : a;
	}
}

/* The op of a line that the record asks for: its first memory instruction. */
static int record_op(const emu_kernel *k, int line)
{
	for (int i = 0; i < k->nops; i++) {
		const emu_op *o = &k->ops[i];
		int mem = (o->code == OP_LD || o->code == OP_ST) && o->space != SP_PARAM && o->space != SP_LOCAL;
		if (o->line == line && (mem || o->code == OP_CPASYNC || o->code == OP_LDMATRIX))
			return i;
	}
	return -1;
}

/* Ranks lines by cost, costliest first; by line among equals. */
static int by_cost(const void *pa, const void *pb)
{
	const run_line_counts *a = pa, *b = pb;
	unsigned long long ca = run_line_cost(a), cb = run_line_cost(b);
	return ca != cb ? (ca < cb ? 1 : -1) : a->line - b->line;
}

static int by_line(const void *pa, const void *pb)
{
	return ((const run_line_counts *)pa)->line - ((const run_line_counts *)pb)->line;
}

/* Sums the per-instruction counts by PTX line into opt->lines (emu_options
 * says how a kernel with more lines than max_lines is cut). */
static void take_lines(const emu_kernel *k, const emu_opcount *cnt, const emu_options *opt, emu_result *res)
{
	int maxline = 0;
	for (int i = 0; i < k->nops; i++)
		if (k->ops[i].line > maxline)
			maxline = k->ops[i].line;
	run_line_counts *by = xcalloc((size_t)maxline + 1, sizeof *by);
	char *has = xcalloc((size_t)maxline + 1, 1);
	for (int i = 0; i < k->nops; i++) {
		emu_counts oc;
		run_line_counts lc;
		op_counts(&k->ops[i], &cnt[i], &oc);
		emu_counts_line(&oc, &lc);
		int ln = k->ops[i].line;
		run_line_add(&by[ln], &lc);
		by[ln].regions |= k->ops[i].regions;
		has[ln] = 1;
	}
	int n = 0;
	for (int ln = 0; ln <= maxline; ln++)
		if (has[ln]) {
			by[ln].line = ln;
			by[n++] = by[ln];
		}
	res->lines_total = n;
	if (n > opt->max_lines && opt->max_lines > 0) {
		qsort(by, (size_t)n, sizeof *by, by_cost);
		run_line_counts rest = {0};
		for (int i = opt->max_lines - 1; i < n; i++)
			run_line_add(&rest, &by[i]);
		n = opt->max_lines - 1;
		qsort(by, (size_t)n, sizeof *by, by_line);
		by[n++] = rest;
	}
	if (n > opt->max_lines)
		n = opt->max_lines;
	memcpy(opt->lines, by, (size_t)n * sizeof *by);
	res->nlines = n;
	free(by);
	free(has);
}

/* Sums the per-instruction counts into the kernel's totals and its regions. */
static void take_counts(const emu_module *m, const emu_kernel *k, const emu_opcount *cnt, emu_result *res)
{
	res->nregions = m->nregions;
	for (int r = 0; r < m->nregions; r++) {
		util_strlcpy(res->regions[r].name, m->regions[r].name, sizeof res->regions[r].name);
		res->regions[r].first_line = m->regions[r].first_line;
		res->regions[r].last_line = m->regions[r].last_line;
	}
	for (int i = 0; i < k->nops; i++) {
		emu_counts oc;
		op_counts(&k->ops[i], &cnt[i], &oc);
		emu_counts_add(&res->total, &oc);
		for (uint32_t rm = k->ops[i].regions; rm; rm &= rm - 1)
			emu_counts_add(&res->regions[__builtin_ctz(rm)].c, &oc);
	}
}

/* C as the run starts, in the output type and its layout: random finite C0
 * with beta:, NaN without; its padding (a leading dimension past the tight
 * one) the poison either way. */
static void fill_c(const run_request *rq, void *C, const float *c0)
{
	run_store st = run_store_of(rq, 'C');
	run_store_poison(&st, run_out(rq), C);
	if (c0)
		run_store_put(&st, run_out(rq), c0, C);
}

/* The check (run/verify.c), with the second launch it may ask for. */
static emu_error check(const run_request *rq, const emu_options *opt, double end, const emu_module *m,
		       const emu_kernel *k, const uint8_t *param, emu_buffer bufs[3], const float *af, const float *bf,
		       const float *c0, emu_result *res, run_error *e)
{
	size_t nc = (size_t)rq->M * (size_t)rq->N;
	uint8_t *C = bufs[2].host; /* in the output type and C's layout */
	run_store sc = run_store_of(rq, 'C');
	argspec_blas bl = argspec_blas_of(&rq->args);
	float *ref = verify_reference(rq->M, rq->N, rq->K, af, run_store_of(rq, 'A').col, bf, run_store_of(rq, 'B').col, c0,
				      bl.alpha, bl.beta);
	float *got = xmalloc(nc * sizeof(float)), *got2 = NULL;
	size_t pad = run_store_get(&sc, run_out(rq), C, got);
	verify_input vin = {.rows = (size_t)rq->M, .cols = (size_t)rq->N, .got = got, .ref = ref, .c0 = c0, .tol = res->tol,
			    .out = run_out(rq), .pad_written = pad, .a = af, .b = bf, .a_col = run_store_of(rq, 'A').col,
			    .b_col = run_store_of(rq, 'B').col, .c_col = sc.col, .tight = run_layout_tight(rq),
			    .integer = dtype_of(rq->dt)->integer, .K = rq->K,
			    .alpha = bl.alpha, .beta = bl.beta};
	verify_report rep;
	verify_check(&vin, &rep);
	emu_error rc = EMU_OK;
	if (rep.again) {
		got2 = xmalloc(nc * sizeof(float));
		if (rep.again == VERIFY_AGAIN_C0) {
			verify_second_c0(c0, got2, nc, run_out(rq));
			run_store_put(&sc, run_out(rq), got2, C);
		} else {
			memset(C, 0, bufs[2].bytes);
		}
		emu_opcount *cnt2 = xcalloc((size_t)k->nops, sizeof *cnt2);
		emu_launch L2;
		emu_options o2 = *opt;
		o2.progress = NULL; /* the second launch only decides the verdict */
		o2.trace = NULL;
		rc = launch_once(rq, &o2, end, m, k, param, bufs, cnt2, NULL, &L2, e); /* printf: the first's */
		free(cnt2);
		run_store_get(&sc, run_out(rq), C, got2);
		vin.got2 = got2;
		if (rc == EMU_OK)
			verify_check(&vin, &rep);
	}
	res->rel_error = rep.rel_err;
	res->bad_elems = (long long)rep.bad;
	res->verified = rep.kind == VERIFY_PASS;
	util_strlcpy(res->verify_msg, rep.msg, sizeof res->verify_msg);
	util_strlcpy(res->consistent_with, rep.consistent_with, sizeof res->consistent_with);
	free(ref);
	free(got);
	free(got2);
	return rc;
}

int emu_refuses(const run_request *rq, const char *what, char *err, int errlen)
{
	char why[160];
	if (dtype_pair_check(rq->dt, run_out(rq), why, sizeof why) == 0 && run_check_int_blas(rq, why, sizeof why) == 0)
		return 0;
	errf(err, errlen, "the emulator runs the types a GPU check has a reference for; %s: %s", what ? what : rq->entry, why);
	return -1;
}

int emu_size_refuses(const run_request *rq, char *err, int errlen)
{
	if (rq->M <= 0 || rq->N <= 0 || rq->K <= 0 || rq->M > EMU_MAX_SIDE || rq->N > EMU_MAX_SIDE || rq->K > EMU_MAX_SIDE) {
		errf(err, errlen, "bad size %lldx%lldx%lld (1..%d each)", rq->M, rq->N, rq->K, EMU_MAX_SIDE);
		return -1;
	}
	double esz = dtype_of(rq->dt)->bytes, na = (double)rq->M * (double)rq->K, nb = (double)rq->K * (double)rq->N;
	/* inputs as stored and as f32, C, and the double reference: refused
	 * before anything is allocated rather than aborting out of memory */
	double bytes = (na + nb) * (esz + 4) + (double)rq->M * (double)rq->N * (4.0 + 8.0);
	if (bytes > EMU_MAX_MEMORY) {
		errf(err, errlen, "size %lldx%lldx%lld needs %.1f GiB of buffers, more than the emulator's %.0f GiB", rq->M,
		     rq->N, rq->K, bytes / (1 << 30), (double)EMU_MAX_MEMORY / (1 << 30));
		return -1;
	}
	return 0;
}

/* emu_run without its text: every failure in res->error. */
static emu_error run(const run_request *rq, const emu_options *opt, emu_result *res)
{
	emu_options dflt = {0};
	if (!opt)
		opt = &dflt;
	memset(res, 0, sizeof *res);
	res->verified = -1;
	run_error *e = &res->error;
	e->warp = res->race.warp = -1;
	if (emu_refuses(rq, NULL, e->msg, (int)sizeof e->msg))
		return EMU_ERR_UNSUPPORTED;
	if (emu_size_refuses(rq, e->msg, (int)sizeof e->msg))
		return EMU_ERR_BAD_REQUEST;
	double t0 = util_now(), end = opt->deadline_s > 0 ? t0 + opt->deadline_s : 0; /* the run's one deadline */
	emu_module *own = NULL;
	const emu_module *m = opt->module;
	if (!m) {
		char path[RUN_PATH];
		util_strlcpy(path, rq->ptx_path, sizeof path);
		if (access(path, R_OK) != 0 && path[0] != '/')
			util_path(path, sizeof path, rq->ptx_path);
		emu_error why;
		m = own = emu_module_load_at(path, rq->entry, &why, e);
		if (!m)
			return why;
	}
	const emu_kernel *k = emu_find_kernel(m, rq->entry);
	if (!k) {
		emu_module_no_entry(m, rq->entry, e->msg, (int)sizeof e->msg);
		emu_module_free(own);
		return EMU_ERR_BAD_REQUEST;
	}
	res->local_bytes = k->local_bytes;
	emu_error rc = EMU_ERR_BAD_REQUEST; /* until the launch: the args spec */
	size_t esz = (size_t)dtype_of(rq->dt)->bytes, osz = (size_t)dtype_of(run_out(rq))->bytes;
	/* each matrix in its layout (run/layout.h): na, nb and nc count its padding too */
	run_store sa = run_store_of(rq, 'A'), sb = run_store_of(rq, 'B');
	size_t na = sa.elems, nb = sb.elems, nc = run_store_of(rq, 'C').elems, nlog = (size_t)rq->M * (size_t)rq->N;
	uint8_t *A = xcalloc(na, esz), *B = xcalloc(nb, esz);
	uint8_t *C = xcalloc(nc, osz);
	float *c0 = NULL;
	/* zero_inputs: the values stay 0 and nothing is checked (the estimate counts; filling
	 * 4096^2 inputs would cost more than its sample) */
	int fill = !opt->zero_inputs;
	float *af = fill ? xcalloc(na, sizeof(float)) : NULL, *bf = fill ? xcalloc(nb, sizeof(float)) : NULL;
	uint8_t *param = xcalloc(1, (size_t)k->param_bytes + 8);
	emu_opcount *cnt = xcalloc((size_t)k->nops, sizeof *cnt);
	rng r;
	rng_seed(&r, opt->seed ? opt->seed : 0x9e3779b97f4a7c15ULL);
	float scale[2] = {1.0f, 1.0f}; /* A's and B's per-tensor scales (FP8): scale:A, scale:B */
	if (fill) { /* af and bf: the values the kernel means (an FP8 input's stored x scale) */
		run_make_input(&r, rq->dt, rq->a_host, rq->M, rq->K, sa.col, A, af, &scale[0]);
		run_make_input(&r, rq->dt, rq->b_host, rq->K, rq->N, sb.col, B, bf, &scale[1]);
		run_store_spread(&sa, rq->dt, A);
		run_store_spread(&sb, rq->dt, B);
	}
	if (argspec_blas_of(&rq->args).has_beta) {
		c0 = xcalloc(nlog, sizeof(float));
		if (fill)
			rng_fill(&r, RNG_F32, c0, NULL, nlog);
	}
	if (fill) /* poison without beta: an element the kernel never writes cannot pass (nothing is checked unfilled) */
		fill_c(rq, C, c0);
	emu_buffer bufs[3] = {{A, na * esz}, {B, nb * esz}, {C, nc * osz}};
	emu_launch L;
	if (build_params(rq, k, bufs, scale, param, e) < 0)
		goto out;
	if (opt->record) {
		int op = record_op(k, opt->record->line);
		if (op < 0) {
			util_strlcpy(e->path, m->path, sizeof e->path);
			e->line = opt->record->line;
			util_strlcpy(e->msg, "no global or shared memory access on this line", sizeof e->msg);
			goto out;
		}
		cnt[op].rec = opt->record;
		opt->record->found = 0, opt->record->seen = 0, opt->record->armed = 0;
	}
	rc = launch_once(rq, opt, end, m, k, param, bufs, cnt, &res->printed, &L, e);
	if (rc == EMU_OK && rq->c_host) { /* C as f32 for the accuracy experiment, before a check's second launch */
		run_store sc = run_store_of(rq, 'C');
		run_store_get(&sc, run_out(rq), C, rq->c_host);
	}
	res->blocks = (long long)L.grid[0] * L.grid[1] * L.grid[2];
	res->blocks_done = L.blocks_done;
	res->warps = L.warps;
	res->races = L.races;
	res->footprint_sectors = L.footprint_sectors;
	if (L.races) {
		res->race = L.race;
		emu_loc_fill(m->locs, &res->race);
		run_error_text(&res->race, res->race_msg, sizeof res->race_msg);
	}
	take_counts(m, k, cnt, res); /* a cancelled run keeps what it counted */
	if (opt->lines && opt->max_lines > 0)
		take_lines(k, cnt, opt, res);
	res->seconds = util_now() - t0;
	if (rc != EMU_OK)
		goto out;

	res->tol = run_tolerance(rq->dt, run_out(rq));
	if (fill && !opt->no_verify && (rc = check(rq, opt, end, m, k, param, bufs, af, bf, c0, res, e)) != EMU_OK)
		goto out;
	res->seconds = util_now() - t0;
	if (res->races)
		snprintf(res->msg, sizeof res->msg, "%s", res->race_msg);
	else if (res->verified == 0)
		snprintf(res->msg, sizeof res->msg, "%s", res->verify_msg);
	else
		snprintf(res->msg, sizeof res->msg, "%s", res->verified == 1 ? "verified against the CPU reference" : "ran (not verified)");
	rc = EMU_OK;
out:
	if (rc != EMU_OK)
		emu_loc_fill(m->locs, e);
	free(A);
	free(B);
	free(C);
	free(c0);
	free(af);
	free(bf);
	free(param);
	free(cnt);
	emu_module_free(own);
	return rc;
}

emu_error emu_run(const run_request *rq, const emu_options *opt, emu_result *res, char *err, int errlen)
{
	emu_error rc = run(rq, opt, res);
	if (errlen > 0) {
		err[0] = 0;
		if (rc != EMU_OK)
			run_error_text(&res->error, err, (size_t)errlen);
	}
	return rc;
}
