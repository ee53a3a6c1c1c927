/* emu/backend: the CPU emulator as a run backend — a run request carried out on the CPU instead of the GPU, answered as a run_result (src/exec/backend.c's RUN_BACKEND_EMU row). */
#ifndef PTXTUTOR_EMU_BACKEND_H
#define PTXTUTOR_EMU_BACKEND_H

#include "emu/emu.h"
#include "run/run.h"

/* The result of an emulation that ran to its end (emu_run returned EMU_OK)
 * as a run_result (exec/emulate.c, the RUN_BACKEND_EMU row, runs the
 * emulator with its progress, probe and deadline, and answers through these):
 * statuses as on a GPU — RUN_WRONG for a wrong result or a shared-memory
 * race, RUN_OK when verified; gflops stays 0 (the CPU's speed says nothing
 * about the GPU's).
 * lines: the rows emu_run wrote through emu_options.lines (er->nlines of
 * them, at most RUN_MAX_LINES), or NULL for none; regions come from er. */
void emu_backend_result(const run_request *rq, const emu_result *er, const run_line_counts *lines, run_result *res);

/* An emulation that stopped (emu_run's code and its error: status by the
 * same table, the located problem in where, written once into msg and log)
 * or was refused up front (RUN_EMU_REFUSED: the emulator lacks what the
 * request needs, emu_refuses). */
void emu_backend_failed(const run_request *rq, emu_error why, const run_error *e, run_result *res);
void emu_backend_refused(const run_request *rq, const char *why, run_result *res);

/* Whether the emulator would refuse the request before running it: types or
 * clusters it does not emulate, a size past its limits (emu_size_refuses,
 * asked before the file is parsed; none while M, N or K is 0), or PTX its
 * parser does not read (an instruction
 * or modifier it does not run, a syntax error). Returns 0, or 1 with the reason in *why (file and line
 * when the PTX is at fault). Parses the file: call it once per PTX text. */
int emu_backend_refuses(const run_request *rq, run_error *why);

#endif
