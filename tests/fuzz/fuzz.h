/* fuzz: what the libFuzzer harnesses share — the entry point's prototype and a NUL-terminated copy of the input. */
#ifndef PTXTUTOR_FUZZ_H
#define PTXTUTOR_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string (the parsers read text); the caller frees it.
 * An embedded NUL ends the text early, as it would when read from a file. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

#endif
