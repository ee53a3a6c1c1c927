/* ui/pane_run: runs as styled lines — progress, GFLOP/s against cuBLAS, the verdict, the emulator's counts, failures, the ladder; reads the state, never changes it. */
#include "ui/pane_run.h"

#include "run/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/util.h"
#include "course/dtype.h"
#include "ui/keys.h"

/* A horizontal bar of w cells filled to frac, in eighths of a cell. */
static void bar(ui_lines *t, const ui_glyphs *g, double frac, int w, ui_role role)
{
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	int eighths = (int)lround(frac * w * 8);
	for (int i = 0; i < w; i++) {
		int e = eighths - i * 8;
		e = e < 0 ? 0 : e > 8 ? 8 : e;
		ui_lines_put(t, g->eighths[e], role);
	}
}

/* The relative error against the reference and the verdict; pass and fail
 * say what the reference was. */
static void verdict(ui_lines *t, const run_result *r, const char *pass, const char *fail, int w)
{
	if (r->verified >= 0) {
		char v[48], n[48], tol[32];
		run_report rep;
		run_report_make(&rep, NULL, r, 0);
		snprintf(n, sizeof n, "tol %s", run_figure(&rep, "tolerance", tol, sizeof tol));
		ui_lines_kv(t, "rel. error", run_figure(&rep, "rel_error", v, sizeof v), UI_ROLE_EMPH, n, w);
	}
	if (r->verified == 1)
		ui_lines_kv(t, "verdict", pass, UI_ROLE_GOOD, NULL, w);
	else if (r->verified == 0)
		ui_lines_kv(t, "verdict", fail, UI_ROLE_BAD, NULL, w);
	else
		ui_lines_kv(t, "verdict", "not checked", UI_ROLE_DIM, NULL, w);
	if (r->status == RUN_WRONG)
		ui_lines_para(t, r->msg, UI_ROLE_BAD, w, 1);
}

/* An emulated run: the verdict against the CPU reference and what the
 * emulator counted, as Nsight Compute would. */
static void emulated(ui_lines *t, const ui_app *a, const run_result *r, int w)
{
	const run_emu_counts *e = &r->emu;
	run_report rep;
	char v[64], sz[32];
	run_report_make(&rep, NULL, r, 0);
	char head[96];
	numfmt_size(sz, sizeof sz, e->M, e->N, e->K, a->ascii);
	snprintf(head, sizeof head, "Emulated on the CPU at %s%s", sz, a->offline ? " (no GPU)" : "");
	ui_lines_para(t, head, UI_ROLE_EMPH, w, 0);
	verdict(t, r, "PASS, verified on the CPU", "FAIL", w);
	/* label, figure, note; a row only when what it counts happened (a
	 * kernel that copies through TMA issues no global loads or stores:
	 * its bytes stand there instead) */
	static const struct {
		const char *label, *key, *note, *only_if;
	} rows[] = {
		{"gmem loads", "emu.global_loads.sectors_per_request", "sectors/request", "emu.global_loads.requests"},
		{"gmem loads", "emu.tma.l2_bytes", "bytes via TMA", "emu.tma.l2_bytes"},
		{"gmem stores", "emu.global_stores.sectors_per_request", "sectors/request", "emu.global_stores.requests"},
		{"gmem stores", "emu.tma.store_bytes", "bytes via TMA", "emu.tma.store_bytes"},
		{"smem loads", "emu.shared_loads.wavefronts_per_request", "wavefronts/request", "emu.shared_loads.requests"},
		{"  conflicts", "emu.shared_loads.bank_conflicts", "bank conflicts", "emu.shared_loads.requests"},
		{"smem stores", "emu.shared_stores.wavefronts_per_request", "wavefronts/request", "emu.shared_stores.requests"},
		{"  conflicts", "emu.shared_stores.bank_conflicts", "bank conflicts", "emu.shared_stores.requests"},
		{"warp instr.", "emu.instructions", "issued", NULL},
		{"CPU time", "emu.seconds", NULL, NULL},
	};
	for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
		if (rows[i].only_if && !strcmp(run_figure(&rep, rows[i].only_if, v, sizeof v), "0"))
			continue;
		ui_lines_kv(t, rows[i].label, run_figure(&rep, rows[i].key, v, sizeof v), UI_ROLE_EMPH, rows[i].note, w);
	}
	ui_lines_para(t, "GFLOP/s need a GPU; the counts do not.", UI_ROLE_DIM, w, 1);
}

