/* fuzz_sass_record: a recorded SASS file (assets/sass/NN.sass) as `sass` and the tutor read it: the header's key table, then nvdisasm's text through the disassembly parser, its loops and each instruction's control bits as `sass` says them; what parses is written back and must read back the same, control bits included. */
#include <stdio.h>
#include <stdlib.h>

#include "course/sass.h"
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
		int *lo, *hi;
		char note[160];
		sass_loops_new(&k, &lo, &hi);
		for (int i = 0; i < k.n; i++) {
			if (k2.ins[i].has_ctl != k.ins[i].has_ctl || k2.ins[i].wbar != k.ins[i].wbar ||
			    k2.ins[i].rbar != k.ins[i].rbar || k2.ins[i].wait != k.ins[i].wait)
				abort();
			if (sass_control_note(&k, lo, hi, i, note, sizeof note) >= (int)sizeof note)
				abort();
		}
		free(lo), free(hi);
		sass_kernel_free(&k2);
		free(again);
		sass_kernel_free(&k);
	}
	free(text);
	return 0;
}
