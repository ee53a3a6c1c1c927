/* emu_race: the race detector's shadows (shared memory per CTA, global memory per launch), what each race is called and how it is reported. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_race.h"
#include "base/util.h"

int emu_race_off(void)
{
	const char *s = getenv("PTXTUTOR_NO_RACE"); /* read once a CTA: not on the hot path */
	return s && s[0] == '1';
}

/* Each kind's first words: "... race (KIND): " is what where.kind (--json) and
 * the racy corpus (tests/races/) read; docs/emulator.md lists them. */
static const char *const words[RACE_KINDS] = {
	[RACE_BARRIER] = "shared-memory race",
	[RACE_ASYNC] = "shared-memory race (async copy)",
	[RACE_WAR] = "shared-memory race (write after read)",
	[RACE_PROXY] = "shared-memory race (proxy)",
	[RACE_CLUSTER] = "shared-memory race (cluster)",
	[RACE_BLOCKS] = "global-memory race (between blocks)",
	[RACE_WARPMASK] = "race (warp mask)",
};

const char *emu_race_words(race_kind k)
{
	return words[k];
}

void emu_race_report(blockctx *b, const emu_op *o, int w, int other_op, race_kind k, const char *fmt, ...)
{
	emu_launch *L = b->L;
	if (L->races++)
		return;
	run_error *e = &L->race;
	memset(e, 0, sizeof *e);
	util_strlcpy(e->path, L->path, sizeof e->path);
	e->line = o ? o->line : 0;
	e->has_block = 1;
	memcpy(e->block, b->ctaid, sizeof e->block);
	e->warp = w;
	e->line2 = other_op >= 0 ? b->ops[other_op].line : 0;
	int n = snprintf(e->msg, sizeof e->msg, "%s: ", words[k]);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof e->msg - (size_t)n, fmt, ap);
	va_end(ap);
}

const char *emu_race_who(int gw, char *buf, size_t n)
{
	if (gw == RACE_SEVERAL)
		snprintf(buf, n, "several warps");
	else
		snprintf(buf, n, "warp %d", gw & 63);
	return buf;
}

/* ---- shared memory ---- */

void emu_race_alloc(blockctx *b, int cluster)
{
	size_t words = b->smem_size / 4 + 4;
	b->norace = emu_race_off();
	b->wep = xcalloc(words, sizeof *b->wep);
	b->rep = xcalloc(words, sizeof *b->rep);
	b->wwarp = xcalloc(words, sizeof *b->wwarp);
	b->rwarp = xcalloc(words, sizeof *b->rwarp);
	b->wop = xcalloc(words, sizeof *b->wop);
	b->rop = xcalloc(words, sizeof *b->rop);
	b->gfence = xcalloc(words, sizeof *b->gfence);
	b->aep = xcalloc(words, sizeof *b->aep);
	b->amb = xcalloc(words, sizeof *b->amb);
	if (cluster && !b->norace) { /* distributed shared memory: the cluster phase of each access */
		b->wcp = xcalloc(words, sizeof *b->wcp);
		b->rcp = xcalloc(words, sizeof *b->rcp);
		b->rrk = xcalloc(words, sizeof *b->rrk);
	}
}

void emu_race_reset(blockctx *b)
{
	size_t words = b->smem_size / 4 + 4;
	memset(b->gfence, 0, words * sizeof *b->gfence);
	if (b->wcp) { /* the cluster's phases start again at 0 */
		memset(b->wcp, 0, words * sizeof *b->wcp);
		memset(b->rcp, 0, words * sizeof *b->rcp);
	}
}

void emu_race_free(blockctx *b)
{
	free(b->wep);
	free(b->rep);
	free(b->wwarp);
	free(b->rwarp);
	free(b->wop);
	free(b->rop);
	free(b->gfence);
	free(b->aep);
	free(b->amb);
	free(b->wcp);
	free(b->rcp);
	free(b->rrk);
}

static int is_cpasync(const blockctx *t, int32_t op)
{
	return op >= 0 && t->ops[op].code == OP_CPASYNC;
}

