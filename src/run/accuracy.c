/* accuracy: the format rows, the input distributions, the f64 reference, the error measures and the plot of the accuracy experiment (`ptxtutor accuracy`). */
#include "run/accuracy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "run/launch.h"

/* The formats, most precise first. A lesson's kernel is launched from its
 * lesson (e5m2 with lesson 11's launch and its own entry and type); the
 * others are lesson 11's companions in ptx/11_formats.ptx (sm_80, mma.sync
 * in lesson 8's launch style). */
static const acc_format formats[] = {
	{.name = "f32", .lesson = 7, .ptx = "ptx/07_warptile.ptx", .entry = "sgemm_warptile", .needs = "sm_50"},
	{.name = "3xtf32", .ptx = "ptx/11_formats.ptx", .entry = "gemm_3xtf32", .dtype = "f32", .needs = "sm_80",
	 .grid = "ceil(N/128),ceil(M/128)", .block = "256", .smem = "98304", .tile = {128, 128, 32}},
	{.name = "tf32", .ptx = "ptx/11_formats.ptx", .entry = "gemm_tf32", .dtype = "tf32", .needs = "sm_80",
	 .grid = "ceil(N/128),ceil(M/128)", .block = "256", .smem = "98304", .tile = {128, 128, 32}},
	{.name = "f16→f32", .lesson = 8, .ptx = "ptx/08_mma.ptx", .entry = "hgemm_mma", .needs = "sm_80"},
	{.name = "bf16→f32", .ptx = "ptx/11_formats.ptx", .entry = "gemm_bf16", .dtype = "bf16", .out = "f32",
	 .needs = "sm_80", .grid = "ceil(N/256),ceil(M/128)", .block = "256", .smem = "98304", .tile = {128, 256, 32}},
	{.name = "bf16→bf16", .lesson = 10, .ptx = "ptx/10_cluster.ptx", .entry = "gemm_cluster", .needs = "sm_90a"},
	{.name = "e4m3→bf16", .lesson = 11, .ptx = "ptx/11_fp8.ptx", .entry = "gemm_e4m3", .needs = "sm_90a"},
	{.name = "e5m2→bf16", .lesson = 11, .ptx = "ptx/11_fp8.ptx", .entry = "gemm_e5m2", .dtype = "e5m2", .needs = "sm_90a"},
};

static const char *const dist_names[ACC_DIST_COUNT] = {
	[ACC_UNIFORM] = "uniform",
	[ACC_NORMAL] = "normal",
	[ACC_OUTLIERS] = "outliers",
};

const char *acc_dist_name(acc_dist d)
{
	return d >= 0 && d < ACC_DIST_COUNT ? dist_names[d] : "?";
}

int acc_dist_parse(const char *s, acc_dist *out)
{
	for (int i = 0; i < ACC_DIST_COUNT; i++)
		if (!strcmp(s, dist_names[i])) {
			*out = (acc_dist)i;
			return 0;
		}
	return -1;
}

/* One normal(0,1) value (Box-Muller; the second value is dropped so that a
 * value depends only on its place in the sequence). */
static double normal(rng *r)
{
	double u = 1.0 - rng_unit(r), v = rng_unit(r); /* u in (0, 1]: log(u) finite */
	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

void acc_draw(rng *r, acc_dist d, float *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double v;
		if (d == ACC_UNIFORM) {
			v = 2.0 * rng_unit(r) - 1.0;
		} else {
			v = normal(r);
			if (d == ACC_OUTLIERS && rng_unit(r) < ACC_OUTLIER_P)
				v *= ACC_OUTLIER_X;
		}
		out[i] = (float)v;
	}
}

void acc_seed(rng *r, unsigned long long seed, long long K)
{
	rng_seed(r, seed);
	rng_seed(r, rng_next(r) ^ (unsigned long long)K); /* mixed, so seeds s and s^K do not collide */
}

const acc_format *acc_formats(int *n)
{
	*n = (int)ARRAY_LEN(formats);
	return formats;
}

/* The ASCII spelling of a name: "->" for "→". */
static void ascii_name(const char *name, char *buf, size_t len)
{
	size_t o = 0;
	for (const char *p = name; *p && o + 3 < len; p++) {
		if (!strncmp(p, "→", strlen("→"))) {
			buf[o++] = '-', buf[o++] = '>';
			p += strlen("→") - 1;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o] = 0;
}

const acc_format *acc_format_find(const char *s)
{
	char a[64];
	for (size_t i = 0; i < ARRAY_LEN(formats); i++) {
		ascii_name(formats[i].name, a, sizeof a);
		if (!strcmp(s, formats[i].name) || !strcmp(s, a))
			return &formats[i];
	}
	return NULL;
}

/* Whether the PTX text declares `.entry NAME` (whole name). */
static int has_entry(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(text, ".entry"); p; p = strstr(p + 1, ".entry")) {
		const char *q = p + strlen(".entry");
		while (*q == ' ' || *q == '\t')
			q++;
		if (!strncmp(q, name, n) && (q[n] == '(' || q[n] == ' ' || q[n] == '\t' || q[n] == '\n' || q[n] == '\r'))
			return 1;
	}
	return 0;
}

