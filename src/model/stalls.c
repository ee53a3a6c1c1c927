/* stalls: the SM timing model that charges each waiting cycle to a reason (see stalls.h, docs/model.md). */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/stalls.h"
#include "model/measured.h"
#include "base/util.h"

static const struct {
	const char *key, *name;
} reasons[STALL_NREASONS] = {
#define STALL_ROW(id, k, n) [STALL_##id] = {k, n},
	STALL_REASONS(STALL_ROW)
#undef STALL_ROW
};

const char *stall_reason_key(stall_reason r)
{
	return (unsigned)r < STALL_NREASONS ? reasons[r].key : "?";
}

const char *stall_reason_name(stall_reason r)
{
	return (unsigned)r < STALL_NREASONS ? reasons[r].name : "?";
}

static const char *lat_keys[STALL_NLAT] = {
#define STALL_LAT_ROW(id, k) [STALL_LAT_##id] = k,
	STALL_LATENCIES(STALL_LAT_ROW)
#undef STALL_LAT_ROW
};

const char *stall_lat_key(stall_lat l)
{
	return (unsigned)l < STALL_NLAT ? lat_keys[l] : "?";
}

/* The pipes and their limits: the second half of the table of latencies and queue limits, as
 * rates per cycle. Per sub-partition (SMSP): FMA one warp instruction a cycle (32 FP32 lanes);
 * INT half that (16 lanes; ceiling_int is half ceiling_issue); MUFU one in 8 (4 lanes a SMSP);
 * the tensor pipe's FLOPs a cycle (mma.sync: 680, build/gpu-mio's HMMA.16816 rate in clock64 cycles,
 * 0.664 a cycle an SM; wgmma: 1024, the dense f16 peak). Per SM, shared by the four: MIO one
 * shared-memory wavefront or shuffle a cycle (gpu-mio: 0.998 and 1.000), LG one 128-byte line a
 * cycle, TMA an SM's share of its measured GB/s (ceiling_tma) at the replay's clock. A warp may issue
 * to MIO while fewer than MIO_ENTRIES of its sub-partition's MIO instructions wait to start, whatever
 * their wavefronts (gpu-queues:
 * one warp's burst of 32-wavefront shared loads bends at 5-6 of them), and to LG while fewer than
 * LG_ENTRIES of its sub-partition's LG instructions wait for the L1 to start on them (build/gpu-lg-depth's
 * 42 shapes of hits, misses and fills: where the GPU's warps wait, LG throttle or long scoreboard, in 37;
 * scripts/lg-depth-model.py); past that it waits (MIO / LG throttle; docs/model.md). */
enum { P_FMA, P_INT, P_MUFU, P_TENSOR, P_SMSP_PIPES };
#define FMA_INTERVAL 1.0
#define INT_INTERVAL 2.0
#define MUFU_INTERVAL 8.0
#define MMA_FLOPS_PER_CYCLE 680.0
#define WGMMA_FLOPS_PER_CYCLE 1024.0
#define MIO_PER_CYCLE 1.0
#define LG_PER_CYCLE 1.0
#define MIO_ENTRIES 6
/* A wgmma (SASS HGMMA) holds its warp 0.11 cycles a column of N as it issues: gpu-queues' bursts of
 * HGMMAs from one warpgroup issue 13.4 cycles apart for n128, 28.4 for n256, until its queue fills. A
 * warp's share of an m64nNk16 is 512 N FLOPs (k16 f16; the units count other types so). That queue is
 * not modelled: the bursts bend where a sub-partition's seventh HGMMA waits for its first to start,
 * whichever warp issued them, but in lessons 9-11, two consumer warps a sub-partition with eight in
 * flight each, ncu finds the warps at wgmma.wait_group (barrier), not at the HGMMA (docs/model.md) */
#define WGMMA_ISSUE_PER_N 0.11
#define WGMMA_WARP_FLOPS_PER_N 512.0
#define LG_ENTRIES 32
/* A global load (and cp.async) also takes the pipe the MIO's shuffles and shared accesses use, 1.675
 * cycles: build/gpu-mio's one-line L1-hit loads run 0.597 a cycle an SM, and 8 shuffles : 4 loads
 * interleaved take 90% of their parts' sum, not the larger (docs/benchmarks.md, 2026-11-28). Only the
 * MIO's work waits for it: the loads keep their own queue (LG_ENTRIES) */
#define LG_MIO_CYCLES 1.675
#define L1_SM_BYTES (256.0 * 1024) /* L1 + shared memory of an H100 SM */
/* The most the L1 keeps, however little shared memory takes: a ring of 1728 lines stays in it at any
 * stride (128 bytes to 512 KB apart), one of 1760 does not (build/gpu-l1-ways, H200, docs/benchmarks.md);
 * the lines it keeps are any: it acts fully associative, as modelled */
#define L1_MAX_BYTES (1728.0 * 128)

int stall_params_load(stall_params *p, char *err, int errlen)
{
	memset(p, 0, sizeof *p);
	if (measured_load(err, errlen) < 0)
		return -1;
	for (int i = 0; i < STALL_NLAT; i++) {
		char key[64];
		snprintf(key, sizeof key, "measured.%s", lat_keys[i]);
		if (measured_value(0, key, &p->lat[i]) < 0 || !(p->lat[i] > 0)) {
			snprintf(err, (size_t)errlen, "%s has no %s row (lesson 0, size 0, cycles): the stall model needs it "
				 "(docs/model.md, \"Stall reasons\")", MEASURED_FILE, lat_keys[i]);
			return -1;
		}
	}
	static const struct {
		const char *key;
		size_t at;
	} rows[] = {{"measured.ceiling_tma", offsetof(stall_params, tma_gbs)},
		    {"measured.latency_mhz", offsetof(stall_params, lat_mhz)},
		    {"measured.latency_l2_ns", offsetof(stall_params, l2_ns)},
		    {"measured.latency_dram_ns", offsetof(stall_params, dram_ns)},
		    {"measured.latency_bar_warps", offsetof(stall_params, bar_warps)},
		    {"measured.latency_bar_per_warp", offsetof(stall_params, bar_per_warp)}};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		double *v = (double *)((char *)p + rows[i].at);
		if (measured_value(0, rows[i].key, v) < 0 || !(*v > 0)) {
			snprintf(err, (size_t)errlen, "%s has no %s row (lesson 0, size 0): the stall model needs it "
				 "(docs/model.md, \"Stall reasons\")", MEASURED_FILE, rows[i].key + strlen("measured."));
			return -1;
		}
	}
	double mhz;
	if (measured_value(0, "measured.clock_mhz_gemm", &mhz) == 0 && mhz > 0) {
		p->clock_mhz = mhz;
		p->clock_measured = 1;
	} else {
		p->clock_mhz = STALL_CLOCK_MHZ_DEFAULT;
	}
	snprintf(p->source, sizeof p->source, "the latency_* rows of %s", MEASURED_FILE);
	return 0;
}

double stall_latency_at(const stall_params *p, stall_lat l, double mhz)
{
	double ns = l == STALL_LAT_L2 ? p->l2_ns : l == STALL_LAT_DRAM ? p->dram_ns : 0;
	double lat = p->lat[l] - ns * (p->lat_mhz - mhz) / 1e3;
	return lat > 1 ? lat : 1;
}

/* ---- the trace ---- */

void stall_trace_init(stall_trace *t, int warps_per_block, int nregs)
{
	memset(t, 0, sizeof *t);
	t->warps_per_block = warps_per_block;
	t->nregs = nregs;
	t->warps = xcalloc((size_t)STALL_MAX_BLOCKS * (size_t)(warps_per_block > 0 ? warps_per_block : 1), sizeof *t->warps);
}

stall_rec *stall_trace_add(stall_trace *t, int b, int w, uint32_t op)
{
	if (b < 0 || b >= STALL_MAX_BLOCKS || w < 0 || w >= t->warps_per_block)
		return NULL;
	if (t->nrecs >= STALL_MAX_RECS) {
		t->cut = 1;
		return NULL;
	}
	stall_warp *sw = &t->warps[(size_t)b * (size_t)t->warps_per_block + (size_t)w];
	if (sw->n == sw->cap) {
		sw->cap = sw->cap ? sw->cap * 2 : 1024;
		sw->rec = xrealloc(sw->rec, sw->cap * sizeof *sw->rec);
	}
	if (b >= t->nblocks)
		t->nblocks = b + 1;
	t->nrecs++;
	stall_rec *r = &sw->rec[sw->n++];
	r->op = op;
	r->mem = STALL_NO_MEM;
	return r;
}

