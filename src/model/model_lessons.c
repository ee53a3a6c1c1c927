/* model_lessons: the ladder's cost models, one per lesson — what each kernel moves per output and how a warp of it addresses memory. */
#include "model/model_lessons.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "model/access.h"

/* One warp-wide memory instruction: the element each lane touches, as
 * (row, col) in a row-major array with `ld` elements per row, and how many
 * consecutive elements each lane reads. */
typedef struct {
	long long row[32], col[32];
	long long ld;
	int vec;           /* elements per lane */
	int active;        /* this access exists (0: n/a) */
	int swizzle;       /* shared layout: 16-byte chunks XOR-swizzled by row (see swizzled) */
	access_kind kind;  /* how access_count counts it */
} warp_access;

typedef struct {
	warp_access gA, gB;   /* the main loop's global loads of A and B */
	warp_access sA, sB;   /* the inner loop's shared reads of A and B */
	int sh_elem;          /* bytes of a shared element */
} warp_view;

struct model_def {
	const char *name;
	const char *params;    /* the params it reads, with the values it assumes when a lesson has none */
	const char *unit;      /* "fp32" or "tensor" */
	int l1_bypass;         /* the kernel's global loads skip L1 (.cg, cp.async.cg, TMA) */
	void (*traffic)(const expr_env *e, model_traffic *t);
	void (*warp)(const expr_env *e, warp_view *w);
};

/* A param's value from e, which holds the lesson's params, the what-ifs and
 * the model's assumed defaults; 1 when absent or not positive, so that a
 * nonsensical what-if (TILE=0) cannot divide by zero. */
static long long P(const expr_env *e, const char *name)
{
	long long v;
	if (expr_get(e, name, &v) && v > 0)
		return v;
	return 1;
}

/* An access of `vec` elements per lane in an array of `ld` elements per
 * row; the caller places the lanes. */
static warp_access new_access(access_kind kind, long long ld, int vec)
{
	return (warp_access){.ld = ld, .vec = vec, .active = 1, .kind = kind};
}

/* The common cooperative tile copy: a rows×cols tile read row by row, each
 * thread taking `vec` consecutive elements, thread t at element t·vec. */
static void tile_copy(warp_access *a, long long cols, long long ld, int vec)
{
	long long per_row = vec > 0 && cols / vec > 0 ? cols / vec : 1; /* a what-if may give VW=0 */
	*a = new_access(ACCESS_GLOBAL_LOAD, ld, vec);
	for (int l = 0; l < 32; l++) {
		a->row[l] = l / per_row;
		a->col[l] = (l % per_row) * vec;
	}
}

static void set_lane(warp_access *a, int lane, long long row, long long col)
{
	a->row[lane] = row;
	a->col[lane] = col;
}

/* ---- The ladder ---------------------------------------------------------- */

/* 1 naive: thread (x, y) of a BS×BS block computes C[x][y]; consecutive lanes
 * differ in x, the row, so a warp reads 32 rows of A and one element of B. */
static void naive_traffic(const expr_env *e, model_traffic *t)
{
	(void)e;
	*t = (model_traffic){.gl_A = 1, .gl_B = 1, .k_per_op = 1};
}
static void naive_warp(const expr_env *e, warp_view *w)
{
	long long bs = P(e, "BS"), K = P(e, "K"), N = P(e, "N");
	w->gA = new_access(ACCESS_GLOBAL_LOAD, K, 1);
	w->gB = new_access(ACCESS_GLOBAL_LOAD, N, 1);
	for (int l = 0; l < 32; l++) {
		set_lane(&w->gA, l, l % bs, 0);       /* A[row][k], row = lane */
		set_lane(&w->gB, l, 0, l / bs);       /* B[k][col], col fixed in the warp */
	}
}

/* 2 coalesced: the same work, but consecutive lanes differ in the column:
 * the warp shares one element of A and reads a row segment of B. */
