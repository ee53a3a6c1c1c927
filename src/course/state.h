/* state: what the tutor remembers under $XDG_STATE_HOME/ptxtutor/state — where the student was (lesson and page), and per lesson the pages read, the exercises and the puzzles solved. */
#ifndef PTXTUTOR_STATE_H
#define PTXTUTOR_STATE_H

#include <stddef.h>

/* Lessons remembered, and pages or exercises per lesson (a bit each). */
#define STATE_MAX_LESSONS 64
#define STATE_MAX_BITS 64

typedef struct {
	char id[32];              /* the lesson's id */
	unsigned long long read;  /* bit i: page i was read to its end */
	unsigned long long solved;/* bit i: exercise i of the lesson (in file order) was answered right */
	unsigned long long puzzles;/* bit i: puzzle i of the lesson (lessons/puzzles/, in order) was solved */
	unsigned long long asked; /* bit i: its solution was asked for once (the second time shows it) */
} state_progress;

typedef struct {
	char lesson[32]; /* lesson id; empty when nothing was saved */
	int page;        /* 0-based */
	state_progress prog[STATE_MAX_LESSONS];
	int nprog;
} state_data;

/* The state file: $XDG_STATE_HOME/ptxtutor/state, else
 * $HOME/.local/state/ptxtutor/state. Returns 0, or -1 when neither is set. */
int state_path(char *dst, size_t len);
/* Reads the state file. Returns 0 when it names a lesson, else -1 (with an
 * empty lesson; the progress read so far is kept); a damaged file is never an
 * error for the user. */
int state_load(state_data *s);
/* The state file's text ("lesson ID" and "page N" lines) into *s; what
 * state_load reads, apart for the fuzzer. Returns 0, or -1 with no lesson. */
int state_parse(const char *text, state_data *s);
/* Writes the state file (directories made, replaced atomically). Returns 0,
 * or -1 with a message. */
int state_save(const state_data *s, char *err, int errlen);

/* A lesson's progress: the existing entry, or NULL (find) ... */
const state_progress *state_progress_find(const state_data *s, const char *id);
/* ... or a new empty one (NULL when STATE_MAX_LESSONS are remembered). */
state_progress *state_progress_get(state_data *s, const char *id);
/* Sets bit i of one of its sets; bits past STATE_MAX_BITS are not kept. */
void state_mark(unsigned long long *set, int i);
int state_marked(unsigned long long set, int i);
/* Number of bits set among the first n. */
int state_count(unsigned long long set, int n);

#endif
