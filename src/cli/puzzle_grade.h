/* puzzle_grade: a lecturer's `puzzle N --check-dir DIR` — every file of a folder checked in parallel, each in its own child with its own deadline, a row per entry. */
#ifndef PTXTUTOR_PUZZLE_GRADE_H
#define PTXTUTOR_PUZZLE_GRADE_H

#include "exec/puzzle_check.h"

#define PUZZLE_GRADE_TIMEOUT_S 10.0

/* Grades the entries of dir against p: each regular file checked in a
 * child of its own, jobs at a time (0: one per CPU), killed timeout seconds
 * after its start (0: PUZZLE_GRADE_TIMEOUT_S); anything else (a FIFO, a
 * folder, a link) gets a row saying why it was never opened. Prints a row
 * per entry, by name: text, or JSON or CSV (docs/json.md). Nothing is
 * recorded in the state file. Returns 0 once every entry has its row, 2
 * (after saying why) when dir cannot be read. */
int puzzle_grade(const puzzle *p, const char *dir, int jobs, double timeout, int json, int csv);

/* The measure a region check's message states (sectors per request, bank
 * conflicts, an instruction count: "touches 4.0 sectors"), for verdict i of
 * o against p; -1 for a check that states none (verified, race). */
double puzzle_grade_measure(const puzzle *p, const puzzle_outcome *o, int i, const char *msg);

#endif
