/* cuda: the CUDA driver API and cuBLAS, loaded at run time with dlopen, so no toolkit is needed to build. */
#include "gpu/cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The ABI version we ask cuGetProcAddress for: the signatures declared in
 * cuda.h above are those of CUDA 12.0 (cuMemAlloc_v2 and friends). Plain dlsym
 * would hand us the legacy 32-bit cuMemAlloc, hence the indirection. */
#define CUDA_ABI_VERSION 12000

typedef CUresult (*get_proc_v2)(const char *sym, void **fn, int ver, unsigned long long flags, int *status);
typedef CUresult (*get_proc_v1)(const char *sym, void **fn, int ver, unsigned long long flags);

/* Driver entry points: the name cuGetProcAddress knows and where it goes;
 * an optional one may be missing (an older driver), and stays NULL. */
#define ENTRY(field, sym) {sym, offsetof(cuda_api, field), 0}
#define OPTIONAL(field, sym) {sym, offsetof(cuda_api, field), 1}
static const struct {
	const char *sym;
	size_t off;
	int optional;
} driver_syms[] = {
	ENTRY(DriverGetVersion, "cuDriverGetVersion"),
	ENTRY(DeviceGet, "cuDeviceGet"),
	ENTRY(DeviceGetCount, "cuDeviceGetCount"),
	ENTRY(DeviceGetName, "cuDeviceGetName"),
	OPTIONAL(DeviceGetPCIBusId, "cuDeviceGetPCIBusId"),
	ENTRY(DeviceGetAttribute, "cuDeviceGetAttribute"),
	ENTRY(DeviceTotalMem, "cuDeviceTotalMem"),
	ENTRY(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	ENTRY(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease"),
	ENTRY(CtxSetCurrent, "cuCtxSetCurrent"),
	ENTRY(CtxSynchronize, "cuCtxSynchronize"),
	ENTRY(ModuleLoadDataEx, "cuModuleLoadDataEx"),
	ENTRY(ModuleUnload, "cuModuleUnload"),
	ENTRY(ModuleGetFunction, "cuModuleGetFunction"),
	ENTRY(FuncGetAttribute, "cuFuncGetAttribute"),
	ENTRY(FuncSetAttribute, "cuFuncSetAttribute"),
	ENTRY(LaunchKernel, "cuLaunchKernel"),
	ENTRY(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
	ENTRY(MemAlloc, "cuMemAlloc"),
	ENTRY(MemFree, "cuMemFree"),
	ENTRY(MemcpyHtoD, "cuMemcpyHtoD"),
	ENTRY(MemcpyDtoH, "cuMemcpyDtoH"),
	ENTRY(MemsetD32, "cuMemsetD32"),
	ENTRY(MemsetD16, "cuMemsetD16"),
	ENTRY(EventCreate, "cuEventCreate"),
	ENTRY(EventDestroy, "cuEventDestroy"),
	ENTRY(EventRecord, "cuEventRecord"),
	ENTRY(EventSynchronize, "cuEventSynchronize"),
	ENTRY(EventElapsedTime, "cuEventElapsedTime"),
	ENTRY(TensorMapEncodeTiled, "cuTensorMapEncodeTiled"),
	ENTRY(GetErrorName, "cuGetErrorName"),
	ENTRY(GetErrorString, "cuGetErrorString"),
	OPTIONAL(LaunchKernelEx, "cuLaunchKernelEx"),
	OPTIONAL(OccupancyMaxActiveClusters, "cuOccupancyMaxActiveClusters"),
	OPTIONAL(LinkCreate, "cuLinkCreate"),
	OPTIONAL(LinkAddData, "cuLinkAddData"),
	OPTIONAL(LinkComplete, "cuLinkComplete"),
	OPTIONAL(LinkDestroy, "cuLinkDestroy"),
};

static const struct {
	const char *sym;
	size_t off;
	int optional;
} blas_syms[] = {
	ENTRY(blasCreate, "cublasCreate_v2"),
	ENTRY(blasDestroy, "cublasDestroy_v2"),
	ENTRY(blasSgemm, "cublasSgemm_v2"),
	ENTRY(blasGemmEx, "cublasGemmEx"),
};

static const struct {
	const char *sym;
	size_t off;
	int optional;
} lt_syms[] = {
	ENTRY(ltCreate, "cublasLtCreate"),
	ENTRY(ltMatmulDescCreate, "cublasLtMatmulDescCreate"),
	ENTRY(ltMatmulDescDestroy, "cublasLtMatmulDescDestroy"),
	ENTRY(ltMatmulDescSetAttribute, "cublasLtMatmulDescSetAttribute"),
	ENTRY(ltMatrixLayoutCreate, "cublasLtMatrixLayoutCreate"),
	ENTRY(ltMatrixLayoutDestroy, "cublasLtMatrixLayoutDestroy"),
	ENTRY(ltMatmulPreferenceCreate, "cublasLtMatmulPreferenceCreate"),
	ENTRY(ltMatmulPreferenceDestroy, "cublasLtMatmulPreferenceDestroy"),
	ENTRY(ltMatmulPreferenceSetAttribute, "cublasLtMatmulPreferenceSetAttribute"),
	ENTRY(ltMatmulAlgoGetHeuristic, "cublasLtMatmulAlgoGetHeuristic"),
	ENTRY(ltMatmul, "cublasLtMatmul"),
	OPTIONAL(ltMatmulAlgoConfigGetAttribute, "cublasLtMatmulAlgoConfigGetAttribute"),
};

static cuda_api api;
static int loaded; /* 1 ok, -1 failed (reason kept) */
static char reason[256];

const char *cuda_error(CUresult r)
{
	static char buf[256];
	const char *name = NULL, *desc = NULL;
	if (api.GetErrorName)
		api.GetErrorName(r, &name);
	if (api.GetErrorString)
		api.GetErrorString(r, &desc);
	snprintf(buf, sizeof buf, "%s (%d): %s", name ? name : "CUDA error", r, desc ? desc : "unknown");
	return buf;
}

/* The first of names that dlopen finds in $PTXTUTOR_CUBLAS_DIR, $CUDA_HOME/lib64,
 * /usr/local/cuda/lib64 or the loader's own search path; its path in path. */
static void *open_library(const char *const *names, size_t n, char *path_out, size_t len)
{
	const char *dirs[4] = {getenv("PTXTUTOR_CUBLAS_DIR"), NULL, "/usr/local/cuda/lib64", ""};
	char home[256] = "";
	const char *ch = getenv("CUDA_HOME");
	if (ch) {
		snprintf(home, sizeof home, "%s/lib64", ch);
		dirs[1] = home;
	}
	void *h = NULL;
	for (size_t d = 0; d < ARRAY_LEN(dirs) && !h; d++) {
		if (!dirs[d])
			continue;
		for (size_t i = 0; i < n && !h; i++) {
			char path[512];
			if (dirs[d][0])
				snprintf(path, sizeof path, "%s/%s", dirs[d], names[i]);
			else
				util_strlcpy(path, names[i], sizeof path); /* the loader's own search path */
			h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
			if (h)
				util_strlcpy(path_out, path, len);
		}
	}
	return h;
}

/* cuBLASLt is optional too: without it only FP8 runs go unchecked (TF32
 * is GemmEx's). Its handle is made here, once, like cuBLAS's. */
static void load_cublaslt(void)
{
	static const char *const names[] = {"libcublasLt.so.13", "libcublasLt.so.12"};
	void *h = open_library(names, ARRAY_LEN(names), api.lt_path, sizeof api.lt_path);
	if (!h) {
		snprintf(api.lt_why, sizeof api.lt_why, "cuBLASLt not found (libcublasLt.so.13/.12): FP8 runs are not checked");
		return;
	}
	for (size_t i = 0; i < ARRAY_LEN(lt_syms); i++) {
		void *fn = dlsym(h, lt_syms[i].sym);
		if (!fn && lt_syms[i].optional)
			continue;
		if (!fn) {
			snprintf(api.lt_why, sizeof api.lt_why, "%.80s lacks %s: FP8 runs are not checked", api.lt_path,
				 lt_syms[i].sym);
			memset(&api.ltCreate, 0, sizeof(void *) * ARRAY_LEN(lt_syms));
			api.lt_path[0] = '\0';
			return;
		}
		memcpy((char *)&api + lt_syms[i].off, &fn, sizeof fn);
	}
	int st = api.ltCreate(&api.lt);
	if (st != 0) {
		api.lt = NULL;
		snprintf(api.lt_why, sizeof api.lt_why, "cublasLtCreate failed (status %d): FP8 runs are not checked", st);
	}
}

/* cuBLAS is optional: without it kernels still run, unverified. */
static void load_cublas(void)
{
	static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11"};
	void *h = open_library(names, ARRAY_LEN(names), api.blas_path, sizeof api.blas_path);
	if (!h)
		return;
	for (size_t i = 0; i < ARRAY_LEN(blas_syms); i++) {
		void *fn = dlsym(h, blas_syms[i].sym);
		if (!fn) {
			memset(&api.blasCreate, 0, sizeof(void *) * ARRAY_LEN(blas_syms));
			api.blas_path[0] = '\0';
			return;
		}
		memcpy((char *)&api + blas_syms[i].off, &fn, sizeof fn);
	}
	if (api.blasCreate(&api.blas) != 0) {
		api.blas = NULL;
		api.blas_path[0] = '\0';
	}
}

static int fail(const char *fmt, const char *what)
{
	snprintf(reason, sizeof reason, fmt, what);
	loaded = -1;
	return -1;
}

static int load(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return fail("no NVIDIA driver: libcuda.so.1 not found (%s)", "GPU runs need an NVIDIA GPU and driver");
	api.Init = (CUresult(*)(unsigned))dlsym(h, "cuInit");
	get_proc_v2 gp2 = (get_proc_v2)dlsym(h, "cuGetProcAddress_v2");
	get_proc_v1 gp1 = (get_proc_v1)dlsym(h, "cuGetProcAddress");
	if (!api.Init || (!gp2 && !gp1))
		return fail("the NVIDIA driver is too old: %s", "cuGetProcAddress missing (need CUDA 11.3 or newer)");
	for (size_t i = 0; i < ARRAY_LEN(driver_syms); i++) {
		void *fn = NULL;
		int status = 0;
		CUresult r = gp2 ? gp2(driver_syms[i].sym, &fn, CUDA_ABI_VERSION, 0, &status)
				 : gp1(driver_syms[i].sym, &fn, CUDA_ABI_VERSION, 0);
		if ((r != CUDA_SUCCESS || !fn) && driver_syms[i].optional)
			continue;
		if (r != CUDA_SUCCESS || !fn)
			return fail("the NVIDIA driver lacks %s", driver_syms[i].sym);
		memcpy((char *)&api + driver_syms[i].off, &fn, sizeof fn);
	}
	CUresult r = api.Init(0);
	int count = 0;
	if (r == CUDA_SUCCESS)
		r = api.DeviceGetCount(&count);
	if (r != CUDA_SUCCESS || count == 0)
		return fail("no usable NVIDIA GPU: %s", r ? cuda_error(r) : "the driver sees no device");
	api.DriverGetVersion(&api.driver_version);
	if ((r = api.DeviceGet(&api.dev, 0)) || (r = api.DevicePrimaryCtxRetain(&api.ctx, api.dev)) ||
	    (r = api.CtxSetCurrent(api.ctx)))
		return fail("cannot open the GPU: %s", cuda_error(r));
	load_cublas();
	load_cublaslt();
	loaded = 1;
	return 0;
}

int cuda_loaded(void)
{
	return loaded != 0;
}

const cuda_api *cuda_load(char *why, int whylen)
{
	if (!loaded)
		load();
	if (loaded < 0) {
		if (why)
			util_strlcpy(why, reason, (size_t)whylen);
		return NULL;
	}
	return &api;
}

int cuda_device_spec(gpu_spec *g)
{
	if (!cuda_load(NULL, 0))
		return -1;
	static const struct {
		int attr;
		size_t off;
	} attrs[] = {
		{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, offsetof(gpu_spec, cc_major)},
		{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, offsetof(gpu_spec, cc_minor)},
		{CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, offsetof(gpu_spec, sms)},
		{CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, offsetof(gpu_spec, smem_per_sm)},
		{CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, offsetof(gpu_spec, smem_per_block)},
		{CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, offsetof(gpu_spec, smem_optin)},
		{CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, offsetof(gpu_spec, smem_reserved)},
		{CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, offsetof(gpu_spec, regs_per_sm)},
		{CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, offsetof(gpu_spec, regs_per_block)},
		{CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, offsetof(gpu_spec, max_threads_per_sm)},
		{CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, offsetof(gpu_spec, max_threads_per_block)},
		{CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, offsetof(gpu_spec, max_blocks_per_sm)},
	};
	memset(g, 0, sizeof *g);
	api.DeviceGetName(g->name, sizeof g->name, api.dev);
	for (size_t i = 0; i < ARRAY_LEN(attrs); i++)
		api.DeviceGetAttribute((int *)((char *)g + attrs[i].off), attrs[i].attr, api.dev);
	int khz = 0, l2 = 0, memkhz = 0, bus = 0;
	api.DeviceGetAttribute(&khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, api.dev);
	api.DeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, api.dev);
	api.DeviceGetAttribute(&memkhz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, api.dev);
	api.DeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, api.dev);
	g->clock_mhz = khz / 1000;
	g->l2_kb = l2 / 1024;
	/* Double data rate: two transfers per memory clock. */
	g->bw_gbs = 2.0 * memkhz * 1e3 * (bus / 8.0) / 1e9;
	g->max_warps_per_sm = g->max_threads_per_sm / 32;
	g->warp_alloc_regs = 256;
	snprintf(g->key, sizeof g->key, "live");
	snprintf(g->source, sizeof g->source, "read from the driver (cuDeviceGetAttribute)");
	g->live = 1;
	return 0;
}
