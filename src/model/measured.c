/* measured: assets/measured-h100.tsv parsed into rows (GPU, driver, date, command, lesson, size, metric, value, unit) and looked up by placeholder key ({measured.*}, and {sass.*} for the SASS counts). */
#include "model/measured.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lines.h"
#include "base/numfmt.h"
#include "base/util.h"

/* The SASS counts bring some hundreds of rows (a dozen figures per region
 * of each lesson); the cap only stops a runaway file. */
enum { MAX_ROWS = 4096 };

typedef struct {
	char gpu[64], driver[64], date[16], command[128];
	int lesson;
	long long size;
	char metric[64];
	double value;
	const struct unit *unit;
} row;

static row *rows;
static int nrows = -1; /* -1: not loaded yet */
static int cap;

/* The file's columns in order; a row with another count is an error. */
enum { C_GPU, C_DRIVER, C_DATE, C_COMMAND, C_LESSON, C_SIZE, C_METRIC, C_VALUE, C_UNIT, NCOLS };
static const char *const header[NCOLS] = {"gpu", "driver", "date", "command", "lesson", "size", "metric", "value", "unit"};
/* The units a value may carry in the file, and how each is written for people:
 * scaled by `scale`, then after a space as `shown` (numfmt_unit), or right
 * after the number (a suffix), or as a count of every digit. Rates read as
 * TFLOP/s, the unit the lessons and the roofline use. */
typedef enum { UNIT_SPACED, UNIT_SUFFIX, UNIT_COUNT, UNIT_SCI, UNIT_SI } unit_style;
typedef struct unit {
	const char *name, *shown;
	double scale;
	unit_style style;
} unit;
static const unit units[] = {
	{"ms", "ms", 1, UNIT_SPACED},
	{"us", "µs", 1, UNIT_SPACED},
	{"%", "%", 1, UNIT_SUFFIX},
	{"GFLOP/s", "TFLOP/s", 1e-3, UNIT_SPACED},
	{"x", "×", 1, UNIT_SUFFIX},
	{"MB", "MB", 1, UNIT_SPACED},
	{"B", "B", 1, UNIT_SPACED},
	{"count", "", 1, UNIT_COUNT},
	/* a count too large to read digit by digit, written with an SI prefix: 70.9 G */
	{"count-si", "", 1, UNIT_SI},
	/* bytes, with an SI prefix: 18.0 GB */
	{"bytes-si", "B", 1, UNIT_SI},
	{"regs", "regs", 1, UNIT_SPACED},
	/* the sustained pipe rates (ceiling_*, scripts/gpu-ceilings.sh) */
	{"warp-inst/s", "G warp instructions/s", 1e-9, UNIT_SPACED},
	{"wavefronts/s", "G wavefronts/s", 1e-9, UNIT_SPACED},
	{"FLOP/s", "TFLOP/s", 1e-12, UNIT_SPACED},
	{"GB/s", "GB/s", 1, UNIT_SPACED},
	/* board power (power_*, scripts/gpu-power.cu) */
	{"W", "W", 1, UNIT_SPACED},
	/* a relative error (ptxtutor accuracy), written as 2.9e-4 */
	{"rel", "", 1, UNIT_SCI},
	/* clock cycles an instruction takes (scripts/gpu-regbanks.py) */
	{"cycles", "cycles", 1, UNIT_SPACED},
	/* the part of a memory latency in the L2's and DRAM's own clocks (latency_l2_ns, latency_dram_ns) */
	{"ns", "ns", 1, UNIT_SPACED},
	/* a plain number, such as Nsight Compute's stalls per instruction issued */
	{"ratio", "", 1, UNIT_SUFFIX},
};

static const unit *unit_named(const char *name)
{
	for (size_t u = 0; u < ARRAY_LEN(units); u++)
		if (!strcmp(units[u].name, name))
			return &units[u];
	return NULL;
}

/* A metric's characters: lower-case words; a SASS figure's ("sass.inner_loop.LDS128")
 * also dots and the opcode's capitals, as SASS writes them. */
static int metric_ok(const char *m)
{
	const char *allowed = strncmp(m, "sass.", 5) ? "abcdefghijklmnopqrstuvwxyz0123456789_"
						     : "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.";
	return m[0] && strspn(m, allowed) == strlen(m);
}

static int bad(char *err, int errlen, const char *path, int line, const char *what, const char *v)
{
	snprintf(err, (size_t)errlen, "%s:%d: %s '%s'", path, line, what, v);
	nrows = 0;
	return -1;
}