static void coalesced_warp(const expr_env *e, warp_view *w)
{
	long long bs = P(e, "BS"), K = P(e, "K"), N = P(e, "N");
	/* ptx/02 reads A[row][k..k+3] with one 16-byte load when K % 4 == 0. */
	w->gA = new_access(ACCESS_GLOBAL_LOAD, K, K % 4 == 0 ? 4 : 1);
	w->gB = new_access(ACCESS_GLOBAL_LOAD, N, 1);
	for (int l = 0; l < 32; l++) {
		set_lane(&w->gA, l, l / bs, 0);
		set_lane(&w->gB, l, 0, l % bs);
	}
}

/* 3 shared-memory blocking: TILE×TILE tiles of A and B staged in shared
 * memory; each element loaded once per block is read TILE times. */
static void smem_traffic(const expr_env *e, model_traffic *t)
{
	double T = (double)P(e, "TILE");
	*t = (model_traffic){.gl_A = 1 / T, .gl_B = 1 / T, .sh_A = 1, .sh_B = 1, .sh_stores = 2 / T, .k_per_op = 1};
}
static void smem_warp(const expr_env *e, warp_view *w)
{
	long long T = P(e, "TILE");
	tile_copy(&w->gA, T, P(e, "K"), 1);
	tile_copy(&w->gB, T, P(e, "N"), 1);
	/* ptx/03 reads As[ty][k..k+3] with one 16-byte load when TILE is a
	 * multiple of 4 (rows stay 16-byte aligned), one float otherwise. */
	w->sA = new_access(ACCESS_SHARED_LOAD, T, T % 4 == 0 ? 4 : 1);
	w->sB = new_access(ACCESS_SHARED_LOAD, T, 1);
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, l / T, 0);   /* As[ty][k] */
		set_lane(&w->sB, l, 0, l % T);   /* Bs[k][tx] */
	}
	w->sh_elem = 4;
}

/* Tiled kernels: a BM×BN block tile over BK-deep slices loads BM·BK
 * elements of A and BK·BN of B for BM·BN outputs each slice: per output per
 * k, 1/BN of A and 1/BM of B. */
static void tile_loads(const expr_env *e, model_traffic *t)
{
	double bm = (double)P(e, "BM"), bn = (double)P(e, "BN");
	t->gl_A = 1 / bn;
	t->gl_B = 1 / bm;
	t->sh_stores = t->gl_A + t->gl_B;
}

/* 4 1D blocktiling: each thread owns TM outputs in a column; per k it reads
 * one B value and TM A values from shared memory. */
static void bt1d_traffic(const expr_env *e, model_traffic *t)
{
	double tm = (double)P(e, "TM");
	*t = (model_traffic){.sh_A = 1, .sh_B = 1 / tm, .k_per_op = 1};
	tile_loads(e, t);
}
static void bt1d_warp(const expr_env *e, warp_view *w)
{
	long long BN = P(e, "BN"), BK = P(e, "BK"), TM = P(e, "TM");
	tile_copy(&w->gA, BK, P(e, "K"), 1);
	tile_copy(&w->gB, BN, P(e, "N"), 1);
	/* ptx/04 reads a row of As as 16-byte pieces (the same for the whole
	 * warp: a broadcast) and Bs[k][tc] one float per lane. */
	w->sA = new_access(ACCESS_SHARED_LOAD, BK, BK % 4 == 0 ? 4 : 1);
	w->sB = new_access(ACCESS_SHARED_LOAD, BN, 1);
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, (l / BN) * TM, 0); /* As[tr·TM + i][0..3] */
		set_lane(&w->sB, l, 0, l % BN);         /* Bs[k][tc] */
	}
	w->sh_elem = 4;
}

/* 5 2D blocktiling: each thread owns TM×TN outputs; per k it reads TM + TN
 * values from shared memory for TM·TN multiply-adds. ptx/05 spreads a
 * thread's outputs over the tile (rows tr + (BM/TM)·i, columns
 * tc + (BN/TN)·j), so at each step a warp reads neighbouring floats. */
