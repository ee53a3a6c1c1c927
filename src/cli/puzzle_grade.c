/* puzzle_grade: `ptxtutor puzzle N --check-dir DIR` — a class's folder graded: every regular file checked in a child of its own (exec/puzzle_job's batch), a row per entry as text, CSV or JSON. */
#include "cli/puzzle_grade.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "base/util.h"
#include "cli/cli.h"
#include "exec/puzzle_job.h"
#include "exec/report.h"

/* The measure a check's message states ("touches 4.0 sectors", "has 32 bank conflicts"); -1 when none. */
static double measure(const char *msg)
{
	static const char *const verbs[] = {" touches ", " has "};
	for (size_t i = 0; i < ARRAY_LEN(verbs); i++) {
		const char *at = strstr(msg, verbs[i]);
		double v;
		if (at && sscanf(at + strlen(verbs[i]), "%lf", &v) == 1)
			return v;
	}
	return -1;
}

double puzzle_grade_measure(const puzzle *p, const puzzle_outcome *o, int i, const char *msg)
{
	int region = o->n == p->nchecks && i < p->nchecks && p->checks[i].kind != PUZZLE_VERIFIED &&
		     p->checks[i].kind != PUZZLE_RACE;
	return region ? measure(msg) : -1;
}

/* One entry of the folder and what its grading came to. */
typedef struct {
	char *name;
	char *path;
	const char *skip;   /* not a regular file: what it is (not checked) */
	puzzle_batch b;
} graded;

static int by_name(const void *a, const void *b)
{
	return strcmp(((const graded *)a)->name, ((const graded *)b)->name);
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISLNK(m) ? "a symbolic link" : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m) || S_ISBLK(m) ? "a device" : "not a regular file";
}

/* The folder's entries, sorted by name: regular files to check, the rest with why not (never opened). */
static graded *list_dir(const char *dir, int *n, char *err, int errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, (size_t)errlen, "%s: %s", cli_arg(dir), strerror(errno));
		*n = -1;
		return NULL;
	}
	graded *g = NULL;
	int cap = 0;
	*n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n == cap)
			g = xreallocarray(g, (size_t)(cap = cap ? cap * 2 : 64), sizeof *g);
		graded *x = &g[(*n)++];
		memset(x, 0, sizeof *x);
		x->name = xstrdup(e->d_name);
		x->path = xmalloc(strlen(dir) + strlen(e->d_name) + 2);
		sprintf(x->path, "%s/%s", dir, e->d_name);
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			x->skip = "gone before it was read";
		else if (!S_ISREG(st.st_mode))
			x->skip = file_kind(st.st_mode);
		x->b.path = x->path;
	}
	closedir(d);
	if (*n)
		qsort(g, (size_t)*n, sizeof *g, by_name);
	return g;
}

/* The failing verdict to show: the first that measured something (a check
 * "not measured" only follows from another's failure), else the first; -1: none. */
static int first_fail(const puzzle_outcome *o)
{
	int first = -1;
	for (int i = 0; i < o->n; i++)
		if (!o->v[i].pass) {
			if (strncmp(o->v[i].msg, "not measured", 12))
				return i;
			first = first < 0 ? i : first;
		}
	return first;
}

/* The failing check's short name: its kind and region ("sectors @aload"), or the verdict's own. */
static void check_name(const puzzle *p, const puzzle_outcome *o, int i, char *buf, size_t len)
{
	if (i < 0)
		snprintf(buf, len, "-");
	else if (i < p->nchecks && o->n == p->nchecks)
		snprintf(buf, len, "%s%s%s", puzzle_kind_name(p->checks[i].kind), p->checks[i].region[0] ? " @" : "",
			 p->checks[i].region);
	else
		snprintf(buf, len, "%s", o->v[i].name);
}

/* The race check's verdict: 1 a race, 0 none, -1 the puzzle has no race check or it did not run. */
static int race_of(const puzzle *p, const puzzle_outcome *o, int *line)
{
	*line = 0;
	for (int i = 0; i < p->nchecks && o->n == p->nchecks; i++)
		if (p->checks[i].kind == PUZZLE_RACE) {
			if (o->v[i].pass)
				return 0;
			*line = o->v[i].line;
			return o->v[i].line ? 1 : -1;
		}
	return -1;
}

