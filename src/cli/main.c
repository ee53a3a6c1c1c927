/* main: the command line — one table of subcommands, each in its own cmd_*.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
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
		"usage: ptxtutor [LESSON] [options]   %s (`ptxtutor 3 --help`: its options)\n"
		"       ptxtutor COMMAND [options]    one of these (`ptxtutor COMMAND --help`: more)\n\n",
		PTXTUTOR_VERSION, tutor->summary);
	fprintf(out, "  ptxtutor %s\n\n", tutor->synopsis[0]);
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\nLESSON is a number (3) or an id (smem). Docs: README.md, docs/.\n");
}

/* Output that could not be written (`list > /dev/full`, a closed pipe) is a
 * failure, never a silent exit 0: flushed and checked once, for every command. */
static int finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "ptxtutor: cannot write the output: %s\n", strerror(errno ? errno : EIO));
		return rc ? rc : 1;
	}
	return rc;
}

static int dispatch(int argc, char **argv)
{
	if (argc >= 2) {
		const char *a = argv[1];
		if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
			printf("ptxtutor %s\n", PTXTUTOR_VERSION);
			return 0;
		}
		/* `show --screen` prints what the tutor would draw, so the UI owns it. */
		if (!strcmp(a, "show"))
			for (int i = 2; i < argc; i++)
				if (!strcmp(argv[i], "--screen"))
					return cmd_screen(tutor, argc - 1, argv + 1);
		for (size_t i = 0; i < ARRAY_LEN(commands); i++)
			if (!strcmp(a, commands[i]->name))
				return commands[i]->run(commands[i], argc - 1, argv + 1);
		/* A first word that names no command may name a lesson: `ptxtutor 3` is the tutor at lesson 3. */
		if (a[0] != '-' && !cli_is_lesson(a)) {
			fprintf(stderr, "ptxtutor: '%s' is neither a command nor a lesson\n\n", a);
			usage(stderr);
			return 2;
		}
	}
	/* No subcommand: the interactive tutor. */
	return tutor->run(tutor, argc, argv);
}

int main(int argc, char **argv)
{
	return finish(dispatch(argc, argv));
}
