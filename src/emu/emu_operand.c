/* emu_operand: the emulator's operands — declared, special and constant registers, scalars, vectors {a, b} and addresses [base+off]. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_parser.h"
#include "base/checked.h"
#include "base/util.h"

static const char *const special_names[SPEC_COUNT] = {
	[SPEC_TID_X] = "%tid.x", [SPEC_TID_Y] = "%tid.y", [SPEC_TID_Z] = "%tid.z",
	[SPEC_NTID_X] = "%ntid.x", [SPEC_NTID_Y] = "%ntid.y", [SPEC_NTID_Z] = "%ntid.z",
	[SPEC_CTAID_X] = "%ctaid.x", [SPEC_CTAID_Y] = "%ctaid.y", [SPEC_CTAID_Z] = "%ctaid.z",
	[SPEC_NCTAID_X] = "%nctaid.x", [SPEC_NCTAID_Y] = "%nctaid.y", [SPEC_NCTAID_Z] = "%nctaid.z",
	[SPEC_LANEID] = "%laneid", [SPEC_WARPID] = "%warpid", [SPEC_NWARPID] = "%nwarpid",
	[SPEC_CLUSTER_CTARANK] = "%cluster_ctarank", [SPEC_CLUSTER_NCTARANK] = "%cluster_nctarank",
	[SPEC_CLUSTERID_X] = "%clusterid.x", [SPEC_CLUSTERID_Y] = "%clusterid.y", [SPEC_CLUSTERID_Z] = "%clusterid.z",
	[SPEC_NCLUSTERID_X] = "%nclusterid.x", [SPEC_NCLUSTERID_Y] = "%nclusterid.y",
	[SPEC_NCLUSTERID_Z] = "%nclusterid.z",
	[SPEC_CLUSTER_CTAID_X] = "%cluster_ctaid.x", [SPEC_CLUSTER_CTAID_Y] = "%cluster_ctaid.y",
	[SPEC_CLUSTER_CTAID_Z] = "%cluster_ctaid.z",
	[SPEC_CLUSTER_NCTAID_X] = "%cluster_nctaid.x", [SPEC_CLUSTER_NCTAID_Y] = "%cluster_nctaid.y",
	[SPEC_CLUSTER_NCTAID_Z] = "%cluster_nctaid.z",
	[SPEC_IS_EXPLICIT_CLUSTER] = "%is_explicit_cluster",
};

/* ---- registers ---- */

int emu_new_reg(emu_pstate *ps, uint64_t konst, int is_const)
{
	emu_kernel *k = ps->k;
	if (k->nregs >= EMU_MAX_REGS) /* declarations check first; constants and special registers end here */
		return emu_punsup(ps, ps->line, "more than %d registers in '%s' (the emulator's limit)", EMU_MAX_REGS,
				  k->name);
	if (k->nregs >= ps->capregs) {
		ps->capregs = ps->capregs ? 2 * ps->capregs : 64;
		k->konst = xreallocarray(k->konst, (size_t)ps->capregs, sizeof(*k->konst));
		k->is_const = xrealloc(k->is_const, (size_t)ps->capregs);
	}
	k->konst[k->nregs] = konst;
	k->is_const[k->nregs] = (uint8_t)is_const;
	return k->nregs++;
}

int emu_const_reg(emu_pstate *ps, uint64_t v)
{
	emu_kernel *k = ps->k;
	/* Constants are few per kernel; a linear search keeps this simple. */
	for (int i = 0; i < k->nregs; i++)
		if (k->is_const[i] == 1 && k->konst[i] == v)
			return i;
	return emu_new_reg(ps, v, 1);
}

const emu_regdecl *emu_find_regdecl(emu_pstate *ps, const char *name, int *index)
{
	for (int i = 0; i < ps->nregdecl; i++) {
		const emu_regdecl *r = &ps->regs[i];
		if (r->count == 0) {
			if (!strcmp(r->name, name)) {
				*index = 0;
				return r;
			}
			continue;
		}
		size_t pl = strlen(r->name);
		if (strncmp(r->name, name, pl) || !isdigit((unsigned char)name[pl]))
			continue;
		char *end;
		long n = strtol(name + pl, &end, 10);
		if (*end || n < 0 || n >= r->count)
			continue;
		if (name[pl] == '0' && name[pl + 1]) /* %r01 is not %r1 */
			continue;
		*index = (int)n;
		return r;
	}
	return NULL;
}

