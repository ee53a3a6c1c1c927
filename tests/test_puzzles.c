/* test_puzzles: every practice puzzle — its file parses, its reference solution passes every check, its start does not, and each wrong variant kept in tests/puzzles/ID.variants fails the check it names with the message the puzzle promises; a Hopper puzzle's launch keys and the tma check; malformed puzzle files get file:line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "course/puzzle.h"
#include "course/state.h"
#include "exec/puzzle_check.h"

static puzzle_set set;

static int setup(void **st)
{
	(void)st;
	char errs[2048];
	int broken = puzzles_load(&set, errs, sizeof errs);
	if (broken)
		fprintf(stderr, "%s", errs);
	return broken ? -1 : 0;
}

static int teardown(void **st)
{
	(void)st;
	puzzles_free(&set);
	return 0;
}

/* 28 or more puzzles, and every lesson 1..11 has one (8 or more for the Hopper lessons 9..11). */
static void test_ladder(void **st)
{
	(void)st;
	assert_true(set.n >= 28);
	assert_true(puzzles_of_lesson(&set, 9) + puzzles_of_lesson(&set, 10) + puzzles_of_lesson(&set, 11) >= 8);
	for (int l = 1; l <= 11; l++)
		if (puzzles_of_lesson(&set, l) == 0)
			fail_msg("lesson %d has no puzzle", l);
	for (int i = 0; i < set.n; i++) {
		const puzzle *p = &set.p[i];
		assert_true(p->nhints >= 2);
		assert_true(p->goal && strlen(p->goal) > 40);
		assert_ptr_equal(puzzles_find(&set, p->id), p);
	}
}

static void solve(const puzzle *p, const char *rel, puzzle_outcome *o)
{
	char path[512];
	util_path(path, sizeof path, rel);
	puzzle_check_file(p, path, o);
}

static void dump(const puzzle *p, const char *what, const puzzle_outcome *o)
{
	printf("# %s (%s):\n", p->id, what);
	for (int i = 0; i < o->n; i++)
		printf("#   %s %s: %s\n", o->v[i].pass ? "pass" : "FAIL", o->v[i].name, o->v[i].msg);
}

/* The reference solution passes every check; the start fails one. */
static void test_solutions(void **st)
{
	(void)st;
	int bad = 0;
	for (int i = 0; i < set.n; i++) {
		puzzle_outcome o;
		solve(&set.p[i], set.p[i].solution, &o);
		if (!o.solved) {
			dump(&set.p[i], "solution", &o);
			printf("ERROR: the solution of %s fails\n", set.p[i].id);
			bad++;
		}
		assert_int_equal(o.n, set.p[i].nchecks);
		solve(&set.p[i], set.p[i].start, &o);
		if (o.solved) {
			printf("ERROR: the start of %s already solves it\n", set.p[i].id);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Avariant: "- LINE" lines of the solution (matched trimmed, in order) replaced by the "+ LINE" after them. */
typedef struct {
	char name[128];
	char kind[16];
	char expect[256];
	char *text;
} variant;

static char *apply(const char *sol, char **minus, char **plus, int nminus, const int *nplus)
{
	strbuf out = {0};
	const char *s = sol;
	int h = 0, pi = 0;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) + 1 : strlen(s);
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)(len < 511 ? len : 511), s);
		if (h < nminus && !strcmp(util_trim(buf), minus[h])) {
			for (int k = 0; k < nplus[h]; k++)
				sb_printf(&out, "\t%s\n", plus[pi + k]);
			pi += nplus[h++];
		} else {
			sb_printf(&out, "%.*s", (int)len, s);
		}
		s += len;
	}
	if (h < nminus) {
		sb_free(&out);
		return NULL;
	}
	return out.data;
}

/* Reads ID.variants; returns how many variants ran, each checked. */
static int run_variants(const puzzle *p, int *bad)
{
	char rel[300], path[512], solpath[512], err[256];
	snprintf(rel, sizeof rel, "tests/puzzles/%s.variants", p->id);
	util_path(path, sizeof path, rel);
	util_path(solpath, sizeof solpath, p->solution);
	char *text = util_read_file(path, NULL, err, sizeof err);
	char *sol = util_read_file(solpath, NULL, err, sizeof err);
	assert_non_null(text);
	assert_non_null(sol);
	int count = 0;
	char *minus[128], *plus[256], name[128] = "";
	int nminus = 0, nplus[128] = {0}, np = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "variant:", 8)) {
			snprintf(name, sizeof name, "%s", util_trim(line + 8));
			nminus = np = 0;
		} else if (line[0] == '-') {
			if (nminus == 128)
				fail_msg("%s, variant '%s': more than 128 '-' lines", p->id, name);
			minus[nminus] = util_trim(line + 1);
			nplus[nminus++] = 0;
		} else if (line[0] == '+' && nminus > 0) {
			if (np == 256)
				fail_msg("%s, variant '%s': more than 256 '+' lines", p->id, name);
			plus[np++] = util_trim(line + 1);
			nplus[nminus - 1]++;
		} else if (!strncmp(line, "expect:", 7)) {
			char *kind = util_trim(line + 7), *colon = strchr(kind, ':');
			assert_non_null(colon);
			*colon = 0;
			char *want = util_trim(colon + 1);
			char *v = apply(sol, minus, plus, nminus, nplus);
			if (!v)
				fail_msg("%s, variant '%s': a '-' line is not in the solution", p->id, name);
			char tmp[] = "/tmp/ptxtutor-variant-XXXXXX";
			int fd = mkstemp(tmp);
			assert_true(fd >= 0);
			assert_int_equal(write(fd, v, strlen(v)), (long)strlen(v));
			close(fd);
			puzzle_outcome o;
			puzzle_check_file(p, tmp, &o);
			unlink(tmp);
			free(v);
			int hit = 0;
			for (int i = 0; i < o.n; i++)
				hit |= !o.v[i].pass && !strcmp(puzzle_kind_name(p->checks[i].kind), kind) &&
				       strstr(o.v[i].msg, want);
			printf("# %s / %s:\n", p->id, name);
			dump(p, name, &o);
			if (!hit || o.solved) {
				printf("ERROR: %s, variant '%s': no failing '%s' check says '%s'\n", p->id, name, kind, want);
				*bad += 1;
			}
			count++;
		}
	}
	free(text);
	free(sol);
	return count;
}

