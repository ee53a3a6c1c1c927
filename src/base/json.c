/* json: a small streaming JSON writer; callers nest objects and arrays, it adds commas and escapes. */
#include "base/json.h"
#include "base/termsafe.h"

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

/* A JSON string: escapes (the C0 and C1 controls and DEL as \u00XX, so that
 * the text is terminal-safe as termsafe.c means it, byte for byte), and
 * U+FFFD for each byte that is not valid UTF-8 (lesson text comes from
 * anywhere; the output must stay valid JSON). */
static void put_string(FILE *o, const char *s)
{
	fputc('"', o);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = termsafe_utf8_len((const char *)p, 4); /* 4: the NUL stops a sequence */
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
			else if (n == 2 && *p == 0xc2 && p[1] < 0xa0) /* C1: U+0080..U+009F */
				fprintf(o, "\\u%04x", p[1]);
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
