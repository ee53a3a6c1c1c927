/* exec/report: a run's JSON and text, from run/fields.c's table and its one formatter. */
#include "exec/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/util.h"
#include "course/ptxloc.h"

/* The length of the object path of a dotted key ("emu.global_loads.sectors" → "emu.global_loads"). */
static size_t parent_len(const char *key)
{
	const char *dot = strrchr(key, '.');
	return dot ? (size_t)(dot - key) : 0;
}

/* The number of dot-separated parts in p[0..len) ("" has none). */
static int depth_of(const char *p, size_t len)
{
	int d = len > 0;
	for (size_t i = 0; i < len; i++)
		d += p[i] == '.';
	return d;
}

/* Closes the objects of the open path (dotted) down to what it shares with
 * want, then opens the rest of want; open becomes want. */
static void move_to(json_writer *w, char *open, size_t cap, const char *want, size_t wlen)
{
	size_t olen = strlen(open), common = 0;
	for (size_t i = 1; i <= olen && i <= wlen; i++)
		if ((i == olen || open[i] == '.') && (i == wlen || want[i] == '.') && !strncmp(open, want, i))
			common = i;
	for (int d = depth_of(open, olen) - depth_of(open, common); d > 0; d--)
		json_end(w);
	for (size_t at = common ? common + 1 : 0; at < wlen;) {
		const char *dot = memchr(want + at, '.', wlen - at);
		size_t n = dot ? (size_t)(dot - (want + at)) : wlen - at;
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)n, want + at);
		json_obj(w, name);
		at += n + 1;
	}
	snprintf(open, cap, "%.*s", (int)wlen, want);
}

/* The counts by kind (run_kind_fields) as the object "by_kind" in the open one. */
static void kinds_json(json_writer *w, const run_emu_kinds *k)
{
	int n;
	const run_kind_field *f = run_kind_fields(&n);
	char open[64] = "by_kind";
	json_obj(w, "by_kind");
	for (int i = 0; i < n; i++) {
		char want[96];
		snprintf(want, sizeof want, "by_kind.%s", f[i].key);
		move_to(w, open, sizeof open, want, parent_len(want));
		json_int(w, want + parent_len(want) + 1, *(const long long *)(const void *)((const char *)k + f[i].off));
	}
	move_to(w, open, sizeof open, "", 0);
}

/* One line's or region's figures as members of the open object. */
static void line_json(json_writer *w, const run_line_counts *l)
{
	int n;
	const run_line_field *f = run_line_fields(&n);
	for (int i = 0; i < n; i++) {
		double v = f[i].value(l);
		if (f[i].ratio)
			json_num(w, f[i].key, v);
		else
			json_int(w, f[i].key, (long long)v);
	}
}

void exec_report_lines_json(json_writer *w, const run_report *rep)
{
	json_obj(w, "per_line");
	json_int(w, "lines_total", rep->lines_total);
	json_int(w, "lines_summed", rep->nlines && !rep->lines[rep->nlines - 1].line ? rep->lines_total - rep->nlines + 1 : 0);
	json_arr(w, "lines");
	for (int i = 0; i < rep->nlines; i++) {
		const run_line_counts *l = &rep->lines[i];
		json_obj(w, NULL);
		if (l->line)
			json_int(w, "line", l->line);
		else
			json_null(w, "line");
		json_arr(w, "regions");
		for (int r = 0; r < rep->nregions; r++)
			if (l->regions & (1u << r))
				json_str(w, NULL, rep->regions[r].name);
		json_end(w);
		const char *file;
		int cu = ptx_loc_of(rep->locs, l->line, &file);
		if (cu) {
			json_str(w, "cu_file", file);
			json_int(w, "cu_line", cu);
		}
		line_json(w, l);
		json_end(w);
	}
	json_end(w);
	if (rep->locs) {
		exec_cu_row *rows;
		int nrows = exec_report_cu_rows(rep, &rows);
		json_arr(w, "cu_lines");
		for (int i = 0; i < nrows; i++) {
			json_obj(w, NULL);
			if (rows[i].file) {
				json_str(w, "cu_file", rows[i].file);
				json_int(w, "cu_line", rows[i].line);
			} else {
				json_null(w, "cu_file");
				json_null(w, "cu_line");
			}
			line_json(w, &rows[i].c);
			json_end(w);
		}
		json_end(w);
		free(rows);
	}
	json_arr(w, "regions");
	for (int r = 0; r < rep->nregions; r++) {
		json_obj(w, NULL);
		json_str(w, "name", rep->regions[r].name);
		json_int(w, "first_line", rep->regions[r].first_line);
		json_int(w, "last_line", rep->regions[r].last_line);
		line_json(w, &rep->regions[r].c);
		kinds_json(w, &rep->regions[r].by_kind);
		json_end(w);
	}
	json_end(w);
	json_end(w);
}

