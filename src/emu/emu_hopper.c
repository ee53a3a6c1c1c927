/* emu_hopper: the mbarrier's phases and pending counts, and the TMA's tiled copies through a tensor map, as the PTX ISA and the CUDA driver define them. */
#include "emu/emu_hopper.h"

#include <stdio.h>
#include <string.h>
#include "base/checked.h"

void emu_mbar_init(emu_mbar *m, uint32_t off, uint32_t count, int line)
{
	*m = (emu_mbar){.off = off, .phase = 0, .pending = (int32_t)count, .expected = (int32_t)count, .line = line};
}

/* A phase completes when its pending arrivals and its tx-count both reach
 * zero; the next one starts with the expected count again (9.7.13.15.2). */
static int complete(emu_mbar *m)
{
	if (m->pending || m->tx)
		return 0;
	m->phase++;
	m->pending = m->expected;
	return 1;
}

int emu_mbar_arrive(emu_mbar *m, uint32_t count)
{
	if ((int64_t)count > m->pending)
		return -1;
	m->pending -= (int32_t)count;
	return complete(m);
}

int emu_mbar_tx(emu_mbar *m, int64_t bytes)
{
	m->tx += bytes;
	return complete(m);
}

uint64_t emu_tmap_check(const emu_tmap *t, const emu_buffer *bufs, int nbufs, char *why, size_t n)
{
	if (t->magic != EMU_TMAP_MAGIC) {
		snprintf(why, n, "the address is no tensor map (pass one with tmap: in the args)");
		return 0;
	}
	if (t->buf >= nbufs || t->rank < 1 || t->rank > 5 || t->swizzle > 3 ||
	    (t->elem != 1 && t->elem != 2 && t->elem != 4 && t->elem != 8)) {
		snprintf(why, n, "the tensor map is corrupt");
		return 0;
	}
	uint64_t bytes = t->elem;
	for (int d = 0; d < t->rank; d++) {
		if (t->box[d] < 1 || t->box[d] > 256 || t->dims[d] < 1 || t->dims[d] > (1ULL << 32)) {
			snprintf(why, n, "the tensor map's box or size %d is out of range", d);
			return 0;
		}
		bytes *= t->box[d];
	}
	uint64_t inner = (uint64_t)t->box[0] * t->elem;
	if (inner % 16 || (t->swizzle && inner > (16u << t->swizzle))) {
		snprintf(why, n, "the box's inner side is %llu bytes: a multiple of 16, at most the swizzle's span",
			 (unsigned long long)inner);
		return 0;
	}
	uint64_t last = t->elem; /* the tensor's last byte, + 1: it must lie in its buffer */
	for (int d = 0; d < t->rank; d++) {
		uint64_t s;
		if (ck_mul_u64(t->dims[d] - 1, t->strides[d], &s) || ck_add_u64(last, s, &last))
			last = UINT64_MAX;
	}
	if (last > bufs[t->buf].bytes) {
		snprintf(why, n, "the tensor map's tensor (%llu bytes) is larger than its buffer (%llu bytes)",
			 (unsigned long long)last, (unsigned long long)bufs[t->buf].bytes);
		return 0;
	}
	if (bytes > EMU_MAX_SMEM) {
		snprintf(why, n, "the box is %llu bytes, more than shared memory holds", (unsigned long long)bytes);
		return 0;
	}
	return bytes;
}

/* One element's global byte offset, or -1 when it lies outside the tensor. */
static int64_t element(const emu_tmap *t, const int64_t p[5])
{
	uint64_t off = 0;
	for (int d = 0; d < t->rank; d++) {
		if (p[d] < 0 || (uint64_t)p[d] >= t->dims[d])
			return -1;
		uint64_t s;
		if (ck_mul_u64((uint64_t)p[d], t->strides[d], &s) || ck_add_u64(off, s, &off) || off > INT64_MAX)
			return -2; /* no real buffer is that large: caught by the bounds check */
	}
	return (int64_t)off;
}

/* The box's elements, innermost dimension first. */
static uint64_t box_count(const emu_tmap *t)
{
	uint64_t count = 1;
	for (int d = 0; d < t->rank; d++)
		count *= t->box[d];
	return count;
}

