/* test_argspec: the one parser of kernel argument specs — every type, strict literals, tensor maps with expressions, limits — and its callers: the lesson loader, the launch, the emulator. */
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
#include "course/lesson.h"
#include "emu/emu.h"
#include "exec/backend.h"
#include "course/argspec.h"
#include "run/launch.h"

static argspec a;
static char err[256];

/* Parses spec (env may be NULL) expecting success; returns the items. */
static const argspec *ok(const char *spec, const expr_env *env)
{
	err[0] = '\0';
	if (argspec_parse(spec, env, &a, err, sizeof err))
		fail_msg("'%s' refused: %s", spec, err);
	return &a;
}

/* Parses spec expecting a refusal: one line naming `names` (in quotes). */
static void refused(const char *spec, const char *names, const char *says)
{
	char quoted[ARGSPEC_TOKEN + 4];
	err[0] = '\0';
	if (argspec_parse(spec, NULL, &a, err, sizeof err) != -1)
		fail_msg("'%s' was accepted", spec);
	snprintf(quoted, sizeof quoted, "'%s'", names);
	if (names[0] && !strstr(err, quoted))
		fail_msg("'%s': the message does not name %s: %s", spec, quoted, err);
	if (!strstr(err, says))
		fail_msg("'%s': the message does not say '%s': %s", spec, says, err);
	assert_null(strchr(err, '\n'));
}

static void item_is(const argspec_item *it, argspec_kind kind, unsigned bytes, const char *written)
{
	char buf[ARGSPEC_TOKEN];
	assert_int_equal(it->kind, kind);
	assert_int_equal(it->bytes, bytes);
	argspec_format_item(it, buf, sizeof buf);
	assert_string_equal(buf, written);
}

static void test_names_and_default(void **st)
{
	(void)st;
	const argspec *p = ok("A B C M N K", NULL);
	assert_int_equal(p->n, 6);
	for (int i = 0; i < 6; i++) {
		char w[2] = {"ABCMNK"[i], 0};
		item_is(&p->item[i], i < 3 ? ARG_MATRIX : ARG_SIZE, i < 3 ? 8 : 4, w);
		assert_int_equal(p->item[i].name, w[0]);
	}
	/* An empty request means the standard list, the same six. */
	argspec none = {0};
	const argspec *d = argspec_or_default(&none);
	assert_int_equal(d->n, 6);
	assert_memory_equal(d->item, p->item, 6 * sizeof p->item[0]);
	assert_ptr_equal(argspec_or_default(p), p);
	/* Commas separate too, white space around them is fine. */
	p = ok(" M ,N,\tK ", NULL);
	assert_int_equal(p->n, 3);
	assert_int_equal(p->item[2].name, 'K');
}

