/* test_render_lint: every lesson × page × GPU of assets/gpus.tsv rendered by the tutor's own text renderer (ui_prose, as `show N --screen --page P --gpu G` draws it), and the text checked for what no page may say: zero blocks, warps or SMs, nan, inf, impossible negatives, unfilled {placeholders}, "> " in mid-sentence; then every screen (4 sizes, with and without --present, every page after an emulated run, the boxes, the status messages) checked for text cut mid-word or unmarked, a number parted from its unit, and a PTX pane too narrow for an instruction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "course/cond.h"
#include "course/sass_record.h"
#include "course/sass_tools.h"
#include "exec/backend.h"
#include "exec/warpview.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "ui/draw.h"
#include "ui/pane_ptx.h"
#include "ui/pane_text.h"
#include "ui/ptx_stalls.h"
#include "course/lesson.h"
#include "model/calc.h"
#include "model/devices.h"
#include "model/model.h"
#include "ui/lines.h"
#include "ui/prose.h"

/* Wide enough that no paragraph wraps: a phrase is never split over lines. */
#define LINT_WIDTH 4000

/* What a rendered line must not hold; prose only (fenced code is exempt
 * where the rule says so). */
static const struct {
	const char *re;
	int code_too; /* also in code (a fenced block, `code`) */
	const char *why;
} rules[] = {
	{"(^|[^0-9.,])0 (blocks?|warps?|SMs?|clusters?|rounds?)([^a-z]|$)", 1, "zero blocks/warps/SMs"},
	{"[×x] 0 (blocks?|warps?)", 1, "zero blocks/warps/SMs"},
	{"(^|[^a-z])(nan|inf)([^a-z]|$)", 1, "nan or inf"},
	{"(^|[^a-z])n/a([^a-z]|$)", 0, "a figure the model does not have (n/a)"},
	{"(^|[ (=])-[0-9.]+ ?(blocks?|warps?|SMs?|ms|bytes|B|KiB|MB|GB|TFLOP/s|GFLOP/s|%|FLOP/B|registers|tiles|rounds)([^a-z]|$)", 0,
	 "a negative value where none can be"},
	{"\\{[A-Za-z_][A-Za-z0-9_.]*\\??\\}", 1, "an unfilled placeholder"},
	{"[^ ] +> [^ ]", 0, "a quote marker '> ' in mid-sentence"},
};

static regex_t compiled[sizeof rules / sizeof rules[0]];

/* Problems in one rendered line (UTF-8 text; code: the line is fenced
 * code), each told on stderr with where (NULL: quietly). */
static int lint_rendered(const char *where, const char *text, int code)
{
	int bad = 0;
	for (size_t i = 0; i < ARRAY_LEN(rules); i++) {
		if (code && !rules[i].code_too)
			continue;
		if (regexec(&compiled[i], text, 0, NULL, 0) == 0) {
			if (where)
				fprintf(stderr, "%s: %s: %s\n", where, rules[i].why, text);
			bad++;
		}
	}
	return bad;
}

/* A rendered line back as UTF-8. */
static void line_text(const ui_lines *t, int i, char *out, size_t len, int *code)
{
	size_t o = 0;
	*code = 0;
	for (int k = t->start[i]; k < t->start[i + 1] && o + 5 < len; k++) {
		uint32_t cp = t->cp[k];
		if (t->role[k] == UI_ROLE_CODE && (o == 0 || *code))
			*code = 1; /* a line that starts in code is a fenced line */
		if (cp < 0x80)
			out[o++] = (char)cp;
		else if (cp < 0x800)
			out[o++] = (char)(0xC0 | cp >> 6), out[o++] = (char)(0x80 | (cp & 0x3F));
		else if (cp < 0x10000)
			out[o++] = (char)(0xE0 | cp >> 12), out[o++] = (char)(0x80 | (cp >> 6 & 0x3F)),
			out[o++] = (char)(0x80 | (cp & 0x3F));
		else
			out[o++] = (char)(0xF0 | cp >> 18), out[o++] = (char)(0x80 | (cp >> 12 & 0x3F)),
			out[o++] = (char)(0x80 | (cp >> 6 & 0x3F)), out[o++] = (char)(0x80 | (cp & 0x3F));
	}
	out[o] = '\0';
	while (o > 0 && out[o - 1] == ' ')
		out[--o] = '\0';
	size_t lead = strspn(out, " ");
	*code = *code && lead < o;
}

