/* puzzle: parse a puzzle's front matter (a key table) and load every puzzle of the course. */
#include "course/puzzle.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The check kinds as the files write them; whether each names a region and a limit. */
static const struct {
	const char *name;
	int region;   /* takes a region: "sectors REGION <= N" */
	int op;       /* takes an opcode prefix after the region */
	const char *what;
} kinds[PUZZLE_KIND_COUNT] = {
	[PUZZLE_VERIFIED] = {"verified", 0, 0, "C is right at every size"},
	[PUZZLE_RACE] = {"race", 0, 0, "no shared-memory race (every barrier in place)"},
	[PUZZLE_SECTORS] = {"sectors", 1, 0, "global sectors per request"},
	[PUZZLE_CONFLICTS] = {"conflicts", 1, 0, "shared-memory bank conflicts"},
	[PUZZLE_COUNT] = {"count", 1, 1, "instructions"},
	[PUZZLE_TMA] = {"tma", 1, 0, "TMA bytes read from L2 per byte landed in shared memory"},
};

const char *puzzle_kind_name(puzzle_kind k)
{
	return k < PUZZLE_KIND_COUNT ? kinds[k].name : "?";
}

void puzzle_check_describe(const puzzle_check *c, char *buf, int len)
{
	if (!kinds[c->kind].region)
		snprintf(buf, (size_t)len, "%s", kinds[c->kind].what);
	else if (c->kind == PUZZLE_COUNT)
		snprintf(buf, (size_t)len, "%s %s in @%s <= %g", strcmp(c->op, "*") ? c->op : "all",
			 kinds[c->kind].what, c->region, c->limit);
	else
		snprintf(buf, (size_t)len, "%s in @%s <= %g", kinds[c->kind].what, c->region, c->limit);
}

/* "KIND [REGION [OP] <= LIMIT] [| why]" into c. Returns 0, or -1 with why in err. */
static int parse_check(char *v, puzzle_check *c, char *err, int errlen)
{
	char *bar = strchr(v, '|');
	if (bar) {
		*bar = 0;
		util_strlcpy(c->why, util_trim(bar + 1), sizeof c->why);
	}
	char *w[5];
	int n = 0;
	for (char *t = strtok(v, " \t"); t; t = strtok(NULL, " \t"))
		if (n < 5)
			w[n++] = t;
		else
			n = 6;
	int k = 0;
	while (k < PUZZLE_KIND_COUNT && (n == 0 || strcmp(w[0], kinds[k].name)))
		k++;
	if (k == PUZZLE_KIND_COUNT) {
		snprintf(err, (size_t)errlen, "check: want verified, race, sectors, conflicts, count or tma, not '%s'",
			 n ? w[0] : "");
		return -1;
	}
	c->kind = (puzzle_kind)k;
	int want = kinds[k].region ? 4 + kinds[k].op : 1;
	if (n != want || (want > 1 && strcmp(w[want - 2], "<="))) {
		snprintf(err, (size_t)errlen, "check: '%s' takes %s", kinds[k].name,
			 want == 1 ? "nothing more" : kinds[k].op ? "REGION OPCODE <= N" : "REGION <= N");
		return -1;
	}
	if (want > 1) {
		char *end;
		if (strlen(w[1]) >= sizeof c->region || strlen(w[2]) >= sizeof c->op) {
			snprintf(err, (size_t)errlen, "check: a name too long");
			return -1;
		}
		util_strlcpy(c->region, w[1][0] == '@' ? w[1] + 1 : w[1], sizeof c->region);
		if (kinds[k].op)
			util_strlcpy(c->op, w[2], sizeof c->op);
		c->limit = strtod(w[want - 1], &end);
		if (*end || c->limit < 0) {
			snprintf(err, (size_t)errlen, "check: the limit '%s' is no number >= 0", w[want - 1]);
			return -1;
		}
	}
	return 0;
}

/* "N" or "M,N,K" sizes separated by blanks. */
static int parse_sizes(char *v, puzzle *p, char *err, int errlen)
{
	for (char *t = strtok(v, " \t"); t; t = strtok(NULL, " \t")) {
		long long s[3];
		int n = sscanf(t, "%lld,%lld,%lld", &s[0], &s[1], &s[2]);
		if (n == 1)
			s[1] = s[2] = s[0];
		if ((n != 1 && n != 3) || s[0] < 1 || s[1] < 1 || s[2] < 1 || s[0] > 4096 || s[1] > 4096 ||
		    s[2] > 4096 || p->nsizes == PUZZLE_MAX_SIZES) {
			snprintf(err, (size_t)errlen, "sizes: want up to %d sizes N or M,N,K (1..4096), not '%s'",
				 PUZZLE_MAX_SIZES, t);
			return -1;
		}
		memcpy(p->sizes[p->nsizes++], s, sizeof s);
	}
	return 0;
}

