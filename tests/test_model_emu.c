/* test_model_emu: the model's warp view of every lesson against what the emulator measures on the lesson's shipped PTX. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "course/lesson.h"
#include "emu/emu.h"
#include "run/launch.h"
#include "model/devices.h"
#include "model/model.h"

/* The size every lesson 1-8 accepts (lessons 6-8 want multiples of BM, BN
 * and BK: 128 x 256 x 32 for lesson 8), small enough to emulate at once. */
#define TEST_M 128
#define TEST_N 256
#define TEST_K 64

/* A warp-view row of the model: model_result's per-request figure. */
typedef enum { ROW_GA, ROW_GB, ROW_SA, ROW_SB, ROW_COUNT } row_id;
static const char *const row_names[ROW_COUNT] = {
	[ROW_GA] = "sectors_per_request.A", [ROW_GB] = "sectors_per_request.B",
	[ROW_SA] = "wavefronts.A", [ROW_SB] = "wavefronts.B",
};

/* What the emulator counts for the probed instructions, per request. */
typedef enum {
	M_GLD,   /* global loads: sectors / requests */
	M_GCP,   /* cp.async, its global side: sectors / requests */
	M_SLD,   /* shared loads: wavefronts / requests */
	M_LDSM,  /* ldmatrix: wavefronts / requests */
} measure;

/* One row of the mapping: the instructions of the lesson's shipped PTX that
 * a warp-view row describes. They are the lines inside the `// @region` that
 * start with `insn` (after a guard `@%p`, whitespace runs as one space):
 * matches first .. first+count-1 (1-based; count 0: all of them). The test
 * wraps those lines in a region of their own, so the emulator counts them
 * apart from their neighbours. A row a lesson leaves out of this table must
 * be n/a in the model (the kernel has no such per-thread access). */
typedef struct {
	int lesson;
	row_id row;
	const char *region;
	const char *insn;
	int first, count;
	measure what;
} probe;

static const probe probes[] = {
	/* 1 naive: lanes walk rows of A and share one element of B */
	{1, ROW_GA, "inner-loop", "ld.global.f32 %a,", 1, 0, M_GLD},
	{1, ROW_GB, "inner-loop", "ld.global.f32 %b,", 1, 0, M_GLD},
	/* 2 coalesced: A four k at a time (K % 4 == 0), B a row segment */
	{2, ROW_GA, "inner-loop", "ld.global.v4.f32", 1, 0, M_GLD},
	{2, ROW_GB, "inner-loop", "ld.global.f32 %b,", 1, 0, M_GLD},
	/* 3 smem */
	{3, ROW_GA, "load-tile", "ld.global.f32 %nextA,", 1, 0, M_GLD},
	{3, ROW_GB, "load-tile", "ld.global.f32 %nextB,", 1, 0, M_GLD},
	{3, ROW_SA, "inner-loop", "ld.shared.v4.f32", 1, 0, M_SLD},
	{3, ROW_SB, "inner-loop", "ld.shared.f32 %b,", 1, 0, M_SLD},
	/* 4 blocktile1d: B is read in its own region before the A loop */
	{4, ROW_GA, "load-tile", "ld.global.cg.f32 %nextA,", 1, 0, M_GLD},
	{4, ROW_GB, "load-tile", "ld.global.cg.f32 %nextB,", 1, 0, M_GLD},
	{4, ROW_SA, "inner-loop", "ld.shared.v4.f32", 1, 0, M_SLD},
	{4, ROW_SB, "load-b", "ld.shared.f32", 1, 0, M_SLD},
	/* 5 blocktile2d */
	{5, ROW_GA, "load-tile", "ld.global.cg.f32 %nextA", 1, 0, M_GLD},
	{5, ROW_GB, "load-tile", "ld.global.cg.f32 %nextB", 1, 0, M_GLD},
	{5, ROW_SA, "inner-loop", "ld.shared.v4.f32", 1, 0, M_SLD},
	{5, ROW_SB, "inner-loop", "ld.shared.f32 %b", 1, 0, M_SLD},
	/* 6 vectorized */
	{6, ROW_GA, "load-tile", "ld.global.cg.v4.f32 {%ldA", 1, 0, M_GLD},
	{6, ROW_GB, "load-tile", "ld.global.cg.v4.f32 {%ldB", 1, 0, M_GLD},
	{6, ROW_SA, "inner-loop", "ld.shared.v4.f32 {%a", 1, 0, M_SLD},
	{6, ROW_SB, "inner-loop", "ld.shared.v4.f32 {%b", 1, 0, M_SLD},
	/* 7 warptile: the first tile's loads (the prologue) are the main loop's */
	{7, ROW_GA, "prologue", "ld.global.nc.v4.f32 {%ldA", 1, 0, M_GLD},
	{7, ROW_GB, "prologue", "ld.global.nc.v4.f32 {%ldB", 1, 0, M_GLD},
	{7, ROW_SA, "inner-loop", "ld.shared.v4.f32 {%a", 1, 0, M_SLD},
	{7, ROW_SB, "inner-loop", "ld.shared.v4.f32 {%b", 1, 0, M_SLD},
	/* 8 mma: k-tile 0 of the prologue copies A with 2 cp.async, then B with 4 */
	{8, ROW_GA, "prologue", "cp.async.cg.shared.global", 1, 2, M_GCP},
	{8, ROW_GB, "prologue", "cp.async.cg.shared.global", 3, 4, M_GCP},
	{8, ROW_SA, "ldmatrix", "ldmatrix.sync.aligned.m8n8.x4.shared", 1, 0, M_LDSM},
	{8, ROW_SB, "ldmatrix", "ldmatrix.sync.aligned.m8n8.x4.trans", 1, 0, M_LDSM},
};

