/* ui/sass_rows: the rows of the SASS view (S) — by PTX line (each PTX line of the page's region that became SASS, then its instructions) or in the machine's order (each instruction with its PTX line) — the cursor and what it marks; read-only, asked by the update code (moving) and the draw code. */
#ifndef PTXTUTOR_UI_SASS_ROWS_H
#define PTXTUTOR_UI_SASS_ROWS_H

#include "ui/app_state.h"

/* a->sass_view: which view S has cycled to. */
enum { UI_SASS_OFF, UI_SASS_BY_LINE, UI_SASS_BY_ADDR };

typedef struct {
	int line;               /* 1-based PTX line (0: none) */
	const sass_instr *ins;  /* NULL: the PTX line's own row (by line only) */
} ui_sass_row;

/* The PTX lines the view covers (1-based, inclusive) and the region's name
 * (NULL: the whole kernel, when the page highlights no region). */
void ui_sass_range(const ui_app *a, int *first, int *last, const char **name);
/* The current lesson's rows in the view's order; with out, a malloc'd array
 * the caller frees. 0 when its SASS is not here. */
int ui_sass_rows(const ui_app *a, ui_sass_row **out);
/* The cursor's row, within 0..n-1 (0 when n is 0). */
int ui_sass_cursor(const ui_app *a, int n);
/* The PTX line the cursor marks: its row's line (a SASS row: the line it
 * came from; a PTX row: itself). Rows with that line are marked too. */
int ui_sass_marked_line(const ui_app *a, const ui_sass_row *rows, int n);

#endif