#define FIELD(f) offsetof(puzzle, f), sizeof(((puzzle *)0)->f)
/* The front matter's keys: a string field, or a handler. */
static const struct {
	const char *key;
	size_t off, size;
	int required;
} fields[] = {
	{"title", FIELD(title), 1}, {"start", FIELD(start), 1}, {"solution", FIELD(solution), 1},
	{"entry", FIELD(entry), 1}, {"grid", FIELD(grid), 1},   {"block", FIELD(block), 1},
	{"smem", FIELD(smem), 0},   {"dtype", FIELD(dtype), 0},	{"args", FIELD(args), 0},
	{"cluster", FIELD(cluster), 0}, {"out", FIELD(out), 0},  {"bmajor", FIELD(bmajor), 0},
};
#define NFIELDS (int)(sizeof fields / sizeof fields[0])

static int parse_line(char *key, char *v, puzzle *p, char *err, int errlen)
{
	for (int i = 0; i < NFIELDS; i++)
		if (!strcmp(key, fields[i].key)) {
			if (strlen(v) >= fields[i].size) {
				snprintf(err, (size_t)errlen, "%s: longer than %zu characters", key, fields[i].size - 1);
				return -1;
			}
			util_strlcpy((char *)p + fields[i].off, v, fields[i].size);
			return 0;
		}
	if (!strcmp(key, "lesson")) {
		char *end;
		long n = strtol(v, &end, 10);
		if (*end || n < 0 || n > 99) {
			snprintf(err, (size_t)errlen, "lesson: want a lesson number, not '%s'", v);
			return -1;
		}
		p->lesson = (int)n;
		return 0;
	}
	if (!strcmp(key, "sizes"))
		return parse_sizes(v, p, err, errlen);
	if (!strcmp(key, "hint")) {
		if (p->nhints == PUZZLE_MAX_HINTS) {
			snprintf(err, (size_t)errlen, "hint: at most %d hints", PUZZLE_MAX_HINTS);
			return -1;
		}
		util_strlcpy(p->hints[p->nhints++], v, sizeof p->hints[0]);
		return 0;
	}
	if (!strcmp(key, "check")) {
		if (p->nchecks == PUZZLE_MAX_CHECKS) {
			snprintf(err, (size_t)errlen, "check: at most %d checks", PUZZLE_MAX_CHECKS);
			return -1;
		}
		return parse_check(v, &p->checks[p->nchecks++], err, errlen);
	}
	snprintf(err, (size_t)errlen, "unknown key '%s'", key);
	return -1;
}

int puzzle_parse(const char *path, const char *text, puzzle *out, char *err, int errlen)
{
	memset(out, 0, sizeof *out);
	util_strlcpy(out->path, path, sizeof out->path);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t blen = strcspn(base, ".");
	snprintf(out->id, sizeof out->id, "%.*s", (int)(blen < sizeof out->id ? blen : sizeof out->id - 1), base);
	out->lesson = -1;
	const char *s = text;
	int line = 1;
	char msg[256] = "";
	if (strncmp(s, "---\n", 4)) {
		snprintf(err, (size_t)errlen, "%s:1: a puzzle starts with a '---' front matter", path);
		return -1;
	}
	s += 4;
	for (;;) {
		line++;
		const char *nl = strchr(s, '\n');
		if (!nl) {
			snprintf(err, (size_t)errlen, "%s:%d: the front matter has no closing '---'", path, line);
			return -1;
		}
		char buf[512];
		size_t n = (size_t)(nl - s);
		if (n >= sizeof buf) {
			snprintf(err, (size_t)errlen, "%s:%d: a line longer than %zu characters", path, line, sizeof buf - 1);
			return -1;
		}
		memcpy(buf, s, n);
		buf[n] = 0;
		s = nl + 1;
		if (!strcmp(buf, "---"))
			break;
		char *colon = strchr(buf, ':');
		if (!colon) {
			snprintf(err, (size_t)errlen, "%s:%d: want 'key: value', not '%s'", path, line, buf);
			return -1;
		}
		*colon = 0;
		char *key = util_trim(buf), *v = util_trim(colon + 1);
		if (parse_line(key, v, out, msg, sizeof msg)) {
			snprintf(err, (size_t)errlen, "%s:%d: %s", path, line, msg);
			return -1;
		}
		if (!strcmp(key, "check"))
			out->checks[out->nchecks - 1].line = line;
	}
	for (int i = 0; i < NFIELDS && !msg[0]; i++)
		if (fields[i].required && !((char *)out + fields[i].off)[0])
			snprintf(msg, sizeof msg, "no '%s:' line", fields[i].key);
	if (!msg[0] && out->lesson < 0)
		snprintf(msg, sizeof msg, "no 'lesson:' line");
	if (!msg[0] && (out->nchecks == 0 || out->nsizes == 0))
		snprintf(msg, sizeof msg, "a puzzle needs at least one 'check:' and one 'sizes:' line");
	if (msg[0]) {
		snprintf(err, (size_t)errlen, "%s:%d: %s", path, line, msg);
		return -1;
	}
	if (!out->smem[0])
		util_strlcpy(out->smem, "0", sizeof out->smem);
	if (!out->dtype[0])
		util_strlcpy(out->dtype, "f32", sizeof out->dtype);
	out->goal = xstrdup(s);
	return 0;
}

