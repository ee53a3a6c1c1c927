/* json: a small streaming JSON writer; callers nest objects and arrays, it adds commas and escapes. */
#include "base/json.h"

#include <math.h>

void json_begin(json_writer *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->count[0] = 0;
	w->pretty = 1;
}

static void indent(json_writer *w)
{
	if (!w->pretty)
		return;
	fputc('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* The length of the valid UTF-8 sequence at p (1..4), or 0 when it is not
 * one: a stray continuation byte, a truncated sequence, an overlong form, a
 * surrogate or a code point past U+10FFFF. */
static int utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	if (n <= 1)
		return n;
	unsigned cp = c & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* A JSON string: escapes, and U+FFFD for each byte that is not valid UTF-8
 * (lesson text comes from anywhere; the output must stay valid JSON). */
static void put_string(FILE *o, const char *s)
{
	fputc('"', o);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = utf8_len(p);
		switch (*p) {
		case '"': fputs("\\\"", o); break;
		case '\\': fputs("\\\\", o); break;
		case '\n': fputs("\\n", o); break;
		case '\r': fputs("\\r", o); break;
		case '\t': fputs("\\t", o); break;
		default:
			if (!n)
				fputs("\\ufffd", o);
			else if (*p < 0x20 || *p == 0x7f)
				fprintf(o, "\\u%04x", *p);
			else
				fwrite(p, 1, (size_t)n, o);
		}
		p += n ? n : 1;
	}
	fputc('"', o);
}

/* Writes the separator, indentation and key that precede every value. */
static void item(json_writer *w, const char *key)
{
	if (w->depth > 0) {
		if (w->count[w->depth]++)
			fputc(',', w->out);
		indent(w);
	}
	if (key) {
		put_string(w->out, key);
		fputs(w->pretty ? ": " : ":", w->out);
	}
}

static void open_level(json_writer *w, const char *key, char open, char close)
{
	item(w, key);
	fputc(open, w->out);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->count[w->depth] = 0;
	w->close[w->depth] = close;
}

void json_obj(json_writer *w, const char *key) { open_level(w, key, '{', '}'); }
void json_arr(json_writer *w, const char *key) { open_level(w, key, '[', ']'); }

void json_end(json_writer *w)
{
	if (w->depth == 0)
		return;
	char close = w->close[w->depth];
	int had = w->count[w->depth];
	w->depth--;
	if (had)
		indent(w);
	fputc(close, w->out);
}

void json_str(json_writer *w, const char *key, const char *v)
{
	item(w, key);
	if (v)
		put_string(w->out, v);
	else
		fputs("null", w->out);
}

void json_int(json_writer *w, const char *key, long long v)
{
	item(w, key);
	fprintf(w->out, "%lld", v);
}

void json_num(json_writer *w, const char *key, double v)
{
	item(w, key);
	if (isfinite(v))
		fprintf(w->out, "%.10g", v);
	else
		fputs("null", w->out);
}

void json_bool(json_writer *w, const char *key, int v)
{
	item(w, key);
	fputs(v ? "true" : "false", w->out);
}

void json_null(json_writer *w, const char *key)
{
	item(w, key);
	fputs("null", w->out);
}

void json_finish(json_writer *w)
{
	fputc('\n', w->out);
	fflush(w->out);
}