static void jit_line(ui_lines *t, const run_result *r, int w)
{
	char s[128];
	snprintf(s, sizeof s, "JIT: %d regs, %d B smem, %d blocks/SM", r->regs, r->smem_static, r->blocks_per_sm);
	ui_lines_put(t, ' ', UI_ROLE_DIM);
	ui_lines_para(t, s, UI_ROLE_DIM, w, 1);
}

/* A key and what it does, wrapped at words: "r runs it on the GPU." */
static void key_says(ui_lines *t, const char *key, const char *does, int w, int indent)
{
	ui_run b = {0};
	ui_run_puts(&b, key, strlen(key), UI_ROLE_KEY);
	ui_run_puts(&b, does, strlen(does), UI_ROLE_DIM);
	ui_lines_wrap(t, &b, w, indent);
	ui_run_free(&b);
}

/* A timed GPU run: GFLOP/s, time, against cuBLAS and the lesson before. */
static void timed(ui_lines *t, const ui_app *a, const run_result *r, int w)
{
	char v[48], n[64], c[32];
	const run_result *prev = a->lesson > 0 && a->slot[a->lesson - 1].have ? &a->slot[a->lesson - 1].res : NULL;
	int has_prev = prev && prev->status == RUN_OK && prev->gflops > 0;
	run_report rep;
	run_report_make(&rep, NULL, r, has_prev ? prev->gflops : 0);
	ui_lines_kv(t, "GFLOP/s", run_figure(&rep, "gflops", v, sizeof v), UI_ROLE_EMPH, r->gpu, w);
	ui_lines_kv(t, "time", run_figure(&rep, "ms", v, sizeof v), UI_ROLE_EMPH, "median", w);
	if (r->cublas_gflops > 0) {
		const char *ref = dtype_reference(ui_app_lesson(a)->dt);
		char of[32];
		snprintf(n, sizeof n, "%s %s GFLOP/s", ref, run_figure(&rep, "cublas_gflops", c, sizeof c));
		snprintf(of, sizeof of, "of %s", ref);
		ui_lines_kv(t, of, run_figure(&rep, "pct_of_cublas", v, sizeof v), UI_ROLE_EMPH, n, w);
	}
	if (has_prev)
		ui_lines_kv(t, "speed-up", run_figure(&rep, "speedup", v, sizeof v), UI_ROLE_EMPH,
			    a->course->l[a->lesson - 1].id, w);
	verdict(t, r, "PASS, verified (cuBLAS)", "FAIL, differs from cuBLAS", w);
	if (r->regs > 0)
		jit_line(t, r, w);
}

/* What a failed run means for the student, after its message. */
static void failure_notes(ui_lines *t, const ui_app *a, const run_result *r, int w)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	if (r->status == RUN_FAULT && r->backend != RUN_BACKEND_EMU)
		ui_lines_para(t, "The worker restarted with a fresh GPU context.", UI_ROLE_DIM, w, 1);
	else if (r->status == RUN_TIMEOUT && r->backend != RUN_BACKEND_EMU)
		ui_lines_para(t, "The kernel was killed at its deadline and the worker restarted.", UI_ROLE_DIM, w, 1);
	else if (r->status == RUN_TIMEOUT)
		ui_lines_para(t, "The emulator's instruction budget ran out: an endless loop?", UI_ROLE_DIM, w, 1);
	if (p->nmarks)
		ui_lines_para(t, "The PTX pane marks the lines.", UI_ROLE_DIM, w, 1);
	if (p->edited)
		ui_lines_para(t, "Your edit is kept: e edits it again, R compares and restores.", UI_ROLE_DIM, w, 1);
}

/* A run the tutor did not send (a model-only what-if, no size the
 * emulator takes): why, as a sentence of its own. */
static void refused(ui_lines *t, const run_result *r, int w)
{
	ui_lines_para(t, r->msg, UI_ROLE_WARN, w, 1);
}

