/* verify: the one check of a run's output C against its reference, on plain arrays, for the GPU runner and the emulator alike. */
#ifndef PTXTUTOR_VERIFY_H
#define PTXTUTOR_VERIFY_H

#include <stddef.h>

#include "course/dtype.h"
#include "course/argspec.h"

/* What C held before the launch:
 *  - no beta: in the spec: every element NaN (VERIFY_POISON), so an element
 *    the kernel never writes cannot pass;
 *  - beta: present: random finite C0 (the kernel reads it), and the reference
 *    is alpha*A*B + beta*C0.
 * With C0, an element the kernel never writes still holds C0's exact bits.
 * An element whose output has exactly C0's bits is a candidate; when there
 * are candidates the caller launches once more with C0' = C0 * 2^-40
 * (2^-8 for an f16 output; verify_second_c0) and hands that output over: an element that holds
 * C0's bits after the first launch and C0''s bits after the second was not
 * written. An unwritten element holds them in both launches, always, so it
 * is always reported; see docs/editing.md. */
#define VERIFY_POISON 0x7fc00000u

typedef enum {
	VERIFY_PASS,
	VERIFY_NONFINITE,   /* NaN or Inf outputs */
	VERIFY_UNWRITTEN,   /* elements the kernel never wrote */
	VERIFY_WRONG,       /* values off by more than the tolerance */
} verify_kind;

/* Why a second launch is needed, and with what in C. */
typedef enum {
	VERIFY_AGAIN_NONE,
	VERIFY_AGAIN_C0,    /* candidates for unwritten: launch with C = verify_second_c0(C0) */
	VERIFY_AGAIN_ZERO,  /* NaN outputs with C poisoned and no beta: launch with C = 0 to see whether it reads C */
} verify_again;

typedef struct {
	size_t rows, cols;        /* C is rows x cols, row-major */
	const float *got;         /* the kernel's output */
	const float *ref;         /* the reference */
	const float *c0;          /* C before the launch; NULL: poisoned with NaN (no beta:) */
	double tol;               /* relative tolerance of ||got - ref|| / ||ref|| */
	/* The type C is stored in (got, ref and c0 are its values as f32; NaN
	 * poison and C0 were stored in it); DTYPE_NONE means f32. */
	dtype out;
	/* The second launch's output, when verify_check asked for one (NULL before). */
	const float *got2;
	/* Padding elements of C (a leading dimension past the tight one) that
	 * no longer hold the poison after the first launch (run_store_get): a
	 * kernel that writes past its lines fails even with the right values. */
	size_t pad_written;
	/* For a diagnosis of a small error (run/diagnose.h): what the inputs
	 * mean, tight (verify_reference's a, a_col, b, b_col), K, and the
	 * spec's alpha and beta; a NULL: none. */
	const float *a, *b;
	int a_col, b_col, c_col, tight; /* tight: every leading dimension is (diagnose_input) */
	int integer;              /* integer inputs (diagnose_input) */
	long long K;
	float alpha, beta;
} verify_input;

typedef struct {
	verify_kind kind;
	verify_again again;       /* set by the first call: launch again and call verify_check with got2 */
	double rel_err;           /* ||got - ref|| / ||ref|| over the finite outputs; NaN when some are not */
	size_t nonfinite, unwritten, bad;
	size_t worst;             /* the worst element (row-major index) */
	double expected, got;     /* ... its reference and output */
	int reads_c;              /* with C zeroed the NaNs went away: the kernel reads C (wants beta:) */
	/* VERIFY_WRONG: the precision or layout mistake the output matches
	 * (run/diagnose.c's phrase, "an f16 accumulator"), "" when none. */
	char consistent_with[128];
	char msg[256];            /* one line for the user, naming the kind */
} verify_report;

/* Checks in; fills rep. Call once; if rep->again is set, launch again as it
 * says (C from verify_second_c0 or zeros, same A and B), put the output in
 * in->got2 and call again for the final verdict. */
void verify_check(const verify_input *in, verify_report *rep);

/* The reference alpha*A*B + beta*C0 on the CPU (the emulator's check, and
 * tests), accumulated in double and rounded to f32: A is M x K, row-major
 * or with a_col column-major (a[k*M + i]); B K x N, row-major or with b_col
 * column-major (b[j*K + k]: each column of B a line, as an FP8 wgmma kernel
 * reads it); both tight (run/layout.c spreads them to their leading
 * dimensions); a and b hold the values the kernel means (an FP8 input's
 * stored value x its scale); c0 NULL: no beta. Returns an M x N row-major
 * array (xmalloc). */
float *verify_reference(long long M, long long N, long long K, const float *a, int a_col, const float *b, int b_col,
			const float *c0, float alpha, float beta);

/* C for the second launch with beta: present, as type t stores it: c0
 * scaled by 2^-40 (f32, bf16: exact, finite, never zero, never equal to c0)
 * or by 2^-8 (f16, whose exponent ends at 2^-24: a C0 below 2^-16 becomes
 * 0 or a subnormal, which still tells an unwritten element from a written one). */
void verify_second_c0(const float *c0, float *out, size_t n, dtype t);
/* One element of it. */
float verify_c0_again(float c0, dtype t);

#endif
