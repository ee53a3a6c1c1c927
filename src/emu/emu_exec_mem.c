/* emu_exec_mem: the memory instructions (ld, st, ldmatrix, stmatrix, cp.async), their bounds, the calls into the race shadow (emu_race.h) and the traffic counts. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_exec.h"
#include "emu/emu_race.h"
#include "emu/emu_trace.h"
#include "base/checked.h"
#include "base/util.h"
#include "model/access.h"

static const char *const bufnames[EMU_MAX_BUFS] = {"A", "B", "C", "D"};

/* Global virtual address -> host pointer, or NULL when out of bounds. */
static inline uint8_t *gptr(blockctx *b, uint64_t a, int bytes)
{
	return emu_global_ptr(b->L, a, (uint64_t)bytes);
}

/* tb bytes (1, 2, 4 or 8: a PTX type's size) between memory and the low bytes of a register, with a
 * constant size in each case so the compiler inlines the copy (a variable-size memcpy is a call,
 * on the emulator's hottest path). */
static inline uint64_t mem_get(const uint8_t *p, int tb)
{
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t x = 0;
	switch (tb) { /* each through its own width: a narrow store into x then a wide read of it stalls */
	case 1: memcpy(&b, p, 1); return b;
	case 2: memcpy(&h, p, 2); return h;
	case 4: memcpy(&w, p, 4); return w;
	case 8: memcpy(&x, p, 8); return x;
	default: memcpy(&x, p, (size_t)tb); return x;
	}
}

static inline void mem_put(uint8_t *p, uint64_t x, int tb)
{
	switch (tb) {
	case 1: memcpy(p, &x, 1); break;
	case 2: memcpy(p, &x, 2); break;
	case 4: memcpy(p, &x, 4); break;
	case 8: memcpy(p, &x, 8); break;
	default: memcpy(p, &x, (size_t)tb); break;
	}
}

static void describe_gaddr(blockctx *b, uint64_t a, char *out, size_t n)
{
	uint64_t i = (a >> EMU_GLOBAL_SHIFT) - 1;
	uint64_t off = a & ((1ULL << EMU_GLOBAL_SHIFT) - 1), v = off >> EMU_GLOBAL_VAR_SHIFT;
	if (i < (uint64_t)b->L->nbufs)
		snprintf(out, n, "%s+%llu (buffer holds %llu bytes)", bufnames[i], (unsigned long long)off,
			 (unsigned long long)b->L->bufs[i].bytes);
	else if (a >> EMU_GLOBAL_SHIFT == EMU_GLOBALS_WINDOW >> EMU_GLOBAL_SHIFT && b->L->mod && v < (uint64_t)b->L->mod->ngvars)
		snprintf(out, n, "module-level variable %d+%llu (it holds %llu bytes)", (int)v,
			 (unsigned long long)(off & ((1ULL << EMU_GLOBAL_VAR_SHIFT) - 1)), (unsigned long long)b->L->gvar[v].bytes);
	else
		snprintf(out, n, "0x%llx (not in A, B or C)", (unsigned long long)a);
}

/* ---- counting ---- */

/* Adds one request's counts (model/access.h holds the rules). Shared
 * offsets and global addresses both fit an int64_t. */
/* A shared load of a group ptxas merges (emu_vgroup.c), where every active
 * lane's group starts 16-byte aligned: the first charges the LDS.128's
 * wavefronts, the others none and are folded away. Returns 0 otherwise. */
static int count_merged(emu_opcount *cnt, const emu_op *o, const int64_t addr[32], uint32_t mask)
{
	int64_t lead[32];
	for (int l = 0; l < 32; l++) {
		if (!(mask >> l & 1))
			continue;
		lead[l] = addr[l] - 4 * o->vgroup;
		if (lead[l] & 15)
			return 0;
	}
	if (o->vgroup == 0) {
		access_counts c;
		access_count(ACCESS_SHARED_LOAD, lead, mask, 16, &c);
		cnt->wave_sass += c.wavefronts;
	} else {
		cnt->merged++;
	}
	return 1;
}

