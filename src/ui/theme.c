/* ui/theme: the themes — terminal colours for everyday use, high-contrast light and dark, a projector theme for lecture halls, and monochrome. */
#include "ui/theme.h"

#include <stdio.h>
#include <string.h>

#define S(F, B, A) {.fg = (F), .bg = (B), .attr = (A)}
/* The ANSI colours, their bright forms, and the xterm-256 colours used by
 * name (ui/palette.c computes them all). */
enum { DEF = -1, BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE,
       BR_BLACK, BR_RED, BR_GREEN, BR_YELLOW, BR_BLUE, BR_MAGENTA, BR_CYAN, BR_WHITE };
enum {
	NAVY = 17,        /* #00005f */
	DARK_BLUE = 18,   /* #000087 */
	DARK_GREEN = 22,  /* #005f00 */
	PLUM = 90,        /* #870087 */
	DARK_RED = 124,   /* #af0000 */
	SAGE = 151,       /* #afd7af */
	WHEAT = 187,      /* #d7d7af */
	SALMON = 203,     /* #ff5f5f */
	ROSE = 210,       /* #ff8787 */
	ORCHID = 213,     /* #ff87ff */
	CREAM = 229,      /* #ffffaf */
	GREY27 = 238,     /* #444444 */
	GREY50 = 244,     /* #808080 */
	GREY54 = 245,     /* #8a8a8a */
	GREY74 = 250,     /* #bcbcbc */
	GREY82 = 252,     /* #d0d0d0 */
	GREY85 = 253,     /* #dadada */
};

/* Everyday: the terminal's own background, dark or light (the tutor cannot
 * tell which), so every colour is a fixed mid-tone that reads on both:
 * at least 4.5:1 on black and on the navy highlight, about 3:1 or more on
 * white (the green 2.9). The terminal's yellow and cyan, which vanish on a
 * white background, are used only as backgrounds. */
enum {
	T_BLUE = 32,      /* #0087d7 */
	T_GREEN = 34,     /* #00af00 */
	T_SLATE = 68,     /* #5f87d7 */
	T_PURPLE = 134,   /* #af5fd7 */
	T_GOLD = 136,     /* #af8700 */
	T_ORANGE = 166,   /* #d75f00 */
	T_RED = 167,      /* #d75f5f */
};
static const ui_theme theme_term = {
	.name = "term",
	.about = "the terminal's own background, dark or light",
	.colour = 1,
	.role = {
		[UI_ROLE_NORMAL] = S(DEF, DEF, 0),
		[UI_ROLE_DIM] = S(DEF, DEF, UI_A_DIM),
		[UI_ROLE_EMPH] = S(DEF, DEF, UI_A_BOLD),
		[UI_ROLE_CODE] = S(T_BLUE, DEF, 0),
		[UI_ROLE_HEADER] = S(BLACK, CYAN, 0),
		[UI_ROLE_STATUS] = S(DEF, DEF, UI_A_REVERSE),
		[UI_ROLE_TITLE] = S(DEF, DEF, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_TITLE_FOCUS] = S(BLACK, YELLOW, UI_A_BOLD),
		[UI_ROLE_BORDER] = S(BR_BLACK, DEF, 0),
		[UI_ROLE_HEADING] = S(T_ORANGE, DEF, UI_A_BOLD),
		[UI_ROLE_LINENO] = S(DEF, DEF, UI_A_DIM),
		[UI_ROLE_FOLD] = S(T_PURPLE, DEF, 0),
		[UI_ROLE_P_DIRECTIVE] = S(T_PURPLE, DEF, 0),
		[UI_ROLE_P_TYPE] = S(T_GREEN, DEF, 0),
		[UI_ROLE_P_INSTR] = S(T_GOLD, DEF, UI_A_BOLD),
		[UI_ROLE_P_REG] = S(T_BLUE, DEF, 0),
		[UI_ROLE_P_LABEL] = S(T_RED, DEF, UI_A_BOLD),
		[UI_ROLE_P_PRED] = S(T_RED, DEF, 0),
		[UI_ROLE_P_COMMENT] = S(GREY54, DEF, 0),
		[UI_ROLE_P_NUMBER] = S(T_GREEN, DEF, UI_A_BOLD),
		[UI_ROLE_GOOD] = S(T_GREEN, DEF, UI_A_BOLD),
		[UI_ROLE_BAD] = S(T_RED, DEF, UI_A_BOLD),
		[UI_ROLE_WARN] = S(T_GOLD, DEF, 0),
		[UI_ROLE_BAR] = S(T_SLATE, DEF, 0),
		[UI_ROLE_BAR_SELF] = S(T_ORANGE, DEF, UI_A_BOLD),
		[UI_ROLE_KEY] = S(T_GOLD, DEF, UI_A_BOLD),
		[UI_ROLE_SELECT] = S(DEF, DEF, UI_A_REVERSE),
	},
	.hl_bg = NAVY,
	.hl_bg8 = BLUE,
	.hl_attr = UI_A_REVERSE,
	.contrast = 4.5,
};

