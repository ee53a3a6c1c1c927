/* test_cli: the command table in src/cli/main.c is what `ptxtutor --help`, each command's --help
 * and the README's Commands block show — every row, every synopsis form, every summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The table and usage() are static in main.c: take the file whole, its main renamed. */
#define main ptxtutor_main
#include "cli/main.c"
#undef main

/* Runs `ptxtutor WORD --help` in this process: row's handler, or main when
 * row is NULL. Returns what it printed on out (1 or 2); *rc its status. */
static char *capture(const cli_command *row, const char *word, int out, int *rc)
{
	char *argv[] = {"ptxtutor", (char *)word, "--help", NULL};
	char tmpl[] = "/tmp/test_cli_XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	fflush(out == 1 ? stdout : stderr);
	int saved = dup(out);
	dup2(fd, out);
	*rc = row ? row->run(row, 2, argv + 1) : ptxtutor_main(3, argv);
	fflush(out == 1 ? stdout : stderr);
	dup2(saved, out);
	close(saved);
	static char buf[1 << 14];
	ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
	buf[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(tmpl);
	return buf;
}

static void test_help_lists_every_command(void **state)
{
	(void)state;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	usage(f);
	fclose(f);
	assert_non_null(strstr(out, tutor->summary));
	for (size_t i = 0; i < ARRAY_LEN(commands); i++) {
		char line[256];
		snprintf(line, sizeof line, "\n  %-10s %s\n", commands[i]->name, commands[i]->summary);
		if (!strstr(out, line))
			fail_msg("ptxtutor --help lacks%s in:\n%s", line, out);
	}
	free(out);

	/* An unknown command is answered with the same list, on stderr. */
	int rc;
	const char *err = capture(NULL, "bogus", 2, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(err, "ptxtutor: 'bogus' is neither a command nor a lesson\n"));
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		assert_non_null(strstr(err, commands[i]->summary));
	/* A lesson is not an unknown command: the tutor answers (its --help). */
	const char *out3 = capture(NULL, "3", 1, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(strncmp(out3, "usage: ptxtutor [LESSON]", 24), 0);
}

/* Each command's own --help starts with its forms from the table, and says more. */
static void test_own_help_from_the_table(void **state)
{
	(void)state;
	for (size_t i = 0; i <= ARRAY_LEN(commands); i++) {
		const cli_command *row = i < ARRAY_LEN(commands) ? commands[i] : tutor;
		int rc;
		const char *out = capture(row, row->name ? row->name : "ptxtutor", 1, &rc);
		assert_int_equal(rc, 0);
		char want[512] = "";
		for (int k = 0; k < CLI_FORMS && row->synopsis[k]; k++) {
			size_t used = strlen(want);
			snprintf(want + used, sizeof want - used, "%s ptxtutor %s\n", k ? "      " : "usage:", row->synopsis[k]);
		}
		if (strncmp(out, want, strlen(want)))
			fail_msg("%s --help does not start with\n%sbut\n%s", row->name ? row->name : "the tutor", want, out);
		assert_true(strlen(out) > strlen(want) + 40);
	}
}

/* The README's Commands block is the table: each row's forms, one a line, then
 * its summary indented; and nothing else. */
static void test_readme_lists_every_command(void **state)
{
	(void)state;
	char path[1024], err[256];
	util_path(path, sizeof path, "README.md");
	char *readme = util_read_file(path, NULL, err, sizeof err);
	assert_non_null(readme);
	char *block = strstr(readme, "## Commands\n\n```\n");
	assert_non_null(block);
	block = strchr(block, '`');
	block = strchr(block, '\n') + 1;
	char *end = strstr(block, "```\n");
	assert_non_null(end);
	*end = '\0';
	strbuf want = {0};
	for (size_t i = 0; i <= ARRAY_LEN(commands); i++) {
		const cli_command *row = i == 0 ? tutor : commands[i - 1];
		for (int k = 0; k < CLI_FORMS && row->synopsis[k]; k++)
			sb_printf(&want, "ptxtutor %s\n", row->synopsis[k]);
		sb_printf(&want, "    %s\n", row->summary);
	}
	if (strcmp(block, want.data))
		fail_msg("README.md's Commands block is\n%s\nnot the command table's\n%s", block, want.data);
	sb_free(&want);
	free(readme);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_lists_every_command),
		cmocka_unit_test(test_own_help_from_the_table),
		cmocka_unit_test(test_readme_lists_every_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
