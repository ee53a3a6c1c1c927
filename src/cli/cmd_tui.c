/* cmd_tui: the interactive tutor's event loop (`ptxtutor`), and `show LESSON --screen`, the same panes as plain text. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/launch_opts.h"
#include "model/devices.h"
#include "course/lesson.h"
#include "course/sass_tools.h"
#include "course/state.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/frame.h"
#include "ui/term.h"
#include "base/proc.h"
#include "base/util.h"
#include "exec/puzzle_job.h"
#include "exec/estimate.h"
#include "exec/estimate_run.h"
#include "exec/stalls.h"
#include "exec/backend.h"
#include "exec/sass.h"
#include "exec/worker.h"
#include "run/launch.h"

/* Deadlines: ui_app_deadline (from the model; PTXTUTOR_DEADLINE_S overrides
 * it, e.g. for tests of a hanging kernel). Offline runs: the first RUN_NO_GPU
 * makes the update code ask for the same run again with rq.backend = RUN_BACKEND_EMU, and
 * the worker child runs it on the CPU emulator (src/emu/backend.c), so neither
 * kind of run can freeze the screen. */

typedef struct {
	ui_opts o;
	expr_env set;
	long long size[3];
	int page;                   /* --page, from 1; 0: from the saved state */
	int width, height, screen;
	const char *keys;
	int exit_after_first_frame; /* PTXTUTOR_FIRST_FRAME_EXIT: start-up timing */
	/* A student's own kernel in the lesson's place: --ptx FILE, or --cu
	 * FILE.cu compiled to own_ptx; the entry resolved from --entry. */
	const char *ptx, *cu, *entry;
	char own_ptx[RUN_PATH];
	char own_entry[RUN_ENTRY];
} options;

/* --theme: one of ui/theme.c's. */
static int theme_ok(const char *s, char *why, size_t len)
{
	if (ui_theme_find(s))
		return 0;
	snprintf(why, len, "one of %s", ui_theme_names());
	return -1;
}

