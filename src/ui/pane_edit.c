/* ui/pane_edit: the inline editor drawn full screen — a title row, the buffer in PTX colours with its cursor, a status row. */
#include "ui/pane_edit.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "course/ptx.h"
#include "ui/keys.h"
#include "ui/pane_ptx.h"

/* One line of the buffer at row y, from display column b->left; the cursor's cell reversed. */
static void edit_line(const ui_app *a, ui_frame *f, int y, int ln, int *blk)
{
	const edbuf *b = &a->ed;
	const edbuf_line *l = &b->l[ln];
	unsigned char cls[4096];
	int len = l->len < sizeof cls ? (int)l->len : (int)sizeof cls;
	ptx_classify_line(l->s, len, cls, blk);
	int col = 0;
	for (size_t i = 0; i < l->len;) {
		int cl;
		uint32_t cp = ui_utf8_decode(l->s + i, l->len - i, &cl);
		ui_role role = ln == b->cy && i == b->cx ? UI_ROLE_SELECT : ui_ptx_role(i < sizeof cls ? cls[i] : 0);
		int w = cp == '\t' ? 4 - col % 4 : 1;
		for (int k = 0; k < w; k++, col++)
			if (col >= b->left && col - b->left < f->cols)
				ui_frame_put(f, col - b->left, y, cp == '\t' ? ' ' : cp, k ? ui_ptx_role(0) : role);
		i += (size_t)cl;
	}
	if (ln == b->cy && b->cx >= l->len && col >= b->left && col - b->left < f->cols)
		ui_frame_put(f, col - b->left, y, ' ', UI_ROLE_SELECT);
}

void ui_pane_edit_draw(const ui_app *a, ui_frame *f)
{
	const edbuf *b = &a->ed;
	ui_rect top = {0, 0, f->cols, 1}, bottom = {0, f->rows - 1, f->cols, 1};
	char s[RUN_PATH + 120];
	snprintf(s, sizeof s, " %s  %d:%d%s", a->edit_path, b->cy + 1, edbuf_col(b, b->cy, b->cx) + 1,
		 b->modified ? "  modified" : "");
	ui_frame_fill(f, top, ' ', UI_ROLE_HEADER);
	ui_frame_text(f, top, 0, 0, s, UI_ROLE_HEADER);
	/* Block comments carry from line to line: classify from the file's top. */
	int blk = 0;
	unsigned char cls[4096];
	for (int ln = 0; ln < b->top && ln < b->n; ln++) {
		size_t n = b->l[ln].len < sizeof cls ? b->l[ln].len : sizeof cls;
		ptx_classify_line(b->l[ln].s, (int)n, cls, &blk);
	}
	for (int y = 1; y < f->rows - 1 && b->top + y - 1 < b->n; y++)
		edit_line(a, f, y, b->top + y - 1, &blk);
	ui_frame_fill(f, bottom, ' ', UI_ROLE_STATUS);
	snprintf(s, sizeof s, "%s save+check  %s leave  ", ui_key_name(UI_MODE_EDITOR, UI_ACT_ED_SAVE),
		 ui_key_name(UI_MODE_EDITOR, UI_ACT_ED_QUIT));
	int x = ui_frame_text(f, bottom, 1, bottom.y, s, UI_ROLE_KEY);
	if (a->msg[0])
		ui_frame_text(f, bottom, x, bottom.y, a->msg, a->msg_bad ? UI_ROLE_BAD : UI_ROLE_EMPH);
}
