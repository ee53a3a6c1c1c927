/* jitcubin: the driver's JIT as a compiler for the SASS view — PTX linked with CU_JIT_GENERATE_LINE_INFO into a cubin file that nvdisasm then reads; the cuLink* entry points come from gpu/cuda.c's one table (optional there). */
#include "gpu/jitcubin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "gpu/cuda.h"

/* cuda.h's CUjitInputType value, checked against the driver API docs. */
enum { JIT_INPUT_PTX = 1 };

/* "driver JIT 580.159.04": the kernel module's version as nvidia-smi shows
 * it; else the driver API's CUDA version. */
static void driver_name(const cuda_api *api, char *buf, size_t len)
{
	char *t = util_read_file("/proc/driver/nvidia/version", NULL, NULL, 0);
	const char *m = t ? strstr(t, "Kernel Module") : NULL;
	if (m) {
		m += strlen("Kernel Module");
		while (*m == ' ' || *m == '\t')
			m++;
		size_t n = strspn(m, "0123456789.");
		if (n) {
			snprintf(buf, len, "driver JIT %.*s", (int)n, m);
			free(t);
			return;
		}
	}
	free(t);
	snprintf(buf, len, "driver JIT (CUDA %d.%d)", api->driver_version / 1000, api->driver_version % 1000 / 10);
}

void jitcubin_run(const run_request *rq, run_result *res)
{
	memset(res, 0, sizeof *res);
	res->verified = -1;
	char why[256];
	const cuda_api *api = cuda_load(why, sizeof why);
	if (!api) {
		res->status = RUN_NO_GPU;
		util_strlcpy(res->msg, why, sizeof res->msg);
		return;
	}
	api->DeviceGetName(res->gpu, sizeof res->gpu, api->dev);
	api->DeviceGetAttribute(&res->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, api->dev);
	api->DeviceGetAttribute(&res->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, api->dev);
	if (!api->LinkCreate || !api->LinkAddData || !api->LinkComplete || !api->LinkDestroy) {
		res->status = RUN_NO_GPU;
		util_strlcpy(res->msg, "the NVIDIA driver lacks cuLinkCreate", sizeof res->msg);
		return;
	}
	size_t len = 0;
	char *ptx = util_read_file(rq->ptx_path, &len, why, sizeof why);
	if (!ptx) {
		res->status = RUN_BAD_REQUEST;
		util_strlcpy(res->msg, why, sizeof res->msg);
		return;
	}
	/* The driver keeps what it compiled in a cache keyed by the PTX text, and
	 * a module served from that cache comes with no log: no register count.
	 * A comment that differs on every call makes each link a compile. */
	static unsigned calls;
	char nonce[96];
	int nn = snprintf(nonce, sizeof nonce, "\n// ptxtutor sass: compile %d.%u.%.0f\n", (int)getpid(), ++calls,
			  util_now() * 1e6);
	ptx = xrealloc(ptx, len + (size_t)nn + 1);
	memcpy(ptx + len, nonce, (size_t)nn + 1);
	len += (size_t)nn;
	/* The info log is ptxas -v's text (registers, stack, spills) with LOG_VERBOSE. */
	static char info[RUN_LOG], errlog[RUN_LOG];
	info[0] = errlog[0] = '\0';
	int opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
		      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE, CU_JIT_GENERATE_LINE_INFO};
	void *vals[] = {info, (void *)(uintptr_t)sizeof info, errlog, (void *)(uintptr_t)sizeof errlog,
			(void *)(uintptr_t)1, (void *)(uintptr_t)1};
	CUlinkState st = NULL;
	void *cubin = NULL;
	size_t size = 0;
	CUresult r = api->LinkCreate((unsigned)ARRAY_LEN(opts), opts, vals, &st);
	if (r == CUDA_SUCCESS)
		r = api->LinkAddData(st, JIT_INPUT_PTX, ptx, len + 1, rq->ptx_path, 0, NULL, NULL);
	if (r == CUDA_SUCCESS)
		r = api->LinkComplete(st, &cubin, &size);
	free(ptx);
	driver_name(api, res->msg, sizeof res->msg);
	if (r != CUDA_SUCCESS) {
		res->status = RUN_JIT_ERROR;
		snprintf(res->msg, sizeof res->msg, "the driver's JIT refused it: %s", cuda_error(r));
		/* The error log first; the info log after it, as much as fits. */
		snprintf(res->log, sizeof res->log, "%.4000s%s%.4000s", errlog, errlog[0] ? "\n" : "", info);
	} else {
		/* The cubin belongs to the link state: write it before destroying that. */
		FILE *f = fopen(rq->cubin_path, "wb");
		int ok = f && fwrite(cubin, 1, size, f) == size;
		if (f && fclose(f) != 0)
			ok = 0;
		if (!ok) {
			res->status = RUN_BAD_REQUEST;
			snprintf(res->msg, sizeof res->msg, "cannot write %.200s", rq->cubin_path);
		}
		util_strlcpy(res->log, info, sizeof res->log);
	}
	if (st)
		api->LinkDestroy(st);
}
