/* emu_loc: a located problem's CUDA line (.loc) and that line's text, added where the emulator fills its error. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_internal.h"
#include "course/ptxloc.h"
#include "base/util.h"

void emu_loc_fill(const ptx_locs *locs, run_error *e)
{
	const char *file = NULL, *file2 = NULL;
	int line = e->line > 0 ? ptx_loc_near(locs, e->line, &file) : 0;
	if (!line)
		return;
	int line2 = e->line2 > 0 ? ptx_loc_near(locs, e->line2, &file2) : 0;
	/* the other access inlined from a header (cp.async through cuda_pipeline.h's
	 * helpers, two levels deep, which one inlined_at cannot name): the nearest
	 * line above it of the same .cu, its call */
	for (int l = e->line2 - 1; line2 && strcmp(file, file2) && l > 0 && l > e->line2 - 64; l--) {
		const char *f = NULL;
		int at = ptx_loc_of(locs, l, &f);
		if (at && f && !strcmp(file, f))
			line2 = at, file2 = f;
	}
	e->cu_line2 = line2 && !strcmp(file, file2) ? line2 : 0; /* a line of the same .cu */
	util_strlcpy(e->cu_path, file, sizeof e->cu_path);
	e->cu_line = line;
	char path[RUN_PATH];
	if (ptx_loc_source(file, e->path, path, sizeof path))
		return;
	char *text = util_read_file(path, NULL, NULL, 0);
	if (text && ptx_loc_text_line(text, line, e->cu_text, sizeof e->cu_text) == 0)
		util_strlcpy(e->cu_path, path, sizeof e->cu_path); /* the copy found names the file */
	free(text);
}
