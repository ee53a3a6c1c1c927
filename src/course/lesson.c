/* lesson: parse lessons/NN-id.md (front matter, pages, @ptx anchors, exercises) into a course. */
#include "course/lesson.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/ptx.h"
#include "base/util.h"

const char *dtype_name(dtype d)
{
	static const char *const names[] = {[DTYPE_NONE] = "none", [DTYPE_F32] = "f32", [DTYPE_F16] = "f16"};
	return names[d];
}

/* Parsing state: the file name and line for messages, and the message buffer. */
typedef struct {
	const char *path;
	int line;
	char *err;
	int errlen;
} ctx;

static int fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ctx *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(c->err, (size_t)c->errlen, "%s:%d: %s", c->path, c->line, msg);
	return -1;
}

/* Splits s on white space into at most max words (in place). */
static int split(char *s, char **w, int max)
{
	int n = 0;
	for (char *tok = strtok(s, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
		w[n++] = tok;
	return n;
}

static int parse_params(ctx *c, lesson *l, char *v)
{
	char *w[LESSON_MAX_PARAMS + 1];
	int n = split(v, w, LESSON_MAX_PARAMS + 1);
	if (n > LESSON_MAX_PARAMS)
		return fail(c, "too many params (at most %d)", LESSON_MAX_PARAMS);
	for (int i = 0; i < n; i++) {
		char *eq = strchr(w[i], '=');
		char *end;
		if (!eq || eq == w[i] || eq - w[i] >= EXPR_NAME_MAX)
			return fail(c, "param '%s' is not KEY=INTEGER", w[i]);
		*eq = '\0';
		long long val = strtoll(eq + 1, &end, 10);
		if (end == eq + 1 || *end)
			return fail(c, "param '%s' needs an integer value", w[i]);
		util_strlcpy(l->params[i].name, w[i], EXPR_NAME_MAX);
		l->params[i].value = val;
	}
	l->nparams = n;
	return 0;
}

static int parse_runtime(ctx *c, lesson *l, char *v)
{
	char *w[LESSON_MAX_PARAMS];
	int n = split(v, w, LESSON_MAX_PARAMS);
	for (int i = 0; i < n; i++) {
		int found = 0;
		for (int j = 0; j < l->nparams; j++)
			if (!strcmp(l->params[j].name, w[i]))
				l->params[j].runtime = found = 1;
		if (!found)
			return fail(c, "runtime names '%s', which is not in params (declare params first)", w[i]);
	}
	return 0;
}

/* Copies 1..max expressions; missing trailing ones get the default. */
static int parse_exprs(ctx *c, const char *key, char *v, char out[][LESSON_EXPR], int min, int max, const char *dflt)
{
	char *w[4];
	int n = split(v, w, 4);
	if (n < min || n > max)
		return fail(c, "%s wants %d to %d values, got %d", key, min, max, n);
	for (int i = 0; i < max; i++)
		util_strlcpy(out[i], i < n ? w[i] : dflt, LESSON_EXPR);
	return 0;
}

static int parse_needs(ctx *c, lesson *l, const char *v)
{
	int sm;
	char suffix[4] = "";
	if (sscanf(v, "sm_%d%3s", &sm, suffix) < 1 || sm < 30 || (suffix[0] && strcmp(suffix, "a")))
		return fail(c, "needs wants sm_NN or sm_NNa, got '%s'", v);
	l->needs_sm = sm;
	l->needs_arch_specific = suffix[0] == 'a';
	return 0;
}

static int parse_key(ctx *c, lesson *l, const char *key, char *v)
{
	if (!strcmp(key, "id"))
		util_strlcpy(l->id, v, sizeof l->id);
	else if (!strcmp(key, "title"))
		util_strlcpy(l->title, v, sizeof l->title);
	else if (!strcmp(key, "kernel")) {
		char *w[3];
		if (split(v, w, 3) != 2)
			return fail(c, "kernel wants 'PATH ENTRY'");
		util_strlcpy(l->ptx_path, w[0], sizeof l->ptx_path);
		util_strlcpy(l->entry, w[1], sizeof l->entry);
	} else if (!strcmp(key, "dtype")) {
		if (!strcmp(v, "f32"))
			l->dt = DTYPE_F32;
		else if (!strcmp(v, "f16"))
			l->dt = DTYPE_F16;
		else if (!strcmp(v, "none"))
			l->dt = DTYPE_NONE;
		else
			return fail(c, "dtype must be f32, f16 or none, not '%s'", v);
	} else if (!strcmp(key, "params"))
		return parse_params(c, l, v);
	else if (!strcmp(key, "runtime"))
		return parse_runtime(c, l, v);
	else if (!strcmp(key, "block"))
		return parse_exprs(c, key, v, l->block, 1, 3, "1");
	else if (!strcmp(key, "tile"))
		return parse_exprs(c, key, v, l->tile, 2, 2, "1");
	else if (!strcmp(key, "smem"))
		return parse_exprs(c, key, v, &l->smem, 1, 1, "0");
	else if (!strcmp(key, "multiple"))
		return parse_exprs(c, key, v, l->multiple, 3, 3, "1");
	else if (!strcmp(key, "model"))
		util_strlcpy(l->model, v, sizeof l->model);
	else if (!strcmp(key, "grid")) {
		if (strcmp(v, "persistent"))
			return fail(c, "grid is 'persistent' (one block per SM slot, the kernel loops over its "
				       "tiles) or absent (one block per tile), not '%s'", v);
		l->persistent = 1;
	} else if (!strcmp(key, "args")) {
		if (strlen(v) >= sizeof l->args)
			return fail(c, "args is longer than %d characters", (int)sizeof l->args - 1);
		util_strlcpy(l->args, v, sizeof l->args);
	} else if (!strcmp(key, "needs"))
		return parse_needs(c, l, v);
	else if (!strcmp(key, "regs")) {
		char *end;
		l->regs = (int)strtol(v, &end, 10);
		if (end == v || *end || l->regs < 0 || l->regs > 255)
			return fail(c, "regs wants registers per thread (0-255), got '%s'", v);
	} else
		return fail(c, "unknown front-matter key '%s'", key);
	return 0;
}

/* Returns a strdup of the line [s, e) (without the newline). */
static char *dup_line(const char *s, const char *e)
{
	char *p = malloc((size_t)(e - s) + 1);
	memcpy(p, s, (size_t)(e - s));
	p[e - s] = '\0';
	return p;
}

static int parse_exercise_head(ctx *c, lesson_exercise *ex, char *args)
{
	char *w[EXPR_MAX_VARS + 2];
	int n = split(args, w, EXPR_MAX_VARS + 2);
	if (n < 1)
		return fail(c, "@exercise wants the model key that answers it");
	util_strlcpy(ex->key, w[0], sizeof ex->key);
	ex->tol = 0.01;
	for (int i = 1; i < n; i++) {
		char *eq = strchr(w[i], '=');
		char *end;
		if (!eq)
			return fail(c, "@exercise option '%s' is not KEY=VALUE", w[i]);
		*eq = '\0';
		if (!strcmp(w[i], "tol")) {
			ex->tol = strtod(eq + 1, &end);
			if (end == eq + 1 || *end || ex->tol <= 0)
				return fail(c, "@exercise tol wants a positive number");
			continue;
		}
		long long v = strtoll(eq + 1, &end, 10);
		if (end == eq + 1 || *end)
			return fail(c, "@exercise override %s needs an integer", w[i]);
		expr_set(&ex->overrides, w[i], v);
	}
	return 0;
}

/* The body parser: pages at level-1 headings outside code fences, with
 * @ptx/@exercise/@hint/@answer directives. */
static int parse_body(ctx *c, lesson *l, const char *p)
{
	strbuf text = {0};
	lesson_page *pg = NULL;
	lesson_exercise *ex = NULL; /* open exercise: collecting its question */
	strbuf question = {0};
	int fence = 0;
	int rc = 0;

	while (*p && rc == 0) {
		const char *e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		c->line++;
		char *line = dup_line(p, e);
		p = *e ? e + 1 : e;

		if (!strncmp(line, "```", 3) || !strncmp(line, "~~~", 3))
			fence = !fence;
		if (!fence && line[0] == '#' && line[1] == ' ') {
			if (ex) {
				rc = fail(c, "exercise of line %d has no @answer before the next page", ex->line);
			} else if (l->npages >= LESSON_MAX_PAGES) {
				rc = fail(c, "too many pages (at most %d)", LESSON_MAX_PAGES);
			} else {
				if (pg) {
					pg->text = text.data ? text.data : strdup("");
					text = (strbuf){0};
				}
				pg = &l->pages[l->npages++];
				util_strlcpy(pg->title, util_trim(line + 2), sizeof pg->title);
				pg->line = c->line;
			}
		} else if (!fence && line[0] == '@') {
			char *sp = line + strcspn(line, " \t");
			char *args = *sp ? sp + 1 : sp;
			*sp = '\0';
			args = util_trim(args);
			if (!pg) {
				rc = fail(c, "%s before the first page heading", line);
			} else if (!strcmp(line, "@ptx")) {
				if (!*args || strchr(args, ' '))
					rc = fail(c, "@ptx wants one region name");
				else if (pg->nanchors >= LESSON_MAX_ANCHORS)
					rc = fail(c, "too many @ptx anchors on one page");
				else
					util_strlcpy(pg->anchors[pg->nanchors++], args, sizeof pg->anchors[0]);
			} else if (!strcmp(line, "@exercise")) {
				if (ex)
					rc = fail(c, "exercise of line %d has no @answer", ex->line);
				else if (pg->nex >= LESSON_MAX_EXERCISES)
					rc = fail(c, "too many exercises on one page");
				else {
					ex = &pg->ex[pg->nex++];
					ex->line = c->line;
					rc = parse_exercise_head(c, ex, args);
				}
			} else if (!strcmp(line, "@hint")) {
				if (!ex || ex->hint)
					rc = fail(c, "@hint outside an exercise");
				else {
					ex->question = question.data ? strdup(util_trim(question.data)) : strdup("");
					sb_free(&question);
					ex->hint = strdup(args);
				}
			} else if (!strcmp(line, "@answer")) {
				if (!ex || !ex->hint)
					rc = fail(c, "@answer without an @exercise and its @hint before it");
				else {
					ex->answer = strdup(args);
					ex = NULL;
				}
			} else {
				rc = fail(c, "unknown directive '%s' (known: @ptx, @exercise, @hint, @answer)", line);
			}
		} else if (ex) {
			sb_append(&question, line);
			sb_append(&question, "\n");
		} else if (pg) {
			sb_append(&text, line);
			sb_append(&text, "\n");
		} else if (*util_trim(line)) {
			rc = fail(c, "text before the first page heading ('# Title')");
		}
		free(line);
	}
	if (rc == 0 && ex)
		rc = fail(c, "exercise of line %d has no @answer", ex->line);
	if (rc == 0 && fence)
		rc = fail(c, "unclosed code fence");
	if (rc == 0 && l->npages == 0)
		rc = fail(c, "no pages: a page starts with a level-1 heading ('# Title')");
	if (pg && !pg->text)
		pg->text = text.data ? text.data : strdup("");
	else
		sb_free(&text);
	sb_free(&question);
	return rc;
}

static void set_defaults(lesson *l)
{
	for (int i = 0; i < 3; i++) {
		util_strlcpy(l->block[i], "1", LESSON_EXPR);
		util_strlcpy(l->multiple[i], "1", LESSON_EXPR);
	}
	util_strlcpy(l->tile[0], "1", LESSON_EXPR);
	util_strlcpy(l->tile[1], "1", LESSON_EXPR);
	util_strlcpy(l->smem, "0", LESSON_EXPR);
	util_strlcpy(l->args, "A B C M N K", LESSON_ARGS);
}

int lesson_parse(const char *path, const char *text, lesson *out, char *err, int errlen)
{
	ctx c = {path, 0, err, errlen};
	memset(out, 0, sizeof *out);
	set_defaults(out);
	util_strlcpy(out->path, path, sizeof out->path);
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!isdigit((unsigned char)base[0]) || !isdigit((unsigned char)base[1]) || base[2] != '-') {
		c.line = 1;
		return fail(&c, "lesson files are named NN-id.md");
	}
	out->number = (base[0] - '0') * 10 + (base[1] - '0');

	const char *p = text;
	if (strncmp(p, "---\n", 4)) {
		c.line = 1;
		return fail(&c, "a lesson starts with a front-matter block ('---')");
	}
	p += 4;
	c.line = 1;
	int closed = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		c.line++;
		char *line = dup_line(p, e);
		p = *e ? e + 1 : e;
		char *t = util_trim(line);
		int rc = 0;
		if (!strcmp(t, "---")) {
			free(line);
			closed = 1;
			break;
		}
		if (*t && *t != '#') {
			char *colon = strchr(t, ':');
			if (!colon)
				rc = fail(&c, "front-matter line is not 'key: value'");
			else {
				*colon = '\0';
				rc = parse_key(&c, out, util_trim(t), util_trim(colon + 1));
			}
		}
		free(line);
		if (rc)
			return rc;
	}
	if (!closed)
		return fail(&c, "front matter is not closed with '---'");
	if (!out->id[0] || !out->title[0])
		return fail(&c, "front matter needs id and title");
	if (out->ptx_path[0] && out->dt == DTYPE_NONE)
		return fail(&c, "a lesson with a kernel needs dtype f32 or f16");
	if (parse_body(&c, out, p)) {
		lesson_free(out);
		return -1;
	}
	return 0;
}