/* The global element of the box's i-th (element()'s -1: out of the tensor). */
static int64_t box_element(const emu_tmap *t, const int32_t c[5], uint64_t i)
{
	int64_t p[5] = {0};
	for (int d = 0; d < t->rank; d++) {
		p[d] = (int64_t)c[d] + (int64_t)(i % t->box[d]);
		i /= t->box[d];
	}
	return element(t, p);
}

/* Elements i .. i + w - 1 of the box, a row along the innermost dimension, at once:
 * when its first and last elements are in the tensor and the buffer, so is each
 * between (the offset grows with the innermost coordinate, the other coordinates
 * are the row's), the j-th at the first's offset + j strides; copied in runs that
 * are contiguous on both sides. 0; -1 to go element by element (a hole, a fault). */
static int copy_row(const emu_tmap *t, const int32_t c[5], const emu_buffer *buf, uint8_t *smem, uint32_t soff,
		    int store, uint64_t i, uint64_t w)
{
	int64_t g0 = box_element(t, c, i), g1 = box_element(t, c, i + w - 1);
	if (g0 < 0 || g1 < 0 || !ck_within((uint64_t)g1, t->elem, buf->bytes))
		return -1;
	uint32_t e = t->elem;
	uint64_t s0 = t->strides[0];
	for (uint64_t j = 0, run; j < w; j += run) {
		uint32_t s = emu_swizzle(soff + (uint32_t)((i + j) * e), t->swizzle);
		for (run = 1; j + run < w && s0 == e; run++)
			if (emu_swizzle(soff + (uint32_t)((i + j + run) * e), t->swizzle) != s + (uint32_t)(run * e))
				break;
		uint8_t *g = buf->host + (uint64_t)g0 + j * s0;
		if (store)
			memcpy(g, smem + s, run * e);
		else
			memcpy(smem + s, g, run * e);
	}
	return 0;
}

int emu_tmap_copy(const emu_tmap *t, const int32_t c[5], const emu_buffer *buf, uint8_t *smem, uint32_t soff,
		  int store, char *why, size_t n)
{
	uint64_t count = box_count(t), w = t->rank && t->box[0] ? t->box[0] : 1;
	for (uint64_t r = 0; r < count; r += w) {
		if (r + w <= count && copy_row(t, c, buf, smem, soff, store, r, w) == 0)
			continue;
		for (uint64_t i = r; i < r + w && i < count; i++) {
			uint8_t *s = smem + emu_swizzle(soff + (uint32_t)(i * t->elem), t->swizzle);
			int64_t g = box_element(t, c, i);
			if (g == -1) { /* out of the tensor: a load fills zeros, a store writes nothing */
				if (!store)
					memset(s, 0, t->elem);
				continue;
			}
			if (g < 0 || !ck_within((uint64_t)g, t->elem, buf->bytes)) {
				snprintf(why, n, "the tensor map reaches byte %lld of a %llu-byte buffer", (long long)g,
					 (unsigned long long)buf->bytes);
				return -1;
			}
			if (store)
				memcpy(buf->host + g, s, t->elem);
			else
				memcpy(s, buf->host + g, t->elem);
		}
	}
	return 0;
}

void emu_tmap_each(const emu_tmap *t, const int32_t c[5], void (*fn)(void *arg, uint64_t off, int bytes), void *arg)
{
	for (uint64_t i = 0, count = box_count(t); i < count; i++) {
		int64_t g = box_element(t, c, i);
		if (g >= 0)
			fn(arg, (uint64_t)g, t->elem);
	}
}

void emu_tmap_build(emu_tmap *t, int buf, int elem, uint64_t rows, uint64_t cols, const unsigned box[2], int swizzle)
{
	memset(t, 0, sizeof *t);
	t->magic = EMU_TMAP_MAGIC;
	t->buf = (uint8_t)buf;
	t->elem = (uint8_t)elem;
	t->swizzle = (uint8_t)swizzle;
	t->rank = 2;
	t->dims[0] = cols;
	t->dims[1] = rows;
	t->strides[0] = (uint64_t)elem;
	t->strides[1] = cols * (uint64_t)elem;
	t->box[0] = box[0];
	t->box[1] = box[1];
}
