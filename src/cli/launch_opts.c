/* launch_opts: the launch options `run` and `emulate` share — a lesson, or a PTX file with its own shape and parameter list — and the request they make. */
#include "cli/launch_opts.h"
#include "model/model.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/demangle.h"
#include "base/proc.h"
#include "base/util.h"
#include "course/ptxloc.h"
#include "course/sass_tools.h"
#include "cli/cli.h"
#include "base/json.h"
#include "emu/emu.h"
#include "exec/report.h"
#include "run/launch.h"

/* --dtype and --out: a type dtype_parse knows. */
static int dtype_ok(const char *s, char *why, size_t len)
{
	dtype d;
	if (!dtype_parse(s, &d))
		return 0;
	snprintf(why, len, "%s", dtype_names());
	return -1;
}

int cli_reference_ok(const char *s, char *why, size_t len)
{
	if (run_ref_parse(s) >= 0)
		return 0;
	snprintf(why, len, "default (the library's call), best (the fastest of cuBLASLt's list) or best-promoting");
	return -1;
}

/* --bmajor: n or k. */
static int bmajor_ok(const char *s, char *why, size_t len)
{
	if (!strcmp(s, "n") || !strcmp(s, "k"))
		return 0;
	snprintf(why, len, "n or k");
	return -1;
}

/* --by: ptx or cu. */
static int by_ok(const char *s, char *why, size_t len)
{
	if (!strcmp(s, "ptx") || !strcmp(s, "cu"))
		return 0;
	snprintf(why, len, "ptx or cu");
	return -1;
}

