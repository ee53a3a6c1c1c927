/* model: model_compute — a lesson's cost model (model_lessons.c) turned into traffic per level, intensity, roofline and occupancy; the placeholder keys. */
#include "model/model.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/checked.h"
#include "base/util.h"
#include "course/ptx.h"
#include "model/measured.h"
#include "model/model_lessons.h"
#include "model/grid.h"

/* ---- Static shared memory declared in the PTX ---------------------------- */

/* The static shared memory of the lesson's PTX file (course/ptx.c's scanner);
 * 0 when the file is unreadable. */
static int ptx_file_smem(const char *ptx_path)
{
	if (!ptx_path || !ptx_path[0])
		return 0;
	char path[512];
	util_path(path, sizeof path, ptx_path);
	char *text = util_read_file(path, NULL, NULL, 0);
	int bytes = ptx_static_smem(text);
	free(text);
	return bytes;
}

/* ---- model_compute ------------------------------------------------------- */

/* Wavefronts of the L1/shared data path per output per unit of K: each warp
 * request of `per_output` elements per lane-vector `vec` takes `passes`
 * wavefronts (a global load one per 128-byte line it touches). NAN
 * passes (no such access) add nothing. */
static double wavefronts_per_output(double per_output, int vec, double passes)
{
	if (vec <= 0 || isnan(passes) || per_output <= 0)
		return 0;
	return per_output / (32.0 * vec) * passes;
}

/* Milliseconds for `bytes` at `gbs` GB/s; NAN when the GPU row has no figure. */
static double ms_at(double bytes, double gbs)
{
	return gbs > 0 ? 1e3 * bytes / (gbs * 1e9) : NAN;
}

/* The hierarchical roofline: the least traffic each level must carry and
 * the time that takes at the level's peak, so that no run can beat the
 * slowest of them (docs/model.md says why each is a lower bound). */
static void level_bounds(model_result *r, const model_traffic *t, const model_warp *w, double outputs, double k)
{
	const gpu_spec *g = &r->gpu;
	double out_bytes = outputs * r->out_bytes;
	/* L2: loads that skip L1 each reach L2 as issued. Otherwise L1 may
	 * serve repeats, but an SM computing P outputs needs at least
	 * 2·sqrt(P)·K distinct inputs (a square tile reuses most), with the
	 * tiles spread evenly over the SMs the grid can use. The even spread
	 * maximises the sum over SMs rather than minimising it; it stands
	 * because each SM has its own port, so an uneven schedule moves fewer
	 * bytes but its busiest SM more (docs/model.md). A multicast box
	 * counts once: the limit is taken to be on L2's side. */
	double l2 = r->global.bytes;
	if (!t->l1_bypass) {
		double used = (double)(r->blocks < g->sms ? r->blocks : g->sms);
		double square = used * 2 * sqrt(outputs / used) * k * r->elem_bytes + out_bytes;
		l2 = square < l2 ? square : l2;
	}
	r->l2_min_bytes = l2;
	double wf = wavefronts_per_output(t->gl_A, w->gvec_A, w->gwavefronts_A) +
		    wavefronts_per_output(t->gl_B, w->gvec_B, w->gwavefronts_B) +
		    wavefronts_per_output(t->sh_A, w->svec_A, w->wavefronts_A) +
		    wavefronts_per_output(t->sh_B, w->svec_B, w->wavefronts_B);
	/* The tensor cores read the tiles through the shared data pipe, 128
	 * bytes a pass: ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma
	 * on lessons 9 and 10 equals this count exactly (docs/benchmarks.md). */
	if (t->smem_operands)
		wf += (t->sh_A + t->sh_B) * r->elem_bytes / 128;
	r->l1_wavefronts = wf * k * outputs;
	r->ai_l2 = r->flops / r->l2_min_bytes;
	r->ai_l1 = r->l1_wavefronts > 0 ? r->flops / (r->l1_wavefronts * 128) : NAN;

	r->bound_compute_ms = r->peak_tflops > 0 ? 1e3 * r->flops / (r->peak_tflops * 1e12) : NAN;
	r->bound_dram_ms = ms_at(r->dram_ideal_bytes, g->bw_gbs);
	r->bound_l2_ms = ms_at(r->l2_min_bytes, g->l2_gbs);
	r->bound_l1_ms = r->l1_wavefronts > 0 ? ms_at(r->l1_wavefronts * 128, g->smem_gbs) : NAN;
	static const char *const names[] = {"compute", "DRAM", "L2", "L1/shared"};
	const double ms[] = {r->bound_compute_ms, r->bound_dram_ms, r->bound_l2_ms, r->bound_l1_ms};
	r->bound_ms = NAN;
	r->bound_limit = "unknown";
	for (size_t i = 0; i < ARRAY_LEN(ms); i++)
		if (!isnan(ms[i]) && (isnan(r->bound_ms) || ms[i] > r->bound_ms)) {
			r->bound_ms = ms[i];
			r->bound_limit = names[i];
		}
}

