/* ui/frame: an off-screen grid of cells (character + style role) that draw code fills and the terminal shows once. */
#ifndef PTXTUTOR_UI_FRAME_H
#define PTXTUTOR_UI_FRAME_H

#include <stdint.h>
#include <stddef.h>

#include "ui/layout.h"

/* What a cell means; the theme turns roles into colours and attributes. */
typedef enum {
	UI_ROLE_NORMAL,
	UI_ROLE_DIM,
	UI_ROLE_EMPH,        /* **bold** prose, values */
	UI_ROLE_CODE,        /* `code` in prose */
	UI_ROLE_HEADER,      /* the top line */
	UI_ROLE_STATUS,      /* the bottom line */
	UI_ROLE_TITLE,       /* a pane's title row */
	UI_ROLE_TITLE_FOCUS, /* the focused pane's title row */
	UI_ROLE_BORDER,
	UI_ROLE_HEADING,     /* headings inside the lesson text */
	UI_ROLE_LINENO,
	UI_ROLE_FOLD,        /* the summary row of a folded run */
	UI_ROLE_P_DIRECTIVE, /* PTX classes, in ptx_class order from here */
	UI_ROLE_P_TYPE,
	UI_ROLE_P_INSTR,
	UI_ROLE_P_REG,
	UI_ROLE_P_LABEL,
	UI_ROLE_P_PRED,
	UI_ROLE_P_COMMENT,
	UI_ROLE_P_NUMBER,
	UI_ROLE_GOOD,
	UI_ROLE_BAD,
	UI_ROLE_WARN,
	UI_ROLE_BAR,         /* bars of charts */
	UI_ROLE_BAR_SELF,    /* this lesson's bar or point */
	UI_ROLE_KEY,         /* key names in help and the status line */
	UI_ROLE_SELECT,      /* the selected row of a list */
	UI_NROLES
} ui_role;

/* Cell flag: inside the highlighted PTX region (drawn on the highlight background). */
#define UI_CELL_HL 1

typedef struct {
	uint32_t ch;   /* Unicode code point; 0 never appears in a cleared frame */
	uint8_t role;
	uint8_t flags;
} ui_cell;

typedef struct {
	int cols, rows;
	ui_cell *cells;
	/* Text that did not fit where it was drawn and was lost without a mark
	 * (a word cut at a pane's edge): how often since the frame was cleared,
	 * and where the first was. The render lint (tests/test_render_lint.c)
	 * fails on any; drawing code shortens at a word with a mark instead
	 * (ui_frame_text_fit). */
	int cuts;
	int cut_x, cut_y;
} ui_frame;

/* Line-drawing and chart glyphs: Unicode, or ASCII for terminals without. */
typedef struct {
	uint32_t hline, vline, cross, ellipsis, point, arrow, mark;
	uint32_t eighths[9]; /* partial blocks, 0/8 .. 8/8 */
	uint32_t shade;      /* a lighter fill */
} ui_glyphs;

const ui_glyphs *ui_glyphs_get(int ascii);

void ui_frame_init(ui_frame *f, int cols, int rows);
void ui_frame_free(ui_frame *f);
/* Resizes (contents lost) and clears. */
void ui_frame_resize(ui_frame *f, int cols, int rows);
void ui_frame_clear(ui_frame *f);

void ui_frame_put(ui_frame *f, int x, int y, uint32_t ch, ui_role role);
/* Fills a rectangle with one character in one role. */
void ui_frame_fill(ui_frame *f, ui_rect r, uint32_t ch, ui_role role);
/* A box over what is drawn: the rectangle blank in the normal role, its
 * flags cleared too (no highlight background shows through). */
void ui_frame_cover(ui_frame *f, ui_rect r);
/* Sets flag bits on a span of a row. */
void ui_frame_flag(ui_frame *f, int x, int y, int w, uint8_t flags);
/* A search hit: a span of a row in reverse video (the select role, off the
 * highlight background, so it shows inside a highlighted region too). */
void ui_frame_hit(ui_frame *f, int x, int y, int w);
/* Writes UTF-8 text at x,y, clipped to clip (absolute coordinates). Stops
 * at a newline. Returns the column after the last one written (or where it
 * would have been). Bytes that are not valid UTF-8 show as '?'. */
int ui_frame_text(ui_frame *f, ui_rect clip, int x, int y, const char *s, ui_role role);
/* Like ui_frame_text, for a one-line label that may not fit: where s is
 * wider than the room from x to the clip's right edge, it is shortened at
 * the last space that leaves room for an ellipsis after it (mid-word only
 * for a single word wider than the room), so nothing is cut unmarked.
 * Returns the column after the last one written. */
int ui_frame_text_fit(ui_frame *f, ui_rect clip, int x, int y, const char *s, ui_role role);
/* Like ui_frame_text, for a line of code (PTX, SASS, a diff) that may be
 * wider than the room: where it does not fit, its last column shows mark
 * (an arrow: the line goes on) instead of a cut token. */
int ui_frame_code(ui_frame *f, ui_rect clip, int x, int y, const char *s, ui_role role, uint32_t mark);
/* Records text lost at x,y without a mark (see ui_frame.cuts). */
void ui_frame_cut(ui_frame *f, int x, int y);
/* Like ui_frame_text with at most n bytes of s. */
int ui_frame_textn(ui_frame *f, ui_rect clip, int x, int y, const char *s, size_t n, ui_role role);

/* A pane's title row: the first row of r filled in the title role (the
 * focused pane's when focused), text from its second column. */
void ui_frame_title(ui_frame *f, ui_rect r, const char *text, int focused);

/* Decodes one UTF-8 character from s (at most n bytes); *len gets its length
 * (at least 1). Invalid sequences give '?'. */
uint32_t ui_utf8_decode(const char *s, size_t n, int *len);
/* Encodes cp into out (at least 5 bytes); returns the length. */
int ui_utf8_encode(uint32_t cp, char *out);
/* Display columns of a UTF-8 string (one per code point). */
int ui_utf8_width(const char *s, size_t n);

/* The ASCII character that stands for cp in one cell (box drawing '-', '|',
 * '+', blocks '#', arrows '<' '>' '^' 'v', ...; '?' when none does). */
uint32_t ui_ascii_of(uint32_t cp);
/* Every cell of the frame in ASCII (--ascii, a locale that is not UTF-8). */
void ui_frame_ascii(ui_frame *f);

/* Row y as UTF-8 text with trailing spaces removed. Returns the number of
 * bytes written. */
int ui_frame_row_text(const ui_frame *f, int y, char *out, size_t len);

#endif