/* Renders text with the tutor's renderer and lints every line. */
static int lint_page(const char *where, const model_result *m, const char *text)
{
	ui_lines t;
	ui_lines_init(&t);
	ui_prose(&t, m, text, LINT_WIDTH);
	int bad = 0;
	char line[4 * LINT_WIDTH + 8];
	for (int i = 0; i < t.nlines; i++) {
		int code;
		line_text(&t, i, line, sizeof line, &code);
		char at[512];
		snprintf(at, sizeof at, "%s, row %d", where, i + 1);
		bad += lint_rendered(at, line, code);
	}
	ui_lines_free(&t);
	return bad;
}

/* Every @if of a page evaluates (else it would silently read as false). */
static int conditions_evaluate(const char *where, const model_result *m, const char *text)
{
	int bad = 0;
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		const char *expr;
		char why[160];
		if (cond_line(line, &expr) == COND_IF && isnan(calc_eval(expr, m, CALC_KEYS, why, sizeof why))) {
			fprintf(stderr, "%s: @if %s: %s\n", where, expr, why);
			bad++;
		}
		p = nl ? nl + 1 : NULL;
	}
	return bad;
}

static int setup(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(rules); i++)
		if (regcomp(&compiled[i], rules[i].re, REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, "bad rule %s\n", rules[i].re);
			return -1;
		}
	return 0;
}

/* The rules catch what they are for, and pass what is fine. */
static void rules_find(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int code, bad;
	} cases[] = {
		{"the tensor pipe busy 77.3% of the time, with 0 warps per SM", 0, 1},
		{"the runner launches one block per SM slot, 40 × 0 blocks on the NVIDIA T4", 0, 2},
		{"blocks per SM: 0, with 0 warps per SM", 0, 1},
		{"a bound of nan ms", 0, 1},
		{"at inf FLOP/B", 0, 1},
		{"reads n/a in bands", 0, 1},
		{"-3 blocks per SM", 0, 1},
		{"it takes {launch.blocks?} blocks", 0, 1},
		{"so > 132 blocks run", 0, 1},
		{"32 tiles > a block row", 0, 1},
		/* fine */
		{"> Worked example, an H100 at 8192³: 132 SMs, one block each", 0, 0},
		{"128 blocks in 4 rounds on 132 SMs, 10 warps per SM", 0, 0},
		{"information, infer, finance; 2⁻⁸ and 1-2 blocks", 0, 0},
		{"  add.s64 %descB, %descB, 128;  // +2048 bytes (>> 4)", 1, 0},
		{"  st.global.v2.f32 [%gC+0], {%d0, %d1};", 1, 0},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		int got = lint_rendered(NULL, cases[i].text, cases[i].code);
		if (got != cases[i].bad)
			fail_msg("case %zu '%s': %d problems, want %d", i, cases[i].text, got, cases[i].bad);
	}
}

/* A multi-line block quote renders with one "> " where it starts (review
 * 9.7), and @if chooses its branch from the model. */
static void quotes_and_conditions(void **state)
{
	(void)state;
	ui_lines t;
	ui_lines_init(&t);
	ui_prose(&t, NULL, "> Worked example: 32 tiles\n> a block row.\n\nAfter.\n@if 1\nshown\n@else\nhidden\n@endif\n", 80);
	char line[256];
	int code;
	line_text(&t, 0, line, sizeof line, &code);
	assert_string_equal(line, "> Worked example: 32 tiles a block row.");
	line_text(&t, 2, line, sizeof line, &code);
	assert_string_equal(line, "After. hidden"); /* no model: every @if is false */
	ui_lines_free(&t);
}

/* Every lesson, page, exercise question and answer on every GPU of the
 * table, at the default size and one odd shape. */
static void every_page_every_gpu(void **state)
{
	(void)state;
	static course c;
	static gpu_table table;
	char errs[8192] = "", err[512];
	assert_true(course_load(&c, errs, sizeof errs) > 0);
	assert_true(devices_load(&table, err, sizeof err) > 0);
	static const long long sizes[][3] = {{4096, 4096, 4096}, {1024, 2048, 512}};
	int bad = 0, pages = 0;
	for (int g = 0; g < table.n; g++)
		for (size_t s = 0; s < ARRAY_LEN(sizes); s++)
			for (int i = 0; i < c.n; i++) {
				const lesson *l = &c.l[i];
				model_result r;
				if (model_compute(l, NULL, sizes[s][0], sizes[s][1], sizes[s][2], &table.g[g], &r, err,
						  sizeof err))
					fail_msg("%s on %s: %s", l->path, table.g[g].key, err);
				for (int p = 0; p < l->npages; p++) {
					const lesson_page *pg = &l->pages[p];
					char where[512];
					snprintf(where, sizeof where, "%s page %d (%s) --gpu %s --size %lld,%lld,%lld", l->path,
						 p + 1, pg->title, table.g[g].key, sizes[s][0], sizes[s][1], sizes[s][2]);
					bad += conditions_evaluate(where, &r, pg->text);
					bad += lint_page(where, &r, pg->text);
					for (int e = 0; e < pg->nex; e++) {
						bad += lint_page(where, &r, pg->ex[e].question);
						bad += lint_page(where, &r, pg->ex[e].answer);
					}
					pages++;
				}
			}
	course_free(&c);
	assert_true(pages >= 11 * table.n);
	assert_int_equal(bad, 0);
}