static void level_totals(model_level *lv, double outputs, int load_bytes, int store_bytes)
{
	lv->loads = lv->loads_per_output * outputs;
	lv->stores = lv->stores_per_output * outputs;
	lv->bytes = lv->loads * load_bytes + lv->stores * store_bytes;
}

/* The panels of A and B one round of running tiles reads, over the whole
 * K. Tiles run in bands of H = G·CM block rows, column by column (G = 0:
 * row by row), so a round of W tiles (the blocks launched, or resident at
 * once when there are more) spans r block rows and c block columns; every
 * round after the first is the same shape, and with the round's panels
 * read from DRAM once each, the run reads rounds × that. */
static void tile_order(model_result *r, long long at_once)
{
	long long BM = 1, BN = 1, G = 0, CM = 1;
	expr_get(&r->env, "BM", &BM);
	expr_get(&r->env, "BN", &BN);
	expr_get(&r->env, "G", &G);
	expr_get(&r->env, "CM", &CM);
	long long tm = (r->M + BM - 1) / (BM > 0 ? BM : 1), tn = (r->N + BN - 1) / (BN > 0 ? BN : 1);
	long long w = at_once < r->blocks ? at_once : r->blocks, h = G > 0 ? G * (CM > 0 ? CM : 1) : 0;
	if (w <= 0 || tm <= 0 || tn <= 0) {
		r->wave_bytes = r->order_dram_bytes = NAN;
		return;
	}
	long long rows, cols;
	if (h == 0 || w > h * tn) { /* whole block rows: row order, or a round wider than a band */
		rows = (w + tn - 1) / tn;
		if (h > 0)
			rows = (rows + h - 1) / h * h;
		cols = w < tn ? w : tn;
	} else {
		rows = h < tm ? h : tm;
		cols = (w + rows - 1) / rows;
	}
	rows = rows < tm ? rows : tm;
	cols = cols < tn ? cols : tn;
	double rounds = ceil((double)r->blocks / (double)w);
	r->wave_bytes = ((double)rows * BM + (double)cols * BN) * (double)r->K * r->elem_bytes;
	r->order_dram_bytes = rounds * r->wave_bytes + (double)r->M * r->N * r->out_bytes;
}

/* Whether the GPU can run the kernel: the compute capability its needs:
 * asks for (sm_90a: exactly 9.0), then a block that fits on an SM. A GPU
 * with no compute capability (a live one the driver did not name) is not
 * judged on it. why_not is a clause that completes "cannot run here: ...". */
static void can_run(model_result *r)
{
	const gpu_spec *g = &r->gpu;
	const char *name = g->name + (strncmp(g->name, "NVIDIA ", 7) ? 0 : 7);
	int sm = g->cc_major * 10 + g->cc_minor;
	r->runs = 0;
	if (sm && r->needs_sm && (sm < r->needs_sm || (r->needs_arch_specific && sm != r->needs_sm)))
		snprintf(r->why_not, sizeof r->why_not, "the %s is sm_%d, and the kernel needs sm_%d%s", name, sm,
			 r->needs_sm, r->needs_arch_specific ? "a" : "");
	else if (!r->occ_ok || r->occ.blocks_per_sm < 1)
		snprintf(r->why_not, sizeof r->why_not,
			 "no block of it fits on an SM of the %s (%d threads of %d registers, %d bytes of shared "
			 "memory, where a block may have %d)", name, r->threads, r->regs_per_thread, r->smem_request,
			 g->smem_optin > 0 ? g->smem_optin : g->smem_per_block);
	else {
		r->runs = 1;
		r->why_not[0] = '\0';
	}
}

/* The grid launched, by the runner's rule (model/grid.h) with the
 * occupancy's fit: a persistent grid as many blocks or clusters as fit,
 * trimmed to the fewest rounds with clusters; otherwise one block per tile
 * in rounds of what fits at once. */
static void launched_grid(model_result *r, long long at_once)
{
	long long cs = r->cluster > 0 ? r->cluster : 1;
	r->launch_blocks = r->launch_clusters = r->launch_rounds = 0;
	if (!r->runs || at_once < 1)
		return;
	if (r->persistent) {
		grid_shape grid;
		if (grid_persistent(r->blocks, cs, cs > 1 ? at_once / cs : at_once, &grid) == 0) {
			r->launch_blocks = grid.blocks;
			r->launch_clusters = grid.clusters;
			r->launch_rounds = grid.rounds;
		}
		return;
	}
	r->launch_blocks = r->blocks;
	r->launch_clusters = (r->blocks + cs - 1) / cs;
	r->launch_rounds = (r->blocks + at_once - 1) / at_once;
}

static void recompute_occupancy(model_result *r)
{
	r->smem_request = r->smem_static + r->smem_dynamic;
	occ_input in = {.threads = r->threads, .regs = r->regs_per_thread,
			.smem_static = r->smem_static, .smem_dynamic = r->smem_dynamic};
	r->occ_ok = occ_compute(&r->gpu, &in, &r->occ) == 0;
	int at_once = r->occ_ok ? r->gpu.sms * r->occ.blocks_per_sm : 0;
	r->waves = at_once > 0 ? (double)r->blocks / at_once : NAN;
	can_run(r);
	launched_grid(r, at_once);
	/* A persistent grid's round is the blocks it launched. */
	tile_order(r, r->persistent && r->launch_blocks > 0 ? r->launch_blocks : at_once);
}

