/* test_jitcubin: the cubin `sass --jit` takes from the driver's JIT cache (gpu/jitcubin.c), on a cache
 * folder made here in the shape the driver writes (an index, and an entry holding the compiled text, then
 * the cubin, then other bytes): found by the text's mark, cut at the ELF's headers, no other entry's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/jitcubin.h"

/* An ELF of `body` bytes after its 64-byte header, section headers then program headers after it. */
static size_t make_elf(unsigned char *e, size_t body, unsigned char fill)
{
	memset(e, 0, 64);
	memcpy(e, "\x7f" "ELF", 4);
	uint64_t shoff = 64 + body, phoff = shoff + 3 * 64;
	uint16_t shsize = 64, shnum = 3, phsize = 56, phnum = 2;
	memcpy(e + 0x20, &phoff, 8), memcpy(e + 0x28, &shoff, 8);
	memcpy(e + 0x36, &phsize, 2), memcpy(e + 0x38, &phnum, 2), memcpy(e + 0x3a, &shsize, 2), memcpy(e + 0x3c, &shnum, 2);
	size_t n = (size_t)phoff + 2 * 56;
	memset(e + 64, fill, n - 64);
	return n;
}

static void write_file(const char *path, const void *a, size_t na, const void *b, size_t nb, const char *tail)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(a, 1, na, f);
	fwrite(b, 1, nb, f);
	fputs(tail, f);
	fclose(f);
}

static void test_cubin_of_its_entry(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	char dir[256];
	snprintf(dir, sizeof dir, "%.200s/test_jitcubin_XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	char sub[300], index[320], a[320], b[320];
	snprintf(sub, sizeof sub, "%s/7", dir);
	mkdir(sub, 0700);
	snprintf(index, sizeof index, "%s/index", dir);
	snprintf(a, sizeof a, "%s/7/a1", dir);
	snprintf(b, sizeof b, "%s/7/b2", dir);
	static unsigned char e1[2048], e2[2048];
	size_t n1 = make_elf(e1, 300, 0x11), n2 = make_elf(e2, 500, 0x22);
	write_file(index, "", 0, "", 0, "an index of 32 bytes, no ELF....");
	const char *t1 = ".version 8.0\n// ptxtutor sass: compile 1.1.5\n", *t2 = ".version 8.0\n// ptxtutor sass: compile 1.2.9\n";
	write_file(a, t1, strlen(t1), e1, n1, "more of the entry");
	write_file(b, t2, strlen(t2), e2, n2, "");
	size_t size = 0;
	unsigned char *got = jitcubin_cached(dir, "// ptxtutor sass: compile 1.2.9", &size);
	assert_non_null(got);
	assert_int_equal(size, n2);
	assert_memory_equal(got, e2, n2);
	free(got);
	got = jitcubin_cached(dir, "// ptxtutor sass: compile 1.1.5", &size);
	assert_non_null(got);
	assert_int_equal(size, n1); /* the entry's bytes after it are not the cubin's */
	assert_memory_equal(got, e1, n1);
	free(got);
	assert_null(jitcubin_cached(dir, "// ptxtutor sass: compile 9.9.9", &size));
	/* an ELF cut short (its headers past the file's end) is no cubin */
	write_file(b, t2, strlen(t2), e2, n2 - 10, "");
	assert_null(jitcubin_cached(dir, "// ptxtutor sass: compile 1.2.9", &size));
	unlink(index), unlink(a), unlink(b), rmdir(sub), rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cubin_of_its_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
