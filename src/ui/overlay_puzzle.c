/* ui/overlay_puzzle: the P box — the lesson's puzzles with their progress, the selected one's goal, checks (with the last check's verdicts), hints shown, or the lecturer view of start and solution side by side. */
#include "ui/overlay_puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/keys.h"
#include "ui/prose.h"

#define K(act) ui_key_name(UI_MODE_PUZZLE, UI_ACT_##act)

/* Writes src word-wrapped at width w from row *y on (indent on the rows after
 * the first); stops at the bottom. A `code` span shows in the code role,
 * without its backticks (the puzzle files are Markdown); in ASCII the
 * symbols are spelled as the lessons' are ("!=" for "≠"). */
static void wrap(const ui_app *a, ui_frame *f, ui_rect in, int *y, int bottom, const char *src, int indent, ui_role role)
{
	char text[2048], code[2048];
	char *spelled = a->ascii ? ui_prose_ascii(src) : NULL;
	size_t m = 0;
	for (int in_code = 0, i = 0; spelled ? spelled[i] : src[i]; i++) {
		char c = spelled ? spelled[i] : src[i];
		if (m >= sizeof text - 1)
			break;
		if (c == '`') {
			in_code = !in_code;
			continue;
		}
		code[m] = (char)in_code;
		text[m++] = c;
	}
	text[m] = '\0';
	free(spelled);
	const char *s = text;
	int w = in.w - indent > 10 ? in.w : indent + 10, first = 1;
	while (*s && *y < bottom) {
		/* as many characters as fit, back to the last space (a word wider than the row: cut) */
		int room = first ? w : w - indent, n = 0, cols = 0, brk = 0, len = (int)strlen(s);
		while (n < len) {
			int l;
			ui_utf8_decode(s + n, (size_t)(len - n), &l);
			int cw = ui_utf8_width(s + n, (size_t)l);
			if (cols + cw > room)
				break;
			if (s[n] == ' ')
				brk = n;
			n += l, cols += cw;
		}
		if (n < len && s[n] != ' ' && brk > 0)
			n = brk;
		int x = in.x + (first ? 0 : indent);
		for (int i = 0, j; i < n; i = j) { /* runs of prose and of code */
			const char *c = &code[s - text];
			for (j = i; j < n && c[j] == c[i]; j++)
				;
			x = ui_frame_textn(f, in, x, *y, s + i, (size_t)(j - i), c[i] ? UI_ROLE_CODE : role);
		}
		(*y)++;
		s += n;
		while (*s == ' ')
			s++;
		first = 0;
	}
}

/* The goal: the body's paragraphs joined into one line each. */
static void goal(const ui_app *a, ui_frame *f, ui_rect in, int *y, int bottom, const char *body)
{
	char para[2048];
	size_t n = 0;
	for (const char *s = body;; s++) {
		if (!*s || (s[0] == '\n' && s[1] == '\n')) {
			para[n] = 0;
			if (n)
				wrap(a, f, in, y, bottom, para, 0, UI_ROLE_NORMAL);
			n = 0;
			if (!*s)
				break;
			continue;
		}
		if (n < sizeof para - 1)
			para[n++] = *s == '\n' ? ' ' : *s;
	}
}

/* Row i of a text, without its newline. */
static int text_line(const char *t, int i, char *dst, size_t len)
{
	for (; t && *t && i > 0; i--) {
		t = strchr(t, '\n');
		t = t ? t + 1 : NULL;
	}
	if (!t || !*t)
		return 0;
	size_t n = strcspn(t, "\n");
	snprintf(dst, len, "%.*s", (int)(n < len - 1 ? n : len - 1), t);
	for (char *c = dst; *c; c++)
		if (*c == '\t')
			*c = ' ';
	return 1;
}

static void lecturer(const ui_app *a, ui_frame *f, ui_rect in)
{
	int half = in.w / 2 - 1;
	ui_rect l = {in.x, in.y, half, in.h - 1}, r = {in.x + half + 2, in.y, in.w - half - 2, in.h - 1};
	ui_frame_text(f, l, l.x, l.y, "the puzzle's start", UI_ROLE_HEADING);
	ui_frame_text(f, r, r.x, r.y, "the reference solution", UI_ROLE_HEADING);
	for (int y = 1; y < in.h - 1; y++) {
		char s1[512] = "", s2[512] = "";
		int h1 = text_line(a->pz_left, a->pz_scroll + y - 1, s1, sizeof s1);
		int h2 = text_line(a->pz_right, a->pz_scroll + y - 1, s2, sizeof s2);
		ui_role role = strcmp(s1, s2) ? UI_ROLE_EMPH : UI_ROLE_NORMAL;
		if (h1)
			ui_frame_code(f, l, l.x, in.y + y, s1, role, ui_glyphs_get(a->ascii)->arrow);
		if (h2)
			ui_frame_code(f, r, r.x, in.y + y, s2, role, ui_glyphs_get(a->ascii)->arrow);
	}
}

