/* hash: FNV-1a over bytes (64 bits) and its hex form — the staleness stamp of recorded SASS (course/sass_record.c). */
#include "base/hash.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>

uint64_t hash_fnv1a64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void hash_hex(uint64_t h, char buf[17])
{
	snprintf(buf, 17, "%016" PRIx64, h);
}

int hash_parse_hex(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int i = 0;
	for (; i < 16; i++) {
		int c = (unsigned char)s[i];
		if (!isxdigit(c))
			return -1;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
	}
	if (s[i])
		return -1;
	*out = v;
	return 0;
}