/* ---- TMA loads: ordered by the mbarrier phase they complete ---- */

void emu_race_observed(blockctx *t, warp *w, int mi)
{
	if (t->norace)
		return;
	if (!w->seen)
		w->seen = xcalloc(EMU_MAX_MBARRIERS, sizeof *w->seen);
	if (w->seen[mi] < t->mbar[mi].phase)
		w->seen[mi] = t->mbar[mi].phase;
}

static int at_barrier(const warp *v, int id)
{
	return id < 0 || (v->waiting && v->arrived && v->bar_id == id);
}

/* What one warp of the barrier observed, every warp of it has. */
void emu_race_barrier_join(blockctx *b, int id)
{
	if (b->norace || !b->nmbar)
		return;
	for (int mi = 0; mi < b->nmbar; mi++) {
		uint32_t most = 0;
		for (int i = 0; i < b->nwarps; i++)
			if (b->warps[i].seen && at_barrier(&b->warps[i], id) && b->warps[i].seen[mi] > most)
				most = b->warps[i].seen[mi];
		for (int i = 0; most && i < b->nwarps; i++) {
			warp *v = &b->warps[i];
			if (!at_barrier(v, id))
				continue;
			if (!v->seen)
				v->seen = xcalloc(EMU_MAX_MBARRIERS, sizeof *v->seen);
			if (v->seen[mi] < most)
				v->seen[mi] = most;
		}
	}
}

void emu_race_tma_landed(blockctx *t, const emu_op *o, int issuer, int mi, uint32_t off, uint32_t bytes)
{
	if (t->norace || !bytes)
		return;
	for (uint32_t word = off >> 2; word <= (off + bytes - 1) >> 2; word++) {
		t->wep[word] = RACE_LANDED;
		t->aep[word] = t->mbar[mi].phase + 1; /* the phase it completes, counted from 1 */
		t->amb[word] = (uint16_t)mi;
		t->wwarp[word] = (uint16_t)issuer;
		t->wop[word] = (int32_t)(o - t->ops);
		t->gfence[word] = 0;
		if (t->wcp) /* no generic write of any CTA */
			t->wcp[word] = 0;
	}
}

/* An access to bytes a TMA load wrote: ordered when the warp has observed the phase. */
static void landed_hit(blockctx *t, const emu_op *o, int w, uint32_t word, int write)
{
	const warp *v = &t->warps[w];
	int mi = t->amb[word];
	if (v->seen && v->seen[mi] >= t->aep[word])
		return; /* ordered (a write makes it an ordinary word again: emu_race_write) */
	emu_race_report(t, o, w, t->wop[word], RACE_ASYNC,
			"warp %d %s bytes %u..%u that the TMA copy issued at line %d wrote, completing phase %u of the mbarrier "
			"at smem+0x%x, which warp %d has not waited on: wait on it (try_wait or test_wait until it completes), "
			"or have a warp that did reach a bar.sync with this one", w, write ? "writes" : "reads", word * 4,
			word * 4 + 3, t->ops[t->wop[word]].line, t->aep[word] - 1, t->mbar[mi].off, w);
}

