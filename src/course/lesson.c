/* lesson: parse lessons/NN-id.md (front matter, pages, @ptx anchors, exercises) into a course. */
#include "course/lesson.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/ptx.h"
#include "base/lines.h"
#include "base/util.h"
#include "course/argspec.h"
#include "course/cond.h"

/* Parsing state: the file name and line for messages, and the message buffer. */
typedef struct {
	const char *path;
	int line;
	char *err;
	int errlen;
	int out_line;   /* the `out:` line, for the check of the pair after the front matter */
} ctx;

static int fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ctx *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(c->err, (size_t)c->errlen, "%s:%d: %s", c->path, c->line, msg);
	return -1;
}

/* Splits s on white space into at most max words (in place). */
static int split(char *s, char **w, int max)
{
	int n = 0;
	for (char *tok = strtok(s, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
		w[n++] = tok;
	return n;
}

/* Copies v into a fixed field: a value that does not fit is an error, never cut. */
static int copy_field(ctx *c, const char *what, char *dst, size_t size, const char *v)
{
	if (strlen(v) >= size)
		return fail(c, "%s is longer than %d characters", what, (int)size - 1);
	util_strlcpy(dst, v, size);
	return 0;
}

/* ---- the front matter: one table of keys ---- */

typedef struct fm_key fm_key;
struct fm_key {
	const char *key;
	int (*parse)(ctx *c, lesson *l, const fm_key *k, char *v);
	size_t off, size;   /* fm_text: the char[size] field at off; fm_exprs: the first of its expressions */
	int min, max;       /* fm_exprs: how many expressions */
	const char *dflt;   /* the value when the key is absent, parsed as if given; NULL: empty or zero */
	const char *help;   /* what it means: docs/ARCHITECTURE.md's table says the same (test_lesson checks) */
};

#define FIELD(name) .off = offsetof(lesson, name), .size = sizeof(((lesson *)0)->name)

static int fm_text(ctx *c, lesson *l, const fm_key *k, char *v)
{
	return copy_field(c, k->key, (char *)l + k->off, k->size, v);
}

static int fm_kernel(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	char *w[3];
	if (split(v, w, 3) != 2)
		return fail(c, "kernel wants 'PATH ENTRY'");
	if (copy_field(c, "kernel's PATH", l->ptx_path, sizeof l->ptx_path, w[0]))
		return -1;
	return copy_field(c, "kernel's ENTRY", l->entry, sizeof l->entry, w[1]);
}

static int fm_dtype(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	if (!strcmp(v, "none")) {
		l->dt = DTYPE_NONE;
		return 0;
	}
	if (dtype_parse(v, &l->dt))
		return fail(c, "dtype must be %s, or none, not '%s'", dtype_names(), v);
	return 0;
}

static int fm_out(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	if (dtype_parse(v, &l->out))
		return fail(c, "out must be %s, not '%s'", dtype_names(), v);
	c->out_line = c->line;
	return 0;
}

/* Integers, not expressions: the portable limit is checked here, with the line. */
static int fm_cluster(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	char *w[4];
	int n = split(v, w, 4);
	if (n < 1 || n > 3)
		return fail(c, "cluster wants 1 to 3 values (X [Y [Z]]), got %d", n);
	long long size = 1;
	for (int i = 0; i < 3; i++) {
		char *end;
		long val = i < n ? strtol(w[i], &end, 10) : 1;
		if (i < n && (end == w[i] || *end || val < 1 || val > LESSON_MAX_CLUSTER))
			return fail(c, "cluster wants blocks per cluster X [Y [Z]], each 1 to %d, got '%s'",
				    LESSON_MAX_CLUSTER, w[i]);
		l->cluster[i] = (unsigned)val;
		size *= val;
	}
	if (size > LESSON_MAX_CLUSTER)
		return fail(c, "a cluster of %ux%ux%u is %lld blocks; at most %d is portable (larger sizes need an "
			       "opt-in this tutor does not make)", l->cluster[0], l->cluster[1], l->cluster[2], size,
			    LESSON_MAX_CLUSTER);
	return 0;
}

static int fm_params(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	char *w[LESSON_MAX_PARAMS + 1];
	int n = split(v, w, LESSON_MAX_PARAMS + 1);
	if (n > LESSON_MAX_PARAMS)
		return fail(c, "too many params (at most %d)", LESSON_MAX_PARAMS);
	for (int i = 0; i < n; i++) {
		char *eq = strchr(w[i], '=');
		char *end;
		if (!eq || eq == w[i] || eq - w[i] >= EXPR_NAME_MAX)
			return fail(c, "param '%s' is not KEY=INTEGER", w[i]);
		*eq = '\0';
		long long val = strtoll(eq + 1, &end, 10);
		if (end == eq + 1 || *end)
			return fail(c, "param '%s' needs an integer value", w[i]);
		util_strlcpy(l->params[i].name, w[i], EXPR_NAME_MAX);
		l->params[i].value = val;
	}
	l->nparams = n;
	return 0;
}

static int fm_runtime(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	char *w[LESSON_MAX_PARAMS + 1];
	int n = split(v, w, LESSON_MAX_PARAMS + 1);
	if (n > LESSON_MAX_PARAMS)
		return fail(c, "runtime names more than the %d params a lesson may have", LESSON_MAX_PARAMS);
	for (int i = 0; i < n; i++) {
		int found = 0;
		for (int j = 0; j < l->nparams; j++)
			if (!strcmp(l->params[j].name, w[i]))
				l->params[j].runtime = found = 1;
		if (!found)
			return fail(c, "runtime names '%s', which is not in params (declare params first)", w[i]);
	}
	return 0;
}

/* k->min to k->max expressions into char[k->max][LESSON_EXPR] at k->off;
 * missing trailing ones (block's y and z) are 1. */
static int fm_exprs(ctx *c, lesson *l, const fm_key *k, char *v)
{
	char *w[4];
	char(*out)[LESSON_EXPR] = (void *)((char *)l + k->off);
	int n = split(v, w, 4);
	if (n < k->min || n > k->max)
		return fail(c, "%s wants %d to %d values, got %d", k->key, k->min, k->max, n);
	for (int i = 0; i < k->max; i++)
		if (copy_field(c, k->key, out[i], LESSON_EXPR, i < n ? w[i] : "1"))
			return -1;
	return 0;
}

static int fm_grid(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	if (strcmp(v, "persistent"))
		return fail(c, "grid is 'persistent' (one block per SM slot, the kernel loops over its "
			       "tiles) or absent (one block per tile), not '%s'", v);
	l->persistent = 1;
	return 0;
}

/* bmajor: how B is stored. wgmma takes 8-bit operands only K-major, so an
 * FP8 kernel's B is N x K (k); n is today's K x N, row-major. */
static int fm_bmajor(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	if (strcmp(v, "n") && strcmp(v, "k"))
		return fail(c, "bmajor is 'n' (B stored K x N, row-major) or 'k' (B stored N x K, K-major), not '%s'", v);
	l->b_kmajor = v[0] == 'k';
	return 0;
}

static int fm_needs(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	int sm;
	char suffix[4] = "";
	if (sscanf(v, "sm_%d%3s", &sm, suffix) < 1 || sm < 30 || (suffix[0] && strcmp(suffix, "a")))
		return fail(c, "needs wants sm_NN or sm_NNa, got '%s'", v);
	l->needs_sm = sm;
	l->needs_arch_specific = suffix[0] == 'a';
	return 0;
}

static int fm_regs(ctx *c, lesson *l, const fm_key *k, char *v)
{
	(void)k;
	char *end;
	l->regs = (int)strtol(v, &end, 10);
	if (end == v || *end || l->regs < 0 || l->regs > 255)
		return fail(c, "regs wants registers per thread (0-255), got '%s'", v);
	return 0;
}

/* Checked now through the one argument-spec parser, so a typo is a file:line
 * error; the tensor-map boxes' expressions are evaluated at launch. */
static int fm_args(ctx *c, lesson *l, const fm_key *k, char *v)
{
	argspec parsed;
	char msg[200];
	if (argspec_parse(v, NULL, &parsed, msg, sizeof msg))
		return fail(c, "args: %s", msg);
	return fm_text(c, l, k, v);
}

/* layout: and ld: checked now by the one parser (ld's expressions at launch). */
static int fm_layout(ctx *c, lesson *l, const fm_key *k, char *v)
{
	argspec_layout parsed;
	char msg[200];
	int is_ld = !strcmp(k->key, "ld");
	if (argspec_layout_parse(is_ld ? NULL : v, is_ld ? v : NULL, NULL, &parsed, msg, sizeof msg))
		return fail(c, "%s: %s", k->key, msg);
	return fm_text(c, l, k, v);
}

/* In the order of docs/ARCHITECTURE.md's table. */
static const fm_key fm_keys[] = {
	{.key = "id", .parse = fm_text, FIELD(id),
	 .help = "short name; `LESSON` on the command line is the number or the id"},
	{.key = "title", .parse = fm_text, FIELD(title), .help = "shown in the header and `list`"},
	{.key = "kernel", .parse = fm_kernel,
	 .help = "PTX path (relative to the project root) and entry name; absent for a lesson without a kernel"},
	{.key = "dtype", .parse = fm_dtype,
	 .help = "A and B: `f32` (checked against cuBLAS SGEMM), `f16` or `bf16` (checked against cuBLAS GemmEx "
		 "with the same types), `tf32` (f32 in memory, the kernel rounds; GemmEx with "
		 "CUBLAS_COMPUTE_32F_FAST_TF32), `e4m3` (one byte, per-tensor scales; cuBLASLt), or `none`"},
	{.key = "out", .parse = fm_out, .dflt = "f32",
	 .help = "C: `f32` (default), or the inputs' own 16-bit type (`f16`, `bf16`), or `bf16` for `e4m3`; f32 "
		 "and tf32 inputs give f32"},
	{.key = "bmajor", .parse = fm_bmajor, .dflt = "n",
	 .help = "how B is stored: `n` (default, K × N row-major) or `k` (N × K, each column of B a row: "
		 "K-major, as wgmma needs 8-bit operands; the check and the reference follow)"},
	{.key = "layout", .parse = fm_layout, FIELD(layout),
	 .help = "how A, B and C lie in memory: `A=col,B=row,C=col` (each `row` or `col`, the rest row-major; `col` "
		 "alone: all three), as `--layout`; the inputs, the check and cuBLAS's call follow"},
	{.key = "ld", .parse = fm_layout, FIELD(ld),
	 .help = "leading dimensions past the tight ones, `A=EXPR,C=EXPR` over M N K and params, as `--ld`; the "
		 "kernel gets them with `ld:A` in `args`"},
	{.key = "params", .parse = fm_params,
	 .help = "the lesson's parameters with defaults, `KEY=INT` separated by spaces; what-ifs override them"},
	{.key = "runtime", .parse = fm_runtime,
	 .help = "the parameters the kernel honours at run time (others change the model only)"},
	{.key = "block", .parse = fm_exprs, FIELD(block), .min = 1, .max = 3, .dflt = "1 1 1",
	 .help = "threads per block, `x [y [z]]`, each an expression over params"},
	{.key = "tile", .parse = fm_exprs, FIELD(tile), .min = 2, .max = 2, .dflt = "1 1",
	 .help = "`BM BN`, the output tile of one block; grid = ceil(N/BN) × ceil(M/BM)"},
	{.key = "smem", .parse = fm_exprs, FIELD(smem), .min = 1, .max = 1, .dflt = "0",
	 .help = "dynamic shared memory bytes (expression, default 0)"},
	{.key = "multiple", .parse = fm_exprs, FIELD(multiple), .min = 3, .max = 3, .dflt = "1 1 1",
	 .help = "`M N K` must be multiples of these (expressions, default `1 1 1`)"},
	{.key = "model", .parse = fm_text, FIELD(model), .help = "the cost model's name (see `src/model/model_lessons.c`)"},
	{.key = "needs", .parse = fm_needs, .help = "minimum target: `sm_50`, `sm_80`, `sm_90a`"},
	{.key = "regs", .parse = fm_regs,
	 .help = "registers per thread reported by `ptxas -arch=sm_90` for this kernel, used for offline occupancy"},
	{.key = "grid", .parse = fm_grid,
	 .help = "absent: one block per `tile`; `persistent`: as many blocks as fit on the GPU at once "
		 "(SMs × blocks per SM, the runner asks the driver; with clusters no more than the fewest rounds "
		 "of tiles need, src/model/grid.c), in a 1-D grid, and the kernel loops over tiles `ctaid`, "
		 "`ctaid + grid`, …"},
	{.key = "cluster", .parse = fm_cluster, .dflt = "1 1 1",
	 .help = "blocks per thread-block cluster, `X [Y [Z]]` (default `1 1 1`, at most 8 in all; sm_90); the "
		 "grid must be a multiple of it"},
	{.key = "args", .parse = fm_args, FIELD(args), .dflt = "A B C M N K",
	 .help = "the kernel's parameter list when it is not `A B C M N K` (see Kernel ABI); tensor-map box "
		 "sizes may be expressions"},
};

/* "unknown WHAT 'NAME' (known: ...)", the names from one of the two tables. */
static int unknown(ctx *c, const char *what, const char *name, const char *(*table)(int i, const char **help))
{
	strbuf known = {0};
	for (int i = 0; table(i, NULL); i++)
		sb_printf(&known, "%s%s", i ? ", " : "", table(i, NULL));
	int rc = fail(c, "unknown %s '%s' (known: %s)", what, name, known.data);
	sb_free(&known);
	return rc;
}

const char *lesson_key(int i, const char **help)
{
	if (i < 0 || i >= (int)ARRAY_LEN(fm_keys))
		return NULL;
	if (help)
		*help = fm_keys[i].help;
	return fm_keys[i].key;
}

static int parse_key(ctx *c, lesson *l, const char *key, char *v)
{
	for (size_t i = 0; i < ARRAY_LEN(fm_keys); i++)
		if (!strcmp(key, fm_keys[i].key))
			return fm_keys[i].parse(c, l, &fm_keys[i], v);
	return unknown(c, "front-matter key", key, lesson_key);
}

/* Every key's default, through the same parser as a value in the file. */
static void set_defaults(ctx *c, lesson *l)
{
	for (size_t i = 0; i < ARRAY_LEN(fm_keys); i++)
		if (fm_keys[i].dflt) {
			char v[LESSON_ARGS];
			util_strlcpy(v, fm_keys[i].dflt, sizeof v);
			fm_keys[i].parse(c, l, &fm_keys[i], v);
		}
}

/* ---- the body: pages, and one table of @ directives ---- */

/* The body parser's state. */
typedef struct {
	lesson *l;
	lesson_page *pg;      /* the current page; NULL before the first heading */
	lesson_exercise *ex;  /* the open exercise, collecting its question */
	strbuf text;          /* the current page's text */
	strbuf question;      /* the open exercise's question */
	int cond_depth;       /* open @if blocks on this page */
	int cond_at[COND_MAX_DEPTH];   /* the line of each open @if */
	int cond_else[COND_MAX_DEPTH]; /* whether it has had its @else */
} body;

/* Ends the current page: its text is what was collected. */
static void end_page(body *b)
{
	if (b->pg && !b->pg->text) {
		b->pg->text = b->text.data ? b->text.data : xstrdup("");
		b->text = (strbuf){0};
	}
}

static int new_page(ctx *c, body *b, char *title)
{
	if (b->ex)
		return fail(c, "exercise of line %d has no @answer before the next page", b->ex->line);
	if (b->cond_depth)
		return fail(c, "@if of line %d has no @endif before the next page", b->cond_at[b->cond_depth - 1]);
	end_page(b);
	lesson *l = b->l;
	l->pages = xreallocarray(l->pages, (size_t)l->npages + 1, sizeof *l->pages);
	b->pg = memset(&l->pages[l->npages++], 0, sizeof *l->pages);
	b->pg->line = c->line;
	return copy_field(c, "page title", b->pg->title, sizeof b->pg->title, util_trim(title));
}

static int dir_ptx(ctx *c, body *b, char *args)
{
	lesson_page *pg = b->pg;
	if (!*args || strchr(args, ' '))
		return fail(c, "@ptx wants one region name");
	if (pg->nanchors >= LESSON_MAX_ANCHORS)
		return fail(c, "too many @ptx anchors on one page (at most %d)", LESSON_MAX_ANCHORS);
	return copy_field(c, "@ptx region name", pg->anchors[pg->nanchors++], sizeof pg->anchors[0], args);
}

static int dir_numbers(ctx *c, body *b, char *args)
{
	if (!*args || strchr(args, ' '))
		return fail(c, "@numbers wants one section name");
	if (b->pg->numbers[0])
		return fail(c, "one @numbers per page");
	return copy_field(c, "@numbers section", b->pg->numbers, sizeof b->pg->numbers, args);
}

static int dir_warpview(ctx *c, body *b, char *args)
{
	char *sp = strchr(args, ' '), *end;
	if (!*args || (sp && (strtol(sp + 1, &end, 10) < 1 || *end)))
		return fail(c, "@warpview wants a PTX line, or a region and which of its memory lines (1: the first)");
	if (b->pg->warpview[0])
		return fail(c, "one @warpview per page");
	return copy_field(c, "@warpview", b->pg->warpview, sizeof b->pg->warpview, args);
}

static int dir_exercise(ctx *c, body *b, char *args)
{
	if (b->ex)
		return fail(c, "exercise of line %d has no @answer", b->ex->line);
	lesson_page *pg = b->pg;
	pg->ex = xreallocarray(pg->ex, (size_t)pg->nex + 1, sizeof *pg->ex);
	lesson_exercise *ex = b->ex = memset(&pg->ex[pg->nex++], 0, sizeof *pg->ex);
	ex->line = c->line;
	ex->tol = 0.01;
	char *w[EXPR_MAX_VARS + 2];
	int n = split(args, w, EXPR_MAX_VARS + 2);
	if (n < 1)
		return fail(c, "@exercise wants the model key that answers it");
	if (copy_field(c, "@exercise key", ex->key, sizeof ex->key, w[0]))
		return -1;
	for (int i = 1; i < n; i++) {
		char *eq = strchr(w[i], '=');
		char *end;
		if (!eq)
			return fail(c, "@exercise option '%s' is not KEY=VALUE", w[i]);
		*eq = '\0';
		if (!strcmp(w[i], "tol")) {
			ex->tol = strtod(eq + 1, &end);
			if (end == eq + 1 || *end || ex->tol <= 0)
				return fail(c, "@exercise tol wants a positive number");
			continue;
		}
		long long v = strtoll(eq + 1, &end, 10);
		if (end == eq + 1 || *end)
			return fail(c, "@exercise override %s needs an integer", w[i]);
		if (expr_set(&ex->overrides, w[i], v) < 0)
			return fail(c, "@exercise sets more than %d parameters", EXPR_MAX_VARS);
	}
	return 0;
}

static int dir_hint(ctx *c, body *b, char *args)
{
	lesson_exercise *ex = b->ex;
	if (!ex || ex->hint)
		return fail(c, "@hint outside an exercise");
	ex->question = xstrdup(b->question.data ? util_trim(b->question.data) : "");
	sb_free(&b->question);
	ex->hint = xstrdup(args);
	return 0;
}

static int dir_check(ctx *c, body *b, char *args)
{
	if (!b->ex || !b->ex->hint || b->ex->check)
		return fail(c, "@check belongs after an exercise's @hint, once");
	if (!*args)
		return fail(c, "@check wants an expression");
	b->ex->check = xstrdup(args);
	return 0;
}

static int dir_answer(ctx *c, body *b, char *args)
{
	if (!b->ex || !b->ex->hint)
		return fail(c, "@answer without an @exercise and its @hint before it");
	b->ex->answer = xstrdup(args);
	b->ex = NULL;
	return 0;
}

/* @if, @else, @endif: kept in the page's text (the renderer chooses the
 * branch from the model, course/cond.h); here only their balance is
 * checked, one page at a time, outside exercises. */
static int cond_open(ctx *c, body *b, const char *what)
{
	if (b->ex)
		return fail(c, "%s inside an exercise (conditional text belongs to the page)", what);
	return 0;
}

static int dir_if(ctx *c, body *b, char *args)
{
	if (cond_open(c, b, "@if"))
		return -1;
	if (!*args)
		return fail(c, "@if wants a condition, e.g. @if launch.runs");
	if (b->cond_depth >= COND_MAX_DEPTH)
		return fail(c, "@if nested more than %d deep", COND_MAX_DEPTH);
	b->cond_at[b->cond_depth] = c->line;
	b->cond_else[b->cond_depth++] = 0;
	sb_printf(&b->text, "@if %s\n", args);
	return 0;
}

static int dir_else(ctx *c, body *b, char *args)
{
	if (cond_open(c, b, "@else"))
		return -1;
	if (*args)
		return fail(c, "@else takes nothing after it");
	if (!b->cond_depth)
		return fail(c, "@else without an @if on this page");
	if (b->cond_else[b->cond_depth - 1])
		return fail(c, "a second @else for the @if of line %d", b->cond_at[b->cond_depth - 1]);
	b->cond_else[b->cond_depth - 1] = 1;
	sb_printf(&b->text, "@else\n");
	return 0;
}

static int dir_endif(ctx *c, body *b, char *args)
{
	if (cond_open(c, b, "@endif"))
		return -1;
	if (*args)
		return fail(c, "@endif takes nothing after it");
	if (!b->cond_depth)
		return fail(c, "@endif without an @if on this page");
	b->cond_depth--;
	sb_printf(&b->text, "@endif\n");
	return 0;
}

typedef struct {
	const char *name;
	int (*run)(ctx *c, body *b, char *args);
	const char *help;
} directive;

static const directive directives[] = {
	{.name = "@ptx", .run = dir_ptx,
	 .help = "@ptx NAME: this page highlights the PTX region `// @NAME` ... `// @end`"},
	{.name = "@numbers", .run = dir_numbers,
	 .help = "@numbers SECTION: this page shows and marks that section of the numbers pane (intensity, "
		 "per-output, per-request, roofline, occupancy, mix)"},
	{.name = "@warpview", .run = dir_warpview,
	 .help = "@warpview LINE | REGION [N]: the page shows a warp's view of that memory access (the Nth memory "
		 "line of the region, 1 the first), recorded by the emulator: lanes to sectors or banks, and the count"},
	{.name = "@exercise", .run = dir_exercise,
	 .help = "@exercise KEY [PARAM=VALUE ...] [tol=0.01]: a question whose answer is the model's value KEY "
		 "under those overrides; the question is the text that follows, up to @hint"},
	{.name = "@hint", .run = dir_hint, .help = "@hint TEXT: one line, ends the exercise's question"},
	{.name = "@check", .run = dir_check,
	 .help = "@check EXPR: the quantity the hint describes, as arithmetic (+ - * / parentheses) over the "
		 "lesson's params, M, N, K and gpu.* values; tests/test_lessons.c requires the exercise to accept it"},
	{.name = "@answer", .run = dir_answer,
	 .help = "@answer TEXT: the worked answer, one line, may use placeholders; ends the exercise"},
	{.name = "@if", .run = dir_if,
	 .help = "@if EXPR: the page's text up to @else or @endif shows only when EXPR (the @check language, "
		 "which here may also read numeric model keys and compare: == != < <= > >=) is nonzero, e.g. "
		 "@if launch.runs"},
	{.name = "@else", .run = dir_else, .help = "@else: the text shown when the @if above does not hold"},
	{.name = "@endif", .run = dir_endif, .help = "@endif: ends an @if block (blocks nest, and close on their page)"},
};

const char *lesson_directive(int i, const char **help)
{
	if (i < 0 || i >= (int)ARRAY_LEN(directives))
		return NULL;
	if (help)
		*help = directives[i].help;
	return directives[i].name;
}

/* A line that starts with '@' outside a code fence: "@name args". */
static int run_directive(ctx *c, body *b, char *line)
{
	char *sp = line + strcspn(line, " \t");
	char *args = *sp ? sp + 1 : sp;
	*sp = '\0';
	args = util_trim(args);
	if (!b->pg)
		return fail(c, "%s before the first page heading", line);
	for (size_t i = 0; i < ARRAY_LEN(directives); i++)
		if (!strcmp(line, directives[i].name))
			return directives[i].run(c, b, args);
	return unknown(c, "directive", line, lesson_directive);
}

/* Pages at level-1 headings outside code fences; @ directives; an open
 * exercise collects its question until @hint. */
static int parse_body(ctx *c, lesson *l, lines *it)
{
	body b = {.l = l};
	int fence = 0;
	int rc = 0;

	for (char *line; rc == 0 && (line = lines_next(it));) {
		c->line = it->line;
		if (!strncmp(line, "```", 3) || !strncmp(line, "~~~", 3))
			fence = !fence;
		if (!fence && line[0] == '#' && line[1] == ' ')
			rc = new_page(c, &b, line + 2);
		else if (!fence && line[0] == '@')
			rc = run_directive(c, &b, line);
		else if (b.ex || b.pg)
			sb_printf(b.ex ? &b.question : &b.text, "%s\n", line);
		else if (*util_trim(line))
			rc = fail(c, "text before the first page heading ('# Title')");
	}
	if (rc == 0 && b.ex)
		rc = fail(c, "exercise of line %d has no @answer", b.ex->line);
	if (rc == 0 && b.cond_depth)
		rc = fail(c, "@if of line %d has no @endif", b.cond_at[b.cond_depth - 1]);
	if (rc == 0 && fence)
		rc = fail(c, "unclosed code fence");
	if (rc == 0 && l->npages == 0)
		rc = fail(c, "no pages: a page starts with a level-1 heading ('# Title')");
	end_page(&b);
	sb_free(&b.text);
	sb_free(&b.question);
	return rc;
}

static int parse_lesson(const char *path, lines *it, lesson *out, char *err, int errlen)
{
	ctx c = {.path = path, .err = err, .errlen = errlen};
	memset(out, 0, sizeof *out);
	set_defaults(&c, out);
	c.line = 1;
	if (copy_field(&c, "the file's path", out->path, sizeof out->path, path))
		return -1;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!isdigit((unsigned char)base[0]) || !isdigit((unsigned char)base[1]) || base[2] != '-')
		return fail(&c, "lesson files are named NN-id.md");
	out->number = (base[0] - '0') * 10 + (base[1] - '0');

	const char *first = lines_next(it);
	if (!first || strcmp(first, "---"))
		return fail(&c, "a lesson starts with a front-matter block ('---')");
	int closed = 0;
	for (char *line; (line = lines_next(it));) {
		c.line = it->line;
		char *t = util_trim(line);
		int rc = 0;
		if (!strcmp(t, "---")) {
			closed = 1;
			break;
		}
		if (*t && *t != '#') {
			char *colon = strchr(t, ':');
			if (!colon)
				rc = fail(&c, "front-matter line is not 'key: value'");
			else {
				*colon = '\0';
				rc = parse_key(&c, out, util_trim(t), util_trim(colon + 1));
			}
		}
		if (rc)
			return rc;
	}
	if (!closed)
		return fail(&c, "front matter is not closed with '---'");
	if (!out->id[0] || !out->title[0])
		return fail(&c, "front matter needs id and title");
	if (out->ptx_path[0] && out->dt == DTYPE_NONE)
		return fail(&c, "a lesson with a kernel needs dtype %s", dtype_names());
	char why[160];
	if (out->dt != DTYPE_NONE && dtype_pair_check(out->dt, out->out, why, sizeof why)) {
		c.line = c.out_line;
		return fail(&c, "out: %s", why);
	}
	if (parse_body(&c, out, it)) {
		lesson_free(out);
		return -1;
	}
	return 0;
}

int lesson_parse(const char *path, const char *text, lesson *out, char *err, int errlen)
{
	/* One reader for the front matter and the body, so line numbers run on. */
	lines it;
	lines_init(&it, text);
	int rc = parse_lesson(path, &it, out, err, errlen);
	lines_free(&it);
	return rc;
}

void lesson_free(lesson *l)
{
	for (int i = 0; i < l->npages; i++) {
		lesson_page *pg = &l->pages[i];
		free(pg->text);
		for (int j = 0; j < pg->nex; j++) {
			free(pg->ex[j].question);
			free(pg->ex[j].hint);
			free(pg->ex[j].check);
			free(pg->ex[j].answer);
		}
		free(pg->ex);
	}
	free(l->pages);
	l->pages = NULL;
	l->npages = 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_lesson_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return n > 6 && isdigit((unsigned char)d->d_name[0]) && isdigit((unsigned char)d->d_name[1]) &&
	       d->d_name[2] == '-' && !strcmp(d->d_name + n - 3, ".md");
}

int course_load(course *c, char *errs, int errlen)
{
	char dir[512];
	struct dirent **names;
	memset(c, 0, sizeof *c);
	if (errs && errlen)
		errs[0] = '\0';
	util_path(dir, sizeof dir, "lessons");
	int n = scandir(dir, &names, is_lesson_file, by_name);
	if (n < 0) {
		if (errs)
			snprintf(errs, (size_t)errlen, "%s: cannot read the lessons folder\n", dir);
		return 0;
	}
	/* Room for every file; the ones that fail to parse leave their slot unused. */
	c->l = xcalloc(n ? (size_t)n : 1, sizeof *c->l);
	for (int i = 0; i < n; i++) {
		char rel[300], full[1024], err[512];
		snprintf(rel, sizeof rel, "lessons/%s", names[i]->d_name);
		util_path(full, sizeof full, rel);
		free(names[i]);
		char *text = util_read_file(full, NULL, err, sizeof err);
		if (text && lesson_parse(rel, text, &c->l[c->n], err, sizeof err) == 0)
			c->n++;
		else if (errs) {
			size_t used = strlen(errs);
			snprintf(errs + used, (size_t)errlen - used, "%s\n", err);
		}
		free(text);
	}
	free(names);
	return c->n;
}

void course_free(course *c)
{
	for (int i = 0; i < c->n; i++)
		lesson_free(&c->l[i]);
	free(c->l);
	c->l = NULL;
	c->n = 0;
}

int lesson_exercise_accepts(const lesson_exercise *ex, double want, double got)
{
	double tol = ex->tol > 0 ? ex->tol : 0.01;
	return fabs(got - want) <= tol * fabs(want) || (want == 0 && fabs(got) <= tol);
}

const lesson *course_find(const course *c, const char *what)
{
	char *end;
	long num = strtol(what, &end, 10);
	for (int i = 0; i < c->n; i++) {
		if (end != what && !*end && c->l[i].number == num)
			return &c->l[i];
		if (!strcasecmp(c->l[i].id, what))
			return &c->l[i];
	}
	return NULL;
}

void lesson_env(const lesson *l, const expr_env *overrides, long long M, long long N, long long K, expr_env *env)
{
	memset(env, 0, sizeof *env);
	for (int i = 0; i < l->nparams; i++)
		expr_set(env, l->params[i].name, l->params[i].value);
	if (overrides)
		for (int i = 0; i < overrides->n; i++)
			expr_set(env, overrides->v[i].name, overrides->v[i].value);
	expr_set(env, "M", M);
	expr_set(env, "N", N);
	expr_set(env, "K", K);
}

static int eval_key(const lesson *l, const char *key, const char *s, const expr_env *env,
		    long long *out, char *err, int errlen)
{
	char msg[128];
	if (expr_eval(s, env, out, msg, sizeof msg)) {
		snprintf(err, (size_t)errlen, "%s: %s '%s': %s", l->path, key, s, msg);
		return -1;
	}
	return 0;
}

int lesson_launch_for(const lesson *l, const expr_env *env, lesson_launch *out, char *err, int errlen)
{
	long long b[3], t[2], smem, M = 0, N = 0;
	for (int i = 0; i < 3; i++)
		if (eval_key(l, "block", l->block[i], env, &b[i], err, errlen))
			return -1;
	for (int i = 0; i < 2; i++)
		if (eval_key(l, "tile", l->tile[i], env, &t[i], err, errlen))
			return -1;
	if (eval_key(l, "smem", l->smem, env, &smem, err, errlen))
		return -1;
	expr_get(env, "M", &M);
	expr_get(env, "N", &N);
	/* each side bounded before the product, so nothing overflows (a lesson file or a what-if may say anything) */
	if (b[0] < 1 || b[1] < 1 || b[2] < 1 || b[0] > 1024 || b[1] > 1024 || b[2] > 1024 || b[0] * b[1] * b[2] > 1024 ||
	    t[0] < 1 || t[1] < 1 || t[0] > (1 << 20) || t[1] > (1 << 20) || smem < 0 || smem > 0x7fffffff ||
	    M < 0 || N < 0 || M > (1LL << 40) || N > (1LL << 40)) {
		snprintf(err, (size_t)errlen, "%s: launch shape out of range: block %lldx%lldx%lld, tile %lldx%lld, smem %lld",
			 l->path, b[0], b[1], b[2], t[0], t[1], smem);
		return -1;
	}
	out->bm = t[0];
	out->bn = t[1];
	out->grid[0] = (unsigned)((N + t[1] - 1) / t[1]);
	out->grid[1] = (unsigned)((M + t[0] - 1) / t[0]);
	out->grid[2] = 1;
	for (int i = 0; i < 3; i++)
		out->block[i] = (unsigned)b[i];
	out->smem = (unsigned)smem;
	out->persistent = l->persistent;
	memcpy(out->cluster, l->cluster, sizeof out->cluster);
	return 0;
}

/* The `multiple` rule: each of M, N, K with its multiple (at least 1). */
static int size_rule(const lesson *l, const expr_env *env, long long v[3], long long m[3], char *err, int errlen)
{
	static const char *const dims[3] = {"M", "N", "K"};
	for (int i = 0; i < 3; i++) {
		v[i] = 0;
		expr_get(env, dims[i], &v[i]);
		if (eval_key(l, "multiple", l->multiple[i], env, &m[i], err, errlen))
			return -1;
		if (m[i] < 1)
			m[i] = 1;
	}
	return 0;
}

int lesson_nearest_size(const lesson *l, const expr_env *env, long long out[3], char *err, int errlen)
{
	long long v[3], m[3];
	if (size_rule(l, env, v, m, err, errlen))
		return -1;
	for (int i = 0; i < 3; i++) {
		out[i] = (v[i] + m[i] / 2) / m[i] * m[i];
		if (out[i] < m[i])
			out[i] = m[i];
	}
	return 0;
}

int lesson_check_size(const lesson *l, const expr_env *env, char *err, int errlen)
{
	long long v[3], m[3], near[3];
	if (size_rule(l, env, v, m, err, errlen) || lesson_nearest_size(l, env, near, err, errlen))
		return -1;
	if (v[0] % m[0] == 0 && v[1] % m[1] == 0 && v[2] % m[2] == 0)
		return 0;
	snprintf(err, (size_t)errlen,
		 "lesson %d (%s) needs M a multiple of %lld, N of %lld and K of %lld; "
		 "%lldx%lldx%lld is not; the nearest valid size is --size %lld,%lld,%lld",
		 l->number, l->id, m[0], m[1], m[2], v[0], v[1], v[2], near[0], near[1], near[2]);
	return -1;
}

/* Appends one problem to errs. */
static void note(char *errs, int errlen, const char *path, int line, const char *fmt, const char *what)
{
	size_t used = strlen(errs);
	if ((int)used >= errlen - 1)
		return;
	int n = snprintf(errs + used, (size_t)errlen - used, "%s:%d: ", path, line);
	if (n > 0 && (int)(used + (size_t)n) < errlen) {
		used += (size_t)n;
		snprintf(errs + used, (size_t)errlen - used, fmt, what);
		used = strlen(errs);
		if ((int)used < errlen - 1) {
			errs[used] = '\n';
			errs[used + 1] = '\0';
		}
	}
}

/* Checks the {placeholders} of one text; line is where the text starts. */
static int check_placeholders(const char *path, int line, const char *s, int (*known)(const char *),
			      char *errs, int errlen)
{
	int problems = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '\n')
			line++;
		if (*p != '{' || (p > s && p[-1] == '\\'))
			continue;
		size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
		if (n == 0 || p[1 + n] != '}')
			continue;
		char key[64];
		util_strlcpy(key, p + 1, n + 1 < sizeof key ? n + 1 : sizeof key);
		if (!known(key)) {
			note(errs, errlen, path, line, "unknown placeholder {%s}", key);
			problems++;
		}
	}
	return problems;
}