static int cmd_tui(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_tutor = {
	.synopsis = {"[LESSON] [--ptx FILE | --cu FILE.cu] [--entry NAME] [--present] [--theme NAME] [--ascii] "
		     "[--gpu NAME] [--size N|M,N,K] [--set K=V]... [--page P]",
		     "show LESSON --screen [--width W] [--height H] [--keys KEYS] [the tutor's options]"},
	.summary = "the interactive tutor",
	.about = "The interactive tutor: the lesson, its PTX, the numbers and the run side by side.\n"
		 "LESSON starts it at this lesson: a number (3) or an id (smem).\n"
		 "With --ptx or --cu, your own kernel takes the lesson's place: run with the\n"
		 "lesson's launch (block, tile, parameters, types), and with nvcc's line\n"
		 "information its CUDA source shows beside the PTX (C shows or hides it).\n",
	.opts = (const cli_opt[]){
		{.name = "lesson", .kind = CLI_STR, .off = offsetof(options, o.lesson), .arg = "LESSON",
		 .help = "start at this lesson, as LESSON does"},
		{.name = "page", .kind = CLI_INT, .off = offsetof(options, page), .arg = "P", .lo = 1, .hi = 100000,
		 .help = "at its page P (from 1)"},
		{.name = "present", .kind = CLI_FLAG, .off = offsetof(options, o.present),
		 .help = "lecture layout: the text 80 columns wide, the PTX beside or below,\n"
			 "the numbers in a slot (o swaps, < > resize); theme projector"},
		{.name = "theme", .kind = CLI_NAME, .off = offsetof(options, o.theme), .arg = "NAME", .check = theme_ok,
		 .help = "term (default), dark, light, projector (7:1 contrast), mono"},
		{.name = "ascii", .kind = CLI_FLAG, .off = offsetof(options, o.ascii),
		 .help = "ASCII only, the lessons' pictures too (automatic without UTF-8)"},
		{.name = "gpu", .kind = CLI_STR, .off = offsetof(options, o.gpu), .arg = "NAME",
		 .help = "the GPU the model uses (`ptxtutor gpus`; default h100)"},
		{.name = "size", .kind = CLI_SIZE, .off = offsetof(options, size), .arg = "N|M,N,K",
		 .help = "the problem size (default 4096)"},
		{.name = "set", .kind = CLI_SET, .off = offsetof(options, set), .arg = "KEY=VAL",
		 .help = "a what-if on a lesson parameter, e.g. --set TILE=16"},
		{.name = "ptx", .kind = CLI_STR, .off = offsetof(options, ptx), .arg = "FILE",
		 .help = "your kernel's PTX in LESSON's place (nvcc -ptx -lineinfo: with its CUDA lines)"},
		{.name = "cu", .kind = CLI_STR, .off = offsetof(options, cu), .arg = "FILE.cu",
		 .help = "your CUDA C: compiled with nvcc -ptx -lineinfo to FILE.ptx beside it,\n"
			 "then as --ptx (no nvcc here: the command to run elsewhere)"},
		{.name = "entry", .kind = CLI_STR, .off = offsetof(options, entry), .arg = "NAME",
		 .help = "with --ptx or --cu: the kernel, when the file has several"},
		{.name = "screen", .kind = CLI_FLAG, .off = offsetof(options, screen),
		 .help = "(show LESSON --screen) print the screen as text and exit"},
		{.name = "width", .kind = CLI_INT, .off = offsetof(options, width), .arg = "W", .lo = 1, .hi = 1000,
		 .help = "--screen: its width (default 80)"},
		{.name = "height", .kind = CLI_INT, .off = offsetof(options, height), .arg = "H", .lo = 1, .hi = 500,
		 .help = "--screen: its height (default 24)"},
		{.name = "keys", .kind = CLI_STR, .off = offsetof(options, keys), .arg = "KEYS",
		 .help = "--screen: the keys typed first (\\t Tab, \\e Esc, \\n Enter, \\b Backspace)"},
		{0},
	},
	.notes = "Keys: ? in the tutor. Where you were, the pages read and the exercises solved are\n"
		 "remembered under $XDG_STATE_HOME/ptxtutor. NO_COLOR (set, not empty) turns colours off.\n"
		 "PTXTUTOR_DEADLINE_S (seconds) is every run's deadline instead of the usual ones.\n",
	.max_args = 1,
	.run = cmd_tui,
};

/* --ptx or --cu: the file compiled (--cu), made absolute (the lesson's
 * paths are under the project's root otherwise) and its entry resolved.
 * Returns -1 to go on, else the exit status after saying why. */
static int own_kernel(const cli_command *self, options *op)
{
	if (op->entry && !op->ptx && !op->cu) {
		cli_error(self, "--entry goes with --ptx FILE or --cu FILE.cu");
		return 2;
	}
	if (!op->ptx && !op->cu)
		return -1;
	if (op->ptx && op->cu) {
		cli_error(self, "--ptx or --cu, not both");
		return 2;
	}
	if (!op->o.lesson) {
		cli_error(self, "--%s: name the LESSON whose place your kernel takes (its launch: block, tile, "
			  "parameters), e.g. `ptxtutor 2 --%s %s`", op->cu ? "cu" : "ptx", op->cu ? "cu" : "ptx",
			  cli_arg(op->cu ? op->cu : op->ptx));
		return 2;
	}
	static cli_launch lo; /* big: not on the stack */
	memset(&lo, 0, sizeof lo);
	lo.cu = op->cu, lo.ptx = op->ptx, lo.entry = op->entry;
	int rc;
	if (op->cu && (rc = cli_launch_compile_cu(&lo)) >= 0)
		return rc;
	char real[PATH_MAX];
	if (!realpath(lo.ptx, real)) {
		cli_error(self, "--ptx %s: %s", cli_arg(lo.ptx), strerror(errno));
		return 2;
	}
	if (strlen(real) >= sizeof op->own_ptx) {
		cli_error(self, "--ptx %s: a path of more than %zu characters", cli_arg(lo.ptx), sizeof op->own_ptx - 1);
		return 2;
	}
	util_strlcpy(op->own_ptx, real, sizeof op->own_ptx);
	lo.ptx = op->own_ptx;
	if (cli_launch_entry(&lo, op->own_entry, sizeof op->own_entry) < 0)
		return 2;
	/* under the project's root: as a lesson's kernel is named, shorter in the titles */
	char root[PATH_MAX];
	size_t n = realpath(util_root(), root) ? strlen(root) : 0;
	op->ptx = n && !strncmp(op->own_ptx, root, n) && op->own_ptx[n] == '/' ? op->own_ptx + n + 1 : op->own_ptx;
	return -1;
}

/* Returns -1 to go on, else the exit status. */
static int parse(const cli_command *self, int argc, char **argv, options *op, int screen)
{
	memset(op, 0, sizeof *op);
	op->width = 80;
	op->height = 24;
	int nargs, rc = cli_parse(self, argc, argv, op, &nargs);
	if (rc >= 0)
		return rc;
	/* `show` has its own name first: the lesson is the first word after it. */
	if (nargs)
		op->o.lesson = argv[1];
	op->o.page = op->page - 1;
	op->o.M = op->size[0], op->o.N = op->size[1], op->o.K = op->size[2];
	op->o.set = op->set.n ? &op->set : NULL;
	long long regs;
	if (expr_get(&op->set, "regs", &regs) && (regs < 1 || regs > 255)) {
		cli_error(self, "regs=%lld is out of range (1..255 registers a thread)", regs);
		return 2;
	}
	op->o.no_color = getenv("NO_COLOR");
	const char *dl = getenv("PTXTUTOR_DEADLINE_S");
	double d = 0;
	if (dl && *dl && cli_number(dl, 0, 0, 86400, &d)) {
		cli_error(self, "PTXTUTOR_DEADLINE_S wants a number 0..86400 (seconds), not '%s'", cli_arg(dl));
		return 2;
	}
	op->o.deadline_s = d;
	if (screen && !op->o.lesson) {
		cli_error(self, "show --screen needs a LESSON (a number or an id)");
		return 2;
	}
	return own_kernel(self, op);
}

/* Whether this machine has an NVIDIA driver at all, asked without loading
 * it (the worker does that): NULL when it may, else why not. */
static const char *no_gpu_here(void)
{
	if (access("/proc/driver/nvidia/version", R_OK) == 0 || access("/dev/nvidiactl", F_OK) == 0)
		return NULL;
	return "no NVIDIA driver on this machine";
}

/* Loads the course and the GPU table and sets the app up. */
static ui_app *start(const options *op)
{
	course *c = xcalloc(1, sizeof *c); /* the app owns it */
	ui_app *a = xcalloc(1, sizeof *a);
	/* Lessons that failed to parse or name unknown anchors or placeholders
	 * are skipped; cli_course says so where it can be read. */
	cli_course(c);
	gpu_table *gpus = calloc(1, sizeof *gpus);
	char err[512] = "";
	if (devices_load(gpus, err, sizeof err) < 0) {
		cli_error(NULL, "%s (the numbers need it)", err);
		gpus->n = 0;
	}
	ui_opts o = op->o;
	o.no_gpu = no_gpu_here();
	if (ui_app_setup(a, &o, c, gpus, err, sizeof err) < 0 ||
	    (op->ptx && ui_app_own_kernel(a, op->ptx, op->own_entry, err, sizeof err) < 0)) {
		cli_error(NULL, "%s", err);
		ui_app_free(a);
		free(a);
		free(gpus);
		return NULL;
	}
	free(gpus);
	return a;
}

/* --page past the lesson's last page is refused with the range (the app
 * would show the last page). Frees a when it refuses. */
static int page_refused(const cli_command *self, const options *op, ui_app *a)
{
	const lesson *l = ui_app_lesson(a);
	if (!op->page || !l || op->page <= l->npages)
		return 0;
	cli_error(self, "--page %d: lesson %d has pages 1..%d", op->page, l->number, l->npages);
	ui_app_free(a);
	free(a);
	return 1;
}

/* The SASS chain (exec/sass.h) for the file shown: the GPU's own JIT where
 * there may be a GPU, else ptxas for the GPU the model uses (sm_90 without
 * one), else the lesson's recorded copy — never for an edited copy. */
static void sass_request(const ui_app *a, exec_sass_target *t, exec_sass_policy *p)
{
	const ui_ptx *x = &a->ptx[a->lesson];
	const lesson *l = ui_app_lesson(a);
	*t = (exec_sass_target){.lesson = l->number};
	util_strlcpy(t->path, x->path, sizeof t->path);
	util_strlcpy(t->entry, l->entry, sizeof t->entry);
	util_strlcpy(t->gpu, a->gpu.name, sizeof t->gpu);
	char *text = util_read_file(x->path, NULL, NULL, 0);
	sass_arch_for(text, a->gpu.cc_major ? a->gpu.cc_major : 9, a->gpu.cc_major ? a->gpu.cc_minor : 0, t->arch,
		      sizeof t->arch);
	free(text);
	*p = (exec_sass_policy){.allow_jit = !a->offline, .allow_ptxas = 1, .allow_recorded = !x->edited,
				.why_not_recorded = EXEC_SASS_NOREC_EDITED};
}

static void sass_answer(ui_app *a, int lesson, exec_sass_out *out)
{
	if (out->status == SASS_CANCELLED)
		ui_app_sass_cancelled(a, lesson);
	else
		ui_app_sass_done(a, lesson, out->status, &out->k, out->status ? out->err : out->note);
	exec_sass_out_free(out);
}

/* UI_REQ_SASS: the chain as a job the loop polls (j; a newer request
 * replaces one still running), the screen live and Esc able to stop it; or
 * here, the screen waiting and without the JIT (j NULL: `show --screen`). */
static void serve_sass(ui_app *a, exec_sass_job *j, int *lesson)
{
	exec_sass_target t;
	exec_sass_policy p;
	exec_sass_out out;
	sass_request(a, &t, &p);
	a->req = UI_REQ_NONE;
	if (!j) {
		p.allow_jit = 0;
		exec_sass(&t, &p, NULL, &out);
		sass_answer(a, a->lesson, &out);
		return;
	}
	if (j->fd >= 0) {
		exec_sass_job_stop(j);
		/* Another lesson's build gives way; this lesson's old one (its PTX
		 * reloaded since) is simply replaced. */
		if (*lesson != a->lesson)
			ui_app_sass_cancelled(a, *lesson);
	}
	*lesson = a->lesson;
	if (exec_sass_job_start(j, &t, &p, 0) < 0) {
		memset(&out, 0, sizeof out);
		out.status = SASS_FAILED;
		snprintf(out.err, sizeof out.err, "cannot start the SASS process");
		sass_answer(a, *lesson, &out);
	}
}

/* Turns the --keys string into key codes: characters as typed, with \t, \e
 * (Esc), \n (Enter) and \b (Backspace). */
static void feed_keys(ui_app *a, const char *k)
{
	for (; k && *k && !a->quit; k++) {
		int key = (unsigned char)*k;
		if (*k == '\\' && k[1]) {
			k++;
			key = *k == 't' ? '\t' : *k == 'e' ? UI_KEY_ESC : *k == 'n' ? '\n' : *k == 'b' ? 127 : *k;
		}
		ui_app_key(a, key);
		/* Requests need the event loop; on paper a run says why it cannot happen. */
		if (a->req == UI_REQ_RUN)
			ui_app_run_started(a, 0, "runs need the interactive tutor");
		if (a->req == UI_REQ_EDIT)
			ui_app_edit_done(a, 0, "editing needs the interactive tutor");
		if (a->req == UI_REQ_SASS)
			serve_sass(a, NULL, NULL);
		if (a->req == UI_REQ_PUZZLE) { /* on paper the check runs here, at once */
			puzzle_outcome o;
			a->req = UI_REQ_NONE;
			puzzle_check_file(&a->puzzles.p[a->pz_checked], a->pz_path, &o);
			ui_app_puzzle_done(a, &o);
		}
		a->req = UI_REQ_NONE;
	}
}

/* The numbers pane's estimate (exec/estimate.h): a sample of the current
 * lesson's blocks at the pane's size, for the pane's GPU. In a child (j; a
 * newer wish replaces one still running), or here, the screen waiting (j
 * NULL): for `show --screen`, which prints what the tutor shows once its
 * estimate is in, and for the tutor under PTXTUTOR_ESTIMATE=sync (tests and
 * recordings that compare screens). */
static void start_estimate(ui_app *a, exec_estimate_job *j)
{
	static exec_estimate_result r;
	run_request rq;
	if (j)
		exec_job_stop(&j->job);
	memset(&r, 0, sizeof r);
	if (ui_app_estimate_request(a, &rq, r.err, sizeof r.err) < 0) {
		r.rc = -1;
		ui_app_estimate_done(a, &r);
		return;
	}
	a->est.state = UI_EST_BUSY;
	const lesson *l = ui_app_lesson(a);
	int regs = l ? l->regs : 0; /* the stall model's occupancy: the lesson's recorded registers */
	if (!j)
		exec_estimate(&rq, &a->gpu, regs, &r);
	else if (exec_estimate_job_start(j, &rq, &a->gpu, regs) == 0)
		return;
	ui_app_estimate_done(a, j ? &j->out : &r);
}

/* W: the stall model (exec/stalls.h), as the estimate: in a child (j; a newer wish replaces one
 * still running), or here (j NULL) for `show --screen` and PTXTUTOR_ESTIMATE=sync. */
static void start_stalls(ui_app *a, exec_stalls_job *j)
{
	static exec_stalls_brief b;
	run_request rq;
	int regs;
	if (j)
		exec_job_stop(&j->job);
	memset(&b, 0, sizeof b);
	a->stalls.state = UI_STALLS_BUSY;
	if (ui_app_stalls_request(a, &rq, &regs, b.err, sizeof b.err) < 0) {
		b.rc = -1;
		ui_app_stalls_done(a, &b);
		return;
	}
	if (!j)
		exec_stalls_brief_run(&rq, &a->gpu, regs, &b);
	else if (exec_stalls_job_start(j, &rq, &a->gpu, regs) == 0)
		return;
	ui_app_stalls_done(a, j ? &j->out : &b);
}

/* The estimate and the stall model the numbers and PTX panes want: started in their children, or
 * (sync) made here. A stall model no longer wanted is stopped. */
static void start_wanted(ui_app *a, exec_estimate_job *est, exec_stalls_job *stalls, int sync)
{
	if (a->est.state == UI_EST_WANT)
		start_estimate(a, sync ? NULL : est);
	if (a->stalls.state == UI_STALLS_WANT)
		start_stalls(a, sync ? NULL : stalls);
	else if (a->stalls.state != UI_STALLS_BUSY && stalls->job.pid > 0)
		exec_job_stop(&stalls->job); /* W turned it off: its answer is for no one */
}

int cmd_screen(const cli_command *self, int argc, char **argv)
{
	cli_command show = *self; /* the tutor's options, but the user typed `show`: its errors say so */
	show.name = "show";
	self = &show;
	options op;
	int rc = parse(self, argc, argv, &op, 1);
	if (rc >= 0)
		return rc;
	ui_app *a = start(&op);
	if (!a)
		return 1;
	if (page_refused(self, &op, a))
		return 2;
	if (!op.o.ascii && !ui_term_utf8())
		a->ascii = 1;
	ui_app_resize(a, op.width, op.height);
	feed_keys(a, op.keys);
	if (a->est.state == UI_EST_WANT)
		start_estimate(a, NULL);
	if (a->stalls.state == UI_STALLS_WANT)
		start_stalls(a, NULL);
	ui_frame f;
	ui_frame_init(&f, op.width, op.height);
	ui_draw(a, &f);
	size_t cap = (size_t)op.width * 4 + 1;
	char *line = xmalloc(cap);
	for (int y = 0; y < f.rows; y++) {
		ui_frame_row_text(&f, y, line, cap);
		puts(line);
	}
	free(line);
	ui_frame_free(&f);
	ui_app_free(a);
	free(a);
	return 0;
}

/* stderr goes to /dev/null while curses owns the screen, so nothing (the
 * worker child and its driver libraries included) scribbles on it. */
static int hide_stderr(void)
{
	int saved = dup(STDERR_FILENO);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDERR_FILENO);
		close(null);
	}
	return saved;
}

