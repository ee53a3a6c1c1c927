/* cli: the subcommands' entry points and the option helpers they share. */
#ifndef PTXTUTOR_CLI_H
#define PTXTUTOR_CLI_H

#include <stdio.h>

#include "base/expr.h"
#include "course/lesson.h"

#define PTXTUTOR_VERSION "0.1.0"

/* One row of the command table in src/cli/main.c: `ptxtutor --help`, the
 * unknown-command error, the README's Commands block (tests/test_cli.c checks)
 * and the command's own --help are all printed from it. */
#define CLI_FORMS 2
typedef struct cli_command cli_command;
struct cli_command {
	const char *name;                   /* NULL for the tutor (no command) */
	const char *synopsis[CLI_FORMS];    /* the forms after "ptxtutor ", unused ones NULL */
	const char *summary;                /* one line for `ptxtutor --help` */
	int (*run)(const cli_command *self, int argc, char **argv);
};

/* Prints "usage: ptxtutor FORM" (one line per form), then a blank line and
 * details, the command's own options and prose (may be NULL). */
void cli_usage(const cli_command *self, FILE *out, const char *details);

/* Each subcommand lives in src/cli/cmd_NAME.c; argv[0] is the subcommand's
 * name and self its row of the command table. */
int cmd_tui(const cli_command *self, int argc, char **argv);
int cmd_list(const cli_command *self, int argc, char **argv);
int cmd_gpus(const cli_command *self, int argc, char **argv);
int cmd_show(const cli_command *self, int argc, char **argv);
int cmd_occupancy(const cli_command *self, int argc, char **argv);
int cmd_bench(const cli_command *self, int argc, char **argv);
int cmd_check(const cli_command *self, int argc, char **argv);
int cmd_run(const cli_command *self, int argc, char **argv);
int cmd_emulate(const cli_command *self, int argc, char **argv);
int cmd_sass(const cli_command *self, int argc, char **argv);
/* `show LESSON --screen`: the tutor's panes printed as plain text
 * (src/cli/cmd_tui.c); self is the tutor's row, which has that form. */
int cmd_screen(const cli_command *self, int argc, char **argv);

/* Parses "N" or "M,N,K". Returns 0, or -1 after printing why. */
int cli_parse_size(const char *s, long long *M, long long *N, long long *K);
/* Parses "KEY=VALUE" into env. Returns 0, or -1 after printing why. */
int cli_parse_set(const char *s, expr_env *env);
/* An integer option's value: digits (with a sign), nothing after, lo..hi;
 * never clamped or wrapped. Returns 0, or -1 after a message naming opt. */
int cli_parse_int(const char *opt, const char *s, long lo, long hi, int *out);
/* A number of seconds (a --timeout): decimal, more than 0, at most
 * CLI_MAX_SECONDS, nothing after it. Returns 0, or -1 after printing why. */
#define CLI_MAX_SECONDS 86400.0
int cli_parse_seconds(const char *opt, const char *s, double *out);

/* Prints s and spaces up to width columns, counting a UTF-8 character as one
 * (printf's %-9s counts bytes, and "f16→f32" has a three-byte arrow). */
void cli_pad(FILE *out, const char *s, int width);

/* Loads the course and prints each broken lesson's file:line message to stderr. */
int cli_course(course *c);

/* The options of a command that takes only --json and --help: -1 to go on
 * (*json set), else the exit status (0 after --help, 2 after a bad option). */
int cli_json_only(const cli_command *self, int argc, char **argv, const char *details, int *json);

#endif