static void count_access(blockctx *b, emu_opcount *cnt, const emu_op *o, access_kind kind, const int64_t addr[32],
			 uint32_t mask, int bytes)
{
	access_counts c;
	access_count(kind, addr, mask, bytes, &c);
	if (cnt->rec && cnt->rec->armed)
		emu_record_take(cnt->rec, kind, addr, mask, bytes);
	if (kind == ACCESS_GLOBAL_LOAD || kind == ACCESS_GLOBAL_STORE) {
		cnt->requests++;
		cnt->sectors += c.sectors;
		cnt->bytes += (uint64_t)__builtin_popcount(mask) * (uint64_t)bytes;
		if (kind == ACCESS_GLOBAL_LOAD) {
			cnt->gwave += c.wavefronts;
			if (b->L->footprint)
				emu_footprint_add(&b->fp, addr, mask, bytes);
			if (b->L->tracer)
				emu_trace_load(b->L->tracer, b->L->blocks_done + b->rank, b->cur_warp, addr, mask, bytes);
		}
	} else {
		cnt->bytes2 += (uint64_t)__builtin_popcount(mask) * (uint64_t)(kind == ACCESS_LDMATRIX ? 16 : bytes);
		cnt->requests2++;
		cnt->wavefronts += c.wavefronts;
		cnt->ideal += c.ideal;
		if (!(kind == ACCESS_SHARED_LOAD && o->vgroup >= 0 && count_merged(cnt, o, addr, mask)))
			cnt->wave_sass += c.wavefronts;
	}
}

/* ---- ld, st, ldmatrix, stmatrix ---- */

/* Resolves a lane's ld/st address to a shared offset (returns 1) or a global
 * pointer (returns 0); -1 after an error. Every access is checked against the
 * object it lands in (the block's shared memory, one global buffer) in 64
 * bits that cannot wrap: a negative offset reads as a huge one and fails. */
static inline int resolve(blockctx *b, const emu_op *o, int space, uint64_t a, int bytes, uint32_t *soff, uint8_t **gp)
{
	if (a & (uint64_t)(bytes - 1))
		return emu_fail(b, o, "misaligned %d-byte access at 0x%llx", bytes, (unsigned long long)a);
	if (space == SP_GENERIC) {
		if ((a >> EMU_GLOBAL_SHIFT) == (EMU_SHARED_WINDOW >> EMU_GLOBAL_SHIFT)) {
			space = SP_SHARED;
			a -= EMU_SHARED_WINDOW;
		} else {
			space = SP_GLOBAL;
		}
	}
	if (space == SP_SHARED) {
		if (!ck_within(a, (uint64_t)bytes, b->smem_size))
			return emu_fail(b, o, "out-of-bounds shared access of %d bytes at offset %lld (block has %u bytes)",
				    bytes, (long long)a, b->smem_size);
		*soff = (uint32_t)a;
		return 1;
	}
	*gp = gptr(b, a, bytes);
	if (!*gp) {
		char d[96];
		describe_gaddr(b, a, d, sizeof d);
		int st = o->code == OP_ST || (o->code == OP_WMMA && o->mod == WM_STORE_D);
		return emu_fail(b, o, "out-of-bounds global %s of %d bytes at %s",
				o->code == OP_ATOM ? "atomic" : st ? "store" : "load", bytes, d);
	}
	return 0;
}

