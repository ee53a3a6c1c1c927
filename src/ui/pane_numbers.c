/* ui/pane_numbers: the model's numbers (and an emulated run's counts under them) as styled lines, with a text roofline; reads the state, never changes it. */
#include "ui/pane_numbers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/util.h"
#include "model/measured.h"
#include "ui/ptx_stalls.h"

enum { PLOT_H = 6, PLOT_LABEL = 7, PLOT_MAXW = 160 };

/* A log-log plot: x is arithmetic intensity over [lo, hi], y attainable
 * FLOP/s over [ylo, yhi]; cells hold a glyph and a role. */
typedef struct {
	int cw;
	double lo, hi, ylo, yhi;
	uint32_t cell[PLOT_H][PLOT_MAXW];
	uint8_t role[PLOT_H][PLOT_MAXW];
} plot;

static int plot_x(const plot *p, double v)
{
	return (int)lround((log(v) - log(p->lo)) / (log(p->hi) - log(p->lo)) * (p->cw - 1));
}

static int plot_y(const plot *p, double v)
{
	return (PLOT_H - 1) - (int)lround((log(v) - log(p->ylo)) / (log(p->yhi) - log(p->ylo) + 1e-12) * (PLOT_H - 1));
}

static void plot_set(plot *p, int x, int y, uint32_t c, ui_role role)
{
	if (x >= 0 && x < p->cw && y >= 0 && y < PLOT_H)
		p->cell[y][x] = c, p->role[y][x] = (uint8_t)role;
}

/* The plot's rows with the FLOP/s axis labels, the x axis and its range. */
static void plot_emit(ui_lines *t, const plot *p, const ui_glyphs *g, int ascii)
{
	for (int y = 0; y < PLOT_H; y++) {
		char lab[32] = "";
		if (y == 0)
			numfmt_si(lab, sizeof lab, p->yhi * 1e9, "");
		else if (y == PLOT_H - 1)
			numfmt_si(lab, sizeof lab, p->ylo * 1e9, "");
		else if (y == PLOT_H / 2)
			util_strlcpy(lab, "FLOP/s", sizeof lab);
		ui_lines_addf(t, UI_ROLE_DIM, "%*.*s", PLOT_LABEL, PLOT_LABEL, lab);
		ui_lines_put(t, g->vline, UI_ROLE_BORDER);
		for (int x = 0; x < p->cw; x++)
			ui_lines_put(t, p->cell[y][x], (ui_role)p->role[y][x]);
		ui_lines_nl(t);
	}
	ui_lines_addf(t, UI_ROLE_DIM, "%*s", PLOT_LABEL, "");
	ui_lines_put(t, ascii ? '+' : 0x2514, UI_ROLE_BORDER);
	for (int x = 0; x < p->cw; x++)
		ui_lines_put(t, g->hline, UI_ROLE_BORDER);
	ui_lines_nl(t);
	char l1[32], l2[48];
	numfmt_sig(l1, sizeof l1, p->lo);
	numfmt_unit(l2, sizeof l2, p->hi, "FLOP/B");
	if ((int)(strlen(l1) + 1 + strlen(l2)) > p->cw) /* a narrow plot: the number; the legend gives the unit */
		numfmt_sig(l2, sizeof l2, p->hi);
	ui_lines_addf(t, UI_ROLE_DIM, "%*s%s", PLOT_LABEL + 1, "", l1);
	int pad = p->cw - (int)strlen(l1) - (int)strlen(l2);
	ui_lines_addf(t, UI_ROLE_DIM, "%*s%s", pad > 1 ? pad : 1, "", l2);
	ui_lines_nl(t);
}

/* The hierarchical roofline's levels: each a ceiling (AI × bandwidth,
 * capped by the peak) and this kernel's intensity at that level, from the
 * least traffic the level must carry (model.h: a true bound). */
typedef struct {
	const char *name;
	uint32_t mark;   /* the kernel's point on this level's roof */
	double ai, bw;   /* FLOP/B, GB/s */
	ui_role role;
} roof_level;