void lesson_free(lesson *l)
{
	for (int i = 0; i < l->npages; i++) {
		lesson_page *pg = &l->pages[i];
		free(pg->text);
		pg->text = NULL;
		for (int j = 0; j < pg->nex; j++) {
			free(pg->ex[j].question);
			free(pg->ex[j].hint);
			free(pg->ex[j].answer);
			pg->ex[j].question = pg->ex[j].hint = pg->ex[j].answer = NULL;
		}
	}
	l->npages = 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_lesson_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return n > 6 && isdigit((unsigned char)d->d_name[0]) && isdigit((unsigned char)d->d_name[1]) &&
	       d->d_name[2] == '-' && !strcmp(d->d_name + n - 3, ".md");
}

int course_load(course *c, char *errs, int errlen)
{
	char dir[512];
	struct dirent **names;
	memset(c, 0, sizeof *c);
	if (errs && errlen)
		errs[0] = '\0';
	util_path(dir, sizeof dir, "lessons");
	int n = scandir(dir, &names, is_lesson_file, by_name);
	if (n < 0) {
		if (errs)
			snprintf(errs, (size_t)errlen, "%s: cannot read the lessons folder\n", dir);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		char rel[300], full[1024], err[512];
		snprintf(rel, sizeof rel, "lessons/%s", names[i]->d_name);
		util_path(full, sizeof full, rel);
		free(names[i]);
		if (c->n >= LESSON_MAX)
			continue;
		char *text = util_read_file(full, NULL, err, sizeof err);
		if (text && lesson_parse(rel, text, &c->l[c->n], err, sizeof err) == 0)
			c->n++;
		else if (errs) {
			size_t used = strlen(errs);
			snprintf(errs + used, (size_t)errlen - used, "%s\n", err);
		}
		free(text);
	}
	free(names);
	return c->n;
}

