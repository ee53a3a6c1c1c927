/* test_report: one run report — the field table's formatter, one JSON schema for GPU and emulated runs, and docs/json.md naming every key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "emu/emu.h"
#include "exec/report.h"
#include "run/fields.h"

static run_request request(void)
{
	run_request rq;
	memset(&rq, 0, sizeof rq);
	util_strlcpy(rq.entry, "sgemm_naive", sizeof rq.entry);
	rq.dt = DTYPE_F32;
	rq.M = rq.N = rq.K = 128;
	return rq;
}

static run_result gpu_result(void)
{
	run_result r;
	memset(&r, 0, sizeof r);
	r.status = RUN_OK;
	util_strlcpy(r.gpu, "H100", sizeof r.gpu);
	r.ms = 0.5, r.gflops = 2500, r.cublas_ms = 0.2, r.cublas_gflops = 3750;
	r.rel_err = 2.0734e-7, r.tol = 1e-4, r.verified = 1, r.repeats = 20;
	return r;
}

static run_result emu_result_of(void)
{
	run_result r;
	memset(&r, 0, sizeof r);
	r.status = RUN_OK;
	r.backend = RUN_BACKEND_EMU;
	util_strlcpy(r.gpu, "CPU emulator", sizeof r.gpu);
	r.rel_err = 1e-7, r.tol = 1e-4, r.verified = 1;
	r.emu = (run_emu_counts){.M = 128, .N = 128, .K = 128, .gld_requests = 100, .gld_sectors = 1650, .inst = 7};
	return r;
}

/* The report as JSON text (the caller frees it). */
static char *json_of(const run_request *rq, const run_result *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	json_writer w;
	run_report rep;
	run_report_make(&rep, rq, res, 0);
	json_begin(&w, f);
	exec_report_json(&w, NULL, &rep, NULL, NULL);
	json_finish(&w);
	fclose(f);
	return buf;
}

/* The top-level keys, in order, "|"-joined: lines indented by exactly two spaces. */
static void top_keys(const char *json, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *p = json; (p = strstr(p, "\n  \"")); p++) {
		const char *k = p + 4, *e = strchr(k, '"');
		assert_non_null(e);
		snprintf(out + strlen(out), len - strlen(out), "%.*s|", (int)(e - k), k);
	}
}

static void test_one_schema(void **state)
{
	(void)state;
	run_request rq = request();
	run_result g = gpu_result(), e = emu_result_of();
	char *gj = json_of(&rq, &g), *ej = json_of(&rq, &e);
	char gk[2048], ek[2048];
	top_keys(gj, gk, sizeof gk);
	top_keys(ej, ek, sizeof ek);
	assert_string_equal(gk, ek);
	assert_non_null(strstr(gk, "|status|"));
	assert_non_null(strstr(gk, "|emu|"));
	/* a GPU run has no counts; an emulation has them nested, and no GFLOP/s */
	assert_non_null(strstr(gj, "\"emu\": null"));
	assert_non_null(strstr(ej, "\"global_loads\": {"));
	assert_non_null(strstr(ej, "\"sectors_per_request\": 16.5"));
	assert_non_null(strstr(ej, "\"gflops\": null"));
	assert_non_null(strstr(gj, "\"pct_of_cublas\": 66.6"));
	free(gj);
	free(ej);
}

static void test_one_format(void **state)
{
	(void)state;
	run_request rq = request();
	run_result g = gpu_result(), e = emu_result_of();
	run_report rep;
	char b[64];
	run_report_make(&rep, &rq, &g, 1250);
	assert_string_equal(run_figure(&rep, "gflops", b, sizeof b), "2500");
	assert_string_equal(run_figure(&rep, "pct_of_cublas", b, sizeof b), "66.7%");
	assert_string_equal(run_figure(&rep, "speedup", b, sizeof b), "2x");
	assert_string_equal(run_figure(&rep, "ms", b, sizeof b), "0.5 ms");
	assert_string_equal(run_figure(&rep, "rel_error", b, sizeof b), "2.07e-07");
	assert_string_equal(run_figure(&rep, "verified", b, sizeof b), "PASS");
	assert_string_equal(run_figure(&rep, "emu.instructions", b, sizeof b), "n/a");
	assert_string_equal(run_figure(&rep, "no.such.key", b, sizeof b), "?");
	run_report_make(&rep, &rq, &e, 0);
	assert_string_equal(run_figure(&rep, "gflops", b, sizeof b), "n/a");
	assert_string_equal(run_figure(&rep, "emu.global_loads.sectors_per_request", b, sizeof b), "16.5");
	assert_string_equal(run_figure(&rep, "emu.instructions", b, sizeof b), "7");
}