int emu_exec_ldst(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	uint64_t *R = w->R;
	int tb = emu_types[o->type].bytes, total = tb * o->vec;
	int is_ld = o->code == OP_LD;
	if (o->space == SP_PARAM) {
		const uint64_t *base = &R[o->src[0] * 32];
		for_each_lane(l, em) {
			uint64_t a = base[l] + (uint64_t)o->imm;
			if (!ck_within(a, (uint64_t)total, (uint64_t)b->k->param_bytes))
				return emu_fail(b, o, "ld.param outside the parameter list");
			for (int v = 0; v < o->vec; v++) {
				uint64_t x = 0;
				memcpy(&x, b->L->param + a + (uint64_t)(v * tb), (size_t)tb);
				if (emu_types[o->type].kind == 's')
					x = (uint64_t)sx(x, tb);
				if (o->dst[v] >= 0)
					R[o->dst[v] * 32 + l] = x;
			}
		}
		return 0;
	}
	int64_t gaddr[32], saddr[32], laddr[32];
	uint32_t gmask = 0, smask = 0, lmask = 0;
	const uint64_t *base = &R[o->src[0] * 32];
	for_each_lane(l, em) {
		uint64_t a = base[l] + (uint64_t)o->imm;
		uint32_t soff = 0;
		uint8_t *gp = NULL;
		blockctx *t = b; /* the CTA whose shared memory it is */
		int local = emu_is_local(o->space, a);
		if (local && (a & (uint64_t)(total - 1)))
			return emu_fail(b, o, "misaligned %d-byte local access at offset %lld", total,
					(long long)(a & ((1ULL << EMU_GLOBAL_SHIFT) - 1)));
		int r = local ? 2
			: o->space == SP_CLUSTER ? ((t = emu_cluster_addr(b, o, a, total, 1, &soff)) ? 1 : -1)
						 : resolve(b, o, o->space, a, total, &soff, &gp);
		if (r < 0)
			return -1;
		uint8_t *p;
		if (r == 2) { /* the thread's own local memory */
			if (!(p = emu_local_ptr(b, w, o, (int)l, a, total)))
				return -1;
			lmask |= 1u << l;
			laddr[l] = (int64_t)(a & ((1ULL << EMU_GLOBAL_SHIFT) - 1));
		} else if (r == 1 && t != b) { /* distributed shared memory: another CTA's, ordered by the cluster's barriers */
			smask |= 1u << l;
			saddr[l] = soff;
			p = t->smem + soff;
			t->cl->gen += !is_ld;
			if (is_ld)
				emu_race_read(t, o, RACE_GW(b->rank, w->id), soff, total);
			else
				emu_race_write(t, o, RACE_GW(b->rank, w->id), soff, total, UINT_MAX); /* fence unknown there: 0 */
		} else if (r == 1) {
			smask |= 1u << l;
			saddr[l] = soff;
			p = b->smem + soff;
			if (is_ld && b->cl->nloads && emu_pending_read(b, o, soff, total) < 0)
				return -1;
			if (is_ld)
				emu_race_read(b, o, RACE_GW(b->rank, w->id), soff, total);
			else
				emu_race_write(b, o, RACE_GW(b->rank, w->id), soff, total, w->fences);
		} else {
			gmask |= 1u << l;
			gaddr[l] = (int64_t)a;
			p = gp;
			emu_race_global(b, o, w->id, a, total, !is_ld);
		}
		for (int v = 0; v < o->vec; v++) {
			if (is_ld) {
				uint64_t x = mem_get(p + v * tb, tb);
				if (emu_types[o->type].kind == 's')
					x = (uint64_t)sx(x, tb);
				if (o->dst[v] >= 0)
					R[o->dst[v] * 32 + l] = x;
			} else {
				mem_put(p + v * tb, R[o->src[1 + v] * 32 + l], tb);
			}
		}
	}
	if (gmask)
		count_access(b, cnt, o, is_ld ? ACCESS_GLOBAL_LOAD : ACCESS_GLOBAL_STORE, gaddr, gmask, total);
	if (smask)
		count_access(b, cnt, o, is_ld ? ACCESS_SHARED_LOAD : ACCESS_SHARED_STORE, saddr, smask, total);
	if (lmask)
		emu_count_local(cnt, laddr, lmask, total);
	return 0;
}

