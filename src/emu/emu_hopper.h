/* emu_hopper: the pure parts of Hopper's asynchronous machinery — the mbarrier's phase arithmetic and the TMA's tensor-map walk with its swizzles. */
#ifndef PTXTUTOR_EMU_HOPPER_H
#define PTXTUTOR_EMU_HOPPER_H

#include <stddef.h>
#include <stdint.h>
#include "emu/emu_internal.h"

/* An mbarrier object (PTX ISA 9.7.13.15.1-2): the current phase, its pending
 * arrival count, the expected count every phase starts with, and the
 * transaction count (tx-count: bytes expected minus bytes completed). */
typedef struct {
	uint32_t off;          /* where it sits in its CTA's shared memory */
	uint32_t phase;        /* the current (incomplete) phase, counted from 0 */
	int32_t pending, expected;
	int64_t tx;
	int line;              /* of its mbarrier.init */
} emu_mbar;

/* The largest arrival count and tx-count, as the PTX ISA gives them. */
#define EMU_MBAR_MAX_COUNT ((1 << 20) - 1)

void emu_mbar_init(emu_mbar *m, uint32_t off, uint32_t count, int line);
/* count arrivals; 1 when they complete the phase, -1 when more arrive than are pending. */
int emu_mbar_arrive(emu_mbar *m, uint32_t count);
/* expect_tx (+bytes) or complete_tx (-bytes); 1 when that completes the phase. */
int emu_mbar_tx(emu_mbar *m, int64_t bytes);
/* Has the phase of this parity completed, i.e. is the current phase's parity the other one? */
static inline int emu_mbar_parity_done(const emu_mbar *m, uint32_t parity)
{
	return (m->phase & 1) != (parity & 1);
}

/* The byte at shared offset off as a swizzled copy places it: the 16-byte
 * chunk index (bits 4-6) XORed with the 128-byte row (bits 7-9), one, two or
 * three bits of it for the 32B, 64B and 128B modes (CUTLASS's Swizzle<B,4,3>). */
static inline uint32_t emu_swizzle(uint32_t off, int mode)
{
	static const uint32_t mask[4] = {0, 1, 3, 7};
	return off ^ (((off >> 7) & mask[mode & 3]) << 4);
}

/* The box's bytes; 0 when the map is not one a copy may use, with why. */
uint64_t emu_tmap_check(const emu_tmap *t, const emu_buffer *bufs, int nbufs, char *why, size_t n);

/* Copies the box at coordinates c between the tensor (global) and shared
 * memory at soff: a load fills out-of-bounds elements with zeros, a store
 * skips them. The map was checked; every element's global address is checked
 * against its buffer here. Returns 0, or -1 with why. */
/* Calls fn for each element of the box at c inside the tensor: its byte
 * offset in the buffer and its size (the copy's walk, for the race shadow). */
void emu_tmap_each(const emu_tmap *t, const int32_t c[5], void (*fn)(void *arg, uint64_t off, int bytes), void *arg);
int emu_tmap_copy(const emu_tmap *t, const int32_t c[5], const emu_buffer *buf, uint8_t *smem, uint32_t soff,
		  int store, char *why, size_t n);

/* The tensor map build_params writes for a tmap:M:INNER:OUTER:SWIZZLE item
 * over a rows x cols matrix of elem-byte elements in buffer buf. */
void emu_tmap_build(emu_tmap *t, int buf, int elem, uint64_t rows, uint64_t cols, const unsigned box[2], int swizzle);

#endif