static void bt2d_traffic(const expr_env *e, model_traffic *t)
{
	double tm = (double)P(e, "TM"), tn = (double)P(e, "TN");
	*t = (model_traffic){.sh_A = 1 / tn, .sh_B = 1 / tm, .k_per_op = 1};
	tile_loads(e, t);
}
static void bt2d_warp(const expr_env *e, warp_view *w)
{
	long long BN = P(e, "BN"), BK = P(e, "BK"), TN = P(e, "TN");
	long long cols = BN / TN > 0 ? BN / TN : 1; /* threads across the tile */
	tile_copy(&w->gA, BK, P(e, "K"), 1);
	tile_copy(&w->gB, BN, P(e, "N"), 1);
	/* ptx/05 reads As[tr][d..d+3] with one 16-byte load when BK is a
	 * multiple of 4: a warp's two thread rows, each a 16-lane broadcast, so
	 * pairs of lanes share an address and each half-warp takes one pass. */
	w->sA = new_access(ACCESS_SHARED_LOAD, BK, BK % 4 == 0 ? 4 : 1);
	w->sB = new_access(ACCESS_SHARED_LOAD, BN, 1);
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, l / cols, 0);  /* As[tr][d] */
		set_lane(&w->sB, l, 0, l % cols);  /* Bs[k][tc] */
	}
	w->sh_elem = 4;
}

/* 6 vectorised: 2D blocktiling with 128-bit accesses; A is stored transposed
 * in shared memory so a thread's TM values of A are contiguous too. */
static void vec_warp(const expr_env *e, warp_view *w)
{
	long long BM = P(e, "BM"), BN = P(e, "BN"), BK = P(e, "BK"), TM = P(e, "TM"), TN = P(e, "TN");
	long long cols = BN / TN > 0 ? BN / TN : 1;
	int vw = (int)P(e, "VW");
	tile_copy(&w->gA, BK, P(e, "K"), vw);
	tile_copy(&w->gB, BN, P(e, "N"), vw);
	w->sA = new_access(ACCESS_SHARED_LOAD, BM, vw);
	w->sB = new_access(ACCESS_SHARED_LOAD, BN, vw);
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, 0, (l / cols) * TM); /* AsT[k][threadRow·TM] */
		set_lane(&w->sB, l, 0, (l % cols) * TN);
	}
	w->sh_elem = 4;
}

/* 7 warptiling (ptx/07): each warp owns a WM×WN sub-tile; its lanes form a
 * grid of 32/TC rows × TC columns, TC = WN/(WNITER·TN), and a lane owns
 * WMITER×WNITER fragments of TM×TN spaced a lane-grid apart (WMITER =
 * WM/(rows·TM)), so one float4 read of a warp covers adjacent pieces. Per k
 * a lane reads RM = WMITER·TM values of A and RN = WNITER·TN of B. */
static long long warp_cols(const expr_env *e)
{
	long long tc = P(e, "WN") / (P(e, "WNITER") * P(e, "TN"));
	return tc > 0 && tc <= 32 ? tc : 1;
}
static void warptile_traffic(const expr_env *e, model_traffic *t)
{
	double rows = 32.0 / (double)warp_cols(e);
	double rm = (double)P(e, "WM") / rows, rn = (double)(P(e, "WNITER") * P(e, "TN"));
	*t = (model_traffic){.sh_A = 1 / rn, .sh_B = 1 / rm, .k_per_op = 1};
	tile_loads(e, t);
}
static void warptile_warp(const expr_env *e, warp_view *w)
{
	long long BM = P(e, "BM"), BN = P(e, "BN"), BK = P(e, "BK"), TM = P(e, "TM"), TN = P(e, "TN");
	long long tc = warp_cols(e);
	int vw = (int)P(e, "VW");
	tile_copy(&w->gA, BK, P(e, "K"), vw);
	tile_copy(&w->gB, BN, P(e, "N"), vw);
	w->sA = new_access(ACCESS_SHARED_LOAD, BM, vw);
	w->sB = new_access(ACCESS_SHARED_LOAD, BN, vw);
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, 0, (l / tc) * TM);   /* As[k][ty*TM ..] (A transposed) */
		set_lane(&w->sB, l, 0, (l % tc) * TN);   /* Bs[k][tx*TN ..] */
	}
	w->sh_elem = 4;
}

