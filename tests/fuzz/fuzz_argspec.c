/* fuzz_argspec: the one parser of --args and args: (typed literals, tensor maps with expressions) and its formatter. */
#include <stdlib.h>

#include "base/expr.h"
#include "course/argspec.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	expr_env env = {0};
	expr_set(&env, "M", 256);
	expr_set(&env, "N", 256);
	expr_set(&env, "K", 256);
	expr_set(&env, "BM", 128);
	expr_set(&env, "BK", 64);
	argspec a;
	char err[512];
	if (argspec_parse(text, &env, &a, err, sizeof err) == 0) {
		for (int i = 0; i < a.n; i++) {
			char tok[ARGSPEC_TOKEN];
			argspec_format_item(&a.item[i], tok, sizeof tok);
			argspec_type_name(a.item[i].type);
		}
		argspec_or_default(&a);
	}
	free(text);
	return 0;
}
