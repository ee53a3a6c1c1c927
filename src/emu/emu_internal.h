/* emu_internal: the decoded-module representation shared by the emulator's parser and interpreter. */
#ifndef PTXTUTOR_EMU_INTERNAL_H
#define PTXTUTOR_EMU_INTERNAL_H

#include <stdint.h>
#include "emu/emu.h"
#include "course/ptxloc.h"

/* Value types. Every register is a 64-bit slot per lane; narrower values sit in
 * the low bits (f32 as its bit pattern, f16 in the low 16 bits). */
typedef enum {
	ET_NONE, ET_PRED,
	ET_B8, ET_B16, ET_B32, ET_B64,
	ET_U8, ET_U16, ET_U32, ET_U64,
	ET_S8, ET_S16, ET_S32, ET_S64,
	ET_F16, ET_F16X2, ET_F32, ET_F64,
	ET_BF16, ET_BF16X2,
	/* cvt only, and last (declarations and mov stop before ET_TF32): an f32
	 * with its 13 low bits 0; two 8-bit floats in 16 bits */
	ET_TF32, ET_E4M3X2, ET_E5M2X2,
	ET_COUNT
} emu_type;

typedef struct {
	const char *name;
	int bytes;
	char kind;   /* 'u' bits/unsigned, 's' signed, 'f' float, 'p' predicate */
} emu_type_info;
extern const emu_type_info emu_types[ET_COUNT];

typedef enum {
	OP_INVALID,
	OP_MOV, OP_PACK, OP_UNPACK,
	OP_ADD, OP_SUB, OP_MUL, OP_MAD, OP_FMA, OP_DIV, OP_REM,
	OP_MIN, OP_MAX, OP_NEG, OP_ABS,
	OP_AND, OP_OR, OP_XOR, OP_NOT, OP_SHL, OP_SHR,
	OP_SETP, OP_SELP, OP_CVT, OP_CVTA,
	OP_RCP, OP_SQRT, OP_RSQRT, OP_EX2, OP_LG2,
	OP_LD, OP_ST,
	OP_BAR, OP_NOP,
	OP_CPASYNC, OP_CPCOMMIT, OP_CPWAIT,
	OP_LDMATRIX, OP_MMA, OP_SHFL,
	OP_POPC, OP_CLZ, OP_BREV, OP_BFE, OP_BFI, OP_PRMT, OP_LOP3, OP_SHF,
	OP_BRA, OP_EXIT, OP_TRAP,
	OP_WGMMA, OP_WGFENCE, OP_WGCOMMIT, OP_WGWAIT,   /* Hopper's warpgroup MMA: emu_wgmma.c */
	/* Hopper's asynchronous and cluster machinery (emu_hopper.c); op->mod says which */
	OP_MBAR,        /* mbarrier.*: MB_* */
	OP_BULK,        /* cp.async.bulk.*: BK_* */
	OP_CLUSTER,     /* mapa, barrier.cluster, elect, setmaxnreg, fence.proxy.async, bar.arrive: CL_* */
	OP_STMATRIX,
	/* issue 39: f64, bf16x2, dp4a */
	OP_DP,          /* dp4a, dp2a.lo, dp2a.hi: DP_* */
	/* issue 39: wmma */
	OP_WMMA,        /* wmma.load.a/b/c, wmma.store.d, wmma.mma (emu_wmma.c): WM_* in op->mod */
	/* issue 39: local memory, printf, assert */
	OP_PRINTF,      /* call vprintf, (fmt, args): emu_exec_local.c */
	/* issue 39: atomics, calls, warp votes and reductions (emu_exec_atom.c, emu_exec_call.c) */
	OP_ATOM,        /* atom, red (OPF_RED): ATOM_* in op->mod */
	OP_CALL,        /* call of a .func of the module: op->imm indexes emu_kernel.funcs */
	OP_RET,         /* ret inside a .func (ret in an entry is OP_EXIT) */
	OP_WARP,        /* vote, activemask, redux: WV_* in op->mod */
	OP_BFIND, OP_COPYSIGN,
	OP_CLOCK,       /* mov from %clock, %clock64, %globaltimer: the emulated clock */
	OP_COUNT
} emu_opcode;

/* Memory spaces. */
enum { SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_PARAM, SP_CLUSTER, SP_LOCAL }; /* SP_CLUSTER: shared::cluster */

