/* run: what a run is — the plain-data request and result that cross the worker's pipe, and the verdicts shared by the GPU runner and the emulator. */
#ifndef PTXTUTOR_RUN_H
#define PTXTUTOR_RUN_H

#include "course/lesson.h"
#include "model/devices.h"
#include "course/argspec.h"
#include "course/ptx.h"

#define RUN_PATH 512
#define RUN_LOG 8192
/* The longest entry name, terminator included: nvcc's mangled template
 * kernels run to 70-200 characters; a longer one is refused, never cut. */
#define RUN_ENTRY 512

/* Which backend carries a request out: one line here each, its id and its
 * name (run_backend_name), and a row in src/exec/backend.c's table. The zero value is the GPU, so a
 * zeroed request is a GPU run: build requests with run/launch.c, which sets
 * the backend and the deadline together (launch_target). */
#define RUN_BACKENDS(X)                                                                              \
	X(GPU, "GPU")                   /* the runner: JIT, launch, verify, time (src/gpu/runner.c) */     \
	X(EMU, "CPU emulator")          /* the CPU emulator (src/exec/emulate.c); never needs a GPU */    \
	X(CUBIN, "driver JIT to cubin") /* the driver's JIT to a cubin file for the SASS view (src/gpu/jitcubin.c) */
#define RUN_BACKEND_ENUM(id, name) RUN_BACKEND_##id,
typedef enum { RUN_BACKENDS(RUN_BACKEND_ENUM) RUN_BACKEND_COUNT } run_backend;
#undef RUN_BACKEND_ENUM

/* How far a GPU run goes. The zero value is a whole run. */
typedef enum {
	RUN_KIND_RUN,             /* JIT, launch, verify and time as the request asks */
	RUN_KIND_JIT_ONLY,        /* stop after the JIT: registers and the log, no launch */
	RUN_KIND_DEVICE,          /* only describe the device: the result's spec from the driver, no PTX */
} run_kind;

/* How a run is timed (src/gpu/runner.c, docs/benchmarks.md): in both, ours
 * and cuBLAS take turns a block at a time, each block launches back to back
 * between one pair of events, so the switch between their shared-memory
 * carve-outs costs once a block, not once a launch (alternating launch by
 * launch spread cuBLAS's time 13-17% on the H100). */
typedef enum {
	RUN_TIMING_STEADY,        /* after a warm-up of both, so the clock is the one the GPU holds under this work */
	RUN_TIMING_BURST,         /* short blocks, each after the GPU idled, as short published runs are */
} run_timing;

/* The reference a run is timed beside (and checked against): the library's
 * default call (SGEMM, GemmEx, FP8's cuBLASLt plan with FAST_ACCUM, as
 * lesson 11's kernel accumulates), or the fastest of cuBLASLt's heuristic
 * list for the same types (gpu/lt.c), for FP8 with FAST_ACCUM or, for a
 * kernel that promotes its partial sums, promoting as cuBLASLt's default does. */
typedef enum {
	RUN_REF_DEFAULT,          /* --reference default */
	RUN_REF_BEST,             /* --reference best */
	RUN_REF_BEST_PROMOTING,   /* --reference best-promoting (FP8) */
} run_ref;

/* The reference's name as the option spells it; -1 for another name. */
int run_ref_parse(const char *s);