/* ---- parameters: the one check, for the CLI (--set) and the tutor (what-ifs) alike ---- */

/* What each parameter may be: the range the models' maths and the launch
 * shapes are defined for, wide enough for a what-if to show why a value
 * fails (BS=64 asks for 4096 threads) and narrow enough that no product of
 * them overflows. A parameter not named here is a tile side or a count. */
static const struct {
	const char *name;
	long long lo, hi;
} param_ranges[] = {
	{"PAD", 0, 256},     /* halves of padding per shared row; 0 is the XOR swizzle */
	{"STAGES", 1, 32},   /* pipeline stages */
	{"VW", 1, 16},       /* elements per vector access */
	{"WNITER", 1, 64},   /* warp-tile iterations */
	{"CM", 1, 8},        /* blocks per cluster along M (8: the portable cluster size) */
	{"MC", 0, 1},        /* B multicast across the cluster: off or on */
	{"G", 0, 4096},      /* bands of G cluster rows; 0 is row by row */
};
#define PARAM_LO 1
#define PARAM_HI 4096

void model_param_range(const char *name, long long *lo, long long *hi)
{
	*lo = PARAM_LO;
	*hi = PARAM_HI;
	for (size_t i = 0; i < ARRAY_LEN(param_ranges); i++)
		if (!strcmp(param_ranges[i].name, name)) {
			*lo = param_ranges[i].lo;
			*hi = param_ranges[i].hi;
		}
}

static int out_of_range(const char *what, const char *name, long long v, char *err, int errlen)
{
	long long lo, hi;
	model_param_range(name, &lo, &hi);
	if (v >= lo && v <= hi)
		return 0;
	snprintf(err, (size_t)errlen, "%s%s=%lld is out of range (%s is %lld..%lld)", what, name, v, name, lo, hi);
	return -1;
}

int model_check_params(const lesson *l, const expr_env *overrides, char *err, int errlen)
{
	for (int j = 0; j < l->nparams; j++) {
		char what[64];
		snprintf(what, sizeof what, "lesson %s: ", l->id);
		if (out_of_range(what, l->params[j].name, l->params[j].value, err, errlen))
			return -1;
	}
	/* A what-if may only change what the lesson declares. */
	for (int i = 0; overrides && i < overrides->n; i++) {
		int found = 0;
		for (int j = 0; j < l->nparams && !found; j++)
			found = !strcmp(l->params[j].name, overrides->v[i].name);
		if (!found) {
			int n = snprintf(err, (size_t)errlen, "lesson %s has no parameter '%s' (its parameters:", l->id,
					 overrides->v[i].name);
			for (int j = 0; j < l->nparams && n >= 0 && n < errlen; j++)
				n += snprintf(err + n, (size_t)(errlen - n), " %s", l->params[j].name);
			if (n >= 0 && n < errlen)
				snprintf(err + n, (size_t)(errlen - n), "%s)", l->nparams ? "" : " none");
			return -1;
		}
		if (out_of_range("", overrides->v[i].name, overrides->v[i].value, err, errlen))
			return -1;
	}
	/* The block the values make must be one a GPU can launch. */
	expr_env env;
	lesson_env(l, overrides, 1, 1, 1, &env);
	long long b[3], threads = 1;
	char msg[128];
	for (int i = 0; i < 3; i++) {
		if (expr_eval(l->block[i], &env, &b[i], msg, sizeof msg))
			return 0; /* lesson_launch_for reports the expression */
		threads = b[i] <= 0 ? 0 : threads <= (1LL << 40) / b[i] ? threads * b[i] : 1LL << 40;
	}
	if (threads < 1 || threads > 1024) {
		int n = 0;
		for (int i = 0; overrides && i < overrides->n && n >= 0 && n < errlen; i++)
			n += snprintf(err + n, (size_t)(errlen - n), "%s%s=%lld", i ? " " : "", overrides->v[i].name,
				      overrides->v[i].value);
		if (n >= 0 && n < errlen)
			snprintf(err + n, (size_t)(errlen - n), "%sblock %lldx%lldx%lld is %lld threads; a block holds 1 to 1024",
				 n ? ": " : "", b[0], b[1], b[2], threads);
		return -1;
	}
	return 0;
}

