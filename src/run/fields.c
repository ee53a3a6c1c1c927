/* run/fields: the table of a run's figures and the one function that writes each. */
#include "run/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/util.h"

#define R(f) offsetof(run_report, f)
static const run_field fields[] = {
	{"entry", RUN_T_STR, R(entry), RUN_F_TEXT, "the kernel's entry"},
	{"ptx", RUN_T_STR, R(ptx), RUN_F_TEXT, "the PTX file it ran (the student's copy when edited)"},
	{"status", RUN_T_STR, R(status), RUN_F_TEXT, "ok, wrong result, GPU too old, the emulator cannot run it, ..."},
	{"message", RUN_T_STR, R(message), RUN_F_TEXT, "the run's one line"},
	{"backend", RUN_T_STR, R(backend), RUN_F_TEXT, "who ran it: GPU or CPU emulator"},
	{"gpu", RUN_T_STR, R(gpu), RUN_F_TEXT, "the device (\"CPU emulator\" for an emulation)"},
	{"M", RUN_T_LL, R(M), RUN_F_COUNT, "rows of A and C"},
	{"N", RUN_T_LL, R(N), RUN_F_COUNT, "columns of B and C"},
	{"K", RUN_T_LL, R(K), RUN_F_COUNT, "the shared dimension"},
	{"dtype", RUN_T_STR, R(dtype), RUN_F_TEXT, "A's and B's type"},
	{"out", RUN_T_STR, R(out), RUN_F_TEXT, "C's type"},
	{"registers", RUN_T_LL, R(registers), RUN_F_COUNT, "registers per thread (driver, after the JIT)"},
	{"smem_static", RUN_T_LL, R(smem_static), RUN_F_COUNT, "static shared memory, bytes"},
	{"smem_dynamic", RUN_T_LL, R(smem_dynamic), RUN_F_COUNT, "dynamic shared memory, bytes"},
	{"local_bytes", RUN_T_LL, R(local_bytes), RUN_F_COUNT, "local memory per thread, bytes"},
	{"blocks_per_sm", RUN_T_LL, R(blocks_per_sm), RUN_F_COUNT, "resident blocks per SM (driver)"},
	{"ms", RUN_T_DBL, R(ms), RUN_F_MS, "our kernel's median time"},
	{"gflops", RUN_T_DBL, R(gflops), RUN_F_SIG, "our kernel's GFLOP/s"},
	{"cublas_ms", RUN_T_DBL, R(cublas_ms), RUN_F_MS, "cuBLAS's median time in the same run"},
	{"cublas_gflops", RUN_T_DBL, R(cublas_gflops), RUN_F_SIG, "cuBLAS's GFLOP/s"},
	{"pct_of_cublas", RUN_T_DBL, R(pct_of_cublas), RUN_F_PCT, "ours as a percentage of cuBLAS"},
	{"reference", RUN_T_STR, R(reference), RUN_F_TEXT, "the reference: the library's call, or with bench --reference best the cuBLASLt kernel kept"},
	{"sm_mhz", RUN_T_DBL, R(sm_mhz), RUN_F_SIG, "the SM clock our timed blocks ran at (NVML, median; absent when unknown)"},
	{"pct_of_peak", RUN_T_DBL, R(pct_of_peak), RUN_F_PCT, "ours as a percentage of the peak for these types at that clock"},
	{"cublas_pct_of_peak", RUN_T_DBL, R(cublas_pct_of_peak), RUN_F_PCT, "the reference's, against the same peak (at our clock)"},
	{"speedup", RUN_T_DBL, R(speedup), RUN_F_TIMES, "over the previous lesson of the same types (bench)"},
	{"rel_error", RUN_T_DBL, R(rel_error), RUN_F_RELERR, "||C - ref|| / ||ref||"},
	{"tolerance", RUN_T_DBL, R(tolerance), RUN_F_TOL, "the largest rel_error that passes"},
	{"consistent_with", RUN_T_STR, R(consistent_with), RUN_F_TEXT,
	 "a wrong result by a small margin: the precision mistake its values match (\"an f16 accumulator\"); absent otherwise"},
	{"verified", RUN_T_VERDICT, R(verified), RUN_F_VERDICT, "true, false, or null when not checked"},
	{"repeats", RUN_T_LL, R(repeats), RUN_F_COUNT, "timed rounds: a block of ours, then a block of cuBLAS"},
	{"block", RUN_T_LL, R(block), RUN_F_COUNT, "our launches back to back in one timed block"},
	{"cublas_block", RUN_T_LL, R(cublas_block), RUN_F_COUNT, "cuBLAS's calls back to back in one timed block"},
	{"spread", RUN_T_DBL, R(spread), RUN_F_PCT, "ours: (slowest - fastest round) / median"},
	{"cublas_spread", RUN_T_DBL, R(cublas_spread), RUN_F_PCT, "cuBLAS's: (slowest - fastest round) / median"},
	{"timing", RUN_T_STR, R(timing), RUN_F_TEXT, "how the two were timed: steady (after a warm-up) or burst (after idling)"},
	{"jit_log", RUN_T_STR, R(jit_log), RUN_F_TEXT, "the JIT's log, only on a JIT error"},
	{"emu.global_loads.requests", RUN_T_LL, R(gld_requests), RUN_F_COUNT, "global load requests (cp.async reads included)"},
	{"emu.global_loads.sectors", RUN_T_LL, R(gld_sectors), RUN_F_COUNT, "32-byte sectors they touch"},
	{"emu.global_loads.sectors_per_request", RUN_T_DBL, R(gld_per_request), RUN_F_SIG, "4 is coalesced f32, 32 is one sector a lane"},
	{"emu.global_stores.requests", RUN_T_LL, R(gst_requests), RUN_F_COUNT, "global store requests"},
	{"emu.global_stores.sectors", RUN_T_LL, R(gst_sectors), RUN_F_COUNT, "32-byte sectors they touch"},
	{"emu.global_stores.sectors_per_request", RUN_T_DBL, R(gst_per_request), RUN_F_SIG, "sectors per store request"},
	{"emu.shared_loads.requests", RUN_T_LL, R(sld_requests), RUN_F_COUNT, "shared load requests (ldmatrix included)"},
	{"emu.shared_loads.wavefronts", RUN_T_LL, R(sld_wavefronts), RUN_F_COUNT, "wavefronts they take"},
	{"emu.shared_loads.wavefronts_per_request", RUN_T_DBL, R(sld_per_request), RUN_F_SIG, "1 is conflict-free"},
	{"emu.shared_loads.bank_conflicts", RUN_T_LL, R(sld_conflicts), RUN_F_COUNT, "extra wavefronts from bank conflicts"},
	{"emu.shared_stores.requests", RUN_T_LL, R(sst_requests), RUN_F_COUNT, "shared store requests (cp.async writes included)"},
	{"emu.shared_stores.wavefronts", RUN_T_LL, R(sst_wavefronts), RUN_F_COUNT, "wavefronts they take"},
	{"emu.shared_stores.wavefronts_per_request", RUN_T_DBL, R(sst_per_request), RUN_F_SIG, "1 is conflict-free"},
	{"emu.shared_stores.bank_conflicts", RUN_T_LL, R(sst_conflicts), RUN_F_COUNT, "extra wavefronts from bank conflicts"},
	{"emu.instructions", RUN_T_LL, R(inst), RUN_F_COUNT, "warp-level instructions issued"},
	{"emu.races", RUN_T_LL, R(races), RUN_F_COUNT, "races (shared memory, async copies, clusters, blocks, warp masks)"},
	{"emu.tma.l2_bytes", RUN_T_LL, R(tma_l2_bytes), RUN_F_COUNT, "bytes TMA loads read from L2 (a multicast copy once)"},
	{"emu.tma.smem_bytes", RUN_T_LL, R(tma_smem_bytes), RUN_F_COUNT, "bytes TMA loads write into shared memory (once per destination block)"},
	{"emu.tma.store_bytes", RUN_T_LL, R(tma_store_bytes), RUN_F_COUNT, "bytes TMA stores write to global memory"},
	{"emu.mbarrier_ops", RUN_T_LL, R(mbarrier_ops), RUN_F_COUNT, "mbarrier instructions issued, per warp"},
	{"emu.cluster_barriers", RUN_T_LL, R(cluster_barriers), RUN_F_COUNT, "barrier.cluster.arrive issued, per warp"},
	{"emu.seconds", RUN_T_DBL, R(emu_seconds), RUN_F_SECONDS, "the emulation's wall time"},
	{"emu.warps", RUN_T_LL, R(warps), RUN_F_COUNT, "warps launched"},
};
#undef R