/* A same-CTA hit of the inline checks: an async copy in flight, or two warps in one barrier interval. */
void emu_race_shared_hit(blockctx *t, const emu_op *o, int gw, uint32_t word, int write)
{
	int w = gw & 63, ow = t->wwarp[word];
	const char *acc = write ? "writes" : "reads";
	uint32_t lo = word * 4, hi = word * 4 + 3;
	if (gw >> 6 != t->rank)
		return; /* another CTA's access: the cluster check's */
	if (t->wep[word] == RACE_LANDED) {
		landed_hit(t, o, w, word, write);
		return;
	}
	if (t->wep[word] == RACE_PENDING && t->aep[word] == t->epoch && gw != ow) {
		/* issued since the last barrier: the access belongs with the bytes' old contents */
		emu_race_report(t, o, w, t->wop[word], write ? RACE_ASYNC : RACE_WAR,
				"warp %d %s bytes %u..%u while the cp.async of warp %d at line %d, issued since the last bar.sync, "
				"may be overwriting them: %s", w, acc, lo, hi, ow & 63, t->ops[t->wop[word]].line,
				write ? "one write is lost; put a bar.sync between them"
				      : "a bar.sync after the last read of a buffer must come before the copy that refills it (the "
					"loop's trailing __syncthreads())");
		return;
	}
	if (t->wep[word] == RACE_PENDING) {
		emu_race_report(t, o, w, t->wop[word], RACE_ASYNC,
				"warp %d %s bytes %u..%u that the cp.async of warp %d at line %d "
				"may still be writing: retire it with cp.async.wait_group, then bar.sync, before any warp touches them",
				w, acc, lo, hi, ow & 63, t->ops[t->wop[word]].line);
		return;
	}
	int other, op;
	if (t->wep[word] == t->epoch && ow != gw) {
		other = ow, op = t->wop[word];
	} else {
		other = t->rwarp[word], op = t->rop[word];
	}
	if (other != RACE_SEVERAL && other >> 6 != t->rank)
		return;
	int line = op >= 0 ? t->ops[op].line : 0;
	char who[32];
	emu_race_who(other, who, sizeof who);
	if (other == ow && is_cpasync(t, op)) {
		emu_race_report(t, o, w, op, RACE_ASYNC,
				"warp %d %s bytes %u..%u that the cp.async of %s at line %d "
				"wrote, with no bar.sync after its wait: put a bar.sync between the cp.async.wait_group and the access",
				w, acc, lo, hi, who, line);
		return;
	}
	emu_race_report(t, o, w, op, RACE_BARRIER,
			"warp %d %s bytes %u..%u %s %s at line %d with no bar.sync between", w, acc, lo, hi,
			write ? "last accessed by" : "written by", who, line);
}

/* Accesses of two CTAs of a cluster to one CTA's bytes in one phase of barrier.cluster. */
void emu_race_cluster(blockctx *t, const emu_op *o, int gw, uint32_t word, int write)
{
	uint32_t ph = t->cl->cb_phase + 1;
	int rk = gw >> 6, orank = -1, op = -1;
	const char *did = "";
	if (t->wcp[word] == ph && t->wwarp[word] >> 6 != rk && t->wwarp[word] != RACE_SEVERAL)
		orank = t->wwarp[word] >> 6, op = t->wop[word], did = "wrote";
	else if (write && t->rcp[word] == ph && t->rrk[word] != rk)
		orank = t->rrk[word] == 0xff ? -1 : t->rrk[word], op = t->rop[word], did = "read";
	if (write) {
		t->wcp[word] = ph;
	} else if (t->rcp[word] != ph) {
		t->rcp[word] = ph;
		t->rrk[word] = (uint8_t)rk;
	} else if (t->rrk[word] != rk) {
		t->rrk[word] = 0xff;
	}
	if (!did[0])
		return;
	blockctx *b = &t->cl->cta[rk];
	emu_race_report(b, o, gw & 63, op, RACE_CLUSTER,
			"block rank %d warp %d %s bytes %u..%u of block rank %d's shared memory, "
			"which block rank %d %s at line %d with no barrier.cluster between: put barrier.cluster.arrive then "
			"barrier.cluster.wait, cluster.sync() in CUDA, between the two accesses", rk, gw & 63, write ? "writes" : "reads",
			word * 4, word * 4 + 3, t->rank, orank, did, op >= 0 ? t->ops[op].line : 0);
}