/* The requests and the sectors or wavefronts of one measure in c. */
static void measured(const emu_counts *c, measure what, double *requests, double *count)
{
	switch (what) {
	case M_GLD: *requests = (double)c->gld.requests; *count = (double)c->gld.sectors; return;
	case M_GCP: *requests = (double)c->gcp.requests; *count = (double)c->gcp.sectors; return;
	case M_SLD: *requests = (double)c->sld.requests; *count = (double)c->sld.wavefronts; return;
	case M_LDSM: *requests = (double)c->sldsm.requests; *count = (double)c->sldsm.wavefronts; return;
	}
	*requests = *count = 0;
}

/* ---- Marking the probed lines ---- */

/* The text of a line with its guard (`@%p `, `@!%p `) and leading blanks
 * dropped and every run of blanks as one space, into buf. */
static void normalise(const char *line, size_t len, char *buf, size_t cap)
{
	size_t i = 0, n = 0;
	while (i < len && isspace((unsigned char)line[i]))
		i++;
	if (i < len && line[i] == '@') {
		while (i < len && !isspace((unsigned char)line[i]))
			i++;
		while (i < len && isspace((unsigned char)line[i]))
			i++;
	}
	for (; i < len && n + 1 < cap; i++) {
		if (isspace((unsigned char)line[i])) {
			if (n && buf[n - 1] != ' ')
				buf[n++] = ' ';
		} else {
			buf[n++] = line[i];
		}
	}
	buf[n] = '\0';
}

/* A region marker `// @name` (returns 1 and the name), `// @end` (2), or neither (0). */
static int marker(const char *norm, char *name, size_t cap)
{
	if (strncmp(norm, "// @", 4))
		return 0;
	size_t n = 0;
	for (const char *p = norm + 4; (isalnum((unsigned char)*p) || *p == '-' || *p == '_') && n + 1 < cap; p++)
		name[n++] = *p;
	name[n] = '\0';
	return !strcmp(name, "end") ? 2 : n > 0;
}

/* Every probed line of `lesson` is an occurrence, numbered in file order.
 * Returns text in which occurrences first .. first+PTX_MAX_REGIONS-1 are each
 * wrapped in a region of their own, `// @pI-K` (probe I, occurrence K), so
 * the emulator counts every probed instruction apart (the lesson's own
 * regions are dropped: they only locate the lines, and a region holds at
 * most PTX_MAX_REGIONS). *total gets the number of occurrences. */
