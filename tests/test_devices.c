/* test_devices: assets/gpus.tsv loads, holds the required GPUs with the measured H100 figures, and --gpu lookup. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "model/devices.h"

static gpu_table table;

static int load(void **state)
{
	(void)state;
	char err[256] = "";
	int n = devices_load(&table, err, sizeof err);
	if (n < 0)
		print_error("devices_load: %s\n", err);
	return n < 0 ? -1 : 0;
}

static const gpu_spec *find(const char *what)
{
	char msg[256];
	return devices_find(&table, what, msg, sizeof msg);
}

static void required_rows(void **state)
{
	(void)state;
	const char *keys[] = {"h100", "h200", "a100", "a100-40", "a6000", "rtx3090", "rtx4090", "l4", "t4", "rtx3050m", "v100"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const gpu_spec *g = find(keys[i]);
		assert_non_null(g);
		assert_string_equal(g->key, keys[i]);
		/* every row says where it comes from and has sane limits */
		assert_true(strlen(g->source) > 20);
		assert_true(g->fp32_tflops > 1 && g->bw_gbs > 100);
		assert_true(g->smem_optin <= g->smem_per_sm);
		assert_int_equal(g->max_warps_per_sm * 32, g->max_threads_per_sm);
		assert_int_equal(g->warp_alloc_regs, 256);
		assert_int_equal(g->smem_reserved, g->cc_major >= 8 ? 1024 : 0);
	}
}

/* DESIGN.md: measured on our H100 80GB HBM3. */
static void h100_measured(void **state)
{
	(void)state;
	const gpu_spec *g = find("H100");
	assert_non_null(g);
	assert_int_equal(g->cc_major, 9);
	assert_int_equal(g->cc_minor, 0);
	assert_int_equal(g->sms, 132);
	assert_int_equal(g->clock_mhz, 1980);
	assert_int_equal(g->smem_per_sm, 233472);
	assert_int_equal(g->smem_optin, 232448);
	assert_int_equal(g->smem_reserved, 1024);
	assert_int_equal(g->regs_per_sm, 65536);
	assert_int_equal(g->max_threads_per_sm, 2048);
	assert_int_equal(g->max_blocks_per_sm, 32);
	assert_int_equal(g->l2_kb, 50 * 1024);
	assert_ptr_equal(devices_default(&table), g);
}

/* The lecture's ridge: 19.5 TFLOP/s / 1555 GB/s on the A100 40GB. */
static void a100_rows(void **state)
{
	(void)state;
	const gpu_spec *a40 = find("a100-40"), *a80 = find("A100");
	assert_non_null(a40);
	assert_non_null(a80);
	assert_float_equal(a40->fp32_tflops, 19.5, 1e-9);
	assert_float_equal(a40->bw_gbs, 1555, 1e-9);
	assert_float_equal(a80->bw_gbs, 2039, 1e-9);
	assert_string_equal(a80->key, "a100");
	assert_int_equal(a80->max_blocks_per_sm, 32);
}

static void lookup(void **state)
{
	(void)state;
	char msg[256];
	assert_string_equal(find("T4")->key, "t4");
	assert_string_equal(find("rtx 3090")->key, "rtx3090");
	assert_string_equal(find("4090")->key, "rtx4090");
	assert_string_equal(find("RTX-A6000")->key, "a6000");
	assert_string_equal(find("3050")->key, "rtx3050m");
	assert_string_equal(find("NVIDIA L4")->key, "l4");
	assert_null(devices_find(&table, "rtx", msg, sizeof msg));
	assert_non_null(strstr(msg, "ambiguous"));
	assert_non_null(strstr(msg, "rtx3090"));
	assert_null(devices_find(&table, "mi300", msg, sizeof msg));
	assert_non_null(strstr(msg, "unknown GPU 'mi300'"));
	assert_non_null(strstr(msg, "h100"));
}

static void parse_errors(void **state)
{
	(void)state;
	gpu_table t;
	char err[256];
	assert_int_equal(devices_parse(&t, "x.tsv", "# only a comment\n", err, sizeof err), -1);
	assert_non_null(strstr(err, "no header"));
	assert_int_equal(devices_parse(&t, "x.tsv", "# c\nkey\tname\n", err, sizeof err), -1);
	assert_non_null(strstr(err, "x.tsv:2: header has no column 'cc'"));

	/* A valid table of one row, then the same with a bad number on line 3. */
	const char *hdr = "key\tname\tcc\tsms\tclock_mhz\tfp32_tflops\ttensor_tflops\tbw_gbs\tl2_kb\tsmem_per_sm\t"
			  "smem_per_block\tsmem_optin\tsmem_reserved\tregs_per_sm\tregs_per_block\tmax_threads_per_sm\t"
			  "max_threads_per_block\tmax_warps_per_sm\tmax_blocks_per_sm\tsource\n";
	char text[1024];
	snprintf(text, sizeof text, "%s\n%s", hdr,
		 "x1\tTest GPU\t8.6\t10\t1000\t1.5\t0\t100\t1024\t102400\t49152\t101376\t1024\t65536\t65536\t1536\t1024\t48\t16\tmade up\n");
	assert_int_equal(devices_parse(&t, "x.tsv", text, err, sizeof err), 1);
	assert_int_equal(t.g[0].cc_minor, 6);
	assert_float_equal(t.g[0].fp32_tflops, 1.5, 1e-12);
	assert_string_equal(t.g[0].source, "made up");
	snprintf(text, sizeof text, "%s\n%s", hdr,
		 "x1\tTest GPU\t8.6\t10\t1000\tfast\t0\t100\t1024\t102400\t49152\t101376\t1024\t65536\t65536\t1536\t1024\t48\t16\tmade up\n");
	assert_int_equal(devices_parse(&t, "x.tsv", text, err, sizeof err), -1);
	assert_non_null(strstr(err, "x.tsv:3: fp32_tflops"));
	snprintf(text, sizeof text, "%s%s", hdr, "x1\tshort row\n");
	assert_int_equal(devices_parse(&t, "x.tsv", text, err, sizeof err), -1);
	assert_non_null(strstr(err, "x.tsv:2: 2 fields"));
	/* A text longer than its field is refused, never cut short. */
	char big[2048], source[1100];
	memset(source, 's', sizeof source - 1);
	source[sizeof source - 1] = 0;
	snprintf(big, sizeof big, "%s%s%s\n", hdr,
		 "x1\tTest GPU\t8.6\t10\t1000\t1.5\t0\t100\t1024\t102400\t49152\t101376\t1024\t65536\t65536\t1536\t1024\t48\t16\t",
		 source);
	assert_int_equal(devices_parse(&t, "x.tsv", big, err, sizeof err), -1);
	assert_non_null(strstr(err, "x.tsv:2: source: 1099 characters, at most 1023"));
}

