/* expr: integer expressions over named values, for launch shapes and lesson parameters. */
#include "base/expr.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/checked.h"
#include "base/util.h"

/* Nesting deeper than this is refused: the parser recurses once per level. */
#define EXPR_MAX_DEPTH 64

int expr_set(expr_env *env, const char *name, long long value)
{
	for (int i = 0; i < env->n; i++)
		if (strcmp(env->v[i].name, name) == 0) {
			env->v[i].value = value;
			return 0;
		}
	if (env->n >= EXPR_MAX_VARS)
		return -1;
	util_strlcpy(env->v[env->n].name, name, EXPR_NAME_MAX);
	env->v[env->n++].value = value;
	return 0;
}

int expr_get(const expr_env *env, const char *name, long long *out)
{
	for (int i = 0; i < env->n; i++)
		if (strcmp(env->v[i].name, name) == 0) {
			*out = env->v[i].value;
			return 1;
		}
	return 0;
}

/* A recursive-descent parser: expr := term (('+'|'-') term)*,
 * term := unary (('*'|'/'|'%') unary)*, unary := '-' unary | primary.
 * Inside ceil( ... ) the divisions at its own nesting level round up. */
typedef struct {
	const char *p;
	const expr_env *env;
	char *err;
	int errlen;
	int failed;
	int depth;   /* parenthesis nesting */
	int nest;    /* recursion: parentheses, functions and unary minus, up to EXPR_MAX_DEPTH */
	int ceil_at; /* divisions at this depth round up: inside ceil( ... ) */
} parser;

static long long parse_sum(parser *ps);

/* The result of one operation, or a failure when it does not fit in 64 bits:
 * an expression from the command line (--grid, --set) must never wrap or trap. */
static long long checked(parser *ps, int bad, int64_t v)
{
	if (bad) {
		if (!ps->failed && ps->err)
			snprintf(ps->err, (size_t)ps->errlen, "overflow: the value does not fit in 64 bits");
		ps->failed = 1;
		return 0;
	}
	return v;
}

static void fail(parser *ps, const char *msg, const char *what)
{
	if (!ps->failed && ps->err)
		snprintf(ps->err, (size_t)ps->errlen, msg, what);
	ps->failed = 1;
}

static void skip(parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int accept(parser *ps, char c)
{
	skip(ps);
	if (*ps->p == c) {
		ps->p++;
		return 1;
	}
	return 0;
}

static void expect(parser *ps, char c)
{
	if (!accept(ps, c)) {
		char s[2] = {c, 0};
		fail(ps, "expected '%s'", s);
	}
}

static long long divide(parser *ps, long long a, long long b, int ceil_div)
{
	if (b == 0) {
		fail(ps, "division by zero%s", "");
		return 0;
	}
	int64_t q = 0;
	int bad = ck_div_i64(a, b, &q);
	if (!bad && ceil_div && a > 0 && b > 0 && a % b) /* ceil(a/b) = a/b + 1, which cannot overflow here */
		q++;
	return checked(ps, bad, q);
}

static long long parse_primary(parser *ps)
{
	skip(ps);
	if (isdigit((unsigned char)*ps->p)) {
		int64_t v = 0;
		int bad = 0;
		while (isdigit((unsigned char)*ps->p))
			bad |= ck_mul_i64(v, 10, &v) || ck_add_i64(v, *ps->p++ - '0', &v);
		return checked(ps, bad, v);
	}
	if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
		char name[EXPR_NAME_MAX];
		int n = 0;
		while ((isalnum((unsigned char)*ps->p) || *ps->p == '_') && n < EXPR_NAME_MAX - 1)
			name[n++] = *ps->p++;
		name[n] = '\0';
		skip(ps);
		if (*ps->p == '(') {
			ps->p++;
			if (strcmp(name, "ceil") == 0) {
				int saved = ps->ceil_at;
				ps->ceil_at = ++ps->depth;
				long long v = parse_sum(ps);
				ps->depth--;
				ps->ceil_at = saved;
				expect(ps, ')');
				return v;
			}
			if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
				ps->depth++;
				long long a = parse_sum(ps);
				expect(ps, ',');
				long long b = parse_sum(ps);
				ps->depth--;
				expect(ps, ')');
				return (name[1] == 'i') == (a < b) ? a : b;
			}
			fail(ps, "unknown function '%s'", name);
			return 0;
		}
		long long v = 0;
		if (!ps->env || !expr_get(ps->env, name, &v))
			fail(ps, "unknown name '%s'", name);
		return v;
	}
	if (accept(ps, '(')) {
		ps->depth++;
		long long v = parse_sum(ps);
		ps->depth--;
		expect(ps, ')');
		return v;
	}
	fail(ps, *ps->p ? "unexpected '%.1s'" : "unexpected end%s", ps->p);
	return 0;
}

static long long parse_unary(parser *ps)
{
	if (accept(ps, '-')) {
		if (++ps->nest > EXPR_MAX_DEPTH) {
			fail(ps, "too deeply nested%s", "");
			return 0;
		}
		int64_t v = 0;
		int bad = ck_sub_i64(0, parse_unary(ps), &v);
		ps->nest--;
		return checked(ps, bad, v);
	}
	return parse_primary(ps);
}

static long long parse_term(parser *ps)
{
	long long v = parse_unary(ps);
	for (;;) {
		skip(ps);
		char op = *ps->p;
		if (op == '*') {
			ps->p++;
			int64_t r = 0;
			int bad = ck_mul_i64(v, parse_unary(ps), &r);
			v = checked(ps, bad, r);
		} else if (op == '/' || op == '%') {
			ps->p++;
			long long b = parse_unary(ps);
			int64_t r = 0;
			if (op == '/')
				v = divide(ps, v, b, ps->ceil_at == ps->depth);
			else if (ck_mod_i64(v, b, &r))
				fail(ps, "modulo by zero%s", "");
			else
				v = r;
		} else {
			return v;
		}
	}
}

static long long parse_sum(parser *ps)
{
	if (++ps->nest > EXPR_MAX_DEPTH) {
		fail(ps, "too deeply nested%s", "");
		ps->nest--;
		return 0;
	}
	long long v = parse_term(ps);
	for (;;) {
		int64_t r = 0;
		int bad;
		if (accept(ps, '+'))
			bad = ck_add_i64(v, parse_term(ps), &r);
		else if (accept(ps, '-'))
			bad = ck_sub_i64(v, parse_term(ps), &r);
		else
			break;
		v = checked(ps, bad, r);
	}
	ps->nest--;
	return v;
}

int expr_eval(const char *s, const expr_env *env, long long *out, char *err, int errlen)
{
	parser ps = {.p = s, .env = env, .err = err, .errlen = errlen, .ceil_at = -1};
	long long v = parse_sum(&ps);
	skip(&ps);
	if (!ps.failed && *ps.p)
		fail(&ps, "unexpected '%.1s'", ps.p);
	if (ps.failed)
		return -1;
	*out = v;
	return 0;
}
