/* ui/edbuf: the inline editor's buffer — lines of any length, bounded in all by EDBUF_MAX. */
#include "ui/edbuf.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define TAB_STOP 4 /* as the PTX pane draws tabs */

static int is_cont(char c)
{
	return ((unsigned char)c & 0xC0) == 0x80;
}

static void line_reserve(edbuf_line *l, size_t need)
{
	if (need <= l->cap)
		return;
	size_t cap = l->cap ? l->cap : 16;
	while (cap < need)
		cap *= 2;
	l->s = xreallocarray(l->s, cap, 1);
	l->cap = cap;
}

/* Opens an empty line at index at. */
static edbuf_line *open_line(edbuf *b, int at)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->l = xreallocarray(b->l, (size_t)b->cap, sizeof *b->l);
	}
	memmove(&b->l[at + 1], &b->l[at], (size_t)(b->n - at) * sizeof *b->l);
	b->n++;
	b->l[at] = (edbuf_line){0};
	return &b->l[at];
}

static void put(edbuf_line *l, const char *s, size_t n)
{
	if (!n) /* an empty line may have no storage yet, and memcpy wants some */
		return;
	line_reserve(l, l->len + n);
	memcpy(l->s + l->len, s, n);
	l->len += n;
}

/* Whether every line of text ends with CRLF (and there is at least one). */
static int all_crlf(const char *t, size_t len)
{
	int any = 0;
	for (size_t i = 0; i < len; i++)
		if (t[i] == '\n') {
			if (i == 0 || t[i - 1] != '\r')
				return 0;
			any = 1;
		}
	return any;
}

int edbuf_load(edbuf *b, const char *text, size_t len)
{
	*b = (edbuf){0};
	if (len > EDBUF_MAX)
		return -1;
	b->crlf = all_crlf(text, len);
	b->final_nl = len > 0 && text[len - 1] == '\n';
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i == len && b->final_nl && b->n > 0)
			break; /* the line end closes the last line: no empty line after it */
		size_t end = i;
		if (b->crlf && i < len)
			end--; /* the \r of CRLF */
		put(open_line(b, b->n), text + start, end - start);
		start = i + 1;
	}
	b->bytes = len;
	return 0;
}

void edbuf_free(edbuf *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->l[i].s);
	free(b->l);
	*b = (edbuf){0};
}

char *edbuf_text(const edbuf *b, size_t *len)
{
	char *t = xmalloc(b->bytes + 1), *p = t;
	for (int i = 0; i < b->n; i++) {
		if (b->l[i].len)
			memcpy(p, b->l[i].s, b->l[i].len);
		p += b->l[i].len;
		if (i + 1 < b->n || b->final_nl) {
			if (b->crlf)
				*p++ = '\r';
			*p++ = '\n';
		}
	}
	*p = '\0';
	*len = (size_t)(p - t);
	return t;
}

/* The bytes one line end takes in the saved text. */
static size_t eol(const edbuf *b)
{
	return b->crlf ? 2 : 1;
}

int edbuf_insert(edbuf *b, const char *s, size_t n)
{
	if (n > EDBUF_MAX - b->bytes)
		return -1;
	if (!n)
		return 0;
	edbuf_line *l = &b->l[b->cy];
	line_reserve(l, l->len + n);
	memmove(l->s + b->cx + n, l->s + b->cx, l->len - b->cx);
	memcpy(l->s + b->cx, s, n);
	l->len += n;
	b->cx += n;
	b->bytes += n;
	b->modified = 1;
	return 0;
}

int edbuf_split(edbuf *b)
{
	if (eol(b) > EDBUF_MAX - b->bytes)
		return -1;
	edbuf_line *nl = open_line(b, b->cy + 1), *l = &b->l[b->cy];
	put(nl, l->s + b->cx, l->len - b->cx);
	l->len = b->cx;
	b->cy++;
	b->cx = 0;
	b->bytes += eol(b);
	b->modified = 1;
	return 0;
}