/* A file saved with CRLF and blank lines reads as the plain one, and an error names its own line. */
static void crlf_and_blank_lines(void **state)
{
	(void)state;
	gpu_table t;
	char err[256];
	const char *hdr = "key\tname\tcc\tsms\tclock_mhz\tfp32_tflops\ttensor_tflops\tbw_gbs\tl2_kb\tsmem_per_sm\t"
			  "smem_per_block\tsmem_optin\tsmem_reserved\tregs_per_sm\tregs_per_block\tmax_threads_per_sm\t"
			  "max_threads_per_block\tmax_warps_per_sm\tmax_blocks_per_sm\tsource\r\n";
	const char *row = "\t8.6\t10\t1000\t1.5\t0\t100\t1024\t102400\t49152\t101376\t1024\t65536\t65536\t1536\t1024\t48\t16\tmade up\r\n";
	char text[2048];
	snprintf(text, sizeof text, "# c\r\n\r\n%s\r\nx1\tOne%s\r\n   \r\nx2\tTwo%s", hdr, row, row);
	assert_int_equal(devices_parse(&t, "x.tsv", text, err, sizeof err), 2);
	assert_string_equal(t.g[1].key, "x2");
	assert_string_equal(t.g[1].source, "made up"); /* the last column has no '\r' */
	assert_int_equal(t.g[1].max_blocks_per_sm, 16);
	/* The same with line 8 a duplicate of line 5. */
	snprintf(text, sizeof text, "# c\r\n\r\n%s\r\nx1\tOne%s\r\n\r\nx1\tAgain%s", hdr, row, row);
	assert_int_equal(devices_parse(&t, "x.tsv", text, err, sizeof err), -1);
	assert_non_null(strstr(err, "x.tsv:8: key 'x1' appears twice"));
}

/* A live H100 from the driver: limits known, peaks and source filled in. */
static void complete_live(void **state)
{
	(void)state;
	gpu_spec live;
	memset(&live, 0, sizeof live);
	strcpy(live.name, "NVIDIA H100 80GB HBM3");
	live.cc_major = 9;
	live.sms = 132;
	live.clock_mhz = 1980;
	live.smem_per_sm = 233472;
	live.live = 1;
	devices_complete(&table, &live);
	assert_string_equal(live.name, "NVIDIA H100 80GB HBM3");
	assert_string_equal(live.key, "h100");
	assert_float_equal(live.fp32_tflops, 66.9, 1e-9);
	assert_float_equal(live.bw_gbs, 3350, 1e-9);
	assert_int_equal(live.max_blocks_per_sm, 32);
	assert_int_equal(live.warp_alloc_regs, 256);
	assert_non_null(strstr(live.source, "h100"));

	/* H100 and H200 share sm_90 and 132 SMs; A100 40 and 80 GB share sm_80
	 * and 108: the driver's name tells them apart. */
	const char *names[][2] = {{"NVIDIA H200", "h200"}, {"NVIDIA H100 80GB HBM3", "h100"},
				  {"NVIDIA A100-SXM4-40GB", "a100-40"}, {"NVIDIA A100-SXM4-80GB", "a100"}};
	for (int i = 0; i < 4; i++) {
		memset(&live, 0, sizeof live);
		strcpy(live.name, names[i][0]);
		live.cc_major = names[i][1][0] == 'h' ? 9 : 8;
		live.sms = names[i][1][0] == 'h' ? 132 : 108;
		devices_complete(&table, &live);
		assert_string_equal(live.key, names[i][1]);
	}

	/* A device with no row keeps what it has and gets only the allocation unit. */
	gpu_spec odd;
	memset(&odd, 0, sizeof odd);
	odd.cc_major = 12;
	odd.sms = 3;
	devices_complete(&table, &odd);
	assert_float_equal(odd.fp32_tflops, 0, 0);
	assert_int_equal(odd.warp_alloc_regs, 256);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(required_rows),
		cmocka_unit_test(h100_measured),
		cmocka_unit_test(a100_rows),
		cmocka_unit_test(lookup),
		cmocka_unit_test(parse_errors),
		cmocka_unit_test(crlf_and_blank_lines),
		cmocka_unit_test(complete_live),
	};
	return cmocka_run_group_tests(tests, load, NULL);
}