void stall_trace_lines(stall_trace *t, stall_rec *r, const uint32_t *lines, int n)
{
	if (!r || n <= 0 || t->nmem + (size_t)n + 1 > STALL_MAX_MEM)
		return;
	if (t->nmem + (size_t)n + 1 > t->capmem) {
		t->capmem = t->capmem ? t->capmem * 2 : 1u << 16;
		while (t->capmem < t->nmem + (size_t)n + 1)
			t->capmem *= 2;
		t->mem = xrealloc(t->mem, t->capmem * sizeof *t->mem);
	}
	r->mem = (uint32_t)t->nmem;
	t->mem[t->nmem++] = (uint32_t)n;
	memcpy(&t->mem[t->nmem], lines, (size_t)n * sizeof *lines);
	t->nmem += (size_t)n;
}

void stall_trace_free(stall_trace *t)
{
	free(t->mem);
	if (t->warps)
		for (int i = 0; i < STALL_MAX_BLOCKS * t->warps_per_block; i++)
			free(t->warps[i].rec);
	free(t->warps);
	free(t->ops);
	memset(t, 0, sizeof *t);
}

/* A fill's classes: its counts (in stall_fill's order) and the kind each becomes. */
static const uint8_t fill_kind[] = {STALL_K_INT, STALL_K_IMAD, STALL_K_OTHER};
#define NFILL (int)(sizeof fill_kind / sizeof *fill_kind)

static int fill_of(const stall_fill *f, int c)
{
	return c == 0 ? f->alu : c == 1 ? f->imad : f->other;
}

/* A traced warp's records once each has its fill before it. */
static size_t expanded(const stall_warp *sw, const stall_fill *fill)
{
	size_t n = 0;
	for (size_t i = 0; i < sw->n; i++) {
		const stall_fill *f = &fill[sw->rec[i].op];
		n += 1u + f->alu + f->imad + f->other;
	}
	return n;
}

int stall_trace_expand(stall_trace *t, const stall_fill *fill)
{
	size_t total = 0;
	for (int i = 0; i < t->nblocks * t->warps_per_block; i++)
		total += expanded(&t->warps[i], fill);
	if (total > STALL_MAX_RECS)
		return -1;
	/* each op's fill as up to NFILL ops of its line, one a class */
	int nops = t->nops;
	uint32_t (*fop)[NFILL] = xcalloc((size_t)nops, sizeof *fop);
	int extra = 0;
	for (int i = 0; i < nops; i++)
		for (int c = 0; c < NFILL; c++)
			extra += fill_of(&fill[i], c) > 0;
	t->ops = xrealloc(t->ops, (size_t)(nops + extra) * sizeof *t->ops);
	for (int i = 0; i < nops; i++)
		for (int c = 0; c < NFILL; c++)
			if (fill_of(&fill[i], c)) {
				t->ops[t->nops] = (stall_op){.line = t->ops[i].line, .kind = fill_kind[c]};
				fop[i][c] = (uint32_t)t->nops++;
			}
	for (int w = 0; w < t->nblocks * t->warps_per_block; w++) { /* block-major, as the trace keeps them */
		stall_warp *sw = &t->warps[w];
		size_t n = expanded(sw, fill);
		stall_rec *rec = xmalloc((n ? n : 1) * sizeof *rec), *r = rec;
		for (size_t i = 0; i < sw->n; i++) {
			uint32_t op = sw->rec[i].op;
			for (int c = 0; c < NFILL; c++)
				for (int k = 0; k < fill_of(&fill[op], c); k++)
					*r++ = (stall_rec){.op = fop[op][c], .mem = STALL_NO_MEM};
			*r++ = sw->rec[i];
		}
		free(sw->rec);
		sw->rec = rec, sw->n = sw->cap = n;
	}
	t->nrecs = total;
	free(fop);
	return 0;
}

/* ---- the model ---- */

#define NEVER LLONG_MAX
#define GROUPS 64 /* async groups remembered a warp; older ones have long landed */

typedef struct {
	long long cum[GROUPS];   /* the time every group up to this one landed (a running max) */
	long long n;             /* groups committed */
	long long open;          /* the open group's latest landing */
} groups;

/* ptxas's schedule, approximated: a load may issue ahead of the warp's next instructions, up to
 * LOOKAHEAD records on, within straight code (no branch, barrier, store, async op between), once
 * its address is ready and no instruction it passes writes its sources (the first such record in
 * program order, but a shared load may pass one still waiting); its result goes to a
 * renamed register (a shadow) that takes the PTX register's place when the warp's program order
 * reaches it, so the instructions it passed still read the old value (ptxas renames registers). */
#define LOOKAHEAD 16

/* A warp's register: when its value is ready, what kind of result it is, and 1 + the op a wait for it is
 * charged at (its writer's wait_shows; 0: the waiting one). */
typedef struct {
	long long ready;
	uint32_t show;
	uint32_t op;             /* 1 + the op that wrote it; 0: none known */
	uint8_t why;
} regstate;

typedef struct {
	size_t pos;              /* the record it belongs to */
	int n;
	int32_t reg[STALL_MAX_DST];
	regstate v;              /* what those registers will hold */
} shadow;

typedef struct {
	/* what every scan reads first, in one cache line: whether it can issue, and what it waits for */
	int at_bar, done;
	uint8_t npk;             /* the pipe kind of its next instruction (pipe_kind) */
	uint32_t nop;            /* and its op (rec[pos].op) */
	uint8_t why;             /* what it waits for until wake */
	uint32_t wop;            /* the op charged for that wait */
	uint32_t wfor;           /* 1 + the op whose result it waits for; 0: none */
	uint8_t held, held_why;  /* held: charged at the load ahead meanwhile (visit), its own wait's reason and op kept */
	uint32_t held_op;
	long long wake;          /* the first cycle the next instruction may issue */
	long long seg;           /* the first cycle not yet charged */
	long long awake;         /* when the load ahead (record aj) may issue; NEVER: none */
	const stall_rec *rec;
	size_t n, pos;
	uint64_t ahead;          /* bit i: record pos + i was issued ahead */
	size_t aj;
	int smsp, blk;
	long long last;          /* the cycle it last issued */
	long long hold;          /* its last instruction holds it until then: a debug build's stall count */
	long long hold_wg;       /* its next wgmma waits until then: the last one's issue (WGMMA_ISSUE_PER_N) */
	double wg_end;           /* its wgmmas have left its sub-partition's tensor pipe then */
	long long pend;          /* a debug build: its variable-latency results are all written then */
	uint8_t pend_why;        /* and the kind of the last of them */
	int bar_id;
	int bar_pend;            /* arrived at bar_id, not yet blocked (BAR.SYNC.DEFER_BLOCKING: defers_bar) */
	long long bar_at;        /* the last barrier it passed releases then: no memory or control op before */
	uint32_t bar_shows;      /* and its op's bar_shows: where a wait for it is charged */
	int mb_slot;             /* >= 0: an mbarrier wait's predicate waits for that slot to reach mb_arr, mb_cp */
	long long mb_arr, mb_cp;
	int32_t mb_reg[STALL_MAX_DST]; /* the predicate of its last mbarrier wait */
	int mb_nreg;
	uint32_t mb_wop;         /* the op a wait for that predicate is charged at (effects, STALL_K_MBAR_WAIT) */
	regstate *reg;           /* per register */
	long long *read_at;      /* per op: when the L1 read its last LG instruction's registers (stall_op.war_on) */
	shadow sh[LOOKAHEAD + 1]; /* (the large fields last: the scan of the warps each cycle reads the first few) */
	int nsh;
	groups cp, wg;
} wstate;

/* The SM's L1 as the replay meets the loads: each 128-byte line with the cycle its data is there
 * (a miss's fill, so a second warp asking before it lands waits for the same fill), evicted first
 * in, first out once the lines pass what shared memory leaves of the L1. */
typedef struct {
	uint64_t *key;           /* line id + 1 + (resident copy << 32); 0: empty */
	long long *fill;         /* when its data is in the L1 */
	uint32_t *stamp;         /* its place in the FIFO, to tell a stale FIFO entry */
	size_t cap, n;
	uint64_t *fifo;          /* keys in fill order (a ring) */
	uint32_t *fstamp;
	size_t fcap, head, count, lines_max;
	uint32_t next;
} l1cache;

/* An mbarrier of a block as the replay meets it: its arrivals and TMA copies so far, the cycle of each
 * recent arrival and the running latest landing of the copies (rings of GROUPS). */
typedef struct {
	long long arrivals, copies;
	long long arrived_at[GROUPS], landed[GROUPS];
} mbar;

/* A warpgroup is four consecutive warps of the block (PTX ISA, "warpgroup"): at most 1024 / 128. */
#define WARPGROUPS 8

