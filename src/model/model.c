/* model: per-lesson cost models — traffic per memory level, warp access patterns, roofline and occupancy. */
#include "model/model.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/util.h"

/* ---- What a model states about its kernel -------------------------------- */

/* Traffic per output element per unit of K (multiply by K for the whole loop). */
typedef struct {
	double gl_loads;   /* elements of A and B loaded from global memory */
	double sh_loads;   /* elements read from shared memory */
	double sh_stores;  /* elements written to shared memory */
	int k_per_op;      /* k steps one multiply-accumulate instruction covers (1 FFMA, 16 mma) */
	int smem_operands; /* the tensor cores read A and B from shared memory (wgmma), not registers */
} traffic;

/* One warp-wide memory instruction: the element each lane touches, as
 * (row, col) in a row-major array with `ld` elements per row, and how many
 * consecutive elements each lane reads. */
typedef struct {
	long long row[32], col[32];
	long long ld;
	int vec;           /* elements per lane */
	int active;        /* this access exists (0: n/a) */
	int swizzle;       /* shared layout: 16-byte chunks XOR-swizzled by row (see swizzled) */
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
	void (*traffic)(const expr_env *e, traffic *t);
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

/* The common cooperative tile copy: a rows×cols tile read row by row, each
 * thread taking `vec` consecutive elements, thread t at element t·vec. */
static void tile_copy(warp_access *a, long long cols, long long ld, int vec)
{
	long long per_row = cols / vec > 0 ? cols / vec : 1;
	a->active = 1;
	a->ld = ld;
	a->vec = vec;
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
static void naive_traffic(const expr_env *e, traffic *t)
{
	(void)e;
	*t = (traffic){.gl_loads = 2, .k_per_op = 1};
}
static void naive_warp(const expr_env *e, warp_view *w)
{
	long long bs = P(e, "BS"), K = P(e, "K"), N = P(e, "N");
	w->gA = (warp_access){.ld = K, .vec = 1, .active = 1};
	w->gB = (warp_access){.ld = N, .vec = 1, .active = 1};
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
	w->gA = (warp_access){.ld = K, .vec = K % 4 == 0 ? 4 : 1, .active = 1};
	w->gB = (warp_access){.ld = N, .vec = 1, .active = 1};
	for (int l = 0; l < 32; l++) {
		set_lane(&w->gA, l, l / bs, 0);
		set_lane(&w->gB, l, 0, l % bs);
	}
}

/* 3 shared-memory blocking: TILE×TILE tiles of A and B staged in shared
 * memory; each element loaded once per block is read TILE times. */
static void smem_traffic(const expr_env *e, traffic *t)
{
	double T = (double)P(e, "TILE");
	*t = (traffic){.gl_loads = 2 / T, .sh_loads = 2, .sh_stores = 2 / T, .k_per_op = 1};
}
static void smem_warp(const expr_env *e, warp_view *w)
{
	long long T = P(e, "TILE");
	tile_copy(&w->gA, T, P(e, "K"), 1);
	tile_copy(&w->gB, T, P(e, "N"), 1);
	/* ptx/03 reads As[ty][k..k+3] with one 16-byte load when TILE is a
	 * multiple of 4 (rows stay 16-byte aligned), one float otherwise. */
	w->sA = (warp_access){.ld = T, .vec = T % 4 == 0 ? 4 : 1, .active = 1};
	w->sB = (warp_access){.ld = T, .vec = 1, .active = 1};
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, l / T, 0);   /* As[ty][k] */
		set_lane(&w->sB, l, 0, l % T);   /* Bs[k][tx] */
	}
	w->sh_elem = 4;
}

/* Tiled kernels: a BM×BN block tile over BK-deep slices loads (BM+BN)·BK
 * elements for BM·BN outputs each slice. */
static double tile_loads(const expr_env *e)
{
	double bm = (double)P(e, "BM"), bn = (double)P(e, "BN");
	return (bm + bn) / (bm * bn);
}

/* 4 1D blocktiling: each thread owns TM outputs in a column; per k it reads
 * one B value and TM A values from shared memory. */