static int parse_row(row *r, char **f, const char *path, int line, char *err, int errlen)
{
	char *end;
	util_strlcpy(r->gpu, f[C_GPU], sizeof r->gpu);
	util_strlcpy(r->driver, f[C_DRIVER], sizeof r->driver);
	util_strlcpy(r->date, f[C_DATE], sizeof r->date);
	util_strlcpy(r->command, f[C_COMMAND], sizeof r->command);
	r->lesson = (int)strtol(f[C_LESSON], &end, 10);
	if (end == f[C_LESSON] || *end || r->lesson < 0 || r->lesson > 99)
		return bad(err, errlen, path, line, "lesson is not a number 0-99:", f[C_LESSON]);
	/* 0: a figure of no problem size (the SASS counts). */
	r->size = strtoll(f[C_SIZE], &end, 10);
	if (end == f[C_SIZE] || *end || r->size < 0)
		return bad(err, errlen, path, line, "size is not an integer >= 0:", f[C_SIZE]);
	if (strlen(f[C_METRIC]) >= sizeof r->metric || !metric_ok(f[C_METRIC]))
		return bad(err, errlen, path, line, "metric is not a lower-case name (or sass.SCOPE.WORD):", f[C_METRIC]);
	util_strlcpy(r->metric, f[C_METRIC], sizeof r->metric);
	r->value = strtod(f[C_VALUE], &end);
	if (end == f[C_VALUE] || *end)
		return bad(err, errlen, path, line, "value is not a number:", f[C_VALUE]);
	r->unit = unit_named(f[C_UNIT]);
	if (!r->unit)
		return bad(err, errlen, path, line, "unknown unit", f[C_UNIT]);
	return 0;
}

int measured_parse(const char *path, const char *text, char *err, int errlen)
{
	lines it;
	int line = 0, have_header = 0;
	nrows = 0;
	lines_init(&it, text);
	for (char *s; (s = lines_next(&it));) {
		line = it.line;
		if (s[0] == '#' || !*util_trim(s))
			continue;
		char *f[NCOLS];
		int n = lines_split_tsv(s, f, NCOLS);
		if (n != NCOLS) {
			char got[16];
			snprintf(got, sizeof got, "%d", n);
			lines_free(&it);
			return bad(err, errlen, path, line, "wrong number of tab-separated fields:", got);
		}
		for (int i = 0; i < n; i++)
			f[i] = util_trim(f[i]);
		if (!have_header) {
			for (int i = 0; i < NCOLS; i++)
				if (strcmp(f[i], header[i])) {
					lines_free(&it);
					return bad(err, errlen, path, line, "the header's columns are gpu driver date command lesson size metric value unit, not", f[i]);
				}
			have_header = 1;
			continue;
		}
		if (nrows >= MAX_ROWS) {
			lines_free(&it);
			return bad(err, errlen, path, line, "too many rows at", f[C_METRIC]);
		}
		if (nrows == cap) {
			cap = cap ? 2 * cap : 256;
			rows = xreallocarray(rows, (size_t)cap, sizeof *rows);
		}
		if (parse_row(&rows[nrows], f, path, line, err, errlen)) {
			lines_free(&it);
			return -1;
		}
		nrows++;
	}
	lines_free(&it);
	if (!have_header)
		return bad(err, errlen, path, line, "no header row", "");
	return nrows;
}

int measured_load(char *err, int errlen)
{
	if (nrows >= 0)
		return nrows;
	char path[512], why[300];
	util_path(path, sizeof path, MEASURED_FILE);
	char *text = util_read_file(path, NULL, why, sizeof why);
	if (!text) {
		snprintf(err, (size_t)errlen, "%s", why);
		nrows = 0;
		return -1;
	}
	int n = measured_parse(MEASURED_FILE, text, err, errlen);
	free(text);
	return n;
}

static void ensure_loaded(void)
{
	char err[300];
	if (nrows < 0 && measured_load(err, sizeof err) < 0)
		fprintf(stderr, "ptxtutor: %s\n", err);
}

/* Splits "measured.L8.tflops" into lesson 8 and "tflops"; "measured.ms"
 * into the default lesson and "ms"; "sass.L5.inner_loop.LDS128" into lesson
 * 5 and the metric "sass.inner_loop.LDS128". Returns 0, or -1 when not a
 * measured key. */
static int split_key(const char *key, int lesson, int *out_lesson, char *metric, size_t len)
{
	int sass = !strncmp(key, "sass.", 5);
	if (strncmp(key, "measured.", 9) && !sass)
		return -1;
	const char *p = key + (sass ? 5 : 9);
	*out_lesson = lesson;
	if (p[0] == 'L' && isdigit((unsigned char)p[1])) {
		char *end;
		*out_lesson = (int)strtol(p + 1, &end, 10);
		if (*end != '.')
			return -1;
		p = end + 1;
	}
	if (!*p || strlen(p) + (sass ? 5 : 0) >= len)
		return -1;
	snprintf(metric, len, "%s%s", sass ? "sass." : "", p);
	/* A SASS figure names a scope and a word: sass.SCOPE.WORD. */
	if (sass) {
		const char *dot = strchr(p, '.');
		if (!dot || dot == p || !dot[1] || strchr(dot + 1, '.'))
			return -1;
	}
	return 0;
}