/* The per-line CSV's head (the row's first columns, then the fields) and a
 * row's cells (an empty cell where a figure does not apply), one place for
 * the rows by PTX line and by CUDA line. */
static void csv_head(FILE *out, const char *first, const run_line_field *f, int n)
{
	fputs(first, out);
	for (int i = 0; i < n; i++)
		fprintf(out, ",%s", f[i].key);
	fputc('\n', out);
}

static void csv_cells(FILE *out, const run_line_field *f, int n, const run_line_counts *c)
{
	for (int j = 0; j < n; j++) {
		double v = f[j].value(c);
		if (isnan(v))
			fputc(',', out);
		else
			fprintf(out, f[j].ratio ? ",%.4g" : ",%.0f", v);
	}
	fputc('\n', out);
}

void exec_report_lines_csv(FILE *out, const run_report *rep)
{
	int n;
	const run_line_field *f = run_line_fields(&n);
	csv_head(out, "line", f, n);
	for (int i = 0; i < rep->nlines; i++) {
		const run_line_counts *l = &rep->lines[i];
		if (l->line)
			fprintf(out, "%d", l->line);
		else
			fputs("other", out);
		csv_cells(out, f, n, l);
	}
}

void exec_report_lines_text(FILE *out, const run_report *rep, const char *const *src, int nsrc)
{
	int n;
	const run_line_field *f = run_line_fields(&n);
	char b[32];
	fprintf(out, "%5s", "line");
	if (rep->locs) /* the CUDA line nvcc recorded for each */
		fprintf(out, " %-14s", "CUDA");
	for (int i = 0; i < n; i++)
		fprintf(out, " %*s", f[i].width, f[i].head);
	fputs("  PTX\n", out);
	for (int i = 0; i < rep->nlines; i++) {
		const run_line_counts *l = &rep->lines[i];
		if (l->line)
			fprintf(out, "%5d", l->line);
		else
			fprintf(out, "%5s", "other");
		if (rep->locs) {
			const char *file;
			char at[64] = "-";
			int cu = ptx_loc_of(rep->locs, l->line, &file);
			if (cu) {
				const char *base = strrchr(file, '/');
				snprintf(at, sizeof at, "%s:%d", base ? base + 1 : file, cu);
			}
			fprintf(out, " %-14s", at);
		}
		for (int j = 0; j < n; j++)
			fprintf(out, " %*s", f[j].width, run_line_format(&f[j], l, b, sizeof b));
		const char *t = l->line > 0 && l->line <= nsrc ? src[l->line - 1] : "";
		while (*t == ' ' || *t == '\t')
			t++;
		if (l->line)
			fprintf(out, "  %s\n", t);
		else
			fprintf(out, "  (%d more lines, summed)\n", rep->lines_total - rep->nlines + 1);
	}
	for (int r = 0; r < rep->nregions; r++) {
		fprintf(out, "%*s", rep->locs ? 20 : 5, "");
		for (int j = 0; j < n; j++)
			fprintf(out, " %*s", f[j].width, run_line_format(&f[j], &rep->regions[r].c, b, sizeof b));
		fprintf(out, "  @%s (lines %d-%d)\n", rep->regions[r].name, rep->regions[r].first_line, rep->regions[r].last_line);
	}
}


/* A race's kind: the words of its message's "race (KIND):" (emu_race.c), "barrier" for
 * "shared-memory race:"; "" when the message is no race. */
static void race_kind(const char *msg, char *out, size_t n)
{
	const char *r = strstr(msg, "race (");
	const char *end = r ? strchr(r + 6, ')') : NULL;
	out[0] = 0;
	if (end && (size_t)(end - r - 6) < n)
		snprintf(out, n, "%.*s", (int)(end - r - 6), r + 6);
	else if (strstr(msg, "shared-memory race:"))
		snprintf(out, n, "barrier");
}

