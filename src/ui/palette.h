/* ui/palette: the xterm-256 colour palette as a formula — RGB of an index, luminance and contrast (WCAG 2), and the nearest colour of a smaller palette. */
#ifndef PTXTUTOR_UI_PALETTE_H
#define PTXTUTOR_UI_PALETTE_H

/* What a theme's "terminal default" (-1) is taken to be when contrast is
 * computed: xterm's default grey on black. */
#define UI_PALETTE_DEFAULT_FG 7
#define UI_PALETTE_DEFAULT_BG 0

/* The RGB of colour idx (0..255; -1 for fg/bg mean the defaults above):
 * 16 system colours, a 6×6×6 cube, 24 greys. */
void ui_palette_rgb(int idx, int is_bg, unsigned char rgb[3]);
/* Relative luminance (WCAG 2: sRGB linearised, 0.2126 R + 0.7152 G + 0.0722 B). */
double ui_palette_luminance(int idx, int is_bg);
/* Contrast ratio of a foreground on a background, 1 .. 21. */
double ui_palette_contrast(int fg, int bg);
/* The nearest of the first n colours (8 or 16) to colour idx; -1 stays -1. */
int ui_palette_reduce(int idx, int n);

#endif
