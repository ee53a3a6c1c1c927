/* exec/report: one run's report — the JSON object and the command line's text — written by walking run/fields.c's table, so `run`, `run --emulate`, `emulate`, `bench` and the TUI show the same figures the same way. */
#ifndef PTXTUTOR_EXEC_REPORT_H
#define PTXTUTOR_EXEC_REPORT_H

#include <stdio.h>

#include "base/json.h"
#include "base/linediff.h"
#include "run/fields.h"

/* The run as one JSON object (key NULL at the top or in an array): every
 * field of the table, dotted keys nested ("emu": {"global_loads": {...}}),
 * a number not measured as null, "emu" null for a GPU run, "jit_log" only on
 * a JIT error, "cluster" [X, Y, Z] only with clusters. Callers may add keys
 * of their own inside (extra), before it is closed: pass a function or NULL. */
void exec_report_json(json_writer *w, const char *key, const run_report *rep,
		      void (*extra)(json_writer *w, void *ctx), void *ctx);

/* The run as CSV cells, the fields of keys (run/fields.c's) in that order,
 * each with a comma before it: the raw value (a number unrounded, "true" or
 * "false" for the verdict, a string quoted when it must be), an empty cell
 * for one not measured. The header is the keys themselves. */
void exec_report_csv_header(FILE *out, const char *const *keys, int n);
void exec_report_csv_row(FILE *out, const run_report *rep, const char *const *keys, int n);
/* One CSV cell of text: as it is, or quoted ("" for a quote) when it has a comma, a quote or a newline. */
void exec_report_csv_text(FILE *out, const char *s);

/* The kernel's printf lines (run_result.printed) under a heading; nothing when it printed none. */
void exec_report_printf(FILE *out, const run_printf *p);

/* The run as text for the command line. title: the lesson or the entry
 * demangled. A GPU run: its status line, types, device, launch, the kernel's
 * resources, the check and the times; an emulated one: "TITLE at MxNxK on the
 * CPU (types): VERIFIED|FAILED", its message, the check and the counts. */
void exec_report_text(FILE *out, const char *title, const run_request *rq, const run_result *res);

/* "f16→f32", and ", clusters of 2x1x1" when it has them: what a run
 * computes, as every report and table shows it. */
void exec_report_types(const run_request *rq, char *buf, size_t len);

/* The emulator's counts as text lines, indent before each (the run report
 * and `emulate` share them). */
void exec_report_counts(FILE *out, const run_report *rep, const char *indent);

/* The per-line figures (run/fields.h's run_line_fields) of an emulated run:
 * JSON as the object "per_line" (exec_report_json writes it for every
 * emulated run that has per-line rows; with rep->locs, each row's "cu_file"
 * and "cu_line" and the rows by CUDA line as "cu_lines"), CSV with a header row, or a text table with
 * each line's PTX (src: the file's lines, nsrc of them; may be NULL, 0). */
void exec_report_lines_json(json_writer *w, const run_report *rep);
void exec_report_lines_csv(FILE *out, const run_report *rep);
void exec_report_lines_text(FILE *out, const run_report *rep, const char *const *src, int nsrc);

/* The same rows summed by CUDA line (rep->locs, nvcc's .loc: `emulate
 * --lines --by cu`), so the two views never disagree: each CUDA line's
 * figures are the sum of its PTX lines', and a last row of line 0 holds the
 * PTX lines with none (and the summed row of line 0): the rows add up to the
 * totals. Returns the count, the rows in *out (free them), in file and line order. */
typedef struct {
	const char *file;         /* as nvcc recorded it; NULL on the last row */
	int line;
	run_line_counts c;
} exec_cu_row;
int exec_report_cu_rows(const run_report *rep, exec_cu_row **out);
/* As CSV (cu_file, cu_line, the figures) or a text table with each CUDA
 * line's source (the .cu found where nvcc recorded it or beside ptx_path). */
void exec_report_cu_csv(FILE *out, const run_report *rep);
void exec_report_cu_text(FILE *out, const run_report *rep, const char *ptx_path);

/* A run's per-line figures beside a baseline run's (`emulate --lines
 * --baseline FILE`, the tutor's PTX pane): one row per line with counts on
 * either side, in the run's PTX order, its lines matched to the baseline's
 * by d (base/linediff: the run's text as a, the baseline's as b), a baseline
 * line the edit removed where it was, and last the summed rows of the lines
 * left out (line 0 both sides). Returns the count, the rows in *out (free them). */
typedef struct {
	int line, base_line;                 /* 0: not in that text */
	const run_line_counts *run, *base;   /* NULL: no counts there */
} exec_baseline_row;
int exec_report_baseline_rows(const run_report *rep, const run_report *base, const linediff *d, exec_baseline_row **out);
/* The row's mark: "new" (the run's line only), "gone" (the baseline's only), "*" a figure differs, "" the same. */
const char *exec_baseline_mark(const exec_baseline_row *row);
/* The run's value of column f less the baseline's, signed and narrow ("+1.5k", "-32"), "" when the same; a
 * ratio measured on one side only is "+" (the run's) or "-" (the baseline's). */
char *exec_baseline_diff(const run_line_field *f, const run_line_counts *run, const run_line_counts *base, char *buf,
			 size_t len);
/* The rows as a text table (src, bsrc: the two files' lines, d->na and d->nb
 * of them): instructions, sectors, wavefronts and bank conflicts, each as the
 * run's, the baseline's and the difference, the mark and the line's PTX,
 * then the totals; or as CSV, every per-line figure (key, base_KEY, diff_KEY). */
void exec_report_baseline_text(FILE *out, const run_report *rep, const run_report *base, const linediff *d,
			       const char *const *src, const char *const *bsrc);
void exec_report_baseline_csv(FILE *out, const run_report *rep, const run_report *base, const linediff *d);

#endif
