/* ui/pane_lesson: the page's prose and its exercises as styled lines; reads the state, never changes it. */
#include "ui/pane_lesson.h"

#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/util.h"
#include "ui/keys.h"
#include "ui/prose.h"

/* One exercise's rule: "── Exercise 2/3 ─────" across the pane. */
static void exercise_rule(ui_lines *t, const ui_glyphs *g, int e, int n, int w)
{
	ui_lines_nl(t);
	for (int i = 0; i < 2; i++)
		ui_lines_put(t, g->hline, UI_ROLE_BORDER);
	ui_lines_addf(t, UI_ROLE_HEADING, " Exercise %d/%d ", e + 1, n);
	while (ui_lines_width(t) < w)
		ui_lines_put(t, g->hline, UI_ROLE_BORDER);
	ui_lines_nl(t);
}

/* The exercise the answer keys act on: the verdict, the hint and the worked
 * answer as far as they were asked for, and the keys. */
static void current_exercise(ui_lines *t, const ui_app *a, const lesson_exercise *ex, int w)
{
	if (a->ex_verdict == 1) {
		char v[32];
		ui_lines_addf(t, UI_ROLE_GOOD, "%s Right: %s", a->ascii ? "[ok]" : "\u2713",
			      numfmt_count(v, sizeof v, a->ex_expected));
		ui_lines_nl(t);
	} else if (a->ex_verdict == -1) {
		ui_lines_addf(t, UI_ROLE_BAD, "%s Not quite. Try again (a), or see the hint (h).",
			      a->ascii ? "[x]" : "\u2717");
		ui_lines_nl(t);
	}
	/* The hint and the worked answer speak of the exercise's case
	 * (@exercise ai.global BN=128): their placeholders come from the
	 * model under its overrides, as the check of an answer does. */
	const model_result *em = a->ex_model_ok ? &a->ex_model : NULL;
	const struct {
		int shown;
		const char *label, *text;
	} parts[] = {{a->show_hint, "Hint: ", ex->hint}, {a->show_solution, "Answer: ", ex->answer}};
	for (size_t i = 0; i < ARRAY_LEN(parts); i++) {
		if (!parts[i].shown || !parts[i].text)
			continue;
		ui_run r = {0};
		char *text = a->ascii ? ui_prose_ascii(parts[i].text) : NULL;
		const char *s = text ? text : parts[i].text;
		ui_run_puts(&r, parts[i].label, strlen(parts[i].label), UI_ROLE_EMPH);
		ui_prose_inline(&r, em, s, strlen(s), UI_ROLE_NORMAL);
		ui_lines_wrap(t, &r, w, 2);
		ui_run_free(&r);
		free(text);
	}
	static const struct {
		ui_action act;
		const char *does;
	} keys[] = {{UI_ACT_ANSWER, " answer  "}, {UI_ACT_HINT, " hint  "}, {UI_ACT_SOLUTION, " worked answer"}};
	for (size_t i = 0; i < ARRAY_LEN(keys); i++) {
		ui_lines_add(t, ui_key_name(UI_MODE_NORMAL, keys[i].act), UI_ROLE_KEY);
		ui_lines_add(t, keys[i].does, UI_ROLE_DIM);
	}
	ui_lines_nl(t);
}

/* @warpview: the page's access as the warp view draws it, from the kernel
 * the student would run (what-ifs, edits), under a rule. */
static void page_warp(ui_lines *t, const ui_app *a, const ui_glyphs *g, int w)
{
	const ui_warpview *v = &a->page_warp;
	ui_lines_nl(t);
	for (int i = 0; i < 2; i++)
		ui_lines_put(t, g->hline, UI_ROLE_BORDER);
	char h[128];
	snprintf(h, sizeof h, " A warp's view, from the kernel (emulated at %lld^3; %s: any line) ", v->size,
		 ui_key_name(UI_MODE_NORMAL, UI_ACT_WARP));
	if (ui_utf8_width(h, strlen(h)) > w - 4) /* a narrow pane: the short form */
		snprintf(h, sizeof h, " A warp's view (%s: any line) ", ui_key_name(UI_MODE_NORMAL, UI_ACT_WARP));
	ui_lines_add(t, h, UI_ROLE_HEADING);
	while (ui_lines_width(t) < w)
		ui_lines_put(t, g->hline, UI_ROLE_BORDER);
	ui_lines_nl(t);
	if (!v->have) {
		ui_lines_para(t, v->err[0] ? v->err : "not recorded", UI_ROLE_DIM, w, 0);
		return;
	}
	/* code rows: kept as they are (a narrow pane ends one in a mark) */
	for (int i = 0; i < v->nrows; i++) {
		ui_lines_add(t, v->rows[i], UI_ROLE_CODE);
		ui_lines_nl(t);
	}
}

/* Lesson text onto t, its symbols spelled out in ASCII mode. */
static void prose(ui_lines *t, const ui_app *a, const model_result *m, const char *text, int w)
{
	char *spelled = a->ascii ? ui_prose_ascii(text) : NULL;
	ui_prose(t, m, spelled ? spelled : text, w);
	free(spelled);
}

void ui_pane_lesson_text(ui_lines *t, const ui_app *a, int w)
{
	const lesson_page *pg = ui_app_page(a);
	if (!pg) {
		ui_lines_add(t, "This lesson has no pages.", UI_ROLE_DIM);
		ui_lines_nl(t);
		return;
	}
	const model_result *m = a->model_ok ? &a->model : NULL;
	prose(t, a, m, pg->text, w);
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	if (pg->warpview[0])
		page_warp(t, a, g, w);
	for (int e = 0; e < pg->nex; e++) {
		const lesson_exercise *ex = &pg->ex[e];
		exercise_rule(t, g, e, pg->nex, w);
		prose(t, a, m, ex->question ? ex->question : "", w);
		if (e == a->ex) {
			current_exercise(t, a, ex, w);
		} else if (e < a->ex) {
			ui_lines_add(t, "done", UI_ROLE_GOOD);
			ui_lines_nl(t);
		}
	}
	if (a->hit_marks && a->found[0])
		ui_prose_mark(t, a->found);
}