/* One run. A plain-old-data struct so the worker can send it whole over a pipe. */
typedef struct {
	char ptx_path[RUN_PATH];
	char entry[RUN_ENTRY];
	dtype dt;                 /* A and B */
	dtype out;                /* C; DTYPE_NONE means f32 (run_out) */
	/* B stored N x K (each column of B a row: K-major) instead of K x N
	 * (row-major, the default): a lesson's `bmajor: k`, `run --bmajor k`.
	 * wgmma reads 8-bit operands only K-major; the PTX ISA (wgmma.mma_async,
	 * "Matrix transpose"): "The transpose operation is only supported for
	 * the wgmma.mma_async variants with .f16/ .bf16 types on matrices
	 * accessed from shared memory using matrix descriptors." So the FP8
	 * rung stores B so, and cuBLASLt's FP8 wants the same ("TN"). */
	int b_kmajor;
	/* How A, B and C lie in memory (`--layout`, `--ld`; a lesson's `layout:`,
	 * `ld:`): row- or column-major, leading dimensions; run/layout.h reads
	 * it. B is column-major when either this or b_kmajor says so (the
	 * builders keep them equal). All zero: row-major and tight. */
	argspec_layout layout;
	unsigned grid[3], block[3];
	unsigned smem;            /* dynamic shared memory bytes */
	long long M, N, K;
	/* The kernel's parameter list, in order, parsed (course/argspec.h): the
	 * buffers A B C, the sizes M N K, typed literals, tensor maps with their
	 * boxes evaluated. Empty (n == 0) means "A B C M N K". */
	argspec args;
	int verify;               /* compare with cuBLAS */
	int time;                 /* time ours and cuBLAS (median of repeats) */
	run_timing timing;
	run_ref reference;        /* what ours is timed beside and checked against (run_ref) */
	run_backend backend;      /* who runs it: GPU, CPU emulator or JIT-to-cubin */
	run_kind kind;            /* a whole run, the JIT only, or the device only */
	/* The request's one time limit, in seconds, decided when it is built
	 * (run/launch.c launch_target, from launch_deadline or the user's
	 * --timeout): the emulator stops itself there, the worker and the
	 * one-shot jobs kill the child a grace after it (exec_kill_after). */
	double deadline_s;
	/* A persistent kernel loops over its tiles: launch only as many blocks as
	 * fit on the GPU at once (SMs x blocks per SM, at most grid's product),
	 * in a 1-D grid. */
	int persistent;
	/* Blocks per thread-block cluster (sm_90); 0 or 1 on every side: none.
	 * The grid must be a multiple of it (run_check_cluster); a persistent
	 * grid is sized in whole clusters. */
	unsigned cluster[3];
	/* For profilers (`run --lineinfo`): the GPU runner JITs the `.loc` copy
	 * of the PTX (course/sass.c sass_instrument, `.file` the PTX's absolute
	 * path) with CU_JIT_GENERATE_LINE_INFO, so Nsight Compute's source view
	 * maps each SASS instruction to its PTX line. Line information changes
	 * no instruction, so the timing stays valid; the emulator ignores it. */
	int lineinfo;
	/* RUN_BACKEND_CUBIN: link the PTX with the driver's JIT, with line
	 * information, and write the cubin here (the SASS view; src/gpu/jitcubin.c).
	 * Nothing is launched; the result's msg names the driver, log has the JIT's -v lines. */
	char cubin_path[RUN_PATH];
	/* The accuracy experiment's hook (src/run/accuracy.h): A (M x K) and B
	 * (K x N, row-major, whatever layout the kernel reads) as f32, stored in
	 * the input type by the same step as drawn inputs (NULL: random, as every
	 * other run); c_host receives C as f32 after the first launch (NULL: not
	 * copied). Pointers: valid in this process and in a child forked after
	 * they were set (exec_run_job), never across the worker's pipe, which
	 * refuses a request that has them. */
	const float *a_host, *b_host;
	float *c_host;
} run_request;

/* Instruction classes the emulator counts (emu.h's emu_class, in its order:
 * exec/emulate.c checks the two agree). */
#define RUN_INST_CLASSES 15

/* The emulator's counts by kind, as Nsight Compute splits them (ld, st,
 * ldgsts, ldsm): requests and sectors of global traffic, requests,
 * wavefronts and bank conflicts of shared traffic, instructions per class.
 * run/fields.c's run_kind_fields names each member; the report writes them
 * from that table. */
