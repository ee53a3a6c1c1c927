/* test_exec_sass: the SASS chain's policy (exec/sass.c) — ptxas with the stand-in tools, the recording where the toolkit is missing, each exception's one wording, JIT-only without a GPU — and the chain as a job: the same answer as in-process, stopped at Esc (its folder gone) and at its deadline. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "course/sass_tools.h"
#include "exec/sass.h"

static char fake[600], nokit[600], slow[600], tmp[64];

static void target(exec_sass_target *t, int lesson)
{
	*t = (exec_sass_target){.lesson = lesson};
	util_path(t->path, sizeof t->path, "ptx/01_naive.ptx");
	util_strlcpy(t->entry, "sgemm_naive", sizeof t->entry);
	util_strlcpy(t->arch, "sm_90", sizeof t->arch);
	util_strlcpy(t->gpu, "H100 SXM5 80GB", sizeof t->gpu);
}

static const exec_sass_policy offline = {.allow_ptxas = 1, .allow_recorded = 1};

/* The number of entries in dir, "." and ".." aside. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* Polls j until it answers, at most 30 s. */
static int finish(exec_sass_job *j, exec_sass_out *out)
{
	double end = util_now() + 30;
	while (util_now() < end) {
		if (exec_sass_job_poll(j, out))
			return 1;
		struct pollfd pf = {j->fd, POLLIN, 0};
		poll(&pf, 1, 100);
	}
	return 0;
}

static void test_ptxas(void **state)
{
	(void)state;
	setenv("PTXTUTOR_CUDA_BIN", fake, 1);
	exec_sass_target t;
	target(&t, 1);
	exec_sass_out out;
	exec_sass(&t, &offline, NULL, &out);
	assert_int_equal(out.status, 0);
	assert_int_equal(out.k.n, 14);
	assert_int_equal(out.k.regs, 28);
	assert_string_equal(out.k.compiler, "ptxas 99.9.1");
	assert_string_equal(out.k.gpu, "H100 SXM5 80GB");
	assert_string_equal(out.k.recorded_date, "");
	assert_non_null(out.disasm); /* what a recording keeps */
	/* the job gives the same answer, and leaves no folder behind */
	exec_sass_job j;
	exec_sass_out jo;
	assert_int_equal(exec_sass_job_start(&j, &t, &offline, 0), 0);
	assert_true(finish(&j, &jo));
	assert_int_equal(jo.status, 0);
	assert_int_equal(jo.k.n, out.k.n);
	assert_int_equal(jo.k.regs, out.k.regs);
	for (int i = 0; i < out.k.n; i++) {
		assert_int_equal(jo.k.ins[i].line, out.k.ins[i].line);
		assert_int_equal(jo.k.ins[i].addr, out.k.ins[i].addr);
		assert_string_equal(jo.k.ins[i].text, out.k.ins[i].text);
	}
	assert_string_equal(jo.k.tools, out.k.tools);
	assert_string_equal(jo.disasm, out.disasm);
	assert_int_equal(entries(tmp), 0);
	exec_sass_out_free(&jo);
	exec_sass_out_free(&out);
}

static void test_recorded_and_exceptions(void **state)
{
	(void)state;
	setenv("PTXTUTOR_CUDA_BIN", nokit, 1);
	exec_sass_target t;
	target(&t, 1);
	exec_sass_out out;
	exec_sass(&t, &offline, NULL, &out);
	assert_int_equal(out.status, 0);
	assert_string_not_equal(out.k.recorded_date, "");
	exec_sass_out_free(&out);
	/* each exception: the toolkit's line and its one wording */
	const char *why[] = {EXEC_SASS_NOREC_EDITED, EXEC_SASS_NOREC_JIT};
	for (size_t i = 0; i < sizeof why / sizeof why[0]; i++) {
		exec_sass_policy p = {.allow_ptxas = 1, .why_not_recorded = why[i]};
		exec_sass(&t, &p, NULL, &out);
		assert_int_equal(out.status, SASS_MISSING);
		assert_non_null(strstr(out.err, "nvidia-cuda-toolkit"));
		assert_non_null(strstr(out.err, why[i]));
		assert_null(strchr(out.err, '\n'));
		exec_sass_out_free(&out);
	}
	/* making a recording: the missing tool's line alone */
	exec_sass_policy rec = {.allow_ptxas = 1};
	exec_sass(&t, &rec, NULL, &out);
	assert_int_equal(out.status, SASS_MISSING);
	assert_string_equal(out.err, sass_missing_line());
	exec_sass_out_free(&out);
}