/* The rows run and emulate share; each table adds its own after them. */
#define LAUNCH_OPTS                                                                                           \
	{.name = "size", .kind = CLI_SIZE, .off = offsetof(cli_launch, size), .arg = "N|M,N,K",                    \
	 .help = "the problem size"},                                                                          \
	{.name = "set", .kind = CLI_SET, .off = offsetof(cli_launch, set), .arg = "KEY=VAL",                       \
	 .help = "change a lesson parameter for a what-if, e.g. --set TILE=16"},                               \
	{.name = "json", .letter = 'j', .kind = CLI_FLAG, .off = offsetof(cli_launch, json),                       \
	 .help = "print JSON (keys in docs/json.md)"},                                                         \
	{.name = "ptx", .kind = CLI_STR, .off = offsetof(cli_launch, ptx), .arg = "FILE",                          \
	 .help = "a kernel of your own instead of a lesson's (nvcc -ptx output is fine)"},                     \
	{.name = "cu", .kind = CLI_STR, .off = offsetof(cli_launch, cu), .arg = "FILE.cu",                         \
	 .help = "CUDA C of your own: compiled here with nvcc -ptx -lineinfo (FILE.ptx\n"                     \
		 "beside it), then run as --ptx; errors and --lines --by cu name its lines"},                    \
	{.name = "entry", .kind = CLI_STR, .off = offsetof(cli_launch, entry), .arg = "NAME",                      \
	 .help = "its entry: mangled (_Z15sgemm...) or demangled (sgemmWarptiling);\n"                         \
		 "may be left out when the module has one entry"},                                             \
	{.name = "grid", .kind = CLI_DIMS, .off = offsetof(cli_launch, grid), .arg = "X[,Y[,Z]]",                  \
	 .help = "blocks: expressions over M, N, K: '--grid N/32,M/32', 'ceil(M/BM)';\n"                       \
		 "'--grid persistent': one block per SM slot (the kernel loops over tiles)"},                   \
	{.name = "block", .kind = CLI_DIMS, .off = offsetof(cli_launch, block), .arg = "X[,Y[,Z]]",                \
	 .help = "threads per block, expressions as for --grid"},                                              \
	{.name = "smem", .kind = CLI_DIMS, .off = offsetof(cli_launch, smem), .arg = "BYTES",                      \
	 .help = "dynamic shared memory per block, an expression over M, N, K"},                               \
	{.name = "args", .kind = CLI_STR, .off = offsetof(cli_launch, args), .arg = "SPEC",                        \
	 .help = "the kernel's parameters in order: A B C (buffers), M N K (u32),\n"                           \
		 "alpha:VALUE beta:VALUE (BLAS's f32 scalars: with beta:, C starts as\n"                        \
		 "random C0 and is checked against alpha*A*B + beta*C0; without it C\n"                         \
		 "starts as NaN, so a kernel that reads C needs beta:), typed literals\n"                       \
		 "u32:8192 s32:-1 u64:0 s64:-1 f32:1.5 f64:0.5 f16:1 (default\n"                                \
		 "'A B C M N K'), scale:A scale:B (an FP8 input's per-tensor scale, f32:\n"                     \
		 "real value = stored x scale), or TMA tensor maps tmap:A|B|C:INNER:OUTER\n"                   \
		 "[:none|32B|64B|128B] (a box of INNER columns x OUTER rows, e.g.\n"                           \
		 "tmap:A:64:128:128B), ld:A ld:B ld:C (u32: the leading dimension the\n"                       \
		 "run lays that matrix out with, --layout and --ld)"},                                                                        \
	{.name = "dtype", .kind = CLI_NAME, .off = offsetof(cli_launch, dtype), .arg = "T", .check = dtype_ok,     \
	 .help = "A and B: f32 (cuBLAS SGEMM), f16 or bf16 (cuBLAS GemmEx, same types),\n"                    \
		 "tf32 (f32 in memory, the kernel rounds; GemmEx FAST_TF32), e4m3 (one\n"                      \
		 "byte, per-tensor scales; cuBLASLt), s8 (int8, C s32 and exact; GemmEx\n"                     \
		 "CUBLAS_COMPUTE_32I, leading dimensions multiples of 4; or C f32: GemmEx\n"                   \
		 "CUBLAS_COMPUTE_32F), u8 (C s32 or f32; cuBLAS has no u8 GEMM: checked\n"                    \
		 "against the CPU's f64 reference on the GPU too, untimed against a library)"},                                                \
	{.name = "out", .kind = CLI_NAME, .off = offsetof(cli_launch, out), .arg = "T", .check = dtype_ok,         \
	 .help = "C: f32 (default; s32 for s8), or f16 / bf16 with inputs of that type,\n"                  \
		 "bf16 with e4m3, s32 (default) or f32 with s8 and u8"},                                                                             \
	{.name = "bmajor", .kind = CLI_NAME, .off = offsetof(cli_launch, bmajor), .arg = "n|k", .check = bmajor_ok, \
	 .help = "how B is stored: n (default, K x N row-major) or k (N x K: K-major,\n"                      \
		 "as wgmma needs 8-bit operands and cuBLASLt's FP8 needs)"},                                    \
	{.name = "layout", .kind = CLI_STR, .off = offsetof(cli_launch, layout), .arg = "SPEC",                    \
	 .help = "how A, B and C lie in memory: 'A=col,B=row,C=col' (each row or col,\n"                     \
		 "the rest row-major), or 'col' for all three; column-major is cuBLAS's\n"                    \
		 "(element (r,c) at c*ld + r), and the check calls cuBLAS so"},                                 \
	{.name = "ld", .kind = CLI_STR, .off = offsetof(cli_launch, ld), .arg = "SPEC",                            \
	 .help = "leading dimensions past the tight ones: 'A=M+8,C=N+4', expressions\n"                      \
		 "over M N K; the padding is poisoned and must stay untouched; pass\n"                        \
		 "them to the kernel with ld:A ld:B ld:C in --args"},                                           \
	{.name = "cluster", .kind = CLI_DIMS, .off = offsetof(cli_launch, cluster), .arg = "X[,Y[,Z]]",            \
	 .help = "blocks per thread-block cluster (sm_90, at most 8 in all); the grid must\n"                  \
		 "be a multiple of it; a persistent grid is sized in whole clusters"},                          \
	{.name = "timeout", .kind = CLI_DOUBLE, .off = offsetof(cli_launch, timeout), .arg = "S", .lo = 0,         \
	 .hi = 86400, .help = "the run's deadline: S seconds of wall time (0, the default: the\n"                  \
		 "policy's, from the size on a GPU, two minutes for an emulation)"}

