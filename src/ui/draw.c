/* ui/draw: the panes — header, lesson page, highlighted PTX, numbers, run, status, overlays — drawn into a frame. */
#include "ui/draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* snprintf without the truncation warnings: every buffer here is a screen line, cut on purpose. */
static void fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

/* ---- styled lines: what the text panes are made of before they are placed ---- */

typedef struct {
	uint32_t *cp;
	uint8_t *role;
	int n, cap;
	int *start;     /* start[i]: index of line i's first character; start[nlines] = n */
	int nlines, lcap;
} lines;

static void ln_reserve(lines *t, int extra)
{
	if (t->n + extra <= t->cap)
		return;
	int cap = t->cap ? t->cap : 256;
	while (cap < t->n + extra)
		cap *= 2;
	t->cp = realloc(t->cp, (size_t)cap * sizeof *t->cp);
	t->role = realloc(t->role, (size_t)cap);
	if (!t->cp || !t->role)
		abort();
	t->cap = cap;
}

static void ln_init(lines *t)
{
	memset(t, 0, sizeof *t);
	t->lcap = 32;
	t->start = malloc((size_t)t->lcap * sizeof *t->start);
	if (!t->start)
		abort();
	t->start[0] = 0;
}

static void ln_free(lines *t)
{
	free(t->cp);
	free(t->role);
	free(t->start);
}

static void ln_putc(lines *t, uint32_t cp, ui_role role)
{
	ln_reserve(t, 1);
	t->cp[t->n] = cp;
	t->role[t->n++] = (uint8_t)role;
}

static void ln_add(lines *t, const char *s, ui_role role)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		int l;
		uint32_t cp = ui_utf8_decode(s + i, n - i, &l);
		i += (size_t)l;
		ln_putc(t, cp == '\t' ? ' ' : cp, role);
	}
}

static void ln_addf(lines *t, ui_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void ln_addf(lines *t, ui_role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ln_add(t, buf, role);
}

static void ln_nl(lines *t)
{
	if (t->nlines + 2 > t->lcap) {
		t->lcap *= 2;
		t->start = realloc(t->start, (size_t)t->lcap * sizeof *t->start);
		if (!t->start)
			abort();
	}
	t->start[++t->nlines] = t->n;
}

static int ln_cur_width(const lines *t)
{
	return t->n - t->start[t->nlines];
}

/* Wraps a styled run (cp/role, n) into lines of width w: the first line
 * starts with `first` already on it (its width), the others with `indent`
 * spaces. Breaks at spaces; a word longer than a line is cut. */
static void ln_wrap(lines *t, const uint32_t *cp, const uint8_t *role, int n, int w, int indent)
{
	int i = 0;
	if (w < indent + 8)
		w = indent + 8;
	while (i < n) {
		while (i < n && cp[i] == ' ')
			i++;
		if (i >= n)
			break;
		int j = i;
		while (j < n && cp[j] != ' ')
			j++;
		int word = j - i;
		int cur = ln_cur_width(t);
		int need = (cur > indent ? 1 : 0) + word;
		if (cur > indent && cur + need > w) {
			ln_nl(t);
			for (int k = 0; k < indent; k++)
				ln_putc(t, ' ', UI_ROLE_NORMAL);
			cur = indent;
		}
		if (cur > indent)
			ln_putc(t, ' ', UI_ROLE_NORMAL);
		for (int k = i; k < j; k++) {
			if (ln_cur_width(t) >= w) {
				ln_nl(t);
				for (int s = 0; s < indent; s++)
					ln_putc(t, ' ', UI_ROLE_NORMAL);
			}
			ln_putc(t, cp[k], (ui_role)role[k]);
		}
		i = j;
	}
	ln_nl(t);
}

/* ---- numbers as people read them ---- */

static void fmt_si(double v, const char *unit, char *buf, size_t len)
{
	static const char *const pre[] = {"", "k", "M", "G", "T", "P"};
	int p = 0;
	double a = fabs(v);
	while (a >= 1000 && p < 5) {
		a /= 1000;
		v /= 1000;
		p++;
	}
	snprintf(buf, len, a >= 100 || p == 0 ? "%.0f %s%s" : "%.3g %s%s", v, pre[p], unit);
	if (p == 0 && a < 100 && a != floor(a))
		snprintf(buf, len, "%.3g %s", v, unit);
}

/* v as a multiple of K when it is one ("K/16", "9K/8", "2K"), else empty. */
static void fmt_of_k(double v, long long K, char *buf, size_t len)
{
	buf[0] = '\0';
	if (v <= 0 || K <= 0)
		return;
	for (int d = 1; d <= 128; d *= 2) {
		double num = v * d / (double)K;
		long long n = llround(num);
		if (n >= 1 && fabs(num - (double)n) < 1e-9 * (num > 1 ? num : 1)) {
			if (d == 1)
				snprintf(buf, len, n == 1 ? "K" : "%lldK", n);
			else
				if (n == 1)
					snprintf(buf, len, "K/%d", d);
				else
					snprintf(buf, len, "%lldK/%d", n, d);
			return;
		}
	}
}

static void fmt_count(double v, char *buf, size_t len)
{
	if (v >= 1e6 || (v > 0 && v < 0.01))
		snprintf(buf, len, "%.3g", v);
	else if (v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* A ratio or an intensity: three significant digits, no exponent below a million. */
static void fmt_val(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-3))
		snprintf(buf, len, "%.3g", v);
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* ---- the lesson page ---- */

static int isalnum_ascii(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

typedef struct {
	uint32_t *cp;
	uint8_t *role;
	int n, cap;
} run_buf;

static void rb_put(run_buf *r, uint32_t cp, ui_role role)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->cp = realloc(r->cp, (size_t)r->cap * sizeof *r->cp);
		r->role = realloc(r->role, (size_t)r->cap);
		if (!r->cp || !r->role)
			abort();
	}
	r->cp[r->n] = cp;
	r->role[r->n++] = (uint8_t)role;
}

static void rb_puts(run_buf *r, const char *s, size_t n, ui_role role)
{
	for (size_t i = 0; i < n && s[i];) {
		int l;
		uint32_t cp = ui_utf8_decode(s + i, n - i, &l);
		i += (size_t)l;
		rb_put(r, cp == '\t' ? ' ' : cp, role);
	}
}

/* Inline Markdown and placeholders of one paragraph into styled text. */
/* Inline markup and placeholders, filled from m (NULL: shown as {key}). */
static void rb_inline(run_buf *r, const model_result *m, const char *s, size_t n, ui_role base)
{
	int code = 0, bold = 0;
	for (size_t i = 0; i < n;) {
		char c = s[i];
		if (c == '`') {
			code = !code;
			i++;
			continue;
		}
		if (!code && c == '*' && i + 1 < n && s[i + 1] == '*') {
			bold = !bold;
			i += 2;
			continue;
		}
		if (!code && c == '{') {
			size_t j = i + 1;
			while (j < n && (isalnum_ascii(s[j]) || s[j] == '.' || s[j] == '_'))
				j++;
			if (j < n && s[j] == '}' && j > i + 1) {
				char key[64];
				size_t kl = j - i - 1 < sizeof key - 1 ? j - i - 1 : sizeof key - 1;
				memcpy(key, s + i + 1, kl);
				key[kl] = '\0';
				if (m && model_known(key)) {
					char val[96];
					model_format(m, key, val, sizeof val);
					rb_puts(r, val, strlen(val), UI_ROLE_EMPH);
				} else {
					rb_puts(r, "{", 1, UI_ROLE_WARN);
					rb_puts(r, key, kl, UI_ROLE_WARN);
					rb_puts(r, "}", 1, UI_ROLE_WARN);
				}
				i = j + 1;
				continue;
			}
		}
		int l;
		uint32_t cp = ui_utf8_decode(s + i, n - i, &l);
		i += (size_t)l;
		rb_put(r, cp == '\t' ? ' ' : cp, code ? UI_ROLE_CODE : bold ? UI_ROLE_EMPH : base);
	}
}

static int starts_block(const char *s, size_t n)
{
	if (n >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ')
		return 2;
	size_t i = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i > 0 && i + 1 < n && s[i] == '.' && s[i + 1] == ' ')
		return (int)i + 2;
	return 0;
}

/* Page text → wrapped, styled lines: paragraphs re-flowed, headings, lists,
 * fenced code and tables kept as written. */
static void build_prose(lines *t, const ui_app *a, const char *text, int w)
{
	run_buf para = {0};
	int indent = 0, in_code = 0;
	const char *p = text;
#define FLUSH()                                                          \
	do {                                                             \
		if (para.n) {                                            \
			ln_wrap(t, para.cp, para.role, para.n, w, indent); \
			para.n = 0;                                      \
		}                                                        \
	} while (0)
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *s = p;
		p = nl ? nl + 1 : NULL;
		size_t lead = 0;
		while (lead < n && s[lead] == ' ')
			lead++;
		if (n - lead >= 3 && !strncmp(s + lead, "```", 3)) {
			FLUSH();
			in_code = !in_code;
			continue;
		}
		if (in_code) {
			run_buf r = {0};
			rb_puts(&r, "  ", 2, UI_ROLE_CODE);
			rb_puts(&r, s, n, UI_ROLE_CODE);
			/* Code and pictures keep their lines (wrapping would break the
			 * pictures); a line wider than the pane ends in a dim '>' so the
			 * cut is visible. */
			int keep = r.n > w && w > 1 ? w - 1 : r.n;
			for (int i = 0; i < keep; i++)
				ln_putc(t, r.cp[i], (ui_role)r.role[i]);
			if (keep < r.n)
				ln_putc(t, '>', UI_ROLE_DIM);
			ln_nl(t);
			free(r.cp);
			free(r.role);
			continue;
		}
		if (lead == n) { /* blank: paragraph break */
			FLUSH();
			if (t->nlines > 0 && t->start[t->nlines] - t->start[t->nlines - 1] > 0)
				ln_nl(t);
			continue;
		}
		if (s[lead] == '#') {
			FLUSH();
			size_t h = lead;
			while (h < n && s[h] == '#')
				h++;
			while (h < n && s[h] == ' ')
				h++;
			rb_inline(&para, a->model_ok ? &a->model : NULL, s + h, n - h, UI_ROLE_HEADING);
			for (int i = 0; i < para.n; i++)
				para.role[i] = para.role[i] == UI_ROLE_NORMAL ? UI_ROLE_HEADING : para.role[i];
			indent = 0;
			FLUSH();
			continue;
		}
		if (s[lead] == '|') { /* a table row: as written */
			FLUSH();
			rb_inline(&para, a->model_ok ? &a->model : NULL, s, n, UI_ROLE_NORMAL);
			for (int i = 0; i < para.n; i++)
				ln_putc(t, para.cp[i], (ui_role)para.role[i]);
			ln_nl(t);
			para.n = 0;
			continue;
		}
		int b = starts_block(s + lead, n - lead);
		if (b) {
			FLUSH();
			indent = (int)lead + b;
			for (int i = 0; i < (int)lead; i++)
				ln_putc(t, ' ', UI_ROLE_NORMAL);
			run_buf m = {0};
			rb_puts(&m, s + lead, (size_t)b, UI_ROLE_EMPH);
			for (int i = 0; i < m.n; i++)
				ln_putc(t, m.cp[i], (ui_role)m.role[i]);
			free(m.cp);
			free(m.role);
			rb_inline(&para, a->model_ok ? &a->model : NULL, s + lead + b, n - lead - (size_t)b, UI_ROLE_NORMAL);
			continue;
		}
		if (para.n)
			rb_put(&para, ' ', UI_ROLE_NORMAL);
		else
			indent = indent && lead >= (size_t)indent ? indent : 0;
		rb_inline(&para, a->model_ok ? &a->model : NULL, s + lead, n - lead, UI_ROLE_NORMAL);
	}
	FLUSH();
#undef FLUSH
	free(para.cp);
	free(para.role);
}

