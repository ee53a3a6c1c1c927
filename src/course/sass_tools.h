/* sass_tools: the CUDA toolkit's ptxas, nvdisasm and cuobjdump found and run on a PTX file, giving its SASS grouped by PTX line (course/sass.c parses). */
#ifndef PTXTUTOR_SASS_TOOLS_H
#define PTXTUTOR_SASS_TOOLS_H

#include <stddef.h>

#include "course/sass.h"

/* sass_build's status besides 0: a tool is missing (the message says which
 * and where to get it), or a tool failed (its first lines). */
#define SASS_MISSING 1
#define SASS_FAILED (-1)

/* Finds a tool: in $PTXTUTOR_CUDA_BIN alone when that is set (a colon list,
 * for tests and odd installs), else in $PATH, $CUDA_HOME/bin and
 * /usr/local/cuda/bin. Returns 0 with its path, -1 when none. */
int sass_find_tool(const char *name, char *path, size_t len);

/* The one line that says what the SASS view needs and where to get it. */
const char *sass_missing_line(void);

/* The target to compile for: the GPU's sm_XY, or the PTX's own sm_XYa when
 * it names the arch-specific variant of the same chip (wgmma needs sm_90a). */
void sass_arch_for(const char *ptx, int cc_major, int cc_minor, char *arch, size_t len);

/* Compiles ptx_path's text (instrumented by sass_instrument, the file itself
 * is never changed) with `ptxas -arch=ARCH -lineinfo -v`, disassembles the
 * cubin with `nvdisasm -g -c` (else `cuobjdump -sass`, without lines) and
 * parses entry's SASS into k. Returns 0, SASS_MISSING or SASS_FAILED with a
 * one-line err. Temporary files live in a private directory, removed after. */
int sass_build(const char *ptx_path, const char *entry, const char *arch, sass_kernel *k, char *err,
	       size_t errlen);

#endif
