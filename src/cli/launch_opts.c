/* launch_opts: the launch options `run` and `emulate` share — a lesson, or a PTX file with its own shape and parameter list — and the request they make. */
#include "cli/launch_opts.h"
#include "model/model.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/demangle.h"
#include "base/util.h"
#include "cli/cli.h"
#include "emu/emu.h"
#include "run/launch.h"

/* The first example of run's and emulate's help: the BLAS-signature kernel,
 * as most kernels people bring have it. */
static const char launch_example[] =
	"\nYour own kernel, C = alpha*A*B + beta*C with the BLAS signature\n"
	"(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C),\n"
	"compiled with nvcc -ptx -O3:\n"
	"  ptxtutor run --ptx sgemm.ptx --args 'M N K alpha:1.5 A B beta:0.5 C' \\\n"
	"      --grid 'ceil(M/32),ceil(N/32)' --block 32,32 --size 1000,700,300\n\n";

/* The options run and emulate share, printed after each one's own. */
static const char launch_options[] =
	"  --size N|M,N,K  the problem size\n"
	"  --set KEY=VAL   change a lesson parameter for a what-if, e.g. --set TILE=16\n"
	"  --json          print JSON (keys in docs/json.md)\n"
	"  --ptx FILE      a kernel of your own instead of a lesson's (nvcc -ptx output is fine)\n"
	"  --entry NAME    its entry: mangled (_Z15sgemm...) or demangled (sgemmWarptiling);\n"
	"                  may be left out when the module has one entry\n"
	"  --grid, --block, --smem\n"
	"                  expressions over M, N, K: '--grid N/32,M/32', 'ceil(M/BM)';\n"
	"                  '--grid persistent': one block per SM slot (the kernel loops over tiles)\n"
	"  --args SPEC     the kernel's parameters in order: A B C (buffers), M N K (u32),\n"
	"                  alpha:VALUE beta:VALUE (BLAS's f32 scalars: with beta:, C starts as\n"
	"                  random C0 and is checked against alpha*A*B + beta*C0; without it C\n"
	"                  starts as NaN, so a kernel that reads C needs beta:), typed literals\n"
	"                  u32:8192 s32:-1 u64:0 s64:-1 f32:1.5 f64:0.5 f16:1 (default\n"
	"                  'A B C M N K'), or TMA tensor maps tmap:A|B|C:INNER:OUTER[:none|32B|\n"
	"                  64B|128B] (a box of INNER columns x OUTER rows, e.g. tmap:A:64:128:128B)\n"
	"  --dtype T       A and B: f32 (cuBLAS SGEMM), f16 or bf16 (cuBLAS GemmEx, same types)\n"
	"  --out T         C: f32 (default), or f16 / bf16 with inputs of that type\n"
	"  --cluster X[,Y[,Z]]\n"
	"                  blocks per thread-block cluster (sm_90, at most 8 in all); the grid must\n"
	"                  be a multiple of it; a persistent grid is sized in whole clusters\n"
	"  --force         emulate even when the estimated CPU time is over the limit\n";

static void launch_usage(const cli_command *self, FILE *out, const char *details)
{
	cli_usage(self, out, NULL);
	fputs(launch_example, out);
	fputs(details, out);
	fputs(launch_options, out);
}

