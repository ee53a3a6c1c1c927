/* hash: a stable 64-bit FNV-1a of bytes, for telling whether a text changed since something was made from it (staleness, not security). */
#ifndef PTXTUTOR_HASH_H
#define PTXTUTOR_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 bits: offset basis 0xcbf29ce484222325, prime 0x100000001b3,
 * each byte xor-ed in, then multiplied (mod 2^64). The same on every machine. */
uint64_t hash_fnv1a64(const void *data, size_t len);

/* The hash as 16 lowercase hex digits, NUL-terminated (buf of 17 bytes). */
void hash_hex(uint64_t h, char buf[17]);

/* Reads 16 hex digits (either case) and nothing else; returns 0, or -1. */
int hash_parse_hex(const char *s, uint64_t *out);

#endif
