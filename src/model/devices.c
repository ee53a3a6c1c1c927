/* devices: the GPU table in assets/gpus.tsv, lookup by --gpu NAME, and completing a live device's spec. */
#include "model/devices.h"

#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/lines.h"
#include "base/util.h"

/* One column of the table: its header name and where it lands in gpu_spec.
 * Columns are found by name so the file's column order is free. */
typedef enum { COL_STR, COL_INT, COL_DBL, COL_CC } col_kind;
typedef struct {
	const char *name;
	col_kind kind;
	size_t off;
	size_t size; /* for strings */
	int required;
} column;

#define S(f) COL_STR, offsetof(gpu_spec, f), sizeof(((gpu_spec *)0)->f)
#define I(f) COL_INT, offsetof(gpu_spec, f), 0
#define D(f) COL_DBL, offsetof(gpu_spec, f), 0

static const column columns[] = {
	{"key", S(key), 1},
	{"name", S(name), 1},
	{"cc", COL_CC, 0, 0, 1},
	{"sms", I(sms), 1},
	{"clock_mhz", I(clock_mhz), 1},
	{"fp32_tflops", D(fp32_tflops), 1},
	{"tensor_tflops", D(tensor_tflops), 1},
	{"tf32_tflops", D(tf32_tflops), 0},
	{"fp8_tflops", D(fp8_tflops), 0},
	{"bw_gbs", D(bw_gbs), 1},
	{"l2_gbs", D(l2_gbs), 0},
	{"smem_gbs", D(smem_gbs), 0},
	{"l2_kb", I(l2_kb), 1},
	{"smem_per_sm", I(smem_per_sm), 1},
	{"smem_per_block", I(smem_per_block), 1},
	{"smem_optin", I(smem_optin), 1},
	{"smem_reserved", I(smem_reserved), 1},
	{"regs_per_sm", I(regs_per_sm), 1},
	{"regs_per_block", I(regs_per_block), 1},
	{"max_threads_per_sm", I(max_threads_per_sm), 1},
	{"max_threads_per_block", I(max_threads_per_block), 1},
	{"max_warps_per_sm", I(max_warps_per_sm), 1},
	{"max_blocks_per_sm", I(max_blocks_per_sm), 1},
	{"warp_alloc_regs", I(warp_alloc_regs), 0},
	{"source", S(source), 1},
	{"levels_source", S(levels_source), 0},
};

#undef S
#undef I
#undef D

static int set_field(gpu_spec *g, const column *c, char *v, char *why, int whylen)
{
	char *end;
	v = util_trim(v);
	switch (c->kind) {
	case COL_STR:
		if (!*v) {
			snprintf(why, (size_t)whylen, "empty %s", c->name);
			return -1;
		}
		if (strlen(v) >= c->size) { /* never cut short where a reader cannot tell */
			snprintf(why, (size_t)whylen, "%s: %zu characters, at most %zu", c->name, strlen(v), c->size - 1);
			return -1;
		}
		util_strlcpy((char *)g + c->off, v, c->size);
		return 0;
	case COL_INT: {
		errno = 0;
		long x = strtol(v, &end, 10);
		if (end == v || *end || x < 0 || x > INT_MAX || errno == ERANGE) { /* never wrapped into the int */
			snprintf(why, (size_t)whylen, "%s: '%s' is not a non-negative integer", c->name, v);
			return -1;
		}
		*(int *)((char *)g + c->off) = (int)x;
		return 0;
	}
	case COL_DBL: {
		double x = strtod(v, &end);
		if (end == v || *end || x < 0) {
			snprintf(why, (size_t)whylen, "%s: '%s' is not a non-negative number", c->name, v);
			return -1;
		}
		*(double *)((char *)g + c->off) = x;
		return 0;
	}
	case COL_CC:
		if (sscanf(v, "%d.%d", &g->cc_major, &g->cc_minor) != 2) {
			snprintf(why, (size_t)whylen, "cc: '%s' is not MAJOR.MINOR", v);
			return -1;
		}
		return 0;
	}
	return -1;
}