/* "where": the located problem as data (run_error), null when there is none. */
static void where_json(json_writer *w, const run_error *e)
{
	char kind[32];
	if (!e) {
		json_null(w, "where");
		return;
	}
	json_obj(w, "where");
	json_str(w, "path", e->path);
	json_int(w, "line", e->line);
	if (e->cu_line > 0) {
		json_str(w, "cu_file", e->cu_path);
		json_int(w, "cu_line", e->cu_line);
		json_str(w, "cu_text", e->cu_text);
	}
	if (e->line2 > 0)
		json_int(w, "other_line", e->line2);
	if (e->cu_line2 > 0)
		json_int(w, "other_cu_line", e->cu_line2);
	if (e->has_block) {
		json_arr(w, "block");
		for (int i = 0; i < 3; i++)
			json_int(w, NULL, e->block[i]);
		json_end(w);
	}
	if (e->warp >= 0)
		json_int(w, "warp", e->warp);
	race_kind(e->msg, kind, sizeof kind);
	if (kind[0])
		json_str(w, "kind", kind);
	json_str(w, "message", e->msg);
	json_end(w);
}

static int cu_order(const void *a, const void *b)
{
	const exec_cu_row *x = a, *y = b;
	if (!x->file || !y->file)
		return !x->file - !y->file; /* the row of no CUDA line last */
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

int exec_report_cu_rows(const run_report *rep, exec_cu_row **out)
{
	exec_cu_row *rows = xcalloc((size_t)rep->nlines + 1, sizeof *rows);
	int n = 0;
	for (int i = 0; i < rep->nlines; i++) {
		const char *file = NULL;
		int line = ptx_loc_of(rep->locs, rep->lines[i].line, &file);
		if (!line)
			file = NULL;
		int k = 0;
		while (k < n && !(rows[k].line == line && rows[k].file == file)) /* one string per file: pointers compare */
			k++;
		if (k == n) {
			rows[n].file = file;
			rows[n++].line = line;
		}
		run_line_add(&rows[k].c, &rep->lines[i]);
	}
	qsort(rows, (size_t)n, sizeof *rows, cu_order);
	for (int i = 0; i < n; i++)
		rows[i].c.line = rows[i].line, rows[i].c.regions = 0;
	*out = rows;
	return n;
}

void exec_report_cu_csv(FILE *out, const run_report *rep)
{
	int n;
	const run_line_field *f = run_line_fields(&n);
	csv_head(out, "cu_file,cu_line", f, n);
	exec_cu_row *rows;
	int nrows = exec_report_cu_rows(rep, &rows);
	for (int i = 0; i < nrows; i++) {
		if (rows[i].file)
			exec_report_csv_text(out, rows[i].file), fprintf(out, ",%d", rows[i].line);
		else
			fputs("other,", out);
		csv_cells(out, f, n, &rows[i].c);
	}
	free(rows);
}

void exec_report_cu_text(FILE *out, const run_report *rep, const char *ptx_path)
{
	int n;
	const run_line_field *f = run_line_fields(&n);
	char b[32];
	fprintf(out, "%-16s", "CUDA line");
	for (int i = 0; i < n; i++)
		fprintf(out, " %*s", f[i].width, f[i].head);
	fputs("  source\n", out);
	exec_cu_row *rows;
	int nrows = exec_report_cu_rows(rep, &rows);
	const char *text_of = NULL; /* the .cu last read, and its text */
	char *text = NULL;
	for (int i = 0; i < nrows; i++) {
		const exec_cu_row *r = &rows[i];
		char where[64], src[160] = "";
		if (r->file) {
			const char *base = strrchr(r->file, '/');
			snprintf(where, sizeof where, "%s:%d", base ? base + 1 : r->file, r->line);
			if (r->file != text_of) {
				char path[RUN_PATH];
				free(text);
				text = ptx_loc_source(r->file, ptx_path, path, sizeof path) ? NULL : util_read_file(path, NULL, NULL, 0);
				text_of = r->file;
			}
			if (!text || ptx_loc_text_line(text, r->line, src, sizeof src))
				src[0] = 0;
		} else {
			snprintf(where, sizeof where, "(no CUDA line)");
		}
		fprintf(out, "%-16s", where);
		for (int j = 0; j < n; j++)
			fprintf(out, " %*s", f[j].width, run_line_format(&f[j], &r->c, b, sizeof b));
		fprintf(out, "  %s\n", r->file ? src : "PTX lines nvcc gave no .loc (and any summed row)");
	}
	free(text);
	free(rows);
}

/* The kernel's printf output: "printf": {"lines": [...], "dropped": n}, there (empty) for every run. */
static void printf_json(json_writer *w, const run_printf *p)
{
	json_obj(w, "printf");
	json_arr(w, "lines");
	for (const char *t = p ? p->text : ""; *t;) {
		size_t n = strcspn(t, "\n");
		char line[RUN_PRINTF_BYTES];
		snprintf(line, sizeof line, "%.*s", (int)n, t);
		json_str(w, NULL, line);
		t += n + (t[n] == '\n');
	}
	json_end(w);
	json_int(w, "dropped", p ? p->dropped : 0);
	json_end(w);
}

void exec_report_printf(FILE *out, const run_printf *p)
{
	if (!p->lines && !p->dropped)
		return;
	fprintf(out, "  printf (%d line%s", p->lines, p->lines == 1 ? "" : "s");
	if (p->dropped)
		fprintf(out, "; %lld more not kept", p->dropped);
	fprintf(out, "):\n");
	for (const char *t = p->text; *t;) {
		size_t n = strcspn(t, "\n");
		fprintf(out, "    %.*s\n", (int)n, t);
		t += n + (t[n] == '\n');
	}
}

void exec_report_json(json_writer *w, const char *key, const run_report *rep,
		      void (*extra)(json_writer *w, void *ctx), void *ctx)
{
	int n;
	const run_field *f = run_fields(&n);
	char open[128] = "";
	json_obj(w, key);
	for (int i = 0; i < n; i++) {
		const char *leaf = f[i].key + parent_len(f[i].key) + (parent_len(f[i].key) ? 1 : 0);
		if (!strncmp(f[i].key, "emu.", 4) && !rep->has_counts) {
			if (!open[0] && (i == 0 || strncmp(f[i - 1].key, "emu.", 4)))
				json_null(w, "emu");
			continue;
		}
		move_to(w, open, sizeof open, f[i].key, parent_len(f[i].key));
		const char *p = (const char *)rep + f[i].off;
		if (!run_field_present(&f[i], rep)) {
			if (f[i].type != RUN_T_STR)
				json_null(w, leaf);
		} else if (f[i].type == RUN_T_STR) {
			json_str(w, leaf, *(const char *const *)(const void *)p);
		} else if (f[i].type == RUN_T_LL) {
			json_int(w, leaf, *(const long long *)(const void *)p);
		} else if (f[i].type == RUN_T_DBL) {
			json_num(w, leaf, *(const double *)(const void *)p);
		} else {
			int v = *(const int *)(const void *)p;
			if (v < 0)
				json_null(w, leaf);
			else
				json_bool(w, leaf, v);
		}
	}
	if (rep->has_counts) { /* the emu.* rows are the table's last (test_report): by_kind closes "emu" */
		move_to(w, open, sizeof open, "emu", 3);
		kinds_json(w, rep->by_kind);
	}
	move_to(w, open, sizeof open, "", 0);
	if (rep->has_counts && rep->nlines)
		exec_report_lines_json(w, rep);
	else
		json_null(w, "per_line"); /* one schema: the key is there, without rows */
	where_json(w, rep->where);
	printf_json(w, rep->printed);
	if (rep->cluster[0] * rep->cluster[1] * rep->cluster[2] > 1) {
		json_arr(w, "cluster");
		for (int i = 0; i < 3; i++)
			json_int(w, NULL, rep->cluster[i]);
		json_end(w);
	}
	if (extra)
		extra(w, ctx);
	json_end(w);
}

void exec_report_csv_header(FILE *out, const char *const *keys, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(out, ",%s", keys[i]);
}

/* A CSV cell: quoted when it holds a comma, a quote or a line break. */
void exec_report_csv_text(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++)
		fprintf(out, *s == '"' ? "\"\"" : "%c", *s);
	fputc('"', out);
}