/* 8 mma.sync m16n8k16: a warp owns WM×WN; per 16-deep step it reads its
 * A rows and B columns once from shared memory with ldmatrix. */
static void mma_traffic(const expr_env *e, model_traffic *t)
{
	double wm = (double)P(e, "WM"), wn = (double)P(e, "WN");
	*t = (model_traffic){.sh_A = 1 / wn, .sh_B = 1 / wm, .k_per_op = 16};
	tile_loads(e, t);
}
static void mma_warp(const expr_env *e, warp_view *w)
{
	long long BK = P(e, "BK"), BN = P(e, "BN");
	long long pad = 0;
	expr_get(e, "PAD", &pad);
	/* cp.async of 16 bytes = 8 halves per lane, rows of the tiles in order. */
	tile_copy(&w->gA, BK, P(e, "K"), 8);
	tile_copy(&w->gB, BN, P(e, "N"), 8);
	/* ldmatrix.x4: lane l gives the address of row l%16 of a 16×16 block,
	 * the left 8 columns for lanes 0-15, the right 8 for 16-31 (for B, rows
	 * are k and the block is read transposed). PAD = 0 is ptx/08's XOR
	 * swizzle; PAD > 0 pads each row by PAD halves instead. */
	w->sA = new_access(ACCESS_LDMATRIX, BK + pad, 8);
	w->sB = new_access(ACCESS_LDMATRIX, BN + pad, 8);
	w->sA.swizzle = w->sB.swizzle = pad == 0;
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, l % 16, (l / 16) * 8);
		set_lane(&w->sB, l, l % 16, (l / 16) * 8);
	}
	w->sh_elem = 2;
}

/* 9 wgmma: a warpgroup of 128 threads owns 64 rows × BN; the tensor cores
 * read both tiles from shared memory themselves, and TMA fills them, so
 * there are no per-thread load instructions to count. */
static void wgmma_traffic(const expr_env *e, model_traffic *t)
{
	double bn = (double)P(e, "BN");
	*t = (model_traffic){.sh_A = 1 / bn, .sh_B = 1.0 / 64, .k_per_op = 16, .smem_operands = 1};
	tile_loads(e, t);
}
static void wgmma_warp(const expr_env *e, warp_view *w)
{
	(void)e;
	w->sh_elem = 2;
}

/* 10 cluster: lesson 9's tiles, with clusters of CM blocks along M that
 * share B: with multicast (MC=1) each block fetches 1/CM of B's slice from
 * L2 and receives the rest from its partners; its shared memory still gets
 * the whole slice. */
static void cluster_traffic(const expr_env *e, model_traffic *t)
{
	long long mc = 1; /* P() reads 0 as 1, so the on/off switch is read as it is */
	expr_get(e, "MC", &mc);
	double bm = (double)P(e, "BM"), bn = (double)P(e, "BN"), cm = mc > 0 ? (double)P(e, "CM") : 1;
	*t = (model_traffic){.gl_A = 1 / bn, .gl_B = 1 / (bm * cm), .sh_A = 1 / bn, .sh_B = 1.0 / 64,
			     .sh_stores = 1 / bn + 1 / bm, .k_per_op = 16, .smem_operands = 1};
}

/* 11 fp8: lesson 10's tiles and clusters with one-byte inputs; an 8-bit
 * wgmma takes k in steps of 32 (m64nNk32) where f16 took 16. */