typedef struct {
	int live, arrived[STALL_BARRIERS], want[STALL_BARRIERS]; /* per barrier: warps arrived, warps it waits for (0: all) */
	int wg_arrived[WARPGROUPS];      /* per warpgroup: warps waiting at its wgmma.fence */
	long long async_ready;   /* the TMA copies issued so far land */
	mbar mb[STALL_MBARS];
} bstate;

typedef struct {
	const stall_trace *t;
	const stall_params *p;
	const stall_config *c;
	wstate *w;
	bstate *b;
	int nw, nb;
	double (*cyc)[STALL_NREASONS]; /* per op */
	stall_line *fors;              /* per op: its waits by the line of the result (stall_line.for_line) */
	regstate *regs;                /* per warp, its registers (wstate.reg) */
	long long *read_at;            /* per warp, per op (wstate.read_at) */
	double *issued;                /* per op */
	double smsp_free[4][P_SMSP_PIPES];
	double mio_free, lg_free, tma_free, tma_per_cycle;
	double mio_ring[4][MIO_ENTRIES]; /* per sub-partition: when its last MIO_ENTRIES MIO instructions started */
	int mio_head[4];                 /* the oldest of them */
	double lg_ring[4][LG_ENTRIES];   /* the same for LG: its places (lg_places) */
	int lg_head[4];
	double l1_bytes, miss_lat;
	l1cache l1;
	double l1_lines, l1_hits, l1_fill_hits; /* lines the loads read, those there or on their way, the latter */
	shadow *to;                    /* set_reg writes here instead (a load issued ahead) */
	/* The main loop skips a sub-partition whose warps all wait past the cycle (their earliest wake,
	 * kept per sub-partition) unless a warp's wait was recomputed since its last scan (dirty): by
	 * prepare or prepare_ahead on a warp other than the one issuing (cur), as a barrier or an
	 * mbarrier releases it. Only the bookkeeping of the scan: the picks and charges are the same. */
	int dirty[4];
	const wstate *cur;
	/* prepare_ahead's registers written by the ops its scan passed: those whose mark is its pass
	 * (a register read in one step where a list of them was searched) */
	uint32_t *passed, pass;
} sim;

static size_t l1_find(const l1cache *c, uint64_t k)
{
	size_t h = (size_t)(k * 0x9e3779b97f4a7c15ULL >> 17) & (c->cap - 1);
	while (c->key[h] && c->key[h] != k)
		h = (h + 1) & (c->cap - 1);
	return h;
}

static void l1_grow(l1cache *c)
{
	l1cache o = *c;
	c->cap = o.cap ? o.cap * 2 : 1u << 12;
	c->key = xcalloc(c->cap, sizeof *c->key);
	c->fill = xcalloc(c->cap, sizeof *c->fill);
	c->stamp = xcalloc(c->cap, sizeof *c->stamp);
	for (size_t i = 0; i < o.cap; i++)
		if (o.key[i]) {
			size_t h = l1_find(c, o.key[i]);
			c->key[h] = o.key[i], c->fill[h] = o.fill[i], c->stamp[h] = o.stamp[i];
		}
	free(o.key), free(o.fill), free(o.stamp);
}

/* The line k: when its data is there (it is fetched when absent, landing at `miss`);
 * *hit says whether it was present (or on its way). */
static long long l1_access(l1cache *c, uint64_t k, long long miss, int *hit)
{
	if (c->n * 2 >= c->cap)
		l1_grow(c);
	size_t h = l1_find(c, k);
	if (c->key[h] && c->fill[h] != LLONG_MIN) {
		*hit = 1;
		return c->fill[h];
	}
	*hit = 0;
	if (!c->key[h])
		c->n++;
	c->key[h] = k, c->fill[h] = miss, c->stamp[h] = ++c->next;
	if (c->count == c->fcap) {
		size_t cap = c->fcap ? c->fcap * 2 : 1u << 12;
		uint64_t *f = xmalloc(cap * sizeof *f);
		uint32_t *s = xmalloc(cap * sizeof *s);
		for (size_t i = 0; i < c->count; i++)
			f[i] = c->fifo[(c->head + i) % c->fcap], s[i] = c->fstamp[(c->head + i) % c->fcap];
		free(c->fifo), free(c->fstamp);
		c->fifo = f, c->fstamp = s, c->fcap = cap, c->head = 0;
	}
	c->fifo[(c->head + c->count) % c->fcap] = k;
	c->fstamp[(c->head + c->count) % c->fcap] = c->next;
	c->count++;
	while (c->count > c->lines_max) { /* evict the oldest: its slot stays, marked absent */
		uint64_t old = c->fifo[c->head];
		uint32_t st = c->fstamp[c->head];
		c->head = (c->head + 1) % c->fcap;
		c->count--;
		size_t o = l1_find(c, old);
		if (c->key[o] == old && c->stamp[o] == st)
			c->fill[o] = LLONG_MIN;
	}
	return miss;
}

static void l1_free(l1cache *c)
{
	free(c->key), free(c->fill), free(c->stamp), free(c->fifo), free(c->fstamp);
}

static void charge(sim *s, uint32_t op, int why, long long from, long long to)
{
	if (to > from)
		s->cyc[op][why] += (double)(to - from);
}

/* w's wait from from to to, at its charged op, and by the line of the result it waits for. */
static void charge_wait(sim *s, const wstate *w, long long from, long long to)
{
	charge(s, w->wop, w->why, from, to);
	if (to > from && w->wfor && (w->why == STALL_LONG_SB || w->why == STALL_SHORT_SB || w->why == STALL_WAIT))
		stall_line_for(&s->fors[w->wop], s->t->ops[w->wfor - 1].line, (double)(to - from));
}

void stall_line_for(stall_line *l, int from, double cycles)
{
	if (from <= 0) /* no line (a CUDA line nvcc gave none) */
		return;
	int i = 0;
	while (i < STALL_FOR && l->for_line[i] && l->for_line[i] != from)
		i++;
	if (i == STALL_FOR) { /* full: it takes the smallest's place if it is larger */
		i = STALL_FOR - 1;
		if (cycles <= l->for_cyc[i])
			return;
		l->for_cyc[i] = 0;
	}
	l->for_line[i] = from, l->for_cyc[i] += cycles;
	for (; i > 0 && l->for_cyc[i] > l->for_cyc[i - 1]; i--) { /* the longest first */
		int fl = l->for_line[i];
		double fc = l->for_cyc[i];
		l->for_line[i] = l->for_line[i - 1], l->for_cyc[i] = l->for_cyc[i - 1];
		l->for_line[i - 1] = fl, l->for_cyc[i - 1] = fc;
	}
}

static long long group_done(const groups *g, int keep)
{
	if (keep < 0) /* wait_all: the open group too */
		return g->n ? (g->cum[(g->n - 1) % GROUPS] > g->open ? g->cum[(g->n - 1) % GROUPS] : g->open) : g->open;
	long long last = g->n - 1 - keep;
	if (last < 0)
		return 0;
	if (last < g->n - GROUPS)
		last = g->n - GROUPS;
	return g->cum[last % GROUPS];
}

static void group_commit(groups *g)
{
	long long prev = g->n ? g->cum[(g->n - 1) % GROUPS] : 0;
	g->cum[g->n % GROUPS] = prev > g->open ? prev : g->open;
	g->n++;
	g->open = 0;
}

/* bar.sync is SASS's BAR.SYNC.DEFER_BLOCKING: the warp arrives and goes on issuing ALU instructions,
 * and blocks at the first other one (a memory access, a branch, another barrier) until the barrier
 * releases, where ncu samples its wait (the JIT's SASS of lessons 3-6, H200 2026-11-28: lesson 3's
 * barrier samples at its first LDG eight ALU instructions after the BAR, lesson 5's at a BRA). */
static int defers_bar(const stall_op *o)
{
	return o->kind == STALL_K_FMA || o->kind == STALL_K_INT || o->kind == STALL_K_IMAD || o->kind == STALL_K_MOVE;
}

/* Whether another warp's wgmmas are in w's sub-partition's tensor pipe after cycle t: a wgmma held by
 * its warp's last (hold_wg) waits behind them as MIO throttle in ncu's samples (gpu-wgmma-stalls: two
 * warps a sub-partition, 81% of the HGMMAs' samples), else as wait (one: 91%). */
static int wg_behind(const sim *s, const wstate *w, long long t)
{
	for (int i = 0; i < s->nw; i++)
		if (&s->w[i] != w && s->w[i].smsp == w->smsp && s->w[i].wg_end > (double)t)
			return 1;
	return 0;
}