static void bt1d_traffic(const expr_env *e, traffic *t)
{
	double tm = (double)P(e, "TM");
	double g = tile_loads(e);
	*t = (traffic){.gl_loads = g, .sh_loads = (tm + 1) / tm, .sh_stores = g, .k_per_op = 1};
}
static void bt1d_warp(const expr_env *e, warp_view *w)
{
	long long BN = P(e, "BN"), BK = P(e, "BK"), TM = P(e, "TM");
	tile_copy(&w->gA, BK, P(e, "K"), 1);
	tile_copy(&w->gB, BN, P(e, "N"), 1);
	/* ptx/04 reads a row of As as 16-byte pieces (the same for the whole
	 * warp: a broadcast) and Bs[k][tc] one float per lane. */
	w->sA = (warp_access){.ld = BK, .vec = BK % 4 == 0 ? 4 : 1, .active = 1};
	w->sB = (warp_access){.ld = BN, .vec = 1, .active = 1};
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
static void bt2d_traffic(const expr_env *e, traffic *t)
{
	double tm = (double)P(e, "TM"), tn = (double)P(e, "TN");
	double g = tile_loads(e);
	*t = (traffic){.gl_loads = g, .sh_loads = (tm + tn) / (tm * tn), .sh_stores = g, .k_per_op = 1};
}
static void bt2d_warp(const expr_env *e, warp_view *w)
{
	long long BN = P(e, "BN"), BK = P(e, "BK"), TN = P(e, "TN");
	long long cols = BN / TN > 0 ? BN / TN : 1; /* threads across the tile */
	tile_copy(&w->gA, BK, P(e, "K"), 1);
	tile_copy(&w->gB, BN, P(e, "N"), 1);
	w->sA = (warp_access){.ld = BK, .vec = 1, .active = 1};
	w->sB = (warp_access){.ld = BN, .vec = 1, .active = 1};
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, l / cols, 0);  /* As[tr][k] */
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
	w->sA = (warp_access){.ld = BM, .vec = vw, .active = 1};
	w->sB = (warp_access){.ld = BN, .vec = vw, .active = 1};
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
static void warptile_traffic(const expr_env *e, traffic *t)
{
	double rows = 32.0 / (double)warp_cols(e);
	double rm = (double)P(e, "WM") / rows, rn = (double)(P(e, "WNITER") * P(e, "TN"));
	double g = tile_loads(e);
	*t = (traffic){.gl_loads = g, .sh_loads = (rm + rn) / (rm * rn), .sh_stores = g, .k_per_op = 1};
}
static void warptile_warp(const expr_env *e, warp_view *w)
{
	long long BM = P(e, "BM"), BN = P(e, "BN"), BK = P(e, "BK"), TM = P(e, "TM"), TN = P(e, "TN");
	long long tc = warp_cols(e);
	int vw = (int)P(e, "VW");
	tile_copy(&w->gA, BK, P(e, "K"), vw);
	tile_copy(&w->gB, BN, P(e, "N"), vw);
	w->sA = (warp_access){.ld = BM, .vec = vw, .active = 1};
	w->sB = (warp_access){.ld = BN, .vec = vw, .active = 1};
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, 0, (l / tc) * TM);   /* As[k][ty*TM ..] (A transposed) */
		set_lane(&w->sB, l, 0, (l % tc) * TN);   /* Bs[k][tx*TN ..] */
	}
	w->sh_elem = 4;
}

/* 8 mma.sync m16n8k16: a warp owns WM×WN; per 16-deep step it reads its
 * A rows and B columns once from shared memory with ldmatrix. */
static void mma_traffic(const expr_env *e, traffic *t)
{
	double wm = (double)P(e, "WM"), wn = (double)P(e, "WN");
	double g = tile_loads(e);
	*t = (traffic){.gl_loads = g, .sh_loads = (wm + wn) / (wm * wn), .sh_stores = g, .k_per_op = 16};
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
	w->sA = (warp_access){.ld = BK + pad, .vec = 8, .active = 1, .swizzle = pad == 0};
	w->sB = (warp_access){.ld = BN + pad, .vec = 8, .active = 1, .swizzle = pad == 0};
	for (int l = 0; l < 32; l++) {
		set_lane(&w->sA, l, l % 16, (l / 16) * 8);
		set_lane(&w->sB, l, l % 16, (l / 16) * 8);
	}
	w->sh_elem = 2;
}

/* 9 wgmma: a warpgroup of 128 threads owns 64 rows × BN; the tensor cores
 * read both tiles from shared memory themselves, and TMA fills them, so
 * there are no per-thread load instructions to count. */