static char *mark_probes(const char *text, int lesson, int first, int *total)
{
	strbuf out = {0};
	int matches[ARRAY_LEN(probes)] = {0}, depth[ARRAY_LEN(probes)] = {0}, k = 0;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char norm[512], name[64];
		normalise(p, len, norm, sizeof norm);
		int mk = marker(norm, name, sizeof name), hit = -1;
		for (size_t i = 0; i < ARRAY_LEN(probes); i++) {
			const probe *q = &probes[i];
			if (q->lesson != lesson)
				continue;
			/* depth > 0: inside the probe's region (nested regions count) */
			if (mk == 1 && (depth[i] || !strcmp(name, q->region)))
				depth[i]++;
			else if (mk == 2 && depth[i])
				depth[i]--;
			else if (!mk && depth[i] && !strncmp(norm, q->insn, strlen(q->insn))) {
				matches[i]++;
				if (matches[i] >= q->first && (!q->count || matches[i] < q->first + q->count)) {
					assert_true(hit < 0); /* two probes on one line: the table is ambiguous */
					hit = (int)i;
				}
			}
		}
		int wrap = hit >= 0 && k >= first && k < first + PTX_MAX_REGIONS;
		if (wrap)
			sb_printf(&out, "// @p%d-%d\n", hit, k);
		k += hit >= 0;
		sb_printf(&out, "%.*s\n", mk ? 0 : (int)len, p);
		if (wrap)
			sb_printf(&out, "// @end\n");
		p += len + (eol != NULL);
	}
	*total = k;
	return out.data;
}

/* ---- The comparison ---- */

/* Appends to msg every difference for lesson l; returns how many rows it
 * compared. bump (when >= 0) adds 1 to that row of the model first, to show
 * that a wrong row is caught. */
static int compare_lesson(const lesson *l, const gpu_spec *g, int bump, strbuf *msg)
{
	char err[512];
	model_result r;
	if (model_compute(l, NULL, TEST_M, TEST_N, TEST_K, g, &r, err, sizeof err))
		fail_msg("lesson %d: model: %s", l->number, err);
	double *rows[ROW_COUNT] = {&r.sectors_A, &r.sectors_B, &r.wavefronts_A, &r.wavefronts_B};
	if (bump >= 0)
		*rows[bump] += 1;
	run_request rq;
	if (launch_request_for_lesson(l, NULL, TEST_M, TEST_N, TEST_K, &rq, err, sizeof err))
		fail_msg("lesson %d: %dx%dx%d is no valid size: %s", l->number, TEST_M, TEST_N, TEST_K, err);

	char *text = util_read_file(rq.ptx_path, NULL, err, sizeof err);
	if (!text)
		fail_msg("lesson %d: %s", l->number, err);
	/* Per probe: occurrences marked, requests counted, occurrences whose
	 * per-request figure differs from the model (the first one's reported). */
	int wrapped[ARRAY_LEN(probes)] = {0}, wrong[ARRAY_LEN(probes)] = {0};
	double requests[ARRAY_LEN(probes)] = {0}, first_wrong[ARRAY_LEN(probes)] = {0};
	for (int first = 0, total = 1; first < total; first += PTX_MAX_REGIONS) {
		char *marked = mark_probes(text, l->number, first, &total);
		emu_module *m = emu_module_parse(rq.ptx_path, marked, NULL, err, sizeof err);
		free(marked);
		if (!m)
			fail_msg("lesson %d: the marked PTX does not parse: %s", l->number, err);
		emu_options opt = {.module = m, .no_verify = 1};
		static emu_result res;
		int rc = emu_run(&rq, &opt, &res, err, sizeof err);
		emu_module_free(m);
		if (rc)
			fail_msg("lesson %d: emulator: %s", l->number, err);
		for (int r = 0; r < res.nregions; r++) {
			int i, k;
			if (sscanf(res.regions[r].name, "p%d-%d", &i, &k) != 2)
				continue;
			double n = 0, count = 0;
			measured(&res.regions[r].c, probes[i].what, &n, &count);
			wrapped[i]++;
			requests[i] += n;
			if (n > 0 && fabs(count / n - *rows[probes[i].row]) > 1e-9 && !wrong[i]++)
				first_wrong[i] = count / n;
		}
	}
	free(text);

	int compared = 0, in_table[ROW_COUNT] = {0};
	for (size_t i = 0; i < ARRAY_LEN(probes); i++) {
		const probe *q = &probes[i];
		if (q->lesson != l->number)
			continue;
		in_table[q->row] = 1;
		double want = *rows[q->row];
		if (!wrapped[i] || requests[i] == 0) {
			sb_printf(msg, "lesson %d, %s: no '%s' in @%s ran (%d lines matched)\n", l->number,
				  row_names[q->row], q->insn, q->region, wrapped[i]);
			continue;
		}
		if (bump < 0)
			print_message("lesson %d, %-21s model %g, emulator %s (%d lines, %.0f requests)\n", l->number,
				      row_names[q->row], want, wrong[i] ? "differs" : "the same on every line", wrapped[i],
				      requests[i]);
		if (isnan(want) || wrong[i])
			sb_printf(msg, "lesson %d, %s: model %g, emulator %g per request ('%s' in @%s, %d of %d lines differ)\n",
				  l->number, row_names[q->row], want, wrong[i] ? first_wrong[i] : NAN, q->insn, q->region,
				  wrong[i], wrapped[i]);
		compared++;
	}
	for (int row = 0; row < ROW_COUNT; row++)
		if (!in_table[row] && !isnan(*rows[row]))
			sb_printf(msg, "lesson %d, %s: model %g, but the table maps no instruction to it\n", l->number,
				  row_names[row], *rows[row]);
	return compared;
}

