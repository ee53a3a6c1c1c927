/* emu_decode: instruction name + modifiers -> emu_op, through one const table of what each opcode accepts, then its operands by shape. */
#include <stdlib.h>
#include <string.h>
#include "emu/emu_parser.h"
#include "emu/emu_wgmma.h"
#include "emu/emu_wmma.h"
#include "base/checked.h"
#include "base/util.h"

/* ---- what each opcode accepts ---- */

/* Sets of types: bit t for emu_type t. */
#define TY(t) (1u << (t))
#define TY_INT (TY(ET_B8) | TY(ET_B16) | TY(ET_B32) | TY(ET_B64) | TY(ET_U8) | TY(ET_U16) | TY(ET_U32) | \
		TY(ET_U64) | TY(ET_S8) | TY(ET_S16) | TY(ET_S32) | TY(ET_S64))
#define TY_FLOAT (TY(ET_F16) | TY(ET_F32))
#define TY_HALF2 TY(ET_F16X2)                     /* packed pairs: add sub mul fma per half */
#define TY_BITS (TY(ET_B32) | TY(ET_B64))
#define TY_BF (TY(ET_BF16) | TY(ET_BF16X2))  /* bf16: cvt to and from f32, moves, loads and stores */
#define TY_FP8 (TY(ET_E4M3X2) | TY(ET_E5M2X2))    /* cvt only: see cvt_forms */
#define TY_DATA (TY_INT | TY_FLOAT | TY(ET_F64) | TY(ET_BF16))  /* what a register can hold, but predicates and packed f16x2 */
#define TY_ANY ((TY(ET_TF32) - 1) & ~TY(ET_NONE))  /* mov: every type but cvt's tf32 and 8-bit pairs */
/* issue 39: f64, bf16x2, dp4a */
#define TY_NUM (TY(ET_F64) | TY(ET_BF16) | TY(ET_BF16X2)) /* add sub mul fma (.rn), neg abs, min max */
#define TY_DP (TY(ET_U32) | TY(ET_S32))                    /* dp4a, dp2a: each operand's signedness */
/* issue 39: atomics (atom_types says which each operation takes), redux, bfind */
#define TY_ATOM (TY(ET_U32) | TY(ET_S32) | TY(ET_U64) | TY(ET_S64) | TY(ET_B32) | TY(ET_B64) | TY(ET_F32) | \
		 TY(ET_F64) | TY(ET_F16X2) | TY(ET_BF16X2) | TY(ET_F16) | TY(ET_BF16) | TY(ET_B16))
#define TY_I32 (TY(ET_U32) | TY(ET_S32))
#define TY_I3264 (TY(ET_U32) | TY(ET_S32) | TY(ET_U64) | TY(ET_S64))

/* Where the value of a modifier group goes. */
enum { MF_NONE, MF_MOD, MF_TYPE2, MF_VEC, MF_SPACE, MF_FLAGS };

/* Modifiers of which at most one may be written, each with its value. */
typedef struct {
	uint8_t field;               /* MF_*; MF_FLAGS ORs the value into op->flags */
	struct {
		const char *word;
		uint8_t value;
	} w[19];                     /* ends at a NULL word */
} modgroup;

static const modgroup g_rn = {MF_NONE, {{"rn", 0}}}; /* round to nearest: what the emulator does anyway */
static const modgroup g_width = {MF_MOD, {{"lo", MUL_LO}, {"hi", MUL_HI}, {"wide", MUL_WIDE}}};
static const modgroup g_cmp = {MF_MOD, {
	{"eq", CMP_EQ}, {"ne", CMP_NE}, {"lt", CMP_LT}, {"le", CMP_LE}, {"gt", CMP_GT}, {"ge", CMP_GE},
	{"lo", CMP_LO}, {"ls", CMP_LS}, {"hi", CMP_HI}, {"hs", CMP_HS},
	{"equ", CMP_EQU}, {"neu", CMP_NEU}, {"ltu", CMP_LTU}, {"leu", CMP_LEU}, {"gtu", CMP_GTU},
	{"geu", CMP_GEU}, {"num", CMP_NUM}, {"nan", CMP_NAN}}};
static const modgroup g_bool = {MF_TYPE2, {{"and", 1}, {"or", 2}, {"xor", 3}}};
static const modgroup g_round = {MF_MOD, {{"rn", RND_RN}, {"rz", RND_RZ}, {"rm", RND_RM}, {"rp", RND_RP},
					  {"rni", RND_RNI}, {"rzi", RND_RZI}, {"rmi", RND_RMI}, {"rpi", RND_RPI},
					  {"rna", RND_RNA}}};
static const modgroup g_satfinite = {MF_FLAGS, {{"satfinite", OPF_SATFINITE}}};
static const modgroup g_shfdir = {MF_MOD, {{"l", SHF_L}, {"r", SHF_R}}};
static const modgroup g_shfmode = {MF_FLAGS, {{"wrap", 0}, {"clamp", OPF_CLAMP}}};
static const modgroup g_prmt = {MF_MOD, {{"f4e", PRMT_F4E}, {"b4e", PRMT_B4E}, {"rc8", PRMT_RC8}, {"ecl", PRMT_ECL},
					 {"ecr", PRMT_ECR}, {"rc16", PRMT_RC16}}};
static const modgroup g_to = {MF_MOD, {{"to", CVTA_TO}}};
static const modgroup g_space = {MF_SPACE, {{"global", SP_GLOBAL}, {"shared", SP_SHARED}, {"shared::cta", SP_SHARED},
					    {"param", SP_PARAM}, {"param::entry", SP_PARAM}, {"shared::cluster", SP_CLUSTER},
					    {"local", SP_LOCAL}}};
static const modgroup g_gsspace = {MF_SPACE, {{"global", SP_GLOBAL}, {"shared", SP_SHARED}, {"shared::cta", SP_SHARED},
					      {"param", SP_PARAM}, {"local", SP_LOCAL}}};
static const modgroup g_shared = {MF_SPACE, {{"shared", SP_SHARED}, {"shared::cta", SP_SHARED}}};
static const modgroup g_vec = {MF_VEC, {{"v2", 2}, {"v4", 4}}};
static const modgroup g_nc = {MF_FLAGS, {{"nc", OPF_NC}}};
static const modgroup g_matrices = {MF_VEC, {{"x1", 1}, {"x2", 2}, {"x4", 4}}};
static const modgroup g_trans = {MF_FLAGS, {{"trans", OPF_TRANS}}};
/* mma.sync's shapes, as K in op->mod: m16n8k16 (f16, bf16), m16n8k8 (tf32) */
static const modgroup g_mmashape = {MF_MOD, {{"m16n8k16", 16}, {"m16n8k8", 8}}};
/* issue 39: f64, bf16x2, dp4a */
static const modgroup g_dp2a = {MF_MOD, {{"lo", DP_2A_LO}, {"hi", DP_2A_HI}}};
static const modgroup g_minnan = {MF_MOD, {{"NaN", MINMAX_NAN}}};
static const modgroup g_relu = {MF_MOD, {{"relu", FMA_RELU}}};
/* add, sub, mul: .rn, or a directed rounding (f64: round() compiles to add.rz.f64) */
static const modgroup g_arnd = {MF_TYPE2, {{"rn", RND_RN}, {"rz", RND_RZ}, {"rm", RND_RM}, {"rp", RND_RP}}};
/* issue 39: atomics, votes, warp reductions, bfind, cvt.sat */
static const modgroup g_atomop = {MF_MOD, {{"add", ATOM_ADD}, {"min", ATOM_MIN}, {"max", ATOM_MAX}, {"inc", ATOM_INC},
					   {"dec", ATOM_DEC}, {"and", ATOM_AND}, {"or", ATOM_OR}, {"xor", ATOM_XOR},
					   {"exch", ATOM_EXCH}, {"cas", ATOM_CAS}}};