int devices_parse(gpu_table *t, const char *path, const char *text, char *err, int errlen)
{
	enum { MAXCOL = 32 };
	int colmap[ARRAY_LEN(columns)];
	int have_header = 0, lineno = 0, ncols = 0;
	lines it;
	char why[160];

	memset(t, 0, sizeof *t);
	lines_init(&it, text);
	for (char *line; (line = lines_next(&it));) {
		lineno = it.line;
		if (line[0] == '#' || !*util_trim(line))
			continue;
		char *f[MAXCOL];
		int n = lines_split_tsv(line, f, MAXCOL);
		if (!have_header) {
			if (n > MAXCOL) {
				snprintf(err, (size_t)errlen, "%s:%d: more than %d columns", path, lineno, MAXCOL);
				lines_free(&it);
				return -1;
			}
			ncols = n;
			for (size_t c = 0; c < ARRAY_LEN(columns); c++) {
				colmap[c] = -1;
				for (int i = 0; i < n; i++)
					if (!strcmp(util_trim(f[i]), columns[c].name))
						colmap[c] = i;
				if (colmap[c] < 0 && columns[c].required) {
					snprintf(err, (size_t)errlen, "%s:%d: header has no column '%s'", path, lineno,
						 columns[c].name);
					lines_free(&it);
					return -1;
				}
			}
			have_header = 1;
			continue;
		}
		if (n != ncols) {
			snprintf(err, (size_t)errlen, "%s:%d: %d fields, the header has %d", path, lineno, n, ncols);
			lines_free(&it);
			return -1;
		}
		if (t->n >= DEVICES_MAX) {
			snprintf(err, (size_t)errlen, "%s:%d: more than %d GPUs", path, lineno, DEVICES_MAX);
			lines_free(&it);
			return -1;
		}
		gpu_spec *g = &t->g[t->n];
		memset(g, 0, sizeof *g);
		g->warp_alloc_regs = 256;
		for (size_t c = 0; c < ARRAY_LEN(columns); c++) {
			if (colmap[c] < 0)
				continue;
			if (set_field(g, &columns[c], f[colmap[c]], why, sizeof why) < 0) {
				snprintf(err, (size_t)errlen, "%s:%d: %s", path, lineno, why);
				lines_free(&it);
				return -1;
			}
		}
		/* Occupancy divides by these: a zero would be a broken row. */
		if (!g->sms || !g->max_warps_per_sm || !g->max_blocks_per_sm || !g->regs_per_sm ||
		    !g->smem_per_sm || !g->warp_alloc_regs || !g->max_threads_per_block || g->bw_gbs <= 0) {
			snprintf(err, (size_t)errlen, "%s:%d: %s: a limit is zero", path, lineno, g->key);
			lines_free(&it);
			return -1;
		}
		for (int i = 0; i < t->n; i++)
			if (!strcasecmp(t->g[i].key, g->key)) {
				snprintf(err, (size_t)errlen, "%s:%d: key '%s' appears twice", path, lineno, g->key);
				lines_free(&it);
				return -1;
			}
		t->n++;
	}
	lines_free(&it);
	if (!have_header) {
		snprintf(err, (size_t)errlen, "%s: no header row", path);
		return -1;
	}
	return t->n;
}

int devices_load(gpu_table *t, char *err, int errlen)
{
	char path[512], why[300];
	util_path(path, sizeof path, "assets/gpus.tsv");
	char *text = util_read_file(path, NULL, why, sizeof why);
	if (!text) {
		memset(t, 0, sizeof *t);
		snprintf(err, (size_t)errlen, "%s", why);
		return -1;
	}
	int n = devices_parse(t, "assets/gpus.tsv", text, err, errlen);
	free(text);
	return n;
}

/* Lower-cases and drops everything but letters and digits: "RTX-3090" and
 * "rtx 3090" both become "rtx3090". */
static void squash(char *dst, size_t len, const char *s)
{
	size_t n = 0;
	for (; *s && n + 1 < len; s++) {
		char c = *s;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			dst[n++] = c;
	}
	dst[n] = '\0';
}

