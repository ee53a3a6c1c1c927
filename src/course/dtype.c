/* dtype: the element types a kernel reads and writes (f32, f16, bf16), and the one table of what each means to the runner, the check and the model. */
#include "course/dtype.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"

static const dtype_info types[DTYPE_COUNT] = {
	[DTYPE_NONE] = {.name = "none", .tmap_type = -1, .cublas_type = -1},
	[DTYPE_F32] = {.name = "f32", .bytes = 4, .tmap_type = 7, .cublas_type = 0, .rng = RNG_F32,
		       .poison = 0x7fc00000u, .unit_roundoff = 0x1p-24, .c0_shift = 40},
	[DTYPE_F16] = {.name = "f16", .bytes = 2, .tmap_type = 6, .cublas_type = 2, .rng = RNG_F16,
		       .poison = 0x7e00u, .unit_roundoff = 0x1p-11,
		       /* f16 stops at 2^-24 (subnormal): C0 in [-1, 1] shifted further would round to zero */
		       .c0_shift = 8, .to_f32 = util_f16_to_f32, .from_f32 = util_f32_to_f16},
	[DTYPE_BF16] = {.name = "bf16", .bytes = 2, .tmap_type = 9, .cublas_type = 14, .rng = RNG_BF16,
			.poison = 0x7fc0u, .unit_roundoff = 0x1p-8, .c0_shift = 40,
			.to_f32 = util_bf16_to_f32, .from_f32 = util_f32_to_bf16},
};

const dtype_info *dtype_of(dtype d)
{
	return (unsigned)d < DTYPE_COUNT ? &types[d] : &types[DTYPE_NONE];
}

const char *dtype_name(dtype d)
{
	return dtype_of(d)->name;
}

const char *dtype_names(void)
{
	return "f32, f16 or bf16";
}

int dtype_parse(const char *s, dtype *out)
{
	for (dtype d = DTYPE_F32; d < DTYPE_COUNT; d++)
		if (!strcmp(s, types[d].name)) {
			*out = d;
			return 0;
		}
	return -1;
}

int dtype_pair_check(dtype in, dtype out, char *err, size_t errlen)
{
	/* cuBLAS GemmEx with CUBLAS_COMPUTE_32F takes A, B and C all f32, or
	 * 16-bit A and B with C in f32 or in the same 16-bit type; nothing else. */
	if (out == DTYPE_F32 || (out == in && types[in].bytes == 2))
		return 0;
	if (in == DTYPE_F32)
		snprintf(err, errlen, "f32 inputs give an f32 output, not %s (cuBLAS has no reference for f32->%s)",
			 dtype_name(out), dtype_name(out));
	else
		snprintf(err, errlen, "%s inputs give an f32 or %s output, not %s (cuBLAS GemmEx's pairs)", dtype_name(in),
			 dtype_name(in), dtype_name(out));
	return -1;
}

void dtype_pair_name(dtype in, dtype out, char *buf, size_t len)
{
	if (in == out && in == DTYPE_F32) /* the only pair f32 inputs have: one name says it */
		snprintf(buf, len, "%s", dtype_name(in));
	else
		snprintf(buf, len, "%s→%s", dtype_name(in), dtype_name(out));
}

void dtype_to_f32(dtype d, const void *src, float *dst, size_t n)
{
	const dtype_info *t = dtype_of(d);
	const uint16_t *h = src;
	if (!t->to_f32) {
		memmove(dst, src, n * sizeof *dst);
		return;
	}
	for (size_t i = 0; i < n; i++)
		dst[i] = t->to_f32(h[i]);
}

void dtype_from_f32(dtype d, const float *src, void *dst, size_t n)
{
	const dtype_info *t = dtype_of(d);
	uint16_t *h = dst;
	if (!t->from_f32) {
		memmove(dst, src, n * sizeof *src);
		return;
	}
	for (size_t i = 0; i < n; i++)
		h[i] = t->from_f32(src[i]);
}

float dtype_round(dtype d, float v)
{
	const dtype_info *t = dtype_of(d);
	return t->from_f32 ? t->to_f32(t->from_f32(v)) : v;
}