void emu_race_async_issue(blockctx *b, const emu_op *o, int w, uint32_t off, uint32_t bytes)
{
	if (b->norace || !bytes)
		return;
	int gw = RACE_GW(b->rank, w), me = (int)(o - b->ops);
	char who[32];
	for (uint32_t word = off >> 2; word <= (off + bytes - 1) >> 2; word++) {
		uint32_t lo = word * 4, hi = word * 4 + 3;
		int ow = b->wwarp[word], rw = b->rwarp[word];
		if (b->wep[word] == RACE_PENDING && ow == gw && b->wop[word] == me && b->aep[word] == b->epoch)
			; /* lanes of one warp's copy: not checked against each other, as a warp's st */
		else if (b->wep[word] == RACE_PENDING)
			emu_race_report(b, o, w, b->wop[word], RACE_ASYNC,
					"the copy of warp %d writes bytes %u..%u that the copy of warp %d "
					"issued at line %d may still be writing: wait for the first before issuing the second", w, lo, hi,
					ow & 63, b->ops[b->wop[word]].line);
		else if (b->wep[word] == b->epoch && ow != gw)
			emu_race_report(b, o, w, b->wop[word], RACE_ASYNC,
					"the copy of warp %d writes bytes %u..%u that warp %d wrote at "
					"line %d with no bar.sync between: put a bar.sync between them", w, lo, hi, ow & 63,
					b->ops[b->wop[word]].line);
		else if (b->rep[word] == b->epoch && rw != gw)
			emu_race_report(b, o, w, b->rop[word], RACE_WAR,
					"the copy of warp %d writes bytes %u..%u that %s "
					"read at line %d with no bar.sync between: a bar.sync after the last read of a buffer must "
					"come before the copy that refills it (the loop's trailing __syncthreads())", w, lo, hi,
					emu_race_who(rw, who, sizeof who), b->rop[word] >= 0 ? b->ops[b->rop[word]].line : 0);
		b->wep[word] = RACE_PENDING;
		b->aep[word] = b->epoch;
		b->wwarp[word] = (uint16_t)gw;
		b->wop[word] = me;
	}
}

void emu_race_async_land(blockctx *b, const emu_op *o, int w, uint32_t off, uint32_t bytes)
{
	if (b->norace || !bytes)
		return;
	for (uint32_t word = off >> 2; word <= (off + bytes - 1) >> 2; word++) {
		b->wep[word] = b->epoch;
		b->wwarp[word] = (uint16_t)RACE_GW(b->rank, w);
		b->wop[word] = (int32_t)(o - b->ops);
		b->gfence[word] = b->warps[w].fences + 1;
	}
}

/* ---- global memory, between blocks ---- */

/* Per 2-byte unit written (f16 and bf16 stores of two blocks may share a
 * word, never a unit): the last block to write it and the block(s) that
 * read it (1 + the block's linear id; RACE_BLOCKS_SEVERAL), and their ops. */
struct gunit {
	uint32_t w, r;
	int32_t wop, rop;
};
typedef struct gunit gunit;

#define GPAGE_UNITS 2048        /* a page: 4 KiB of a buffer, 32 KiB of shadow */
#define GPAGES_MAX 2048         /* 64 MiB of shadow (8 MiB of a buffer): past that, new pages go unwatched */
#define RACE_BLOCKS_SEVERAL UINT32_MAX


struct emu_gshadow *emu_race_gshadow_new(const emu_launch *L)
{
	if (emu_race_off())
		return NULL;
	struct emu_gshadow *g = xcalloc(1, sizeof *g);
	g->nbufs = L->nbufs;
	g->watched = 1u << 2; /* C's reads from the start; a buffer's once a page of it is */
	for (int i = 0; i < L->nbufs; i++) {
		g->npage[i] = (L->bufs[i].bytes / 2 + GPAGE_UNITS - 1) / GPAGE_UNITS;
		g->page[i] = xcalloc(g->npage[i] + 1, sizeof *g->page[i]);
	}
	return g;
}

void emu_race_gshadow_free(struct emu_gshadow *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->nbufs; i++) {
		for (size_t p = 0; p < g->npage[i]; p++)
			free(g->page[i][p]);
		free(g->page[i]);
	}
	free(g);
}

static void block_of(const emu_launch *L, uint32_t id, unsigned c[3])
{
	uint32_t n = id - 1;
	c[0] = n % L->grid[0];
	c[1] = n / L->grid[0] % L->grid[1];
	c[2] = n / L->grid[0] / L->grid[1];
}