static void fp8_traffic(const expr_env *e, model_traffic *t)
{
	cluster_traffic(e, t);
	t->k_per_op = 32;
}

/* ---- The table ---------------------------------------------------------- */

static const model_def models[] = {
	{.name = "naive", .params = "BS=32", .unit = "fp32", .traffic = naive_traffic, .warp = naive_warp},
	{.name = "coalesced", .params = "BS=32", .unit = "fp32", .traffic = naive_traffic, .warp = coalesced_warp},
	{.name = "smem", .params = "TILE=32", .unit = "fp32", .traffic = smem_traffic, .warp = smem_warp},
	/* ptx/04-06 load tiles with ld.global.cg, ptx/08 with cp.async.cg, ptx/09 with TMA;
	 * ptx/01-03 use plain ld.global and ptx/07 ld.global.nc, which L1 may keep. */
	{.name = "blocktile1d", .l1_bypass = 1, .params = "BM=64 BN=64 BK=8 TM=8", .unit = "fp32", .traffic = bt1d_traffic, .warp = bt1d_warp},
	{.name = "blocktile2d", .l1_bypass = 1, .params = "BM=128 BN=128 BK=8 TM=8 TN=8", .unit = "fp32", .traffic = bt2d_traffic, .warp = bt2d_warp},
	{.name = "vectorized", .l1_bypass = 1, .params = "BM=128 BN=128 BK=8 TM=8 TN=8 VW=4", .unit = "fp32", .traffic = bt2d_traffic, .warp = vec_warp},
	{.name = "warptile", .params = "BM=128 BN=128 BK=16 WM=64 WN=64 WNITER=4 TM=4 TN=4 VW=4", .unit = "fp32",
	 .traffic = warptile_traffic, .warp = warptile_warp},
	{.name = "mma", .l1_bypass = 1, .params = "BM=128 BN=256 BK=32 WM=64 WN=64 PAD=0", .unit = "tensor", .traffic = mma_traffic, .warp = mma_warp},
	{.name = "wgmma", .l1_bypass = 1, .params = "BM=128 BN=128 BK=64", .unit = "tensor", .traffic = wgmma_traffic, .warp = wgmma_warp},
	{.name = "cluster", .l1_bypass = 1, .params = "BM=128 BN=256 BK=64 CM=2 MC=1 G=8", .unit = "tensor",
	 .traffic = cluster_traffic, .warp = wgmma_warp},
	{.name = "fp8", .l1_bypass = 1, .params = "BM=128 BN=256 BK=128 CM=2 MC=1 G=8", .unit = "tensor",
	 .traffic = fp8_traffic, .warp = wgmma_warp},
};

const model_def *model_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(models); i++)
		if (!strcmp(models[i].name, name))
			return &models[i];
	return NULL;
}

const char *model_params(const model_def *m) { return m->params; }

void model_lessons_defaults(const model_def *m, expr_env *env)
{
	const char *p = m->params;
	while (*p) {
		char name[EXPR_NAME_MAX];
		int n = 0;
		while (*p == ' ')
			p++;
		while (*p && *p != '=' && n + 1 < (int)sizeof name)
			name[n++] = *p++;
		name[n] = '\0';
		long long v = 0, have;
		if (*p == '=')
			v = strtoll(p + 1, (char **)&p, 10);
		if (n && !expr_get(env, name, &have))
			expr_set(env, name, v);
		while (*p && *p != ' ')
			p++;
	}
}

const model_def *model_lessons_at(int i)
{
	return i >= 0 && i < (int)ARRAY_LEN(models) ? &models[i] : NULL;
}

const char *model_lessons_name(const model_def *m) { return m->name; }
const char *model_lessons_unit(const model_def *m) { return m->unit; }

void model_lessons_traffic(const model_def *m, const expr_env *env, model_traffic *t)
{
	m->traffic(env, t);
	t->l1_bypass = m->l1_bypass;
}

