/* ptx: PTX source for people — a tokenizer with highlight classes, `// @name` … `// @end` regions, folding of repetitive runs and a static instruction mix. */
#ifndef PTXTUTOR_PTX_H
#define PTXTUTOR_PTX_H

/* One limit for every reader of regions: the emulator keeps a bit per region
 * in a 32-bit mask. A name longer than PTX_REGION_NAME - 1 bytes is refused. */
#define PTX_MAX_REGIONS 32
#define PTX_REGION_NAME 48
#define PTX_MAX_PROBLEMS 8
#define PTX_MAX_TOKENS 64
/* A run of at least this many same-shaped lines can be folded. */
#define PTX_FOLD_MIN 6
/* A folded run shows this many lines before its summary row and one after. */
#define PTX_FOLD_HEAD 2

typedef enum {
	PTX_TEXT,        /* names, punctuation, anything else */
	PTX_DIRECTIVE,   /* .version .entry .reg .param .shared ... */
	PTX_TYPE,        /* .f32 .u64 .pred .v4 (alone or as an opcode suffix) */
	PTX_INSTR,       /* opcode and its non-type modifiers: ld.global, fma.rn */
	PTX_REG,         /* %r1 %acc %tid.x */
	PTX_LABEL,       /* LOOP: and the target of bra */
	PTX_PRED,        /* the guard @%p1 / @!%p1 */
	PTX_COMMENT,     /* // ... and block comments */
	PTX_NUMBER,      /* 42 0x1f 0f3F800000 */
	PTX_NCLASSES
} ptx_class;

typedef struct {
	int off, len;    /* byte span within the line */
	ptx_class cls;
} ptx_token;

/* Tokenizes one line (len bytes, no newline). *in_block carries the "inside a
 * block comment" state from line to line (start with 0). Returns the number of
 * tokens written (at most max); white space is not a token. */
int ptx_tokenize_line(const char *line, int len, ptx_token *out, int max, int *in_block);

/* Per-byte classes for a line: cls[i] is the class of line[i] (spaces get
 * PTX_TEXT, or PTX_COMMENT inside a comment). */
void ptx_classify_line(const char *line, int len, unsigned char *cls, int *in_block);

typedef struct {
	char name[PTX_REGION_NAME];
	int first, last; /* 0-based lines of the `// @name` and `// @end` markers */
} ptx_region;

typedef struct {
	int line;        /* 1-based */
	char msg[96];
} ptx_problem;

/* The regions of a text, as the one region scanner finds them. */
typedef struct {
	ptx_region r[PTX_MAX_REGIONS];
	int n;
	ptx_problem problem[PTX_MAX_PROBLEMS]; /* the first problems found */
	int nproblems;                         /* all of them */
} ptx_regions;

/* The one region scanner: finds the `// @name` … `// @end` regions of text.
 * A marker is a line of its own: `//`, optional blanks, `@`, then a name of
 * letters, digits, '_' and '-'. Regions nest. Problems, each with its line:
 * an @end with no open region; a name defined twice (both are kept, lookups
 * find the first); a region with no @end (it runs to the last line); a
 * region over PTX_MAX_REGIONS or a name too long (refused; the @end that
 * closes it is no problem). Returns the number of problems. */
int ptx_regions_scan(const char *text, ptx_regions *out);
/* The first region with that name, or NULL. */
const ptx_region *ptx_regions_find(const ptx_regions *rs, const char *name);

typedef struct {
	int off, len;
	int block_in; /* inside a block comment when the line starts */
} ptx_line;

typedef struct {
	int first, n;    /* a run of n same-shaped lines starting at line first */
} ptx_fold;

typedef struct {
	char *text;      /* owned copy of the source */
	ptx_line *lines;
	int nlines;
	ptx_regions regions;
	ptx_fold *folds;
	int nfolds;
} ptx_doc;

/* Splits text into lines, finds regions and foldable runs. Problems (an
 * unclosed region, a stray @end, too many regions) are counted and described
 * in err as "line N: message" lines; the document is usable either way.
 * Returns the number of problems. */
int ptx_load(ptx_doc *d, const char *text, char *err, int errlen);
void ptx_free(ptx_doc *d);

/* The region with that name, or NULL. */
const ptx_region *ptx_region_find(const ptx_doc *d, const char *name);

/* The shape of a line for folding: digits collapsed to '#', spaces squeezed,
 * comments dropped. Writes at most len bytes including the NUL. */
void ptx_shape(const char *line, int n, char *out, int len);

/* One row of the displayed PTX: a source line, or the summary of a fold. */
typedef struct {
	int line;        /* source line (for a summary row: the first hidden line) */
	int hidden;      /* 0 for a source line; else lines hidden behind this row */
} ptx_row;

/* Builds the displayed rows. With fold set, each foldable run shows its first
 * PTX_FOLD_HEAD lines, a summary row and its last line, except runs that
 * [keep_first, keep_last] points into without covering them whole (pass
 * -1 -1 to keep none). Returns the
 * number of rows (at most max; call with max 0 to count). */
int ptx_view(const ptx_doc *d, int fold, int keep_first, int keep_last, ptx_row *rows, int max);

/* Static instruction mix: how many times each kind of instruction is written
 * in the file (not executed). The kind is the opcode, with the state space
 * for memory operations and the vector width: "fma", "ld.shared",
 * "ld.global.v4", "bar". Sorted by count, then name. */
typedef struct {
	char op[24];
	int count;
} ptx_mix_entry;

int ptx_mix(const ptx_doc *d, ptx_mix_entry *out, int max, int *total);

const char *ptx_class_name(ptx_class c);

/* Static shared memory a module declares: the bytes of every `.shared`
 * variable (each type's size, .v2/.v4, every [N] dimension, aligned to its
 * .align or its size), in every function and at module scope; `.extern`
 * (dynamic) arrays count nothing. What the JIT reports as static shared
 * memory for a one-kernel module. Saturates at INT_MAX. */
int ptx_static_smem(const char *text);

/* Whether the module is a debug build: `debug` among its .target's parts (`.target sm_90, debug`,
 * what nvcc -G writes; the JIT then compiles it without optimisation). */
int ptx_is_debug(const char *text);

#endif
