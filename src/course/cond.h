/* cond: conditional prose in a lesson page — lines `@if EXPR`, `@else`, `@endif` — recognised when a lesson is parsed, chosen when a page is drawn. */
#ifndef PTXTUTOR_COND_H
#define PTXTUTOR_COND_H

/* How deep @if blocks may nest. */
#define COND_MAX_DEPTH 8

typedef enum { COND_NONE, COND_IF, COND_ELSE, COND_ENDIF } cond_kind;

/* Which conditional line `line` is (outside code fences; the caller knows).
 * For COND_IF, *expr points at the expression (trimmed of leading blanks;
 * may be empty, which the parser refuses). */
cond_kind cond_line(const char *line, const char **expr);

/* The text with the lines of every branch not taken removed, and the @if,
 * @else and @endif lines themselves: eval(expr, ctx) says whether an @if
 * holds. Lines in code fences are text. Expects balanced blocks (the parser
 * makes sure); an unbalanced @endif is dropped. Returns a new string. */
char *cond_select(const char *text, int (*eval)(const char *expr, void *ctx), void *ctx);

#endif
