/* ui/app_cuda: the CUDA pane's update code — the .cu of a kernel nvcc compiled with line information, found and read when its PTX loads; C shows or hides it; a cursor in it marks its PTX lines, a cursor in the PTX its CUDA line; a student's own kernel in a lesson's place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"
#include "ui/ptx_counts.h"
#include "ui/ptx_stalls.h"

void app_cuda_forget(ui_ptx *p)
{
	ptx_locs_free(p->locs);
	free(p->cu_text);
	free(p->cu_off);
	p->locs = NULL;
	p->cu_text = NULL;
	p->cu_off = NULL;
	p->cu_nlines = 0;
	p->cu_file = 0;
	p->cu_path[0] = p->cu_why[0] = '\0';
}

/* The file most PTX lines come from: the student's .cu, not a header a
 * line or two were inlined from. */
static int main_file(const ptx_locs *l)
{
	int best = 0, most = -1;
	for (int f = 0; f < l->nfiles; f++) {
		int n = 0;
		for (int i = 1; i <= l->nlines; i++)
			n += l->at[i].line > 0 && l->at[i].file == f;
		if (n > most)
			most = n, best = f;
	}
	return best;
}

void app_cuda_load(ui_ptx *p, const char *ptx_text, const char *orig)
{
	app_cuda_forget(p);
	p->locs = ptx_locs_scan(ptx_text);
	if (!p->locs)
		return;
	p->cu_file = main_file(p->locs);
	const char *recorded = p->locs->files[p->cu_file];
	/* beside the file shown, or beside the original when that is a copy (an edit) */
	if (ptx_loc_source(recorded, p->path, p->cu_path, sizeof p->cu_path) < 0 &&
	    ptx_loc_source(recorded, orig, p->cu_path, sizeof p->cu_path) < 0) {
		snprintf(p->cu_why, sizeof p->cu_why, "%s is not there nor beside the PTX", recorded);
		return;
	}
	char err[256];
	size_t len;
	p->cu_text = util_read_file(p->cu_path, &len, err, sizeof err);
	if (!p->cu_text) {
		snprintf(p->cu_why, sizeof p->cu_why, "%s", err);
		return;
	}
	int n = 1;
	for (size_t i = 0; i < len; i++)
		n += p->cu_text[i] == '\n';
	if (len && p->cu_text[len - 1] == '\n')
		n--; /* the last line's newline starts no line */
	p->cu_off = xcalloc((size_t)n + 1, sizeof *p->cu_off);
	int k = 0;
	for (size_t i = 0; i < len && k < n; i++)
		if (i == 0 || p->cu_text[i - 1] == '\n')
			p->cu_off[k++] = (int)i;
	p->cu_off[n] = (int)len;
	p->cu_nlines = n;
}

/* The rows the CUDA pane has for lines: its body less the counts' header. */
static int cuda_rows(const ui_app *a)
{
	int h = a->layout.cuda.h - 1 - ui_ptx_header_row(a);
	return h < 1 ? 1 : h;
}

/* The CUDA view keeps its cursor's line in sight, a third of the way down. */
static void cuda_follow(ui_app *a)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	int h = cuda_rows(a), top = ui_app_cu_top(a, h);
	if (a->cu_line > 0 && (a->cu_line - 1 < top || a->cu_line - 1 >= top + h))
		top = a->cu_line - 1 - h / 3;
	if (top > p->cu_nlines - h)
		top = p->cu_nlines - h;
	a->cu_scroll = top < 0 ? 0 : top;
}

/* The PTX view scrolls (never jumps: a run's problem still can) so that
 * 1-based line shows, a third of the way down when it was out of sight. */
static void ptx_show(ui_app *a, int line)
{
	if (!app_ptx_line_shown(a, line - 1))
		a->fold = 0;
	int n, h = a->layout.pane[UI_PANE_PTX].h - 1 - ui_ptx_header_row(a);
	ptx_row *rows = ui_app_ptx_rows(a, &n);
	int top = ui_app_ptx_top(a, rows, n, h), r = 0;
	while (r < n && !(rows[r].line == line - 1 && rows[r].hidden == 0))
		r++;
	free(rows);
	if (r < n && (r < top || r >= top + h))
		top = r - h / 3;
	a->scroll[UI_PANE_PTX] = top < 0 ? 0 : top;
	a->ptx_follow = 0;
	a->ptx_goto = -1;
}

/* The CUDA cursor moves: its PTX lines are marked, the PTX view goes to the first. */
static void cuda_move(ui_app *a, int delta)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	int c = (a->cu_line > 0 ? a->cu_line : a->cu_scroll) + delta;
	a->cu_line = c < 1 ? 1 : c > p->cu_nlines ? p->cu_nlines : c;
	a->ptx_cursor = 0; /* the PTX cursor starts again from this line's first PTX line */
	cuda_follow(a);
	int first = ui_app_cu_first_ptx(a, a->cu_line);
	if (first)
		ptx_show(a, first);
}

/* The PTX cursor moves (the CUDA pane shows): its CUDA line is the CUDA cursor's. */
static void ptx_move(ui_app *a, int delta)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	int c = (a->ptx_cursor > 0 ? a->ptx_cursor : ui_app_cu_first_ptx(a, a->cu_line)) + delta;
	a->ptx_cursor = c < 1 ? 1 : c > p->doc.nlines ? p->doc.nlines : c;
	ptx_show(a, a->ptx_cursor);
	app_cuda_sync(a);
}

