/* fuzz_ptx: the PTX tokenizer (highlight classes), regions, folding, the view, the instruction mix and the .file/.loc reader. */
#include <stdlib.h>

#include "course/ptx.h"
#include "course/ptxloc.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	ptx_doc d;
	char err[512];
	ptx_load(&d, text, err, sizeof err);
	static ptx_row rows[4096];
	ptx_view(&d, 1, 1, 1, rows, 4096);
	ptx_view(&d, 0, 0, 0, rows, 4096);
	ptx_mix_entry mix[64];
	int total;
	ptx_mix(&d, mix, 64, &total);
	ptx_free(&d);
	ptx_regions rs;
	ptx_regions_scan(text, &rs);
	ptx_locs *locs = ptx_locs_scan(text);
	for (int i = 0; locs && i <= locs->nlines + 1; i++)
		ptx_loc_of(locs, i, NULL);
	ptx_locs_free(locs);
	/* line by line, as the PTX pane highlights it */
	int in_block = 0, in_block2 = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		ptx_token tok[256];
		ptx_tokenize_line(p, len, tok, 256, &in_block);
		unsigned char *cls = xmalloc((size_t)len + 1);
		ptx_classify_line(p, len, cls, &in_block2);
		free(cls);
		char shape[128];
		ptx_shape(p, len, shape, sizeof shape);
		p += len + (nl != NULL);
	}
	free(text);
	return 0;
}