int emu_exec_ldmatrix(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	if (em != 0xffffffffu)
		return emu_fail(b, o, "ldmatrix needs all 32 lanes of the warp (active mask 0x%08x)", em);
	uint64_t *R = w->R;
	uint16_t rows[4][8][8];
	int64_t saddr[32];
	uint32_t amask = (uint32_t)((1ULL << (8 * o->vec)) - 1);
	for (int j = 0; j < o->vec; j++)
		for (int r = 0; r < 8; r++) {
			int lane = j * 8 + r;
			uint64_t a = R[o->src[0] * 32 + lane] + (uint64_t)o->imm;
			uint32_t soff = 0;
			uint8_t *gp = NULL;
			int rc = resolve(b, o, o->space == SP_GENERIC ? SP_GENERIC : SP_SHARED, a, 16, &soff, &gp);
			if (rc < 0)
				return -1;
			if (rc == 0)
				return emu_fail(b, o, "ldmatrix address is not in shared memory");
			saddr[lane] = soff;
			if (b->cl->nloads && emu_pending_read(b, o, soff, 16) < 0)
				return -1;
			memcpy(rows[j][r], b->smem + soff, 16);
			emu_race_read(b, o, RACE_GW(b->rank, w->id), soff, 16);
		}
	int trans = o->flags & OPF_TRANS;
	for (int j = 0; j < o->vec; j++) {
		if (o->dst[j] < 0)
			continue;
		for (int l = 0; l < 32; l++) {
			uint16_t lo, hi;
			if (!trans) {
				lo = rows[j][l / 4][2 * (l % 4)];
				hi = rows[j][l / 4][2 * (l % 4) + 1];
			} else {
				lo = rows[j][2 * (l % 4)][l / 4];
				hi = rows[j][2 * (l % 4) + 1][l / 4];
			}
			R[o->dst[j] * 32 + l] = (uint64_t)lo | ((uint64_t)hi << 16);
		}
	}
	count_access(b, cnt, o, ACCESS_LDMATRIX, saddr, amask, 16);
	return 0;
}

/* stmatrix.m8n8 (9.7.14.5.16): ldmatrix's fragments written back, each 8x8
 * matrix's row r to the address lane 8j + r gives. */
int emu_exec_stmatrix(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	if (em != 0xffffffffu)
		return emu_fail(b, o, "stmatrix needs all 32 lanes of the warp (active mask 0x%08x)", em);
	uint64_t *R = w->R;
	uint16_t rows[4][8][8];
	int trans = o->flags & OPF_TRANS;
	for (int j = 0; j < o->vec; j++)
		for (int l = 0; l < 32; l++) {
			uint32_t v = (uint32_t)R[o->src[1 + j] * 32 + l];
			int r = l / 4, c = 2 * (l % 4);
			if (!trans) {
				rows[j][r][c] = (uint16_t)v;
				rows[j][r][c + 1] = (uint16_t)(v >> 16);
			} else {
				rows[j][c][r] = (uint16_t)v;
				rows[j][c + 1][r] = (uint16_t)(v >> 16);
			}
		}
	int64_t saddr[32];
	for (int j = 0; j < o->vec; j++)
		for (int r = 0; r < 8; r++) {
			int lane = j * 8 + r;
			uint32_t off;
			if (!emu_cluster_addr(b, o, R[o->src[0] * 32 + lane] + R[o->src[5] * 32 + lane], 16, 0, &off))
				return STEP_FAIL;
			saddr[lane] = off;
			memcpy(b->smem + off, rows[j][r], 16);
			emu_race_write(b, o, RACE_GW(b->rank, w->id), off, 16, w->fences);
		}
	count_access(b, cnt, o, ACCESS_LDMATRIX, saddr, (uint32_t)((1ULL << (8 * o->vec)) - 1), 16);
	b->cl->gen++;
	return STEP_NEXT;
}

