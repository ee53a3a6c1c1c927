/* util: growable strings, whole-file reading and small helpers shared by every module. */
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(size_t n)
{
	fprintf(stderr, "ptxtutor: out of memory (asked for %zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

void *xreallocarray(void *p, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return xrealloc(p, count * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

static void sb_reserve(strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	sb->data = xrealloc(sb->data, cap);
	sb->cap = cap;
}

void sb_appendn(strbuf *sb, const char *s, size_t n)
{
	sb_reserve(sb, n);
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void sb_append(strbuf *sb, const char *s)
{
	sb_appendn(sb, s, strlen(s));
}

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	sb_reserve(sb, (size_t)n);
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void sb_free(strbuf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
}

char *util_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	/* A path from a lesson or the command line may name a FIFO, a device or
	 * a huge file: only regular files, and only up to UTIL_MAX_FILE bytes.
	 * Opened without blocking so that a FIFO with no writer is refused, not
	 * waited on; the check is on what was opened, so no swap in between. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (err)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (err)
			snprintf(err, errlen, "%s: not a regular file", path);
		return NULL;
	}
	FILE *f = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		if (err)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	strbuf sb = {0};
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0 && sb.len <= UTIL_MAX_FILE)
		sb_appendn(&sb, buf, n);
	int bad = ferror(f), big = sb.len > UTIL_MAX_FILE;
	fclose(f);
	if (bad || big) {
		if (err)
			snprintf(err, errlen, big ? "%s: larger than %d MiB" : "%s: read error", path, UTIL_MAX_FILE >> 20);
		sb_free(&sb);
		return NULL;
	}
	if (!sb.data)
		sb_appendn(&sb, "", 0);
	if (len)
		*len = sb.len;
	return sb.data;
}

void util_cutf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void util_strlcpy(char *dst, const char *src, size_t dstlen)
{
	if (!dstlen)
		return;
	size_t n = strlen(src);
	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int util_icontains(const char *h, const char *n)
{
	size_t nl = strlen(n);
	for (; *h; h++)
		if (strncasecmp(h, n, nl) == 0)
			return 1;
	return nl == 0;
}

char *util_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static int has_lessons(const char *dir)
{
	char p[PATH_MAX + 16];
	struct stat st;
	snprintf(p, sizeof p, "%s/lessons", dir);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where `make install` puts the data: the binary in PREFIX/bin, the data in
 * PREFIX/share/ptxtutor. The Makefile passes its PREFIX; the default is make's. */
#ifndef PTXTUTOR_DATADIR
#define PTXTUTOR_DATADIR "/usr/local/share/ptxtutor"
#endif

const char *util_root(void)
{
	static char root[PATH_MAX];
	if (root[0])
		return root;
	const char *env = getenv("PTXTUTOR_ROOT");
	if (env && *env) {
		util_strlcpy(root, env, sizeof root);
		return root;
	}
	/* The binary built at the top of the tree finds the tree next to itself;
	 * an installed one finds ../share/ptxtutor, wherever the prefix was
	 * moved to (DESTDIR, a copied tree); then the prefix it was built for. */
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
	if (slash) {
		*slash = '\0';
		char share[PATH_MAX + 32];
		snprintf(share, sizeof share, "%s/../share/ptxtutor", exe);
		const char *const where[] = {exe, share};
		for (size_t i = 0; i < ARRAY_LEN(where); i++)
			if (has_lessons(where[i]) && strlen(where[i]) < sizeof root) {
				util_strlcpy(root, where[i], sizeof root);
				return root;
			}
	}
	util_strlcpy(root, has_lessons(PTXTUTOR_DATADIR) ? PTXTUTOR_DATADIR : ".", sizeof root);
	return root;
}

void util_path(char *dst, size_t dstlen, const char *rel)
{
	if (rel[0] == '/')
		util_strlcpy(dst, rel, dstlen);
	else
		snprintf(dst, dstlen, "%s/%s", util_root(), rel);
}

int util_mkdir_parents(const char *file)
{
	char path[PATH_MAX];
	util_strlcpy(path, file, sizeof path);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0700);
		*p = '/';
		if (rc < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

double util_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double util_median(double *v, int n)
{
	if (n <= 0)
		return 0.0;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* IEEE half precision, round to nearest even; inf, NaN and subnormals kept. */
uint16_t util_f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000;
	uint32_t exp = (x >> 23) & 0xff;
	uint32_t man = x & 0x7fffff;
	if (exp == 0xff) /* inf or NaN (NaN stays a quiet NaN) */
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
	int e = (int)exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) { /* subnormal half or zero */
		if (e < -10)
			return (uint16_t)sign;
		man |= 0x800000;
		int shift = 14 - e;
		uint32_t h = man >> shift;
		uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = ((uint32_t)e << 10) | (man >> 13);
	uint32_t rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++; /* may carry into the exponent, which rounds up to inf correctly */
	return (uint16_t)(sign | h);
}

float util_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff, x;
	if (exp == 0) {
		if (!man) {
			x = sign;
		} else { /* normalise a subnormal */
			int e = -1;
			do {
				e++;
				man <<= 1;
			} while (!(man & 0x400));
			x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ff) << 13);
		}
	} else if (exp == 31) {
		x = sign | 0x7f800000 | (man << 13);
	} else {
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

uint16_t util_f32_to_bf16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if ((x & 0x7f800000) == 0x7f800000 && (x & 0x7fffff)) /* NaN: keep it a quiet NaN, whatever its payload */
		return (uint16_t)((x >> 16) | 0x40);
	/* Round to nearest even on the 16 bits dropped; a carry out of the
	 * mantissa bumps the exponent, which rounds the largest finite values
	 * up to inf correctly (and inf stays inf: its low bits are zero). */
	uint32_t rem = x & 0xffff, h = x >> 16;
	if (rem > 0x8000 || (rem == 0x8000 && (h & 1)))
		h++;
	return (uint16_t)h;
}

float util_bf16_to_f32(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}