static void build_lesson(lines *t, const ui_app *a, int w)
{
	const lesson_page *pg = ui_app_page(a);
	if (!pg) {
		ln_add(t, "This lesson has no pages.", UI_ROLE_DIM);
		ln_nl(t);
		return;
	}
	build_prose(t, a, pg->text, w);
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	for (int e = 0; e < pg->nex; e++) {
		const lesson_exercise *ex = &pg->ex[e];
		int cur = e == a->ex;
		ln_nl(t);
		for (int i = 0; i < 2; i++)
			ln_putc(t, g->hline, UI_ROLE_BORDER);
		ln_addf(t, UI_ROLE_HEADING, " Exercise %d/%d ", e + 1, pg->nex);
		while (ln_cur_width(t) < w)
			ln_putc(t, g->hline, UI_ROLE_BORDER);
		ln_nl(t);
		build_prose(t, a, ex->question ? ex->question : "", w);
		if (!cur) {
			if (e < a->ex) {
				ln_add(t, "done", UI_ROLE_GOOD);
				ln_nl(t);
			}
			continue;
		}
		if (a->ex_verdict == 1) {
			ln_addf(t, UI_ROLE_GOOD, "%s Right: %.4g", a->ascii ? "[ok]" : "\u2713", a->ex_expected);
			ln_nl(t);
		} else if (a->ex_verdict == -1) {
			ln_addf(t, UI_ROLE_BAD, "%s Not quite. Try again (a), or see the hint (h).",
				a->ascii ? "[x]" : "\u2717");
			ln_nl(t);
		}
		/* The hint and the worked answer speak of the exercise's case
		 * (@exercise ai.global BN=128): their placeholders come from the
		 * model under its overrides, as the check of an answer does. */
		const model_result *em = a->ex_model_ok ? &a->ex_model : NULL;
		const struct {
			int shown;
			const char *label, *text;
		} parts[] = {{a->show_hint, "Hint: ", ex->hint}, {a->show_solution, "Answer: ", ex->answer}};
		for (size_t i = 0; i < ARRAY_LEN(parts); i++) {
			if (!parts[i].shown || !parts[i].text)
				continue;
			run_buf r = {0};
			rb_puts(&r, parts[i].label, strlen(parts[i].label), UI_ROLE_EMPH);
			rb_inline(&r, em, parts[i].text, strlen(parts[i].text), UI_ROLE_NORMAL);
			ln_wrap(t, r.cp, r.role, r.n, w, 2);
			free(r.cp);
			free(r.role);
		}
		ln_add(t, "a", UI_ROLE_KEY);
		ln_add(t, " answer  ", UI_ROLE_DIM);
		ln_add(t, "h", UI_ROLE_KEY);
		ln_add(t, " hint  ", UI_ROLE_DIM);
		ln_add(t, "s", UI_ROLE_KEY);
		ln_add(t, " worked answer", UI_ROLE_DIM);
		ln_nl(t);
	}
}

/* ---- numbers: intensity, accesses, roofline, occupancy, instruction mix ---- */