/* One report an access: its bytes lo..hi, against the first unit it shares with another block (x). */
static void global_race(blockctx *b, const emu_op *o, int w, int buf, uint64_t lo, uint64_t hi, const gunit *x, uint32_t me,
			int write)
{
	static const char *const names[EMU_MAX_BUFS] = {"A", "B", "C", "D"};
	unsigned c[3];
	int wrote = x->w && x->w != me;
	uint32_t other = wrote ? x->w : x->r;
	int op = wrote ? x->wop : x->rop;
	char who[64] = "several blocks";
	if (other != RACE_BLOCKS_SEVERAL) {
		block_of(b->L, other, c);
		snprintf(who, sizeof who, "block (%u,%u,%u)", c[0], c[1], c[2]);
	}
	emu_race_report(b, o, w, op, RACE_BLOCKS,
			"block (%u,%u,%u) %s bytes %s+%llu..%llu that %s %s at line %d: "
			"blocks run in no order, so %s: give each block its own bytes of %s (or add with atomics)",
			b->ctaid[0], b->ctaid[1], b->ctaid[2], write ? "writes" : "reads", names[buf],
			(unsigned long long)lo, (unsigned long long)hi, who, wrote ? "wrote" : "read",
			op >= 0 ? b->ops[op].line : 0, write && wrote ? "one write is lost" : "the read may see either value",
			names[buf]);
}

void emu_race_global_at(blockctx *b, const emu_op *o, int w, uint64_t addr, int bytes, int write)
{
	struct emu_gshadow *g = b->gs;
	uint64_t i = (addr >> EMU_GLOBAL_SHIFT) - 1, off = addr & ((1ULL << EMU_GLOBAL_SHIFT) - 1);
	if (!g || i >= (uint64_t)g->nbufs)
		return;
	const emu_launch *L = b->L;
	uint32_t me = 1 + b->ctaid[0] + L->grid[0] * (b->ctaid[1] + L->grid[1] * b->ctaid[2]);
	gunit hit = {0};
	for (uint64_t unit = off >> 1; unit <= (off + (uint64_t)bytes - 1) >> 1; unit++) {
		uint64_t p = unit / GPAGE_UNITS;
		if (p >= g->npage[i])
			break;
		gunit *page = g->page[i][p];
		if (!page) {
			/* watched: bytes written, and C's read too (beta*C: a block may read
			 * what another block writes later) */
			if ((!write && i < 2) || g->used >= GPAGES_MAX)
				continue;
			page = g->page[i][p] = xcalloc(GPAGE_UNITS, sizeof *page);
			g->used++;
			g->watched |= 1u << i;
		}
		gunit *x = &page[unit % GPAGE_UNITS];
		if (!hit.w && !hit.r && ((x->w && x->w != me) || (write && x->r && x->r != me)))
			hit = *x;
		if (write) {
			x->w = me;
			x->wop = (int32_t)(o - b->ops);
		} else {
			x->r = !x->r || x->r == me ? me : RACE_BLOCKS_SEVERAL;
			x->rop = (int32_t)(o - b->ops);
		}
	}
	if (hit.w || hit.r)
		global_race(b, o, w, (int)i, off, off + (uint64_t)bytes - 1, &hit, me, write);
}

/* ---- warp-level member masks ---- */

void emu_race_member_mask(blockctx *b, const warp *w, const emu_op *o, uint32_t em, uint32_t m, const char *what)
{
	uint32_t out = em & ~m, missing = m & w->live & ~em;
	if (b->norace || (!out && !missing))
		return;
	if (out)
		emu_race_report(b, o, w->id, -1, RACE_WARPMASK,
				"lane %d of warp %d runs %s with member mask 0x%08x, which leaves it out (lanes "
				"0x%08x run it): name every lane that runs it (the mask of the lanes in that branch)",
				__builtin_ctz(out), w->id, what, m, em);
	else
		emu_race_report(b, o, w->id, -1, RACE_WARPMASK,
				"%s with member mask 0x%08x names lane %d of warp %d, which does not run it "
				"(lanes 0x%08x do): on a GPU the named lanes wait for it; name only the lanes that run it",
				what, m, __builtin_ctz(missing), w->id, em);
}