int cli_launch_parse(const cli_command *self, int argc, char **argv, cli_launch *o, const char *details)
{
	static const struct option opts[] = {
		{"ptx", required_argument, 0, 'p'},  {"entry", required_argument, 0, 'e'},
		{"grid", required_argument, 0, 'g'}, {"block", required_argument, 0, 'b'},
		{"smem", required_argument, 0, 'm'}, {"args", required_argument, 0, 'a'},
		{"dtype", required_argument, 0, 'd'}, {"size", required_argument, 0, 's'},
		{"out", required_argument, 0, 'o'},  {"cluster", required_argument, 0, 'c'},
		{"set", required_argument, 0, 'S'},  {"json", no_argument, 0, 'j'},
		{"emulate", no_argument, 0, 'E'},    {"timeout", required_argument, 0, 't'},
		{"force", no_argument, 0, 'F'},      {"help", no_argument, 0, 'h'},
		{0},
	};
	memset(o, 0, sizeof *o);
	o->M = o->N = o->K = 0;
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (ch) {
		case 'p': o->ptx = optarg; break;
		case 'e': o->entry = optarg; break;
		case 'g': o->grid = optarg; break;
		case 'b': o->block = optarg; break;
		case 'm': o->smem = optarg; break;
		case 'a': o->args = optarg; break;
		case 'd': o->dtype = optarg; break;
		case 'o': o->out = optarg; break;
		case 'c': o->cluster = optarg; break;
		case 'j': o->json = 1; break;
		case 'E': o->emulate = 1; break;
		case 'F': o->force = 1; break;
		case 't':
			if (cli_parse_seconds("--timeout", optarg, &o->timeout))
				return -1;
			break;
		case 's':
			if (cli_parse_size(optarg, &o->M, &o->N, &o->K))
				return -1;
			break;
		case 'S':
			if (cli_parse_set(optarg, &o->set))
				return -1;
			break;
		case 'h': launch_usage(self, stdout, details); return 1;
		default: launch_usage(self, stderr, details); return -1;
		}
	}
	if (optind < argc)
		o->lesson = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "ptxtutor: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (!o->lesson == !o->ptx) {
		fprintf(stderr, "ptxtutor: give a LESSON or --ptx FILE (one of them)\n");
		cli_usage(self, stderr, NULL);
		return -1;
	}
	if (o->lesson && (o->dtype || o->out || o->cluster)) {
		fprintf(stderr, "ptxtutor: --%s goes with --ptx: a lesson's types and cluster are in its front matter\n",
			o->dtype ? "dtype" : o->out ? "out" : "cluster");
		return -1;
	}
	if (o->ptx && (!o->grid || !o->block || !o->M)) {
		fprintf(stderr, "ptxtutor: --ptx needs --grid, --block and --size (and --entry when it has several)\n");
		return -1;
	}
	return 0;
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
static int resolve_entry(const cli_launch *o, char *out, size_t len)
{
	if (o->entry && strlen(o->entry) >= len) {
		fprintf(stderr, "ptxtutor: --entry: a name of %zu characters (the limit is %zu)\n", strlen(o->entry), len - 1);
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
		fprintf(stderr, "ptxtutor: %s\n", err);
		rc = -1;
	} else if (!o->entry && n == 1) {
		util_strlcpy(out, names[0], len);
	} else if (!o->entry) {
		fprintf(stderr, "ptxtutor: --entry: which one?\n");
		list_entries(o->ptx, names, n);
		rc = -1;
	} else if (found < 0 || (!exact && matches > 1)) {
		fprintf(stderr, "ptxtutor: --entry '%s': %s\n", o->entry, found < 0 ? "no such entry" : "names several entries");
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
	if (o->lesson)
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
			fprintf(stderr, "ptxtutor: no lesson '%s' (see ptxtutor list)\n", o->lesson);
			return -1;
		}
		if (model_check_params(l, &o->set, err, sizeof err) ||
		    launch_request_for_lesson(l, &o->set, M, N, K, rq, err, sizeof err)) {
			fprintf(stderr, "ptxtutor: %s\n", err);
			return -1;
		}
	} else {
		char entry[RUN_ENTRY];
		if (access(o->ptx, R_OK)) {
			fprintf(stderr, "ptxtutor: cannot read %s\n", o->ptx);
			return -1;
		}
		if (resolve_entry(o, entry, sizeof entry))
			return -1;
		launch_ptx p = {.ptx = o->ptx, .entry = entry, .grid = o->grid, .block = o->block, .smem = o->smem,
				.cluster = o->cluster, .args = o->args, .dtype = o->dtype, .out = o->out,
				.M = M, .N = N, .K = K};
		if (launch_request_for_ptx(&p, rq, err, sizeof err)) {
			fprintf(stderr, "ptxtutor: %s\n", err);
			return -1;
		}
	}
	rq->backend = o->emulate ? RUN_BACKEND_EMU : RUN_BACKEND_GPU;
	return 0;
}
