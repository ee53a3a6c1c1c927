/* ui/pane_sass: the SASS view drawn into the PTX pane — rows from ui/sass_rows, counts of the region in the title; reads the state, never changes it. */
#include "ui/pane_sass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/layout.h"
#include "ui/sass_rows.h"

/* "SASS sm_90 @inner-loop: 6 instr, FFMA 2, LDG 3; 28 regs  (S: PTX)" */
static void title(const ui_app *a, char *s, size_t len)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	if (p->sass_state != 2) {
		snprintf(s, len, "SASS  (S: back to the PTX)");
		return;
	}
	int first, last;
	const char *name;
	ui_sass_range(a, &first, &last, &name);
	sass_counts c;
	sass_count(&p->sass, first, last, &c);
	size_t n = (size_t)snprintf(s, len, "SASS %s %s%s: %d instr", p->sass.arch, name ? "@" : "",
				    name ? name : p->sass.entry, c.total);
	for (int k = 0; k < SASS_NKINDS && n < len; k++)
		if (c.kind[k])
			n += (size_t)snprintf(s + n, len - n, ", %s %d", sass_kind_name((sass_kind)k), c.kind[k]);
	if (n < len)
		snprintf(s + n, len - n, "; %d regs  (S: PTX)", p->sass.regs);
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
			  : p->sass_state != 2                 ? "Compiling with ptxas and disassembling ..."
							       : NULL;
	if (why) {
		/* Word-wrapped: the missing-tool line says where to get the tools. */
		int w = body.w - 2, len = (int)strlen(why);
		for (int y = 0, at = 0; y < body.h && at < len && w > 0; y++) {
			int n = len - at <= w ? len - at : w;
			while (n < len - at && n > 0 && why[at + n] != ' ')
				n--;
			if (n == 0)
				n = w;
			ui_frame_textn(f, body, body.x + 1, body.y + y, why + at, (size_t)n,
				       p->sass_state == -1 ? UI_ROLE_WARN : UI_ROLE_DIM);
			for (at += n; why[at] == ' ';)
				at++;
		}
		return;
	}
	if (!p->sass.has_lines)
		ui_frame_text(f, body, body.x + 1, body.y++, "(cuobjdump: no line information, all SASS below)",
			      UI_ROLE_DIM), body.h--;
	ui_sass_row *rows;
	int n = ui_sass_rows(a, &rows);
	for (int y = 0; y < body.h && a->sass_scroll + y < n; y++) {
		const ui_sass_row *row = &rows[a->sass_scroll + y];
		int sy = body.y + y;
		char s[300];
		if (row->ins) {
			ui_frame_text(f, body, body.x + 8, sy, row->ins->text, UI_ROLE_NORMAL);
			continue;
		}
		if (row->line > 0) {
			snprintf(s, sizeof s, "%5d", row->line);
			ui_frame_text(f, body, body.x, sy, s, UI_ROLE_LINENO);
		}
		ptx_text(p, row->line - 1, s, sizeof s);
		ui_frame_text(f, body, body.x + 6, sy, row->line > 0 ? s : "(no PTX line)", UI_ROLE_P_INSTR);
	}
	free(rows);
}
