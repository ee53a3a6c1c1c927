/* ui/theme: the themes — terminal colours for everyday use, high-contrast light and dark for projectors, and monochrome. */
#include "ui/theme.h"

#include <string.h>

#define S(F, B, A) {.fg = (F), .bg = (B), .attr = (A)}
enum { DEF = -1, BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };

/* Everyday: the terminal's own background, colours for the code. */
static const ui_theme theme_term = {
	.name = "term",
	.about = "the terminal's own colours",
	.colour = 1,
	.role = {
		[UI_ROLE_NORMAL] = S(DEF, DEF, 0),
		[UI_ROLE_DIM] = S(DEF, DEF, UI_A_DIM),
		[UI_ROLE_EMPH] = S(DEF, DEF, UI_A_BOLD),
		[UI_ROLE_CODE] = S(CYAN, DEF, 0),
		[UI_ROLE_HEADER] = S(BLACK, CYAN, 0),
		[UI_ROLE_STATUS] = S(DEF, DEF, UI_A_REVERSE),
		[UI_ROLE_TITLE] = S(DEF, DEF, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_TITLE_FOCUS] = S(BLACK, YELLOW, UI_A_BOLD),
		[UI_ROLE_BORDER] = S(BLUE, DEF, 0),
		[UI_ROLE_HEADING] = S(YELLOW, DEF, UI_A_BOLD),
		[UI_ROLE_LINENO] = S(DEF, DEF, UI_A_DIM),
		[UI_ROLE_FOLD] = S(MAGENTA, DEF, 0),
		[UI_ROLE_P_DIRECTIVE] = S(MAGENTA, DEF, 0),
		[UI_ROLE_P_TYPE] = S(GREEN, DEF, 0),
		[UI_ROLE_P_INSTR] = S(YELLOW, DEF, UI_A_BOLD),
		[UI_ROLE_P_REG] = S(CYAN, DEF, 0),
		[UI_ROLE_P_LABEL] = S(RED, DEF, UI_A_BOLD),
		[UI_ROLE_P_PRED] = S(RED, DEF, 0),
		[UI_ROLE_P_COMMENT] = S(BLUE, DEF, 0),
		[UI_ROLE_P_NUMBER] = S(GREEN, DEF, UI_A_BOLD),
		[UI_ROLE_GOOD] = S(GREEN, DEF, UI_A_BOLD),
		[UI_ROLE_BAD] = S(RED, DEF, UI_A_BOLD),
		[UI_ROLE_WARN] = S(YELLOW, DEF, 0),
		[UI_ROLE_BAR] = S(BLUE, DEF, 0),
		[UI_ROLE_BAR_SELF] = S(YELLOW, DEF, UI_A_BOLD),
		[UI_ROLE_KEY] = S(YELLOW, DEF, UI_A_BOLD),
		[UI_ROLE_SELECT] = S(DEF, DEF, UI_A_REVERSE),
	},
	.hl_bg = BLUE,
	.hl_attr = UI_A_REVERSE,
};

/* Projector, dark room: white on black, only strong colours. */
static const ui_theme theme_dark = {
	.name = "dark",
	.about = "high contrast, white on black",
	.colour = 1,
	.role = {
		[UI_ROLE_NORMAL] = S(WHITE, BLACK, UI_A_BOLD),
		[UI_ROLE_DIM] = S(WHITE, BLACK, 0),
		[UI_ROLE_EMPH] = S(YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_CODE] = S(CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_HEADER] = S(BLACK, WHITE, UI_A_BOLD),
		[UI_ROLE_STATUS] = S(BLACK, WHITE, 0),
		[UI_ROLE_TITLE] = S(WHITE, BLACK, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_TITLE_FOCUS] = S(BLACK, YELLOW, UI_A_BOLD),
		[UI_ROLE_BORDER] = S(WHITE, BLACK, 0),
		[UI_ROLE_HEADING] = S(YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_LINENO] = S(WHITE, BLACK, 0),
		[UI_ROLE_FOLD] = S(MAGENTA, BLACK, UI_A_BOLD),
		[UI_ROLE_P_DIRECTIVE] = S(MAGENTA, BLACK, UI_A_BOLD),
		[UI_ROLE_P_TYPE] = S(GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_P_INSTR] = S(YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_P_REG] = S(CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_P_LABEL] = S(RED, BLACK, UI_A_BOLD),
		[UI_ROLE_P_PRED] = S(RED, BLACK, UI_A_BOLD),
		[UI_ROLE_P_COMMENT] = S(WHITE, BLACK, 0),
		[UI_ROLE_P_NUMBER] = S(GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_GOOD] = S(GREEN, BLACK, UI_A_BOLD),
		[UI_ROLE_BAD] = S(RED, BLACK, UI_A_BOLD),
		[UI_ROLE_WARN] = S(YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_BAR] = S(CYAN, BLACK, UI_A_BOLD),
		[UI_ROLE_BAR_SELF] = S(YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_KEY] = S(YELLOW, BLACK, UI_A_BOLD),
		[UI_ROLE_SELECT] = S(BLACK, WHITE, 0),
	},
	.hl_bg = BLUE,
	.hl_attr = UI_A_REVERSE,
};