/* What the warp's next instruction waits for, from cycle t + 1. */
static void prepare(sim *s, wstate *w, long long t)
{
	uint32_t opi = w->rec[w->pos].op;
	const stall_op *o = &s->t->ops[opi];
	long long dep = t + 1;
	int why = STALL_WAIT;
	s->dirty[w->smsp] |= w != s->cur;
	/* its sources, and a destination a variable-latency result has not written yet (the scoreboard
	 * holds it; a fixed-latency pipe writes in order, so rewriting its result does not wait) */
	int dr = -1;
	for (int i = 0; i < o->nsrc + o->ndst; i++) {
		int r = i < o->nsrc ? o->src[i] : o->dst[i - o->nsrc];
		if (i >= o->nsrc && r >= 0 && r < s->t->nregs && w->reg[r].why == STALL_WAIT)
			continue;
		if (r >= 0 && r < s->t->nregs && w->reg[r].ready > dep) {
			dep = w->reg[r].ready;
			why = w->reg[r].why;
			dr = r;
		}
	}
	uint32_t wfor = dr >= 0 ? w->reg[dr].op : 0;
	if (o->war_on && w->read_at[o->war_on - 1] > dep) /* it rewrites a register a queued access has not read */
		dep = w->read_at[o->war_on - 1], why = STALL_LONG_SB, dr = -1, wfor = (uint32_t)o->war_on;
	long long reg_dep = dep; /* what it waits for is that result's unless a later rule waits longer */
	long long g = 0;
	int gwhy = STALL_LONG_SB;
	if (o->kind == STALL_K_CPWAIT)
		g = group_done(&w->cp, o->wait_n);
	else if (o->kind == STALL_K_WGWAIT)
		g = group_done(&w->wg, o->wait_n), gwhy = STALL_BARRIER;
	if (g > dep)
		dep = g, why = gwhy;
	int bar = w->bar_at > dep && !defers_bar(o);
	if (bar)
		dep = w->bar_at, why = STALL_BARRIER;
	if (w->hold > dep) /* a debug build's stall count */
		dep = w->hold, why = STALL_WAIT;
	if (o->kind == STALL_K_WGMMA && w->hold_wg > dep)
		dep = w->hold_wg, why = wg_behind(s, w, t) ? STALL_MIO : STALL_WAIT;
	if (s->c->debug && w->pend > dep) /* -O0 SASS: then every scoreboard (docs/model.md) */
		dep = w->pend, why = w->pend_why;
	w->wake = dep;
	w->why = (uint8_t)why;
	w->wfor = dep == reg_dep ? wfor : 0;
	w->wop = bar && why == STALL_BARRIER && w->bar_shows ? w->bar_shows - 1 : opi;
	if (dr >= 0 && !bar && (why == STALL_LONG_SB || why == STALL_SHORT_SB) && w->reg[dr].show)
		w->wop = w->reg[dr].show - 1;
	for (int i = 0; i < w->mb_nreg && why == STALL_LONG_SB; i++)
		if (w->mb_reg[i] == dr)
			w->wop = w->mb_wop;
}

static void set_reg(sim *s, wstate *w, const stall_op *o, long long when, int why)
{
	regstate v = {.ready = when, .why = (uint8_t)why, .show = (uint32_t)o->wait_shows,
		      .op = (uint32_t)(o - s->t->ops) + 1};
	if (s->to) {
		s->to->n = 0;
		for (int i = 0; i < o->ndst; i++)
			if (o->dst[i] >= 0 && o->dst[i] < s->t->nregs)
				s->to->reg[s->to->n++] = o->dst[i];
		s->to->v = v;
		return;
	}
	for (int i = 0; i < o->ndst; i++)
		if (o->dst[i] >= 0 && o->dst[i] < s->t->nregs)
			w->reg[o->dst[i]] = v;
	if (s->c->debug && why != STALL_WAIT && when > w->pend)
		w->pend = when, w->pend_why = (uint8_t)why;
}

/* The places an LG instruction takes in its sub-partition's queue: the SASS instructions it stands for. A
 * PTX load in a loop ptxas unrolled U times is its line's U LDGs there, issued as one burst (lessons 1 and 2,
 * naive_rows, warp_dot: 4), a wmma.load four LDGs; the replay issues it one iteration at a time. */
static inline int lg_places(const stall_op *o)
{
	return o->lg_sass <= 1 ? 1 : o->lg_sass < LG_ENTRIES ? o->lg_sass : LG_ENTRIES;
}

/* The kind the pipes see: a debug build's mov is a real MOV, on the INT pipe (optimised code has
 * ptxas fold most of them away: issue only). */
static inline int pipe_kind(const sim *s, const stall_op *o)
{
	return o->kind == STALL_K_MOVE && s->c->debug ? STALL_K_INT : o->kind;
}

/* 0 when a pipe of kind k (pipe_kind) takes the op at t, else the cycle it may (and the throttle reason
 * in *why). */
static inline long long pipe_busy(const sim *s, const wstate *w, const stall_op *o, int k, long long t, int *why)
{
	double until = 0;
	switch ((stall_kind)k) {
	/* the FMA pipe takes one a cycle, so it holds an FFMA only for its register reads (fma_cycles > 1):
	 * ncu's dispatch stall (lessons 5-7: 5-20% of the samples, math pipe throttle under 1%) */
	case STALL_K_FMA: until = s->smsp_free[w->smsp][P_FMA] - 1, *why = STALL_DISPATCH; break;
	case STALL_K_INT: until = s->smsp_free[w->smsp][P_INT], *why = STALL_MATH; break;
	case STALL_K_IMAD: until = s->smsp_free[w->smsp][P_FMA], *why = STALL_MATH; break;
	case STALL_K_MUFU: until = s->smsp_free[w->smsp][P_MUFU], *why = STALL_MIO; break;
	case STALL_K_MMA: until = s->smsp_free[w->smsp][P_TENSOR], *why = STALL_MATH; break;
	case STALL_K_SHFL: case STALL_K_LDS: case STALL_K_STS: /* until the oldest of its queue's entries starts */
		until = s->mio_ring[w->smsp][s->mio_head[w->smsp]], *why = STALL_MIO; break;
	case STALL_K_LDG: case STALL_K_STG: case STALL_K_CPASYNC:
		/* until its places' oldest entries start */
		until = s->lg_ring[w->smsp][(s->lg_head[w->smsp] + lg_places(o) - 1) % LG_ENTRIES], *why = STALL_LG;
		break;
	default: return 0;
	}
	if (!(until > (double)t))
		return 0;
	long long c = (long long)until; /* ceil(until), without a call: until > t >= 0 */
	return (double)c < until ? c + 1 : c;
}

/* Whether the op goes through a queue the SM's four sub-partitions share. */
static int shared_queue(const stall_op *o)
{
	switch ((stall_kind)o->kind) {
	case STALL_K_SHFL: case STALL_K_LDS: case STALL_K_STS: case STALL_K_LDG: case STALL_K_STG:
	case STALL_K_CPASYNC: case STALL_K_TMA:
		return 1;
	default:
		return 0;
	}
}

static double queue(double *free_at, long long t, double work)
{
	double start = *free_at > (double)t ? *free_at : (double)t;
	*free_at = start + work;
	return *free_at;
}

/* Warp w's LG instruction o into the L1 at t: its work done when the L1 is through it (returned); the starts
 * of its places (lg_places), its work spread over them, kept among its sub-partition's last LG_ENTRIES. */
static double lg_enqueue(sim *s, wstate *w, const stall_op *o, long long t, double work)
{
	double start = queue(&s->lg_free, t, work) - work;
	w->read_at[o - s->t->ops] = (long long)start; /* its registers read as the L1 starts on it */
	int n = lg_places(o);
	for (int i = 0; i < n; i++) {
		s->lg_ring[w->smsp][s->lg_head[w->smsp]] = start + work * i / n;
		s->lg_head[w->smsp] = (s->lg_head[w->smsp] + 1) % LG_ENTRIES;
	}
	return s->lg_free;
}

/* Warp w's instruction into the MIO at t: its work done when the unit is through it (returned), its start
 * kept among its sub-partition's last MIO_ENTRIES. */
static double mio_enqueue(sim *s, const wstate *w, long long t, double work)
{
	double start = s->mio_free > (double)t ? s->mio_free : (double)t;
	s->mio_free = start + work;
	s->mio_ring[w->smsp][s->mio_head[w->smsp]] = start;
	s->mio_head[w->smsp] = (s->mio_head[w->smsp] + 1) % MIO_ENTRIES;
	return s->mio_free;
}

static void prepare_ahead(sim *s, wstate *w, long long t);