/* "label value note": the note only where it fits, the label narrower in a narrow pane. */
/* label, value in its role, and a note when it fits. */
static void kv_role(lines *t, const char *label, const char *value, ui_role role, const char *note, int w)
{
	int lw = w < 40 ? 13 : 16;
	ln_addf(t, UI_ROLE_NORMAL, " %-*.*s ", lw - 2, lw - 2, label);
	ln_add(t, value, role);
	int used = lw + ui_utf8_width(value, strlen(value));
	if (note && *note && used + 2 + ui_utf8_width(note, strlen(note)) <= w) {
		ln_add(t, "  ", UI_ROLE_NORMAL);
		ln_add(t, note, UI_ROLE_DIM);
	}
	ln_nl(t);
}

static void kv(lines *t, const char *label, const char *value, const char *note, int w)
{
	kv_role(t, label, value, UI_ROLE_EMPH, note, w);
}

static void section(lines *t, const char *title)
{
	ln_add(t, title, UI_ROLE_HEADING);
	ln_nl(t);
}

/* A log-log roofline: attainable = min(peak, AI × bandwidth), with this kernel's point. */
static void roofline(lines *t, const ui_app *a, int w)
{
	const model_result *m = &a->model;
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	double peak = m->peak_tflops * 1e3; /* GFLOP/s */
	double bw = m->gpu.bw_gbs;          /* GB/s */
	double ai = m->ai_global, ridge = m->ridge;
	if (peak <= 0 || bw <= 0 || ai <= 0 || ridge <= 0)
		return;
	enum { H = 6, LABEL = 7 };
	int cw = w - LABEL - 1;
	if (cw < 16)
		return;
	double lo = fmin(ai, ridge) / 8, hi = fmax(ai, ridge) * 8;
	double ylo = fmin(peak, lo * bw), yhi = peak;
	const run_result *r = a->have_res[a->lesson] ? &a->res[a->lesson] : NULL;
	double meas = r && r->status == RUN_OK ? r->gflops : 0;
	if (meas > 0 && meas < ylo)
		ylo = meas;
	uint32_t grid[H][160];
	uint8_t role[H][160];
	if (cw > 160)
		cw = 160;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < cw; x++)
			grid[y][x] = ' ', role[y][x] = UI_ROLE_NORMAL;
#define XCOL(v) ((int)lround((log(v) - log(lo)) / (log(hi) - log(lo)) * (cw - 1)))
#define YROW(v) ((H - 1) - (int)lround((log(v) - log(ylo)) / (log(yhi) - log(ylo) + 1e-12) * (H - 1)))
	for (int x = 0; x < cw; x++) {
		double xv = exp(log(lo) + (log(hi) - log(lo)) * x / (cw - 1));
		double p = fmin(peak, xv * bw);
		int y = YROW(p);
		if (y < 0 || y >= H)
			continue;
		grid[y][x] = p >= peak ? g->hline : (a->ascii ? '/' : 0x2571);
		role[y][x] = UI_ROLE_BAR;
	}
	int px = XCOL(ai), py = YROW(fmin(peak, ai * bw));
	if (px >= 0 && px < cw && py >= 0 && py < H)
		grid[py][px] = g->point, role[py][px] = UI_ROLE_BAR_SELF;
	if (meas > 0) {
		int my = YROW(meas);
		if (px >= 0 && px < cw && my >= 0 && my < H && my != py)
			grid[my][px] = a->ascii ? 'x' : 0x25C6, role[my][px] = UI_ROLE_GOOD;
	}
#undef XCOL
#undef YROW
	for (int y = 0; y < H; y++) {
		char lab[32] = "";
		if (y == 0)
			fmt_si(yhi * 1e9, "", lab, sizeof lab);
		else if (y == H - 1)
			fmt_si(ylo * 1e9, "", lab, sizeof lab);
		else if (y == H / 2)
			util_strlcpy(lab, "FLOP/s", sizeof lab);
		ln_addf(t, UI_ROLE_DIM, "%*.*s", LABEL, LABEL, lab);
		ln_putc(t, g->vline, UI_ROLE_BORDER);
		for (int x = 0; x < cw; x++)
			ln_putc(t, grid[y][x], (ui_role)role[y][x]);
		ln_nl(t);
	}
	ln_addf(t, UI_ROLE_DIM, "%*s", LABEL, "");
	ln_putc(t, a->ascii ? '+' : 0x2514, UI_ROLE_BORDER);
	for (int x = 0; x < cw; x++)
		ln_putc(t, g->hline, UI_ROLE_BORDER);
	ln_nl(t);
	char l1[32], l2[32];
	snprintf(l1, sizeof l1, "%.3g", lo);
	snprintf(l2, sizeof l2, "%.3g FLOP/B", hi);
	ln_addf(t, UI_ROLE_DIM, "%*s%s", LABEL + 1, "", l1);
	int pad = cw - (int)strlen(l1) - (int)strlen(l2);
	ln_addf(t, UI_ROLE_DIM, "%*s%s", pad > 1 ? pad : 1, "", l2);
	ln_nl(t);
	ln_putc(t, ' ', UI_ROLE_NORMAL);
	ln_putc(t, g->point, UI_ROLE_BAR_SELF);
	ln_addf(t, UI_ROLE_NORMAL, " this kernel, modelled");
	if (meas > 0) {
		ln_add(t, "  ", UI_ROLE_NORMAL);
		ln_putc(t, a->ascii ? 'x' : 0x25C6, UI_ROLE_GOOD);
		ln_add(t, " measured", UI_ROLE_NORMAL);
	}
	ln_nl(t);
}

static double per(unsigned long long a, unsigned long long b)
{
	return b ? (double)a / (double)b : 0;
}

static void cube(char *buf, size_t len, const run_emu_counts *e, int ascii)
{
	if (e->M == e->N && e->N == e->K)
		snprintf(buf, len, "%lld%s", e->M, ascii ? "^3" : "\u00B3");
	else
		snprintf(buf, len, "%lldx%lldx%lld", e->M, e->N, e->K);
}

/* The emulator's counts under the model's: what the kernel as written
 * really does (the emulator does not tell A's loads from B's). */
static void measured_counts(lines *t, const ui_app *a, int w)
{
	const run_result *r = a->have_res[a->lesson] ? &a->res[a->lesson] : NULL;
	if (!r || !r->emulated || (r->status != RUN_OK && r->status != RUN_WRONG))
		return;
	const run_emu_counts *e = &r->emu;
	char v[64], n[96], sz[32];
	cube(sz, sizeof sz, e, a->ascii);
	snprintf(v, sizeof v, "%.3g", per(e->gld_sectors, e->gld_requests));
	snprintf(n, sizeof n, "loads of A and B, %s", sz);
	kv(t, "emu sectors", v, n, w);
	snprintf(v, sizeof v, "%.3g", per(e->gst_sectors, e->gst_requests));
	kv(t, "emu stores", v, "sectors/request", w);
	if (e->sld_requests) {
		snprintf(v, sizeof v, "%.3g", per(e->sld_wavefronts, e->sld_requests));
		snprintf(n, sizeof n, "%llu conflicts", e->sld_conflicts);
		kv(t, "emu smem rd", v, n, w);
	}
}

