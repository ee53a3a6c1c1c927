/* access: sectors, wavefronts and ideal wavefronts of one warp-wide access (the rules are in access.h). */
#include "model/access.h"

#include <string.h>

/* The units of `unit` bytes that `bytes` bytes from addr fall in: the first
 * one and how many. Computed from the offset within the first unit, so an
 * address near the end of the range cannot overflow. unit is a power of two
 * (4, 32, 128), so a shift and a mask round down for any address: addresses
 * may be negative. */
static int64_t units_of(int64_t addr, int bytes, int unit, int *n)
{
	int shift = __builtin_ctz((unsigned)unit);
	*n = (int)(((addr & (int64_t)(unit - 1)) + bytes - 1) >> shift) + 1;
	return addr >> shift; /* arithmetic: rounds down for a negative address too */
}

/* Inserts x into the sorted list v[0..n) unless it is there; returns the
 * new length. Lanes usually walk memory in order: an append or a repeat of
 * the last, tested first. */
static int insert_unique(int64_t *v, int n, int64_t x)
{
	if (n == 0 || v[n - 1] < x) {
		v[n] = x;
		return n + 1;
	}
	if (v[n - 1] == x)
		return n;
	int j = n;
	while (j > 0 && v[j - 1] > x)
		j--;
	if (j > 0 && v[j - 1] == x)
		return n;
	memmove(v + j + 1, v + j, (size_t)(n - j) * sizeof *v);
	v[j] = x;
	return n + 1;
}

/* Most units one lane's bytes can span: ACCESS_MAX_BYTES misaligned. */
#define SECTORS_PER_LANE (ACCESS_MAX_BYTES / 32 + 1)
#define WORDS_PER_LANE (ACCESS_MAX_BYTES / 4 + 1)

/* The distinct units of `unit` bytes the masked lanes touch, sorted into u
 * (room for 32 lanes' worth); returns how many. */
static int distinct_units(const int64_t addr[32], uint32_t mask, int bytes, int unit, int64_t *u)
{
	int nu = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m), n;
		int64_t first = units_of(addr[l], bytes, unit, &n);
		for (int i = 0; i < n; i++)
			nu = insert_unique(u, nu, first + i);
	}
	return nu;
}

/* The distinct sectors, and the distinct lines they fall in: a line's sectors go through the L1
 * data stage together, one line a wavefront (access.h gives the measurement). The lines come from
 * the sorted sectors (a lane's 128-byte units are those of its 32-byte ones): one pass, not two. */
static unsigned count_sectors(const int64_t addr[32], uint32_t mask, int bytes, unsigned *lines)
{
	int64_t s[32 * SECTORS_PER_LANE];
	int n = distinct_units(addr, mask, bytes, 32, s);
	unsigned nl = 0;
	for (int i = 0; i < n; i++)
		nl += i == 0 || s[i] >> 2 != s[i - 1] >> 2;
	*lines = nl;
	return (unsigned)n;
}

/* Every active lane has the address of lane l ^ x, where that lane is active. */
static int pairs_uniform(const int64_t addr[32], uint32_t mask, int x)
{
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		if (((mask >> (l ^ x)) & 1) && addr[l] != addr[l ^ x])
			return 0;
	}
	return 1;
}

/* Passes the banks need for the lanes of one group: the most distinct words
 * any bank holds. Each bank keeps a list of its words (most hold one or two),
 * so lanes out of address order cost no sorting. */
static unsigned group_passes(const int64_t addr[32], uint32_t gmask, int bytes)
{
	int64_t word[32 * WORDS_PER_LANE];
	int next[32 * WORDS_PER_LANE], head[32], nw = 0;
	unsigned per_bank[32] = {0}, worst = 0;
	for (int b = 0; b < 32; b++)
		head[b] = -1;
	for (uint32_t m = gmask; m; m &= m - 1) {
		int n;
		int64_t first = units_of(addr[__builtin_ctz(m)], bytes, 4, &n);
		for (int64_t w = first; w < first + n; w++) {
			int b = (int)(w & 31), j = head[b]; /* the bank, for a negative word too */
			while (j >= 0 && word[j] != w)
				j = next[j];
			if (j >= 0)
				continue;
			word[nw] = w, next[nw] = head[b], head[b] = nw++;
			if (++per_bank[b] > worst)
				worst = per_bank[b];
		}
	}
	return worst;
}

static void count_wavefronts(access_kind kind, const int64_t addr[32], uint32_t mask, int bytes, access_counts *out)
{
	int group = bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
	if (kind == ACCESS_SHARED_LOAD && bytes > 4 && (pairs_uniform(addr, mask, 1) || pairs_uniform(addr, mask, 2)))
		group *= 2;
	for (int g = 0; g < 32; g += group) {
		uint32_t gmask = (uint32_t)((((uint64_t)1 << group) - 1) << g) & mask;
		if (!gmask)
			continue;
		out->ideal++;
		out->wavefronts += group_passes(addr, gmask, bytes);
	}
}

int access_count(access_kind kind, const int64_t addr[32], uint32_t mask, int bytes, access_counts *out)
{
	memset(out, 0, sizeof *out);
	if (kind == ACCESS_LDMATRIX)
		bytes = 16;
	if ((unsigned)kind >= ACCESS_KIND_COUNT || bytes < 1 || bytes > ACCESS_MAX_BYTES)
		return -1;
	if (kind == ACCESS_GLOBAL_LOAD || kind == ACCESS_GLOBAL_STORE) {
		unsigned lines;
		out->sectors = count_sectors(addr, mask, bytes, &lines);
		if (kind == ACCESS_GLOBAL_LOAD)
			out->wavefronts = lines;
	} else
		count_wavefronts(kind, addr, mask, bytes, out);
	return 0;
}
