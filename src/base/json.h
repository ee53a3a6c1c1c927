/* json: a small streaming JSON writer; callers nest objects and arrays, it adds commas and escapes. */
#ifndef PTXTUTOR_JSON_H
#define PTXTUTOR_JSON_H

#include <stdio.h>

#define JSON_MAX_DEPTH 16

typedef struct {
	FILE *out;
	int depth;
	int count[JSON_MAX_DEPTH]; /* items written at each level, for commas */
	char close[JSON_MAX_DEPTH]; /* the bracket that closes each open level */
	int pretty;
} json_writer;

void json_begin(json_writer *w, FILE *out);             /* pretty by default */
void json_obj(json_writer *w, const char *key);         /* key NULL inside arrays / at top */
void json_arr(json_writer *w, const char *key);
void json_end(json_writer *w);                          /* closes the innermost object or array */
void json_str(json_writer *w, const char *key, const char *v);
void json_int(json_writer *w, const char *key, long long v);
void json_num(json_writer *w, const char *key, double v); /* NaN/inf become null */
void json_bool(json_writer *w, const char *key, int v);
void json_null(json_writer *w, const char *key);
void json_finish(json_writer *w);                       /* newline after the top value */

#endif