#define K(f) offsetof(run_emu_kinds, f)
#define G(name, m, what) {name ".requests", K(m.requests), what " requests"}, {name ".sectors", K(m.sectors), "32-byte sectors they touch"}
#define S(name, m, what) {name ".requests", K(m.requests), what " requests"}, {name ".wavefronts", K(m.wavefronts), "wavefronts they take"}, \
	{name ".bank_conflicts", K(m.bank_conflicts), "extra wavefronts from bank conflicts"}
/* The instruction classes in emu_class's order (test_report checks the names against emu_class_name). */
static const run_kind_field kind_fields[] = {
	G("global_load", gld, "ld.global"), G("global_store", gst, "st.global"), G("cp_async_read", gcp, "cp.async (global side)"),
	G("local_load", lld, "ld.local (and generic loads of local addresses): requests, sectors as the threads' words interleave"),
	G("local_store", lst, "st.local (and generic stores to local addresses)"),
	S("shared_load", sld, "ld.shared"), S("shared_store", sst, "st.shared"), S("ldmatrix", sldsm, "ldmatrix"),
	S("cp_async_write", scp, "cp.async (shared side)"),
	{"instructions.fp", K(inst[0]), "f32/f16 arithmetic"}, {"instructions.int", K(inst[1]), "integer arithmetic, logic, compares, selects"},
	{"instructions.move", K(inst[2]), "mov, cvt, cvta, ld.param"}, {"instructions.ld_global", K(inst[3]), "global loads"},
	{"instructions.st_global", K(inst[4]), "global stores"}, {"instructions.ld_shared", K(inst[5]), "shared loads"},
	{"instructions.st_shared", K(inst[6]), "shared stores"}, {"instructions.cp_async", K(inst[7]), "cp.async and its commit/wait"},
	{"instructions.ldmatrix", K(inst[8]), "ldmatrix"}, {"instructions.mma", K(inst[9]), "mma.sync"},
	{"instructions.shfl", K(inst[10]), "shfl"}, {"instructions.barrier", K(inst[11]), "bar.sync, barrier.cluster"},
	{"instructions.control", K(inst[12]), "bra, ret, exit"},
	{"instructions.ld_local", K(inst[13]), "ld.local"}, {"instructions.st_local", K(inst[14]), "st.local"},
	{"instructions.thread_total", K(thread_inst), "thread-level instructions executed (predicate true)"},
	{"barriers", K(barriers), "bar.sync, per warp"},
	{"wgmma.instructions", K(wgmma_inst), "wgmma.mma_async, per warpgroup"}, {"wgmma.flops", K(wgmma_flops), "their FLOPs"},
	{"wgmma.smem_bytes", K(wgmma_smem_bytes), "shared operand bytes they read"},
	{"wgmma.smem_wavefronts", K(wgmma_smem_wavefronts), "those bytes / 128"},
};
#undef G
#undef S
#undef K

