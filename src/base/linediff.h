/* linediff: which lines of one text are lines of another — a longest common subsequence of their lines, so an edit's lines meet the original's wherever the edit moved them (not by line number). */
#ifndef PTXTUTOR_LINEDIFF_H
#define PTXTUTOR_LINEDIFF_H

/* The match of a's lines with b's: a_to_b[i] for line i of a (1-based,
 * index 0 unused) is the line of b it is, 0 when it is not in b; b_to_a the
 * other way. Lines compare with blanks at both ends left out; the matched
 * pairs keep the order of both texts. A common start and end are matched
 * line by line, the rest by a longest common subsequence; a middle too large
 * for one (LINEDIFF_MAX_CELLS) is left unmatched. Free with linediff_free. */
typedef struct {
	int *a_to_b, *b_to_a;
	int na, nb;
} linediff;

#define LINEDIFF_MAX_CELLS (16 << 20)

void linediff_match(linediff *d, const char *a, const char *b);
void linediff_free(linediff *d);

#endif