static int region_exists(const char *ptx, const char *name)
{
	ptx_regions rs;
	ptx_regions_scan(ptx, &rs);
	return ptx_regions_find(&rs, name) != NULL;
}

int lesson_validate(const lesson *l, int (*known)(const char *key), char *errs, int errlen)
{
	int problems = 0;
	char *ptx = NULL;
	errs[0] = '\0';
	if (l->ptx_path[0]) {
		char full[1024], err[300];
		util_path(full, sizeof full, l->ptx_path);
		ptx = util_read_file(full, NULL, err, sizeof err);
		if (!ptx) {
			note(errs, errlen, l->path, 1, "kernel: %s", err);
			problems++;
		} else if (!strstr(ptx, l->entry)) {
			note(errs, errlen, l->path, 1, "kernel entry '%s' is not in the PTX file", l->entry);
			problems++;
		}
	}
	for (int i = 0; i < l->npages; i++) {
		const lesson_page *pg = &l->pages[i];
		for (int a = 0; a < pg->nanchors; a++)
			if (!ptx || !region_exists(ptx, pg->anchors[a])) {
				note(errs, errlen, l->path, pg->line, "unknown @ptx anchor '%s'", pg->anchors[a]);
				problems++;
			}
		problems += check_placeholders(l->path, pg->line + 1, pg->text, known, errs, errlen);
		for (int e = 0; e < pg->nex; e++) {
			const lesson_exercise *ex = &pg->ex[e];
			if (!known(ex->key)) {
				note(errs, errlen, l->path, ex->line, "exercise answer key '%s' is not a model value", ex->key);
				problems++;
			}
			for (int v = 0; v < ex->overrides.n; v++) {
				int found = 0;
				for (int j = 0; j < l->nparams; j++)
					found |= !strcmp(l->params[j].name, ex->overrides.v[v].name);
				if (!found) {
					note(errs, errlen, l->path, ex->line, "exercise sets '%s', which is not a lesson param",
					     ex->overrides.v[v].name);
					problems++;
				}
			}
			problems += check_placeholders(l->path, ex->line, ex->question, known, errs, errlen);
			problems += check_placeholders(l->path, ex->line, ex->answer, known, errs, errlen);
		}
	}
	free(ptx);
	return problems;
}

int course_validate(course *c, int (*known)(const char *key), char *errs, int errlen)
{
	int dropped = 0;
	for (int i = 0; i < c->n;) {
		char msgs[2048];
		if (lesson_validate(&c->l[i], known, msgs, sizeof msgs) == 0) {
			i++;
			continue;
		}
		if (errs) {
			size_t used = strlen(errs);
			snprintf(errs + used, (size_t)errlen - used, "%s", msgs);
		}
		lesson_free(&c->l[i]);
		memmove(&c->l[i], &c->l[i + 1], (size_t)(c->n - i - 1) * sizeof c->l[0]);
		c->n--;
		dropped++;
	}
	return dropped;
}
