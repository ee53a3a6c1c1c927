/* ui/pane_sass: the SASS view drawn into the PTX pane — rows from ui/sass_rows (by PTX line or in the machine's order), the compiler that made them, the cursor with the PTX line it marks, counts of the region in the title; reads the state, never changes it. */
#include "ui/pane_sass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/keys.h"
#include "ui/layout.h"
#include "ui/sass_rows.h"

/* "SASS sm_90 @inner-loop: 6 instr, FFMA 2, LDG 3; 28 regs  (S: machine order)" */
static void title(const ui_app *a, char *s, size_t len)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	char next[48];
	snprintf(next, sizeof next, "%s: %s", ui_key_name(UI_MODE_NORMAL, UI_ACT_SASS),
		 a->sass_view == UI_SASS_BY_LINE && p->sass_state == 2 ? "machine order" : "PTX");
	if (p->sass_state != 2) {
		snprintf(s, len, "SASS  (%s)", next);
		return;
	}
	int first, last;
	const char *name;
	ui_sass_range(a, &first, &last, &name);
	sass_counts c;
	sass_count(&p->sass, first, last, &c);
	size_t n = (size_t)snprintf(s, len, "SASS %s%s %s%s: %d instr", p->sass.arch,
				    p->sass.recorded_date[0] ? " (recorded)" : "", name ? "@" : "",
				    name ? name : p->sass.entry, c.total);
	for (int k = 0; k < SASS_NKINDS && n < len; k++)
		if (c.kind[k])
			n += (size_t)snprintf(s + n, len - n, ", %s %d", sass_kind_name((sass_kind)k), c.kind[k]);
	if (n < len)
		snprintf(s + n, len - n, "; %d regs  (%s)", p->sass.regs, next);
}

/* The PTX text of 0-based line i of the document, without its indentation. */
static void ptx_text(const ui_ptx *p, int i, char *buf, size_t len)
{
	buf[0] = '\0';
	if (i < 0 || i >= p->doc.nlines)
		return;
	const ptx_line *l = &p->doc.lines[i];
	const char *s = p->doc.text + l->off;
	int n = l->len;
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	snprintf(buf, len, "%.*s", n, s);
}

/* Word-wrapped: the missing-tool line says where to get the tools. */
static void why_text(ui_frame *f, ui_rect body, const char *why, ui_role role)
{
	int w = body.w - 2, len = (int)strlen(why);
	for (int y = 0, at = 0; y < body.h && at < len && w > 0; y++) {
		int n = len - at <= w ? len - at : w;
		while (n < len - at && n > 0 && why[at + n] != ' ')
			n--;
		if (n == 0)
			n = w;
		ui_frame_textn(f, body, body.x + 1, body.y + y, why + at, (size_t)n, role);
		for (at += n; why[at] == ' ';)
			at++;
	}
}

/* The cursor's line at the foot: the PTX line and how much SASS it became. */
static void foot(const ui_app *a, ui_frame *f, ui_rect body, int y, int line)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	char s[300], t[240];
	if (line <= 0) {
		snprintf(s, sizeof s, "(no PTX line: code the compiler added)");
	} else {
		int idx[1];
		int n = sass_of_line(&p->sass, line, idx, 1);
		ptx_text(p, line - 1, t, sizeof t);
		snprintf(s, sizeof s, "PTX %d -> %d SASS: %s", line, n, t);
	}
	ui_frame_fill(f, (ui_rect){body.x, y, body.w, 1}, ' ', UI_ROLE_EMPH);
	ui_frame_code(f, body, body.x, y, s, UI_ROLE_EMPH, ui_glyphs_get(a->ascii)->arrow);
}

void ui_pane_sass_draw(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.pane[UI_PANE_PTX];
	if (r.h <= 0)
		return;
	const ui_ptx *p = &a->ptx[a->lesson];
	char t[256];
	title(a, t, sizeof t);
	ui_frame_title(f, r, t, a->focus == UI_PANE_PTX);
	ui_rect body = ui_layout_body(r);
	const char *why = !ui_app_lesson(a)->ptx_path[0] ? "This lesson has no kernel."
			  : p->sass_state == -1                ? p->sass_why
			  : p->sass_state != 2                 ? "Compiling and disassembling ..."
							       : NULL;
	if (why) {
		why_text(f, body, why, p->sass_state == -1 ? UI_ROLE_WARN : UI_ROLE_DIM);
		return;
	}
	/* Which compiler made it: the GPU's own JIT, ptxas for the modelled GPU, or
	 * a recording made elsewhere (said first: it was not compiled here). */
	char s[300], rec[48] = "";
	if (p->sass.recorded_date[0])
		snprintf(rec, sizeof rec, "recorded %s, not compiled here: ", p->sass.recorded_date);
	snprintf(s, sizeof s, "%s: %s%s for %s, read by %s%s",
		 a->sass_view == UI_SASS_BY_ADDR ? "machine order" : "by PTX line", rec, p->sass.compiler,
		 p->sass.arch, p->sass.disassembler, p->sass.has_lines ? "" : " (no line information: all SASS below)");
	ui_frame_text_fit(f, body, body.x + 1, body.y, s, UI_ROLE_DIM);
	body.y++, body.h--;
	ui_sass_row *rows;
	int n = ui_sass_rows(a, &rows), *lo, *hi;
	sass_loops_new(&p->sass, &lo, &hi);
	int cur = ui_sass_cursor(a, n), mark = ui_sass_marked_line(a, rows, n);
	int h = body.h - 1; /* the foot's row */
	int top = a->sass_scroll;
	for (int y = 0; y < h && top + y < n; y++) {
		int i = top + y;
		const ui_sass_row *row = &rows[i];
		int sy = body.y + y;
		ui_role role_text = UI_ROLE_NORMAL;
		if (i == cur) {
			ui_frame_fill(f, (ui_rect){body.x, sy, body.w, 1}, ' ', UI_ROLE_SELECT);
			role_text = UI_ROLE_SELECT;
		}
		/* Line numbers on the PTX rows; in the machine's order on every row. */
		if (row->line > 0 && (!row->ins || a->sass_view == UI_SASS_BY_ADDR)) {
			snprintf(s, sizeof s, "%5d", row->line);
			ui_frame_text(f, body, body.x, sy, s, i == cur ? UI_ROLE_SELECT : UI_ROLE_LINENO);
		}
		uint32_t more = ui_glyphs_get(a->ascii)->arrow;
		if (row->ins) {
			/* its control bits beside it, where there is room: what it waits on, from which lines */
			int x = ui_frame_code(f, body, body.x + 8, sy, row->ins->text, role_text, more);
			char note[160];
			if (sass_control_note(&p->sass, lo, hi, (int)(row->ins - p->sass.ins), note, sizeof note) &&
			    x + 2 < body.x + body.w - 12)
				ui_frame_text_fit(f, body, x > body.x + 44 ? x + 2 : body.x + 46, sy, note,
						  i == cur ? UI_ROLE_SELECT : UI_ROLE_DIM);
		} else {
			ptx_text(p, row->line - 1, s, sizeof s);
			ui_frame_code(f, body, body.x + 6, sy, row->line > 0 ? s : "(no PTX line)",
				      i == cur ? UI_ROLE_SELECT : UI_ROLE_P_INSTR, more);
		}
		/* The cursor's PTX line and the rest of what it became. */
		if (i != cur && row->line == mark)
			ui_frame_flag(f, body.x, sy, body.w, UI_CELL_HL);
	}
	if (n > 0 && h >= 1)
		foot(a, f, body, body.y + h, mark);
	free(rows), free(lo), free(hi);
}