/* ---- every screen readable (issue 36) ---- */

/* The sizes a lecture or a student meets: the default terminal, the
 * projector sizes the README recommends, a large screen. */
static const struct {
	int cols, rows;
} screen_sizes[] = {{80, 24}, {100, 30}, {120, 36}, {160, 48}};

/* Problems told so far (the first 60 are printed). */
static int told;

/* What the lint saw, so that it cannot pass by drawing nothing: screens,
 * runs in the slot that passed, recorded SASS shown, warp views. */
static int screens, runs_ok, sass_shown, warps_shown;

/* Tells a problem; returns 1. */
static int tell(const char *where, const char *what, const char *text)
{
	if (told++ < 60)
		fprintf(stderr, "%s: %s: %s\n", where, what, text);
	return 1;
}

/* Line i of t as UTF-8 (trailing blanks kept off). */
static void lines_row(const ui_lines *t, int i, char *out, size_t len)
{
	int code;
	line_text(t, i, out, len, &code);
}

/* The last word of line i and the first of line i + 1 (code points). */
static void edge_words(const ui_lines *t, int i, const uint32_t **a, int *na, const uint32_t **b, int *nb)
{
	int s0 = t->start[i], e0 = t->start[i + 1], s1 = e0, e1 = t->start[i + 2];
	while (e0 > s0 && t->cp[e0 - 1] == ' ')
		e0--;
	int w0 = e0;
	while (w0 > s0 && t->cp[w0 - 1] != ' ')
		w0--;
	while (s1 < e1 && t->cp[s1] == ' ')
		s1++;
	int w1 = s1;
	while (w1 < e1 && t->cp[w1] != ' ')
		w1++;
	*a = t->cp + w0, *na = e0 - w0, *b = t->cp + s1, *nb = w1 - s1;
}

/* A text pane's whole text at its width (not only what shows): no word cut
 * in two, no line wider than the pane, no number parted from its unit. */
static int lint_text(const char *where, const ui_app *a, ui_pane p)
{
	ui_rect r = a->layout.pane[p];
	if (r.h <= 0 || r.w <= 0)
		return 0;
	ui_lines t;
	int w = ui_pane_text_width(a, p);
	ui_pane_text(&t, a, p, w);
	char at[256], line[4096];
	snprintf(at, sizeof at, "%s, %s pane (%d wide)", where, ui_pane_name(p), w);
	int bad = 0;
	if (t.cuts) {
		lines_row(&t, t.cut_line, line, 2048);
		snprintf(line + strlen(line), sizeof line - strlen(line), " (%d word(s) cut in two)", t.cuts);
		bad += tell(at, "a word wider than the pane", line);
	}
	for (int i = 0; i < t.nlines; i++) {
		/* a line of code may go on past the pane, with a mark (drawn so); prose may not */
		int len = t.start[i + 1] - t.start[i];
		while (len > 0 && t.cp[t.start[i] + len - 1] == ' ')
			len--;
		if (len > w && t.role[t.start[i] + w - 1] != UI_ROLE_CODE) {
			lines_row(&t, i, line, sizeof line);
			bad += tell(at, "a line wider than the pane (cut where drawn)", line);
		}
		const uint32_t *wa, *wb;
		int na, nb;
		/* in prose: code (a table in a fenced block) is laid out by hand */
		if (i + 1 < t.nlines && t.start[i + 1] > t.start[i] && t.role[t.start[i + 1] - 1] != UI_ROLE_CODE &&
		    t.start[i + 2] > t.start[i + 1] && t.role[t.start[i + 2] - 1] != UI_ROLE_CODE) {
			edge_words(&t, i, &wa, &na, &wb, &nb);
			if (na > 0 && nb > 0 && ui_lines_unit_pair(wa, na, wb, nb)) {
				char l2[2048];
				lines_row(&t, i, line, 2048);
				lines_row(&t, i + 1, l2, sizeof l2);
				snprintf(line + strlen(line), sizeof line - strlen(line), " / %s", l2);
				bad += tell(at, "a number parted from its unit", line);
			}
		}
	}
	ui_lines_free(&t);
	return bad;
}

static int lint_screen_as(const char *where, ui_app *a, ui_frame *f, int ptx_chosen);

/* One screen: drawn, nothing cut unmarked in the frame; the text panes'
 * whole texts; the PTX pane's code at least as wide as the pane keeps for an
 * instruction (ui_pane_ptx_code_target). */
