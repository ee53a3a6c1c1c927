/* launch_opts: the launch options `run` and `emulate` share — a lesson, or a PTX file with its own shape and parameter list — and the request they make. */
#include "cli/launch_opts.h"
#include "model/model.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/cli.h"
#include "run/launch.h"

/* The options run and emulate share, printed after each one's own. */
static const char launch_options[] =
	"  --size N|M,N,K  the problem size\n"
	"  --set KEY=VAL   change a lesson parameter for a what-if, e.g. --set TILE=16\n"
	"  --json          print JSON (keys in docs/json.md)\n"
	"  --ptx FILE      a kernel of your own instead of a lesson's; --entry NAME names it\n"
	"  --grid, --block, --smem\n"
	"                  expressions over M, N, K: '--grid N/32,M/32', 'ceil(M/BM)';\n"
	"                  '--grid persistent': one block per SM slot (the kernel loops over tiles)\n"
	"  --args SPEC     the kernel's parameters in order: A B C (buffers), M N K (u32), or\n"
	"                  typed literals u32:8192 s32:-1 u64:0 s64:-1 f32:1.5 f64:0.5 f16:1\n"
	"                  (default 'A B C M N K'), or TMA tensor maps\n"
	"                  tmap:A|B|C:INNER:OUTER[:none|32B|64B|128B] (a box of INNER columns\n"
	"                  x OUTER rows, e.g. tmap:A:64:128:128B)\n"
	"  --dtype T       f32: f32 A, B, C (cuBLAS SGEMM); f16: f16 A, B, f32 C (cuBLAS GemmEx)\n";

static void launch_usage(const cli_command *self, FILE *out, const char *details)
{
	cli_usage(self, out, details);
	fputs(launch_options, out);
}

int cli_launch_parse(const cli_command *self, int argc, char **argv, cli_launch *o, const char *details)
{
	static const struct option opts[] = {
		{"ptx", required_argument, 0, 'p'},  {"entry", required_argument, 0, 'e'},
		{"grid", required_argument, 0, 'g'}, {"block", required_argument, 0, 'b'},
		{"smem", required_argument, 0, 'm'}, {"args", required_argument, 0, 'a'},
		{"dtype", required_argument, 0, 'd'}, {"size", required_argument, 0, 's'},
		{"set", required_argument, 0, 'S'},  {"json", no_argument, 0, 'j'},
		{"emulate", no_argument, 0, 'E'},    {"timeout", required_argument, 0, 't'},
		{"help", no_argument, 0, 'h'},       {0},
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
		case 'j': o->json = 1; break;
		case 'E': o->emulate = 1; break;
		case 't': o->timeout = atof(optarg); break;
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
	if (o->ptx && (!o->entry || !o->grid || !o->block || !o->M)) {
		fprintf(stderr, "ptxtutor: --ptx needs --entry, --grid, --block and --size\n");
		return -1;
	}
	return 0;
}

/* Evaluates "X[,Y[,Z]]" with M, N, K into three unsigned values. */
static int eval_dims(const char *what, const char *s, const expr_env *env, unsigned out[3])
{
	char buf[256], err[128];
	util_strlcpy(buf, s, sizeof buf);
	out[0] = out[1] = out[2] = 1;
	int i = 0;
	/* Commas inside min(a,b) belong to the function, so split at depth 0. */
	char *start = buf;
	int depth = 0;
	for (char *p = buf;; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if ((*p == ',' && depth == 0) || !*p) {
			int last = !*p;
			*p = '\0';
			long long v;
			if (i >= 3 || expr_eval(start, env, &v, err, sizeof err)) {
				fprintf(stderr, "ptxtutor: --%s '%s': %s\n", what, s, i >= 3 ? "at most 3 values" : err);
				return -1;
			}
			if (v < 1 || v > 0x7fffffff) {
				fprintf(stderr, "ptxtutor: --%s '%s': %lld is out of range\n", what, s, v);
				return -1;
			}
			out[i++] = (unsigned)v;
			if (last)
				break;
			start = p + 1;
		}
	}
	return 0;
}

int cli_launch_request(const cli_launch *o, const course *c, run_request *rq)
{
	char err[512];
	long long M = o->M ? o->M : 1024, N = o->M ? o->N : 1024, K = o->M ? o->K : 1024;
	if (o->lesson) {
		const lesson *l = course_find(c, o->lesson);
		if (!l) {
			fprintf(stderr, "ptxtutor: no lesson '%s' (see ptxtutor list)\n", o->lesson);
			return -1;
		}
		if (model_check_params(l, &o->set, err, sizeof err)) {
			fprintf(stderr, "ptxtutor: %s\n", err);
			return -1;
		}
		if (launch_request_for_lesson(l, &o->set, M, N, K, rq, err, sizeof err)) {
			fprintf(stderr, "ptxtutor: %s\n", err);
			return -1;
		}
		return 0;
	}
	expr_env env = {0};
	expr_set(&env, "M", M);
	expr_set(&env, "N", N);
	expr_set(&env, "K", K);
	memset(rq, 0, sizeof *rq);
	util_strlcpy(rq->ptx_path, o->ptx, sizeof rq->ptx_path);
	if (access(rq->ptx_path, R_OK)) {
		fprintf(stderr, "ptxtutor: cannot read %s\n", o->ptx);
		return -1;
	}
	util_strlcpy(rq->entry, o->entry, sizeof rq->entry);
	rq->persistent = !strcmp(o->grid, "persistent");
	if ((!rq->persistent && eval_dims("grid", o->grid, &env, rq->grid)) || eval_dims("block", o->block, &env, rq->block))
		return -1;
	if (o->smem) {
		unsigned s[3];
		if (eval_dims("smem", o->smem, &env, s))
			return -1;
		rq->smem = s[0];
	}
	rq->dt = DTYPE_F32;
	if (o->dtype && !strcmp(o->dtype, "f16"))
		rq->dt = DTYPE_F16;
	else if (o->dtype && strcmp(o->dtype, "f32")) {
		fprintf(stderr, "ptxtutor: --dtype is f32 or f16, not '%s'\n", o->dtype);
		return -1;
	}
	if (argspec_parse(o->args ? o->args : "A B C M N K", &env, &rq->args, err, sizeof err)) {
		fprintf(stderr, "ptxtutor: --args: %s\n", err);
		return -1;
	}
	rq->M = M;
	rq->N = N;
	rq->K = K;
	rq->verify = 1;
	rq->time = 1;
	rq->min_seconds = 0.5;
	return 0;
}
