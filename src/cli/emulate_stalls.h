/* emulate_stalls: `ptxtutor emulate ... --stalls`, why each line waits, as text, JSON or CSV. */
#ifndef PTXTUTOR_EMULATE_STALLS_H
#define PTXTUTOR_EMULATE_STALLS_H

#include "cli/cli.h"
#include "cli/launch_opts.h"
#include "run/run.h"

/* Runs the stall model on rq (regs: the lesson's recorded registers a thread, 0 unknown) and prints
 * it as o asks. Returns the exit status. */
int cli_emulate_stalls(const cli_command *self, const cli_launch *o, const run_request *rq, int regs);

#endif