static void wgmma_traffic(const expr_env *e, traffic *t)
{
	double bn = (double)P(e, "BN");
	double g = tile_loads(e);
	*t = (traffic){.gl_loads = g, .sh_loads = (64 + bn) / (64 * bn), .sh_stores = g, .k_per_op = 16,
		       .smem_operands = 1};
}
static void wgmma_warp(const expr_env *e, warp_view *w)
{
	(void)e;
	w->sh_elem = 2;
}

#define PAR_TILED "BM BN BK"
static const model_def models[] = {
	{.name = "naive", .params = "BS=32", .unit = "fp32", .traffic = naive_traffic, .warp = naive_warp},
	{.name = "coalesced", .params = "BS=32", .unit = "fp32", .traffic = naive_traffic, .warp = coalesced_warp},
	{.name = "smem", .params = "TILE=32", .unit = "fp32", .traffic = smem_traffic, .warp = smem_warp},
	{.name = "blocktile1d", .params = "BM=64 BN=64 BK=8 TM=8", .unit = "fp32", .traffic = bt1d_traffic, .warp = bt1d_warp},
	{.name = "blocktile2d", .params = "BM=128 BN=128 BK=8 TM=8 TN=8", .unit = "fp32", .traffic = bt2d_traffic, .warp = bt2d_warp},
	{.name = "vectorized", .params = "BM=128 BN=128 BK=8 TM=8 TN=8 VW=4", .unit = "fp32", .traffic = bt2d_traffic, .warp = vec_warp},
	{.name = "warptile", .params = "BM=128 BN=128 BK=16 WM=64 WN=32 WNITER=2 TM=4 TN=4 VW=4", .unit = "fp32",
	 .traffic = warptile_traffic, .warp = warptile_warp},
	{.name = "mma", .params = "BM=128 BN=256 BK=32 WM=64 WN=64 PAD=0", .unit = "tensor", .traffic = mma_traffic, .warp = mma_warp},
	{.name = "wgmma", .params = "BM=128 BN=128 BK=64", .unit = "tensor", .traffic = wgmma_traffic, .warp = wgmma_warp},
};

const model_def *model_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(models); i++)
		if (!strcmp(models[i].name, name))
			return &models[i];
	return NULL;
}

const char *model_params(const model_def *m) { return m->params; }

/* Adds the model's assumed params ("TILE=32 ...") where env has none. */
static void apply_defaults(const model_def *m, expr_env *env)
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

/* ---- Warp view: sectors and wavefronts ----------------------------------- */

/* Distinct 32-byte sectors one warp-wide load touches (arrays aligned). */
static double count_sectors(const warp_access *a, int elem)
{
	if (!a->active)
		return NAN;
	long long s[32 * 8];
	int n = 0;
	for (int l = 0; l < 32; l++) {
		long long first = (a->row[l] * a->ld + a->col[l]) * elem;
		long long last = first + (long long)a->vec * elem - 1;
		for (long long x = first / 32; x <= last / 32 && n < (int)ARRAY_LEN(s); x++) {
			int seen = 0;
			for (int i = 0; i < n && !seen; i++)
				seen = s[i] == x;
			if (!seen)
				s[n++] = x;
		}
	}
	return n;
}

/* The XOR swizzle of ptx/08: a row of R bytes holds R/16 chunks of 16
 * bytes; a chunk's place is XORed with the row's 128-byte line number (rows
 * shorter than 128 B share a line) within the chunks a line holds, so the 8
 * rows an ldmatrix phase reads land in 8 different groups of 4 banks. */
static long long swizzled(long long row, long long byte_in_row, long long row_bytes)
{
	long long chunks = row_bytes / 16, chunk = byte_in_row / 16;
	long long line = row_bytes >= 128 ? row : row * row_bytes / 128;
	long long mask = (chunks < 8 ? chunks : 8) - 1;
	return row * row_bytes + ((chunk ^ (line & mask)) * 16) + byte_in_row % 16;
}

/* Byte address of a lane's first element. */
static long long lane_addr(const warp_access *a, int l, int elem)
{
	if (a->swizzle)
		return swizzled(a->row[l], a->col[l] * elem, a->ld * elem);
	return (a->row[l] * a->ld + a->col[l]) * elem;
}