const run_kind_field *run_kind_fields(int *n)
{
	*n = (int)ARRAY_LEN(kind_fields);
	return kind_fields;
}

long long run_kind_value(const run_emu_kinds *k, const char *key)
{
	for (size_t i = 0; i < ARRAY_LEN(kind_fields); i++)
		if (!strcmp(kind_fields[i].key, key))
			return *(const long long *)(const void *)((const char *)k + kind_fields[i].off);
	return -1;
}

static double l_inst(const run_line_counts *l) { return (double)l->inst; }
static double l_lanes(const run_line_counts *l) { return l->inst ? (double)l->threads / (double)l->inst : NAN; }
static double l_greq(const run_line_counts *l) { return (double)l->g_requests; }
static double l_sect(const run_line_counts *l) { return (double)l->g_sectors; }
static double l_spr(const run_line_counts *l) { return l->g_requests ? (double)l->g_sectors / (double)l->g_requests : NAN; }
static double l_sreq(const run_line_counts *l) { return (double)l->s_requests; }
static double l_wave(const run_line_counts *l) { return (double)l->s_wavefronts; }
static double l_wpr(const run_line_counts *l) { return l->s_requests ? (double)l->s_wavefronts / (double)l->s_requests : NAN; }
static double l_conf(const run_line_counts *l) { return (double)l->s_conflicts; }
static double l_bytes(const run_line_counts *l) { return (double)l->bytes; }

