/* launch: a run request for a lesson (its launch shape, parameter list and size rule applied), and how long a run may take. */
#include "run/launch.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "model/model.h"

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
	memcpy(rq->grid, ln.grid, sizeof rq->grid);
	rq->persistent = ln.persistent;
	memcpy(rq->cluster, ln.cluster, sizeof rq->cluster);
	memcpy(rq->block, ln.block, sizeof rq->block);
	rq->smem = ln.smem;
	rq->M = M;
	rq->N = N;
	rq->K = K;
	rq->verify = 1;
	rq->time = 1;
	rq->min_seconds = 0.5;
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

double launch_deadline(const run_request *rq)
{
	double flop = 2.0 * (double)rq->M * (double)rq->N * (double)rq->K;
	return 30.0 + flop / 5e9;
}