/* Modifiers held in op->mod, by opcode. */
enum { MUL_LO, MUL_HI, MUL_WIDE };                    /* mul, mad */
enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,  /* setp */
       CMP_LO, CMP_LS, CMP_HI, CMP_HS,
       CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN };
enum { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI, RND_RMI, RND_RPI, RND_RNA }; /* cvt */
enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
enum { CVTA_FROM, CVTA_TO };                          /* cvta.space / cvta.to.space */
enum { SHF_L, SHF_R };                                /* shf */
enum { PRMT_DEFAULT, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 }; /* prmt */
enum { TRAP_TRAP, TRAP_ASSERT };                      /* trap, call __assertfail */
enum { MB_INIT, MB_ARRIVE, MB_ARRIVE_TX, MB_EXPECT_TX, MB_TEST_WAIT, MB_TRY_WAIT };  /* OP_MBAR */
enum { BK_LOAD, BK_STORE, BK_COMMIT, BK_WAIT };       /* OP_BULK */
/* issue 39: f64, bf16x2, dp4a */
enum { DP_4A, DP_2A_LO, DP_2A_HI };                   /* OP_DP */
enum { MINMAX_NUM, MINMAX_NAN };                      /* min, max: .NaN gives NaN when either input is */
enum { FMA_PLAIN, FMA_RELU };                         /* fma of f16, bf16 and their pairs: .relu */
enum { WM_LOAD_A, WM_LOAD_B, WM_LOAD_C, WM_STORE_D, WM_MMA };  /* OP_WMMA (issue 39) */
/* issue 39: atomics, warp votes and reductions */
enum { ATOM_ADD, ATOM_MIN, ATOM_MAX, ATOM_INC, ATOM_DEC, ATOM_AND, ATOM_OR, ATOM_XOR, ATOM_EXCH, ATOM_CAS }; /* OP_ATOM */
enum { WV_ACTIVEMASK, WV_BALLOT, WV_ANY, WV_ALL, WV_UNI,                       /* OP_WARP */
       WV_RADD, WV_RMIN, WV_RMAX, WV_RAND, WV_ROR, WV_RXOR };
enum { CLOCK_32, CLOCK_64, CLOCK_GLOBALTIMER };                                /* OP_CLOCK */
enum { CL_MAPA, CL_ARRIVE, CL_WAIT, CL_ELECT, CL_SETMAXNREG, CL_FENCE_PROXY, CL_BAR_ARRIVE }; /* OP_CLUSTER */

#define EMU_NO_REG (-1)
#define EMU_MAX_SRC 12

/* One decoded instruction. Operands are register indices; immediates,
 * symbol addresses and parameter offsets were turned into constant registers
 * at parse time, so the interpreter reads every operand the same way. */
typedef struct {
	uint8_t code;        /* emu_opcode */
	uint8_t type;        /* the instruction's (destination) type */
	uint8_t type2;       /* source type of cvt; combining op of setp (0 none, 1 and, 2 or, 3 xor);
			      * the rounding (RND_*) of add, sub, mul (.rz .rm .rp: f64 only) */
	uint8_t mod;         /* see the enums above */
	uint8_t space;       /* memory space; cvta's space */
	uint8_t vec;         /* 1, 2, 4: vector width of ld/st; matrices of ldmatrix */
	uint8_t flags;       /* OPF_* */
	uint8_t cls;         /* emu_class */
	uint8_t ndst, nsrc;
	int16_t pred;        /* guard predicate register, or -1 */
	int32_t dst[4];
	int32_t src[EMU_MAX_SRC];
	int64_t imm;         /* address offset of ld/st/cp.async; branch target; size of cp.async */
	int line;
	uint32_t regions;    /* bit i: inside region i */
	int8_t vgroup;       /* ld.shared.b32 that ptxas merges into one LDS.128 (emu_vgroup.c):
			      * its place in the group, 0 the first (lowest offset) .. 3; -1 none */
} emu_op;