/* Projector, lit room: black on white; no yellow or cyan text, which vanish on white. */
static const ui_theme theme_light = {
	.name = "light",
	.about = "high contrast, black on white",
	.colour = 1,
	.role = {
		[UI_ROLE_NORMAL] = S(BLACK, WHITE, 0),
		[UI_ROLE_DIM] = S(BLACK, WHITE, 0),
		[UI_ROLE_EMPH] = S(BLACK, WHITE, UI_A_BOLD),
		[UI_ROLE_CODE] = S(BLUE, WHITE, UI_A_BOLD),
		[UI_ROLE_HEADER] = S(WHITE, BLUE, UI_A_BOLD),
		[UI_ROLE_STATUS] = S(WHITE, BLACK, 0),
		[UI_ROLE_TITLE] = S(BLACK, WHITE, UI_A_BOLD | UI_A_UNDERLINE),
		[UI_ROLE_TITLE_FOCUS] = S(WHITE, BLUE, UI_A_BOLD),
		[UI_ROLE_BORDER] = S(BLACK, WHITE, 0),
		[UI_ROLE_HEADING] = S(BLUE, WHITE, UI_A_BOLD),
		[UI_ROLE_LINENO] = S(BLACK, WHITE, 0),
		[UI_ROLE_FOLD] = S(MAGENTA, WHITE, UI_A_BOLD),
		[UI_ROLE_P_DIRECTIVE] = S(MAGENTA, WHITE, UI_A_BOLD),
		[UI_ROLE_P_TYPE] = S(GREEN, WHITE, UI_A_BOLD),
		[UI_ROLE_P_INSTR] = S(BLUE, WHITE, UI_A_BOLD),
		[UI_ROLE_P_REG] = S(BLACK, WHITE, 0),
		[UI_ROLE_P_LABEL] = S(RED, WHITE, UI_A_BOLD),
		[UI_ROLE_P_PRED] = S(RED, WHITE, UI_A_BOLD),
		[UI_ROLE_P_COMMENT] = S(BLACK, WHITE, 0),
		[UI_ROLE_P_NUMBER] = S(GREEN, WHITE, UI_A_BOLD),
		[UI_ROLE_GOOD] = S(GREEN, WHITE, UI_A_BOLD),
		[UI_ROLE_BAD] = S(RED, WHITE, UI_A_BOLD),
		[UI_ROLE_WARN] = S(MAGENTA, WHITE, UI_A_BOLD),
		[UI_ROLE_BAR] = S(BLUE, WHITE, 0),
		[UI_ROLE_BAR_SELF] = S(RED, WHITE, UI_A_BOLD),
		[UI_ROLE_KEY] = S(BLUE, WHITE, UI_A_BOLD),
		[UI_ROLE_SELECT] = S(WHITE, BLACK, 0),
	},
	.hl_bg = YELLOW,
	.hl_attr = UI_A_REVERSE,
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
	.hl_attr = UI_A_REVERSE,
};

const ui_theme *const ui_themes[] = {&theme_term, &theme_dark, &theme_light, &theme_mono};
const int ui_ntheme = (int)(sizeof ui_themes / sizeof ui_themes[0]);

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
	return present ? ui_theme_find("dark") : ui_themes[0];
}
