/* state: load, merge and save the last lesson and page and each lesson's progress, as "key value" lines ("read ID HEX", "solved ID HEX", "puzzles ID HEX", "asked ID HEX"); every save is a locked read-merge-replace, so progress from another tutor or the CLI is never lost. */
#include "course/state.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/lines.h"
#include "base/util.h"

/* How long a save waits for another writer's lock: a save takes milliseconds,
 * so a lock held this long belongs to a stuck process, and waiting on would hang. */
#define LOCK_WAIT_S 5.0
/* What a file that cannot be read becomes, at a load and at a save. */
#define KEPT "%s; it is kept as it is, not written over"

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

/* ---- the lessons' progress: an array sorted by id ---- */

void state_free(state_data *s)
{
	for (int i = 0; i < s->nprog; i++)
		free(s->prog[i].id);
	free(s->prog);
	s->prog = NULL;
	s->nprog = s->cap = 0;
}

/* The index of id, or -(insertion point) - 1. */
static int search(const state_data *s, const char *id)
{
	int lo = 0, hi = s->nprog;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(s->prog[mid].id, id);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -lo - 1;
}

static void grow(state_data *s)
{
	if (s->nprog == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->prog = xreallocarray(s->prog, (size_t)s->cap, sizeof *s->prog);
	}
}

const state_progress *state_progress_find(const state_data *s, const char *id)
{
	int i = search(s, id);
	return i >= 0 ? &s->prog[i] : NULL;
}

state_progress *state_progress_get(state_data *s, const char *id)
{
	int i = search(s, id);
	if (i >= 0)
		return &s->prog[i];
	i = -i - 1;
	grow(s);
	memmove(&s->prog[i + 1], &s->prog[i], (size_t)(s->nprog - i) * sizeof *s->prog);
	s->nprog++;
	state_progress *p = &s->prog[i];
	memset(p, 0, sizeof *p);
	p->id = xstrdup(id);
	return p;
}

static void or_into(state_progress *into, const state_progress *from)
{
	into->read |= from->read;
	into->solved |= from->solved;
	into->puzzles |= from->puzzles;
	into->asked |= from->asked;
}

static int by_id(const void *a, const void *b)
{
	return strcmp(((const state_progress *)a)->id, ((const state_progress *)b)->id);
}

/* Sorts what parsing appended and ORs together the lines of one lesson:
 * n log n, so a large hostile file costs no quadratic time. */
static void normalise(state_data *s)
{
	if (s->nprog > 1)
		qsort(s->prog, (size_t)s->nprog, sizeof *s->prog, by_id);
	int n = 0;
	for (int i = 0; i < s->nprog; i++) {
		if (n > 0 && !strcmp(s->prog[n - 1].id, s->prog[i].id)) {
			or_into(&s->prog[n - 1], &s->prog[i]);
			free(s->prog[i].id);
		} else {
			s->prog[n++] = s->prog[i];
		}
	}
	s->nprog = n;
}

void state_copy(state_data *dst, const state_data *src)
{
	*dst = *src;
	dst->prog = NULL;
	dst->nprog = dst->cap = 0;
	for (int i = 0; i < src->nprog; i++) {
		grow(dst);
		dst->prog[dst->nprog] = src->prog[i];
		dst->prog[dst->nprog++].id = xstrdup(src->prog[i].id);
	}
}

void state_merge(state_data *into, const state_data *from)
{
	for (int i = 0; i < from->nprog; i++)
		or_into(state_progress_get(into, from->prog[i].id), &from->prog[i]);
	if (from->lesson[0]) {
		util_strlcpy(into->lesson, from->lesson, sizeof into->lesson);
		into->page = from->page;
	}
}

