/* emu_exec_local: each thread's local memory (.local, nvcc's __local_depot, spills), and the two calls nvcc emits that read it: vprintf and __assertfail. */
#include <stdio.h>
#include <string.h>
#include "emu/emu_exec.h"
#include "base/checked.h"
#include "base/util.h"
#include "model/access.h"

/* ---- local memory ---- */

uint8_t *emu_local_ptr(blockctx *b, warp *w, const emu_op *o, int lane, uint64_t a, int bytes)
{
	if ((a >> EMU_GLOBAL_SHIFT) == (EMU_LOCAL_WINDOW >> EMU_GLOBAL_SHIFT))
		a -= EMU_LOCAL_WINDOW;
	int size = b->k->local_bytes;
	if (!ck_within(a, (uint64_t)bytes, (uint64_t)size)) {
		emu_fail(b, o, "out-of-bounds local access of %d bytes at offset %lld (a thread has %d bytes of .local)", bytes,
			 (long long)a, size);
		return NULL;
	}
	return w->local + (size_t)lane * (size_t)size + a;
}

/* Local memory is interleaved a 4-byte word at a time across the threads of a
 * warp (the CUDA C++ Programming Guide, "Local Memory": "consecutive 32-bit
 * words are accessed by consecutive thread IDs"), so a warp reading the same
 * offset touches 128 contiguous bytes. The sectors are counted on those
 * addresses, a word of the access at a time. */
void emu_count_local(emu_opcount *cnt, const int64_t off[32], uint32_t mask, int bytes)
{
	cnt->lrequests++;
	cnt->bytes += (uint64_t)__builtin_popcount(mask) * (uint64_t)bytes;
	for (int word = 0; word < (bytes + 3) / 4; word++) {
		int64_t a[32] = {0};
		for_each_lane(l, mask) a[l] = ((off[l] / 4 + word) * 32 + l) * 4;
		access_counts c;
		access_count(ACCESS_GLOBAL_LOAD, a, mask, bytes < 4 ? bytes : 4, &c);
		cnt->lsectors += c.sectors;
	}
}

/* ---- reading what a call's pointers point at ---- */

/* n bytes at a generic address: the thread's local memory, a module-level
 * variable (the strings), or a global buffer; NULL when none
 * holds them (no fault: the callers say what was read). */
static const uint8_t *readable(blockctx *b, warp *w, int lane, uint64_t a, int n)
{
	uint64_t win = a >> EMU_GLOBAL_SHIFT;
	uint64_t off = a & ((1ULL << EMU_GLOBAL_SHIFT) - 1);
	if (win == EMU_LOCAL_WINDOW >> EMU_GLOBAL_SHIFT)
		return ck_within(off, (uint64_t)n, (uint64_t)b->k->local_bytes)
			       ? w->local + (size_t)lane * (size_t)b->k->local_bytes + off : NULL;
	return emu_global_ptr(b->L, a, (uint64_t)n);
}

/* A NUL-terminated string at a into out (cut at cap - 1); -1 when its first byte is nowhere. */
static int read_str(blockctx *b, warp *w, int lane, uint64_t a, char *out, size_t cap)
{
	size_t n = 0;
	for (; n + 1 < cap; n++) {
		const uint8_t *p = readable(b, w, lane, a + n, 1);
		if (!p) {
			if (n == 0)
				return -1;
			break;
		}
		if (!*p)
			break;
		out[n] = (char)*p;
	}
	out[n] = 0;
	return 0;
}

/* The thread of a lane as "x,y,z". */
static void thread_of(const blockctx *b, const warp *w, int lane, char *out, size_t n)
{
	unsigned t = (unsigned)w->id * 32 + (unsigned)lane, bx = b->L->block[0], by = b->L->block[1];
	snprintf(out, n, "%u,%u,%u", t % bx, t / bx % by, t / (bx * by));
}

/* ---- vprintf ---- */

enum { PF_LINE = 512 };

/* One conversion of the format at *f (past its '%') with its argument from the
 * buffer at args + *at (each aligned to its size, as nvcc packs them), appended
 * to out. 0, or -1 with why (the argument buffer ends, a string is nowhere). */
