/* exec/stalls: the emulator's trace of a few blocks into the stall model (see stalls.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "exec/stalls.h"
#include "exec/backend.h"
#include "exec/estimate.h"
#include "emu/emu.h"
#include "model/occupancy.h"
#include "course/argspec.h"
#include "course/dtype.h"
#include "course/ptx.h"
#include "course/sass.h"
#include "course/sass_record.h"
#include "course/sass_tools.h"
#include "model/regbanks.h"
#include "model/power.h"
#include "base/util.h"

/* Stop once the sample ran: the estimate's blocks, or the first cluster. */
static int enough(void *ctx, const emu_progress *p)
{
	(void)ctx;
	return p->blocks_done >= EXEC_ESTIMATE_BLOCKS;
}

/* The lesson a PTX file is the kernel of by its name (ptx/05_blocktile2d.ptx: 5), else -1. */
static int lesson_of(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	return b[0] >= '0' && b[0] <= '9' && b[1] >= '0' && b[1] <= '9' && b[2] == '_' ? (b[0] - '0') * 10 + b[1] - '0'
										: -1;
}

/* What the compiler makes of the kernel, where it can be had: its registers (0: unknown; EXEC_STALLS_REGS is
 * then assumed, and said), the cycles its FFMAs take at their pipe for the register banks (*fma; 1 when its
 * SASS is unknown) and its SASS into k (none: k->n 0). A recording when one applies to this text: a lesson's
 * own (assets/sass/NN.sass), or the one beside a PTX file (X.ptx: X.sass); else, when its registers are
 * wanted or it is no lesson's, ptxas here (-v) and, where there is a disassembler, its SASS. *debug: the
 * PTX is a debug build. */
static int ptxas_facts(const run_request *rq, const gpu_spec *g, int want_regs, double *fma, sass_kernel *k,
		       int *debug)
{
	char err[256], arch[16];
	size_t len;
	*fma = 1;
	sass_kernel_init(k, rq->entry);
	char *text = util_read_file(rq->ptx_path, &len, err, sizeof err);
	if (!text)
		return 0;
	sass_arch_for(text, g->cc_major, g->cc_minor, arch, sizeof arch);
	*debug = ptx_is_debug(text);
	free(text);
	int regs = 0, lesson = lesson_of(rq->ptx_path);
	if (sass_record_use(lesson >= 0 ? lesson : SASS_RECORD_FILE, rq->ptx_path, rq->entry, arch, k, err,
			    sizeof err) == 0) {
		*fma = regbank_ffma_cycles(k);
		regs = k->regs > 0 ? k->regs : 0;
	} else if (want_regs || lesson < 0) {
		sass_kernel_free(k);
		sass_kernel_init(k, rq->entry);
		sass_job j;
		if (sass_job_start(&j, rq->ptx_path, err, sizeof err) == 0) {
			if (sass_job_ptxas(&j, arch, k, err, sizeof err) == 0) {
				regs = k->regs > 0 ? k->regs : 0;
				if (sass_job_disasm(&j, rq->entry, k, err, sizeof err) == 0)
					*fma = regbank_ffma_cycles(k);
			}
			sass_job_end(&j);
		}
	}
	return regs;
}

/* The last PTX line an op has. */
static int max_line(const stall_trace *t)
{
	int m = 0;
	for (int i = 0; i < t->nops; i++)
		m = t->ops[i].line > m ? t->ops[i].line : m;
	return m;
}

/* Per PTX line, its recorded SASS by class: ALU (the INT pipe's, IMADs aside), IMAD, other (NOPs aside), and
 * how many touch memory. */
enum { C_ALU, C_IMAD, C_OTHER, C_MEM, C_N };

/* An integer op's results only feed ops marked in gone: it computed nothing else. */
static int feeds_only(const stall_trace *t, const stall_op *o, const char *gone)
{
	int used = 0;
	for (int j = 0; j < t->nops; j++)
		for (int a = 0; a < t->ops[j].nsrc; a++)
			for (int d = 0; d < o->ndst; d++)
				if (t->ops[j].src[a] == o->dst[d]) {
					if (!gone[j])
						return 0;
					used = 1;
				}
	return used;
}