/* Without a kernel (kernel 0) each level sits at its own ridge, so the
 * plot spans the GPU's roofs and marks nothing. */
static int roof_levels(const model_result *m, int kernel, roof_level *lv)
{
	roof_level all[] = {
		{"L1/shared", '1', m->ai_l1, m->gpu.smem_gbs, UI_ROLE_DIM},
		{"L2", '2', m->ai_l2, m->gpu.l2_gbs, UI_ROLE_BORDER},
		{"DRAM", 'D', m->ai_dram_ideal, m->gpu.bw_gbs, UI_ROLE_BAR},
	};
	int n = 0;
	for (size_t i = 0; i < ARRAY_LEN(all); i++) {
		if (!kernel && all[i].bw > 0)
			all[i].ai = m->peak_tflops * 1e3 / all[i].bw;
		if (all[i].ai > 0 && all[i].bw > 0 && isfinite(all[i].ai))
			lv[n++] = all[i];
	}
	return n;
}

/* The legend, a line per level (wrapped, never cut): its letter, which
 * names the ceiling where it first shows and, highlighted, this kernel's
 * point on it; the level's bandwidth; the kernel's intensity there. */
static void roof_legend(ui_lines *t, const roof_level *lv, int n, int kernel, int w)
{
	for (int i = n - 1; i >= 0; i--) {
		char bw[32], ai[32], s[128];
		numfmt_si(bw, sizeof bw, lv[i].bw * 1e9, "B/s");
		if (kernel)
			snprintf(s, sizeof s, "%s ceiling, %s; this kernel at %s FLOP/B", lv[i].name, bw,
				 numfmt_sig(ai, sizeof ai, lv[i].ai));
		else
			snprintf(s, sizeof s, "%s ceiling, %s", lv[i].name, bw);
		ui_lines_put(t, ' ', UI_ROLE_NORMAL);
		ui_lines_put(t, lv[i].mark, kernel ? UI_ROLE_BAR_SELF : lv[i].role);
		ui_lines_put(t, ' ', UI_ROLE_NORMAL);
		ui_lines_para(t, s, UI_ROLE_NORMAL, w, 3);
	}
}

/* A log-log hierarchical roofline: one ceiling per level (DRAM, L2,
 * L1/shared), attainable = min(peak, AI × bandwidth), with this kernel's
 * point on each and, after a run, the measured rate at each level's
 * intensity. The measured point is never drawn above its roof: the bound
 * says it cannot be, and if a GPU's figures are too low to hold it, the
 * point sits on the roof and the legend says so. Without a kernel (lesson
 * 0), only the GPU's ceilings. */