void course_free(course *c)
{
	for (int i = 0; i < c->n; i++)
		lesson_free(&c->l[i]);
	c->n = 0;
}

const lesson *course_find(const course *c, const char *what)
{
	char *end;
	long num = strtol(what, &end, 10);
	for (int i = 0; i < c->n; i++) {
		if (end != what && !*end && c->l[i].number == num)
			return &c->l[i];
		if (!strcasecmp(c->l[i].id, what))
			return &c->l[i];
	}
	return NULL;
}

void lesson_env(const lesson *l, const expr_env *overrides, long long M, long long N, long long K, expr_env *env)
{
	memset(env, 0, sizeof *env);
	for (int i = 0; i < l->nparams; i++)
		expr_set(env, l->params[i].name, l->params[i].value);
	if (overrides)
		for (int i = 0; i < overrides->n; i++)
			expr_set(env, overrides->v[i].name, overrides->v[i].value);
	expr_set(env, "M", M);
	expr_set(env, "N", N);
	expr_set(env, "K", K);
}

static int eval_key(const lesson *l, const char *key, const char *s, const expr_env *env,
		    long long *out, char *err, int errlen)
{
	char msg[128];
	if (expr_eval(s, env, out, msg, sizeof msg)) {
		snprintf(err, (size_t)errlen, "%s: %s '%s': %s", l->path, key, s, msg);
		return -1;
	}
	return 0;
}