/* What ptxas made of each op where its line's recorded SASS says more than the PTX (docs/model.md item 4):
 * an integer op whose line is all IMADs runs on the FMA pipe's heavy half (GH100: FMAheavy takes IMAD, the
 * ALU the rest); a debug build's op issues its line's other SASS too, in its place; a global or local
 * access whose line has SASS but none touching memory is register work, that SASS (a local array ptxas keeps
 * in registers: spill's acc[(j + k) & 3], four ISETP.EQ and four moves a read), and the integer ops with no
 * SASS of their own that only computed its address are gone (issue only). Returns the fill (a line's SASS
 * besides its first op's own; stall_trace_expand), or NULL where no op has one. */
static stall_fill *sass_shape(stall_trace *t, const sass_kernel *k, int debug)
{
	if (!k->has_lines || k->n <= 0)
		return NULL;
	int maxline = max_line(t);
	int (*n)[C_N] = xcalloc((size_t)maxline + 1, sizeof *n);
	for (int i = 0; i < k->n; i++) {
		const char *x = k->ins[i].text;
		if (k->ins[i].line <= 0 || k->ins[i].line > maxline || !strncmp(x, "NOP", 3))
			continue;
		n[k->ins[i].line][sass_imad(x) ? C_IMAD : sass_alu(x) ? C_ALU : C_OTHER]++;
		n[k->ins[i].line][C_MEM] += sass_memory(x);
	}
	stall_fill *f = xcalloc((size_t)t->nops, sizeof *f);
	char *gone = xcalloc((size_t)t->nops, 1); /* register work now, or its address's arithmetic */
	int any = 0;
	for (int i = 0; i < t->nops; i++) {
		stall_op *o = &t->ops[i];
		int *c = n[o->line];
		if (o->kind == STALL_K_INT && c[C_IMAD] && !c[C_ALU] && !c[C_OTHER])
			o->kind = STALL_K_IMAD;
		int reg = !debug && (o->kind == STALL_K_LDG || o->kind == STALL_K_STG) && !c[C_MEM] &&
			  c[C_ALU] + c[C_IMAD] + c[C_OTHER];
		if (reg)
			o->kind = STALL_K_INT, o->units = 0, gone[i] = 1;
		if (!debug && !reg)
			continue;
		int own = o->kind == STALL_K_IMAD ? C_IMAD
			  : o->kind == STALL_K_INT || o->kind == STALL_K_MOVE ? (c[C_ALU] ? C_ALU : C_IMAD) : C_OTHER;
		c[own] -= c[own] > 0;
		f[i] = (stall_fill){.alu = (uint16_t)(c[C_ALU] < UINT16_MAX ? c[C_ALU] : UINT16_MAX),
				    .imad = (uint16_t)(c[C_IMAD] < UINT16_MAX ? c[C_IMAD] : UINT16_MAX),
				    .other = (uint16_t)(c[C_OTHER] < UINT16_MAX ? c[C_OTHER] : UINT16_MAX)};
		any |= f[i].alu || f[i].imad || f[i].other;
		c[C_ALU] = c[C_IMAD] = c[C_OTHER] = 0; /* the line's rest went to its first op */
	}
	for (int changed = any && !debug; changed;) { /* the address arithmetic, back along its chain */
		changed = 0;
		for (int i = 0; i < t->nops; i++) {
			stall_op *o = &t->ops[i];
			int *c = n[o->line];
			if (!gone[i] && o->kind == STALL_K_INT && o->ndst && !c[C_ALU] && !c[C_IMAD] && !c[C_OTHER] &&
			    feeds_only(t, o, gone))
				gone[i] = 1, o->kind = STALL_K_MOVE, changed = 1;
		}
	}
	free(gone);
	free(n);
	if (!any)
		free(f), f = NULL;
	return f;
}

