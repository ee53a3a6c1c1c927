/* exec/sass: the SASS chain (JIT through the worker → ptxas → recording) under a policy, here or in a child whose answer comes back over a pipe. */
#define _GNU_SOURCE /* pipe2 */
#include "exec/sass.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "course/sass_record.h"
#include "exec/wait.h"
#include "run/launch.h"

/* The GPU's own JIT: the instrumented copy of t->path sent to worker w as a
 * RUN_BACKEND_CUBIN request, the cubin disassembled here (its text into
 * *disasm, for a recording). Returns 0, SASS_MISSING, SASS_FAILED or
 * SASS_NO_GPU with a one-line err. */
static int jit(worker *w, const exec_sass_target *t, double deadline_s, sass_kernel *k, char **disasm, char *err,
	       size_t errlen)
{
	sass_kernel_init(k, t->entry);
	/* Without a disassembler the JIT's cubin is no use: say so before the work. */
	if (!sass_have_disasm(err, errlen))
		return SASS_MISSING;
	if (w->pid <= 0 && worker_start(w) < 0) {
		snprintf(err, errlen, "cannot start the GPU worker process");
		return SASS_NO_GPU;
	}
	sass_job j;
	int rc = sass_job_start(&j, t->path, err, errlen);
	if (rc)
		return rc;
	static run_request rq;
	launch_request_cubin(&rq, j.ptx, t->entry, j.cubin, deadline_s);
	static run_result res;
	if (worker_submit(w, &rq) < 0) {
		sass_job_end(&j);
		snprintf(err, errlen, "cannot send the JIT request to the GPU worker");
		return SASS_NO_GPU;
	}
	/* The worker kills the JIT at the request's deadline: this ends. */
	worker_wait(w, &res, NULL, NULL);
	if (res.status == RUN_NO_GPU) {
		sass_job_end(&j);
		snprintf(err, errlen, "%s", res.msg);
		return SASS_NO_GPU;
	}
	if (res.status != RUN_OK) {
		sass_job_end(&j);
		/* The JIT's first complaint, on one line. */
		char first[200] = "";
		sscanf(res.log, "%199[^\n]", first);
		snprintf(err, errlen, "%s%s%s", res.msg, first[0] ? ": " : "", first);
		return SASS_FAILED;
	}
	sass_parse_ptxas_v(res.log, t->entry, k);
	/* The GPU's own target, sm_90a where the PTX asks for the variant. */
	char *text = util_read_file(t->path, NULL, NULL, 0);
	sass_arch_for(text, res.cc_major, res.cc_minor, k->arch, sizeof k->arch);
	free(text);
	util_strlcpy(k->compiler, res.msg, sizeof k->compiler);
	util_strlcpy(k->gpu, res.gpu, sizeof k->gpu);
	snprintf(k->tools, sizeof k->tools, "driver JIT (line info)");
	rc = sass_job_disasm(&j, t->entry, k, err, errlen);
	if (rc == 0)
		*disasm = j.disasm, j.disasm = NULL;
	sass_job_end(&j);
	return rc;
}

void exec_sass(const exec_sass_target *t, const exec_sass_policy *p, worker *w, exec_sass_out *out)
{
	memset(out, 0, sizeof *out);
	sass_kernel_init(&out->k, t->entry);
	int rc = SASS_NO_GPU;
	snprintf(out->err, sizeof out->err, "no GPU JIT asked for, and no ptxas");
	if (p->allow_jit) {
		worker own;
		memset(&own, 0, sizeof own);
		own.pid = -1;
		rc = jit(w ? w : &own, t, p->jit_deadline_s, &out->k, &out->disasm, out->err, sizeof out->err);
		if (!w)
			worker_stop(&own);
		/* A GPU too old for the kernel (lesson 9's sm_90a on an sm_80): ptxas
		 * for the modelled GPU still shows what it would run. */
		if (rc == SASS_FAILED && p->allow_ptxas) {
			snprintf(out->note, sizeof out->note, "the driver's JIT: %s; ptxas instead", out->err);
			rc = SASS_NO_GPU;
		}
	}
	if (rc == SASS_NO_GPU && p->allow_ptxas) {
		sass_kernel_free(&out->k);
		rc = sass_build_text(t->path, t->entry, t->arch, &out->k, &out->disasm, out->err, sizeof out->err);
		util_strlcpy(out->k.gpu, t->gpu, sizeof out->k.gpu);
	}
	if (rc == SASS_MISSING && (p->allow_recorded || p->why_not_recorded)) {
		char why[300];
		sass_kernel_free(&out->k);
		util_strlcpy(why, p->allow_recorded ? "" : p->why_not_recorded, sizeof why);
		if (p->allow_recorded && sass_record_use(t->lesson, t->path, t->entry, t->arch, &out->k, why, sizeof why) == 0) {
			rc = 0;
		} else {
			sass_record_missing(why, out->err, sizeof out->err);
			util_strlcpy(out->why_not_recorded, why, sizeof out->why_not_recorded);
		}
	}
	if (rc) {
		sass_kernel_free(&out->k);
		free(out->disasm);
		out->disasm = NULL;
	}
	out->status = rc;
}

