/* sass: what ptxas made of a PTX kernel, as text — the `.file`/`.loc` copy that maps every PTX instruction to its line, the disassembler's SASS parsed and grouped by PTX line, and the instruction mix counted. */
#ifndef PTXTUTOR_SASS_H
#define PTXTUTOR_SASS_H

#include <stddef.h>
#include <stdint.h>

/* The kinds counted: an opcode (its first word), with a modifier where the
 * width matters (LDS.128), or a flag on an operand (.reuse). */
typedef enum {
	SASS_FFMA,
	SASS_LDS,      /* every LDS, LDS.128 included */
	SASS_LDS128,
	SASS_LDSM,     /* ldmatrix */
	SASS_STS,
	SASS_LDG,
	SASS_LDGSTS,   /* cp.async: global to shared without registers */
	SASS_STG,
	SASS_UTMALDG,  /* TMA: a tensor tile copied by the copy engine */
	SASS_HMMA,
	SASS_HGMMA,
	SASS_BAR,
	SASS_LDL,      /* local memory: register spills (or a stack array) */
	SASS_STL,
	SASS_REUSE,    /* instructions with a .reuse operand (the register reuse cache) */
	SASS_NKINDS
} sass_kind;

typedef struct {
	int total;     /* every instruction, NOPs included (what a plain disassembly lists) */
	int kind[SASS_NKINDS];
} sass_counts;

/* The key in JSON and placeholders ("lds128"), and the name as SASS writes it ("LDS.128"). */
const char *sass_kind_key(sass_kind k);
const char *sass_kind_name(sass_kind k);

typedef struct {
	int line;          /* 1-based PTX line it came from; 0: no line information */
	unsigned addr;     /* byte offset in the function */
	int label;         /* N of a `.L_x_N:` label just before it (a branch target); -1: none */
	char text[112];    /* "@P0 LDS.128 R4, [R2+0x10]" (the ';' dropped) */
	/* Its control bits, where the listing has the encoding (nvdisasm -hex, cuobjdump -sass): the top 23 of
	 * the 128 (Volta on; Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking",
	 * 2018): the scoreboard a variable-latency result sets (wbar) and one its source registers' read sets
	 * (rbar), 7 for none, and the scoreboards it waits for before it issues (wait, a mask of six). */
	uint8_t has_ctl, wbar, rbar, wait;
} sass_instr;

typedef struct {
	char entry[128];
	int regs;          /* registers per thread; -1 unknown */
	int stack;         /* bytes of stack frame; -1 unknown */
	int spill_stores, spill_loads; /* bytes, from ptxas -v; -1 unknown */
	int has_lines;     /* the disassembly carried line information */
	sass_instr *ins;   /* in address order */
	int n;
	char tools[96];    /* what made it: "ptxas -arch=sm_90 -lineinfo + nvdisasm -g" */
	char arch[16];
	/* Which compiler made the cubin and which tool read it, with versions:
	 * "ptxas 13.0.88" or "driver JIT 580.159.04"; "nvdisasm 13.0.88". */
	char compiler[64];
	char disassembler[48];
	char gpu[64];      /* the GPU it is for: the live one (JIT) or the modelled one (set by the caller) */
	/* A recorded copy (assets/sass/NN.sass, course/sass_record.h) rather than
	 * compiled here: the recording's date ("" when compiled here) and the
	 * command that made it. */
	char recorded_date[16];
	char recorded_by[160];
} sass_kernel;

void sass_kernel_free(sass_kernel *k);

/* Whether an instruction's text runs on the INT (ALU) pipe (MOV, IADD3, SHF, ISETP, ...). */
int sass_alu(const char *text);
/* Whether a warp issues it after a BAR.SYNC.DEFER_BLOCKING before the barrier opens: arithmetic (the
 * INT pipe's, floating point, the uniform datapath's), not a memory, control or barrier instruction. */
int sass_passes_bar(const char *text);
/* Whether it is an IMAD of any form (IMAD.MOV, IMAD.WIDE, IMAD.SHL, ...): the FMA pipe's heavy half on GH100. */
int sass_imad(const char *text);
/* Whether it reads or writes memory other than the constant banks (LDG, LDL, LDS, STS, ATOM, RED, ...). */
int sass_memory(const char *text);
/* Whether it goes through the LG queue: a global or local load or store (LDG, STG, LDL, STL, LDGSTS, ...). */
int sass_lg(const char *text);