/* Where each bar.sync's wait shows (stall_op.bar_shows): ncu samples a warp blocked at a deferred barrier
 * at the first SASS instruction after the BAR that is not arithmetic (sass_passes_bar), and ptxas may put
 * another op's there than the PTX's first (lesson 3: the second tile's LDG before the first's; lessons 4
 * and 6, low_occ). Kept where that instruction's line comes after the barrier's and is an op's line; a
 * loop ptxas rotated (lesson 8's HMMAs after its BAR) keeps the PTX's rule. */
static void bar_shows(stall_trace *t, const sass_kernel *k)
{
	if (!k->has_lines)
		return;
	for (int i = 0; i < t->nops; i++) {
		stall_op *o = &t->ops[i];
		if (o->kind != STALL_K_BAR)
			continue;
		int j = 0;
		while (j < k->n && !(k->ins[j].line == o->line && !strncmp(k->ins[j].text, "BAR", 3)))
			j++;
		for (j++; j < k->n && sass_passes_bar(k->ins[j].text); j++)
			;
		if (j >= k->n || k->ins[j].line <= o->line)
			continue;
		for (int q = 0; q < t->nops; q++)
			if (t->ops[q].line == k->ins[j].line) {
				o->bar_shows = q + 1;
				break;
			}
	}
}

/* Per PTX line, one pass over the recorded SASS: where the line first shows (sass_order) and its LG
 * instructions (stall_op.lg_sass). */
typedef struct {
	int first, main;  /* 1 + the index of its first instruction, and of its first past hoisted arithmetic */
	int lg, burst;    /* its LG instructions in the kernel, and the most of them in one loop */
} sass_line;

static sass_line *sass_lines(const sass_kernel *k, const int *lo, const int *hi, int maxline)
{
	sass_line *l = xcalloc((size_t)maxline + 1, sizeof *l);
	for (int j = 0; j < k->n; j++) {
		int ln = k->ins[j].line;
		if (ln <= 0 || ln > maxline)
			continue;
		sass_line *x = &l[ln];
		x->first = x->first ? x->first : j + 1;
		x->main = x->main || sass_passes_bar(k->ins[j].text) ? x->main : j + 1;
		if (!sass_lg(k->ins[j].text))
			continue;
		x->lg++;
		if (lo[j] >= 0) {
			int n = 0; /* its line's LG instructions in its loop */
			for (int q = lo[j]; q <= hi[j]; q++)
				n += k->ins[q].line == ln && sass_lg(k->ins[q].text);
			x->burst = n > x->burst ? n : x->burst;
		}
	}
	return l;
}

/* Where each op's line shows in ptxas's SASS (stall_op.sass_at): its first instruction that is not the
 * arithmetic ptxas hoists with it (an address's IMAD and LEA: sass_passes_bar), else its first. And the LG
 * instructions each global access's line has (stall_op.lg_sass): those in a loop (an unrolled loop's copies
 * of a load issue as one burst: lessons 1 and 2 have four of each of theirs; the most of any loop, so a
 * peeled copy before it does not count), else in the kernel (a wmma.load outside a loop: its four LDGs). */
static void sass_order(stall_trace *t, const sass_kernel *k, const int *lo, const int *hi, int maxline)
{
	sass_line *l = sass_lines(k, lo, hi, maxline);
	for (int i = 0; i < t->nops; i++) {
		stall_op *o = &t->ops[i];
		const sass_line *x = &l[o->line];
		o->sass_at = x->main ? x->main : x->first;
		if (o->kind == STALL_K_LDG || o->kind == STALL_K_STG || o->kind == STALL_K_CPASYNC)
			o->lg_sass = x->burst ? x->burst : x->lg;
	}
	free(l);
}

/* The first instruction after k->ins[j], in its loop (round to the top), that waits on scoreboard bar: its
 * index, or -1. */
