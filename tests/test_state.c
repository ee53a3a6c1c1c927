/* test_state: the state file in an isolated XDG_STATE_HOME — the last lesson and page survive a save and a load; progress only grows (every save merges under a lock, many writers at once lose nothing); a file that cannot be read (too big, a FIFO, a folder) is refused at once and kept; a symbolic link stays a link; no cap on lessons. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "course/state.h"

static char dir[256], path[512];

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/ptxtutor-state-test-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	setenv("XDG_STATE_HOME", dir, 1);
	snprintf(path, sizeof path, "%s/ptxtutor/state", dir);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Each test starts with no state folder at all. */
static void fresh(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/ptxtutor' && mkdir '%s/ptxtutor'", dir, dir);
	assert_int_equal(system(cmd), 0);
}

static void put(const char *file, const char *text)
{
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *file)
{
	FILE *f = fopen(file, "rb");
	assert_non_null(f);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void test_path(void **st)
{
	(void)st;
	char p[512];
	assert_int_equal(state_path(p, sizeof p), 0);
	assert_string_equal(p, path);
	/* A relative XDG path is ignored, as the spec says; HOME takes over. */
	setenv("XDG_STATE_HOME", "relative", 1);
	setenv("HOME", "/home/someone", 1);
	assert_int_equal(state_path(p, sizeof p), 0);
	assert_string_equal(p, "/home/someone/.local/state/ptxtutor/state");
	setenv("XDG_STATE_HOME", dir, 1);
}

static void test_round_trip(void **st)
{
	(void)st;
	fresh();
	state_data s;
	assert_int_equal(state_load(&s), -1); /* nothing saved yet */
	assert_string_equal(s.lesson, "");
	assert_string_equal(s.kept, ""); /* no file is no trouble */
	char err[256] = "";
	state_data w = {.lesson = "smem", .page = 3};
	assert_int_equal(state_save(&w, err, sizeof err), 0);
	assert_int_equal(state_load(&s), 0);
	assert_string_equal(s.lesson, "smem");
	assert_int_equal(s.page, 3);
	state_data w2 = {.lesson = "naive", .page = 0};
	assert_int_equal(state_save(&w2, err, sizeof err), 0);
	assert_int_equal(state_load(&s), 0);
	assert_string_equal(s.lesson, "naive");
	assert_int_equal(s.page, 0);
	/* No temporary file is left behind, only the lock beside the state. */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "test \"$(ls '%s/ptxtutor')\" = \"$(printf 'state\\nstate.lock')\"", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_damaged_file(void **st)
{
	(void)st;
	fresh();
	state_data s;
	put(path, "garbage\npage -7\nlesson\n");
	assert_int_equal(state_load(&s), -1);
	assert_int_equal(s.page, 0);
	assert_string_equal(s.kept, ""); /* damaged lines are skipped, the file is ours to rewrite */
	state_free(&s);
}

/* Pages read and exercises solved, per lesson, survive a save and a load. */
static void test_progress(void **st)
{
	(void)st;
	fresh();
	char err[256] = "";
	state_data w = {.lesson = "smem", .page = 2};
	state_progress *p = state_progress_get(&w, "smem");
	state_mark(&p->read, 0);
	state_mark(&p->read, 3);
	state_mark(&p->solved, 1);
	state_mark(&p->read, STATE_MAX_BITS); /* past the set: not kept */
	p = state_progress_get(&w, "mma");
	state_mark(&p->read, 63);
	assert_ptr_equal(state_progress_get(&w, "smem"), state_progress_find(&w, "smem"));
	assert_int_equal(w.nprog, 2);
	assert_int_equal(state_save(&w, err, sizeof err), 0);
	state_free(&w);

	state_data s;
	assert_int_equal(state_load(&s), 0);
	assert_int_equal(s.nprog, 2);
	const state_progress *q = state_progress_find(&s, "smem");
	assert_non_null(q);
	assert_int_equal(state_count(q->read, 8), 2);
	assert_true(state_marked(q->read, 3) && !state_marked(q->read, 2));
	assert_int_equal(state_count(q->solved, 4), 1);
	assert_true(state_marked(q->solved, 1));
	q = state_progress_find(&s, "mma");
	assert_non_null(q);
	assert_true(state_marked(q->read, 63));
	assert_int_equal(state_count(q->read, 8), 0); /* only the first n count */
	assert_null(state_progress_find(&s, "naive"));
	state_free(&s);

	/* A damaged progress line is skipped, the rest kept; two lines of one lesson join. */
	put(path, "lesson smem\nread smem zz\nread\nsolved naive 5\nsolved naive 8\n");
	assert_int_equal(state_load(&s), 0);
	assert_null(state_progress_find(&s, "smem"));
	assert_non_null(state_progress_find(&s, "naive"));
	assert_int_equal(state_progress_find(&s, "naive")->solved, 0xd);
	state_free(&s);
}

/* Sets only grow: a merge is a union; the lesson and page are the last writer's. */
static void test_merge(void **st)
{
	(void)st;
	fresh();
	state_data a = {.lesson = "smem", .page = 2}, b = {.lesson = "mma", .page = 5}, none = {.page = 7};
	state_progress_get(&a, "smem")->read = 0x3;
	state_progress_get(&a, "naive")->puzzles = 0x1;
	state_progress_get(&b, "smem")->read = 0x4;
	state_progress_get(&b, "mma")->solved = 0x2;
	state_merge(&a, &b);
	assert_string_equal(a.lesson, "mma");
	assert_int_equal(a.page, 5);
	assert_int_equal(state_progress_find(&a, "smem")->read, 0x7);
	assert_int_equal(state_progress_find(&a, "naive")->puzzles, 0x1);
	assert_int_equal(state_progress_find(&a, "mma")->solved, 0x2);
	state_merge(&a, &none); /* names no lesson: where the student is stays */
	assert_string_equal(a.lesson, "mma");
	assert_int_equal(a.page, 5);

	/* diff: only what was gained since a snapshot. */
	state_data snap, gained;
	state_copy(&snap, &a);
	state_progress_get(&a, "smem")->read |= 0x10;
	state_progress_get(&a, "cluster")->asked = 0x1;
	state_diff(&gained, &a, &snap);
	assert_int_equal(gained.nprog, 2);
	assert_int_equal(state_progress_find(&gained, "smem")->read, 0x10);
	assert_int_equal(state_progress_find(&gained, "cluster")->asked, 0x1);
	assert_null(state_progress_find(&gained, "naive"));
	assert_string_equal(gained.lesson, "mma");

	/* A save merges into the file as it is then, not over it. */
	char err[256];
	put(path, "lesson naive\npage 1\npuzzles coalesced 1\nread naive ff\n");
	assert_int_equal(state_save(&gained, err, sizeof err), 0);
	state_data s;
	assert_int_equal(state_load(&s), 0);
	assert_string_equal(s.lesson, "mma"); /* the last writer's */
	assert_int_equal(state_progress_find(&s, "coalesced")->puzzles, 1);
	assert_int_equal(state_progress_find(&s, "naive")->read, 0xff);
	assert_int_equal(state_progress_find(&s, "smem")->read, 0x10);
	assert_int_equal(state_progress_find(&s, "cluster")->asked, 1);
	state_free(&s);
	/* A writer that names no lesson (`puzzle --check`) keeps the file's. */
	state_data solve = {0};
	state_progress_get(&solve, "smem")->puzzles = 0x2;
	assert_int_equal(state_save(&solve, err, sizeof err), 0);
	assert_int_equal(state_load(&s), 0);
	assert_string_equal(s.lesson, "mma");
	assert_int_equal(s.page, 5);
	assert_int_equal(state_progress_find(&s, "smem")->puzzles, 0x2);
	assert_int_equal(state_progress_find(&s, "smem")->read, 0x10);
	state_free(&s);
	state_free(&solve);
	state_free(&a), state_free(&b), state_free(&snap), state_free(&gained);
}

/* Writers at once (tutors, the CLI): the lock makes every read-merge-write
 * whole, so no one's progress is lost. */
static void test_writers_at_once(void **st)
{
	(void)st;
	fresh();
	enum { WRITERS = 6, SAVES = 16 };
	pid_t kids[WRITERS];
	for (int k = 0; k < WRITERS; k++) {
		kids[k] = fork();
		assert_true(kids[k] >= 0);
		if (kids[k] == 0) {
			for (int i = 0; i < SAVES; i++) {
				state_data d = {.lesson = "smem", .page = k};
				char id[16], err[256];
				snprintf(id, sizeof id, "w%d", k);
				state_progress_get(&d, id)->read = 1ULL << i;
				state_progress_get(&d, "shared")->solved = 1ULL << (k * SAVES + i) % 64;
				if (state_save(&d, err, sizeof err) < 0)
					_exit(1);
				state_free(&d);
			}
			_exit(0);
		}
	}
	for (int k = 0; k < WRITERS; k++) {
		int status;
		assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	state_data s;
	assert_int_equal(state_load(&s), 0);
	assert_int_equal(s.nprog, WRITERS + 1);
	for (int k = 0; k < WRITERS; k++) {
		char id[16];
		snprintf(id, sizeof id, "w%d", k);
		assert_int_equal(state_progress_find(&s, id)->read, (1ULL << SAVES) - 1);
	}
	assert_int_equal(state_progress_find(&s, "shared")->solved, ~0ULL);
	state_free(&s);
}

/* A file too big for a state file is refused loudly and kept, byte for byte. */
static void test_too_big_kept(void **st)
{
	(void)st;
	fresh();
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("lesson smem\npage 4\nread smem ff\npuzzles naive 7\n", f);
	for (int i = 0; i < STATE_MAX_BYTES / 32; i++) /* about 2 MiB */
		fputs("junk junk junk junk junk junk junk junk junk junk junk junk ju\n", f);
	assert_int_equal(fclose(f), 0);
	struct stat before, after;
	assert_int_equal(stat(path, &before), 0);

	state_data s;
	assert_int_equal(state_load(&s), -1);
	assert_non_null(strstr(s.kept, "larger than 1 MiB"));
	assert_non_null(strstr(s.kept, "kept as it is"));
	assert_int_equal(s.nprog, 0);
	char err[600];
	state_data w = {.lesson = "mma", .page = 1};
	state_progress_get(&w, "mma")->read = 1;
	assert_int_equal(state_save(&w, err, sizeof err), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "not written over"));
	assert_int_equal(stat(path, &after), 0);
	assert_true(after.st_size == before.st_size && after.st_ino == before.st_ino);
	assert_int_equal(strncmp(slurp(path), "lesson smem\npage 4\n", 19), 0);
	/* A NUL byte says it is no text file of ours: kept too. */
	static const char nul[] = "lesson smem\n\0\x01\x02";
	f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(nul, 1, sizeof nul, f);
	fclose(f);
	assert_int_equal(state_load(&s), -1);
	assert_non_null(strstr(s.kept, "NUL"));
	assert_int_equal(state_save(&w, err, sizeof err), -1);
	assert_int_equal(stat(path, &after), 0);
	assert_int_equal(after.st_size, (off_t)sizeof nul);
	state_free(&w);
}

/* A FIFO as the state file: refused at once (no open that waits for a
 * writer), by a load and by a save, and left a FIFO. */
static void test_fifo_refused(void **st)
{
	(void)st;
	fresh();
	assert_int_equal(mkfifo(path, 0600), 0);
	double t0 = now();
	state_data s;
	assert_int_equal(state_load(&s), -1);
	assert_non_null(strstr(s.kept, "not a regular file"));
	char err[600];
	state_data w = {.lesson = "mma"};
	assert_int_equal(state_save(&w, err, sizeof err), -1);
	assert_non_null(strstr(err, "not a regular file"));
	assert_true(now() - t0 < 1.0);
	struct stat sb;
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISFIFO(sb.st_mode));
}

/* The state path a folder: the save fails with why, and the folder stays. */
static void test_folder_fails(void **st)
{
	(void)st;
	fresh();
	assert_int_equal(mkdir(path, 0700), 0);
	state_data s;
	assert_int_equal(state_load(&s), -1);
	assert_non_null(strstr(s.kept, "not a regular file"));
	char err[600] = "";
	state_data w = {.lesson = "mma"};
	state_progress_get(&w, "mma")->puzzles = 1;
	assert_int_equal(state_save(&w, err, sizeof err), -1);
	assert_non_null(strstr(err, path));
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	/* A folder that cannot be made: the save says so too. */
	fresh();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/ptxtutor' && touch '%s/ptxtutor'", dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(state_save(&w, err, sizeof err), -1);
	assert_true(err[0] != '\0');
	snprintf(cmd, sizeof cmd, "rm -f '%s/ptxtutor'", dir);
	assert_int_equal(system(cmd), 0);
	state_free(&w);
}

/* A symbolic link (into a dotfiles folder, say) is written through, relative or absolute, and stays a link. */
static void test_symlink_kept(void **st)
{
	(void)st;
	fresh();
	char real[600], cmd[2000];
	snprintf(real, sizeof real, "%s/dotfiles/ptxtutor-state", dir);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/dotfiles' && printf 'lesson naive\\nread naive 1\\n' >'%s' && ln -s ../dotfiles/ptxtutor-state '%s'",
		 dir, real, path);
	assert_int_equal(system(cmd), 0);
	state_data s;
	assert_int_equal(state_load(&s), 0);
	assert_string_equal(s.lesson, "naive");
	state_free(&s);
	char err[600];
	state_data w = {.lesson = "smem", .page = 2};
	state_progress_get(&w, "smem")->read = 4;
	assert_int_equal(state_save(&w, err, sizeof err), 0);
	struct stat sb;
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	const char *text = slurp(real);
	assert_non_null(strstr(text, "lesson smem\n"));
	assert_non_null(strstr(text, "read naive 1\n"));
	assert_non_null(strstr(text, "read smem 4\n"));
	/* A dangling link: the save makes its target, and the link stays. */
	unlink(real);
	assert_int_equal(state_save(&w, err, sizeof err), 0);
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_non_null(strstr(slurp(real), "read smem 4\n"));
	state_free(&w);
}