const gpu_spec *devices_find(const gpu_table *t, const char *what, char *msg, int msglen)
{
	char w[64], k[64], nm[96];
	const gpu_spec *hit = NULL;
	int nhit = 0;
	char list[256] = "";

	if (msg && msglen)
		msg[0] = '\0';
	if (!what || !*what) {
		if (msg)
			snprintf(msg, (size_t)msglen, "no GPU name given");
		return NULL;
	}
	/* An exact key or name wins: "a100" is the 80 GB row, "a100-40" the other. */
	for (int i = 0; i < t->n; i++)
		if (!strcasecmp(t->g[i].key, what) || !strcasecmp(t->g[i].name, what))
			return &t->g[i];
	squash(w, sizeof w, what);
	if (!*w)
		goto none;
	for (int i = 0; i < t->n; i++) {
		squash(k, sizeof k, t->g[i].key);
		if (!strcmp(k, w))
			return &t->g[i];
	}
	for (int i = 0; i < t->n; i++) {
		squash(k, sizeof k, t->g[i].key);
		squash(nm, sizeof nm, t->g[i].name);
		if (strstr(k, w) || strstr(nm, w)) {
			hit = &t->g[i];
			nhit++;
			size_t l = strlen(list);
			snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", t->g[i].key);
		}
	}
	if (nhit == 1)
		return hit;
	if (nhit > 1) {
		if (msg)
			snprintf(msg, (size_t)msglen, "'%s' is ambiguous: %s", what, list);
		return NULL;
	}
none:
	if (msg) {
		size_t l = 0;
		l += (size_t)snprintf(msg, (size_t)msglen, "unknown GPU '%s' (known:", what);
		for (int i = 0; i < t->n && l + 1 < (size_t)msglen; i++)
			l += (size_t)snprintf(msg + l, (size_t)msglen - l, " %s", t->g[i].key);
		if (l + 1 < (size_t)msglen)
			snprintf(msg + l, (size_t)msglen - l, ")");
	}
	return NULL;
}

const gpu_spec *devices_default(const gpu_table *t)
{
	/* The machine the course is run on; otherwise whatever comes first. */
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->g[i].key, "h100"))
			return &t->g[i];
	return t->n ? &t->g[0] : NULL;
}

const gpu_spec *devices_pick(const gpu_table *t, const char *name, const gpu_spec *live, char *msg, int msglen)
{
	const gpu_spec *g = NULL;
	if (msg && msglen)
		msg[0] = '\0';
	if (name && !strcasecmp(name, "live")) {
		if (!live && msg)
			snprintf(msg, (size_t)msglen, "--gpu live: no GPU was read on this machine");
		return live;
	}
	if (name)
		return devices_find(t, name, msg, msglen);
	if (live)
		return live;
	if (!(g = devices_default(t)) && msg)
		snprintf(msg, (size_t)msglen, "no GPU table (assets/gpus.tsv)");
	return g;
}

/* How many words of a row's name ("NVIDIA A100 SXM4 40GB") the driver's
 * name ("NVIDIA A100-SXM4-40GB") contains: tells apart rows that share a
 * compute capability and SM count (H100/H200, A100 40/80 GB). */
static int name_score(const char *row_name, const char *live_name)
{
	char buf[96], word[32];
	int score = 0;
	util_strlcpy(buf, row_name, sizeof buf);
	for (char *w = strtok(buf, " -_/"); w; w = strtok(NULL, " -_/")) {
		squash(word, sizeof word, w);
		if (word[0] && util_icontains(live_name, word))
			score++;
	}
	return score;
}

