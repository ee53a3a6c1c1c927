/* checked: overflow-checked arithmetic for sizes and addresses computed from untrusted input (PTX, --set, expressions). */
#ifndef PTXTUTOR_CHECKED_H
#define PTXTUTOR_CHECKED_H

#include <stdint.h>
#include <stddef.h>

/* Each returns 0 and the exact result in *out, or -1 when the result does
 * not fit (then *out is unspecified). A size or an address a user can choose
 * goes through these, never through a bare + or *, so nothing wraps. */
static inline int ck_add_i64(int64_t a, int64_t b, int64_t *out) { return __builtin_add_overflow(a, b, out) ? -1 : 0; }
static inline int ck_sub_i64(int64_t a, int64_t b, int64_t *out) { return __builtin_sub_overflow(a, b, out) ? -1 : 0; }
static inline int ck_mul_i64(int64_t a, int64_t b, int64_t *out) { return __builtin_mul_overflow(a, b, out) ? -1 : 0; }
static inline int ck_add_u64(uint64_t a, uint64_t b, uint64_t *out) { return __builtin_add_overflow(a, b, out) ? -1 : 0; }
static inline int ck_mul_u64(uint64_t a, uint64_t b, uint64_t *out) { return __builtin_mul_overflow(a, b, out) ? -1 : 0; }
static inline int ck_add_size(size_t a, size_t b, size_t *out) { return __builtin_add_overflow(a, b, out) ? -1 : 0; }
static inline int ck_mul_size(size_t a, size_t b, size_t *out) { return __builtin_mul_overflow(a, b, out) ? -1 : 0; }

/* a / b and a % b that refuse what the hardware traps on: b == 0 and
 * INT64_MIN / -1 (SIGFPE on x86). */
static inline int ck_div_i64(int64_t a, int64_t b, int64_t *out)
{
	if (b == 0 || (a == INT64_MIN && b == -1))
		return -1;
	*out = a / b;
	return 0;
}

static inline int ck_mod_i64(int64_t a, int64_t b, int64_t *out)
{
	if (b == 0)
		return -1;
	*out = b == -1 ? 0 : a % b; /* INT64_MIN % -1 traps like the division */
	return 0;
}

/* Whether [off, off + len) lies inside an object of size bytes, computed so
 * that nothing wraps: off may be any 64-bit value (a negative offset read as
 * unsigned is huge and fails). */
static inline int ck_within(uint64_t off, uint64_t len, uint64_t size)
{
	return len <= size && off <= size - len;
}

/* Rounds v up to a multiple of align (a power of two); -1 when it would not fit. */
static inline int ck_align_up_i64(int64_t v, int64_t align, int64_t *out)
{
	int64_t t;
	if (align <= 0 || (align & (align - 1)) || ck_add_i64(v, align - 1, &t))
		return -1;
	*out = t & ~(align - 1);
	return 0;
}

#endif
