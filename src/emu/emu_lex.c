/* emu_lex: the emulator's lexer — type names, blanks, identifiers, literals, comma lists, comments and the statement cursor. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu_parser.h"
#include "base/fpconv.h"
#include "base/util.h"

const emu_type_info emu_types[ET_COUNT] = {
	[ET_NONE] = {"", 0, 'u'},     [ET_PRED] = {"pred", 1, 'p'},
	[ET_B8] = {"b8", 1, 'u'},     [ET_B16] = {"b16", 2, 'u'},
	[ET_B32] = {"b32", 4, 'u'},   [ET_B64] = {"b64", 8, 'u'},
	[ET_U8] = {"u8", 1, 'u'},     [ET_U16] = {"u16", 2, 'u'},
	[ET_U32] = {"u32", 4, 'u'},   [ET_U64] = {"u64", 8, 'u'},
	[ET_S8] = {"s8", 1, 's'},     [ET_S16] = {"s16", 2, 's'},
	[ET_S32] = {"s32", 4, 's'},   [ET_S64] = {"s64", 8, 's'},
	[ET_F16] = {"f16", 2, 'f'},   [ET_F16X2] = {"f16x2", 4, 'f'},
	[ET_F32] = {"f32", 4, 'f'},   [ET_F64] = {"f64", 8, 'f'},
	[ET_BF16] = {"bf16", 2, 'f'}, [ET_BF16X2] = {"bf16x2", 4, 'f'},
	/* bits to everything but cvt, which converts them (emu_decode.c's cvt_forms) */
	[ET_TF32] = {"tf32", 4, 'u'}, [ET_E4M3X2] = {"e4m3x2", 2, 'u'}, [ET_E5M2X2] = {"e5m2x2", 2, 'u'},
};

emu_type emu_type_from_name(const char *s)
{
	for (int t = ET_PRED; t < ET_COUNT; t++)
		if (!strcmp(s, emu_types[t].name))
			return (emu_type)t;
	return ET_NONE;
}

/* A type a declaration (.reg, .shared, .param) may have: not tf32 or the
 * 8-bit pairs, which PTX names only in instructions. */
emu_type emu_decl_type_from_name(const char *s)
{
	emu_type t = emu_type_from_name(s);
	return t >= ET_TF32 ? ET_NONE : t;
}

char *emu_skip_sp(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

void emu_rtrim(char *s)
{
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

int emu_is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '%';
}

int emu_is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

int emu_parse_int(const char *s, int64_t *out)
{
	const char *p = s;
	int neg = 0;
	if (*p == '-') {
		neg = 1;
		p++;
	} else if (*p == '+') {
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return -1;
	char *end;
	unsigned long long v;
	errno = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		if (!isxdigit((unsigned char)p[2]))
			return -1;
		v = strtoull(p + 2, &end, 16);
	} else {
		v = strtoull(p, &end, 10);
	}
	if (*end == 'U' || *end == 'u')
		end++;
	/* out of range is refused, never clamped; a negative literal goes down to
	 * INT64_MIN, a positive one up to 2^64 - 1 (the bits of a u64) */
	if (*end || errno == ERANGE || (neg && v > (1ULL << 63)))
		return -1;
	*out = (int64_t)(neg ? 0 - v : v);
	return 0;
}

/* The bits of d as a value of float type t (f32 for anything but f64 and f16). */
static uint64_t float_bits(double d, emu_type t)
{
	if (t == ET_F64) {
		uint64_t u;
		memcpy(&u, &d, 8);
		return u;
	}
	if (t == ET_F16)
		return util_f32_to_f16((float)d);
	return fpconv_f32_bits((float)d);
}

/* Every character a hex digit: 0f/0d literals are read whole or not at all. */
static int all_hex(const char *s)
{
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

int emu_parse_literal(const char *s, emu_type t, uint64_t *out)
{
	int isf = emu_types[t].kind == 'f';
	if ((s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) && strlen(s) == 10 && all_hex(s + 2)) {
		uint32_t b = (uint32_t)strtoul(s + 2, NULL, 16);
		float f;
		memcpy(&f, &b, 4);
		/* the bits as written for f32 and integers: a NaN keeps its payload */
		*out = t == ET_F64 || t == ET_F16 ? float_bits(f, t) : b;
		return 0;
	}
	if ((s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) && strlen(s) == 18 && all_hex(s + 2)) {
		uint64_t b = strtoull(s + 2, NULL, 16);
		double d;
		memcpy(&d, &b, 8);
		*out = t == ET_F32 ? float_bits(d, t) : b;
		return 0;
	}
	int64_t iv;
	if (emu_parse_int(s, &iv) == 0) {
		/* an integer literal in a float instruction means that value */
		*out = isf ? float_bits((double)iv, t) : (uint64_t)iv;
		return 0;
	}
	char *end;
	double d = strtod(s, &end);
	if (*end || end == s || !isf)
		return -1;
	*out = float_bits(d, t);
	return 0;
}

int emu_split_commas(char *s, char **parts, int max)
{
	int n = 0, depth = 0;
	char *start = s;
	for (char *p = s;; p++) {
		if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			int end = !*p;
			*p = 0;
			if (n < max)
				parts[n] = start;
			n++;
			if (end)
				break;
			start = p + 1;
		}
	}
	if (n == 1 && max > 0 && !*emu_skip_sp(parts[0]))
		return 0;
	return n > max ? max + 1 : n;
}

char *emu_strip_comments(const char *text)
{
	size_t n = strlen(text);
	char *out = xmalloc(n + 1);
	for (size_t i = 0; i < n;) {
		if (text[i] == '/' && text[i + 1] == '/') {
			while (i < n && text[i] != '\n')
				out[i++] = ' ';
			continue;
		}
		if (text[i] == '/' && text[i + 1] == '*') {
			out[i] = out[i + 1] = ' ';
			i += 2;
			while (i < n && !(text[i] == '*' && text[i + 1] == '/')) {
				out[i] = text[i] == '\n' ? '\n' : ' ';
				i++;
			}
			if (i < n) {
				out[i] = out[i + 1] = ' ';
				i += 2;
			}
			continue;
		}
		out[i] = text[i];
		i++;
	}
	out[n] = 0;
	return out;
}

void emu_cur_skip(emu_cursor *c)
{
	while (c->t[c->pos] && isspace((unsigned char)c->t[c->pos])) {
		if (c->t[c->pos] == '\n')
			c->line++;
		c->pos++;
	}
}

char *emu_cur_until(emu_cursor *c, const char *stops, char *found)
{
	size_t start = c->pos;
	int depth = 0;
	while (c->t[c->pos]) {
		char ch = c->t[c->pos];
		if (ch == '(')
			depth++;
		else if (ch == ')')
			depth--;
		if (depth <= 0 && strchr(stops, ch))
			break;
		if (ch == '\n')
			c->line++;
		c->pos++;
	}
	*found = c->t[c->pos];
	size_t n = c->pos - start;
	char *s = xmalloc(n + 1);
	memcpy(s, c->t + start, n);
	s[n] = 0;
	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\t' || *p == '\r')
			*p = ' ';
	if (*found)
		c->pos++;
	return s;
}
