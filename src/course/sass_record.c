/* sass_record: assets/sass/NN.sass read and written (a key table for the header, nvdisasm's text after it) and the check that a recording still belongs to the lesson's PTX (its hash), arch and entry. */
#include "course/sass_record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/util.h"
#include "course/sass_tools.h"

#define FORMAT_VERSION 1

typedef enum { F_VERSION, F_INT, F_STR, F_HASH } field_type;

/* The header's keys in the order they are written; each lands in the record
 * (in_kernel 0) or in the kernel (1) at off. */
static const struct {
	const char *key;
	field_type type;
	int in_kernel;
	size_t off, size;
	int required;
} fields[] = {
	{"recorded-sass", F_VERSION, 0, 0, 0, 1},
	{"lesson", F_INT, 0, offsetof(sass_record, lesson), sizeof(int), 1},
	{"ptx", F_STR, 0, offsetof(sass_record, ptx), sizeof(((sass_record *)0)->ptx), 1},
	{"ptx-fnv1a64", F_HASH, 0, offsetof(sass_record, hash), sizeof(uint64_t), 1},
	{"entry", F_STR, 1, offsetof(sass_kernel, entry), sizeof(((sass_kernel *)0)->entry), 1},
	{"arch", F_STR, 1, offsetof(sass_kernel, arch), sizeof(((sass_kernel *)0)->arch), 1},
	{"gpu", F_STR, 1, offsetof(sass_kernel, gpu), sizeof(((sass_kernel *)0)->gpu), 0},
	{"compiler", F_STR, 1, offsetof(sass_kernel, compiler), sizeof(((sass_kernel *)0)->compiler), 1},
	{"disassembler", F_STR, 1, offsetof(sass_kernel, disassembler), sizeof(((sass_kernel *)0)->disassembler), 1},
	{"tools", F_STR, 1, offsetof(sass_kernel, tools), sizeof(((sass_kernel *)0)->tools), 0},
	{"registers", F_INT, 1, offsetof(sass_kernel, regs), sizeof(int), 0},
	{"stack", F_INT, 1, offsetof(sass_kernel, stack), sizeof(int), 0},
	{"spill-stores", F_INT, 1, offsetof(sass_kernel, spill_stores), sizeof(int), 0},
	{"spill-loads", F_INT, 1, offsetof(sass_kernel, spill_loads), sizeof(int), 0},
	{"date", F_STR, 1, offsetof(sass_kernel, recorded_date), sizeof(((sass_kernel *)0)->recorded_date), 1},
	{"command", F_STR, 1, offsetof(sass_kernel, recorded_by), sizeof(((sass_kernel *)0)->recorded_by), 1},
};

void sass_record_rel(int lesson, char *buf, size_t len)
{
	snprintf(buf, len, SASS_RECORD_DIR "/%02d.sass", lesson);
}

void sass_record_beside(const char *ptx_path, char *buf, size_t len)
{
	size_t n = strlen(ptx_path);
	if (n > 4 && !strcmp(ptx_path + n - 4, ".ptx"))
		n -= 4;
	snprintf(buf, len, "%.*s.sass", (int)n, ptx_path);
}

int sass_record_hash_file(const char *path, uint64_t *h, char *err, size_t errlen)
{
	size_t n;
	char *text = util_read_file(path, &n, err, errlen);
	if (!text)
		return -1;
	*h = hash_fnv1a64(text, n);
	free(text);
	return 0;
}

/* Stores one header value; returns 0, or -1 when it does not read as its type. */
static int store(int f, const char *v, sass_record *r, sass_kernel *k)
{
	char *base = fields[f].in_kernel ? (char *)k : (char *)r;
	char *end;
	switch (fields[f].type) {
	case F_VERSION:
		return strcmp(v, "1") ? -1 : 0;
	case F_INT: {
		errno = 0;
		long x = strtol(v, &end, 10);
		if (!*v || *end || errno || x < -1 || x > 1 << 20)
			return -1;
		*(int *)(base + fields[f].off) = (int)x;
		return 0;
	}
	case F_STR:
		if (!*v || strlen(v) >= fields[f].size)
			return -1;
		util_strlcpy(base + fields[f].off, v, fields[f].size);
		return 0;
	case F_HASH:
		return hash_parse_hex(v, (uint64_t *)(base + fields[f].off));
	}
	return -1;
}

