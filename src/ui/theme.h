/* ui/theme: colour themes as a const table — a style (colours + attributes) per role. */
#ifndef PTXTUTOR_UI_THEME_H
#define PTXTUTOR_UI_THEME_H

#include "ui/frame.h"

/* Attributes, turned into curses attributes by the terminal code. */
enum { UI_A_BOLD = 1, UI_A_REVERSE = 2, UI_A_UNDERLINE = 4, UI_A_DIM = 8 };

/* Colours: -1 is the terminal's default, 0..255 xterm's 256 colours
 * (ui/palette.c: 0..7 the ANSI colours, 8..15 their bright forms, a 6×6×6
 * cube, greys). On a terminal with fewer, each becomes the nearest of its
 * 8 or 16 (ui_palette_reduce). */
typedef struct {
	short fg, bg;
	unsigned char attr;
} ui_style;

typedef struct {
	const char *name;
	const char *about;
	int colour;                 /* 0: attributes only (NO_COLOR, monochrome) */
	ui_style role[UI_NROLES];
	short hl_bg;                /* background of the highlighted PTX region */
	short hl_bg8;               /* the same on a terminal of 8 or 16 colours */
	unsigned char hl_attr;      /* used instead when colour is 0 */
	double contrast;            /* the least contrast its text has (tests/test_render.c checks it) */
} ui_theme;

/* The themes, in one array; the first is the default for normal use. */
extern const ui_theme *const ui_themes[];
extern const int ui_ntheme;

/* "term, dark, ...": the names, for messages. */
const char *ui_theme_names(void);
/* Finds a theme by name; NULL when none. */
const ui_theme *ui_theme_find(const char *name);
/* The theme to use: NO_COLOR set (non-empty) → "mono" whatever was asked;
 * else the named one, else "projector" in lecture mode, else the default. */
const ui_theme *ui_theme_pick(const char *name, int present, const char *no_color);

#endif
