/* exec/stalls: a sampled emulation traced warp by warp and replayed by the stall model
 * (model/stalls.h): why each PTX line waits, on one SM of the GPU, offline. */
#ifndef PTXTUTOR_EXEC_STALLS_H
#define PTXTUTOR_EXEC_STALLS_H

#include "exec/job.h"
#include "model/devices.h"
#include "model/stalls.h"
#include "run/run.h"
#include "emu/emu.h"

/* The SM clock the replay ran at (stall_config.clock_mhz: the L2's and DRAM's latencies and the copy
 * engine's bytes a cycle follow it): the power model's for the kernel's work (its highest clock, or
 * the cap's), given (--clock), or, with no power rows, the params' typical one. */
typedef enum { EXEC_CLOCK_TYPICAL, EXEC_CLOCK_POWER, EXEC_CLOCK_GIVEN } exec_stalls_clock;
extern const char *const exec_stalls_clock_keys[];  /* "typical", "power", "given" (JSON) */
extern const char *const exec_stalls_clock_names[]; /* for the text report */

typedef struct {
	int rc;                      /* 0, or -1 with err */
	char err[320];
	stall_result r;              /* stall_result_free it (exec_stalls_free) */
	stall_params p;
	stall_config c;
	int regs;                    /* registers a thread the occupancy used */
	int regs_assumed;            /* 1: not known, EXEC_STALLS_REGS assumed */
	int regs_ptxas;              /* 1: ptxas's for a PTX file no lesson recorded them for */
	long long blocks_run;        /* blocks emulated (the trace holds up to STALL_MAX_BLOCKS) */
	int cut;                     /* the trace hit STALL_MAX_RECS: the warps' tails are missing */
	double emu_seconds, model_seconds;
	const emu_result *emu;        /* the traced run's counts (static: until the next exec_stalls), or NULL */
	double dram_rereads;         /* bytes DRAM brings again: an operand the L2 cannot keep between rows of blocks */
	int debug_sass;              /* c.debug: 1 replayed as its SASS issues (several a PTX instruction), 0 its
				      * SASS unknown (no recording, toolkit or disassembler): one a PTX instruction */
	exec_stalls_clock clock_from; /* where c.clock_mhz came from */
} exec_stalls_result;

/* The registers a thread assumed when the kernel's are not known (a PTX file without a recorded value). */
#define EXEC_STALLS_REGS 64

/* Traces rq's first blocks (as the estimate samples them: exec/estimate.h) and replays them on one SM
 * of g with `regs` registers a thread (0: not known). Returns out->rc. */
int exec_stalls(const run_request *rq, const gpu_spec *g, int regs, exec_stalls_result *out);
/* The same at an SM clock of mhz (0: the power model's, as exec_stalls). */
int exec_stalls_at(const run_request *rq, const gpu_spec *g, int regs, double mhz, exec_stalls_result *out);
void exec_stalls_free(exec_stalls_result *out);

/* What the tutor shows of a result, as plain data of a fixed size (a job's answer, exec/job.h): the
 * totals, and the lines by PTX line, ascending (the first EXEC_STALLS_LINES; lines_cut says more were). */
#define EXEC_STALLS_LINES 4096
typedef struct {
	int line;
	int top;                       /* stall_reason */
	float cyc[STALL_NREASONS];     /* warp cycles charged */
	float issued;
	int for_line[STALL_FOR];       /* the lines whose results it waited for, the longest first (stall_line) */
} exec_stalls_line;
typedef struct {
	int rc;                        /* 0, or -1 with err */
	char err[320];
	double total[STALL_NREASONS], warp_cycles, issue_active, ms;
	int warps, blocks_per_sm, regs, regs_assumed, trace_cut;
	int nlines, lines_cut;
	exec_stalls_line lines[EXEC_STALLS_LINES];
} exec_stalls_brief;

/* exec_stalls into b (all of b written). Returns b->rc. */
int exec_stalls_brief_run(const run_request *rq, const gpu_spec *g, int regs, exec_stalls_brief *b);

/* The same in a child process, for the tutor: its screen stays live while the blocks run. */
typedef struct {
	exec_job job;
	run_request rq;                /* what the child runs: its deadline */
	double started;
	exec_stalls_brief out;
} exec_stalls_job;

/* Returns 0, or -1 when the child could not start (out says so). */
int exec_stalls_job_start(exec_stalls_job *j, const run_request *rq, const gpu_spec *g, int regs);
/* 1 with j->out (rc -1 and err if the child died or was killed at exec_kill_after), 0 while it runs. */
int exec_stalls_job_poll(exec_stalls_job *j);

#endif
