/* emu_vgroup: the scalar shared loads ptxas merges into one LDS.128, found once per kernel, so that
 * the counts the time estimate reads are the hardware's. nvcc unrolls `acc += As[r][k] * ...` into
 * ld.shared.f32 [%r], [%r+4], [%r+8], [%r+12], ...; ptxas proves the base 16-byte aligned and loads
 * four words a lane at once. Measured on the H100 with the held-out kernel tiled_conflict: Nsight
 * Compute counted 5/8 of the PTX's shared loads and 9 wavefronts per k per warp, what this rule
 * gives (docs/model.md). */
#include <stdlib.h>
#include "emu/emu_internal.h"
#include "base/util.h"

/* How far a group may spread: nvcc puts a group's loads within a few instructions of each other. */
#define VGROUP_WINDOW 64

static int scalar_shared_load(const emu_op *o)
{
	return o->code == OP_LD && o->space == SP_SHARED && o->vec == 1 && emu_types[o->type].bytes == 4 &&
	       o->pred < 0 && o->vgroup < 0;
}

/* Code ptxas schedules loads across: arithmetic and other loads. A store,
 * a barrier, a branch or anything asynchronous ends the run. */
static int plain(const emu_op *o)
{
	switch (o->code) {
	case OP_ST: case OP_BAR: case OP_BRA: case OP_EXIT: case OP_TRAP: case OP_CPASYNC: case OP_CPCOMMIT:
	case OP_CPWAIT: case OP_WGMMA: case OP_WGFENCE: case OP_WGCOMMIT: case OP_WGWAIT: case OP_MBAR:
	case OP_BULK: case OP_CLUSTER: case OP_STMATRIX: case OP_SHFL:
	case OP_ATOM: case OP_CALL: case OP_RET: case OP_WARP: /* issue 39 */
		return 0;
	default:
		return 1;
	}
}

static int writes(const emu_op *o, int reg)
{
	for (int d = 0; d < o->ndst && d < 4; d++)
		if (o->dst[d] == reg)
			return 1;
	return 0;
}

void emu_mark_vgroups(emu_kernel *k)
{
	char *target = xcalloc((size_t)k->nops + 1, 1);
	for (int i = 0; i < k->nops; i++)
		if (k->ops[i].code == OP_BRA && k->ops[i].imm >= 0 && k->ops[i].imm <= k->nops)
			target[k->ops[i].imm] = 1;
	for (int i = 0; i < k->nops; i++) {
		const emu_op *lead = &k->ops[i];
		if (!scalar_shared_load(lead) || lead->imm % 16 != 0)
			continue;
		int found[4] = {i, -1, -1, -1};
		for (int j = i + 1; j < k->nops && j <= i + VGROUP_WINDOW && !target[j]; j++) {
			const emu_op *o = &k->ops[j];
			if (!plain(o))
				break;
			long long d = o->imm - lead->imm;
			if (scalar_shared_load(o) && o->src[0] == lead->src[0] && (d == 4 || d == 8 || d == 12) &&
			    found[d / 4] < 0)
				found[d / 4] = j;
			if (writes(o, lead->src[0]))
				break;
		}
		if (found[1] < 0 || found[2] < 0 || found[3] < 0)
			continue;
		for (int g = 0; g < 4; g++)
			k->ops[found[g]].vgroup = (int8_t)g;
	}
	free(target);
}