void exec_sass_out_free(exec_sass_out *out)
{
	sass_kernel_free(&out->k);
	free(out->disasm);
	out->disasm = NULL;
}

/* ---- the chain in a child ---- */

/* The answer on the pipe: this, then k.n instructions, then disasm_len bytes. */
typedef struct {
	int status;
	sass_kernel k;      /* ins NULL on the wire */
	char err[512], why_not_recorded[300], note[600];
	size_t disasm_len;
} wire;

typedef struct {
	const exec_sass_target *t;
	const exec_sass_policy *p;
	const char *dir;
	int rd, wr;
} child_arg;

static int write_all(int fd, const void *buf, size_t n)
{
	const char *b = buf;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w, n -= (size_t)w;
	}
	return 0;
}

static int child(void *arg)
{
	const child_arg *c = arg;
	close(c->rd);
	/* Every temporary file of the tools goes under the job's folder, which
	 * the parent removes whatever becomes of this child. */
	setenv("TMPDIR", c->dir, 1);
	exec_sass_out out;
	exec_sass(c->t, c->p, NULL, &out);
	wire h = {.status = out.status, .k = out.k, .disasm_len = out.disasm ? strlen(out.disasm) : 0};
	h.k.ins = NULL;
	memcpy(h.err, out.err, sizeof h.err);
	memcpy(h.note, out.note, sizeof h.note);
	memcpy(h.why_not_recorded, out.why_not_recorded, sizeof h.why_not_recorded);
	int bad = write_all(c->wr, &h, sizeof h) || write_all(c->wr, out.k.ins, (size_t)out.k.n * sizeof *out.k.ins) ||
		  write_all(c->wr, out.disasm ? out.disasm : "", h.disasm_len);
	return bad;
}

static void end(exec_sass_job *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	proc_kill(&j->p);
	if (j->dir[0])
		sass_remove_tree(j->dir);
	j->dir[0] = '\0';
	free(j->buf);
	j->buf = NULL;
	j->len = j->cap = 0;
}

