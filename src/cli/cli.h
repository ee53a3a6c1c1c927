/* cli: the subcommands' entry points and the option helpers they share. */
#ifndef PTXTUTOR_CLI_H
#define PTXTUTOR_CLI_H

#include "base/expr.h"
#include "course/lesson.h"

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

/* Loads the course and prints each broken lesson's file:line message to stderr. */
int cli_course(course *c);

#endif