static int first_waiter(const sass_kernel *k, const int *lo, const int *hi, int j, int bar)
{
	int end = lo[j] >= 0 ? hi[j] : k->n - 1;
	for (int n = 1, q = j + 1; n < k->n; n++, q++) {
		if (q > end) {
			if (lo[j] < 0)
				return -1;
			q = lo[j];
		}
		if (q == j)
			return -1;
		if (k->ins[q].has_ctl && (k->ins[q].wait >> bar & 1))
			return q;
	}
	return -1;
}

static int by_triple(const void *a, const void *b)
{
	const int *x = a, *y = b;
	for (int i = 0; i < 3; i++)
		if (x[i] != y[i])
			return (x[i] > y[i]) - (x[i] < y[i]);
	return 0;
}

/* Votes (line, other line, instruction): per line, the other line most of its votes name (ties to the lower),
 * as 1 + that line's first op into out[line] (first: 1 + each line's first op; 0 where it has none). */
static void vote(int (*v)[3], int nv, const int *first, int *out, int maxline)
{
	qsort(v, (size_t)nv, sizeof *v, by_triple);
	int *best = xcalloc((size_t)maxline + 1, sizeof *best);
	for (int a = 0, b; a < nv; a = b) {
		for (b = a; b < nv && v[b][0] == v[a][0] && v[b][1] == v[a][1]; b++)
			;
		if (b - a > best[v[a][0]] && first[v[a][1]])
			best[v[a][0]] = b - a, out[v[a][0]] = first[v[a][1]];
	}
	free(best);
}

/* What the recorded SASS's control bits say of each op's waits (docs/model.md items 3 and 6). A
 * variable-latency instruction sets a scoreboard for its result (wbar), a memory instruction one for the
 * read of its source registers (rbar), and an instruction waits on a mask of them; ptxas has six a warp and
 * shares them. stall_op.wait_shows: where a wait for an op's result shows, the first op of the line whose
 * instruction first waits on its scoreboard (low_occ's LDGs of a tile set three for the first three, one
 * for the other thirteen, so the STS that waits first on that one waits for them all: ncu has 15% of the
 * kernel's samples at that STS's line, where the PTX's order gives them to thirteen); per PTX line, its
 * memory instructions' waiters (else its others'), the line most of them wait at. stall_op.war_on: the LG
 * access whose register read an op's instruction waits for (lesson 1's pointer steps, ncu's long
 * scoreboard at line 84: it rewrites a register a queued LDG has not read yet). */
static void sb_waits(stall_trace *t, const sass_kernel *k, const int *lo, const int *hi, int maxline)
{
	int *at = xmalloc((size_t)k->n * sizeof *at), *rd = xmalloc((size_t)k->n * sizeof *rd); /* waiters' lines */
	char *mem = xcalloc((size_t)maxline + 1, 1); /* a line with memory instructions waited on */
	for (int j = 0; j < k->n; j++) {
		const sass_instr *x = &k->ins[j];
		int ok = x->has_ctl && x->line > 0 && x->line <= maxline, q;
		at[j] = ok && x->wbar <= 5 && (q = first_waiter(k, lo, hi, j, x->wbar)) >= 0 ? k->ins[q].line : 0;
		rd[j] = ok && x->rbar <= 5 && sass_lg(x->text) && (q = first_waiter(k, lo, hi, j, x->rbar)) >= 0 &&
				k->ins[q].line != x->line ? k->ins[q].line : 0;
		mem[x->line > 0 && x->line <= maxline ? x->line : 0] |= at[j] && sass_memory(x->text);
	}
	int (*v)[3] = xmalloc((size_t)k->n * sizeof *v), nv = 0, nr = 0;
	int (*r)[3] = xmalloc((size_t)k->n * sizeof *r);
	for (int j = 0; j < k->n; j++) {
		int ln = k->ins[j].line;
		if (at[j] && (!mem[ln] || sass_memory(k->ins[j].text)))
			v[nv][0] = ln, v[nv][1] = at[j], v[nv++][2] = j;
		if (rd[j])
			r[nr][0] = rd[j], r[nr][1] = ln, r[nr++][2] = j;
	}
	int *first = xcalloc((size_t)maxline + 1, sizeof *first), *shows = xcalloc((size_t)maxline + 1, sizeof *shows);
	int *war = xcalloc((size_t)maxline + 1, sizeof *war);
	for (int i = t->nops - 1; i >= 0; i--)
		first[t->ops[i].line] = i + 1;
	vote(v, nv, first, shows, maxline);
	vote(r, nr, first, war, maxline);
	for (int i = 0; i < t->nops; i++) {
		t->ops[i].wait_shows = shows[t->ops[i].line];
		t->ops[i].war_on = first[t->ops[i].line] == i + 1 ? war[t->ops[i].line] : 0;
	}
	free(mem), free(v), free(r), free(first), free(shows), free(war), free(at), free(rd);
}