int exec_sass_job_start(exec_sass_job *j, const exec_sass_target *t, const exec_sass_policy *p, double timeout_s)
{
	*j = (exec_sass_job)EXEC_SASS_JOB_NONE;
	const char *tmp = getenv("TMPDIR");
	snprintf(j->dir, sizeof j->dir, "%s/ptxtutor-sassjob-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(j->dir)) {
		j->dir[0] = '\0';
		return -1;
	}
	if (timeout_s <= 0) {
		static run_request rq;
		launch_request_cubin(&rq, t->path, t->entry, "", p->jit_deadline_s);
		timeout_s = (p->allow_jit ? rq.deadline_s : 0) + 4 * sass_tool_timeout() + LAUNCH_KILL_GRACE_S;
	}
	j->timeout_s = timeout_s;
	int fds[2];
	/* close-on-exec: ptxas, $EDITOR and the worker hold no end of it */
	if (pipe2(fds, O_CLOEXEC) < 0) {
		end(j);
		return -1;
	}
	child_arg c = {.t = t, .p = p, .dir = j->dir, .rd = fds[0], .wr = fds[1]};
	if (proc_fork(&j->p, child, &c, timeout_s) < 0) {
		close(fds[0]), close(fds[1]);
		end(j);
		return -1;
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	j->fd = fds[0];
	return 0;
}

/* The answer read whole into out; -1 when it is short (the child died). */
static int decode(const exec_sass_job *j, exec_sass_out *out)
{
	wire h;
	if (j->len < sizeof h)
		return -1;
	memcpy(&h, j->buf, sizeof h);
	size_t ni = h.k.n > 0 ? (size_t)h.k.n * sizeof(sass_instr) : 0;
	if (h.k.n < 0 || j->len != sizeof h + ni + h.disasm_len)
		return -1;
	memset(out, 0, sizeof *out);
	out->status = h.status;
	out->k = h.k;
	out->k.ins = ni ? xmalloc(ni) : NULL;
	if (ni) /* no instructions: no copy (memcpy's pointers must not be NULL) */
		memcpy(out->k.ins, j->buf + sizeof h, ni);
	if (h.disasm_len || h.status == 0) {
		out->disasm = xmalloc(h.disasm_len + 1);
		memcpy(out->disasm, j->buf + sizeof h + ni, h.disasm_len);
		out->disasm[h.disasm_len] = '\0';
	}
	memcpy(out->err, h.err, sizeof out->err);
	memcpy(out->note, h.note, sizeof out->note);
	memcpy(out->why_not_recorded, h.why_not_recorded, sizeof out->why_not_recorded);
	out->err[sizeof out->err - 1] = out->note[sizeof out->note - 1] = '\0';
	out->why_not_recorded[sizeof out->why_not_recorded - 1] = '\0';
	return 0;
}

static void lost(exec_sass_out *out, int status, const char *msg)
{
	memset(out, 0, sizeof *out);
	out->status = status;
	util_strlcpy(out->err, msg, sizeof out->err);
}

int exec_sass_job_poll(exec_sass_job *j, exec_sass_out *out)
{
	if (j->fd < 0)
		return 0;
	for (;;) {
		if (j->cap - j->len < 65536) {
			j->cap = j->cap ? j->cap * 2 : 131072;
			j->buf = xrealloc(j->buf, j->cap);
		}
		ssize_t r = read(j->fd, j->buf + j->len, j->cap - j->len);
		if (r > 0) {
			j->len += (size_t)r;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN) {
			int st;
			/* Past its deadline the child is killed: its answer never comes. */
			if (proc_poll(&j->p, &st) && st == PROC_TIMEOUT) {
				char msg[160];
				snprintf(msg, sizeof msg, "compiling and disassembling took over %.0f s and was stopped",
					 j->timeout_s);
				lost(out, SASS_TIMEOUT, msg);
				end(j);
				return 1;
			}
			return 0;
		}
		break; /* end of file: the whole answer, or the child died */
	}
	int status = proc_wait(&j->p);
	if (decode(j, out) < 0) {
		char msg[160];
		snprintf(msg, sizeof msg, "the SASS process ended before it answered (status %d)", status);
		lost(out, SASS_FAILED, msg);
	}
	end(j);
	return 1;
}

void exec_sass_job_stop(exec_sass_job *j)
{
	end(j);
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

typedef struct {
	exec_sass_job *j;
	exec_sass_out *out;
} sass_waiting;

static int wait_fd(void *p)
{
	return ((sass_waiting *)p)->j->fd;
}

static int wait_done(void *p)
{
	sass_waiting *sw = p;
	return exec_sass_job_poll(sw->j, sw->out);
}

static void wait_stop(void *p)
{
	sass_waiting *sw = p;
	exec_sass_job_stop(sw->j);
	lost(sw->out, SASS_CANCELLED, "interrupted");
}

void exec_sass_wait(const exec_sass_target *t, const exec_sass_policy *p, exec_sass_out *out)
{
	static const exec_waiter waiter = {.fd = wait_fd, .done = wait_done, .stop = wait_stop};
	exec_sass_job j;
	if (exec_sass_job_start(&j, t, p, 0) < 0) {
		lost(out, SASS_FAILED, "cannot start the SASS process");
		return;
	}
	struct sigaction sa = {.sa_handler = on_sigint}, old;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	sass_waiting sw = {&j, out};
	exec_wait(&waiter, &sw, "compiling and disassembling", &interrupted);
	sigaction(SIGINT, &old, NULL);
	/* A Ctrl-C reaches the child too: an answer cut short by it is the Ctrl-C's. */
	if (interrupted && out->status != SASS_CANCELLED) {
		exec_sass_out_free(out);
		lost(out, SASS_CANCELLED, "interrupted");
	}
}