void exec_report_csv_row(FILE *out, const run_report *rep, const char *const *keys, int n)
{
	for (int i = 0; i < n; i++) {
		const run_field *f = run_field_find(keys[i]);
		fputc(',', out);
		if (!f || !run_field_present(f, rep))
			continue;
		const char *p = (const char *)rep + f->off;
		if (f->type == RUN_T_STR)
			exec_report_csv_text(out, *(const char *const *)(const void *)p);
		else if (f->type == RUN_T_LL)
			fprintf(out, "%lld", *(const long long *)(const void *)p);
		else if (f->type == RUN_T_DBL)
			fprintf(out, "%.6g", *(const double *)(const void *)p);
		else if (*(const int *)(const void *)p >= 0)
			fputs(*(const int *)(const void *)p ? "true" : "false", out);
	}
}

void exec_report_types(const run_request *rq, char *buf, size_t len)
{
	unsigned c[3];
	char t[32];
	dtype_pair_name(rq->dt, run_out(rq), t, sizeof t);
	if (run_cluster(rq, c) > 1)
		snprintf(buf, len, "%s, clusters of %ux%ux%u", t, c[0], c[1], c[2]);
	else
		snprintf(buf, len, "%s", t);
}

void exec_report_counts(FILE *out, const run_report *rep, const char *indent)
{
	char a[48], b[48], c[48];
	/* A kernel whose loads (or stores) all go through TMA has no per-thread
	 * requests: say where they went rather than a row of zeros (the TMA row below) */
	if (!rep->gld_requests && rep->tma_l2_bytes)
		fprintf(out, "%sglobal loads   none per thread: A and B come in through TMA (below)\n", indent);
	else
		fprintf(out, "%sglobal loads   %s requests, %s sectors: %s sectors/request\n", indent,
			run_figure(rep, "emu.global_loads.requests", a, sizeof a),
			run_figure(rep, "emu.global_loads.sectors", b, sizeof b),
			run_figure(rep, "emu.global_loads.sectors_per_request", c, sizeof c));
	if (!rep->gst_requests && rep->tma_store_bytes)
		fprintf(out, "%sglobal stores  none per thread: C goes out through TMA (below)\n", indent);
	else
		fprintf(out, "%sglobal stores  %s requests, %s sectors: %s sectors/request\n", indent,
			run_figure(rep, "emu.global_stores.requests", a, sizeof a),
			run_figure(rep, "emu.global_stores.sectors", b, sizeof b),
			run_figure(rep, "emu.global_stores.sectors_per_request", c, sizeof c));
	static const char *const sides[][2] = {{"shared loads ", "emu.shared_loads"}, {"shared stores", "emu.shared_stores"}};
	for (size_t i = 0; i < ARRAY_LEN(sides); i++) {
		char k1[64], k2[64], k3[64], d[48];
		snprintf(k1, sizeof k1, "%s.requests", sides[i][1]);
		snprintf(k2, sizeof k2, "%s.wavefronts_per_request", sides[i][1]);
		snprintf(k3, sizeof k3, "%s.bank_conflicts", sides[i][1]);
		fprintf(out, "%s%s  %s requests: %s wavefronts/request, %s bank conflicts\n", indent, sides[i][0],
			run_figure(rep, k1, a, sizeof a), run_figure(rep, k2, b, sizeof b), run_figure(rep, k3, d, sizeof d));
	}
	fprintf(out, "%sinstructions   %s (per warp); %s races; %s\n", indent, run_figure(rep, "emu.instructions", a, sizeof a),
		run_figure(rep, "emu.races", b, sizeof b), run_figure(rep, "emu.seconds", c, sizeof c));
	if (rep->tma_l2_bytes || rep->tma_store_bytes || rep->mbarrier_ops || rep->cluster_barriers) { /* Hopper kernels */
		char d[48], e[48];
		fprintf(out, "%sTMA            %s bytes from L2, %s into shared memory, %s stored; %s mbarrier ops, %s "
			"cluster barriers\n", indent, run_figure(rep, "emu.tma.l2_bytes", a, sizeof a),
			run_figure(rep, "emu.tma.smem_bytes", b, sizeof b), run_figure(rep, "emu.tma.store_bytes", c, sizeof c),
			run_figure(rep, "emu.mbarrier_ops", d, sizeof d), run_figure(rep, "emu.cluster_barriers", e, sizeof e));
	}
}