static int lint_screen(const char *where, ui_app *a, ui_frame *f)
{
	return lint_screen_as(where, a, f, 0);
}

/* Spaces collapsed to one, in place. */
static void squeeze(char *s)
{
	char *o = s;
	for (const char *p = s; *p; p++)
		if (*p != ' ' || (o > s && o[-1] != ' '))
			*o++ = *p;
	while (o > s && o[-1] == ' ')
		o--;
	*o = '\0';
}

/* The status message is on the screen whole, on the status row or wrapped
 * onto the rows above it (a box over them: not asked). */
static int status_whole(const char *where, const ui_app *a, const ui_frame *f)
{
	if (!a->msg[0] || a->mode != UI_MODE_NORMAL)
		return 0;
	char rows[4 * 4096] = "", row[4096], msg[sizeof a->msg];
	for (int y = f->rows - 3 > 1 ? f->rows - 3 : 1; y < f->rows; y++) {
		ui_frame_row_text(f, y, row, sizeof row);
		snprintf(rows + strlen(rows), sizeof rows - strlen(rows), "%s ", row);
	}
	util_strlcpy(msg, a->msg, sizeof msg);
	squeeze(rows), squeeze(msg);
	if (strstr(rows, msg))
		return 0;
	return tell(where, "a status message not shown whole", a->msg);
}

static int lint_screen_as(const char *where, ui_app *a, ui_frame *f, int ptx_chosen)
{
	int bad = 0;
	ui_draw(a, f);
	screens++;
	bad += status_whole(where, a, f);
	sass_shown += a->sass_view && a->ptx[a->lesson].sass_state == 2;
	warps_shown += a->mode == UI_MODE_WARP && a->warp.have;
	if (f->cuts) {
		char row[4096], at[300];
		ui_frame_row_text(f, f->cut_y, row, sizeof row);
		snprintf(at, sizeof at, "%s, row %d col %d", where, f->cut_y, f->cut_x);
		bad += tell(at, "text cut without a mark", row);
	}
	if (a->mode == UI_MODE_NORMAL || a->mode == UI_MODE_SEARCH || a->mode == UI_MODE_ANSWER) {
		static const ui_pane text_panes[] = {UI_PANE_LESSON, UI_PANE_NUMBERS, UI_PANE_RUN};
		for (size_t i = 0; i < ARRAY_LEN(text_panes); i++) {
			ui_pane p = text_panes[i];
			if (a->layout.tabbed && p != UI_PANE_LESSON && p != (ui_pane)a->side)
				continue;
			bad += lint_text(where, a, p);
		}
	}
	ui_rect pr = a->layout.pane[UI_PANE_PTX];
	/* the PTX pane's last column is the cut mark's: blank, or the mark */
	/* (not the rows a long status message is wrapped onto: they start with the status's role) */
	int ptx_end = pr.y + pr.h;
	while (ptx_end > pr.y && f->cells[(ptx_end - 1) * f->cols].role == UI_ROLE_STATUS)
		ptx_end--;
	for (int y = pr.y + 2; a->mode == UI_MODE_NORMAL && !a->sass_view && y < ptx_end; y++) {
		uint32_t c = f->cells[y * f->cols + pr.x + pr.w - 1].ch;
		if (c != ' ' && c != ui_glyphs_get(a->ascii)->arrow) {
			char row[4096];
			ui_frame_row_text(f, y, row, sizeof row);
			bad += tell(where, "PTX cut at the pane's edge without a mark", row);
			break;
		}
	}
	if (pr.h > 0 && !ptx_chosen && a->ptx[a->lesson].ok && !a->sass_view && a->mode == UI_MODE_NORMAL) {
		int cw = ui_pane_ptx_code_width(a), want = ui_pane_ptx_code_target(a);
		if (cw < want) {
			char s[96];
			snprintf(s, sizeof s, "the code gets %d columns, an instruction needs %d", cw, want);
			bad += tell(where, "a PTX pane too narrow for its code", s);
		}
	}
	return bad;
}

/* The emulated run of each lesson, as `r` without a GPU makes it (once). */
static run_result *runs;

static void keys_in(ui_app *a, const char *k)
{
	for (; *k; k++)
		ui_app_key(a, *k == '\r' ? '\n' : *k == 27 ? UI_KEY_ESC : (unsigned char)*k);
}

/* `r` offline on the lesson shown: the request the loop would send, the
 * emulator's answer (made here once per lesson), the result in the slot. */
