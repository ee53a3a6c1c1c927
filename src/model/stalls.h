/* stalls: why each line waits — a timing model of one SM replaying the per-warp instruction traces
 * of the emulator's sampled blocks (four sub-partitions, a register scoreboard, pipe queues,
 * barriers, async groups), charging every cycle a warp does not issue to a reason in Nsight
 * Compute's vocabulary, at the PTX line of the instruction that waits. Pure: data in, data out;
 * the latencies come from assets/measured-h100.tsv (rows latency_*; docs/model.md "Stall reasons"). */
#ifndef PTXTUTOR_STALLS_H
#define PTXTUTOR_STALLS_H

#include <stddef.h>
#include <stdint.h>

/* The reasons, Nsight Compute's names (smsp__pcsamp_warps_issue_stalled_*), in one table. */
#define STALL_REASONS(X)                                                                             \
	X(LONG_SB, "long_scoreboard", "long scoreboard")       /* a global/local memory result */      \
	X(SHORT_SB, "short_scoreboard", "short scoreboard")    /* a shared memory, shuffle or MUFU result */ \
	X(WAIT, "wait", "wait")                                /* a fixed-latency result (ALU, tensor) */ \
	X(BARRIER, "barrier", "barrier")                       /* bar.sync: the block's other warps */  \
	X(MEMBAR, "membar", "membar")                          /* a memory fence */                     \
	X(MIO, "mio_throttle", "MIO throttle")                 /* the shared-memory / MUFU queue is full */ \
	X(LG, "lg_throttle", "LG throttle")                    /* the global/local memory queue is full */ \
	X(MATH, "math_pipe_throttle", "math pipe throttle")    /* its ALU or tensor pipe is busy */     \
	X(DISPATCH, "dispatch_stall", "dispatch stall")        /* an FFMA's register reads (banks) */  \
	X(NOT_SELECTED, "not_selected", "not selected")        /* ready, another warp issued */         \
	X(SELECTED, "selected", "selected")                    /* issued: one cycle an instruction */
#define STALL_ENUM(id, key, name) STALL_##id,
typedef enum { STALL_REASONS(STALL_ENUM) STALL_NREASONS } stall_reason;
#undef STALL_ENUM

const char *stall_reason_key(stall_reason r);   /* "long_scoreboard" */
const char *stall_reason_name(stall_reason r);  /* "long scoreboard" */

/* What an instruction is, to the model (the emulator's op mapped once, emu_trace.c). */
typedef enum {
	STALL_K_FMA,        /* f32/f16 arithmetic: the FMA pipe, latency_ffma */
	STALL_K_INT,        /* integer, logic, compares, selects: the INT pipe, latency_imad */
	STALL_K_IMAD,       /* integer work ptxas made IMADs (its line's SASS all IMAD): the FMA pipe's heavy half,
			     * two cycles (GH100's FMAheavy takes IMAD and FP32, FMAlite FP32), latency_imad */
	STALL_K_MOVE,       /* mov, cvt, ld.param: issue only, latency_imad */
	STALL_K_MUFU,       /* rcp, sqrt, ex2, lg2, div: MUFU, latency_mufu, short scoreboard */
	STALL_K_SHFL,       /* shfl: MIO, latency_shfl */
	STALL_K_LDS,        /* ld.shared, ldmatrix: MIO, latency_lds after its wavefronts */
	STALL_K_STS,        /* st.shared, stmatrix: MIO, no result */
	STALL_K_LDG,        /* ld.global, ld.local: LG, L1 / L2 / DRAM latency */
	STALL_K_STG,        /* st.global, st.local: LG, no result */
	STALL_K_CPASYNC,    /* cp.async: LG, completes into the open group */
	STALL_K_CPCOMMIT,   /* cp.async.commit_group */
	STALL_K_WGCOMMIT,   /* wgmma.commit_group */
	STALL_K_CPWAIT,     /* cp.async.wait_group N: its groups but the newest N landed */
	STALL_K_MMA,        /* mma.sync, wmma.mma: the tensor pipe, latency_mma */
	STALL_K_WGMMA,      /* wgmma.mma_async: the tensor pipe, asynchronous, in a group */
	STALL_K_WGWAIT,     /* wgmma.wait_group N */
	STALL_K_WGFENCE,    /* wgmma.fence (WARPGROUP.ARRIVE): waits for the warpgroup's four warps */
	STALL_K_BAR,        /* bar.sync / barrier.sync */
	STALL_K_MBAR_WAIT,  /* mbarrier.try_wait / test_wait: its predicate once the phase it waited for completes */
	STALL_K_MBAR_ARRIVE, /* mbarrier.arrive (.expect_tx): an arrival on the mbarrier */
	STALL_K_TMA,        /* cp.async.bulk: the copy engine */
	STALL_K_OTHER,      /* branches, exit, the rest: issue only */
	STALL_K_COUNT
} stall_kind;