/* The counts by kind as a table, from run_kind_fields' keys: global rows
 * (requests, sectors), shared rows (requests, wavefronts, conflicts), the
 * instructions per class; inst: the warp instructions in all. */
static void kinds_text(FILE *out, const run_emu_kinds *k, long long inst, const char *indent)
{
	static const struct {
		const char *label, *key;
		int shared, always;
	} rows[] = {
		{"global loads", "global_load", 0, 1}, {"global stores", "global_store", 0, 1},
		{"cp.async reads", "cp_async_read", 0, 0}, {"local loads", "local_load", 0, 0},
		{"local stores", "local_store", 0, 0}, {"shared loads", "shared_load", 1, 1},
		{"shared stores", "shared_store", 1, 1}, {"ldmatrix", "ldmatrix", 1, 0},
		{"cp.async writes", "cp_async_write", 1, 0},
	};
	char key[96];
	for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
		long long v[3];
		const char *cols[2][3] = {{"requests", "sectors", ""}, {"requests", "wavefronts", "bank_conflicts"}};
		for (int c = 0; c < 3; c++) {
			snprintf(key, sizeof key, "%s.%s", rows[i].key, cols[rows[i].shared][c]);
			v[c] = c < 2 || rows[i].shared ? run_kind_value(k, key) : 0;
		}
		if (i == 0 || rows[i].shared != rows[i - 1].shared) /* each side's heading */
			fprintf(out, "%s%-16s %12s %12s %9s\n", indent, "", "requests", rows[i].shared ? "wavefronts" : "sectors",
				rows[i].shared ? "conflicts" : "sect/req");
		if (!v[0] && !rows[i].always)
			continue;
		if (rows[i].shared)
			fprintf(out, "%s%-16s %12lld %12lld %9lld\n", indent, rows[i].label, v[0], v[1], v[2]);
		else
			fprintf(out, "%s%-16s %12lld %12lld %9.2f\n", indent, rows[i].label, v[0], v[1],
				v[0] ? (double)v[1] / (double)v[0] : 0.0);
	}
	fprintf(out, "%sinstructions (per warp): %lld;", indent, inst);
	int n;
	const run_kind_field *f = run_kind_fields(&n);
	for (int i = 0; i < n; i++)
		if (!strncmp(f[i].key, "instructions.", 13) && strcmp(f[i].key, "instructions.thread_total")) {
			long long v = run_kind_value(k, f[i].key);
			if (v)
				fprintf(out, " %s %lld", f[i].key + 13, v);
		}
	fprintf(out, "; barriers %lld\n", run_kind_value(k, "barriers"));
	if (k->wgmma_inst)
		fprintf(out, "%swgmma (per warpgroup): %lld, %lld FLOPs, %lld shared operand bytes (%lld wavefronts)\n", indent,
			k->wgmma_inst, k->wgmma_flops, k->wgmma_smem_bytes, k->wgmma_smem_wavefronts);
}