static int find_shared(emu_pstate *ps, const char *name, int *is_extern)
{
	const emu_shlist *scopes[] = {&ps->shared, &ps->mshared}; /* the entry's hide the module's */
	for (size_t s = 0; s < ARRAY_LEN(scopes); s++)
		for (int i = 0; i < scopes[s]->n; i++)
			if (!strcmp(scopes[s]->v[i].name, name)) {
				*is_extern = scopes[s]->v[i].is_extern;
				return scopes[s]->v[i].offset;
			}
	return -2;
}

static int special_reg(emu_pstate *ps, const char *name)
{
	for (int s = 0; s < SPEC_COUNT; s++)
		if (!strcmp(name, special_names[s])) {
			if (ps->k->special_reg[s] < 0)
				ps->k->special_reg[s] = emu_new_reg(ps, 0, 2);
			return ps->k->special_reg[s];
		}
	return -1;
}

/* ---- operands ---- */

/* A name: special register, vector component (%v.x), declared register or
 * shared symbol. */
static int named_operand(emu_pstate *ps, const char *s)
{
	int r = special_reg(ps, s);
	if (r >= 0)
		return r;
	int idx;
	char base[EMU_NAME];
	if (emu_name_copy(ps, base, s, strlen(s)))
		return -1;
	char *dot = strchr(base, '.');
	if (dot && dot[1] && !dot[2] && strchr("xyzw", dot[1])) {
		int comp = (int)(strchr("xyzw", dot[1]) - "xyzw");
		*dot = 0;
		const emu_regdecl *vd = emu_find_regdecl(ps, base, &idx);
		if (vd && vd->vec > comp) /* %v3.y of %v<N>: vector 3 holds registers 3*vec .. 3*vec+vec-1 */
			return vd->base + idx * vd->vec + comp;
		return emu_perr(ps, ps->line, "unknown register '%s'", s);
	}
	const emu_regdecl *rd = emu_find_regdecl(ps, s, &idx);
	if (rd) {
		if (rd->vec > 1)
			return emu_perr(ps, ps->line, "vector register '%s' used as a scalar", s);
		return rd->base + idx;
	}
	for (int i = 0; i < ps->local.n; i++) /* a .local array (the __local_depot): its offset in local space */
		if (!strcmp(ps->local.v[i].name, s))
			return emu_const_reg(ps, (uint64_t)ps->local.v[i].offset);
	int ext;
	int off = find_shared(ps, s, &ext);
	if (off < -1) {
		/* A module-level .global/.const variable (a __device__ variable, the
		 * strings of printf and assert): its address in the globals window. */
		for (int i = 0; i < ps->nglobals; i++)
			if (!strcmp(ps->globals[i], s))
				return emu_const_reg(ps, EMU_GLOBALS_WINDOW + ((uint64_t)i << EMU_GLOBAL_VAR_SHIFT));
		/* a parameter's name as a value: its address in the parameter space
		 * (mov.b64 %r, tmA; cvta.param.u64 makes it generic) */
		for (int i = 0; i < ps->k->nparams; i++)
			if (!strcmp(ps->k->params[i].name, s))
				return emu_const_reg(ps, (uint64_t)ps->k->params[i].offset);
		if (emu_func_defined(ps, s)) /* issue 39 */
			return emu_punsup(ps, ps->line, "the address of .func '%s' (a function pointer): the emulator runs direct "
					  "calls of a .func only (run on a GPU)", s);
		return emu_perr(ps, ps->line, "unknown register or symbol '%s'", s);
	}
	if (!ext)
		return emu_const_reg(ps, (uint64_t)off);
	int r2 = emu_new_reg(ps, 0, 3); /* fixed once the static size is known */
	if (r2 < 0)
		return -1;
	EMU_GROW(ps->extern_fix, ps->nextern_fix, ps->capextern_fix);
	ps->extern_fix[ps->nextern_fix++] = r2;
	return r2;
}

int emu_scalar_operand(emu_pstate *ps, char *s, emu_type t)
{
	s = emu_skip_sp(s);
	emu_rtrim(s);
	if (!*s)
		return emu_perr(ps, ps->line, "missing operand");
	if (!strcmp(s, "_"))
		return emu_perr(ps, ps->line, "'_' is only allowed as a destination");
	if (emu_is_ident_start((unsigned char)s[0]))
		return named_operand(ps, s);
	uint64_t v;
	if (emu_parse_literal(s, t, &v) < 0)
		return emu_perr(ps, ps->line, "bad operand '%s'", s);
	if (emu_types[t].bytes && emu_types[t].bytes < 8 && emu_types[t].kind != 'f')
		v &= (1ULL << (8 * emu_types[t].bytes)) - 1;
	return emu_const_reg(ps, v);
}

