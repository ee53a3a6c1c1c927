/* ui/sass_rows: the rows of the SASS view (S) — each PTX line of the page's region that became SASS, then its instructions — and their counts; read-only, asked by the update code (scrolling) and the draw code. */
#ifndef PTXTUTOR_UI_SASS_ROWS_H
#define PTXTUTOR_UI_SASS_ROWS_H

#include "ui/app_state.h"

typedef struct {
	int line;               /* 1-based PTX line */
	const sass_instr *ins;  /* NULL: the PTX line's own row */
} ui_sass_row;

/* The PTX lines the view covers (1-based, inclusive) and the region's name
 * (NULL: the whole kernel, when the page highlights no region). */
void ui_sass_range(const ui_app *a, int *first, int *last, const char **name);
/* The current lesson's rows; with out, a malloc'd array the caller frees.
 * 0 when its SASS is not here. */
int ui_sass_rows(const ui_app *a, ui_sass_row **out);

#endif