/* issue 39: wmma.load and wmma.store (emu_wmma.c), a register at a time */
int emu_exec_access(blockctx *b, warp *w, const emu_op *o, int space, int store, const uint64_t addr[32], int bytes,
		    uint64_t val[32], emu_opcount *cnt)
{
	int64_t gaddr[32], saddr[32];
	uint32_t gmask = 0, smask = 0;
	for (int l = 0; l < 32; l++) {
		uint32_t soff = 0;
		uint8_t *gp = NULL;
		int r = resolve(b, o, space, addr[l], bytes, &soff, &gp);
		if (r < 0)
			return -1;
		uint8_t *p = gp;
		if (r == 1) {
			if (!store && b->cl->nloads && emu_pending_read(b, o, soff, bytes) < 0)
				return -1;
			if (store)
				emu_race_write(b, o, RACE_GW(b->rank, w->id), soff, bytes, w->fences);
			else
				emu_race_read(b, o, RACE_GW(b->rank, w->id), soff, bytes);
			p = b->smem + soff;
			smask |= 1u << l;
			saddr[l] = soff;
		} else {
			gmask |= 1u << l;
			gaddr[l] = (int64_t)addr[l];
			emu_race_global(b, o, w->id, addr[l], bytes, store);
		}
		if (store) {
			memcpy(p, &val[l], (size_t)bytes);
		} else {
			val[l] = 0;
			memcpy(&val[l], p, (size_t)bytes);
		}
	}
	if (gmask)
		count_access(b, cnt, o, store ? ACCESS_GLOBAL_STORE : ACCESS_GLOBAL_LOAD, gaddr, gmask, bytes);
	if (smask)
		count_access(b, cnt, o, store ? ACCESS_SHARED_STORE : ACCESS_SHARED_LOAD, saddr, smask, bytes);
	return 0;
}

/* issue 39: atom and red (emu_exec_atom.c) */
int emu_atom_access(blockctx *b, warp *w, const emu_op *o, const uint64_t addr[32], uint32_t mask, int bytes,
		    uint8_t *p[32], int global[32], emu_opcount *cnt)
{
	(void)w; /* the accessing warp, for a race detector that records atomics */
	int64_t gaddr[32], saddr[32];
	uint32_t gmask = 0, smask = 0;
	for_each_lane(l, mask) {
		if (emu_is_local(o->space, addr[l]))
			return emu_fail(b, o, "an atomic on local memory (a thread's own): atom and red take global or shared "
					"addresses");
		uint32_t soff = 0;
		uint8_t *gp = NULL;
		int r = resolve(b, o, o->space, addr[l], bytes, &soff, &gp);
		if (r < 0)
			return -1;
		global[l] = r == 0;
		if (r == 1) {
			if (b->cl->nloads && emu_pending_read(b, o, soff, bytes) < 0)
				return -1;
			/* race: atomic. No shadow_read/shadow_write: atomics never race with each other. */
			p[l] = b->smem + soff;
			smask |= 1u << l;
			saddr[l] = soff;
		} else {
			p[l] = gp;
			gmask |= 1u << l;
			gaddr[l] = (int64_t)addr[l];
		}
	}
	if (gmask)
		count_access(b, cnt, o, ACCESS_GLOBAL_STORE, gaddr, gmask, bytes);
	if (smask)
		count_access(b, cnt, o, ACCESS_SHARED_STORE, saddr, smask, bytes);
	return 0;
}

/* ---- cp.async ---- */

int emu_cp_complete(blockctx *b, warp *w, long long upto_group)
{
	int keep = 0;
	for (int i = 0; i < w->ncp; i++) {
		cpreq *c = &w->cp[i];
		if (c->group < 0 || c->group > upto_group) {
			w->cp[keep++] = *c;
			continue;
		}
		const emu_op *o = &b->ops[c->op];
		uint8_t *src = c->srcsize ? gptr(b, c->gaddr, c->srcsize) : NULL;
		if (c->srcsize && !src) {
			char d[96];
			describe_gaddr(b, c->gaddr, d, sizeof d);
			return emu_fail(b, o, "out-of-bounds cp.async read of %d bytes at %s", c->srcsize, d);
		}
		if (c->srcsize)
			memcpy(b->smem + c->soff, src, c->srcsize);
		if (c->srcsize < c->size)
			memset(b->smem + c->soff + c->srcsize, 0, (size_t)(c->size - c->srcsize));
		emu_race_async_land(b, o, w->id, c->soff, c->size);
	}
	w->ncp = keep;
	return 0;
}

