/* calc: the lessons' expression language over a model's values — @check's arithmetic and @if's conditions. */
#ifndef PTXTUTOR_CALC_H
#define PTXTUTOR_CALC_H

#include <stddef.h>

#include "model/model.h"

/* What names an expression may read. */
typedef enum {
	CALC_INPUTS, /* @check: a lesson param, M, N, K, regs, gpu.* (a model key would make the check circular) */
	CALC_KEYS,   /* @if: those and every numeric model key (launch.runs, occupancy.blocks_per_sm, ...) */
} calc_names;

/* Evaluates s over r: numbers, + - * / parentheses, unary minus,
 * min(a, b), max(a, b), floor(x), and one comparison (== != < <= > >=,
 * 1 or 0) at the lowest precedence. Returns the value, or NAN with one line
 * in why ("unknown name 'X'", "missing ')'", ...). */
double calc_eval(const char *s, const model_result *r, calc_names names, char *why, size_t len);

#endif
