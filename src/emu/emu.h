/* emu: a PTX warp interpreter that runs a GEMM kernel on the CPU, verifies it and counts its memory traffic. */
#ifndef PTXTUTOR_EMU_H
#define PTXTUTOR_EMU_H

#include <signal.h>
#include "course/ptx.h"
#include "run/run.h"

/* The regions are the one region scanner's (ptx_regions_scan), with its limit. */
#define EMU_MAX_REGIONS PTX_MAX_REGIONS

/* Why a parse or a run failed, returned with a run_error that says where
 * (the PTX line, the CUDA line above it, the block and warp) and what; the
 * string APIs write it with run_error_text ("file:line: message"). The codes are negative, so `< 0` and `!= 0` both test
 * for a failure. A race is no failure: the run ends and reports it. */
typedef enum {
	EMU_OK = 0,
	EMU_ERR_PARSE = -1,        /* not PTX the parser reads: syntax, undeclared names, region markers */
	EMU_ERR_UNSUPPORTED = -2,  /* PTX the emulator does not run: .sat, f64 */
	EMU_ERR_FAULT = -3,        /* the kernel went wrong: out-of-bounds or misaligned access, a partial warp in mma,
				    * a deadlock, a read of a tile a TMA copy has not written yet, a wgmma hazard */
	EMU_ERR_BUDGET = -4,       /* the instruction budget ran out: an endless loop? */
	EMU_ERR_BAD_REQUEST = -5,  /* the request: dtype, size, launch shape, args spec, no such entry or file */
	EMU_ERR_CANCELLED = -6,    /* the progress callback or the cancel flag stopped it (Ctrl-C, or the estimate is too long) */
	EMU_ERR_DEADLINE = -7,     /* the wall-clock deadline (emu_options.deadline_s) passed */
} emu_error;

/* What a PTX file or a launch may ask of the emulator; more is refused with a
 * message naming the limit, before anything is allocated. The emulator runs
 * PTX from anywhere, so these bound its memory: the register file is
 * warps x registers x 32 lanes x 8 bytes (64 MiB at the limits). */
#define EMU_MAX_REGS 8192                 /* registers of one entry (declared, constants, special); a GPU has 255 per thread */
#define EMU_MAX_REG_NAMES 64              /* names in one .reg statement */
#define EMU_MAX_SMEM (228 * 1024)         /* shared bytes of a block, static + dynamic: a whole SM's */
#define EMU_MAX_PARAMS 64                 /* parameters of one entry */
#define EMU_MAX_PARAM_BYTES 32764         /* a kernel's parameter space, as CUDA 12.1 allows */
#define EMU_MAX_ALIGN 4096                /* .align of a .param or .shared variable */
#define EMU_MAX_OPS 65536                 /* instructions in one entry */
#define EMU_MAX_THREADS 1024              /* threads of a block */
#define EMU_MAX_GRID_YZ 65535             /* grid y and z, as CUDA; x up to 2^31 - 1 */
#define EMU_MAX_WAIT_GROUP 1024           /* N of cp.async.wait_group N */
#define EMU_MAX_CP_PENDING 65536          /* cp.async copies of one warp not yet waited for */
#define EMU_MAX_SIDE 16384               /* M, N and K */
#define EMU_MAX_MEMORY (2.0 * (1 << 30))  /* bytes of A, B, C and the reference a run may allocate */
#define EMU_MAX_RESIDENT (256.0 * (1 << 20)) /* bytes of the CTAs of one cluster, resident together: registers
					     * (8 bytes a register a thread), shared memory and its race shadow,
					     * local memory (its bytes a thread) */
