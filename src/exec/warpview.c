/* exec/warpview: one warp's access recorded by the emulator and drawn as text: lanes to sectors and lines, or to banks. */
#include "exec/warpview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "emu/emu.h"

/* Stops the launch once the asked block is done: blocks run x fastest. */
typedef struct {
	long long stop_after;
} warp_stop;

static int stop_after_block(void *ctx, const emu_progress *p)
{
	const warp_stop *s = ctx;
	return p->blocks_done > s->stop_after;
}

int exec_warp_record(const run_request *rq, exec_warp_access *wa, char *err, int errlen)
{
	unsigned g[3];
	for (int i = 0; i < 3; i++) {
		g[i] = rq->grid[i] ? rq->grid[i] : 1;
		if (wa->block[i] >= g[i]) {
			snprintf(err, (size_t)errlen, "block %u,%u,%u is outside the grid %ux%ux%u", wa->block[0], wa->block[1],
				 wa->block[2], g[0], g[1], g[2]);
			return -1;
		}
	}
	unsigned threads = (rq->block[0] ? rq->block[0] : 1) * (rq->block[1] ? rq->block[1] : 1) *
			   (rq->block[2] ? rq->block[2] : 1);
	if (wa->warp < 0 || (unsigned)wa->warp >= (threads + 31) / 32 || wa->nth < 0) {
		snprintf(err, (size_t)errlen, "warp %d is outside the block's %u warps", wa->warp, (threads + 31) / 32);
		return -1;
	}
	emu_record rec = {.line = wa->line, .warp = wa->warp, .nth = wa->nth};
	memcpy(rec.block, wa->block, sizeof rec.block);
	warp_stop stop = {(long long)wa->block[0] + (long long)g[0] * ((long long)wa->block[1] + (long long)g[1] * wa->block[2])};
	emu_options o = {.no_verify = 1, .record = &rec, .progress = stop_after_block, .progress_ctx = &stop, .deadline_s = rq->deadline_s};
	emu_result *er = xcalloc(1, sizeof *er);
	emu_error why = emu_run(rq, &o, er, err, errlen);
	free(er);
	if (why != EMU_OK && why != EMU_ERR_CANCELLED)
		return -1;
	wa->found = rec.found;
	wa->executions = rec.seen;
	wa->kind = rec.kind, wa->bytes = rec.bytes, wa->buffer = rec.buffer, wa->mask = rec.mask;
	memcpy(wa->addr, rec.addr, sizeof wa->addr);
	memset(&wa->counts, 0, sizeof wa->counts);
	if (rec.found)
		access_count((access_kind)rec.kind, wa->addr, rec.mask, rec.bytes, &wa->counts);
	return 0;
}