/* Every lane reads the same address as its partner l ^ x. */
static int pairs_uniform(const warp_access *a, int x, int elem)
{
	for (int l = 0; l < 32; l++)
		if (lane_addr(a, l, elem) != lane_addr(a, l ^ x, elem))
			return 0;
	return 1;
}

/* Shared-memory wavefronts for one warp-wide read, counted as the emulator
 * (src/emu) and Nsight Compute do: 32 banks of 4 bytes; lanes go in groups
 * that fetch 128 bytes per pass (the warp for 4-byte accesses, half-warps
 * for 8, quarter-warps for 16 — doubled for 8 and 16 when every lane shares
 * its address with lane l^1 or l^2); within a group each bank serves one
 * distinct word per pass, lanes on the same word share it (broadcast). */
static double count_wavefronts(const warp_access *a, int elem)
{
	if (!a->active)
		return NAN;
	int bytes = a->vec * elem;
	int group = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
	if (bytes > 4 && (pairs_uniform(a, 1, elem) || pairs_uniform(a, 2, elem)))
		group *= 2;
	int nwords = bytes < 4 ? 1 : bytes / 4;
	int total = 0;
	for (int g0 = 0; g0 < 32; g0 += group) {
		long long words[32 * 8];
		int nw = 0;
		for (int l = g0; l < g0 + group && l < 32; l++) {
			long long first = lane_addr(a, l, elem) / 4;
			for (int k = 0; k < nwords; k++) {
				long long wd = first + k;
				int seen = 0;
				for (int i = 0; i < nw && !seen; i++)
					seen = words[i] == wd;
				if (!seen && nw < (int)ARRAY_LEN(words))
					words[nw++] = wd;
			}
		}
		int per_bank[32] = {0}, worst = 0;
		for (int i = 0; i < nw; i++) {
			int b = (int)(words[i] % 32);
			if (++per_bank[b] > worst)
				worst = per_bank[b];
		}
		total += worst;
	}
	return total;
}

/* ---- Static shared memory declared in the PTX ---------------------------- */

/* Sums `.shared ... name[BYTES];` declarations at module scope, the static
 * shared memory the JIT will report. Returns 0 when the file is unreadable. */
static int ptx_static_smem(const char *ptx_path)
{
	if (!ptx_path || !ptx_path[0])
		return 0;
	char path[512];
	util_path(path, sizeof path, ptx_path);
	char *text = util_read_file(path, NULL, NULL, 0);
	if (!text)
		return 0;
	long long total = 0;
	for (char *p = strstr(text, ".shared"); p; p = strstr(p + 7, ".shared")) {
		/* Skip uses in instructions (ld.shared, st.shared, cvta...): a
		 * declaration starts its line. */
		char *b = p;
		while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b > text && b[-1] != '\n')
			continue;
		char *end = strchr(p, ';'), *br = strchr(p, '[');
		if (!end || !br || br > end)
			continue;
		if (strstr(p, ".extern") && strstr(p, ".extern") < end)
			continue;
		long long count = strtoll(br + 1, NULL, 10);
		int unit = 1;
		if (strstr(p, ".b16") && strstr(p, ".b16") < br) unit = 2;
		else if ((strstr(p, ".b32") && strstr(p, ".b32") < br) || (strstr(p, ".f32") && strstr(p, ".f32") < br)) unit = 4;
		else if ((strstr(p, ".b64") && strstr(p, ".b64") < br) || (strstr(p, ".f64") && strstr(p, ".f64") < br)) unit = 8;
		total += count * unit;
	}
	free(text);
	return (int)total;
}

/* ---- model_compute ------------------------------------------------------- */

static void level_totals(model_level *lv, double outputs, int load_bytes, int store_bytes)
{
	lv->loads = lv->loads_per_output * outputs;
	lv->stores = lv->stores_per_output * outputs;
	lv->bytes = lv->loads * load_bytes + lv->stores * store_bytes;
}

static void recompute_occupancy(model_result *r)
{
	r->smem_request = r->smem_static + r->smem_dynamic;
	occ_input in = {.threads = r->threads, .regs = r->regs_per_thread,
			.smem_static = r->smem_static, .smem_dynamic = r->smem_dynamic};
	r->occ_ok = occ_compute(&r->gpu, &in, &r->occ) == 0;
	int at_once = r->occ_ok ? r->gpu.sms * r->occ.blocks_per_sm : 0;
	r->waves = at_once > 0 ? (double)r->blocks / at_once : NAN;
}

