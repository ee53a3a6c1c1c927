/* emu_parser: what the parts of the emulator's parser share — the parse state, the lexer (emu_lex.c), operands (emu_operand.c) and decode (emu_decode.c). */
#ifndef PTXTUTOR_EMU_PARSER_H
#define PTXTUTOR_EMU_PARSER_H

#include <stddef.h>
#include <stdint.h>
#include "emu/emu_internal.h"

/* ---- the parse state (emu_parse.c) ---- */

typedef struct {
	char name[EMU_NAME];
	int base;       /* first register */
	int count;      /* registers in a %r<N> range; 0 for a scalar */
	int vec;        /* 1, 2 or 4 */
	emu_type type;
} emu_regdecl;

typedef struct {
	char name[EMU_NAME];
	int offset;     /* in shared memory; -1 for the dynamic (extern) array until fixed */
	int align;
	int is_extern;
} emu_shdecl;

/* The .shared variables of one scope and the bytes they take. */
typedef struct {
	emu_shdecl *v;
	int n, cap;
	int bytes;
} emu_shlist;

typedef struct {
	char name[EMU_NAME];
	int op;         /* op index of a definition; for a use, the op that branches */
} emu_labelref;

typedef struct {
	const char *path;
	run_error *e;             /* the first error (emu_perr, emu_punsup) */
	emu_error why;            /* EMU_OK until the first error */
	emu_shlist mshared;       /* module-level .shared (visible to every entry) */
	uint32_t *line_regions;   /* per line (1-based), the regions it is in */
	int nlines;
	emu_module *m;
	/* current kernel */
	emu_kernel *k;
	emu_regdecl *regs;
	int nregdecl, capregdecl;
	emu_shlist shared;        /* the current entry's, after the module's */
	emu_shlist local;         /* the current entry's .local (per thread; offsets from 0) */
	int capops, capregs;
	emu_labelref *labels, *uses;
	int nlabels, caplabels, nuses, capuses;
	int *extern_fix;          /* const registers holding the dynamic array's address */
	int nextern_fix, capextern_fix;
	int line;                 /* line of the statement being decoded */
	const char *want;         /* the one entry to parse; NULL: all, "": none (list only) */
	char **globals;           /* module-level .global/.const variables: refused only where used */
	int nglobals, capglobals;
	char **callparams;        /* .param declared in the body for a call's arguments */
	int *callregs;            /* each one's register: st.param writes it, the call reads it */
	int ncallparams, capcallparams;
	/* issue 39: calls of the module's .func */
	const char *clean;        /* the module's text without comments, for a .func's body */
	struct emu_funcdef *funcdefs; /* every .func with a body, found before any entry is parsed */
	int nfuncdefs, capfuncdefs;
	int in_func;              /* decoding a .func's body: ret returns to the caller */
} emu_pstate;

/* issue 39: the index in the current kernel's funcs of the .func name
 * (added, to be decoded after the entry, on its first call); -1 when the
 * module has no .func of that name (emu_parse.c). */
int emu_func_ref(emu_pstate *ps, const char *name);
/* issue 39: does the module define a .func of that name? */
int emu_func_defined(const emu_pstate *ps, const char *name);

/* Copies a name into a field of EMU_NAME bytes; -1 (a parse error naming
 * it) when it does not fit, so nothing is ever cut. */
int emu_name_copy(emu_pstate *ps, char *dst, const char *src, size_t len);

/* Makes room for element n of a growing array. */
#define EMU_GROW(arr, n, cap) do { if ((n) >= (cap)) { (cap) = (cap) ? 2 * (cap) : 16; \
	(arr) = xreallocarray((arr), (size_t)(cap), sizeof(*(arr))); } } while (0)

/* The first error wins: its line and message in ps->e, and ps->why. Both
 * return -1. emu_perr: the text is not PTX we can read (EMU_ERR_PARSE);
 * emu_punsup: it is, but the emulator does not run it (EMU_ERR_UNSUPPORTED). */
int emu_perr(emu_pstate *ps, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int emu_punsup(emu_pstate *ps, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- the lexer (emu_lex.c) ---- */

emu_type emu_type_from_name(const char *s);   /* "f32" -> ET_F32; ET_NONE if no type */
emu_type emu_decl_type_from_name(const char *s); /* the same, ET_NONE for the instruction-only tf32, e4m3x2, e5m2x2 */
char *emu_skip_sp(char *s);
void emu_rtrim(char *s);
int emu_is_ident_start(int c);
int emu_is_ident_char(int c);
/* An integer literal (decimal, 0x hex, optional U suffix, leading sign): 0, or -1. */
int emu_parse_int(const char *s, int64_t *out);
/* A literal as the bits of a value of type t (0f/0d hex floats, decimal floats, integers). */
int emu_parse_literal(const char *s, emu_type t, uint64_t *out);
/* Splits s in place at top-level commas (not inside {} or []) into at most
 * max parts. Returns the count, or max + 1 when there are more (nothing is
 * dropped silently: the caller refuses them). */
int emu_split_commas(char *s, char **parts, int max);
/* A copy of text with its comments blanked out; newlines are kept, so lines stay. */
char *emu_strip_comments(const char *text);

/* A position in comment-free text. */
typedef struct {
	char *t;
	size_t pos;
	int line;
} emu_cursor;

void emu_cur_skip(emu_cursor *c);
/* Reads up to (not including) one of the stop characters at parenthesis
 * depth 0, as a new string with newlines and tabs made spaces; *found is the
 * stop character (0 at the end of the text), which is consumed. */
char *emu_cur_until(emu_cursor *c, const char *stops, char *found);

/* ---- operands (emu_operand.c) ---- */

int emu_new_reg(emu_pstate *ps, uint64_t konst, int is_const);
int emu_const_reg(emu_pstate *ps, uint64_t v);
/* A declared register by name ("%r", or "%r3" in a %r<N> range: *index 3). */
const emu_regdecl *emu_find_regdecl(emu_pstate *ps, const char *name, int *index);
/* A scalar source: register, special register, shared symbol or literal
 * typed by t. Returns its register, or -1 after an error. */
int emu_scalar_operand(emu_pstate *ps, char *s, emu_type t);
/* A destination register, or EMU_NO_REG for the sink '_'; < EMU_NO_REG after an error. */
int emu_dst_operand(emu_pstate *ps, char *s);
/* "{a, b, ...}" into regs (at most max); the count, or -1. */
int emu_vector_operand(emu_pstate *ps, char *s, emu_type t, int *regs, int max, int is_dst);
/* A .v2/.v4 register, a {..} list or one scalar; the count, or -1. */
int emu_maybe_vector(emu_pstate *ps, char *s, emu_type t, int *regs, int want, int is_dst);
/* "[base+off]": a base register and an offset; *is_param is 1 + the index of
 * the parameter base names, 0 when it names none. Only ld.param may name a
 * parameter, and only inside it (the callers check). */
int emu_addr_operand(emu_pstate *ps, char *s, int *base, int64_t *off, int *is_param);

/* ---- decode (emu_decode.c) ---- */

/* A new op at the current line, with no operands. */
emu_op *emu_new_op(emu_pstate *ps);
/* One instruction statement ("@p add.s32 a, b, c", no ';') into a new op; 0 or -1. */
int emu_decode(emu_pstate *ps, char *stmt);
/* The name's words and the operands of a Hopper instruction (emu_decode_hopper.c); 0 or -1. */
int emu_decode_hopper(emu_pstate *ps, emu_op *o, const char *full, char **parts, int np);

#endif