static const gpu_spec *test_gpu(void)
{
	static gpu_table t;
	char err[256];
	if (devices_load(&t, err, sizeof err) <= 0)
		fail_msg("%s", err);
	return devices_default(&t);
}

/* Which comparison a lesson of the course gets: its warp view line by line
 * (it has probe rows above), its bytes level by level (a kernel with no
 * per-thread loads: every warp-view row n/a, as TMA and wgmma have), or none
 * (0 with why: a lesson added without probe rows, or no kernel). */
typedef enum { CMP_NONE, CMP_WARP, CMP_BYTES } cmp_kind;

static cmp_kind comparison_of(const lesson *l, const gpu_spec *g, char *why, size_t len)
{
	if (!l->ptx_path[0]) {
		snprintf(why, len, "no kernel");
		return CMP_NONE;
	}
	for (size_t i = 0; i < ARRAY_LEN(probes); i++)
		if (probes[i].lesson == l->number)
			return CMP_WARP;
	char err[512];
	model_result r;
	if (model_compute(l, NULL, 256, 256, 256, g, &r, err, sizeof err)) {
		snprintf(why, len, "no model at 256x256x256 (%.200s)", err);
		return CMP_NONE;
	}
	if (isnan(r.sectors_A) && isnan(r.sectors_B) && isnan(r.wavefronts_A) && isnan(r.wavefronts_B))
		return CMP_BYTES;
	snprintf(why, len, "its warp view is not compared with the emulator: tests/test_model_emu.c's probes[] has "
		 "no row for it");
	return CMP_NONE;
}

/* Every lesson of the course that has probe rows; one without is said, not compared. */
static void warp_views_match_emulator(void **state)
{
	(void)state;
	static course c;
	char errs[2048] = "", why[300];
	if (course_load(&c, errs, sizeof errs) <= 0)
		fail_msg("no lessons: %s", errs);
	const gpu_spec *g = test_gpu();
	strbuf msg = {0};
	int rows = 0;
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		cmp_kind k = comparison_of(l, g, why, sizeof why);
		if (k == CMP_WARP)
			rows += compare_lesson(l, g, -1, &msg);
		else if (k == CMP_NONE && l->ptx_path[0])
			print_message("lesson %d: %s\n", l->number, why);
	}
	course_free(&c);
	if (msg.len)
		fail_msg("the model's warp view differs from the emulator:\n%s", msg.data);
	sb_free(&msg);
	/* Every probe row is of a lesson of the course, and ran. */
	assert_int_equal(rows, (int)ARRAY_LEN(probes));
}

/* The comparison can fail: lesson 5's A reads (ld.shared.v4, two
 * wavefronts) with the model's row made one too many are reported with the
 * lesson, the row and both numbers. */
