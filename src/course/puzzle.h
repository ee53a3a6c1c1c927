/* puzzle: a practice puzzle's file (lessons/puzzles/NN-name.md) — which lesson, the starting PTX, its launch, the checks a solution must pass, hints and the hidden reference solution (format in docs/course.md). */
#ifndef PTXTUTOR_PUZZLE_H
#define PTXTUTOR_PUZZLE_H

#include "course/ptx.h"
#include "course/state.h"

#define PUZZLE_MAX_CHECKS 8
#define PUZZLE_MAX_HINTS 6
#define PUZZLE_MAX_SIZES 4
#define PUZZLE_DIR "lessons/puzzles"

/* What a check measures on the student's kernel (the table in puzzle.c names them). */
typedef enum {
	PUZZLE_VERIFIED,   /* C right at every size, no fault */
	PUZZLE_RACE,       /* no shared-memory race (a missing bar.sync) */
	PUZZLE_SECTORS,    /* global sectors per request in a region <= limit */
	PUZZLE_CONFLICTS,  /* shared bank conflicts in a region (loads, stores, ldmatrix) <= limit */
	PUZZLE_COUNT,      /* lines of an opcode (a prefix, '*': any) in a region <= limit, read from the text */
	PUZZLE_TMA,        /* TMA bytes read from L2 per byte landed in shared memory in a region <= limit (multicast) */
	PUZZLE_KIND_COUNT
} puzzle_kind;

typedef struct {
	puzzle_kind kind;
	char region[PTX_REGION_NAME];  /* "" for verified and race */
	char op[24];                   /* PUZZLE_COUNT: the opcode prefix, "*" any */
	double limit;
	char why[256];                 /* a failure explained in the lesson's terms */
	int line;                      /* its line in the puzzle file */
} puzzle_check;

typedef struct {
	char id[40];                   /* from the file name: "03-barriers" */
	char path[256];                /* the .md file, relative to the root */
	int lesson;                    /* the lesson's number */
	char title[96];
	char start[256], solution[256];/* PTX files, relative to the root */
	char entry[64];
	char grid[64], block[64], smem[64], dtype[8];
	char cluster[32], out[8], bmajor[4];  /* "" : none, the input type, B stored K x N */
	char args[160];                /* the parameter spec ("" : A B C M N K); tensor maps for TMA */
	long long sizes[PUZZLE_MAX_SIZES][3];
	int nsizes;
	puzzle_check checks[PUZZLE_MAX_CHECKS];
	int nchecks;
	char hints[PUZZLE_MAX_HINTS][256];
	int nhints;
	char *goal;                    /* the body: what to achieve (owned) */
} puzzle;

typedef struct {
	puzzle *p;
	int n;
} puzzle_set;

/* Parses a puzzle file (path only names it in messages; the id is its
 * base name without ".md"). Returns 0, or -1 with "path:line: message". */
int puzzle_parse(const char *path, const char *text, puzzle *out, char *err, int errlen);
void puzzle_free(puzzle *p);
/* Loads every PUZZLE_DIR/NN-*.md under the root, sorted by lesson then
 * file name. A broken file is left out and its message appended to errs
 * (one line each). Returns the number of broken files. */
int puzzles_load(puzzle_set *s, char *errs, int errlen);
void puzzles_free(puzzle_set *s);
/* The puzzle a word names: its 1-based number in the set or its id (or an
 * id's unique prefix); NULL when none. */
const puzzle *puzzles_find(const puzzle_set *s, const char *what);
/* The index of p among its lesson's puzzles (state bits), or -1. */
int puzzles_index_in_lesson(const puzzle_set *s, const puzzle *p);
/* How many puzzles lesson n has. */
int puzzles_of_lesson(const puzzle_set *s, int lesson);
/* A check's name as its line writes it ("sectors", ...) and as a sentence
 * ("global sectors per request in @aload <= 4"). */
const char *puzzle_kind_name(puzzle_kind k);
void puzzle_check_describe(const puzzle_check *c, char *buf, int len);

/* Progress, kept per lesson in the state file (course/state.h's puzzles
 * and asked bits, by the puzzle's index in its lesson); lesson_id is the
 * id of lesson p->lesson. */
int puzzle_solved(const state_data *st, const puzzle_set *s, const puzzle *p, const char *lesson_id);
int puzzle_asked(const state_data *st, const puzzle_set *s, const puzzle *p, const char *lesson_id);
/* Marks it solved (asked = 0) or its solution asked for (asked = 1). */
void puzzle_mark(state_data *st, const puzzle_set *s, const puzzle *p, const char *lesson_id, int asked);

#endif