void devices_complete(const gpu_table *t, gpu_spec *live)
{
	const gpu_spec *row = NULL;
	int best = -1;
	for (int i = 0; i < t->n; i++)
		if (t->g[i].cc_major == live->cc_major && t->g[i].cc_minor == live->cc_minor && t->g[i].sms == live->sms) {
			int sc = name_score(t->g[i].name, live->name);
			if (sc > best) {
				best = sc;
				row = &t->g[i];
			}
		}
	if (!live->warp_alloc_regs)
		live->warp_alloc_regs = row ? row->warp_alloc_regs : 256;
	if (!row)
		return;
	if (!live->key[0])
		util_strlcpy(live->key, row->key, sizeof live->key);
	if (!live->name[0])
		util_strlcpy(live->name, row->name, sizeof live->name);
	/* Peaks scale with the clock the driver reports when it differs. */
	double scale = (live->clock_mhz > 0 && row->clock_mhz > 0) ? (double)live->clock_mhz / row->clock_mhz : 1.0;
	if (live->fp32_tflops <= 0)
		live->fp32_tflops = row->fp32_tflops * scale;
	if (live->tensor_tflops <= 0)
		live->tensor_tflops = row->tensor_tflops * scale;
	if (live->tf32_tflops <= 0)
		live->tf32_tflops = row->tf32_tflops * scale;
	if (live->fp8_tflops <= 0)
		live->fp8_tflops = row->fp8_tflops * scale;
	if (live->bw_gbs <= 0)
		live->bw_gbs = row->bw_gbs;
	/* The on-chip paths run at the core clock, as the peaks do. */
	if (live->l2_gbs <= 0)
		live->l2_gbs = row->l2_gbs * scale;
	if (live->smem_gbs <= 0)
		live->smem_gbs = row->smem_gbs * scale;
	if (!live->levels_source[0])
		util_strlcpy(live->levels_source, row->levels_source, sizeof live->levels_source);
	if (!live->clock_mhz)
		live->clock_mhz = row->clock_mhz;
#define FILL(f) if (!live->f) live->f = row->f
	FILL(l2_kb);
	FILL(smem_per_sm);
	FILL(smem_per_block);
	FILL(smem_optin);
	FILL(smem_reserved);
	FILL(regs_per_sm);
	FILL(regs_per_block);
	FILL(max_threads_per_sm);
	FILL(max_threads_per_block);
	FILL(max_warps_per_sm);
	FILL(max_blocks_per_sm);
#undef FILL
	if (!live->source[0])
		snprintf(live->source, sizeof live->source, "driver; peaks from table row '%s'", row->key);
}

/* The tensor cores' rate for these inputs: f16 and bf16 at tensor_tflops,
 * tf32 and the 8-bit floats at their own columns of assets/gpus.tsv. A GPU
 * whose row has no such rate (0) gets no compute bound, and the unit says
 * why, rather than the f16 rate, which such a kernel never reaches. */
static const struct {
	dtype in;
	size_t off;
	const char *unit, *none;
} tensor_peaks[] = {
	{DTYPE_TF32, offsetof(gpu_spec, tf32_tflops), "tensor (tf32)", "tensor (no tf32 rate for this GPU)"},
	{DTYPE_E4M3, offsetof(gpu_spec, fp8_tflops), "tensor (fp8)", "tensor (no fp8 rate for this GPU)"},
	{DTYPE_E5M2, offsetof(gpu_spec, fp8_tflops), "tensor (fp8)", "tensor (no fp8 rate for this GPU)"},
};

double devices_tensor_peak(const gpu_spec *g, dtype in, const char **unit)
{
	for (size_t i = 0; i < ARRAY_LEN(tensor_peaks); i++)
		if (tensor_peaks[i].in == in) {
			double v = *(const double *)((const char *)g + tensor_peaks[i].off);
			*unit = v > 0 ? tensor_peaks[i].unit : tensor_peaks[i].none;
			return v;
		}
	return g->tensor_tflops;
}

double devices_peak_at(const gpu_spec *g, dtype in, double mhz)
{
	const char *unit;
	double at_boost = in == DTYPE_F32 ? g->fp32_tflops : dtype_of(in)->integer ? 0 : devices_tensor_peak(g, in, &unit);
	return g->clock_mhz > 0 && mhz > 0 ? at_boost * mhz / g->clock_mhz : 0;
}
