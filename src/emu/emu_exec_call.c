/* emu_exec_call: call and ret of a .func of the module (issue 39): each lane's frames on an explicit, bounded stack, the callee's registers and local bytes saved across a call so recursion finds its caller's values again. */
#include <stdlib.h>
#include <string.h>
#include "emu/emu_exec.h"
#include "base/checked.h"

/* Untrusted PTX may recurse without end: the frames live on the heap, never
 * the host's stack, and stop here with a message. CUDA's default stack of
 * 1 KB a thread holds far fewer. */
#define EMU_MAX_CALL_DEPTH 256
#define EMU_MAX_CALL_SAVE (1 << 20) /* 64-bit words a warp's frames may save (8 MiB) */

typedef struct {
	int ret_pc, call_op;
	size_t save;            /* where its saved words start in the lane's save stack */
} frame;

struct emu_callstack {
	int depth[32];
	frame *f[32];
	int capf[32];
	uint64_t *save[32];
	size_t nsave[32], capsave[32];
	size_t total;           /* words saved, all lanes */
};

int emu_call_depth(const warp *w, int lane)
{
	return w->calls ? w->calls->depth[lane] : 0;
}

void emu_calls_reset(warp *w)
{
	if (!w->calls)
		return;
	memset(w->calls->depth, 0, sizeof w->calls->depth);
	memset(w->calls->nsave, 0, sizeof w->calls->nsave);
	w->calls->total = 0;
}

void emu_calls_free(warp *w)
{
	if (!w->calls)
		return;
	for (int l = 0; l < 32; l++) {
		free(w->calls->f[l]);
		free(w->calls->save[l]);
	}
	free(w->calls);
	w->calls = NULL;
}

/* The words a call of f saves: its registers, then its local bytes. */
static size_t save_words(const emu_func *f)
{
	return (size_t)(f->reg1 - f->reg0) + (size_t)(f->local1 - f->local0 + 7) / 8;
}

static void save_lane(const blockctx *b, const warp *w, const emu_func *f, int l, uint64_t *s)
{
	for (int r = f->reg0; r < f->reg1; r++)
		*s++ = w->R[r * 32 + l];
	if (f->local1 > f->local0)
		memcpy(s, w->local + (size_t)l * (size_t)b->k->local_bytes + (size_t)f->local0, (size_t)(f->local1 - f->local0));
}

static void restore_lane(const blockctx *b, warp *w, const emu_func *f, int l, const uint64_t *s)
{
	for (int r = f->reg0; r < f->reg1; r++)
		w->R[r * 32 + l] = *s++;
	if (f->local1 > f->local0)
		memcpy(w->local + (size_t)l * (size_t)b->k->local_bytes + (size_t)f->local0, s, (size_t)(f->local1 - f->local0));
}

/* The lanes x->em go to their own targets, the others of x->mask to the next
 * instruction; a warp whose lanes part diverges, as at a branch. */
static int go(warp *w, inst *x, const int target[32])
{
	int first = target[__builtin_ctz(x->em)], same = 1;
	for_each_lane(l, x->em) same &= target[l] == first;
	if (same && x->em == x->mask) {
		x->next = first;
		return STEP_NEXT;
	}
	if (!w->diverged) {
		w->diverged = 1;
		for_each_lane(l, w->live) w->lpc[l] = x->pc;
	}
	for_each_lane(l, x->mask) w->lpc[l] = (x->em >> l) & 1 ? target[l] : x->pc + 1;
	return STEP_HOLD;
}

/* call (retval), f, (args): each lane pushes a frame and saves f's registers
 * and local bytes, then the arguments become f's parameters. */
int emu_exec_call(blockctx *b, warp *w, inst *x)
{
	const emu_op *o = x->o;
	if (!x->em)
		return STEP_NEXT;
	const emu_func *f = &b->k->funcs[o->imm];
	if (!w->calls)
		w->calls = xcalloc(1, sizeof *w->calls);
	struct emu_callstack *cs = w->calls;
	const size_t words = save_words(f);
	int target[32];
	for_each_lane(l, x->em) {
		if (cs->depth[l] >= EMU_MAX_CALL_DEPTH)
			return emu_fail(b, o, "call of %.200s: calls nested %d deep in lane %d (recursion without end?), the "
					"emulator's limit", f->name, EMU_MAX_CALL_DEPTH, (int)l);
		if (cs->total + words > EMU_MAX_CALL_SAVE)
			return emu_fail(b, o, "call of %.200s: the warp's calls hold more than %d MiB of saved registers "
					"(recursion too deep?), the emulator's limit", f->name, EMU_MAX_CALL_SAVE / (1 << 17));
		if (cs->depth[l] == cs->capf[l]) {
			cs->capf[l] = cs->capf[l] ? 2 * cs->capf[l] : 8;
			cs->f[l] = xreallocarray(cs->f[l], (size_t)cs->capf[l], sizeof *cs->f[l]);
		}
		if (cs->nsave[l] + words > cs->capsave[l]) {
			cs->capsave[l] = cs->nsave[l] + words > 2 * cs->capsave[l] ? cs->nsave[l] + words : 2 * cs->capsave[l];
			cs->save[l] = xreallocarray(cs->save[l], cs->capsave[l] + 1, sizeof *cs->save[l]);
		}
		cs->f[l][cs->depth[l]++] = (frame){.ret_pc = x->pc + 1, .call_op = x->pc, .save = cs->nsave[l]};
		save_lane(b, w, f, (int)l, cs->save[l] + cs->nsave[l]);
		cs->nsave[l] += words;
		cs->total += words;
		target[l] = f->entry;
	}
	for_each_lane(l, x->em)
		for (int i = 0; i < f->nparams; i++)
			w->R[f->param[i] * 32 + l] = w->R[o->src[i] * 32 + l];
	return go(w, x, target);
}

/* ret in a .func: each lane pops its frame, restores what the call saved and
 * hands its return values to the call's (retval) registers. */
int emu_exec_ret(blockctx *b, warp *w, inst *x)
{
	const emu_op *o = x->o;
	if (!x->em)
		return STEP_NEXT;
	struct emu_callstack *cs = w->calls;
	int target[32];
	for_each_lane(l, x->em) {
		if (!cs || !cs->depth[l])
			return emu_fail(b, o, "ret with no call to return from (lane %d)", (int)l);
		const frame *fr = &cs->f[l][--cs->depth[l]];
		const emu_op *call = &b->ops[fr->call_op];
		const emu_func *f = &b->k->funcs[call->imm];
		uint64_t rv[EMU_MAX_FUNC_RETS];
		for (int i = 0; i < f->nrets; i++)
			rv[i] = w->R[f->ret[i] * 32 + l];
		restore_lane(b, w, f, (int)l, cs->save[l] + fr->save);
		cs->total -= cs->nsave[l] - fr->save;
		cs->nsave[l] = fr->save;
		for (int i = 0; i < call->ndst; i++)
			if (call->dst[i] >= 0)
				w->R[call->dst[i] * 32 + l] = rv[i];
		target[l] = fr->ret_pc;
	}
	return go(w, x, target);
}
