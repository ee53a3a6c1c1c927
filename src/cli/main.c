/* main: the command line — one table of subcommands, each in its own cmd_*.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/util.h"

/* The tutor itself: no command, or `show LESSON --screen` for its panes as text. */
static const cli_command tutor = {
	.synopsis = {"[LESSON] [--present] [--theme NAME] [--ascii] [--gpu NAME] [--size N|M,N,K] "
		     "[--set K=V]... [--page P]",
		     "show LESSON --screen [--width W] [--height H] [--keys KEYS] [the tutor's options]"},
	.summary = "the interactive tutor",
	.run = cmd_tui,
};

static const cli_command commands[] = {
	{.name = "list", .synopsis = {"list [--json]"}, .run = cmd_list,
	 .summary = "the lessons: number, id, title, types, minimum sm"},
	{.name = "gpus", .synopsis = {"gpus [--json]"}, .run = cmd_gpus,
	 .summary = "the built-in GPU models (assets/gpus.tsv)"},
	{.name = "show", .synopsis = {"show LESSON [--gpu NAME] [--size N|M,N,K] [--set KEY=VALUE]... [--json|--screen]"},
	 .run = cmd_show, .summary = "a lesson's numbers: intensity, accesses, roofline, occupancy"},
	{.name = "occupancy", .synopsis = {"occupancy --gpu NAME --threads T --regs R [--smem BYTES] [--json]"},
	 .run = cmd_occupancy, .summary = "occupancy as the driver computes it, step by step"},
	{.name = "bench", .synopsis = {"bench [LESSON...] [--size N|M,N,K] [--csv|--json]"}, .run = cmd_bench,
	 .summary = "GPU: time lessons beside cuBLAS"},
	{.name = "check", .synopsis = {"check [LESSON...] [--sizes LIST]"}, .run = cmd_check,
	 .summary = "GPU: verify lessons against cuBLAS at several sizes"},
	{.name = "run",
	 .synopsis = {"run LESSON [--size N|M,N,K] [--set KEY=VALUE]... [--json]",
		      "run --ptx FILE [--entry NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]] --size M[,N,K] [options]"},
	 .run = cmd_run, .summary = "GPU: run one kernel, verified and timed"},
	{.name = "emulate",
	 .synopsis = {"emulate LESSON [--size N|M,N,K] [--set KEY=VALUE]... [--json]",
		      "emulate --ptx FILE [--entry NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]] --size M[,N,K] [options]"},
	 .run = cmd_emulate, .summary = "CPU: run a kernel in the emulator and count its memory traffic"},
	{.name = "sass",
	 .synopsis = {"sass LESSON [--jit|--ptxas] [--arch sm_XY] [--gpu NAME] [--counts|--rows] [--json]",
		      "sass --ptx FILE --entry NAME [--jit|--ptxas] [--arch sm_XY] [--counts] [--json]"},
	 .run = cmd_sass, .summary = "what the compiler made of a kernel: SASS by PTX line, instruction counts"},
};

static void usage(FILE *out)
{
	fprintf(out,
		"ptxtutor %s - learn how a fast GPU matrix multiplication is built, in PTX\n\n"
		"usage: ptxtutor [LESSON] [options]   %s (`ptxtutor 3 --help`: its options)\n"
		"       ptxtutor COMMAND [options]    one of these (`ptxtutor COMMAND --help`: more)\n\n",
		PTXTUTOR_VERSION, tutor.summary);
	fprintf(out, "  ptxtutor %s\n\n", tutor.synopsis[0]);
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nLESSON is a number (3) or an id (smem). Docs: README.md, docs/.\n");
}

/* A first word that names no command may name a lesson: `ptxtutor 3` is the tutor at lesson 3. */
static int is_lesson(const char *what)
{
	course c;
	course_load(&c, NULL, 0);
	int found = course_find(&c, what) != NULL;
	course_free(&c);
	return found;
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
					return cmd_screen(&tutor, argc - 1, argv + 1);
		for (size_t i = 0; i < ARRAY_LEN(commands); i++)
			if (!strcmp(a, commands[i].name))
				return commands[i].run(&commands[i], argc - 1, argv + 1);
		if (a[0] != '-' && !is_lesson(a)) {
			fprintf(stderr, "ptxtutor: '%s' is neither a command nor a lesson\n\n", a);
			usage(stderr);
			return 2;
		}
	}
	/* No subcommand: the interactive tutor. */
	return tutor.run(&tutor, argc, argv);
}

int main(int argc, char **argv)
{
	return finish(dispatch(argc, argv));
}