void app_cuda_home(ui_app *a)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	const char *entry = ui_app_lesson(a)->entry;
	if (!p->ok || !p->locs || a->cu_line > 0)
		return;
	size_t n = strlen(entry);
	for (int i = 0; i < p->doc.nlines; i++) {
		char line[1024];
		snprintf(line, sizeof line, "%.*s", p->doc.lines[i].len, p->doc.text + p->doc.lines[i].off);
		const char *at = strstr(line, ".entry");
		if (!at)
			continue;
		at += 6 + strspn(at + 6, " \t");
		if (strncmp(at, entry, n) || (at[n] && at[n] != '(' && at[n] != ' '))
			continue;
		for (int k = i + 1; k <= p->locs->nlines && !a->cu_line; k++)
			a->cu_line = ui_app_cu_line_of(a, k);
		cuda_follow(a);
		a->ptx_follow = 0;
		a->ptx_goto = -1;
		a->scroll[UI_PANE_PTX] = 0;
		ptx_show(a, i + 1);
		int n; /* the entry's first line at the top */
		ptx_row *rows = ui_app_ptx_rows(a, &n);
		for (int r = 0; r < n; r++)
			if (rows[r].line == i && rows[r].hidden == 0)
				a->scroll[UI_PANE_PTX] = r;
		free(rows);
		return;
	}
}

void app_cuda_sync(ui_app *a)
{
	int cu = ui_app_cu_line_of(a, a->ptx_cursor);
	if (cu) {
		a->cu_line = cu;
		cuda_follow(a);
	}
}

int app_cuda_scroll(ui_app *a, int p, int delta)
{
	if (p != UI_PANE_PTX || !ui_app_cuda_shown(a) || a->sass_view)
		return 0;
	if (a->cu_focus)
		cuda_move(a, delta);
	else
		ptx_move(a, delta);
	return 1;
}

int app_cuda_focus(ui_app *a, int dir)
{
	/* Tab: lesson, CUDA, PTX, the rest; Shift-Tab the other way */
	int within = ui_app_cuda_shown(a) && a->focus == UI_PANE_PTX && (dir > 0 ? a->cu_focus : !a->cu_focus);
	a->cu_focus = within && dir < 0;
	return within;
}

void app_cuda_focus_entered(ui_app *a, int dir)
{
	a->cu_focus = a->focus == UI_PANE_PTX && ui_app_cuda_shown(a) && dir > 0;
}

void app_cuda_click(ui_app *a)
{
	a->focus = UI_PANE_PTX;
	a->cu_focus = 1;
}

void app_act_cuda(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	const ui_ptx *p = &a->ptx[a->lesson];
	if (!p->ok || !p->locs) {
		app_say(a, 0, "This PTX has no CUDA lines: nvcc -ptx -lineinfo records them (ptxtutor --cu FILE.cu does).");
		return;
	}
	a->cuda_off = !a->cuda_off;
	app_relayout(a);
	if (a->cuda_off) {
		a->cu_focus = 0;
		app_say(a, 0, "CUDA pane hidden (%s: back).", ui_key_name(UI_MODE_NORMAL, UI_ACT_CUDA));
		return;
	}
	if (!ui_app_cuda_shown(a)) {
		app_say(a, 0, "No room for the CUDA pane beside the PTX here (%s: the PTX pane fills the screen).",
			ui_key_name(UI_MODE_NORMAL, UI_ACT_ZOOM));
		return;
	}
	a->focus = UI_PANE_PTX;
	a->cu_focus = 1;
	app_say(a, 0, "CUDA beside its PTX: %s/%s move the cursor, its PTX lines are marked (%s: the PTX).",
		ui_key_name(UI_MODE_NORMAL, UI_ACT_SCROLL_DOWN), ui_key_name(UI_MODE_NORMAL, UI_ACT_SCROLL_UP),
		ui_key_name(UI_MODE_NORMAL, UI_ACT_FOCUS_NEXT));
}

int ui_app_own_kernel(ui_app *a, const char *ptx, const char *entry, char *err, int errlen)
{
	lesson *l = &a->course->l[a->lesson];
	if (!l->ptx_path[0]) {
		snprintf(err, (size_t)errlen, "lesson %d has no kernel whose place yours could take", l->number);
		return -1;
	}
	if (strlen(ptx) >= sizeof l->ptx_path || strlen(entry) >= sizeof l->entry) {
		snprintf(err, (size_t)errlen, "%s is too long for the tutor (a path of %zu characters, an entry of %zu at most)",
			 strlen(ptx) >= sizeof l->ptx_path ? "the path" : "the entry's name", sizeof l->ptx_path - 1,
			 sizeof l->entry - 1);
		return -1;
	}
	util_strlcpy(l->ptx_path, ptx, sizeof l->ptx_path);
	util_strlcpy(l->entry, entry, sizeof l->entry);
	a->own = a->lesson;
	app_reload_ptx(a, a->lesson);
	if (!a->ptx[a->lesson].ok) {
		snprintf(err, (size_t)errlen, "%s", a->ptx[a->lesson].err);
		return -1;
	}
	a->ptx_follow = 0;
	a->focus = UI_PANE_PTX;
	a->cu_line = 0;
	app_relayout(a);
	a->cu_focus = a->ptx[a->lesson].locs != NULL;
	app_cuda_home(a);
	app_recompute(a);
	return 0;
}
