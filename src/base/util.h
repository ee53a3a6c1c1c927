/* util: growable strings, whole-file reading and small helpers shared by every module. */
#ifndef PTXTUTOR_UTIL_H
#define PTXTUTOR_UTIL_H

#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
	char *data;   /* always NUL-terminated once anything was appended */
	size_t len;
	size_t cap;
} strbuf;

/* Allocation that cannot return NULL: out of memory prints one line and
 * aborts (the tutor's SIGABRT handler gives the terminal back first). Sizes
 * a user can choose (PTX declarations, launch shapes) are checked against
 * limits before they get here; these are for the program's own needs. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* xrealloc of count elements of size bytes, refusing a product that wraps. */
void *xreallocarray(void *p, size_t count, size_t size);
char *xstrdup(const char *s);

void sb_append(strbuf *sb, const char *s);
void sb_appendn(strbuf *sb, const char *s, size_t n);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
void sb_free(strbuf *sb);

/* Reads a whole regular file of at most UTIL_MAX_FILE bytes into a
 * NUL-terminated buffer (caller frees). Returns NULL and fills err (if
 * given) with "PATH: reason" on failure. */
#define UTIL_MAX_FILE (64 << 20)
char *util_read_file(const char *path, size_t *len, char *err, size_t errlen);

/* Copies at most dstlen-1 bytes and always terminates. */
void util_strlcpy(char *dst, const char *src, size_t dstlen);
/* snprintf that is meant to cut (a screen line, a title): no truncation warning at the call. */
void util_cutf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Case-insensitive substring test. */
int util_icontains(const char *haystack, const char *needle);

/* Trims white space at both ends in place; returns s. */
char *util_trim(char *s);

/* The project root: the directory holding lessons/ and ptx/. Found from
 * $PTXTUTOR_ROOT, then the executable's own directory, then the install
 * prefix (../share/ptxtutor next to the binary's bin/, then the PREFIX it
 * was built for), then the current one. */
const char *util_root(void);

/* Joins util_root() and a relative path into dst. */
void util_path(char *dst, size_t dstlen, const char *rel);

/* Creates the folders above a file's path (mkdir -p of its dirname, mode
 * 0700). Returns 0, or -1 with errno set. */
int util_mkdir_parents(const char *file);

/* Monotonic seconds. */
double util_now(void);

/* Median of n doubles (the array is sorted in place). */
double util_median(double *v, int n);

/* f32 <-> IEEE f16 bits (round to nearest even; inf, NaN, subnormals kept). */
uint16_t util_f32_to_f16(float f);
float util_f16_to_f32(uint16_t h);
/* f32 <-> bfloat16 bits: f32's sign and exponent with 7 mantissa bits, so the
 * range is f32's and only the mantissa rounds (to nearest even; inf kept,
 * NaN stays a quiet NaN, subnormals kept). */
uint16_t util_f32_to_bf16(float f);
float util_bf16_to_f32(uint16_t h);

#endif
