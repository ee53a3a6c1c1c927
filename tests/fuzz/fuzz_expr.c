/* fuzz_expr: the expression evaluator (launch shapes, --grid, lesson parameters) with a few names bound. */
#include <stdlib.h>

#include "base/expr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	expr_env env = {0};
	expr_set(&env, "M", 4096);
	expr_set(&env, "N", 1024);
	expr_set(&env, "K", 9223372036854775807LL);
	expr_set(&env, "TILE", -1);
	expr_set(&env, "MIN", -9223372036854775807LL - 1);
	long long v;
	char err[256];
	expr_eval(text, &env, &v, err, sizeof err);
	expr_eval(text, NULL, &v, err, sizeof err);
	free(text);
	return 0;
}