static void roofline(ui_lines *t, const ui_app *a, int w, int kernel)
{
	const model_result *m = &a->model;
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	double peak = m->peak_tflops * 1e3; /* GFLOP/s */
	roof_level lv[3];
	int n = roof_levels(m, kernel, lv);
	if (peak <= 0 || n == 0)
		return;
	plot p;
	p.cw = w - PLOT_LABEL - 1;
	if (p.cw < 16)
		return;
	if (p.cw > PLOT_MAXW)
		p.cw = PLOT_MAXW;
	p.lo = p.hi = lv[0].ai;
	for (int i = 0; i < n; i++) {
		double ridge = peak / lv[i].bw;
		p.lo = fmin(p.lo, fmin(lv[i].ai, ridge));
		p.hi = fmax(p.hi, fmax(lv[i].ai, ridge));
	}
	p.lo /= 4, p.hi *= 4;
	p.ylo = peak;
	for (int i = 0; i < n; i++)
		p.ylo = fmin(p.ylo, p.lo * lv[i].bw);
	p.yhi = peak;
	const run_result *r = a->slot[a->lesson].have ? &a->slot[a->lesson].res : NULL;
	double meas = r && r->status == RUN_OK ? r->gflops : 0;
	if (meas > 0 && meas < p.ylo)
		p.ylo = meas;
	for (int y = 0; y < PLOT_H; y++)
		for (int x = 0; x < p.cw; x++)
			p.cell[y][x] = ' ', p.role[y][x] = UI_ROLE_NORMAL;
	for (int i = 0; i < n; i++) /* L1 first, DRAM last: DRAM on top where they meet */
		for (int x = 0; x < p.cw; x++) {
			double xv = exp(log(p.lo) + (log(p.hi) - log(p.lo)) * x / (p.cw - 1));
			double at = fmin(peak, xv * lv[i].bw);
			plot_set(&p, x, plot_y(&p, at), at >= peak ? g->hline : (a->ascii ? '/' : 0x2571), lv[i].role);
		}
	/* Each ceiling named by its letter where it first shows from the left
	 * (where another drew over it, further on), in its own colour; the
	 * kernel's points are the same letters, highlighted. */
	for (int i = n - 1; i >= 0; i--)
		for (int x = 0; x < p.cw / 2; x++) {
			double xv = exp(log(p.lo) + (log(p.hi) - log(p.lo)) * x / (p.cw - 1));
			double at = fmin(peak, xv * lv[i].bw);
			int y = plot_y(&p, at);
			if (at < peak && p.role[y][x] == lv[i].role && (p.cell[y][x] == '/' || p.cell[y][x] == 0x2571)) {
				plot_set(&p, x, y, lv[i].mark, lv[i].role);
				break;
			}
		}
	uint32_t measured = a->ascii ? 'x' : 0x25C6;
	if (!kernel) { /* the GPU alone: its roofs */
		plot_emit(t, &p, g, a->ascii);
		roof_legend(t, lv, n, 0, w);
		return;
	}
	int clamped = 0;
	for (int i = 0; i < n; i++) {
		double roof = fmin(peak, lv[i].ai * lv[i].bw);
		int px = plot_x(&p, lv[i].ai);
		plot_set(&p, px, plot_y(&p, roof), lv[i].mark, UI_ROLE_BAR_SELF);
		if (meas > 0) {
			clamped |= meas > roof;
			int my = plot_y(&p, fmin(meas, roof));
			if (my != plot_y(&p, roof))
				plot_set(&p, px, my, measured, UI_ROLE_GOOD);
		}
	}
	plot_emit(t, &p, g, a->ascii);
	roof_legend(t, lv, n, 1, w);
	if (meas > 0) {
		ui_lines_put(t, ' ', UI_ROLE_NORMAL);
		ui_lines_put(t, measured, UI_ROLE_GOOD);
		ui_lines_add(t, clamped ? " measured: above a roof, so this GPU's figures in assets/gpus.tsv are too low"
					: " measured, under every roof",
			     clamped ? UI_ROLE_WARN : UI_ROLE_NORMAL);
		ui_lines_nl(t);
	}
}

/* The emulator's counts under the model's: what the kernel as written
 * really does (the emulator does not tell A's loads from B's). */
static void measured_counts(ui_lines *t, const ui_app *a, int w)
{
	const run_result *r = a->slot[a->lesson].have ? &a->slot[a->lesson].res : NULL;
	if (!r || r->backend != RUN_BACKEND_EMU || (r->status != RUN_OK && r->status != RUN_WRONG))
		return;
	const run_emu_counts *e = &r->emu;
	char v[64], n[96], sz[32];
	numfmt_size(sz, sizeof sz, e->M, e->N, e->K, a->ascii);
	snprintf(n, sizeof n, "loads of A and B, %s", sz);
	ui_lines_kv(t, "emu sectors", numfmt_ratio(v, sizeof v, e->gld_sectors, e->gld_requests), UI_ROLE_EMPH, n, w);
	ui_lines_kv(t, "emu stores", numfmt_ratio(v, sizeof v, e->gst_sectors, e->gst_requests), UI_ROLE_EMPH,
		    "sectors/request", w);
	if (e->sld_requests) {
		snprintf(n, sizeof n, "%llu conflicts", e->sld_conflicts);
		ui_lines_kv(t, "emu smem rd", numfmt_ratio(v, sizeof v, e->sld_wavefronts, e->sld_requests),
			    UI_ROLE_EMPH, n, w);
	}
}

