/* test_cli: the command table in src/cli/main.c is what `ptxtutor --help`, each command's --help
 * and the README's Commands block show — every row, every synopsis form, every summary; each
 * row's option table is its --help and all it accepts; cli_parse's one wording per error; the
 * one --gpu policy. */
#include <setjmp.h>
#include <stddef.h>
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

	/* An unknown command (or lesson: `ptxtutor 12`) is one line on stderr that says where the lists are. */
	int rc;
	const char *err = capture(NULL, "bogus", 2, &rc);
	assert_int_equal(rc, 2);
	assert_string_equal(err, "ptxtutor: 'bogus' is neither a command nor a lesson "
				 "(ptxtutor --help: the commands; ptxtutor list: the lessons)\n");
	err = capture(NULL, "12", 2, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(err, "ptxtutor: '12' is neither"));
	assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1); /* one line */
	/* A lesson is not an unknown command: the tutor answers (its --help). */
	const char *out3 = capture(NULL, "3", 1, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(strncmp(out3, "usage: ptxtutor [LESSON]", 24), 0);
}

/* s with each run of spaces and newlines made one space, into a static buffer. */
static const char *squeezed(const char *s)
{
	static char buf[1 << 14];
	size_t n = 0;
	for (; *s && n + 1 < sizeof buf; s++)
		if (!(*s == ' ' || *s == '\n') || (n && buf[n - 1] != ' '))
			buf[n++] = *s == '\n' ? ' ' : *s;
	buf[n] = '\0';
	return buf;
}

/* Each command's own --help starts with its forms from the table (wrapped to
 * 80 columns: compared with the runs of blanks squeezed), and says more. */
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
			snprintf(want + used, sizeof want - used, "%sptxtutor %s ", k ? "" : "usage: ", row->synopsis[k]);
		}
		if (strncmp(squeezed(out), want, strlen(want)))
			fail_msg("%s --help does not start with\n%sbut\n%s", row->name ? row->name : "the tutor", want, out);
		assert_true(strlen(out) > strlen(want) + 40);
	}
}

/* Every line of every --help fits an 80-column terminal (a character of
 * UTF-8 is one column). */
