/* regbanks: what a kernel's FFMAs cost the register file on sm_90, from its SASS — the model fitted to
 * the H100's measurements (docs/benchmarks.md "Register banks", scripts/gpu-regbanks.py, which
 * measures it and holds the same model): two banks by the parity of a register's number, each reads
 * one register a cycle; an operand from the reuse cache costs no read, and the cache keeps one value
 * per operand slot and bank (set by .reuse, dropped when that slot reads that bank without the flag);
 * an instruction's reads may start while the three before it still wait. Pure. */
#ifndef PTXTUTOR_REGBANKS_H
#define PTXTUTOR_REGBANKS_H

#include "course/sass.h"

/* One FFMA's source registers and reuse flags (bit 0: a, 1: b, 2: c). */
typedef struct {
	int a, b, c, reuse;
} regbank_ffma;

/* Cycles per FFMA of a stream issued back to back (at least 1); 0 for an empty one. */
double regbank_stream_cycles(const regbank_ffma *f, int n);

/* The kernel's FFMAs (register form, in address order) as gpu-regbanks.py replays them: in pieces of
 * 256, the mean of the pieces' cycles per FFMA (the whole stream when shorter); 1 when it has none. */
double regbank_ffma_cycles(const sass_kernel *k);

#endif
