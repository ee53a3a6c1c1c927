/* cmd_list: `ptxtutor list` — the lessons of the course, as a table or JSON. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/json.h"
#include "course/lesson.h"
#include "course/puzzle.h"
#include "course/state.h"
#include "base/util.h"

/* Puzzles of the lesson and how many were solved (lessons/puzzles/, the state's puzzles bits). */
static void puzzle_progress(const puzzle_set *ps, const state_data *st, const lesson *l, int *n, int *solved)
{
	*n = puzzles_of_lesson(ps, l->number);
	*solved = 0;
	for (int i = 0; i < ps->n; i++)
		if (ps->p[i].lesson == l->number)
			*solved += puzzle_solved(st, ps, &ps->p[i], l->id);
}

static int exercises(const lesson *l)
{
	int n = 0;
	for (int p = 0; p < l->npages; p++)
		n += l->pages[p].nex;
	return n;
}

/* Pages read and exercises solved, as the tutor remembered them (course/state.c). */
static void progress(const state_data *st, const lesson *l, int nex, int *read, int *solved)
{
	const state_progress *p = state_progress_find(st, l->id);
	*read = p ? state_count(p->read, l->npages) : 0;
	*solved = p ? state_count(p->solved, nex) : 0;
}

typedef struct {
	int json;
} list_opts;

static int cmd_list(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_list = {
	.name = "list",
	.synopsis = {"list [--json]"},
	.summary = "the lessons: number, id, title, types, minimum sm",
	.about = "The lessons: number, id, title, types (inputs→output), the GPU generation each needs, and\n"
		 "the pages read, exercises and puzzles solved in the tutor ($XDG_STATE_HOME/ptxtutor).\n",
	.opts = (const cli_opt[]){
		{.name = "json", .letter = 'j', .kind = CLI_FLAG, .off = offsetof(list_opts, json),
		 .help = "print JSON (keys in docs/json.md)"},
		{0},
	},
	.run = cmd_list,
};

static int cmd_list(const cli_command *self, int argc, char **argv)
{
	list_opts o = {0};
	int nargs, rc = cli_parse(self, argc, argv, &o, &nargs);
	if (rc >= 0)
		return rc;
	course c = {0};
	cli_course(&c);
	if (c.n == 0) { /* an empty table and exit 0 would hide a wrong PTXTUTOR_ROOT or install */
		cli_error(self, "no lessons found in %s/lessons (set PTXTUTOR_ROOT to the folder that holds lessons/)",
			  util_root());
		course_free(&c);
		return 1;
	}
	/* The progress the tutor remembered (nothing read yet when none). */
	static state_data st;
	state_load(&st);
	if (st.kept[0])
		cli_error(self, "cannot read your progress: %s", st.kept);
	puzzle_set ps;
	char perr[2048];
	if (puzzles_load(&ps, perr, sizeof perr))
		fputs(perr, stderr);
	int np, psolved;
	if (o.json) {
		json_writer w;
		json_begin(&w, stdout);
		json_arr(&w, NULL);
		for (int i = 0; i < c.n; i++) {
			const lesson *l = &c.l[i];
			char sm[16];
			snprintf(sm, sizeof sm, "sm_%d%s", l->needs_sm, l->needs_arch_specific ? "a" : "");
			json_obj(&w, NULL);
			json_int(&w, "number", l->number);
			json_str(&w, "id", l->id);
			json_str(&w, "title", l->title);
			json_str(&w, "dtype", dtype_name(l->dt));
			json_str(&w, "out", l->dt == DTYPE_NONE ? "none" : dtype_name(l->out));
			if (l->cluster[0] * l->cluster[1] * l->cluster[2] > 1) {
				json_arr(&w, "cluster");
				for (int k = 0; k < 3; k++)
					json_int(&w, NULL, l->cluster[k]);
				json_end(&w);
			}
			if (l->needs_sm)
				json_str(&w, "needs", sm);
			else
				json_null(&w, "needs");
			json_str(&w, "kernel", l->ptx_path[0] ? l->ptx_path : NULL);
			json_int(&w, "pages", l->npages);
			int nex = exercises(l), read, solved;
			progress(&st, l, nex, &read, &solved);
			json_int(&w, "pages_read", read);
			json_int(&w, "exercises", nex);
			json_int(&w, "exercises_solved", solved);
			puzzle_progress(&ps, &st, l, &np, &psolved);
			json_int(&w, "puzzles", np);
			json_int(&w, "puzzles_solved", psolved);
			json_end(&w);
		}
		json_end(&w);
		json_finish(&w);
	} else {
		printf("%3s  %-14s %-9s %-7s %-6s %-7s %-7s %s\n", "#", "id", "types", "needs", "read", "solved", "puzzles",
		       "title");
		for (int i = 0; i < c.n; i++) {
			const lesson *l = &c.l[i];
			char sm[16] = "-";
			if (l->needs_sm)
				snprintf(sm, sizeof sm, "sm_%d%s", l->needs_sm, l->needs_arch_specific ? "a" : "");
			int nex = exercises(l), read, solved;
			progress(&st, l, nex, &read, &solved);
			char r[16], x[16] = "-", pz[16] = "-";
			puzzle_progress(&ps, &st, l, &np, &psolved);
			if (np)
				snprintf(pz, sizeof pz, "%d/%d", psolved, np);
			snprintf(r, sizeof r, "%d/%d", read, l->npages);
			if (nex)
				snprintf(x, sizeof x, "%d/%d", solved, nex);
			char types[32] = "none";
			if (l->dt != DTYPE_NONE)
				dtype_pair_name(l->dt, l->out, types, sizeof types);
			printf("%3d  %-14s ", l->number, l->id);
			cli_pad(stdout, types, 9);
			printf(" %-7s %-6s %-7s %-7s %s\n", sm, r, x, pz, l->title);
		}
	}
	puzzles_free(&ps);
	course_free(&c);
	state_free(&st);
	return 0;
}