static const modgroup g_atomspace = {MF_SPACE, {{"global", SP_GLOBAL}, {"shared", SP_SHARED}, {"shared::cta", SP_SHARED}}};
/* the memory orders: one block runs at a time, in order, so each is as strong as the emulator needs */
static const modgroup g_order = {MF_NONE, {{"relaxed", 0}, {"acquire", 0}, {"release", 0}, {"acq_rel", 0}}};
static const modgroup g_vote = {MF_MOD, {{"ballot", WV_BALLOT}, {"any", WV_ANY}, {"all", WV_ALL}, {"uni", WV_UNI}}};
static const modgroup g_redux = {MF_MOD, {{"add", WV_RADD}, {"min", WV_RMIN}, {"max", WV_RMAX}, {"and", WV_RAND},
					  {"or", WV_ROR}, {"xor", WV_RXOR}}};
static const modgroup g_shiftamt = {MF_FLAGS, {{"shiftamt", OPF_SHIFTAMT}}};
static const modgroup g_sat = {MF_FLAGS, {{"sat", OPF_SAT}}};
static const modgroup g_shfl = {MF_MOD, {{"up", SHFL_UP}, {"down", SHFL_DOWN}, {"bfly", SHFL_BFLY}, {"idx", SHFL_IDX}}};

/* How the operands read. */
typedef enum {
	SH_NONE,      /* none */
	SH_IGNORE,    /* not read (membar, fence) */
	SH_PLAIN,     /* d, a, b, ...: the sources typed as the instruction */
	SH_MOV,       /* d, a, or a {..} on either side: pack / unpack */
	SH_SETP,      /* p[|q], a, b[, {!}c] */
	SH_LDST,      /* d, [a] or [a], d; d may be a vector */
	SH_SRCS,      /* u32 sources only (bar.sync) */
	SH_WAIT,      /* one integer (cp.async.wait_group) */
	SH_CPASYNC,   /* [shared], [global], size[, src-size] */
	SH_LDMATRIX,  /* {d..}, [a] */
	SH_MMA,       /* {d x4}, {a x4}, {b x2}, {c x4} */
	SH_BRA,       /* a label */
	SH_CALL,      /* call[.uni] [(ret),] callee, (args): only the helpers nvcc calls for assert and printf */
	SH_WGMMA,     /* {d..}, a-desc or {a x4}, b-desc, scale-d, imm...: emu_wgmma.c */
	SH_WMMA,      /* issue 39: wmma.load/store/mma: emu_wmma.c reads the name's words and the operands */
	SH_HOPPER,    /* emu_decode_hopper.c reads the name's words and the operands itself */
	SH_ATOM,      /* issue 39: atom d, [a], b[, c] and red [a], b */
	SH_VOTE,      /* issue 39: vote d, {!}p, membermask */
} opshape;

/* Decode flags. */
#define DF_FLOAT_FP   1   /* a float type counts as EMU_CLS_FP */
#define DF_INT_MODE   2   /* mul, mad: .lo/.hi/.wide make the integer form, none the float form */
#define DF_ALL_MODS   4   /* any modifier is accepted (membar, fence: no-ops here) */
#define DF_LAST_PRED  8   /* the last source is a predicate (selp) */
#define DF_SRC_TYPE2  16  /* the sources have the second type (cvt.dst.src) */
#define DF_PIPE_DST   32  /* the destination may be d|p (shfl) */
#define DF_SAME_AB    64  /* the second and third types are the same (mma's A and B; held in type2) */

typedef struct {
	const char *name;        /* the opcode with its fixed words: "cp.async.wait_group" */
	emu_opcode code;
	emu_class cls;           /* for integer and untyped forms; see DF_FLOAT_FP */
	opshape shape;
	int8_t nops_min, nops_max;
	uint8_t ntypes;          /* type modifiers, in order: 1 the instruction's, 2 cvt's dst and src, 4 mma's */
	uint32_t types[4];       /* the types each may be (TY_*) */
	const modgroup *groups[3];
	uint8_t required;        /* bit i: groups[i] must be written */
	const char *need[3];     /* words that must be written */
	const char *allow[3];    /* words that may be written and change nothing */
	uint8_t flags;           /* DF_* */
	uint8_t opf;             /* OPF_* the op always has */
} opdesc;

#define ARITH(nm, op, c, n, ty, fl, ...) {.name = nm, .code = op, .cls = c, .shape = SH_PLAIN, .nops_min = n, \
	.nops_max = n, .ntypes = 1, .types = {ty}, .groups = {__VA_ARGS__}, .flags = DF_FLOAT_FP | (fl)}
#define INT_OP(nm, op, n, ty, ...) ARITH(nm, op, EMU_CLS_INT, n, ty, 0, __VA_ARGS__)
#define MATH(nm, op, ty) ARITH(nm, op, EMU_CLS_FP, 2, ty, 0, &g_rn)
#define BARRIER(nm) {.name = nm, .code = OP_BAR, .cls = EMU_CLS_BARRIER, .shape = SH_SRCS, .nops_min = 1, \
	.nops_max = 2, .need = {"sync"}, .allow = {"cta"}}
#define NOOP(nm) {.name = nm, .code = OP_NOP, .cls = EMU_CLS_BARRIER, .shape = SH_IGNORE, .flags = DF_ALL_MODS}
#define LDST(nm, op, c) {.name = nm, .code = op, .cls = c, .shape = SH_LDST, .nops_min = 2, .nops_max = 2, \
	.ntypes = 1, .types = {TY_DATA}, .groups = {&g_space, &g_vec, &g_nc}, .allow = {"relaxed", "gpu"}}

#define HOPPER(nm, op, c) {.name = nm, .code = op, .cls = c, .shape = SH_HOPPER, .nops_min = 0, .nops_max = 16, \
	.flags = DF_ALL_MODS}

/* Everything the emulator runs. A modifier not named here (nor harmless, below)
 * makes the instruction unsupported, never ignored. */
