/* test_userptx: user copies (paths, copy, restore; the shipped file untouched; load, edit, drop, diff as the tutor does), the line diff, and error lines found in JIT and emulator logs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "course/userptx.h"
#include "base/util.h"

static char dir[PATH_MAX];

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/ptxtutor-userptx-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_path_rules(void **st)
{
	(void)st;
	char p[1024];
	setenv("XDG_DATA_HOME", "/data/x", 1);
	setenv("HOME", "/home/s", 1);
	assert_int_equal(userptx_path("ptx/03_smem.ptx", p, sizeof p), 0);
	assert_string_equal(p, "/data/x/ptxtutor/ptx/03_smem.ptx");
	/* A relative XDG_DATA_HOME is invalid: the HOME default applies. */
	setenv("XDG_DATA_HOME", "rel/dir", 1);
	assert_int_equal(userptx_path("/abs/ptx/01_naive.ptx", p, sizeof p), 0);
	assert_string_equal(p, "/home/s/.local/share/ptxtutor/ptx/01_naive.ptx");
	unsetenv("XDG_DATA_HOME");
	assert_int_equal(userptx_path("01_naive.ptx", p, sizeof p), 0);
	assert_string_equal(p, "/home/s/.local/share/ptxtutor/ptx/01_naive.ptx");
	unsetenv("HOME");
	assert_int_equal(userptx_path("01_naive.ptx", p, sizeof p), -1);
	char tiny[8];
	setenv("HOME", "/home/s", 1);
	assert_int_equal(userptx_path("01_naive.ptx", tiny, sizeof tiny), -1);
}

static void test_create_restore(void **st)
{
	(void)st;
	char shipped[PATH_MAX + 32], data[PATH_MAX + 32], copy[1024], err[256];
	snprintf(shipped, sizeof shipped, "%s/01_naive.ptx", dir);
	snprintf(data, sizeof data, "%s/data", dir);
	put(shipped, "// shipped\nret;\n");
	struct stat before;
	assert_int_equal(stat(shipped, &before), 0);
	setenv("XDG_DATA_HOME", data, 1);
	assert_int_equal(userptx_exists(shipped), 0);
	assert_int_equal(userptx_path(shipped, copy, sizeof copy), 0);
	/* Folders are made; the copy is the same bytes. */
	assert_int_equal(userptx_create(shipped, copy, err, sizeof err), 0);
	assert_int_equal(userptx_exists(shipped), 1);
	assert_int_equal(userptx_same(shipped, copy), 1);
	/* An existing copy is never overwritten. */
	put(copy, "// mine\n");
	assert_int_equal(userptx_create(shipped, copy, err, sizeof err), 0);
	assert_int_equal(userptx_same(shipped, copy), 0);
	char *t = util_read_file(copy, NULL, NULL, 0);
	assert_string_equal(t, "// mine\n");
	free(t);
	/* Restore moves the edit aside, not away. */
	assert_int_equal(userptx_restore(copy, err, sizeof err), 0);
	assert_int_equal(userptx_exists(shipped), 0);
	char bak[1100];
	snprintf(bak, sizeof bak, "%s~", copy);
	t = util_read_file(bak, NULL, NULL, 0);
	assert_non_null(t);
	assert_string_equal(t, "// mine\n");
	free(t);
	/* Restoring twice is harmless. */
	assert_int_equal(userptx_restore(copy, err, sizeof err), 0);
	/* The shipped file was only read. */
	t = util_read_file(shipped, NULL, NULL, 0);
	assert_string_equal(t, "// shipped\nret;\n");
	free(t);
	struct stat after;
	assert_int_equal(stat(shipped, &after), 0);
	assert_true(after.st_mtime == before.st_mtime && after.st_size == before.st_size);
	/* A missing shipped file is an error with its name. */
	char missing[PATH_MAX + 32];
	snprintf(missing, sizeof missing, "%s/nope.ptx", dir);
	char c2[PATH_MAX + 32];
	snprintf(c2, sizeof c2, "%s/data/x/nope.ptx", dir);
	assert_int_equal(userptx_create(missing, c2, err, sizeof err), -1);
	assert_non_null(strstr(err, "nope.ptx"));
	assert_int_equal(userptx_same(missing, shipped), -1);
}

static void test_diff_identical(void **st)
{
	(void)st;
	userptx_diff d;
	userptx_diff_make("a\nb\nc\n", "a\nb\nc\n", 3, &d);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.added + d.removed, 0);
	userptx_diff_free(&d);
}