typedef struct {
	long long requests, sectors;
} run_gkind;
typedef struct {
	long long requests, wavefronts, bank_conflicts;
} run_skind;
typedef struct {
	run_gkind gld, gst, gcp;               /* global loads, stores, cp.async reads */
	run_gkind lld, lst;                    /* local loads, stores (spills, local arrays, printf's arguments) */
	run_skind sld, sst, sldsm, scp;        /* shared loads, stores, ldmatrix, cp.async writes */
	long long inst[RUN_INST_CLASSES];      /* warp-level instructions per class */
	long long thread_inst;                 /* thread-level instructions (predicate true) */
	long long barriers;                    /* bar.sync, per warp */
	long long wgmma_inst, wgmma_flops, wgmma_smem_bytes, wgmma_smem_wavefronts; /* Hopper's warpgroup MMAs */
} run_emu_kinds;

/* A kernel's printf output: on the emulator a line a call, "[block x,y,z
 * thread x,y,z] text", by block then thread as it runs them; on the GPU the
 * text the driver wrote to the worker's stdout. The first RUN_PRINTF_LINES
 * lines (and RUN_PRINTF_BYTES of text) are kept, the rest only counted. */
#define RUN_PRINTF_LINES 100
#define RUN_PRINTF_BYTES 8192
typedef struct {
	char text[RUN_PRINTF_BYTES];           /* the kept lines, each ending in '\n' */
	int lines;                             /* lines in text */
	long long dropped;                     /* lines past the limits */
} run_printf;
/* Adds one line (without its '\n'; a longer one is cut) or counts it as dropped. */
void run_printf_add(run_printf *p, const char *line);
/* Adds text as lines (a last line without '\n' counts too). */
void run_printf_text(run_printf *p, const char *text, size_t len);

/* The counts of an emulated run, as Nsight Compute would report them
 * (see src/emu/emu.h): global requests and 32-byte sectors, shared-memory
 * requests, wavefronts and bank conflicts. */
typedef struct {
	long long M, N, K;                     /* the size it ran at */
	unsigned long long gld_requests, gld_sectors;   /* global loads (cp.async reads included) */
	unsigned long long gst_requests, gst_sectors;   /* global stores */
	unsigned long long sld_requests, sld_wavefronts, sld_conflicts; /* shared loads and ldmatrix */
	unsigned long long sst_requests, sst_wavefronts, sst_conflicts; /* shared stores and cp.async writes */
	unsigned long long inst;               /* warp-level instructions issued */
	unsigned long long races;              /* shared-memory races (a missing bar.sync) */
	/* Hopper: TMA bytes read from L2 (a multicast copy once), written into
	 * shared memory (once per destination block), stored to global; mbarrier
	 * operations and cluster barriers, per warp */
	unsigned long long tma_l2_bytes, tma_smem_bytes, tma_store_bytes, mbarrier_ops, cluster_barriers;
	double seconds;                        /* wall time of the emulation */
	long long warps;                       /* warps launched */
	run_emu_kinds by_kind;                 /* the same traffic by kind, loads apart from cp.async */
} run_emu_counts;

/* What one PTX line cost in an emulated run: every instruction on the line,
 * summed over the whole grid (src/emu/emu_run.c makes them). Global and
 * shared sides are apart so a cp.async line shows both. */
typedef struct {
	int line;                              /* the PTX file's line; 0: the lines left out, summed (RUN_MAX_LINES) */
	unsigned regions;                      /* bit i: inside `@` region i; 0 on the summed row */
	unsigned long long inst;               /* warp-level instructions issued */
	unsigned long long threads;            /* active lanes summed (predicate true): threads/inst = lanes per issue */
	unsigned long long g_requests, g_sectors;        /* global: requests and 32-byte sectors */
	unsigned long long s_requests, s_wavefronts, s_conflicts; /* shared: requests, wavefronts, bank conflicts */
	unsigned long long bytes;              /* bytes the active lanes asked for (a cp.async's once) */
} run_line_counts;

/* A fixed bound so a result crosses the pipe as one struct: a kernel with
 * more instruction lines keeps the RUN_MAX_LINES - 1 costliest
 * (run_line_cost) and sums the rest into one row of line 0, so the rows
 * still add up to the totals. The course's largest (lesson 7: 2048 FMAs
 * a slice, one a line) has 2598, so every course kernel fits whole
 * (~220 KiB of a result). */
