/* userptx: user copies of lesson PTX, a line diff against the shipped file, and the error lines in JIT and emulator logs. */
#include "course/userptx.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

int userptx_path(const char *shipped, char *dst, size_t len)
{
	const char *x = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;
	/* XDG says a relative value is invalid and must be ignored. */
	if (x && x[0] == '/')
		n = snprintf(dst, len, "%s/ptxtutor/ptx/%s", x, base_name(shipped));
	else if (home && *home)
		n = snprintf(dst, len, "%s/.local/share/ptxtutor/ptx/%s", home, base_name(shipped));
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int userptx_exists(const char *shipped)
{
	char p[1024];
	return userptx_path(shipped, p, sizeof p) == 0 && access(p, R_OK) == 0;
}

int userptx_create(const char *shipped, const char *copy, char *err, int errlen)
{
	if (access(copy, F_OK) == 0)
		return 0;
	char e[300];
	size_t n;
	char *text = util_read_file(shipped, &n, e, sizeof e);
	if (!text) {
		snprintf(err, (size_t)errlen, "%s", e);
		return -1;
	}
	if (util_mkdir_parents(copy) < 0) {
		snprintf(err, (size_t)errlen, "cannot create the folder for %s: %s", copy, strerror(errno));
		free(text);
		return -1;
	}
	/* Written under a temporary name and renamed: never half a file. */
	char tmp[1100];
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", copy, (long)getpid());
	FILE *f = fopen(tmp, "w");
	int bad = !f;
	if (f) {
		bad |= fwrite(text, 1, n, f) != n;
		bad |= fclose(f) != 0;
	}
	free(text);
	if (bad || rename(tmp, copy) < 0) {
		snprintf(err, (size_t)errlen, "cannot write %s: %s", copy, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int userptx_same(const char *a, const char *b)
{
	size_t na, nb;
	char *ta = util_read_file(a, &na, NULL, 0);
	char *tb = util_read_file(b, &nb, NULL, 0);
	int rc = !ta || !tb ? -1 : na == nb && !memcmp(ta, tb, na);
	free(ta);
	free(tb);
	return rc;
}

int userptx_restore(const char *copy, char *err, int errlen)
{
	char bak[1100];
	snprintf(bak, sizeof bak, "%s~", copy);
	if (rename(copy, bak) < 0 && errno != ENOENT) {
		snprintf(err, (size_t)errlen, "cannot move %s aside: %s", copy, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- what the tutor does with a lesson's copy ---- */

char *userptx_load(const char *shipped, char *path, size_t len, int *edited, char *err, int errlen)
{
	*edited = userptx_exists(shipped) && userptx_path(shipped, path, len) == 0;
	if (!*edited)
		util_path(path, len, shipped);
	return util_read_file(path, NULL, err, errlen < 0 ? 0 : (size_t)errlen);
}

int userptx_edit(const char *shipped, char *copy, size_t len, char *err, int errlen)
{
	if (userptx_path(shipped, copy, len) < 0) {
		snprintf(err, (size_t)errlen, "neither XDG_DATA_HOME nor HOME is set");
		return -1;
	}
	char from[PATH_MAX];
	util_path(from, sizeof from, shipped);
	return userptx_create(from, copy, err, errlen);
}

int userptx_drop_unchanged(const char *shipped, const char *copy)
{
	char from[PATH_MAX];
	util_path(from, sizeof from, shipped);
	return userptx_same(from, copy) == 1 && remove(copy) == 0;
}

/* ---- diff ---- */

typedef struct {
	char **s;
	int n;
} line_set;

/* Splits text (modified in place) into lines. */
static void split(char *text, line_set *ls)
{
	int cap = 64;
	ls->s = xmalloc((size_t)cap * sizeof *ls->s);
	ls->n = 0;
	char *p = text;
	while (*p) {
		if (ls->n == cap) {
			cap *= 2;
			ls->s = xreallocarray(ls->s, (size_t)cap, sizeof *ls->s);
		}
		ls->s[ls->n++] = p;
		char *e = strchr(p, '\n');
		if (!e)
			break;
		*e = '\0';
		p = e + 1;
	}
}

/* The edit script: one entry per line of the merged view. */
typedef struct {
	char kind;
	int a, b; /* 0-based indices into old and new; -1 none */
} step;

/* Above this many DP cells the changed middle is shown as removed then added. */
#define DIFF_MAX_CELLS 4000000L

static int script(const line_set *A, const line_set *B, step **out)
{
	int na = A->n, nb = B->n;
	step *st = xcalloc((size_t)(na + nb + 1), sizeof *st);
	int n = 0, p = 0, s = 0;
	while (p < na && p < nb && !strcmp(A->s[p], B->s[p]))
		p++;
	while (s < na - p && s < nb - p && !strcmp(A->s[na - 1 - s], B->s[nb - 1 - s]))
		s++;
	for (int i = 0; i < p; i++)
		st[n++] = (step){' ', i, i};
	int ma = na - p - s, mb = nb - p - s;
	if ((long)(ma + 1) * (mb + 1) <= DIFF_MAX_CELLS) {
		/* L[i][j]: LCS length of the middles' suffixes from i and j. */
		int w = mb + 1;
		int *L = xcalloc((size_t)(ma + 1) * (size_t)w, sizeof *L);
		for (int i = ma - 1; i >= 0; i--)
			for (int j = mb - 1; j >= 0; j--)
				L[i * w + j] = !strcmp(A->s[p + i], B->s[p + j]) ? L[(i + 1) * w + j + 1] + 1
						: L[(i + 1) * w + j] > L[i * w + j + 1] ? L[(i + 1) * w + j] : L[i * w + j + 1];
		int i = 0, j = 0;
		while (i < ma || j < mb) {
			if (i < ma && j < mb && !strcmp(A->s[p + i], B->s[p + j])) {
				st[n++] = (step){' ', p + i, p + j};
				i++, j++;
			} else if (i < ma && (j == mb || L[(i + 1) * w + j] >= L[i * w + j + 1])) {
				st[n++] = (step){'-', p + i, -1}; /* removals first, as diff -u */
				i++;
			} else {
				st[n++] = (step){'+', -1, p + j};
				j++;
			}
		}
		free(L);
	} else {
		for (int i = 0; i < ma; i++)
			st[n++] = (step){'-', p + i, -1};
		for (int j = 0; j < mb; j++)
			st[n++] = (step){'+', -1, p + j};
	}
	for (int i = 0; i < s; i++)
		st[n++] = (step){' ', na - s + i, nb - s + i};
	*out = st;
	return n;
}

int userptx_diff_make(const char *old, const char *new_text, int context, userptx_diff *d)
{
	memset(d, 0, sizeof *d);
	size_t lo = strlen(old), ln = strlen(new_text);
	d->buf = xmalloc(lo + ln + 2);
	memcpy(d->buf, old, lo + 1);
	memcpy(d->buf + lo + 1, new_text, ln + 1);
	line_set A, B;
	split(d->buf, &A);
	split(d->buf + lo + 1, &B);
	step *st;
	int n = script(&A, &B, &st);
	/* Keep each change and `context` lines either side. */
	char *keep = xcalloc((size_t)n + 1, 1);
	for (int i = 0; i < n; i++) {
		if (st[i].kind == ' ')
			continue;
		d->added += st[i].kind == '+';
		d->removed += st[i].kind == '-';
		for (int k = i - context; k <= i + context; k++)
			if (k >= 0 && k < n)
				keep[k] = 1;
	}
	d->l = xcalloc((size_t)n * 2 + 1, sizeof *d->l);
	/* The hunk headers need their own text: kept after the lines. */
	static const int HDR = 64;
	char *hdrs = xcalloc((size_t)n + 1, (size_t)HDR);
	int nh = 0;
	for (int i = 0; i < n;) {
		if (!keep[i]) {
			i++;
			continue;
		}
		int j = i;
		int oa = 0, ob = 0, ca = 0, cb = 0;
		while (j < n && keep[j]) {
			if (st[j].a >= 0) {
				if (!ca++)
					oa = st[j].a + 1;
			}
			if (st[j].b >= 0) {
				if (!cb++)
					ob = st[j].b + 1;
			}
			j++;
		}
		/* An empty side starts where the other side's context says (diff -u). */
		if (!ca)
			for (int k = i - 1; k >= 0 && !oa; k--)
				if (st[k].a >= 0)
					oa = st[k].a + 1;
		if (!cb)
			for (int k = i - 1; k >= 0 && !ob; k--)
				if (st[k].b >= 0)
					ob = st[k].b + 1;
		char *h = hdrs + (size_t)nh++ * (size_t)HDR;
		snprintf(h, (size_t)HDR, "@@ -%d,%d +%d,%d @@", oa, ca, ob, cb);
		d->l[d->n++] = (userptx_dline){'@', 0, 0, h};
		for (int k = i; k < j; k++)
			d->l[d->n++] = (userptx_dline){st[k].kind, st[k].a + 1, st[k].b + 1,
						       st[k].a >= 0 ? A.s[st[k].a] : B.s[st[k].b]};
		i = j;
	}
	d->hdrs = hdrs;
	free(keep);
	free(st);
	free(A.s);
	free(B.s);
	return 0;
}

void userptx_diff_free(userptx_diff *d)
{
	free(d->l);
	free(d->buf);
	free(d->hdrs);
	memset(d, 0, sizeof *d);
}

int userptx_diff_files(const char *shipped, const char *copy, int context, userptx_diff *d, char *err, int errlen)
{
	char from[PATH_MAX];
	util_path(from, sizeof from, shipped);
	memset(d, 0, sizeof *d);
	size_t elen = errlen < 0 ? 0 : (size_t)errlen;
	char *old = util_read_file(from, NULL, err, elen);
	char *cur = old ? util_read_file(copy, NULL, err, elen) : NULL;
	if (cur)
		userptx_diff_make(old, cur, context, d);
	free(old);
	free(cur);
	return cur ? 0 : -1;
}

int userptx_first_change(const char *shipped, const char *copy)
{
	userptx_diff d;
	if (userptx_diff_files(shipped, copy, 0, &d, NULL, 0) < 0)
		return 0;
	int line = 0;
	for (int i = 0; i < d.n && !line; i++)
		if (d.l[i].kind == '+' || d.l[i].kind == '-')
			line = d.l[i].new_line ? d.l[i].new_line : d.l[i].old_line;
	userptx_diff_free(&d);
	return line;
}

/* ---- where the errors are ---- */

static void add_mark(userptx_mark *out, int *n, int max, int line, int error, const char *msg, size_t len)
{
	while (len && isspace((unsigned char)*msg))
		msg++, len--;
	while (len && isspace((unsigned char)msg[len - 1]))
		len--;
	if (line <= 0 || *n >= max)
		return;
	userptx_mark m = {.line = line, .error = error};
	snprintf(m.msg, sizeof m.msg, "%.*s", (int)(len < sizeof m.msg ? len : sizeof m.msg - 1), msg);
	for (int i = 0; i < *n; i++)
		if (out[i].line == line && !strcmp(out[i].msg, m.msg))
			return;
	out[(*n)++] = m;
}

/* The digits at *q (up to end) as a line number, q moved past them; 0 (no
 * line) when they would not fit an int: a log is text from outside. */
static int read_line(const char **q, const char *end)
{
	long long line = 0;
	while (*q < end && isdigit((unsigned char)**q)) {
		line = line * 10 + (*(*q)++ - '0');
		if (line > INT_MAX)
			line = INT_MAX + 1LL; /* stays too big, never overflows */
	}
	return line > INT_MAX ? 0 : (int)line;
}

/* ptxas and the driver's JIT: "ptxas application ptx input, line 83; error   : text". */
static int jit_mark(const char *s, size_t len, userptx_mark *out, int *n, int max)
{
	const char *end = s + len;
	for (const char *p = s; p + 7 < end; p++) {
		if (strncmp(p, ", line ", 7))
			continue;
		const char *q = p + 7;
		int line = read_line(&q, end);
		if (q + 2 >= end || *q != ';')
			continue;
		q++;
		while (q < end && *q == ' ')
			q++;
		int error;
		if (end - q >= 5 && !strncmp(q, "error", 5))
			error = 1;
		else if (end - q >= 7 && !strncmp(q, "warning", 7))
			error = 0;
		else
			continue;
		const char *c = memchr(q, ':', (size_t)(end - q));
		const char *msg = c ? c + 1 : q;
		add_mark(out, n, max, line, error, msg, (size_t)(end - msg));
		return 1;
	}
	return 0;
}

int userptx_marks(const char *text, userptx_mark *out, int max)
{
	int n = 0;
	if (!text)
		return 0;
	for (const char *s = text; *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		jit_mark(s, len, out, &n, max);
		s += len + (e != NULL);
	}
	return n;
}

char *userptx_read(const char *copy, size_t *len, char *err, int errlen)
{
	return util_read_file(copy, len, err, (size_t)errlen);
}

int userptx_write(const char *copy, const char *text, size_t len, char *err, int errlen)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", copy) >= (int)sizeof tmp) {
		snprintf(err, (size_t)errlen, "%s: path too long", copy);
		return -1;
	}
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, (size_t)errlen, "%s: %s", copy, strerror(errno));
		return -1;
	}
	/* Written aside and renamed over: a crash leaves the old copy or the new, never half. */
	size_t done = 0;
	int ok = fchmod(fd, 0644) == 0;
	while (ok && done < len) {
		ssize_t w = write(fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		done += ok ? (size_t)w : 0;
	}
	ok = ok && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, copy) < 0) {
		snprintf(err, (size_t)errlen, "%s: %s", copy, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
