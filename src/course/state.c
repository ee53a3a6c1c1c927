/* state: load and save the last lesson and page and each lesson's progress, as "key value" lines ("read ID HEX", "solved ID HEX", "puzzles ID HEX", "asked ID HEX"). */
#include "course/state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/lines.h"
#include "base/util.h"

int state_path(char *dst, size_t len)
{
	const char *x = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int n;
	if (x && x[0] == '/')
		n = snprintf(dst, len, "%s/ptxtutor/state", x);
	else if (home && *home)
		n = snprintf(dst, len, "%s/.local/state/ptxtutor/state", home);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* "ID HEX" after read or solved; a line that does not parse is skipped. */
static void progress_line(state_data *s, const char *key, char *val)
{
	char *sp = strchr(val, ' ');
	if (!sp)
		return;
	*sp = '\0';
	char *end;
	unsigned long long bits = strtoull(sp + 1, &end, 16);
	if (end == sp + 1 || !*val || strlen(val) >= sizeof s->prog[0].id)
		return;
	state_progress *p = state_progress_get(s, val);
	if (p)
		*(!strcmp(key, "read")	   ? &p->read
		  : !strcmp(key, "solved")  ? &p->solved
		  : !strcmp(key, "puzzles") ? &p->puzzles
					    : &p->asked) = bits;
}

const state_progress *state_progress_find(const state_data *s, const char *id)
{
	for (int i = 0; i < s->nprog; i++)
		if (!strcmp(s->prog[i].id, id))
			return &s->prog[i];
	return NULL;
}

state_progress *state_progress_get(state_data *s, const char *id)
{
	const state_progress *found = state_progress_find(s, id);
	if (found)
		return &s->prog[found - s->prog];
	if (s->nprog >= STATE_MAX_LESSONS)
		return NULL;
	state_progress *p = &s->prog[s->nprog++];
	memset(p, 0, sizeof *p);
	util_strlcpy(p->id, id, sizeof p->id);
	return p;
}

void state_mark(unsigned long long *set, int i)
{
	if (i >= 0 && i < STATE_MAX_BITS)
		*set |= 1ULL << i;
}

int state_marked(unsigned long long set, int i)
{
	return i >= 0 && i < STATE_MAX_BITS && (set >> i & 1);
}

int state_count(unsigned long long set, int n)
{
	int c = 0;
	for (int i = 0; i < n && i < STATE_MAX_BITS; i++)
		c += (int)(set >> i & 1);
	return c;
}

int state_parse(const char *text, state_data *s)
{
	memset(s, 0, sizeof *s);
	lines it;
	lines_init(&it, text);
	/* A blank or unknown line is skipped like any other that does not parse. */
	for (char *line; (line = lines_next(&it));) {
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		char *val = util_trim(sp + 1);
		if (!strcmp(line, "lesson"))
			util_strlcpy(s->lesson, val, sizeof s->lesson);
		else if (!strcmp(line, "page")) {
			long p = strtol(val, NULL, 10);
			s->page = p >= 0 && p < 1000 ? (int)p : 0;
		} else if (!strcmp(line, "read") || !strcmp(line, "solved") || !strcmp(line, "puzzles") ||
			   !strcmp(line, "asked")) {
			progress_line(s, line, val);
		}
	}
	lines_free(&it);
	return s->lesson[0] ? 0 : -1;
}

int state_load(state_data *s)
{
	char path[1024];
	memset(s, 0, sizeof *s);
	if (state_path(path, sizeof path) < 0)
		return -1;
	char *text = util_read_file(path, NULL, NULL, 0);
	if (!text)
		return -1;
	int rc = state_parse(text, s);
	free(text);
	return rc;
}

int state_save(const state_data *s, char *err, int errlen)
{
	char path[1024], tmp[1100];
	if (state_path(path, sizeof path) < 0) {
		snprintf(err, (size_t)errlen, "state: neither XDG_STATE_HOME nor HOME is set");
		return -1;
	}
	if (util_mkdir_parents(path) < 0) {
		snprintf(err, (size_t)errlen, "state: cannot create the folder for %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, (size_t)errlen, "state: %s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "lesson %s\npage %d\n", s->lesson, s->page);
	for (int i = 0; i < s->nprog; i++) {
		const state_progress *p = &s->prog[i];
		if (p->read)
			fprintf(f, "read %s %llx\n", p->id, p->read);
		if (p->solved)
			fprintf(f, "solved %s %llx\n", p->id, p->solved);
		if (p->puzzles)
			fprintf(f, "puzzles %s %llx\n", p->id, p->puzzles);
		if (p->asked)
			fprintf(f, "asked %s %llx\n", p->id, p->asked);
	}
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) < 0) {
		snprintf(err, (size_t)errlen, "state: cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
