/* run/fields: a run's figures as one table — key, type, offset, format, help (model.c's keys[] idea applied to results) — walked by the TUI's run pane, the CLI text and the JSON writer, so every figure is written by one function. */
#ifndef PTXTUTOR_RUN_FIELDS_H
#define PTXTUTOR_RUN_FIELDS_H

#include <stddef.h>

#include "run/run.h"

/* What a report shows of one run: the request's and the result's values and
 * the figures derived from them, as plain data. NaN: not measured (JSON
 * null, text "n/a"). Strings point into the request and result it was made
 * from; a NULL string is left out. */
typedef struct {
	const char *entry, *ptx, *status, *message, *gpu, *backend, *dtype, *out, *jit_log;
	long long M, N, K;
	long long registers, smem_static, smem_dynamic, local_bytes, blocks_per_sm, repeats, block, cublas_block;
	double spread, cublas_spread;
	const char *timing;
	double ms, gflops, cublas_ms, cublas_gflops, pct_of_cublas, speedup;
	const char *reference;    /* the reference's name (run_result.ref_name); NULL untimed */
	double sm_mhz, pct_of_peak, cublas_pct_of_peak;
	double rel_error, tolerance;
	const char *consistent_with; /* a small error's likely cause (run/diagnose.h); NULL: none */
	int verified;             /* 1 pass, 0 fail, -1 not checked (null) */
	int has_counts;           /* the emu.* fields hold the emulator's counts (run_has_counts) */
	unsigned cluster[3];      /* blocks per cluster, 1 on every side: none */
	/* The emulator's counts as Nsight Compute would report them (run_emu_counts) */
	long long gld_requests, gld_sectors, gst_requests, gst_sectors;
	long long sld_requests, sld_wavefronts, sld_conflicts, sst_requests, sst_wavefronts, sst_conflicts;
	long long inst, races;
	long long tma_l2_bytes, tma_smem_bytes, tma_store_bytes, mbarrier_ops, cluster_barriers;
	double gld_per_request, gst_per_request, sld_per_request, sst_per_request, emu_seconds;
	long long warps;
	const run_emu_kinds *by_kind; /* the same counts by kind (run_kind_fields); NULL without counts */
	/* Per PTX line and per `@` region (run_result's, emulated runs only) */
	const run_line_counts *lines;
	int nlines, lines_total;
	const run_region_counts *regions;
	int nregions;
	const run_error *where;   /* the emulator's located problem (a race's too); NULL: none */
	const struct ptx_locs *locs; /* the CUDA line of each PTX line (course/ptxloc.h), set by who read the PTX; NULL: none */
	const run_printf *printed; /* the kernel's printf lines (run_result's) */
} run_report;

typedef enum { RUN_T_STR, RUN_T_LL, RUN_T_DBL, RUN_T_VERDICT } run_field_type;

/* How a figure is written (run_field_format), through base/numfmt. */
typedef enum {
	RUN_F_TEXT,               /* as it is */
	RUN_F_COUNT,              /* every digit */
	RUN_F_SIG,                /* NUMFMT_DIGITS significant digits: GFLOP/s, ratios */
	RUN_F_MS,                 /* "0.0123 ms" */
	RUN_F_PCT,                /* a percentage (the value is in percent): "66.7%" */
	RUN_F_TIMES,              /* a speed-up: "2.5x" */
	RUN_F_RELERR,             /* a relative error, "%.3g" (numfmt.h: not a value of its kind) */
	RUN_F_TOL,                /* a tolerance, "%.0e" */
	RUN_F_SECONDS,            /* a clock reading, "2.50 s" */
	RUN_F_VERDICT,            /* "PASS", "FAIL", "not checked" */
} run_field_fmt;

typedef struct {
	const char *key;          /* the JSON key; a dot nests ("emu.gld.sectors") */
	run_field_type type;
	size_t off;               /* offsetof(run_report, ...) */
	run_field_fmt fmt;
	const char *help;         /* what it is, for docs/json.md */
} run_field;

/* A column of the per-line figures (run_line_counts), walked by the JSON
 * and CSV writers, `emulate --lines` and the PTX pane: one table, one
 * value function. */
typedef struct {
	const char *key;          /* JSON key and CSV header */
	const char *head;         /* the pane's and the text table's column heading */
	int width;                /* the pane's column width */
	int ratio;                /* 1: a ratio (JSON number, n/a without requests); 0: a count */
	double (*value)(const run_line_counts *l); /* NaN when it does not apply */
	const char *help;         /* for docs/json.md */
} run_line_field;

const run_line_field *run_line_fields(int *n);

/* A member of run_emu_kinds, the counts by kind: its key under
 * "emu.by_kind" (dotted: "global_load.requests"), walked by the JSON writer
 * and the text table of exec/report.c, for the whole run and per region. */
typedef struct {
	const char *key;
	size_t off;               /* offsetof(run_emu_kinds, ...), a long long */
	const char *help;         /* for docs/json.md */
} run_kind_field;

const run_kind_field *run_kind_fields(int *n);
/* The value of the member of that key in k; -1 for a key not in the table. */
long long run_kind_value(const run_emu_kinds *k, const char *key);
/* The value formatted for a narrow column ("1.2M", "32", "-" for none). */
char *run_line_format(const run_line_field *f, const run_line_counts *l, char *buf, size_t len);

/* The table, in the order every report shows it; *n gets its length. */
const run_field *run_fields(int *n);
/* The field of that key, or NULL. */
const run_field *run_field_find(const char *key);

/* Fills rep from a request and its result; prev_gflops > 0 gives speedup.
 * rq may be NULL (the TUI knows the result only): entry, sizes and types stay empty. */
void run_report_make(run_report *rep, const run_request *rq, const run_result *res, double prev_gflops);

/* The field's value in rep as every report writes it: into buf, returned.
 * "n/a" for a number that was not measured. */
char *run_field_format(const run_field *f, const run_report *rep, char *buf, size_t len);
/* The same by key; "?" for a key not in the table. */
char *run_figure(const run_report *rep, const char *key, char *buf, size_t len);

/* Whether the field has a value in rep: a non-NULL string, a number that is
 * not NaN; the emu.* fields only with the emulator's counts. */
int run_field_present(const run_field *f, const run_report *rep);

#endif
