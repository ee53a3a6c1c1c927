/* access: the sectors and shared-memory wavefronts of one warp-wide memory access, the one counter the model and the emulator share. */
#ifndef PTXTUTOR_ACCESS_H
#define PTXTUTOR_ACCESS_H

#include <stdint.h>

/* What one warp-level instruction does with memory. cp.async is a global
 * load (its source) and a shared store (its destination), counted as two. */
typedef enum {
	ACCESS_GLOBAL_LOAD,
	ACCESS_GLOBAL_STORE,
	ACCESS_SHARED_LOAD,
	ACCESS_SHARED_STORE,
	ACCESS_LDMATRIX,     /* each active lane gives one 16-byte row of an 8x8 b16 matrix */
	ACCESS_KIND_COUNT
} access_kind;

/* The most bytes one lane may move (ld.v4 of 64-bit values). */
#define ACCESS_MAX_BYTES 32

/* The counts of one request, as Nsight Compute defines them. */
typedef struct {
	unsigned sectors;    /* global: distinct 32-byte sectors the active lanes touch (0 for shared) */
	unsigned wavefronts; /* shared: passes the banks need; global load: L1 data-stage wavefronts, one per line */
	unsigned ideal;      /* shared: passes with no bank conflict; conflicts = wavefronts - ideal */
} access_counts;

/* Counts one warp-wide access: lane l (bit l of mask set) moves `bytes`
 * bytes from byte address addr[l]; inactive lanes' addresses are not read.
 * Addresses may be any value, negative included (a what-if can make them so).
 *
 * The rules, the same for every caller:
 *  - Global: the distinct 32-byte sectors (address / 32, rounded down) that
 *    the active lanes' bytes fall in (l1tex__t_sectors per request). A
 *    global load also counts its L1 data-stage wavefronts: one per distinct
 *    128-byte line, whatever the lines' addresses (measured on the H100 with
 *    scripts/gpu-l1.sh: 32 lanes one word each 128 B to 64 KiB apart cost 32
 *    l1tex__data_pipe_lsu_wavefronts_mem_lgds per request, 32 B apart 8, a
 *    coalesced 128 B 1; the pipe serves one a cycle per SM). Stores count
 *    sectors only.
 *  - Shared: 32 banks of 4 bytes; word w is in bank w % 32. A request is
 *    served 128 bytes per pass, so lanes go in groups: 32 lanes for accesses
 *    of up to 4 bytes, 16 for 8 bytes, 8 for 16 bytes or more. For a shared
 *    LOAD of more than 4 bytes where every active lane has the same address
 *    as lane l^1 (or every one as lane l^2, when that lane is active), a
 *    group holds twice the lanes: 2 passes instead of 4 for a 16-byte read
 *    that pairs of lanes share (stores never pair). Within a group each bank
 *    delivers one distinct word per pass and lanes reading the same word
 *    share it (a broadcast), so the group needs as many passes as its
 *    busiest bank has distinct words. Wavefronts: the sum over the groups
 *    with an active lane; ideal: the number of those groups.
 *  - ldmatrix: each active lane gives a 16-byte row (bytes is ignored): one
 *    group per 8 lanes, i.e. one pass per 8x8 matrix when its rows fall in
 *    distinct banks; no pairing.
 * Returns 0, or -1 (out zeroed) for bytes outside 1..ACCESS_MAX_BYTES or an
 * unknown kind. */
int access_count(access_kind kind, const int64_t addr[32], uint32_t mask, int bytes, access_counts *out);

#endif
