/* linediff: two texts' lines matched by a longest common subsequence, after their common start and end. */
#include "base/linediff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/util.h"

/* A line as it compares: its text without the blanks at both ends, and that text's hash. */
typedef struct {
	const char *s;
	size_t n;
	uint64_t h;
} key;

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The lines of text as keys (1-based: k[0] unused); *n their count. */
static key *keys_of(const char *text, int *n)
{
	int cap = 64;
	key *k = xmalloc((size_t)cap * sizeof *k);
	*n = 0;
	for (const char *p = text ? text : ""; *p;) {
		const char *nl = strchr(p, '\n'), *e = nl ? nl : p + strlen(p);
		const char *b = p;
		while (b < e && is_blank(*b))
			b++;
		while (e > b && is_blank(e[-1]))
			e--;
		if (++*n == cap)
			k = xreallocarray(k, (size_t)(cap *= 2), sizeof *k);
		k[*n] = (key){b, (size_t)(e - b), hash_fnv1a64(b, (size_t)(e - b))};
		if (!nl)
			break;
		p = nl + 1;
	}
	return k;
}

static int same(const key *x, const key *y)
{
	return x->h == y->h && x->n == y->n && !memcmp(x->s, y->s, x->n);
}

/* The LCS of a[lo_a..hi_a] and b[lo_b..hi_b] (inclusive), written into the maps. */
static void lcs(linediff *d, const key *a, int lo_a, int hi_a, const key *b, int lo_b, int hi_b)
{
	int n = hi_a - lo_a + 1, m = hi_b - lo_b + 1;
	if (n <= 0 || m <= 0 || (long long)(n + 1) * (m + 1) > LINEDIFF_MAX_CELLS)
		return;
	/* L[i][j]: the LCS of a's middle from i and b's from j (suffixes), so the walk goes forward */
	uint32_t *L = xcalloc((size_t)(n + 1) * (size_t)(m + 1), sizeof *L);
#define AT(i, j) L[(size_t)(i) * (size_t)(m + 1) + (size_t)(j)]
	for (int i = n - 1; i >= 0; i--)
		for (int j = m - 1; j >= 0; j--)
			AT(i, j) = same(&a[lo_a + i], &b[lo_b + j]) ? AT(i + 1, j + 1) + 1
				   : AT(i + 1, j) >= AT(i, j + 1) ? AT(i + 1, j) : AT(i, j + 1);
	for (int i = 0, j = 0; i < n && j < m;) {
		if (same(&a[lo_a + i], &b[lo_b + j])) {
			d->a_to_b[lo_a + i] = lo_b + j;
			d->b_to_a[lo_b + j] = lo_a + i;
			i++, j++;
		} else if (AT(i + 1, j) >= AT(i, j + 1)) {
			i++;
		} else {
			j++;
		}
	}
#undef AT
	free(L);
}

void linediff_match(linediff *d, const char *a, const char *b)
{
	key *ka = keys_of(a, &d->na), *kb = keys_of(b, &d->nb);
	d->a_to_b = xcalloc((size_t)d->na + 1, sizeof *d->a_to_b);
	d->b_to_a = xcalloc((size_t)d->nb + 1, sizeof *d->b_to_a);
	int lo = 1, ha = d->na, hb = d->nb;
	for (; lo <= ha && lo <= hb && same(&ka[lo], &kb[lo]); lo++)
		d->a_to_b[lo] = lo, d->b_to_a[lo] = lo;
	for (; ha >= lo && hb >= lo && same(&ka[ha], &kb[hb]); ha--, hb--)
		d->a_to_b[ha] = hb, d->b_to_a[hb] = ha;
	lcs(d, ka, lo, ha, kb, lo, hb);
	free(ka);
	free(kb);
}

void linediff_free(linediff *d)
{
	free(d->a_to_b);
	free(d->b_to_a);
	memset(d, 0, sizeof *d);
}
