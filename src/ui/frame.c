/* ui/frame: the off-screen cell grid, UTF-8 decoding into it, and the glyph sets. */
#include "ui/frame.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const ui_glyphs glyphs_unicode = {
	.hline = 0x2500, .vline = 0x2502, .cross = 0x253C, .ellipsis = 0x2026,
	.point = 0x25CF, .arrow = 0x2192, .mark = 0x25B6,
	.eighths = {' ', 0x258F, 0x258E, 0x258D, 0x258C, 0x258B, 0x258A, 0x2589, 0x2588},
	.shade = 0x2591,
};

static const ui_glyphs glyphs_ascii = {
	.hline = '-', .vline = '|', .cross = '+', .ellipsis = '~',
	.point = '*', .arrow = '>', .mark = '>',
	.eighths = {' ', ' ', ' ', ' ', '#', '#', '#', '#', '#'},
	.shade = '.',
};

const ui_glyphs *ui_glyphs_get(int ascii)
{
	return ascii ? &glyphs_ascii : &glyphs_unicode;
}

void ui_frame_init(ui_frame *f, int cols, int rows)
{
	f->cols = f->rows = 0;
	f->cells = NULL;
	ui_frame_resize(f, cols, rows);
}

void ui_frame_free(ui_frame *f)
{
	free(f->cells);
	f->cells = NULL;
	f->cols = f->rows = 0;
}

void ui_frame_resize(ui_frame *f, int cols, int rows)
{
	if (cols < 1)
		cols = 1;
	if (rows < 1)
		rows = 1;
	if (cols * rows != f->cols * f->rows || !f->cells) {
		free(f->cells);
		f->cells = xcalloc((size_t)cols * (size_t)rows, sizeof *f->cells);
	}
	f->cols = cols;
	f->rows = rows;
	ui_frame_clear(f);
}

void ui_frame_clear(ui_frame *f)
{
	f->cuts = 0;
	f->cut_x = f->cut_y = -1;
	for (int i = 0; i < f->cols * f->rows; i++)
		f->cells[i] = (ui_cell){' ', UI_ROLE_NORMAL, 0};
}

void ui_frame_put(ui_frame *f, int x, int y, uint32_t ch, ui_role role)
{
	if (x < 0 || y < 0 || x >= f->cols || y >= f->rows)
		return;
	ui_cell *c = &f->cells[y * f->cols + x];
	/* Text comes from lesson files and logs: a control character (ESC would
	 * reach the terminal through show --screen) or a code point that is not
	 * one shows as '?', so the frame only ever holds printable text. */
	if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0) || (ch >= 0xd800 && ch <= 0xdfff) || ch > 0x10ffff)
		ch = '?';
	c->ch = ch;
	c->role = (uint8_t)role;
}

void ui_frame_fill(ui_frame *f, ui_rect r, uint32_t ch, ui_role role)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++)
			ui_frame_put(f, x, y, ch, role);
}

void ui_frame_cover(ui_frame *f, ui_rect r)
{
	ui_frame_fill(f, r, ' ', UI_ROLE_NORMAL);
	for (int y = r.y < 0 ? 0 : r.y; y < r.y + r.h && y < f->rows; y++)
		for (int x = r.x < 0 ? 0 : r.x; x < r.x + r.w && x < f->cols; x++)
			f->cells[y * f->cols + x].flags = 0;
}

void ui_frame_title(ui_frame *f, ui_rect r, const char *text, int focused)
{
	ui_role role = focused ? UI_ROLE_TITLE_FOCUS : UI_ROLE_TITLE;
	ui_frame_fill(f, (ui_rect){r.x, r.y, r.w, 1}, ' ', role);
	ui_frame_text_fit(f, r, r.x + 1, r.y, text, role);
}

void ui_frame_flag(ui_frame *f, int x, int y, int w, uint8_t flags)
{
	if (y < 0 || y >= f->rows)
		return;
	for (int i = x < 0 ? 0 : x; i < x + w && i < f->cols; i++)
		f->cells[y * f->cols + i].flags |= flags;
}

void ui_frame_hit(ui_frame *f, int x, int y, int w)
{
	if (y < 0 || y >= f->rows)
		return;
	for (int i = x < 0 ? 0 : x; i < x + w && i < f->cols; i++) {
		f->cells[y * f->cols + i].role = UI_ROLE_SELECT;
		f->cells[y * f->cols + i].flags &= (uint8_t)~UI_CELL_HL;
	}
}