/* An emulated run: the verdict, the check, the totals, then by kind and per region. */
static void emulated_text(FILE *out, const char *title, const run_request *rq, const run_result *res,
			  const run_report *rep)
{
	char t[64], a[48], b[48], c[48], d[48];
	exec_report_types(rq, t, sizeof t);
	fprintf(out, "%s at %lldx%lldx%lld on the CPU (%s): %s\n", title, rq->M, rq->N, rq->K, t,
		res->verified == 1 ? "VERIFIED" : "FAILED");
	fprintf(out, "  %s\n", res->msg);
	exec_report_printf(out, &res->printed);
	if (!rep->has_counts)
		return;
	if (res->verified >= 0)
		fprintf(out, "  rel. error %s (tolerance %s); %s; grid %ux%ux%u, block %ux%ux%u, %s warps\n",
			run_figure(rep, "rel_error", a, sizeof a), run_figure(rep, "tolerance", b, sizeof b),
			run_figure(rep, "emu.seconds", c, sizeof c), res->grid[0], res->grid[1], res->grid[2], rq->block[0],
			rq->block[1], rq->block[2], run_figure(rep, "emu.warps", d, sizeof d));
	if (rep->races > 1)
		fprintf(out, "  %lld racing accesses in all\n", rep->races);
	exec_report_counts(out, rep, "  ");
	fprintf(out, "  by kind:\n");
	kinds_text(out, rep->by_kind, rep->inst, "    ");
	for (int r = 0; r < rep->nregions; r++) {
		const run_region_counts *g = &rep->regions[r];
		fprintf(out, "  region @%s (lines %d-%d):\n", g->name, g->first_line, g->last_line);
		kinds_text(out, &g->by_kind, (long long)g->c.inst, "    ");
	}
	if (res->log[0] && res->status == RUN_WRONG)
		fprintf(out, "  %s\n", res->log);
}

void exec_report_text(FILE *out, const char *title, const run_request *rq, const run_result *res)
{
	run_report rep;
	run_report_make(&rep, rq, res, 0);
	if (res->backend == RUN_BACKEND_EMU) {
		emulated_text(out, title, rq, res, &rep);
		return;
	}
	char t[64], a[48], b[48], c[48];
	exec_report_types(rq, t, sizeof t);
	fprintf(out, "%s %s: %s\n", rq->entry, run_status_name(res->status), res->msg);
	fprintf(out, "  types      %s\n", t);
	if (res->gpu[0])
		fprintf(out, "  gpu        %s (sm_%d%d)\n", res->gpu, res->cc_major, res->cc_minor);
	if (res->status == RUN_JIT_ERROR || (res->status != RUN_OK && res->log[0]))
		fprintf(out, "  JIT log:\n%s\n", res->log);
	exec_report_printf(out, &res->printed);
	if (res->status != RUN_OK && res->status != RUN_WRONG)
		return;
	fprintf(out, "  launch     grid %u,%u,%u%s  block %u,%u,%u  dynamic smem %u B\n", res->grid[0], res->grid[1],
		res->grid[2], rq->persistent ? " (persistent: one block per SM slot)" : "", rq->block[0], rq->block[1],
		rq->block[2], rq->smem);
	fprintf(out, "  kernel     %d registers/thread, %d B static smem, %d B local, %d blocks/SM (driver)\n",
		res->regs, res->smem_static, res->local_bytes, res->blocks_per_sm);
	if (res->verified >= 0)
		fprintf(out, "  check      rel. error %s (tolerance %s): %s\n", run_figure(&rep, "rel_error", a, sizeof a),
			run_figure(&rep, "tolerance", b, sizeof b), run_figure(&rep, "verified", c, sizeof c));
	if (res->gflops > 0) {
		fprintf(out, "  time       %s, %s GFLOP/s (median of %d)\n", run_figure(&rep, "ms", a, sizeof a),
			run_figure(&rep, "gflops", b, sizeof b), res->repeats);
		if (res->cublas_gflops > 0) {
			char d[48];
			const char *ref = dtype_reference(rq->dt);
			fprintf(out, "  %-10s %s, %s GFLOP/s -> ours is %s of %s\n", ref, run_figure(&rep, "cublas_ms", a, sizeof a),
				run_figure(&rep, "cublas_gflops", b, sizeof b), run_figure(&rep, "pct_of_cublas", d, sizeof d), ref);
		}
	}
	(void)c;
}