int lesson_launch_for(const lesson *l, const expr_env *env, lesson_launch *out, char *err, int errlen)
{
	long long b[3], t[2], smem, M = 0, N = 0;
	for (int i = 0; i < 3; i++)
		if (eval_key(l, "block", l->block[i], env, &b[i], err, errlen))
			return -1;
	for (int i = 0; i < 2; i++)
		if (eval_key(l, "tile", l->tile[i], env, &t[i], err, errlen))
			return -1;
	if (eval_key(l, "smem", l->smem, env, &smem, err, errlen))
		return -1;
	expr_get(env, "M", &M);
	expr_get(env, "N", &N);
	if (b[0] < 1 || b[1] < 1 || b[2] < 1 || b[0] * b[1] * b[2] > 1024 || t[0] < 1 || t[1] < 1 || smem < 0) {
		snprintf(err, (size_t)errlen, "%s: launch shape out of range: block %lldx%lldx%lld, tile %lldx%lld, smem %lld",
			 l->path, b[0], b[1], b[2], t[0], t[1], smem);
		return -1;
	}
	out->bm = t[0];
	out->bn = t[1];
	out->grid[0] = (unsigned)((N + t[1] - 1) / t[1]);
	out->grid[1] = (unsigned)((M + t[0] - 1) / t[0]);
	out->grid[2] = 1;
	for (int i = 0; i < 3; i++)
		out->block[i] = (unsigned)b[i];
	out->smem = (unsigned)smem;
	out->persistent = l->persistent;
	return lesson_resolve_args(l->args, env, out->args, sizeof out->args, err, errlen);
}

