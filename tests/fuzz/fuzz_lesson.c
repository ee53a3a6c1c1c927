/* fuzz_lesson: a lesson file through the parser, the checks, the cost model and the prose renderer, as `show --screen` takes it. */
#include <stdlib.h>

#include "course/lesson.h"
#include "model/devices.h"
#include "model/model.h"
#include "ui/prose.h"
#include "fuzz.h"

/* The GPU the numbers are for: the shipped table's default (PTXTUTOR_ROOT),
 * else none and the placeholders stay unfilled. */
static const gpu_spec *gpu(void)
{
	static gpu_table t;
	static int loaded;
	if (!loaded) {
		char err[256];
		loaded = devices_load(&t, err, sizeof err) == 0 ? 1 : -1;
	}
	return loaded > 0 ? devices_default(&t) : NULL;
}

static void render(const lesson *l, const model_result *m)
{
	for (int p = 0; p < l->npages; p++) {
		const lesson_page *pg = &l->pages[p];
		ui_lines t;
		ui_lines_init(&t);
		ui_prose(&t, m, pg->text, 60);
		for (int e = 0; e < pg->nex; e++) {
			ui_prose(&t, m, pg->ex[e].question, 40);
			ui_prose(&t, m, pg->ex[e].answer, 40);
			ui_lines_para(&t, pg->ex[e].hint, UI_ROLE_NORMAL, 40, 2);
		}
		ui_lines_free(&t);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	lesson l;
	char err[1024];
	if (lesson_parse("lessons/42-fuzz.md", text, &l, err, sizeof err) == 0) {
		lesson_validate(&l, model_known, err, sizeof err);
		const gpu_spec *g = gpu();
		model_result *m = xcalloc(1, sizeof *m);
		int ok = g && model_compute(&l, NULL, 256, 256, 256, g, m, err, sizeof err) == 0;
		render(&l, ok ? m : NULL);
		free(m);
		lesson_free(&l);
	}
	free(text);
	return 0;
}
