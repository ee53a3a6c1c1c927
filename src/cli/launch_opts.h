/* launch_opts: the launch options `run` and `emulate` share — a lesson, or a PTX file with its own shape and parameter list — and the request they make. */
#ifndef PTXTUTOR_LAUNCH_OPTS_H
#define PTXTUTOR_LAUNCH_OPTS_H

#include "base/expr.h"
#include "cli/cli.h"
#include "course/lesson.h"
#include "run/run.h"

/* The launch options shared by `run` and `emulate`: a lesson, or a PTX file
 * with its own launch shape and parameter list. */
typedef struct {
	const char *lesson;           /* number or id; NULL with --ptx */
	const char *ptx, *entry;
	const char *cu;               /* --cu FILE.cu: compiled to ptx_made with nvcc -lineinfo, then as --ptx */
	char ptx_made[RUN_PATH];      /* the PTX --cu made, beside the .cu */
	const char *grid, *block;     /* "X[,Y[,Z]]", expressions over M N K */
	const char *smem;             /* expression, bytes */
	const char *args;             /* parameter spec, see course/argspec.h */
	const char *dtype;            /* A and B: a dtype_parse name */
	const char *out;              /* C: f32 | f16 | bf16 (default f32) */
	const char *bmajor;           /* B: n (K x N, default) | k (N x K) */
	const char *layout, *ld;      /* --layout A=col,..., --ld A=EXPR,...: run/launch.h launch_ptx */
	const char *cluster;          /* "X[,Y[,Z]]" blocks per cluster (default 1) */
	union { /* --size: M, N, K; 0 when not given */
		struct {
			long long M, N, K;
		};
		long long size[3];
	};
	expr_env set;                 /* --set KEY=VALUE what-ifs */
	int json;
	int emulate;
	int force;                    /* the policy's deadline lifted to its most (launch_limits) */
	int lineinfo;                 /* run --lineinfo: JIT with PTX line information (run_request.lineinfo) */
	int lines;                    /* emulate --lines: the per-line figures */
	const char *by;               /* emulate --lines --by ptx|cu: per PTX line (default) or summed per CUDA line */
	double clock;                 /* emulate --stalls --clock MHZ: the replay's SM clock (0: the power model's) */
	int csv;                      /* emulate --lines --csv */
	const char *baseline;         /* emulate --lines --baseline FILE: its per-line figures beside the run's */
	const char *warp;             /* emulate --warp LINE[,WARP[,NTH]]: a warp's view of one access */
	int estimate;                 /* emulate --estimate: the time on a GPU from a sample of blocks */
	int stalls;                   /* emulate --stalls: why each line waits, from the stall model */
	const char *gpu;              /* emulate --estimate --gpu NAME */
	const char *reference;        /* run --reference: default | best | best-promoting (run_ref) */
	double timeout;               /* seconds; 0 = from the size */
} cli_launch;

/* The option tables of run and emulate: the launch options both take, and
 * run's --emulate (cli_parse, the rows cli_cmd_run and cli_cmd_emulate). */
extern const cli_opt cli_run_opts[], cli_emulate_opts[];
/* The first example of run's and emulate's help: the BLAS-signature kernel,
 * with the command (CMD, "run" or "emulate") whose help shows it. */
#define CLI_LAUNCH_EXAMPLE(CMD)                                                                               \
	"\nYour own kernel, C = alpha*A*B + beta*C with the BLAS signature\n"                                  \
	"(int M, int N, int K, float alpha, const float *A, const float *B,\n"                                 \
	"float beta, float *C), compiled with nvcc -ptx -O3:\n"                                                \
	"  ptxtutor " CMD " --ptx sgemm.ptx --args 'M N K alpha:1.5 A B beta:0.5 C' \\\n"                      \
	"      --grid 'ceil(M/32),ceil(N/32)' --block 32,32 --size 1000,700,300\n"

/* Parses run/emulate options into o (cli_parse by self's table); LESSON is
 * positional. Returns -1 to go on, else the exit status (0 after --help, 2
 * after saying why). */
int cli_launch_parse(const cli_command *self, int argc, char **argv, cli_launch *o);
/* Builds the request (run/launch.c's builders), for the emulator backend
 * with --emulate. With --ptx, the entry is the one the module has when
 * --entry is left out, or the one --entry names: mangled exactly, or its
 * demangled name (with or without template arguments) when that is unique;
 * a name that is none of them is refused with the entries listed.
 * Returns 0, or -1 after printing why. */
int cli_launch_request(const cli_launch *o, const course *c, run_request *rq);

/* --cu: o->cu compiled with nvcc -ptx -lineinfo to o->ptx_made beside it
 * (o->ptx set to it). Returns -1 to go on, else the exit status after
 * saying why (no nvcc: the one command to run elsewhere). */
int cli_launch_compile_cu(cli_launch *o);
/* The entry of o->ptx to run, from o->entry as cli_launch_request resolves
 * it (the module's one entry when NULL). Returns 0, or -1 after saying why. */
int cli_launch_entry(const cli_launch *o, char *out, size_t len);

/* Without --size, the size an emulation runs at: the lesson's
 * (launch_emulation_size), else LAUNCH_EMU_DEFAULT cubed. */
void cli_launch_emulation_size(cli_launch *o, const course *c);

/* The name to show for a request: the lesson, or the entry demangled. */
void cli_launch_title(const cli_launch *o, const run_request *rq, char *buf, size_t len);

/* The one report of a run, as `run`, `run --emulate` and `emulate` print it:
 * the JSON object with --json (docs/json.md), else exec_report_text; a run
 * that could not run its kernel on the CPU emulator, or that was killed,
 * cancelled or timed out, also says so on stderr in one line. Returns the
 * exit status: 0 ok, 1 a wrong result (or a GPU run that failed), 2 killed,
 * cancelled or timed out on any backend, or an emulation that could not run. */
int cli_launch_report(const cli_launch *o, const run_request *rq, const run_result *res);

/* --reference's check (run and bench): a name run_ref_parse knows. */
int cli_reference_ok(const char *s, char *why, size_t len);

#endif
