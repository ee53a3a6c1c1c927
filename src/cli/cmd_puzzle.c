/* cmd_puzzle: `ptxtutor puzzle` — the practice puzzles: list them, show one, check a PTX file against its checks on the CPU emulator, reveal hints and the solution. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/util.h"
#include "cli/cli.h"
#include "course/lesson.h"
#include "course/puzzle.h"
#include "course/state.h"
#include "course/userptx.h"
#include "exec/puzzle_check.h"

typedef struct {
	const char *check;
	int hint;
	int solution;
	int json;
} puzzle_opts;

static int cmd_puzzle(const cli_command *self, int argc, char **argv);

const cli_command cli_cmd_puzzle = {
	.name = "puzzle",
	.synopsis = {"puzzle [--json]", "puzzle N|ID [--check FILE] [--hint K] [--solution] [--json]"},
	.summary = "practice: PTX puzzles, checked on the CPU for result and behaviour",
	.about = "Without an argument, lists the puzzles (number, id, lesson, title, solved). With one, shows\n"
		 "it: the goal, the checks, and your copy of its starting PTX (made on first use) to edit.\n"
		 "--check runs the checks on a PTX file on the CPU emulator, at several sizes: the result and\n"
		 "what the lesson teaches (sectors per request, bank conflicts, barriers, instruction counts),\n"
		 "each failing one explained with its line; a solved puzzle is remembered.\n",
	.notes = "\nExit status: 0 solved (or nothing checked), 1 a check failed, 2 bad usage.\n"
		 "The solution shows once the puzzle is solved, or when --solution is asked for twice.\n",
	.opts = (const cli_opt[]){
		{.name = "check", .letter = 'c', .kind = CLI_STR, .off = offsetof(puzzle_opts, check), .arg = "FILE",
		 .help = "check this PTX file ('mine': your copy of the puzzle's PTX)"},
		{.name = "hint", .kind = CLI_INT, .off = offsetof(puzzle_opts, hint), .arg = "K", .lo = 1, .hi = 1 << 20,
		 .help = "show the first K hints"},
		{.name = "solution", .kind = CLI_FLAG, .off = offsetof(puzzle_opts, solution),
		 .help = "show the reference solution (solved, or asked for a second time)"},
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

static void print_outcome(const puzzle *p, const char *file, const puzzle_outcome *o, int json)
{
	if (json) {
		json_writer w;
		json_begin(&w, stdout);
		json_obj(&w, NULL);
		json_str(&w, "puzzle", p->id);
		json_str(&w, "file", file);
		json_bool(&w, "solved", o->solved);
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
	printf("%s\n", o->solved ? "Solved." : "Not yet: fix the failing checks and check again.");
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

/* --solution: the file's text when solved or asked before; else remembers the asking. */
static void solution(const puzzle_set *s, const puzzle *p, state_data *st, const char *lid)
{
	if (!puzzle_solved(st, s, p, lid) && !puzzle_asked(st, s, p, lid)) {
		puzzle_mark(st, s, p, lid, 1);
		printf("Sure? Try the hints first (--hint 1). Ask for --solution once more to see it.\n");
		return;
	}
	char path[512], err[256];
	util_path(path, sizeof path, p->solution);
	char *text = util_read_file(path, NULL, err, sizeof err);
	printf("%s", text ? text : err);
	free(text);
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
	const puzzle *p = nargs ? puzzles_find(&s, argv[1]) : NULL;
	if (!nargs && (o.check || o.hint || o.solution)) {
		cli_error(self, "--check, --hint and --solution want a puzzle: ptxtutor puzzle N|ID");
		rc = 2;
	} else if (!nargs) {
		rc = list(&s, &c, &st, o.json);
	} else if (!p) {
		cli_error(self, "no puzzle '%s' (ptxtutor puzzle lists them)", cli_arg(argv[1]));
		rc = 2;
	} else {
		const char *lid = lesson_id(&c, p);
		char shipped[512], copy[512], err[256];
		util_path(shipped, sizeof shipped, p->start);
		if (userptx_edit(shipped, copy, sizeof copy, err, sizeof err)) {
			cli_error(self, "%s", err);
			rc = 2;
		} else if (o.check) {
			const char *file = strcmp(o.check, "mine") ? o.check : copy;
			puzzle_outcome out;
			puzzle_check_file(p, file, &out);
			print_outcome(p, file, &out, o.json);
			if (out.solved && !puzzle_solved(&st, &s, p, lid))
				puzzle_mark(&st, &s, p, lid, 0);
			rc = out.solved ? 0 : 1;
		} else if (o.hint > p->nhints) { /* the range is the puzzle's, known only now */
			cli_error(self, "--hint %d: puzzle %s has %d hint%s (--hint 1..%d)", o.hint, p->id, p->nhints,
				  p->nhints == 1 ? "" : "s", p->nhints);
			rc = 2;
		} else if (o.hint) {
			for (int i = 0; i < o.hint && i < p->nhints; i++)
				printf("Hint %d: %s\n", i + 1, p->hints[i]);
		} else if (o.solution) {
			solution(&s, p, &st, lid);
		} else {
			show(p, copy);
		}
		if (o.check || o.solution)
			state_save(&st, err, sizeof err);
	}
	course_free(&c);
	puzzles_free(&s);
	return rc;
}