/* Projector, dark room: white on black, only strong colours. */
static const ui_theme theme_dark = {
	.name = "dark",
	.about = "high contrast, white on black",
	.colour = 1,
	.role = {
		[UI_ROLE_NORMAL] = S(BR_WHITE, BLACK, 0),
		[UI_ROLE_DIM] = S(GREY74, BLACK, 0),
		[UI_ROLE_EMPH] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_CODE] = S(BR_CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_HEADER] = S(BLACK, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_STATUS] = S(BLACK, GREY82, 0),
		[UI_ROLE_TITLE] = S(BR_WHITE, BLACK, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_TITLE_FOCUS] = S(BLACK, BR_YELLOW, UI_A_BOLD),
		[UI_ROLE_BORDER] = S(GREY50, BLACK, 0),
		[UI_ROLE_HEADING] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_LINENO] = S(GREY74, BLACK, 0),
		[UI_ROLE_FOLD] = S(ORCHID, BLACK, UI_A_BOLD),
		[UI_ROLE_P_DIRECTIVE] = S(ORCHID, BLACK, UI_A_BOLD),
		[UI_ROLE_P_TYPE] = S(BR_GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_P_INSTR] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_P_REG] = S(BR_CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_P_LABEL] = S(SALMON, BLACK, UI_A_BOLD),
		[UI_ROLE_P_PRED] = S(SALMON, BLACK, UI_A_BOLD),
		[UI_ROLE_P_COMMENT] = S(SAGE, BLACK, 0),
		[UI_ROLE_P_NUMBER] = S(BR_GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_GOOD] = S(BR_GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_BAD] = S(SALMON, BLACK, UI_A_BOLD),
		[UI_ROLE_WARN] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_BAR] = S(BR_CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_BAR_SELF] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_KEY] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_SELECT] = S(BLACK, BR_WHITE, 0),
	},
	.hl_bg = DARK_BLUE,
	.hl_bg8 = BLUE,
	.hl_attr = UI_A_REVERSE,
	.contrast = 4.5,
};

/* Projector, lit room: black on white; dark colours only (yellow and cyan
 * vanish on white), a cream highlight. */
static const ui_theme theme_light = {
	.name = "light",
	.about = "high contrast, black on white",
	.colour = 1,
	.role = {
		[UI_ROLE_NORMAL] = S(BLACK, BR_WHITE, 0),
		[UI_ROLE_DIM] = S(GREY27, BR_WHITE, 0),
		[UI_ROLE_EMPH] = S(BLACK, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_CODE] = S(DARK_BLUE, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_HEADER] = S(BR_WHITE, DARK_BLUE, UI_A_BOLD),
		[UI_ROLE_STATUS] = S(BR_WHITE, BLACK, 0),
		[UI_ROLE_TITLE] = S(BLACK, BR_WHITE, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_TITLE_FOCUS] = S(BR_WHITE, DARK_BLUE, UI_A_BOLD),
		[UI_ROLE_BORDER] = S(BLACK, BR_WHITE, 0),
		[UI_ROLE_HEADING] = S(DARK_BLUE, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_LINENO] = S(GREY27, BR_WHITE, 0),
		[UI_ROLE_FOLD] = S(PLUM, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_P_DIRECTIVE] = S(PLUM, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_P_TYPE] = S(DARK_GREEN, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_P_INSTR] = S(DARK_BLUE, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_P_REG] = S(BLACK, BR_WHITE, 0),
		[UI_ROLE_P_LABEL] = S(DARK_RED, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_P_PRED] = S(DARK_RED, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_P_COMMENT] = S(GREY27, BR_WHITE, 0),
		[UI_ROLE_P_NUMBER] = S(DARK_GREEN, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_GOOD] = S(DARK_GREEN, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_BAD] = S(DARK_RED, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_WARN] = S(PLUM, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_BAR] = S(DARK_BLUE, BR_WHITE, 0),
		[UI_ROLE_BAR_SELF] = S(DARK_RED, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_KEY] = S(DARK_BLUE, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_SELECT] = S(BR_WHITE, BLACK, 0),
	},
	.hl_bg = CREAM,
	.hl_bg8 = YELLOW,
	.hl_attr = UI_A_REVERSE,
	.contrast = 4.5,
};

/* Lecture halls: black, every text colour at least 7:1 (WCAG AAA) against
 * it and against the highlight, nothing dim — the default with --present. */
