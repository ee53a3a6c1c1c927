/* measured: the figures measured on a real GPU (assets/measured-h100.tsv), the one place lessons quote measurements from. */
#ifndef PTXTUTOR_MEASURED_H
#define PTXTUTOR_MEASURED_H

/* Keys, as placeholders ({measured.ms}) and through model_value/model_format:
 *   sass.[LN.]SCOPE.WORD   a SASS count of lesson N's kernel (course/sass.h
 *                          names them), the row with metric sass.SCOPE.WORD
 *   measured.METRIC        the lesson's own figure ("ms", "pct_cublas", ...)
 *   measured.LN.METRIC     lesson N's figure ("measured.L8.tflops")
 *   measured.gpu, .driver, .date, .command   (also measured.LN.gpu ...): of
 *                          the row with the lesson's `ms`, else the lesson's
 *                          first row, else the file's first row
 * METRIC is any name in the file's metric column, plus `tflops` (gflops / 1000). */

#define MEASURED_FILE "assets/measured-h100.tsv"

/* Loads the file (once; later calls return the same). Returns the number of
 * rows, or -1 with "file:line: message" in err. */
int measured_load(char *err, int errlen);
/* The same from text in memory (tests); replaces what was loaded. */
int measured_parse(const char *path, const char *text, char *err, int errlen);

/* Nonzero when key has the form of a measured.* key (the file need not have it). */
int measured_known(const char *key);
/* The number for lesson `lesson` (the default for measured.METRIC). Returns
 * 0, or -1 when the file has no such figure or the key is not numeric. */
int measured_value(int lesson, const char *key, double *out);
/* The figure for people, with its unit ("275 ms", "14.8%", "15.3×", "469
 * TFLOP/s"), or the text of gpu/driver/date/command; "n/a" when absent. */
void measured_format(int lesson, const char *key, char *buf, int len);

/* One row of the file as it is, for tests and the SASS check (the strings
 * live as long as the loaded file). */
typedef struct {
	const char *gpu, *driver, *date, *command;
	int lesson;
	long long size;           /* 0: no problem size (SASS counts) */
	const char *metric;
	double value;
	const char *unit;
} measured_info;
/* The i-th row (from 0); returns 0, or -1 past the last. */
int measured_row(int i, measured_info *out);

/* Rows with metric `ms`, for tests and the bench check: the i-th one's
 * lesson, size and value; returns 0, or -1 past the last. */
int measured_ms_row(int i, int *lesson, long long *size, double *ms);
/* Lesson `lesson`'s measured time at M = N = K = size (the `ms` row): 0 with
 * *ms, or -1 when the file has none. */
int measured_lesson_ms(int lesson, long long size, double *ms);

#endif