int model_compute(const lesson *l, const expr_env *overrides, long long M, long long N, long long K,
		  const gpu_spec *g, model_result *r, char *err, int errlen)
{
	memset(r, 0, sizeof *r);
	const model_def *m = model_find(l->model);
	if (!l->model[0]) {
		snprintf(err, (size_t)errlen, "lesson %s has no kernel to model", l->id);
		return -1;
	}
	if (!m) {
		char names[160] = "";
		for (size_t i = 0; i < ARRAY_LEN(models); i++) {
			size_t n = strlen(names);
			snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", models[i].name);
		}
		snprintf(err, (size_t)errlen, "%s: unknown model '%s' (known: %s)", l->path, l->model, names);
		return -1;
	}
	if (M <= 0 || N <= 0 || K <= 0) {
		snprintf(err, (size_t)errlen, "size %lldx%lldx%lld: must be positive", M, N, K);
		return -1;
	}
	/* A what-if may only change what the lesson declares. */
	for (int i = 0; overrides && i < overrides->n; i++) {
		int found = 0;
		for (int j = 0; j < l->nparams && !found; j++)
			found = !strcmp(l->params[j].name, overrides->v[i].name);
		if (!found) {
			int n = snprintf(err, (size_t)errlen, "lesson %s has no parameter '%s' (its parameters:", l->id,
					 overrides->v[i].name);
			for (int j = 0; j < l->nparams && n < errlen; j++)
				n += snprintf(err + n, (size_t)(errlen - n), " %s", l->params[j].name);
			if (n < errlen)
				snprintf(err + n, (size_t)(errlen - n), "%s)", l->nparams ? "" : " none");
			return -1;
		}
	}

	util_strlcpy(r->lesson_id, l->id, sizeof r->lesson_id);
	util_strlcpy(r->model, m->name, sizeof r->model);
	r->def = m;
	r->M = M;
	r->N = N;
	r->K = K;
	r->gpu = *g;
	lesson_env(l, overrides, M, N, K, &r->env);

	lesson_launch la;
	if (lesson_launch_for(l, &r->env, &la, err, errlen) < 0)
		return -1;
	long long threads = (long long)la.block[0] * la.block[1] * la.block[2];
	r->threads = threads > (1 << 30) ? (1 << 30) : (int)threads; /* a what-if may ask for absurd blocks */
	r->smem_dynamic = (int)la.smem;
	r->blocks = (long long)la.grid[0] * la.grid[1] * la.grid[2];
	r->smem_static = ptx_static_smem(l->ptx_path);
	r->regs_per_thread = l->regs;
	r->regs_source = l->regs ? "recorded (ptxas -arch=sm_90)" : "unknown";

	/* The model reads its params from the lesson, else assumes its own. */
	expr_env menv = r->env;
	apply_defaults(m, &menv);

	int tensor = !strcmp(m->unit, "tensor");
	r->elem_bytes = l->dt == DTYPE_F16 || tensor ? 2 : 4;
	const int out_bytes = 4; /* C is f32 in every lesson */
	double outputs = (double)M * N, k = (double)K;
	r->flops = 2.0 * M * N * K;

	traffic t;
	m->traffic(&menv, &t);
	r->global.loads_per_output = t.gl_loads * k;
	r->global.stores_per_output = 1;
	r->shared.loads_per_output = t.sh_loads * k;
	r->shared.stores_per_output = t.sh_stores * k;
	r->regs.loads_per_output = t.smem_operands ? 0 : 2 * k; /* an A and a B operand per multiply-add */
	r->regs.stores_per_output = k / t.k_per_op;  /* accumulator updates */
	level_totals(&r->global, outputs, r->elem_bytes, out_bytes);
	level_totals(&r->shared, outputs, r->elem_bytes, r->elem_bytes);
	level_totals(&r->regs, outputs, r->elem_bytes, out_bytes);

	r->dram_ideal_bytes = ((double)M * K + (double)K * N) * r->elem_bytes + outputs * out_bytes;
	r->ai_global = r->flops / r->global.bytes;
	r->ai_shared = r->shared.bytes > 0 ? r->flops / r->shared.bytes : NAN;
	r->ai_dram_ideal = r->flops / r->dram_ideal_bytes;

	warp_view w;
	memset(&w, 0, sizeof w);
	m->warp(&menv, &w);
	r->sectors_A = count_sectors(&w.gA, r->elem_bytes);
	r->sectors_B = count_sectors(&w.gB, r->elem_bytes);
	r->wavefronts_A = count_wavefronts(&w.sA, w.sh_elem ? w.sh_elem : r->elem_bytes);
	r->wavefronts_B = count_wavefronts(&w.sB, w.sh_elem ? w.sh_elem : r->elem_bytes);

	/* Roofline against the unit the kernel uses. */
	r->unit = m->unit;
	r->peak_tflops = tensor ? g->tensor_tflops : g->fp32_tflops;
	if (tensor && r->peak_tflops <= 0) {
		r->unit = "fp32 (no tensor cores)";
		r->peak_tflops = g->fp32_tflops;
	}
	if (r->peak_tflops > 0 && g->bw_gbs > 0) {
		r->ridge = r->peak_tflops * 1e12 / (g->bw_gbs * 1e9);
		r->bound = r->ai_global < r->ridge ? "memory" : "compute";
		double t_compute = r->flops / (r->peak_tflops * 1e12), t_memory = r->global.bytes / (g->bw_gbs * 1e9);
		r->predicted_ms = 1e3 * (t_compute > t_memory ? t_compute : t_memory);
	} else {
		/* A live GPU that the table does not know: no peaks to compare with. */
		r->ridge = NAN;
		r->bound = "unknown";
		r->predicted_ms = NAN;
	}

	recompute_occupancy(r);
	return 0;
}