/* ---- Warp view: sectors and wavefronts ----------------------------------- */

/* The XOR swizzle of ptx/08: a row of R bytes holds R/16 chunks of 16
 * bytes; a chunk's place is XORed with the row's 128-byte line number (rows
 * shorter than 128 B share a line) within the chunks a line holds, so the 8
 * rows an ldmatrix phase reads land in 8 different groups of 4 banks. */
static uint64_t swizzled(uint64_t row, uint64_t byte_in_row, uint64_t row_bytes)
{
	uint64_t chunks = row_bytes / 16, chunk = byte_in_row / 16;
	uint64_t line = row_bytes >= 128 ? row : row * row_bytes / 128;
	uint64_t mask = (chunks < 8 ? chunks : 8) - 1;
	return row * row_bytes + ((chunk ^ (line & mask)) * 16) + byte_in_row % 16;
}

/* Byte address of a lane's first element. Unsigned arithmetic wraps where
 * an absurd what-if would overflow; a negative PAD gives negative addresses
 * (as two's complement), which access_count takes as they are. */
static int64_t lane_addr(const warp_access *a, int l, int elem)
{
	uint64_t row = (uint64_t)a->row[l], col = (uint64_t)a->col[l], ld = (uint64_t)a->ld, e = (uint64_t)elem;
	if (a->swizzle)
		return (int64_t)swizzled(row, col * e, ld * e);
	return (int64_t)((row * ld + col) * e);
}

/* One request's counts (model/access.h has the rules); 0 when the kernel
 * has no such access or a lane would move more bytes than any instruction
 * can, and then *ok is 0. */
static access_counts warp_counts(const warp_access *a, int elem, int *ok)
{
	access_counts c = {0};
	long long bytes = (long long)a->vec * elem;
	*ok = 0;
	if (!a->active || bytes < 1 || bytes > ACCESS_MAX_BYTES)
		return c;
	int64_t addr[32];
	for (int l = 0; l < 32; l++)
		addr[l] = lane_addr(a, l, elem);
	*ok = access_count(a->kind, addr, 0xffffffffu, (int)bytes, &c) == 0;
	return c;
}

/* Sectors and L1 wavefronts of a global load, per request (NAN: none). */
static void global_counts(const warp_access *a, int elem, double *sectors, double *wavefronts)
{
	int ok;
	access_counts c = warp_counts(a, elem, &ok);
	*sectors = ok ? c.sectors : NAN;
	*wavefronts = ok ? c.wavefronts : NAN;
}

/* Wavefronts of a shared access, per request (NAN: none). */
/* A shared read's wavefronts, and in *ideal those it takes with no bank conflict. */
static double shared_wavefronts(const warp_access *a, int elem, double *ideal)
{
	int ok;
	access_counts c = warp_counts(a, elem, &ok);
	*ideal = ok ? c.ideal : NAN;
	return ok ? c.wavefronts : NAN;
}

void model_lessons_warp(const model_def *m, const expr_env *env, int elem_bytes, model_warp *out)
{
	warp_view w;
	memset(&w, 0, sizeof w);
	m->warp(env, &w);
	int sh = w.sh_elem ? w.sh_elem : elem_bytes;
	global_counts(&w.gA, elem_bytes, &out->sectors_A, &out->gwavefronts_A);
	global_counts(&w.gB, elem_bytes, &out->sectors_B, &out->gwavefronts_B);
	out->wavefronts_A = shared_wavefronts(&w.sA, sh, &out->sideal_A);
	out->wavefronts_B = shared_wavefronts(&w.sB, sh, &out->sideal_B);
	out->gvec_A = w.gA.active ? w.gA.vec : 0;
	out->gvec_B = w.gB.active ? w.gB.vec : 0;
	out->svec_A = w.sA.active ? w.sA.vec : 0;
	out->svec_B = w.sB.active ? w.sB.vec : 0;
}