/* Releases named barrier id of block blk when its warps are all there (at t). */
static void barrier_check(sim *s, int blk, int id, long long t)
{
	bstate *b = &s->b[blk];
	int want = b->want[id] > 0 && b->want[id] < b->live ? b->want[id] : b->live;
	if (!b->arrived[id] || b->arrived[id] < want)
		return;
	long long at = t + (long long)(s->p->lat[STALL_LAT_BAR] + s->p->bar_per_warp * (want - s->p->bar_warps));
	for (int i = 0; i < s->nw; i++) {
		wstate *w = &s->w[i];
		if (w->blk != blk || w->bar_id != id || !(w->at_bar || w->bar_pend))
			continue;
		w->bar_at = at;
		w->bar_pend = 0;
		if (!w->at_bar) /* still issuing ALU work: its next other instruction waits for at */
			continue;
		w->at_bar = 0;
		charge(s, w->wop, STALL_BARRIER, w->seg, at); /* at the instruction it blocked at */
		w->seg = at;
		prepare(s, w, at - 1); /* then its next instruction's own operands */
		prepare_ahead(s, w, at - 1);
	}
	b->arrived[id] = 0;
	b->want[id] = 0;
}

/* Warp w's warpgroup in its block. */
static int wg_of(const sim *s, const wstate *w)
{
	return (int)(w - s->w) % s->t->warps_per_block / 4;
}

/* The warps of warpgroup g of block blk, and how many of them still run. */
static int wg_live(const sim *s, int blk, int g)
{
	int wpb = s->t->warps_per_block, n = 0;
	for (int wi = 4 * g; wi < 4 * g + 4 && wi < wpb; wi++)
		n += !s->w[blk * wpb + wi].done;
	return n;
}

/* wgmma.fence is SASS's WARPGROUP.ARRIVE, where a warp waits for the other warps of its warpgroup before
 * the HGMMAs that follow issue (NVIDIA's answer on its forum, docs/model.md "Stall reasons"; one
 * wgmma.mma_async is issued collectively by the warpgroup's 128 threads): a barrier of those four warps,
 * charged at the fence, "on the WARPGROUP.ARRIVE" as NVIDIA puts it. ncu's name for it is gmma, which
 * none of its recorded samples of lessons 9-11 has; the table's reason for sibling warps is barrier. */
static void wg_check(sim *s, int blk, int g, long long t, int force)
{
	bstate *b = &s->b[blk];
	if (g < 0 || g >= WARPGROUPS || !b->wg_arrived[g] || (b->wg_arrived[g] < wg_live(s, blk, g) && !force))
		return;
	int wpb = s->t->warps_per_block;
	long long at = t + 1;
	for (int wi = 4 * g; wi < 4 * g + 4 && wi < wpb; wi++) {
		wstate *w = &s->w[blk * wpb + wi];
		if (!w->at_bar || w->bar_id >= 0)
			continue;
		w->at_bar = 0;
		charge(s, w->wop, STALL_BARRIER, w->seg, at);
		w->seg = at;
		prepare(s, w, at - 1);
		prepare_ahead(s, w, at - 1);
	}
	b->wg_arrived[g] = 0;
}

/* Whether warp w's mbarrier wait is met at t: its slot has the arrivals and copies the emulator saw
 * before the wait succeeded. Then its predicate is ready latency_lds after the last of them (or t). */
static void mbar_check(sim *s, wstate *w, long long t)
{
	if (w->mb_slot < 0)
		return;
	const mbar *m = &s->b[w->blk].mb[w->mb_slot];
	if (m->arrivals < w->mb_arr || m->copies < w->mb_cp)
		return;
	long long at = t;
	if (w->mb_arr > 0 && w->mb_arr > m->arrivals - GROUPS && m->arrived_at[(w->mb_arr - 1) % GROUPS] > at)
		at = m->arrived_at[(w->mb_arr - 1) % GROUPS];
	if (w->mb_cp > 0 && w->mb_cp > m->copies - GROUPS && m->landed[(w->mb_cp - 1) % GROUPS] > at)
		at = m->landed[(w->mb_cp - 1) % GROUPS];
	at += (long long)s->p->lat[STALL_LAT_LDS];
	for (int i = 0; i < w->mb_nreg; i++)
		w->reg[w->mb_reg[i]] = (regstate){.ready = at, .why = STALL_LONG_SB};
	w->mb_slot = -1;
}

/* An arrival or a copy on slot `slot` of block blk at t: the warps whose wait it meets go on. */
static void mbar_wake(sim *s, int blk, int slot, long long t)
{
	for (int i = 0; i < s->nw; i++) {
		wstate *w = &s->w[i];
		if (w->blk != blk || w->mb_slot != slot || w->done)
			continue;
		mbar_check(s, w, t);
		if (w->mb_slot < 0 && !w->at_bar && w->pos < w->n) {
			prepare(s, w, t);
			prepare_ahead(s, w, t);
		}
	}
}