#define STALL_MAX_DST 4
#define STALL_MAX_SRC 13

/* One static instruction. */
typedef struct {
	int line;                    /* its PTX line */
	uint8_t kind;                /* stall_kind */
	uint8_t ndst, nsrc;
	int32_t dst[STALL_MAX_DST];  /* registers it writes (the scoreboard) */
	int32_t src[STALL_MAX_SRC];  /* registers it reads, its guard predicate included */
	int wait_n;                  /* CPWAIT / WGWAIT: the groups it may leave in flight */
	int bar_warps;               /* BAR: the warps it waits for; 0: all of the block's */
	int bar_shows;               /* BAR: 1 + the op its wait shows at where ptxas's SASS orders another
				      * first (the first non-ALU SASS instruction after the BAR); 0: the
				      * first op after it that is not ALU work (defers_bar) */
	int sass_at;                 /* 1 + the index in ptxas's recorded SASS of its line's first instruction
				      * past the address arithmetic hoisted with it (sass_order); 0: not known */
	int wait_shows;              /* 1 + the op a wait for its result is charged at: the first op of the line whose
				      * SASS instruction first waits on the scoreboard its SASS sets (ptxas's order
				      * and its shared scoreboards; exec/stalls.c sb_waits); 0: the waiting op */
	int war_on;                  /* 1 + an LG access (LDG/STG/CPASYNC) whose register read it waits for: its SASS
				      * rewrites a register the access's queued instruction has not read yet
				      * (exec/stalls.c sb_waits); 0: none */
	int lg_sass;                 /* LDG/STG/CPASYNC: its line's LG instructions in the SASS loop that holds them,
				      * else in the kernel (an unrolled loop's burst; exec/stalls.c sass_order); 0: not known */
	double units;                /* its pipe's work per issue: wavefronts (LDS/STS), 128-byte lines
				      * (LDG/STG/CPASYNC), FLOPs (MMA/WGMMA), bytes (TMA); the emulator's mean */
} stall_op;

/* One issued instruction of one warp. mem: for a global load, where its 128-byte lines are in the
 * trace's pool (stall_trace.mem: a count, then that many line ids); STALL_NO_MEM for the others
 * (and for a load past the pool's limit: the model takes it for a miss); for a bar.sync, the
 * barrier's number (STALL_BAR_CLUSTER for a barrier.cluster.wait). A line id is the buffer's index << 28 | the line's number in it. For an
 * mbarrier arrival or a TMA copy, the mbarrier's slot (< STALL_MBARS; STALL_NO_MEM: none, or no lane
 * arrived); for an mbarrier wait, in the pool: 3, the slot, then the block's arrivals and copies on
 * that slot the emulator had issued when the wait succeeded (what the replay waits for). */
#define STALL_MBARS 32
/* The block's barriers: the sixteen named ones and barrier.cluster's (a cluster's blocks run the same
 * code, so the replay's block waits for its own warps and stands for its partners). */
#define STALL_BAR_CLUSTER 16
#define STALL_BARRIERS 17
#define STALL_NO_MEM UINT32_MAX
typedef struct {
	uint32_t op, mem;
} stall_rec;

typedef struct {
	stall_rec *rec;
	size_t n, cap;
} stall_warp;

