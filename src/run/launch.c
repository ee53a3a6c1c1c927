/* launch: the one builder of run requests (a lesson, a PTX file with its own shape, a device query, a cubin), its target and the one deadline policy. */
#include "run/launch.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "model/model.h"

/* What every request starts with, whichever builder: the size, checked
 * against cuBLAS, timed steady (run_timing). */
static void defaults(run_request *rq, long long M, long long N, long long K)
{
	rq->M = M;
	rq->N = N;
	rq->K = K;
	rq->verify = 1;
	rq->time = 1;
}

/* The lesson's declared parameter of that name, or NULL. */
static const lesson_param *param(const lesson *l, const char *name)
{
	for (int i = 0; i < l->nparams; i++)
		if (!strcmp(l->params[i].name, name))
			return &l->params[i];
	return NULL;
}

int launch_model_only(const lesson *l, const expr_env *overrides, char *err, int errlen)
{
	for (int i = 0; overrides && i < overrides->n; i++) {
		const lesson_param *p = param(l, overrides->v[i].name);
		if (p && !p->runtime && overrides->v[i].value != p->value) {
			snprintf(err, (size_t)errlen,
				 "model-only what-if: the kernel is built for %s=%lld (%s=%lld changes the model, not the PTX)",
				 p->name, p->value, p->name, overrides->v[i].value);
			return 1;
		}
	}
	return 0;
}

int launch_request_for_lesson(const lesson *l, const expr_env *overrides, long long M, long long N, long long K,
			      run_request *rq, char *err, int errlen)
{
	expr_env env;
	lesson_launch ln;
	char msg[256];
	if (!l->ptx_path[0]) {
		snprintf(err, (size_t)errlen, "lesson %d (%s) has no kernel to run", l->number, l->id);
		return -1;
	}
	if (model_check_params(l, overrides, err, errlen) || launch_model_only(l, overrides, err, errlen))
		return -1;
	lesson_env(l, overrides, M, N, K, &env);
	if (lesson_check_size(l, &env, err, errlen) || lesson_launch_for(l, &env, &ln, err, errlen))
		return -1;
	memset(rq, 0, sizeof *rq);
	if (argspec_parse(l->args, &env, &rq->args, msg, sizeof msg)) {
		snprintf(err, (size_t)errlen, "%s: args: %s", l->path, msg);
		return -1;
	}
	util_path(rq->ptx_path, sizeof rq->ptx_path, l->ptx_path);
	util_strlcpy(rq->entry, l->entry, sizeof rq->entry);
	rq->dt = l->dt;
	rq->out = l->out;
	if (argspec_layout_parse(l->layout, l->ld, &env, &rq->layout, msg, sizeof msg)) {
		snprintf(err, (size_t)errlen, "%s: %s: %s", l->path, l->ld[0] ? "layout/ld" : "layout", msg);
		return -1;
	}
	rq->b_kmajor = l->b_kmajor || rq->layout.col[1]; /* one fact, two spellings: kept equal */
	rq->layout.col[1] = (unsigned char)rq->b_kmajor;
	memcpy(rq->grid, ln.grid, sizeof rq->grid);
	rq->persistent = ln.persistent;
	memcpy(rq->cluster, ln.cluster, sizeof rq->cluster);
	memcpy(rq->block, ln.block, sizeof rq->block);
	rq->smem = ln.smem;
	defaults(rq, M, N, K);
	launch_target(rq, RUN_BACKEND_GPU, RUN_KIND_RUN, NULL);
	/* a size whose grid is not whole clusters: said here, in one line, before any GPU work */
	if (run_check_cluster(rq, msg, sizeof msg)) {
		snprintf(err, (size_t)errlen, "%s: at %lldx%lldx%lld %s", l->path, M, N, K, msg);
		return -1;
	}
	return 0;
}

long long launch_emulation_size(const lesson *l, const expr_env *overrides)
{
	static const long long cubes[] = LAUNCH_EMU_SIZES;
	char why[256];
	if (model_check_params(l, overrides, why, sizeof why) || launch_model_only(l, overrides, why, sizeof why))
		return cubes[0];
	for (size_t i = 0; i < ARRAY_LEN(cubes); i++) {
		run_request probe;
		char err[256];
		if (!launch_request_for_lesson(l, overrides, cubes[i], cubes[i], cubes[i], &probe, err, sizeof err))
			return cubes[i];
	}
	return 0;
}