int model_compute(const lesson *l, const expr_env *overrides, long long M, long long N, long long K,
		  const gpu_spec *g, model_result *r, char *err, int errlen)
{
	memset(r, 0, sizeof *r);
	const model_def *m = model_find(l->model);
	if (!l->model[0]) {
		snprintf(err, (size_t)errlen, "lesson %s has no kernel to model", l->id);
		return -1;
	}
	if (!m) {
		char names[160] = "";
		for (int i = 0; model_lessons_at(i); i++) {
			size_t n = strlen(names);
			snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", model_lessons_name(model_lessons_at(i)));
		}
		snprintf(err, (size_t)errlen, "%s: unknown model '%s' (known: %s)", l->path, l->model, names);
		return -1;
	}
	if (M <= 0 || N <= 0 || K <= 0) {
		snprintf(err, (size_t)errlen, "size %lldx%lldx%lld: must be positive", M, N, K);
		return -1;
	}
	if (model_check_params(l, overrides, err, errlen) < 0)
		return -1;
	util_strlcpy(r->lesson_id, l->id, sizeof r->lesson_id);
	r->lesson_number = l->number;
	util_strlcpy(r->model, model_lessons_name(m), sizeof r->model);
	r->def = m;
	r->M = M;
	r->N = N;
	r->K = K;
	r->gpu = *g;
	lesson_env(l, overrides, M, N, K, &r->env);

	lesson_launch la;
	if (lesson_launch_for(l, &r->env, &la, err, errlen) < 0)
		return -1;
	long long threads = (long long)la.block[0] * la.block[1] * la.block[2];
	r->threads = threads > (1 << 30) ? (1 << 30) : (int)threads; /* a what-if may ask for absurd blocks */
	r->warps = (r->threads + 31) / 32;
	r->smem_dynamic = (int)la.smem;
	r->blocks = (long long)la.grid[0] * la.grid[1] * la.grid[2];
	r->smem_static = ptx_file_smem(l->ptx_path);
	r->regs_per_thread = l->regs;
	r->needs_sm = l->needs_sm;
	r->needs_arch_specific = l->needs_arch_specific;
	r->persistent = la.persistent;
	long long cm = 0;
	r->cluster = expr_get(&r->env, "CM", &cm) && cm > 0 ? (int)cm : (int)(la.cluster[0] * la.cluster[1] * la.cluster[2]);
	r->regs_source = l->regs ? "recorded (ptxas -arch=sm_90)" : "unknown";

	/* The model reads its params from the lesson, else assumes its own. */
	expr_env menv = r->env;
	model_lessons_defaults(m, &menv);

	const char *unit = model_lessons_unit(m);
	int tensor = !strcmp(unit, "tensor");
	/* Element sizes from the dtype table; a tensor-core model reads 16-bit
	 * operands whatever the lesson says (tf32 aside: 4-byte f32 in memory,
	 * rounded in the kernel), and a lesson without a kernel (dtype none) is
	 * modelled in f32. */
	dtype in = l->dt == DTYPE_NONE ? DTYPE_F32 : l->dt, out = l->out == DTYPE_NONE ? DTYPE_F32 : l->out;
	r->elem_bytes = tensor && dtype_of(in)->bytes > 2 && !dtype_of(in)->kernel_rounds ? 2 : dtype_of(in)->bytes;
	r->out_bytes = dtype_of(out)->bytes;
	const int out_bytes = r->out_bytes;
	double outputs = (double)M * N, k = (double)K;
	r->flops = 2.0 * M * N * K;

	model_traffic t;
	model_lessons_traffic(m, &menv, &t);
	r->global.loads_per_output = (t.gl_A + t.gl_B) * k;
	r->global.stores_per_output = 1;
	r->shared.loads_per_output = (t.sh_A + t.sh_B) * k;
	r->shared.stores_per_output = t.sh_stores * k;
	r->regs.loads_per_output = t.smem_operands ? 0 : 2 * k; /* an A and a B operand per multiply-add */
	r->regs.stores_per_output = k / t.k_per_op;  /* accumulator updates */
	level_totals(&r->global, outputs, r->elem_bytes, out_bytes);
	level_totals(&r->shared, outputs, r->elem_bytes, r->elem_bytes);
	level_totals(&r->regs, outputs, r->elem_bytes, 4); /* the accumulators are f32 whatever C is stored in */

	r->output_bytes = outputs * out_bytes;
	r->dram_ideal_bytes = ((double)M * K + (double)K * N) * r->elem_bytes + r->output_bytes;
	r->ai_global = r->flops / r->global.bytes;
	r->ai_shared = r->shared.bytes > 0 ? r->flops / r->shared.bytes : NAN;
	r->ai_dram_ideal = r->flops / r->dram_ideal_bytes;

	model_warp w;
	model_lessons_warp(m, &menv, r->elem_bytes, &w);
	r->sectors_A = w.sectors_A;
	r->sectors_B = w.sectors_B;
	r->gwavefronts_A = w.gwavefronts_A;
	r->gwavefronts_B = w.gwavefronts_B;
	r->wavefronts_A = w.wavefronts_A;
	r->wavefronts_B = w.wavefronts_B;
	r->wavefronts_ideal_A = w.sideal_A;
	r->wavefronts_ideal_B = w.sideal_B;

	/* Roofline against the unit the kernel uses, at its input type's rate. */
	r->unit = unit;
	r->peak_tflops = tensor ? devices_tensor_peak(g, in, &r->unit) : g->fp32_tflops;
	if (tensor && r->peak_tflops <= 0 && !strcmp(r->unit, "tensor")) {
		r->unit = "fp32 (no tensor cores)";
		r->peak_tflops = g->fp32_tflops;
	}
	if (r->peak_tflops > 0 && g->bw_gbs > 0) {
		r->ridge = r->peak_tflops * 1e12 / (g->bw_gbs * 1e9);
		r->regime_if_dram = r->ai_global < r->ridge ? "memory" : "compute";
		double t_compute = r->flops / (r->peak_tflops * 1e12), t_memory = r->global.bytes / (g->bw_gbs * 1e9);
		r->if_dram_ms = 1e3 * (t_compute > t_memory ? t_compute : t_memory);
	} else {
		/* A live GPU that the table does not know: no peaks to compare with. */
		r->ridge = NAN;
		r->regime_if_dram = "unknown";
		r->if_dram_ms = NAN;
	}
	level_bounds(r, &t, &w, outputs, k);
	/* The regime a page states is the level that binds the bound, never a second rule. */
	r->regime = !strcmp(r->bound_limit, "compute") ? "compute" : !strcmp(r->bound_limit, "unknown") ? "unknown" : "memory";

	recompute_occupancy(r);
	return 0;
}