int lesson_resolve_args(const char *spec, const expr_env *env, char *out, size_t outlen, char *err, int errlen)
{
	char buf[LESSON_ARGS], msg[128];
	size_t used = 0;
	util_strlcpy(buf, spec, sizeof buf);
	out[0] = '\0';
	for (char *save = NULL, *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		char word[LESSON_ARGS];
		util_strlcpy(word, tok, sizeof word);
		/* tmap:MATRIX:INNER:OUTER[:SWIZZLE]: the two box sizes may be expressions. */
		if (!strncmp(tok, "tmap:", 5)) {
			char *f[5] = {0}, *save2 = NULL;
			int n = 0;
			for (char *x = strtok_r(tok, ":", &save2); x && n < 5; x = strtok_r(NULL, ":", &save2))
				f[n++] = x;
			long long box[2];
			for (int i = 0; i < 2; i++) {
				if (n < 4 || expr_eval(f[2 + i], env, &box[i], msg, sizeof msg)) {
					snprintf(err, (size_t)errlen, "args '%s': want tmap:MATRIX:INNER:OUTER[:SWIZZLE]%s%s",
						 word, n < 4 ? "" : ": ", n < 4 ? "" : msg);
					return -1;
				}
			}
			snprintf(word, sizeof word, "tmap:%s:%lld:%lld%s%s", f[1], box[0], box[1], n > 4 ? ":" : "",
				 n > 4 ? f[4] : "");
		}
		int w = snprintf(out + used, outlen - used, "%s%s", used ? " " : "", word);
		if (w < 0 || (size_t)w >= outlen - used) {
			snprintf(err, (size_t)errlen, "args '%s': the parameter list is too long", spec);
			return -1;
		}
		used += (size_t)w;
	}
	return 0;
}

/* The `multiple` rule: each of M, N, K with its multiple (at least 1). */
static int size_rule(const lesson *l, const expr_env *env, long long v[3], long long m[3], char *err, int errlen)
{
	static const char *const dims[3] = {"M", "N", "K"};
	for (int i = 0; i < 3; i++) {
		v[i] = 0;
		expr_get(env, dims[i], &v[i]);
		if (eval_key(l, "multiple", l->multiple[i], env, &m[i], err, errlen))
			return -1;
		if (m[i] < 1)
			m[i] = 1;
	}
	return 0;
}

int lesson_nearest_size(const lesson *l, const expr_env *env, long long out[3], char *err, int errlen)
{
	long long v[3], m[3];
	if (size_rule(l, env, v, m, err, errlen))
		return -1;
	for (int i = 0; i < 3; i++) {
		out[i] = (v[i] + m[i] / 2) / m[i] * m[i];
		if (out[i] < m[i])
			out[i] = m[i];
	}
	return 0;
}

int lesson_check_size(const lesson *l, const expr_env *env, char *err, int errlen)
{
	long long v[3], m[3], near[3];
	if (size_rule(l, env, v, m, err, errlen) || lesson_nearest_size(l, env, near, err, errlen))
		return -1;
	if (v[0] % m[0] == 0 && v[1] % m[1] == 0 && v[2] % m[2] == 0)
		return 0;
	snprintf(err, (size_t)errlen,
		 "lesson %d (%s) needs M a multiple of %lld, N of %lld and K of %lld; "
		 "%lldx%lldx%lld is not; the nearest valid size is --size %lld,%lld,%lld",
		 l->number, l->id, m[0], m[1], m[2], v[0], v[1], v[2], near[0], near[1], near[2]);
	return -1;
}

