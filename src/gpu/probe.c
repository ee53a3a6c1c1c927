/* probe: what the GPU did beside a run, from the driver's own tools — the SM clock it held (NVML) and the name of the kernel a library launched (CUPTI). Both optional, loaded with dlopen. */
#include "gpu/probe.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

/* NVML (nvml.h): the device by its PCI bus id, so it is the CUDA device
 * we run on whatever CUDA_VISIBLE_DEVICES renumbers; NVML_CLOCK_SM = 1. */
typedef struct nvmlDevice_st *nvmlDevice_t;
enum { NVML_CLOCK_SM = 1 };
static struct {
	int tried;
	nvmlDevice_t dev;
	int (*clock)(nvmlDevice_t d, int type, unsigned *mhz);
} nvml;

void probe_clock_open(const cuda_api *cu)
{
	if (nvml.tried)
		return;
	nvml.tried = 1;
	char bus[32];
	void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h || !cu->DeviceGetPCIBusId || cu->DeviceGetPCIBusId(bus, sizeof bus, cu->dev))
		return;
	int (*init)(void) = (int (*)(void))dlsym(h, "nvmlInit_v2");
	int (*by_bus)(const char *, nvmlDevice_t *) = (int (*)(const char *, nvmlDevice_t *))dlsym(
		h, "nvmlDeviceGetHandleByPciBusId_v2");
	int (*clock)(nvmlDevice_t, int, unsigned *) = (int (*)(nvmlDevice_t, int, unsigned *))dlsym(
		h, "nvmlDeviceGetClockInfo");
	if (init && by_bus && clock && init() == 0 && by_bus(bus, &nvml.dev) == 0)
		nvml.clock = clock;
}

unsigned probe_sm_mhz(void)
{
	unsigned mhz = 0;
	if (nvml.clock && nvml.clock(nvml.dev, NVML_CLOCK_SM, &mhz))
		mhz = 0;
	return mhz;
}

/* CUPTI's callback API (cupti_callbacks.h): a subscriber on the driver
 * API's domain sees every cuLaunchKernel* with the kernel's symbol. The
 * record of a call is laid out as CUpti_CallbackData; we read the site and
 * the symbol only. */
typedef struct {
	int site;                 /* CUPTI_API_ENTER = 0 */
	const char *function;
	const void *params;
	void *ret;
	const char *symbol;
} cupti_record;
enum { CUPTI_CB_DOMAIN_DRIVER_API = 1 };
typedef void (*cupti_callback)(void *user, int domain, uint32_t cbid, const void *data);
static struct {
	int tried;
	int (*subscribe)(void **sub, cupti_callback cb, void *user);
	int (*enable_domain)(uint32_t on, void *sub, int domain);
	int (*unsubscribe)(void *sub);
	void *sub;
	char name[PROBE_NAME_LEN];
} cupti;

static void on_driver_call(void *user, int domain, uint32_t cbid, const void *data)
{
	(void)user, (void)cbid;
	const cupti_record *r = data;
	if (domain == CUPTI_CB_DOMAIN_DRIVER_API && r->site == 0 && r->symbol && r->function &&
	    !strncmp(r->function, "cuLaunch", 8) && !cupti.name[0])
		util_strlcpy(cupti.name, r->symbol, sizeof cupti.name);
}

/* libcupti sits beside the toolkit's libraries, not the driver's. */
static void cupti_open(void)
{
	static const char *const names[] = {"libcupti.so", "libcupti.so.13", "libcupti.so.12",
					    "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
					    "/usr/local/cuda/lib64/libcupti.so"};
	cupti.tried = 1;
	void *h = NULL;
	for (size_t i = 0; i < ARRAY_LEN(names) && !h; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return;
	*(void **)&cupti.subscribe = dlsym(h, "cuptiSubscribe");
	*(void **)&cupti.enable_domain = dlsym(h, "cuptiEnableDomain");
	*(void **)&cupti.unsubscribe = dlsym(h, "cuptiUnsubscribe");
	if (!cupti.subscribe || !cupti.enable_domain || !cupti.unsubscribe)
		cupti.subscribe = NULL;
}

int probe_names_begin(void)
{
	if (!cupti.tried)
		cupti_open();
	cupti.name[0] = '\0';
	if (!cupti.subscribe || cupti.subscribe(&cupti.sub, on_driver_call, NULL))
		return -1;
	if (cupti.enable_domain(1, cupti.sub, CUPTI_CB_DOMAIN_DRIVER_API)) {
		cupti.unsubscribe(cupti.sub);
		return -1;
	}
	return 0;
}

const char *probe_names_end(void)
{
	cupti.enable_domain(0, cupti.sub, CUPTI_CB_DOMAIN_DRIVER_API);
	cupti.unsubscribe(cupti.sub);
	return cupti.name[0] ? cupti.name : NULL;
}