/* A lesson's row: its lesson's request, with the row's own entry and input
 * type where they differ (another entry of the same file and launch). */
static int lesson_request(const acc_format *f, const course *c, long long M, long long N, long long K,
			  run_request *rq, char *err, int errlen)
{
	char num[8], why[256];
	snprintf(num, sizeof num, "%d", f->lesson);
	const lesson *l = c ? course_find(c, num) : NULL;
	if (!l) {
		snprintf(err, (size_t)errlen, "%s: lesson %d is not in the course", f->name, f->lesson);
		return -1;
	}
	if (launch_request_for_lesson(l, NULL, M, N, K, rq, why, sizeof why)) {
		snprintf(err, (size_t)errlen, "%s: %s", f->name, why);
		return -1;
	}
	util_strlcpy(rq->entry, f->entry, sizeof rq->entry);
	if (f->dtype && dtype_parse(f->dtype, &rq->dt)) {
		snprintf(err, (size_t)errlen, "%s: no type '%s' in this build", f->name, f->dtype);
		return -1;
	}
	return 0;
}

/* A row of its own: its launch fields, as `run --ptx` takes them. */
static int ptx_request(const acc_format *f, const char *path, long long M, long long N, long long K,
		       run_request *rq, char *err, int errlen)
{
	char why[256];
	if (M % f->tile[0] || N % f->tile[1] || K % f->tile[2]) {
		snprintf(err, (size_t)errlen, "%s: M, N and K must be multiples of %lld, %lld and %lld", f->name,
			 f->tile[0], f->tile[1], f->tile[2]);
		return -1;
	}
	launch_ptx p = {.ptx = path, .entry = f->entry, .grid = f->grid, .block = f->block, .smem = f->smem,
			.dtype = f->dtype, .out = f->out, .M = M, .N = N, .K = K};
	if (launch_request_for_ptx(&p, rq, why, sizeof why)) {
		snprintf(err, (size_t)errlen, "%s: %s", f->name, why);
		return -1;
	}
	return 0;
}

int acc_request(const acc_format *f, const course *c, long long M, long long N, long long K, run_backend backend,
		run_request *rq, char *err, int errlen)
{
	char path[RUN_PATH];
	util_path(path, sizeof path, f->ptx);
	char *text = util_read_file(path, NULL, NULL, 0);
	if (!text) {
		snprintf(err, (size_t)errlen, "%s: %s not found", f->name, f->ptx);
		return -1;
	}
	int found = has_entry(text, f->entry);
	free(text);
	if (!found) {
		snprintf(err, (size_t)errlen, "%s: %s has no entry %s", f->name, f->ptx, f->entry);
		return -1;
	}
	if (f->lesson ? lesson_request(f, c, M, N, K, rq, err, errlen) : ptx_request(f, path, M, N, K, rq, err, errlen))
		return -1;
	rq->verify = 0; /* the experiment measures the error itself, against its own f64 reference */
	rq->time = 0;
	launch_target(rq, backend, RUN_KIND_RUN, NULL);
	return 0;
}

int acc_runs_on(const acc_format *f, int cc, char *err, int errlen)
{
	int need = 0;
	char arch = 0;
	if (sscanf(f->needs, "sm_%d%c", &need, &arch) < 1)
		need = 0;
	/* an arch-specific target (sm_90a) runs on that GPU only, not on later ones */
	if (arch == 'a' ? cc == need : cc >= need)
		return 0;
	snprintf(err, (size_t)errlen, "needs %s (this GPU: sm_%d)", f->needs, cc);
	return -1;
}

int acc_reference(const float *a, const float *b, long long M, long long N, long long K, double *ref,
		  const volatile int *stop)
{
	memset(ref, 0, (size_t)M * (size_t)N * sizeof *ref);
	for (long long i = 0; i < M; i++) {
		if (stop && *stop)
			return -1;
		double *row = ref + i * N;
		for (long long k = 0; k < K; k++) {
			double x = a[i * K + k];
			const float *brow = b + k * N;
			for (long long j = 0; j < N; j++)
				row[j] += x * brow[j];
		}
	}
	return 0;
}