/* Appends line y+1 to line y and removes it. */
static void join(edbuf *b, int y)
{
	edbuf_line *l = &b->l[y], *next = &b->l[y + 1];
	put(l, next->s, next->len);
	free(next->s);
	memmove(&b->l[y + 1], &b->l[y + 2], (size_t)(b->n - y - 2) * sizeof *b->l);
	b->n--;
	b->bytes -= eol(b);
	b->modified = 1;
}

/* Removes bytes [from, to) of the cursor's line. */
static void cut(edbuf *b, size_t from, size_t to)
{
	edbuf_line *l = &b->l[b->cy];
	if (from == to)
		return;
	memmove(l->s + from, l->s + to, l->len - to);
	l->len -= to - from;
	b->bytes -= to - from;
	b->modified = 1;
}

int edbuf_backspace(edbuf *b)
{
	if (b->cx == 0) {
		if (b->cy == 0)
			return -1;
		b->cy--;
		b->cx = b->l[b->cy].len;
		join(b, b->cy);
		return 0;
	}
	size_t to = b->cx;
	edbuf_move(b, EDBUF_LEFT, 1);
	cut(b, b->cx, to);
	return 0;
}

int edbuf_delete(edbuf *b)
{
	edbuf_line *l = &b->l[b->cy];
	if (b->cx >= l->len) {
		if (b->cy + 1 >= b->n)
			return -1;
		join(b, b->cy);
		return 0;
	}
	size_t to = b->cx + 1;
	while (to < l->len && is_cont(l->s[to]))
		to++;
	cut(b, b->cx, to);
	return 0;
}

int edbuf_col(const edbuf *b, int y, size_t x)
{
	const edbuf_line *l = &b->l[y];
	int col = 0;
	for (size_t i = 0; i < x && i < l->len; i++) {
		if (l->s[i] == '\t')
			col = (col / TAB_STOP + 1) * TAB_STOP;
		else if (!is_cont(l->s[i]))
			col++;
	}
	return col;
}

/* The byte offset in line y whose column is the last at or before col. */
static size_t at_col(const edbuf *b, int y, int col)
{
	const edbuf_line *l = &b->l[y];
	size_t x = 0;
	while (x < l->len) {
		size_t nx = x + 1;
		while (nx < l->len && is_cont(l->s[nx]))
			nx++;
		if (edbuf_col(b, y, nx) > col)
			break;
		x = nx;
	}
	return x;
}

void edbuf_move(edbuf *b, edbuf_move_kind m, int count)
{
	int col = edbuf_col(b, b->cy, b->cx);
	for (int k = 0; k < count; k++) {
		const edbuf_line *l = &b->l[b->cy];
		if (m == EDBUF_LEFT && b->cx > 0) {
			do
				b->cx--;
			while (b->cx > 0 && is_cont(l->s[b->cx]));
		} else if (m == EDBUF_LEFT && b->cy > 0) {
			b->cy--;
			b->cx = b->l[b->cy].len;
		} else if (m == EDBUF_RIGHT && b->cx < l->len) {
			do
				b->cx++;
			while (b->cx < l->len && is_cont(l->s[b->cx]));
		} else if (m == EDBUF_RIGHT && b->cy + 1 < b->n) {
			b->cy++;
			b->cx = 0;
		} else if (m == EDBUF_UP && b->cy > 0) {
			b->cy--;
			b->cx = at_col(b, b->cy, col);
		} else if (m == EDBUF_DOWN && b->cy + 1 < b->n) {
			b->cy++;
			b->cx = at_col(b, b->cy, col);
		} else if (m == EDBUF_HOME) {
			b->cx = 0;
		} else if (m == EDBUF_END) {
			b->cx = l->len;
		}
	}
}

void edbuf_scroll(edbuf *b, int rows, int cols)
{
	if (rows < 1)
		rows = 1;
	if (cols < 1)
		cols = 1;
	if (b->cy < b->top)
		b->top = b->cy;
	if (b->cy >= b->top + rows)
		b->top = b->cy - rows + 1;
	int col = edbuf_col(b, b->cy, b->cx);
	if (col < b->left)
		b->left = col;
	if (col >= b->left + cols)
		b->left = col - cols + 1;
}
