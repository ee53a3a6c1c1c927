/* lines: a text read line by line with its line numbers, and the tab splitter of the TSV files. */
#include "base/lines.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void lines_init(lines *it, const char *text)
{
	it->copy = xstrdup(text ? text : "");
	it->next = *it->copy ? it->copy : NULL;
	it->line = 0;
}

char *lines_next(lines *it)
{
	char *s = it->next;
	if (!s)
		return NULL;
	char *nl = strchr(s, '\n');
	/* "a\n" is one line: the end of the text after a '\n' is no line of its own. */
	it->next = nl && nl[1] ? nl + 1 : NULL;
	if (nl)
		*nl = '\0';
	size_t len = strlen(s);
	if (len && s[len - 1] == '\r')
		s[len - 1] = '\0';
	it->line++;
	return s;
}

void lines_free(lines *it)
{
	free(it->copy);
	it->copy = it->next = NULL;
}

int lines_split_tsv(char *line, char **f, int max)
{
	int n = 0;
	for (char *p = line;; n++) {
		if (n < max)
			f[n] = p;
		char *t = strchr(p, '\t');
		if (!t)
			return n + 1;
		/* Beyond max the fields are only counted: the last stored one keeps the rest. */
		if (n < max - 1)
			*t = '\0';
		p = t + 1;
	}
}