/* A run that did not finish: what went wrong, what it means, the JIT's log. */
static void failed(ui_lines *t, const ui_app *a, const run_result *r, int w)
{
	if (a->slot[a->lesson].refused) {
		refused(t, r, w);
		return;
	}
	ui_run b = {0};
	const char *what = r->status == RUN_NO_GPU ? "No GPU:"
		: r->backend == RUN_BACKEND_EMU && r->status == RUN_JIT_ERROR ? "the emulator cannot read it"
		: r->backend == RUN_BACKEND_EMU && r->status == RUN_FAULT ? "fault (emulated)"
		: run_status_name(r->status);
	ui_run_puts(&b, what, strlen(what), r->status == RUN_NO_GPU ? UI_ROLE_WARN : UI_ROLE_BAD);
	if (r->status != RUN_NO_GPU)
		ui_run_puts(&b, ":", 1, UI_ROLE_BAD);
	ui_run_puts(&b, " ", 1, UI_ROLE_NORMAL);
	ui_run_puts(&b, r->msg, strlen(r->msg), UI_ROLE_NORMAL);
	ui_lines_wrap(t, &b, w, 1);
	ui_run_free(&b);
	if (r->status == RUN_NO_GPU)
		ui_lines_para(t, "The text, the PTX, the numbers and the what-ifs work without one.", UI_ROLE_DIM, w, 0);
	failure_notes(t, a, r, w);
	/* The JIT's own words; the emulator's one line is the message already. */
	if (!r->log[0] || r->backend == RUN_BACKEND_EMU)
		return;
	const char *s = r->log;
	for (int k = 0; k < 6 && *s; k++) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char line[256];
		snprintf(line, sizeof line, " %.*s", (int)(n < 250 ? n : 250), s);
		ui_lines_para(t, line, UI_ROLE_DIM, w, 1);
		s = e ? e + 1 : s + n;
	}
}

/* What the kernel printed (printf), the first lines of it: a control byte
 * of the kernel's shows as '?', never reaches the terminal. */