uint32_t ui_utf8_decode(const char *s, size_t n, int *len)
{
	const unsigned char *u = (const unsigned char *)s;
	*len = 1;
	if (u[0] < 0x80)
		return u[0];
	int need;
	uint32_t cp;
	if ((u[0] & 0xE0) == 0xC0) {
		need = 1;
		cp = u[0] & 0x1F;
	} else if ((u[0] & 0xF0) == 0xE0) {
		need = 2;
		cp = u[0] & 0x0F;
	} else if ((u[0] & 0xF8) == 0xF0) {
		need = 3;
		cp = u[0] & 0x07;
	} else {
		return '?';
	}
	if ((size_t)need >= n)
		return '?';
	for (int i = 1; i <= need; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return '?';
		cp = (cp << 6) | (u[i] & 0x3F);
	}
	*len = need + 1;
	return cp;
}

int ui_utf8_encode(uint32_t cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

int ui_utf8_width(const char *s, size_t n)
{
	int w = 0;
	for (size_t i = 0; i < n && s[i];) {
		int l;
		ui_utf8_decode(s + i, n - i, &l);
		i += (size_t)l;
		w++;
	}
	return w;
}

void ui_frame_cut(ui_frame *f, int x, int y)
{
	if (!f->cuts++)
		f->cut_x = x, f->cut_y = y;
}

int ui_frame_textn(ui_frame *f, ui_rect clip, int x, int y, const char *s, size_t n, ui_role role)
{
	if (y < clip.y || y >= clip.y + clip.h) {
		return x + ui_utf8_width(s, n);
	}
	int lost = 0;
	for (size_t i = 0; i < n && s[i] && s[i] != '\n';) {
		int l;
		uint32_t cp = ui_utf8_decode(s + i, n - i, &l);
		i += (size_t)l;
		if (cp == '\t')
			cp = ' ';
		else if (cp < 32 || cp == 127)
			cp = '?';
		if (x >= clip.x && x < clip.x + clip.w)
			ui_frame_put(f, x, y, cp, role);
		else if (cp != ' ' && x >= clip.x + clip.w)
			lost = 1;
		x++;
	}
	if (lost)
		ui_frame_cut(f, clip.x + clip.w - 1, y);
	return x;
}

int ui_frame_code(ui_frame *f, ui_rect clip, int x, int y, const char *s, ui_role role, uint32_t mark)
{
	size_t n = strcspn(s, "\n");
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	int room = clip.x + clip.w - x;
	if (ui_utf8_width(s, n) <= room || room < 2)
		return ui_frame_textn(f, clip, x, y, s, n, role);
	size_t keep = 0;
	for (int col = 0; keep < n && col < room - 1; col++) {
		int l;
		ui_utf8_decode(s + keep, n - keep, &l);
		keep += (size_t)l;
	}
	x = ui_frame_textn(f, clip, x, y, s, keep, role);
	ui_frame_put(f, x, y, mark, UI_ROLE_KEY);
	return x + 1;
}

int ui_frame_text_fit(ui_frame *f, ui_rect clip, int x, int y, const char *s, ui_role role)
{
	size_t n = strcspn(s, "\n");
	int room = clip.x + clip.w - x;
	if (ui_utf8_width(s, n) <= room || room < 2)
		return ui_frame_textn(f, clip, x, y, s, n, role);
	/* the longest prefix that ends before a space and leaves a column for the mark */
	size_t keep = 0, i = 0;
	int col = 0;
	while (i < n && col < room) {
		int l;
		ui_utf8_decode(s + i, n - i, &l);
		if (s[i] == ' ' && col <= room - 1)
			keep = i;
		i += (size_t)l;
		col++;
	}
	while (keep > 0 && (s[keep - 1] == ' ' || s[keep - 1] == ',' || s[keep - 1] == ';' || s[keep - 1] == ':' ||
			    s[keep - 1] == '(' || s[keep - 1] == '|'))
		keep--;
	if (keep == 0) { /* one word wider than the room: as much as fits, then the mark */
		keep = 0, col = 0;
		while (keep < n && col < room - 1) {
			int l;
			ui_utf8_decode(s + keep, n - keep, &l);
			keep += (size_t)l;
			col++;
		}
	}
	x = ui_frame_textn(f, clip, x, y, s, keep, role);
	ui_frame_put(f, x, y, 0x2026, role);
	return x + 1;
}

int ui_frame_text(ui_frame *f, ui_rect clip, int x, int y, const char *s, ui_role role)
{
	return ui_frame_textn(f, clip, x, y, s, strlen(s), role);
}

int ui_frame_row_text(const ui_frame *f, int y, char *out, size_t len)
{
	size_t o = 0, keep = 0;
	if (!len)
		return 0;
	for (int x = 0; y >= 0 && y < f->rows && x < f->cols; x++) {
		char b[5];
		uint32_t cp = f->cells[y * f->cols + x].ch;
		int l = ui_utf8_encode(cp, b);
		if (o + (size_t)l >= len)
			break;
		memcpy(out + o, b, (size_t)l);
		o += (size_t)l;
		if (cp != ' ')
			keep = o;
	}
	out[keep] = '\0';
	return (int)keep;
}

/* One ASCII cell for a character drawn by the panes or written in a lesson
 * (box drawing, blocks, arrows, marks, typography); '?' for the rest. */
static const struct {
	uint32_t lo, hi;
	char c;
} ascii_map[] = {
	{0x2500, 0x2501, '-'}, {0x2502, 0x2503, '|'}, {0x2504, 0x2505, '-'}, {0x2506, 0x2507, '|'},
	{0x2508, 0x2509, '-'}, {0x250A, 0x250B, '|'}, {0x254C, 0x254D, '-'}, {0x254E, 0x254F, '|'},
	{0x2550, 0x2550, '-'}, {0x2551, 0x2551, '|'}, {0x2571, 0x2571, '/'}, {0x2572, 0x2572, '\\'},
	{0x2573, 0x2573, 'X'}, {0x2574, 0x2574, '-'}, {0x2575, 0x2575, '|'}, {0x2576, 0x2576, '-'},
	{0x2577, 0x2577, '|'}, {0x2500, 0x257F, '+'}, {0x2591, 0x2591, '.'}, {0x2592, 0x2592, ':'},
	{0x2580, 0x259F, '#'}, {0x2190, 0x2190, '<'}, {0x2191, 0x2191, '^'}, {0x2192, 0x2192, '>'},
	{0x2193, 0x2193, 'v'}, {0x2194, 0x2194, '-'}, {0x2195, 0x2195, '|'}, {0x21B3, 0x21B3, '>'},
	{0x21D0, 0x21D0, '<'}, {0x21D2, 0x21D2, '>'}, {0x25A0, 0x25A1, '#'}, {0x25B2, 0x25B3, '^'},
	{0x25B6, 0x25BA, '>'}, {0x25BC, 0x25BD, 'v'}, {0x25C0, 0x25C4, '<'}, {0x25C6, 0x25C7, 'x'},
	{0x25CB, 0x25CB, 'o'}, {0x25CF, 0x25CF, '*'}, {0x2026, 0x2026, '~'}, {0x22EE, 0x22EF, ':'},
	{0x00B7, 0x00B7, '.'}, {0x2219, 0x2219, '.'}, {0x22C5, 0x22C5, '.'}, {0x00D7, 0x00D7, 'x'},
	{0x2010, 0x2015, '-'}, {0x2212, 0x2212, '-'}, {0x2018, 0x201B, '\''}, {0x201C, 0x201F, '"'},
	{0x2248, 0x2248, '~'}, {0x223C, 0x223C, '~'}, {0x2264, 0x2264, '<'}, {0x2265, 0x2265, '>'},
	{0x2260, 0x2260, '#'}, {0x00B2, 0x00B2, '2'}, {0x00B3, 0x00B3, '3'}, {0x00B9, 0x00B9, '1'},
	{0x00B5, 0x00B5, 'u'}, {0x03BC, 0x03BC, 'u'}, {0x2713, 0x2714, 'v'}, {0x2717, 0x2718, 'x'},
	{0x00F7, 0x00F7, '/'}, {0x2215, 0x2215, '/'}, {0x00A0, 0x00A0, ' '}, {0x2022, 0x2022, '*'},
	{0x00B0, 0x00B0, 'o'}, {0x221E, 0x221E, '8'}, {0x2211, 0x2211, 'E'},
};

uint32_t ui_ascii_of(uint32_t cp)
{
	if (cp < 127)
		return cp;
	for (size_t i = 0; i < sizeof ascii_map / sizeof ascii_map[0]; i++)
		if (cp >= ascii_map[i].lo && cp <= ascii_map[i].hi)
			return (uint32_t)(unsigned char)ascii_map[i].c;
	return '?';
}

void ui_frame_ascii(ui_frame *f)
{
	for (int i = 0; i < f->cols * f->rows; i++)
		f->cells[i].ch = ui_ascii_of(f->cells[i].ch);
}