static int convert(blockctx *b, warp *w, int lane, const char **f, uint64_t args, uint64_t *at, char *out, size_t cap,
		   char *why, size_t wn)
{
	char spec[32] = "%";
	size_t sn = 1;
	const char *p = *f;
	int longs = 0;
	while (*p && strchr("-+ #0123456789.", *p) && sn < 20)
		spec[sn++] = *p++;
	while (*p && strchr("hlzjtL", *p)) {
		longs += *p == 'l' || *p == 'z' || *p == 'j' || *p == 't';
		p++;
	}
	char conv = *p;
	if (!conv) {
		*f = p;
		return 0;
	}
	*f = p + 1;
	size_t len = strlen(out);
	if (conv == '%') {
		if (len + 1 < cap)
			out[len] = '%', out[len + 1] = 0;
		return 0;
	}
	int size = strchr("fFeEgGaAsp", conv) || longs ? 8 : 4;
	if (!strchr("diuxXocfFeEgGaAsp", conv)) {
		snprintf(why, wn, "printf conversion '%%%c' is not one the emulator runs", conv);
		return -1;
	}
	*at = (*at + (uint64_t)size - 1) / (uint64_t)size * (uint64_t)size;
	const uint8_t *src = readable(b, w, lane, args + *at, size);
	if (!src) {
		snprintf(why, wn, "printf's argument %llu bytes into its buffer is outside it", (unsigned long long)*at);
		return -1;
	}
	uint64_t v = 0;
	memcpy(&v, src, (size_t)size);
	*at += (uint64_t)size;
	snprintf(spec + sn, sizeof spec - sn, "%s%c", strchr("diuxXo", conv) ? "ll" : "", conv); /* integers as long long */
	char *o = out + len;
	size_t room = cap - len;
	if (conv == 'd' || conv == 'i')
		snprintf(o, room, spec, size == 4 ? (long long)(int32_t)v : (long long)v);
	else if (strchr("uxXo", conv))
		snprintf(o, room, spec, size == 4 ? (unsigned long long)(uint32_t)v : (unsigned long long)v);
	else if (conv == 'c')
		snprintf(o, room, spec, (int)(unsigned char)v);
	else if (conv == 'p')
		snprintf(o, room, "0x%llx", (unsigned long long)v);
	else if (conv == 's') {
		char str[PF_LINE];
		if (read_str(b, w, lane, v, str, sizeof str) < 0)
			util_strlcpy(str, "(null)", sizeof str); /* what the device printf writes for a pointer it cannot read */
		snprintf(o, room, spec, str);
	} else {
		double d;
		memcpy(&d, &v, 8);
		snprintf(o, room, spec, d);
	}
	return 0;
}

/* The line one thread prints, each '\n' of it ending a line of the output. */
static void emit(blockctx *b, warp *w, int lane, const char *text)
{
	if (!b->L->printed)
		return;
	char th[48], line[PF_LINE + 128];
	thread_of(b, w, lane, th, sizeof th);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof line, "[block %u,%u,%u thread %s] %.*s", b->ctaid[0], b->ctaid[1], b->ctaid[2], th, (int)n,
			 p);
		run_printf_add(b->L->printed, line);
		p += n + (p[n] == '\n');
	}
}

int emu_exec_printf(blockctx *b, warp *w, const emu_op *o, uint32_t em)
{
	for_each_lane(l, em) {
		char fmt[PF_LINE], out[PF_LINE] = "", why[160];
		uint64_t fa = w->R[o->src[0] * 32 + l], args = w->R[o->src[1] * 32 + l], at = 0;
		if (read_str(b, w, (int)l, fa, fmt, sizeof fmt) < 0)
			return emu_fail(b, o, "printf's format string at 0x%llx is in no memory the emulator holds",
					(unsigned long long)fa);
		for (const char *f = fmt; *f;) {
			size_t n = strcspn(f, "%"), len = strlen(out);
			snprintf(out + len, sizeof out - len, "%.*s", (int)n, f);
			f += n;
			if (*f == '%' && (f++, convert(b, w, (int)l, &f, args, &at, out, sizeof out, why, sizeof why) < 0))
				return emu_fail(b, o, "%s", why);
		}
		emit(b, w, (int)l, out);
	}
	return 0;
}

/* ---- __assertfail ---- */

int emu_exec_assert(blockctx *b, warp *w, const emu_op *o, uint32_t em)
{
	int l = __builtin_ctz(em);
	char msg[256], file[256], func[256], th[48];
	const char *const unknown = "?";
	const uint64_t *R = w->R;
	if (read_str(b, w, l, R[o->src[0] * 32 + l], msg, sizeof msg) < 0)
		util_strlcpy(msg, unknown, sizeof msg);
	if (read_str(b, w, l, R[o->src[1] * 32 + l], file, sizeof file) < 0)
		util_strlcpy(file, unknown, sizeof file);
	if (read_str(b, w, l, R[o->src[3] * 32 + l], func, sizeof func) < 0)
		util_strlcpy(func, unknown, sizeof func);
	thread_of(b, w, l, th, sizeof th);
	return emu_fail(b, o, "assert failed: %s at %s:%u in %s (thread %s)", msg, file, (unsigned)R[o->src[2] * 32 + l],
			func, th);
}