static const opdesc opdescs[] = {
	{.name = "mov", .code = OP_MOV, .cls = EMU_CLS_MOVE, .shape = SH_MOV, .nops_min = 2, .nops_max = 2,
	 .ntypes = 1, .types = {TY_ANY}},
	INT_OP("add", OP_ADD, 3, TY_INT | TY_FLOAT | TY_HALF2 | TY_NUM, &g_arnd),
	INT_OP("sub", OP_SUB, 3, TY_INT | TY_FLOAT | TY_HALF2 | TY_NUM, &g_arnd),
	ARITH("mul", OP_MUL, EMU_CLS_INT, 3, TY_FLOAT | TY_HALF2 | TY_NUM, DF_INT_MODE, &g_width, &g_arnd),
	ARITH("mad", OP_MAD, EMU_CLS_INT, 4, TY(ET_F32) | TY(ET_F64), DF_INT_MODE, &g_width, &g_rn),
	ARITH("fma", OP_FMA, EMU_CLS_FP, 4, TY_FLOAT | TY_HALF2 | TY_NUM, 0, &g_rn, &g_relu),
	INT_OP("div", OP_DIV, 3, TY_INT | TY(ET_F32) | TY(ET_F64), &g_rn),
	INT_OP("rem", OP_REM, 3, TY_INT, NULL),
	INT_OP("min", OP_MIN, 3, TY_INT | TY(ET_F32) | TY_NUM, &g_minnan),
	INT_OP("max", OP_MAX, 3, TY_INT | TY(ET_F32) | TY_NUM, &g_minnan),
	INT_OP("neg", OP_NEG, 2, TY_INT | TY(ET_F32) | TY_HALF2 | TY_NUM, NULL),
	INT_OP("abs", OP_ABS, 2, TY_INT | TY(ET_F32) | TY_HALF2 | TY_NUM, NULL),
	INT_OP("and", OP_AND, 3, TY_INT | TY(ET_PRED), NULL),
	INT_OP("or", OP_OR, 3, TY_INT | TY(ET_PRED), NULL),
	INT_OP("xor", OP_XOR, 3, TY_INT | TY(ET_PRED), NULL),
	INT_OP("not", OP_NOT, 2, TY_INT | TY(ET_PRED), NULL),
	INT_OP("shl", OP_SHL, 3, TY_INT, NULL),
	INT_OP("shr", OP_SHR, 3, TY_INT, NULL),
	/* bit instructions nvcc emits for __popc, __clz, __brev, bit fields, __byte_perm, funnel shifts */
	INT_OP("popc", OP_POPC, 2, TY_BITS, NULL),
	INT_OP("clz", OP_CLZ, 2, TY_BITS, NULL),
	INT_OP("brev", OP_BREV, 2, TY_BITS, NULL),
	INT_OP("bfe", OP_BFE, 4, TY(ET_U32) | TY(ET_S32) | TY(ET_U64) | TY(ET_S64), NULL),
	INT_OP("bfi", OP_BFI, 5, TY_BITS, NULL),
	INT_OP("prmt", OP_PRMT, 4, TY(ET_B32), &g_prmt),
	INT_OP("lop3", OP_LOP3, 5, TY(ET_B32), NULL),
	{.name = "shf", .code = OP_SHF, .cls = EMU_CLS_INT, .shape = SH_PLAIN, .nops_min = 4, .nops_max = 4,
	 .ntypes = 1, .types = {TY(ET_B32)}, .groups = {&g_shfdir, &g_shfmode}, .required = 3},
	MATH("rcp", OP_RCP, TY(ET_F32) | TY(ET_F64)), MATH("sqrt", OP_SQRT, TY(ET_F32) | TY(ET_F64)),
	MATH("rsqrt", OP_RSQRT, TY(ET_F32) | TY(ET_F64)), MATH("ex2", OP_EX2, TY(ET_F32)), MATH("lg2", OP_LG2, TY(ET_F32)),
	{.name = "setp", .code = OP_SETP, .cls = EMU_CLS_INT, .shape = SH_SETP, .nops_min = 3, .nops_max = 4,
	 .ntypes = 1, .types = {TY_INT | TY_FLOAT | TY(ET_F64)}, .groups = {&g_cmp, &g_bool}, .required = 1,
	 .flags = DF_FLOAT_FP},
	{.name = "selp", .code = OP_SELP, .cls = EMU_CLS_INT, .shape = SH_PLAIN, .nops_min = 4, .nops_max = 4,
	 .ntypes = 1, .types = {TY_DATA}, .flags = DF_LAST_PRED},
	/* cvt.rn.f16x2.f32 d, a, b packs two floats (a in the upper half); the
	 * tf32 and 8-bit float forms are those of cvt_forms */
	{.name = "cvt", .code = OP_CVT, .cls = EMU_CLS_MOVE, .shape = SH_PLAIN, .nops_min = 2, .nops_max = 3,
	 .ntypes = 2, .types = {TY_DATA | TY_HALF2 | TY_BF | TY_FP8 | TY(ET_TF32), TY_DATA | TY_FP8},
	 .groups = {&g_round, &g_satfinite, &g_sat}, .flags = DF_SRC_TYPE2},
	{.name = "cvta", .code = OP_CVTA, .cls = EMU_CLS_MOVE, .shape = SH_PLAIN, .nops_min = 2, .nops_max = 2,
	 .ntypes = 1, .types = {TY(ET_U32) | TY(ET_U64)}, .groups = {&g_to, &g_gsspace}, .required = 2},
	LDST("ld", OP_LD, EMU_CLS_LD_GLOBAL),
	LDST("st", OP_ST, EMU_CLS_ST_GLOBAL),
	/* bar.warp.sync: the lanes of a warp run in lockstep here already; its member mask is checked (emu_race.c) */
	{.name = "bar.warp", .code = OP_NOP, .cls = EMU_CLS_CONTROL, .shape = SH_SRCS, .nops_min = 1, .nops_max = 1,
	 .allow = {"sync"}},
	BARRIER("bar"), BARRIER("barrier"),
	NOOP("membar"), NOOP("fence"),
	{.name = "cp.async.commit_group", .code = OP_CPCOMMIT, .cls = EMU_CLS_CP_ASYNC, .shape = SH_NONE},
	{.name = "cp.async.wait_group", .code = OP_CPWAIT, .cls = EMU_CLS_CP_ASYNC, .shape = SH_WAIT,
	 .nops_min = 1, .nops_max = 1},
	{.name = "cp.async.wait_all", .code = OP_CPWAIT, .cls = EMU_CLS_CP_ASYNC, .shape = SH_NONE, .opf = OPF_WAIT_ALL},
	{.name = "cp.async", .code = OP_CPASYNC, .cls = EMU_CLS_CP_ASYNC, .shape = SH_CPASYNC, .nops_min = 3,
	 .nops_max = 4, .groups = {&g_shared}, .required = 1, .need = {"global"}},
	{.name = "ldmatrix", .code = OP_LDMATRIX, .cls = EMU_CLS_LDMATRIX, .shape = SH_LDMATRIX, .nops_min = 2,
	 .nops_max = 2, .groups = {&g_matrices, &g_trans, &g_shared}, .required = 1, .need = {"m8n8", "b16"}},
	/* mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 and .m16n8k8...f32.tf32.tf32.f32
	 * (special_rules ties the shape to the type) */
	{.name = "mma", .code = OP_MMA, .cls = EMU_CLS_MMA, .shape = SH_MMA, .nops_min = 4, .nops_max = 4,
	 .ntypes = 4, .types = {TY(ET_F32), TY(ET_F16) | TY(ET_BF16) | TY(ET_TF32), TY(ET_F16) | TY(ET_BF16) | TY(ET_TF32),
				TY(ET_F32)}, .groups = {&g_mmashape}, .required = 1, .need = {"row", "col"},
	 .flags = DF_SAME_AB},
	{.name = "shfl", .code = OP_SHFL, .cls = EMU_CLS_SHFL, .shape = SH_PLAIN, .nops_min = 5, .nops_max = 5,
	 .ntypes = 1, .types = {TY(ET_B32)}, .groups = {&g_shfl}, .required = 1, .need = {"sync"},
	 .flags = DF_PIPE_DST},
	{.name = "bra", .code = OP_BRA, .cls = EMU_CLS_CONTROL, .shape = SH_BRA, .nops_min = 1, .nops_max = 1,
	 .allow = {"uni"}},
	{.name = "ret", .code = OP_EXIT, .cls = EMU_CLS_CONTROL, .shape = SH_NONE},
	{.name = "trap", .code = OP_TRAP, .cls = EMU_CLS_CONTROL, .shape = SH_NONE, .opf = 0},
	{.name = "call", .code = OP_NOP, .cls = EMU_CLS_CONTROL, .shape = SH_CALL, .nops_min = 2, .nops_max = 16,
	 .allow = {"uni"}},
	{.name = "exit", .code = OP_EXIT, .cls = EMU_CLS_CONTROL, .shape = SH_NONE},
	/* Hopper's warpgroup MMA; emu_wgmma_decode reads the shape and types of wgmma.mma_async */
	{.name = "wgmma.mma_async", .code = OP_WGMMA, .cls = EMU_CLS_MMA, .shape = SH_WGMMA, .nops_min = 6,
	 .nops_max = 8, .flags = DF_ALL_MODS},
	{.name = "wgmma.fence", .code = OP_WGFENCE, .cls = EMU_CLS_MMA, .shape = SH_NONE, .need = {"sync", "aligned"}},
	{.name = "wgmma.commit_group", .code = OP_WGCOMMIT, .cls = EMU_CLS_MMA, .shape = SH_NONE,
	 .need = {"sync", "aligned"}},
	{.name = "wgmma.wait_group", .code = OP_WGWAIT, .cls = EMU_CLS_MMA, .shape = SH_WAIT, .nops_min = 1,
	 .nops_max = 1, .need = {"sync", "aligned"}},
	/* issue 39: f64, bf16x2, dp4a: dp4a.atype.btype d, a, b, c and dp2a.{lo,hi}.atype.btype */
	{.name = "dp4a", .code = OP_DP, .cls = EMU_CLS_INT, .shape = SH_PLAIN, .nops_min = 4, .nops_max = 4,
	 .ntypes = 2, .types = {TY_DP, TY_DP}},
	{.name = "dp2a", .code = OP_DP, .cls = EMU_CLS_INT, .shape = SH_PLAIN, .nops_min = 4, .nops_max = 4,
	 .ntypes = 2, .types = {TY_DP, TY_DP}, .groups = {&g_dp2a}, .required = 1},
	/* issue 39: atomics and reductions in global and shared memory (emu_exec_atom.c); the scopes
	 * .gpu .sys (and the harmless .cta) and the orders change nothing when blocks run one at a time */
	{.name = "atom", .code = OP_ATOM, .cls = EMU_CLS_ST_GLOBAL, .shape = SH_ATOM, .nops_min = 3, .nops_max = 4,
	 .ntypes = 1, .types = {TY_ATOM}, .groups = {&g_atomop, &g_atomspace, &g_order}, .required = 1,
	 .allow = {"gpu", "sys", "noftz"}},
	{.name = "red", .code = OP_ATOM, .cls = EMU_CLS_ST_GLOBAL, .shape = SH_ATOM, .nops_min = 2, .nops_max = 2,
	 .ntypes = 1, .types = {TY_ATOM}, .groups = {&g_atomop, &g_atomspace, &g_order}, .required = 1,
	 .allow = {"gpu", "sys", "noftz"}, .opf = OPF_RED},
	/* issue 39: warp votes and reductions (emu_exec_atom.c), bfind, copysign */
	{.name = "vote", .code = OP_WARP, .cls = EMU_CLS_SHFL, .shape = SH_VOTE, .nops_min = 3, .nops_max = 3,
	 .ntypes = 1, .types = {TY(ET_B32) | TY(ET_PRED)}, .groups = {&g_vote}, .required = 1, .need = {"sync"}},
	{.name = "activemask", .code = OP_WARP, .cls = EMU_CLS_SHFL, .shape = SH_PLAIN, .nops_min = 1, .nops_max = 1,
	 .ntypes = 1, .types = {TY(ET_B32)}},
	{.name = "redux", .code = OP_WARP, .cls = EMU_CLS_SHFL, .shape = SH_PLAIN, .nops_min = 3, .nops_max = 3,
	 .ntypes = 1, .types = {TY_I32 | TY(ET_B32)}, .groups = {&g_redux}, .required = 1, .need = {"sync"}},
	INT_OP("bfind", OP_BFIND, 2, TY_I3264, &g_shiftamt),
	ARITH("copysign", OP_COPYSIGN, EMU_CLS_FP, 3, TY(ET_F32) | TY(ET_F64), 0, NULL),
	/* ---- Hopper: clusters, mbarriers, TMA (emu_decode_hopper.c checks the words) ---- */
	HOPPER("mbarrier", OP_MBAR, EMU_CLS_BARRIER),
	HOPPER("cp.async.bulk", OP_BULK, EMU_CLS_CP_ASYNC),
	HOPPER("mapa", OP_CLUSTER, EMU_CLS_MOVE),
	HOPPER("barrier.cluster", OP_CLUSTER, EMU_CLS_BARRIER),
	HOPPER("elect", OP_CLUSTER, EMU_CLS_INT),
	HOPPER("setmaxnreg", OP_CLUSTER, EMU_CLS_CONTROL),
	HOPPER("fence.proxy", OP_CLUSTER, EMU_CLS_BARRIER),
	HOPPER("bar.arrive", OP_CLUSTER, EMU_CLS_BARRIER),
	HOPPER("barrier.arrive", OP_CLUSTER, EMU_CLS_BARRIER),
	HOPPER("stmatrix", OP_STMATRIX, EMU_CLS_ST_SHARED),
	/* ---- end Hopper ---- */
	/* issue 39: wmma (emu_wmma.c checks the words: shapes, layouts, types, spaces) */
	{.name = "wmma.load", .code = OP_WMMA, .cls = EMU_CLS_LD_GLOBAL, .shape = SH_WMMA, .nops_min = 2, .nops_max = 3,
	 .flags = DF_ALL_MODS},
	{.name = "wmma.store", .code = OP_WMMA, .cls = EMU_CLS_ST_GLOBAL, .shape = SH_WMMA, .nops_min = 2, .nops_max = 3,
	 .flags = DF_ALL_MODS},
	{.name = "wmma.mma", .code = OP_WMMA, .cls = EMU_CLS_MMA, .shape = SH_WMMA, .nops_min = 4, .nops_max = 4,
	 .flags = DF_ALL_MODS},
};