static void a_wrong_row_is_reported(void **state)
{
	(void)state;
	static course c;
	char errs[2048] = "";
	if (course_load(&c, errs, sizeof errs) <= 0)
		fail_msg("no lessons: %s", errs);
	const lesson *l = course_find(&c, "5");
	assert_non_null(l);
	strbuf msg = {0};
	assert_int_equal(compare_lesson(l, test_gpu(), ROW_SA, &msg), 4);
	course_free(&c);
	assert_non_null(msg.data);
	if (!strstr(msg.data, "lesson 5, wavefronts.A: model 3, emulator 2 per request"))
		fail_msg("not reported as expected: %s", msg.data);
	assert_null(strstr(msg.data, "sectors_per_request")); /* only the bumped row */
	sb_free(&msg);
}

/* Lessons 9 and up have no per-thread loads for a warp view: TMA fills
 * shared memory and wgmma reads it. Their model is compared level by level
 * instead, in bytes over the whole run, with the emulator running the
 * shipped kernel (verified) at a square and a non-square size:
 * global = TMA loads from L2 (a multicast box once) + TMA and st.global
 * stores; shared loads = wgmma's shared operand bytes (A and B of each
 * wgmma.mma_async); shared stores = TMA's writes into each CTA. */
static void hopper_bytes_match_emulator(void **state)
{
	(void)state;
	static course c;
	char errs[2048] = "", err[1024];
	if (course_load(&c, errs, sizeof errs) <= 0)
		fail_msg("no lessons: %s", errs);
	const gpu_spec *g = test_gpu();
	static const long long sizes[][3] = {{256, 256, 256}, {512, 256, 128}};
	emu_result *res = calloc(1, sizeof *res);
	strbuf msg = {0};
	int lessons = 0;
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		const int n = l->number;
		char why[300];
		if (comparison_of(l, g, why, sizeof why) != CMP_BYTES)
			continue;
		lessons++;
		for (size_t s = 0; s < ARRAY_LEN(sizes); s++) {
			const long long M = sizes[s][0], N = sizes[s][1], K = sizes[s][2];
			model_result r;
			run_request rq;
			if (model_compute(l, NULL, M, N, K, g, &r, err, sizeof err) ||
			    launch_request_for_lesson(l, NULL, M, N, K, &rq, err, sizeof err))
				fail_msg("lesson %d at %lldx%lldx%lld: %s", n, M, N, K, err);
			emu_options o = {0};
			if (emu_run(&rq, &o, res, err, sizeof err) != EMU_OK || res->verified != 1)
				fail_msg("lesson %d at %lldx%lldx%lld: %s (verified %d)", n, M, N, K, err, res->verified);
			const emu_counts *t = &res->total;
			const struct {
				const char *level;
				double model, emu;
			} rows[] = {
				{"global", r.global.bytes,
				 (double)(t->tma_l2_bytes + t->tma_store_bytes) + 32.0 * (double)t->gst.sectors},
				{"shared loads", r.shared.loads * r.elem_bytes, (double)t->wgmma.smem_bytes},
				{"shared stores", r.shared.stores * r.elem_bytes, (double)t->tma_smem_bytes},
			};
			for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
				print_message("lesson %d at %lldx%lldx%lld, %-13s model %.0f B, emulator %.0f B\n", n, M, N, K,
					      rows[i].level, rows[i].model, rows[i].emu);
				if (rows[i].model != rows[i].emu || rows[i].emu <= 0)
					sb_printf(&msg, "lesson %d at %lldx%lldx%lld, %s: model %.0f bytes, emulator %.0f\n", n, M,
						  N, K, rows[i].level, rows[i].model, rows[i].emu);
			}
		}
	}
	free(res);
	course_free(&c);
	if (msg.len)
		fail_msg("the model's bytes differ from the emulator's:\n%s", msg.data);
	assert_true(lessons > 0); /* the course's Hopper lessons were found */
	sb_free(&msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(warp_views_match_emulator),
		cmocka_unit_test(a_wrong_row_is_reported),
		cmocka_unit_test(hopper_bytes_match_emulator),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
