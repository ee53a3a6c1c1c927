/* emu_exec_atom: atom and red in global and shared memory, the warp's votes and reductions (vote, activemask, redux), bfind, copysign and the emulated clock (issue 39). */
#include <math.h>
#include "emu/emu_exec.h"

/* ---- atom, red (PTX ISA 9.7.13.5, 9.7.13.6) ---- */

/* An f32 subnormal as the zero of its sign: atom.add.f32 on global memory
 * flushes its inputs and result (on shared memory it keeps them). */
static float ftz(float v)
{
	return fpclassify(v) == FP_SUBNORMAL ? copysignf(0.0f, v) : v;
}

/* The value an atomic operation leaves in memory, old being what was there
 * and b, c its operands, each as the PTX ISA defines it: inc and dec wrap
 * at b, cas stores c where old equals b. */
static uint64_t atom_apply(const emu_op *o, int global, uint64_t old, uint64_t b, uint64_t c)
{
	const int t = o->type, tb = emu_types[t].bytes, sgn = emu_types[t].kind == 's';
	const uint64_t wm = wmask(tb);
	old &= wm;
	b &= wm;
	switch (o->mod) {
	case ATOM_ADD:
		if (t == ET_F32)
			return global ? FB(ftz(ftz(F(old)) + ftz(F(b)))) : FB(F(old) + F(b));
		if (t == ET_F64)
			return putf(getf(old, t) + getf(b, t), t);
		if (is_half(t))
			return half2(OP_ADD, t, old, b, 0);
		return (old + b) & wm;
	case ATOM_MIN: return (sgn ? sx(old, tb) <= sx(b, tb) : old <= b) ? old : b;
	case ATOM_MAX: return (sgn ? sx(old, tb) >= sx(b, tb) : old >= b) ? old : b;
	case ATOM_INC: return old >= b ? 0 : old + 1;
	case ATOM_DEC: return old == 0 || old > b ? b : old - 1;
	case ATOM_AND: return old & b;
	case ATOM_OR: return old | b;
	case ATOM_XOR: return old ^ b;
	case ATOM_EXCH: return b;
	default: return old == b ? c & wm : old; /* ATOM_CAS */
	}
}

/* Blocks run one at a time and a warp's lanes one after another, so each
 * read-modify-write is whole before the next begins: atomic by
 * construction, the lanes of a warp in lane order. */
int emu_exec_atom(blockctx *b, warp *w, const inst *x)
{
	const emu_op *o = x->o;
	if (!x->em)
		return STEP_NEXT;
	const int tb = emu_types[o->type].bytes;
	uint64_t addr[32];
	uint8_t *p[32];
	int global[32];
	for_each_lane(l, x->em) addr[l] = x->s0[l] + (uint64_t)o->imm;
	if (emu_atom_access(b, w, o, addr, x->em, tb, p, global, x->cnt) < 0) /* race: atomic (the one call point) */
		return STEP_FAIL;
	for_each_lane(l, x->em) {
		uint64_t old = 0;
		memcpy(&old, p[l], (size_t)tb);
		uint64_t v = atom_apply(o, global[l], old, x->s1[l], x->s2[l]);
		memcpy(p[l], &v, (size_t)tb);
		if (x->d)
			x->d[l] = emu_types[o->type].kind == 's' ? (uint64_t)sx(old, tb) : old;
	}
	return STEP_NEXT;
}

/* ---- vote, activemask, redux (9.7.13.7, 9.7.13.9, 9.7.13.10) ---- */

/* The lanes that take part: those running it that its membermask names
 * (a lane that exited is no member any more, as on the GPU). */
void emu_exec_warpop(const inst *x)
{
	const emu_op *o = x->o;
	const uint32_t em = x->em;
	if (!em)
		return;
	if (o->mod == WV_ACTIVEMASK) {
		LANEWISE(x, em);
		return;
	}
	const uint32_t members = em & (uint32_t)x->s1[__builtin_ctz(em)];
	if (o->mod <= WV_UNI) {
		uint32_t yes = 0;
		for_each_lane(l, members) yes |= (uint32_t)((x->s0[l] & 1) ^ ((o->flags & OPF_SRC_NEG) != 0)) << l;
		uint64_t r = o->mod == WV_BALLOT ? yes
			   : o->mod == WV_ANY   ? yes != 0
			   : o->mod == WV_ALL   ? yes == members
						: yes == 0 || yes == members;
		LANEWISE(x, r);
		return;
	}
	const int sgn = o->type == ET_S32;
	uint32_t acc = o->mod == WV_RMIN ? (sgn ? 0x7fffffffu : ~0u) : o->mod == WV_RMAX ? (sgn ? 0x80000000u : 0) :
		       o->mod == WV_RAND ? ~0u : 0;
	for_each_lane(l, members) {
		uint32_t v = (uint32_t)x->s0[l];
		switch (o->mod) {
		case WV_RADD: acc += v; break;
		case WV_RMIN: acc = (sgn ? (int32_t)v < (int32_t)acc : v < acc) ? v : acc; break;
		case WV_RMAX: acc = (sgn ? (int32_t)v > (int32_t)acc : v > acc) ? v : acc; break;
		case WV_RAND: acc &= v; break;
		case WV_ROR: acc |= v; break;
		default: acc ^= v; break;
		}
	}
	LANEWISE(x, acc);
}

/* ---- bfind, copysign ---- */

/* bfind (9.7.1.20): the position of a's most significant non-sign bit
 * (a signed negative a: its most significant 0), or with .shiftamt the left
 * shift that brings it to the top; 0xffffffff when there is none. */
static uint64_t bfind(uint64_t a, int tb, int sgn, int shiftamt)
{
	const int msb = 8 * tb - 1;
	a &= wmask(tb);
	if (sgn && (a >> msb & 1))
		a = ~a & wmask(tb);
	if (!a)
		return 0xffffffffu;
	int pos = 63 - __builtin_clzll(a);
	return (uint64_t)(shiftamt ? msb - pos : pos);
}

void emu_exec_bfind(const inst *x)
{
	const int amt = (x->o->flags & OPF_SHIFTAMT) != 0;
	LANEWISE(x, bfind(a, tb, sgn, amt));
}

/* copysign d, a, b (9.7.3.2): b with a's sign bit; NaNs keep their payload. */
void emu_exec_copysign(const inst *x)
{
	const uint64_t sign = x->t == ET_F64 ? 1ULL << 63 : 1ULL << 31;
	LANEWISE(x, (b & ~sign) | (a & sign));
}

/* ---- %clock, %clock64, %globaltimer ---- */

/* Not time: the warp instructions the launch has run so far (the budget
 * spent), so a run reads the same values every time and a later read never
 * a smaller one. %clock is its low 32 bits; %globaltimer counts it as
 * nanoseconds. */
void emu_exec_clock(blockctx *b, const inst *x)
{
	uint64_t now = (uint64_t)(b->L->max_warp_inst - b->cl->budget);
	if (x->o->mod == CLOCK_32)
		now &= 0xffffffffu;
	LANEWISE(x, now);
}
