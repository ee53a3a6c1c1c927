/* test_json: the JSON writer nests, separates and escapes correctly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/json.h"

static void test_nesting_and_escapes(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer w;
	json_begin(&w, f);
	w.pretty = 0;
	json_obj(&w, NULL);
	json_str(&w, "s", "a\"b\\c\n");
	json_int(&w, "i", -3);
	json_num(&w, "nan", NAN);
	json_arr(&w, "a");
	json_int(&w, NULL, 1);
	json_obj(&w, NULL);
	json_end(&w);
	json_bool(&w, NULL, 1);
	json_end(&w);
	json_obj(&w, "empty");
	json_end(&w);
	json_end(&w);
	json_finish(&w);
	fclose(f);
	assert_string_equal(buf, "{\"s\":\"a\\\"b\\\\c\\n\",\"i\":-3,\"nan\":null,\"a\":[1,{},true],\"empty\":{}}\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_nesting_and_escapes)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
