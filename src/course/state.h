/* state: the tutor remembers where the student was (lesson and page) under $XDG_STATE_HOME/ptxtutor/state. */
#ifndef PTXTUTOR_STATE_H
#define PTXTUTOR_STATE_H

#include <stddef.h>

typedef struct {
	char lesson[32]; /* lesson id; empty when nothing was saved */
	int page;        /* 0-based */
} state_data;

/* The state file: $XDG_STATE_HOME/ptxtutor/state, else
 * $HOME/.local/state/ptxtutor/state. Returns 0, or -1 when neither is set. */
int state_path(char *dst, size_t len);
/* Reads the state file. Returns 0, or -1 (and an empty *s) when there is
 * none or it cannot be read; a damaged file is never an error for the user. */
int state_load(state_data *s);
/* The state file's text ("lesson ID" and "page N" lines) into *s; what
 * state_load reads, apart for the fuzzer. Returns 0, or -1 with no lesson. */
int state_parse(const char *text, state_data *s);
/* Writes the state file (directories made, replaced atomically). Returns 0,
 * or -1 with a message. */
int state_save(const state_data *s, char *err, int errlen);

#endif