/* The sectors per request of each sectors check, "1/4/4" ("-": none measured). */
static void sectors_of(const puzzle *p, const puzzle_outcome *o, char *buf, size_t len)
{
	buf[0] = 0;
	for (int i = 0; i < p->nchecks && o->n == p->nchecks; i++) {
		if (p->checks[i].kind != PUZZLE_SECTORS)
			continue;
		double v = puzzle_grade_measure(p, o, i, o->v[i].msg);
		size_t k = strlen(buf);
		if (v >= 0)
			snprintf(buf + k, len - k, "%s%g", k ? "/" : "", v);
		else
			snprintf(buf + k, len - k, "%s-", k ? "/" : "");
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void grade_json(const puzzle *p, const char *dir, const graded *g, int n, int jobs, double timeout, double wall)
{
	json_writer w;
	json_begin(&w, stdout);
	json_obj(&w, NULL);
	json_str(&w, "puzzle", p->id);
	json_str(&w, "dir", dir);
	json_int(&w, "jobs", jobs);
	json_num(&w, "timeout_s", timeout);
	int solved = 0, checked = 0;
	json_arr(&w, "files");
	for (int i = 0; i < n; i++) {
		const puzzle_outcome *o = &g[i].b.out;
		int f = first_fail(o), rl, race = race_of(p, o, &rl);
		char name[160];
		check_name(p, o, f, name, sizeof name);
		json_obj(&w, NULL);
		json_str(&w, "file", g[i].name);
		json_bool(&w, "checked", !g[i].skip);
		json_str(&w, "not_checked", g[i].skip);
		json_bool(&w, "solved", !g[i].skip && o->solved);
		if (!g[i].skip) {
			checked++, solved += o->solved;
			json_str(&w, "failed_check", f < 0 ? NULL : name);
			if (f < 0 || !o->v[f].line)
				json_null(&w, "failed_line");
			else
				json_int(&w, "failed_line", o->v[f].line);
			json_str(&w, "message", f < 0 ? NULL : o->v[f].msg);
			json_obj(&w, "sectors_per_request");
			for (int k = 0; k < p->nchecks && o->n == p->nchecks; k++)
				if (p->checks[k].kind == PUZZLE_SECTORS)
					json_num(&w, p->checks[k].region, puzzle_grade_measure(p, o, k, o->v[k].msg) >= 0
										 ? puzzle_grade_measure(p, o, k, o->v[k].msg) : NAN);
			json_end(&w);
			if (race < 0)
				json_null(&w, "race");
			else
				json_bool(&w, "race", race);
			if (rl)
				json_int(&w, "race_line", rl);
			else
				json_null(&w, "race_line");
			json_num(&w, "seconds", g[i].b.seconds);
			json_bool(&w, "timed_out", g[i].b.timed_out);
			json_arr(&w, "checks");
			for (int k = 0; k < o->n; k++) {
				json_obj(&w, NULL);
				json_str(&w, "check", o->v[k].name);
				json_bool(&w, "pass", o->v[k].pass);
				json_int(&w, "line", o->v[k].line);
				json_str(&w, "message", o->v[k].msg);
				json_end(&w);
			}
			json_end(&w);
		}
		json_end(&w);
	}
	json_end(&w);
	json_int(&w, "total", n);
	json_int(&w, "checked", checked);
	json_int(&w, "solved", solved);
	json_num(&w, "seconds", wall);
	json_end(&w);
	json_finish(&w);
}

static void grade_csv(const puzzle *p, const graded *g, int n)
{
	printf("file,checked,solved,failed_check,failed_line,sectors_per_request,race,race_line,seconds,timed_out,message\n");
	for (int i = 0; i < n; i++) {
		const puzzle_outcome *o = &g[i].b.out;
		int f = first_fail(o), rl, race = race_of(p, o, &rl);
		char name[160], spr[96];
		check_name(p, o, f, name, sizeof name);
		sectors_of(p, o, spr, sizeof spr);
		exec_report_csv_text(stdout, g[i].name);
		if (g[i].skip) {
			printf(",false,false,,,,,,,,");
			exec_report_csv_text(stdout, g[i].skip);
			printf("\n");
			continue;
		}
		printf(",true,%s,", o->solved ? "true" : "false");
		exec_report_csv_text(stdout, f < 0 ? "" : name);
		printf(",");
		if (f >= 0 && o->v[f].line)
			printf("%d", o->v[f].line);
		printf(",%s,%s,", strcmp(spr, "-") ? spr : "", race < 0 ? "" : race ? "true" : "false");
		if (rl)
			printf("%d", rl);
		printf(",%.3f,%s,", g[i].b.seconds, g[i].b.timed_out ? "true" : "false");
		exec_report_csv_text(stdout, f < 0 ? "" : o->v[f].msg);
		printf("\n");
	}
}

static void grade_text(const puzzle *p, const char *dir, const graded *g, int n, int jobs, double timeout, double wall)
{
	printf("%s: %s — %d entr%s in %s, %d at a time, %g s each at most\n", p->id, p->title, n, n == 1 ? "y" : "ies",
	       dir, jobs, timeout);
	printf("%-24s %-6s %-22s %-10s %-8s %7s\n", "file", "solved", "failed check", "s/req", "race", "time");
	int solved = 0, skipped = 0, late = 0;
	for (int i = 0; i < n; i++) {
		const puzzle_outcome *o = &g[i].b.out;
		cli_pad(stdout, g[i].name, 24); /* a longer name pushes its row on: it is never cut */
		if (g[i].skip) {
			skipped++;
			printf(" %-6s not checked: %s\n", "-", g[i].skip);
			continue;
		}
		int f = first_fail(o), rl, race = race_of(p, o, &rl);
		char name[160], spr[96], rc[24], fl[200];
		check_name(p, o, f, name, sizeof name);
		sectors_of(p, o, spr, sizeof spr);
		snprintf(fl, sizeof fl, f >= 0 && o->v[f].line ? "%s (line %d)" : "%s", name, f >= 0 ? o->v[f].line : 0);
		if (race < 0)
			snprintf(rc, sizeof rc, "-");
		else if (race)
			snprintf(rc, sizeof rc, "line %d", rl);
		else
			snprintf(rc, sizeof rc, "none");
		solved += o->solved, late += g[i].b.timed_out;
		printf(" %-6s %-22s %-10s %-8s %5.2f s\n", o->solved ? "yes" : "no", fl, spr, rc, g[i].b.seconds);
		if (f >= 0)
			printf("    %s\n", o->v[f].msg);
	}
	printf("%d of %d solved", solved, n - skipped);
	if (skipped)
		printf("; %d not checked (not regular files)", skipped);
	if (late)
		printf("; %d stopped at the deadline", late);
	printf("; %.1f s in all\n", wall);
}

int puzzle_grade(const puzzle *p, const char *dir, int jobs, double timeout, int json, int csv)
{
	char err[600];
	int n;
	graded *g = list_dir(dir, &n, err, sizeof err);
	if (n < 0) {
		cli_error(&cli_cmd_puzzle, "%s", err);
		return 2;
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	jobs = jobs > 0 ? jobs : cpus > 0 ? (int)cpus : 1;
	timeout = timeout > 0 ? timeout : PUZZLE_GRADE_TIMEOUT_S;
	puzzle_batch **todo = xcalloc((size_t)n + 1, sizeof *todo);
	puzzle_batch *batch = xcalloc((size_t)n + 1, sizeof *batch);
	int k = 0;
	for (int i = 0; i < n; i++)
		if (!g[i].skip)
			batch[k] = g[i].b, todo[k++] = &g[i].b;
	double t0 = util_now();
	puzzle_job_run_all(p, batch, k, jobs, timeout, NULL);
	double wall = util_now() - t0;
	for (int i = 0; i < k; i++)
		*todo[i] = batch[i];
	if (json)
		grade_json(p, dir, g, n, jobs, timeout, wall);
	else if (csv)
		grade_csv(p, g, n);
	else
		grade_text(p, dir, g, n, jobs, timeout, wall);
	for (int i = 0; i < n; i++)
		free(g[i].name), free(g[i].path);
	free(g), free(todo), free(batch);
	return 0;
}