static void intensity(ui_lines *t, const model_result *m, int w)
{
	char v[64], r[32], n[128];
	ui_lines_section(t, "Intensity (FLOP/B)");
	/* Against the ridge is what every load from DRAM would give; the regime
	 * proper is the level that binds the bound (Roofline section). */
	int below = m->ai_global < m->ridge;
	if (isnan(m->ridge))
		snprintf(n, sizeof n, "the ridge is not known");
	else if (w < 40) /* a narrow slot: the words, not the unit; "ridge 320" kept on one row (a no-break space) */
		snprintf(n, sizeof n, "%s ridge\u00A0%s", below ? "below" : "at or above", numfmt_sig(r, sizeof r, m->ridge));
	else /* what it means where there is room for it */
		snprintf(n, sizeof n, "%s the ridge (%s FLOP/B)%s", below ? "below" : "at or above",
			 numfmt_sig(r, sizeof r, m->ridge),
			 w < 60 ? "" : below ? ": memory-bound if every load went to DRAM" : ": compute-bound even from DRAM");
	ui_lines_kv(t, "global", numfmt_sig(v, sizeof v, m->ai_global), UI_ROLE_EMPH, n, w);
	if (m->ai_shared > 0)
		ui_lines_kv(t, "shared", numfmt_sig(v, sizeof v, m->ai_shared), UI_ROLE_EMPH, NULL, w);
	ui_lines_kv(t, "DRAM, ideal", numfmt_sig(v, sizeof v, m->ai_dram_ideal), UI_ROLE_EMPH, "A, B read once", w);
}

/* Loads per output element, also as a fraction of K ("K/16"). */
static void per_output(ui_lines *t, const model_result *m, int w)
{
	char v[64], n[96];
	ui_lines_section(t, "Per output element");
	ui_lines_kv(t, "global loads|gmem loads", numfmt_count(v, sizeof v, m->global.loads_per_output), UI_ROLE_EMPH,
		    numfmt_kfrac(n, sizeof n, m->global.loads_per_output, m->K), w);
	if (m->shared.loads_per_output > 0)
		ui_lines_kv(t, "shared loads|smem loads", numfmt_count(v, sizeof v, m->shared.loads_per_output), UI_ROLE_EMPH,
			    numfmt_kfrac(n, sizeof n, m->shared.loads_per_output, m->K), w);
}

/* "x / y" of two values, for A and B. */
static void pair(char *buf, size_t len, double x, double y)
{
	char a[32], b[32];
	snprintf(buf, len, "%s / %s", numfmt_sig(a, sizeof a, x), numfmt_sig(b, sizeof b, y));
}

static void per_request(ui_lines *t, const model_result *m, int w)
{
	char v[80];
	ui_lines_section(t, "Per warp request");
	if (isnan(m->sectors_A) && isnan(m->sectors_B)) {
		/* TMA and wgmma: no per-thread loads to look at. */
		ui_lines_kv(t, "sectors A / B|sectors A/B", "n/a", UI_ROLE_EMPH, "no per-thread loads", w);
	} else {
		pair(v, sizeof v, m->sectors_A, m->sectors_B);
		ui_lines_kv(t, "sectors A / B|sectors A/B", v, UI_ROLE_EMPH, "32 B each", w);
		pair(v, sizeof v, m->gwavefronts_A, m->gwavefronts_B);
		ui_lines_kv(t, "L1 passes A/B|L1 pass A/B", v, UI_ROLE_EMPH, "1 per 128 B line", w);
	}
	if (m->wavefronts_A > 0 || m->wavefronts_B > 0) {
		/* What is conflict-free follows the access width (4 passes for a
		 * warp's 16-byte reads), so the note says it for this kernel. */
		char ideal[80], n[96];
		pair(v, sizeof v, m->wavefronts_A, m->wavefronts_B);
		pair(ideal, sizeof ideal, m->wavefronts_ideal_A, m->wavefronts_ideal_B);
		if (!(m->wavefronts_A > m->wavefronts_ideal_A) && !(m->wavefronts_B > m->wavefronts_ideal_B))
			snprintf(n, sizeof n, "no bank conflict");
		else
			snprintf(n, sizeof n, "conflict-free: %s", ideal);
		ui_lines_kv(t, "smem pass A/B|smem A/B", v, UI_ROLE_EMPH, n, w);
	}
}

