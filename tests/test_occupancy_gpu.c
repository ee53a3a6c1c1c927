/* test_occupancy_gpu: occ_compute against the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor (skips without a GPU). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cuda.h"
#include "model/devices.h"
#include "course/lesson.h"
#include "model/occupancy.h"
#include "base/util.h"

/* Register pressure and static shared memory of the generated kernels. */
static const int accs[] = {2, 6, 12, 20, 28, 36, 44, 52, 60, 76, 92, 108, 124, 150, 180, 220};
static const int smems[] = {0, 256, 4096, 20000, 49152};

/* A kernel that keeps n accumulators live across a loop, so the JIT needs about
 * n registers; .maxnreg keeps it from going past 255. */
static void gen_kernel(strbuf *sb, int idx, int n, int smem)
{
	sb_printf(sb, ".visible .entry k%d(.param .u64 p, .param .u32 cnt)\n{\n", idx);
	sb_printf(sb, "\t.reg .pred %%more;\n\t.reg .b32 %%i, %%n;\n\t.reg .b64 %%p;\n\t.reg .f32 %%a<%d>, %%x;\n", n);
	if (smem)
		sb_printf(sb, "\t.shared .align 4 .b8 buf[%d];\n", smem);
	sb_printf(sb, "\tld.param.u64 %%p, [p];\n\tld.param.u32 %%n, [cnt];\n\tcvta.to.global.u64 %%p, %%p;\n");
	for (int i = 0; i < n; i++)
		sb_printf(sb, "\tld.global.f32 %%a%d, [%%p+%d];\n", i, 4 * i);
	sb_printf(sb, "\tmov.u32 %%i, 0;\nL:\n\tld.global.f32 %%x, [%%p];\n");
	for (int i = 0; i < n; i++)
		sb_printf(sb, "\tfma.rn.f32 %%a%d, %%a%d, %%x, %%a%d;\n", i, (i + 1) % n, i);
	sb_printf(sb, "\tadd.u32 %%i, %%i, 1;\n\tsetp.lt.u32 %%more, %%i, %%n;\n\t@%%more bra L;\n");
	for (int i = 0; i < n; i++)
		sb_printf(sb, "\tst.global.f32 [%%p+%d], %%a%d;\n", 4 * i, i);
	if (smem)
		sb_printf(sb, "\tst.shared.f32 [buf], %%a0;\n\tld.shared.f32 %%x, [buf+%d];\n\tst.global.f32 [%%p], %%x;\n",
			  smem - 4);
	sb_printf(sb, "\tret;\n}\n");
}

static int lcg(unsigned *s, int n)
{
	*s = *s * 1103515245u + 12345u;
	return (int)((*s >> 8) % (unsigned)n);
}

static void test_matches_driver(void **state)
{
	(void)state;
	char why[256];
	const cuda_api *cu = cuda_load(why, sizeof why);
	if (!cu) {
		printf("skipping: no GPU (%s)\n", why);
		skip();
	}
	gpu_spec g;
	static gpu_table t;
	char err[256];
	assert_int_equal(cuda_device_spec(&g), 0);
	if (devices_load(&t, err, sizeof err) > 0)
		devices_complete(&t, &g);

	const int nk = (int)(ARRAY_LEN(accs) * ARRAY_LEN(smems));
	strbuf sb = {0};
	sb_append(&sb, ".version 7.0\n.target sm_50\n.address_size 64\n");
	for (int i = 0; i < nk; i++)
		gen_kernel(&sb, i, accs[i % ARRAY_LEN(accs)], smems[i / ARRAY_LEN(accs)]);
	CUmodule mod;
	assert_int_equal(cu->ModuleLoadDataEx(&mod, sb.data, 0, NULL, NULL), 0);
	sb_free(&sb);

	int compared = 0, equal = 0;
	unsigned seed = 12345;
	for (int trial = 0; trial < 600; trial++) {
		int k = lcg(&seed, nk);
		char name[16];
		CUfunction f;
		snprintf(name, sizeof name, "k%d", k);
		assert_int_equal(cu->ModuleGetFunction(&f, mod, name), 0);
		int regs, sstatic;
		cu->FuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
		cu->FuncGetAttribute(&sstatic, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
		/* Mostly whole warps, sometimes ragged block sizes. */
		int threads = lcg(&seed, 4) ? 32 * (1 + lcg(&seed, 32)) : 1 + lcg(&seed, 1024);
		int room = g.smem_optin - sstatic;
		int dyn = lcg(&seed, 3) == 0 ? 0 : lcg(&seed, room + 1);
		cu->FuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, room);
		int driver = -1;
		if (cu->OccupancyMaxActiveBlocksPerMultiprocessor(&driver, f, threads, (size_t)dyn))
			driver = 0; /* the driver refuses a block that cannot launch */
		occ_input in = {threads, regs, sstatic, dyn};
		occ_result out;
		occ_compute(&g, &in, &out);
		compared++;
		if (out.blocks_per_sm == driver)
			equal++;
		else
			printf("MISMATCH threads=%d regs=%d static=%d dynamic=%d: driver %d, ours %d (%s)\n", threads,
			       regs, sstatic, dyn, driver, out.blocks_per_sm, out.limiter);
	}
	cu->ModuleUnload(mod);

	/* Every lesson kernel at its default launch shape. */
	static course c;
	course_load(&c, NULL, 0);
	int lessons = 0, lessons_equal = 0;
	for (int i = 0; i < c.n; i++) {
		const lesson *l = &c.l[i];
		expr_env env;
		lesson_launch ln;
		char path[600];
		if (!l->ptx_path[0] || l->needs_sm > g.cc_major * 10 + g.cc_minor)
			continue;
		lesson_env(l, NULL, 4096, 4096, 4096, &env);
		if (lesson_launch_for(l, &env, &ln, err, sizeof err))
			continue;
		util_path(path, sizeof path, l->ptx_path);
		char *ptx = util_read_file(path, NULL, err, sizeof err);
		CUfunction f;
		if (!ptx || cu->ModuleLoadDataEx(&mod, ptx, 0, NULL, NULL) || cu->ModuleGetFunction(&f, mod, l->entry)) {
			free(ptx);
			continue;
		}
		free(ptx);
		int regs, sstatic, driver = 0;
		int threads = (int)(ln.block[0] * ln.block[1] * ln.block[2]);
		cu->FuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
		cu->FuncGetAttribute(&sstatic, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
		cu->FuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, g.smem_optin - sstatic);
		cu->OccupancyMaxActiveBlocksPerMultiprocessor(&driver, f, threads, ln.smem);
		occ_input in = {threads, regs, sstatic, (int)ln.smem};
		occ_result out;
		occ_compute(&g, &in, &out);
		lessons++;
		lessons_equal += out.blocks_per_sm == driver;
		printf("lesson %d %-12s threads %4d regs %3d smem %6d+%-6u driver %d ours %d (%s)\n", l->number, l->id,
		       threads, regs, sstatic, ln.smem, driver, out.blocks_per_sm, out.limiter);
		cu->ModuleUnload(mod);
	}
	course_free(&c);
	printf("occupancy vs driver on %s: %d/%d random configurations equal, %d/%d lesson kernels equal\n", g.name,
	       equal, compared, lessons_equal, lessons);
	assert_int_equal(equal, compared);
	assert_int_equal(lessons_equal, lessons);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_matches_driver)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