/* bench --csv: cells from the table, raw values, empty when not measured. */
static void test_csv_from_the_table(void **state)
{
	(void)state;
	run_request rq = request();
	run_result g = gpu_result();
	run_report rep;
	static const char *const keys[] = {"ms", "verified", "status", "message", "emu.instructions", "speedup"};
	char *buf = NULL;
	size_t len = 0;
	util_strlcpy(g.msg, "verified, \"twice\"", sizeof g.msg);
	run_report_make(&rep, &rq, &g, 0);
	FILE *f = open_memstream(&buf, &len);
	exec_report_csv_header(f, keys, (int)ARRAY_LEN(keys));
	fputc('\n', f);
	exec_report_csv_row(f, &rep, keys, (int)ARRAY_LEN(keys));
	fclose(f);
	assert_string_equal(buf, ",ms,verified,status,message,emu.instructions,speedup\n"
				 ",0.5,true,ok,\"verified, \"\"twice\"\"\",,");
	free(buf);
}

/* The counts by kind: one table (run_kind_fields) for the whole run and each
 * region, under "emu" after its last row; the instruction classes are the
 * emulator's, by name. */
static void test_by_kind(void **state)
{
	(void)state;
	run_request rq = request();
	run_result e = emu_result_of();
	e.emu.by_kind.gld = (run_gkind){3, 12};
	e.emu.by_kind.inst[EMU_CLS_MMA] = 5;
	e.emu.warps = 64;
	char *ej = json_of(&rq, &e);
	assert_non_null(strstr(ej, "\"by_kind\": {\n      \"global_load\": {\n        \"requests\": 3,\n        \"sectors\": 12\n"));
	assert_non_null(strstr(ej, "\"mma\": 5"));
	assert_non_null(strstr(ej, "\"warps\": 64"));
	assert_non_null(strstr(ej, "\"per_line\": null")); /* "emu" was closed once, after by_kind */
	free(ej);
	int n, last = -1;
	const run_field *f = run_fields(&n);
	for (int i = 0; i < n; i++)
		if (!strncmp(f[i].key, "emu.", 4)) {
			assert_true(last < 0 || last == i - 1); /* contiguous */
			last = i;
		}
	assert_int_equal(last, n - 1); /* and last: by_kind closes the object */
	for (int c = 0; c < EMU_CLS_COUNT; c++) {
		char key[64];
		snprintf(key, sizeof key, "instructions.%s", emu_class_name((emu_class)c));
		run_emu_kinds k = {0};
		k.inst[c] = 100 + c;
		assert_int_equal(run_kind_value(&k, key), 100 + c);
	}
	assert_int_equal(run_kind_value(&e.emu.by_kind, "no.such"), -1);
}

/* A run that did not answer (killed, cancelled) still names the backend that ran. */
static void test_lost_emulation(void **state)
{
	(void)state;
	run_request rq = request();
	run_result r;
	memset(&r, 0, sizeof r);
	r.status = RUN_TIMEOUT;
	r.backend = RUN_BACKEND_EMU;
	r.verified = -1;
	char *j = json_of(&rq, &r);
	assert_non_null(strstr(j, "\"backend\": \"CPU emulator\""));
	assert_non_null(strstr(j, "\"gpu\": \"CPU emulator\""));
	assert_non_null(strstr(j, "\"status\": \"timed out\""));
	assert_non_null(strstr(j, "\"emu\": null")); /* no counts: it did not finish */
	free(j);
}