void acc_measure(const double *ref, const float *c, size_t n, acc_error *e)
{
	double num = 0, den = 0, maxd = 0, maxr = 0;
	memset(e, 0, sizeof *e);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(c[i])) {
			e->nonfinite++;
			continue;
		}
		double d = fabs((double)c[i] - ref[i]), r = fabs(ref[i]);
		num += d * d;
		den += r * r;
		maxd = d > maxd ? d : maxd;
		maxr = r > maxr ? r : maxr;
	}
	e->rel_fro = e->nonfinite ? NAN : den > 0 ? sqrt(num / den) : num > 0 ? INFINITY : 0;
	e->max_rel = e->nonfinite ? NAN : maxr > 0 ? maxd / maxr : maxd > 0 ? INFINITY : 0;
}

/* The plot's layout: "1e-03 |" before the chart, a third of a decade a row
 * (a whole decade a row past ACC_PLOT_DECADES, so it stays on one screen). */
#define ACC_PLOT_LABEL 7
#define ACC_PLOT_DECADES 8
static const char glyphs[] = "*o+x%@~^"; /* one per series, in the legend's order */
#define ACC_PLOT_SHARED '#'               /* two or more series on one point */

/* The decades the finite positive values span: [*lo, *hi], at least one. */
static int plot_range(const acc_series *s, int ns, int nk, int *lo, int *hi)
{
	double mn = INFINITY, mx = -INFINITY;
	for (int i = 0; i < ns; i++)
		for (int k = 0; k < nk; k++) {
			double v = s[i].err[k];
			if (isfinite(v) && v > 0)
				mn = v < mn ? v : mn, mx = v > mx ? v : mx;
		}
	if (!isfinite(mn))
		return -1;
	*lo = (int)floor(log10(mn));
	*hi = (int)ceil(log10(mx));
	if (*hi <= *lo)
		*hi = *lo + 1;
	return 0;
}

/* Column of K's point: log2 K spread over [0, w-1]. */
static int plot_col(const long long *ks, int nk, int k, int w)
{
	double a = log2((double)ks[0]), b = a;
	for (int i = 0; i < nk; i++) {
		double x = log2((double)ks[i]);
		a = x < a ? x : a, b = x > b ? x : b;
	}
	if (b <= a)
		return w / 2;
	return (int)lround((log2((double)ks[k]) - a) / (b - a) * (w - 1));
}

/* The K labels under the axis, each centred on its column where it fits. */
static void plot_ks(FILE *out, const long long *ks, int nk, int w)
{
	char line[512];
	int n = ACC_PLOT_LABEL + 1 + w; /* w <= 198: fits line */
	memset(line, ' ', (size_t)n);
	line[n] = 0;
	int free_from = 0;
	for (int k = 0; k < nk; k++) {
		char lab[24];
		int len = snprintf(lab, sizeof lab, "%lld", ks[k]);
		int at = ACC_PLOT_LABEL + 1 + plot_col(ks, nk, k, w) - len / 2;
		at = at + len > n ? n - len : at; /* the last label ends at the axis's end */
		if (at < free_from)
			continue;
		memcpy(line + at, lab, (size_t)len);
		free_from = at + len + 1;
	}
	while (n > 0 && line[n - 1] == ' ')
		line[--n] = 0;
	fprintf(out, "%s\n%*sK\n", line, ACC_PLOT_LABEL + 1 + w / 2, "");
}

/* "* f32   o f16→f32   + tf32 = x3tf32   # several", wrapped at width (a
 * name counts as its bytes, an arrow as 3: a line may end short). Series on
 * the very same points are one item (same[i]: the first of i's), drawn with
 * its glyph; one whose every point is shared with others says so; one with
 * no point at all (not run at this size) is named last, without a glyph;
 * "# several" only where a '#' is drawn (shared). */
static void plot_legend(FILE *out, const acc_series *s, int ns, const int *same, const int *hidden, const int *none,
			int shared, int width)
{
	int col = 0;
	char absent[256] = "";
	size_t an = 0;
	for (int i = 0; i < ns && an < sizeof absent; i++)
		if (none[i])
			an += (size_t)snprintf(absent + an, sizeof absent - an, "%s%s", an ? ", " : "no point: ", s[i].name);
	for (int i = 0; i <= ns + 1; i++) {
		char item[256];
		int n;
		if (i < ns && (same[i] != i || none[i]))
			continue;
		if ((i == ns && !shared) || (i == ns + 1 && !absent[0]))
			continue;
		if (i == ns + 1) {
			n = snprintf(item, sizeof item, "%s", absent);
		} else if (i < ns) {
			n = snprintf(item, sizeof item, "%c %s", glyphs[i % (int)strlen(glyphs)], s[i].name);
			for (int j = i + 1; j < ns && n < (int)sizeof item; j++)
				if (same[j] == i)
					n += snprintf(item + n, sizeof item - (size_t)n, " = %s", s[j].name);
			if (hidden[i] && n < (int)sizeof item)
				n += snprintf(item + n, sizeof item - (size_t)n, " (under %c)", ACC_PLOT_SHARED);
		} else {
			n = snprintf(item, sizeof item, "%c several", ACC_PLOT_SHARED);
		}
		n = n < (int)sizeof item ? n : (int)sizeof item - 1;
		if (col > 0 && col + 3 + n > width)
			fputc('\n', out), col = 0;
		col += fprintf(out, "%*s%s", col ? 3 : ACC_PLOT_LABEL + 1, "", item);
	}
	fputc('\n', out);
}