const cli_opt cli_run_opts[] = {
	LAUNCH_OPTS,
	{.name = "emulate", .kind = CLI_FLAG, .off = offsetof(cli_launch, emulate),
	 .help = "run on the CPU with the PTX interpreter instead (as `ptxtutor emulate`)"},
	{.name = "force", .kind = CLI_FLAG, .off = offsetof(cli_launch, force),
	 .help = "lift the deadline to an hour: with --emulate, emulate even when the\n"
		 "estimated CPU time is over the usual limit"},
	{.name = "reference", .kind = CLI_NAME, .off = offsetof(cli_launch, reference), .arg = "R",
	 .check = cli_reference_ok,
	 .help = "what it is timed beside: default (the library's call), best (the\n"
		 "fastest of cuBLASLt's list for these types, named), best-promoting (FP8:\n"
		 "the same with cuBLASLt's promotion of partial sums, for a kernel that promotes)"},
	{.name = "lineinfo", .kind = CLI_FLAG, .off = offsetof(cli_launch, lineinfo),
	 .help = "for profilers: JIT the PTX with a .loc per line and the driver's line\n"
		 "information, so Nsight Compute's source view (ncu --page source) maps\n"
		 "each SASS instruction to its PTX line; the instructions, hence the\n"
		 "timing, are the same (the emulator ignores it)"},
	{0},
};

const cli_opt cli_emulate_opts[] = {
	LAUNCH_OPTS,
	{.name = "force", .kind = CLI_FLAG, .off = offsetof(cli_launch, force),
	 .help = "emulate even when the estimated CPU time is over the usual limit\n"
		 "(the deadline lifted to an hour)"},
	{.name = "lines", .kind = CLI_FLAG, .off = offsetof(cli_launch, lines),
	 .help = "the figures per PTX line and per @region: instructions, lanes, sectors,\n"
		 "wavefronts, bank conflicts, bytes, as a table with each line's PTX (--csv:\n"
		 "comma-separated; --json has them always, as \"per_line\")"},
	{.name = "by", .kind = CLI_NAME, .off = offsetof(cli_launch, by), .arg = "ptx|cu", .check = by_ok,
	 .help = "with --lines: per PTX line (ptx, the default) or summed per CUDA line\n"
		 "(cu: the .loc lines nvcc -lineinfo records; the rows still add up to the totals)"},
	{.name = "csv", .kind = CLI_FLAG, .off = offsetof(cli_launch, csv),
	 .help = "with --lines: comma-separated, one row a line, a header row first"},
	{.name = "baseline", .kind = CLI_STR, .off = offsetof(cli_launch, baseline), .arg = "FILE",
	 .help = "with --lines: FILE (the shipped kernel, say) emulated too, with the same\n"
		 "launch; its figures beside each line's, with the difference, the lines\n"
		 "matched by content (a diff of the two PTX texts), not by number"},
	{.name = "warp", .kind = CLI_STR, .off = offsetof(cli_launch, warp), .arg = "LINE[,WARP[,NTH]]",
	 .help = "a warp's view of the memory access on PTX line LINE: the 32 lanes'\n"
		 "sectors and lines, or banks, as warp WARP (0) of block 0,0,0 executes it\n"
		 "for the NTH time (1: the first)"},
	{.name = "estimate", .kind = CLI_FLAG, .off = offsetof(cli_launch, estimate),
	 .help = "the kernel's time on a GPU (--gpu, default h100) at --size (default 4096),\n"
		 "from the counts of a few blocks and the GPU's measured pipe rates (docs/model.md)"},
	{.name = "stalls", .kind = CLI_FLAG, .off = offsetof(cli_launch, stalls),
	 .help = "why each PTX line waits: a few blocks replayed on a model of one SM, each\n"
		 "waiting cycle charged to a reason as Nsight Compute names them (docs/model.md);\n"
		 "--by cu sums per CUDA line; --json or --csv"},
	{.name = "clock", .kind = CLI_DOUBLE, .off = offsetof(cli_launch, clock), .arg = "MHZ", .lo = 100, .hi = 5000,
	 .help = "with --stalls: replay at this SM clock (the L2's and DRAM's latencies and the copy\n"
		 "engine's bytes a cycle follow it) in place of the power model's, e.g. the clock\n"
		 "Nsight Compute locks for a comparison"},
	{.name = "gpu", .letter = 'g', .kind = CLI_STR, .off = offsetof(cli_launch, gpu), .arg = "NAME",
	 .help = "with --estimate: the GPU, one from `ptxtutor gpus`"},
	{0},
};

