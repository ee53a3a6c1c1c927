/* cond: cond_line and cond_select — the @if/@else/@endif lines of a page and the branches a model takes. */
#include "course/cond.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The word at s is `word`, followed by the end, a blank or a newline. */
static int is_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	return !strncmp(s, word, n) && (s[n] == '\0' || s[n] == ' ' || s[n] == '\t' || s[n] == '\n');
}

cond_kind cond_line(const char *line, const char **expr)
{
	if (is_word(line, "@if")) {
		const char *e = line + 3;
		while (*e == ' ' || *e == '\t')
			e++;
		if (expr)
			*expr = e;
		return COND_IF;
	}
	if (is_word(line, "@else"))
		return COND_ELSE;
	if (is_word(line, "@endif"))
		return COND_ENDIF;
	return COND_NONE;
}

char *cond_select(const char *text, int (*eval)(const char *expr, void *ctx), void *ctx)
{
	strbuf out = {0};
	/* shown[d]: the lines at depth d are shown; taken[d]: the @if at depth
	 * d held (so its @else is not taken). Depth 0 is the page. */
	int shown[COND_MAX_DEPTH + 1] = {1}, taken[COND_MAX_DEPTH + 1] = {1};
	int depth = 0, fence = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n'), *start = p;
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p); /* with its newline */
		char *line = xmalloc(n + 1);
		memcpy(line, p, n);
		line[n] = '\0';
		line[strcspn(line, "\n")] = '\0';
		p += n;
		if (!strncmp(line, "```", 3) || !strncmp(line, "~~~", 3))
			fence = !fence;
		const char *expr = NULL;
		cond_kind k = fence ? COND_NONE : cond_line(line, &expr);
		if (k == COND_IF && depth < COND_MAX_DEPTH) {
			depth++;
			taken[depth] = shown[depth - 1] && eval(expr, ctx);
			shown[depth] = taken[depth];
		} else if (k == COND_ELSE && depth > 0) {
			shown[depth] = shown[depth - 1] && !taken[depth];
		} else if (k == COND_ENDIF && depth > 0) {
			depth--;
		} else if (k == COND_NONE && shown[depth]) {
			sb_appendn(&out, start, n);
		}
		free(line);
	}
	return out.data ? out.data : xstrdup("");
}