#define RUN_MAX_LINES 3072

/* An `@` region's figures, the sum of its lines. */
typedef struct {
	char name[PTX_REGION_NAME];
	int first_line, last_line;
	run_line_counts c;
	run_emu_kinds by_kind;    /* the region's counts by kind (emulated runs) */
} run_region_counts;

/* One line's cost for ranking and the heat mark: issue slots plus memory
 * passes (sectors, wavefronts), each about one cycle of a pipe. */
unsigned long long run_line_cost(const run_line_counts *l);
/* a += b (line and regions of a kept). */
void run_line_add(run_line_counts *a, const run_line_counts *b);

typedef enum {
	RUN_OK,                   /* ran (and verified, when asked) */
	RUN_WRONG,                /* ran, but the result does not match cuBLAS */
	RUN_NO_GPU,               /* no driver / no device: msg says why */
	RUN_JIT_ERROR,            /* the PTX did not compile: log has the JIT's words */
	RUN_LAUNCH_ERROR,         /* bad launch configuration, too much shared memory ... */
	RUN_FAULT,                /* the kernel faulted: the context is dead (sticky) */
	RUN_TIMEOUT,              /* killed after its deadline (set by the worker) */
	RUN_CANCELLED,            /* cancelled by the user (set by the worker) */
	RUN_BAD_REQUEST,          /* bad args spec, size ... */
	RUN_UNSUPPORTED,          /* the kernel's .target is newer than the GPU */
	RUN_EMU_REFUSED,          /* the CPU emulator lacks what the kernel uses (a type pair it cannot check, a parse error) */
} run_status;

/* Where a run went wrong, as data: the PTX file and line (0: none), the
 * CUDA line nvcc recorded above it (.loc), the block and warp, and the
 * message without any of them. The emulator fills it; run_error_format
 * writes it once, at the edge, and no one parses the text back. */
typedef struct {
	char path[RUN_PATH];      /* the PTX file; "" when the problem is not in a file */
	int line;                 /* its line, from 1; 0: none */
	char cu_path[RUN_PATH];   /* the CUDA source nvcc named in .file; "" when the PTX has no .loc there */
	int cu_line;
	char cu_text[160];        /* that source line, trimmed, when the .cu was found; "" otherwise */
	int line2;                /* a second PTX line it involves (a race's other access), 0: none */
	int cu_line2;             /* its CUDA line, 0: none */
	int has_block;            /* block says which block went wrong */
	unsigned block[3];
	int warp;                 /* the warp of the block, -1: not known */
	char msg[RUN_PATH + 256]; /* room for a message that names a file */
} run_error;

