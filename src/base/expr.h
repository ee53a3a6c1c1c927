/* expr: integer expressions over named values, for launch shapes and lesson parameters. */
#ifndef PTXTUTOR_EXPR_H
#define PTXTUTOR_EXPR_H

#define EXPR_NAME_MAX 24
#define EXPR_MAX_VARS 32

typedef struct {
	char name[EXPR_NAME_MAX];
	long long value;
} expr_var;

typedef struct {
	expr_var v[EXPR_MAX_VARS];
	int n;
} expr_env;

/* Sets (or adds) a variable. Returns 0, or -1 when the table is full. */
int expr_set(expr_env *env, const char *name, long long value);
/* Looks a variable up; returns 1 and fills *out when found. */
int expr_get(const expr_env *env, const char *name, long long *out);

/* Evaluates s: integers, names, + - * / % (integer division truncates),
 * parentheses, unary minus, and the functions ceil(a/b) (ceiling division,
 * written exactly so), min(a,b), max(a,b). Returns 0 and *out, or -1 with a
 * message in err ("unknown name 'X'", "division by zero", ...). */
int expr_eval(const char *s, const expr_env *env, long long *out, char *err, int errlen);

#endif