/* What record k of the warp does to the pipes, queues and registers, issued at t. */
static void effects(sim *s, wstate *w, size_t k, long long t)
{
	uint32_t opi = w->rec[k].op;
	const stall_op *o = &s->t->ops[opi];
	const stall_params *p = s->p;
	/* a shared access with no wavefronts of its own is one ptxas merged into its group's LDS.128
	 * (emu_trace.c charges the leader): nothing at MIO (it keeps an issue slot here, none in SASS) */
	int merged = (o->kind == STALL_K_LDS || o->kind == STALL_K_STS) && !(o->units > 0);
	double u = merged ? 0 : o->units > 0 ? o->units : 1;
	s->issued[opi] += 1;
	charge(s, opi, STALL_SELECTED, t, t + 1);
	if (s->c->debug)
		w->hold = t + STALL_DEBUG_HOLD;
	switch ((stall_kind)pipe_kind(s, o)) {
	case STALL_K_FMA:
		/* FMA_INTERVAL, or more where the kernel's FFMAs wait for their register banks: the pipe
		 * then runs behind by a fraction of a cycle an FFMA, as the measured streams do */
		s->smsp_free[w->smsp][P_FMA] = fmax(s->smsp_free[w->smsp][P_FMA], (double)t) +
					       (s->c->fma_cycles > FMA_INTERVAL ? s->c->fma_cycles : FMA_INTERVAL);
		set_reg(s, w, o, t + (long long)p->lat[STALL_LAT_FFMA], STALL_WAIT);
		break;
	case STALL_K_INT:
		s->smsp_free[w->smsp][P_INT] = (double)t + INT_INTERVAL;
		set_reg(s, w, o, t + (long long)p->lat[STALL_LAT_IMAD], STALL_WAIT);
		break;
	case STALL_K_IMAD:
		s->smsp_free[w->smsp][P_FMA] = fmax(s->smsp_free[w->smsp][P_FMA], (double)t) + INT_INTERVAL;
		set_reg(s, w, o, t + (long long)p->lat[STALL_LAT_IMAD], STALL_WAIT);
		break;
	case STALL_K_MOVE:
		set_reg(s, w, o, t + (long long)p->lat[STALL_LAT_IMAD], STALL_WAIT);
		break;
	case STALL_K_MUFU:
		s->smsp_free[w->smsp][P_MUFU] = (double)t + MUFU_INTERVAL;
		set_reg(s, w, o, t + (long long)p->lat[STALL_LAT_MUFU], STALL_SHORT_SB);
		break;
	case STALL_K_SHFL:
		set_reg(s, w, o, (long long)(mio_enqueue(s, w, t, 1 / MIO_PER_CYCLE) + p->lat[STALL_LAT_SHFL]), STALL_SHORT_SB);
		break;
	case STALL_K_LDS:
		set_reg(s, w, o, (long long)(mio_enqueue(s, w, t, u / MIO_PER_CYCLE) + p->lat[STALL_LAT_LDS]), STALL_SHORT_SB);
		break;
	case STALL_K_STS:
		mio_enqueue(s, w, t, u / MIO_PER_CYCLE);
		break;
	case STALL_K_LDG: case STALL_K_CPASYNC: {
		const stall_rec *r = &w->rec[k];
		queue(&s->mio_free, t, LG_MIO_CYCLES); /* the pipe it shares (LG_MIO_CYCLES) */
		double start = lg_enqueue(s, w, o, t, u / LG_PER_CYCLE), done = start + s->miss_lat;
		if (r->mem != STALL_NO_MEM) { /* each line through the L1: the last to be there decides */
			const uint32_t *ln = &s->t->mem[r->mem];
			uint64_t copy = (uint64_t)(w->blk / s->t->nblocks) << 32; /* a replayed copy reads its own lines */
			long long miss = (long long)(start + s->miss_lat), hitlat = (long long)(start + p->lat[STALL_LAT_L1]);
			done = hitlat;
			for (uint32_t i = 1; i <= ln[0]; i++) {
				int hit;
				long long at = l1_access(&s->l1, (uint64_t)ln[i] + 1 + copy, miss, &hit);
				if ((double)at > done)
					done = (double)at;
				s->l1_lines++;
				s->l1_hits += hit;
				s->l1_fill_hits += hit && (double)at > start;
			}
		}
		if (o->kind == STALL_K_LDG)
			set_reg(s, w, o, (long long)done, STALL_LONG_SB);
		else if ((long long)done > w->cp.open)
			w->cp.open = (long long)done;
		break;
	}
	case STALL_K_STG:
		lg_enqueue(s, w, o, t, u / LG_PER_CYCLE);
		break;
	case STALL_K_CPCOMMIT:
		group_commit(&w->cp);
		break;
	case STALL_K_WGCOMMIT:
		group_commit(&w->wg);
		break;
	case STALL_K_MMA:
		s->smsp_free[w->smsp][P_TENSOR] = (double)t + u / MMA_FLOPS_PER_CYCLE;
		set_reg(s, w, o, t + (long long)p->lat[STALL_LAT_MMA], STALL_WAIT);
		break;
	case STALL_K_WGMMA: {
		w->wg_end = queue(&s->smsp_free[w->smsp][P_TENSOR], t, u / WGMMA_FLOPS_PER_CYCLE);
		double done = w->wg_end + p->lat[STALL_LAT_MMA];
		if ((long long)done > w->wg.open)
			w->wg.open = (long long)done;
		w->hold_wg = t + (long long)(u / WGMMA_WARP_FLOPS_PER_N * WGMMA_ISSUE_PER_N);
		break;
	}
	case STALL_K_MBAR_WAIT: { /* SYNCS.PHASECHK: its predicate comes back through the long scoreboard once the
				   * phase it waited for completes, read (in shared memory) at latency_lds */
		const stall_rec *r = &w->rec[k];
		long long done = t + (long long)p->lat[STALL_LAT_LDS];
		w->mb_nreg = 0;
		for (int i = 0; i < o->ndst; i++)
			if (o->dst[i] >= 0 && o->dst[i] < s->t->nregs)
				w->mb_reg[w->mb_nreg++] = o->dst[i];
		/* the wait for the predicate shows at the PTX line before the try_wait: ptxas peels the spin loop's
		 * first test out of it, and in the recorded SASS (lessons 9-11) that PHASECHK and the branch reading
		 * its predicate carry the line of the instruction before the loop's label (ncu: lesson 9's producer
		 * waits at line 123, before P_WAIT at 124) */
		w->mb_wop = opi > 0 ? opi - 1 : opi;
		if (r->mem == STALL_NO_MEM || s->t->mem[r->mem] != 3 || s->t->mem[r->mem + 1] >= STALL_MBARS) {
			/* no slot recorded: the block's TMA copies issued so far */
			set_reg(s, w, o, s->b[w->blk].async_ready > done ? s->b[w->blk].async_ready : done, STALL_LONG_SB);
			break;
		}
		w->mb_slot = (int)s->t->mem[r->mem + 1];
		w->mb_arr = s->t->mem[r->mem + 2], w->mb_cp = s->t->mem[r->mem + 3];
		set_reg(s, w, o, NEVER, STALL_LONG_SB);
		mbar_check(s, w, t);
		break;
	}
	case STALL_K_MBAR_ARRIVE:
		if (w->rec[k].mem < STALL_MBARS) {
			mbar *m = &s->b[w->blk].mb[w->rec[k].mem];
			m->arrived_at[m->arrivals++ % GROUPS] = t;
			mbar_wake(s, w->blk, (int)w->rec[k].mem, t);
		}
		break;
	case STALL_K_TMA: {
		long long done = (long long)(queue(&s->tma_free, t, u / s->tma_per_cycle) + s->miss_lat);
		if (done > s->b[w->blk].async_ready)
			s->b[w->blk].async_ready = done;
		if (w->rec[k].mem < STALL_MBARS) {
			mbar *m = &s->b[w->blk].mb[w->rec[k].mem];
			long long prev = m->copies ? m->landed[(m->copies - 1) % GROUPS] : 0;
			m->landed[m->copies++ % GROUPS] = done > prev ? done : prev;
			mbar_wake(s, w->blk, (int)w->rec[k].mem, t);
		}
		break;
	}
	default:
		break;
	}
}

static int reg_in(int32_t r, const int32_t *set, int n)
{
	for (int i = 0; i < n; i++)
		if (set[i] == r)
			return 1;
	return 0;
}

/* Whether a load may pass op (as ptxas would move it): not across control, barriers, stores or
 * async machinery. */
static int passable(const stall_op *o)
{
	switch ((stall_kind)o->kind) {
	case STALL_K_FMA: case STALL_K_INT: case STALL_K_IMAD: case STALL_K_MOVE: case STALL_K_MUFU: case STALL_K_SHFL:
	case STALL_K_LDS: case STALL_K_LDG: case STALL_K_MMA:
		return 1;
	default:
		return 0;
	}
}

/* The first load within LOOKAHEAD records that may issue ahead, and when (w->aj, w->awake). */
static void prepare_ahead(sim *s, wstate *w, long long t)
{
	s->dirty[w->smsp] |= w != s->cur;
	w->awake = NEVER;
	if (!s->c->hoist_loads || w->bar_pend || w->bar_at > t + 1) /* nothing passes a barrier */
		return;
	if (++s->pass == 0) { /* a mark wrapped round: none is this pass's */
		memset(s->passed, 0, (size_t)s->t->nregs * sizeof *s->passed);
		s->pass = 1;
	}
	const shadow *seen[LOOKAHEAD + 1]; /* the renamed results passed so far, in program order */
	int nseen = 0, past_sts = 0;
	int wait_at = w->pos < w->n ? s->t->ops[w->rec[w->pos].op].sass_at : 0; /* the waiting one's, in the SASS */
	for (size_t k = w->pos; k < w->n && k <= w->pos + LOOKAHEAD; k++) {
		if (w->ahead >> (k - w->pos) & 1) {
			for (int j = 0; j < w->nsh; j++)
				if (w->sh[j].pos == k)
					seen[nseen++] = &w->sh[j];
			continue;
		}
		const stall_op *o = &s->t->ops[w->rec[k].op];
		/* a shared store cannot alias a global or local load (another state space): ptxas moves
		 * the loads of a tile's next values above the stores of its last (low_occ's 16 LDG, STS pairs) */
		if (o->kind == STALL_K_STS) {
			past_sts = 1;
			continue;
		}
		if (!passable(o) || (past_sts && o->kind == STALL_K_LDS))
			return;
		if (k > w->pos && (s->c->hoist_loads > 1 || o->kind == STALL_K_LDG || o->kind == STALL_K_LDS)) {
			/* a global load the recorded SASS issues after the waiting instruction does not pass it:
			 * ptxas did not hoist it there (lesson 5's next-tile LDGs stay behind the bounds tests of
			 * the loads before them; its shared stores then wait for them at long scoreboard, as
			 * ncu finds) */
			long long dep = t + 1;
			int ok = !(o->kind == STALL_K_LDG && o->sass_at && wait_at && wait_at < o->sass_at);
			for (int i = 0; i < o->nsrc && ok; i++) {
				int32_t r = o->src[i];
				if (r < 0 || r >= s->t->nregs)
					continue;
				ok = s->passed[r] != s->pass;
				long long at = w->reg[r].ready; /* the value it reads: the latest renamed one passed, else the register's */
				for (int j = 0; j < nseen; j++)
					if (reg_in(r, seen[j]->reg, seen[j]->n))
						at = seen[j]->v.ready;
				dep = at > dep ? at : dep;
			}
			/* the first that may issue ahead is the one, unless it waits for its operands and a shared
			 * load after it does not: that load passes it (ptxas puts an LDS as early as its address
			 * allows: a median 15 SASS instructions before its first use in low_occ, whose PTX has each
			 * just before; 31-67 in lessons 5-8) */
			int lds = o->kind == STALL_K_LDS;
			if (ok && (w->awake == NEVER || (lds && dep < w->awake))) {
				w->aj = k, w->awake = dep;
				if (dep <= t + 1 || lds)
					return;
			}
		}
		for (int i = 0; i < o->ndst; i++)
			if (o->dst[i] >= 0 && o->dst[i] < s->t->nregs)
				s->passed[o->dst[i]] = s->pass;
	}
}