static void build_numbers(lines *t, const ui_app *a, int w)
{
	const lesson *l = ui_app_lesson(a);
	if (!a->model_ok) {
		const char *e = a->model_err[0] ? a->model_err : "No model for this lesson.";
		run_buf b = {0};
		rb_puts(&b, e, strlen(e), UI_ROLE_DIM);
		ln_wrap(t, b.cp, b.role, b.n, w, 0);
		free(b.cp);
		free(b.role);
	} else {
		const model_result *m = &a->model;
		char v[64], n[96];
		section(t, "Intensity (FLOP/B)");
		fmt_val(m->ai_global, v, sizeof v);
		snprintf(n, sizeof n, "ridge %.3g: %s-bound", m->ridge, m->bound ? m->bound : "?");
		kv(t, "global", v, n, w);
		if (m->ai_shared > 0) {
			fmt_val(m->ai_shared, v, sizeof v);
			kv(t, "shared", v, NULL, w);
		}
		fmt_val(m->ai_dram_ideal, v, sizeof v);
		kv(t, "DRAM, ideal", v, "A, B read once", w);

		section(t, "Per output element");
		fmt_count(m->global.loads_per_output, v, sizeof v);
		fmt_of_k(m->global.loads_per_output, m->K, n, sizeof n);
		kv(t, "global loads", v, n, w);
		if (m->shared.loads_per_output > 0) {
			fmt_count(m->shared.loads_per_output, v, sizeof v);
			fmt_of_k(m->shared.loads_per_output, m->K, n, sizeof n);
			kv(t, "shared loads", v, n, w);
		}
		section(t, "Per warp request");
		if (isnan(m->sectors_A) && isnan(m->sectors_B)) {
			/* TMA and wgmma: no per-thread loads to look at. */
			kv(t, "sectors A / B", "n/a", "no per-thread loads", w);
		} else {
			snprintf(v, sizeof v, "%.3g / %.3g", m->sectors_A, m->sectors_B);
			kv(t, "sectors A / B", v, "32 B each", w);
		}
		if (m->wavefronts_A > 0 || m->wavefronts_B > 0) {
			snprintf(v, sizeof v, "%.3g / %.3g", m->wavefronts_A, m->wavefronts_B);
			kv(t, "smem wavefronts", v, "1 = no conflict", w);
		}
		measured_counts(t, a, w);

		section(t, "Roofline");
		roofline(t, a, w);
		char tf[32], ms[32];
		fmt_si(m->peak_tflops * 1e12, "FLOP/s", tf, sizeof tf);
		snprintf(ms, sizeof ms, "%.3g ms", m->predicted_ms);
		kv(t, "peak", tf, m->unit, w);
		kv(t, "predicted", ms, "at the roofline", w);

		section(t, "Occupancy");
		if (!m->occ_ok) {
			ln_add(t, " not known for this launch shape", UI_ROLE_DIM);
			ln_nl(t);
		} else {
			const occ_result *o = &m->occ;
			ln_addf(t, UI_ROLE_EMPH, " %d blocks/SM, %d/%d warps = %.0f%%", o->blocks_per_sm, o->active_warps,
				o->max_warps, o->occupancy * 100);
			ln_nl(t);
			ln_addf(t, UI_ROLE_DIM, " %d threads, %d B smem,", m->threads, m->smem_static + m->smem_dynamic);
			ln_nl(t);
			ln_addf(t, UI_ROLE_DIM, " %d regs (%s)", m->regs_per_thread, m->regs_source ? m->regs_source : "?");
			ln_nl(t);
			const struct {
				const char *name, *key;
				int v;
			} lim[] = {
				{"by warps", "warps", o->limit_warps},
				{"by registers", "registers", o->limit_regs},
				{"by shared mem", "shared", o->limit_smem},
				{"by block limit", "blocks", o->limit_blocks},
			};
			for (size_t i = 0; i < ARRAY_LEN(lim); i++) {
				int bind = o->limiter && !strcmp(o->limiter, lim[i].key);
				ln_addf(t, bind ? UI_ROLE_BAR_SELF : UI_ROLE_NORMAL, " %-14s%3d blocks", lim[i].name,
					lim[i].v);
				if (bind)
					ln_addf(t, UI_ROLE_BAR_SELF, " %s binds", a->ascii ? "<" : "\u25C0");
				ln_nl(t);
			}
			for (int s = 0; s < o->nsteps; s++) {
				run_buf r = {0};
				rb_puts(&r, o->steps[s], strlen(o->steps[s]), UI_ROLE_DIM);
				ln_putc(t, ' ', UI_ROLE_NORMAL);
				ln_putc(t, ' ', UI_ROLE_NORMAL);
				ln_wrap(t, r.cp, r.role, r.n, w, 4);
				free(r.cp);
				free(r.role);
			}
		}
	}
	const ui_ptx *p = &a->ptx[a->lesson];
	if (p->ok && p->nmix) {
		section(t, "Instruction mix (static)");
		int col = 0;
		ln_putc(t, ' ', UI_ROLE_NORMAL);
		for (int i = 0; i < p->nmix; i++) {
			char item[48];
			snprintf(item, sizeof item, "%s %d", p->mix[i].op, p->mix[i].count);
			int iw = (int)strlen(item) + 2;
			if (col && col + iw > w - 1) {
				ln_nl(t);
				ln_putc(t, ' ', UI_ROLE_NORMAL);
				col = 0;
			}
			ln_add(t, p->mix[i].op, UI_ROLE_P_INSTR);
			ln_addf(t, UI_ROLE_NORMAL, " %d  ", p->mix[i].count);
			col += iw;
		}
		ln_nl(t);
	}
	(void)l;
}

/* ---- run: the last result, a running run, the ladder ---- */

static void bar(lines *t, const ui_glyphs *g, double frac, int w, ui_role role)
{
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	int eighths = (int)lround(frac * w * 8);
	for (int i = 0; i < w; i++) {
		int e = eighths - i * 8;
		e = e < 0 ? 0 : e > 8 ? 8 : e;
		ln_putc(t, g->eighths[e], role);
	}
}

/* A paragraph wrapped to the pane. */
static void wrap(lines *t, const char *s, ui_role role, int w, int indent)
{
	run_buf b = {0};
	rb_puts(&b, s, strlen(s), role);
	ln_wrap(t, b.cp, b.role, b.n, w, indent);
	free(b.cp);
	free(b.role);
}

/* An emulated run: the verdict against the CPU reference and what the
 * emulator counted, as Nsight Compute would. */
static void build_emulated(lines *t, const ui_app *a, const run_result *r, int w)
{
	const run_emu_counts *e = &r->emu;
	char v[64], n[96], sz[32];
	cube(sz, sizeof sz, e, a->ascii);
	ln_addf(t, UI_ROLE_EMPH, "Emulated on the CPU at %s%s", sz, a->offline ? " (no GPU)" : "");
	ln_nl(t);
	if (r->verified >= 0) {
		snprintf(v, sizeof v, "%.2g", r->rel_err);
		snprintf(n, sizeof n, "tol %.0e", r->tol);
		kv(t, "rel. error", v, n, w);
	}
	if (r->verified == 1)
		kv_role(t, "verdict", "PASS, verified on the CPU", UI_ROLE_GOOD, NULL, w);
	else if (r->verified == 0)
		kv_role(t, "verdict", "FAIL", UI_ROLE_BAD, NULL, w);
	else
		kv_role(t, "verdict", "not checked", UI_ROLE_DIM, NULL, w);
	if (r->status == RUN_WRONG)
		wrap(t, r->msg, UI_ROLE_BAD, w, 1);
	snprintf(v, sizeof v, "%.3g", per(e->gld_sectors, e->gld_requests));
	kv(t, "gmem loads", v, "sectors/request", w);
	snprintf(v, sizeof v, "%.3g", per(e->gst_sectors, e->gst_requests));
	kv(t, "gmem stores", v, "sectors/request", w);
	const struct {
		const char *name;
		unsigned long long req, wf, conflicts;
	} sh[] = {
		{"smem loads", e->sld_requests, e->sld_wavefronts, e->sld_conflicts},
		{"smem stores", e->sst_requests, e->sst_wavefronts, e->sst_conflicts},
	};
	for (size_t i = 0; i < ARRAY_LEN(sh); i++) {
		if (!sh[i].req)
			continue;
		snprintf(v, sizeof v, "%.3g", per(sh[i].wf, sh[i].req));
		kv(t, sh[i].name, v, "wavefronts/request", w);
		snprintf(v, sizeof v, "%llu", sh[i].conflicts);
		kv(t, "  conflicts", v, "bank conflicts", w);
	}
	snprintf(v, sizeof v, "%llu", e->inst);
	kv(t, "warp instr.", v, "issued", w);
	snprintf(v, sizeof v, "%.2f s", e->seconds);
	kv(t, "CPU time", v, NULL, w);
	wrap(t, "GFLOP/s need a GPU; the counts do not.", UI_ROLE_DIM, w, 1);
}