void model_set_regs(model_result *r, int regs, const char *source)
{
	r->regs_per_thread = regs;
	r->regs_source = source;
	recompute_occupancy(r);
}

/* ---- Placeholder keys ---------------------------------------------------- */

typedef enum { F_NUM, F_COUNT, F_INT, F_FLOPB, F_KCOUNT, F_MS, F_PCT, F_TFLOPS, F_GBS, F_FLOP, F_BYTES, F_STR, F_SECT } key_fmt;
typedef enum { T_DBL, T_INT, T_LL, T_STR, T_CHARS } key_type;

typedef struct {
	const char *key;
	key_type type;
	size_t off;
	key_fmt fmt;
	const char *help;
} key_def;

#define R(f) offsetof(model_result, f)
static const key_def keys[] = {
	{"M", T_LL, R(M), F_INT, "rows of A and C"},
	{"N", T_LL, R(N), F_INT, "columns of B and C"},
	{"K", T_LL, R(K), F_INT, "the shared dimension"},
	{"flops", T_DBL, R(flops), F_FLOP, "2*M*N*K"},
	{"ai.global", T_DBL, R(ai_global), F_FLOPB, "FLOP per byte of global traffic as issued"},
	{"ai.shared", T_DBL, R(ai_shared), F_FLOPB, "FLOP per byte of shared-memory traffic"},
	{"ai.dram_ideal", T_DBL, R(ai_dram_ideal), F_FLOPB, "FLOP per byte when A and B are read once and C written once"},
	{"per_output.global_loads", T_DBL, R(global.loads_per_output), F_KCOUNT, "global loads per output element"},
	{"per_output.global_stores", T_DBL, R(global.stores_per_output), F_KCOUNT, "global stores per output element"},
	{"per_output.shared_loads", T_DBL, R(shared.loads_per_output), F_KCOUNT, "shared loads per output element"},
	{"per_output.shared_stores", T_DBL, R(shared.stores_per_output), F_KCOUNT, "shared stores per output element"},
	{"per_output.reg_loads", T_DBL, R(regs.loads_per_output), F_KCOUNT, "operand reads from registers per output"},
	{"per_output.reg_stores", T_DBL, R(regs.stores_per_output), F_KCOUNT, "accumulator updates per output"},
	{"total.global_loads", T_DBL, R(global.loads), F_COUNT, "global loads, whole problem"},
	{"total.global_stores", T_DBL, R(global.stores), F_COUNT, "global stores, whole problem"},
	{"total.shared_loads", T_DBL, R(shared.loads), F_COUNT, "shared loads, whole problem"},
	{"total.shared_stores", T_DBL, R(shared.stores), F_COUNT, "shared stores, whole problem"},
	{"bytes.global", T_DBL, R(global.bytes), F_BYTES, "global bytes as issued"},
	{"bytes.shared", T_DBL, R(shared.bytes), F_BYTES, "shared-memory bytes"},
	{"bytes.dram_ideal", T_DBL, R(dram_ideal_bytes), F_BYTES, "A and B once, C once"},
	{"sectors_per_request.A", T_DBL, R(sectors_A), F_SECT, "32-byte sectors per warp load of A"},
	{"sectors_per_request.B", T_DBL, R(sectors_B), F_SECT, "32-byte sectors per warp load of B"},
	{"wavefronts.A", T_DBL, R(wavefronts_A), F_SECT, "shared wavefronts per warp read of A"},
	{"wavefronts.B", T_DBL, R(wavefronts_B), F_SECT, "shared wavefronts per warp read of B"},
	{"unit", T_STR, R(unit), F_STR, "fp32 or tensor"},
	{"peak_tflops", T_DBL, R(peak_tflops), F_TFLOPS, "peak of that unit"},
	{"ridge", T_DBL, R(ridge), F_FLOPB, "peak / bandwidth"},
	{"bound", T_STR, R(bound), F_STR, "memory or compute"},
	{"predicted_ms", T_DBL, R(predicted_ms), F_MS, "max(compute time, global traffic time)"},
	{"occupancy.blocks_per_sm", T_INT, R(occ.blocks_per_sm), F_INT, "resident blocks per SM"},
	{"occupancy.active_warps", T_INT, R(occ.active_warps), F_INT, "resident warps per SM"},
	{"occupancy.max_warps", T_INT, R(occ.max_warps), F_INT, "the SM's warp limit"},
	{"occupancy.occupancy", T_DBL, R(occ.occupancy), F_PCT, "active / max warps"},
	{"occupancy.limiter", T_STR, R(occ.limiter), F_STR, "the binding limit"},
	{"occupancy.limits.warps", T_INT, R(occ.limit_warps), F_INT, "blocks allowed by warps"},
	{"occupancy.limits.registers", T_INT, R(occ.limit_regs), F_INT, "blocks allowed by registers"},
	{"occupancy.limits.shared", T_INT, R(occ.limit_smem), F_INT, "blocks allowed by shared memory"},
	{"occupancy.limits.blocks", T_INT, R(occ.limit_blocks), F_INT, "the SM's block limit"},
	{"occupancy.threads", T_INT, R(threads), F_INT, "threads per block"},
	{"occupancy.regs", T_INT, R(regs_per_thread), F_INT, "registers per thread"},
	{"occupancy.regs_source", T_STR, R(regs_source), F_STR, "where the register count comes from"},
	{"occupancy.smem", T_INT, R(occ.smem_per_block), F_INT, "shared bytes per block as allocated (with the reserved part, rounded)"},
	{"launch.threads", T_INT, R(threads), F_INT, "threads per block"},
	{"launch.tiles", T_LL, R(blocks), F_INT, "BM×BN tiles of C, one block each (a persistent grid loops over them)"},
	{"launch.waves", T_DBL, R(waves), F_NUM, "tiles ÷ (SMs × blocks per SM): the rounds in which the GPU runs them"},
	{"launch.smem", T_INT, R(smem_request), F_INT, "shared bytes per block the kernel asks for (static + dynamic)"},
	{"launch.smem_static", T_INT, R(smem_static), F_INT, "static shared bytes (declared in the PTX)"},
	{"launch.smem_dynamic", T_INT, R(smem_dynamic), F_INT, "dynamic shared bytes (the lesson's smem:)"},
	{"gpu.name", T_CHARS, R(gpu.name), F_STR, "the GPU"},
	{"gpu.sms", T_INT, R(gpu.sms), F_INT, "streaming multiprocessors"},
	{"gpu.clock_mhz", T_INT, R(gpu.clock_mhz), F_INT, "boost clock"},
	{"gpu.fp32_tflops", T_DBL, R(gpu.fp32_tflops), F_TFLOPS, "FP32 peak"},
	{"gpu.tensor_tflops", T_DBL, R(gpu.tensor_tflops), F_TFLOPS, "tensor-core peak (f16 in, f32 acc)"},
	{"gpu.bw_gbs", T_DBL, R(gpu.bw_gbs), F_GBS, "DRAM bandwidth"},
	{"gpu.l2_kb", T_INT, R(gpu.l2_kb), F_INT, "L2 size, KiB"},
	{"gpu.smem_per_sm", T_INT, R(gpu.smem_per_sm), F_INT, "shared memory per SM, bytes"},
};
#undef R