/* A located problem is data; it is written once, in each of its forms. */
static void test_error_as_data(void **state)
{
	(void)state;
	run_error e = {.path = "/a/b/01_naive.ptx", .line = 83, .warp = -1, .msg = "unsupported instruction 'x'"};
	char line[256];
	run_error_format(&e, line, sizeof line);
	assert_string_equal(line, "01_naive.ptx:83: unsupported instruction 'x'");
	run_error_text(&e, line, sizeof line);
	assert_string_equal(line, "/a/b/01_naive.ptx:83: unsupported instruction 'x'");
	run_error_format_line(&e, line, sizeof line);
	assert_string_equal(line, "line 83: unsupported instruction 'x'");
	run_error_source(&e, line, sizeof line);
	assert_string_equal(line, "");
	/* a fault: the block after the message; the CUDA line first, the PTX line after */
	e.has_block = 1, e.block[0] = 2, e.block[1] = 1;
	snprintf(e.msg, sizeof e.msg, "out-of-bounds global load of 4 bytes at A+64");
	run_error_format(&e, line, sizeof line);
	assert_string_equal(line, "01_naive.ptx:83: out-of-bounds global load of 4 bytes at A+64 (block 2,1,0)");
	snprintf(e.cu_path, sizeof e.cu_path, "/home/s/k.cu");
	e.cu_line = 42;
	snprintf(e.cu_text, sizeof e.cu_text, "c[i] = a[i + 1];");
	run_error_format(&e, line, sizeof line);
	assert_string_equal(line, "k.cu:42: out-of-bounds global load of 4 bytes at A+64 (block 2,1,0) (PTX line 83)");
	run_error_text(&e, line, sizeof line);
	assert_string_equal(line, "/home/s/k.cu:42: out-of-bounds global load of 4 bytes at A+64 (block 2,1,0) (PTX line 83)");
	run_error_source(&e, line, sizeof line);
	assert_string_equal(line, "    42 | c[i] = a[i + 1];");
	e.line2 = 90, e.cu_line2 = 40; /* a race's other access */
	run_error_format(&e, line, sizeof line);
	assert_string_equal(line, "k.cu:42: out-of-bounds global load of 4 bytes at A+64 (block 2,1,0) (PTX line 83; the other access: k.cu:40)");
	/* no file: the message alone */
	run_error_msg(&e, "the emulator runs f32 kernels: %s needs a GPU", "lesson 10");
	run_error_format(&e, line, sizeof line);
	assert_string_equal(line, "the emulator runs f32 kernels: lesson 10 needs a GPU");
	assert_int_equal(e.warp, -1);
	assert_int_equal(e.line, 0);
}

/* docs/json.md names every key of the table, each leaf in backticks. */
static void test_documented(void **state)
{
	(void)state;
	char path[1024];
	const char *root = getenv("PTXTUTOR_ROOT");
	snprintf(path, sizeof path, "%s/docs/json.md", root && *root ? root : ".");
	char *doc = util_read_file(path, NULL, NULL, 0);
	assert_non_null(doc);
	int n;
	const run_field *f = run_fields(&n);
	assert_true(n > 30);
	for (int i = 0; i < n; i++) {
		char want[96];
		const char *leaf = strrchr(f[i].key, '.');
		snprintf(want, sizeof want, "`%s`", leaf ? leaf + 1 : f[i].key);
		if (!strstr(doc, want))
			fail_msg("docs/json.md does not name %s", f[i].key);
		assert_true(f[i].help && f[i].help[0]);
	}
	/* and every column of the per-line rows ("per_line") */
	const run_line_field *lf = run_line_fields(&n);
	assert_true(n >= 8);
	for (int i = 0; i < n; i++) {
		char want[96];
		snprintf(want, sizeof want, "`%s`", lf[i].key);
		if (!strstr(doc, want))
			fail_msg("docs/json.md does not name the per-line column %s", lf[i].key);
		assert_true(lf[i].help && lf[i].help[0]);
	}
	/* and every key of the counts by kind ("emu.by_kind") */
	const run_kind_field *kf = run_kind_fields(&n);
	for (int i = 0; i < n; i++) {
		char want[96];
		const char *leaf = strrchr(kf[i].key, '.');
		snprintf(want, sizeof want, "`%s`", leaf ? leaf + 1 : kf[i].key);
		if (!strstr(doc, want))
			fail_msg("docs/json.md does not name the count by kind %s", kf[i].key);
		assert_true(kf[i].help && kf[i].help[0]);
	}
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_schema),
		cmocka_unit_test(test_one_format),
		cmocka_unit_test(test_documented),
		cmocka_unit_test(test_error_as_data),
		cmocka_unit_test(test_csv_from_the_table),
		cmocka_unit_test(test_by_kind),
		cmocka_unit_test(test_lost_emulation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
