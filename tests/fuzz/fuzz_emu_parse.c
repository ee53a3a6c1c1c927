/* fuzz_emu_parse: the emulator's parser (lexer, operands, decode, declarations) on any text. */
#include <stdlib.h>

#include "emu/emu.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	char err[512];
	emu_error why;
	emu_module *m = emu_module_parse("fuzz.ptx", text, &why, err, sizeof err);
	if (m) {
		const char *names[8];
		emu_module_entries(m, names, 8);
	}
	emu_module_free(m);
	free(text);
	return 0;
}