#define EMU_MAX_LOCAL (512 * 1024)        /* .local bytes of one thread, as CUDA's limit */
#define EMU_TMA_BYTES_PER_INST 4          /* a TMA copy is charged a warp instruction per this many bytes it
					   * writes (each destination CTA's): about a plain one's time (5 ns a byte, measured) */
#define EMU_MMA_FLOPS(k) (2ULL * 16 * 8 * (k))  /* one warp-level mma.sync.m16n8kK (K = 16 or 8 for tf32) */
#define EMU_MMA_FLOPS_PER_INST 16         /* an mma.sync is charged a warp instruction per this many of its FLOPs
					   * (256 for m16n8k16): it takes ~10 us here, a plain one ~40 ns */

/* Instruction classes, counted per warp-level instruction issued (predicated-off
 * lanes still issue, as on the hardware). */
typedef enum {
	EMU_CLS_FP,        /* f32/f16 arithmetic */
	EMU_CLS_INT,       /* integer arithmetic, logic, compares, selects */
	EMU_CLS_MOVE,      /* mov, cvt, cvta, ld.param */
	EMU_CLS_LD_GLOBAL,
	EMU_CLS_ST_GLOBAL,
	EMU_CLS_LD_SHARED,
	EMU_CLS_ST_SHARED,
	EMU_CLS_CP_ASYNC,  /* cp.async and its commit/wait */
	EMU_CLS_LDMATRIX,
	EMU_CLS_MMA,
	EMU_CLS_SHFL,
	EMU_CLS_BARRIER,
	EMU_CLS_CONTROL,   /* bra, ret, exit */
	EMU_CLS_LD_LOCAL,  /* ld.local (issue 39: after the others, so their numbers stay) */
	EMU_CLS_ST_LOCAL,
	EMU_CLS_COUNT
} emu_class;

const char *emu_class_name(emu_class c);

/* Global traffic as Nsight Compute's l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_*:
 * one request per warp-level instruction with an active lane, and the distinct
 * 32-byte sectors its active lanes touch. */
typedef struct {
	unsigned long long requests, sectors;
	unsigned long long wavefronts;     /* ld.global only: L1 data-stage wavefronts, one per 128-byte line (measured: docs/model.md) */
} emu_gmem;

/* Shared traffic as l1tex__data_pipe_lsu_wavefronts_mem_shared_op_* and
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*: wavefronts are the
 * passes the banks need; conflicts = wavefronts - ideal wavefronts. */
typedef struct {
	unsigned long long requests, wavefronts, ideal, bank_conflicts;
} emu_smem;

/* Hopper's warpgroup MMAs: wgmma.mma_async counted once per warpgroup, the
 * FLOPs (2*64*N*K each) and the shared-memory bytes of their operands read
 * through descriptors; wavefronts = bytes / 128, as the model counts them. */
typedef struct {
	unsigned long long inst, flops, smem_bytes, smem_wavefronts;
} emu_wgmma_counts;

typedef struct {
	unsigned long long inst[EMU_CLS_COUNT];
	unsigned long long inst_total;     /* warp-level instructions issued */
	unsigned long long thread_inst;    /* thread-level instructions executed (predicate true) */
	emu_gmem gld, gst, gcp;            /* global loads, stores, cp.async reads */
	emu_gmem lld, lst;                 /* local loads, stores: requests and 32-byte sectors, each thread's words
					    * interleaved with its warp's as the hardware lays local memory out */
	emu_smem sld, sst, sldsm, scp;     /* shared loads, stores, ldmatrix, cp.async writes */
	unsigned long long barriers;       /* bar.sync, per warp */
	emu_wgmma_counts wgmma;
	unsigned long long bytes;          /* bytes the active lanes of memory instructions move (a cp.async's once) */
	/* Hopper: TMA bytes per level (a multicast copy is read once from L2 and
	 * written once per destination CTA), mbarrier and cluster-barrier ops per warp */
	unsigned long long tma_l2_bytes, tma_smem_bytes, tma_store_bytes;
	unsigned long long mbarrier_ops, cluster_barriers;
	unsigned long long mma_flops;      /* mma.sync: 2*16*8*K FLOPs a warp-level m16n8kK */
	/* As the SASS does it, where it differs from the PTX: ptxas merges four
	 * scalar ld.shared into one LDS.128 (emu_vgroup.c). All shared wavefronts
	 * so counted, and the warp instructions folded away. */
	unsigned long long smem_wavefronts_sass, inst_merged;
} emu_counts;

typedef struct {
	char name[PTX_REGION_NAME];
	int first_line, last_line;         /* the lines of `// @name` and `// @end` */
	emu_counts c;
} emu_region;

typedef struct emu_module emu_module;

/* The warp view's hook (emu_options.record): the 32 addresses of one
 * warp-wide access — the first memory instruction on PTX line `line`, as
 * warp `warp` of block `block` executes it for the `nth` time (0: the
 * first). emu_run fills the rest when the launch gets there. */
typedef struct {
	int line;                          /* asked: 1-based PTX line */
	unsigned block[3];
	int warp;
	long long nth;
	int found;                         /* 1: recorded */
	long long seen;                    /* times that warp executed the instruction so far */
	int kind;                          /* access_kind (model/access.h) */
	int bytes;                         /* per lane (16 for ldmatrix's rows) */
	uint32_t mask;                     /* the lanes that took part */
	int buffer;                        /* global: 0 A, 1 B, 2 C (the parameter order); -1 shared */
	int64_t addr[32];                  /* global: byte offset in that buffer; shared: offset in the block's shared memory */
	int armed;                         /* inside: the next access is the one */
} emu_record;

/* Where a launch is, for a progress callback: called after every block. */
typedef struct {
	long long blocks_done, blocks;
	unsigned long long inst;           /* warp instructions so far */
	double seconds;                    /* since the launch started */
} emu_progress;

/* Returns 0 to go on, anything else to stop the launch (EMU_ERR_CANCELLED). */
typedef int (*emu_progress_fn)(void *ctx, const emu_progress *p);

typedef struct {
	unsigned long long seed;           /* random inputs; 0 picks a fixed default */
	long long max_warp_inst;           /* stop after this many warp instructions; 0: 1e7 + 2*M*N*K */
	const emu_module *module;          /* a parsed module to reuse (must be rq->ptx_path); may be NULL */
	int no_verify;                     /* skip the CPU reference (counting only) */
	emu_progress_fn progress;          /* may be NULL */
	void *progress_ctx;
	double deadline_s;                 /* stop with EMU_ERR_DEADLINE after this many seconds of wall time; 0: none */
	/* Stop with EMU_ERR_CANCELLED once *cancel is nonzero (a SIGINT handler
	 * sets it); NULL: none. Read with the deadline, on a time basis inside a
	 * block (every few milliseconds of work), so either ends a run within a
	 * fraction of a second however its time is spent. */
	volatile sig_atomic_t *cancel;
	/* Per-line counts (emu_result.nlines): up to max_lines rows in line order;
	 * more lines keep the max_lines - 1 costliest and sum the rest into a last
	 * row of line 0, as run_result's lines (run.h). NULL: none. */
	run_line_counts *lines;
	int max_lines;
	emu_record *record;                /* the warp view's access to record; NULL: none */
	int footprint;                     /* count each CTA's distinct global sectors read (emu_result.footprint_sectors) */
	int zero_inputs;                   /* A, B (and C0) left 0, no check: counting only, as fast as it goes */
	/* The stall model's trace (model/stalls.h): each warp's issued instructions in the first
	 * STALL_MAX_BLOCKS blocks, made by emu_run (the caller frees it: stall_trace_free). NULL: none. */
	struct stall_trace *trace;
} emu_options;

typedef struct {
	int verified;                      /* 1 pass, 0 fail, -1 not checked */
	double rel_error;                  /* ||C - ref|| / ||ref||, NaN counts as a failure */
	double tol;
	long long bad_elems;               /* elements off by more than tol (or NaN) */
	emu_counts total;
	emu_region regions[EMU_MAX_REGIONS];
	int nregions;
	unsigned long long races;          /* shared-memory accesses that raced with another warp */
	run_error race;                    /* the first race, as data */
	char race_msg[RUN_PATH + 512];     /* the same as run_error_text writes it */
	long long blocks, warps;
	long long blocks_done;             /* < blocks when the run was stopped */
	char verify_msg[256];              /* the check's verdict (run/verify.h), whatever it was */
	char consistent_with[128];          /* a small error's likely cause (run/diagnose.h); "" none */
	double seconds;                    /* wall time of the emulation */
	unsigned long long footprint_sectors; /* with emu_options.footprint: per CTA run, the distinct 32-byte global
					    * sectors it read (ld.global, cp.async), summed: its L2 -> SM traffic if
					    * its SM's L1 kept what it read */
	char msg[RUN_PATH + 512];          /* one line for the user */
	run_error error;                   /* why emu_run failed, as data (its err is this, written) */
	int nlines;                        /* rows written to emu_options.lines */
	int lines_total;                   /* lines with an instruction (nlines - 1 of them kept when more than max_lines) */
	int local_bytes;                   /* the entry's .local bytes a thread */
	run_printf printed;                /* the kernel's printf lines (the first launch's), also after a fault */
} emu_result;

/* Parses a PTX module. Returns NULL with "file:line: message" in err and,
 * where why is not NULL, the reason in *why: EMU_ERR_PARSE, EMU_ERR_UNSUPPORTED,
 * or EMU_ERR_BAD_REQUEST for a file that cannot be read. */
emu_module *emu_module_load(const char *path, emu_error *why, char *err, int errlen);
emu_module *emu_module_parse(const char *path, const char *text, emu_error *why, char *err, int errlen);
void emu_module_free(emu_module *m);
/* The same with the failure as data (path, line, CUDA line, message) in *e. */
emu_module *emu_module_parse_at(const char *path, const char *text, const char *entry, emu_error *why, run_error *e);
emu_module *emu_module_load_at(const char *path, const char *entry, emu_error *why, run_error *e);
/* Parses the module-level declarations and only the entry named (its
 * whole name, mangled or not; NULL: every entry), so an instruction the
 * emulator does not run in another entry cannot refuse this one. */
emu_module *emu_module_load_entry(const char *path, const char *entry, emu_error *why, char *err, int errlen);
emu_module *emu_module_parse_entry(const char *path, const char *text, const char *entry, emu_error *why, char *err,
				   int errlen);
/* Number of entries and their names (every entry of the file, parsed or not), for tools. */
int emu_module_entries(const emu_module *m, const char **names, int max);
/* "file: no .entry 'x'; its entries: a, b" into err. */
void emu_module_no_entry(const emu_module *m, const char *entry, char *err, int errlen);

/* Runs one launch on the CPU: random A and B (never zeros), C poisoned with NaN,
 * the whole grid warp by warp, then a double-accumulated reference GEMM.
 * Returns EMU_OK when the kernel ran (res->verified says whether it was right),
 * or why it did not, as data in res->error and written (run_error_text,
 * "file:line: message") into err when errlen > 0: a parse error, an
 * unsupported instruction, a fault (out-of-bounds or misaligned access), the
 * instruction budget, a bad request. Re-entrant: no global state; opt may be NULL. */
emu_error emu_run(const run_request *rq, const emu_options *opt, emu_result *res, char *err, int errlen);
/* Whether the emulator refuses the request's types: it runs every pair
 * dtype_pair_check allows (f32, f16 and bf16 inputs), and clusters.
 * Returns 0, or -1 with one line in err that names `what` (e.g. "lesson 10";
 * NULL: the entry); emu_run returns EMU_ERR_UNSUPPORTED then. */
int emu_refuses(const run_request *rq, const char *what, char *err, int errlen);

/* Whether the request's size is past the emulator's limits: a side over
 * EMU_MAX_SIDE, or buffers (inputs, C, the reference) over EMU_MAX_MEMORY.
 * Returns 0, or -1 with one line in err; cheap: ask it before drawing inputs. */
int emu_size_refuses(const run_request *rq, char *err, int errlen);

/* Sum of two count sets (a += b). */
void emu_counts_add(emu_counts *a, const emu_counts *b);
/* A count set as one line's figures (run_line_counts; line and regions 0). */
void emu_counts_line(const emu_counts *c, run_line_counts *out);

#endif