/* The line at p without its end (CRLF read as LF) into buf; returns the next line's start. */
static const char *take_line(const char *p, char *buf, size_t cap)
{
	size_t len = strcspn(p, "\n"), n = len < cap - 1 ? len : cap - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\r')
		buf[n - 1] = '\0';
	return p + len + (p[len] == '\n');
}

/* Reads the header: returns the body's start, or NULL with err. */
static const char *read_header(const char *text, const char *file, sass_record *r, sass_kernel *k, int *line,
			       char *err, size_t errlen)
{
	int seen[ARRAY_LEN(fields)] = {0};
	char buf[512];
	const char *p = take_line(text, buf, sizeof buf);
	*line = 1;
	if (strcmp(buf, "---")) {
		snprintf(err, errlen, "%s:1: not a recorded SASS file (its first line is not '---')", file);
		return NULL;
	}
	for (;;) {
		if (!*p) {
			snprintf(err, errlen, "%s:%d: the header has no end ('---')", file, *line);
			return NULL;
		}
		p = take_line(p, buf, sizeof buf);
		++*line;
		if (!strcmp(buf, "---"))
			break;
		char *colon = strchr(buf, ':');
		if (!colon) {
			snprintf(err, errlen, "%s:%d: a header line is 'key: value'", file, *line);
			return NULL;
		}
		*colon = '\0';
		char *v = util_trim(colon + 1);
		size_t f = 0;
		while (f < ARRAY_LEN(fields) && strcmp(fields[f].key, buf))
			f++;
		if (f == ARRAY_LEN(fields)) {
			snprintf(err, errlen, "%s:%d: unknown key '%.40s'", file, *line, buf);
			return NULL;
		}
		if (seen[f]++) {
			snprintf(err, errlen, "%s:%d: '%s' twice", file, *line, fields[f].key);
			return NULL;
		}
		if (store((int)f, v, r, k) < 0) {
			snprintf(err, errlen, "%s:%d: bad %s '%.60s'%s", file, *line, fields[f].key, v,
				 fields[f].type == F_VERSION ? " (this ptxtutor reads format 1)" : "");
			return NULL;
		}
	}
	for (size_t f = 0; f < ARRAY_LEN(fields); f++)
		if (fields[f].required && !seen[f]) {
			snprintf(err, errlen, "%s:%d: the header has no '%s'", file, *line, fields[f].key);
			return NULL;
		}
	return p;
}

int sass_record_parse(const char *text, const char *file, sass_record *r, sass_kernel *k, char *err,
		      size_t errlen)
{
	*r = (sass_record){0};
	sass_kernel_init(k, "");
	int line;
	const char *body = read_header(text, file, r, k, &line, err, errlen);
	if (!body)
		return -1;
	char e[200];
	if (sass_parse_disasm(body, k->entry, k, e, sizeof e) < 0) {
		snprintf(err, errlen, "%s:%d: %s", file, line + 1, e);
		sass_kernel_free(k);
		return -1;
	}
	return 0;
}

/* The disassembly into sb with each line info's path to the PTX ("//## File
 * \"/home/me/ptxtutor/ptx/01_naive.ptx\", line 31") written as the
 * project-relative one the header names: a recording carries no trace of
 * the machine that made it, and reads the same wherever the project lies. */
static void append_relative(strbuf *sb, const char *disasm, const char *ptx)
{
	static const char mark[] = "//## File \"";
	size_t plen = strlen(ptx);
	for (const char *p = disasm; *p;) {
		const char *m = strstr(p, mark);
		if (!m) {
			sb_append(sb, p);
			return;
		}
		const char *path = m + sizeof mark - 1, *q = strchr(path, '"'), *nl = strchr(path, '\n');
		size_t n = q && (!nl || q < nl) ? (size_t)(q - path) : 0;
		int ours = plen && n >= plen && !memcmp(path + n - plen, ptx, plen) && (n == plen || path[n - plen - 1] == '/');
		sb_appendn(sb, p, (size_t)(path - p));
		if (ours)
			sb_append(sb, ptx);
		else
			sb_appendn(sb, path, n);
		p = path + n;
	}
}

