/* fuzz_sass_record: a recorded SASS file (assets/sass/NN.sass) as `sass` and the tutor read it: the header's key table, then nvdisasm's text through the disassembly parser; what parses is written back and must read back the same. */
#include <stdio.h>
#include <stdlib.h>

#include "course/sass_record.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	sass_record r, r2;
	sass_kernel k, k2;
	char err[300];
	if (sass_record_parse(text, "f.sass", &r, &k, err, sizeof err) == 0) {
		/* The body is everything after the header's second '---' line. */
		const char *body = strstr(text + 4, "\n---");
		body = body ? strchr(body + 1, '\n') : NULL;
		char *again = sass_record_format(&r, &k, body ? body + 1 : "");
		if (sass_record_parse(again, "f.sass", &r2, &k2, err, sizeof err) != 0 || k2.n != k.n ||
		    r2.hash != r.hash || r2.lesson != r.lesson)
			abort();
		sass_kernel_free(&k2);
		free(again);
		sass_kernel_free(&k);
	}
	free(text);
	return 0;
}
