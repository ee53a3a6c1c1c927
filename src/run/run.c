/* run: the names of the run statuses and backends, the tolerance a check allows, a request's output type and cluster. */
#include "run/run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *run_status_name(run_status s)
{
	static const char *const names[] = {
		[RUN_OK] = "ok",
		[RUN_WRONG] = "wrong result",
		[RUN_NO_GPU] = "no GPU",
		[RUN_JIT_ERROR] = "JIT error",
		[RUN_LAUNCH_ERROR] = "launch error",
		[RUN_FAULT] = "kernel fault",
		[RUN_TIMEOUT] = "timed out",
		[RUN_CANCELLED] = "cancelled",
		[RUN_BAD_REQUEST] = "bad request",
		[RUN_UNSUPPORTED] = "GPU too old",
		[RUN_EMU_REFUSED] = "the emulator cannot run it",
	};
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *run_backend_name(run_backend b)
{
#define NAME(id, name) [RUN_BACKEND_##id] = name,
	static const char *const names[] = {RUN_BACKENDS(NAME)};
#undef NAME
	return (unsigned)b < sizeof names / sizeof names[0] ? names[b] : "?";
}

int run_has_counts(const run_result *res)
{
	return res->backend == RUN_BACKEND_EMU && (res->status == RUN_OK || res->status == RUN_WRONG);
}

void run_error_msg(run_error *e, const char *fmt, ...)
{
	memset(e, 0, sizeof *e);
	e->warp = -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
}

enum { FILE_BASE, FILE_WHOLE, FILE_NONE };

static const char *base_of(const char *path, int how)
{
	const char *b = strrchr(path, '/');
	return how == FILE_WHOLE || !b ? path : b + 1;
}

/* The one writer of a located problem: the CUDA line first when there is
 * one (the student's own words), the PTX line after it. */
static void format(const run_error *e, char *buf, size_t len, int how)
{
	char block[48] = "";
	if (e->has_block)
		snprintf(block, sizeof block, " (block %u,%u,%u)", e->block[0], e->block[1], e->block[2]);
	char other[RUN_PATH + 48] = "";
	if (e->cu_line2 > 0)
		snprintf(other, sizeof other, "; the other access: %s:%d", base_of(e->cu_path, how), e->cu_line2);
	if (e->cu_line > 0 && e->line > 0)
		snprintf(buf, len, "%s:%d: %s%s (PTX line %d%s)", base_of(e->cu_path, how), e->cu_line, e->msg, block, e->line,
			 other);
	else if (e->line > 0 && how == FILE_NONE)
		snprintf(buf, len, "line %d: %s%s", e->line, e->msg, block);
	else if (e->line > 0)
		snprintf(buf, len, "%s:%d: %s%s", base_of(e->path, how), e->line, e->msg, block);
	else
		snprintf(buf, len, "%s%s", e->msg, block);
}

void run_error_format(const run_error *e, char *buf, size_t len)
{
	format(e, buf, len, FILE_BASE);
}

void run_error_text(const run_error *e, char *buf, size_t len)
{
	format(e, buf, len, FILE_WHOLE);
}

void run_error_format_line(const run_error *e, char *buf, size_t len)
{
	format(e, buf, len, FILE_NONE);
}

void run_error_source(const run_error *e, char *buf, size_t len)
{
	if (e->cu_line > 0 && e->cu_text[0])
		snprintf(buf, len, "%6d | %s", e->cu_line, e->cu_text);
	else if (len)
		buf[0] = 0;
}

/* The tolerance is a bound on ||C - ref|| / ||ref|| that a right kernel
 * stays under and a wrong one does not:
 *  - accumulation: both sides see identical inputs (the rounded values, and
 *    a product of two 16-bit or two 8-bit values is exact in f32), so before
 *    the output is rounded only the order of the f32 sums differs. f32
 *    kernels: 1e-4, as before; 16-bit inputs go through tensor cores, whose
 *    sums are grouped differently again (and K runs to thousands): 1e-3.
 *  - FP8 inputs (e4m3): 1e-2. The stored values and the scales are the same
 *    on both sides, but Hopper's FP8 tensor cores add in an accumulator
 *    narrower than f32 (about 14 bits kept, DeepSeek-V3 report §3.3.2, which
 *    measured errors up to 2% at K = 4096 without promotion); cuBLASLt promotes
 *    to f32 registers, a course kernel may add a whole tile first.
 *  - tf32 inputs: the kernel and cuBLAS each round the f32 inputs to tf32
 *    themselves (cvt.rna against cuBLAS's own rounding), so a product may
 *    differ by up to 2u for each operand's rounding on each side, 4u in all
 *    (u = 2^-11, tf32's unit roundoff). With the random zero-mean inputs of a
 *    run these errors are independent, so they add to the norm of the error
 *    as they do to the norm of C: at most 4u of it. 1e-3 + 4u = 2.95e-3 -> 3e-3.
 *  - the output type: with a 16-bit C both the kernel and the reference round
 *    their f32 sum once. Two sums that differ only by the accumulation order
 *    round to the same value or to neighbours one unit in the last place apart,
 *    at most 2u relative (u = 2^-11 for f16, 2^-8 for bf16, the type's unit
 *    roundoff), whatever the matrix: that is added to the accumulation's
 *    room. f16 out: 1e-3 + 9.8e-4 -> 2e-3; bf16 out: 1e-3 + 7.8e-3 -> 1e-2;
 *    e4m3 in, bf16 out: 1e-2 + 7.8e-3 -> 2e-2.
 * A kernel that drops one term of K = 4096 (1/sqrt(4096) = 1.6e-2 of the
 * norm) still fails with bf16 inputs and output; NaN and unwritten outputs
 * fail at any tolerance (run/verify.c).
 * Integer inputs: 0 with an s32 C (exact), 1e-5 with an f32 C: the sums
 * (up to K x 254^2 with u8) pass 2^24, so a kernel adding in f32 and one
 * converting an int32 sum round differently, by a few units of 2^-24 each. */
double run_tolerance(dtype in, dtype out)
{
	const dtype_info *t = dtype_of(in);
	if (t->integer) /* int8 products summed in int32: exact on both sides (issue 39); an f32 C
			 * rounds sums past 2^24, and a kernel may add in f32 in its own order */
		return dtype_of(out)->integer ? 0 : 1e-5;
	double acc = t->scaled ? 1e-2 : t->bytes == 2 || t->kernel_rounds ? 1e-3 : 1e-4;
	double room = acc;
	if (t->kernel_rounds)
		room += 4 * dtype_unit_roundoff(in);
	if (dtype_of(out)->bytes == 2)
		room += 2 * dtype_unit_roundoff(out);
	if (room == acc)
		return acc;
	/* a round figure just above, so that a message's "%.0e" shows it as it is */
	double step = room < 3e-3 ? 1e-3 : 1e-2;
	return ceil(room / step) * step;
}

dtype run_out(const run_request *rq)
{
	return rq->out == DTYPE_NONE ? DTYPE_F32 : rq->out;
}

unsigned run_cluster(const run_request *rq, unsigned c[3])
{
	unsigned long long n = 1; /* capped just past the limit: no side can overflow it */
	for (int i = 0; i < 3; i++) {
		c[i] = rq->cluster[i] ? rq->cluster[i] : 1;
		n *= c[i] > LESSON_MAX_CLUSTER ? LESSON_MAX_CLUSTER + 1 : c[i];
		if (n > LESSON_MAX_CLUSTER)
			n = LESSON_MAX_CLUSTER + 1;
	}
	return (unsigned)n;
}

int run_check_int_blas(const run_request *rq, char *err, int errlen)
{
	argspec_blas bl = argspec_blas_of(&rq->args);
	if (!dtype_of(rq->dt)->integer || (!bl.has_alpha && !bl.has_beta))
		return 0;
	snprintf(err, (size_t)errlen, "%s inputs multiply as C = A*B: leave alpha: and beta: out of the args spec "
		 "(they are f32 scalars; the check is exact)", dtype_name(rq->dt));
	return -1;
}

int run_check_cluster(const run_request *rq, char *err, int errlen)
{
	unsigned c[3];
	unsigned n = run_cluster(rq, c);
	if (n == 1)
		return 0;
	if (n > LESSON_MAX_CLUSTER) {
		snprintf(err, (size_t)errlen, "a cluster of %ux%ux%u is more than the %d blocks a portable cluster has",
			 c[0], c[1], c[2], LESSON_MAX_CLUSTER);
		return -1;
	}
	if (rq->persistent) {
		if (c[1] != 1 || c[2] != 1) {
			snprintf(err, (size_t)errlen,
				 "a persistent grid is 1-D, so its cluster is too: %ux1x1 blocks, not %ux%ux%u", n, c[0],
				 c[1], c[2]);
			return -1;
		}
		return 0;
	}
	for (int i = 0; i < 3; i++)
		if (rq->grid[i] % c[i]) {
			snprintf(err, (size_t)errlen, "the grid %ux%ux%u is not a multiple of the cluster %ux%ux%u (%c)",
				 rq->grid[0], rq->grid[1], rq->grid[2], c[0], c[1], c[2], "xyz"[i]);
			return -1;
		}
	return 0;
}

unsigned long long run_line_cost(const run_line_counts *l)
{
	return l->inst + l->g_sectors + l->s_wavefronts;
}

void run_line_add(run_line_counts *a, const run_line_counts *b)
{
	a->inst += b->inst;
	a->threads += b->threads;
	a->g_requests += b->g_requests;
	a->g_sectors += b->g_sectors;
	a->s_requests += b->s_requests;
	a->s_wavefronts += b->s_wavefronts;
	a->s_conflicts += b->s_conflicts;
	a->bytes += b->bytes;
}

/* Host values stored as the kernel reads them (run_make_input). */
static void store_host(dtype d, const float *v, long long rows, long long cols, int transpose, void *stored,
		       float *real, float *scale)
{
	size_t n = (size_t)rows * (size_t)cols;
	float *t = NULL;
	if (transpose) {
		t = xmalloc(n * sizeof *t);
		for (long long r = 0; r < rows; r++)
			for (long long c = 0; c < cols; c++)
				t[(size_t)c * (size_t)rows + (size_t)r] = v[(size_t)r * (size_t)cols + (size_t)c];
		v = t;
	}
	*scale = dtype_scale_for(d, v, n);
	dtype_quantize(d, v, n, *scale, stored, real);
	free(t);
}

void run_make_input(rng *r, dtype d, const float *host, long long rows, long long cols, int transpose, void *stored,
		    float *real, float *scale)
{
	if (host)
		store_host(d, host, rows, cols, transpose, stored, real, scale);
	else
		dtype_fill(r, d, stored, real, (size_t)rows * (size_t)cols, scale);
}

int run_ref_parse(const char *s)
{
	static const char *const names[] = {[RUN_REF_DEFAULT] = "default", [RUN_REF_BEST] = "best",
					    [RUN_REF_BEST_PROMOTING] = "best-promoting"};
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}