/* What the recorded SASS says of each op (sass_order, sb_waits), its loops found once. */
static void sass_ops(stall_trace *t, const sass_kernel *k)
{
	if (!k->has_lines || k->n <= 0)
		return;
	int *lo, *hi, maxline = max_line(t);
	sass_loops_new(k, &lo, &hi);
	sass_order(t, k, lo, hi, maxline);
	sb_waits(t, k, lo, hi, maxline);
	free(lo), free(hi);
}

/* A set of 128-byte line ids (stall_rec.mem's: never 0, a buffer's index is at least 1). */
typedef struct {
	uint32_t *k;
	size_t cap, n;
} idset;

static void idset_add(idset *s, uint32_t id)
{
	if (2 * (s->n + 1) > s->cap) {
		idset o = *s;
		s->cap = o.cap ? 2 * o.cap : 4096;
		s->k = xcalloc(s->cap, sizeof *s->k);
		s->n = 0;
		for (size_t i = 0; i < o.cap; i++)
			if (o.k[i])
				idset_add(s, o.k[i]);
		free(o.k);
	}
	size_t h = (id * 2654435761u) & (s->cap - 1);
	while (s->k[h] && s->k[h] != id)
		h = (h + 1) & (s->cap - 1);
	if (!s->k[h])
		s->k[h] = id, s->n++;
}

static int idset_has(const idset *s, uint32_t id)
{
	if (!s->cap)
		return 0;
	size_t h = (id * 2654435761u) & (s->cap - 1);
	while (s->k[h] && s->k[h] != id)
		h = (h + 1) & (s->cap - 1);
	return s->k[h] == id;
}

/* The distinct lines traced block b's global loads read, into s. */
static void block_lines(const stall_trace *t, int b, idset *s)
{
	for (int w = 0; w < t->warps_per_block; w++) {
		const stall_warp *sw = &t->warps[(size_t)b * (size_t)t->warps_per_block + (size_t)w];
		for (size_t i = 0; i < sw->n; i++) {
			const stall_rec *r = &sw->rec[i];
			int k = t->ops[r->op].kind;
			if ((k != STALL_K_LDG && k != STALL_K_CPASYNC) || r->mem == STALL_NO_MEM)
				continue;
			const uint32_t *ln = &t->mem[r->mem];
			for (uint32_t j = 1; j <= ln[0]; j++)
				idset_add(s, ln[j]);
		}
	}
}

/* The L2's capacity between block rows. A grid that tiles C walks one operand along x (B when block
 * 1 reads block 0's rows of A, else A): a row of blocks reads all of it, and the next row reads it
 * again. Between the two reads of a line the GPU reads that operand whole and the wave's rows of
 * the other; when that is more than the L2 holds, the line is gone (an LRU cache under a cyclic
 * walk larger than itself keeps nothing of it): each wave of resident blocks fetches its strips of
 * the operand from DRAM again, once a strip (its first reader; the wave's other rows of blocks
 * find it in L2). *miss becomes that share of the block's lines plus the other operand's
 * compulsory share of the rest, and the return value the bytes DRAM brings beyond A and B once
 * (0: the L2 keeps the operand, *miss unchanged). The emulator's buffers: A is index 1 of a line
 * id, B 2 (emu_internal.h). */
