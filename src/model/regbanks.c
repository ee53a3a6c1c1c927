/* regbanks: the register-bank cost of a kernel's FFMA stream (regbanks.h); the same model as
 * scripts/gpu-regbanks.py's `model`, which tests/e2e_regbanks.sh holds this one to. */
#include "model/regbanks.h"

#include <stdlib.h>
#include <string.h>

/* The reads of an FFMA may start while the LOOKAHEAD before it are still waiting. */
#define LOOKAHEAD 3
/* gpu-regbanks.py replays a listing 256 FFMAs at a time. */
#define PIECE 256

double regbank_stream_cycles(const regbank_ffma *f, int n)
{
	if (n <= 0)
		return 0;
	long long *issue = malloc((size_t)n * sizeof *issue);
	long long bank_free[2] = {0, 0};
	int cache[3][2]; /* per operand slot and bank: the register it holds, -1 none */
	memset(cache, -1, sizeof cache);
	for (int i = 0; i < n; i++) {
		long long start = i >= LOOKAHEAD ? issue[i - LOOKAHEAD] + 1 : 0, done = start;
		int regs[3] = {f[i].a, f[i].b, f[i].c};
		for (int slot = 0; slot < 3; slot++) {
			int r = regs[slot], bank = r & 1;
			if (cache[slot][bank] != r) {
				long long t = bank_free[bank] > start ? bank_free[bank] : start;
				bank_free[bank] = t + 1;
				done = done > t + 1 ? done : t + 1;
			}
			cache[slot][bank] = f[i].reuse >> slot & 1 ? r : -1;
		}
		long long next = i ? issue[i - 1] + 1 : 0;
		issue[i] = next > done ? next : done;
	}
	double cycles = (double)(issue[n - 1] + 1) / n;
	free(issue);
	return cycles;
}

/* A register operand at *p ("R12" or "R12.reuse", then ", " or the end): 0 with *p past it, else -1
 * (RZ, an immediate, a constant bank). */
static int operand(const char **p, int *r, int *reuse)
{
	const char *s = *p;
	if (s[0] != 'R' || s[1] < '0' || s[1] > '9')
		return -1;
	char *end;
	*r = (int)strtol(s + 1, &end, 10);
	*reuse = !strncmp(end, ".reuse", 6);
	end += *reuse ? 6 : 0;
	if (*end == ',')
		end++;
	while (*end == ' ')
		end++;
	*p = end;
	return 0;
}

/* "FFMA R1, R2.reuse, R3, R4" (a guard before it allowed): 0 and *f, else -1 (an operand that is not
 * a register, or not an FFMA). */
static int parse_ffma(const char *text, regbank_ffma *f)
{
	const char *p = strstr(text, "FFMA ");
	if (!p || (p != text && p[-1] != ' '))
		return -1;
	p += 5;
	int r[4], ru[4];
	for (int i = 0; i < 4; i++)
		if (operand(&p, &r[i], &ru[i]) < 0)
			return -1;
	f->a = r[1], f->b = r[2], f->c = r[3];
	f->reuse = ru[1] | ru[2] << 1 | ru[3] << 2;
	return 0;
}

double regbank_ffma_cycles(const sass_kernel *k)
{
	regbank_ffma *f = malloc((size_t)(k->n > 0 ? k->n : 1) * sizeof *f);
	int n = 0;
	for (int i = 0; i < k->n; i++)
		n += parse_ffma(k->ins[i].text, &f[n]) == 0;
	double sum = 0;
	int pieces = 0;
	for (int at = 0; at + PIECE <= n; at += PIECE, pieces++)
		sum += regbank_stream_cycles(f + at, PIECE);
	if (!pieces && n)
		sum = regbank_stream_cycles(f, n), pieces = 1;
	free(f);
	return pieces ? sum / pieces : 1;
}