/* What a failed run means for the student, after its message. */
static void failure_notes(lines *t, const ui_app *a, const run_result *r, int w)
{
	const ui_ptx *p = &a->ptx[a->lesson];
	if (r->status == RUN_FAULT && !r->emulated)
		wrap(t, "The worker restarted with a fresh GPU context.", UI_ROLE_DIM, w, 1);
	else if (r->status == RUN_TIMEOUT && !r->emulated)
		wrap(t, "The kernel was killed at its deadline and the worker restarted.", UI_ROLE_DIM, w, 1);
	else if (r->status == RUN_TIMEOUT)
		wrap(t, "The emulator's instruction budget ran out: an endless loop?", UI_ROLE_DIM, w, 1);
	if (p->nmarks)
		wrap(t, "The PTX pane marks the lines.", UI_ROLE_DIM, w, 1);
	if (p->edited)
		wrap(t, "Your edit is kept: e edits it again, R compares and restores.", UI_ROLE_DIM, w, 1);
}

static void build_run(lines *t, const ui_app *a, int w)
{
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	const lesson *l = ui_app_lesson(a);
	const run_result *r = a->have_res[a->lesson] ? &a->res[a->lesson] : NULL;
	int busy_here = a->run == UI_RUN_BUSY && a->run_lesson == a->lesson;
	if (a->run == UI_RUN_BUSY) {
		double el = a->now - a->run_started;
		const char *id = a->course->l[a->run_lesson].id;
		if (a->run_emulated)
			ln_addf(t, UI_ROLE_WARN, "Emulating %s on the CPU ... %.1f s", id, el < 0 ? 0 : el);
		else if (a->run_was_check)
			ln_addf(t, UI_ROLE_WARN, "Checking %s with the JIT ... %.1f s", id, el < 0 ? 0 : el);
		else
			ln_addf(t, UI_ROLE_WARN, "Running %s ... %.1f s", id, el < 0 ? 0 : el);
		ln_nl(t);
		if (a->run_predicted_ms > 0 && !a->run_emulated && !a->run_was_check) {
			ln_addf(t, UI_ROLE_DIM, " model: ~%.3g ms a launch, plus JIT,", a->run_predicted_ms);
			ln_nl(t);
			ln_add(t, " warm-up, repeats and cuBLAS", UI_ROLE_DIM);
			ln_nl(t);
		}
		if (a->run_deadline > 0) {
			ln_addf(t, UI_ROLE_DIM, " killed after %.0f s (deadline)", a->run_deadline);
			ln_nl(t);
		}
		ln_add(t, " Esc", UI_ROLE_KEY);
		ln_add(t, " cancels", UI_ROLE_DIM);
		ln_nl(t);
	} else if (!r) {
		if (!l->ptx_path[0]) {
			ln_add(t, "No kernel in this lesson.", UI_ROLE_DIM);
		} else {
			ln_add(t, "Not run yet.", UI_ROLE_DIM);
			ln_nl(t);
			ln_add(t, "r", UI_ROLE_KEY);
			ln_add(t, a->offline ? " emulates it on the CPU." : " runs it on the GPU.", UI_ROLE_DIM);
		}
		ln_nl(t);
	}
	if (a->offline && !busy_here && !r) {
		char note[300];
		snprintf(note, sizeof note, "No GPU: %s. Runs are emulated on the CPU.", a->offline_why);
		wrap(t, note, UI_ROLE_DIM, w, 0);
	}
	if (r && !busy_here) {
		if (r->emulated && (r->status == RUN_OK || r->status == RUN_WRONG)) {
			build_emulated(t, a, r, w);
		} else if (r->status == RUN_OK && a->res_check[a->lesson]) {
			ln_add(t, "The JIT accepts your edit.", UI_ROLE_GOOD);
			ln_nl(t);
			ln_addf(t, UI_ROLE_DIM, " JIT: %d regs, %d B smem, %d blocks/SM", r->regs, r->smem_static,
				r->blocks_per_sm);
			ln_nl(t);
			ln_add(t, " r", UI_ROLE_KEY);
			ln_add(t, " runs, verifies and times it.", UI_ROLE_DIM);
			ln_nl(t);
		} else if (r->status == RUN_OK || r->status == RUN_WRONG) {
			char v[48];
			snprintf(v, sizeof v, "%.0f", r->gflops);
			kv(t, "GFLOP/s", v, r->gpu, w);
			snprintf(v, sizeof v, "%.3g ms", r->ms);
			kv(t, "time", v, "median", w);
			if (r->cublas_gflops > 0) {
				snprintf(v, sizeof v, "%.0f%%", 100 * r->gflops / r->cublas_gflops);
				char n[48];
				snprintf(n, sizeof n, "cuBLAS %.0f GFLOP/s", r->cublas_gflops);
				kv(t, "of cuBLAS", v, n, w);
			}
			const run_result *prev = a->lesson > 0 && a->have_res[a->lesson - 1] ? &a->res[a->lesson - 1] : NULL;
			if (prev && prev->status == RUN_OK && prev->gflops > 0) {
				snprintf(v, sizeof v, "%.2fx", r->gflops / prev->gflops);
				kv(t, "speed-up", v, a->course->l[a->lesson - 1].id, w);
			}
			if (r->verified >= 0) {
				snprintf(v, sizeof v, "%.2g", r->rel_err);
				char n[48];
				snprintf(n, sizeof n, "tol %.0e", r->tol);
				kv(t, "rel. error", v, n, w);
			}
			if (r->verified == 1)
				kv_role(t, "verdict", "PASS, verified (cuBLAS)", UI_ROLE_GOOD, NULL, w);
			else if (r->verified == 0)
				kv_role(t, "verdict", "FAIL, differs from cuBLAS", UI_ROLE_BAD, NULL, w);
			else
				kv_role(t, "verdict", "not checked", UI_ROLE_DIM, NULL, w);
			if (r->status == RUN_WRONG)
				wrap(t, r->msg, UI_ROLE_BAD, w, 1);
			if (r->regs > 0) {
				ln_addf(t, UI_ROLE_DIM, " JIT: %d regs, %d B smem, %d blocks/SM", r->regs, r->smem_static,
					r->blocks_per_sm);
				ln_nl(t);
			}
		} else if (r->status != RUN_NO_GPU || !a->offline) {
			run_buf b = {0};
			const char *what = r->status == RUN_NO_GPU ? "No GPU:"
				: r->emulated && r->status == RUN_JIT_ERROR ? "parse error"
				: r->emulated && r->status == RUN_FAULT ? "fault (emulated)"
				: run_status_name(r->status);
			rb_puts(&b, what, strlen(what), r->status == RUN_NO_GPU ? UI_ROLE_WARN : UI_ROLE_BAD);
			if (r->status != RUN_NO_GPU)
				rb_puts(&b, ":", 1, UI_ROLE_BAD);
			rb_puts(&b, " ", 1, UI_ROLE_NORMAL);
			rb_puts(&b, r->msg, strlen(r->msg), UI_ROLE_NORMAL);
			ln_wrap(t, b.cp, b.role, b.n, w, 1);
			free(b.cp);
			free(b.role);
			if (r->status == RUN_NO_GPU)
				wrap(t, "The text, the PTX, the numbers and the what-ifs work without one.", UI_ROLE_DIM, w, 0);
			failure_notes(t, a, r, w);
			/* The JIT's own words; the emulator's one line is the message already. */
			if (r->log[0] && !r->emulated) {
				const char *s = r->log;
				for (int k = 0; k < 6 && *s; k++) {
					const char *e = strchr(s, '\n');
					size_t n = e ? (size_t)(e - s) : strlen(s);
					char line[256];
					snprintf(line, sizeof line, " %.*s", (int)(n < 250 ? n : 250), s);
					ln_add(t, line, UI_ROLE_DIM);
					ln_nl(t);
					s = e ? e + 1 : s + n;
				}
			}
		}
	}

	/* The ladder so far: every lesson run in this session. */
	double top = 0, cublas = 0;
	int any = 0;
	for (int i = 0; i < a->course->n; i++) {
		const run_result *x = &a->res[i];
		if (!a->have_res[i] || x->status != RUN_OK || x->gflops <= 0)
			continue;
		any++;
		top = fmax(top, x->gflops);
		cublas = fmax(cublas, x->cublas_gflops);
	}
	if (!any)
		return;
	top = fmax(top, cublas);
	ln_nl(t);
	section(t, "The ladder (GFLOP/s)");
	int bw = w - 22;
	if (bw < 6)
		bw = 6;
	for (int i = 0; i < a->course->n; i++) {
		const run_result *x = &a->res[i];
		if (!a->have_res[i] || x->status != RUN_OK || x->gflops <= 0)
			continue;
		ui_role role = i == a->lesson ? UI_ROLE_BAR_SELF : UI_ROLE_BAR;
		ln_addf(t, role, " %2d %-8.8s", a->course->l[i].number, a->course->l[i].id);
		bar(t, g, x->gflops / top, bw, role);
		ln_addf(t, UI_ROLE_NORMAL, " %.0f", x->gflops);
		ln_nl(t);
	}
	if (cublas > 0) {
		ln_addf(t, UI_ROLE_DIM, "    %-8s", "cuBLAS");
		bar(t, g, cublas / top, bw, UI_ROLE_DIM);
		ln_addf(t, UI_ROLE_DIM, " %.0f", cublas);
		ln_nl(t);
	}
}

