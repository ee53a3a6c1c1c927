/* cli: the subcommands' entry points and the option helpers they share. */
#ifndef PTXTUTOR_CLI_H
#define PTXTUTOR_CLI_H

#include "base/expr.h"
#include "course/lesson.h"
#include "gpu/runner.h"

#define PTXTUTOR_VERSION "0.1.0"

/* Each subcommand lives in src/cmd_NAME.c; argv[0] is the subcommand's name. */
int cmd_tui(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_gpus(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_emulate(int argc, char **argv);
/* `show LESSON --screen`: the tutor's panes printed as plain text (src/cli/cmd_tui.c). */
int cmd_screen(int argc, char **argv);

/* Parses "N" or "M,N,K". Returns 0, or -1 after printing why. */
int cli_parse_size(const char *s, long long *M, long long *N, long long *K);
/* Parses "KEY=VALUE" into env. Returns 0, or -1 after printing why. */
int cli_parse_set(const char *s, expr_env *env);

/* The launch options shared by `run` and `emulate`: a lesson, or a PTX file
 * with its own launch shape and parameter list. */
typedef struct {
	const char *lesson;           /* number or id; NULL with --ptx */
	const char *ptx, *entry;
	const char *grid, *block;     /* "X[,Y[,Z]]", expressions over M N K */
	const char *smem;             /* expression, bytes */
	const char *args;             /* parameter spec, see runner.h */
	const char *dtype;            /* f32 | f16 */
	long long M, N, K;
	expr_env set;                 /* --set KEY=VALUE what-ifs */
	int json;
	int emulate;
	double timeout;               /* seconds; 0 = from the size */
} cli_launch;

/* Parses run/emulate options (getopt_long) into o; LESSON may be positional.
 * Returns 0, 1 after printing help, or -1 after printing why. */
int cli_launch_parse(int argc, char **argv, cli_launch *o, const char *usage);
/* Builds the request. Returns 0, or -1 after printing why. */
int cli_launch_request(const cli_launch *o, const course *c, run_request *rq);

/* Loads the course and prints each broken lesson's file:line message to stderr. */
int cli_course(course *c);

#endif