/* cp.async.commit_group: the warp's uncommitted copies become its next group
 * (an empty group still counts). */
void emu_cp_commit(warp *w)
{
	for (int i = 0; i < w->ncp; i++)
		if (w->cp[i].group < 0)
			w->cp[i].group = w->next_group;
	w->next_group++;
}

/* cp.async.wait_group n: every group but the newest n lands; wait_all
 * commits what is left and lands it all. */
int emu_cp_wait(blockctx *b, warp *w, const emu_op *o)
{
	if (o->flags & OPF_WAIT_ALL) {
		emu_cp_commit(w);
		return emu_cp_complete(b, w, INT_MAX);
	}
	return emu_cp_complete(b, w, w->next_group - 1 - o->imm); /* imm: 0..EMU_MAX_WAIT_GROUP */
}

int emu_exec_cpasync(blockctx *b, warp *w, const emu_op *o, uint32_t em, emu_opcount *cnt)
{
	uint64_t *R = w->R;
	int64_t gaddr[32], saddr[32];
	int size = o->vec;
	for_each_lane(l, em) {
		uint64_t sa = R[o->src[0] * 32 + l] + (uint64_t)o->imm;
		uint64_t ga = R[o->src[1] * 32 + l] + R[o->src[2] * 32 + l];
		uint32_t srcsize = (uint32_t)size;
		if (o->flags & OPF_HAS_SRCSZ) {
			/* compared unsigned: 0xffffffff is no -1 that slips under the size */
			srcsize = (uint32_t)R[o->src[3] * 32 + l];
			if (srcsize > (uint32_t)size)
				return emu_fail(b, o, "cp.async src-size %u exceeds the copy size %d", srcsize, size);
		}
		uint32_t soff = 0;
		uint8_t *gp = NULL;
		int rc = resolve(b, o, SP_SHARED, sa, size, &soff, &gp);
		if (rc < 0)
			return -1;
		if (ga & (uint64_t)(size - 1))
			return emu_fail(b, o, "misaligned cp.async source 0x%llx", (unsigned long long)ga);
		if (srcsize && !gptr(b, ga, (int)srcsize)) {
			char d[96];
			describe_gaddr(b, ga, d, sizeof d);
			return emu_fail(b, o, "out-of-bounds cp.async read of %u bytes at %s", srcsize, d);
		}
		if (w->ncp >= EMU_MAX_CP_PENDING) /* a loop of copies never waited for would grow without end */
			return emu_fail(b, o, "more than %d cp.async copies of one warp outstanding (no cp.async.wait_group?)",
				    EMU_MAX_CP_PENDING);
		if (w->ncp >= w->capcp) {
			w->capcp = w->capcp ? 2 * w->capcp : 256;
			w->cp = xreallocarray(w->cp, (size_t)w->capcp, sizeof *w->cp);
		}
		emu_race_async_issue(b, o, w->id, soff, (uint32_t)size);
		w->cp[w->ncp++] = (cpreq){.soff = soff, .gaddr = ga, .size = (uint8_t)size,
					  .srcsize = (uint8_t)srcsize, .group = -1, .op = (int)(o - b->ops)};
		gaddr[l] = (int64_t)ga;
		saddr[l] = soff;
	}
	if (em) {
		count_access(b, cnt, o, ACCESS_GLOBAL_LOAD, gaddr, em, size);
		count_access(b, cnt, o, ACCESS_SHARED_STORE, saddr, em, size);
	}
	return 0;
}