/* The recorded sample: the static ops, and each traced warp's instructions in issue order. */
#define STALL_MAX_BLOCKS 16
#define STALL_MAX_RECS (48u << 20)   /* records over all warps (8 bytes each): beyond, the trace is cut */
#define STALL_MAX_MEM (32u << 20)    /* line ids of the loads (4 bytes each): beyond, loads are taken as misses */
typedef struct stall_trace {
	stall_op *ops;
	int nops, nregs;
	int warps_per_block;
	int nblocks;                 /* blocks traced (<= STALL_MAX_BLOCKS) */
	int smem_static;             /* the entry's static shared bytes (occupancy) */
	stall_warp *warps;           /* STALL_MAX_BLOCKS x warps_per_block, block-major */
	size_t nrecs;
	uint32_t *mem;               /* the global loads' lines (stall_rec.mem) */
	size_t nmem, capmem;
	int cut;                     /* 1: STALL_MAX_RECS reached, the warps' tails are missing */
} stall_trace;

void stall_trace_init(stall_trace *t, int warps_per_block, int nregs);
/* Appends op to warp w of traced block b (ignored past the limits); returns the record or NULL. */
stall_rec *stall_trace_add(stall_trace *t, int b, int w, uint32_t op);
/* Gives r the n distinct line ids of its load (ignored past STALL_MAX_MEM). */
void stall_trace_lines(stall_trace *t, stall_rec *r, const uint32_t *lines, int n);
void stall_trace_free(stall_trace *t);

/* SASS an op issues besides its own, where its line's SASS says more than the PTX: a debug build's (ptxas at
 * -O0 makes of one PTX instruction several SASS ones in its place, in order: tiled_debug's cvta.shared nine
 * MOVs and an S2R; JIT SASS, H200, 2026-11-28), or a local array's access ptxas keeps in registers (spill's
 * four ISETP.EQ and four moves a read). Per op: alu on the INT pipe (MOV, IADD3, SHF, ...), imad on the FMA
 * pipe's heavy half (IMAD, IMAD.MOV, IMAD.WIDE, ...), other issue-only (S2R, R2UR, branches). */
typedef struct {
	uint16_t alu, imad, other;
} stall_fill;
/* Puts op i's fill (fill: t->nops of them) before every record of it, as ops of its line. 0, or -1
 * (nothing changed) when the records would pass STALL_MAX_RECS. */
int stall_trace_expand(stall_trace *t, const stall_fill *fill);

/* The latencies (cycles), the one table, read from the measured file's rows latency_NAME. */
#define STALL_LATENCIES(X)                                                                     \
	X(FFMA, "latency_ffma")  X(IMAD, "latency_imad")  X(MUFU, "latency_mufu")              \
	X(SHFL, "latency_shfl")  X(LDS, "latency_lds")    X(L1, "latency_l1")                  \
	X(L2, "latency_l2")      X(DRAM, "latency_dram")  X(MMA, "latency_mma")                \
	X(BAR, "latency_bar")
#define STALL_LAT_ENUM(id, key) STALL_LAT_##id,
typedef enum { STALL_LATENCIES(STALL_LAT_ENUM) STALL_NLAT } stall_lat;
#undef STALL_LAT_ENUM
const char *stall_lat_key(stall_lat l);

/* The clock the time is given at when the measured file has no clock_mhz_gemm row: the H100's
 * typical clock under a GEMM at the 700 W cap (1.3-1.98 GHz measured, docs/model.md). */
#define STALL_CLOCK_MHZ_DEFAULT 1755.0

typedef struct {
	double lat[STALL_NLAT];
	double clock_mhz;
	int clock_measured;          /* 1: from a clock_mhz_gemm row */
	double tma_gbs;              /* the copy engine's L2 -> shared rate, the whole GPU's (ceiling_tma) */
	/* The clock lat[] was read at (latency_mhz), and of latency_l2 and latency_dram the part in the
	 * L2's and DRAM's own clocks, in ns (latency_l2_ns, latency_dram_ns): at another SM clock that
	 * part is as many ns, the rest as many cycles (stall_latency_at) */
	double lat_mhz, l2_ns, dram_ns;
	/* latency_bar was read with bar_warps warps; each warp more a barrier frees adds bar_per_warp cycles
	 * (gpu-latency: back-to-back bar.sync of 2, 4, 8, 16, 32 warps 16, 20, 28, 44, 76 cycles apart) */
	double bar_warps, bar_per_warp;
	char source[160];
} stall_params;

