/* ui/edbuf: the inline editor's buffer as plain data — lines, a cursor, a view; insert, delete, split, join; no curses, no files. */
#ifndef PTXTUTOR_UI_EDBUF_H
#define PTXTUTOR_UI_EDBUF_H

#include <stddef.h>

/* The most bytes a buffer holds: the file reader's limit (UTIL_MAX_FILE). */
#define EDBUF_MAX ((size_t)64 << 20)

typedef struct {
	char *s;       /* the bytes, without the line's end; not NUL-terminated */
	size_t len, cap;
} edbuf_line;

typedef struct {
	edbuf_line *l;
	int n, cap;    /* at least one line, maybe empty */
	size_t bytes;  /* the text's size as it would be saved */
	int final_nl;  /* the text ended with a line end (kept on save) */
	int crlf;      /* every line ended with CRLF: \r is dropped on load and put back on save */
	int cy;        /* the cursor: line (0-based) and byte offset in it */
	size_t cx;
	int top;       /* the view: first line and first display column shown */
	int left;
	int modified;
} edbuf;

/* Loads len bytes of text (a copy is made). Line ends are LF; CRLF is kept
 * as written only when every line ends with it (then saved as CRLF again),
 * otherwise a \r is an ordinary byte of its line. Returns 0, or -1 when the
 * text is over EDBUF_MAX. */
int edbuf_load(edbuf *b, const char *text, size_t len);
void edbuf_free(edbuf *b);
/* The text as it would be saved (malloc'd, NUL-terminated); *len its size.
 * An unchanged buffer gives back the bytes it loaded. */
char *edbuf_text(const edbuf *b, size_t *len);

/* Editing at the cursor. Each returns 0, or -1 when nothing happened (the
 * buffer is at EDBUF_MAX, or there is nothing to delete). */
int edbuf_insert(edbuf *b, const char *s, size_t n); /* no newlines in s */
int edbuf_split(edbuf *b);      /* Enter: the rest of the line goes to a new line below */
int edbuf_backspace(edbuf *b);  /* the character before (at a line's start: joins it to the line above) */
int edbuf_delete(edbuf *b);     /* the character under (at a line's end: joins the next line) */

/* Cursor moves; the cursor always stays on a character's first byte. */
typedef enum { EDBUF_LEFT, EDBUF_RIGHT, EDBUF_UP, EDBUF_DOWN, EDBUF_HOME, EDBUF_END } edbuf_move_kind;
void edbuf_move(edbuf *b, edbuf_move_kind m, int count);

/* The display column of byte offset x of line y (tabs to the next multiple
 * of 4, a UTF-8 character one column). */
int edbuf_col(const edbuf *b, int y, size_t x);
/* Moves the view so the cursor is inside a rows x cols window. */
void edbuf_scroll(edbuf *b, int rows, int cols);

#endif