void state_diff(state_data *out, const state_data *now, const state_data *base)
{
	memset(out, 0, sizeof *out);
	util_strlcpy(out->lesson, now->lesson, sizeof out->lesson);
	out->page = now->page;
	for (int i = 0; i < now->nprog; i++) {
		const state_progress *p = &now->prog[i], *b = state_progress_find(base, p->id);
		state_progress d = {.read = p->read, .solved = p->solved, .puzzles = p->puzzles, .asked = p->asked};
		if (b)
			d.read &= ~b->read, d.solved &= ~b->solved, d.puzzles &= ~b->puzzles, d.asked &= ~b->asked;
		if (d.read | d.solved | d.puzzles | d.asked)
			or_into(state_progress_get(out, p->id), &d);
	}
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

/* ---- the file's text ---- */

/* "ID HEX" after read, solved, puzzles or asked; a line that does not parse is skipped. */
static void progress_line(state_data *s, const char *key, char *val)
{
	char *sp = strchr(val, ' ');
	if (!sp)
		return;
	*sp = '\0';
	char *end;
	unsigned long long bits = strtoull(sp + 1, &end, 16);
	if (end == sp + 1 || !*val)
		return;
	grow(s); /* appended unsorted; normalise sorts once at the end */
	state_progress *p = &s->prog[s->nprog++];
	memset(p, 0, sizeof *p);
	p->id = xstrdup(val);
	*(!strcmp(key, "read")	   ? &p->read
	  : !strcmp(key, "solved")  ? &p->solved
	  : !strcmp(key, "puzzles") ? &p->puzzles
				    : &p->asked) = bits;
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
	normalise(s);
	return s->lesson[0] ? 0 : -1;
}

/* The file at path into *text (NULL when there is none). Returns 0, or -1
 * with why in why: it exists but is no regular file, is too big, or cannot
 * be read. Opened non-blocking, so a FIFO is refused instead of waited on. */
static int read_state(const char *path, char **text, struct stat *st, char *why, size_t len)
{
	*text = NULL;
	memset(st, 0, sizeof *st);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	const char *bad = NULL, *too_big = "larger than 1 MiB, not a ptxtutor state file";
	char *buf = NULL;
	if (fstat(fd, st) < 0)
		bad = strerror(errno);
	else if (!S_ISREG(st->st_mode))
		bad = "not a regular file";
	else if (st->st_size > STATE_MAX_BYTES)
		bad = too_big;
	size_t n = 0;
	if (!bad) {
		buf = xmalloc(STATE_MAX_BYTES + 2);
		while (n <= STATE_MAX_BYTES) {
			ssize_t r = read(fd, buf + n, STATE_MAX_BYTES + 1 - n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				bad = strerror(errno);
			if (r <= 0)
				break;
			n += (size_t)r;
		}
		if (!bad && n > STATE_MAX_BYTES) /* it grew since fstat */
			bad = too_big;
		else if (!bad && memchr(buf, '\0', n))
			bad = "not a text file (it holds a NUL byte)";
	}
	close(fd);
	if (bad) {
		free(buf);
		snprintf(why, len, "%s: %s", path, bad);
		return -1;
	}
	buf[n] = '\0';
	*text = buf;
	return 0;
}

int state_load(state_data *s)
{
	char path[PATH_MAX], *text, why[sizeof s->kept - 64] = "";
	struct stat st;
	memset(s, 0, sizeof *s);
	if (state_path(path, sizeof path) < 0)
		return -1;
	if (read_state(path, &text, &st, why, sizeof why) < 0) {
		snprintf(s->kept, sizeof s->kept, KEPT, why);
		return -1;
	}
	int rc = state_parse(text ? text : "", s);
	free(text);
	return rc;
}

/* The file a write replaces: path, or the end of its chain of symbolic links,
 * so that a link (into a dotfiles folder, say) stays a link. */
static int resolve_links(const char *path, char *out, size_t len)
{
	char cur[PATH_MAX], link[PATH_MAX];
	util_strlcpy(cur, path, sizeof cur);
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode)) {
			util_strlcpy(out, cur, len);
			return strlen(cur) < len ? 0 : -1;
		}
		ssize_t n = readlink(cur, link, sizeof link - 1);
		if (n < 0)
			return -1;
		link[n] = '\0';
		char *slash = strrchr(cur, '/');
		if (link[0] != '/' && slash) { /* relative to the link's own folder */
			slash[1] = '\0';
			if (strlen(cur) + (size_t)n >= sizeof cur)
				return -1;
			strcat(cur, link);
		} else {
			util_strlcpy(cur, link, sizeof cur);
		}
	}
	errno = ELOOP;
	return -1;
}

