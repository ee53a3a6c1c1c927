/* sass_record: recorded SASS — a lesson kernel's disassembly made on a machine with the CUDA toolkit (scripts/gpu-sass.sh --record), kept as assets/sass/NN.sass with the PTX's hash, and shown, labelled as recorded, where the toolkit is missing. */
#ifndef PTXTUTOR_SASS_RECORD_H
#define PTXTUTOR_SASS_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "course/sass.h"

/* The recordings' folder under the data root: NN.sass per lesson with a kernel. */
#define SASS_RECORD_DIR "assets/sass"

/* A recording is a header and nvdisasm's text, exactly as `nvdisasm -g -c`
 * printed it for the `.loc` copy (so sass_parse_disasm reads it, the one
 * parser):
 *
 *	---
 *	recorded-sass: 1
 *	lesson: 5
 *	ptx: ptx/05_blocktile2d.ptx
 *	ptx-fnv1a64: 0123456789abcdef      hash_fnv1a64 of the PTX file's text
 *	entry: sgemm_blocktile2d
 *	arch: sm_90
 *	gpu, compiler, disassembler, tools: as sass_kernel holds them
 *	registers, stack, spill-stores, spill-loads: ptxas -v's (-1 unknown)
 *	date: 2026-11-25                   (UTC)
 *	command: ptxtutor sass 5 --ptxas --gpu h100 --record
 *	---
 *	...nvdisasm -g -c's output...
 *
 * One table in sass_record.c gives the keys, their order and which are
 * required; the writer and the reader both walk it. */
typedef struct {
	int lesson;
	char ptx[256];    /* the lesson's PTX file, relative to the root */
	uint64_t hash;    /* hash_fnv1a64 of that file's text when it was recorded */
} sass_record;

/* "assets/sass/NN.sass", relative to the root. */
void sass_record_rel(int lesson, char *buf, size_t len);

/* A PTX file's own recording lies beside it: FILE.ptx's is FILE.sass (a student's kernel, the
 * held-out kernels of tests/heldout). Its header says lesson: -1 (SASS_RECORD_FILE). */
#define SASS_RECORD_FILE (-1)
void sass_record_beside(const char *ptx_path, char *buf, size_t len);

/* The hash of a PTX file's text (the file the tools compile, whole).
 * Returns 0, or -1 with err. */
int sass_record_hash_file(const char *path, uint64_t *h, char *err, size_t errlen);

/* Parses a recording's text: the header into r and k (entry, arch, gpu,
 * compiler, disassembler, tools, registers, stack, spills, recorded_date,
 * recorded_by), the body into k's instructions (sass_parse_disasm). k is
 * initialised here. Returns 0, or -1 with "file:line: message" in err (k
 * then holds nothing to free). */
int sass_record_parse(const char *text, const char *file, sass_record *r, sass_kernel *k, char *err,
		      size_t errlen);

/* The recording's text: the header from r and k, then disasm as it is but
 * for its line info's paths to the PTX, written as r->ptx (project-relative:
 * no trace of the recording machine's folders). malloc'd. */
char *sass_record_format(const sass_record *r, const sass_kernel *k, const char *disasm);

/* The SASS view without the toolkit: loads lesson's recording (SASS_RECORD_FILE:
 * the one beside ptx_path) into k when it applies to the kernel to show — the
 * PTX file at ptx_path (its current text's hash), entry and arch. Returns 0
 * (k->recorded_date set), or -1 with why it does not ("the PTX changed since
 * it was recorded (...)", or where there is none, "no recording of lesson 12
 * (...)"), k empty. */
int sass_record_use(int lesson, const char *ptx_path, const char *entry, const char *arch, sass_kernel *k,
		    char *why, size_t len);

/* sass_record_use's check on a recording's text (file names it in messages). */
int sass_record_check(const char *text, const char *file, int lesson, const char *ptx_path, const char *entry,
		      const char *arch, sass_kernel *k, char *why, size_t len);

/* The label a recorded copy carries wherever it is shown: "recorded SASS
 * (ptxas 13.0.88 + nvdisasm 13.0.88, sm_90, 2026-11-25, COMMAND): not
 * compiled here". */
void sass_record_label(const sass_kernel *k, char *buf, size_t len);

/* The missing-toolkit line (sass_missing_line) and why no recording applies, one line. */
void sass_record_missing(const char *why, char *err, size_t len);

#endif
