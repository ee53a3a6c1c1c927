/* emu_footprint: the distinct 32-byte global sectors one CTA reads — what its SM's L1 must fetch
 * from L2 at least once, the L2 -> SM traffic the time estimate charges (model/estimate.h). */
#ifndef PTXTUTOR_EMU_FOOTPRINT_H
#define PTXTUTOR_EMU_FOOTPRINT_H
#include <stddef.h>
#include <stdint.h>

/* An open-addressed set of sector numbers, emptied per CTA by a generation
 * stamp (no clearing pass). Its size is bounded: past EMU_FOOTPRINT_MAX
 * sectors every further sector counts as new (an upper bound, never a
 * smaller footprint), so a PTX file from anywhere cannot grow it without end. */
#define EMU_FOOTPRINT_MAX (1u << 22)

typedef struct {
	uint64_t *key;
	uint32_t *gen;
	size_t cap, n;
	uint32_t cur;
	unsigned long long sectors; /* distinct sectors since the last reset, the overflow included */
} emu_footprint;

void emu_footprint_reset(emu_footprint *f);
/* Adds the sectors of `bytes` bytes at each active lane's address (bit l of mask). */
void emu_footprint_add(emu_footprint *f, const int64_t addr[32], uint32_t mask, int bytes);
void emu_footprint_free(emu_footprint *f);

#endif
