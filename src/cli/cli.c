/* cli: the one option parser and the help it generates from a command's option table, and the course, lesson and GPU look-ups every command shares. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "run/launch.h"
#include "base/util.h"
#include "model/model.h"

/* The help's option column: "  --size N|M,N,K  the problem size". */
#define HELP_COL 18

void cli_error(const cli_command *self, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "ptxtutor%s%s: ", self && self->name ? " " : "", self && self->name ? self->name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* "usage: ptxtutor FORM", one line per form. */
static void usage(const cli_command *self, FILE *out)
{
	for (int i = 0; i < CLI_FORMS && self->synopsis[i]; i++)
		fprintf(out, "%s ptxtutor %s\n", i ? "      " : "usage:", self->synopsis[i]);
}

/* One option's lines: "  -j, --json ARG", then its help at HELP_COL, each
 * "\n" of it starting a new line there. */
static void help_row(FILE *out, char letter, const char *name, const char *arg, const char *help)
{
	char left[96];
	if (letter)
		snprintf(left, sizeof left, "  -%c, --%s%s%s", letter, name, arg ? " " : "", arg ? arg : "");
	else
		snprintf(left, sizeof left, "  --%s%s%s", name, arg ? " " : "", arg ? arg : "");
	fputs(left, out);
	int col = (int)strlen(left);
	if (col > HELP_COL - 2) /* two spaces at least between the two */
		fprintf(out, "\n%*s", HELP_COL, "");
	else
		fprintf(out, "%*s", HELP_COL - col, "");
	for (const char *p = help; *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fprintf(out, "%*s", HELP_COL, "");
	}
	fputc('\n', out);
}

void cli_help(const cli_command *self, FILE *out)
{
	usage(self, out);
	if (self->about)
		fprintf(out, "\n%s", self->about);
	fputs("\nOptions:\n", out);
	for (const cli_opt *o = self->opts; o && o->name; o++)
		help_row(out, o->letter, o->name, o->arg, o->help);
	help_row(out, 'h', "help", NULL, "this help");
	if (self->notes)
		fprintf(out, "\n%s", self->notes);
}

int cli_number(const char *s, int integer, double lo, double hi, double *out)
{
	char *end;
	double v;
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	if (integer) {
		long long i = strtoll(s, &end, 10);
		v = (double)i;
	} else {
		v = strtod(s, &end);
	}
	if (end == s || *end || errno == ERANGE || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_size(const cli_command *self, const char *opt, const char *s, long long size[3])
{
	long long v[3];
	int n = 0;
	const char *p = s;
	while (n < 3) {
		char *end;
		errno = 0;
		v[n] = strtoll(p, &end, 10);
		if (end == p || !isdigit((unsigned char)*p) || errno == ERANGE || v[n] <= 0 || v[n] > CLI_SIZE_MAX)
			break;
		n++;
		p = end;
		if (*p != ',')
			break;
		p++;
	}
	if (*p || (n != 1 && n != 3)) {
		cli_error(self, "%s wants N or M,N,K (integers 1..%lld), not '%s'", opt, CLI_SIZE_MAX, s);
		return -1;
	}
	size[0] = v[0];
	size[1] = n == 3 ? v[1] : v[0];
	size[2] = n == 3 ? v[2] : v[0];
	return 0;
}

/* ---- one parser per kind of value; each says what is wrong in one line ---- */

typedef int (*value_parser)(const cli_command *self, const cli_opt *o, const char *val, void *dst);

static int parse_number(const cli_command *self, const cli_opt *o, const char *val, void *dst)
{
	double v;
	int integer = o->kind == CLI_INT;
	if (cli_number(val, integer, o->lo, o->hi, &v)) {
		if (integer)
			cli_error(self, "--%s wants an integer %.0f..%.0f, not '%s'", o->name, o->lo, o->hi, val);
		else
			cli_error(self, "--%s wants a number %g..%g, not '%s'", o->name, o->lo, o->hi, val);
		return -1;
	}
	if (integer)
		*(int *)dst = (int)v;
	else
		*(double *)dst = v;
	return 0;
}

static int parse_size(const cli_command *self, const cli_opt *o, const char *val, void *dst)
{
	char opt[40];
	snprintf(opt, sizeof opt, "--%s", o->name);
	return cli_parse_size(self, opt, val, dst);
}

/* The shape of "X[,Y[,Z]]": one to three non-empty expressions, brackets
 * balanced; their values need M, N and K, so the request evaluates them. */
static int parse_dims(const cli_command *self, const cli_opt *o, const char *val, void *dst)
{
	int parts = 1, depth = 0, empty = 1, bad = 0;
	for (const char *p = val; *p && !bad; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			bad = --depth < 0;
		if (*p == ',' && depth == 0) {
			bad = empty || ++parts > 3;
			empty = 1;
		} else if (!isspace((unsigned char)*p)) {
			empty = 0;
		}
	}
	if (bad || empty || depth) {
		cli_error(self, "--%s wants X[,Y[,Z]], expressions over M, N and K, not '%s'", o->name, val);
		return -1;
	}
	*(const char **)dst = val;
	return 0;
}

static int parse_name(const cli_command *self, const cli_opt *o, const char *val, void *dst)
{
	char why[256] = "";
	if (o->check && o->check(val, why, sizeof why)) {
		cli_error(self, "--%s wants %s, not '%s'", o->name, why, val);
		return -1;
	}
	*(const char **)dst = val;
	return 0;
}

static int parse_str(const cli_command *self, const cli_opt *o, const char *val, void *dst)
{
	(void)self, (void)o;
	*(const char **)dst = val;
	return 0;
}

/* KEY=VALUE into an expr_env: the value an integer, never clamped. */
static int parse_set(const cli_command *self, const cli_opt *o, const char *val, void *dst)
{
	const char *eq = strchr(val, '=');
	if (!eq || eq == val || eq - val >= EXPR_NAME_MAX) {
		cli_error(self, "--%s wants KEY=VALUE, not '%s'", o->name, val);
		return -1;
	}
	char *end;
	errno = 0;
	long long v = strtoll(eq + 1, &end, 10);
	if (end == eq + 1 || *end) {
		cli_error(self, "--%s '%s': the value is not an integer", o->name, val);
		return -1;
	}
	if (errno == ERANGE) {
		cli_error(self, "--%s '%s': the value does not fit in 64 bits", o->name, val);
		return -1;
	}
	char key[EXPR_NAME_MAX];
	memcpy(key, val, (size_t)(eq - val));
	key[eq - val] = '\0';
	if (expr_set(dst, key, v) < 0) {
		cli_error(self, "--%s: too many of them", o->name);
		return -1;
	}
	return 0;
}

static const value_parser parsers[] = {
	[CLI_INT] = parse_number, [CLI_DOUBLE] = parse_number, [CLI_SIZE] = parse_size, [CLI_DIMS] = parse_dims,
	[CLI_NAME] = parse_name,  [CLI_STR] = parse_str,       [CLI_SET] = parse_set,
};

static const cli_opt help_opt = {.name = "help", .letter = 'h', .kind = CLI_FLAG};

/* The option --NAME (len characters) names: exactly, or as the one long
 * name it is a prefix of. NULL after saying why. */
static const cli_opt *find_long(const cli_command *self, const char *name, size_t len)
{
	const cli_opt *hit = NULL;
	int hits = 0;
	for (const cli_opt *o = self->opts; o && o->name; o++) {
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
		if (!strncmp(o->name, name, len))
			hit = o, hits++;
	}
	if (!strncmp(help_opt.name, name, len) && len)
		hit = hits ? hit : &help_opt, hits++;
	if (hits == 1 && len)
		return hit;
	cli_error(self, "%s option '--%.*s' (ptxtutor%s%s --help lists them)", hits > 1 && len ? "ambiguous" : "unknown",
		  (int)len, name, self->name ? " " : "", self->name ? self->name : "");
	return NULL;
}

static const cli_opt *find_short(const cli_command *self, char c)
{
	for (const cli_opt *o = self->opts; o && o->name; o++)
		if (o->letter == c)
			return o;
	if (c == help_opt.letter)
		return &help_opt;
	cli_error(self, "unknown option '-%c' (ptxtutor%s%s --help lists them)", c, self->name ? " " : "",
		  self->name ? self->name : "");
	return NULL;
}

/* Stores one option's value (val NULL for a flag). Returns -1 to go on, else
 * the exit status. */
static int take(const cli_command *self, const cli_opt *o, const char *val, void *opts)
{
	if (o == &help_opt) {
		cli_help(self, stdout);
		return 0;
	}
	void *dst = (char *)opts + o->off;
	if (o->kind == CLI_FLAG) {
		*(int *)dst = o->value ? o->value : 1;
		return -1;
	}
	return parsers[o->kind](self, o, val, dst) ? 2 : -1;
}

/* One "-xyz" word: flags, then perhaps one option whose value is the rest
 * of the word or the next one. Returns as take, *i moved past a value used. */
static int take_short(const cli_command *self, int argc, char **argv, int *i, void *opts)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const cli_opt *o = find_short(self, *p);
		if (!o)
			return 2;
		const char *val = NULL;
		if (o->kind != CLI_FLAG) {
			val = p[1] ? p + 1 : *i + 1 < argc ? argv[++*i] : NULL;
			if (!val) {
				cli_error(self, "-%c needs a value (%s)", *p, o->arg);
				return 2;
			}
		}
		int rc = take(self, o, val, opts);
		if (rc >= 0 || val)
			return rc;
	}
	return -1;
}

static int take_long(const cli_command *self, int argc, char **argv, int *i, void *opts)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	const cli_opt *o = find_long(self, name, eq ? (size_t)(eq - name) : strlen(name));
	if (!o)
		return 2;
	const char *val = eq ? eq + 1 : NULL;
	if (o->kind == CLI_FLAG && val) {
		cli_error(self, "--%s takes no value", o->name);
		return 2;
	}
	if (o->kind != CLI_FLAG && !val) {
		if (*i + 1 >= argc) {
			cli_error(self, "--%s needs a value (%s)", o->name, o->arg);
			return 2;
		}
		val = argv[++*i];
	}
	return take(self, o, val, opts);
}