static void test_variants(void **st)
{
	(void)st;
	int bad = 0;
	for (int i = 0; i < set.n; i++)
		if (run_variants(&set.p[i], &bad) < 3)
			fail_msg("%s keeps fewer than 3 wrong variants", set.p[i].id);
	assert_int_equal(bad, 0);
}

/* A malformed file is refused with its file and line. */
static void test_malformed(void **st)
{
	(void)st;
	static const struct {
		const char *text, *want;
	} bad[] = {
		{"lesson: 1\n", "x.md:1: a puzzle starts with"},
		{"---\nlesson: 1\ntitle t\n---\n", "x.md:3: want 'key: value'"},
		{"---\nlesson: 1\ncheck: sectors aload 4\n---\n", "x.md:3: check: 'sectors' takes REGION <= N"},
		{"---\nlesson: 1\ncheck: speed\n---\n", "x.md:3: check: want verified"},
		{"---\nlesson: 1\nsizes: 0\n---\n", "x.md:3: sizes:"},
		{"---\nlesson: 1\ncolour: red\n---\n", "x.md:3: unknown key 'colour'"},
		{"---\nlesson: 1\n", "x.md:3: the front matter has no closing"},
		{"---\nlesson: 1\n---\n", "x.md:3: no 'title:' line"},
		{"---\nlesson: 9\ncheck: tma producer 0.5\n---\n", "x.md:3: check: 'tma' takes REGION <= N"},
		{"---\nlesson: 9\nbmajor: kmajor\n---\n", "x.md:3: bmajor: longer than 3 characters"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		puzzle p;
		char err[512];
		assert_int_equal(puzzle_parse("x.md", bad[i].text, &p, err, sizeof err), -1);
		if (strncmp(err, bad[i].want, strlen(bad[i].want)))
			fail_msg("'%s' gave '%s', want '%s'", bad[i].text, err, bad[i].want);
	}
}

/* A Hopper puzzle's launch (tensor maps, a cluster, the output type) reaches the
 * emulator, and the tma check measures L2 bytes per landed byte: a kernel
 * without TMA fails it ("lands no TMA copy"), lesson 10's multicast passes. */
static void test_hopper_launch(void **st)
{
	(void)st;
	const puzzle *mc = puzzles_find(&set, "10-multicast");
	assert_non_null(mc);
	assert_string_equal(mc->cluster, "2");
	assert_string_equal(mc->out, "bf16");
	assert_non_null(strstr(mc->args, "tmap:B:64:64:128B"));
	int k = 0;
	while (k < mc->nchecks && mc->checks[k].kind != PUZZLE_TMA)
		k++;
	assert_true(k < mc->nchecks);
	puzzle_outcome o;
	solve(mc, mc->solution, &o);
	assert_true(o.v[k].pass);
	assert_non_null(strstr(o.v[k].msg, "reads 0.67 bytes from L2 per byte"));
	const puzzle *co = puzzles_find(&set, "02-coalesce");
	assert_non_null(co);
	puzzle p = *co;
	p.goal = NULL;
	p.nchecks = 1;
	p.checks[0] = mc->checks[k];
	util_strlcpy(p.checks[0].region, "aload", sizeof p.checks[0].region);
	solve(&p, p.solution, &o);
	assert_false(o.solved);
	assert_non_null(strstr(o.v[0].msg, "lands no TMA copy in shared memory at all"));
}

/* Progress lives in the state file, per lesson, and survives a save. */
static void test_progress(void **st)
{
	(void)st;
	state_data s, back;
	memset(&s, 0, sizeof s);
	util_strlcpy(s.lesson, "naive", sizeof s.lesson);
	const puzzle *p = &set.p[set.n - 1];
	assert_false(puzzle_solved(&s, &set, p, "x"));
	puzzle_mark(&s, &set, p, "x", 1);
	assert_true(puzzle_asked(&s, &set, p, "x"));
	assert_false(puzzle_solved(&s, &set, p, "x"));
	puzzle_mark(&s, &set, p, "x", 0);
	char dir[] = "/tmp/ptxtutor-puzzle-state-XXXXXX", err[256];
	assert_non_null(mkdtemp(dir));
	setenv("XDG_STATE_HOME", dir, 1);
	assert_int_equal(state_save(&s, err, sizeof err), 0);
	assert_int_equal(state_load(&back), 0);
	assert_true(puzzle_solved(&back, &set, p, "x"));
	assert_true(puzzle_asked(&back, &set, p, "x"));
	assert_false(puzzle_solved(&back, &set, &set.p[0], "x") && set.p[0].lesson == p->lesson && &set.p[0] != p);
	state_free(&s), state_free(&back);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_ladder),
		cmocka_unit_test(test_hopper_launch),
		cmocka_unit_test(test_solutions),
		cmocka_unit_test(test_variants),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