/* A calculator step for a slot w wide: a parenthesis that is one word too
 * wide for it (an API attribute's name) is left out, the sentence kept
 * whole; the wider layouts show it. */
static const char *step_fit(char *buf, size_t len, const char *s, int w)
{
	util_strlcpy(buf, s, len);
	for (char *o = strstr(buf, " ("); o; o = strstr(o + 1, " (")) {
		size_t n = strcspn(o + 2, " )");
		if (o[2 + n] == ')' && (int)n + 2 > w) {
			memmove(o, o + 3 + n, strlen(o + 3 + n) + 1);
			break;
		}
	}
	return buf;
}

/* Occupancy: the result, the launch it is for, each resource's limit with
 * the binding one marked, and the calculator's working. */
static void occupancy(ui_lines *t, const ui_app *a, int w)
{
	const model_result *m = &a->model;
	ui_lines_section(t, "Occupancy");
	if (!m->occ_ok) {
		ui_lines_add(t, " ", UI_ROLE_NORMAL);
		ui_lines_para(t, "not known for this launch shape", UI_ROLE_DIM, w, 1);
		return;
	}
	const occ_result *o = &m->occ;
	if (o->blocks_per_sm < 1) { /* said once at the top: no zero-derived figures */
		ui_lines_add(t, " ", UI_ROLE_NORMAL);
		ui_lines_para(t, "no block fits on an SM of this GPU", UI_ROLE_DIM, w, 1);
		return;
	}
	char pct[32];
	/* Wrapped, not cut, in a narrow slot. */
	char s[160];
	snprintf(s, sizeof s, "%d block%s/SM, %d/%d warps = %s", o->blocks_per_sm, o->blocks_per_sm == 1 ? "" : "s",
		 o->active_warps, o->max_warps, numfmt_pct(pct, sizeof pct, o->occupancy));
	ui_lines_add(t, " ", UI_ROLE_NORMAL);
	ui_lines_para(t, s, UI_ROLE_EMPH, w, 1);
	/* "28 regs (JIT)", and no parentheses in parentheses: "28 regs, recorded (ptxas ...)" */
	const char *src = m->regs_source ? m->regs_source : "?";
	snprintf(s, sizeof s, strchr(src, '(') ? "%d threads, %d B smem, %d regs, %s" : "%d threads, %d B smem, %d regs (%s)",
		 m->threads, m->smem_static + m->smem_dynamic, m->regs_per_thread, src);
	ui_lines_add(t, " ", UI_ROLE_NORMAL);
	ui_lines_para(t, s, UI_ROLE_DIM, w, 1);
	const struct {
		const char *name, *key;
		int v;
	} lim[] = {
		{"by warps", "warps", o->limit_warps},
		{"by registers", "registers", o->limit_regs},
		{"by shared mem", "shared", o->limit_smem},
		{"by block limit", "blocks", o->limit_blocks},
	};
	for (size_t i = 0; i < ARRAY_LEN(lim); i++) {
		int bind = o->limiter && !strcmp(o->limiter, lim[i].key);
		ui_lines_addf(t, bind ? UI_ROLE_BAR_SELF : UI_ROLE_NORMAL, " %-14s%3d blocks", lim[i].name, lim[i].v);
		if (bind && w >= 27) /* " ◀ binds", or the mark alone in a narrow slot (25 columns before it) */
			ui_lines_addf(t, UI_ROLE_BAR_SELF, w >= 33 ? " %s binds" : " %s", a->ascii ? "<" : "\u25C0");
		ui_lines_nl(t);
	}
	for (int s = 0; s < o->nsteps; s++) {
		char step[OCC_STEP_LEN];
		ui_lines_add(t, "  ", UI_ROLE_NORMAL);
		ui_lines_para(t, step_fit(step, sizeof step, o->steps[s], w - 2), UI_ROLE_DIM, w, 4);
	}
}

