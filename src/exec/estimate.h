/* exec/estimate: the time estimate of a run request on a GPU — the emulator runs a few blocks of the
 * real launch (no check), their counts per block go to the model's rule (model/estimate.h); the same
 * blocks traced and replayed on one SM by the stall model give the SM's cycles (exec/estimate_run.h
 * joins the two: exec/stalls.c samples as this module says, so this one cannot reach it). */
#ifndef PTXTUTOR_EXEC_ESTIMATE_H
#define PTXTUTOR_EXEC_ESTIMATE_H

#include "model/estimate.h"
#include "run/run.h"
#include "emu/emu.h"

/* The sample: the first blocks of the grid, a fixed number of them (or the
 * first cluster, when a cluster has more), so the same kernel always gets
 * the same estimate. A GEMM's blocks do the same work; a persistent grid's
 * first block has the most tiles, as the busiest SM does. */
#define EXEC_ESTIMATE_BLOCKS 2
/* emulate --estimate without --size: the size bench times at, and the measured-data file holds. */
#define EXEC_ESTIMATE_SIZE 4096

typedef struct {
	int rc;                     /* 0, or -1 with err */
	char err[320];
	estimate e;
	estimate_input in;
	long long blocks_run;       /* the sample */
	double seconds;             /* its CPU time */
	/* The SM pipes' terms combined the two other ways, the bounds of e.sm_ms (a p = 2 norm between
	 * them, docs/model.md): the largest alone (p = infinity: the pipes overlap fully) and their sum
	 * (p = 1: they take turns). */
	double sm_max_ms, sm_sum_ms;
	/* The stall model's SM (exec/stalls.h), whose cycles set e's latency term: */
	int has_latency;            /* 0: none, latency_why says why, and the root rule stood in */
	char latency_why[320];
	double sm_cycles;           /* one wave of resident blocks, in cycles */
	double waves;
	int blocks_per_sm, regs, regs_assumed;
	int regs_ptxas;             /* 1: regs are ptxas's (a PTX file no lesson recorded them for) */
	double issue_active;        /* issued / (cycles x 4 sub-partitions) */
	double latency_seconds;     /* its CPU time: the traced emulation and the replay */
} exec_estimate_result;

/* The counts: rq's first blocks emulated (no check), per block, into out->in, and the kernel's DRAM
 * bytes. rq->deadline_s bounds the sample's wall time (a block that alone takes longer gives none).
 * Returns out->rc: 0, or -1 with one line in out->err (the emulator could not run it, or the model has
 * no rates for g). out is not cleared: the caller starts it zeroed. The whole estimate, with the stall
 * model's SM, is exec/estimate_run.h's, which takes the counts from the stall model's own traced run
 * of the same blocks (exec_estimate_counts) rather than emulating them twice. */
int exec_estimate_sample(const run_request *rq, const gpu_spec *g, exec_estimate_result *out);
/* Its two halves: whether the model can estimate rq on g at all (before anything runs), and the counts
 * of a sample another caller emulated as EXEC_ESTIMATE_BLOCKS says. Both return out->rc, as above. */
int exec_estimate_supported(const run_request *rq, const gpu_spec *g, exec_estimate_result *out);
int exec_estimate_counts(const run_request *rq, const emu_result *res, exec_estimate_result *out);
/* The model's rule (model/estimate.h) over out->in into out->e, and the SM pipes' max and sum.
 * Returns out->rc, as above. */
int exec_estimate_rule(const gpu_spec *g, exec_estimate_result *out);

#endif