static void run_offline(ui_app *a)
{
	const lesson *l = ui_app_lesson(a);
	if (!l->ptx_path[0] || a->ptx[a->lesson].emu_refuses)
		return;
	keys_in(a, "r");
	run_request rq;
	char err[256];
	if (a->req != UI_REQ_RUN || ui_app_request(a, &rq, err, sizeof err) < 0) {
		a->req = UI_REQ_NONE;
		return;
	}
	a->req = UI_REQ_NONE;
	ui_app_run_started(a, 0, NULL);
	run_result *r = &runs[a->lesson];
	if (r->backend != RUN_BACKEND_EMU) /* not yet run: the results are kept per lesson */
		exec_run(&rq, r);
	ui_app_run_finished(a, r);
	runs_ok += r->status == RUN_OK && a->slot[a->lesson].have;
}

/* W served as the loop serves it, the model made once per kernel (slot: the lesson's index, or
 * the course's size for the student's own kernel) and at 256 cubed, where it is quick: neither the
 * screen's size nor the problem's changes what the column looks like. */
static exec_stalls_brief *stall_cache;
static int *stall_made, stalls_shown;

static void serve_stalls(ui_app *a, int slot)
{
	if (a->stalls.state != UI_STALLS_WANT)
		return;
	if (!stall_cache) {
		stall_cache = calloc((size_t)a->course->n + 1, sizeof *stall_cache);
		stall_made = calloc((size_t)a->course->n + 1, sizeof *stall_made);
	}
	exec_stalls_brief *b = &stall_cache[slot];
	a->stalls.state = UI_STALLS_BUSY;
	if (!stall_made[slot]) {
		run_request rq;
		int regs;
		long long M = a->M, N = a->N, K = a->K;
		a->M = a->N = a->K = 256;
		int rc = ui_app_stalls_request(a, &rq, &regs, b->err, sizeof b->err);
		a->M = M, a->N = N, a->K = K;
		if (rc < 0)
			b->rc = -1;
		else
			exec_stalls_brief_run(&rq, &a->gpu, regs, b);
		stall_made[slot] = 1;
	}
	ui_app_stalls_done(a, b);
	stalls_shown += ui_stalls_of(a) != NULL;
}

/* S offline: the lesson's recorded SASS, as the loop serves it. */
static void sass_offline(ui_app *a)
{
	keys_in(a, "S");
	if (a->req != UI_REQ_SASS)
		return;
	a->req = UI_REQ_NONE;
	const ui_ptx *p = &a->ptx[a->lesson];
	const lesson *l = ui_app_lesson(a);
	char arch[16], why[300] = "";
	char *text = util_read_file(p->path, NULL, NULL, 0);
	sass_arch_for(text, 9, 0, arch, sizeof arch);
	free(text);
	sass_kernel k;
	memset(&k, 0, sizeof k);
	int rc = sass_record_use(l->number, p->path, l->entry, arch, &k, why, sizeof why);
	ui_app_sass_done(a, a->lesson, rc ? -1 : 0, &k, why);
}

/* The boxes and status messages a lesson's keys bring up, each from the
 * panes; Esc (twice: a box, then a prompt) and the lesson's page back. */
static const struct {
	const char *keys, *what;
	int own_choice; /* the student chose a narrow PTX pane: its width is not linted */
	const char *undo; /* after Esc: back to the lesson's own state (what-ifs, size) */
} box_keys[] = {
	{"?", "help", 0, ""},
	{"?   ", "help, scrolled", 0, ""},
	{"g", "go-to menu", 0, ""},
	{"t", "what-if box", 0, ""},
	{"t++++++", "what-if box, refused", 0, "t0"},
	{"P", "puzzles", 0, ""},
	{"Ph", "puzzles, a hint", 0, ""},
	{"Pv", "lecturer view", 0, ""},
	{"H", "hot line", 0, ""},
	{"HHH", "hot lines", 0, ""},
	{"L", "every column", 0, ""},
	{"LL", "no columns", 0, ""},
	{"f", "zoomed", 0, ""},
	{"z", "unfolded", 0, ""},
	{"c", "next region", 0, ""},
	{"w", "warp view", 0, ""},
	{"a", "answer prompt", 0, ""},
	{"/ldmatrix", "search typed", 0, ""},
	{"/ldmatrix\r", "search hit", 0, ""},
	{"/ldmatrix\rN", "search, next hit", 0, ""},
	{"/no such words at all\r", "search, no hit", 0, ""},
	{"-", "size halved", 0, "+"},
	{"++++++++++", "size at its top", 0, "--"},
	{"<<<<<<<<", "lesson pane shrunk", 0, ""},
	{">>>>>>>>", "lesson pane grown", 1, ""},
	{"o", "swapped", 1, ""},
	{"\t\t", "focus moved", 0, ""},
	{"R", "diff box", 0, ""},
	{"y", "restore asked", 0, ""},
};