#define OPF_PRED_NEG 1   /* @!p */
#define OPF_TRANS    2   /* ldmatrix .trans */
#define OPF_SRC_NEG  4   /* setp's extra predicate is negated (!p) */
#define OPF_WAIT_ALL 8   /* cp.async.wait_all */
#define OPF_HAS_SRCSZ 16 /* cp.async with a src-size operand */
#define OPF_PRED_OUT 32  /* shfl with a |p output */
#define OPF_NC       64  /* ld.global.nc: the read-only path, a plain load here */
#define OPF_CLAMP   128  /* shf.clamp (shf.wrap otherwise) */
/* Hopper ops and cvt reuse the bits above for their own modifiers: */
#define OPF_PARITY    2  /* mbarrier.test_wait/try_wait.parity */
#define OPF_CLUSTER_SP 4 /* mbarrier.*.shared::cluster: the address may name another CTA */
#define OPF_MULTICAST 2  /* cp.async.bulk.tensor .multicast::cluster */
#define OPF_READ      2  /* cp.async.bulk.wait_group.read */
#define OPF_INC       2  /* setmaxnreg.inc (.dec otherwise) */
#define OPF_SATFINITE 2  /* cvt .satfinite */
#define OPF_SAT       4  /* cvt .sat (issue 39) */
#define OPF_RED       2  /* red: atom without a result (issue 39) */
#define OPF_SHIFTAMT  2  /* bfind.shiftamt (issue 39) */

typedef enum {
	SPEC_TID_X, SPEC_TID_Y, SPEC_TID_Z,
	SPEC_NTID_X, SPEC_NTID_Y, SPEC_NTID_Z,
	SPEC_CTAID_X, SPEC_CTAID_Y, SPEC_CTAID_Z,
	SPEC_NCTAID_X, SPEC_NCTAID_Y, SPEC_NCTAID_Z,
	SPEC_LANEID, SPEC_WARPID, SPEC_NWARPID,
	SPEC_CLUSTER_CTARANK, SPEC_CLUSTER_NCTARANK,
	SPEC_CLUSTERID_X, SPEC_CLUSTERID_Y, SPEC_CLUSTERID_Z,
	SPEC_NCLUSTERID_X, SPEC_NCLUSTERID_Y, SPEC_NCLUSTERID_Z,
	SPEC_CLUSTER_CTAID_X, SPEC_CLUSTER_CTAID_Y, SPEC_CLUSTER_CTAID_Z,
	SPEC_CLUSTER_NCTAID_X, SPEC_CLUSTER_NCTAID_Y, SPEC_CLUSTER_NCTAID_Z,
	SPEC_IS_EXPLICIT_CLUSTER,
	SPEC_COUNT
} emu_special;

/* The longest name the emulator takes (entries, parameters, registers,
 * labels, symbols), terminator included; nvcc's mangled names are 70-200
 * characters and <entry>_param_N adds 8. A longer one is refused by name. */
#define EMU_NAME 512

typedef struct {
	char name[EMU_NAME];
	emu_type type;
	int bytes;           /* total bytes (arrays) */
	int offset;          /* in the parameter buffer */
} emu_param;

typedef struct {
	char name[EMU_NAME];
	emu_op *ops;
	int nops;
	int nregs;           /* including constants and special registers */
	uint64_t *konst;     /* nregs values: the constant registers' values (others 0) */
	uint8_t *is_const;   /* nregs flags */
	int special_reg[SPEC_COUNT]; /* register of each special register used, or -1 */
	emu_param *params;
	int nparams;
	int param_bytes;
	int smem_static;     /* bytes of .shared declared in the entry and module */
	int uses_dynamic_smem;
	int local_bytes;     /* .local of the entry (nvcc's __local_depot): per thread */
	int maxnreg;         /* .maxnreg of the entry, 0 when absent: setmaxnreg's pool */
	unsigned reqcluster[3]; /* .reqnctapercluster, 0 when absent */
	int line;
	struct emu_wgmma_op *wgmma; /* the operands of each wgmma.mma_async (emu_wgmma.h); op->imm indexes it */
	int nwgmma;
	struct emu_wmma_op *wmma;   /* the operands of each wmma instruction (emu_wmma.h); op->imm indexes it (issue 39) */
	int nwmma;
	struct emu_func *funcs;     /* the .func bodies its calls reach, laid out after its own ops (issue 39) */
	int nfuncs;
} emu_kernel;

/* issue 39: a .func of the module, decoded into the op array of each entry
 * that calls it. Its registers are [reg0, reg1) of the kernel's (its
 * parameters and return values among them) and its .local bytes [local0,
 * local1): a call saves them and its ret restores them, so a recursive call
 * finds its caller's values again. */
