/* jitcubin: the driver's JIT as a compiler for the SASS view — the cubin a module load of the PTX makes (what `run` runs), taken from the JIT's cache, or else the PTX linked with cuLink* (another compile); CU_JIT_GENERATE_LINE_INFO either way, for nvdisasm to read. */
#define _GNU_SOURCE /* memmem */
#include "gpu/jitcubin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "course/sass_tools.h"
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

/* The cache folder this process's JIT writes to: named to the driver before CUDA starts here (the
 * worker that serves a SASS request is a fresh process), which makes it; "" where that cannot be.
 * Removed after each request and at exit: nothing is left where no GPU answered. */
static char cache_dir[96];

static void remove_cache(void)
{
	if (cache_dir[0])
		sass_remove_tree(cache_dir);
}

static void own_cache(void)
{
	const char *off = getenv("CUDA_CACHE_DISABLE");
	if (cache_dir[0] || cuda_loaded() || (off && strcmp(off, "0")))
		return;
	const char *tmp = getenv("TMPDIR");
	snprintf(cache_dir, sizeof cache_dir, "%.40s/ptxtutor-jit-%d-%.0f", tmp && *tmp ? tmp : "/tmp", (int)getpid(),
		 util_now() * 1e6);
	setenv("CUDA_CACHE_PATH", cache_dir, 1);
	atexit(remove_cache);
}

/* The cubin in the cache entry that holds `mark` (the compiled text's nonce): the ELF after it, cut at
 * its section and program headers (the entry's format is the driver's, undocumented), else NULL. */
void *jitcubin_cached(const char *dir, const char *mark, size_t *size)
{
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	void *got = NULL;
	struct dirent *e;
	while (!got && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) < 0 || S_ISLNK(st.st_mode)) /* the driver's files, never through a link */
			continue;
		if (S_ISDIR(st.st_mode)) {
			got = jitcubin_cached(path, mark, size);
			continue;
		}
		size_t len = 0;
		char *b = util_read_file(path, &len, NULL, 0);
		const char *m = b ? memmem(b, len, mark, strlen(mark)) : NULL;
		const char *elf = m ? memmem(m, len - (size_t)(m - b), "\x7f" "ELF", 4) : NULL;
		size_t at = elf ? (size_t)(elf - b) : 0;
		if (elf && len - at >= 64) {
			uint64_t phoff, shoff;
			uint16_t phsize, phnum, shsize, shnum;
			memcpy(&phoff, elf + 0x20, 8), memcpy(&shoff, elf + 0x28, 8);
			memcpy(&phsize, elf + 0x36, 2), memcpy(&phnum, elf + 0x38, 2);
			memcpy(&shsize, elf + 0x3a, 2), memcpy(&shnum, elf + 0x3c, 2);
			uint64_t a = shoff + (uint64_t)shsize * shnum, p = phoff + (uint64_t)phsize * phnum, end = a > p ? a : p;
			if (end >= 64 && end <= len - at) {
				got = xmalloc((size_t)end);
				memcpy(got, elf, (size_t)end);
				*size = (size_t)end;
			}
		}
		free(b);
	}
	closedir(d);
	return got;
}

/* Writes size bytes to path: 0, or -1 with msg set. */
static int write_cubin(const char *path, const void *cubin, size_t size, run_result *res)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(cubin, 1, size, f) == size;
	if (f && fclose(f) != 0)
		ok = 0;
	if (!ok) {
		res->status = RUN_BAD_REQUEST;
		snprintf(res->msg, sizeof res->msg, "cannot write %.200s", path);
	}
	return ok ? 0 : -1;
}

void jitcubin_run(const run_request *rq, run_result *res)
{
	memset(res, 0, sizeof *res);
	res->verified = -1;
	char why[256];
	own_cache();
	const cuda_api *api = cuda_load(why, sizeof why);
	if (!api) {
		res->status = RUN_NO_GPU;
		util_strlcpy(res->msg, why, sizeof res->msg);
		return;
	}
	api->DeviceGetName(res->gpu, sizeof res->gpu, api->dev);
	api->DeviceGetAttribute(&res->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, api->dev);
	api->DeviceGetAttribute(&res->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, api->dev);
	size_t len = 0;
	char *ptx = util_read_file(rq->ptx_path, &len, why, sizeof why);
	if (!ptx) {
		res->status = RUN_BAD_REQUEST;
		util_strlcpy(res->msg, why, sizeof res->msg);
		return;
	}
	/* The driver keeps what it compiled in a cache keyed by the PTX text, and
	 * a module served from that cache comes with no log: no register count.
	 * A comment that differs on every call makes each load a compile, and
	 * names its entry in the cache. */
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
	driver_name(api, res->msg, sizeof res->msg);
	/* The module load `run` makes (cuModuleLoadDataEx, the same options): its cubin from the cache. A
	 * cuLink compile of the same text is other code (2026-11-28, H200: lesson 7's 50 of 2448
	 * instructions alike), the fallback where the cache is not this process's or not there. */
	if (cache_dir[0] && api->ModuleLoadDataEx && api->ModuleUnload) {
		CUmodule mod = NULL;
		CUresult r = api->ModuleLoadDataEx(&mod, ptx, (unsigned)ARRAY_LEN(opts), opts, vals);
		if (r != CUDA_SUCCESS) {
			free(ptx);
			res->status = RUN_JIT_ERROR;
			snprintf(res->msg, sizeof res->msg, "the driver's JIT refused it: %s", cuda_error(r));
			snprintf(res->log, sizeof res->log, "%.4000s%s%.4000s", errlog, errlog[0] ? "\n" : "", info);
			return;
		}
		api->ModuleUnload(mod);
		size_t size = 0;
		void *cubin = jitcubin_cached(cache_dir, nonce + 1, &size);
		remove_cache();
		if (cubin) {
			free(ptx);
			if (write_cubin(rq->cubin_path, cubin, size, res) == 0)
				util_strlcpy(res->log, info, sizeof res->log);
			free(cubin);
			return;
		}
		info[0] = errlog[0] = '\0';
	}
	if (!api->LinkCreate || !api->LinkAddData || !api->LinkComplete || !api->LinkDestroy) {
		free(ptx);
		res->status = RUN_NO_GPU;
		util_strlcpy(res->msg, "the NVIDIA driver lacks cuLinkCreate", sizeof res->msg);
		return;
	}
	CUlinkState st = NULL;
	void *cubin = NULL;
	size_t size = 0;
	CUresult r = api->LinkCreate((unsigned)ARRAY_LEN(opts), opts, vals, &st);
	if (r == CUDA_SUCCESS)
		r = api->LinkAddData(st, JIT_INPUT_PTX, ptx, len + 1, rq->ptx_path, 0, NULL, NULL);
	if (r == CUDA_SUCCESS)
		r = api->LinkComplete(st, &cubin, &size);
	free(ptx);
	size_t n = strlen(res->msg);
	snprintf(res->msg + n, sizeof res->msg - n, " (cuLink)");
	if (r != CUDA_SUCCESS) {
		res->status = RUN_JIT_ERROR;
		snprintf(res->msg, sizeof res->msg, "the driver's JIT refused it: %s", cuda_error(r));
		/* The error log first; the info log after it, as much as fits. */
		snprintf(res->log, sizeof res->log, "%.4000s%s%.4000s", errlog, errlog[0] ? "\n" : "", info);
	} else if (write_cubin(rq->cubin_path, cubin, size, res) == 0) { /* the link state's: before destroying it */
		util_strlcpy(res->log, info, sizeof res->log);
	}
	if (st)
		api->LinkDestroy(st);
}
