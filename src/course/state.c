/* state: load and save the last lesson and page, as two "key value" lines. */
#include "course/state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int state_parse(const char *text, state_data *s)
{
	memset(s, 0, sizeof *s);
	char *copy = xstrdup(text);
	char *save = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
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
		}
	}
	free(copy);
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
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) < 0) {
		snprintf(err, (size_t)errlen, "state: cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
