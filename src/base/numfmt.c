/* base/numfmt: significant digits, SI prefixes, fractions of K and problem sizes — the one number formatter (rules in numfmt.h). */
#include "base/numfmt.h"

#include <math.h>
#include <stdio.h>

char *numfmt_sig(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (a >= 1e6 || (a > 0 && a < 1e-3))
		snprintf(buf, len, "%.*g", NUMFMT_DIGITS, v);
	else if (a >= pow(10, NUMFMT_DIGITS - 1))
		snprintf(buf, len, "%.0f", v); /* "4608", not "4.61e+03" */
	else
		snprintf(buf, len, "%.*g", NUMFMT_DIGITS, v);
	return buf;
}

char *numfmt_unit(char *buf, size_t len, double v, const char *unit)
{
	char num[32];
	snprintf(buf, len, "%s %s", numfmt_sig(num, sizeof num, v), unit);
	return buf;
}

char *numfmt_count(char *buf, size_t len, double v)
{
	/* Counts from the model are sums of doubles: 4607.9999999 is 4608. */
	if (isfinite(v) && fabs(v) < 1e15 && fabs(v - round(v)) < 1e-9 * fmax(1, fabs(v)))
		snprintf(buf, len, "%.0f", round(v));
	else
		numfmt_sig(buf, len, v);
	return buf;
}

char *numfmt_si(char *buf, size_t len, double v, const char *unit)
{
	static const char *const prefix[] = {"", "k", "M", "G", "T", "P"};
	size_t p = 0;
	/* 999.7 k rounds to 1000 k: write it as 1 M instead. */
	while (isfinite(v) && fabs(v) >= 999.5 && p + 1 < sizeof prefix / sizeof prefix[0]) {
		v /= 1000;
		p++;
	}
	char num[32];
	numfmt_sig(num, sizeof num, v);
	if (*prefix[p] || *unit)
		snprintf(buf, len, "%s %s%s", num, prefix[p], unit);
	else
		snprintf(buf, len, "%s", num);
	return buf;
}

char *numfmt_kfrac(char *buf, size_t len, double v, long long K)
{
	buf[0] = '\0';
	if (!(v > 0) || K <= 0)
		return buf;
	double c = v / (double)K;
	/* The smallest denominator that works is the fraction in lowest terms. */
	for (int q = 1; q <= NUMFMT_KFRAC_MAX; q++) {
		double p = c * q;
		long long n = llround(p);
		if (n < 1 || fabs(p - (double)n) >= 1e-9 * fmax(p, 1))
			continue;
		char num[32];
		if (n == 1)
			snprintf(num, sizeof num, "K");
		else
			snprintf(num, sizeof num, "%lldK", n);
		if (q == 1)
			snprintf(buf, len, "%s", num);
		else
			snprintf(buf, len, "%s/%d", num, q);
		break;
	}
	return buf;
}

char *numfmt_pct(char *buf, size_t len, double frac)
{
	char num[32];
	snprintf(buf, len, "%s%%", numfmt_sig(num, sizeof num, 100 * frac));
	return buf;
}

char *numfmt_ratio(char *buf, size_t len, unsigned long long num, unsigned long long den)
{
	return numfmt_sig(buf, len, den ? (double)num / (double)den : 0);
}

char *numfmt_size(char *buf, size_t len, long long M, long long N, long long K, int ascii)
{
	if (M == N && N == K)
		snprintf(buf, len, "%lld%s", M, ascii ? "^3" : "\u00B3");
	else
		snprintf(buf, len, "%lldx%lldx%lld", M, N, K);
	return buf;
}