/* The JIT alone where no GPU answers: SASS_NO_GPU, nothing else tried. */
static void test_jit_only_without_gpu(void **state)
{
	(void)state;
	if (access("/dev/nvidiactl", F_OK) == 0) {
		skip();
		return;
	}
	setenv("PTXTUTOR_CUDA_BIN", fake, 1);
	exec_sass_target t;
	target(&t, 1);
	exec_sass_policy p = {.allow_jit = 1, .why_not_recorded = EXEC_SASS_NOREC_JIT};
	exec_sass_out out;
	exec_sass(&t, &p, NULL, &out);
	assert_int_equal(out.status, SASS_NO_GPU);
	assert_string_not_equal(out.err, "");
	exec_sass_out_free(&out);
}

/* A hung ptxas: stopped at once (its folder gone), or at the job's deadline. */
static void test_stop_and_deadline(void **state)
{
	(void)state;
	setenv("PTXTUTOR_CUDA_BIN", slow, 1);
	exec_sass_target t;
	target(&t, 1);
	exec_sass_job j;
	assert_int_equal(exec_sass_job_start(&j, &t, &offline, 0), 0);
	/* until the stand-in runs: its folder holds the tools' one */
	double end = util_now() + 20;
	char dir[sizeof j.dir];
	util_strlcpy(dir, j.dir, sizeof dir);
	while (entries(dir) == 0 && util_now() < end)
		usleep(20000);
	assert_int_equal(entries(tmp), 1);
	exec_sass_job_stop(&j);
	assert_int_equal(j.fd, -1);
	assert_int_equal(entries(tmp), 0);
	/* the job's own deadline */
	exec_sass_out out;
	double t0 = util_now();
	assert_int_equal(exec_sass_job_start(&j, &t, &offline, 0.5), 0);
	assert_true(finish(&j, &out));
	assert_int_equal(out.status, SASS_TIMEOUT);
	assert_true(util_now() - t0 < 10);
	assert_int_equal(entries(tmp), 0);
	exec_sass_out_free(&out);
}

static int setup(void **state)
{
	(void)state;
	util_path(fake, sizeof fake, "tests/data/sass/fakebin");
	snprintf(tmp, sizeof tmp, "/tmp/test_exec_sass-%d", (int)getpid());
	snprintf(nokit, sizeof nokit, "%s-nokit", tmp);
	snprintf(slow, sizeof slow, "%s-slow", tmp);
	mkdir(tmp, 0700);
	mkdir(nokit, 0700);
	mkdir(slow, 0700);
	char p[700];
	snprintf(p, sizeof p, "%s/ptxas", slow);
	FILE *f = fopen(p, "w");
	fputs("#!/bin/sh\n[ \"$1\" = --version ] && exit 0\nexec sleep 30\n", f);
	fclose(f);
	chmod(p, 0700);
	char nv[700];
	snprintf(nv, sizeof nv, "%s/nvdisasm", fake);
	snprintf(p, sizeof p, "%s/nvdisasm", slow);
	if (symlink(nv, p) < 0)
		return -1;
	setenv("TMPDIR", tmp, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char p[700];
	snprintf(p, sizeof p, "%s/ptxas", slow);
	unlink(p);
	snprintf(p, sizeof p, "%s/nvdisasm", slow);
	unlink(p);
	rmdir(slow);
	rmdir(nokit);
	rmdir(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ptxas),
		cmocka_unit_test(test_recorded_and_exceptions),
		cmocka_unit_test(test_jit_only_without_gpu),
		cmocka_unit_test(test_stop_and_deadline),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
