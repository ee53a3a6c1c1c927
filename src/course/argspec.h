/* argspec: the one parser of a kernel's argument spec (`run --args`, a lesson's `args:`) into plain parameter items. */
#ifndef PTXTUTOR_ARGSPEC_H
#define PTXTUTOR_ARGSPEC_H

#include <stddef.h>
#include <stdint.h>

#include "base/expr.h"

#define ARGSPEC_MAX 32        /* parameters in one spec */
#define ARGSPEC_MAX_TMAPS 4   /* tensor maps in one spec (128 bytes of parameter space each) */
#define ARGSPEC_TOKEN 64      /* the longest token, terminator included */
#define ARGSPEC_BOX_MAX 256   /* the driver's limit on a tensor-map box side */

/* What one parameter is. */
typedef enum {
	ARG_MATRIX,   /* A, B or C: the device buffer's address (u64) */
	ARG_SIZE,     /* M, N or K (u32) */
	ARG_LITERAL,  /* TYPE:VALUE, e.g. u32:8 f32:1.5 */
	ARG_TMAP,     /* tmap:MATRIX:INNER:OUTER[:SWIZZLE]: a CUtensorMap passed by value */
	ARG_SCALAR,   /* alpha:VALUE, beta:VALUE: BLAS's scalars (f32); name 'a' or 'b' */
	ARG_SCALE,    /* scale:A, scale:B: that input's per-tensor scale (f32), set by the run; name 'A' or 'B' */
	ARG_LD,       /* ld:A, ld:B, ld:C: that matrix's leading dimension (u32), set by the run; name 'A' 'B' 'C' */
} argspec_kind;

/* The literal types; argspec.c holds their names, sizes and parsers in one table. */
typedef enum { ARG_U32, ARG_S32, ARG_U64, ARG_S64, ARG_F32, ARG_F64, ARG_F16, ARG_NTYPES } argspec_type;

/* A tensor map's swizzle; the values are the driver's CU_TENSOR_MAP_SWIZZLE_*. */
typedef enum { ARG_SWIZZLE_NONE, ARG_SWIZZLE_32B, ARG_SWIZZLE_64B, ARG_SWIZZLE_128B } argspec_swizzle;

typedef struct {
	argspec_kind kind;
	char name;                /* ARG_MATRIX, ARG_TMAP, ARG_LD: 'A' 'B' 'C'; ARG_SIZE: 'M' 'N' 'K'; ARG_SCALAR: 'a' 'b'; ARG_SCALE: 'A' 'B' */
	argspec_type type;        /* ARG_LITERAL, ARG_SCALAR and ARG_SCALE (always ARG_F32) */
	unsigned bytes;           /* the parameter's size: 8, 4, the literal's, 128 for a tensor map */
	uint64_t bits;            /* ARG_LITERAL, ARG_SCALAR: the value, in its low `bytes` bytes (little-endian) */
	unsigned box[2];          /* ARG_TMAP: INNER columns x OUTER rows; 0 when not evaluated */
	argspec_swizzle swizzle;  /* ARG_TMAP */
} argspec_item;

/* A parsed spec: plain data, so it travels inside a run_request. */
typedef struct {
	int n;                    /* 0: the standard list A B C M N K (see argspec_or_default) */
	argspec_item item[ARGSPEC_MAX];
} argspec;

/* Parses a spec: tokens separated by white space or commas (not inside
 * parentheses): A B C, M N K, TYPE:VALUE with TYPE u32 s32 u64 s64 f32 f64
 * f16 (integers in decimal or 0x hex, in the type's range; reals finite in
 * the type), alpha:VALUE and beta:VALUE (BLAS's f32 scalars, each at most
 * once), scale:A and scale:B (each at most once: the f32 dequantization
 * factor of that FP8 input, real value = stored value x scale, which the run
 * fills in; 1 for other types), ld:A, ld:B and ld:C (u32: that matrix's
 * leading dimension as the run lays it out, argspec_layout), or tmap:A|B|C:INNER:OUTER[:none|32B|64B|128B]. The box sides
 * are expressions evaluated in env; with env NULL (a syntax check, as at
 * lesson load) a side that is not a plain number is left 0. Nothing is cut:
 * an empty token, a token of ARGSPEC_TOKEN characters or more, more than
 * ARGSPEC_MAX parameters are refused. Returns 0, or -1 with one line in err
 * that names the token. */
int argspec_parse(const char *spec, const expr_env *env, argspec *out, char *err, int errlen);

/* BLAS semantics, C = alpha*A*B + beta*C: what a spec's named scalars ask of
 * a run. Without beta:, C starts poisoned with NaN; with it, C starts as
 * random finite C0 and the reference adds beta*C0. alpha is 1 when absent. */
typedef struct {
	int has_alpha, has_beta;
	float alpha, beta;
} argspec_blas;

argspec_blas argspec_blas_of(const argspec *a);

/* a itself, or the standard list A B C M N K when a is empty. */
const argspec *argspec_or_default(const argspec *a);

/* One item as it would be written in a spec ("tmap:A:64:128:128B", "u32:8"). */
void argspec_format_item(const argspec_item *it, char *buf, size_t len);

const char *argspec_type_name(argspec_type t);

/* ---- how A, B and C lie in memory (`--layout`, `--ld`; a lesson's `layout:`, `ld:`) ---- */

/* A is M x K, B K x N, C M x N. Row-major: element (r, c) at r*ld + c, ld
 * at least the columns; column-major: at c*ld + r, ld at least the rows
 * (cuBLAS's convention). ld 0 is the tight one. The default, all zero, is
 * row-major and tight. Plain data: it travels inside a run_request. */
typedef struct {
	unsigned char col[3];     /* A, B, C column-major */
	long long ld[3];          /* A's, B's, C's leading dimension; 0: tight */
} argspec_layout;

/* Parses layout ("A=col,B=row,C=col": each of A B C = row|col, the rest
 * row-major; "col" or "row" alone: all three) and ld ("A=EXPR,C=EXPR",
 * expressions over M N K, each at least the tight leading dimension),
 * either NULL or "" for the default. With env NULL (a syntax check, as at
 * lesson load) an ld that names M, N or K is left 0. Returns 0, or -1 with
 * one line in err ("--layout"/"--ld" are the caller's to add). */
int argspec_layout_parse(const char *layout, const char *ld, const expr_env *env, argspec_layout *out, char *err,
			 int errlen);
/* "A=col,B=row,C=row" or "row-major" when all are row-major and tight;
 * "A=col(ld 80),..." with a padded leading dimension. */
void argspec_layout_format(const argspec_layout *l, char *buf, size_t len);
/* Whether l is the default (row-major, tight). */
int argspec_layout_default(const argspec_layout *l);

#endif