/* ---- a run's per-line figures beside a baseline's (emulate --lines --baseline, the PTX pane) ---- */

/* rep's row of each line 1..n, NULL where it has none. */
static const run_line_counts **rows_by_line(const run_report *rep, int n)
{
	const run_line_counts **by = xcalloc((size_t)n + 1, sizeof *by);
	for (int i = 0; rep && i < rep->nlines; i++)
		if (rep->lines[i].line > 0 && rep->lines[i].line <= n)
			by[rep->lines[i].line] = &rep->lines[i];
	return by;
}

/* rep's summed row of line 0 (the lines left out), or NULL. */
static const run_line_counts *rest_row(const run_report *rep)
{
	for (int i = 0; rep && i < rep->nlines; i++)
		if (!rep->lines[i].line)
			return &rep->lines[i];
	return NULL;
}

int exec_report_baseline_rows(const run_report *rep, const run_report *base, const linediff *d, exec_baseline_row **out)
{
	const run_line_counts **r = rows_by_line(rep, d->na), **b = rows_by_line(base, d->nb);
	exec_baseline_row *rows = xcalloc((size_t)d->na + (size_t)d->nb + 1, sizeof *rows);
	int n = 0, j = 1;
#define EMIT(li, bl)                                                                                    \
	do {                                                                                            \
		const run_line_counts *x_ = (li) ? r[li] : NULL, *y_ = (bl) ? b[bl] : NULL;             \
		if (x_ || y_)                                                                           \
			rows[n++] = (exec_baseline_row){(li), (bl), x_, y_};                            \
	} while (0)
	for (int i = 1; i <= d->na; i++) {
		int m = d->a_to_b[i];
		for (; m && j < m; j++) /* the baseline's lines the edit removed, where they were */
			EMIT(0, j);
		j = m ? m + 1 : j;
		EMIT(i, m);
	}
	for (; j <= d->nb; j++)
		if (!d->b_to_a[j])
			EMIT(0, j);
#undef EMIT
	const run_line_counts *x = rest_row(rep), *y = rest_row(base);
	if (x || y)
		rows[n++] = (exec_baseline_row){0, 0, x, y};
	free(r);
	free(b);
	*out = rows;
	return n;
}

/* What a row's mark says: the line is the edit's own, the baseline's only, or a figure differs. */
const char *exec_baseline_mark(const exec_baseline_row *row)
{
	static const run_line_counts none;
	const run_line_counts *x = row->run ? row->run : &none, *y = row->base ? row->base : &none;
	if (row->line && !row->base_line)
		return "new";
	if (!row->line && row->base_line)
		return "gone";
	int differ = x->inst != y->inst || x->threads != y->threads || x->g_requests != y->g_requests ||
		     x->g_sectors != y->g_sectors || x->s_requests != y->s_requests ||
		     x->s_wavefronts != y->s_wavefronts || x->s_conflicts != y->s_conflicts || x->bytes != y->bytes;
	return differ ? "*" : "";
}

char *exec_baseline_diff(const run_line_field *f, const run_line_counts *run, const run_line_counts *base, char *buf,
			 size_t len)
{
	static const run_line_counts none;
	double a = f->value(run ? run : &none), b = f->value(base ? base : &none);
	buf[0] = 0;
	if (isnan(a) || isnan(b) || a == b) {
		if (isnan(a) != isnan(b))
			util_strlcpy(buf, isnan(a) ? "-" : "+", len); /* measured on one side only */
		return buf;
	}
	double v = a - b;
	char t[48], *o = buf;
	if (f->ratio)
		snprintf(t, sizeof t, "%+.*f", v == floor(v) ? 0 : 1, v);
	else {
		char m[32];
		numfmt_si(m, sizeof m, fabs(v), "");
		snprintf(t, sizeof t, "%c%s", v < 0 ? '-' : '+', m);
	}
	for (const char *p = t; *p && (size_t)(o - buf) + 1 < len; p++)
		if (*p != ' ')
			*o++ = *p;
	*o = 0;
	return buf;
}