static void build_pane(lines *t, const ui_app *a, ui_pane p, int w)
{
	ln_init(t);
	switch (p) {
	case UI_PANE_LESSON:
		build_lesson(t, a, w);
		break;
	case UI_PANE_NUMBERS:
		build_numbers(t, a, w);
		break;
	case UI_PANE_RUN:
		build_run(t, a, w);
		break;
	default:
		break;
	}
	if (ln_cur_width(t) > 0)
		ln_nl(t);
}

int ui_pane_lines(const ui_app *a, ui_pane p, int w)
{
	lines t;
	build_pane(&t, a, p, w);
	int n = t.nlines;
	ln_free(&t);
	return n;
}

/* ---- placing things in the frame ---- */

static ui_rect body_of(ui_rect r)
{
	return (ui_rect){r.x, r.y + 1, r.w, r.h - 1};
}

static void draw_title(ui_frame *f, ui_rect r, const char *text, int focused)
{
	ui_role role = focused ? UI_ROLE_TITLE_FOCUS : UI_ROLE_TITLE;
	ui_frame_fill(f, (ui_rect){r.x, r.y, r.w, 1}, ' ', role);
	ui_frame_text(f, r, r.x + 1, r.y, text, role);
}

static void draw_lines(ui_frame *f, ui_rect body, const lines *t, int scroll, int pad, uint32_t mark)
{
	if (scroll > t->nlines - body.h)
		scroll = t->nlines - body.h;
	if (scroll < 0)
		scroll = 0;
	for (int y = 0; y < body.h && scroll + y < t->nlines; y++) {
		int i0 = t->start[scroll + y], i1 = t->start[scroll + y + 1];
		for (int i = i0; i < i1 && i - i0 < body.w - pad - 1; i++)
			ui_frame_put(f, body.x + pad + i - i0, body.y + y, t->cp[i], (ui_role)t->role[i]);
	}
	/* A scroll mark in the last column when there is more than shows. */
	if (t->nlines > body.h && body.h > 2) {
		int pos = (int)((double)scroll / (t->nlines - body.h) * (body.h - 1));
		ui_frame_put(f, body.x + body.w - 1, body.y + pos, mark, UI_ROLE_BORDER);
	}
}

static void draw_text_pane(const ui_app *a, ui_frame *f, ui_pane p, const char *title)
{
	ui_rect r = a->layout.pane[p];
	if (r.h <= 0) /* hidden while another pane is zoomed */
		return;
	int pad = a->present ? 2 : 1;
	lines t;
	build_pane(&t, a, p, r.w - pad - 1);
	draw_title(f, r, title, a->focus == (int)p);
	draw_lines(f, body_of(r), &t, a->scroll[p], pad, a->ascii ? '#' : 0x2590 /* right half block */);
	ln_free(&t);
}

static const ui_role class_role[PTX_NCLASSES] = {
	[PTX_TEXT] = UI_ROLE_NORMAL,
	[PTX_DIRECTIVE] = UI_ROLE_P_DIRECTIVE,
	[PTX_TYPE] = UI_ROLE_P_TYPE,
	[PTX_INSTR] = UI_ROLE_P_INSTR,
	[PTX_REG] = UI_ROLE_P_REG,
	[PTX_LABEL] = UI_ROLE_P_LABEL,
	[PTX_PRED] = UI_ROLE_P_PRED,
	[PTX_COMMENT] = UI_ROLE_P_COMMENT,
	[PTX_NUMBER] = UI_ROLE_P_NUMBER,
};