/* An error of no file: the message alone (warp -1). */
void run_error_msg(run_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

typedef struct {
	run_status status;
	char msg[256];            /* one line for the user */
	char log[RUN_LOG];        /* JIT info + error log */
	char gpu[64];             /* device name */
	int cc_major, cc_minor;
	int regs, smem_static, local_bytes, max_threads; /* cuFuncGetAttribute */
	int blocks_per_sm;        /* cuOccupancyMaxActiveBlocksPerMultiprocessor */
	double ms, gflops;        /* ours, median */
	double cublas_ms, cublas_gflops;
	double rel_err;           /* ||C - ref|| / ||ref|| */
	double tol;
	/* A wrong result by a small margin: the precision mistake it matches
	 * (run/diagnose.c, "an f16 accumulator"); "" when none or not wrong. */
	char consistent_with[128];
	int verified;             /* 1 pass, 0 fail, -1 not checked */
	int repeats;              /* timed rounds (a block of ours and a block of cuBLAS each) */
	int block, cublas_block;  /* launches back to back in one timed block: ours, cuBLAS's */
	double spread, cublas_spread; /* (slowest - fastest round) / median, of ours and of cuBLAS */
	char timing[160];         /* how it was timed, in words */
	char ref_name[200];       /* the reference: "cuBLAS SGEMM", or the cuBLASLt kernel --reference best kept */
	double sm_mhz;            /* the SM clock our timed blocks ended at, median (NVML); 0 unknown */
	gpu_spec spec;            /* the live device (cuDeviceGetAttribute); spec.sms == 0 without a GPU */
	/* Who ran it: stamped by exec_run from the request, and by the worker
	 * from what it sent when the child was killed or died, so a killed
	 * emulation still says it was one. */
	run_backend backend;
	run_emu_counts emu;       /* RUN_BACKEND_EMU: the emulator's counts */
	/* Per PTX line (emulated runs only; the tutor emulates beside a GPU run for them): nlines rows
	 * in line order, then the summed row of line 0 when lines_total > nlines. */
	run_line_counts lines[RUN_MAX_LINES];
	int nlines, lines_total;
	run_region_counts regions[PTX_MAX_REGIONS];
	int nregions;
	unsigned grid[3];         /* the grid launched (a persistent kernel's is sized here) */
	run_error where;          /* the emulator's located problem (parse error, fault); empty otherwise */
	run_printf printed;       /* the kernel's printf output (both backends) */
} run_result;

const char *run_status_name(run_status s);
/* "GPU", "CPU emulator", "driver JIT to cubin"; "?" outside the enum. */
const char *run_backend_name(run_backend b);
/* Whether the result holds the emulator's counts: an emulation that ran to
 * its end (ok or a wrong result). */
int run_has_counts(const run_result *res);

/* e as one line for a narrow pane: "01_naive.ptx:83: message (block 0,0,0)"
 * (the file without its folder); with a CUDA line, "k.cu:42: message
 * (block 0,0,0) (PTX line 83)" (a race adds "; the other access: k.cu:40");
 * the message alone when it has no line. */
void run_error_format(const run_error *e, char *buf, size_t len);
/* The same with the paths whole, as the command line prints an error. */
void run_error_text(const run_error *e, char *buf, size_t len);
/* The same where the reader knows the PTX file: "line 83: message (block 0,0,0)". */
void run_error_format_line(const run_error *e, char *buf, size_t len);
/* The CUDA source line beside its number, "   42 | c[i] = a[i];", for a
 * line under the error; "" when e has no CUDA line or its text was not found. */
void run_error_source(const run_error *e, char *buf, size_t len);

/* Relative tolerance of a check, ||C - ref|| / ||ref||, for inputs of type
 * `in` and an output of type `out` (run.c says how each is derived). */
double run_tolerance(dtype in, dtype out);
/* One input of a run, `rows` x `cols` of type d, into `stored`: the
 * caller's f32 values `host` (run_request.a_host / b_host: the accuracy
 * experiment) stored as the kernel reads them, the transpose when
 * `transpose` (a B stored N x K), else fresh random values (dtype_fill); an
 * FP8 input with its per-tensor scale (*scale; 1 for other types). real,
 * when not NULL, receives what each stored value means (stored x scale). */
void run_make_input(rng *r, dtype d, const float *host, long long rows, long long cols, int transpose, void *stored,
		    float *real, float *scale);

/* The request's output type: rq->out, f32 when not set. */
dtype run_out(const run_request *rq);
/* The request's cluster with unset sides as 1; returns blocks per cluster. */
unsigned run_cluster(const run_request *rq, unsigned c[3]);
/* Whether the request's cluster can launch: at most LESSON_MAX_CLUSTER
 * blocks, a grid that is a multiple of it (a persistent grid, sized by the
 * runner, needs a cluster along x only). Returns 0, or -1 with one line. */
int run_check_cluster(const run_request *rq, char *err, int errlen);
/* Integer inputs (s8) multiply as C = A·B: alpha: and beta: are f32
 * scalars, which neither the exact check nor cuBLAS's int8 GEMM (int32
 * alpha and beta) takes. 0, or -1 with one line in err. */
int run_check_int_blas(const run_request *rq, char *err, int errlen);

#endif