static void test_diff_change(void **st)
{
	(void)st;
	userptx_diff d;
	userptx_diff_make("1\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\nfour\n5\n6\n7\n", 1, &d);
	assert_int_equal(d.added, 1);
	assert_int_equal(d.removed, 1);
	assert_int_equal(d.n, 5);
	assert_int_equal(d.l[0].kind, '@');
	assert_string_equal(d.l[0].text, "@@ -3,3 +3,3 @@");
	assert_int_equal(d.l[1].kind, ' ');
	assert_string_equal(d.l[1].text, "3");
	/* The removal comes first, as in diff -u, with its line numbers. */
	assert_int_equal(d.l[2].kind, '-');
	assert_string_equal(d.l[2].text, "4");
	assert_int_equal(d.l[2].old_line, 4);
	assert_int_equal(d.l[2].new_line, 0);
	assert_int_equal(d.l[3].kind, '+');
	assert_string_equal(d.l[3].text, "four");
	assert_int_equal(d.l[3].new_line, 4);
	assert_int_equal(d.l[4].kind, ' ');
	assert_string_equal(d.l[4].text, "5");
	userptx_diff_free(&d);
}

static void test_diff_hunks(void **st)
{
	(void)st;
	/* Two changes far apart make two hunks; an insertion at the top and a
	 * deletion at the end. */
	strbuf a = {0}, b = {0};
	sb_append(&b, "new first\n");
	for (int i = 1; i <= 20; i++) {
		sb_printf(&a, "line %d\n", i);
		if (i != 20)
			sb_printf(&b, "line %d\n", i);
	}
	userptx_diff d;
	userptx_diff_make(a.data, b.data, 2, &d);
	assert_int_equal(d.added, 1);
	assert_int_equal(d.removed, 1);
	int hunks = 0;
	for (int i = 0; i < d.n; i++)
		hunks += d.l[i].kind == '@';
	assert_int_equal(hunks, 2);
	assert_string_equal(d.l[0].text, "@@ -1,2 +1,3 @@");
	assert_int_equal(d.l[1].kind, '+');
	assert_string_equal(d.l[1].text, "new first");
	assert_int_equal(d.l[d.n - 1].kind, '-');
	assert_string_equal(d.l[d.n - 1].text, "line 20");
	assert_int_equal(d.l[d.n - 1].old_line, 20);
	userptx_diff_free(&d);
	/* An empty file against a full one: all added. */
	userptx_diff_make("", a.data, 0, &d);
	assert_int_equal(d.added, 20);
	assert_int_equal(d.removed, 0);
	userptx_diff_free(&d);
	sb_free(&a);
	sb_free(&b);
}

static void test_marks_jit(void **st)
{
	(void)st;
	userptx_mark m[8];
	const char *log = "ptxas application ptx input, line 83; error   : Not a name of any known instruction: 'fmaa'\n"
			  "ptxas application ptx input, line 12; warning : Unused register %r9\n"
			  "ptxas fatal   : Ptx assembly aborted due to errors\n"
			  "ptxas application ptx input, line 83; error   : Not a name of any known instruction: 'fmaa'\n";
	int n = userptx_marks(log, m, 8);
	assert_int_equal(n, 2);
	assert_int_equal(m[0].line, 83);
	assert_int_equal(m[0].error, 1);
	assert_string_equal(m[0].msg, "Not a name of any known instruction: 'fmaa'");
	assert_int_equal(m[1].line, 12);
	assert_int_equal(m[1].error, 0);
	assert_string_equal(m[1].msg, "Unused register %r9");
	/* At most max. */
	assert_int_equal(userptx_marks(log, m, 1), 1);
	assert_int_equal(userptx_marks("no lines here\n", m, 8), 0);
	assert_int_equal(userptx_marks(NULL, m, 8), 0);
}

/* What the tutor does with a lesson's copy: load (the copy when there is
 * one), edit (make it), drop an unchanged one, diff it, find its first
 * change. The shipped path may be absolute, as here. */