/* Modifiers that do not change what the emulator computes, on any opcode. */
static const char *const harmless_mods[] = {
	"sync", "aligned", "uni", "ftz", "approx", "full", "ca", "cg", "cs", "lu", "cv",
	"wb", "wt", "volatile", "weak", "cta",
};

static int unsupported(emu_pstate *ps, const char *what)
{
	return emu_punsup(ps, ps->line, "unsupported instruction '%s'", what);
}

/* ---- the words of an instruction name ---- */

#define MAX_WORDS 16

typedef struct {
	char w[MAX_WORDS][32];
	int n;
	uint32_t used;
} words;

/* Splits "ld.global.v4.f32" at its dots; -1 when a word is too long or there are too many. */
static int split_words(const char *name, words *ws)
{
	memset(ws, 0, sizeof *ws);
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, ".");
		if (ws->n == MAX_WORDS || n >= sizeof ws->w[0])
			return -1;
		memcpy(ws->w[ws->n++], p, n);
		p += n + (p[n] == '.');
	}
	return 0;
}

static int take(words *ws, const char *word)
{
	for (int i = 0; i < ws->n; i++)
		if (!(ws->used & (1u << i)) && !strcmp(ws->w[i], word)) {
			ws->used |= 1u << i;
			return 1;
		}
	return 0;
}

/* The first word of the group written; -1 if none. */
static int take_group(words *ws, const modgroup *g)
{
	for (int i = 0; g->w[i].word; i++)
		if (take(ws, g->w[i].word))
			return g->w[i].value;
	return -1;
}

/* The next type word; ET_NONE if none. */
static emu_type take_type(words *ws)
{
	for (int i = 0; i < ws->n; i++) {
		emu_type t = ws->used & (1u << i) ? ET_NONE : emu_type_from_name(ws->w[i]);
		if (t != ET_NONE) {
			ws->used |= 1u << i;
			return t;
		}
	}
	return ET_NONE;
}

/* A word nobody took that is not harmless; NULL if none. */
static const char *leftover(const words *ws)
{
	for (int i = 0; i < ws->n; i++) {
		if (ws->used & (1u << i) || !strncmp(ws->w[i], "L1::", 4) || !strncmp(ws->w[i], "L2::", 4))
			continue;
		int ok = 0;
		for (size_t h = 0; h < ARRAY_LEN(harmless_mods); h++)
			ok |= !strcmp(ws->w[i], harmless_mods[h]);
		if (!ok)
			return ws->w[i];
	}
	return NULL;
}

/* The entry whose name is the longest run of leading words; it takes them. */
static const opdesc *lookup(words *ws)
{
	const opdesc *best = NULL;
	int best_n = 0;
	for (size_t i = 0; i < ARRAY_LEN(opdescs); i++) {
		words name;
		split_words(opdescs[i].name, &name);
		int k = 0;
		while (k < name.n && k < ws->n && !strcmp(name.w[k], ws->w[k]))
			k++;
		if (k == name.n && k > best_n) {
			best = &opdescs[i];
			best_n = k;
		}
	}
	ws->used = (1u << best_n) - 1;
	return best;
}

static int is_float(emu_type t) { return emu_types[t].kind == 'f'; }

/* The cvt forms with tf32 or an 8-bit float (PTX ISA 9.7.9.21), each with
 * the rounding it takes and whether .satfinite is required, allowed or not. */