static const run_line_field line_fields[] = {
	{"instructions", "inst", 6, 0, l_inst, "warp-level instructions issued from the line"},
	{"lanes", "lanes", 5, 1, l_lanes, "active lanes per instruction (predicate true), 32 at most"},
	{"global_requests", "g.req", 6, 0, l_greq, "global requests (loads, stores, cp.async reads)"},
	{"sectors", "sect", 6, 0, l_sect, "32-byte sectors they touch"},
	{"sectors_per_request", "s/req", 5, 1, l_spr, "4 is coalesced f32, 32 is one sector a lane"},
	{"shared_requests", "s.req", 6, 0, l_sreq, "shared requests (loads, stores, ldmatrix, cp.async writes)"},
	{"wavefronts", "wave", 6, 0, l_wave, "shared wavefronts they take"},
	{"wavefronts_per_request", "w/req", 5, 1, l_wpr, "1 is conflict-free"},
	{"bank_conflicts", "confl", 6, 0, l_conf, "extra wavefronts from bank conflicts"},
	{"bytes", "bytes", 6, 0, l_bytes, "bytes the active lanes moved (a cp.async's once)"},
};

const run_line_field *run_line_fields(int *n)
{
	*n = (int)ARRAY_LEN(line_fields);
	return line_fields;
}

char *run_line_format(const run_line_field *f, const run_line_counts *l, char *buf, size_t len)
{
	double v = f->value(l);
	if (isnan(v) || (!f->ratio && v == 0 && f->value != l_inst))
		util_strlcpy(buf, "-", len);
	else if (f->ratio)
		snprintf(buf, len, "%.*f", v == floor(v) ? 0 : 1, v);
	else {
		char t[32], *o = buf;
		numfmt_si(t, sizeof t, v, "");
		for (const char *p = t; *p && (size_t)(o - buf) + 1 < len; p++)
			if (*p != ' ')
				*o++ = *p; /* "1.5k": a narrow column has no room for the space */
		*o = 0;
	}
	return buf;
}

const run_field *run_fields(int *n)
{
	*n = (int)ARRAY_LEN(fields);
	return fields;
}

const run_field *run_field_find(const char *key)
{
	for (size_t i = 0; i < ARRAY_LEN(fields); i++)
		if (!strcmp(fields[i].key, key))
			return &fields[i];
	return NULL;
}

/* The value or NaN: a figure that was not measured is not a zero. */
static double measured(double v, int ok)
{
	return ok ? v : NAN;
}

static double per(unsigned long long num, unsigned long long den)
{
	return den ? (double)num / (double)den : 0.0;
}