static const ui_theme theme_projector = {
	.name = "projector",
	.about = "lecture hall: 7:1 contrast or more, nothing faint",
	.colour = 1,
	.role = {
		[UI_ROLE_NORMAL] = S(BR_WHITE, BLACK, UI_A_BOLD),
		[UI_ROLE_DIM] = S(GREY85, BLACK, 0),
		[UI_ROLE_EMPH] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_CODE] = S(BR_CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_HEADER] = S(BLACK, BR_WHITE, UI_A_BOLD),
		[UI_ROLE_STATUS] = S(BLACK, BR_WHITE, 0),
		[UI_ROLE_TITLE] = S(BR_WHITE, BLACK, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_TITLE_FOCUS] = S(BLACK, BR_YELLOW, UI_A_BOLD),
		[UI_ROLE_BORDER] = S(GREY74, BLACK, 0),
		[UI_ROLE_HEADING] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_LINENO] = S(GREY85, BLACK, 0),
		[UI_ROLE_FOLD] = S(ORCHID, BLACK, UI_A_BOLD),
		[UI_ROLE_P_DIRECTIVE] = S(ORCHID, BLACK, UI_A_BOLD),
		[UI_ROLE_P_TYPE] = S(BR_GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_P_INSTR] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_P_REG] = S(BR_CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_P_LABEL] = S(ROSE, BLACK, UI_A_BOLD),
		[UI_ROLE_P_PRED] = S(ROSE, BLACK, UI_A_BOLD),
		[UI_ROLE_P_COMMENT] = S(WHEAT, BLACK, 0),
		[UI_ROLE_P_NUMBER] = S(BR_GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_GOOD] = S(BR_GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_BAD] = S(ROSE, BLACK, UI_A_BOLD),
		[UI_ROLE_WARN] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_BAR] = S(BR_CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_BAR_SELF] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_KEY] = S(BR_YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_SELECT] = S(BLACK, BR_WHITE, UI_A_BOLD),
	},
	.hl_bg = NAVY,
	.hl_bg8 = BLUE,
	.hl_attr = UI_A_REVERSE,
	.contrast = 7.0,
};

/* NO_COLOR and monochrome terminals: attributes carry the meaning. */
static const ui_theme theme_mono = {
	.name = "mono",
	.about = "no colour, attributes only (NO_COLOR)",
	.colour = 0,
	.role = {
		[UI_ROLE_EMPH] = S(DEF, DEF, UI_A_BOLD),
		[UI_ROLE_HEADER] = S(DEF, DEF, UI_A_REVERSE),
		[UI_ROLE_STATUS] = S(DEF, DEF, UI_A_REVERSE),
		[UI_ROLE_TITLE] = S(DEF, DEF, UI_A_UNDERLINE),
		[UI_ROLE_TITLE_FOCUS] = S(DEF, DEF, UI_A_REVERSE | UI_A_BOLD),
		[UI_ROLE_HEADING] = S(DEF, DEF, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_P_INSTR] = S(DEF, DEF, UI_A_BOLD),
		[UI_ROLE_P_LABEL] = S(DEF, DEF, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_P_COMMENT] = S(DEF, DEF, UI_A_DIM),
		[UI_ROLE_LINENO] = S(DEF, DEF, UI_A_DIM),
		[UI_ROLE_DIM] = S(DEF, DEF, UI_A_DIM),
		[UI_ROLE_GOOD] = S(DEF, DEF, UI_A_BOLD),
		[UI_ROLE_BAD] = S(DEF, DEF, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_BAR_SELF] = S(DEF, DEF, UI_A_BOLD),
		[UI_ROLE_KEY] = S(DEF, DEF, UI_A_BOLD),
		[UI_ROLE_SELECT] = S(DEF, DEF, UI_A_REVERSE),
	},
	.hl_bg = DEF,
	.hl_bg8 = DEF,
	.hl_attr = UI_A_REVERSE,
};

const ui_theme *const ui_themes[] = {&theme_term, &theme_dark, &theme_light, &theme_projector, &theme_mono};
const int ui_ntheme = (int)(sizeof ui_themes / sizeof ui_themes[0]);

const char *ui_theme_names(void)
{
	static char names[128];
	if (!names[0])
		for (int i = 0; i < ui_ntheme; i++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
				 ui_themes[i]->name);
	return names;
}

const ui_theme *ui_theme_find(const char *name)
{
	for (int i = 0; name && i < ui_ntheme; i++)
		if (!strcmp(ui_themes[i]->name, name))
			return ui_themes[i];
	return NULL;
}

const ui_theme *ui_theme_pick(const char *name, int present, const char *no_color)
{
	if (no_color && *no_color)
		return ui_theme_find("mono");
	const ui_theme *t = ui_theme_find(name);
	if (t)
		return t;
	return present ? ui_theme_find("projector") : ui_themes[0];
}