enum { SAT_NO, SAT_MAY, SAT_MUST };
static const struct {
	uint8_t dst, src, rnd, sat;
} cvt_forms[] = {
	{ET_TF32, ET_F32, RND_RNA, SAT_MAY},      /* cvt.rna{.satfinite}.tf32.f32 d, a */
	{ET_TF32, ET_F32, RND_RN, SAT_NO},        /* cvt.rn.tf32.f32 d, a (sm_90; .satfinite is sm_100's) */
	{ET_E4M3X2, ET_F32, RND_RN, SAT_MUST},    /* cvt.rn.satfinite.e4m3x2.f32 d, a, b */
	{ET_E5M2X2, ET_F32, RND_RN, SAT_MUST},
	{ET_F16X2, ET_E4M3X2, RND_RN, SAT_NO},    /* cvt.rn.f16x2.e4m3x2 d, a */
	{ET_F16X2, ET_E5M2X2, RND_RN, SAT_NO},
};

/* Is o one of cvt_forms? */
static int cvt_form_ok(const emu_op *o)
{
	int sat = (o->flags & OPF_SATFINITE) != 0;
	for (size_t i = 0; i < ARRAY_LEN(cvt_forms); i++)
		if (cvt_forms[i].dst == o->type && cvt_forms[i].src == o->type2 && cvt_forms[i].rnd == o->mod)
			return cvt_forms[i].sat == SAT_MAY || sat == (cvt_forms[i].sat == SAT_MUST);
	return 0;
}

/* Does cvt take two sources, a into the upper half of d and b into the lower? */
static int cvt_pairs(const emu_op *o)
{
	int pair = o->type == ET_F16X2 || o->type == ET_BF16X2 || o->type == ET_E4M3X2 || o->type == ET_E5M2X2;
	return pair && o->type2 == ET_F32;
}

/* The modifiers and types of o from its table entry: 0, or -1 when the
 * combination is not one the emulator runs. */
static int apply_modifiers(const opdesc *d, words *ws, emu_op *o)
{
	for (int i = 0; i < (int)ARRAY_LEN(d->need) && d->need[i]; i++)
		if (!take(ws, d->need[i]))
			return -1;
	for (int i = 0; i < (int)ARRAY_LEN(d->allow) && d->allow[i]; i++)
		take(ws, d->allow[i]);
	int int_mode = 0;
	for (int i = 0; i < (int)ARRAY_LEN(d->groups) && d->groups[i]; i++) {
		int v = take_group(ws, d->groups[i]);
		if (v < 0) {
			if (d->required & (1u << i))
				return -1;
			continue;
		}
		int_mode |= d->groups[i] == &g_width; /* see DF_INT_MODE */
		switch (d->groups[i]->field) {
		case MF_MOD: o->mod = (uint8_t)v; break;
		case MF_TYPE2: o->type2 = (uint8_t)v; break;
		case MF_VEC: o->vec = (uint8_t)v; break;
		case MF_SPACE: o->space = (uint8_t)v; break;
		case MF_FLAGS: o->flags |= (uint8_t)v; break;
		}
	}
	for (int i = 0; i < d->ntypes; i++) {
		emu_type t = take_type(ws);
		uint32_t ok = (d->flags & DF_INT_MODE) && int_mode ? TY_INT : d->types[i];
		if (t == ET_NONE || !(ok & TY(t)))
			return -1;
		if (i == 0)
			o->type = (uint8_t)t;
		else if (i == 1 && (d->ntypes == 2 || (d->flags & DF_SAME_AB)))
			o->type2 = (uint8_t)t;
		else if (i == 2 && (d->flags & DF_SAME_AB) && t != o->type2)
			return -1;
	}
	if (!(d->flags & DF_ALL_MODS) && leftover(ws))
		return -1;
	return 0;
}

/* issue 39: the types each atomic operation takes (PTX ISA 9.7.13.5). */
static const uint32_t atom_types[] = {
	[ATOM_ADD] = TY_I32 | TY(ET_U64) | TY(ET_F32) | TY(ET_F64) | TY(ET_F16X2) | TY(ET_BF16X2) | TY(ET_F16) | TY(ET_BF16),
	[ATOM_MIN] = TY_I3264, [ATOM_MAX] = TY_I3264,
	[ATOM_INC] = TY(ET_U32), [ATOM_DEC] = TY(ET_U32),
	[ATOM_AND] = TY_BITS, [ATOM_OR] = TY_BITS, [ATOM_XOR] = TY_BITS, [ATOM_EXCH] = TY_BITS,
	[ATOM_CAS] = TY_BITS | TY(ET_B16),
};

/* What depends on more than one modifier: the few truly special cases. */
static int special_rules(const opdesc *d, emu_op *o)
{
	int isf = is_float((emu_type)o->type);
	if ((d->flags & DF_FLOAT_FP) && isf)
		o->cls = EMU_CLS_FP;
	if (d->code == OP_MAD && isf)
		o->code = OP_FMA; /* mad.rn.f32 is fused on every target we run */
	if (d->code == OP_SETP && o->mod >= CMP_EQU && !isf)
		return -1; /* unordered compares are for floats */
	/* issue 39: directed roundings of add, sub, mul are f64's here */
	if ((d->code == OP_ADD || d->code == OP_SUB || d->code == OP_MUL) && o->type2 >= RND_RZ && o->type != ET_F64)
		return -1;
	/* issue 39: .relu is fma's of the 16-bit floats and their pairs */
	if (d->code == OP_FMA && o->mod == FMA_RELU && o->type != ET_F16 && o->type != ET_F16X2 &&
	    o->type != ET_BF16 && o->type != ET_BF16X2)
		return -1;
	/* issue 39: .NaN is min/max's of bf16 here (f32 and f16 would ignore it) */
	if ((d->code == OP_MIN || d->code == OP_MAX) && o->mod == MINMAX_NAN && o->type != ET_BF16 &&
	    o->type != ET_BF16X2)
		return -1;
	if (d->code == OP_MMA && (o->mod == 8) != (o->type2 == ET_TF32))
		return -1; /* m16n8k8 is the tf32 shape here, m16n8k16 the 16-bit one */
	/* tf32, 8-bit floats, .rna and .satfinite: only the forms of the table */
	if (d->code == OP_CVT && ((TY(o->type) | TY(o->type2)) & (TY_FP8 | TY(ET_TF32)) ||
				  o->mod == RND_RNA || (o->flags & OPF_SATFINITE)))
		return cvt_form_ok(o) ? 0 : -1;
	/* float -> int needs an integer rounding; directed rounding to a float is for f32 */
	if (d->code == OP_CVT && is_float((emu_type)o->type2) && !isf && o->mod < RND_RNI)
		return -1;
	if (d->code == OP_CVT && isf && o->mod >= RND_RZ && o->mod <= RND_RP && o->type != ET_F32)
		return -1;
	if (d->code == OP_CVT && (o->type == ET_F16X2 || o->type == ET_BF16X2) && o->type2 != ET_F32)
		return -1;
	if (d->code == OP_CVT && (o->type2 == ET_BF16X2))
		return -1;
	/* issue 39: each atomic operation its types; red neither exchanges nor compares */
	if (d->code == OP_ATOM) {
		if (!(atom_types[o->mod] & TY(o->type)) || ((o->flags & OPF_RED) && o->mod >= ATOM_EXCH))
			return -1;
		if (o->space == SP_SHARED)
			o->cls = EMU_CLS_ST_SHARED;
	}
	if (d->code == OP_WARP && d->shape == SH_VOTE && (o->mod == WV_BALLOT) != (o->type == ET_B32))
		return -1; /* vote.ballot.b32, vote.{any,all,uni}.pred */
	if (d->code == OP_WARP && !strcmp(d->name, "redux") && (o->mod >= WV_RAND) != (o->type == ET_B32))
		return -1; /* redux: .add .min .max of .u32 .s32, .and .or .xor of .b32 */
	/* issue 39: cvt.sat: a float clamped to [0, 1], an integer to its destination type; not with .satfinite */
	if (d->code == OP_CVT && (o->flags & OPF_SAT) &&
	    ((o->flags & OPF_SATFINITE) || (isf && !is_float((emu_type)o->type2)) ||
	     (isf && o->type != ET_F32 && o->type != ET_F64) || (TY(o->type) & (TY_FP8 | TY(ET_TF32) | TY_BF | TY_HALF2))))
		return -1;
	if (d->code == OP_CVTA && o->space == SP_PARAM && o->mod == CVTA_TO)
		return -1; /* cvta.param: a parameter's address made generic, one way */
	if (d->shape == SH_LDST) {
		if ((o->flags & OPF_NC) && (d->code != OP_LD || o->space != SP_GLOBAL))
			return -1;
		if (o->space == SP_SHARED || o->space == SP_CLUSTER)
			o->cls = d->code == OP_LD ? EMU_CLS_LD_SHARED : EMU_CLS_ST_SHARED;
		if (o->space == SP_LOCAL)
			o->cls = d->code == OP_LD ? EMU_CLS_LD_LOCAL : EMU_CLS_ST_LOCAL;
		if (o->space == SP_PARAM)
			o->cls = EMU_CLS_MOVE; /* st.param only to a call's arguments: see shape_ldst */
	}
	return 0;
}