static void take_emu(run_report *rep, const run_emu_counts *e)
{
	rep->gld_requests = (long long)e->gld_requests, rep->gld_sectors = (long long)e->gld_sectors;
	rep->gst_requests = (long long)e->gst_requests, rep->gst_sectors = (long long)e->gst_sectors;
	rep->sld_requests = (long long)e->sld_requests, rep->sld_wavefronts = (long long)e->sld_wavefronts;
	rep->sld_conflicts = (long long)e->sld_conflicts;
	rep->sst_requests = (long long)e->sst_requests, rep->sst_wavefronts = (long long)e->sst_wavefronts;
	rep->sst_conflicts = (long long)e->sst_conflicts;
	rep->inst = (long long)e->inst, rep->races = (long long)e->races;
	rep->tma_l2_bytes = (long long)e->tma_l2_bytes, rep->tma_smem_bytes = (long long)e->tma_smem_bytes;
	rep->tma_store_bytes = (long long)e->tma_store_bytes, rep->mbarrier_ops = (long long)e->mbarrier_ops;
	rep->cluster_barriers = (long long)e->cluster_barriers;
	rep->gld_per_request = per(e->gld_sectors, e->gld_requests);
	rep->gst_per_request = per(e->gst_sectors, e->gst_requests);
	rep->sld_per_request = per(e->sld_wavefronts, e->sld_requests);
	rep->sst_per_request = per(e->sst_wavefronts, e->sst_requests);
	rep->emu_seconds = e->seconds;
	rep->warps = e->warps;
	rep->by_kind = &e->by_kind;
}

/* The request's side of the report: what was asked. */
static void take_request(run_report *rep, const run_request *rq)
{
	rep->entry = rq->entry;
	rep->ptx = rq->ptx_path;
	rep->dtype = dtype_name(rq->dt == DTYPE_NONE ? DTYPE_F32 : rq->dt);
	rep->out = dtype_name(run_out(rq));
	rep->M = rq->M, rep->N = rq->N, rep->K = rq->K;
	rep->smem_dynamic = rq->smem;
	run_cluster(rq, rep->cluster);
}

void run_report_make(run_report *rep, const run_request *rq, const run_result *res, double prev_gflops)
{
	memset(rep, 0, sizeof *rep);
	rep->cluster[0] = rep->cluster[1] = rep->cluster[2] = 1;
	if (rq)
		take_request(rep, rq);
	rep->status = run_status_name(res->status);
	rep->message = res->msg;
	rep->where = res->where.line > 0 ? &res->where : NULL;
	rep->gpu = res->backend == RUN_BACKEND_EMU ? run_backend_name(res->backend) : res->gpu;
	rep->backend = run_backend_name(res->backend);
	rep->jit_log = res->status == RUN_JIT_ERROR ? res->log : NULL;
	rep->registers = res->regs, rep->smem_static = res->smem_static;
	rep->local_bytes = res->local_bytes, rep->blocks_per_sm = res->blocks_per_sm, rep->repeats = res->repeats;
	int timed = res->gflops > 0, ref = res->cublas_gflops > 0;
	rep->block = timed ? res->block : 0, rep->cublas_block = ref ? res->cublas_block : 0;
	rep->spread = measured(100.0 * res->spread, timed);
	rep->cublas_spread = measured(100.0 * res->cublas_spread, ref);
	rep->timing = timed && res->timing[0] ? res->timing : NULL;
	rep->ms = measured(res->ms, timed);
	rep->gflops = measured(res->gflops, timed);
	rep->cublas_ms = measured(res->cublas_ms, ref);
	rep->cublas_gflops = measured(res->cublas_gflops, ref);
	rep->pct_of_cublas = measured(ref ? 100.0 * res->gflops / res->cublas_gflops : 0, ref && timed);
	rep->reference = ref && res->ref_name[0] ? res->ref_name : NULL;
	rep->sm_mhz = measured(res->sm_mhz, timed && res->sm_mhz > 0);
	/* the peak scaled to the clock held: how far from the hardware, not only from cuBLAS */
	double peak = rq ? devices_peak_at(&res->spec, rq->dt == DTYPE_NONE ? DTYPE_F32 : rq->dt, res->sm_mhz) * 1e3 : 0;
	rep->pct_of_peak = measured(peak > 0 ? 100.0 * res->gflops / peak : 0, timed && peak > 0);
	rep->cublas_pct_of_peak = measured(peak > 0 ? 100.0 * res->cublas_gflops / peak : 0, ref && peak > 0);
	rep->speedup = measured(prev_gflops > 0 ? res->gflops / prev_gflops : 0, prev_gflops > 0 && timed);
	rep->rel_error = measured(res->rel_err, res->verified >= 0);
	rep->tolerance = measured(res->tol, res->tol > 0 || res->verified >= 0); /* 0: exact (integers) */
	rep->verified = res->verified;
	rep->consistent_with = res->consistent_with[0] ? res->consistent_with : NULL;
	rep->has_counts = run_has_counts(res);
	rep->printed = &res->printed;
	if (rep->has_counts) {
		take_emu(rep, &res->emu);
		rep->lines = res->lines, rep->nlines = res->nlines, rep->lines_total = res->lines_total;
		rep->regions = res->regions, rep->nregions = res->nregions;
	}
}