static void restore_stderr(int saved)
{
	if (saved >= 0) {
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
}

/* Merges what the tutor gained into the state file (never the snapshot it
 * read at start-up: another tutor or `puzzle --check` may have saved since)
 * and hands back what the file holds now. Returns 0, or -1 with why in err. */
static int sync_state(ui_app *a, char *err, int errlen)
{
	state_data gained, disk;
	ui_app_saved(a, &gained);
	int rc = state_save(&gained, err, errlen);
	state_free(&gained);
	state_load(&disk);
	ui_app_synced(a, rc == 0 ? NULL : err, &disk);
	state_free(&disk);
	return rc;
}

/* The inline editor, not $EDITOR: when $EDITOR is unset or empty, or
 * PTXTUTOR_EDITOR=inline asks for it. */
static int inline_editor(void)
{
	const char *ed = getenv("EDITOR"), *pick = getenv("PTXTUTOR_EDITOR");
	return !ed || !*ed || (pick && !strcmp(pick, "inline"));
}

/* The editor's child (base/proc: killed with us, signals at their
 * defaults): the shell with the terminal's stderr back. */
typedef struct {
	const char *cmd, *path;
	int saved_err;
} editor_child;

static int editor_exec(void *arg)
{
	const editor_child *e = arg;
	if (e->saved_err >= 0)
		dup2(e->saved_err, STDERR_FILENO);
	execl("/bin/sh", "sh", "-c", e->cmd, "sh", e->path, (char *)NULL);
	return 127;
}

/* Runs $EDITOR (else vi) on path with the terminal handed over, and waits
 * for that child only: the worker child is left alone. Returns 0, or -1 with
 * a message. */
static int run_editor(const char *path, int saved_err, char *err, int errlen)
{
	const char *ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	/* $EDITOR may carry arguments ("emacs -nw"): the shell splits it, and
	 * the path goes as "$1" so no file name is ever parsed as shell code. */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "%s \"$1\"", ed);
	ui_term_suspend();
	/* Like system(): ^C and ^\ in the editor are the editor's. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	editor_child e = {.cmd = cmd, .path = path, .saved_err = saved_err};
	proc p;
	int rc = 0;
	if (proc_fork(&p, editor_exec, &e, 0) < 0) {
		snprintf(err, (size_t)errlen, "cannot start the editor: %s", strerror(errno));
		rc = -1;
	} else {
		int status = proc_wait(&p);
		if (status == 127)
			snprintf(err, (size_t)errlen, "'%s' not found (set EDITOR)", ed), rc = -1;
		else if (status != 0)
			snprintf(err, (size_t)errlen, "'%s' ended with status %d", ed, status), rc = -1;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	ui_term_resume();
	return rc;
}

/* The per-line counts a GPU run wants: the emulator in a child, beside the
 * worker (which keeps the GPU). */
static void start_lines(ui_app *a, exec_run_job *j)
{
	exec_job_stop(&j->job);
	run_request rq;
	char err[256];
	int rc = ui_app_lines_request(a, &rq, err, sizeof err);
	if (rc < 0) {
		j->out.status = RUN_BAD_REQUEST;
		util_strlcpy(j->out.msg, err, sizeof j->out.msg);
	}
	if (rc < 0 || (rc == 0 && exec_run_job_start(j, &rq) < 0))
		ui_app_lines_done(a, &j->out);
}

/* The loop's one-shot children beside the worker. */
typedef struct {
	puzzle_job puzzle;
	exec_sass_job sass;
	int sass_lesson;            /* whose SASS the job builds */
} tui_jobs;

/* Does what the update code asked for: start or cancel a run, edit. */
static void serve(ui_app *a, worker *w, int *worker_up, int saved_err, tui_jobs *jobs)
{
	puzzle_job *job = &jobs->puzzle;
	run_result res;
	if (a->req == UI_REQ_EDIT && inline_editor()) {
		char err[256] = "";
		size_t len = 0;
		char *text = userptx_read(a->edit_path, &len, err, sizeof err);
		ui_app_editor_open(a, text, len, err);
		free(text);
		return;
	}
	if (a->req == UI_REQ_EDIT) {
		char err[256] = "";
		int rc = run_editor(a->edit_path, saved_err, err, sizeof err);
		ui_app_edit_done(a, rc == 0, err);
		if (a->req == UI_REQ_NONE)
			return;
	}
	if (a->req == UI_REQ_SAVE) {
		char err[256] = "";
		size_t len;
		char *text = edbuf_text(&a->ed, &len);
		int rc = userptx_write(a->edit_path, text, len, err, sizeof err);
		free(text);
		ui_app_editor_saved(a, rc == 0, err);
		if (a->req == UI_REQ_NONE)
			return;
	}
	if (a->req == UI_REQ_PUZZLE) { /* checked in a child: the screen stays live */
		a->req = UI_REQ_NONE;
		puzzle_job_stop(job);
		if (puzzle_job_start(job, &a->puzzles.p[a->pz_checked], a->pz_path) < 0) {
			puzzle_outcome o = {.n = 1};
			snprintf(o.v[0].name, sizeof o.v[0].name, "the check");
			snprintf(o.v[0].msg, sizeof o.v[0].msg, "cannot start the checking process");
			ui_app_puzzle_done(a, &o);
		}
		return;
	}
	if (a->req == UI_REQ_SASS) {
		serve_sass(a, &jobs->sass, &jobs->sass_lesson);
		return;
	}
	if (a->req == UI_REQ_SASS_CANCEL) {
		a->req = UI_REQ_NONE;
		exec_sass_job_stop(&jobs->sass);
		ui_app_sass_cancelled(a, jobs->sass_lesson);
		return;
	}
	if (a->req == UI_REQ_CANCEL) {
		a->req = UI_REQ_NONE;
		if (*worker_up && w->busy) {
			worker_cancel(w, &res);
			ui_app_run_finished(a, &res);
		}
		return;
	}
	if (a->req != UI_REQ_RUN)
		return;
	run_request rq;
	char err[256];
	if (ui_app_request(a, &rq, err, sizeof err) < 0) {
		ui_app_run_started(a, util_now(), err);
		return;
	}
	if (!*worker_up) {
		if (worker_start(w) < 0) {
			ui_app_run_started(a, util_now(), "cannot start the GPU worker process");
			return;
		}
		*worker_up = 1;
	}
	if (worker_submit(w, &rq) < 0)
		ui_app_run_started(a, util_now(), "cannot send the run to the GPU worker");
	else
		ui_app_run_started(a, util_now(), NULL);
}

/* The loop's pollfds: the terminal first, then each child whose answer is
 * due (fds of -1 left out). Returns how many. */
static int poll_set(struct pollfd *pf, const int *fds, int n)
{
	int nfd = 0;
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0)
			pf[nfd++] = (struct pollfd){.fd = fds[i], .events = POLLIN};
	return nfd;
}