int cli_parse(const cli_command *self, int argc, char **argv, void *opts, int *nargs)
{
	/* The words sorted as getopt does: the positional arguments first, then
	 * the options with their values, nothing lost (run --emulate reads them again). */
	char **args = xcalloc((size_t)argc + 1, sizeof *args), **rest = xcalloc((size_t)argc + 1, sizeof *rest);
	int n = 0, nrest = 0, rc = -1, only_args = 0;
	for (int i = 1; i < argc && rc < 0; i++) {
		char *a = argv[i];
		int first = i;
		if (only_args || a[0] != '-' || !a[1]) {
			args[n++] = a;
			continue;
		}
		if (!strcmp(a, "--"))
			only_args = 1;
		else if (a[1] == '-')
			rc = take_long(self, argc, argv, &i, opts);
		else
			rc = take_short(self, argc, argv, &i, opts);
		while (first <= i && first < argc)
			rest[nrest++] = argv[first++];
	}
	if (rc < 0 && self->max_args >= 0 && n > self->max_args) {
		cli_error(self, "unexpected argument '%s'", args[self->max_args]);
		rc = 2;
	}
	if (rc < 0) {
		memcpy(argv + 1, args, (size_t)n * sizeof *argv);
		memcpy(argv + 1 + n, rest, (size_t)nrest * sizeof *argv);
		*nargs = n;
	}
	free(args);
	free(rest);
	return rc;
}