/* The load at w->aj issues at t while the warp's next instruction still waits. */
static void issue_ahead(sim *s, wstate *w, long long t)
{
	charge_wait(s, w, w->seg, t); /* the waiting instruction's wait so far */
	w->seg = t + 1;
	if (w->held) /* the rest of the wait is the waiting instruction's again */
		w->wop = w->held_op, w->why = w->held_why, w->held = 0;
	shadow *sh = &w->sh[w->nsh++];
	sh->pos = w->aj, sh->n = 0;
	s->to = sh;
	effects(s, w, w->aj, t);
	s->to = NULL;
	w->ahead |= 1ULL << (w->aj - w->pos);
	prepare_ahead(s, w, t);
}

/* Program order reaches a record issued ahead: its renamed result takes the register's place. */
static void retire_ahead(sim *s, wstate *w)
{
	for (int j = 0; j < w->nsh; j++)
		if (w->sh[j].pos == w->pos) {
			for (int i = 0; i < w->sh[j].n; i++)
				w->reg[w->sh[j].reg[i]] = w->sh[j].v;
			(void)s;
			w->sh[j] = w->sh[--w->nsh];
			return;
		}
}

static void issue(sim *s, wstate *w, long long t)
{
	size_t k0 = w->pos;
	uint32_t opi = w->rec[k0].op;
	const stall_op *o = &s->t->ops[opi];
	effects(s, w, k0, t);
	w->held = 0;
	w->pos++;
	w->ahead >>= 1;
	while (w->pos < w->n && (w->ahead & 1)) {
		retire_ahead(s, w);
		w->pos++;
		w->ahead >>= 1;
	}
	if (w->pos < w->n)
		w->nop = w->rec[w->pos].op, w->npk = (uint8_t)pipe_kind(s, &s->t->ops[w->nop]);
	w->seg = t + 1;
	if (w->pos >= w->n) {
		w->done = 1;
		s->b[w->blk].live--;
		for (int id = 0; id < STALL_BARRIERS; id++) /* a barrier waits for the warps still running */
			barrier_check(s, w->blk, id, t);
		wg_check(s, w->blk, wg_of(s, w), t, 0);
		return;
	}
	if (o->kind == STALL_K_WGFENCE) { /* held until its warpgroup is there (wg_check), charged at the fence */
		w->at_bar = 1;
		w->bar_id = -1;
		w->wake = NEVER;
		w->why = STALL_BARRIER;
		w->wop = w->rec[k0].op;
		w->awake = NEVER;
		int g = wg_of(s, w);
		if (g < WARPGROUPS)
			s->b[w->blk].wg_arrived[g]++;
		wg_check(s, w->blk, g, t, 0);
		return;
	}
	if (o->kind == STALL_K_BAR) {
		uint32_t id = w->rec[k0].mem; /* the barrier's number, as the emulator read it */
		w->bar_id = id < STALL_BARRIERS ? (int)id : 0;
		w->bar_pend = 1;
		w->bar_shows = (uint32_t)o->bar_shows;
		s->b[w->blk].arrived[w->bar_id]++;
		if (o->bar_warps > 0)
			s->b[w->blk].want[w->bar_id] = o->bar_warps;
		barrier_check(s, w->blk, w->bar_id, t);
	}
	if (w->bar_pend && (w->bar_id == STALL_BAR_CLUSTER || !defers_bar(&s->t->ops[w->rec[w->pos].op]))) {
		/* ncu samples a waiting warp at the instruction it will issue next: the one it blocks at (a
		 * barrier.cluster.wait's SASS waits itself: there, ncu's lesson 10 line 465) */
		w->at_bar = 1;
		w->wake = NEVER;
		w->why = STALL_BARRIER;
		w->wop = w->bar_id == STALL_BAR_CLUSTER ? w->rec[k0].op
			 : w->bar_shows			 ? w->bar_shows - 1
							 : w->rec[w->pos].op;
		w->awake = NEVER;
		return;
	}
	prepare(s, w, t);
	prepare_ahead(s, w, t);
}

/* A warp in its sub-partition's scan at tnow: the wait that ended charged where it was, a busy pipe
 * made a wait. 1: its next instruction may issue, 0: a load ahead of it may; -1: neither, *until its
 * wake (NEVER: done, or at a barrier). */
static int visit(sim *s, wstate *w, long long tnow, long long *until)
{
	*until = NEVER;
	if (w->done || w->at_bar)
		return -1;
	const stall_op *ops = s->t->ops;
	int inorder = w->wake <= tnow, twhy = STALL_MATH;
	if (inorder) {
		if (w->seg < w->wake) { /* the wait ends: charge it where it was */
			charge_wait(s, w, w->seg, w->wake);
			w->seg = w->wake;
		}
		long long busy = pipe_busy(s, w, &ops[w->rec[w->pos].op], w->npk, tnow, &twhy);
		if (busy) {
			charge(s, w->nop, STALL_NOT_SELECTED, w->seg, tnow);
			w->seg = tnow;
			w->wake = busy, w->why = (uint8_t)twhy, w->wop = w->nop, w->held = 0, w->wfor = 0;
			inorder = 0;
		}
	}
	int ahead = !inorder && w->awake <= tnow;
	if (ahead) {
		long long busy = pipe_busy(s, w, &ops[w->rec[w->aj].op], pipe_kind(s, &ops[w->rec[w->aj].op]), tnow, &twhy);
		if (busy) {
			w->awake = busy, ahead = 0;
			/* a load LG throttle holds, which ptxas's SASS issues before the instruction waiting in order
			 * (an unrolled loop's loads all first: lesson 2's lines 98, 101, 104): the GPU's warp waits
			 * at the load, so its wait is charged there until the load goes */
			const stall_op *a = &ops[w->rec[w->aj].op], *n = &ops[w->nop];
			if (twhy == STALL_LG && !w->held && w->why != STALL_LG && a->sass_at && n->sass_at &&
			    a->sass_at < n->sass_at) {
				charge_wait(s, w, w->seg, tnow);
				w->seg = tnow;
				w->held = 1, w->held_op = w->wop, w->held_why = w->why;
				w->wop = w->rec[w->aj].op, w->why = STALL_LG;
			}
		}
	}
	if (!inorder && !ahead) {
		*until = w->wake < w->awake ? w->wake : w->awake;
		return -1;
	}
	*until = tnow;
	return inorder;
}

stall_reason stall_top(const double cyc[STALL_NREASONS])
{
	int best = STALL_SELECTED;
	for (int r = 0; r < STALL_NREASONS; r++)
		if (r != STALL_SELECTED && cyc[r] > 0 && (best == STALL_SELECTED || cyc[r] > cyc[best]))
			best = r;
	return (stall_reason)best;
}

static void by_line(sim *s, stall_result *r)
{
	const stall_trace *t = s->t;
	int maxline = 0;
	for (int i = 0; i < t->nops; i++)
		maxline = t->ops[i].line > maxline ? t->ops[i].line : maxline;
	int *slot = xmalloc(((size_t)maxline + 1) * sizeof *slot);
	for (int i = 0; i <= maxline; i++)
		slot[i] = -1;
	r->lines = xcalloc((size_t)t->nops + 1, sizeof *r->lines);
	for (int i = 0; i < t->nops; i++) {
		if (!s->issued[i])
			continue;
		int l = t->ops[i].line;
		if (slot[l] < 0) {
			slot[l] = r->nlines++;
			r->lines[slot[l]].line = l;
		}
		stall_line *sl = &r->lines[slot[l]];
		sl->issued += s->issued[i];
		for (int k = 0; k < STALL_NREASONS; k++) {
			sl->cyc[k] += s->cyc[i][k];
			r->total[k] += s->cyc[i][k];
		}
		for (int f = 0; f < STALL_FOR && s->fors[i].for_line[f]; f++)
			stall_line_for(sl, s->fors[i].for_line[f], s->fors[i].for_cyc[f]);
	}
	free(slot);
	/* in line order: the slots were given in op order, which is line order for the parser */
	for (int i = 1; i < r->nlines; i++)
		for (int j = i; j > 0 && r->lines[j - 1].line > r->lines[j].line; j--) {
			stall_line tmp = r->lines[j];
			r->lines[j] = r->lines[j - 1];
			r->lines[j - 1] = tmp;
		}
	for (int i = 0; i < r->nlines; i++)
		r->lines[i].top = stall_top(r->lines[i].cyc);
}

/* The blocks an SM holds: as many as fit, or fewer where the grid is smaller than a wave (132 blocks on
 * 132 SMs: one each). */
static int resident_blocks(const stall_config *c)
{
	long long fill = c->sms > 0 && c->grid_blocks > 0 ? (c->grid_blocks + c->sms - 1) / c->sms : c->blocks_per_sm;
	return fill < c->blocks_per_sm ? (int)fill : c->blocks_per_sm;
}