void model_set_regs(model_result *r, int regs, const char *source)
{
	r->regs_per_thread = regs;
	r->regs_source = source;
	recompute_occupancy(r);
}

/* ---- Placeholder keys ---------------------------------------------------- */

typedef enum { F_NUM, F_COUNT, F_INT, F_FLOPB, F_KCOUNT, F_MS, F_PCT, F_TFLOPS, F_GBS, F_FLOP, F_BYTES, F_STR, F_SECT } key_fmt;
typedef enum { T_DBL, T_INT, T_LL, T_STR, T_CHARS } key_type;

typedef struct {
	const char *key;
	key_type type;
	size_t off;
	key_fmt fmt;
	const char *help;
} key_def;

#define R(f) offsetof(model_result, f)
static const key_def keys[] = {
	{"M", T_LL, R(M), F_INT, "rows of A and C"},
	{"N", T_LL, R(N), F_INT, "columns of B and C"},
	{"K", T_LL, R(K), F_INT, "the shared dimension"},
	{"flops", T_DBL, R(flops), F_FLOP, "2*M*N*K"},
	{"ai.global", T_DBL, R(ai_global), F_FLOPB, "FLOP per byte of global traffic as issued"},
	{"ai.shared", T_DBL, R(ai_shared), F_FLOPB, "FLOP per byte of shared-memory traffic"},
	{"ai.dram_ideal", T_DBL, R(ai_dram_ideal), F_FLOPB, "FLOP per byte when A and B are read once and C written once"},
	{"per_output.global_loads", T_DBL, R(global.loads_per_output), F_KCOUNT, "global loads per output element"},
	{"per_output.global_stores", T_DBL, R(global.stores_per_output), F_KCOUNT, "global stores per output element"},
	{"per_output.shared_loads", T_DBL, R(shared.loads_per_output), F_KCOUNT, "shared loads per output element"},
	{"per_output.shared_stores", T_DBL, R(shared.stores_per_output), F_KCOUNT, "shared stores per output element"},
	{"per_output.reg_loads", T_DBL, R(regs.loads_per_output), F_KCOUNT, "operand reads from registers per output"},
	{"per_output.reg_stores", T_DBL, R(regs.stores_per_output), F_KCOUNT, "accumulator updates per output"},
	{"total.global_loads", T_DBL, R(global.loads), F_COUNT, "global loads, whole problem"},
	{"total.global_stores", T_DBL, R(global.stores), F_COUNT, "global stores, whole problem"},
	{"total.shared_loads", T_DBL, R(shared.loads), F_COUNT, "shared loads, whole problem"},
	{"total.shared_stores", T_DBL, R(shared.stores), F_COUNT, "shared stores, whole problem"},
	{"bytes.global", T_DBL, R(global.bytes), F_BYTES, "global bytes as issued"},
	{"bytes.shared", T_DBL, R(shared.bytes), F_BYTES, "shared-memory bytes"},
	{"bytes.dram_ideal", T_DBL, R(dram_ideal_bytes), F_BYTES, "A and B once, C once"},
	{"bytes.output", T_DBL, R(output_bytes), F_BYTES, "C: M·N elements of the output type"},
	{"sectors_per_request.A", T_DBL, R(sectors_A), F_SECT, "32-byte sectors per warp load of A"},
	{"sectors_per_request.B", T_DBL, R(sectors_B), F_SECT, "32-byte sectors per warp load of B"},
	{"gwavefronts.A", T_DBL, R(gwavefronts_A), F_SECT, "L1 wavefronts per warp load of A from global memory (one per 128-byte line)"},
	{"gwavefronts.B", T_DBL, R(gwavefronts_B), F_SECT, "L1 wavefronts per warp load of B from global memory (one per 128-byte line)"},
	{"wavefronts.A", T_DBL, R(wavefronts_A), F_SECT, "shared wavefronts per warp read of A"},
	{"wavefronts.B", T_DBL, R(wavefronts_B), F_SECT, "shared wavefronts per warp read of B"},
	{"unit", T_STR, R(unit), F_STR, "fp32, tensor, tensor (tf32) or tensor (fp8): the unit whose peak bounds the kernel"},
	{"peak_tflops", T_DBL, R(peak_tflops), F_TFLOPS, "peak of that unit"},
	{"ridge", T_DBL, R(ridge), F_FLOPB, "peak / bandwidth"},
	{"regime", T_STR, R(regime), F_STR, "compute when bound.limit is compute, memory when a memory level (DRAM, L2, L1/shared) binds"},
	{"regime_if_dram", T_STR, R(regime_if_dram), F_STR,
	 "memory or compute if every load went to DRAM: ai.global against the ridge (an estimate: caches ignored)"},
	{"if_dram_ms", T_DBL, R(if_dram_ms), F_MS,
	 "a what-if, not a prediction: max(compute time, issued global bytes / DRAM bandwidth) if every load went to DRAM"},
	{"bound.ms", T_DBL, R(bound_ms), F_MS, "a true lower bound on the time: the slowest level below"},
	{"bound.limit", T_STR, R(bound_limit), F_STR, "the level that sets bound.ms: compute, DRAM, L2 or L1/shared"},
	{"bound.compute_ms", T_DBL, R(bound_compute_ms), F_MS, "FLOPs at the unit's peak"},
	{"bound.dram_ms", T_DBL, R(bound_dram_ms), F_MS,
	 "A, B read once and C written once at DRAM bandwidth (from a cold L2, counting C's write-back)"},
	{"bound.l2_ms", T_DBL, R(bound_l2_ms), F_MS, "the least L2 -> SM traffic at L2 bandwidth"},
	{"bound.l1_ms", T_DBL, R(bound_l1_ms), F_MS, "the least L1/shared wavefronts at 128 B per SM per clock"},
	{"ai.l2", T_DBL, R(ai_l2), F_FLOPB, "FLOP per byte of the least L2 -> SM traffic"},
	{"ai.l1", T_DBL, R(ai_l1), F_FLOPB, "FLOP per 128-byte wavefront byte of the L1/shared data path"},
	{"bytes.l2_min", T_DBL, R(l2_min_bytes), F_BYTES, "the least L2 -> SM traffic"},
	{"total.l1_wavefronts", T_DBL, R(l1_wavefronts), F_COUNT, "L1/shared wavefronts, whole problem, at least"},
	{"occupancy.blocks_per_sm", T_INT, R(occ.blocks_per_sm), F_INT, "resident blocks per SM"},
	{"occupancy.active_warps", T_INT, R(occ.active_warps), F_INT, "resident warps per SM"},
	{"occupancy.max_warps", T_INT, R(occ.max_warps), F_INT, "the SM's warp limit"},
	{"occupancy.occupancy", T_DBL, R(occ.occupancy), F_PCT, "active / max warps"},
	{"occupancy.limiter", T_STR, R(occ.limiter), F_STR, "the binding limit"},
	{"occupancy.limits.warps", T_INT, R(occ.limit_warps), F_INT, "blocks allowed by warps"},
	{"occupancy.limits.registers", T_INT, R(occ.limit_regs), F_INT, "blocks allowed by registers"},
	{"occupancy.limits.shared", T_INT, R(occ.limit_smem), F_INT, "blocks allowed by shared memory"},
	{"occupancy.limits.blocks", T_INT, R(occ.limit_blocks), F_INT, "the SM's block limit"},
	{"occupancy.threads", T_INT, R(threads), F_INT, "threads per block"},
	{"occupancy.regs", T_INT, R(regs_per_thread), F_INT, "registers per thread"},
	{"occupancy.regs_source", T_STR, R(regs_source), F_STR, "where the register count comes from"},
	{"occupancy.smem", T_INT, R(occ.smem_per_block), F_INT, "shared bytes per block as allocated (with the reserved part, rounded)"},
	{"launch.threads", T_INT, R(threads), F_INT, "threads per block"},
	{"launch.warps", T_INT, R(warps), F_INT, "warps per block"},
	{"launch.tiles", T_LL, R(blocks), F_INT, "BM×BN tiles of C, one block each (a persistent grid loops over them)"},
	{"launch.waves", T_DBL, R(waves), F_NUM, "tiles ÷ (SMs × blocks per SM): the rounds in which the GPU runs them"},
	{"launch.runs", T_INT, R(runs), F_INT, "1 when this GPU can run the kernel (compute capability meets needs:, a block fits), else 0"},
	{"launch.why_not", T_CHARS, R(why_not), F_STR, "why this GPU cannot run the kernel (empty when it can)"},
	{"launch.blocks", T_LL, R(launch_blocks), F_INT, "blocks launched (a persistent grid: those that fit, trimmed to the fewest rounds with clusters)"},
	{"launch.clusters", T_LL, R(launch_clusters), F_INT, "clusters launched (launch.blocks ÷ blocks per cluster)"},
	{"launch.rounds", T_LL, R(launch_rounds), F_INT, "whole rounds of tiles: ceil(tiles ÷ blocks running at once)"},
	{"tileorder.wave_bytes", T_DBL, R(wave_bytes), F_BYTES,
	 "A and B panels one round of running tiles reads over K (bands of G cluster rows of CM tiles; G=0 row by row)"},
	{"tileorder.dram_bytes", T_DBL, R(order_dram_bytes), F_BYTES,
	 "DRAM traffic if each round reads its panels once, plus C once"},
	{"launch.smem", T_INT, R(smem_request), F_INT, "shared bytes per block the kernel asks for (static + dynamic)"},
	{"launch.smem_static", T_INT, R(smem_static), F_INT, "static shared bytes (declared in the PTX)"},
	{"launch.smem_dynamic", T_INT, R(smem_dynamic), F_INT, "dynamic shared bytes (the lesson's smem:)"},
	{"gpu.name", T_CHARS, R(gpu.name), F_STR, "the GPU"},
	{"gpu.key", T_CHARS, R(gpu.key), F_STR, "its --gpu name, the key of its row in assets/gpus.tsv"},
	{"gpu.sms", T_INT, R(gpu.sms), F_INT, "streaming multiprocessors"},
	{"gpu.clock_mhz", T_INT, R(gpu.clock_mhz), F_INT, "boost clock"},
	{"gpu.fp32_tflops", T_DBL, R(gpu.fp32_tflops), F_TFLOPS, "FP32 peak"},
	{"gpu.tensor_tflops", T_DBL, R(gpu.tensor_tflops), F_TFLOPS, "tensor-core peak (f16 in, f32 acc)"},
	{"gpu.tf32_tflops", T_DBL, R(gpu.tf32_tflops), F_TFLOPS, "tensor-core peak with tf32 inputs (0: none or not known)"},
	{"gpu.fp8_tflops", T_DBL, R(gpu.fp8_tflops), F_TFLOPS, "tensor-core peak with e4m3/e5m2 inputs (0: none or not known)"},
	{"gpu.bw_gbs", T_DBL, R(gpu.bw_gbs), F_GBS, "DRAM bandwidth"},
	{"gpu.l2_gbs", T_DBL, R(gpu.l2_gbs), F_GBS, "L2 -> SM bandwidth (assets/gpus.tsv says whether measured)"},
	{"gpu.smem_gbs", T_DBL, R(gpu.smem_gbs), F_GBS, "L1/shared data path, all SMs"},
	{"gpu.regs_per_sm", T_INT, R(gpu.regs_per_sm), F_INT, "32-bit registers per SM"},
	{"gpu.max_warps_per_sm", T_INT, R(gpu.max_warps_per_sm), F_INT, "resident warps per SM at most"},
	{"gpu.max_blocks_per_sm", T_INT, R(gpu.max_blocks_per_sm), F_INT, "resident blocks per SM at most"},
	{"gpu.smem_per_block", T_INT, R(gpu.smem_per_block), F_INT, "shared bytes a block may use without opting in"},
	{"gpu.smem_optin", T_INT, R(gpu.smem_optin), F_INT, "shared bytes a block may opt into (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)"},
	{"gpu.smem_reserved", T_INT, R(gpu.smem_reserved), F_INT, "shared bytes the system reserves per block"},
	{"gpu.l2_kb", T_INT, R(gpu.l2_kb), F_INT, "L2 size, KiB"},
	{"gpu.smem_per_sm", T_INT, R(gpu.smem_per_sm), F_INT, "shared memory per SM, bytes"},
};
#undef R

