/* fuzz_devices: the GPU table (assets/gpus.tsv) parser and the lookups by name. */
#include <stdlib.h>

#include "model/devices.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	gpu_table *t = xcalloc(1, sizeof *t);
	char err[512], msg[256];
	if (devices_parse(t, "fuzz.tsv", text, err, sizeof err) == 0) {
		devices_default(t);
		devices_find(t, "h100", msg, sizeof msg);
		devices_find(t, "a", msg, sizeof msg);
		devices_find(t, "", msg, sizeof msg);
		if (t->n) {
			gpu_spec live = t->g[0];
			devices_complete(t, &live);
		}
	}
	free(t);
	free(text);
	return 0;
}