/* No cap: 100 lessons (other courses, renamed lessons) are all remembered, and one more. */
static void test_no_cap(void **st)
{
	(void)st;
	fresh();
	state_data w = {.lesson = "l0"};
	for (int i = 0; i < 100; i++) {
		char id[16];
		snprintf(id, sizeof id, "l%d", 99 - i);
		state_progress_get(&w, id)->read = (unsigned long long)i + 1;
	}
	assert_int_equal(w.nprog, 100);
	char err[256];
	assert_int_equal(state_save(&w, err, sizeof err), 0);
	state_free(&w);
	state_data more = {0};
	state_progress_get(&more, "one-more")->puzzles = 1;
	assert_int_equal(state_save(&more, err, sizeof err), 0);
	state_free(&more);
	state_data s;
	assert_int_equal(state_load(&s), 0);
	assert_int_equal(s.nprog, 101);
	for (int i = 0; i < 100; i++) {
		char id[16];
		snprintf(id, sizeof id, "l%d", 99 - i);
		assert_non_null(state_progress_find(&s, id));
		assert_int_equal(state_progress_find(&s, id)->read, (unsigned long long)i + 1);
	}
	assert_int_equal(state_progress_find(&s, "one-more")->puzzles, 1);
	state_free(&s);
}

/* A state file edited on Windows (CRLF) with blank lines reads as the plain one. */
static void test_crlf_and_blank_lines(void **st)
{
	(void)st;
	state_data s;
	assert_int_equal(state_parse("\r\nlesson smem\r\n\r\npage 4\r\nread smem 9\r\n\r\nsolved smem 2\r\n", &s), 0);
	assert_string_equal(s.lesson, "smem");
	assert_int_equal(s.page, 4);
	const state_progress *q = state_progress_find(&s, "smem");
	assert_non_null(q);
	assert_true(q->read == 9 && q->solved == 2);
	state_free(&s);
	/* The last line needs no end, and a line of spaces is no lesson. */
	assert_int_equal(state_parse("page 1\nlesson mma", &s), 0);
	assert_string_equal(s.lesson, "mma");
	state_free(&s);
	assert_int_equal(state_parse("page 1\r\nlesson   \r\n", &s), -1);
	state_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged_file),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_writers_at_once),
		cmocka_unit_test(test_too_big_kept),
		cmocka_unit_test(test_fifo_refused),
		cmocka_unit_test(test_folder_fails),
		cmocka_unit_test(test_symlink_kept),
		cmocka_unit_test(test_no_cap),
		cmocka_unit_test(test_crlf_and_blank_lines),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
