/* lines: the one line reader for the text files (GPU table, measured data, state, lessons): numbered lines, CRLF read as LF, tab-separated fields. */
#ifndef PTXTUTOR_LINES_H
#define PTXTUTOR_LINES_H

/* A text cut into lines, one at a time:
 *
 *	lines it;
 *	lines_init(&it, text);
 *	for (char *s; (s = lines_next(&it));)
 *		... it.line is s's number, from 1 ...
 *	lines_free(&it);
 *
 * A line ends at '\n' (a '\r' before it is dropped) or at the end of the
 * text; a text that ends with '\n' has no empty line after it. Blank lines
 * are returned, numbered, as "" (each reader decides to skip them), so an
 * error can always name the line it is on. */
typedef struct {
	char *copy; /* the text, cut into lines in place */
	char *next; /* the next line's start; NULL once all are read */
	int line;   /* the number of the line lines_next returned last */
} lines;

/* Copies text (NULL reads as ""); the lines point into the copy. */
void lines_init(lines *it, const char *text);
/* The next line, without its end, writable by the caller and valid until
 * lines_free; NULL after the last line. */
char *lines_next(lines *it);
void lines_free(lines *it);

/* Splits line at tabs, in place: f[0..max-1] get the first fields. Returns
 * the number of fields the line has, which may be more than max (then only
 * max are stored and the last of them is not cut at its tab). */
int lines_split_tsv(char *line, char **f, int max);

#endif
