/* cli: the usage lines and option helpers shared by the subcommands. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

void cli_usage(const cli_command *self, FILE *out, const char *details)
{
	for (int i = 0; i < CLI_FORMS && self->synopsis[i]; i++)
		fprintf(out, "%s ptxtutor %s\n", i ? "      " : "usage:", self->synopsis[i]);
	if (details)
		fprintf(out, "\n%s", details);
}

int cli_parse_size(const char *s, long long *M, long long *N, long long *K)
{
	long long v[3];
	int n = 0;
	const char *p = s;
	while (n < 3) {
		char *end;
		v[n] = strtoll(p, &end, 10);
		if (end == p || v[n] <= 0 || v[n] > (1 << 20))
			break;
		n++;
		p = end;
		if (*p != ',')
			break;
		p++;
	}
	if (*p || (n != 1 && n != 3)) {
		fprintf(stderr, "ptxtutor: bad size '%s' (want N or M,N,K, positive integers)\n", s);
		return -1;
	}
	*M = v[0];
	*N = n == 3 ? v[1] : v[0];
	*K = n == 3 ? v[2] : v[0];
	return 0;
}

int cli_parse_set(const char *s, expr_env *env)
{
	const char *eq = strchr(s, '=');
	char *end;
	if (!eq || eq == s || eq - s >= EXPR_NAME_MAX) {
		fprintf(stderr, "ptxtutor: bad --set '%s' (want KEY=VALUE)\n", s);
		return -1;
	}
	errno = 0;
	long long v = strtoll(eq + 1, &end, 10);
	if (end == eq + 1 || *end) {
		fprintf(stderr, "ptxtutor: bad value in --set '%s' (want an integer)\n", s);
		return -1;
	}
	if (errno == ERANGE) { /* never clamped to a value nobody wrote */
		fprintf(stderr, "ptxtutor: --set '%s': the value does not fit in 64 bits\n", s);
		return -1;
	}
	char key[EXPR_NAME_MAX];
	memcpy(key, s, (size_t)(eq - s));
	key[eq - s] = '\0';
	if (expr_set(env, key, v) < 0) {
		fprintf(stderr, "ptxtutor: too many --set options\n");
		return -1;
	}
	return 0;
}

int cli_parse_int(const char *opt, const char *s, long lo, long hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end || errno == ERANGE || v < lo || v > hi) {
		fprintf(stderr, "ptxtutor: %s wants an integer %ld..%ld, not '%s'\n", opt, lo, hi, s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int cli_parse_seconds(const char *opt, const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !(v > 0) || v > CLI_MAX_SECONDS) {
		fprintf(stderr, "ptxtutor: %s wants seconds, more than 0 and at most %.0f, not '%s'\n", opt,
			CLI_MAX_SECONDS, s);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_json_only(const cli_command *self, int argc, char **argv, const char *details, int *json)
{
	static const struct option opts[] = {{"json", no_argument, 0, 'j'}, {"help", no_argument, 0, 'h'}, {0}};
	int ch;
	*json = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		if (ch == 'j')
			*json = 1;
		else {
			cli_usage(self, ch == 'h' ? stdout : stderr, details);
			return ch == 'h' ? 0 : 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ptxtutor %s: unexpected argument '%s'\n", self->name, argv[optind]);
		return 2;
	}
	return -1;
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
