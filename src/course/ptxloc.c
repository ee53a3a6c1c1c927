/* ptxloc: the CUDA lines nvcc records in PTX (.file / .loc), per PTX line, and the .cu they name. */
#include "course/ptxloc.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static const char *skip_sp(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* A non-negative decimal at *p; -1 when there is none or it does not fit an int. */
static long number(const char **p, const char *end)
{
	*p = skip_sp(*p, end);
	long v = 0;
	const char *s = *p;
	while (*p < end && isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v > INT_MAX)
			return -1;
		(*p)++;
	}
	return *p > s ? v : -1;
}

/* The directive `name` at the start of the line (after blanks), and the rest after it. */
static const char *directive(const char *s, const char *end, const char *name)
{
	size_t n = strlen(name);
	s = skip_sp(s, end);
	if ((size_t)(end - s) <= n || memcmp(s, name, n) || (s[n] != ' ' && s[n] != '\t'))
		return NULL;
	return s + n;
}

/* A header of the CUDA toolkit (wmma's mma.hpp, the intrinsics): a line
 * the student never wrote, so an instruction inlined from one is given the
 * line that called it (`inlined_at`). Code inlined from the student's own
 * files keeps its own line, as Nsight Compute's source view shows it. */
static int toolkit_header(const char *path)
{
	return strstr(path, "/include/") && (strstr(path, "cuda") || !strncmp(path, "/usr/", 5));
}

static int file_index(const ptx_locs *l, long number)
{
	for (int i = 0; i < l->nfiles; i++)
		if (l->numbers[i] == number)
			return i;
	return -1;
}

/* `.file N "path"`: a quoted path with no escapes but \" and \\. */
static void add_file(ptx_locs *l, const char *p, const char *end)
{
	long n = number(&p, end);
	p = skip_sp(p, end);
	if (n < 0 || p >= end || *p != '"' || file_index(l, n) >= 0)
		return;
	p++;
	char *path = xmalloc((size_t)(end - p) + 1);
	size_t k = 0;
	for (; p < end && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		path[k++] = *p;
	}
	path[k] = 0;
	if (p >= end) { /* no closing quote: not a .file we can read */
		free(path);
		return;
	}
	l->files = xreallocarray(l->files, (size_t)l->nfiles + 1, sizeof *l->files);
	l->numbers = xreallocarray(l->numbers, (size_t)l->nfiles + 1, sizeof *l->numbers);
	l->files[l->nfiles] = path;
	l->numbers[l->nfiles++] = (int)n;
}

ptx_locs *ptx_locs_scan(const char *text)
{
	if (!text || !strstr(text, ".loc"))
		return NULL;
	ptx_locs *l = xcalloc(1, sizeof *l);
	int lines = 1;
	for (const char *s = text; *s; s++)
		lines += *s == '\n';
	l->at = xcalloc((size_t)lines + 1, sizeof *l->at);
	l->nlines = lines;
	/* the files first: nvcc writes them after the functions */
	for (const char *s = text; *s;) {
		const char *e = strchr(s, '\n'), *end = e ? e : s + strlen(s), *p;
		if ((p = directive(s, end, ".file")))
			add_file(l, p, end);
		s = e ? e + 1 : end;
	}
	long nums[2] = {-1, 0}; /* the .loc in force: file number, line */
	int depth = 0, ln = 1, any = 0;
	for (const char *s = text; *s; ln++) {
		const char *e = strchr(s, '\n'), *end = e ? e : s + strlen(s), *p;
		if ((p = directive(s, end, ".loc"))) {
			nums[0] = number(&p, end);
			nums[1] = number(&p, end);
			const char *at = strstr(p, "inlined_at"); /* on this line only */
			at = at && at < end ? at : NULL;
			int f = file_index(l, nums[0]);
			if (at && f >= 0 && toolkit_header(l->files[f])) {
				at += 10;
				long inl[2];
				inl[0] = number(&at, end);
				inl[1] = number(&at, end);
				if (inl[0] >= 0 && inl[1] > 0)
					memcpy(nums, inl, sizeof nums);
			}
		} else if (nums[0] >= 0 && nums[1] > 0) {
			int f = file_index(l, nums[0]);
			if (f >= 0) {
				l->at[ln].file = f;
				l->at[ln].line = (int)nums[1];
				any = 1;
			}
		}
		for (const char *q = s; q < end && !(q[0] == '/' && q + 1 < end && q[1] == '/'); q++) {
			depth += *q == '{';
			if (*q == '}' && --depth <= 0) { /* the function ends: its .loc with it */
				depth = 0;
				nums[0] = -1;
			}
		}
		s = e ? e + 1 : end;
	}
	if (!any) {
		ptx_locs_free(l);
		return NULL;
	}
	return l;
}

void ptx_locs_free(ptx_locs *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nfiles; i++)
		free(l->files[i]);
	free(l->files);
	free(l->numbers);
	free(l->at);
	free(l);
}

int ptx_loc_of(const ptx_locs *l, int line, const char **file)
{
	if (!l || line < 1 || line > l->nlines || l->at[line].line <= 0)
		return 0;
	if (file)
		*file = l->files[l->at[line].file];
	return l->at[line].line;
}

int ptx_loc_near(const ptx_locs *l, int line, const char **file)
{
	int at = ptx_loc_of(l, line, file);
	for (int d = 1; !at && d <= PTX_LOC_NEAR; d++)
		at = ptx_loc_of(l, line + d, file);
	for (int d = 1; !at && d <= PTX_LOC_NEAR; d++)
		at = ptx_loc_of(l, line - d, file);
	return at;
}

int ptx_loc_source(const char *recorded, const char *ptx_path, char *buf, size_t len)
{
	if (!recorded || !*recorded)
		return -1;
	if (access(recorded, R_OK) == 0 && strlen(recorded) < len) {
		util_strlcpy(buf, recorded, len);
		return 0;
	}
	const char *base = strrchr(recorded, '/');
	base = base ? base + 1 : recorded;
	const char *slash = ptx_path ? strrchr(ptx_path, '/') : NULL;
	int dir = slash ? (int)(slash - ptx_path) : 0;
	int n = slash ? snprintf(buf, len, "%.*s/%s", dir, ptx_path, base) : snprintf(buf, len, "%s", base);
	return n >= 0 && (size_t)n < len && access(buf, R_OK) == 0 ? 0 : -1;
}

int ptx_loc_text_line(const char *text, int line, char *buf, size_t len)
{
	for (int i = 1; text && *text; i++) {
		const char *e = strchr(text, '\n'), *end = e ? e : text + strlen(text);
		if (i == line) {
			while (text < end && (*text == ' ' || *text == '\t'))
				text++;
			while (end > text && isspace((unsigned char)end[-1]))
				end--;
			size_t n = (size_t)(end - text) < len - 1 ? (size_t)(end - text) : len - 1;
			memcpy(buf, text, n);
			buf[n] = 0;
			return 0;
		}
		if (!e)
			break;
		text = e + 1;
	}
	return -1;
}