static const row *find(int lesson, const char *metric)
{
	for (int i = 0; i < nrows; i++)
		if (rows[i].lesson == lesson && !strcmp(rows[i].metric, metric))
			return &rows[i];
	return NULL;
}

static int is_text(const char *metric)
{
	return !strcmp(metric, "gpu") || !strcmp(metric, "driver") || !strcmp(metric, "date") || !strcmp(metric, "command");
}

int measured_known(const char *key)
{
	/* By form only, so that a lesson still loads where the data file is
	 * missing (its figures then read n/a; test_lessons requires them filled). */
	char metric[64];
	int lesson;
	if (split_key(key, 0, &lesson, metric, sizeof metric))
		return 0;
	return metric_ok(metric);
}

int measured_value(int lesson, const char *key, double *out)
{
	char metric[64];
	int l;
	ensure_loaded();
	if (split_key(key, lesson, &l, metric, sizeof metric) || is_text(metric))
		return -1;
	int tflops = !strcmp(metric, "tflops");
	const row *r = find(l, tflops ? "gflops" : metric);
	if (!r)
		return -1;
	*out = tflops ? r->value / 1000 : r->value;
	return 0;
}

void measured_format(int lesson, const char *key, char *buf, int len)
{
	char metric[64];
	int l;
	if (len <= 0)
		return;
	ensure_loaded();
	snprintf(buf, (size_t)len, "n/a");
	if (split_key(key, lesson, &l, metric, sizeof metric))
		return;
	if (is_text(metric)) {
		const row *r = find(l, "ms");
		for (int i = 0; !r && i < nrows; i++)
			if (rows[i].lesson == l)
				r = &rows[i];
		r = r ? r : nrows > 0 ? &rows[0] : NULL;
		if (r)
			snprintf(buf, (size_t)len, "%s", !strcmp(metric, "gpu") ? r->gpu : !strcmp(metric, "driver") ? r->driver
							 : !strcmp(metric, "date")		  ? r->date
												  : r->command);
		return;
	}
	int tflops = !strcmp(metric, "tflops");
	const row *r = find(l, tflops ? "gflops" : metric);
	if (!r)
		return;
	/* measured.tflops is the gflops row read as a rate, whatever its unit says. */
	const unit *u = tflops ? unit_named("GFLOP/s") : r->unit;
	double v = r->value * u->scale;
	char num[48];
	switch (u->style) {
	case UNIT_SUFFIX:
		snprintf(buf, (size_t)len, "%s%s", numfmt_sig(num, sizeof num, v), u->shown);
		break;
	case UNIT_COUNT:
		numfmt_count(buf, (size_t)len, v);
		break;
	case UNIT_SCI: {
		int e = v > 0 ? (int)floor(log10(v)) : 0;
		double m = v > 0 ? v / pow(10, e) : 0;
		if (m >= 9.95) { /* 9.96e-5 prints as 1.0e-4 */
			m /= 10;
			e++;
		}
		snprintf(buf, (size_t)len, "%.1fe%d", m, e);
		break;
	}
	case UNIT_SPACED:
		numfmt_unit(buf, (size_t)len, v, u->shown);
		break;
	case UNIT_SI:
		numfmt_si(buf, (size_t)len, v, u->shown);
		break;
	}
}

int measured_row(int i, measured_info *out)
{
	ensure_loaded();
	if (i < 0 || i >= nrows)
		return -1;
	const row *r = &rows[i];
	*out = (measured_info){r->gpu, r->driver, r->date, r->command, r->lesson, r->size, r->metric, r->value, r->unit->name};
	return 0;
}

int measured_lesson_ms(int lesson, long long size, double *ms)
{
	ensure_loaded();
	for (int j = 0; j < nrows; j++)
		if (!strcmp(rows[j].metric, "ms") && rows[j].lesson == lesson && rows[j].size == size) {
			*ms = rows[j].value;
			return 0;
		}
	return -1;
}

int measured_ms_row(int i, int *lesson, long long *size, double *ms)
{
	ensure_loaded();
	for (int j = 0, seen = 0; j < nrows; j++)
		if (!strcmp(rows[j].metric, "ms") && seen++ == i) {
			*lesson = rows[j].lesson;
			*size = rows[j].size;
			*ms = rows[j].value;
			return 0;
		}
	return -1;
}