/* ---- operands, by shape ---- */

/* "d" or "d|p": the second register goes to dst[1]. */
static int pipe_dst(emu_pstate *ps, emu_op *o, char *s)
{
	char *bar = strchr(s, '|');
	if (bar) {
		*bar = 0;
		if ((o->dst[1] = emu_dst_operand(ps, bar + 1)) < EMU_NO_REG)
			return -1;
	}
	o->ndst = bar ? 2 : 1;
	o->dst[0] = emu_dst_operand(ps, s);
	return o->dst[0] < EMU_NO_REG ? -1 : bar != NULL;
}

static int shape_plain(emu_pstate *ps, const opdesc *d, emu_op *o, char **parts, int np)
{
	int piped = 0;
	if (d->flags & DF_PIPE_DST) {
		if ((piped = pipe_dst(ps, o, parts[0])) < 0)
			return -1;
		if (piped)
			o->flags |= OPF_PRED_OUT;
	} else {
		o->ndst = 1;
		if ((o->dst[0] = emu_dst_operand(ps, parts[0])) < EMU_NO_REG)
			return -1;
	}
	emu_type st = (emu_type)(d->flags & DF_SRC_TYPE2 ? o->type2 : o->type);
	o->nsrc = (uint8_t)(np - 1);
	for (int i = 0; i < np - 1; i++) {
		int last_pred = (d->flags & DF_LAST_PRED) && i == np - 2;
		if ((o->src[i] = emu_scalar_operand(ps, parts[1 + i], last_pred ? ET_PRED : st)) < 0)
			return -1;
	}
	return 0;
}

/* issue 39: the clocks a kernel reads (mov d, %clock64): the emulated clock (emu_exec_atom.c) */
static const char *const clocks[] = {[CLOCK_32] = "%clock", [CLOCK_64] = "%clock64", [CLOCK_GLOBALTIMER] = "%globaltimer"};

static int shape_mov(emu_pstate *ps, const opdesc *d, emu_op *o, char **parts, const char *full)
{
	emu_type t = (emu_type)o->type;
	char *dst = emu_skip_sp(parts[0]), *src = emu_skip_sp(parts[1]);
	emu_rtrim(src);
	for (size_t i = 0; i < ARRAY_LEN(clocks); i++)
		if (!strcmp(src, clocks[i])) {
			if (emu_types[t].bytes != (i == CLOCK_32 ? 4 : 8))
				return emu_perr(ps, ps->line, "'%s' of %s: %s is %d bits", full, src, src, i == CLOCK_32 ? 32 : 64);
			o->code = OP_CLOCK;
			o->mod = (uint8_t)i;
			o->ndst = 1;
			return (o->dst[0] = emu_dst_operand(ps, dst)) < EMU_NO_REG ? -1 : 0;
		}
	if (*dst == '{') {
		o->code = OP_UNPACK;
		int nv = emu_vector_operand(ps, dst, t, o->dst, 4, 1);
		if (nv < 0)
			return -1;
		o->ndst = (uint8_t)nv;
		o->nsrc = 1;
		if ((o->src[0] = emu_scalar_operand(ps, src, t)) < 0)
			return -1;
		return emu_types[t].bytes * 8 % nv ? unsupported(ps, full) : 0;
	}
	if (*src == '{') {
		o->code = OP_PACK;
		o->ndst = 1;
		if ((o->dst[0] = emu_dst_operand(ps, dst)) < EMU_NO_REG)
			return -1;
		int nv = emu_vector_operand(ps, src, t, o->src, 4, 0);
		if (nv < 0)
			return -1;
		o->nsrc = (uint8_t)nv;
		return 0;
	}
	return shape_plain(ps, d, o, parts, 2);
}

static int shape_setp(emu_pstate *ps, emu_op *o, char **parts, int np, const char *full)
{
	int want = 3 + (o->type2 != 0);
	if (np != want)
		return emu_perr(ps, ps->line, "'%s' takes %d operands, got %d", full, want, np);
	if (pipe_dst(ps, o, parts[0]) < 0)
		return -1;
	for (int i = 0; i < 2; i++)
		if ((o->src[i] = emu_scalar_operand(ps, parts[1 + i], (emu_type)o->type)) < 0)
			return -1;
	o->nsrc = 2;
	if (o->type2) {
		char *c = emu_skip_sp(parts[3]);
		if (*c == '!') {
			o->flags |= OPF_SRC_NEG;
			c++;
		}
		if ((o->src[2] = emu_scalar_operand(ps, c, ET_PRED)) < 0)
			return -1;
		o->nsrc = 3;
	}
	return 0;
}

/* The call argument (a .param declared in the body) that name[0..n) names,
 * the latest declared; -1 if none. */
static int callparam(const emu_pstate *ps, const char *name, size_t n)
{
	for (int i = ps->ncallparams - 1; i >= 0; i--)
		if (strlen(ps->callparams[i]) == n && !strncmp(ps->callparams[i], name, n))
			return i;
	return -1;
}

/* Does "[name]" or "[name+0]" name a call's argument? Its index, else -1. */
static int is_callparam(const emu_pstate *ps, const char *adr)
{
	adr = emu_skip_sp((char *)adr);
	if (*adr != '[')
		return -1;
	adr = emu_skip_sp((char *)adr + 1);
	return callparam(ps, adr, strcspn(adr, "+-] \t"));
}

