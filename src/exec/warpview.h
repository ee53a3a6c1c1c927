/* exec/warpview: a warp's view of one memory access — the 32 lanes' addresses of a PTX line as one warp executes it once (recorded by the emulator), the sectors and lines or banks they fall in, and the count model/access.c makes of them, as rows of text every screen shows. */
#ifndef PTXTUTOR_EXEC_WARPVIEW_H
#define PTXTUTOR_EXEC_WARPVIEW_H

#include <stdint.h>

#include "model/access.h"
#include "run/run.h"

/* One execution of a memory line by one warp: asked (line, block, warp,
 * nth) and what the emulator recorded. */
typedef struct {
	int line;                 /* 1-based PTX line */
	unsigned block[3];
	int warp;                 /* of the block */
	long long nth;            /* 0: the warp's first execution of the line */
	int found;                /* 0: the warp never executed it that often (executions says how often) */
	long long executions;     /* times that warp executes the line in that block */
	int kind;                 /* access_kind */
	int bytes;                /* per lane */
	int buffer;               /* global: 0 A, 1 B, 2 C; -1 shared */
	uint32_t mask;            /* lanes that took part */
	int64_t addr[32];         /* byte offsets (in the buffer, or in shared memory) */
	access_counts counts;     /* model/access.c's count of it */
} exec_warp_access;

/* Runs the request on the CPU emulator up to the end of the asked block
 * (no check, seconds at most) and records wa's access. Returns 0 (found or
 * not: wa->found), or -1 with one line in err (no memory access on the
 * line, a block or warp outside the launch, the emulator's own error). */
int exec_warp_record(const run_request *rq, exec_warp_access *wa, char *err, int errlen);

#define EXEC_WARP_COLS 96
#define EXEC_WARP_ROWS 12
/* The view as text rows (ASCII, at most EXEC_WARP_COLS - 1 wide): the
 * execution, a lane -> sector (or bank) strip, the lines or the banks'
 * load, conflicts (!) and broadcasts (*), and the count. Returns the rows. */
int exec_warp_rows(const exec_warp_access *wa, char rows[][EXEC_WARP_COLS], int max);

#endif