static const key_def *find_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_LEN(keys); i++)
		if (!strcmp(keys[i].key, key))
			return &keys[i];
	return NULL;
}

static int is_param_key(const char *key)
{
	if (strncmp(key, "param.", 6) || !key[6] || strlen(key + 6) >= EXPR_NAME_MAX)
		return 0;
	for (const char *p = key + 6; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

/* {measured.*} and the SASS counts {sass.*}: rows of the measured-data file (model/measured.c). */
static int is_measured_key(const char *key) { return !strncmp(key, "measured.", 9) || !strncmp(key, "sass.", 5); }

/* {fmt.TYPE.FIELD}: a number format's bit fields and extremes (course/dtype.c). */
static int is_fmt_key(const char *key) { return !strncmp(key, "fmt.", 4); }

int model_known(const char *key)
{
	double v;
	return find_key(key) != NULL || is_param_key(key) || (is_measured_key(key) && measured_known(key)) ||
	       (is_fmt_key(key) && !dtype_fmt_value(key, &v));
}

int model_key_count(void) { return (int)ARRAY_LEN(keys); }
const char *model_key_name(int i) { return i >= 0 && i < (int)ARRAY_LEN(keys) ? keys[i].key : NULL; }
const char *model_key_help(int i) { return i >= 0 && i < (int)ARRAY_LEN(keys) ? keys[i].help : NULL; }

int model_value(const model_result *r, const char *key, double *out)
{
	if (is_param_key(key)) {
		long long v;
		if (!expr_get(&r->env, key + 6, &v))
			return -1;
		*out = (double)v;
		return 0;
	}
	if (is_measured_key(key))
		return measured_value(r->lesson_number, key, out);
	if (is_fmt_key(key))
		return dtype_fmt_value(key, out);
	const key_def *k = find_key(key);
	if (!k)
		return -1;
	const char *base = (const char *)r + k->off;
	switch (k->type) {
	case T_DBL: *out = *(const double *)base; return 0;
	case T_INT: *out = *(const int *)base; return 0;
	case T_LL: *out = (double)*(const long long *)base; return 0;
	case T_STR:
	case T_CHARS: return -1;
	}
	return -1;
}

/* One key's value as a JSON member named name: numbers as they are (n/a: null). */
static void json_member(const model_result *r, json_writer *w, const key_def *k, const char *name)
{
	const char *base = (const char *)r + k->off;
	switch (k->type) {
	case T_DBL: json_num(w, name, *(const double *)base); return;
	case T_INT: json_int(w, name, *(const int *)base); return;
	case T_LL: json_int(w, name, *(const long long *)base); return;
	case T_STR: {
		const char *str = *(const char *const *)base;
		if (str)
			json_str(w, name, str);
		else
			json_null(w, name);
		return;
	}
	case T_CHARS: json_str(w, name, base); return;
	}
}

/* The keys under prefix (plen bytes: "" or "ai." or "occupancy.limits.") as
 * members: a leaf as its value, a group as an object of its own, written
 * once, where its first key stands in the table. */
static void json_level(const model_result *r, json_writer *w, const char *prefix, size_t plen)
{
	for (size_t i = 0; i < ARRAY_LEN(keys); i++) {
		if (strncmp(keys[i].key, prefix, plen))
			continue; /* (a shorter key than the prefix too: nothing past its end is read) */
		const char *name = keys[i].key + plen, *dot = strchr(name, '.');
		if (!dot) {
			json_member(r, w, &keys[i], name);
			continue;
		}
		size_t glen = (size_t)(dot - name) + 1; /* the group's name and its dot */
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strncmp(keys[j].key, keys[i].key, plen + glen);
		if (seen)
			continue;
		char group[64], sub[128];
		snprintf(group, sizeof group, "%.*s", (int)glen - 1, name);
		snprintf(sub, sizeof sub, "%.*s", (int)(plen + glen), keys[i].key);
		json_obj(w, group);
		json_level(r, w, sub, plen + glen);
		json_end(w);
	}
}

void model_json(const model_result *r, json_writer *w)
{
	json_level(r, w, "", 0);
}

void model_format(const model_result *r, const char *key, char *buf, int len)
{
	if (len <= 0)
		return;
	buf[0] = '\0';
	if (is_param_key(key)) {
		long long v;
		if (expr_get(&r->env, key + 6, &v))
			snprintf(buf, (size_t)len, "%lld", v);
		else
			snprintf(buf, (size_t)len, "?");
		return;
	}
	if (is_measured_key(key)) {
		measured_format(r->lesson_number, key, buf, len);
		return;
	}
	if (is_fmt_key(key) && !dtype_fmt_format(key, buf, (size_t)len))
		return;
	const key_def *k = find_key(key);
	if (!k) {
		snprintf(buf, (size_t)len, "{%s?}", key);
		return;
	}
	const char *base = (const char *)r + k->off;
	if (k->type == T_STR) {
		const char *s = *(const char *const *)base;
		snprintf(buf, (size_t)len, "%s", s ? s : "-");
		return;
	}
	if (k->type == T_CHARS) {
		snprintf(buf, (size_t)len, "%s", base[0] ? base : "-");
		return;
	}
	double v = 0;
	model_value(r, key, &v);
	if (isnan(v)) {
		snprintf(buf, (size_t)len, "n/a");
		return;
	}
	/* Every number goes through base/numfmt: one set of digits and prefixes for prose, panes and CLI. */
	char frac[48], num[48];
	switch (k->fmt) {
	case F_FLOPB: numfmt_unit(buf, (size_t)len, v, "FLOP/B"); break;
	case F_KCOUNT:
		numfmt_count(num, sizeof num, v);
		/* 1 (a store per output) is a count, not a fraction of K. */
		if (numfmt_kfrac(frac, sizeof frac, v, r->K)[0] && v != 1)
			snprintf(buf, (size_t)len, "%s = %s", frac, num);
		else
			snprintf(buf, (size_t)len, "%s", num);
		break;
	case F_MS: numfmt_unit(buf, (size_t)len, v, "ms"); break;
	case F_PCT: numfmt_pct(buf, (size_t)len, v); break;
	case F_TFLOPS: numfmt_unit(buf, (size_t)len, v, "TFLOP/s"); break;
	case F_GBS: numfmt_unit(buf, (size_t)len, v, "GB/s"); break;
	case F_FLOP: numfmt_si(buf, (size_t)len, v, "FLOP"); break;
	case F_BYTES: numfmt_si(buf, (size_t)len, v, "B"); break;
	case F_COUNT: numfmt_si(buf, (size_t)len, v, ""); break;
	case F_SECT:
	case F_NUM:
	case F_INT:
	case F_STR: numfmt_count(buf, (size_t)len, v); break;
	}
}
