/* rng: the one seeded random generator (splitmix64) and the random-matrix fill every run's inputs come from. */
#ifndef PTXTUTOR_RNG_H
#define PTXTUTOR_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint64_t state;
} rng;

/* The element formats a matrix can be filled in. */
typedef enum { RNG_F32, RNG_F16, RNG_BF16 } rng_format;

/* Any seed is fine, 0 included: the same seed gives the same sequence. */
void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
/* Uniform in [0, 1), 53 bits. */
double rng_unit(rng *r);

/* Fills n elements of out (f32, or f16 or bf16 bits) with values uniform in [-1, 1]
 * that are finite and never zero in the stored format (a zero input hides
 * a kernel that skips a term). as_f32, when not NULL, receives what was
 * stored as f32, so a reference sees exactly the rounded inputs. */
void rng_fill(rng *r, rng_format fmt, void *out, float *as_f32, size_t n);

#endif
