/* ui/app_sass: S — the PTX pane shows what ptxas made of the page's region; the SASS is asked of the event loop once per load of the PTX (it runs the tools, never the draw code). */
#include <string.h>

#include "base/util.h"
#include "ui/app_internal.h"

void app_sass_forget(ui_ptx *p)
{
	sass_kernel_free(&p->sass);
	p->sass_state = 0;
	p->sass_why[0] = '\0';
}

void app_act_sass(ui_app *a, ui_action act, int key)
{
	(void)act, (void)key;
	ui_ptx *p = &a->ptx[a->lesson];
	a->sass_view = !a->sass_view;
	a->sass_scroll = 0;
	if (!a->sass_view) {
		app_say(a, 0, "The PTX again.");
		return;
	}
	a->focus = UI_PANE_PTX;
	if (!ui_app_lesson(a)->ptx_path[0] || !p->ok || p->sass_state)
		return;
	p->sass_state = 1;
	a->req = UI_REQ_SASS;
	app_say(a, 0, "Compiling with ptxas and disassembling ...");
}

void ui_app_sass_done(ui_app *a, int i, int status, sass_kernel *k, const char *err)
{
	ui_ptx *p = &a->ptx[i];
	if (a->req == UI_REQ_SASS)
		a->req = UI_REQ_NONE;
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
	app_say(a, 0, "SASS for %s: %d instructions, %d registers.", p->sass.arch, p->sass.n, p->sass.regs);
}