/* The one command a student runs by hand where this machine has no nvcc. */
#define CU_ARCH "sm_80" /* runs on every GPU since Ampere (the driver JITs it) and in the emulator */

/* --cu: FILE.cu to FILE.ptx beside it with nvcc -ptx -lineinfo, under a
 * deadline, so each PTX line knows its CUDA line (.loc). Returns -1 to go
 * on with o->ptx set, else the exit status after saying why. */
int cli_launch_compile_cu(cli_launch *o)
{
	char cu[4096], nvcc[4096], log[64];
	if (!realpath(o->cu, cu)) {
		cli_error(NULL, "--cu %s: %s", cli_arg(o->cu), strerror(errno));
		return 2;
	}
	size_t n = strlen(cu);
	int dotcu = n > 3 && !strcmp(cu + n - 3, ".cu");
	if (snprintf(o->ptx_made, sizeof o->ptx_made, "%.*s.ptx", (int)(dotcu ? n - 3 : n), cu) >= (int)sizeof o->ptx_made) {
		cli_error(NULL, "--cu %s: path too long", cli_arg(o->cu));
		return 2;
	}
	if (sass_find_tool("nvcc", nvcc, sizeof nvcc)) {
		cli_error(NULL, "--cu: no nvcc here (set CUDA_HOME or PATH); compile it where there is one and pass the PTX:\n"
			  "  nvcc -ptx -lineinfo -arch=" CU_ARCH " %s -o %s\n  then --ptx %s", cli_arg(o->cu),
			  cli_arg(o->ptx_made), cli_arg(o->ptx_made));
		return 2;
	}
	snprintf(log, sizeof log, "/tmp/ptxtutor-nvcc-XXXXXX");
	int fd = mkstemp(log);
	if (fd < 0) {
		cli_error(NULL, "--cu: a temporary file: %s", strerror(errno));
		return 2;
	}
	close(fd);
	char *argv[] = {nvcc, "-ptx", "-lineinfo", "-arch=" CU_ARCH, cu, "-o", o->ptx_made, NULL};
	proc p = PROC_NONE;
	int st = proc_spawn(&p, argv, log, 120) < 0 ? -1 : proc_wait(&p);
	char *said = util_read_file(log, NULL, NULL, 0);
	unlink(log);
	if (st != 0) {
		cli_error(NULL, "--cu: nvcc %s%s (nvcc -ptx -lineinfo -arch=" CU_ARCH " %s)", st == PROC_TIMEOUT ? "took over 120 s" :
			  st < 0 ? "did not start" : "failed", said && *said ? ":" : "", cli_arg(o->cu));
		if (said && *said)
			fprintf(stderr, "%s", said);
		free(said);
		return 2;
	}
	free(said);
	o->ptx = o->ptx_made;
	return -1;
}

int cli_launch_parse(const cli_command *self, int argc, char **argv, cli_launch *o)
{
	memset(o, 0, sizeof *o);
	int nargs, rc = cli_parse(self, argc, argv, o, &nargs);
	if (rc >= 0)
		return rc;
	o->lesson = nargs ? argv[1] : NULL;
	if (o->cu && (o->ptx || o->lesson)) {
		cli_error(self, "--cu FILE.cu goes alone: not with --ptx or a LESSON");
		return 2;
	}
	if (!o->lesson == !(o->ptx || o->cu)) {
		cli_error(self, "give a LESSON, --ptx FILE or --cu FILE.cu (one of them)");
		return 2;
	}
	if (o->lesson && (o->dtype || o->out || o->cluster || o->bmajor || o->layout || o->ld)) {
		cli_error(self, "--%s goes with --ptx: a lesson's types, layouts and cluster are in its front matter",
			  o->dtype ? "dtype" : o->out ? "out" : o->cluster ? "cluster" : o->bmajor ? "bmajor"
			  : o->layout ? "layout" : "ld");
		return 2;
	}
	if ((o->ptx || o->cu) && (!o->grid || !o->block || !o->M)) {
		cli_error(self, "--%s needs --grid, --block and --size (and --entry when it has several)", o->cu ? "cu" : "ptx");
		return 2;
	}
	if (o->cu && (rc = cli_launch_compile_cu(o)) >= 0)
		return rc;
	return -1;
}

