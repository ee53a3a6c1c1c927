/* base/numfmt: numbers as the tutor writes them, in one place — significant digits, SI prefixes, fractions of K, sizes. */
#ifndef PTXTUTOR_BASE_NUMFMT_H
#define PTXTUTOR_BASE_NUMFMT_H

#include <stddef.h>

/* The rules, decided once for the lesson prose (model_format), the panes and
 * the command line:
 *
 * - A modelled or measured value shows NUMFMT_DIGITS significant digits
 *   ("0.25", "12.5", "3.99"); from 10^(NUMFMT_DIGITS-1) up to a million it
 *   shows all its integer digits and no decimals ("137", "1555", "4608"),
 *   never an exponent; beyond that range, an exponent ("1.23e+07").
 * - A count that is a whole number shows every digit ("8192").
 * - SI prefixes are powers of 1000 written k M G T P, lower-case k = 10^3
 *   ("1.5 kB", "17.2 GFLOP"). An upper-case K only ever means the problem
 *   dimension K, and only in the fraction form ("K/16", "9K/8").
 * - A fraction of K is p·K/q in lowest terms with the smallest q up to
 *   NUMFMT_KFRAC_MAX ("K", "2K", "K/16", "9K/8", "3K/256").
 *
 * Relative errors ("%.2g"), tolerances ("%.0e") and clock readings ("2.5 s")
 * are not values of this kind and stay as printf writes them.
 *
 * Every function writes a NUL-terminated string into buf (len > 0), cut to
 * fit, and returns buf. */

#define NUMFMT_DIGITS 3
#define NUMFMT_KFRAC_MAX 1024

/* v to NUMFMT_DIGITS significant digits; "n/a" when v is not finite. */
char *numfmt_sig(char *buf, size_t len, double v);
/* v to significant digits, a space and unit: "12.5 FLOP/B", "0.0123 ms". */
char *numfmt_unit(char *buf, size_t len, double v, const char *unit);
/* A count: every digit when v is a whole number, else numfmt_sig. */
char *numfmt_count(char *buf, size_t len, double v);
/* v with an SI prefix before unit (which may be ""): "512 B", "1.5 kB",
 * "17.2 GFLOP", "19.5 T". */
char *numfmt_si(char *buf, size_t len, double v, const char *unit);
/* v as a fraction of the problem dimension K ("K/16", "2K", "9K/8"); empty
 * when v is not one (or v <= 0, K <= 0). */
char *numfmt_kfrac(char *buf, size_t len, double v, long long K);
/* A fraction as a percentage: 0.5 → "50%", 0.6667 → "66.7%". */
char *numfmt_pct(char *buf, size_t len, double frac);
/* num/den as a value ("16.5" sectors per request); "0" when den is 0. */
char *numfmt_ratio(char *buf, size_t len, unsigned long long num, unsigned long long den);
/* A problem size: "4096³" when M = N = K ("4096^3" in ASCII), else "MxNxK". */
char *numfmt_size(char *buf, size_t len, long long M, long long N, long long K, int ascii);

#endif
