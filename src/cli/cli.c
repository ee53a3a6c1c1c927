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
#include "base/termsafe.h"
#include "base/util.h"
#include "model/model.h"

/* The help's option column: "  --size N|M,N,K  the problem size". */
#define HELP_COL 18
/* and every line of it fits an 80-column terminal (tests/test_cli.c checks) */
#define HELP_WIDTH 80

static const cli_command *running;

void cli_running(const cli_command *self)
{
	running = self;
}

void cli_error(const cli_command *self, const char *fmt, ...)
{
	va_list ap;
	self = self ? self : running;
	fprintf(stderr, "ptxtutor%s%s: ", self && self->name ? " " : "", self && self->name ? self->name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Characters as cli_arg counts them: a byte and at most three continuation
 * bytes after it (invalid UTF-8 counts too, never more than 4 bytes a character). */
static size_t char_after(const char *s, size_t i)
{
	i++;
	for (int k = 0; k < 3 && ((unsigned char)s[i] & 0xc0) == 0x80; k++)
		i++;
	return i;
}

static size_t char_before(const char *s, size_t i, size_t floor)
{
	i--;
	for (int k = 0; k < 3 && i > floor && ((unsigned char)s[i] & 0xc0) == 0x80; k++)
		i--;
	return i;
}

const char *cli_arg(const char *s)
{
	enum { HEAD = (CLI_ARG_MAX - 1) / 2, TAIL = CLI_ARG_MAX - 1 - HEAD };
	static char ring[4][CLI_ARG_MAX * 4 + 8];
	static int next;
	size_t len = strlen(s), head = 0, tail = len;
	int n;
	for (n = 0; head < len && n <= CLI_ARG_MAX; n++)
		head = char_after(s, head);
	if (n <= CLI_ARG_MAX)
		return s;
	head = 0;
	for (n = 0; n < HEAD; n++)
		head = char_after(s, head);
	for (n = 0; n < TAIL; n++)
		tail = char_before(s, tail, head);
	char *out = ring[next++ % 4];
	snprintf(out, sizeof ring[0], "%.*s…%s", (int)head, s, s + tail);
	return out;
}

/* ---- --help, 80 columns wide ---- */

/* Columns a text takes: a UTF-8 character is one. */
static int columns(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The length of the word at p: up to a space or a newline, but not a space
 * inside `code`. In a synopsis (form), nor one inside [...], nor the one
 * between an option and its value: "[--size N|M,N,K]" and "--grid X[,Y[,Z]]"
 * stay whole. */
static size_t word_len(const char *p, const char *end, int form)
{
	size_t n = 0;
	int depth = 0, code = 0;
	for (; p + n < end && p[n] != '\n'; n++) {
		if (form)
			depth += p[n] == '[' ? 1 : p[n] == ']' ? -1 : 0;
		code ^= p[n] == '`';
		int value = form && p[0] == '-' && p + n + 1 < end && p[n + 1] != '-' && p[n + 1] != '[' &&
			    !memchr(p, ' ', n);
		if (p[n] == ' ' && depth <= 0 && !code && !value)
			break;
	}
	return n;
}

/* The words of text[0..len) from column col, a line broken before a word
 * that would pass HELP_WIDTH, each new line indented to indent. */
static void put_words(FILE *out, const char *text, size_t len, int col, int indent, int form)
{
	const char *p = text, *end = text + len;
	for (int first = 1;; first = 0) {
		while (p < end && (*p == ' ' || *p == '\n'))
			p++;
		if (p >= end)
			return;
		size_t n = word_len(p, end, form);
		int w = columns(p, n);
		if (!first && col + 1 + w > HELP_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, n, out);
		col += w;
		p += n;
	}
}

/* Whether a line of text[0..len), printed from column col, passes HELP_WIDTH. */
static int too_wide(const char *text, size_t len, int col)
{
	for (const char *p = text, *end = text + len; p < end;) {
		size_t n = strcspn(p, "\n");
		n = p + n > end ? (size_t)(end - p) : n;
		if (col + columns(p, n) > HELP_WIDTH)
			return 1;
		p += n + 1;
	}
	return 0;
}

void cli_print_form(FILE *out, const char *lead, const char *form)
{
	int col = (int)strlen(lead);
	/* a command's continuation lines start under its first option */
	int indent = col + (form[0] == '[' ? 0 : (int)strcspn(form, " ") + 1);
	fputs(lead, out);
	put_words(out, form, strlen(form), col, indent, 1);
	fputc('\n', out);
}

/* A block of --help text (about, notes): a paragraph that fits is printed as
 * it is written; one with a line too wide (a paragraph is the lines up to a
 * blank or an indented one) is reflowed to HELP_WIDTH; an indented line too
 * wide goes on under its indentation. */
static void put_text(FILE *out, const char *text)
{
	for (const char *p = text; *p;) {
		const char *q = p;
		do { /* one indented line, or a blank one, or the lines of a paragraph */
			q += strcspn(q, "\n");
			q += *q == '\n';
		} while (*p != ' ' && *p != '\n' && *q && *q != ' ' && *q != '\n');
		if (!too_wide(p, (size_t)(q - p), 0)) {
			fwrite(p, 1, (size_t)(q - p), out);
		} else {
			int indent = (int)strspn(p, " ");
			fprintf(out, "%*s", indent, "");
			put_words(out, p, (size_t)(q - p), indent, indent, 0);
			if (q[-1] == '\n')
				fputc('\n', out);
		}
		p = q;
	}
}

/* "usage: ptxtutor FORM", one form after the other. */
static void usage(const cli_command *self, FILE *out)
{
	for (int i = 0; i < CLI_FORMS && self->synopsis[i]; i++)
		cli_print_form(out, i ? "       ptxtutor " : "usage: ptxtutor ", self->synopsis[i]);
}

/* One option's lines: "  -j, --json ARG", then its help at HELP_COL, each
 * "\n" of it starting a new line there (reflowed when a line is too wide). */
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
	if (too_wide(help, strlen(help), HELP_COL)) {
		put_words(out, help, strlen(help), HELP_COL, HELP_COL, 0);
	} else {
		for (const char *p = help; *p; p++) {
			fputc(*p, out);
			if (*p == '\n')
				fprintf(out, "%*s", HELP_COL, "");
		}
	}
	fputc('\n', out);
}

void cli_help(const cli_command *self, FILE *out)
{
	usage(self, out);
	if (self->about) {
		fputc('\n', out);
		put_text(out, self->about);
	}
	fputs("\nOptions:\n", out);
	for (const cli_opt *o = self->opts; o && o->name; o++)
		help_row(out, o->letter, o->name, o->arg, o->help);
	help_row(out, 'h', "help", NULL, "this help");
	if (self->notes) {
		fputc('\n', out);
		put_text(out, self->notes);
	}
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
		cli_error(self, "%s wants N or M,N,K (integers 1..%lld), not '%s'", opt, CLI_SIZE_MAX, cli_arg(s));
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
			cli_error(self, "--%s wants an integer %.0f..%.0f, not '%s'", o->name, o->lo, o->hi, cli_arg(val));
		else
			cli_error(self, "--%s wants a number %g..%g, not '%s'", o->name, o->lo, o->hi, cli_arg(val));
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
		cli_error(self, "--%s wants X[,Y[,Z]], expressions over M, N and K, not '%s'", o->name, cli_arg(val));
		return -1;
	}
	*(const char **)dst = val;
	return 0;
}

static int parse_name(const cli_command *self, const cli_opt *o, const char *val, void *dst)
{
	char why[256] = "";
	if (o->check && o->check(val, why, sizeof why)) {
		cli_error(self, "--%s wants %s, not '%s'", o->name, why, cli_arg(val));
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
		cli_error(self, "--%s wants KEY=VALUE, not '%s'", o->name, cli_arg(val));
		return -1;
	}
	char *end;
	errno = 0;
	long long v = strtoll(eq + 1, &end, 10);
	if (end == eq + 1 || *end) {
		cli_error(self, "--%s '%s': the value is not an integer", o->name, cli_arg(val));
		return -1;
	}
	if (errno == ERANGE) {
		cli_error(self, "--%s '%s': the value does not fit in 64 bits", o->name, cli_arg(val));
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
	char given[CLI_ARG_MAX * 4 + 8];
	snprintf(given, sizeof given, "--%.*s", (int)len, name);
	cli_error(self, "%s option '%s' (ptxtutor%s%s --help lists them)", hits > 1 && len ? "ambiguous" : "unknown",
		  cli_arg(given), self->name ? " " : "", self->name ? self->name : "");
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
		cli_error(self, "unexpected argument '%s'", cli_arg(args[self->max_args]));
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
		cli_error(self, "no lesson '%s' (see ptxtutor list)", cli_arg(what));
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
	/* No GPU's name is as long as an argument cli_arg shortens: the shortened
	 * one finds nothing just the same, and the error quotes it short. */
	name = name ? cli_arg(name) : NULL;
	if (name && !strcasecmp(name, "live") && !live && read_live(t, out))
		live = out;
	const gpu_spec *g = devices_pick(t, name, live, msg, sizeof msg);
	if (!g)
		cli_error(self, "%s", msg);
	return g;
}