static double l2_stream(const stall_trace *t, const run_request *rq, const gpu_spec *g, long long blocks, int bps,
			double esz, double *miss)
{
	long long gx = rq->grid[0];
	if (t->nblocks < 2 || gx < 2 || blocks <= gx || g->l2_kb <= 0)
		return 0; /* one row of blocks, or no second block to tell the walk by */
	idset s[2] = {{0}};
	block_lines(t, 0, &s[0]);
	block_lines(t, 1, &s[1]);
	double n[4] = {0}, same[4] = {0}; /* per buffer index (A 1, B 2, the rest 3): block 0's lines, those block 1 reads too */
	for (size_t i = 0; i < s[0].cap; i++) {
		uint32_t id = s[0].k[i];
		if (!id)
			continue;
		int b = id >> 28 == 1 ? 1 : id >> 28 == 2 ? 2 : 3;
		n[b]++;
		same[b] += idset_has(&s[1], id);
	}
	free(s[0].k), free(s[1].k);
	if (!(n[1] > 0 && n[2] > 0))
		return 0;
	int walks_m = same[1] < 0.5 * n[1], x = walks_m ? 1 : 2, y = 3 - x;
	double size_x = walks_m ? (double)rq->M * (double)rq->K * esz : (double)rq->K * (double)rq->N * esz;
	double size_y = walks_m ? (double)rq->K * (double)rq->N * esz : (double)rq->M * (double)rq->K * esz;
	double wave = fmin((double)blocks, (double)g->sms * bps), strips = fmin(wave, (double)gx);
	if (size_x + ceil(wave / (double)gx) * n[y] * 128.0 <= 1024.0 * g->l2_kb)
		return 0;
	double fx = n[x] / (n[1] + n[2] + n[3]), y_traffic = (double)blocks * n[y] * 128.0;
	*miss = fx * strips / wave + (1 - fx) * fmin(1.0, y_traffic > 0 ? size_y / y_traffic : 1.0);
	return fmax(0.0, ceil((double)blocks / wave) * strips * n[x] * 128.0 - size_x);
}

/* The SM clock the power model (model/power.h, through the estimate's rule) gives the work of out's
 * traced blocks in the cycles of its replay. */
static int power_mhz(const run_request *rq, const gpu_spec *g, const exec_stalls_result *out, double *mhz)
{
	static exec_estimate_result e;
	memset(&e, 0, sizeof e);
	if (exec_estimate_counts(rq, out->emu, &e) < 0)
		return -1;
	e.in.dram_bytes += out->dram_rereads;
	e.in.sm_cycles = out->r.cycles * out->r.waves;
	if (exec_estimate_rule(g, &e) < 0 || !e.e.has_clock)
		return -1;
	*mhz = e.e.clock_mhz;
	return 0;
}

const char *const exec_stalls_clock_keys[] = {"typical", "power", "given"};
const char *const exec_stalls_clock_names[] = {"no power rows: a typical clock under a GEMM",
					       "the power model's clock for its work", "given"};

#define CLOCK_PASSES 6 /* replays at most, the clock settling (three for lesson 9) */

/* The power model's highest clock (power_max_mhz), 0 without its rows. */
static double max_mhz(void)
{
	power_params pp;
	char err[160];
	return power_params_load(&pp, err, sizeof err) == 0 ? pp.max_mhz : 0;
}

