/* ui/app_sass: S — the PTX pane shows what the compiler made of the page's region, by PTX line, then in the machine's order; a cursor links a SASS row to its PTX line and back. The SASS is asked of the event loop once per load of the PTX (it runs the tools, never the draw code). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"
#include "ui/sass_rows.h"

void app_sass_forget(ui_ptx *p)
{
	sass_kernel_free(&p->sass);
	p->sass_state = 0;
	p->sass_why[0] = '\0';
}

/* The rows the SASS view has for its body (the pane less its title, the
 * compiler line and the cursor's line at the foot). */
static int body_rows(const ui_app *a)
{
	int h = a->layout.pane[UI_PANE_PTX].h - 3;
	return h < 1 ? 1 : h;
}

void app_sass_move(ui_app *a, int delta)
{
	int n = ui_sass_rows(a, NULL), h = body_rows(a);
	int c = ui_sass_cursor(a, n) + delta;
	a->sass_cursor = c < 0 ? 0 : c >= n ? (n ? n - 1 : 0) : c;
	if (a->sass_cursor < a->sass_scroll)
		a->sass_scroll = a->sass_cursor;
	if (a->sass_cursor >= a->sass_scroll + h)
		a->sass_scroll = a->sass_cursor - h + 1;
	if (a->sass_scroll > n - h)
		a->sass_scroll = n - h;
	if (a->sass_scroll < 0)
		a->sass_scroll = 0;
}

/* S cycles: the PTX, the SASS by PTX line, the SASS in the machine's order. */
void app_act_sass(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	ui_ptx *p = &a->ptx[a->lesson];
	a->sass_view = (a->sass_view + 1) % 3;
	/* No SASS to show twice: a missing tool's line is said once. */
	if (a->sass_view == UI_SASS_BY_ADDR && p->sass_state != 2)
		a->sass_view = UI_SASS_OFF;
	a->sass_scroll = 0;
	a->sass_cursor = 0;
	if (a->sass_view == UI_SASS_OFF) {
		app_say(a, 0, "The PTX again.");
		return;
	}
	if (a->sass_view == UI_SASS_BY_ADDR) {
		app_say(a, 0, "SASS in the machine's order, each with its PTX line (%s/%s: the cursor; %s: the PTX).",
			ui_key_name(UI_MODE_NORMAL, UI_ACT_SCROLL_DOWN), ui_key_name(UI_MODE_NORMAL, UI_ACT_SCROLL_UP),
			ui_key_name(UI_MODE_NORMAL, UI_ACT_SASS));
		return;
	}
	a->focus = UI_PANE_PTX;
	if (!ui_app_lesson(a)->ptx_path[0] || !p->ok || p->sass_state)
		return;
	p->sass_state = 1;
	a->req = UI_REQ_SASS;
	app_say(a, 0, "Compiling and disassembling ... (%s cancels)", ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL));
}

void ui_app_sass_cancelled(ui_app *a, int i)
{
	ui_ptx *p = &a->ptx[i];
	if (p->sass_state != 1)
		return;
	p->sass_state = 0; /* S asks again */
	if (i == a->lesson) {
		a->sass_view = UI_SASS_OFF;
		app_say(a, 0, "SASS cancelled; the PTX again.");
	}
}

void ui_app_sass_done(ui_app *a, int i, int status, sass_kernel *k, const char *err)
{
	ui_ptx *p = &a->ptx[i];
	if (a->req == UI_REQ_SASS)
		a->req = UI_REQ_NONE;
	/* Nobody waits for it (the PTX was reloaded, or the build cancelled). */
	if (p->sass_state != 1) {
		sass_kernel_free(k);
		return;
	}
	sass_kernel_free(&p->sass);
	if (status) {
		p->sass_state = -1;
		util_strlcpy(p->sass_why, err ? err : "?", sizeof p->sass_why);
		sass_kernel_free(k);
		app_say(a, 1, "No SASS: %s", p->sass_why);
		return;
	}
	p->sass = *k;
	memset(k, 0, sizeof *k);
	p->sass_state = 2;
	if (p->sass.recorded_date[0])
		app_say(a, 0, "Recorded SASS (%s, not compiled here: no CUDA toolkit) for %s from %s: %d instructions, %d registers.",
			p->sass.recorded_date, p->sass.arch, p->sass.compiler, p->sass.n, p->sass.regs);
	else
		app_say(a, 0, "SASS for %s from %s: %d instructions, %d registers%s%s%s.", p->sass.arch,
			p->sass.compiler, p->sass.n, p->sass.regs, err && *err ? " (" : "", err && *err ? err : "",
			err && *err ? ")" : "");
}