/* Adds one instruction's text to the counts. */
void sass_count_instr(const char *text, sass_counts *c);
/* The counts of the instructions from PTX lines first..last (1-based,
 * inclusive); first 0 counts them all, those without a line too. */
void sass_count(const sass_kernel *k, int first, int last, sass_counts *c);

/* The instructions grouped by PTX line: ordered by line (those without one
 * first), then address. A malloc'd array of k->n pointers into k->ins. */
const sass_instr **sass_by_line(const sass_kernel *k);

/* The instructions that came from PTX line `line` (1-based): their indices
 * into k->ins, in address order, at most max of them; returns how many there
 * are (the reverse: k->ins[i].line is an instruction's PTX line). */
int sass_of_line(const sass_kernel *k, int line, int *idx, int max);

/* Each instruction's innermost loop, a backward branch's body (to a `.L_x_N` label): k->ins[lo[i] .. hi[i]],
 * the branch at hi[i]; -1 in both for one in no loop. lo and hi hold k->n each. */
void sass_loops(const sass_kernel *k, int *lo, int *hi);
/* The same into two arrays it allocates (the caller frees both). */
void sass_loops_new(const sass_kernel *k, int **lo, int **hi);

/* What instruction i's control bits say, for a reader (nothing where the listing has no encodings): the
 * scoreboard its result sets, the one its source registers' read sets (a memory instruction's), and those
 * it waits on, each with the PTX lines of the instructions that set it since the last wait on it, in its loop
 * (lo, hi: sass_loops): "waits sb5 <- 144 149 154 +10; sets sb0 on reading its registers". Returns the length written (0:
 * nothing to say). */
int sass_control_note(const sass_kernel *k, const int *lo, const int *hi, int i, char *buf, size_t len);

/* ---- figures: the {sass.*} placeholders and the measured-data file's rows ----
 *
 * A figure is named by a scope and a word: {sass.L5.inner_loop.LDS128} is
 * lesson 5's `// @inner-loop` region ('-' becomes '_' in a key), LDS.128
 * instructions; {sass.L9.kernel.HGMMA} the whole kernel's. The words are the
 * kinds as SASS writes them without dots (FFMA, LDS128, HGMMA, reuse ...) and
 * `instructions`; for the kernel also `registers`, `spills` (bytes stored and
 * loaded) and `stack` (bytes). The file's metric for it is
 * "sass.SCOPE.WORD"; these rows are printed by `ptxtutor sass N --rows`. */

/* The key of a scope: "kernel" for NULL, else the region's name with '-' as '_'. */
void sass_scope_key(const char *region, char *buf, size_t len);
/* The value of figure `word` in counts c (those of a scope of k); kernel: the
 * scope is the whole kernel (registers, spills, stack are only there).
 * Returns 0, or -1 for an unknown word or a figure k does not know (-1). */
int sass_figure(const sass_kernel *k, const sass_counts *c, int kernel, const char *word, int *out);
/* The words the rows carry, in order: NULL past the last; *kernel_only set
 * for those of the whole kernel alone; *unit "count", "regs" or "B". */
const char *sass_row_word(int i, int *kernel_only, const char **unit);

/* The instrumented copy of a PTX text: `.file 1 "name"` after the module's
 * `.address_size` (or `.target`), and `.loc 1 N 0` before every instruction
 * of a function body, N its line in the original text; `.file`/`.loc` lines
 * already there become comments. Returns the malloc'd text; *nlocs the number
 * of .loc directives inserted. */
char *sass_instrument(const char *ptx, const char *name, int *nlocs);

/* Parses `nvdisasm -g -c` (or `cuobjdump -sass`) output into the function
 * named entry: its instructions with their PTX lines, and registers when the
 * output says them (SHI_REGISTERS). Returns 0, or -1 with err when the entry
 * is not there. Keeps what k already holds for regs/stack when unknown. */
int sass_parse_disasm(const char *text, const char *entry, sass_kernel *k, char *err, size_t errlen);

/* Reads `ptxas -v` output for entry: registers, stack frame, spill bytes. */
void sass_parse_ptxas_v(const char *text, const char *entry, sass_kernel *k);

#endif
