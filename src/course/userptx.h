/* userptx: the student's own copies of lesson PTX (under $XDG_DATA_HOME/ptxtutor/ptx), their diff against the shipped file, and the lines the JIT or the emulator complained about. */
#ifndef PTXTUTOR_USERPTX_H
#define PTXTUTOR_USERPTX_H

#include <stddef.h>

/* The user copy of a shipped PTX file: its file name under
 * $XDG_DATA_HOME/ptxtutor/ptx (an absolute XDG_DATA_HOME only), else
 * $HOME/.local/share/ptxtutor/ptx. Returns 0, or -1 when neither is set. */
int userptx_path(const char *shipped, char *dst, size_t len);
/* 1 when the user copy of a shipped file exists. */
int userptx_exists(const char *shipped);
/* Makes the user copy at `copy` (folders included) as a byte-for-byte copy
 * of `shipped`, unless it exists already; the shipped file is only read.
 * Returns 0, or -1 with a message. */
int userptx_create(const char *shipped, const char *copy, char *err, int errlen);
/* Whether the two files hold the same bytes: 1 same, 0 different, -1 when
 * one cannot be read. */
int userptx_same(const char *a, const char *b);
/* Restores the original: the copy is moved aside to `copy~` (the last edit
 * is kept there, not lost) and the shipped file is used again. Returns 0, or
 * -1 with a message. */
int userptx_restore(const char *copy, char *err, int errlen);

/* The PTX a lesson shows and runs: the student's copy of `shipped` (a path
 * relative to the project root, or absolute) when there is one, so edits
 * survive a restart, else the shipped file. Sets path to the file read and
 * *edited. Returns its text (malloc'd), or NULL with a message. */
char *userptx_load(const char *shipped, char *path, size_t len, int *edited, char *err, int errlen);
/* e: the student's copy of `shipped` (its path in copy), made from the
 * shipped file when there is none yet. Returns 0, or -1 with a message. */
int userptx_edit(const char *shipped, char *copy, size_t len, char *err, int errlen);
/* After the editor: a copy holding the shipped bytes is no edit, and is
 * removed. Returns 1 removed, 0 kept (it differs, or cannot be read). */
int userptx_drop_unchanged(const char *shipped, const char *copy);

/* The inline editor's I/O (the event loop calls them, the UI opens no file):
 * the copy's text (malloc'd, at most UTIL_MAX_FILE bytes), or NULL with a
 * message; and the text written back atomically (a temporary file beside
 * it, renamed over it). userptx_write returns 0, or -1 with a message. */
char *userptx_read(const char *copy, size_t *len, char *err, int errlen);
int userptx_write(const char *copy, const char *text, size_t len, char *err, int errlen);

/* A line diff (longest common subsequence of lines) with context. */
typedef struct {
	char kind;        /* ' ' in both, '-' only in the original, '+' only in the copy, '@' a hunk header */
	int old_line;     /* 1-based line in the original; 0 when it has none */
	int new_line;     /* 1-based line in the copy; 0 when it has none */
	const char *text; /* the line without its newline (points into buf) */
} userptx_dline;

typedef struct {
	userptx_dline *l;
	int n;
	int added, removed;
	char *buf, *hdrs; /* the lines' and the hunk headers' text */
} userptx_diff;

/* Diffs two texts, keeping `context` unchanged lines around each change;
 * far-apart changes make separate hunks ("@@ -a,b +c,d @@"). Identical texts
 * give n == 0. Returns 0 (it only fails by running out of memory: abort). */
int userptx_diff_make(const char *old, const char *new_text, int context, userptx_diff *d);
void userptx_diff_free(userptx_diff *d);
/* The diff of a copy against its shipped file. Returns 0, or -1 with a
 * message (and an empty d) when one cannot be read. */
int userptx_diff_files(const char *shipped, const char *copy, int context, userptx_diff *d, char *err, int errlen);
/* The first line a copy changes (1-based, in the copy; in the original for
 * a removal at the end); 0 when none, or a file cannot be read. */
int userptx_first_change(const char *shipped, const char *copy);

/* A line the JIT (ptxas: "..., line 83; error   : ...") complained about.
 * The emulator's problems come as data (run_result.where), never from text. */
typedef struct {
	int line;         /* 1-based */
	int error;        /* 1 error, 0 warning */
	char msg[160];
} userptx_mark;

/* Finds the marks in the driver's JIT log or message (the driver's text is
 * all there is). Duplicates are dropped. Returns the number found (at most max). */
int userptx_marks(const char *text, userptx_mark *out, int max);

#endif
