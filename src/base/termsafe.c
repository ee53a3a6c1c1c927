/* termsafe: control bytes, C1 and invalid UTF-8 written visibly as \xHH, so that text from a file (a PTX token, a lesson title, a tool's output) can never move the cursor, retitle the window or recolour a verdict; and the stream that applies it to everything the CLI writes. */
#define _GNU_SOURCE /* fopencookie */
#include "base/termsafe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int termsafe_utf8_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned c = p[0];
	size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	if (len <= 1)
		return (int)len;
	unsigned cp = c & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if (i >= n)
			return -1;
		if ((p[i] & 0xc0) != 0x80) /* also stops at a terminating NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return (int)len;
}

/* Escapes s[0..n) into out (cap bytes, at least 16: a unit is at most four
 * bytes, each \xHH) until one of them runs out; *used gets the bytes of s
 * taken. With more to come (!last) it stops before a sequence cut short at
 * the end. No allocation: the stream below runs in the out-of-memory message. */
static size_t escape_into(const char *s, size_t n, int last, char *out, size_t cap, size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0;
	while (i < n && o + 16 <= cap) {
		int len = p[i] < 0x80 ? 1 : termsafe_utf8_len(s + i, n - i);
		if (len < 0 && !last)
			break;
		int c0 = len == 1 && ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') || p[i] == 0x7f);
		int c1 = len == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0;
		size_t k = len > 0 ? (size_t)len : 1; /* invalid UTF-8: one byte at a time */
		if (len > 0 && !c0 && !c1) {
			memcpy(out + o, s + i, k);
			o += k;
		} else {
			for (size_t j = i; j < i + k; j++) {
				out[o++] = '\\', out[o++] = 'x';
				out[o++] = hex[p[j] >> 4], out[o++] = hex[p[j] & 15];
			}
		}
		i += k;
	}
	*used = i;
	return o;
}

size_t termsafe_escape(strbuf *out, const char *s, size_t n, int last)
{
	char piece[256];
	size_t done = 0, used;
	while (done < n) {
		size_t o = escape_into(s + done, n - done, last, piece, sizeof piece, &used);
		sb_appendn(out, piece, o);
		if (!used)
			break;
		done += used;
	}
	return done;
}

/* s[0..n) to fd as it is. Returns 0 or -1 with errno. */
static int write_raw(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

void termsafe_progress(const char *fmt, ...)
{
	strbuf text = {0}, line = {0};
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		sb_vprintf(&text, fmt, ap);
		va_end(ap);
	}
	sb_append(&line, "\r");
	termsafe_escape(&line, text.data ? text.data : "", text.len, 1);
	sb_append(&line, "\033[K");
	fflush(stderr); /* what went before comes first */
	write_raw(STDERR_FILENO, line.data, line.len);
	sb_free(&text);
	sb_free(&line);
}

/* ---- the stream ---- */

typedef struct {
	int fd;
	FILE *f;
	char held[4]; /* a UTF-8 sequence cut short by the end of the last write */
	size_t nheld;
} sink;

/* stdout and stderr; a few more would do as well. */
#define MAX_SINKS 4
static sink *sinks[MAX_SINKS];
static int nsinks;

/* s[0..n) escaped to k's descriptor; returns the bytes used (all but a
 * sequence cut short at the end, unless last), or -1 after a failed write. */
static long put_escaped(const sink *k, const char *s, size_t n, int last)
{
	char out[8192];
	size_t done = 0, used;
	while (done < n) {
		size_t o = escape_into(s + done, n - done, last, out, sizeof out, &used);
		if (o && write_raw(k->fd, out, o))
			return -1;
		if (!used)
			break;
		done += used;
	}
	return (long)done;
}

/* The bytes held from the last write, completed from buf, then the rest of
 * buf; a sequence cut short at its end is held for the next one. */
static int sink_put(sink *k, const char *buf, size_t n, int last)
{
	size_t from = 0;
	if (k->nheld) {
		char join[8];
		size_t take = n < 4 ? n : 4; /* enough to finish (or refute) the held sequence */
		memcpy(join, k->held, k->nheld);
		memcpy(join + k->nheld, buf, take);
		long used = put_escaped(k, join, k->nheld + take, last && take == n);
		if (used < 0)
			return -1;
		if ((size_t)used < k->nheld) { /* still cut short: all of buf is in join */
			k->nheld = k->nheld + take - (size_t)used;
			memmove(k->held, join + used, k->nheld);
			return 0;
		}
		from = (size_t)used - k->nheld;
		k->nheld = 0;
	}
	long used = put_escaped(k, buf + from, n - from, last);
	if (used < 0)
		return -1;
	k->nheld = n - from - (size_t)used; /* at most 3: a sequence is at most 4 bytes */
	memcpy(k->held, buf + from + used, k->nheld);
	return 0;
}

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	/* a short count marks the stream's error (ferror), errno as write left it */
	return sink_put(cookie, buf, n, 0) ? -1 : (ssize_t)n;
}

int termsafe_flush(void)
{
	int rc = 0;
	for (int i = 0; i < nsinks; i++) {
		if (fflush(sinks[i]->f) != 0)
			rc = -1;
		if (sinks[i]->nheld && sink_put(sinks[i], "", 0, 1))
			rc = -1;
	}
	return rc;
}

static void flush_at_exit(void)
{
	termsafe_flush();
}

FILE *termsafe_open(int fd, int mode)
{
	if (nsinks == MAX_SINKS)
		return NULL;
	sink *k = xcalloc(1, sizeof *k);
	k->fd = fd;
	cookie_io_functions_t io = {.write = sink_write};
	k->f = fopencookie(k, "w", io);
	if (!k->f) {
		free(k);
		return NULL;
	}
	setvbuf(k->f, NULL, mode, BUFSIZ);
	if (nsinks == 0)
		atexit(flush_at_exit);
	sinks[nsinks++] = k;
	return k->f;
}
