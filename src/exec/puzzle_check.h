/* exec/puzzle_check: a puzzle's checks carried out on a PTX file — the CPU emulator at each of the puzzle's sizes, the counts of its regions, and each check's verdict in the lesson's terms with the line. */
#ifndef PTXTUTOR_PUZZLE_CHECK_H
#define PTXTUTOR_PUZZLE_CHECK_H

#include "course/puzzle.h"

typedef struct {
	int pass;                      /* 1 passed, 0 failed */
	int line;                      /* the PTX line at fault or measured; 0: none */
	char name[128];                /* puzzle_check_describe */
	char msg[1024];                /* what was measured; on a failure why, with the line */
} puzzle_verdict;

/* Plain data (a child sends it whole over a pipe). */
typedef struct {
	puzzle_verdict v[PUZZLE_MAX_CHECKS];
	int n;
	int solved;                    /* every check passed */
	double seconds;                /* wall time of the emulations */
} puzzle_outcome;

/* Runs p's checks on the PTX file at path (the student's copy, the start
 * or the solution): each of p's sizes on the emulator with p's launch. A
 * file that does not parse, a fault, a wrong result fail `verified` with
 * "line L: message"; the region checks sum the counts over the sizes that
 * ran. Never exits; fills out whatever happens. */
void puzzle_check_file(const puzzle *p, const char *path, puzzle_outcome *out);

#endif