static int cmd_tui(const cli_command *self, int argc, char **argv)
{
	double t0 = util_now();
	options op;
	int rc = parse(self, argc, argv, &op, 0);
	if (rc >= 0)
		return rc;
	op.exit_after_first_frame = getenv("PTXTUTOR_FIRST_FRAME_EXIT") && *getenv("PTXTUTOR_FIRST_FRAME_EXIT");
	ui_app *a = start(&op);
	if (!a)
		return 1;
	if (page_refused(self, &op, a))
		return 2;
	if (!op.o.ascii && !ui_term_utf8())
		a->ascii = 1;
	char err[256];
	if (ui_term_open(a->theme, err, sizeof err) < 0) {
		cli_error(self, "%s", err);
		ui_app_free(a);
		free(a);
		return 1;
	}
	atexit(ui_term_close);
	int saved_err = hide_stderr();

	worker w;
	memset(&w, 0, sizeof w);
	w.pid = -1;
	int worker_up = 0;
	tui_jobs jobs = {.puzzle = PUZZLE_JOB_NONE, .sass = EXEC_SASS_JOB_NONE};
	puzzle_job *pj = &jobs.puzzle;
	exec_sass_job *sj = &jobs.sass;
	exec_estimate_job est = {.job = EXEC_JOB_NONE};
	int estimate_sync = getenv("PTXTUTOR_ESTIMATE") && !strcmp(getenv("PTXTUTOR_ESTIMATE"), "sync");
	static exec_run_job lines = {.job = EXEC_JOB_NONE}; /* a run_result: too big for the stack */
	static exec_stalls_job stalls = {.job = EXEC_JOB_NONE}; /* its lines: too big for the stack */
	ui_frame f;
	ui_frame_init(&f, 1, 1);
	int cols = -1, rows = -1, redraw = 0, frames = 0;
	double first_frame = 0;

	while (!a->quit && !ui_term_signal) {
		int c2, r2;
		ui_term_size(&c2, &r2);
		if (c2 != cols || r2 != rows) {
			cols = c2, rows = r2;
			ui_app_resize(a, cols, rows);
			redraw = 1;
		}
		ui_app_tick(a, util_now());
		if (estimate_sync) /* tests that compare screens: what the panes want is in before the frame */
			start_wanted(a, &est, &stalls, 1);
		ui_draw(a, &f);
		ui_term_show(&f, redraw);
		redraw = 0;
		if (!frames++) {
			first_frame = util_now() - t0;
			if (op.exit_after_first_frame)
				break;
		}
		if (a->req != UI_REQ_NONE) {
			if (a->req == UI_REQ_EDIT)
				redraw = 1; /* the editor had the screen */
			serve(a, &w, &worker_up, saved_err, &jobs);
			continue;
		}
		if (!estimate_sync)
			start_wanted(a, &est, &stalls, 0);
		if (a->lines_want >= 0)
			start_lines(a, &lines);
		const int fds[] = {STDIN_FILENO, worker_up ? worker_fd(&w) : -1, pj->job.fd, sj->fd, est.job.fd,
				   lines.job.fd, stalls.job.fd, ui_term_signal_fd()};
		struct pollfd pf[sizeof fds / sizeof fds[0]];
		int nfd = poll_set(pf, fds, (int)(sizeof fds / sizeof fds[0]));
		/* While a run is going the clock ticks (elapsed time, the deadline). */
		int timeout = a->run == UI_RUN_BUSY ? 100 : sj->fd >= 0 ? 250 : -1;
		int n = poll(pf, (nfds_t)nfd, timeout);
		if (n < 0 && errno != EINTR)
			break;
		/* The terminal went away (hang-up, closed pty): nothing more will come. */
		if (n > 0 && (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL)) && !(pf[0].revents & POLLIN))
			break;
		/* EINTR or the self-pipe is usually SIGWINCH: curses then has a KEY_RESIZE waiting. */
		ui_term_signal_drain();
		for (int key; (key = ui_term_key()) != -1 && !a->quit;) {
			if (key == UI_KEY_RESIZE)
				continue;
			if (key == UI_KEY_MOUSE) {
				int mx, my;
				ui_mouse_kind mk = ui_term_mouse(&mx, &my);
				ui_app_mouse(a, mk, mx, my);
				continue;
			}
			if (key == 12 /* C-l */)
				redraw = 1;
			ui_app_key(a, key);
			if (a->req == UI_REQ_EDIT)
				redraw = 1; /* the editor had the screen */
			if (a->req != UI_REQ_NONE)
				serve(a, &w, &worker_up, saved_err, &jobs);
		}
		if (worker_up && w.busy) {
			run_result res;
			if (worker_poll(&w, &res) == 1)
				ui_app_run_finished(a, &res);
		}
		puzzle_outcome po;
		if (pj->job.fd >= 0 && puzzle_job_poll(pj, &po) == 1)
			ui_app_puzzle_done(a, &po);
		exec_sass_out so;
		if (sj->fd >= 0 && exec_sass_job_poll(sj, &so) == 1) {
			sass_answer(a, jobs.sass_lesson, &so);
			redraw = 1;
		}
		if (est.job.fd >= 0 && exec_estimate_job_poll(&est) == 1)
			ui_app_estimate_done(a, &est.out);
		if (stalls.job.fd >= 0 && exec_stalls_job_poll(&stalls) == 1)
			ui_app_stalls_done(a, &stalls.out);
		if (lines.job.fd >= 0 && exec_run_job_poll(&lines) == 1) {
			ui_app_lines_done(a, &lines.out);
			redraw = 1;
		}
		if (a->sync_want) {
			char serr[600];
			sync_state(a, serr, sizeof serr);
		}
	}
	puzzle_job_stop(pj);
	exec_sass_job_stop(sj);
	exec_job_stop(&est.job);
	exec_job_stop(&lines.job);
	exec_job_stop(&stalls.job);

	char save_err[600];
	int saved = sync_state(a, save_err, sizeof save_err) == 0;
	if (worker_up)
		worker_stop(&w);
	ui_term_close();
	restore_stderr(saved_err);
	if (op.exit_after_first_frame)
		fprintf(stderr, "first frame after %.1f ms\n", first_frame * 1e3);
	if (ui_term_signal)
		cli_error(self, "stopped by signal %d", (int)ui_term_signal);
	if (!saved)
		cli_error(self, "could not save your progress: %s", save_err);
	ui_frame_free(&f);
	ui_app_free(a);
	free(a);
	return ui_term_signal ? 128 + (int)ui_term_signal : saved ? 0 : 3;
}