#define EMU_MAX_FUNC_PARAMS EMU_MAX_SRC
#define EMU_MAX_FUNC_RETS 4
typedef struct emu_func {
	char name[EMU_NAME];
	int entry;           /* its first op */
	int reg0, reg1;
	int local0, local1;
	int nparams, nrets;
	int param[EMU_MAX_FUNC_PARAMS]; /* the registers ld.param of a parameter reads */
	int ret[EMU_MAX_FUNC_RETS];     /* the registers st.param of a return value writes */
	int line;
} emu_func;

/* A module-level .global/.const variable (a __device__ variable, the strings
 * nvcc passes to vprintf and __assertfail): its address is EMU_GLOBALS_WINDOW +
 * (its index << EMU_GLOBAL_VAR_SHIFT). Each launch gets its own zeroed copy of
 * the declared bytes with the initialiser's bytes (byte arrays only) in front;
 * on a GPU the variable outlives the launch, so a kernel that keeps state there
 * between launches (a counter it does not reset) behaves differently here. */
#define EMU_GLOBAL_VAR_SHIFT 30                 /* at most 1 GB a variable ... */
#define EMU_MAX_GVARS 64                        /* ... and 64 of them fill the 64 GB window */
#define EMU_MAX_GVAR_BYTES (256ULL << 20)       /* what the emulator holds for them in all */
typedef struct {
	uint8_t *data;       /* the initialiser's bytes; NULL: none kept */
	int size;            /* their count */
	uint64_t bytes;      /* declared: the element's size x the dimensions */
} emu_gvar;

struct emu_module {
	char path[512];
	emu_gvar *gvars;                     /* the module-level variables, in order */
	int ngvars;
	emu_kernel *k;
	int nk;
	emu_region regions[EMU_MAX_REGIONS]; /* names and lines only */
	int nregions;
	char **entries;                      /* every .entry of the file, parsed or not */
	int nentries;
	ptx_locs *locs;                      /* the CUDA lines nvcc recorded (.loc); NULL: none */
};

/* Adds to e, a problem at a PTX line, the CUDA line above it (locs: the
 * module's; NULL: none) and that line's text when the .cu is found where
 * nvcc recorded it or beside the PTX (emu_loc.c). */
void emu_loc_fill(const ptx_locs *locs, run_error *e);

/* Looks an entry up; NULL when absent. */
const emu_kernel *emu_find_kernel(const emu_module *m, const char *name);

/* Global buffers handed to a launch. Device addresses are virtual: buffer i
 * lives at (i + 1) << EMU_GLOBAL_SHIFT, so a stray pointer is caught. */
#define EMU_GLOBAL_SHIFT 36
#define EMU_SHARED_WINDOW (15ULL << EMU_GLOBAL_SHIFT) /* generic addresses of shared memory */
#define EMU_GLOBALS_WINDOW (14ULL << EMU_GLOBAL_SHIFT) /* module-level .global variables: addresses only */
#define EMU_PARAM_WINDOW (13ULL << EMU_GLOBAL_SHIFT)   /* generic addresses of the parameters (cvta.param) */
#define EMU_LOCAL_WINDOW (12ULL << EMU_GLOBAL_SHIFT)   /* generic addresses of the thread's local memory (cvta.local) */
/* A shared::cluster address: CTA rank r's byte off is off + (r + 1) << 24;
 * an address below 1 << 24 is the executing CTA's (its shared::cta window
 * lies inside the cluster's, as the PTX ISA says). */
#define EMU_CLUSTER_SHIFT 24
#define EMU_MAX_CLUSTER 16                /* CTAs of a cluster (16 with the non-portable size) */
#define EMU_MAX_MBARRIERS 256             /* mbarriers of one CTA */
#define EMU_MAX_BULK_PENDING 4096         /* TMA copies of a cluster not yet landed */
/* The emulator's tensor map: what build_params writes into the 128 bytes of
 * a CUtensorMap parameter, and what a TMA copy reads back (and checks: the
 * kernel may point anywhere in its parameters). */
#define EMU_TMAP_MAGIC 0x50414d54u        /* "TMAP" */
typedef struct {
	uint32_t magic;
	uint8_t buf;                      /* 0 A, 1 B, 2 C */
	uint8_t elem;                     /* bytes of an element */
	uint8_t swizzle;                  /* 0 none, 1 32B, 2 64B, 3 128B (CU_TENSOR_MAP_SWIZZLE_*) */
	uint8_t rank;                     /* 1..5 */
	uint64_t dims[5];                 /* elements, innermost first */
	uint64_t strides[5];              /* bytes; strides[0] is the element's */
	uint32_t box[5];
} emu_tmap;
_Static_assert(sizeof(emu_tmap) <= 128, "a tensor map is 128 bytes of parameter space");
#define EMU_MAX_BUFS 4