/* The replay's arrays for its s->nw warps, nr registers each, and their end. */
static void sim_arrays(sim *s, size_t nr)
{
	size_t ops = (size_t)s->t->nops, nw = (size_t)s->nw;
	s->w = xcalloc(nw, sizeof *s->w);
	s->b = xcalloc((size_t)s->nb, sizeof *s->b);
	s->cyc = xcalloc(ops, sizeof *s->cyc);
	s->fors = xcalloc(ops, sizeof *s->fors);
	s->issued = xcalloc(ops, sizeof *s->issued);
	s->regs = xcalloc(nr * nw, sizeof *s->regs);
	s->read_at = xcalloc(ops * nw, sizeof *s->read_at);
	s->passed = xcalloc(nr, sizeof *s->passed);
}

static void sim_free(sim *s)
{
	free(s->w), free(s->b), free(s->cyc), free(s->fors), free(s->issued), free(s->regs), free(s->read_at);
	free(s->passed), l1_free(&s->l1);
}

int stall_model(const stall_trace *t, const stall_params *p, const stall_config *c, stall_result *r, char *err,
		int errlen)
{
	memset(r, 0, sizeof *r);
	if (!t->nblocks || !t->nops || c->blocks_per_sm <= 0) {
		snprintf(err, (size_t)errlen, "no stalls: %s", c->blocks_per_sm <= 0 ? "no block fits on an SM" : "no block was traced");
		return -1;
	}
	int nb = resident_blocks(c);
	sim s = {.t = t, .p = p, .c = c, .nb = nb, .nw = nb * t->warps_per_block};
	size_t nr = (size_t)(t->nregs > 0 ? t->nregs : 1);
	sim_arrays(&s, nr);
	s.l1_bytes = fmin(L1_SM_BYTES - (double)c->smem_per_block * nb, L1_MAX_BYTES);
	double m = c->l2_miss < 0 ? 0 : c->l2_miss > 1 ? 1 : c->l2_miss;
	double mhz = c->clock_mhz > 0 ? c->clock_mhz : p->clock_mhz;
	s.miss_lat = (1 - m) * stall_latency_at(p, STALL_LAT_L2, mhz) + m * stall_latency_at(p, STALL_LAT_DRAM, mhz);
	s.tma_per_cycle = p->tma_gbs * 1e3 / (c->sms > 0 ? c->sms : 1) / mhz;
	s.l1.lines_max = s.l1_bytes > 128 ? (size_t)(s.l1_bytes / 128) : 1;
	int live = 0;
	for (int i = 0; i < s.nw; i++) {
		wstate *w = &s.w[i];
		int blk = i / t->warps_per_block, wi = i % t->warps_per_block;
		const stall_warp *tw = &t->warps[(size_t)(blk % t->nblocks) * (size_t)t->warps_per_block + (size_t)wi];
		w->rec = tw->rec, w->n = tw->n, w->blk = blk, w->smsp = i % 4;
		w->reg = s.regs + nr * (size_t)i, w->read_at = s.read_at + (size_t)t->nops * (size_t)i;
		w->mb_slot = -1;
		if (!w->n) {
			w->done = 1;
			continue;
		}
		s.b[blk].live++;
		live++;
		w->nop = w->rec[0].op, w->npk = (uint8_t)pipe_kind(&s, &t->ops[w->nop]);
		prepare(&s, w, -1);
		prepare_ahead(&s, w, -1);
	}
	long long tnow = 0, last = 0;
	int last_issued[4] = {-1, -1, -1, -1};
	/* the four sub-partitions take turns at the SM's shared queues (MIO, LG, TMA): the one after the
	 * last to use one goes first (a fixed order let sub-partition 0's warps race ahead, 3's starve) */
	int turn = 0;
	long long sp_wake[4] = {0, 0, 0, 0}; /* per sub-partition: its warps' earliest wake at its last scan */
	/* Per warp: the cycle its wait ends as its last visit left it (NEVER: done or at a barrier),
	 * valid while its sub-partition is not dirty. A warp still waiting then is only a minimum for
	 * the scan: its visit charges nothing and changes nothing, so a clean scan reads this instead. */
	long long *until = xmalloc((size_t)s.nw * sizeof *until);
	for (int i = 0; i < s.nw; i++)
		until[i] = LLONG_MIN;
	while (live > 0) {
		long long next = NEVER;
		int first = turn;
		for (int q = 0; q < 4; q++) {
			int sp = (first + q) & 3;
			if (!s.dirty[sp] && sp_wake[sp] > tnow) { /* none can issue: the scan would only find this */
				next = sp_wake[sp] < next ? sp_wake[sp] : next;
				continue;
			}
			int clean = !s.dirty[sp];
			s.dirty[sp] = 0;
			long long lo = NEVER;  /* the earliest wake of the warps not picked */
			int ready = 0;         /* warps that could issue now */
			int pick = -1, pick_inorder = 0, pick_greedy = 0;
			long long pick_last = 0;
			for (int i = sp; i < s.nw; i += 4) {
				if (clean && until[i] > tnow) {
					next = until[i] < next ? until[i] : next;
					lo = until[i] < lo ? until[i] : lo;
					continue;
				}
				wstate *w = &s.w[i];
				int inorder = visit(&s, w, tnow, &until[i]);
				if (inorder < 0) {
					next = until[i] < next ? until[i] : next;
					lo = until[i] < lo ? until[i] : lo;
					continue;
				}
				ready++;
				/* greedy (the warp that issued the cycle before, while it has not stalled), then the
				 * one that issued longest ago */
				int greedy = i == last_issued[sp] && w->last == tnow - 1;
				if (pick < 0 || greedy || (!pick_greedy && w->last < pick_last))
					pick = i, pick_inorder = inorder, pick_greedy = greedy, pick_last = w->last;
			}
			if (pick >= 0) {
				wstate *w = &s.w[pick];
				s.cur = w;
				last_issued[sp] = pick;
				w->last = tnow;
				if (shared_queue(&t->ops[w->rec[pick_inorder ? w->pos : w->aj].op]))
					turn = (sp + 1) & 3;
				if (!pick_inorder) {
					issue_ahead(&s, w, tnow);
				} else {
					charge(&s, w->rec[w->pos].op, STALL_NOT_SELECTED, w->seg, tnow);
					issue(&s, w, tnow);
					live -= w->done;
				}
				last = tnow;
				next = tnow + 1 < next ? tnow + 1 : next;
				s.cur = NULL;
				long long when = w->done || w->at_bar ? NEVER : w->wake < w->awake ? w->wake : w->awake;
				until[pick] = when;
				lo = ready > 1 ? tnow : when < lo ? when : lo; /* one not picked could issue next cycle */
			}
			sp_wake[sp] = lo;
		}
		if (live > 0 && next == NEVER) /* an mbarrier's arrivals the trace lacks (cut): its waits end now */
			for (int i = 0; i < s.nw; i++)
				if (s.w[i].mb_slot >= 0 && !s.w[i].done) {
					s.w[i].mb_arr = s.w[i].mb_cp = 0;
					mbar_wake(&s, s.w[i].blk, s.w[i].mb_slot, tnow);
					next = tnow + 1;
				}
		if (live > 0 && next == NEVER) /* a wgmma.fence the rest of its warpgroup never reach (not .aligned) */
			for (int i = 0; i < s.nw; i++)
				if (s.w[i].at_bar && s.w[i].bar_id < 0 && !s.w[i].done) {
					wg_check(&s, s.w[i].blk, wg_of(&s, &s.w[i]), tnow, 1);
					next = tnow + 1;
				}
		if (live > 0 && next == NEVER) {
			snprintf(err, (size_t)errlen, "no stalls: the model's warps all wait at a barrier no warp reaches");
			sim_free(&s), free(until);
			return -1;
		}
		tnow = next;
	}
	by_line(&s, r);
	for (int k = 0; k < STALL_NREASONS; k++)
		r->warp_cycles += r->total[k];
	for (int i = 0; i < t->nops; i++)
		r->issued += s.issued[i];
	r->cycles = (double)(last + 1);
	r->issue_active = r->issued / (r->cycles * 4);
	double per_wave = (double)c->sms * nb;
	r->waves = per_wave > 0 ? ceil((double)c->grid_blocks / per_wave) : 1;
	r->ms = r->cycles * r->waves / (mhz * 1e3);
	r->warps = s.nw;
	r->blocks = nb;
	r->l1_lines = s.l1_lines, r->l1_hits = s.l1_hits, r->l1_fill_hits = s.l1_fill_hits;
	sim_free(&s), free(until);
	return 0;
}

void stall_result_free(stall_result *r)
{
	free(r->lines);
	memset(r, 0, sizeof *r);
}