static void draw_ptx(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.pane[UI_PANE_PTX];
	if (r.h <= 0)
		return;
	const lesson *l = ui_app_lesson(a);
	const ui_ptx *p = &a->ptx[a->lesson];
	const lesson_page *pg = ui_app_page(a);
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	char title[256];
	int af, al;
	ui_app_anchor_lines(a, &af, &al);
	const char *ed = p->edited ? " [edited: R diff]" : "";
	if (!l->ptx_path[0])
		snprintf(title, sizeof title, "PTX");
	else if (p->nmarks)
		fmt(title, sizeof title, "PTX %s%s  %d %s at line %d", l->ptx_path, ed, p->nmarks,
		    p->nmarks > 1 ? "problems" : "problem", p->marks[0].line);
	else if (af >= 0)
		fmt(title, sizeof title, "PTX %s%s  @%s lines %d-%d", l->ptx_path, ed, pg->anchors[0], af + 1, al + 1);
	else
		fmt(title, sizeof title, "PTX %s%s  %s", l->ptx_path, ed, l->entry);
	draw_title(f, r, title, a->focus == UI_PANE_PTX);
	ui_rect body = body_of(r);
	if (!l->ptx_path[0]) {
		ui_frame_text(f, body, body.x + 1, body.y, "This lesson has no kernel.", UI_ROLE_DIM);
		return;
	}
	if (!p->ok) {
		ui_frame_text(f, body, body.x + 1, body.y, p->err[0] ? p->err : "PTX not loaded", UI_ROLE_BAD);
		return;
	}
	int n;
	ptx_row *rows = ui_app_ptx_rows(a, &n);
	int top = ui_app_ptx_top(a, rows, n, body.h);
	int digits = 1;
	for (int v = p->doc.nlines; v >= 10; v /= 10)
		digits++;
	int tx = body.x + digits + 2;
	ui_rect code = {tx, body.y, body.x + body.w - tx, body.h};
	unsigned char cls[4096];
	for (int y = 0; y < body.h && top + y < n; y++) {
		const ptx_row *row = &rows[top + y];
		int sy = body.y + y;
		if (row->hidden < 0) {
			/* A mark's message, under its line. */
			const userptx_mark *m = &p->marks[-row->hidden - 1];
			char s[220];
			snprintf(s, sizeof s, "%s %s: %s", a->ascii ? "^" : "\u2191", m->error ? "error" : "warning", m->msg);
			ui_frame_text(f, code, tx, sy, s, m->error ? UI_ROLE_BAD : UI_ROLE_WARN);
			continue;
		}
		int marked = 0;
		for (int m = 0; m < p->nmarks; m++)
			marked |= p->marks[m].line - 1 == row->line && !row->hidden;
		int in_region = af >= 0 && row->line >= af && row->line <= al;
		if (in_region) {
			ui_frame_flag(f, body.x, sy, body.w, UI_CELL_HL);
			ui_frame_put(f, body.x + digits, sy, g->mark, UI_ROLE_BAR_SELF);
		}
		if (row->hidden) {
			char s[96];
			snprintf(s, sizeof s, " %s %d more lines like these (z unfolds)", a->ascii ? "..." : "\u22EE",
				 row->hidden);
			ui_frame_text(f, code, tx, sy, s, UI_ROLE_FOLD);
			continue;
		}
		const ptx_line *pl = &p->doc.lines[row->line];
		char num[16];
		fmt(num, sizeof num, "%*d", digits, row->line + 1);
		ui_frame_text(f, body, body.x, sy, num, marked ? UI_ROLE_BAD : UI_ROLE_LINENO);
		if (marked)
			ui_frame_put(f, body.x + digits, sy, a->ascii ? '!' : 0x2717, UI_ROLE_BAD);
		const char *s = p->doc.text + pl->off;
		int len = pl->len < (int)sizeof cls ? pl->len : (int)sizeof cls;
		int blk = pl->block_in;
		ptx_classify_line(s, len, cls, &blk);
		int x = tx;
		for (int i = 0; i < len && x < code.x + code.w;) {
			int cl;
			uint32_t cp = ui_utf8_decode(s + i, (size_t)(len - i), &cl);
			ui_role role = class_role[cls[i]];
			i += cl;
			if (cp == '\t') {
				int next = tx + ((x - tx) / 4 + 1) * 4; /* tab stops of 4: PTX is indented with tabs */
				while (x < next && x < code.x + code.w)
					ui_frame_put(f, x++, sy, ' ', role);
				continue;
			}
			ui_frame_put(f, x++, sy, cp < 32 ? '?' : cp, role);
		}
	}
	free(rows);
}

static void draw_header(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.header;
	const lesson *l = ui_app_lesson(a);
	ui_frame_fill(f, r, ' ', UI_ROLE_HEADER);
	char s[512], sm[16] = "", size[64];
	if (a->gpu.cc_major)
		snprintf(sm, sizeof sm, " sm_%d%d", a->gpu.cc_major, a->gpu.cc_minor);
	if (a->M == a->N && a->N == a->K)
		snprintf(size, sizeof size, "%lld%s", a->M, a->ascii ? "^3" : "\u00B3");
	else
		snprintf(size, sizeof size, "%lldx%lldx%lld", a->M, a->N, a->K);
	const char *gpu = a->gpu.name;
	if (!strncmp(gpu, "NVIDIA ", 7))
		gpu = gpu + 7;
	/* The lesson's own number, as the texts say "lesson 3", out of the last one. */
	int n = snprintf(s, sizeof s, " Lesson %d/%d %s%s | %s %s | %s%s", l->number,
			 a->course->l[a->course->n - 1].number, l->title,
			 a->ptx[a->lesson].edited ? " [edited]" : "", size, dtype_name(l->dt), gpu, sm);
	for (int i = 0; i < a->whatif.n && n > 0 && n < (int)sizeof s - 40; i++)
		n += snprintf(s + n, sizeof s - (size_t)n, "%s%s=%lld", i ? " " : " | what-if ", a->whatif.v[i].name,
			      a->whatif.v[i].value);
	if (a->regs_override && n > 0 && n < (int)sizeof s - 40)
		snprintf(s + n, sizeof s - (size_t)n, " regs=%d", a->regs_override);
	ui_frame_text(f, r, r.x, r.y, s, UI_ROLE_HEADER);
}

static void draw_status(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.status;
	ui_frame_fill(f, r, ' ', UI_ROLE_STATUS);
	if (a->mode == UI_MODE_ANSWER) {
		char s[128];
		snprintf(s, sizeof s, " Answer: %s_   Enter checks, Esc cancels", a->answer);
		ui_frame_text(f, r, r.x, r.y, s, UI_ROLE_STATUS);
		return;
	}
	const lesson *l = ui_app_lesson(a);
	char s[256];
	snprintf(s, sizeof s, " page %d/%d  n/p lesson  Space/Bksp page  r run  t what-if  ? help  q quit",
		 a->page + 1, l->npages);
	int x = ui_frame_text(f, r, r.x, r.y, s, UI_ROLE_STATUS);
	if (a->msg[0]) {
		int mw = ui_utf8_width(a->msg, strlen(a->msg));
		/* The message wins over the key hints when both do not fit. */
		int mx = r.x + r.w - mw - 1;
		if (mx < x + 2)
			ui_frame_fill(f, (ui_rect){mx < 0 ? 0 : mx - 1, r.y, r.w, 1}, ' ', UI_ROLE_STATUS);
		ui_frame_text(f, r, mx < 0 ? 0 : mx, r.y, a->msg, a->msg_bad ? UI_ROLE_BAD : UI_ROLE_STATUS);
	}
}

static void draw_box(const ui_app *a, ui_frame *f, ui_rect r, const char *title)
{
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	ui_frame_fill(f, r, ' ', UI_ROLE_NORMAL);
	for (int x = r.x; x < r.x + r.w; x++) {
		ui_frame_put(f, x, r.y, g->hline, UI_ROLE_BORDER);
		ui_frame_put(f, x, r.y + r.h - 1, g->hline, UI_ROLE_BORDER);
	}
	for (int y = r.y; y < r.y + r.h; y++) {
		ui_frame_put(f, r.x, y, g->vline, UI_ROLE_BORDER);
		ui_frame_put(f, r.x + r.w - 1, y, g->vline, UI_ROLE_BORDER);
	}
	uint32_t c[4] = {0x250C, 0x2510, 0x2514, 0x2518};
	if (a->ascii)
		c[0] = c[1] = c[2] = c[3] = '+';
	ui_frame_put(f, r.x, r.y, c[0], UI_ROLE_BORDER);
	ui_frame_put(f, r.x + r.w - 1, r.y, c[1], UI_ROLE_BORDER);
	ui_frame_put(f, r.x, r.y + r.h - 1, c[2], UI_ROLE_BORDER);
	ui_frame_put(f, r.x + r.w - 1, r.y + r.h - 1, c[3], UI_ROLE_BORDER);
	char t[96];
	snprintf(t, sizeof t, " %s ", title);
	ui_frame_text(f, r, r.x + 2, r.y, t, UI_ROLE_HEADING);
}