/* W's column before its model is in and after (served as the loop serves it). */
static const struct {
	const char *keys, *what;
	int served;
} stall_keys[] = {
	{"W", "stall column, modelling", 0},
	{"W", "stall column", 1},
	{"WLf", "stall column, every count column, zoomed", 1},
};

static void back_to(ui_app *a, int lesson, int page)
{
	for (int i = 0; i < 3 && a->mode != UI_MODE_NORMAL; i++)
		keys_in(a, "\x1b");
	a->zoom = 0, a->swap = 0, a->grow = 0;
	ui_app_resize(a, a->cols, a->rows);
	ui_app_select(a, lesson, page);
}

/* The go-to menu at every lesson's row (its rows scroll with the selection). */
static int lint_menu(const char *where, ui_app *a, ui_frame *f)
{
	int bad = 0;
	keys_in(a, "g");
	for (int i = 0; i < a->course->n + 1 && a->mode == UI_MODE_MENU; i++) {
		char at[300];
		snprintf(at, sizeof at, "%s, go-to menu at row %d", where, a->menu_sel);
		bad += lint_screen(at, a, f);
		keys_in(a, " ");
	}
	return bad;
}

/* A student's own kernel (`ptxtutor 2 --ptx tests/students/lines/lines.ptx
 * --entry gemm_ok`, nvcc -lineinfo output) in lesson 2's place: the CUDA pane
 * beside the PTX before and after a run, on every page, with its keys. */
static run_result own_run;
static int cuda_shown, cuda_warps;
static const struct {
	const char *keys, *what;
	int own_choice; /* as box_keys' */
} cuda_keys[] = {
	{"", "CUDA pane", 0},
	{"jjjjjjjj", "CUDA cursor on line 12", 0},
	{"jjjjjjjj\tjjj", "PTX cursor", 0},
	{"jjjjjjjjf", "zoomed", 0},
	{"jjjjjjjjL", "every column", 0},
	{"W", "stall column", 0},
	{"jjjjjjjjW", "stall column, CUDA cursor on line 12", 0},
	{"LL", "no columns", 0},
	{"H", "hot line", 0},
	{"jjjjjjjjw", "warp view", 0},
	{"C", "CUDA pane hidden", 0},
	{"o", "swapped", 1},
	{"<<<<<<<<", "lesson pane shrunk", 0},
	{"\t\t\t", "focus moved", 0},
};

static int lint_own_kernel(int cols, int rows, int present, ui_app *a, ui_frame *f)
{
	const lesson *l = course_find(a->course, "coalesced");
	assert_non_null(l);
	int li = (int)(l - a->course->l), bad = 0;
	char err[256], where[256];
	ui_app_select(a, li, 0);
	assert_int_equal(ui_app_own_kernel(a, "tests/students/lines/lines.ptx", "gemm_ok", err, sizeof err), 0);
	const char *size = present ? " --present" : "";
	for (int run = 0; run < 2; run++) {
		if (run) {
			keys_in(a, "r");
			run_request rq;
			assert_int_equal(a->req, UI_REQ_RUN);
			assert_int_equal(ui_app_request(a, &rq, err, sizeof err), 0);
			a->req = UI_REQ_NONE;
			ui_app_run_started(a, 0, NULL);
			if (own_run.backend != RUN_BACKEND_EMU)
				exec_run(&rq, &own_run);
			assert_int_equal(own_run.status, RUN_OK);
			ui_app_run_finished(a, &own_run);
		}
		for (int p = 0; p < l->npages; p++) {
			ui_app_select(a, li, p);
			for (int side = 0; side < 2; side++) {
				a->side = side ? UI_PANE_NUMBERS : UI_PANE_RUN;
				snprintf(where, sizeof where, "%dx%d%s your kernel in lesson %d, page %d %s r (%s)", cols, rows,
					 size, l->number, p + 1, run ? "after" : "before", side ? "numbers" : "run");
				bad += lint_screen(where, a, f);
				cuda_shown += a->layout.cuda.h > 0;
			}
		}
		for (size_t k = 0; k < ARRAY_LEN(cuda_keys); k++) {
			back_to(a, li, 0);
			a->cuda_off = 0, a->cu_line = a->cu_scroll = a->ptx_cursor = 0, a->focus = UI_PANE_PTX, a->cu_focus = 1;
			app_relayout(a);
			app_cuda_home(a); /* as the tutor starts: the cursor on gemm_ok's first line, 4 */
			keys_in(a, cuda_keys[k].keys);
			serve_stalls(a, a->course->n);
			snprintf(where, sizeof where, "%dx%d%s your kernel in lesson %d %s r, %s", cols, rows, size,
				 l->number, run ? "after" : "before", cuda_keys[k].what);
			bad += lint_screen_as(where, a, f, cuda_keys[k].own_choice);
			if (a->stalls.view)
				keys_in(a, "W");
			cuda_warps += a->mode == UI_MODE_WARP && a->warp.have && a->warp.head == 2; /* names lines.cu:12 */
		}
	}
	return bad;
}