static int shape_ldst(emu_pstate *ps, emu_op *o, char **parts, const char *full)
{
	int is_ld = o->code == OP_LD;
	char *val = is_ld ? parts[0] : parts[1];
	char *adr = is_ld ? parts[1] : parts[0];
	int is_param, cp = o->space == SP_PARAM ? is_callparam(ps, adr) : -1;
	if (cp >= 0) {
		/* a call's argument: st.param moves the value into the argument's
		 * register, which the call reads (only assert's and printf's calls
		 * run); its return value (printf's count) reads 0 */
		char *plus = strchr(adr, '+');
		if (plus && strtoll(plus + 1, NULL, 0) != 0)
			return emu_punsup(ps, ps->line, "a call argument written at an offset");
		o->code = OP_MOV;
		o->ndst = o->nsrc = 1;
		if (!is_ld) {
			o->dst[0] = ps->callregs[cp];
			o->src[0] = emu_scalar_operand(ps, val, (emu_type)o->type);
			return o->src[0] < 0 ? -1 : 0;
		}
		o->src[0] = ps->callregs[cp]; /* a return value (a call's), or a parameter (in a .func); printf's count is 0 */
		return (o->dst[0] = emu_dst_operand(ps, val)) < EMU_NO_REG ? -1 : 0;
	}
	if (o->space == SP_PARAM && !is_ld)
		return emu_punsup(ps, ps->line, "st.param outside a call's arguments");
	if (emu_addr_operand(ps, adr, &o->src[0], &o->imm, &is_param) < 0)
		return -1;
	if ((is_param != 0) != (o->space == SP_PARAM)) /* adr is "[name" now */
		return emu_perr(ps, ps->line, "parameter '%s' read outside ld.param", emu_skip_sp(emu_skip_sp(adr) + 1));
	if (is_param) { /* an access stays inside the parameter it names */
		const emu_param *p = &ps->k->params[is_param - 1];
		int64_t bytes = (int64_t)emu_types[o->type].bytes * o->vec;
		if (!ck_within((uint64_t)o->imm, (uint64_t)bytes, (uint64_t)p->bytes))
			return emu_perr(ps, ps->line, "ld.param of %lld bytes at offset %lld is outside '%s' (%d bytes)",
					(long long)bytes, (long long)o->imm, p->name, p->bytes);
	}
	int regs[4];
	int nv = emu_maybe_vector(ps, val, (emu_type)o->type, regs, 4, is_ld);
	if (nv < 0)
		return -1;
	if (nv != o->vec)
		return emu_perr(ps, ps->line, "'%s' needs %d registers", full, o->vec);
	for (int i = 0; i < nv; i++)
		*(is_ld ? &o->dst[i] : &o->src[1 + i]) = regs[i];
	o->ndst = is_ld ? (uint8_t)nv : 0;
	o->nsrc = (uint8_t)(is_ld ? 1 : 1 + nv);
	return 0;
}

static int shape_cpasync(emu_pstate *ps, emu_op *o, char **parts, int np)
{
	int is_param;
	int64_t soff, sz;
	int is_param2;
	if (emu_addr_operand(ps, parts[0], &o->src[0], &o->imm, &is_param) < 0 ||
	    emu_addr_operand(ps, parts[1], &o->src[1], &soff, &is_param2) < 0)
		return -1;
	if (is_param || is_param2) /* a parameter's name is no address: cp.async [C+-32] */
		return emu_perr(ps, ps->line, "cp.async takes a shared and a global address, not a parameter's name");
	o->src[2] = emu_const_reg(ps, (uint64_t)soff);
	if (emu_parse_int(emu_skip_sp(parts[2]), &sz) < 0 || (sz != 4 && sz != 8 && sz != 16))
		return emu_perr(ps, ps->line, "cp.async size must be 4, 8 or 16");
	o->vec = (uint8_t)sz;
	o->nsrc = 3;
	if (np == 4) {
		if ((o->src[3] = emu_scalar_operand(ps, parts[3], ET_U32)) < 0)
			return -1;
		o->flags |= OPF_HAS_SRCSZ;
		o->nsrc = 4;
	}
	return 0;
}

static int shape_mma(emu_pstate *ps, emu_op *o, char **parts)
{
	int d[4], a[4], b[2], c[4];
	if (emu_vector_operand(ps, parts[0], ET_F32, d, 4, 1) != 4 ||
	    emu_vector_operand(ps, parts[1], ET_B32, a, 4, 0) != 4 ||
	    emu_vector_operand(ps, parts[2], ET_B32, b, 2, 0) != 2 ||
	    emu_vector_operand(ps, parts[3], ET_F32, c, 4, 0) != 4)
		return ps->why ? -1 : emu_perr(ps, ps->line, "mma operands are {4}, {4}, {2}, {4} registers");
	for (int i = 0; i < 4; i++) {
		o->dst[i] = d[i];
		o->src[i] = a[i];
		o->src[6 + i] = c[i];
	}
	o->src[4] = b[0];
	o->src[5] = b[1];
	o->ndst = 4;
	o->nsrc = 10;
	return 0;
}

/* issue 39: atom d, [a], b[, c] and red [a], b: the address in src[0] + imm, b and c in src[1], src[2]. */
static int shape_atom(emu_pstate *ps, emu_op *o, char **parts, int np, const char *full)
{
	int red = (o->flags & OPF_RED) != 0, at = red ? 0 : 1, is_param;
	int want = red ? 2 : o->mod == ATOM_CAS ? 4 : 3;
	if (np != want)
		return emu_perr(ps, ps->line, "'%s' takes %d operands, got %d", full, want, np);
	if (!red) {
		o->ndst = 1;
		if ((o->dst[0] = emu_dst_operand(ps, parts[0])) < EMU_NO_REG)
			return -1;
	}
	if (emu_addr_operand(ps, parts[at], &o->src[0], &o->imm, &is_param) < 0)
		return -1;
	if (is_param)
		return emu_perr(ps, ps->line, "'%s' takes an address, not a parameter's name", full);
	o->nsrc = (uint8_t)(np - at);
	for (int i = 1; i < o->nsrc; i++)
		if ((o->src[i] = emu_scalar_operand(ps, parts[at + i], (emu_type)o->type)) < 0)
			return -1;
	return 0;
}

/* issue 39: vote.sync.mode d, {!}p, membermask */
static int shape_vote(emu_pstate *ps, emu_op *o, char **parts)
{
	char *p = emu_skip_sp(parts[1]);
	if (*p == '!') {
		o->flags |= OPF_SRC_NEG;
		p++;
	}
	o->ndst = 1;
	o->nsrc = 2;
	if ((o->dst[0] = emu_dst_operand(ps, parts[0])) < EMU_NO_REG || (o->src[0] = emu_scalar_operand(ps, p, ET_PRED)) < 0 ||
	    (o->src[1] = emu_scalar_operand(ps, parts[2], ET_U32)) < 0)
		return -1;
	return 0;
}

/* issue 39: local memory, printf, assert */
/* The helpers a kernel's PTX calls that the emulator runs, and the arguments
 * each takes: assert()'s fails the run as the GPU's kernel fails
 * (__assertfail(msg, file, line, func, charsize)); printf's writes a line
 * (vprintf(fmt, args): args a local buffer). */
static const struct {
	const char *callee;
	emu_opcode code;
	int nargs;
} callees[] = {
	{"__assertfail", OP_TRAP, 5}, {"vprintf", OP_PRINTF, 2},
};

/* call[.uni] [(ret),] callee, (args...): the callee is the first operand not
 * in parentheses, the arguments those after it; each argument's register
 * (what st.param wrote) becomes a source. */
static int shape_call(emu_pstate *ps, emu_op *o, char **parts, int np)
{
	int at = 0;
	while (at < np) {
		char *w = emu_skip_sp(parts[at]);
		emu_rtrim(w);
		if (*w != '(' && !strchr(w, ')'))
			break;
		at++;
	}
	if (at == np)
		return emu_perr(ps, ps->line, "call without a callee");
	char *callee = emu_skip_sp(parts[at]);
	emu_rtrim(callee);
	size_t c = 0;
	while (c < ARRAY_LEN(callees) && strcmp(callee, callees[c].callee))
		c++;
	int f = c == ARRAY_LEN(callees) ? emu_func_ref(ps, callee) : -1;
	if (c == ARRAY_LEN(callees) && f < 0) {
		if (*callee == '%')
			return emu_punsup(ps, ps->line, "call through a function pointer ('%.200s'): the emulator runs direct "
					  "calls of the module's .func only (run on a GPU)", callee);
		return emu_punsup(ps, ps->line, "call to '%.200s': no .func of that name in the module, and not assert's or "
				  "printf's (run on a GPU)", callee);
	}
	if (f >= 0) { /* issue 39: a .func of the module; its return values land in the (retval) arguments */
		o->code = OP_CALL;
		o->imm = f;
		o->ndst = 0;
		for (int i = 0; i < at; i++) {
			char *w = emu_skip_sp(parts[i]);
			w += *w == '(';
			w = emu_skip_sp(w);
			w[strcspn(w, ") \t")] = 0;
			int cp = *w ? callparam(ps, w, strlen(w)) : -1;
			if (cp < 0 || o->ndst == EMU_MAX_FUNC_RETS)
				return emu_perr(ps, ps->line, "call return value '%.200s' is no .param declared for the call", w);
			o->dst[o->ndst++] = ps->callregs[cp];
		}
	} else {
		o->code = (uint8_t)callees[c].code;
		o->mod = callees[c].code == OP_TRAP ? TRAP_ASSERT : 0;
	}
	o->nsrc = 0;
	for (int i = at + 1; i < np; i++) {
		char *w = emu_skip_sp(parts[i]);
		w += *w == '(';
		w = emu_skip_sp(w);
		w[strcspn(w, ") \t")] = 0;
		if (!*w)
			continue;
		int cp = callparam(ps, w, strlen(w));
		if (cp < 0)
			return emu_perr(ps, ps->line, "call argument '%.200s' is no .param declared for the call", w);
		if (o->nsrc == EMU_MAX_SRC)
			return emu_punsup(ps, ps->line, "a call of more than %d arguments", EMU_MAX_SRC);
		o->src[o->nsrc++] = ps->callregs[cp];
	}
	if (f >= 0)
		return 0; /* the counts are checked against the .func's once it is decoded (emu_parse.c) */
	if (o->nsrc != callees[c].nargs)
		return emu_perr(ps, ps->line, "%s takes %d arguments, got %d", callee, callees[c].nargs, o->nsrc);
	return 0;
}

