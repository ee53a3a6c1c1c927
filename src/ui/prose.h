/* ui/prose: lesson Markdown as styled, wrapped lines — paragraphs re-flowed, headings, lists, fenced code, tables, `code`, **bold**, {placeholders} filled. */
#ifndef PTXTUTOR_UI_PROSE_H
#define PTXTUTOR_UI_PROSE_H

#include <stddef.h>

#include "model/model.h"
#include "ui/lines.h"

/* Inline markup of n bytes of s onto r in role base: `code`, **bold**, and
 * {key} placeholders filled by model_format from m (NULL, or a key the model
 * does not know: shown as {key} in the warning role). */
void ui_prose_inline(ui_run *r, const model_result *m, const char *s, size_t n, ui_role base);
/* A page's (or a question's) text onto t at width w: paragraphs re-flowed,
 * headings, list items with a hanging indent; fenced code and tables kept as
 * written (a code line wider than w wraps, the rest after a dim '>'). */
void ui_prose(ui_lines *t, const model_result *m, const char *text, int w);

/* text with the symbols one ASCII character cannot stand for spelled out,
 * for --ascii and a locale that is not UTF-8 (the frame maps the rest, one
 * cell each): Σ "sum", √K "sqrt(K)", ‖x‖ "||x||", Bᵀ "B^T", 128³ "128^3",
 * ...; in running text → "->", · "*" and … "..." too (a fenced picture keeps
 * its columns). A new string: the caller frees it. */
char *ui_prose_ascii(const char *text);
/* Every occurrence of needle (lower case; case is ignored) in t's lines in
 * the select role: the search's hits, reverse video as in less. */
void ui_prose_mark(ui_lines *t, const char *needle);

#endif
