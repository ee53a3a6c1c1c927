/* model: the cost model of each lesson — FLOPs, traffic per memory level, intensity, roofline, occupancy. */
#ifndef PTXTUTOR_MODEL_H
#define PTXTUTOR_MODEL_H

#include "model/devices.h"
#include "base/expr.h"
#include "base/json.h"
#include "course/lesson.h"
#include "model/model_lessons.h"
#include "model/occupancy.h"

/* A cost model: one entry of the table in model_lessons.c, named by `model:`. */

/* Loads, stores and bytes at one memory level; counts are elements. */
typedef struct {
	double loads_per_output;   /* per element of C, for the whole K loop */
	double stores_per_output;
	double loads, stores;      /* whole problem */
	double bytes;              /* (loads + stores) × element size, as issued */
} model_level;

typedef struct {
	char lesson_id[32];
	int lesson_number;         /* for the measured.* keys (src/model/measured.h) */
	char model[32];            /* the model table entry used */
	const model_def *def;
	long long M, N, K;
	expr_env env;              /* params (overrides applied) + M, N, K */
	gpu_spec gpu;              /* the device the roofline and occupancy use */

	int elem_bytes;            /* bytes of an A/B element (the dtype table: 4 f32, 2 f16 and bf16) */
	int out_bytes;             /* bytes of a C element (the lesson's `out:` type) */
	double flops;              /* 2·M·N·K */
	model_level global, shared, regs; /* regs: operand reads from registers */
	double dram_ideal_bytes;   /* A and B read once, C written once */
	double output_bytes;       /* C: M·N elements of the output type */
	double ai_global;          /* FLOP per byte of global traffic as issued */
	double ai_shared;          /* FLOP per byte of shared traffic (0: none) */
	double ai_dram_ideal;
	double l2_min_bytes;       /* L2 -> SM traffic no run can avoid (see docs/model.md) */
	double l1_wavefronts;      /* 128-byte passes of the L1/shared data path, whole problem, at least */
	double ai_l2, ai_l1;       /* FLOP per byte at those levels (ai_l1: per wavefront's 128 B) */

	/* Warp view of one request in the main loop. */
	double sectors_A, sectors_B;        /* 32-byte sectors per global load request */
	double gwavefronts_A, gwavefronts_B; /* L1 data-stage wavefronts per global load request (one per 128-byte line) */
	double wavefronts_A, wavefronts_B;  /* shared-memory wavefronts per request (0 = no shared) */
	double wavefronts_ideal_A, wavefronts_ideal_B; /* those with no bank conflict: 1 for 4-byte reads, 4 for 16-byte
						      * ones (2 when pairs of lanes share; docs/model.md) */

	/* Roofline. */
	const char *unit;          /* "fp32" or "tensor" */
	double peak_tflops;        /* of that unit on gpu */
	double ridge;              /* FLOP/B: peak / bandwidth */
	const char *regime;        /* "compute" when bound_limit is compute, "memory" when a memory level binds, else "unknown" */
	const char *regime_if_dram; /* "memory" or "compute" if every load went to DRAM: ai_global against the ridge (an estimate) */
	double if_dram_ms;         /* the time if every load went to DRAM: max(flops/peak, global bytes as issued/DRAM
				    * bandwidth). A what-if for the lessons, never a prediction (that is the estimate) */

	/* A true lower bound on the kernel's time: the slowest of these, each
	 * the least time one level needs (NAN where the GPU row has no figure). */
	double bound_compute_ms, bound_dram_ms, bound_l2_ms, bound_l1_ms;
	double bound_ms;
	const char *bound_limit;   /* "compute", "DRAM", "L2", "L1/shared", or "unknown" */

	/* Occupancy for the lesson's launch shape. */
	int threads;               /* per block */
	int warps;                 /* per block: ceil(threads / 32) */
	int smem_static;           /* per block: declared in the PTX */
	int smem_dynamic;          /* per block: the lesson's `smem:` */
	int smem_request;          /* static + dynamic: what the kernel asks for */
	int regs_per_thread;
	const char *regs_source;   /* "recorded (ptxas sm_90)", "JIT", "unknown" */
	int occ_ok;                /* occ valid */
	occ_result occ;
	long long blocks;          /* one per BM×BN tile: ceil(M/BM)·ceil(N/BN) */
	double waves;              /* blocks ÷ (SMs × blocks per SM): rounds the GPU runs them in */
	/* Whether this GPU can run the kernel at all: its compute capability
	 * meets the lesson's needs: and a block fits on an SM. */
	int runs;
	int needs_sm, needs_arch_specific; /* the lesson's needs: (0: none) */
	int persistent;            /* grid: persistent */
	char why_not[192];         /* when runs is 0, a clause completing "cannot run here: ..."; "" otherwise */
	/* The grid launched (model/grid.h, the runner's rule; 0 when it cannot
	 * run): blocks, clusters of `cluster` blocks, whole rounds of tiles. */
	int cluster;               /* blocks per cluster: param CM, else the lesson's cluster: */
	long long launch_blocks, launch_clusters, launch_rounds;
	/* The tile order (params G: bands of G cluster rows, 0 row by row; CM:
	 * blocks per cluster along M): what one round of running tiles reads of
	 * A and B over the whole K, and DRAM traffic if each round reads that once. */
	double wave_bytes, order_dram_bytes;
} model_result;

/* Fills out for lesson l at size M×N×K on g with the overrides applied on top
 * of the lesson's params. Returns 0, or -1 with a message in err: an unknown
 * model, an override naming no param (the message lists the lesson's params)
 * or out of its range (model_check_params), or a launch shape that does not
 * evaluate. */
int model_compute(const lesson *l, const expr_env *overrides, long long M, long long N, long long K,
		  const gpu_spec *g, model_result *out, char *err, int errlen);

/* The one check of a lesson's parameters, which model_compute and the CLI's
 * run and emulate make: each of the lesson's values and each override lies in
 * its parameter's range (model_param_range), an override names a parameter
 * of the lesson, and the block they make holds 1 to 1024 threads. Returns 0,
 * or -1 with one line in err. */
int model_check_params(const lesson *l, const expr_env *overrides, char *err, int errlen);
/* The values a parameter may take (PAD 0..256, a tile side 1..4096, ...). */
void model_param_range(const char *name, long long *lo, long long *hi);

/* Replaces the registers per thread (e.g. from cuFuncGetAttribute after the
 * JIT) and recomputes occupancy; source labels where the number came from. */
void model_set_regs(model_result *r, int regs, const char *source);

/* Placeholder keys (docs/model.md lists them): nonzero when key is known.
 * measured.* keys are the lesson's measured figures (model/measured.h). */
int model_known(const char *key);
/* The value of a key as a number. Returns 0, or -1 for an unknown key or one
 * without a numeric value (gpu.name, bound). */
int model_value(const model_result *r, const char *key, double *out);
/* The value of a key for people: "0.25 FLOP/B", "K/16 = 256", "1.23 ms". */
void model_format(const model_result *r, const char *key, char *buf, int len);

/* Every key of the table as members of the JSON object open in w, in the
 * table's order, a dotted key nested ("ai.global": "ai": {"global": ...}),
 * each group where its first key stands; a number that does not apply is
 * null. `show --json` is this after the lesson's name (docs/json.md). */
void model_json(const model_result *r, json_writer *w);

/* The keys of model_value, in a stable order, with a line of help each
 * (param.NAME keys are not listed: any lesson param works). */
int model_key_count(void);
const char *model_key_name(int i);
const char *model_key_help(int i);


#endif