void cli_pad(FILE *out, const char *s, int width)
{
	int cols = 0;
	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80; /* continuation bytes take no column */
	fputs(s, out);
	for (; cols < width; cols++)
		fputc(' ', out);
}

/* ---- the course and the GPU, one way for every command ---- */

static int load_course(course *c, int say)
{
	char errs[4096] = "";
	course_load(c, errs, sizeof errs);
	int n = c->n - course_validate(c, model_known, errs, sizeof errs);
	if (say && errs[0])
		fprintf(stderr, "%s", errs);
	return n;
}

int cli_course(course *c)
{
	return load_course(c, 1);
}

int cli_is_lesson(const char *what)
{
	course c = {0};
	load_course(&c, 0);
	int found = course_find(&c, what) != NULL;
	course_free(&c);
	return found;
}

const lesson *cli_lesson(const cli_command *self, const course *c, const char *what)
{
	const lesson *l = course_find(c, what);
	if (!l)
		cli_error(self, "no lesson '%s' (see ptxtutor list)", what);
	return l;
}

/* This machine's GPU, as the worker's driver reads it: 0 when there is none. */
static int read_live(const gpu_table *t, gpu_spec *out)
{
	run_request rq;
	run_result *res = xcalloc(1, sizeof *res);
	launch_request_device(&rq); /* no kernel: the worker only describes the device */
	bench_run_one(&rq, "reading this GPU", res);
	bench_done();
	int ok = res->status != RUN_NO_GPU && res->spec.sms > 0;
	if (ok) {
		*out = res->spec;
		devices_complete(t, out);
	}
	free(res);
	return ok;
}

const gpu_spec *cli_gpu(const cli_command *self, const char *name, const gpu_spec *live, gpu_table *t,
			gpu_spec *out)
{
	char msg[512];
	if (devices_load(t, msg, sizeof msg) < 0) {
		cli_error(self, "%s", msg);
		return NULL;
	}
	if (name && !strcasecmp(name, "live") && !live && read_live(t, out))
		live = out;
	const gpu_spec *g = devices_pick(t, name, live, msg, sizeof msg);
	if (!g)
		cli_error(self, "%s", msg);
	return g;
}
