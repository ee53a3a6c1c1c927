/* devices: GPU specs, live from the driver or from the table in assets/gpus.tsv. */
#ifndef PTXTUTOR_DEVICES_H
#define PTXTUTOR_DEVICES_H

#include "course/dtype.h"

#define DEVICES_MAX 32

typedef struct {
	char key[24];            /* short name for --gpu: "h100", "a100-40" */
	char name[64];           /* marketing name: "NVIDIA H100 SXM5 80GB" */
	int cc_major, cc_minor;  /* compute capability */
	int sms;                 /* streaming multiprocessors */
	int clock_mhz;           /* boost clock used for peaks */
	double fp32_tflops;      /* FP32 FMA peak, dense */
	double tensor_tflops;    /* f16 in, f32 accumulate, dense (0: no tensor cores) */
	double tf32_tflops;      /* tf32 in, f32 accumulate, dense (0: none or not known) */
	double fp8_tflops;       /* e4m3/e5m2 in, f32 accumulate, dense (0: none or not known) */
	double bw_gbs;           /* DRAM bandwidth, GB/s */
	double l2_gbs;           /* L2 -> SM bandwidth, GB/s, whole chip (0: unknown) */
	double smem_gbs;         /* L1/shared data path, GB/s, whole chip: SMs x 128 B/clk (0: unknown) */
	int l2_kb;
	int smem_per_sm;         /* bytes of shared memory per SM (max carve-out) */
	int smem_per_block;      /* default per-block limit (48 KB) */
	int smem_optin;          /* per-block limit after opting in */
	int smem_reserved;       /* reserved by the system per block (1 KB on sm_80+) */
	int regs_per_sm;
	int regs_per_block;
	int max_threads_per_sm;
	int max_threads_per_block;
	int max_warps_per_sm;
	int max_blocks_per_sm;
	int warp_alloc_regs;     /* register allocation unit per warp (256) */
	char source[1024];       /* where the figures come from */
	char levels_source[640]; /* where l2_gbs and smem_gbs come from, and whether measured or estimated */
	int live;                /* read from the driver on this machine */
} gpu_spec;

typedef struct {
	gpu_spec g[DEVICES_MAX];
	int n;
} gpu_table;

/* Loads assets/gpus.tsv. Returns the number of rows, or -1 with
 * "file:line: message" in err. */
int devices_load(gpu_table *t, char *err, int errlen);
/* The same from text already in memory; path is used in messages only. */
int devices_parse(gpu_table *t, const char *path, const char *text, char *err, int errlen);
/* Finds a spec by key or by a case-insensitive part of its name ("a100",
 * "H100"); an exact key wins. NULL when none or ambiguous (msg says which). */
const gpu_spec *devices_find(const gpu_table *t, const char *what, char *msg, int msglen);
/* The spec to use when no --gpu is given offline. */
const gpu_spec *devices_default(const gpu_table *t);
/* The one --gpu policy of every command and the tutor: name "live" is this
 * machine's GPU (live; NULL when none was read: refused); another name is
 * looked up in the table (devices_find); no name is live when given, else
 * the table's default. NULL when refused, msg says why. */
const gpu_spec *devices_pick(const gpu_table *t, const char *name, const gpu_spec *live, char *msg, int msglen);
/* Fills the figures a driver cannot report (peaks, sources) from the table
 * row with the same compute capability and SM count, when there is one. */
void devices_complete(const gpu_table *t, gpu_spec *live);
/* The tensor cores' dense peak (TFLOP/s at clock_mhz) for these inputs, unit
 * its name ("tensor (fp8)", or why there is none: 0). f16/bf16 (and any
 * other type) get tensor_tflops. */
double devices_tensor_peak(const gpu_spec *g, dtype in, const char **unit);
/* The peak a GEMM of these inputs runs against, at mhz instead of the boost
 * clock (peaks scale with the clock): f32 the FP32 FMA rate, the others
 * their tensor rate; 0 when unknown (no rate, no clock, integers). */
double devices_peak_at(const gpu_spec *g, dtype in, double mhz);

#endif
