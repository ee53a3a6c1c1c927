/* emu_footprint: the distinct global sectors a CTA reads (see emu_footprint.h). */
#include <stdlib.h>
#include "emu/emu_footprint.h"
#include "base/util.h"

static size_t slot_of(uint64_t s, size_t cap)
{
	return (size_t)((s * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

static void grow(emu_footprint *f)
{
	emu_footprint g = {.cap = f->cap ? 2 * f->cap : 4096, .cur = 1};
	g.key = xcalloc(g.cap, sizeof *g.key);
	g.gen = xcalloc(g.cap, sizeof *g.gen);
	for (size_t i = 0; i < f->cap; i++) {
		if (f->gen[i] != f->cur)
			continue;
		size_t j = slot_of(f->key[i], g.cap);
		while (g.gen[j] == 1)
			j = (j + 1) & (g.cap - 1);
		g.gen[j] = 1;
		g.key[j] = f->key[i];
	}
	free(f->key);
	free(f->gen);
	f->key = g.key, f->gen = g.gen, f->cap = g.cap, f->cur = 1;
}

void emu_footprint_reset(emu_footprint *f)
{
	f->n = 0;
	f->sectors = 0;
	if (++f->cur == 0) { /* the stamp wrapped: clear once */
		for (size_t i = 0; i < f->cap; i++)
			f->gen[i] = 0;
		f->cur = 1;
	}
}

static void add_one(emu_footprint *f, uint64_t s)
{
	if (f->n >= EMU_FOOTPRINT_MAX) {
		f->sectors++;
		return;
	}
	if (2 * (f->n + 1) > f->cap)
		grow(f);
	size_t j = slot_of(s, f->cap);
	for (; f->gen[j] == f->cur; j = (j + 1) & (f->cap - 1))
		if (f->key[j] == s)
			return;
	f->gen[j] = f->cur;
	f->key[j] = s;
	f->n++;
	f->sectors++;
}

void emu_footprint_add(emu_footprint *f, const int64_t addr[32], uint32_t mask, int bytes)
{
	uint64_t last = UINT64_MAX;
	for (int l = 0; l < 32; l++) {
		if (!(mask >> l & 1))
			continue;
		uint64_t first = (uint64_t)addr[l] >> 5, end = ((uint64_t)addr[l] + (uint64_t)bytes - 1) >> 5;
		for (uint64_t s = first; s <= end; s++)
			if (s != last) /* neighbouring lanes mostly share a sector: skip the lookup */
				add_one(f, last = s);
	}
}

void emu_footprint_free(emu_footprint *f)
{
	free(f->key);
	free(f->gen);
	*f = (emu_footprint){0};
}