static void test_tutor_flow(void **st)
{
	(void)st;
	char shipped[PATH_MAX + 32], data[PATH_MAX + 32], path[1024], copy[1024], err[256];
	snprintf(shipped, sizeof shipped, "%s/05_flow.ptx", dir);
	snprintf(data, sizeof data, "%s/flowdata", dir);
	put(shipped, "a\nb\nc\nd\n");
	setenv("XDG_DATA_HOME", data, 1);
	int edited = -1;
	char *t = userptx_load(shipped, path, sizeof path, &edited, err, sizeof err);
	assert_string_equal(t, "a\nb\nc\nd\n");
	free(t);
	assert_int_equal(edited, 0);
	assert_string_equal(path, shipped);
	/* e: the copy is made, and is what loads from now on. */
	assert_int_equal(userptx_edit(shipped, copy, sizeof copy, err, sizeof err), 0);
	char want[PATH_MAX + 64];
	snprintf(want, sizeof want, "%s/ptxtutor/ptx/05_flow.ptx", data);
	assert_string_equal(copy, want);
	assert_int_equal(userptx_first_change(shipped, copy), 0);
	/* An editor that changed nothing: the copy goes. */
	assert_int_equal(userptx_drop_unchanged(shipped, copy), 1);
	assert_int_equal(access(copy, F_OK), -1);
	assert_int_equal(userptx_edit(shipped, copy, sizeof copy, err, sizeof err), 0);
	put(copy, "a\nb\nC\nd\n");
	assert_int_equal(userptx_drop_unchanged(shipped, copy), 0);
	assert_int_equal(access(copy, F_OK), 0);
	/* An existing copy is kept by a second e. */
	assert_int_equal(userptx_edit(shipped, copy, sizeof copy, err, sizeof err), 0);
	t = userptx_load(shipped, path, sizeof path, &edited, err, sizeof err);
	assert_string_equal(t, "a\nb\nC\nd\n");
	free(t);
	assert_int_equal(edited, 1);
	assert_string_equal(path, copy);
	assert_int_equal(userptx_first_change(shipped, copy), 3);
	userptx_diff d;
	assert_int_equal(userptx_diff_files(shipped, copy, 1, &d, err, sizeof err), 0);
	assert_int_equal(d.added, 1);
	assert_int_equal(d.removed, 1);
	userptx_diff_free(&d);
	/* A file that cannot be read: a message naming it, an empty diff. */
	char missing[PATH_MAX + 32];
	snprintf(missing, sizeof missing, "%s/nope.ptx", dir);
	assert_int_equal(userptx_diff_files(missing, copy, 1, &d, err, sizeof err), -1);
	assert_non_null(strstr(err, "nope.ptx"));
	assert_int_equal(d.n, 0);
	assert_int_equal(userptx_first_change(missing, copy), 0);
	assert_null(userptx_load(missing, path, sizeof path, &edited, err, sizeof err));
	assert_non_null(strstr(err, "nope.ptx"));
	/* No home for copies: e says why. */
	unsetenv("XDG_DATA_HOME");
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	unsetenv("HOME");
	assert_int_equal(userptx_edit(shipped, copy, sizeof copy, err, sizeof err), -1);
	assert_non_null(strstr(err, "HOME"));
	if (home)
		setenv("HOME", home, 1);
	free(home);
}

/* The inline editor's save: the whole text replaces the copy, no temporary
 * file is left beside it, and a folder that is gone is said. */
static void test_write_atomic(void **st)
{
	(void)st;
	char path[PATH_MAX + 32], err[256], cmd[PATH_MAX + 64];
	size_t n;
	snprintf(path, sizeof path, "%s/w.ptx", dir);
	put(path, "old text that is longer\n");
	assert_int_equal(userptx_write(path, "new\n", 4, err, sizeof err), 0);
	char *t = userptx_read(path, &n, err, sizeof err);
	assert_non_null(t);
	assert_string_equal(t, "new\n");
	assert_int_equal(n, 4);
	free(t);
	snprintf(cmd, sizeof cmd, "test $(ls '%s' | grep -c '^w.ptx') = 1", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof path, "%s/gone/w.ptx", dir);
	assert_int_equal(userptx_write(path, "x", 1, err, sizeof err), -1);
	assert_non_null(strstr(err, "gone/w.ptx"));
	assert_null(userptx_read(path, &n, err, sizeof err));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_rules),
		cmocka_unit_test(test_create_restore),
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_tutor_flow),
		cmocka_unit_test(test_diff_identical),
		cmocka_unit_test(test_diff_change),
		cmocka_unit_test(test_diff_hunks),
		cmocka_unit_test(test_marks_jit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