int run_field_present(const run_field *f, const run_report *rep)
{
	const char *p = (const char *)rep + f->off;
	if (!strncmp(f->key, "emu.", 4) && !rep->has_counts)
		return 0;
	if (f->type == RUN_T_STR)
		return *(const char *const *)(const void *)p != NULL;
	if (f->type == RUN_T_DBL)
		return !isnan(*(const double *)(const void *)p);
	return 1;
}

char *run_field_format(const run_field *f, const run_report *rep, char *buf, size_t len)
{
	const char *p = (const char *)rep + f->off;
	if (!run_field_present(f, rep)) {
		util_strlcpy(buf, "n/a", len);
		return buf;
	}
	double v = f->type == RUN_T_DBL ? *(const double *)(const void *)p
		 : f->type == RUN_T_LL ? (double)*(const long long *)(const void *)p : 0;
	char t[48];
	switch (f->fmt) {
	case RUN_F_TEXT: util_strlcpy(buf, *(const char *const *)(const void *)p, len); break;
	case RUN_F_COUNT: numfmt_count(buf, len, v); break;
	case RUN_F_SIG: numfmt_sig(buf, len, v); break;
	case RUN_F_MS: numfmt_unit(buf, len, v, "ms"); break;
	case RUN_F_PCT: numfmt_pct(buf, len, v / 100.0); break;
	case RUN_F_TIMES: snprintf(buf, len, "%sx", numfmt_sig(t, sizeof t, v)); break;
	case RUN_F_RELERR: snprintf(buf, len, "%.3g", v); break;
	case RUN_F_TOL: snprintf(buf, len, v == 0 ? "0, exact" : "%.0e", v); break;
	case RUN_F_SECONDS: snprintf(buf, len, "%.2f s", v); break;
	case RUN_F_VERDICT: {
		int ok = *(const int *)(const void *)p;
		util_strlcpy(buf, ok == 1 ? "PASS" : ok == 0 ? "FAIL" : "not checked", len);
		break;
	}
	}
	return buf;
}

char *run_figure(const run_report *rep, const char *key, char *buf, size_t len)
{
	const run_field *f = run_field_find(key);
	if (!f) {
		util_strlcpy(buf, "?", len);
		return buf;
	}
	return run_field_format(f, rep, buf, len);
}

void run_printf_add(run_printf *p, const char *line)
{
	size_t used = strlen(p->text), n = strlen(line);
	if (n > 400)
		n = 400; /* a line of a narrow pane: the rest of a runaway line says nothing more */
	if (p->lines >= RUN_PRINTF_LINES || used + n + 2 > sizeof p->text) {
		p->dropped++;
		return;
	}
	memcpy(p->text + used, line, n);
	p->text[used + n] = '\n';
	p->text[used + n + 1] = 0;
	p->lines++;
}

void run_printf_text(run_printf *p, const char *text, size_t len)
{
	char line[512];
	for (size_t at = 0; at < len;) {
		size_t n = 0;
		while (at + n < len && text[at + n] != '\n')
			n++;
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), text + at);
		run_printf_add(p, line);
		at += n + 1;
	}
}
