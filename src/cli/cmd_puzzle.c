/* cmd_puzzle: `ptxtutor puzzle` — the practice puzzles: list them, show one, check a PTX file against its checks on the CPU emulator (once, on every save, or a class's folder of files in parallel), reveal hints and the solution. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/json.h"
#include "base/util.h"
#include "cli/cli.h"
#include "cli/puzzle_grade.h"
#include "course/lesson.h"
#include "course/puzzle.h"
#include "course/state.h"
#include "course/userptx.h"
#include "exec/puzzle_check.h"
#include "exec/puzzle_job.h"
#include "exec/wait.h"

typedef struct {
	const char *check;
	const char *watch;
	const char *check_dir;
	const char *hint; /* a number, checked against the puzzle's own count */
	int solution;
	int json, csv;
	int jobs;         /* --check-dir: children at a time; 0: one per CPU */
	double timeout;   /* --check-dir: seconds per file */
} puzzle_opts;


static int cmd_puzzle(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_puzzle = {
	.name = "puzzle",
	.synopsis = {"puzzle [--json]",
		     "puzzle N|ID [--check FILE|--watch FILE|--check-dir DIR] [--hint K] [--solution] [options]"},
	.summary = "practice: PTX puzzles, checked on the CPU for result and behaviour",
	.about = "Without an argument, lists the puzzles (number, id, lesson, title, solved).\n"
		 "With one, shows it: the goal, the checks, and your copy of its starting PTX\n"
		 "(made on first use) to edit. --check runs the checks on a PTX file on the CPU\n"
		 "emulator, at several sizes: the result and what the lesson teaches (sectors\n"
		 "per request, bank conflicts, barriers, instruction counts), each failing one\n"
		 "explained with its line; a solve is remembered and the next puzzle named.\n"
		 "--watch checks the file again on every save (an editor that saves by\n"
		 "renaming too) and says what changed since the last check: the checks that\n"
		 "flipped, the counts that moved; Ctrl-C ends it.\n"
		 "--check-dir grades a class: every file of the folder, each in a child of its\n"
		 "own with its own deadline (--timeout), several at a time (--jobs), one row\n"
		 "per file (solved, the check that failed, sectors per request, race, time);\n"
		 "a file that is not a regular file gets a row saying so. Nothing it checks\n"
		 "counts as solved in your own progress.\n",
	.notes = "\nExit status: 0 solved (or nothing checked), 1 a check failed, 2 bad usage,\n"
		 "3 your progress could not be saved (stderr says why; a state file that\n"
		 "cannot be read is kept as it is). --watch ends with 0 at Ctrl-C (3 when a\n"
		 "solve could not be saved); --check-dir ends with 0 once every file has its\n"
		 "row, solved or not.\n"
		 "The solution shows once the puzzle is solved, or when --solution is asked\n"
		 "for twice. The shipped solution file itself passes its checks but is not\n"
		 "counted as solved: check your own copy.\n",
	.opts = (const cli_opt[]){
		{.name = "check", .letter = 'c', .kind = CLI_STR, .off = offsetof(puzzle_opts, check), .arg = "FILE",
		 .help = "check this PTX file ('mine': your copy of the puzzle's PTX)"},
		{.name = "watch", .letter = 'w', .kind = CLI_STR, .off = offsetof(puzzle_opts, watch), .arg = "FILE",
		 .help = "check FILE ('mine' too) again on every save, until Ctrl-C"},
		{.name = "check-dir", .kind = CLI_STR, .off = offsetof(puzzle_opts, check_dir), .arg = "DIR",
		 .help = "grade every file of DIR, one row each (text, --json, --csv)"},
		{.name = "jobs", .kind = CLI_INT, .off = offsetof(puzzle_opts, jobs), .arg = "N", .lo = 1, .hi = 256,
		 .help = "--check-dir: files checked at a time (default: one per CPU)"},
		{.name = "timeout", .kind = CLI_DOUBLE, .off = offsetof(puzzle_opts, timeout), .arg = "S", .lo = 0.01,
		 .hi = 3600, .help = "--check-dir: seconds a file may take (default 10)"},
		{.name = "csv", .kind = CLI_FLAG, .off = offsetof(puzzle_opts, csv),
		 .help = "--check-dir: print CSV, a header and a row per file"},
		{.name = "hint", .kind = CLI_STR, .off = offsetof(puzzle_opts, hint), .arg = "K",
		 .help = "show the first K hints (1 up to the puzzle's number)"},
		{.name = "solution", .kind = CLI_FLAG, .off = offsetof(puzzle_opts, solution),
		 .help = "the reference solution (once solved, or asked for twice)"},
		{.name = "json", .letter = 'j', .kind = CLI_FLAG, .off = offsetof(puzzle_opts, json),
		 .help = "print JSON (keys in docs/json.md)"},
		{0},
	},
	.max_args = 1,
	.run = cmd_puzzle,
};

/* The id of the lesson a puzzle belongs to ("" when the course has none). */
static const char *lesson_id(const course *c, const puzzle *p)
{
	char num[16];
	snprintf(num, sizeof num, "%d", p->lesson);
	const lesson *l = course_find(c, num);
	return l ? l->id : "";
}

static int list(const puzzle_set *s, const course *c, const state_data *st, int json)
{
	json_writer w;
	if (json) {
		json_begin(&w, stdout);
		json_arr(&w, NULL);
	}
	for (int i = 0; i < s->n; i++) {
		const puzzle *p = &s->p[i];
		int solved = puzzle_solved(st, s, p, lesson_id(c, p));
		if (json) {
			json_obj(&w, NULL);
			json_int(&w, "number", i + 1);
			json_str(&w, "id", p->id);
			json_int(&w, "lesson", p->lesson);
			json_str(&w, "title", p->title);
			json_bool(&w, "solved", solved);
			json_end(&w);
		} else {
			printf("%3d  %-22s lesson %-2d %-44s %s\n", i + 1, p->id, p->lesson, p->title, solved ? "solved" : "");
		}
	}
	if (json) {
		json_end(&w);
		json_finish(&w);
	}
	return 0;
}

/* The first unsolved puzzle after p, wrapping round (p counts as solved); NULL when none is left. */
static const puzzle *next_unsolved(const puzzle_set *s, const course *c, const state_data *st, const puzzle *p)
{
	int at = (int)(p - s->p);
	for (int k = 1; k < s->n; k++) {
		const puzzle *q = &s->p[(at + k) % s->n];
		if (!puzzle_solved(st, s, q, lesson_id(c, q)))
			return q;
	}
	return NULL;
}

/* Whether file is the puzzle's shipped solution itself (by inode, whatever
 * path names it): it proves nothing about the student, so it is not counted. */
static int is_shipped_solution(const puzzle *p, const char *file)
{
	char path[512];
	struct stat a, b;
	util_path(path, sizeof path, p->solution);
	return stat(file, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* What a check came to, beside the checks' verdicts. */
typedef struct {
	int shipped;          /* the file was the shipped solution: not counted */
	int recorded;         /* the solve is in the state file */
	const puzzle *next;   /* the next unsolved puzzle, NULL when none */
} check_after;

static void print_outcome(const puzzle *p, const char *file, const puzzle_outcome *o, const check_after *after, int json)
{
	if (json) {
		json_writer w;
		json_begin(&w, stdout);
		json_obj(&w, NULL);
		json_str(&w, "puzzle", p->id);
		json_str(&w, "file", file);
		json_bool(&w, "solved", o->solved);
		json_bool(&w, "shipped_solution", after->shipped);
		json_bool(&w, "recorded", after->recorded);
		json_str(&w, "next", after->next ? after->next->id : NULL);
		json_arr(&w, "checks");
		for (int i = 0; i < o->n; i++) {
			json_obj(&w, NULL);
			json_str(&w, "check", o->v[i].name);
			json_bool(&w, "pass", o->v[i].pass);
			json_int(&w, "line", o->v[i].line);
			json_str(&w, "message", o->v[i].msg);
			json_end(&w);
		}
		json_end(&w);
		json_end(&w);
		json_finish(&w);
		return;
	}
	printf("%s: %s\n", p->id, p->title);
	for (int i = 0; i < o->n; i++)
		printf("  %s %s\n      %s\n", o->v[i].pass ? "pass" : "FAIL", o->v[i].name, o->v[i].msg);
	if (!o->solved)
		printf("Not yet: fix the failing checks and check again.\n");
	else if (after->shipped)
		printf("Every check passes, but this is the shipped solution (%s): it is not counted as solved.\n"
		       "Check your own copy: ptxtutor puzzle %s --check mine\n",
		       p->solution, p->id);
	else if (after->next)
		printf("Solved. Next: %s (`ptxtutor puzzle %s`)\n", after->next->id, after->next->id);
	else
		printf("Solved. That was the last one: all puzzles solved.\n");
}

static void show(const puzzle *p, const char *copy)
{
	printf("Puzzle %s (lesson %d): %s\n%s\nChecks:\n", p->id, p->lesson, p->title, p->goal);
	for (int i = 0; i < p->nchecks; i++) {
		char d[128];
		puzzle_check_describe(&p->checks[i], d, sizeof d);
		printf("  - %s\n", d);
	}
	printf("Your PTX: %s\n  edit it, then: ptxtutor puzzle %s --check mine\n  %d hint%s: --hint 1\n", copy, p->id,
	       p->nhints, p->nhints == 1 ? "" : "s");
}

/* Saves p solved (asked = 0) or its solution asked for (1), merged into the
 * state file with whatever else wrote it meanwhile; st sees it too. */
static int record(const puzzle_set *s, const puzzle *p, const char *lid, int asked, state_data *st, char *err, int errlen)
{
	state_data d;
	memset(&d, 0, sizeof d);
	puzzle_mark(&d, s, p, lid, asked);
	puzzle_mark(st, s, p, lid, asked);
	int rc = state_save(&d, err, errlen);
	state_free(&d);
	return rc;
}

/* A check's outcome for the student: the solve recorded (not the shipped
 * solution's), the verdicts printed, the next puzzle named. Returns the exit status. */
static int check_outcome(const puzzle_set *s, const course *c, const puzzle *p, const char *file,
			 const puzzle_outcome *out, state_data *st, int json, char *err, int errlen, int *tried)
{
	const char *lid = lesson_id(c, p);
	check_after after = {.shipped = out->solved && is_shipped_solution(p, file)};
	int saved = 0;
	if (out->solved && !after.shipped) {
		*tried = 1;
		saved = record(s, p, lid, 0, st, err, errlen) == 0;
		after.recorded = saved;
	}
	after.next = next_unsolved(s, c, st, p);
	print_outcome(p, file, out, &after, json);
	return !out->solved ? 1 : *tried && !saved ? 3 : 0;
}

/* --check FILE: the verdicts, the solve recorded, the next puzzle named. Returns the exit status. */
static int check(const puzzle_set *s, const course *c, const puzzle *p, const char *file, state_data *st, int json,
		 char *err, int errlen, int *tried)
{
	/* a file that cannot be read (missing, a FIFO, a folder) is bad input, not a failed check */
	char rerr[512];
	char *text = util_read_file(file, NULL, rerr, sizeof rerr);
	if (!text) {
		cli_error(&cli_cmd_puzzle, "%s", rerr);
		return 2;
	}
	free(text);
	puzzle_outcome out;
	puzzle_check_file(p, file, &out);
	return check_outcome(s, c, p, file, &out, st, json, err, errlen, tried);
}

/* --solution: the file's text when solved or asked before; else remembers the asking. */
static int solution(const puzzle_set *s, const puzzle *p, state_data *st, const char *lid, char *err, int errlen,
		    int *tried)
{
	if (!puzzle_solved(st, s, p, lid) && !puzzle_asked(st, s, p, lid)) {
		*tried = 1;
		printf("Sure? Try the hints first (--hint 1). Ask for --solution once more to see it.\n");
		return record(s, p, lid, 1, st, err, errlen) == 0 ? 0 : 3;
	}
	char path[512], rerr[256];
	util_path(path, sizeof path, p->solution);
	char *text = util_read_file(path, NULL, rerr, sizeof rerr);
	printf("%s", text ? text : rerr);
	free(text);
	return 0;
}

/* --hint K: the first K hints, K in 1..the puzzle's count. */
static int hints(const cli_command *self, const puzzle *p, const char *k)
{
	double n;
	if (cli_number(k, 1, 1, p->nhints, &n)) {
		if (p->nhints)
			cli_error(self, "--hint wants 1..%d (%s has %d hint%s), not '%.20s'", p->nhints, p->id, p->nhints,
				  p->nhints == 1 ? "" : "s", k);
		else
			cli_error(self, "%s has no hints", p->id);
		return 2;
	}
	for (int i = 0; i < (int)n; i++)
		printf("Hint %d: %s\n", i + 1, p->hints[i]);
	return 0;
}

/* ---- --watch: check again on every save ---- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* What says a file was saved: a rename gives another inode, a write another size or time. */
typedef struct {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	int reg;
} file_sig;

/* 0, or -1 with errno (and f->reg 0). */
static int file_sig_of(const char *path, file_sig *f)
{
	struct stat st;
	f->reg = 0;
	errno = 0;
	if (stat(path, &st) < 0)
		return -1;
	*f = (file_sig){st.st_dev, st.st_ino, st.st_size, st.st_mtim, S_ISREG(st.st_mode)};
	return 0;
}

static int file_sig_same(const file_sig *a, const file_sig *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime.tv_sec == b->mtime.tv_sec &&
	       a->mtime.tv_nsec == b->mtime.tv_nsec && a->reg == b->reg;
}

#define WATCH_POLL_MS 100

/* Sleeps ms, cut short by Ctrl-C. */
static void nap(int ms)
{
	if (!interrupted)
		poll(NULL, 0, ms);
}

static int job_fd(void *j) { return ((puzzle_job *)j)->job.fd; }
static void job_stop(void *j) { puzzle_job_stop(j); }
typedef struct {
	puzzle_job job;
	puzzle_outcome *out;
	int done;
} watched_job;
static int job_done(void *j)
{
	watched_job *w = j;
	return w->done = w->done || puzzle_job_poll(&w->job, w->out);
}

static int passed(const puzzle_outcome *o)
{
	int n = 0;
	for (int i = 0; i < o->n; i++)
		n += o->v[i].pass;
	return n;
}

/* What changed from the last check (was) to this one (now), check by check. */
static void print_changes(const puzzle *p, const puzzle_outcome *was, const puzzle_outcome *now)
{
	printf("Since the last check: %d of %d checks pass (was %d of %d)\n", passed(now), now->n, passed(was), was->n);
	int said = 0;
	for (int i = 0; i < now->n; i++) {
		const puzzle_verdict *a = NULL, *b = &now->v[i];
		for (int k = 0; k < was->n && !a; k++)
			a = strcmp(was->v[k].name, b->name) ? NULL : &was->v[k];
		if (!a)
			continue;
		double ma = puzzle_grade_measure(p, was, i, a->msg), mb = puzzle_grade_measure(p, now, i, b->msg);
		if (a->pass != b->pass && ma >= 0 && mb >= 0 && ma != mb)
			printf("  now %s: %s (%g -> %g)\n", b->pass ? "passes" : "FAILS", b->name, ma, mb);
		else if (a->pass != b->pass)
			printf("  now %s: %s\n", b->pass ? "passes" : "FAILS", b->name);
		else if (ma >= 0 && mb >= 0 && ma != mb)
			printf("  moved: %s: %g -> %g\n", b->name, ma, mb);
		else if (strcmp(a->msg, b->msg))
			printf("  changed: %s (was: %s)\n", b->name, a->msg);
		else
			continue;
		said = 1;
	}
	if (!said)
		printf("  no check changed\n");
}


/* --watch FILE: a check at the start and on every save, each in a child (Ctrl-C stops one cleanly). */
static int watch(const puzzle_set *s, const course *c, const puzzle *p, const char *file, state_data *st,
		 char *err, int errlen, int *tried)
{
	file_sig last, cur;
	if (file_sig_of(file, &last) < 0 || !last.reg) {
		cli_error(&cli_cmd_puzzle, "%s: %s", cli_arg(file), errno && !last.reg ? strerror(errno) : "not a regular file");
		return 2;
	}
	struct sigaction sa = {.sa_handler = on_sigint}, old;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	puzzle_outcome *prev = xcalloc(2, sizeof *prev), *now = prev + 1;
	int checks = 0, rc = 0, gone = 0;
	printf("Watching %s: checked again on every save; Ctrl-C stops.\n", file);
	for (;;) {
		watched_job w = {.out = now};
		static const exec_waiter waiter = {job_fd, job_done, job_stop};
		if (puzzle_job_start(&w.job, p, file) < 0) {
			cli_error(&cli_cmd_puzzle, "could not start a check (fork failed)");
			rc = 2;
			break;
		}
		if (exec_wait(&waiter, &w, isatty(1) ? "checking" : NULL, &interrupted) < 0)
			break;
		time_t t = time(NULL);
		char hms[16];
		strftime(hms, sizeof hms, "%H:%M:%S", localtime(&t));
		printf("\n== Check %d at %s (%.2f s)\n", ++checks, hms, now->seconds);
		int r = check_outcome(s, c, p, file, now, st, 0, err, errlen, tried);
		if (checks > 1)
			print_changes(p, prev, now);
		fflush(stdout);
		rc = r == 3 ? 3 : rc;
		*prev = *now;
		/* the next save: a signature that differs and holds still for one more look */
		for (;;) {
			nap(WATCH_POLL_MS);
			if (interrupted)
				break;
			if (file_sig_of(file, &cur) < 0) {
				if (!gone++)
					printf("%s is gone; waiting for it to come back\n", file), fflush(stdout);
				continue;
			}
			gone = 0;
			if (file_sig_same(&cur, &last))
				continue;
			nap(WATCH_POLL_MS); /* an editor writing in place: let it finish */
			file_sig again;
			if (file_sig_of(file, &again) < 0 || !file_sig_same(&again, &cur))
				continue;
			last = cur;
			if (cur.reg)
				break;
			printf("%s is not a regular file now; waiting\n", file), fflush(stdout);
		}
		if (interrupted)
			break;
	}
	sigaction(SIGINT, &old, NULL);
	printf("\nStopped watching %s after %d check%s.\n", file, checks, checks == 1 ? "" : "s");
	free(prev);
	return rc;
}

static int cmd_puzzle(const cli_command *self, int argc, char **argv)
{
	puzzle_opts o = {0};
	int nargs, rc = cli_parse(self, argc, argv, &o, &nargs);
	if (rc >= 0)
		return rc;
	puzzle_set s;
	char errs[2048];
	if (puzzles_load(&s, errs, sizeof errs))
		fputs(errs, stderr);
	course c = {0};
	cli_course(&c);
	state_data st;
	state_load(&st);
	rc = 0;
	int tried = 0; /* a save was tried: its failure, not st.kept, is what to say */
	char err[600] = "";
	const puzzle *p = nargs ? puzzles_find(&s, argv[1]) : NULL;
	int modes = !!o.check + !!o.watch + !!o.check_dir;
	if (!nargs && (o.check || o.watch || o.check_dir || o.hint || o.solution)) {
		cli_error(self, "--check, --watch, --check-dir, --hint and --solution want a puzzle: ptxtutor puzzle N|ID");
		rc = 2;
	} else if (modes > 1) {
		cli_error(self, "one of --check, --watch and --check-dir at a time");
		rc = 2;
	} else if ((o.csv || o.jobs || o.timeout > 0) && !o.check_dir) {
		cli_error(self, "--csv, --jobs and --timeout go with --check-dir");
		rc = 2;
	} else if (o.csv && o.json) {
		cli_error(self, "--csv or --json, not both");
		rc = 2;
	} else if (o.watch && o.json) {
		cli_error(self, "--watch prints text: --json goes with --check and --check-dir");
		rc = 2;
	} else if (!nargs) {
		rc = list(&s, &c, &st, o.json);
	} else if (!p) {
		cli_error(self, "no puzzle '%s' (ptxtutor puzzle lists them)", cli_arg(argv[1]));
		rc = 2;
	} else {
		char shipped[512], copy[512], cerr[256];
		util_path(shipped, sizeof shipped, p->start);
		if (userptx_edit(shipped, copy, sizeof copy, cerr, sizeof cerr)) {
			cli_error(self, "%s", cerr);
			rc = 2;
		} else if (o.check) {
			rc = check(&s, &c, p, strcmp(o.check, "mine") ? o.check : copy, &st, o.json, err, sizeof err, &tried);
		} else if (o.watch) {
			rc = watch(&s, &c, p, strcmp(o.watch, "mine") ? o.watch : copy, &st, err, sizeof err, &tried);
		} else if (o.check_dir) {
			rc = puzzle_grade(p, o.check_dir, o.jobs, o.timeout, o.json, o.csv);
		} else if (o.hint) {
			rc = hints(self, p, o.hint);
		} else if (o.solution) {
			rc = solution(&s, p, &st, lesson_id(&c, p), err, sizeof err, &tried);
		} else {
			show(p, copy);
		}
	}
	if (rc == 3)
		cli_error(self, "could not save your progress: %s", err);
	else if (!tried && st.kept[0])
		cli_error(self, "cannot read your progress: %s", st.kept);
	state_free(&st);
	course_free(&c);
	puzzles_free(&s);
	return rc;
}
