/* state: what the tutor remembers under $XDG_STATE_HOME/ptxtutor/state — where the student was (lesson and page), and per lesson the pages read, the exercises and the puzzles solved. Progress only ever grows: every save merges into the file on disk under a lock. */
#ifndef PTXTUTOR_STATE_H
#define PTXTUTOR_STATE_H

#include <stddef.h>

/* Pages, exercises or puzzles per lesson (a bit each; a lesson has about 10). */
#define STATE_MAX_BITS 64
/* A state file is a few KiB; a larger one is not ours: it is refused, said so, and kept. */
#define STATE_MAX_BYTES (1 << 20)

typedef struct {
	char *id;                 /* the lesson's id (owned) */
	unsigned long long read;  /* bit i: page i was read to its end */
	unsigned long long solved;/* bit i: exercise i of the lesson (in file order) was answered right */
	unsigned long long puzzles;/* bit i: puzzle i of the lesson (lessons/puzzles/, in order) was solved */
	unsigned long long asked; /* bit i: its solution was asked for once (the second time shows it) */
} state_progress;

typedef struct {
	char lesson[64]; /* lesson id; empty when nothing was saved (a save then keeps the file's) */
	int page;        /* 0-based */
	state_progress *prog; /* sorted by id, grown as lessons are met: no lesson is ever dropped */
	int nprog, cap;
	char kept[400];  /* why the file on disk could not be read ("" when it could, or there is none):
			    it is kept as it is and no save writes over it */
} state_data;

/* The state file: $XDG_STATE_HOME/ptxtutor/state, else
 * $HOME/.local/state/ptxtutor/state. Returns 0, or -1 when neither is set. */
int state_path(char *dst, size_t len);
/* Reads the state file into *s (which it initialises; state_free frees it).
 * Returns 0 when it names a lesson, else -1 (with an empty lesson; the
 * progress read is kept). A damaged line is skipped; a file that cannot be
 * read (not a regular file, larger than STATE_MAX_BYTES, a read error) fills
 * s->kept, and is never opened in a way that blocks (a FIFO). */
int state_load(state_data *s);
/* The state file's text into *s (initialised, not freed first); what
 * state_load reads, apart for the fuzzer. Returns 0, or -1 with no lesson. */
int state_parse(const char *text, state_data *s);
/* Merges changes into the state file: under an exclusive lock it re-reads
 * the file, ORs in every set of changes, takes its lesson and page when it
 * names one, and replaces the file atomically (a temporary file in the same
 * folder, fsync, rename, fsync of the folder); a symbolic link is written
 * through, not replaced. A file that cannot be read is never written over.
 * Returns 0, or -1 with why in err. */
int state_save(const state_data *changes, char *err, int errlen);
void state_free(state_data *s);
/* dst = a deep copy of src (dst is initialised, not freed first). */
void state_copy(state_data *dst, const state_data *src);
/* into |= from, set by set; lesson and page become from's when it names a lesson. */
void state_merge(state_data *into, const state_data *from);
/* out = what now holds beyond base (initialised), with now's lesson and page. */
void state_diff(state_data *out, const state_data *now, const state_data *base);

/* A lesson's progress: the existing entry, or NULL (find) ... */
const state_progress *state_progress_find(const state_data *s, const char *id);
/* ... or a new empty one. */
state_progress *state_progress_get(state_data *s, const char *id);
/* Sets bit i of one of its sets; bits past STATE_MAX_BITS are not kept. */
void state_mark(unsigned long long *set, int i);
int state_marked(unsigned long long set, int i);
/* Number of bits set among the first n. */
int state_count(unsigned long long set, int n);

#endif
