/* exec/emulate: the CPU emulator's row of the backend table — a request run on the CPU, admitted by its probe, with progress and Ctrl-C, answered as a run_result with the counts by kind. */
#ifndef PTXTUTOR_EXEC_EMULATE_H
#define PTXTUTOR_EXEC_EMULATE_H

#include "exec/run_opts.h"
#include "run/run.h"

/* The probe: the emulator's rate is measured once the first blocks took this
 * long, and launch_admit decides whether the whole run fits its deadline. */
#define EXEC_PROBE_S 0.1

/* The RUN_BACKEND_EMU row's run (exec_run_with calls it): parses and runs
 * the request's PTX on the CPU, verifies C against the CPU reference and
 * fills res->emu with the counts (statuses: emu/backend.h), and the emulator stopped at rq->deadline_s (RUN_TIMEOUT), by the
 * probe when the estimate is past it (RUN_TIMEOUT, saying so), or by
 * opt->cancel (RUN_CANCELLED, the blocks done said). */
void exec_emulate(const run_request *rq, const exec_run_opts *opt, run_result *res);

#endif