static void test_help_fits_80_columns(void **state)
{
	(void)state;
	int rc;
	for (size_t i = 0; i <= ARRAY_LEN(commands) + 1; i++) {
		const cli_command *row = i < ARRAY_LEN(commands) ? commands[i] : tutor;
		const char *who = i > ARRAY_LEN(commands) ? "ptxtutor --help" : row->name ? row->name : "the tutor";
		const char *out = i > ARRAY_LEN(commands) ? capture(NULL, "--help", 1, &rc)
							  : capture(row, row->name ? row->name : "ptxtutor", 1, &rc);
		assert_int_equal(rc, 0);
		int line = 1, cols = 0;
		for (const char *p = out; *p; p++) {
			if (*p == '\n') {
				line++, cols = 0;
				continue;
			}
			cols += ((unsigned char)*p & 0xc0) != 0x80;
			if (cols == 81) {
				const char *start = p;
				while (start > out && start[-1] != '\n')
					start--;
				fail_msg("%s --help, line %d is wider than 80 columns:\n%.*s", who, line,
					 (int)strcspn(start, "\n"), start);
			}
		}
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

/* Runs row's handler on argv (NULL-terminated, argv[0] the command) with stdout
 * and stderr captured together. Returns them; *rc the status. */
static char *run_argv(const cli_command *row, char **argv, int *rc)
{
	char tmpl[] = "/tmp/test_cli_XXXXXX";
	int fd = mkstemp(tmpl), argc = 0;
	assert_true(fd >= 0);
	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	int out = dup(1), err = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	*rc = row->run(row, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	static char buf[1 << 15];
	ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
	buf[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(tmpl);
	return buf;
}

/* Each row's --help lists every option of its table, one line each starting
 * "  --NAME" (or "  -x, --NAME"), and names no option the table lacks. */
static void test_help_lists_every_option(void **state)
{
	(void)state;
	for (size_t i = 0; i <= ARRAY_LEN(commands); i++) {
		const cli_command *row = i < ARRAY_LEN(commands) ? commands[i] : tutor;
		const char *who = row->name ? row->name : "the tutor";
		int rc;
		const char *help = capture(row, row->name ? row->name : "ptxtutor", 1, &rc);
		assert_int_equal(rc, 0);
		const char *block = strstr(help, "\nOptions:\n");
		if (!block)
			fail_msg("%s --help has no Options block:\n%s", who, help);
		int listed = 0;
		for (const cli_opt *o = row->opts; o->name; o++, listed++) {
			char want[64], with_letter[64];
			snprintf(want, sizeof want, "\n  --%s", o->name);
			snprintf(with_letter, sizeof with_letter, "\n  -%c, --%s", o->letter, o->name);
			if (!strstr(block, o->letter ? with_letter : want))
				fail_msg("%s --help lacks --%s:\n%s", who, o->name, block);
		}
		/* and nothing else: each option line of the block is a row (or --help) */
		int lines = 0;
		for (const char *p = strstr(block, "\n  -"); p; p = strstr(p + 1, "\n  -"))
			lines++;
		if (lines != listed + 1)
			fail_msg("%s --help has %d option lines for %d options and --help:\n%s", who, lines, listed, block);
	}
	/* emulate documents all it takes: run's --emulate is not among them */
	int rc;
	char *argv[] = {"emulate", "3", "--emulate", NULL};
	const char *out = run_argv(&cli_cmd_emulate, argv, &rc);
	assert_int_equal(rc, 2);
	assert_string_equal(out, "ptxtutor emulate: unknown option '--emulate' (ptxtutor emulate --help lists them)\n");
}

/* A table with every kind of value, for cli_parse on its own. */
typedef struct {
	int flag, count, mode;
	double seconds;
	long long size[3];
	const char *grid, *name, *text;
	expr_env set;
} test_opts;

static int name_ok(const char *s, char *why, size_t len)
{
	if (!strcmp(s, "good"))
		return 0;
	snprintf(why, len, "good");
	return -1;
}

static const cli_command parse_row = {
	.name = "t",
	.opts = (const cli_opt[]){
		{.name = "json", .letter = 'j', .kind = CLI_FLAG, .off = offsetof(test_opts, flag), .help = "a flag"},
		{.name = "csv", .kind = CLI_FLAG, .off = offsetof(test_opts, mode), .value = 2, .help = "mode 2"},
		{.name = "count", .letter = 'c', .kind = CLI_INT, .off = offsetof(test_opts, count), .arg = "N",
		 .lo = 1, .hi = 100, .help = "an integer"},
		{.name = "timeout", .kind = CLI_DOUBLE, .off = offsetof(test_opts, seconds), .arg = "S", .lo = 0,
		 .hi = 60, .help = "a number"},
		{.name = "size", .kind = CLI_SIZE, .off = offsetof(test_opts, size), .arg = "N|M,N,K", .help = "a size"},
		{.name = "set", .kind = CLI_SET, .off = offsetof(test_opts, set), .arg = "K=V", .help = "what-ifs"},
		{.name = "grid", .kind = CLI_DIMS, .off = offsetof(test_opts, grid), .arg = "X[,Y[,Z]]", .help = "dims"},
		{.name = "name", .kind = CLI_NAME, .off = offsetof(test_opts, name), .arg = "NAME", .check = name_ok,
		 .help = "a name"},
		{.name = "text", .kind = CLI_STR, .off = offsetof(test_opts, text), .arg = "TEXT", .help = "any text"},
		{0},
	},
	.max_args = 2,
};

/* cli_parse on a line split at spaces, stderr captured into err. */
static int parse_line(const char *line, test_opts *o, int *nargs, char **args, char *err, size_t errlen)
{
	static char buf[512];
	char *argv[32];
	int argc = 0;
	util_strlcpy(buf, line, sizeof buf);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	memset(o, 0, sizeof *o);
	char tmpl[] = "/tmp/test_cli_XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	dup2(fd, 2);
	int rc = cli_parse(&parse_row, argc, argv, o, nargs);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t got = pread(fd, err, errlen - 1, 0);
	err[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(tmpl);
	for (int i = 0; rc < 0 && i < argc; i++)
		args[i] = argv[i];
	return rc;
}

static void test_parse_values(void **state)
{
	(void)state;
	test_opts o;
	char err[512], *args[32];
	int n;
	assert_int_equal(parse_line("t A --count=7 --timeout 2.5 --size 4,5,6 B --grid ceil(M/32),2 --name good "
				    "--set TILE=16 --set BK=-8 --text -x --csv",
				    &o, &n, args, err, sizeof err), -1);
	assert_string_equal(err, "");
	assert_int_equal(o.count, 7);
	assert_true(o.seconds == 2.5);
	assert_true(o.size[0] == 4 && o.size[1] == 5 && o.size[2] == 6);
	assert_string_equal(o.grid, "ceil(M/32),2");
	assert_string_equal(o.name, "good");
	assert_string_equal(o.text, "-x"); /* a value may start with '-' */
	assert_int_equal(o.mode, 2);
	long long v;
	assert_true(expr_get(&o.set, "TILE", &v));
	assert_int_equal(v, 16);
	assert_true(expr_get(&o.set, "BK", &v));
	assert_int_equal(v, -8);
	/* the positionals first, in order, then every option word (run --emulate reads them again) */
	assert_int_equal(n, 2);
	assert_string_equal(args[1], "A");
	assert_string_equal(args[2], "B");
	assert_string_equal(args[3], "--count=7");
	assert_string_equal(args[18], "--csv");
	/* short forms, bundles, a unique prefix, "--" */
	assert_int_equal(parse_line("t -jc5 --tim 1 --size 9", &o, &n, args, err, sizeof err), -1);
	assert_true(o.flag == 1 && o.count == 5 && o.seconds == 1 && o.size[1] == 9 && n == 0);
	assert_int_equal(parse_line("t -c 6 -- -j", &o, &n, args, err, sizeof err), -1);
	assert_true(o.count == 6 && o.flag == 0 && n == 1);
	assert_string_equal(args[1], "-j");
}

/* One wording per error, one line on stderr, exit status 2. */
static void test_parse_errors(void **state)
{
	(void)state;
	static const struct {
		const char *line, *said;
	} cases[] = {
		{"t --bogus", "unknown option '--bogus' (ptxtutor t --help lists them)"},
		{"t -x", "unknown option '-x' (ptxtutor t --help lists them)"},
		{"t --s 4", "ambiguous option '--s' (ptxtutor t --help lists them)"},
		{"t --count", "--count needs a value (N)"},
		{"t -c", "-c needs a value (N)"},
		{"t --json=1", "--json takes no value"},
		{"t A B C", "unexpected argument 'C'"},
		{"t --count abc", "--count wants an integer 1..100, not 'abc'"},
		{"t --count 7x", "--count wants an integer 1..100, not '7x'"},
		{"t --count 1e2", "--count wants an integer 1..100, not '1e2'"},
		{"t --count 0", "--count wants an integer 1..100, not '0'"},
		{"t --count 101", "--count wants an integer 1..100, not '101'"},
		{"t --count 99999999999999999999", "--count wants an integer 1..100, not '99999999999999999999'"},
		{"t --timeout abc", "--timeout wants a number 0..60, not 'abc'"},
		{"t --timeout -5", "--timeout wants a number 0..60, not '-5'"},
		{"t --timeout nan", "--timeout wants a number 0..60, not 'nan'"},
		{"t --timeout 61", "--timeout wants a number 0..60, not '61'"},
		{"t --timeout=", "--timeout wants a number 0..60, not ''"},
		{"t --size 0", "--size wants N or M,N,K (integers 1..1048576), not '0'"},
		{"t --size -4", "--size wants N or M,N,K (integers 1..1048576), not '-4'"},
		{"t --size 4,5", "--size wants N or M,N,K (integers 1..1048576), not '4,5'"},
		{"t --size 4x", "--size wants N or M,N,K (integers 1..1048576), not '4x'"},
		{"t --size 2097152", "--size wants N or M,N,K (integers 1..1048576), not '2097152'"},
		{"t --grid 1,2,3,4", "--grid wants X[,Y[,Z]], expressions over M, N and K, not '1,2,3,4'"},
		{"t --grid (1", "--grid wants X[,Y[,Z]], expressions over M, N and K, not '(1'"},
		{"t --grid 1,,2", "--grid wants X[,Y[,Z]], expressions over M, N and K, not '1,,2'"},
		{"t --name bad", "--name wants good, not 'bad'"},
		{"t --set TILE", "--set wants KEY=VALUE, not 'TILE'"},
		{"t --set TILE=x", "--set 'TILE=x': the value is not an integer"},
		{"t --set TILE=99999999999999999999", "--set 'TILE=99999999999999999999': the value does not fit in 64 bits"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		test_opts o;
		char err[512], want[512], *args[32];
		int n;
		int rc = parse_line(cases[i].line, &o, &n, args, err, sizeof err);
		snprintf(want, sizeof want, "ptxtutor t: %s\n", cases[i].said);
		if (rc != 2 || strcmp(err, want))
			fail_msg("'%s': rc %d, said\n%swant\n%s", cases[i].line, rc, err, want);
	}
}

/* The real commands refuse junk and negative numbers before doing anything. */
static void test_commands_refuse_bad_numbers(void **state)
{
	(void)state;
	static const struct {
		const cli_command *row;
		const char *line, *said;
	} cases[] = {
		{&cli_cmd_run, "run --ptx k.ptx --timeout abc", "ptxtutor run: --timeout wants a number 0..86400, not 'abc'"},
		{&cli_cmd_run, "run 3 --timeout -5", "ptxtutor run: --timeout wants a number 0..86400, not '-5'"},
		{&cli_cmd_emulate, "emulate 3 --timeout -5", "ptxtutor emulate: --timeout wants a number 0..86400, not '-5'"},
		{&cli_cmd_occupancy, "occupancy --threads -1 --regs 32", "ptxtutor occupancy: --threads wants an integer 1..1073741824, not '-1'"},
		{&cli_cmd_occupancy, "occupancy --threads 0 --regs 32", "ptxtutor occupancy: --threads wants an integer 1..1073741824, not '0'"},
		{&cli_cmd_sass, "sass 5 --arch sm_1", "ptxtutor sass: --arch wants a target as ptxas names it: sm_ and two or three digits (sm_80, sm_90a), not 'sm_1'"},
		{&cli_cmd_occupancy, "occupancy --threads 256 --regs 3x", "ptxtutor occupancy: --regs wants an integer 0..1073741824, not '3x'"},
		{&cli_cmd_bench, "bench --size 0", "ptxtutor bench: --size wants N or M,N,K (integers 1..1048576), not '0'"},
		{&cli_cmd_bench, "bench --reference fast", "ptxtutor bench: --reference wants default (the library's call), best (the fastest of cuBLASLt's list) or best-promoting, not 'fast'"},
		{&cli_cmd_run, "run 11 --reference worst", "ptxtutor run: --reference wants default (the library's call), best (the fastest of cuBLASLt's list) or best-promoting, not 'worst'"},
		{&cli_cmd_check, "check --sizes 128;-5", "ptxtutor check: --sizes wants N or M,N,K (integers 1..1048576), not '-5'"},
		{&cli_cmd_show, "show 3 --size 1,2", "ptxtutor show: --size wants N or M,N,K (integers 1..1048576), not '1,2'"},
		{&cli_cmd_show, "show 3 4", "ptxtutor show: unexpected argument '4'"},
		{&cli_cmd_run, "run 3 4", "ptxtutor run: unexpected argument '4'"},
		{&cli_cmd_sass, "sass 3 4", "ptxtutor sass: unexpected argument '4'"},
		{&cli_cmd_gpus, "gpus x", "ptxtutor gpus: unexpected argument 'x'"},
		{&cli_cmd_list, "list --jsn", "ptxtutor list: unknown option '--jsn' (ptxtutor list --help lists them)"},
		{&cli_cmd_tutor, "ptxtutor --page 0", "ptxtutor: --page wants an integer 1..100000, not '0'"},
		{&cli_cmd_tutor, "ptxtutor --width 80.5", "ptxtutor: --width wants an integer 1..1000, not '80.5'"},
		{&cli_cmd_tutor, "ptxtutor --theme neon", "ptxtutor: --theme wants one of term, dark, light, projector, mono, not 'neon'"},
		{&cli_cmd_tutor, "ptxtutor 3 4", "ptxtutor: unexpected argument '4'"},
		{&cli_cmd_run, "run --ptx k.ptx --dtype f64", "ptxtutor run: --dtype wants f32, f16, bf16, tf32, e4m3, e5m2, s8, u8 or s32, not 'f64'"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char buf[256], *argv[16];
		int argc = 0, rc;
		util_strlcpy(buf, cases[i].line, sizeof buf);
		for (char *t = strtok(buf, " "); t && argc < 15; t = strtok(NULL, " "))
			argv[argc++] = t;
		argv[argc] = NULL;
		const char *out = run_argv(cases[i].row, argv, &rc);
		char want[256];
		snprintf(want, sizeof want, "%s\n", cases[i].said);
		if (rc != 2 || strcmp(out, want))
			fail_msg("'%s': rc %d, said\n%swant\n%s", cases[i].line, rc, out, want);
	}
}

/* An argument an error quotes is at most CLI_ARG_MAX characters: a longer one
 * keeps its start and end around "…", cut between characters, never inside one. */
static size_t columns(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

static void test_arg_shortened(void **state)
{
	(void)state;
	assert_string_equal(cli_arg("sgemm.ptx"), "sgemm.ptx");
	char s[400];
	memset(s, 'a', 100);
	memcpy(s + 90, "0123456789", 10);
	s[100] = '\0';
	const char *a = cli_arg(s);
	assert_int_equal(columns(a, strlen(a)), CLI_ARG_MAX);
	assert_non_null(strstr(a, "…"));
	assert_int_equal(strncmp(a, "aaaa", 4), 0);
	assert_string_equal(a + strlen(a) - 10, "0123456789"); /* a path's file name stays */
	s[0] = '\0';
	for (int i = 0; i < 70; i++)
		strcat(s, "\xe2\x86\x92"); /* → */
	a = cli_arg(s);
	assert_int_equal(columns(a, strlen(a)), CLI_ARG_MAX);
	assert_int_equal(strlen(a), (size_t)CLI_ARG_MAX * 3); /* every arrow whole, "…" is 3 bytes too */
	memset(s, 'b', CLI_ARG_MAX);
	s[CLI_ARG_MAX] = '\0';
	assert_ptr_equal(cli_arg(s), s); /* exactly the limit: as it is */
}

/* --gpu, one policy (devices_pick): a name from the table, "live" this
 * machine's GPU when one was read (else refused), none: live, else the default. */
static void test_gpu_policy(void **state)
{
	(void)state;
	static gpu_table t;
	char msg[512];
	assert_true(devices_load(&t, msg, sizeof msg) > 0);
	gpu_spec live = {.key = "live", .sms = 7, .live = 1};
	const gpu_spec *g = devices_pick(&t, "a100-40", &live, msg, sizeof msg);
	assert_non_null(g);
	assert_string_equal(g->key, "a100-40");
	assert_ptr_equal(devices_pick(&t, "live", &live, msg, sizeof msg), &live);
	assert_ptr_equal(devices_pick(&t, "LIVE", &live, msg, sizeof msg), &live);
	assert_ptr_equal(devices_pick(&t, NULL, &live, msg, sizeof msg), &live);
	assert_ptr_equal(devices_pick(&t, NULL, NULL, msg, sizeof msg), devices_default(&t));
	assert_null(devices_pick(&t, "live", NULL, msg, sizeof msg));
	assert_string_equal(msg, "--gpu live: no GPU was read on this machine");
	assert_null(devices_pick(&t, "no-such-gpu", &live, msg, sizeof msg));
	assert_non_null(strstr(msg, "unknown GPU 'no-such-gpu'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_lists_every_command),
		cmocka_unit_test(test_own_help_from_the_table),
		cmocka_unit_test(test_help_fits_80_columns),
		cmocka_unit_test(test_readme_lists_every_command),
		cmocka_unit_test(test_help_lists_every_option),
		cmocka_unit_test(test_parse_values),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_commands_refuse_bad_numbers),
		cmocka_unit_test(test_arg_shortened),
		cmocka_unit_test(test_gpu_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
