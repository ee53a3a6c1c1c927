/* main: the command line — one table of subcommands, each in its own cmd_*.c. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/util.h"

typedef struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *summary;
} command;

static const command commands[] = {
	{"list", cmd_list, "list [--json]", "the lessons: number, id, title, dtype, minimum sm"},
	{"gpus", cmd_gpus, "gpus [--json]", "the built-in GPU models"},
	{"show", cmd_show, "show LESSON [--gpu NAME] [--size N|M,N,K] [--set K=V]... [--json|--screen]",
	 "a lesson's numbers: intensity, accesses, roofline, occupancy"},
	{"occupancy", cmd_occupancy, "occupancy --gpu NAME --threads T --regs R [--smem BYTES] [--json]",
	 "occupancy as the driver computes it, step by step"},
	{"bench", cmd_bench, "bench [LESSON...] [--size N] [--csv|--json]", "time lessons beside cuBLAS on the GPU"},
	{"check", cmd_check, "check [LESSON...] [--sizes LIST]", "verify lessons against cuBLAS at several sizes"},
	{"run", cmd_run, "run LESSON | --ptx FILE --entry NAME ... [--json]", "run one kernel on the GPU, verified and timed"},
	{"emulate", cmd_emulate, "emulate LESSON [--size N] [--json]", "run a kernel on the CPU and count its memory traffic"},
};

static void usage(FILE *out)
{
	fprintf(out,
		"ptxtutor %s - learn how a fast GPU matrix multiplication is built, in PTX\n\n"
		"usage: ptxtutor [--present] [--ascii] [--gpu NAME]   start the tutor\n"
		"       ptxtutor COMMAND [options]                    (COMMAND --help for more)\n\n"
		"commands:\n",
		PTXTUTOR_VERSION);
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nLESSON is a number (3) or an id (smem). Docs: README.md, docs/.\n");
}

int main(int argc, char **argv)
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
					return cmd_screen(argc - 1, argv + 1);
		for (size_t i = 0; i < ARRAY_LEN(commands); i++)
			if (!strcmp(a, commands[i].name))
				return commands[i].fn(argc - 1, argv + 1);
		if (a[0] != '-') {
			fprintf(stderr, "ptxtutor: unknown command '%s'\n\n", a);
			usage(stderr);
			return 2;
		}
	}
	/* No subcommand: the interactive tutor (its options start with --). */
	return cmd_tui(argc, argv);
}
