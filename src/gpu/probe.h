/* probe: what the GPU did beside a run, from the driver's own tools — the SM clock it held (NVML) and the name of the kernel a library launched (CUPTI). Both optional, loaded with dlopen. */
#ifndef PTXTUTOR_PROBE_H
#define PTXTUTOR_PROBE_H

#include "gpu/cuda.h"

#define PROBE_NAME_LEN 200

/* Finds NVML's handle of the device cu runs on (once; nothing when the
 * driver has no libnvidia-ml). */
void probe_clock_open(const cuda_api *cu);
/* The SM clock now, MHz; 0 when unknown. Read right after a timed block of
 * launches, it is the clock that work held (the clock falls within
 * milliseconds of the GPU going idle, not within one read). */
unsigned probe_sm_mhz(void);

/* Between begin and end, the first kernel launched through the driver API
 * is named: end returns its (mangled) symbol, or NULL when CUPTI is missing
 * (a machine with the driver and cuBLAS but no toolkit) or saw no launch.
 * begin returns -1 when it cannot watch; then end must not be called. */
int probe_names_begin(void);
const char *probe_names_end(void);

#endif