/* Appends one problem to errs. */
static void note(char *errs, int errlen, const char *path, int line, const char *fmt, const char *what)
{
	size_t used = strlen(errs);
	if ((int)used >= errlen - 1)
		return;
	int n = snprintf(errs + used, (size_t)errlen - used, "%s:%d: ", path, line);
	if (n > 0 && (int)(used + (size_t)n) < errlen) {
		used += (size_t)n;
		snprintf(errs + used, (size_t)errlen - used, fmt, what);
		used = strlen(errs);
		if ((int)used < errlen - 1) {
			errs[used] = '\n';
			errs[used + 1] = '\0';
		}
	}
}

/* Checks the {placeholders} of one text; line is where the text starts. */
static int check_placeholders(const char *path, int line, const char *s, int (*known)(const char *),
			      char *errs, int errlen)
{
	int problems = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '\n')
			line++;
		if (*p != '{' || (p > s && p[-1] == '\\'))
			continue;
		size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
		if (n == 0 || p[1 + n] != '}')
			continue;
		char key[64];
		util_strlcpy(key, p + 1, n + 1 < sizeof key ? n + 1 : sizeof key);
		if (!known(key)) {
			note(errs, errlen, path, line, "unknown placeholder {%s}", key);
			problems++;
		}
	}
	return problems;
}

static int region_exists(const char *ptx, const char *name)
{
	ptx_regions rs;
	ptx_regions_scan(ptx, &rs);
	return ptx_regions_find(&rs, name) != NULL;
}

int lesson_validate(const lesson *l, int (*known)(const char *key), char *errs, int errlen)
{
	int problems = 0;
	char *ptx = NULL;
	errs[0] = '\0';
	if (l->ptx_path[0]) {
		char full[1024], err[300];
		util_path(full, sizeof full, l->ptx_path);
		ptx = util_read_file(full, NULL, err, sizeof err);
		if (!ptx) {
			note(errs, errlen, l->path, 1, "kernel: %s", err);
			problems++;
		} else if (!strstr(ptx, l->entry)) {
			note(errs, errlen, l->path, 1, "kernel entry '%s' is not in the PTX file", l->entry);
			problems++;
		}
	}
	for (int i = 0; i < l->npages; i++) {
		const lesson_page *pg = &l->pages[i];
		for (int a = 0; a < pg->nanchors; a++)
			if (!ptx || !region_exists(ptx, pg->anchors[a])) {
				note(errs, errlen, l->path, pg->line, "unknown @ptx anchor '%s'", pg->anchors[a]);
				problems++;
			}
		problems += check_placeholders(l->path, pg->line + 1, pg->text, known, errs, errlen);
		for (int e = 0; e < pg->nex; e++) {
			const lesson_exercise *ex = &pg->ex[e];
			if (!known(ex->key)) {
				note(errs, errlen, l->path, ex->line, "exercise answer key '%s' is not a model value", ex->key);
				problems++;
			}
			for (int v = 0; v < ex->overrides.n; v++) {
				int found = 0;
				for (int j = 0; j < l->nparams; j++)
					found |= !strcmp(l->params[j].name, ex->overrides.v[v].name);
				if (!found) {
					note(errs, errlen, l->path, ex->line, "exercise sets '%s', which is not a lesson param",
					     ex->overrides.v[v].name);
					problems++;
				}
			}
			problems += check_placeholders(l->path, ex->line, ex->question, known, errs, errlen);
			problems += check_placeholders(l->path, ex->line, ex->answer, known, errs, errlen);
		}
	}
	free(ptx);
	return problems;
}

int course_validate(course *c, int (*known)(const char *key), char *errs, int errlen)
{
	int dropped = 0;
	for (int i = 0; i < c->n;) {
		char msgs[2048];
		if (lesson_validate(&c->l[i], known, msgs, sizeof msgs) == 0) {
			i++;
			continue;
		}
		if (errs) {
			size_t used = strlen(errs);
			snprintf(errs + used, (size_t)errlen - used, "%s", msgs);
		}
		lesson_free(&c->l[i]);
		memmove(&c->l[i], &c->l[i + 1], (size_t)(c->n - i - 1) * sizeof c->l[0]);
		c->n--;
		dropped++;
	}
	return dropped;
}
