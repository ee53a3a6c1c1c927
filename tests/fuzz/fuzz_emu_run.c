/* fuzz_emu_run: parse, then run every entry on a small bounded launch: the emulator as a sandbox for any PTX. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_hopper.h"
#include "emu/emu_internal.h"
#include "fuzz.h"

/* Three buffers of 4 KiB (A, B, C); a parameter of 8 bytes gets a buffer's
 * address in turn, a smaller one a small size, so loads and stores land; a
 * 128-byte one a tensor map over a buffer (32 x 64 16-bit elements, 64x8
 * boxes, 128B swizzle), so TMA copies land too, wherever the kernel points them. */
static void run_entry(const emu_kernel *k, uint8_t *bufs)
{
	uint8_t *param = xcalloc(1, (size_t)k->param_bytes + 8);
	for (int i = 0; i < k->nparams; i++) {
		const emu_param *p = &k->params[i];
		uint64_t v = p->bytes >= 8 ? (uint64_t)(i % 3 + 1) << EMU_GLOBAL_SHIFT : 16;
		memcpy(param + p->offset, &v, p->bytes < 8 ? (size_t)p->bytes : 8);
		if (p->bytes == 128) {
			emu_tmap t;
			const unsigned box[2] = {64, 8};
			emu_tmap_build(&t, i % 3, 2, 32, 64, box, 3);
			memcpy(param + p->offset, &t, sizeof t);
		}
	}
	emu_opcount *cnt = xcalloc((size_t)k->nops, sizeof *cnt);
	/* a kernel with wgmma gets a whole warpgroup, so its descriptors are read */
	unsigned threads = k->nwgmma ? 128 : 64;
	emu_launch L = {.k = k, .path = "fuzz.ptx", .grid = {2, 1, 1}, .block = {threads, 1, 1}, .smem_dynamic = 256,
			.param = param, .nbufs = 3, .max_warp_inst = 20000, .cnt = cnt,
			.cluster = {k->reqcluster[0] == 2 ? 2 : 1, 1, 1}}; /* a pair when the kernel asks for one */
	for (int b = 0; b < 3; b++)
		L.bufs[b] = (emu_buffer){bufs + b * 4096, 4096};
	char err[512];
	emu_exec(&L, err, sizeof err);
	free(cnt);
	free(param);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	char err[512];
	emu_module *m = emu_module_parse("fuzz.ptx", text, NULL, err, sizeof err);
	if (m) {
		uint8_t *bufs = xcalloc(3, 4096);
		for (int i = 0; i < m->nk && i < 4; i++)
			run_entry(&m->k[i], bufs);
		free(bufs);
	}
	emu_module_free(m);
	free(text);
	return 0;
}