void puzzle_free(puzzle *p)
{
	free(p->goal);
	p->goal = NULL;
}

static int by_lesson(const void *a, const void *b)
{
	const puzzle *x = a, *y = b;
	return x->lesson != y->lesson ? x->lesson - y->lesson : strcmp(x->id, y->id);
}

int puzzles_load(puzzle_set *s, char *errs, int errlen)
{
	memset(s, 0, sizeof *s);
	if (errlen > 0)
		errs[0] = 0;
	char dir[512];
	util_path(dir, sizeof dir, PUZZLE_DIR);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int broken = 0, cap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 3, ".md") || e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		char rel[300], full[1024], err[512];
		snprintf(rel, sizeof rel, "%s/%s", PUZZLE_DIR, e->d_name);
		util_path(full, sizeof full, rel);
		char *text = util_read_file(full, NULL, err, sizeof err);
		if (s->n == cap)
			s->p = realloc(s->p, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *s->p);
		if (!s->p)
			abort();
		if (!text || puzzle_parse(rel, text, &s->p[s->n], err, sizeof err)) {
			size_t used = strlen(errs);
			if ((int)used < errlen)
				snprintf(errs + used, (size_t)errlen - used, "%s\n", err);
			broken++;
		} else {
			s->n++;
		}
		free(text);
	}
	closedir(d);
	if (s->n)
		qsort(s->p, (size_t)s->n, sizeof *s->p, by_lesson);
	return broken;
}

void puzzles_free(puzzle_set *s)
{
	for (int i = 0; i < s->n; i++)
		puzzle_free(&s->p[i]);
	free(s->p);
	memset(s, 0, sizeof *s);
}

const puzzle *puzzles_find(const puzzle_set *s, const char *what)
{
	char *end;
	long n = strtol(what, &end, 10);
	if (*what && !*end)
		return n >= 1 && n <= s->n ? &s->p[n - 1] : NULL;
	const puzzle *found = NULL;
	for (int i = 0; i < s->n; i++) {
		if (!strcmp(s->p[i].id, what))
			return &s->p[i];
		if (!strncmp(s->p[i].id, what, strlen(what)))
			found = found ? (const puzzle *)-1 : &s->p[i];
	}
	return found == (const puzzle *)-1 ? NULL : found;
}

int puzzles_index_in_lesson(const puzzle_set *s, const puzzle *p)
{
	int k = 0;
	for (int i = 0; i < s->n; i++) {
		if (&s->p[i] == p)
			return k;
		k += s->p[i].lesson == p->lesson;
	}
	return -1;
}

int puzzles_of_lesson(const puzzle_set *s, int lesson)
{
	int k = 0;
	for (int i = 0; i < s->n; i++)
		k += s->p[i].lesson == lesson;
	return k;
}

int puzzle_solved(const state_data *st, const puzzle_set *s, const puzzle *p, const char *lesson_id)
{
	const state_progress *g = state_progress_find(st, lesson_id);
	return g && state_marked(g->puzzles, puzzles_index_in_lesson(s, p));
}

int puzzle_asked(const state_data *st, const puzzle_set *s, const puzzle *p, const char *lesson_id)
{
	const state_progress *g = state_progress_find(st, lesson_id);
	return g && state_marked(g->asked, puzzles_index_in_lesson(s, p));
}

void puzzle_mark(state_data *st, const puzzle_set *s, const puzzle *p, const char *lesson_id, int asked)
{
	state_progress *g = state_progress_get(st, lesson_id);
	if (g)
		state_mark(asked ? &g->asked : &g->puzzles, puzzles_index_in_lesson(s, p));
}