static int operands(emu_pstate *ps, const opdesc *d, emu_op *o, char **parts, int np, const char *full)
{
	int64_t v;
	int is_param;
	switch (d->shape) {
	case SH_NONE:
	case SH_IGNORE:
		return 0;
	case SH_CALL:
		return shape_call(ps, o, parts, np);
	case SH_ATOM:
		return shape_atom(ps, o, parts, np, full);
	case SH_VOTE:
		return shape_vote(ps, o, parts);
	case SH_HOPPER:
		return emu_decode_hopper(ps, o, full, parts, np);
	case SH_PLAIN:
		if (d->code == OP_CVT && cvt_pairs(o) != (np == 3))
			return emu_perr(ps, ps->line, "'%s' takes %d operands", full, cvt_pairs(o) ? 3 : 2);
		return shape_plain(ps, d, o, parts, np);
	case SH_MOV:
		return shape_mov(ps, d, o, parts, full);
	case SH_SETP:
		return shape_setp(ps, o, parts, np, full);
	case SH_LDST:
		return shape_ldst(ps, o, parts, full);
	case SH_SRCS:
		o->nsrc = (uint8_t)np;
		for (int i = 0; i < np; i++)
			if ((o->src[i] = emu_scalar_operand(ps, parts[i], ET_U32)) < 0)
				return -1;
		return 0;
	case SH_WAIT:
		if (emu_parse_int(emu_skip_sp(parts[0]), &v) < 0)
			return emu_perr(ps, ps->line, "%s takes an integer", d->name);
		if (v < 0 || v > EMU_MAX_WAIT_GROUP)
			return emu_perr(ps, ps->line, "%s %lld: N is 0..%d", d->name, (long long)v, EMU_MAX_WAIT_GROUP);
		o->imm = v;
		return 0;
	case SH_CPASYNC:
		return shape_cpasync(ps, o, parts, np);
	case SH_LDMATRIX: {
		o->type = ET_B32; /* each register holds two b16 */
		int nv = emu_maybe_vector(ps, parts[0], ET_B32, o->dst, 4, 1);
		if (nv < 0)
			return -1;
		if (nv != o->vec)
			return emu_perr(ps, ps->line, "'%s' needs %d registers", full, o->vec);
		o->ndst = (uint8_t)nv;
		o->nsrc = 1;
		if (emu_addr_operand(ps, parts[1], &o->src[0], &o->imm, &is_param) < 0)
			return -1;
		return is_param ? emu_perr(ps, ps->line, "ldmatrix takes a shared address, not a parameter's name") : 0;
	}
	case SH_MMA:
		return shape_mma(ps, o, parts);
	case SH_WGMMA:
		return emu_wgmma_decode(ps, o, full, parts, np);
	case SH_WMMA:
		return emu_wmma_decode(ps, o, full, parts, np);
	case SH_BRA: {
		char *l = emu_skip_sp(parts[0]);
		emu_rtrim(l);
		EMU_GROW(ps->uses, ps->nuses, ps->capuses);
		if (emu_name_copy(ps, ps->uses[ps->nuses].name, l, strlen(l)))
			return -1;
		ps->uses[ps->nuses++].op = ps->k->nops - 1;
		return 0;
	}
	}
	return -1;
}

/* ---- instructions ---- */

emu_op *emu_new_op(emu_pstate *ps)
{
	emu_kernel *k = ps->k;
	EMU_GROW(k->ops, k->nops, ps->capops);
	emu_op *o = &k->ops[k->nops++];
	memset(o, 0, sizeof *o);
	o->pred = -1;
	o->vgroup = -1;
	o->vec = 1;
	for (int i = 0; i < 4; i++)
		o->dst[i] = EMU_NO_REG;
	for (int i = 0; i < EMU_MAX_SRC; i++)
		o->src[i] = EMU_NO_REG;
	o->line = ps->line;
	o->regions = ps->line < ps->nlines ? ps->line_regions[ps->line] : 0;
	return o;
}

/* "@p" or "@!p" before an instruction: its register and s past it; -1 when
 * there is none, less after an error. */
static int guard(emu_pstate *ps, char **s, int *neg)
{
	*neg = 0;
	if (**s != '@')
		return -1;
	char *p = *s + 1;
	if (*p == '!') {
		*neg = 1;
		p++;
	}
	char name[EMU_NAME];
	size_t n = strcspn(p, " \t");
	if (emu_name_copy(ps, name, p, n))
		return -2;
	*s = emu_skip_sp(p + n);
	int idx;
	const emu_regdecl *rd = emu_find_regdecl(ps, name, &idx);
	if (!rd || rd->type != ET_PRED)
		return emu_perr(ps, ps->line, "unknown predicate '%s'", name) - 1;
	return rd->base + idx * rd->vec;
}

int emu_decode(emu_pstate *ps, char *stmt)
{
	char *s = emu_skip_sp(stmt);
	int neg;
	int pred = guard(ps, &s, &neg);
	if (pred < -1)
		return -1;
	char full[128];
	size_t n = strcspn(s, " \t");
	util_strlcpy(full, s, n + 1 < sizeof full ? n + 1 : sizeof full);
	s += n;
	words ws;
	const opdesc *d = split_words(full, &ws) < 0 ? NULL : lookup(&ws);
	if (!d)
		return unsupported(ps, full);
	emu_op *o = emu_new_op(ps);
	o->code = (uint8_t)d->code;
	o->cls = (uint8_t)d->cls;
	o->pred = (int16_t)pred;
	o->flags = (uint8_t)(d->opf | (neg ? OPF_PRED_NEG : 0));
	if (apply_modifiers(d, &ws, o) < 0 || special_rules(d, o) < 0)
		return unsupported(ps, full);
	if (ps->in_func && !strcmp(d->name, "ret"))
		o->code = OP_RET; /* issue 39: a .func returns to its caller */
	/* mma's words are taken in any order; its layouts are A .row, B .col, in that order */
	if (d->code == OP_MMA && !strstr(full, ".row.col."))
		return unsupported(ps, full);
	char *parts[16];
	int np = emu_split_commas(s, parts, 16);
	if (d->shape != SH_IGNORE && (np < d->nops_min || np > d->nops_max)) {
		if (d->nops_max == 0)
			return emu_perr(ps, ps->line, "'%s' takes no operands", full);
		if (d->nops_min == d->nops_max)
			return emu_perr(ps, ps->line, "'%s' takes %d operand%s, got %d", full, d->nops_min,
					d->nops_min == 1 ? "" : "s", np);
		return emu_perr(ps, ps->line, "'%s' takes %d or %d operands, got %d", full, d->nops_min, d->nops_max, np);
	}
	return operands(ps, d, o, parts, np, full) < 0 || ps->why ? -1 : 0;
}