/* Each point's cell in the grid (-1: not drawn), and same[i]: the first
 * series whose points are all in the cells of series i, no more, no fewer. */
static void plot_cells(const acc_series *s, int ns, const long long *ks, int nk, int hi, int per, int w, int *cell,
		       int *same)
{
	for (int i = 0; i < ns; i++)
		for (int k = 0; k < nk; k++) {
			double v = s[i].err[k];
			cell[i * nk + k] = isfinite(v) && v > 0 ? (int)lround((hi - log10(v)) * per) * w + plot_col(ks, nk, k, w) : -1;
		}
	for (int i = 0; i < ns; i++) {
		same[i] = i;
		for (int j = 0; j < i && same[i] == i; j++) {
			int eq = 1, any = 0;
			for (int k = 0; k < nk && eq; k++) {
				eq = cell[i * nk + k] == cell[j * nk + k];
				any |= cell[i * nk + k] >= 0;
			}
			if (eq && any)
				same[i] = same[j];
		}
	}
}

void acc_plot(FILE *out, const long long *ks, int nk, const acc_series *s, int ns, int width)
{
	int lo, hi;
	nk = nk < ACC_MAX_K ? nk : ACC_MAX_K;
	if (plot_range(s, ns, nk, &lo, &hi)) {
		fputs("(nothing to plot: no error was measured)\n", out);
		return;
	}
	int per = hi - lo <= ACC_PLOT_DECADES ? 3 : 1, rows = (hi - lo) * per + 1;
	int w = (width < 40 ? 40 : width > 200 ? 200 : width) - ACC_PLOT_LABEL - 2;
	char *grid = xcalloc((size_t)rows * (size_t)w, 1);
	memset(grid, ' ', (size_t)rows * (size_t)w);
	int *cell = xcalloc((size_t)(ns * nk) + 1, sizeof *cell), *same = xcalloc((size_t)ns + 1, sizeof *same);
	int *hidden = xcalloc((size_t)ns + 1, sizeof *hidden);
	plot_cells(s, ns, ks, nk, hi, per, w, cell, same);
	for (int i = 0; i < ns; i++)
		for (int k = 0; k < nk; k++) {
			if (cell[i * nk + k] < 0)
				continue;
			char *c = &grid[cell[i * nk + k]];
			char g = glyphs[same[i] % (int)strlen(glyphs)];
			*c = *c == ' ' || *c == g ? g : ACC_PLOT_SHARED;
		}
	int *none = xcalloc((size_t)ns + 1, sizeof *none);
	for (int i = 0; i < ns; i++) { /* every point of i's under '#', or none drawn */
		int any = 0, all = 1;
		for (int k = 0; k < nk; k++)
			if (cell[i * nk + k] >= 0)
				any = 1, all &= grid[cell[i * nk + k]] == ACC_PLOT_SHARED;
		hidden[same[i]] |= any && all;
		none[i] = !any;
	}
	int shared = memchr(grid, ACC_PLOT_SHARED, (size_t)rows * (size_t)w) != NULL;
	fputs("log10 of the relative error ||C - ref||_F / ||ref||_F against K\n", out);
	for (int r = 0; r < rows; r++) {
		int n = w;
		while (n > 0 && grid[(size_t)r * (size_t)w + (size_t)(n - 1)] == ' ')
			n--;
		char lab[16] = "";
		if (r % per == 0)
			snprintf(lab, sizeof lab, "1e%d", hi - r / per);
		fprintf(out, "%*s |", ACC_PLOT_LABEL - 1, lab);
		fprintf(out, "%.*s\n", n, &grid[(size_t)r * (size_t)w]);
	}
	fprintf(out, "%*s+", ACC_PLOT_LABEL, "");
	for (int c = 0; c < w; c++)
		fputc('-', out);
	fputc('\n', out);
	plot_ks(out, ks, nk, w);
	plot_legend(out, s, ns, same, hidden, none, shared, width);
	free(none);
	free(grid);
	free(cell);
	free(same);
	free(hidden);
}