/* Prints the module's entries after a one-line complaint. */
static void list_entries(const char *path, const char *const *names, int n)
{
	char shown[RUN_ENTRY];
	fprintf(stderr, "  %s has %d entr%s:\n", path, n, n == 1 ? "y" : "ies");
	for (int i = 0; i < n; i++) {
		int dm = demangle(names[i], shown, sizeof shown);
		fprintf(stderr, "    %s%s%s%s\n", names[i], dm ? "  (" : "", dm ? shown : "", dm ? ")" : "");
	}
}

/* Does want name entry: exactly, or as its demangled name with or without
 * its template arguments? */
static int names_entry(const char *want, const char *entry)
{
	char d[RUN_ENTRY];
	if (!strcmp(want, entry))
		return 2;
	if (!demangle(entry, d, sizeof d))
		return 0;
	size_t n = strlen(want);
	return !strcmp(want, d) || (!strncmp(want, d, n) && d[n] == '<');
}

/* The entry to run, from --entry and the module's list (the emulator's parser lists them). */
int cli_launch_entry(const cli_launch *o, char *out, size_t len)
{
	if (o->entry && strlen(o->entry) >= len) {
		cli_error(NULL, "--entry: a name of %zu characters (the limit is %zu)", strlen(o->entry), len - 1);
		return -1;
	}
	char err[512];
	emu_module *m = emu_module_load_entry(o->ptx, "", NULL, err, sizeof err);
	const char *names[64];
	int n = m ? emu_module_entries(m, names, 64) : 0;
	n = n > 64 ? 64 : n;
	int rc = 0, found = -1, exact = 0, matches = 0;
	for (int i = 0; o->entry && i < n; i++) {
		int how = names_entry(o->entry, names[i]);
		if (how && !exact) {
			exact = how == 2;
			found = i;
			matches += !exact;
		}
	}
	if (!m && o->entry) {
		util_strlcpy(out, o->entry, len); /* the runner's JIT will say what is wrong */
	} else if (!m) {
		cli_error(NULL, "%s", err);
		rc = -1;
	} else if (!o->entry && n == 1) {
		util_strlcpy(out, names[0], len);
	} else if (!o->entry) {
		cli_error(NULL, "--entry: which one?");
		list_entries(o->ptx, names, n);
		rc = -1;
	} else if (found < 0 || (!exact && matches > 1)) {
		cli_error(NULL, "--entry '%s': %s", cli_arg(o->entry), found < 0 ? "no such entry" : "names several entries");
		list_entries(o->ptx, names, n);
		rc = -1;
	} else {
		util_strlcpy(out, names[found], len);
	}
	emu_module_free(m);
	return rc;
}

void cli_launch_title(const cli_launch *o, const run_request *rq, char *buf, size_t len)
{
	if (o->lesson && o->lesson[strspn(o->lesson, "0123456789")] == '\0') /* "lesson 11 at ...", not "11 at ..." */
		snprintf(buf, len, "lesson %s", o->lesson);
	else if (o->lesson)
		util_strlcpy(buf, o->lesson, len);
	else
		demangle(rq->entry, buf, len);
}

void cli_launch_emulation_size(cli_launch *o, const course *c)
{
	if (o->M)
		return;
	const lesson *l = o->lesson ? course_find(c, o->lesson) : NULL;
	long long e = l ? launch_emulation_size(l, &o->set) : 0;
	o->M = o->N = o->K = e ? e : LAUNCH_EMU_DEFAULT;
}

