/* ptxloc: the CUDA lines nvcc records in PTX (.file / .loc, with -lineinfo or -G), per PTX line, and the .cu they name. */
#ifndef PTXTUTOR_PTXLOC_H
#define PTXTUTOR_PTXLOC_H

#include <stddef.h>

/* Where one PTX line came from: a .file number's index in files and the CUDA
 * line; line 0: no .loc above it in its function. */
typedef struct {
	int file;
	int line;
} ptx_loc;

typedef struct ptx_locs {
	char **files;      /* the paths of the .file directives, as nvcc wrote them */
	int *numbers;      /* their .file numbers */
	int nfiles;
	ptx_loc *at;       /* at[line], line 1..nlines (at[0] unused) */
	int nlines;
} ptx_locs;

/* Reads `.file N "path"[, time, size]` and `.loc N LINE COL[, function_name
 * L, inlined_at N2 LINE2 COL2]` (PTX ISA, "Debugging Directives"): each
 * line after a .loc takes its first file and line (for an inlined call, the
 * callee's line, as Nsight Compute's source view shows it), up to the next
 * .loc or the end of the function. NULL when the text has no .loc. */
ptx_locs *ptx_locs_scan(const char *text);
void ptx_locs_free(ptx_locs *l);

/* The CUDA position of PTX line `line`: its line (0: none) and the path
 * nvcc recorded in *file. l may be NULL. */
int ptx_loc_of(const ptx_locs *l, int line, const char **file);

/* The same for a message: a line nvcc gave no CUDA line (`.loc F 0 0`,
 * code it made from several lines) is named by the next line it did give,
 * within PTX_LOC_NEAR lines, else the one before; 0 when neither. */
#define PTX_LOC_NEAR 16
int ptx_loc_near(const ptx_locs *l, int line, const char **file);

/* Where the .cu is: at the path recorded, else beside the PTX under the
 * same name (a copy moved with it). Returns 0 with the path in buf, or -1. */
int ptx_loc_source(const char *recorded, const char *ptx_path, char *buf, size_t len);

/* Line `line` (from 1) of the text, trimmed, into buf; -1 when there is none. */
int ptx_loc_text_line(const char *text, int line, char *buf, size_t len);

#endif