/* The columns the text table compares: what the lessons teach to watch. */
static const char *const baseline_keys[] = {"instructions", "sectors", "wavefronts", "bank_conflicts"};

static const run_line_field *line_field(const char *key)
{
	int n;
	const run_line_field *f = run_line_fields(&n);
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return &f[i];
	return NULL;
}

/* One row's cells: for each column, the run's, the baseline's and the difference. */
static void baseline_cells(FILE *out, const run_line_counts *x, const run_line_counts *y)
{
	static const run_line_counts none;
	char v[32];
	for (size_t k = 0; k < ARRAY_LEN(baseline_keys); k++) {
		const run_line_field *f = line_field(baseline_keys[k]);
		fprintf(out, " %6s", x ? run_line_format(f, x, v, sizeof v) : "");
		fprintf(out, " %6s", y ? run_line_format(f, y, v, sizeof v) : "");
		fprintf(out, " %6s", exec_baseline_diff(f, x ? x : &none, y ? y : &none, v, sizeof v));
	}
}

void exec_report_baseline_text(FILE *out, const run_report *rep, const run_report *base, const linediff *d,
			       const char *const *src, const char *const *bsrc)
{
	exec_baseline_row *rows;
	int n = exec_report_baseline_rows(rep, base, d, &rows);
	fprintf(out, "%5s %5s", "line", "base");
	for (size_t k = 0; k < ARRAY_LEN(baseline_keys); k++) {
		const run_line_field *f = line_field(baseline_keys[k]);
		fprintf(out, " %6s %6s %6s", f->head, "base", "diff");
	}
	fputs("  mark  PTX\n", out);
	run_line_counts sx = {0}, sy = {0};
	for (int i = 0; i < n; i++) {
		const exec_baseline_row *r = &rows[i];
		char a[16] = "-", b[16] = "-";
		if (r->line)
			snprintf(a, sizeof a, "%d", r->line);
		if (r->base_line)
			snprintf(b, sizeof b, "%d", r->base_line);
		if (!r->line && !r->base_line)
			snprintf(a, sizeof a, "other");
		fprintf(out, "%5s %5s", a, b);
		baseline_cells(out, r->run, r->base);
		const char *t = r->line ? src[r->line - 1] : r->base_line ? bsrc[r->base_line - 1] : "(the lines left out, summed)";
		while (*t == ' ' || *t == '\t')
			t++;
		fprintf(out, "  %-4s  %s\n", exec_baseline_mark(r), t);
		if (r->run)
			run_line_add(&sx, r->run);
		if (r->base)
			run_line_add(&sy, r->base);
	}
	fprintf(out, "%11s", "total");
	baseline_cells(out, &sx, &sy);
	fputs("\n", out);
	free(rows);
}

void exec_report_baseline_csv(FILE *out, const run_report *rep, const run_report *base, const linediff *d)
{
	int nf;
	const run_line_field *f = run_line_fields(&nf);
	exec_baseline_row *rows;
	int n = exec_report_baseline_rows(rep, base, d, &rows);
	fputs("line,base_line,mark", out);
	for (int k = 0; k < nf; k++)
		fprintf(out, ",%s,base_%s,diff_%s", f[k].key, f[k].key, f[k].key);
	fputs("\n", out);
	for (int i = 0; i < n; i++) {
		const exec_baseline_row *r = &rows[i];
		if (r->line || r->base_line)
			fprintf(out, "%d,%d,%s", r->line, r->base_line, exec_baseline_mark(r));
		else
			fprintf(out, "other,other,%s", exec_baseline_mark(r));
		for (int k = 0; k < nf; k++) {
			double a = r->run ? f[k].value(r->run) : NAN, b = r->base ? f[k].value(r->base) : NAN;
			fputc(',', out);
			if (!isnan(a))
				fprintf(out, "%.17g", a);
			fputc(',', out);
			if (!isnan(b))
				fprintf(out, "%.17g", b);
			fputc(',', out);
			if (!isnan(a) || !isnan(b))
				fprintf(out, "%.17g", (isnan(a) ? 0 : a) - (isnan(b) ? 0 : b));
		}
		fputs("\n", out);
	}
	free(rows);
}
