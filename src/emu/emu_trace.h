/* emu_trace: records, for the stall model (model/stalls.h), each warp's issued instructions in the
 * sampled blocks and, for global loads, the 128-byte lines they read. */
#ifndef PTXTUTOR_EMU_TRACE_H
#define PTXTUTOR_EMU_TRACE_H

#include "emu/emu_internal.h"
#include "model/stalls.h"

typedef struct emu_tracer emu_tracer;

/* A recorder into t (stall_trace_init'ed by the caller) for kernel k. */
emu_tracer *emu_tracer_new(stall_trace *t, const emu_kernel *k);
void emu_tracer_free(emu_tracer *tr);
/* The hooks, for warp `warp` of the launch's block `blk` (blocks_done + the CTA's rank): an
 * instruction it issued at pc with the warp's registers R and lanes (run_warp: a bar.sync's number
 * is read there), one it took back (it blocked), a global load's lanes (count_access). Cheap when
 * off: the callers test L->tracer first. */
void emu_trace_issue(emu_tracer *tr, long long blk, int warp, int pc, const uint64_t *R, uint32_t mask);
void emu_trace_unissue(emu_tracer *tr, long long blk, int warp);
void emu_trace_load(emu_tracer *tr, long long blk, int warp, const int64_t addr[32], uint32_t mask, int bytes);
/* After the run: the static ops as the model reads them, with each op's mean work per issue from
 * its counters. */
void emu_trace_ops(const emu_kernel *k, const emu_opcount *cnt, stall_trace *t);

#endif
