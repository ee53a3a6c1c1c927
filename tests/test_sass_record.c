/* test_sass_record: recorded SASS — FNV-1a against published vectors, a recording written and read back (the header, the body through the one disassembly parser, the label), a stale PTX, another arch or entry, malformed headers named by file:line, a lesson with no recording said as such, and every recording in assets/sass/ current with its lesson's PTX and its regs: header (a lesson without one said, not failed). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/util.h"
#include "course/lesson.h"
#include "course/sass_record.h"
#include "course/sass_tools.h"

/* FNV-1a 64 test vectors from its authors' reference (isthe.com/chongo/tech/comp/fnv). */
static void test_fnv1a64(void **state)
{
	(void)state;
	assert_true(hash_fnv1a64("", 0) == 0xcbf29ce484222325ULL);
	assert_true(hash_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(hash_fnv1a64("foobar", 6) == 0x85944171f73967e8ULL);
	char hex[17];
	uint64_t back;
	hash_hex(0x0be8281fe3f83ac5ULL, hex);
	assert_string_equal(hex, "0be8281fe3f83ac5");
	assert_int_equal(hash_parse_hex("0BE8281FE3F83AC5", &back), 0);
	assert_true(back == 0x0be8281fe3f83ac5ULL);
	assert_int_equal(hash_parse_hex("0be8281fe3f83ac", &back), -1);   /* 15 digits */
	assert_int_equal(hash_parse_hex("0be8281fe3f83ac5 ", &back), -1); /* something after */
	assert_int_equal(hash_parse_hex("0be8281fe3f83ag5", &back), -1);
}

/* A scratch PTX file with the given text; its path in buf. */
static void scratch_ptx(char *buf, size_t len, const char *text)
{
	snprintf(buf, len, "/tmp/ptxtutor-rec-XXXXXX");
	int fd = mkstemp(buf);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static char *disasm_sample(void)
{
	char path[512];
	util_path(path, sizeof path, "tests/data/sass/naive.nvdisasm");
	char *t = util_read_file(path, NULL, NULL, 0);
	assert_non_null(t);
	return t;
}

/* A recording of lesson 1 for the PTX text ptx (made as --record makes one). */
static char *make_recording(const char *ptx, const char *arch)
{
	sass_kernel k;
	sass_kernel_init(&k, "sgemm_naive");
	util_strlcpy(k.arch, arch, sizeof k.arch);
	util_strlcpy(k.compiler, "ptxas 13.0.88", sizeof k.compiler);
	util_strlcpy(k.disassembler, "nvdisasm 13.0.85", sizeof k.disassembler);
	util_strlcpy(k.tools, "ptxas -arch=sm_90 -lineinfo + nvdisasm -g", sizeof k.tools);
	util_strlcpy(k.recorded_date, "2026-11-25", sizeof k.recorded_date);
	util_strlcpy(k.recorded_by, "ptxtutor sass 1 --ptxas --gpu h100 --record", sizeof k.recorded_by);
	k.regs = 28, k.stack = 0, k.spill_stores = 0, k.spill_loads = 4;
	sass_record r = {.lesson = 1, .hash = hash_fnv1a64(ptx, strlen(ptx))};
	util_strlcpy(r.ptx, "ptx/01_naive.ptx", sizeof r.ptx);
	char *body = disasm_sample();
	char *text = sass_record_format(&r, &k, body);
	/* The body follows the header unchanged: what nvdisasm printed is what is kept. */
	assert_non_null(strstr(text, "---\n"));
	assert_string_equal(strstr(text + 4, "---\n") + 4, body);
	free(body);
	return text;
}

static void test_good_and_stale(void **state)
{
	(void)state;
	const char *ptx = ".version 7.0\n.target sm_50\n// the kernel\n";
	char path[64], why[600];
	scratch_ptx(path, sizeof path, ptx);
	char *rec = make_recording(ptx, "sm_90");
	sass_kernel k;
	assert_int_equal(sass_record_check(rec, "01.sass", 1, path, "sgemm_naive", "sm_90", &k, why, sizeof why), 0);
	assert_string_equal(k.compiler, "ptxas 13.0.88");
	assert_string_equal(k.disassembler, "nvdisasm 13.0.85");
	assert_string_equal(k.recorded_date, "2026-11-25");
	assert_int_equal(k.spill_loads, 4);
	assert_int_equal(k.n, 14); /* the sample's instructions, with their PTX lines */
	assert_true(k.has_lines);
	assert_int_equal(k.ins[4].line, 81); /* LDG.E R4 at 0x40 */
	assert_int_equal(k.ins[6].line, 83); /* FFMA at 0x60 */
	assert_int_equal(k.ins[0].line, 0);  /* before the first line comment */
	char label[400];
	sass_record_label(&k, label, sizeof label);
	assert_string_equal(label, "recorded SASS (ptxas 13.0.88 + nvdisasm 13.0.85, sm_90, 2026-11-25, "
				   "ptxtutor sass 1 --ptxas --gpu h100 --record): not compiled here");
	sass_kernel_free(&k);

	/* Another arch, entry or lesson: not this recording. */
	assert_int_equal(sass_record_check(rec, "01.sass", 1, path, "sgemm_naive", "sm_80", &k, why, sizeof why), -1);
	assert_string_equal(why, "01.sass is for sm_90, not sm_80");
	assert_int_equal(k.n, 0);
	assert_int_equal(sass_record_check(rec, "01.sass", 1, path, "other", "sm_90", &k, why, sizeof why), -1);
	assert_string_equal(why, "01.sass is a recording of sgemm_naive, not other");
	assert_int_equal(sass_record_check(rec, "01.sass", 2, path, "sgemm_naive", "sm_90", &k, why, sizeof why), -1);
	assert_string_equal(why, "01.sass is a recording of lesson 1");

	/* One byte of the PTX changed: stale. */
	unlink(path);
	scratch_ptx(path, sizeof path, ".version 7.0\n.target sm_50\n// the kernel.\n");
	assert_int_equal(sass_record_check(rec, "01.sass", 1, path, "sgemm_naive", "sm_90", &k, why, sizeof why), -1);
	assert_non_null(strstr(why, "the PTX changed since it was recorded (01.sass)"));
	assert_non_null(strstr(why, "scripts/gpu-sass.sh --record"));
	unlink(path);
	free(rec);
}

/* A recording with line `n` (1-based) replaced by repl (NULL: removed). */
static char *with_line(const char *text, int n, const char *repl)
{
	strbuf sb = {0};
	int line = 1;
	for (const char *p = text; *p; line++) {
		size_t len = strcspn(p, "\n");
		if (line != n) {
			sb_appendn(&sb, p, len);
			sb_append(&sb, "\n");
		} else if (repl) {
			sb_append(&sb, repl);
			sb_append(&sb, "\n");
		}
		p += len + (p[len] == '\n');
	}
	return sb.data;
}

static void test_malformed(void **state)
{
	(void)state;
	char *rec = make_recording("x", "sm_90");
	/* Lines: 1 "---", 2 recorded-sass, 3 lesson, 4 ptx, 5 ptx-fnv1a64, 6 entry, 7 arch, (no gpu: an
	 * unknown optional text is left out), 8 compiler ... 16 command, 17 "---", 18 the body. */
	static const struct {
		int line;
		const char *repl, *want;
	} cases[] = {
		{1, "# SASS", "f.sass:1: not a recorded SASS file"},
		{2, "recorded-sass: 2", "f.sass:2: bad recorded-sass '2' (this ptxtutor reads format 1)"},
		{3, "lesson: five", "f.sass:3: bad lesson 'five'"},
		{5, "ptx-fnv1a64: 12345", "f.sass:5: bad ptx-fnv1a64 '12345'"},
		{7, "arch sm_90", "f.sass:7: a header line is 'key: value'"},
		{7, "colour: blue", "f.sass:7: unknown key 'colour'"},
		{7, "entry: twice", "f.sass:7: 'entry' twice"},
		{7, NULL, "f.sass:16: the header has no 'arch'"},
		{6, "entry: not_there", "f.sass:18: no function 'not_there' in the disassembly"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *bad = with_line(rec, cases[i].line, cases[i].repl);
		sass_record r;
		sass_kernel k;
		char err[300];
		assert_int_equal(sass_record_parse(bad, "f.sass", &r, &k, err, sizeof err), -1);
		if (strncmp(err, cases[i].want, strlen(cases[i].want)))
			fail_msg("case %zu: '%s', want '%s...'", i, err, cases[i].want);
		assert_int_equal(k.n, 0);
		free(bad);
	}
	/* A header that never ends. */
	sass_record r;
	sass_kernel k;
	char err[300];
	assert_int_equal(sass_record_parse("---\nlesson: 1\n", "f.sass", &r, &k, err, sizeof err), -1);
	assert_string_equal(err, "f.sass:2: the header has no end ('---')");
	free(rec);
}

/* A lesson with no recording is said as such: the SASS view shows "no
 * recording" where it would show one, and that is no error. */
static void test_no_recording(void **state)
{
	(void)state;
	const char *ptx = ".version 7.0\n.target sm_50\n";
	char path[64], why[300];
	scratch_ptx(path, sizeof path, ptx);
	sass_kernel k;
	assert_int_equal(sass_record_use(99, path, "sgemm_naive", "sm_90", &k, why, sizeof why), -1);
	assert_string_equal(why, "no recording of lesson 99 (assets/sass/99.sass: scripts/gpu-sass.sh --record makes it)");
	assert_int_equal(k.n, 0);
	assert_string_equal(k.entry, "sgemm_naive");
	unlink(path);
}

/* A PTX file's recording lies beside it (X.ptx: X.sass), says lesson -1, and stands for that file
 * only: not for a lesson, and not once the file changed. */
static void test_beside(void **state)
{
	(void)state;
	char buf[64];
	sass_record_beside("tests/heldout/spill.ptx", buf, sizeof buf);
	assert_string_equal(buf, "tests/heldout/spill.sass");
	sass_record_beside("k", buf, sizeof buf);
	assert_string_equal(buf, "k.sass");
	const char *ptx = ".version 7.0\n.target sm_90, debug\n// a student's kernel\n";
	char path[64], why[600];
	snprintf(path, sizeof path, "/tmp/ptxtutor-beside-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char ptxp[80], recp[80];
	snprintf(ptxp, sizeof ptxp, "%s.ptx", path);
	snprintf(recp, sizeof recp, "%s.sass", path);
	FILE *f = fopen(ptxp, "w");
	assert_non_null(f);
	fputs(ptx, f);
	fclose(f);
	sass_kernel k;
	assert_int_equal(sass_record_use(SASS_RECORD_FILE, ptxp, "sgemm_naive", "sm_90", &k, why, sizeof why), -1);
	assert_non_null(strstr(why, "no recording beside the PTX file ("));
	assert_non_null(strstr(why, recp));
	char *rec = make_recording(ptx, "sm_90");
	char *file = with_line(rec, 3, "lesson: -1");
	f = fopen(recp, "w");
	assert_non_null(f);
	fputs(file, f);
	fclose(f);
	assert_int_equal(sass_record_use(SASS_RECORD_FILE, ptxp, "sgemm_naive", "sm_90", &k, why, sizeof why), 0);
	assert_int_equal(k.n, 14);
	assert_true(k.has_lines);
	sass_kernel_free(&k);
	assert_int_equal(sass_record_check(file, "x.sass", 1, ptxp, "sgemm_naive", "sm_90", &k, why, sizeof why), -1);
	assert_string_equal(why, "x.sass is a PTX file's recording, not lesson 1's");
	f = fopen(ptxp, "a");
	fputs("// changed\n", f);
	fclose(f);
	assert_int_equal(sass_record_use(SASS_RECORD_FILE, ptxp, "sgemm_naive", "sm_90", &k, why, sizeof why), -1);
	assert_non_null(strstr(why, "the PTX changed since it was recorded"));
	assert_non_null(strstr(why, "ptxtutor sass --ptx FILE --entry NAME --record"));
	unlink(ptxp), unlink(recp), unlink(path);
	free(file), free(rec);
}

/* Every recording beside a held-out kernel (tests/heldout/NAME.sass, the JIT's code the stall model
 * replays) is of its current PTX: a PTX changed without it silently loses its SASS. */
static void test_heldout_recordings_current(void **state)
{
	(void)state;
	char dir[512];
	util_path(dir, sizeof dir, "tests/heldout");
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".sass"))
			continue;
		char rec[1024], ptx[1024], why[600];
		snprintf(rec, sizeof rec, "%s/%s", dir, e->d_name);
		snprintf(ptx, sizeof ptx, "%s/%.*s.ptx", dir, (int)(len - 5), e->d_name);
		char *text = util_read_file(rec, NULL, NULL, 0);
		assert_non_null(text);
		sass_record r;
		sass_kernel k;
		if (sass_record_parse(text, e->d_name, &r, &k, why, sizeof why) < 0)
			fail_msg("%s", why);
		char entry[128], arch[16];
		util_strlcpy(entry, k.entry, sizeof entry);
		util_strlcpy(arch, k.arch, sizeof arch);
		sass_kernel_free(&k);
		if (sass_record_check(text, e->d_name, SASS_RECORD_FILE, ptx, entry, arch, &k, why, sizeof why) < 0)
			fail_msg("%s", why);
		sass_kernel_free(&k);
		free(text);
		n++;
	}
	closedir(d);
	assert_true(n > 0);
}

/* Every recording in assets/sass/ is of a lesson with a kernel, of its
 * current PTX (entry and the H100's arch as scripts/gpu-sass.sh --record
 * makes them) and agrees with its regs: header. A lesson without one (a
 * lesson added on a machine without the GPU and the toolkit) is said, not
 * failed: its recording is a follow-up on the GPU machine. */
static void test_recordings_current(void **state)
{
	(void)state;
	char dir[512];
	util_path(dir, sizeof dir, SASS_RECORD_DIR);
	DIR *d = opendir(dir);
	int nfiles = 0;
	char names[64][32];
	for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
		size_t n = strlen(e->d_name);
		if (n > 5 && !strcmp(e->d_name + n - 5, ".sass")) {
			if (nfiles == (int)ARRAY_LEN(names))
				fail_msg("more than %d files in %s", nfiles, SASS_RECORD_DIR);
			util_strlcpy(names[nfiles++], e->d_name, sizeof names[0]);
		}
	}
	if (d)
		closedir(d);
	course c;
	course_load(&c, NULL, 0);
	strbuf bad = {0};
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		if (!l->ptx_path[0])
			continue;
		char rel[64], file[600], ptx[512], arch[16], why[600];
		sass_record_rel(l->number, rel, sizeof rel);
		util_path(file, sizeof file, rel);
		util_path(ptx, sizeof ptx, l->ptx_path);
		char *text = util_read_file(ptx, NULL, NULL, 0), *rec = util_read_file(file, NULL, NULL, 0);
		assert_non_null(text);
		sass_arch_for(text, 9, 0, arch, sizeof arch);
		sass_kernel k;
		if (!rec)
			printf("lesson %d: no recording (%s): its SASS view says so until scripts/gpu-sass.sh --record "
			       "makes one on the GPU machine\n", l->number, rel);
		else if (sass_record_check(rec, rel, l->number, ptx, l->entry, arch, &k, why, sizeof why) < 0)
			sb_printf(&bad, "\n  lesson %d: %s", l->number, why);
		else {
			/* The header's regs: feeds the occupancy maths as "recorded": it must be the recording's. */
			if (k.regs != l->regs)
				sb_printf(&bad, "\n  lesson %d: its header says regs: %d, %s says %d", l->number, l->regs, rel,
					  k.regs);
			sass_kernel_free(&k);
		}
		free(text);
		free(rec);
		/* This file is accounted for. */
		for (int f = 0; f < nfiles; f++)
			if (!strcmp(names[f], rel + strlen(SASS_RECORD_DIR) + 1))
				names[f][0] = '\0';
	}
	for (int f = 0; f < nfiles; f++)
		if (names[f][0])
			sb_printf(&bad, "\n  %s/%s: no lesson with a kernel has that number", SASS_RECORD_DIR, names[f]);
	course_free(&c);
	if (bad.len)
		fail_msg("recorded SASS out of date (run scripts/gpu-sass.sh --record DIR on the GPU machine and "
			 "copy DIR/*.sass into %s):%s", SASS_RECORD_DIR, bad.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv1a64),
		cmocka_unit_test(test_good_and_stale),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_no_recording),
		cmocka_unit_test(test_beside),
		cmocka_unit_test(test_heldout_recordings_current),
		cmocka_unit_test(test_recordings_current),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