static void draw_help(const ui_app *a, ui_frame *f)
{
	ui_rect r = a->layout.help;
	char th[96];
	snprintf(th, sizeof th, "Keys%s%s (any key closes)", a->help_mode ? " in the " : "",
		 a->help_mode ? ui_mode_name(a->help_mode) : "");
	draw_box(a, f, r, th);
	ui_rect in = {r.x + 2, r.y + 1, r.w - 4, r.h - 2};
	/* The lines come from the binding table (src/ui/keys.c). */
	ui_help_line lines[48];
	int n = ui_keys_help(a->help_mode, lines, (int)ARRAY_LEN(lines));
	int y = in.y;
	for (int i = 0; i < n && y < in.y + in.h; i++, y++) {
		ui_frame_text(f, in, in.x, y, lines[i].keys, UI_ROLE_KEY);
		ui_frame_text(f, in, in.x + lines[i].text_col, y, lines[i].text,
			      lines[i].keys[0] ? UI_ROLE_NORMAL : UI_ROLE_DIM);
	}
	snprintf(th, sizeof th, "theme %s (%s)%s", a->theme->name, a->theme->about, a->ascii ? ", ASCII" : "");
	if (y < in.y + in.h)
		ui_frame_text(f, in, in.x, y, th, UI_ROLE_DIM);
}

static void draw_whatif(const ui_app *a, ui_frame *f)
{
	const lesson *l = ui_app_lesson(a);
	ui_rect p = a->layout.pane[UI_PANE_LESSON];
	int h = l->nparams + 6;
	ui_rect r = {p.x + 1, p.y + 1, p.w - 2 < 60 ? p.w - 2 : 60, h < p.h - 1 ? h : p.h - 1};
	draw_box(a, f, r, "What if ... (Esc closes)");
	ui_rect in = {r.x + 2, r.y + 1, r.w - 4, r.h - 2};
	int y = in.y;
	for (int i = 0; i <= l->nparams && y < in.y + in.h; i++, y++) {
		char s[128];
		if (i < l->nparams) {
			long long v;
			int set = expr_get(&a->whatif, l->params[i].name, &v);
			if (!set)
				v = l->params[i].value;
			snprintf(s, sizeof s, "%-8s %6lld  default %-5lld %s", l->params[i].name, v, l->params[i].value,
				 l->params[i].runtime ? "kernel" : "model only");
		} else {
			int regs = a->regs_override ? a->regs_override : a->model_ok ? a->model.regs_per_thread : 0;
			snprintf(s, sizeof s, "%-8s %6d  %s", "regs", regs,
				 a->regs_override ? "what-if" : (a->model_ok && a->model.regs_source ? a->model.regs_source : "?"));
		}
		ui_role role = i == a->whatif_sel ? UI_ROLE_SELECT : UI_ROLE_NORMAL;
		if (i == a->whatif_sel)
			ui_frame_fill(f, (ui_rect){in.x, y, in.w, 1}, ' ', role);
		ui_frame_text(f, in, in.x, y, s, role);
	}
	if (y + 1 < in.y + in.h)
		ui_frame_text(f, in, in.x, y + 1, "Left/Right halve/double, 0 resets", UI_ROLE_DIM);
}

/* R: the student's copy against the shipped file, with the keys to restore. */
static void draw_diff(const ui_app *a, ui_frame *f)
{
	const ui_rect r = a->layout.help;
	const userptx_diff *d = &a->diff;
	const lesson *l = ui_app_lesson(a);
	const char *base = strrchr(l->ptx_path, '/');
	char s[512];
	snprintf(s, sizeof s, "Your %s against the original", base ? base + 1 : l->ptx_path);
	draw_box(a, f, r, s);
	ui_rect in = {r.x + 2, r.y + 1, r.w - 4, r.h - 2};
	snprintf(s, sizeof s, "%d line%s added, %d removed", d->added, d->added == 1 ? "" : "s", d->removed);
	ui_frame_text(f, in, in.x, in.y, d->n ? s : "No differences.", UI_ROLE_EMPH);
	int h = ui_app_diff_rows(a);
	for (int y = 0; y < h && a->diff_scroll + y < d->n; y++) {
		const userptx_dline *dl = &d->l[a->diff_scroll + y];
		ui_role role = dl->kind == '+' ? UI_ROLE_GOOD : dl->kind == '-' ? UI_ROLE_BAD
			: dl->kind == '@' ? UI_ROLE_HEADING : UI_ROLE_NORMAL;
		int o = 0;
		if (dl->kind == '@')
			o = snprintf(s, sizeof s, "%s", dl->text);
		else
			o = snprintf(s, sizeof s, "%c%5d  ", dl->kind, dl->kind == '-' ? dl->old_line : dl->new_line);
		/* Tabs to stops of 4, as in the PTX pane. */
		for (const char *c = dl->kind == '@' ? "" : dl->text; *c && o + 5 < (int)sizeof s; c++) {
			if (*c == '\t')
				do
					s[o++] = ' ';
				while ((o - 8) % 4);
			else
				s[o++] = *c;
		}
		s[o] = '\0';
		ui_frame_text(f, in, in.x, in.y + 1 + y, s, role);
	}
	ui_frame_text(f, in, in.x, in.y + in.h - 1, "y restores the original  j/k/Space scroll  Esc closes",
		      UI_ROLE_KEY);
}

static void draw_too_small(const ui_app *a, ui_frame *f)
{
	ui_rect all = {0, 0, f->cols, f->rows};
	char s[128];
	snprintf(s, sizeof s, "Terminal too small: %dx%d.", a->cols, a->rows);
	int y = f->rows / 2 - 1;
	ui_frame_text(f, all, 1, y < 0 ? 0 : y, s, UI_ROLE_BAD);
	snprintf(s, sizeof s, "ptxtutor needs at least %dx%d.", UI_MIN_COLS, UI_MIN_ROWS);
	ui_frame_text(f, all, 1, y + 1, s, UI_ROLE_NORMAL);
	ui_frame_text(f, all, 1, y + 2, "Enlarge it, or press q.", UI_ROLE_DIM);
}

void ui_draw(const ui_app *a, ui_frame *f)
{
	const ui_layout *L = &a->layout;
	if (f->cols != L->cols || f->rows != L->rows)
		ui_frame_resize(f, L->cols, L->rows);
	else
		ui_frame_clear(f);
	if (L->kind == UI_LAYOUT_TOO_SMALL) {
		draw_too_small(a, f);
		return;
	}
	draw_header(a, f);
	const lesson *l = ui_app_lesson(a);
	const lesson_page *pg = ui_app_page(a);
	char title[160];
	snprintf(title, sizeof title, "%s  page %d/%d", pg ? pg->title : l->title, a->page + 1, l->npages);
	draw_text_pane(a, f, UI_PANE_LESSON, title);
	draw_ptx(a, f);
	if (L->tabbed) {
		ui_pane s = a->side == UI_PANE_RUN ? UI_PANE_RUN : UI_PANE_NUMBERS;
		snprintf(title, sizeof title, "%s  (Tab: %s)", s == UI_PANE_RUN ? "Run" : "Numbers",
			 s == UI_PANE_RUN ? "numbers" : "run");
		draw_text_pane(a, f, s, title);
	} else {
		draw_text_pane(a, f, UI_PANE_NUMBERS, "Numbers");
		draw_text_pane(a, f, UI_PANE_RUN, "Run");
	}
	/* Separators between panes side by side. */
	const ui_glyphs *g = ui_glyphs_get(a->ascii);
	for (int p = 0; p < UI_NPANES; p++) {
		ui_rect r = L->pane[p];
		if (r.w > 0 && r.x + r.w < L->cols)
			for (int y = r.y; y < r.y + r.h; y++)
				ui_frame_put(f, r.x + r.w, y, g->vline, UI_ROLE_BORDER);
	}
	draw_status(a, f);
	if (a->mode == UI_MODE_HELP)
		draw_help(a, f);
	else if (a->mode == UI_MODE_WHATIF)
		draw_whatif(a, f);
	else if (a->mode == UI_MODE_DIFF)
		draw_diff(a, f);
}