typedef struct {
	uint8_t *host;
	uint64_t bytes;
} emu_buffer;

/* Per static instruction counters; summed into kernel and region totals. */
typedef struct {
	uint64_t issued, threads;
	uint64_t requests, sectors;      /* global */
	uint64_t wavefronts, ideal;      /* shared */
	uint64_t requests2, sectors2;    /* cp.async: global side in requests/sectors, shared side here */
	uint64_t wg_inst, wg_flops, wg_bytes; /* wgmma.mma_async: per warpgroup, FLOPs, shared operand bytes */
	uint64_t bytes, bytes2;          /* bytes the active lanes move: global side, shared side */
	emu_record *rec;                 /* the op whose access emu_options.record asks for; NULL for the others */
	uint64_t bytes_l2, bytes_smem;   /* TMA: bytes read from L2 (once a copy), written to shared (per CTA) */
	uint64_t gwave;                  /* global loads: L1 data-stage wavefronts, one per 128-byte line */
	uint64_t wave_sass, merged;      /* shared: wavefronts as the SASS does them (vgroup), instructions it folds away */
	uint64_t lrequests, lsectors;    /* local: requests and sectors (emu_count_local) */
} emu_opcount;

/* Marks the groups of four scalar 4-byte ld.shared at offsets +0, +4, +8,
 * +12 (+0 a multiple of 16) from one base register within a straight run of
 * code, which ptxas compiles to one LDS.128 when the base is 16-byte aligned
 * (emu_vgroup.c; checked per warp at run time). */
void emu_mark_vgroups(emu_kernel *k);

/* The record hook (emu_run.c): arm when the recorded op issues in the asked
 * block and warp for the asked time; take the access counted next. */
void emu_record_arm(emu_record *r, const unsigned ctaid[3], int warp);
void emu_record_take(emu_record *r, int kind, const int64_t addr[32], uint32_t mask, int bytes);

typedef struct {
	const emu_kernel *k;
	const char *path;
	unsigned grid[3], block[3];
	unsigned cluster[3];             /* blocks of a cluster; 0 (or 1) each: no clusters */
	unsigned smem_dynamic;
	const uint8_t *param;            /* param_bytes */
	emu_buffer bufs[EMU_MAX_BUFS];
	int nbufs;
	long long max_warp_inst;
	emu_progress_fn progress;        /* after each block; nonzero stops the launch */
	void *progress_ctx;
	double deadline;                 /* util_now() after which the run stops (EMU_ERR_DEADLINE); 0: none */
	volatile sig_atomic_t *cancel;   /* nonzero: stop (EMU_ERR_CANCELLED); NULL: none (emu_options.cancel) */
	int footprint;                   /* count each CTA's distinct global sectors read (emu_options.footprint) */
	struct emu_tracer *tracer;       /* the stall model's recorder (emu_trace.h); NULL: none */
	const emu_module *mod;           /* its module-level variables (the strings of printf and assert) */
	emu_buffer gvar[EMU_MAX_GVARS];  /* this launch's copies of them (emu_exec_at) */
	run_printf *printed;             /* printf's lines; NULL: dropped (a check's second launch) */
	/* results */
	unsigned long long footprint_sectors; /* summed over the CTAs run */
	emu_opcount *cnt;                /* nops */
	unsigned long long races;
	run_error race;                  /* the first race */
	long long warps;
	long long blocks_done;
} emu_launch;

/* Runs the whole grid. Returns EMU_OK, or why not (EMU_ERR_FAULT,
 * EMU_ERR_BUDGET, EMU_ERR_DEADLINE, EMU_ERR_UNSUPPORTED, EMU_ERR_BAD_REQUEST
 * for the launch shape or a shared size over EMU_MAX_SMEM) with where and
 * what in *e (emu_fail fills it). */
emu_error emu_exec_at(emu_launch *L, run_error *e);
/* The same with the error written (run_error_text) into err, for tools and tests. */
emu_error emu_exec(emu_launch *L, char *err, int errlen);

#endif