char *sass_record_format(const sass_record *r, const sass_kernel *k, const char *disasm)
{
	strbuf sb = {0};
	sb_append(&sb, "---\n");
	for (size_t f = 0; f < ARRAY_LEN(fields); f++) {
		const char *base = fields[f].in_kernel ? (const char *)k : (const char *)r;
		const void *at = base + fields[f].off;
		char hex[17];
		switch (fields[f].type) {
		case F_VERSION:
			sb_printf(&sb, "%s: %d\n", fields[f].key, FORMAT_VERSION);
			break;
		case F_INT:
			sb_printf(&sb, "%s: %d\n", fields[f].key, *(const int *)at);
			break;
		case F_STR:
			/* An unknown optional text is left out rather than written empty. */
			if (*(const char *)at || fields[f].required)
				sb_printf(&sb, "%s: %s\n", fields[f].key, (const char *)at);
			break;
		case F_HASH:
			hash_hex(*(const uint64_t *)at, hex);
			sb_printf(&sb, "%s: %s\n", fields[f].key, hex);
			break;
		}
	}
	sb_append(&sb, "---\n");
	append_relative(&sb, disasm, r->ptx);
	return sb.data;
}

int sass_record_check(const char *text, const char *file, int lesson, const char *ptx_path, const char *entry,
		      const char *arch, sass_kernel *k, char *why, size_t len)
{
	sass_record r;
	if (sass_record_parse(text, file, &r, k, why, len) < 0) {
		sass_kernel_init(k, entry);
		return -1;
	}
	uint64_t h;
	char e[300];
	if (r.lesson != lesson && r.lesson == SASS_RECORD_FILE)
		snprintf(why, len, "%s is a PTX file's recording, not lesson %d's", file, lesson);
	else if (r.lesson != lesson)
		snprintf(why, len, "%s is a recording of lesson %d", file, r.lesson);
	else if (strcmp(k->entry, entry))
		snprintf(why, len, "%s is a recording of %s, not %s", file, k->entry, entry);
	else if (sass_record_hash_file(ptx_path, &h, e, sizeof e) < 0)
		snprintf(why, len, "%s", e);
	else if (h != r.hash)
		snprintf(why, len, "the PTX changed since it was recorded (%s); run %s", file,
			 lesson == SASS_RECORD_FILE ? "ptxtutor sass --ptx FILE --entry NAME --record again" : "scripts/gpu-sass.sh --record");
	else if (strcmp(k->arch, arch))
		snprintf(why, len, "%s is for %s, not %s", file, k->arch, arch);
	else
		return 0;
	sass_kernel_free(k);
	sass_kernel_init(k, entry);
	return -1;
}

int sass_record_use(int lesson, const char *ptx_path, const char *entry, const char *arch, sass_kernel *k,
		    char *why, size_t len)
{
	char rel[600], file[600];
	if (lesson == SASS_RECORD_FILE) {
		sass_record_beside(ptx_path, rel, sizeof rel);
		util_strlcpy(file, rel, sizeof file);
	} else {
		sass_record_rel(lesson, rel, sizeof rel);
		util_path(file, sizeof file, rel);
	}
	sass_kernel_init(k, entry);
	char *text = util_read_file(file, NULL, NULL, 0);
	if (!text) {
		/* None yet: only a GPU machine with the toolkit makes one. */
		if (lesson == SASS_RECORD_FILE)
			snprintf(why, len, "no recording beside the PTX file (%s: `ptxtutor sass --ptx FILE --entry NAME "
				 "--record %s` makes it)", rel, rel);
		else
			snprintf(why, len, "no recording of lesson %d (%s: scripts/gpu-sass.sh --record makes it)", lesson, rel);
		return -1;
	}
	int rc = sass_record_check(text, rel, lesson, ptx_path, entry, arch, k, why, len);
	free(text);
	return rc;
}

void sass_record_label(const sass_kernel *k, char *buf, size_t len)
{
	snprintf(buf, len, "recorded SASS (%s + %s, %s, %s, %s): not compiled here", k->compiler, k->disassembler,
		 k->arch, k->recorded_date, k->recorded_by);
}

void sass_record_missing(const char *why, char *err, size_t len)
{
	snprintf(err, len, "%s; no recorded copy applies: %s", sass_missing_line(), why);
}