static int work(const run_request *rq, const gpu_spec *g, int regs, double fixed_mhz, exec_stalls_result *out,
		char *err, int errlen)
{
	if (stall_params_load(&out->p, err, errlen) < 0)
		return -1;
	stall_trace t;
	memset(&t, 0, sizeof t);
	emu_options opt = {.no_verify = 1, .zero_inputs = 1, .footprint = 1, .progress = enough,
			   .deadline_s = rq->deadline_s, .trace = &t};
	static emu_result res;
	double t0 = util_now();
	emu_error rc = emu_run(rq, &opt, &res, err, errlen);
	out->emu_seconds = util_now() - t0;
	if ((rc != EMU_OK && rc != EMU_ERR_CANCELLED) || res.blocks_done <= 0) {
		if (rc == EMU_OK || rc == EMU_ERR_CANCELLED)
			snprintf(err, (size_t)errlen, "no block finished to model");
		stall_trace_free(&t);
		return -1;
	}
	out->blocks_run = res.blocks_done;
	out->emu = &res;
	out->cut = t.cut;
	unsigned threads = rq->block[0] * (rq->block[1] ? rq->block[1] : 1) * (rq->block[2] ? rq->block[2] : 1);
	double fma = 1;
	sass_kernel k;
	int debug = 0, got = ptxas_facts(rq, g, regs <= 0, &fma, &k, &debug);
	bar_shows(&t, &k);
	sass_ops(&t, &k);
	/* the trace as ptxas's SASS issues it, where that says more than the PTX (a debug build's several
	 * instructions a PTX one, a local array kept in registers) */
	stall_fill *fill = sass_shape(&t, &k, debug);
	out->debug_sass = fill && stall_trace_expand(&t, fill) == 0 && debug;
	free(fill);
	sass_kernel_free(&k);
	if (regs <= 0 && (regs = got) > 0) /* --stalls and the estimate: one occupancy */
		out->regs_ptxas = 1;
	out->regs_assumed = regs <= 0;
	out->regs = regs > 0 ? regs : EXEC_STALLS_REGS;
	occ_input oi = {.threads = (int)threads, .regs = out->regs, .smem_static = t.smem_static, .smem_dynamic = (int)rq->smem};
	occ_result occ;
	if (occ_compute(g, &oi, &occ) < 0) {
		snprintf(err, (size_t)errlen, "no stalls: the block does not fit on an SM of the %s", g->name);
		stall_trace_free(&t);
		return -1;
	}
	/* Of what the blocks read from L2, the share DRAM must bring: A and B once, over the L2 -> SM
	 * traffic of the whole grid (each block's read footprint); unless the L2 cannot keep an operand
	 * from one block row to the next (l2_stream). */
	double esz = dtype_of(rq->dt == DTYPE_NONE ? DTYPE_F32 : rq->dt)->bytes;
	double dram = ((double)rq->M * (double)rq->K + (double)rq->K * (double)rq->N) * esz;
	double l2 = 32.0 * (double)res.footprint_sectors / (double)res.blocks_done * (double)res.blocks;
	out->c = (stall_config){.blocks_per_sm = occ.blocks_per_sm, .smem_per_block = occ.smem_per_block,
				.l2_miss = l2 > 0 ? dram / l2 : 1, .grid_blocks = res.blocks, .sms = g->sms,
				.hoist_loads = debug ? 0 : 2, .fma_cycles = fma, .debug = debug};
	out->dram_rereads = l2_stream(&t, rq, g, res.blocks, occ.blocks_per_sm, esz, &out->c.l2_miss);
	/* The replay's SM clock: the L2's and DRAM's latencies are partly in their own clocks, and the copy
	 * engine's bytes a cycle are its GB/s there (stall_config.clock_mhz). Given, that; else the power
	 * model's, which it gives from the cycles: first the highest clock, then, where the cap holds the
	 * kernel's work lower (the tensor lessons), again at the clock the last replay's work gets, until
	 * it moves less than 1% (lesson 9: 1980, 1474, 1337 MHz, whose replay's work gets 1334) */
	double mhz = fixed_mhz > 0 ? fixed_mhz : max_mhz(), next;
	out->clock_from = fixed_mhz > 0 ? EXEC_CLOCK_GIVEN : mhz > 0 ? EXEC_CLOCK_POWER : EXEC_CLOCK_TYPICAL;
	out->c.clock_mhz = mhz > 0 ? mhz : out->p.clock_mhz;
	t0 = util_now();
	int m = stall_model(&t, &out->p, &out->c, &out->r, err, errlen);
	for (int pass = 1; m == 0 && out->clock_from == EXEC_CLOCK_POWER && pass < CLOCK_PASSES &&
			   power_mhz(rq, g, out, &next) == 0 && fabs(next / out->c.clock_mhz - 1) > 0.01;
	     pass++) {
		stall_result_free(&out->r);
		out->c.clock_mhz = next;
		m = stall_model(&t, &out->p, &out->c, &out->r, err, errlen);
	}
	out->model_seconds = util_now() - t0;
	stall_trace_free(&t);
	return m;
}

