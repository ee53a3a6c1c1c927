/* demangle: Itanium C++ mangled kernel names (nvcc's _Z...) made readable for titles — the name and its template arguments. */
#include "base/demangle.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef struct {
	const char *p;
	char *out;
	size_t len, used;
	int bad;
} dm;

static void put(dm *d, const char *s, size_t n)
{
	if (d->used + n >= d->len) {
		d->bad = 1;
		return;
	}
	memcpy(d->out + d->used, s, n);
	d->used += n;
	d->out[d->used] = '\0';
}

static void puts_(dm *d, const char *s) { put(d, s, strlen(s)); }

/* The builtin types by their one-letter codes. */
static const struct {
	char code;
	const char *name;
} builtins[] = {
	{'v', "void"}, {'b', "bool"}, {'c', "char"}, {'a', "signed char"}, {'h', "unsigned char"},
	{'s', "short"}, {'t', "unsigned short"}, {'i', "int"}, {'j', "unsigned int"}, {'l', "long"},
	{'m', "unsigned long"}, {'x', "long long"}, {'y', "unsigned long long"}, {'f', "float"}, {'d', "double"},
};

/* <length><identifier> */
static void source_name(dm *d)
{
	char *end;
	long n = strtol(d->p, &end, 10);
	if (end == d->p || n <= 0 || (long)strnlen(end, (size_t)n) < n) {
		d->bad = 1;
		return;
	}
	put(d, end, (size_t)n);
	d->p = end + n;
}

static void type(dm *d);

/* L<type><value>E: an integer literal (n for minus), true/false for bool. */
static void literal(dm *d)
{
	char t = *d->p++;
	if (!strchr("bcahstijlmxy", t) || !t) {
		d->bad = 1;
		return;
	}
	int neg = *d->p == 'n';
	d->p += neg;
	const char *v = d->p;
	while (isdigit((unsigned char)*d->p))
		d->p++;
	if (d->p == v || *d->p != 'E') {
		d->bad = 1;
		return;
	}
	if (t == 'b') {
		puts_(d, *v == '0' ? "false" : "true");
	} else {
		if (neg)
			puts_(d, "-");
		put(d, v, (size_t)(d->p - v));
		if (strchr("jmy", t))
			puts_(d, "u");
	}
	d->p++;
}

/* I<arg>+E */
static void template_args(dm *d)
{
	d->p++;
	puts_(d, "<");
	for (int first = 1; *d->p && *d->p != 'E' && !d->bad; first = 0) {
		if (!first)
			puts_(d, ", ");
		if (*d->p == 'L') {
			d->p++;
			literal(d);
		} else {
			type(d);
		}
	}
	if (*d->p != 'E')
		d->bad = 1;
	d->p++;
	puts_(d, ">");
}

static void type(dm *d)
{
	char c = *d->p;
	if (c == 'P' || c == 'K' || c == 'R') {
		d->p++;
		type(d);
		puts_(d, c == 'P' ? "*" : c == 'K' ? " const" : "&");
		return;
	}
	if (isdigit((unsigned char)c)) {
		source_name(d);
		if (*d->p == 'I')
			template_args(d);
		return;
	}
	for (size_t i = 0; i < ARRAY_LEN(builtins); i++)
		if (builtins[i].code == c) {
			d->p++;
			puts_(d, builtins[i].name);
			return;
		}
	d->bad = 1; /* substitutions and the rest: not for titles */
}

/* <source-name>[<template-args>] or N<component>+E */
static void name(dm *d)
{
	if (*d->p != 'N') {
		source_name(d);
		if (!d->bad && *d->p == 'I')
			template_args(d);
		return;
	}
	d->p++;
	for (int first = 1; *d->p && *d->p != 'E' && !d->bad; first = 0) {
		if (*d->p == 'I') {
			template_args(d);
			continue;
		}
		if (!first)
			puts_(d, "::");
		source_name(d);
	}
	if (*d->p != 'E')
		d->bad = 1;
	d->p++;
}

int demangle(const char *mangled, char *out, size_t len)
{
	if (!len)
		return 0;
	dm d = {.p = mangled + 2, .out = out, .len = len};
	out[0] = '\0';
	if (strncmp(mangled, "_Z", 2)) {
		util_strlcpy(out, mangled, len);
		return 0;
	}
	d.p += *d.p == 'L';
	name(&d);
	if (d.bad) {
		util_strlcpy(out, mangled, len);
		return 0;
	}
	return 1;
}