static int lint_one_size(int cols, int rows, int present)
{
	course *c = calloc(1, sizeof *c);
	static gpu_table g;
	char errs[8192] = "", err[512];
	assert_non_null(c);
	assert_true(course_load(c, errs, sizeof errs) > 0);
	assert_true(devices_load(&g, err, sizeof err) > 0);
	ui_opts o = {.present = present, .lesson = "0", .page = 0, .no_gpu = "no NVIDIA driver (the render lint)"};
	ui_app *a = calloc(1, sizeof *a);
	assert_non_null(a);
	assert_int_equal(ui_app_setup(a, &o, c, &g, err, sizeof err), 0);
	ui_app_resize(a, cols, rows);
	ui_frame f;
	ui_frame_init(&f, cols, rows);
	if (!runs)
		runs = calloc((size_t)a->course->n, sizeof *runs);
	int bad = 0;
	for (int li = 0; li < a->course->n; li++) {
		const lesson *l = &a->course->l[li];
		char where[256];
		ui_app_select(a, li, 0);
		snprintf(where, sizeof where, "%dx%d%s lesson %d before r", cols, rows, present ? " --present" : "",
			 l->number);
		a->side = UI_PANE_RUN;
		bad += lint_screen(where, a, &f);
		run_offline(a);
		for (int p = 0; p < l->npages; p++) {
			ui_app_select(a, li, p);
			for (int side = 0; side < 2; side++) {
				a->side = side ? UI_PANE_NUMBERS : UI_PANE_RUN;
				snprintf(where, sizeof where, "%dx%d%s lesson %d page %d after r (%s)", cols, rows,
					 present ? " --present" : "", l->number, p + 1, side ? "numbers" : "run");
				bad += lint_screen(where, a, &f);
			}
			if (l->pages[p].nex) { /* an exercise's hint, worked answer and a wrong answer's verdict */
				keys_in(a, "hss");
				snprintf(where, sizeof where, "%dx%d%s lesson %d page %d, hint and worked answer", cols, rows,
					 present ? " --present" : "", l->number, p + 1);
				bad += lint_screen(where, a, &f);
				keys_in(a, "a-1\r");
				bad += lint_screen(where, a, &f);
			}
		}
		for (size_t k = 0; k < ARRAY_LEN(box_keys); k++) {
			back_to(a, li, l->npages > 1 ? 1 : 0);
			a->side = UI_PANE_RUN;
			keys_in(a, box_keys[k].keys);
			snprintf(where, sizeof where, "%dx%d%s lesson %d, %s", cols, rows, present ? " --present" : "",
				 l->number, box_keys[k].what);
			bad += lint_screen_as(where, a, &f, box_keys[k].own_choice);
			back_to(a, li, 0);
			keys_in(a, box_keys[k].undo);
		}
		for (size_t k = 0; k < ARRAY_LEN(stall_keys); k++) {
			back_to(a, li, l->npages > 1 ? 1 : 0);
			a->side = UI_PANE_NUMBERS;
			keys_in(a, stall_keys[k].keys);
			if (stall_keys[k].served)
				serve_stalls(a, li);
			snprintf(where, sizeof where, "%dx%d%s lesson %d, %s", cols, rows, present ? " --present" : "",
				 l->number, stall_keys[k].what);
			bad += lint_screen(where, a, &f);
			back_to(a, li, 0);
			if (a->stalls.view)
				keys_in(a, "W");
		}
		back_to(a, li, 0);
		sass_offline(a);
		snprintf(where, sizeof where, "%dx%d%s lesson %d, SASS view", cols, rows, present ? " --present" : "",
			 l->number);
		bad += lint_screen(where, a, &f);
		keys_in(a, "S");
		bad += lint_screen(where, a, &f);
		keys_in(a, "S");
		back_to(a, li, 0);
		if (li == 0) {
			snprintf(where, sizeof where, "%dx%d%s", cols, rows, present ? " --present" : "");
			bad += lint_menu(where, a, &f);
			back_to(a, li, 0);
			/* the longest messages the loop sets: a progress file it could not write or read */
			static const char *says[] = {
				"Could not save your progress: cannot write /home/a-student-with-a-long-name/.local/state/"
				"ptxtutor/state.12345: No space left on device",
				"Cannot read your progress: /home/student/.local/state/ptxtutor/state is more than 64 MiB; "
				"kept as it is, and nothing is saved until it is moved away",
			};
			for (size_t k = 0; k < ARRAY_LEN(says); k++) {
				app_say(a, 1, "%s", says[k]);
				snprintf(where, sizeof where, "%dx%d%s, status message %zu", cols, rows,
					 present ? " --present" : "", k + 1);
				bad += lint_screen(where, a, &f);
			}
			a->msg[0] = '\0';
		}
	}
	bad += lint_own_kernel(cols, rows, present, a, &f);
	ui_frame_free(&f);
	ui_app_free(a);
	free(a);
	return bad;
}

