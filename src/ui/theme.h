/* ui/theme: colour themes as a const table — a style (colours + attributes) per role. */
#ifndef PTXTUTOR_UI_THEME_H
#define PTXTUTOR_UI_THEME_H

#include "ui/frame.h"

/* Attributes, turned into curses attributes by the terminal code. */
enum { UI_A_BOLD = 1, UI_A_REVERSE = 2, UI_A_UNDERLINE = 4, UI_A_DIM = 8 };

/* Colours: -1 is the terminal's default, 0..7 the ANSI colours (black, red,
 * green, yellow, blue, magenta, cyan, white). */
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
	unsigned char hl_attr;      /* used instead when colour is 0 */
} ui_theme;

/* The themes, in one array; the first is the default for normal use. */
extern const ui_theme *const ui_themes[];
extern const int ui_ntheme;

/* Finds a theme by name; NULL when none. */
const ui_theme *ui_theme_find(const char *name);
/* The theme to use: NO_COLOR set (non-empty) → "mono" whatever was asked;
 * else the named one, else "dark" in lecture mode, else the default. */
const ui_theme *ui_theme_pick(const char *name, int present, const char *no_color);

#endif