/* One lane-strip character for index v: 0-9, a-z, A-Z, then '+'. */
static char strip_char(int v)
{
	static const char set[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	return v >= 0 && v < (int)sizeof set - 1 ? set[v] : '+';
}

/* Numbers each active lane's unit (addr / size) by its first appearance:
 * lanes of the same sector or line share a character. Returns the distinct units. */
static int strip(const exec_warp_access *wa, int64_t size, char out[33])
{
	int64_t seen[32];
	int n = 0;
	for (int l = 0; l < 32; l++) {
		out[l] = '.';
		if (!(wa->mask >> l & 1))
			continue;
		int64_t u = wa->addr[l] >= 0 ? wa->addr[l] / size : (wa->addr[l] - size + 1) / size;
		int k = 0;
		while (k < n && seen[k] != u)
			k++;
		if (k == n)
			seen[n++] = u;
		out[l] = strip_char(k);
	}
	out[32] = 0;
	return n;
}

/* "a stride of 512 B ..." when every active lane is lane f's address plus a constant step per lane. */
static void stride_of(const exec_warp_access *wa, char *buf, size_t len)
{
	int f = wa->mask ? __builtin_ctz(wa->mask) : 0, second = -1, ok = 1;
	for (int l = f + 1; l < 32 && second < 0; l++)
		if (wa->mask >> l & 1)
			second = l;
	int64_t step = second > 0 ? (wa->addr[second] - wa->addr[f]) / (second - f) : 0;
	for (int l = f; l < 32; l++)
		if (wa->mask >> l & 1)
			ok &= wa->addr[l] == wa->addr[f] + step * (l - f);
	if (ok && step)
		snprintf(buf, len, "a stride of %lld B from lane to lane", (long long)step);
	else if (ok)
		snprintf(buf, len, "one address for every lane");
	else
		snprintf(buf, len, "no single stride");
}

static const char *const kind_names[ACCESS_KIND_COUNT] = {
	[ACCESS_GLOBAL_LOAD] = "global load", [ACCESS_GLOBAL_STORE] = "global store",
	[ACCESS_SHARED_LOAD] = "shared load", [ACCESS_SHARED_STORE] = "shared store",
	[ACCESS_LDMATRIX] = "ldmatrix (shared)",
};

/* Global: lanes to 32-byte sectors and 128-byte lines. */
static int global_rows(const exec_warp_access *wa, char rows[][EXEC_WARP_COLS], int n, int max)
{
	char s[33], ln[33];
	int ns = strip(wa, 32, s), nl = strip(wa, 128, ln);
	int lanes = __builtin_popcount(wa->mask);
	int ideal = (int)((lanes * wa->bytes + 31) / 32);
	if (n < max)
		snprintf(rows[n++], EXEC_WARP_COLS, "lane     0123456789abcdefghijklmnopqrstuv  (lanes 0-31)");
	if (n < max)
		snprintf(rows[n++], EXEC_WARP_COLS, "sector   %s  %d distinct 32-byte sector%s", s, ns, ns == 1 ? "" : "s");
	if (n < max)
		snprintf(rows[n++], EXEC_WARP_COLS, "line     %s  %d distinct 128-byte line%s", ln, nl, nl == 1 ? "" : "s");
	if (n < max)
		snprintf(rows[n++], EXEC_WARP_COLS, "%u sector%s a request (%d lanes x %d B side by side: %d)%s",
			 wa->counts.sectors, wa->counts.sectors == 1 ? "" : "s", lanes, wa->bytes, ideal,
			 (int)wa->counts.sectors > ideal ? ": not coalesced" : "");
	return n;
}

/* Shared: lanes to banks, each bank's distinct words, conflicts and broadcasts. */
static int shared_rows(const exec_warp_access *wa, char rows[][EXEC_WARP_COLS], int n, int max)
{
	char bank[33], mark[33];
	int group = wa->kind == ACCESS_LDMATRIX || wa->bytes >= 16 ? 8 : wa->bytes == 8 ? 16 : 32;
	for (int l = 0; l < 32; l++) {
		bank[l] = mark[l] = wa->mask >> l & 1 ? ' ' : '.';
		if (!(wa->mask >> l & 1))
			continue;
		int64_t w = wa->addr[l] >> 2;
		bank[l] = strip_char((int)(((w % 32) + 32) % 32));
		for (int o = l / group * group; o < (l / group + 1) * group; o++) {
			if (o == l || !(wa->mask >> o & 1))
				continue;
			int64_t v = wa->addr[o] >> 2;
			if (v == w && mark[l] == ' ')
				mark[l] = '*'; /* the same word: one read serves both */
			else if (v != w && ((v - w) % 32) == 0)
				mark[l] = '!'; /* the same bank, another word: a conflict */
		}
	}
	bank[32] = mark[32] = 0;
	unsigned conf = wa->counts.wavefronts - wa->counts.ideal;
	if (n < max)
		snprintf(rows[n++], EXEC_WARP_COLS, "lane     0123456789abcdefghijklmnopqrstuv  (lanes 0-31, %d a pass)", group);
	if (n < max)
		snprintf(rows[n++], EXEC_WARP_COLS, "bank     %s  each lane's bank (0-9, a-v)", bank);
	if (n < max)
		snprintf(rows[n++], EXEC_WARP_COLS, "         %s  ! bank conflict, * broadcast", mark);
	if (n < max)
		snprintf(rows[n++], EXEC_WARP_COLS, "%u wavefront%s a request, %u ideal: %s", wa->counts.wavefronts,
			 wa->counts.wavefronts == 1 ? "" : "s", wa->counts.ideal, conf ? "bank conflicts" : "conflict-free");
	if (conf && n < max)
		snprintf(rows[n - 1] + strlen(rows[n - 1]), (size_t)(EXEC_WARP_COLS - (int)strlen(rows[n - 1])), " (%u extra)",
			 conf);
	return n;
}

int exec_warp_rows(const exec_warp_access *wa, char rows[][EXEC_WARP_COLS], int max)
{
	int n = 0;
	if (max <= 0)
		return 0;
	if (!wa->found) {
		snprintf(rows[n++], EXEC_WARP_COLS, "warp %d of block %u,%u,%u executes line %d %lld time%s, not %lld",
			 wa->warp, wa->block[0], wa->block[1], wa->block[2], wa->line, wa->executions,
			 wa->executions == 1 ? "" : "s", wa->nth + 1);
		return n;
	}
	const char *kn = (unsigned)wa->kind < ACCESS_KIND_COUNT ? kind_names[wa->kind] : "?";
	snprintf(rows[n++], EXEC_WARP_COLS, "%s, %d B a lane; warp %d, block %u,%u,%u, execution %lld of %lld", kn,
		 wa->bytes, wa->warp, wa->block[0], wa->block[1], wa->block[2], wa->nth + 1, wa->executions);
	char st[64];
	stride_of(wa, st, sizeof st);
	if (n < max) {
		static const char bufname[] = "ABC";
		if (wa->buffer >= 0 && wa->buffer < 3)
			snprintf(rows[n++], EXEC_WARP_COLS, "lane 0 at %c + %lld B, %s", bufname[wa->buffer],
				 (long long)wa->addr[__builtin_ctz(wa->mask | 1u << 31)], st);
		else
			snprintf(rows[n++], EXEC_WARP_COLS, "lane 0 at shared + %lld B, %s",
				 (long long)wa->addr[__builtin_ctz(wa->mask | 1u << 31)], st);
	}
	int global = wa->kind == ACCESS_GLOBAL_LOAD || wa->kind == ACCESS_GLOBAL_STORE;
	return global ? global_rows(wa, rows, n, max) : shared_rows(wa, rows, n, max);
}