static void printed(ui_lines *t, const run_printf *p, int w)
{
	enum { SHOWN = 8 };
	if (!p->lines && !p->dropped)
		return;
	ui_lines_section(t, "printf");
	int n = 0;
	for (const char *s = p->text; *s && n < SHOWN; n++) {
		size_t len = strcspn(s, "\n");
		char line[256];
		snprintf(line, sizeof line, " %.*s", (int)(len < 250 ? len : 250), s);
		for (char *c = line; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		ui_lines_para(t, line, UI_ROLE_NORMAL, w, 1);
		s += len + (s[len] == '\n');
	}
	long long more = (long long)(p->lines - n) + p->dropped;
	if (more > 0) {
		char s[96];
		snprintf(s, sizeof s, " ... %lld more line%s (run --json has the first %d)", more, more == 1 ? "" : "s",
			 RUN_PRINTF_LINES);
		ui_lines_para(t, s, UI_ROLE_DIM, w, 1);
	}
}

/* The last result of this lesson. */
static void result(ui_lines *t, const ui_app *a, const run_result *r, int w)
{
	if (r->backend == RUN_BACKEND_EMU && (r->status == RUN_OK || r->status == RUN_WRONG)) {
		emulated(t, a, r, w);
	} else if (r->status == RUN_OK && a->slot[a->lesson].check) {
		ui_lines_para(t, "The JIT accepts your edit.", UI_ROLE_GOOD, w, 0);
		jit_line(t, r, w);
		ui_lines_put(t, ' ', UI_ROLE_DIM);
		key_says(t, "r", " runs, verifies and times it.", w, 1);
	} else if (r->status == RUN_OK || r->status == RUN_WRONG) {
		timed(t, a, r, w);
	} else if (r->status != RUN_NO_GPU || !a->offline) {
		failed(t, a, r, w);
	}
	printed(t, &r->printed, w);
}

/* A run going now: what, for how long, what the model expects, the deadline. */
static void busy(ui_lines *t, const ui_app *a, int w)
{
	double el = a->now - a->run_started;
	const char *id = a->course->l[a->run_lesson].id;
	char s[160];
	snprintf(s, sizeof s, "%s %s %s... %.1f s",
		 a->run_emulated ? "Emulating" : a->run_was_check ? "Checking" : "Running", id,
		 a->run_emulated ? "on the CPU " : a->run_was_check ? "with the JIT " : "", el < 0 ? 0 : el);
	ui_lines_para(t, s, UI_ROLE_WARN, w, 0);
	if (a->est.state == UI_EST_DONE && !a->run_emulated && !a->run_was_check) {
		char ms[48];
		snprintf(s, sizeof s, " estimate: ~%s a launch, plus JIT, warm-up, repeats and cuBLAS",
			 numfmt_unit(ms, sizeof ms, a->est.e.ms, "ms"));
		ui_lines_para(t, s, UI_ROLE_DIM, w, 1);
	}
	if (a->run_deadline > 0) {
		snprintf(s, sizeof s, " killed after %.0f s (deadline)", a->run_deadline);
		ui_lines_para(t, s, UI_ROLE_DIM, w, 1);
	}
	ui_lines_put(t, ' ', UI_ROLE_DIM);
	key_says(t, "Esc", " cancels", w, 1);
}

static int on_ladder(const ui_app *a, int i)
{
	return a->slot[i].have && a->slot[i].res.status == RUN_OK && a->slot[i].res.gflops > 0;
}

/* The ladder so far: a bar per lesson run in this session, cuBLAS below. */
static void ladder(ui_lines *t, const ui_app *a, int w)
{
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	double top = 0, cublas = 0;
	int any = 0;
	for (int i = 0; i < a->course->n; i++) {
		if (!on_ladder(a, i))
			continue;
		any++;
		top = fmax(top, a->slot[i].res.gflops);
		cublas = fmax(cublas, a->slot[i].res.cublas_gflops);
	}
	if (!any)
		return;
	top = fmax(top, cublas);
	ui_lines_nl(t);
	ui_lines_section(t, "The ladder (GFLOP/s)");
	int bw = w - 22;
	if (bw < 6)
		bw = 6;
	char v[32];
	for (int i = 0; i < a->course->n; i++) {
		if (!on_ladder(a, i))
			continue;
		ui_role role = i == a->lesson ? UI_ROLE_BAR_SELF : UI_ROLE_BAR;
		ui_lines_addf(t, role, " %2d %-8.8s", a->course->l[i].number, a->course->l[i].id);
		bar(t, g, a->slot[i].res.gflops / top, bw, role);
		ui_lines_addf(t, UI_ROLE_NORMAL, " %s", numfmt_sig(v, sizeof v, a->slot[i].res.gflops));
		ui_lines_nl(t);
	}
	if (cublas > 0) {
		ui_lines_addf(t, UI_ROLE_DIM, "    %-8s", "cuBLAS");
		bar(t, g, cublas / top, bw, UI_ROLE_DIM);
		ui_lines_addf(t, UI_ROLE_DIM, " %s", numfmt_sig(v, sizeof v, cublas));
		ui_lines_nl(t);
	}
}

void ui_pane_run_text(ui_lines *t, const ui_app *a, int w)
{
	const lesson *l = ui_app_lesson(a);
	const run_result *r = a->slot[a->lesson].have ? &a->slot[a->lesson].res : NULL;
	int busy_here = a->run == UI_RUN_BUSY && a->run_lesson == a->lesson;
	const ui_ptx *p = &a->ptx[a->lesson];
	char why[200];
	if (!busy_here && !a->gpu_live && ui_app_gpu_too_old(a, why, sizeof why)) {
		/* --gpu names a GPU the lesson cannot run on: say so where its run would be. */
		ui_lines_para(t, why, UI_ROLE_WARN, w, 0);
		ui_lines_para(t, "Its numbers are what the model says of the kernel; no such run exists.", UI_ROLE_DIM, w, 0);
	}
	if (a->offline && p->emu_refuses && !p->edited && !busy_here) {
		char s[400];
		snprintf(s, sizeof s, "No GPU here, and the CPU emulator cannot run this kernel: %s. "
			 "The text, the PTX, the numbers and the what-ifs work; a run needs the GPU it is written for.",
			 p->emu_why);
		ui_lines_para(t, s, UI_ROLE_WARN, w, 0);
	}
	if (a->run == UI_RUN_BUSY) {
		busy(t, a, w);
	} else if (!r && !(a->offline && p->emu_refuses && !p->edited)) {
		if (!l->ptx_path[0]) {
			ui_lines_para(t, "No kernel in this lesson.", UI_ROLE_DIM, w, 0);
		} else {
			ui_lines_para(t, "Not run yet.", UI_ROLE_DIM, w, 0);
			key_says(t, ui_key_name(UI_MODE_NORMAL, UI_ACT_RUN),
				 a->offline ? " emulates it on the CPU (no GPU here)." : " runs it on the GPU.", w, 0);
		}
	}
	if (a->offline && !busy_here && !r && !p->emu_refuses) {
		char note[300];
		snprintf(note, sizeof note, "No GPU: %s. Runs are emulated on the CPU.", a->offline_why);
		ui_lines_para(t, note, UI_ROLE_DIM, w, 0);
	}
	if (r && !busy_here)
		result(t, a, r, w);
	ladder(t, a, w);
}