/* An exclusive lock on path's lock file ("state.lock" beside it), waited for at
 * most LOCK_WAIT_S. Returns its fd (closing it unlocks), or -1 with why in err. */
static int lock_beside(const char *path, char *err, int errlen)
{
	char lock[PATH_MAX + 8];
	snprintf(lock, sizeof lock, "%s.lock", path);
	int fd = open(lock, O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, (size_t)errlen, "%s: %s", lock, strerror(errno));
		return -1;
	}
	double until = util_now() + LOCK_WAIT_S;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return fd; /* no locks here (some network file systems): the rename is still atomic */
		if (util_now() > until) {
			snprintf(err, (size_t)errlen, "%s: another ptxtutor has held it for %.0f s", lock, LOCK_WAIT_S);
			close(fd);
			return -1;
		}
		nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
	}
	return fd;
}

static void format(const state_data *s, strbuf *sb)
{
	if (s->lesson[0]) /* none yet when `puzzle --check` writes first */
		sb_printf(sb, "lesson %s\npage %d\n", s->lesson, s->page);
	for (int i = 0; i < s->nprog; i++) {
		const state_progress *p = &s->prog[i];
		const struct {
			const char *key;
			unsigned long long bits;
		} sets[] = {{"read", p->read}, {"solved", p->solved}, {"puzzles", p->puzzles}, {"asked", p->asked}};
		for (size_t k = 0; k < ARRAY_LEN(sets); k++)
			if (sets[k].bits)
				sb_printf(sb, "%s %s %llx\n", sets[k].key, p->id, sets[k].bits);
	}
}

/* Replaces target by text: a temporary file beside it, synced, renamed over
 * it, the folder synced. Keeps the old file's permissions. */
static int replace(const char *target, const strbuf *text, const struct stat *old, char *err, int errlen)
{
	char tmp[PATH_MAX + 16];
	snprintf(tmp, sizeof tmp, "%s.XXXXXX", target);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, (size_t)errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	int bad = old->st_mode && fchmod(fd, old->st_mode & 07777) < 0;
	for (size_t n = 0; !bad && n < text->len;) {
		ssize_t w = write(fd, text->data + n, text->len - n);
		if (w < 0 && errno != EINTR)
			bad = 1;
		n += w > 0 ? (size_t)w : 0;
	}
	bad = bad || fsync(fd) < 0;
	int e = errno;
	bad = close(fd) < 0 || bad;
	if (bad || rename(tmp, target) < 0) {
		snprintf(err, (size_t)errlen, "%s: %s", target, strerror(bad ? e : errno));
		unlink(tmp);
		return -1;
	}
	char dir[PATH_MAX];
	util_strlcpy(dir, target, sizeof dir);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*(slash == dir ? slash + 1 : slash) = '\0';
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) { /* the rename is durable; a file system that cannot sync a folder has no more to do */
			fsync(dfd);
			close(dfd);
		}
	}
	return 0;
}

int state_save(const state_data *changes, char *err, int errlen)
{
	char path[PATH_MAX], target[PATH_MAX];
	if (state_path(path, sizeof path) < 0) {
		snprintf(err, (size_t)errlen, "neither XDG_STATE_HOME nor HOME is set");
		return -1;
	}
	if (util_mkdir_parents(path) < 0) {
		snprintf(err, (size_t)errlen, "cannot create the folder for %s: %s", path, strerror(errno));
		return -1;
	}
	if (resolve_links(path, target, sizeof target) < 0) {
		snprintf(err, (size_t)errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int lock = lock_beside(target, err, errlen);
	if (lock < 0)
		return -1;
	char *text, why[400];
	struct stat old;
	int rc = -1;
	if (read_state(target, &text, &old, why, sizeof why) < 0) {
		snprintf(err, (size_t)errlen, KEPT, why);
	} else {
		state_data disk;
		state_parse(text ? text : "", &disk);
		state_merge(&disk, changes);
		strbuf sb = {0};
		format(&disk, &sb);
		rc = replace(target, &sb, &old, err, errlen);
		sb_free(&sb);
		state_free(&disk);
		free(text);
	}
	close(lock);
	return rc;
}
