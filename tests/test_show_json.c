/* test_show_json: `show --json` is the model's key table (model_json) — every key of the table once, nested by its dots, with the value the placeholders read, for every lesson with a kernel; and docs/json.md names every key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/util.h"
#include "course/lesson.h"
#include "model/devices.h"
#include "model/model.h"

/* A leaf of the JSON: its dotted path and its value's text. */
typedef struct {
	char path[128], value[256];
} leaf;

/* The leaves of the pretty-printed object in text (one member a line, as
 * base/json.c writes it). Returns how many, at most cap. */
static int leaves_of(const char *text, leaf *out, int cap)
{
	char stack[8][64];
	int depth = -1, n = 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		char *s = line + strspn(line, " ");
		if (*s == '{' && depth < 0) {
			depth = 0;
			continue;
		}
		if (*s == '}') {
			depth--;
			continue;
		}
		char *q = s[0] == '"' ? strstr(s + 1, "\": ") : NULL;
		assert_non_null(q); /* "key": value */
		*q = '\0';
		const char *key = s + 1, *value = q + 3;
		if (!strcmp(value, "{")) {
			assert_true(depth < 7);
			util_strlcpy(stack[++depth - 1], key, sizeof stack[0]);
			continue;
		}
		assert_true(n < cap);
		strbuf path = {0};
		for (int d = 0; d < depth; d++)
			sb_printf(&path, "%s.", stack[d]);
		sb_append(&path, key);
		util_strlcpy(out[n].path, path.data, sizeof out[n].path);
		sb_free(&path);
		util_strlcpy(out[n].value, value, sizeof out[n].value);
		size_t vl = strlen(out[n].value);
		if (vl && out[n].value[vl - 1] == ',')
			out[n].value[vl - 1] = '\0';
		n++;
	}
	return n;
}

/* model_json of r, inside an object of its own. malloc'd. */
static char *json_of(const model_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	json_writer w;
	json_begin(&w, f);
	json_obj(&w, NULL);
	model_json(r, &w);
	json_end(&w);
	json_finish(&w);
	fclose(f);
	return buf;
}

static void every_key_once_with_its_value(void **state)
{
	(void)state;
	static course c;
	static gpu_table t;
	char err[512], errs[2048] = "";
	assert_true(course_load(&c, errs, sizeof errs) > 0);
	assert_true(devices_load(&t, err, sizeof err) > 0);
	int nkeys = model_key_count(), lessons = 0;
	assert_true(nkeys > 50);
	static leaf got[256];
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		static model_result r;
		if (!l->ptx_path[0])
			continue;
		if (model_compute(l, NULL, 4096, 4096, 4096, devices_default(&t), &r, err, sizeof err))
			fail_msg("lesson %d: %s", l->number, err);
		char *text = json_of(&r);
		int n = leaves_of(text, got, (int)ARRAY_LEN(got));
		if (n != nkeys)
			fail_msg("lesson %d: %d members, the table has %d keys:\n%s", l->number, n, nkeys, text);
		/* each key of the table is one leaf, and a number is model_value's */
		for (int k = 0; k < nkeys; k++) {
			const char *key = model_key_name(k);
			int at = -1;
			for (int j = 0; j < n; j++)
				if (!strcmp(got[j].path, key)) {
					assert_int_equal(at, -1);
					at = j;
				}
			if (at < 0)
				fail_msg("lesson %d: no %s in show --json", l->number, key);
			double v;
			if (model_value(&r, key, &v) == 0) {
				if (isnan(v))
					assert_string_equal(got[at].value, "null");
				else if (fabs(strtod(got[at].value, NULL) - v) > 1e-9 * fabs(v))
					fail_msg("lesson %d: %s is %s, the model says %.10g", l->number, key, got[at].value, v);
			} else {
				assert_true(got[at].value[0] == '"' || !strcmp(got[at].value, "null"));
			}
		}
		free(text);
		lessons++;
	}
	course_free(&c);
	assert_true(lessons >= 11);
}

/* docs/json.md's section on show --json names each key: itself or its
 * group (`bound.*`) in backquotes. */
static void docs_name_every_key(void **state)
{
	(void)state;
	char path[512];
	util_path(path, sizeof path, "docs/json.md");
	char *doc = util_read_file(path, NULL, NULL, 0);
	assert_non_null(doc);
	char *from = strstr(doc, "## `ptxtutor show LESSON --json`");
	assert_non_null(from);
	char *to = strstr(from + 4, "\n## ");
	if (to)
		*to = '\0';
	strbuf missing = {0};
	for (int k = 0; k < model_key_count(); k++) {
		const char *key = model_key_name(k), *dot = strchr(key, '.');
		char whole[140], group[140];
		snprintf(whole, sizeof whole, "`%s`", key);
		snprintf(group, sizeof group, "`%.*s.*`", dot ? (int)(dot - key) : 0, key);
		if (!strstr(from, whole) && !(dot && strstr(from, group)))
			sb_printf(&missing, " %s", key);
	}
	free(doc);
	if (missing.len)
		fail_msg("docs/json.md does not name:%s", missing.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_key_once_with_its_value),
		cmocka_unit_test(docs_name_every_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