/* The static instruction mix, as many "op count" items on a line as fit. */
static void instruction_mix(ui_lines *t, const ui_ptx *p, int w)
{
	ui_lines_section(t, "Instruction mix (static)");
	int col = 0;
	ui_lines_put(t, ' ', UI_ROLE_NORMAL);
	for (int i = 0; i < p->nmix; i++) {
		char item[48];
		snprintf(item, sizeof item, "%s %d", p->mix[i].op, p->mix[i].count);
		int iw = (int)strlen(item) + 2;
		if (col && col + iw > w - 1) {
			ui_lines_nl(t);
			ui_lines_put(t, ' ', UI_ROLE_NORMAL);
			col = 0;
		}
		ui_lines_add(t, p->mix[i].op, UI_ROLE_P_INSTR);
		ui_lines_addf(t, UI_ROLE_NORMAL, " %d  ", p->mix[i].count);
		col += iw;
	}
	ui_lines_nl(t);
}

/* ---- the sections, in order; a page names one with @numbers ---- */

static void sec_intensity(ui_lines *t, const ui_app *a, int w)
{
	intensity(t, &a->model, w);
}

static void sec_per_output(ui_lines *t, const ui_app *a, int w)
{
	per_output(t, &a->model, w);
}

static void sec_per_request(ui_lines *t, const ui_app *a, int w)
{
	per_request(t, &a->model, w);
	measured_counts(t, a, w);
}

/* The lesson's time on the H100 at this size, measured (assets/measured-h100.tsv); 0 when
 * the file has none, or the kernel is not the lesson's own (an edit, a what-if). */
static double measured_ms(const ui_app *a)
{
	double ms;
	if (a->whatif.n || a->ptx[a->lesson].edited || a->M != a->N || a->N != a->K ||
	    measured_lesson_ms(ui_app_lesson(a)->number, a->M, &ms) < 0)
		return 0;
	return ms;
}

/* The estimate (exec/estimate.h, made in a child) and, where there is one,
 * the measured time beside it with the estimate's error. */
static void estimate_rows(ui_lines *t, const ui_app *a, int w)
{
	const ui_estimate *e = &a->est;
	char v[64], n[160];
	if (e->state == UI_EST_WANT || e->state == UI_EST_BUSY) {
		ui_lines_kv(t, "estimate", "...", UI_ROLE_DIM, "emulating a few blocks", w);
	} else if (e->state == UI_EST_FAILED) {
		ui_lines_kv(t, "estimate", "n/a", UI_ROLE_DIM, e->why, w);
	} else if (e->state == UI_EST_DONE) {
		snprintf(n, sizeof n, "%s; from %lld of %lld blocks", estimate_term_name(e->e.limit), e->blocks_run,
			 e->blocks);
		ui_lines_kv(t, "estimate", numfmt_unit(v, sizeof v, e->e.ms, "ms"), UI_ROLE_EMPH, n, w);
		double ms = measured_ms(a);
		if (ms > 0)
			snprintf(n, sizeof n, "H100; the estimate is %+.0f%%", 100 * (e->e.ms / ms - 1));
		else
			snprintf(n, sizeof n, "within %.0f%% on lessons 1-11 (H100)", 100 * ESTIMATE_TOL_LESSONS);
		ui_lines_kv(t, ms > 0 ? "measured" : "", ms > 0 ? numfmt_unit(v, sizeof v, ms, "ms") : "", UI_ROLE_EMPH,
			    n, w);
	}
}

/* W: the stall model's line — how busy the issue slots are and what the warps wait on most, where. */
static void stall_rows(ui_lines *t, const ui_app *a, int w)
{
	const ui_stalls *st = &a->stalls;
	const exec_stalls_brief *b = ui_stalls_of(a);
	char v[64], n[200];
	if (!st->view)
		return;
	if (b) {
		ui_stalls_summary(a, b, v, sizeof v, n, sizeof n);
		ui_lines_kv(t, "stalls", v, UI_ROLE_EMPH, n, w);
	} else if (st->state == UI_STALLS_FAILED) {
		ui_lines_kv(t, "stalls", "none", UI_ROLE_DIM, st->why, w);
	} else {
		ui_lines_kv(t, "stalls", "...", UI_ROLE_DIM, "modelling one SM", w);
	}
}

