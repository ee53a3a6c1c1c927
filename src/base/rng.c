/* rng: the one seeded random generator (splitmix64) and the random-matrix fill every run's inputs come from. */
#include "base/rng.h"

#include <string.h>

#include "base/util.h"

void rng_seed(rng *r, uint64_t seed)
{
	r->state = seed;
}

/* splitmix64 (Steele, Lea, Flood 2014): one add and a mix per number;
 * every seed, zero too, starts a full-period sequence. */
uint64_t rng_next(rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double rng_unit(rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

void rng_fill(rng *r, rng_format fmt, void *out, float *as_f32, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		float v;
		uint16_t h = 0;
		/* Redraw a value that is zero once stored: f16 rounds |v| < 2^-25 to 0
		 * (bf16 keeps f32's range, but the same rule costs nothing). */
		do {
			v = (float)(2.0 * rng_unit(r) - 1.0);
			if (fmt == RNG_F16) {
				h = util_f32_to_f16(v);
				v = util_f16_to_f32(h);
			} else if (fmt == RNG_BF16) {
				h = util_f32_to_bf16(v);
				v = util_bf16_to_f32(h);
			}
		} while (v == 0.0f);
		if (fmt == RNG_F32)
			memcpy((uint8_t *)out + 4 * i, &v, 4);
		else
			memcpy((uint8_t *)out + 2 * i, &h, 2);
		if (as_f32)
			as_f32[i] = v;
	}
}
