/* main: the command line — one table of subcommands, each in its own cmd_*.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/termsafe.h"
#include "base/util.h"

/* The tutor itself (no command, or `show LESSON --screen` for its panes as
 * text), then the commands in the order `ptxtutor --help` lists them; each
 * row, its options included, lives in its cmd_*.c (tmux's cmd_entry). */
static const cli_command *const tutor = &cli_cmd_tutor;

static const cli_command *const commands[] = {
	&cli_cmd_list, &cli_cmd_gpus,  &cli_cmd_show, &cli_cmd_occupancy, &cli_cmd_bench,
	&cli_cmd_check, &cli_cmd_run, &cli_cmd_emulate, &cli_cmd_accuracy, &cli_cmd_sass, &cli_cmd_puzzle,
};

static void usage(FILE *out)
{
	fprintf(out,
		"ptxtutor %s - learn how a fast GPU matrix multiplication is built, in PTX\n\n"
		"usage: ptxtutor [LESSON] [options]   %s (`ptxtutor 3 --help`)\n"
		"       ptxtutor COMMAND [options]    one of these (`ptxtutor COMMAND --help`)\n\n",
		PTXTUTOR_VERSION, tutor->summary);
	cli_print_form(out, "  ptxtutor ", tutor->synopsis[0]);
	fputc('\n', out);
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\nLESSON is a number (3) or an id (smem). Docs: README.md, docs/.\n");
}

/* Output that could not be written (`list > /dev/full`, a closed pipe) is a
 * failure, never a silent exit 0: flushed and checked once, for every command. */
static int finish(int rc)
{
	errno = 0;
	if (termsafe_flush() != 0 || fflush(stdout) != 0 || ferror(stdout)) {
		cli_error(NULL, "cannot write the output: %s", strerror(errno ? errno : EIO));
		return rc ? rc : 1;
	}
	return rc;
}

static int is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help");
}

static int is_version(const char *a)
{
	return !strcmp(a, "--version") || !strcmp(a, "-V");
}

static const cli_command *command_named(const char *a)
{
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		if (!strcmp(a, commands[i]->name))
			return commands[i];
	return NULL;
}

/* The interactive tutor runs when the first word is none of the above: a
 * lesson (`ptxtutor 3` is the tutor at lesson 3), one of its options, or nothing. */
static int wants_tutor(int argc, char **argv)
{
	if (argc < 2)
		return 1;
	const char *a = argv[1];
	if (is_help(a) || is_version(a) || command_named(a))
		return 0;
	return a[0] == '-' || cli_is_lesson(a);
}

/* Everything the CLI writes passes base/termsafe's filter at the descriptor,
 * so no byte from a file (a PTX token in an error, a lesson title, a tool's
 * SASS) reaches the terminal as a control: the one place it is done. stdout
 * keeps its buffering (by line on a terminal); stderr stays unbuffered. The
 * tutor's screen is curses' own on the real stdout (it draws a control byte
 * as '?'), so for the tutor only stderr is filtered. */
static void filter(FILE **stream, int fd, int mode)
{
	static FILE *done[3];
	if (done[fd])
		return;
	fflush(*stream);
	FILE *f = termsafe_open(fd, mode);
	if (f)
		*stream = done[fd] = f; /* glibc's stdout and stderr are plain variables */
}

static int dispatch(int argc, char **argv)
{
	const char *a = argv[1];
	if (is_help(a)) {
		usage(stdout);
		return 0;
	}
	if (is_version(a)) {
		printf("ptxtutor %s\n", PTXTUTOR_VERSION);
		return 0;
	}
	/* `show --screen` prints what the tutor would draw, so the UI owns it. */
	if (!strcmp(a, "show"))
		for (int i = 2; i < argc; i++)
			if (!strcmp(argv[i], "--screen")) {
				cli_running(&cli_cmd_show);
				return cmd_screen(tutor, argc - 1, argv + 1);
			}
	const cli_command *c = command_named(a);
	if (!c) {
		cli_error(NULL, "'%s' is neither a command nor a lesson (ptxtutor --help: the commands; "
			  "ptxtutor list: the lessons)", cli_arg(a));
		return 2;
	}
	cli_running(c);
	return c->run(c, argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	filter(&stderr, STDERR_FILENO, _IONBF);
	if (wants_tutor(argc, argv))
		return finish(tutor->run(tutor, argc, argv));
	filter(&stdout, STDOUT_FILENO, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
	return finish(dispatch(argc, argv));
}