int cli_launch_request(const cli_launch *o, const course *c, run_request *rq)
{
	char err[512];
	long long M = o->M ? o->M : LAUNCH_DEFAULT_SIZE, N = o->M ? o->N : LAUNCH_DEFAULT_SIZE,
		  K = o->M ? o->K : LAUNCH_DEFAULT_SIZE;
	if (o->lesson) {
		const lesson *l = course_find(c, o->lesson);
		if (!l) {
			cli_error(NULL, "no lesson '%s' (see ptxtutor list)", cli_arg(o->lesson));
			return -1;
		}
		if (model_check_params(l, &o->set, err, sizeof err) ||
		    launch_request_for_lesson(l, &o->set, M, N, K, rq, err, sizeof err)) {
			cli_error(NULL, "%s", err);
			return -1;
		}
	} else {
		char entry[RUN_ENTRY];
		if (access(o->ptx, R_OK)) {
			cli_error(NULL, "cannot read %s: %s", cli_arg(o->ptx), strerror(errno));
			return -1;
		}
		if (cli_launch_entry(o, entry, sizeof entry))
			return -1;
		launch_ptx p = {.ptx = o->ptx, .entry = entry, .grid = o->grid, .block = o->block, .smem = o->smem,
				.cluster = o->cluster, .args = o->args, .dtype = o->dtype, .out = o->out, .bmajor = o->bmajor,
				.layout = o->layout, .ld = o->ld, .M = M, .N = N, .K = K};
		if (launch_request_for_ptx(&p, rq, err, sizeof err)) {
			cli_error(NULL, "%s", err);
			return -1;
		}
	}
	launch_target(rq, o->emulate ? RUN_BACKEND_EMU : RUN_BACKEND_GPU, RUN_KIND_RUN,
		      &(launch_limits){.timeout_s = o->timeout, .force = o->force});
	rq->lineinfo = o->lineinfo;
	rq->reference = o->reference ? (run_ref)run_ref_parse(o->reference) : RUN_REF_DEFAULT;
	return 0;
}

int cli_launch_report(const cli_launch *o, const run_request *rq, const run_result *res)
{
	char title[RUN_ENTRY];
	int emulated = res->backend == RUN_BACKEND_EMU, ran = res->status == RUN_OK || res->status == RUN_WRONG;
	int lost = res->status == RUN_TIMEOUT || res->status == RUN_CANCELLED;
	cli_launch_title(o, rq, title, sizeof title);
	if (o->json) {
		json_writer w;
		run_report rep;
		run_report_make(&rep, rq, res, 0);
		char *text = res->nlines ? util_read_file(rq->ptx_path, NULL, NULL, 0) : NULL;
		ptx_locs *locs = ptx_locs_scan(text); /* each row's CUDA line */
		rep.locs = locs;
		json_begin(&w, stdout);
		exec_report_json(&w, NULL, &rep, NULL, NULL);
		json_finish(&w);
		ptx_locs_free(locs);
		free(text);
	} else if (res->status == RUN_NO_GPU) { /* one line, and where to go instead */
		cli_error(NULL, "no GPU: %s; `ptxtutor emulate %s` runs it on the CPU", res->msg,
			  o->lesson ? cli_arg(o->lesson) : "--ptx FILE ...` (the same options) or `run --emulate");
	} else if (!emulated || ran) {
		exec_report_text(stdout, title, rq, res);
	} else {
		exec_report_printf(stdout, &res->printed); /* what it printed before it failed (an assert) */
	}
	if (lost)
		cli_error(NULL, "%s %s on the %s: %s", title, run_status_name(res->status), run_backend_name(res->backend),
			  res->msg);
	else if (emulated && !ran)
		cli_error(NULL, "%s", res->msg);
	char src[sizeof res->where.cu_text + 16];
	run_error_source(&res->where, src, sizeof src);
	if (src[0] && !o->json && !ran) /* the student's own line under the error (a race's is in the report's log) */
		fprintf(stderr, "%s\n", src);
	if (res->status == RUN_OK)
		return 0;
	if (res->status == RUN_WRONG)
		return 1;
	return lost || emulated ? 2 : 1;
}