static void sec_roofline(ui_lines *t, const ui_app *a, int w)
{
	const model_result *m = &a->model;
	char v[64];
	ui_lines_section(t, "Roofline");
	roofline(t, a, w, 1);
	ui_lines_kv(t, "peak", numfmt_si(v, sizeof v, m->peak_tflops * 1e12, "FLOP/s"), UI_ROLE_EMPH, m->unit, w);
	ui_lines_kv(t, "bound", numfmt_unit(v, sizeof v, m->bound_ms, "ms"), UI_ROLE_EMPH,
		    m->bound_limit ? m->bound_limit : "?", w);
	estimate_rows(t, a, w);
	stall_rows(t, a, w);
}

static void sec_mix(ui_lines *t, const ui_app *a, int w)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	if (p->ok && p->nmix && !p->example)
		instruction_mix(t, p, w);
}

static const struct {
	const char *name;
	void (*emit)(ui_lines *t, const ui_app *a, int w);
} sections[] = {
	{"intensity", sec_intensity}, {"per-output", sec_per_output}, {"per-request", sec_per_request},
	{"roofline", sec_roofline},   {"occupancy", occupancy},       {"mix", sec_mix},
};

int ui_pane_numbers_known(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(sections); i++)
		if (!strcmp(sections[i].name, name))
			return 1;
	return 0;
}

/* A lesson without a kernel (lesson 0): the chosen GPU's roofline, no
 * kernel's numbers. */
static void gpu_only(ui_lines *t, const ui_app *a, int w)
{
	const model_result *m = &a->model;
	char v[64];
	ui_lines_section(t, "The GPU (model)");
	ui_lines_kv(t, "GPU", m->gpu.name, UI_ROLE_EMPH, NULL, w);
	ui_lines_kv(t, "peak", numfmt_si(v, sizeof v, m->peak_tflops * 1e12, "FLOP/s"), UI_ROLE_EMPH, m->unit, w);
	ui_lines_kv(t, "DRAM bandwidth|DRAM bw", numfmt_si(v, sizeof v, m->gpu.bw_gbs * 1e9, "B/s"), UI_ROLE_EMPH, NULL, w);
	ui_lines_kv(t, "ridge point", numfmt_unit(v, sizeof v, m->ridge, "FLOP/B"), UI_ROLE_EMPH,
		    "below it memory-bound", w);
	ui_lines_section(t, "Roofline");
	roofline(t, a, w, 0);
	ui_lines_para(t, "No kernel in this lesson: the numbers of a kernel start with lesson 1.", UI_ROLE_DIM, w, 1);
}

void ui_pane_numbers_text(ui_lines *t, const ui_app *a, int w)
{
	if (!a->model_ok) {
		ui_lines_para(t, a->model_err[0] ? a->model_err : "No model for this lesson.", UI_ROLE_DIM, w, 0);
		return;
	}
	if (!ui_app_lesson(a)->ptx_path[0]) {
		gpu_only(t, a, w);
		return;
	}
	const lesson_page *pg = ui_app_page(a);
	const char *want = pg && pg->numbers[0] ? pg->numbers : NULL;
	if (!a->model.runs) {
		char s[256];
		snprintf(s, sizeof s, "Cannot run here: %s. The figures below are the model's, of no run.", a->model.why_not);
		ui_lines_para(t, s, UI_ROLE_WARN, w, 0);
		ui_lines_nl(t);
	}
	for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
		int here = want && !strcmp(want, sections[i].name);
		if (here)
			t->mark_first = t->nlines;
		sections[i].emit(t, a, w);
		if (here)
			t->mark_last = t->nlines - 1;
	}
	if (want && !ui_pane_numbers_known(want)) {
		ui_lines_addf(t, UI_ROLE_WARN, "@numbers %s: no such section", want);
		ui_lines_nl(t);
	}
}
