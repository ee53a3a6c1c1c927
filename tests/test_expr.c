/* test_expr: integer launch-shape expressions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/expr.h"

static long long eval(const char *s, const expr_env *env)
{
	long long v = -999;
	char err[64];
	assert_int_equal(expr_eval(s, env, &v, err, sizeof err), 0);
	return v;
}

static void test_arithmetic(void **state)
{
	(void)state;
	expr_env env = {0};
	expr_set(&env, "TILE", 16);
	expr_set(&env, "M", 1000);
	assert_int_equal(eval("2*TILE*TILE*4", &env), 2048);
	assert_int_equal(eval("1 + 2 * 3", &env), 7);
	assert_int_equal(eval("(1 + 2) * 3", &env), 9);
	assert_int_equal(eval("-TILE + 20", &env), 4);
	assert_int_equal(eval("M / 64", &env), 15);  /* truncates */
	assert_int_equal(eval("M % 64", &env), 40);
	assert_int_equal(eval("ceil(M/64)", &env), 16); /* rounds up */
	assert_int_equal(eval("ceil(1024/64)", &env), 16);
	assert_int_equal(eval("ceil((M+24)/64) * 2", &env), 32);
	assert_int_equal(eval("min(M, 64)", &env), 64);
	assert_int_equal(eval("max(M, 64)", &env), 1000);
	expr_set(&env, "TILE", 32); /* overwrite, not append */
	assert_int_equal(eval("TILE", &env), 32);
	assert_int_equal(env.n, 2);
}

static void test_errors(void **state)
{
	(void)state;
	expr_env env = {0};
	long long v;
	char err[64];
	assert_int_equal(expr_eval("BM*2", &env, &v, err, sizeof err), -1);
	assert_string_equal(err, "unknown name 'BM'");
	assert_int_equal(expr_eval("4/0", &env, &v, err, sizeof err), -1);
	assert_non_null(strstr(err, "division by zero"));
	assert_int_equal(expr_eval("(1+2", &env, &v, err, sizeof err), -1);
	assert_int_equal(expr_eval("1 2", &env, &v, err, sizeof err), -1);
	assert_int_equal(expr_eval("sqrt(4)", &env, &v, err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown function"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
