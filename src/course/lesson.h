/* lesson: parse lessons/NN-id.md (front matter, pages, @ptx anchors, exercises) into a course. */
#ifndef PTXTUTOR_LESSON_H
#define PTXTUTOR_LESSON_H

#include <stddef.h>

#include "base/expr.h"
#include "course/dtype.h"

/* Pages, exercises and lessons are allocated as they come. These few fixed
 * limits remain; going past one is a file:line error, never a silent cut. */
#define LESSON_MAX_PARAMS 16
#define LESSON_MAX_ANCHORS 4
#define LESSON_EXPR 64
#define LESSON_ARGS 256

/* The most blocks a cluster may have: the portable size every sm_90 GPU
 * launches without CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED. */
#define LESSON_MAX_CLUSTER 8

typedef struct {
	char name[EXPR_NAME_MAX];
	long long value;
	int runtime; /* the kernel honours it at run time; otherwise a model-only what-if */
} lesson_param;

typedef struct {
	char key[48];                 /* the model value that answers it, e.g. "ai.shared" */
	expr_env overrides;           /* PARAM=VALUE given on the @exercise line */
	double tol;                   /* relative tolerance, default 0.01 */
	char *question;               /* owned */
	char *hint;                   /* owned */
	char *check;                  /* owned; @check: the hint's quantity as an expression (NULL: none) */
	char *answer;                 /* owned; may hold placeholders */
	int line;                     /* line of the @exercise directive */
} lesson_exercise;

typedef struct {
	char title[96];
	char *text;                   /* page body without directives (owned), placeholders unexpanded */
	int line;                     /* line of the page's heading in the file */
	char anchors[LESSON_MAX_ANCHORS][32]; /* @ptx regions highlighted on this page */
	int nanchors;
	char numbers[32];             /* @numbers: the section of the numbers pane the page talks about; "" none */
	char warpview[48];            /* @warpview: "LINE", "REGION" or "REGION N" (its Nth memory line); "" none */
	lesson_exercise *ex;          /* nex of them (owned) */
	int nex;
} lesson_page;

typedef struct {
	int number;                   /* NN from the file name */
	char id[32];
	char title[96];
	char path[256];               /* the .md file, relative to the root */
	char ptx_path[256];           /* empty for a lesson without a kernel */
	char entry[64];
	dtype dt;                     /* A and B */
	dtype out;                    /* C (`out:`, default f32) */
	int b_kmajor;                 /* `bmajor: k`: B stored N x K (K-major); default n, K x N */
	char layout[64];              /* `layout: A=col,B=row,C=col` (course/argspec.h argspec_layout_parse); "" row-major */
	char ld[LESSON_ARGS];         /* `ld: A=M+8,C=N`: leading dimensions, expressions over M N K and params; "" tight */
	unsigned cluster[3];          /* blocks per cluster (`cluster:`, default 1 1 1) */
	lesson_param params[LESSON_MAX_PARAMS];
	int nparams;
	char block[3][LESSON_EXPR];   /* threads per block, expressions ("1" when absent) */
	char tile[2][LESSON_EXPR];    /* BM BN */
	char smem[LESSON_EXPR];       /* dynamic shared memory bytes */
	char args[LESSON_ARGS];       /* the kernel's parameters (course/argspec.h), default "A B C M N K" */
	int persistent;               /* grid: persistent (the runner sizes the grid to the GPU) */
	char multiple[3][LESSON_EXPR];/* M N K must be multiples of these */
	char model[32];
	int needs_sm;                 /* 50, 80, 90 ... */
	int needs_arch_specific;      /* sm_90a */
	int regs;                     /* recorded registers per thread (ptxas, sm_90); 0 unknown */
	lesson_page *pages;           /* npages of them (owned) */
	int npages;
} lesson;

typedef struct {
	lesson *l;                    /* n lessons in file order (owned) */
	int n;
} course;

/* Parses one lesson file. Returns 0, or -1 with "file:line: message" in err
 * (and nothing left to free). Free a parsed lesson with lesson_free. */
int lesson_parse(const char *path, const char *text, lesson *out, char *err, int errlen);
/* The i-th front-matter key and its one-line meaning (the parser's own table,
 * which docs/ARCHITECTURE.md shows); NULL past the last. */
const char *lesson_key(int i, const char **help);
/* The same for the body's directives ("@ptx", ...); help is "@NAME ARGS: meaning". */
const char *lesson_directive(int i, const char **help);
/* Loads every lessons/NN-*.md under the root, in order. Lessons that fail to
 * parse are skipped; their messages go to errs (one per line, may be NULL).
 * Returns the number loaded. */
int course_load(course *c, char *errs, int errlen);
void course_free(course *c);
void lesson_free(lesson *l);

/* Whether an answer `got` to exercise ex is right when the model says
 * `want`: within the exercise's relative tolerance (the one rule the tutor
 * and the tests use). */
int lesson_exercise_accepts(const lesson_exercise *ex, double want, double got);

/* Finds a lesson by number ("3") or id ("smem"); NULL when none. */
const lesson *course_find(const course *c, const char *what);

/* The parameter environment of a lesson: its params (with overrides applied
 * on top, may be NULL) plus M, N, K. */
void lesson_env(const lesson *l, const expr_env *overrides, long long M, long long N, long long K, expr_env *env);

/* Launch shape for a problem size: grid, block, dynamic shared memory.
 * Returns 0 or -1 with a message naming the failing front-matter key. */
typedef struct {
	unsigned grid[3], block[3];
	unsigned smem;
	long long bm, bn;
	int persistent;               /* one block per SM slot, looping over the tiles (grid: persistent) */
	unsigned cluster[3];          /* the lesson's cluster; the grid is not checked against it here */
} lesson_launch;
int lesson_launch_for(const lesson *l, const expr_env *env, lesson_launch *out, char *err, int errlen);

/* Checks the size rule (`multiple`). Returns 0 when M, N, K are valid, else
 * -1 with a message naming the rule and the nearest valid size. */
int lesson_check_size(const lesson *l, const expr_env *env, char *err, int errlen);
/* The valid size nearest to M, N, K (each rounded to its `multiple`, never
 * below one). Returns 0, or -1 with a message when `multiple` does not evaluate. */
int lesson_nearest_size(const lesson *l, const expr_env *env, long long out[3], char *err, int errlen);

/* Checks that every @ptx anchor exists in the kernel's PTX and that every
 * placeholder and exercise key is known (known() returns nonzero for a key the
 * model can fill). Returns the number of problems, messages as file:line. */
int lesson_validate(const lesson *l, int (*known)(const char *key), char *errs, int errlen);

/* Validates every lesson of the course and drops the ones with problems, so
 * the tutor starts with the rest; their file:line messages are appended to
 * errs. Returns the number dropped. */
int course_validate(course *c, int (*known)(const char *key), char *errs, int errlen);

#endif