/* Evaluates "X[,Y[,Z]]" with M, N, K into three values, 1 where left out. */
static int eval_dims(const char *what, const char *s, const expr_env *env, unsigned out[3], char *err, int errlen)
{
	char buf[256], why[128];
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
			if (i >= 3 || expr_eval(start, env, &v, why, sizeof why)) {
				snprintf(err, (size_t)errlen, "--%s '%s': %s", what, s, i >= 3 ? "at most 3 values" : why);
				return -1;
			}
			if (v < 1 || v > 0x7fffffff) {
				snprintf(err, (size_t)errlen, "--%s '%s': %lld is out of range", what, s, v);
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

/* The types of a request of one's own: f32 unless named, a pair that exists. */
static int ptx_types(const launch_ptx *p, run_request *rq, char *err, int errlen)
{
	char why[256];
	rq->dt = rq->out = DTYPE_F32;
	if (p->dtype && dtype_parse(p->dtype, &rq->dt)) {
		snprintf(err, (size_t)errlen, "--dtype is %s, not '%s'", dtype_names(), p->dtype);
		return -1;
	}
	rq->out = dtype_default_out(rq->dt); /* s8 gives s32 unless --out says otherwise */
	if (p->out && dtype_parse(p->out, &rq->out)) {
		snprintf(err, (size_t)errlen, "--out is %s, not '%s'", dtype_names(), p->out);
		return -1;
	}
	if (dtype_pair_check(rq->dt, rq->out, why, sizeof why)) {
		snprintf(err, (size_t)errlen, "%s: %s", p->out ? "--out" : "--dtype", why);
		return -1;
	}
	return 0;
}

int launch_request_for_ptx(const launch_ptx *p, run_request *rq, char *err, int errlen)
{
	char why[256];
	expr_env env = {0};
	expr_set(&env, "M", p->M);
	expr_set(&env, "N", p->N);
	expr_set(&env, "K", p->K);
	memset(rq, 0, sizeof *rq);
	util_strlcpy(rq->ptx_path, p->ptx, sizeof rq->ptx_path);
	util_strlcpy(rq->entry, p->entry, sizeof rq->entry);
	rq->persistent = !strcmp(p->grid, "persistent");
	if ((!rq->persistent && eval_dims("grid", p->grid, &env, rq->grid, err, errlen)) ||
	    eval_dims("block", p->block, &env, rq->block, err, errlen))
		return -1;
	if (p->smem) {
		unsigned s[3];
		if (eval_dims("smem", p->smem, &env, s, err, errlen))
			return -1;
		rq->smem = s[0];
	}
	if (ptx_types(p, rq, err, errlen))
		return -1;
	if (p->bmajor && strcmp(p->bmajor, "n") && strcmp(p->bmajor, "k")) {
		snprintf(err, (size_t)errlen, "--bmajor is n (B stored K x N) or k (B stored N x K), not '%s'", p->bmajor);
		return -1;
	}
	if (argspec_layout_parse(p->layout, NULL, &env, &rq->layout, why, sizeof why)) {
		snprintf(err, (size_t)errlen, "--layout %s", why);
		return -1;
	}
	if (p->bmajor && p->layout && rq->layout.col[1] != (p->bmajor[0] == 'k')) {
		snprintf(err, (size_t)errlen, "--bmajor %s and --layout '%s' disagree on B (--bmajor k is B=col)", p->bmajor,
			 p->layout);
		return -1;
	}
	rq->b_kmajor = (p->bmajor && p->bmajor[0] == 'k') || rq->layout.col[1];
	rq->layout.col[1] = (unsigned char)rq->b_kmajor;
	if (p->ld) { /* parsed again with the majors known: the tight ld depends on them */
		argspec_layout l;
		char lay[32];
		snprintf(lay, sizeof lay, "A=%s,B=%s,C=%s", rq->layout.col[0] ? "col" : "row", rq->layout.col[1] ? "col" : "row",
			 rq->layout.col[2] ? "col" : "row");
		if (argspec_layout_parse(lay, p->ld, &env, &l, why, sizeof why)) {
			snprintf(err, (size_t)errlen, "--ld %s", why);
			return -1;
		}
		memcpy(rq->layout.ld, l.ld, sizeof l.ld);
	}
	if (p->cluster && eval_dims("cluster", p->cluster, &env, rq->cluster, err, errlen))
		return -1;
	if (run_check_cluster(rq, why, sizeof why)) {
		snprintf(err, (size_t)errlen, "--cluster: %s", why);
		return -1;
	}
	if (argspec_parse(p->args ? p->args : "A B C M N K", &env, &rq->args, why, sizeof why)) {
		snprintf(err, (size_t)errlen, "--args: %s", why);
		return -1;
	}
	defaults(rq, p->M, p->N, p->K);
	launch_target(rq, RUN_BACKEND_GPU, RUN_KIND_RUN, NULL);
	return 0;
}

/* The deadline policy's constants (see launch.h). */
#define DEADLINE_FLOOR_S 30.0      /* a GPU run: the JIT, a check, warm-ups and cuBLAS besides our launches */
#define DEADLINE_SLOW_FLOPS 5e9    /* the slowest kernel we expect, without a prediction */
#define DEADLINE_JIT_S 60.0        /* a check or a SASS build: the JIT only */
#define DEADLINE_EMU_S 120.0       /* an emulation on one core, at the tutor's sizes */

double launch_deadline(const run_request *rq)
{
	double s;
	if (rq->backend == RUN_BACKEND_EMU)
		s = DEADLINE_EMU_S;
	else if (rq->backend == RUN_BACKEND_CUBIN || rq->kind == RUN_KIND_JIT_ONLY)
		s = DEADLINE_JIT_S;
	else if (rq->kind == RUN_KIND_DEVICE)
		s = DEADLINE_FLOOR_S;
	else
		s = DEADLINE_FLOOR_S + 2.0 * (double)rq->M * (double)rq->N * (double)rq->K / DEADLINE_SLOW_FLOPS;
	return s < LAUNCH_DEADLINE_MAX_S ? s : LAUNCH_DEADLINE_MAX_S;
}

void launch_target(run_request *rq, run_backend backend, run_kind kind, const launch_limits *lim)
{
	rq->backend = backend;
	rq->kind = kind;
	if (lim && lim->timeout_s > 0)
		rq->deadline_s = lim->timeout_s;
	else if (lim && lim->force)
		rq->deadline_s = LAUNCH_DEADLINE_MAX_S;
	else
		rq->deadline_s = launch_deadline(rq);
}

void launch_request_device(run_request *rq)
{
	memset(rq, 0, sizeof *rq);
	launch_target(rq, RUN_BACKEND_GPU, RUN_KIND_DEVICE, NULL);
}

void launch_request_cubin(run_request *rq, const char *ptx_path, const char *entry, const char *out, double timeout_s)
{
	memset(rq, 0, sizeof *rq);
	util_strlcpy(rq->ptx_path, ptx_path, sizeof rq->ptx_path);
	util_strlcpy(rq->entry, entry, sizeof rq->entry);
	util_strlcpy(rq->cubin_path, out, sizeof rq->cubin_path);
	launch_target(rq, RUN_BACKEND_CUBIN, RUN_KIND_RUN, &(launch_limits){.timeout_s = timeout_s});
}

int launch_admit(const run_request *rq, double estimate_s, unsigned long long estimate_inst, long long blocks_done,
		 long long blocks, char *why, int len)
{
	if (rq->deadline_s <= 0 || estimate_s <= rq->deadline_s)
		return 0;
	snprintf(why, (size_t)len,
		 "this emulation would take about %.0f s of CPU time (%.3g warp instructions, from a probe of %lld of "
		 "%lld blocks); the limit is %.0f s: use a smaller --size, or --force",
		 estimate_s, (double)estimate_inst, blocks_done, blocks, rq->deadline_s);
	return -1;
}
