/* ui/ptx_counts: which per-line figures the PTX pane shows, and which lines are hot. */
#include "ui/ptx_counts.h"

#include <string.h>

#include "base/util.h"

/* The short set: what coalescing and conflicts turn on, in the fewest columns. */
static const char *const short_keys[] = {"instructions", "sectors_per_request", "wavefronts_per_request", "bank_conflicts"};

static const char *const mode_names[UI_NCOLS_MODES] = {
	[UI_COLS_SHORT] = "a few columns", [UI_COLS_ALL] = "every column", [UI_COLS_OFF] = "no columns",
};

const char *ui_ptx_counts_mode_name(ui_cols_mode mode)
{
	return (unsigned)mode < UI_NCOLS_MODES ? mode_names[mode] : "?";
}

int ui_ptx_counts_columns(ui_cols_mode mode, const run_line_field **cols, int max)
{
	int n, k = 0;
	const run_line_field *f = run_line_fields(&n);
	for (int i = 0; i < n && k < max; i++) {
		int in = mode == UI_COLS_ALL;
		for (size_t j = 0; mode == UI_COLS_SHORT && j < ARRAY_LEN(short_keys); j++)
			in |= !strcmp(f[i].key, short_keys[j]);
		if (in)
			cols[k++] = &f[i];
	}
	return k;
}

const run_result *ui_ptx_counts_of(const ui_app *a)
{
	const ui_run_slot *s = &a->slot[a->lesson];
	if (s->have && s->res.backend == RUN_BACKEND_EMU && s->res.nlines > 0)
		return &s->res;
	return s->have && s->have_lines == 1 ? &s->lines : NULL; /* a GPU run's: emulated beside it */
}

int ui_ptx_counts_header(const ui_app *a)
{
	const ui_run_slot *s = &a->slot[a->lesson];
	return a->ptx_cols != UI_COLS_OFF && !a->sass_view && s->have &&
	       (ui_ptx_counts_of(a) || (s->res.backend != RUN_BACKEND_EMU && (s->res.status == RUN_OK || s->res.status == RUN_WRONG)));
}

const run_line_counts *ui_ptx_counts_line(const run_result *r, int line)
{
	int lo = 0, hi = r->nlines - 1;
	if (hi >= 0 && !r->lines[hi].line)
		hi--; /* the summed row */
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (r->lines[mid].line == line)
			return &r->lines[mid];
		if (r->lines[mid].line < line)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

static unsigned long long total_cost(const run_result *r)
{
	unsigned long long t = 0;
	for (int i = 0; i < r->nlines; i++)
		t += run_line_cost(&r->lines[i]);
	return t;
}

int ui_ptx_counts_heat(const run_result *r, const run_line_counts *l)
{
	double t = (double)total_cost(r), c = (double)run_line_cost(l);
	return !l->line || t <= 0 ? 0 : c >= UI_HOT_SHARE * t ? 2 : c >= UI_WARM_SHARE * t ? 1 : 0;
}

/* Whether line a comes before line b in cost order (costliest first, then by line). */
static int before(const run_line_counts *a, const run_line_counts *b)
{
	unsigned long long ca = run_line_cost(a), cb = run_line_cost(b);
	return ca != cb ? ca > cb : a->line < b->line;
}

/* The lines H walks: the hot and warm ones; when none is, every line that
 * costs anything (the cost is spread: H walks the costliest first). */
static int walked(const run_result *r, const run_line_counts *l, int any_hot)
{
	return l->line && (any_hot ? ui_ptx_counts_heat(r, l) > 0 : run_line_cost(l) > 0);
}

int ui_ptx_counts_spread(const run_result *r, int *rank, int line)
{
	int hot = 0, n = 0;
	const run_line_counts *cur = line > 0 ? ui_ptx_counts_line(r, line) : NULL;
	*rank = 0;
	for (int i = 0; i < r->nlines; i++)
		hot |= r->lines[i].line && ui_ptx_counts_heat(r, &r->lines[i]) > 0;
	for (int i = 0; i < r->nlines; i++) {
		const run_line_counts *l = &r->lines[i];
		if (!walked(r, l, hot))
			continue;
		n++;
		if (cur && (l == cur || before(l, cur)))
			(*rank)++;
	}
	if (cur && !walked(r, cur, hot))
		*rank = 0;
	return hot ? 0 : n;
}

int ui_ptx_counts_next_hot(const run_result *r, int line)
{
	int hot = 0;
	for (int i = 0; i < r->nlines && !hot; i++)
		hot = r->lines[i].line && ui_ptx_counts_heat(r, &r->lines[i]) > 0;
	const run_line_counts *cur = line > 0 ? ui_ptx_counts_line(r, line) : NULL, *best = NULL, *first = NULL;
	if (cur && !walked(r, cur, hot))
		cur = NULL;
	for (int i = 0; i < r->nlines; i++) {
		const run_line_counts *l = &r->lines[i];
		if (!l->line)
			continue;
		if (!first || before(l, first))
			first = l;
		if (cur && walked(r, l, hot) && before(cur, l) && (!best || before(l, best)))
			best = l;
	}
	return best ? best->line : first ? first->line : 0;
}
