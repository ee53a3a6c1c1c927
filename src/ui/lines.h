/* ui/lines: styled text — runs and wrapped lines of (code point, role) that the text panes are built from before draw places them. */
#ifndef PTXTUTOR_UI_LINES_H
#define PTXTUTOR_UI_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "ui/frame.h"

/* A run of styled characters, not yet cut into lines (a paragraph). */
typedef struct {
	uint32_t *cp;
	uint8_t *role;
	int n, cap;
} ui_run;

void ui_run_put(ui_run *r, uint32_t cp, ui_role role);
/* At most n bytes of UTF-8 s (stops at a NUL); tabs become spaces. */
void ui_run_puts(ui_run *r, const char *s, size_t n, ui_role role);
void ui_run_free(ui_run *r);

/* Lines of styled characters: line i is cp[start[i] .. start[i+1]). The
 * line being written is line nlines, which ui_lines_nl ends. */
typedef struct {
	uint32_t *cp;
	uint8_t *role;
	int n, cap;
	int *start;     /* start[nlines] is where the current line begins */
	int nlines, lcap;
	/* Lines a pane marks (the page's @numbers section), as the PTX pane
	 * marks a region; -1 when none. */
	int mark_first, mark_last;
	/* Words ui_lines_wrap had to cut because one was wider than a line: a
	 * pane too narrow for its text (the render lint fails on any). */
	int cuts, cut_line; /* cut_line: the line the first cut word starts on */
} ui_lines;

void ui_lines_init(ui_lines *t);
void ui_lines_free(ui_lines *t);
void ui_lines_put(ui_lines *t, uint32_t cp, ui_role role);
/* UTF-8 text onto the current line; tabs become spaces. */
void ui_lines_add(ui_lines *t, const char *s, ui_role role);
void ui_lines_addf(ui_lines *t, ui_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A run's characters onto the current line, as they are (no wrapping). */
void ui_lines_add_run(ui_lines *t, const ui_run *r);
/* Ends the current line. */
void ui_lines_nl(ui_lines *t);
/* Columns on the current line so far. */
int ui_lines_width(const ui_lines *t);

/* Wraps r into lines of width w after what the current line already holds;
 * continuation lines start with indent spaces (fewer where a word would not
 * fit after them). Breaks at spaces, never between words ui_lines_glued
 * keeps together where the pair fits a line; cuts a word longer than a line
 * (counted in cuts), and ends the last line. No line is wider than w. */
void ui_lines_wrap(ui_lines *t, const ui_run *r, int w, int indent);
/* Whether a line may not break between the words a and b (na, nb code
 * points): a number and its unit ("50.3 M", "4 KiB", "7.97 FLOP/B") or a
 * word that counts and its number ("lesson 1", "page 3") — ui_lines_unit_pair
 * — or a lone operator and what it joins ("C − ref"). */
int ui_lines_glued(const uint32_t *a, int na, const uint32_t *b, int nb);
int ui_lines_unit_pair(const uint32_t *a, int na, const uint32_t *b, int nb);
/* UTF-8 text in one role, wrapped as ui_lines_wrap does. */
void ui_lines_para(ui_lines *t, const char *s, ui_role role, int w, int indent);

/* The shapes the numbers and run panes are made of: */
/* a heading line; */
void ui_lines_section(ui_lines *t, const char *title);
/* "label value note": the value in its role, the note (dim) after it where
 * it fits, else on a line of its own below (units are never dropped). A
 * label may be "long|short": the short one in a pane narrower than 40. The
 * label column never runs into the value: a label too long for it ends in
 * '.' and a space always separates them. */
void ui_lines_kv(ui_lines *t, const char *label, const char *value, ui_role role, const char *note, int w);

#endif
