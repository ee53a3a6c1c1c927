/* emu_race: the race detector: the shared-memory shadow (per word: the last writer, the readers, a cp.async in flight, a TMA load's mbarrier phase, the cluster phase), the global shadow between blocks, warp member masks, and the one place a race is reported. */
#ifndef PTXTUTOR_EMU_RACE_H
#define PTXTUTOR_EMU_RACE_H

#include <stddef.h>
#include <stdint.h>
#include "emu/emu_exec.h"

/* What a report is about; its message's first words are emu_race_words'. */
typedef enum {
	RACE_BARRIER,  /* two warps' ordinary accesses in one barrier interval */
	RACE_ASYNC,    /* an access to bytes an asynchronous copy may still be writing */
	RACE_WAR,      /* an asynchronous copy into bytes another warp may still be reading */
	RACE_PROXY,    /* generic-proxy writes read through the async proxy with no fence.proxy.async */
	RACE_CLUSTER,  /* another CTA's shared memory with no barrier.cluster between */
	RACE_BLOCKS,   /* two blocks and the same global bytes */
	RACE_WARPMASK, /* a .sync member mask that leaves out a lane that runs it, or names one that does not */
	RACE_KINDS
} race_kind;

/* The wep of a word that an asynchronous copy in flight will write: every
 * access to it races, until the wait that retires the copy. */
#define RACE_PENDING UINT32_MAX
/* The wep of a word a TMA load wrote: a warp's access to it races until the
 * warp has observed the mbarrier phase the copy completed (amb, aep). */
#define RACE_LANDED (UINT32_MAX - 1)
/* The rwarp of a word read by several warps since the last barrier. */
#define RACE_SEVERAL 0xffff
/* A warp's id in the shadow: its CTA's rank in the cluster, then the warp (at most 32 a block). */
#define RACE_GW(rank, w) ((rank) * 64 + (w))

/* A kind's first words in a message ("shared-memory race (async copy)"): one table, emu_race.c's. */
const char *emu_race_words(race_kind k);

/* Counts a race and, for the first, fills L->race: the line of o, the block
 * b, warp w (-1: not known), the other access's op (-1: none), the message:
 * the kind's words, ": ", then fmt's text. */
void emu_race_report(blockctx *b, const emu_op *o, int w, int other_op, race_kind k, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* "warp N" for a shadow's warp (RACE_GW), "several warps" for RACE_SEVERAL: the other side of a message. */
const char *emu_race_who(int gw, char *buf, size_t n);

/* The slow paths of the inline checks below: classify and report. */
void emu_race_shared_hit(blockctx *t, const emu_op *o, int gw, uint32_t word, int write);
void emu_race_cluster(blockctx *t, const emu_op *o, int gw, uint32_t word, int write);

/* An ordinary read or write of bytes off..off+bytes-1 of t's shared memory
 * by warp gw (RACE_GW: t's own or another CTA's of the cluster). */
static inline void emu_race_read(blockctx *t, const emu_op *o, int gw, uint32_t off, int bytes)
{
	if (t->norace)
		return;
	for (uint32_t word = off >> 2; word <= (off + (uint32_t)bytes - 1) >> 2; word++) {
		uint32_t we = t->wep[word];
		if ((we == t->epoch && t->wwarp[word] != gw) || we >= RACE_LANDED)
			emu_race_shared_hit(t, o, gw, word, 0);
		if (t->wcp)
			emu_race_cluster(t, o, gw, word, 0);
		if (t->rep[word] != t->epoch) {
			t->rep[word] = t->epoch;
			t->rwarp[word] = (uint16_t)gw;
			t->rop[word] = (int32_t)(o - t->ops);
		} else if (t->rwarp[word] != gw) {
			t->rwarp[word] = RACE_SEVERAL;
		}
	}
}

static inline void emu_race_write(blockctx *t, const emu_op *o, int gw, uint32_t off, int bytes, unsigned fences)
{
	if (t->norace)
		return;
	for (uint32_t word = off >> 2; word <= (off + (uint32_t)bytes - 1) >> 2; word++) {
		uint32_t we = t->wep[word];
		if ((we == t->epoch && t->wwarp[word] != gw) || we >= RACE_LANDED ||
		    (t->rep[word] == t->epoch && t->rwarp[word] != gw))
			emu_race_shared_hit(t, o, gw, word, 1);
		if (t->wcp)
			emu_race_cluster(t, o, gw, word, 1);
		t->wep[word] = t->epoch;
		t->wwarp[word] = (uint16_t)gw;
		t->wop[word] = (int32_t)(o - t->ops);
		t->gfence[word] = fences + 1;
	}
}

/* An asynchronous copy by warp w into b's bytes off..: issued (it races with
 * the reads and writes of other warps since the last barrier, and marks the
 * bytes in flight), then landed by the wait that retires it (the bytes are
 * w's write in the barrier interval of the wait). */
void emu_race_async_issue(blockctx *b, const emu_op *o, int w, uint32_t off, uint32_t bytes);
void emu_race_async_land(blockctx *b, const emu_op *o, int w, uint32_t off, uint32_t bytes);

/* The launch's global shadow (emu_race.c): a page table per buffer. */
struct emu_gshadow {
	struct gunit **page[EMU_MAX_BUFS];
	size_t npage[EMU_MAX_BUFS];
	int nbufs, used;
	unsigned watched;         /* buffers whose reads are checked: C's, and any with a page */
};

/* A global access by warp w of b: the launch's global shadow remembers, for
 * each 2-byte unit written, the last block that wrote it and the blocks
 * that read it, and reports two blocks that meet there. A read of a buffer
 * nobody wrote (A, B) costs a test. */
void emu_race_global_at(blockctx *b, const emu_op *o, int w, uint64_t addr, int bytes, int write);
static inline void emu_race_global(blockctx *b, const emu_op *o, int w, uint64_t addr, int bytes, int write)
{
	const struct emu_gshadow *g = b->gs;
	if (g && (write || (g->watched >> (((addr >> EMU_GLOBAL_SHIFT) - 1) & 31) & 1)))
		emu_race_global_at(b, o, w, addr, bytes, write);
}

/* Are the checks off (PTXTUTOR_NO_RACE=1, to measure what they cost)? */
int emu_race_off(void);

#endif