static void details(const ui_app *a, const puzzle *p, ui_frame *f, ui_rect in, int y)
{
	int bottom = in.y + in.h - 1;
	char s[600];
	goal(a, f, in, &y, bottom, p->goal ? p->goal : "");
	y++;
	ui_frame_text(f, in, in.x, y++, a->pz_have ? "Your last check:" : "Checks:", UI_ROLE_HEADING);
	for (int i = 0; i < p->nchecks && y < bottom; i++) {
		if (a->pz_have && i < a->pz_out.n) {
			const puzzle_verdict *v = &a->pz_out.v[i];
			snprintf(s, sizeof s, "%s %s", v->pass ? "pass" : "FAIL", v->name);
			ui_frame_text(f, in, in.x, y++, s, v->pass ? UI_ROLE_GOOD : UI_ROLE_BAD);
			wrap(a, f, in, &y, bottom, v->msg, 0, UI_ROLE_DIM);
		} else {
			char d[128];
			puzzle_check_describe(&p->checks[i], d, sizeof d);
			snprintf(s, sizeof s, "- %s", d);
			ui_frame_text(f, in, in.x, y++, s, UI_ROLE_NORMAL);
		}
	}
	if (a->pz_checking && y < bottom)
		ui_frame_text(f, in, in.x, y++, "Checking on the CPU emulator ...", UI_ROLE_EMPH);
	for (int i = 0; i < a->pz_hints && y < bottom; i++) {
		snprintf(s, sizeof s, "Hint %d: %s", i + 1, p->hints[i]);
		wrap(a, f, in, &y, bottom, s, 8, UI_ROLE_KEY);
	}
}

/* The keys' row: as many as fit, in the order a student needs them, then
 * "? keys" (the help lists them all): narrowed by leaving keys out, never cut. */
static void keys_row(const ui_app *a, ui_frame *f, ui_rect in)
{
	char move[32];
	snprintf(move, sizeof move, "%s/%s", K(PUZZLE_DOWN), K(PUZZLE_UP));
	const struct {
		const char *key, *what;
	} k[] = {
		{K(PUZZLE_EDIT), "edit"},
		{K(PUZZLE_CHECK), "check"},
		{K(PUZZLE_HINT), "hint"},
		{K(PUZZLE_SOLUTION), "solution"},
		{K(CLOSE), "close"},
		{K(PUZZLE_VIEW), a->pz_view ? "back" : "lecturer view"},
		{move, a->pz_view ? "scroll" : "another puzzle"},
	};
	const char *tail = "? keys";
	char row[300] = "";
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(k); i++) {
		char item[64];
		int len = snprintf(item, sizeof item, "%s %s  ", k[i].key, k[i].what);
		if (len > 0 && n + (size_t)len + strlen(tail) <= (size_t)in.w && n + (size_t)len < sizeof row) {
			memcpy(row + n, item, (size_t)len + 1);
			n += (size_t)len;
		}
	}
	snprintf(row + n, sizeof row - n, "%s", tail);
	ui_frame_text(f, in, in.x, in.y + in.h - 1, row, UI_ROLE_KEY);
}

void ui_overlay_puzzle(const ui_app *a, ui_frame *f, ui_rect r, void (*box)(const ui_app *, ui_frame *, ui_rect, const char *))
{
	const puzzle *p = ui_app_puzzle(a);
	char s[300];
	snprintf(s, sizeof s, "Puzzles of lesson %d", ui_app_lesson(a)->number);
	box(a, f, r, s);
	ui_rect in = {r.x + 2, r.y + 1, r.w - 4, r.h - 2};
	if (!p)
		return;
	if (a->pz_view) {
		lecturer(a, f, in);
	} else {
		int y = in.y;
		for (int i = 0; i < a->puzzles.n; i++) {
			const puzzle *q = &a->puzzles.p[i];
			if (q->lesson != p->lesson)
				continue;
			int done = ui_app_puzzle_solved(a, q);
			snprintf(s, sizeof s, "%s %-20s %s", done ? "[x]" : "[ ]", q->id, q->title);
			ui_role role = q == p ? UI_ROLE_SELECT : done ? UI_ROLE_GOOD : UI_ROLE_NORMAL;
			if (q == p)
				ui_frame_fill(f, (ui_rect){in.x, y, in.w, 1}, ' ', role);
			ui_frame_text(f, in, in.x, y++, s, role);
		}
		details(a, p, f, in, y + 1);
	}
	keys_row(a, f, in);
}
