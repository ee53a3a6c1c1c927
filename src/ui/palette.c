/* ui/palette: xterm's 256 colours computed (no table to drift), WCAG luminance and contrast, and the reduction to 8 or 16 colours. */
#include "ui/palette.h"

#include <math.h>

/* xterm's 16 system colours. */
static const unsigned char sys[16][3] = {
	{0, 0, 0},       {205, 0, 0},   {0, 205, 0},   {205, 205, 0},   {0, 0, 238},   {205, 0, 205},
	{0, 205, 205},   {229, 229, 229}, {127, 127, 127}, {255, 0, 0},   {0, 255, 0},   {255, 255, 0},
	{92, 92, 255},   {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
};

void ui_palette_rgb(int idx, int is_bg, unsigned char rgb[3])
{
	if (idx < 0)
		idx = is_bg ? UI_PALETTE_DEFAULT_BG : UI_PALETTE_DEFAULT_FG;
	if (idx > 255)
		idx = 255;
	if (idx < 16) {
		for (int i = 0; i < 3; i++)
			rgb[i] = sys[idx][i];
	} else if (idx < 232) {
		/* The cube: levels 0, 95, 135, 175, 215, 255. */
		int c = idx - 16, v[3] = {c / 36, c / 6 % 6, c % 6};
		for (int i = 0; i < 3; i++)
			rgb[i] = (unsigned char)(v[i] ? 55 + 40 * v[i] : 0);
	} else {
		rgb[0] = rgb[1] = rgb[2] = (unsigned char)(8 + 10 * (idx - 232));
	}
}

static double linear(unsigned char c)
{
	double s = c / 255.0;
	return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

double ui_palette_luminance(int idx, int is_bg)
{
	unsigned char c[3];
	ui_palette_rgb(idx, is_bg, c);
	return 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
}

double ui_palette_contrast(int fg, int bg)
{
	double a = ui_palette_luminance(fg, 0), b = ui_palette_luminance(bg, 1);
	return a > b ? (a + 0.05) / (b + 0.05) : (b + 0.05) / (a + 0.05);
}

int ui_palette_reduce(int idx, int n)
{
	if (idx < 0 || idx < n)
		return idx;
	unsigned char c[3];
	ui_palette_rgb(idx, 0, c);
	int best = 0;
	long bd = -1;
	for (int i = 0; i < n; i++) {
		long d = 0;
		for (int k = 0; k < 3; k++)
			d += (long)(c[k] - sys[i][k]) * (c[k] - sys[i][k]);
		if (bd < 0 || d < bd)
			bd = d, best = i;
	}
	return best;
}
