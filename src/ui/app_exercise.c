/* ui/app_exercise: the page's exercises — the answer box, checking an answer against the model, the hint and the worked answer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"
#include "ui/pane_text.h"

static const lesson_exercise *current_exercise(const ui_app *a)
{
	const lesson_page *pg = ui_app_page(a);
	return pg && a->ex < pg->nex ? &pg->ex[a->ex] : NULL;
}

/* The model under an exercise's overrides (M, N, K among them may set the
 * size): what its answer is checked against and its worked answer shows. */
static int exercise_model(const ui_app *a, const lesson_exercise *ex, model_result *r, char *err, int errlen)
{
	expr_env ov = {0};
	long long M = a->M, N = a->N, K = a->K;
	for (int i = 0; i < ex->overrides.n; i++) {
		const expr_var *e = &ex->overrides.v[i];
		if (!strcmp(e->name, "M"))
			M = e->value;
		else if (!strcmp(e->name, "N"))
			N = e->value;
		else if (!strcmp(e->name, "K"))
			K = e->value;
		else
			expr_set(&ov, e->name, e->value);
	}
	return model_compute(ui_app_lesson(a), &ov, M, N, K, &a->gpu, r, err, errlen);
}

/* The model's value for an exercise. */
static int exercise_value(const ui_app *a, const lesson_exercise *ex, double *v, char *err, int errlen)
{
	model_result *r = xmalloc(sizeof *r);
	int rc = exercise_model(a, ex, r, err, errlen);
	if (rc == 0 && model_value(r, ex->key, v) < 0) {
		snprintf(err, (size_t)errlen, "the model has no value '%s'", ex->key);
		rc = -1;
	}
	free(r);
	return rc;
}

void app_exercise_recompute(ui_app *a)
{
	const lesson_exercise *ex = current_exercise(a);
	char err[256];
	a->ex_model_ok = ex && (a->show_hint || a->show_solution) &&
			 exercise_model(a, ex, &a->ex_model, err, sizeof err) == 0;
}

void app_exercise_reset(ui_app *a)
{
	a->ex = 0;
	a->ex_verdict = 0;
	a->show_hint = a->show_solution = 0;
	a->answer[0] = '\0';
}

/* The lesson pane scrolled so the current exercise's rule is in view
 * (at 80x24 the question may be far above while one answers). */
static void show_exercise(ui_app *a)
{
	ui_lines t;
	char rule[32];
	snprintf(rule, sizeof rule, " Exercise %d/%d ", a->ex + 1, ui_app_page(a)->nex);
	ui_pane_text(&t, a, UI_PANE_LESSON, ui_pane_text_width(a, UI_PANE_LESSON));
	int at = -1;
	for (int ln = 0; ln < t.nlines && at < 0; ln++) {
		char s[256];
		int o = 0;
		for (int i = t.start[ln]; i < t.start[ln + 1] && o < (int)sizeof s - 1; i++)
			s[o++] = t.cp[i] < 128 ? (char)t.cp[i] : '-';
		s[o] = '\0';
		if (strstr(s, rule))
			at = ln;
	}
	ui_lines_free(&t);
	ui_view v = ui_pane_view_of(a, UI_PANE_LESSON);
	if (at >= 0 && (at < v.top || at >= v.top + v.rows))
		app_scroll(a, UI_PANE_LESSON, at - v.top);
}

/* Exercise i of the page becomes the one the keys act on, unanswered. */
static void pick(ui_app *a, int i)
{
	a->ex = i;
	a->ex_verdict = 0;
	a->show_hint = a->show_solution = 0;
	a->answer[0] = '\0';
	app_exercise_recompute(a);
	show_exercise(a);
}

/* a: the answer box, for the next exercise once this one is answered right. */
void app_act_answer(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	if (!current_exercise(a)) {
		app_say(a, 0, "No exercise on this page.");
		return;
	}
	if (a->ex_verdict == 1 && a->ex + 1 < ui_app_page(a)->nex)
		pick(a, a->ex + 1);
	else
		show_exercise(a);
	a->answer[0] = '\0';
	a->mode = UI_MODE_ANSWER;
}

/* Tab, S-Tab in the answer box: the page's next or previous exercise. */
void app_act_answer_pick(ui_app *a, ui_action act, int key)
{
	(void)key;
	int n = ui_app_page(a) ? ui_app_page(a)->nex : 0;
	if (n < 2) {
		app_say(a, 0, "This page has one exercise.");
		return;
	}
	pick(a, (a->ex + (act == UI_ACT_ANSWER_NEXT ? 1 : n - 1)) % n);
}

/* h and s: the hint, the worked answer (with the numbers under the
 * exercise's overrides). */
void app_act_hint(ui_app *a, ui_action act, int key)
{
	(void)key;
	if (!current_exercise(a)) {
		app_say(a, 0, "No exercise on this page.");
		return;
	}
	if (act == UI_ACT_HINT)
		a->show_hint = 1;
	else
		a->show_solution = 1;
	app_exercise_recompute(a);
}

void app_act_answer_type(ui_app *a, ui_action act, int key)
{
	(void)act;
	size_t n = strlen(a->answer);
	if (n + 1 < sizeof a->answer) {
		a->answer[n] = (char)key;
		a->answer[n + 1] = '\0';
	}
}

void app_act_answer_delete(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	size_t n = strlen(a->answer);
	if (n)
		a->answer[n - 1] = '\0';
}

/* Enter: the answer against the model's value, within the exercise's tolerance. */
void app_act_answer_check(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const lesson_exercise *ex = current_exercise(a);
	a->mode = UI_MODE_NORMAL;
	if (!ex)
		return;
	char *end;
	double got = strtod(a->answer, &end);
	if (end == a->answer || *end) {
		app_say(a, 1, "'%s' is not a number.", a->answer);
		return;
	}
	double want;
	char err[200];
	if (exercise_value(a, ex, &want, err, sizeof err) < 0) {
		app_say(a, 1, "cannot check this exercise: %s", err);
		return;
	}
	a->ex_expected = want;
	int right = lesson_exercise_accepts(ex, want, got);
	a->ex_verdict = right ? 1 : -1;
	if (right) {
		state_progress *p = state_progress_get(&a->progress, ui_app_lesson(a)->id);
		state_mark(&p->solved, ui_app_ex_base(a, a->lesson, a->page) + a->ex);
		app_say(a, 0, "Right: %.4g.", want);
		a->sync_want = 1;
	}
	else
		app_say(a, 1, "Not quite (%g). h shows a hint, s the worked answer.", got);
}
