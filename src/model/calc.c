/* calc: calc_eval, a small recursive-descent evaluator in doubles over a model_result's names. */
#include "model/calc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *p;
	const model_result *r;
	calc_names names;
	int bad;
	char why[160];
} calc;

static double calc_sum(calc *c);

static void space(calc *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

/* The first error wins: it is the one that names the cause. */
static double bad(calc *c, const char *why, const char *at)
{
	if (!c->bad)
		snprintf(c->why, sizeof c->why, why, at);
	c->bad = 1;
	return NAN;
}

/* Consumes ch, or marks the expression bad (never steps past the end). */
static void expect(calc *c, char ch, const char *why)
{
	space(c);
	if (*c->p == ch)
		c->p++;
	else
		bad(c, "%s", why);
}

static double name_value(calc *c, const char *name)
{
	long long iv;
	double v;
	if (expr_get(&c->r->env, name, &iv))
		return (double)iv;
	if (!strcmp(name, "regs")) /* the lesson's recorded registers per thread, an input */
		return c->r->regs_per_thread;
	if (!strncmp(name, "gpu.", 4) && model_value(c->r, name, &v) == 0)
		return v;
	if (c->names == CALC_KEYS && model_value(c->r, name, &v) == 0)
		return v;
	return bad(c, c->names == CALC_KEYS ? "unknown name '%s' (params, M, N, K, regs, numeric model keys)"
					    : "unknown name '%s' (params, M, N, K, gpu.*)", name);
}

static double factor(calc *c)
{
	space(c);
	if (*c->p == '-') {
		c->p++;
		return -factor(c);
	}
	if (*c->p == '(') {
		c->p++;
		double v = calc_sum(c);
		expect(c, ')', "missing ')'");
		return v;
	}
	if ((*c->p >= '0' && *c->p <= '9') || *c->p == '.') {
		char *end;
		double v = strtod(c->p, &end);
		c->p = end;
		return v;
	}
	if (!strncmp(c->p, "floor(", 6)) {
		c->p += 6;
		double x = calc_sum(c);
		expect(c, ')', "missing ')'");
		return floor(x);
	}
	if (!strncmp(c->p, "min(", 4) || !strncmp(c->p, "max(", 4)) {
		int is_min = c->p[1] == 'i';
		c->p += 4;
		double x = calc_sum(c);
		expect(c, ',', "min/max want two arguments");
		double y = calc_sum(c);
		expect(c, ')', "missing ')'");
		return is_min ? fmin(x, y) : fmax(x, y);
	}
	char name[64];
	size_t n = strspn(c->p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
	if (n == 0 || n >= sizeof name)
		return bad(c, "unexpected '%s'", c->p);
	memcpy(name, c->p, n);
	name[n] = '\0';
	c->p += n;
	return name_value(c, name);
}

static double term(calc *c)
{
	double v = factor(c);
	for (;;) {
		space(c);
		if (*c->p == '*')
			c->p++, v *= factor(c);
		else if (*c->p == '/')
			c->p++, v /= factor(c);
		else
			return v;
	}
}

static double calc_sum(calc *c)
{
	double v = term(c);
	for (;;) {
		space(c);
		if (*c->p == '+')
			c->p++, v += term(c);
		else if (*c->p == '-')
			c->p++, v -= term(c);
		else
			return v;
	}
}

/* The comparisons, longest spelling first so "<=" is not read as "<". */
static const struct {
	const char *op;
	int lt, eq, gt; /* the result when a < b, a == b, a > b */
} comparisons[] = {
	{"==", 0, 1, 0}, {"!=", 1, 0, 1}, {"<=", 1, 1, 0}, {">=", 0, 1, 1}, {"<", 1, 0, 0}, {">", 0, 0, 1},
};

static double comparison(calc *c)
{
	double a = calc_sum(c);
	space(c);
	for (size_t i = 0; i < sizeof comparisons / sizeof comparisons[0]; i++) {
		size_t n = strlen(comparisons[i].op);
		if (strncmp(c->p, comparisons[i].op, n))
			continue;
		c->p += n;
		double b = calc_sum(c);
		if (isnan(a) || isnan(b))
			return NAN;
		return a < b ? comparisons[i].lt : a > b ? comparisons[i].gt : comparisons[i].eq;
	}
	return a;
}

double calc_eval(const char *s, const model_result *r, calc_names names, char *why, size_t len)
{
	calc c = {.p = s, .r = r, .names = names};
	double v = comparison(&c);
	space(&c);
	if (!c.bad && *c.p)
		bad(&c, "trailing '%s'", c.p);
	if (len)
		snprintf(why, len, "%s", c.why);
	return c.bad ? NAN : v;
}