static void test_every_type(void **st)
{
	(void)st;
	static const struct {
		const char *tok;
		argspec_type type;
		unsigned bytes;
		uint64_t bits;
		const char *written;
	} cases[] = {
		{"u32:8", ARG_U32, 4, 8, "u32:8"},
		{"u32:0xff", ARG_U32, 4, 255, "u32:255"},
		{"u32:4294967295", ARG_U32, 4, 0xffffffffULL, "u32:4294967295"},
		{"s32:-1", ARG_S32, 4, 0xffffffffULL, "s32:-1"},
		{"s32:-2147483648", ARG_S32, 4, 0x80000000ULL, "s32:-2147483648"},
		{"u64:18446744073709551615", ARG_U64, 8, UINT64_MAX, "u64:18446744073709551615"},
		{"s64:-9223372036854775808", ARG_S64, 8, 0x8000000000000000ULL, "s64:-9223372036854775808"},
		{"f32:1.5", ARG_F32, 4, 0x3fc00000ULL, "f32:1.5"},
		{"f32:-2", ARG_F32, 4, 0xc0000000ULL, "f32:-2"},
		{"f64:0.5", ARG_F64, 8, 0x3fe0000000000000ULL, "f64:0.5"},
		{"f16:1", ARG_F16, 2, 0x3c00, "f16:1"},
		{"f16:-65504", ARG_F16, 2, 0xfbff, "f16:-65504"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const argspec *p = ok(cases[i].tok, NULL);
		assert_int_equal(p->n, 1);
		assert_int_equal(p->item[0].type, cases[i].type);
		assert_memory_equal(argspec_type_name(cases[i].type), cases[i].tok, 3);
		assert_int_equal(p->item[0].bits, cases[i].bits);
		item_is(&p->item[0], ARG_LITERAL, cases[i].bytes, cases[i].written);
	}
	/* Every type has a name and round-trips through its written form. */
	for (int t = 0; t < ARG_NTYPES; t++) {
		char spec[16];
		snprintf(spec, sizeof spec, "%s:3", argspec_type_name((argspec_type)t));
		assert_int_equal(ok(spec, NULL)->item[0].type, t);
	}
}

static void test_malformed_literals_are_named(void **st)
{
	(void)st;
	refused("A B u32:abc", "u32:abc", "not an integer");
	refused("f32:", "f32:", "no value");
	refused("u32:99999999999", "u32:99999999999", "out of range for u32");
	refused("s32:1x", "s32:1x", "not an integer");
	refused("s32:2147483648", "s32:2147483648", "out of range for s32");
	refused("u32:-1", "u32:-1", "out of range for u32");
	refused("u64:99999999999999999999", "u64:99999999999999999999", "out of range");
	refused("u32: 8", "u32:", "no value");
	refused("f32:1.5.2", "f32:1.5.2", "not a number");
	refused("f32:nan", "f32:nan", "not a number");
	refused("f32:1e39", "f32:1e39", "out of range for f32");
	refused("f16:70000", "f16:70000", "out of range for f16");
	refused("q32:1", "q32:1", "unknown type 'q32'");
	refused("A B X", "X", "unknown parameter");
	/* Empty tokens: nothing at all, two commas, a comma at an end. */
	refused("", "", "no parameters");
	refused(" \t", "", "no parameters");
	refused("A,,B", "", "empty parameter after parameter 1");
	refused("A B,", "", "empty parameter after parameter 2");
	refused(",A", "", "empty parameter after parameter 0");
}

static void test_tensor_maps_with_expressions(void **st)
{
	(void)st;
	expr_env env = {0};
	expr_set(&env, "BK", 64);
	expr_set(&env, "BM", 128);
	expr_set(&env, "M", 64);
	const argspec *p = ok("tmap:A:BK:BM:128B tmap:B:min(BK, 32):BK C,M N K", &env);
	assert_int_equal(p->n, 6);
	item_is(&p->item[0], ARG_TMAP, 128, "tmap:A:64:128:128B");
	assert_int_equal(p->item[0].box[0], 64);
	assert_int_equal(p->item[0].box[1], 128);
	assert_int_equal(p->item[0].swizzle, ARG_SWIZZLE_128B);
	item_is(&p->item[1], ARG_TMAP, 128, "tmap:B:32:64:none");
	p = ok("u32:7,tmap:C:M/2:8:none", &env);
	item_is(&p->item[1], ARG_TMAP, 128, "tmap:C:32:8:none");

	/* Without an environment (the lesson loader's check) names wait for the launch. */
	p = ok("tmap:A:BK:16:64B", NULL);
	assert_int_equal(p->item[0].box[0], 0);
	assert_int_equal(p->item[0].box[1], 16);
	refused("tmap:A:64+:16", "tmap:A:64+:16", "box side '64+'");

	refused("tmap:A:64", "tmap:A:64", "want tmap:A|B|C:INNER:OUTER");
	refused("tmap:D:64:64 C M N K", "tmap:D:64:64", "want tmap:A|B|C");
	refused("tmap:A:512:64", "tmap:A:512:64", "box side '512' is 512");
	refused("tmap:A:0:64", "tmap:A:0:64", "is 0");
	refused("tmap:A:64:64:16B", "tmap:A:64:64:16B", "unknown swizzle '16B'");
	refused("tmap:A:64:64:none:x", "tmap:A:64:64:none:x", "want tmap:");
	refused("tmap:A::64", "tmap:A::64", "want tmap:");
	assert_int_equal(argspec_parse("tmap:B:64:BQ", &env, &a, err, sizeof err), -1);
	assert_non_null(strstr(err, "'tmap:B:64:BQ'"));
	assert_non_null(strstr(err, "unknown name 'BQ'"));
	refused("tmap:A:8:8 tmap:B:8:8 tmap:C:8:8 tmap:A:8:8 tmap:B:8:8", "tmap:B:8:8", "more than 4 tensor maps");
}

static void test_lengths_are_refused_not_cut(void **st)
{
	(void)st;
	char spec[1024] = "", tok[ARGSPEC_TOKEN + 8];
	/* ARGSPEC_MAX parameters are fine, one more is refused. */
	for (int i = 0; i < ARGSPEC_MAX; i++)
		strcat(spec, "u32:1 ");
	assert_int_equal(ok(spec, NULL)->n, ARGSPEC_MAX);
	strcat(spec, "u32:2");
	refused(spec, "u32:2", "more than 32 parameters");
	/* A token longer than the limit is refused, not cut to a valid one. */
	snprintf(tok, sizeof tok, "u32:%0*d", ARGSPEC_TOKEN - 4, 1);
	refused(tok, "", "longer than 63 characters");
	tok[ARGSPEC_TOKEN - 1] = '\0';
	assert_int_equal(ok(tok, NULL)->item[0].bits, 0);
}

/* ---- callers ---- */

static const char hopper[] =
	"---\n"
	"id: wgmma\n"
	"title: T\n"
	"kernel: ptx/09_wgmma.ptx hgemm_wgmma\n"
	"dtype: f16\n"
	"params: BM=128 BN=256 BK=64\n"
	"block: 384\n"
	"tile: BM BN\n"
	"%s\n"
	"runtime: BK\n" /* the what-if below must reach the launch, not stop as model-only */
	"---\n"
	"# P\n";

static int parse_lesson(const char *args_line, lesson *l)
{
	char text[1024];
	snprintf(text, sizeof text, hopper, args_line);
	err[0] = '\0';
	return lesson_parse("lessons/09-wgmma.md", text, l, err, sizeof err);
}

/* The loader checks args when it reads it: a bad line is a file:line error. */
static void test_lesson_loader_names_the_line(void **st)
{
	(void)st;
	lesson *l = calloc(1, sizeof *l);
	assert_int_equal(parse_lesson("args: A B u32:abc M N K", l), -1);
	assert_non_null(strstr(err, "lessons/09-wgmma.md:9: args: 'u32:abc': not an integer"));
	assert_int_equal(parse_lesson("args: tmap:A:BK A B C", l), -1);
	assert_non_null(strstr(err, "lessons/09-wgmma.md:9: args: 'tmap:A:BK'"));
	assert_int_equal(parse_lesson("args: A,,B", l), -1);
	assert_non_null(strstr(err, "lessons/09-wgmma.md:9: args: an empty parameter"));
	assert_int_equal(parse_lesson("args: tmap:A:BK:BM:128B tmap:B:64:BK C M N K", l), 0);
	assert_string_equal(l->args, "tmap:A:BK:BM:128B tmap:B:64:BK C M N K");
	lesson_free(l);
	free(l);
}

/* The launch evaluates the boxes with the lesson's parameters and what-ifs. */
static void test_launch_evaluates_boxes(void **st)
{
	(void)st;
	lesson *l = calloc(1, sizeof *l);
	assert_int_equal(parse_lesson("args: tmap:A:BK:BM:128B tmap:B:64:BK C M N K", l), 0);
	expr_env over = {0};
	run_request rq;
	expr_set(&over, "BK", 32);
	assert_int_equal(launch_request_for_lesson(l, &over, 1024, 512, 256, &rq, err, sizeof err), 0);
	assert_int_equal(rq.args.n, 6);
	item_is(&rq.args.item[0], ARG_TMAP, 128, "tmap:A:32:128:128B");
	item_is(&rq.args.item[1], ARG_TMAP, 128, "tmap:B:64:32:none");
	item_is(&rq.args.item[3], ARG_SIZE, 4, "M");
	/* A what-if that makes a box impossible is refused, with the file and the token. */
	expr_set(&over, "BK", 512);
	assert_int_equal(launch_request_for_lesson(l, &over, 1024, 512, 256, &rq, err, sizeof err), -1);
	assert_non_null(strstr(err, "lessons/09-wgmma.md: args: 'tmap:A:BK:BM:128B': box side 'BK' is 512"));
	assert_true(launch_deadline(&rq) >= 30.0);
	lesson_free(l);
	free(l);
}

static run_request small_request(const char *spec)
{
	run_request rq = {0};
	util_path(rq.ptx_path, sizeof rq.ptx_path, "tests/data/gemm_test.ptx");
	util_strlcpy(rq.entry, "gemm_f32", sizeof rq.entry);
	rq.dt = DTYPE_F32;
	rq.M = rq.N = rq.K = 32;
	rq.grid[0] = rq.grid[1] = 2;
	rq.block[0] = rq.block[1] = 16;
	rq.verify = 1;
	if (spec && argspec_parse(spec, NULL, &rq.args, err, sizeof err))
		fail_msg("'%s': %s", spec, err);
	return rq;
}

/* BLAS's named scalars: f32 by value, each at most once, checked like literals, and what they ask of a run. */
static void test_fp8_scales(void **st)
{
	(void)st;
	const argspec *p = ok("A B C M N K scale:A scale:B", NULL);
	assert_int_equal(p->n, 8);
	item_is(&p->item[6], ARG_SCALE, 4, "scale:A");
	item_is(&p->item[7], ARG_SCALE, 4, "scale:B");
	assert_int_equal(p->item[6].name, 'A');
	assert_int_equal(p->item[7].name, 'B');
	assert_int_equal(p->item[7].type, ARG_F32);
	/* a scale is no BLAS scalar: C still starts poisoned */
	argspec_blas b = argspec_blas_of(p);
	assert_false(b.has_alpha || b.has_beta);
	refused("A B C scale:C", "scale:C", "want scale:A or scale:B");
	refused("scale:", "scale:", "want scale:A or scale:B");
	refused("scale:a", "scale:a", "want scale:A or scale:B");
	refused("scale:B A scale:B", "scale:B", "scale:B is given twice");
	refused("scale", "scale", "scale:A");
}

static void test_blas_scalars(void **st)
{
	(void)st;
	const argspec *p = ok("M N K alpha:1.5 A B beta:0.5 C", NULL);
	assert_int_equal(p->n, 8);
	item_is(&p->item[3], ARG_SCALAR, 4, "alpha:1.5");
	item_is(&p->item[6], ARG_SCALAR, 4, "beta:0.5");
	assert_int_equal(p->item[3].bits, 0x3fc00000u);
	argspec_blas b = argspec_blas_of(p);
	assert_true(b.has_alpha && b.has_beta);
	assert_true(b.alpha == 1.5f && b.beta == 0.5f);
	b = argspec_blas_of(ok("A B C M N K", NULL));
	assert_false(b.has_alpha || b.has_beta);
	assert_true(b.alpha == 1.0f);
	b = argspec_blas_of(ok("M N K alpha:-2 A B beta:0 C", NULL));
	assert_true(b.has_beta && b.beta == 0.0f && b.alpha == -2.0f);
	refused("alpha:", "alpha:", "no value after 'alpha:'");
	refused("beta:abc", "beta:abc", "not a number");
	refused("beta:1e39", "beta:1e39", "out of range for f32");
	refused("alpha:1 A alpha:2", "alpha:2", "alpha is given twice");
	refused("beta:1 beta:1", "beta:1", "beta is given twice");
	refused("gamma:1", "gamma:1", "alpha:1.5 beta:0.5");
}

/* The emulator takes the parsed list: literals reach the kernel, tensor maps are refused clearly. */
static void test_emulator_takes_the_list(void **st)
{
	(void)st;
	static emu_result res;
	char msg[512];
	run_request rq = small_request(NULL);
	assert_int_equal(emu_run(&rq, NULL, &res, msg, sizeof msg), 0);
	assert_int_equal(res.verified, 1);
	rq = small_request("A B C u32:32 N u32:0x20");
	assert_int_equal(emu_run(&rq, NULL, &res, msg, sizeof msg), 0);
	assert_int_equal(res.verified, 1);
	/* A wrong K literal: the kernel sums only half of each dot product. */
	rq = small_request("A B C M N u32:16");
	assert_int_equal(emu_run(&rq, NULL, &res, msg, sizeof msg), 0);
	assert_int_equal(res.verified, 0);
	rq = small_request("A B C u64:32 N K");
	assert_int_equal(emu_run(&rq, NULL, &res, msg, sizeof msg), EMU_ERR_BAD_REQUEST);
	assert_non_null(strstr(msg, "is 4 bytes, the args spec gives 8 (u64:32)"));
	rq = small_request("A B C M N");
	assert_int_equal(emu_run(&rq, NULL, &res, msg, sizeof msg), EMU_ERR_BAD_REQUEST);
	assert_non_null(strstr(msg, "takes 6 parameters, the args spec gives 5"));

	rq = small_request("tmap:A:32:32:128B B C M N K");
	assert_int_equal(emu_run(&rq, NULL, &res, msg, sizeof msg), EMU_ERR_BAD_REQUEST);
	/* a tensor map goes into a 128-byte parameter, not the kernel's pointer A */
	assert_non_null(strstr(msg, "is 8 bytes; a tensor map (tmap:A:32:32:128B) takes 128"));
	assert_null(strstr(msg, "unknown type"));
	/* Through the worker's offline path it is a bad request, not a fault. */
	static run_result rr;
	rq.backend = RUN_BACKEND_EMU;
	exec_run(&rq, &rr);
	assert_int_equal(rr.status, RUN_BAD_REQUEST);
	assert_non_null(strstr(rr.msg, "a tensor map (tmap:A:32:32:128B) takes 128"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_default),
		cmocka_unit_test(test_every_type),
		cmocka_unit_test(test_malformed_literals_are_named),
		cmocka_unit_test(test_tensor_maps_with_expressions),
		cmocka_unit_test(test_lengths_are_refused_not_cut),
		cmocka_unit_test(test_lesson_loader_names_the_line),
		cmocka_unit_test(test_launch_evaluates_boxes),
		cmocka_unit_test(test_emulator_takes_the_list),
		cmocka_unit_test(test_blas_scalars),
		cmocka_unit_test(test_fp8_scales),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