/* Latency l in cycles at an SM clock of mhz: lat[l], less for L2 and DRAM below lat_mhz (build/gpu-latency
 * at 1979 and 1500 MHz: L2 281 and 247 cycles, DRAM 687 and 565; L1, shared, FFMA the same). */
double stall_latency_at(const stall_params *p, stall_lat l, double mhz);

/* Reads the table from the loaded measured file (model/measured.h). 0, or -1 with
 * "assets/measured-h100.tsv has no latency_l2 row (lesson 0, size 0)" in err. */
int stall_params_load(stall_params *p, char *err, int errlen);

/* The SM the sample runs on. */
typedef struct {
	int blocks_per_sm;           /* resident blocks (occupancy) */
	int smem_per_block;          /* bytes (L1 is what shared memory leaves of 256 KB) */
	double l2_miss;              /* of the L1 misses, the fraction served by DRAM (0..1) */
	long long grid_blocks;
	int sms;
	double clock_mhz;            /* the SM clock its cycles are read at (0: the params' clock_mhz): the copy
				      * engine's bytes a cycle are its GB/s there, for the L2 does not slow with
				      * the SM clock (gpu-ceilings' tma under ncu: 486 us at 1979 MHz, 496 at 1500) */
	int hoist_loads;             /* 1: loads issue ahead as ptxas schedules them (stalls.c, LOOKAHEAD) */
	double fma_cycles;           /* an FFMA's cycles at its pipe, its register reads (model/regbanks.h); 0: 1 */
	int debug;                   /* 1: a debug build (`.target sm_90, debug`), compiled without optimisation:
				      * every instruction holds its warp STALL_DEBUG_HOLD cycles and waits for all
				      * the warp's variable-latency results, nothing issues ahead (hoist_loads 0),
				      * and a mov is a MOV on the INT pipe */
} stall_config;

/* The stall count of every instruction of a debug build's SASS (the most its control code holds):
 * all 379 of tiled_debug's but its closing NOPs, which also wait for every scoreboard (JIT SASS,
 * H200, 2026-11-28, docs/model.md). */
#define STALL_DEBUG_HOLD 15

/* A line's waits for results (scoreboard and fixed-latency), by the line whose instruction made the
 * result: the STALL_FOR it waited on longest. */
#define STALL_FOR 3
typedef struct {
	int line;
	double cyc[STALL_NREASONS];  /* warp cycles charged */
	double issued;               /* warp instructions issued */
	stall_reason top;            /* the largest reason but selected (selected when it alone) */
	int for_line[STALL_FOR];     /* the lines whose results it waited for, the longest first; 0: none */
	double for_cyc[STALL_FOR];   /* and the warp cycles of each */
} stall_line;

/* Adds cycles waited for line from (> 0; else nothing) to l's for_line (keeping the STALL_FOR largest). */
void stall_line_for(stall_line *l, int from, double cycles);

typedef struct {
	stall_line *lines;           /* by PTX line, ascending; malloc'd (stall_result_free) */
	int nlines;
	double total[STALL_NREASONS];
	double warp_cycles, issued;  /* summed over the resident warps */
	double cycles;               /* the SM's cycles for one wave of resident blocks */
	double issue_active;         /* issued / (cycles x 4 sub-partitions) */
	double waves;                /* ceil(grid / (SMs x blocks per SM)) */
	double ms;                   /* cycles x waves / clock */
	int warps;                   /* resident warps modelled */
	int blocks;                  /* the blocks an SM held: those that fit, or fewer for a grid under a wave */
	double l1_lines, l1_hits;    /* 128-byte lines the global loads read, and those the L1 had or was bringing */
	double l1_fill_hits;         /* of those, a fill still on its way (the same line's miss of another warp) */
} stall_result;

/* Replays t on one SM as c says. Returns 0, or -1 with err (nothing traced). */
int stall_model(const stall_trace *t, const stall_params *p, const stall_config *c, stall_result *r, char *err,
		int errlen);
void stall_result_free(stall_result *r);
/* The reason with the most cycles, selected excluded unless it is all there is. */
stall_reason stall_top(const double cyc[STALL_NREASONS]);

#endif
