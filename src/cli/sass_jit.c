/* sass_jit: the SASS view's cubin from the GPU's own JIT — the worker child links the `.loc` copy with line information (src/gpu/jitcubin.c), this side disassembles it (course/sass_tools.c). */
#include "cli/sass_jit.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "run/launch.h"

int sass_jit_build(worker *w, const char *ptx_path, const char *entry, double deadline_s, sass_kernel *k,
		   char *err, size_t errlen)
{
	sass_kernel_init(k, entry);
	/* Without a disassembler the JIT's cubin is no use: say so before the work. */
	if (!sass_have_disasm(err, errlen))
		return SASS_MISSING;
	if (w->pid <= 0 && worker_start(w) < 0) {
		snprintf(err, errlen, "cannot start the GPU worker process");
		return SASS_NO_GPU;
	}
	sass_job j;
	int rc = sass_job_start(&j, ptx_path, err, errlen);
	if (rc)
		return rc;
	static run_request rq;
	launch_request_cubin(&rq, j.ptx, entry, j.cubin, deadline_s);
	static run_result res;
	if (worker_submit(w, &rq) < 0) {
		sass_job_end(&j);
		snprintf(err, errlen, "cannot send the JIT request to the GPU worker");
		return SASS_NO_GPU;
	}
	for (;;) {
		struct pollfd p = {worker_fd(w), POLLIN, 0};
		poll(&p, 1, 200);
		if (worker_poll(w, &res))
			break;
	}
	if (res.status == RUN_NO_GPU) {
		sass_job_end(&j);
		snprintf(err, errlen, "%s", res.msg);
		return SASS_NO_GPU;
	}
	if (res.status != RUN_OK) {
		sass_job_end(&j);
		/* The JIT's first complaint, on one line. */
		char first[200] = "";
		sscanf(res.log, "%199[^\n]", first);
		snprintf(err, errlen, "%s%s%s", res.msg, first[0] ? ": " : "", first);
		return SASS_FAILED;
	}
	sass_parse_ptxas_v(res.log, entry, k);
	/* The GPU's own target, sm_90a where the PTX asks for the variant. */
	char *text = util_read_file(ptx_path, NULL, NULL, 0);
	sass_arch_for(text, res.cc_major, res.cc_minor, k->arch, sizeof k->arch);
	free(text);
	util_strlcpy(k->compiler, res.msg, sizeof k->compiler);
	util_strlcpy(k->gpu, res.gpu, sizeof k->gpu);
	snprintf(k->tools, sizeof k->tools, "driver JIT (line info)");
	rc = sass_job_disasm(&j, entry, k, err, errlen);
	sass_job_end(&j);
	return rc;
}