static const key_def *find_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_LEN(keys); i++)
		if (!strcmp(keys[i].key, key))
			return &keys[i];
	return NULL;
}

static int is_param_key(const char *key)
{
	if (strncmp(key, "param.", 6) || !key[6] || strlen(key + 6) >= EXPR_NAME_MAX)
		return 0;
	for (const char *p = key + 6; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

int model_known(const char *key) { return find_key(key) != NULL || is_param_key(key); }

int model_key_count(void) { return (int)ARRAY_LEN(keys); }
const char *model_key_name(int i) { return i >= 0 && i < (int)ARRAY_LEN(keys) ? keys[i].key : NULL; }
const char *model_key_help(int i) { return i >= 0 && i < (int)ARRAY_LEN(keys) ? keys[i].help : NULL; }

int model_value(const model_result *r, const char *key, double *out)
{
	if (is_param_key(key)) {
		long long v;
		if (!expr_get(&r->env, key + 6, &v))
			return -1;
		*out = (double)v;
		return 0;
	}
	const key_def *k = find_key(key);
	if (!k)
		return -1;
	const char *base = (const char *)r + k->off;
	switch (k->type) {
	case T_DBL: *out = *(const double *)base; return 0;
	case T_INT: *out = *(const int *)base; return 0;
	case T_LL: *out = (double)*(const long long *)base; return 0;
	case T_STR:
	case T_CHARS: return -1;
	}
	return -1;
}

void model_format(const model_result *r, const char *key, char *buf, int len)
{
	if (len <= 0)
		return;
	buf[0] = '\0';
	if (is_param_key(key)) {
		long long v;
		if (expr_get(&r->env, key + 6, &v))
			snprintf(buf, (size_t)len, "%lld", v);
		else
			snprintf(buf, (size_t)len, "?");
		return;
	}
	const key_def *k = find_key(key);
	if (!k) {
		snprintf(buf, (size_t)len, "{%s?}", key);
		return;
	}
	const char *base = (const char *)r + k->off;
	if (k->type == T_STR) {
		const char *s = *(const char *const *)base;
		snprintf(buf, (size_t)len, "%s", s ? s : "-");
		return;
	}
	if (k->type == T_CHARS) {
		snprintf(buf, (size_t)len, "%s", base);
		return;
	}
	double v = 0;
	model_value(r, key, &v);
	if (isnan(v)) {
		snprintf(buf, (size_t)len, "n/a");
		return;
	}
	/* Every number goes through base/numfmt: one set of digits and prefixes for prose, panes and CLI. */
	char frac[48], num[48];
	switch (k->fmt) {
	case F_FLOPB: numfmt_unit(buf, (size_t)len, v, "FLOP/B"); break;
	case F_KCOUNT:
		numfmt_count(num, sizeof num, v);
		/* 1 (a store per output) is a count, not a fraction of K. */
		if (numfmt_kfrac(frac, sizeof frac, v, r->K)[0] && v != 1)
			snprintf(buf, (size_t)len, "%s = %s", frac, num);
		else
			snprintf(buf, (size_t)len, "%s", num);
		break;
	case F_MS: numfmt_unit(buf, (size_t)len, v, "ms"); break;
	case F_PCT: numfmt_pct(buf, (size_t)len, v); break;
	case F_TFLOPS: numfmt_unit(buf, (size_t)len, v, "TFLOP/s"); break;
	case F_GBS: numfmt_unit(buf, (size_t)len, v, "GB/s"); break;
	case F_FLOP: numfmt_si(buf, (size_t)len, v, "FLOP"); break;
	case F_BYTES: numfmt_si(buf, (size_t)len, v, "B"); break;
	case F_COUNT: numfmt_si(buf, (size_t)len, v, ""); break;
	case F_SECT:
	case F_NUM:
	case F_INT:
	case F_STR: numfmt_count(buf, (size_t)len, v); break;
	}
}
