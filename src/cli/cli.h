/* cli: the command rows, the one option parser and the helpers the subcommands share. */
#ifndef PTXTUTOR_CLI_H
#define PTXTUTOR_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "base/expr.h"
#include "course/lesson.h"
#include "model/devices.h"

#define PTXTUTOR_VERSION "0.1.0"

/* What an option's value is; each kind has one parser and one error wording
 * (cli_parse). The destination is a field of the command's options struct. */
typedef enum {
	CLI_FLAG,   /* no value: int = value, or 1 when value is 0 */
	CLI_INT,    /* int, decimal, lo..hi */
	CLI_DOUBLE, /* double, finite, lo..hi */
	CLI_SIZE,   /* "N" or "M,N,K", positive, up to CLI_SIZE_MAX: long long[3] */
	CLI_DIMS,   /* "X[,Y[,Z]]", each an expression over M N K (evaluated later): const char * */
	CLI_NAME,   /* a name that check accepts (a theme, a type): const char * */
	CLI_STR,    /* any text: const char * */
	CLI_SET,    /* KEY=VALUE, repeatable, into an expr_env */
} cli_kind;

#define CLI_SIZE_MAX (1LL << 20)

typedef struct {
	const char *name;  /* long name, without "--" */
	char letter;       /* its short form (-j), 0 for none */
	cli_kind kind;
	size_t off;        /* offsetof the destination in the command's options struct */
	const char *arg;   /* the value's name in the help ("N|M,N,K"); NULL for flags */
	const char *help;  /* the help, "\n" starts an indented line */
	double lo, hi;     /* CLI_INT, CLI_DOUBLE: the accepted range, both included */
	int value;         /* CLI_FLAG: what it stores (several flags may share a field) */
	/* CLI_NAME: 0 when s is accepted, else -1 with why ("f32, f16 or bf16"). */
	int (*check)(const char *s, char *why, size_t len);
} cli_opt;

/* One row per command, tmux's cmd_entry: each cmd_NAME.c defines its row
 * (cli_cmd_NAME); src/cli/main.c lists them. `ptxtutor --help`, the unknown-
 * command error, the README's Commands block (tests/test_cli.c checks) and
 * the command's own --help are all printed from it. */
#define CLI_FORMS 2
typedef struct cli_command cli_command;
struct cli_command {
	const char *name;                   /* NULL for the tutor (no command) */
	const char *synopsis[CLI_FORMS];    /* the forms after "ptxtutor ", unused ones NULL */
	const char *summary;                /* one line for `ptxtutor --help` */
	const char *about;                  /* --help: what it does, before the options */
	const char *notes;                  /* --help: after the options (may be NULL) */
	const cli_opt *opts;                /* ends with {0}; --help is every command's */
	int max_args;                       /* positional arguments at most; -1: any number */
	int (*run)(const cli_command *self, int argc, char **argv);
};

/* `show LESSON --screen`: the tutor's panes printed as plain text
 * (src/cli/cmd_tui.c); self is the tutor's row, which has that form. */
int cmd_screen(const cli_command *self, int argc, char **argv);

extern const cli_command cli_cmd_tutor, cli_cmd_list, cli_cmd_gpus, cli_cmd_show, cli_cmd_occupancy,
	cli_cmd_bench, cli_cmd_check, cli_cmd_run, cli_cmd_emulate, cli_cmd_accuracy, cli_cmd_sass, cli_cmd_puzzle;

/* Parses argv[1..argc-1] (argv[0] is the command's name) by self->opts into
 * opts, which the caller has set to its defaults. Options and positional
 * arguments may mix; "--" ends the options; --name=VALUE, --name VALUE, a
 * unique prefix of a long name, -x VALUE, -xVALUE and bundled flags (-jc)
 * are accepted. The positional arguments end up in argv[1..*nargs], the
 * options after them (argv keeps every word, as getopt's permutation does).
 * Returns -1 to go on, else the exit status: 0 after printing --help, 2
 * after one line "ptxtutor CMD: why" on stderr. */
int cli_parse(const cli_command *self, int argc, char **argv, void *opts, int *nargs);

/* The command's --help: its usage lines, its about, its options (generated
 * from its table) and its notes, every line at most 80 columns wide (a
 * paragraph written wider is reflowed). */
void cli_help(const cli_command *self, FILE *out);
/* lead, then a synopsis form wrapped to 80 columns, its continuation lines
 * under its first option ("usage: ptxtutor ", "sass --ptx FILE ..."). */
void cli_print_form(FILE *out, const char *lead, const char *form);
/* Prints "ptxtutor CMD: " and the message, one line, on stderr: the one way
 * a command says what is wrong. self NULL: the command running (main.c sets
 * it with cli_running), so a helper shared by several commands names the one
 * the user typed. Like all the CLI writes, it passes base/termsafe's filter. */
void cli_error(const cli_command *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The command whose name cli_error(NULL, ...) gives. */
void cli_running(const cli_command *self);
/* An argument as an error quotes it: at most CLI_ARG_MAX characters, a
 * longer one cut in the middle with "…" (its start and its end kept: a
 * path's file name stays). The text lives until the fourth call after. */
#define CLI_ARG_MAX 60
const char *cli_arg(const char *s);

/* "N" or "M,N,K" as --size takes it (the check's --sizes list too).
 * Returns 0, or -1 after a message naming opt. */
int cli_parse_size(const cli_command *self, const char *opt, const char *s, long long size[3]);
/* A number as every numeric option is read: decimal, nothing after it,
 * finite, lo..hi (integer: a whole number). Returns 0 or -1, silently. */
int cli_number(const char *s, int integer, double lo, double hi, double *out);

/* Prints s and spaces up to width columns, counting a UTF-8 character as one
 * (printf's %-9s counts bytes, and "f16→f32" has a three-byte arrow). */
void cli_pad(FILE *out, const char *s, int width);

/* The one way a command loads the course: loaded, validated, and each broken
 * lesson's file:line message printed to stderr. Returns the lessons usable. */
int cli_course(course *c);
/* The lesson LESSON names, or NULL after "ptxtutor CMD: no lesson 'X'". */
const lesson *cli_lesson(const cli_command *self, const course *c, const char *what);
/* Whether what names a lesson of the course as cli_course loads it (quietly). */
int cli_is_lesson(const char *what);

/* The GPU a command models, one policy for all (devices_pick): --gpu NAME
 * from the table (`ptxtutor gpus`); --gpu live, or no --gpu where live is
 * given, this machine's GPU. When name is "live" and live is NULL, this
 * machine's GPU is read here through the worker. Loads the table into t.
 * Returns the spec (t's row, or out), or NULL after "ptxtutor CMD: why". */
const gpu_spec *cli_gpu(const cli_command *self, const char *name, const gpu_spec *live, gpu_table *t,
			gpu_spec *out);

#endif
