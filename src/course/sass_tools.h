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

/* How long one tool may run before it is killed, in seconds: 60, or
 * PTXTUTOR_TOOL_TIMEOUT_S (tests, slow machines). */
double sass_tool_timeout(void);

/* The one line that says what the SASS view needs and where to get it. */
const char *sass_missing_line(void);

/* The target to compile for: the GPU's sm_XY, or the PTX's own sm_XYa when
 * it names the arch-specific variant of the same chip (wgmma needs sm_90a). */
void sass_arch_for(const char *ptx, int cc_major, int cc_minor, char *arch, size_t len);

/* The version a tool reports with --version ("13.0.88" from "... release
 * 13.0, V13.0.88"), or "" when it says none; cached per tool. */
const char *sass_tool_version(const char *name);

/* The steps, for a cubin made elsewhere (the driver's JIT, through the
 * worker): a private temporary directory with the instrumented copy in it,
 * the cubin's place, the disassembly, and the directory removed. */
typedef struct {
	char dir[512];
	char ptx[600];     /* the instrumented copy */
	char cubin[600];   /* where the cubin goes */
	char *disasm;      /* the disassembler's text as it printed it (a recording keeps it); freed by sass_job_end */
} sass_job;

/* Makes the directory and writes the instrumented copy of ptx_path into it.
 * Returns 0, or SASS_FAILED with err (nothing is left behind). */
int sass_job_start(sass_job *j, const char *ptx_path, char *err, size_t errlen);
/* Compiles j->ptx into j->cubin with ptxas for arch; fills k's registers,
 * stack and spills from -v and k->compiler. Returns 0, SASS_MISSING or SASS_FAILED. */
int sass_job_ptxas(sass_job *j, const char *arch, sass_kernel *k, char *err, size_t errlen);
/* Disassembles j->cubin (nvdisasm -g -c, else cuobjdump -sass) and parses
 * entry's SASS into k (its instructions; registers when the output says
 * them). Returns 0, SASS_MISSING or SASS_FAILED. */
int sass_job_disasm(sass_job *j, const char *entry, sass_kernel *k, char *err, size_t errlen);
/* Removes the directory and what is in it. */
void sass_job_end(sass_job *j);
/* Removes dir and everything under it (a link is removed, never followed):
 * a temporary folder of ours. */
void sass_remove_tree(const char *dir);

/* A fresh kernel record for entry: nothing known yet (-1s). */
void sass_kernel_init(sass_kernel *k, const char *entry);

/* Whether the disassembler is here (nvdisasm or cuobjdump); else err says
 * what is missing, the one line. */
int sass_have_disasm(char *err, size_t errlen);

/* Compiles ptx_path's text (instrumented by sass_instrument, the file itself
 * is never changed) with `ptxas -arch=ARCH -lineinfo -v`, disassembles the
 * cubin with `nvdisasm -g -c` (else `cuobjdump -sass`, without lines) and
 * parses entry's SASS into k. Returns 0, SASS_MISSING or SASS_FAILED with a
 * one-line err. Temporary files live in a private directory, removed after. */
int sass_build(const char *ptx_path, const char *entry, const char *arch, sass_kernel *k, char *err,
	       size_t errlen);
/* sass_build that also hands back the disassembler's text exactly as it
 * printed it (*disasm, malloc'd; NULL on failure): what a recording keeps. */
int sass_build_text(const char *ptx_path, const char *entry, const char *arch, sass_kernel *k, char **disasm,
		    char *err, size_t errlen);

#endif
