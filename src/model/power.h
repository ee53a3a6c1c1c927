/* power: the SM clock a GPU's power cap allows for a kernel's mix of work. Each kind of work (FFMA
 * issue, shared/L1 wavefronts, tensor FLOPs on GEMM-like data, L2 and DRAM bytes) was run alone on the
 * H100 with every SM busy (scripts/gpu-power.cu: rows power_KIND_w and power_KIND_rate of
 * assets/measured-h100.tsv); its energy per unit is its power above the idle board's over its rate.
 * A kernel's power at clock f is the idle power plus each kind's energy times its rate, and its rates
 * grow with f while the SM's cycles set its time (each operation's energy too, as the voltage follows
 * the clock): the clock is the highest, up to power_max_mhz, at which that stays under power_limit_w.
 * Pure: rows and counts in, a clock out (docs/model.md). */
#ifndef PTXTUTOR_POWER_H
#define PTXTUTOR_POWER_H

/* The kinds of work, in one table (power.c): the row name and what a unit is. */
typedef enum {
	PWR_FFMA,      /* a warp instruction issued (the FFMA test's: every kind of instruction is charged so) */
	PWR_LSU,       /* an L1/shared wavefront */
	PWR_MMA,       /* a FLOP of mma.sync on random f16 operands */
	PWR_WGMMA,     /* a FLOP of wgmma on random f16 tiles */
	PWR_WGMMA_F8,  /* a FLOP of wgmma on random e4m3 tiles */
	PWR_L2,        /* a byte from L2 to the SMs */
	PWR_DRAM,      /* a byte from DRAM */
	PWR_NKINDS
} power_kind;

const char *power_kind_key(power_kind k); /* "wgmma_data": the row is power_wgmma_data_w */

typedef struct {
	double idle_w;                /* power_idle_w; 0 when the file has none (then each kind carries it) */
	double limit_w;               /* power_limit_w */
	double max_mhz;               /* power_max_mhz */
	double joules[PWR_NKINDS];    /* energy per unit above idle, at its test's clock; 0: the kind has no rows
				       * (it costs nothing) */
	double test_mhz[PWR_NKINDS];  /* that clock (power_KIND_mhz; power_max_mhz when none) */
	double gamma;                 /* an operation's energy at clock f: (f / its test's clock)^gamma of it
				       * there; from the wgmma intensity rows, 0 without them (power.c) */
	int nkinds;                   /* kinds with rows */
	char missing[160];            /* the kinds without rows, for the output ("ffma, lsu"); "" none */
} power_params;

/* Reads the rows from the loaded measured file (model/measured.h). 0, or -1 with "assets/measured-h100.tsv
 * has no power_limit_w row" in err when the limit or the maximum clock is missing. */
int power_params_load(power_params *p, char *err, int errlen);

typedef struct {
	double work[PWR_NKINDS];      /* the whole kernel's units of each kind */
	double sm_cycles;             /* the busiest SM's cycles: at clock f the SMs take sm_cycles / f */
	double fixed_s;               /* what the SM clock does not shorten (L2, DRAM bandwidth): the kernel
				       * takes max(sm_cycles / f, fixed_s) */
} power_input;

typedef struct {
	double mhz;                   /* the clock the kernel holds */
	double watts;                 /* the board's power at that clock */
	int capped;                   /* 1: the cap set the clock (below power_max_mhz) */
	double seconds;               /* the kernel's time at that clock */
} power_result;

/* The clock for `in` under p. Returns 0, or -1 when in has no cycles. */
int power_clock(const power_params *p, const power_input *in, power_result *r);

#endif