int exec_stalls(const run_request *rq, const gpu_spec *g, int regs, exec_stalls_result *out)
{
	return exec_stalls_at(rq, g, regs, 0, out);
}

int exec_stalls_at(const run_request *rq, const gpu_spec *g, int regs, double mhz, exec_stalls_result *out)
{
	char err[sizeof out->err];
	memset(out, 0, sizeof *out);
	out->rc = work(rq, g, regs, mhz, out, err, sizeof err);
	if (out->rc < 0)
		util_strlcpy(out->err, err, sizeof out->err);
	return out->rc;
}

void exec_stalls_free(exec_stalls_result *out)
{
	stall_result_free(&out->r);
}

int exec_stalls_brief_run(const run_request *rq, const gpu_spec *g, int regs, exec_stalls_brief *b)
{
	static exec_stalls_result s;
	memset(b, 0, sizeof *b);
	if (exec_stalls(rq, g, regs, &s) < 0) {
		b->rc = -1;
		util_strlcpy(b->err, s.err, sizeof b->err);
		return -1;
	}
	const stall_result *r = &s.r;
	memcpy(b->total, r->total, sizeof b->total);
	b->warp_cycles = r->warp_cycles;
	b->issue_active = r->issue_active;
	b->ms = r->ms;
	b->warps = r->warps;
	b->blocks_per_sm = s.c.blocks_per_sm;
	b->regs = s.regs;
	b->regs_assumed = s.regs_assumed;
	b->trace_cut = s.cut;
	b->nlines = r->nlines < EXEC_STALLS_LINES ? r->nlines : EXEC_STALLS_LINES;
	b->lines_cut = r->nlines > EXEC_STALLS_LINES;
	for (int i = 0; i < b->nlines; i++) {
		exec_stalls_line *l = &b->lines[i];
		l->line = r->lines[i].line;
		l->top = (int)r->lines[i].top;
		l->issued = (float)r->lines[i].issued;
		for (int k = 0; k < STALL_NREASONS; k++)
			l->cyc[k] = (float)r->lines[i].cyc[k];
		memcpy(l->for_line, r->lines[i].for_line, sizeof l->for_line);
	}
	exec_stalls_free(&s);
	return 0;
}

typedef struct {
	const run_request *rq;
	const gpu_spec *g;
	int regs;
} job_arg;

static void job(const void *arg, void *out)
{
	const job_arg *a = arg;
	setpriority(PRIO_PROCESS, 0, 10); /* background work: the tutor's own process keeps the CPU first */
	exec_stalls_brief_run(a->rq, a->g, a->regs, out);
}

int exec_stalls_job_start(exec_stalls_job *j, const run_request *rq, const gpu_spec *g, int regs)
{
	job_arg a = {rq, g, regs}; /* read in the child, which has its own copy */
	j->rq = *rq;
	j->started = util_now();
	memset(&j->out, 0, sizeof j->out);
	if (exec_job_start(&j->job, job, &a, &j->out, sizeof j->out) == 0)
		return 0;
	j->out.rc = -1;
	snprintf(j->out.err, sizeof j->out.err, "cannot start the stall model's process");
	return -1;
}

int exec_stalls_job_poll(exec_stalls_job *j)
{
	return exec_job_poll_within(&j->job, j->started, exec_kill_after(&j->rq), "the stall model", &j->out.rc,
				    j->out.err, sizeof j->out.err);
}