/* The screen rules catch what they are for: a label cut at a box's edge, a
 * word split by the wrapper, a number and its unit on two lines. */
static void screen_rules_find(void **state)
{
	(void)state;
	ui_frame f;
	ui_frame_init(&f, 20, 2);
	ui_rect r = {0, 0, 10, 1};
	ui_frame_text(&f, r, 0, 0, "sectors/request", UI_ROLE_NORMAL);
	assert_int_equal(f.cuts, 1);
	ui_frame_clear(&f);
	ui_frame_text_fit(&f, r, 0, 0, "per warp request", UI_ROLE_NORMAL);
	assert_int_equal(f.cuts, 0);
	char row[64];
	ui_frame_row_text(&f, 0, row, sizeof row);
	assert_string_equal(row, "per warp\u2026");
	ui_frame_free(&f);

	ui_lines t;
	ui_lines_init(&t);
	ui_lines_para(&t, "gmem loads 4 sectors/request", UI_ROLE_NORMAL, 12, 2);
	assert_int_equal(t.cuts, 1); /* "sectors/request" is 15 wide */
	ui_lines_free(&t);
	ui_lines_init(&t);
	ui_lines_para(&t, "the full matrix (50.3 M at the size on screen)", UI_ROLE_NORMAL, 20, 0);
	assert_int_equal(t.cuts, 0);
	for (int i = 0; i + 1 < t.nlines; i++) {
		const uint32_t *wa, *wb;
		int na, nb;
		edge_words(&t, i, &wa, &na, &wb, &nb);
		assert_false(na && nb && ui_lines_unit_pair(wa, na, wb, nb));
	}
	char l0[64];
	lines_row(&t, 0, l0, sizeof l0);
	assert_string_equal(l0, "the full matrix");
	ui_lines_free(&t);
	uint32_t n[] = {'(', '5', '0', '.', '3'}, u[] = {'M', ','}, w[] = {'a', 't'};
	assert_true(ui_lines_glued(n, 5, u, 2));
	assert_false(ui_lines_glued(n, 5, w, 2));
}

/* The course's lessons with a kernel, and of them those with a recorded
 * SASS (assets/sass/NN.sass): what every size must have run and shown. */
static void kernels_of_course(int *kernels, int *recorded)
{
	static course c;
	char errs[8192] = "";
	assert_true(course_load(&c, errs, sizeof errs) > 0);
	*kernels = *recorded = 0;
	for (int i = 0; i < c.n; i++) {
		char rel[64], path[600];
		if (!c.l[i].ptx_path[0])
			continue;
		++*kernels;
		sass_record_rel(c.l[i].number, rel, sizeof rel);
		util_path(path, sizeof path, rel);
		*recorded += access(path, R_OK) == 0;
	}
	course_free(&c);
}

/* Every screen at every size, with and without --present: nothing cut
 * mid-word or without a mark, no pane too narrow for its text or its code. */
static void every_screen_readable(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t s = 0; s < ARRAY_LEN(screen_sizes); s++)
		for (int present = 0; present < 2; present++)
			bad += lint_one_size(screen_sizes[s].cols, screen_sizes[s].rows, present);
	/* every kernel ran at every size and mode; every recorded SASS was shown */
	int sizes = (int)ARRAY_LEN(screen_sizes) * 2, kernels, recorded;
	kernels_of_course(&kernels, &recorded);
	assert_true(kernels > 0);
	assert_true(runs_ok >= kernels * sizes);
	assert_true(sass_shown >= recorded * 2 * sizes);
	assert_true(warps_shown >= 5 * sizes);
	assert_true(screens > 4000);
	assert_true(cuda_shown >= 2 * 7 * 2 * sizes); /* the CUDA pane had room at every size, on every page */
	assert_true(cuda_warps >= 2 * sizes);
	/* the stall column shown for every kernel (lesson 11's FP8 ones included) and the student's, at every size */
	assert_true(stalls_shown >= (kernels * 2 + 2 * 2) * sizes);
	free(runs);
	runs = NULL;
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rules_find),
		cmocka_unit_test(quotes_and_conditions),
		cmocka_unit_test(every_page_every_gpu),
		cmocka_unit_test(screen_rules_find),
		cmocka_unit_test(every_screen_readable),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
