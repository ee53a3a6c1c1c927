/* fuzz_state: the state file (lesson and page) as the tutor reads it at start-up. */
#include <stdlib.h>

#include "course/state.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	state_data s;
	state_parse(text, &s);
	state_free(&s);
	free(text);
	return 0;
}