int emu_dst_operand(emu_pstate *ps, char *s)
{
	s = emu_skip_sp(s);
	emu_rtrim(s);
	if (!strcmp(s, "_"))
		return EMU_NO_REG;
	if (!emu_is_ident_start((unsigned char)s[0])) {
		emu_perr(ps, ps->line, "bad destination '%s'", s);
		return EMU_NO_REG - 1;
	}
	int r = emu_scalar_operand(ps, s, ET_B64);
	if (r >= 0 && ps->k->is_const[r])
		r = emu_perr(ps, ps->line, "destination '%s' is not a register", s);
	return r < 0 ? EMU_NO_REG - 1 : r;
}

int emu_vector_operand(emu_pstate *ps, char *s, emu_type t, int *regs, int max, int is_dst)
{
	s = emu_skip_sp(s);
	emu_rtrim(s);
	size_t n = strlen(s);
	if (s[0] != '{' || s[n - 1] != '}')
		return emu_perr(ps, ps->line, "expected a vector operand {...}, got '%s'", s);
	s[n - 1] = 0;
	char *parts[8];
	int np = emu_split_commas(s + 1, parts, 8);
	if (np > max || np == 0)
		return emu_perr(ps, ps->line, "vector operand has %d elements", np);
	for (int i = 0; i < np; i++) {
		regs[i] = is_dst ? emu_dst_operand(ps, parts[i]) : emu_scalar_operand(ps, parts[i], t);
		if (regs[i] < EMU_NO_REG)
			return -1;
	}
	return np;
}

int emu_maybe_vector(emu_pstate *ps, char *s, emu_type t, int *regs, int want, int is_dst)
{
	s = emu_skip_sp(s);
	if (s[0] == '{')
		return emu_vector_operand(ps, s, t, regs, want, is_dst);
	emu_rtrim(s);
	int idx;
	const emu_regdecl *rd = emu_find_regdecl(ps, s, &idx);
	if (rd && rd->vec > 1) {
		for (int i = 0; i < rd->vec && i < want; i++)
			regs[i] = rd->base + idx * rd->vec + i;
		return rd->vec;
	}
	regs[0] = is_dst ? emu_dst_operand(ps, s) : emu_scalar_operand(ps, s, t);
	return regs[0] < EMU_NO_REG ? -1 : 1;
}

int emu_addr_operand(emu_pstate *ps, char *s, int *base, int64_t *off, int *is_param)
{
	s = emu_skip_sp(s);
	emu_rtrim(s);
	size_t n = strlen(s);
	*is_param = 0;
	if (s[0] != '[' || s[n - 1] != ']')
		return emu_perr(ps, ps->line, "expected an address [..], got '%s'", s);
	s[n - 1] = 0;
	s = emu_skip_sp(s + 1);
	emu_rtrim(s);
	*off = 0;
	/* split at the first + or - that follows the base ("+ -4" and "-4" both work) */
	char *op = NULL;
	for (char *p = s + 1; *p && !op; p++)
		if (*p == '+' || (*p == '-' && p[-1] != '+'))
			op = p;
	if (op) {
		char *o = emu_skip_sp(op + (*op == '+'));
		char tmp[64];
		util_strlcpy(tmp, o, sizeof tmp);
		emu_rtrim(tmp);
		if (emu_parse_int(emu_skip_sp(tmp), off) < 0 || strlen(o) >= sizeof tmp)
			return emu_perr(ps, ps->line, "bad address offset '%s'", o);
		*op = 0;
		emu_rtrim(s);
	}
	if (!*s)
		return emu_perr(ps, ps->line, "empty address");
	if (isdigit((unsigned char)s[0]) || s[0] == '-') {
		int64_t v;
		if (emu_parse_int(s, &v) < 0 || ck_add_i64(*off, v, off))
			return emu_perr(ps, ps->line, "bad address '%s'", s);
		*base = emu_const_reg(ps, 0);
		return 0;
	}
	for (int i = 0; i < ps->k->nparams; i++)
		if (!strcmp(ps->k->params[i].name, s)) {
			*is_param = i + 1;
			*base = emu_const_reg(ps, (uint64_t)ps->k->params[i].offset);
			return 0;
		}
	int r = emu_scalar_operand(ps, s, ET_U64);
	if (r < 0)
		return -1;
	*base = r;
	return 0;
}
