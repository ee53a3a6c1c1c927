/* test_layers: the layer rule — folders in rank order (base < course < model < run < {emu, gpu} < exec < {ui, cli}) checked on the link graph (every undefined symbol of every object resolved to the object defining it, nm -g) and on the include graph; no cycle between modules, curses only in ui/term.c, the update code independent of the draw code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* A module is a .c/.h pair named by its path under src/ without the
 * extension ("ui/draw"); an edge is an #include "x.h" in either file. A
 * private header X_internal.h belongs to module X (ui/app_internal.h is
 * what app.c and its app_*.c files share). */
enum { MAXMOD = 256 };
static char mods[MAXMOD][64];
static int nmods;
static unsigned char edge[MAXMOD][MAXMOD];
/* The files that include a curses header, "ui/term.c" style. */
static char curses_users[16][80];
static int ncurses_users;

/* The layers, lowest first: a folder includes only from lower ranks. Two
 * folders of one rank are siblings and never include each other, except the
 * pairs allowed below. A folder missing here fails the test: a new layer is
 * placed on purpose, in this table and in docs/ARCHITECTURE.md. */
static const struct {
	const char *dir;
	int rank;
} ranks[] = {
	{"base", 0}, {"course", 1}, {"model", 2}, {"run", 3},
	{"emu", 4},  {"gpu", 4},    {"exec", 5},  {"ui", 6}, {"cli", 6},
};
/* cli/ is the composition root: cmd_tui owns the event loop that ui/ updates and draws. */
static const struct {
	const char *from, *to;
} allowed[] = {{"cli", "ui"}};
/* Includes between folders that break the order, "from.c -> to.h" each. */
static char violations[64][160];
static int nviolations;

static int module(const char *path)
{
	char name[64];
	util_strlcpy(name, path, sizeof name);
	size_t n = strlen(name), sfx = strlen("_internal");
	if (n > sfx && !strcmp(name + n - sfx, "_internal"))
		name[n - sfx] = '\0';
	for (int i = 0; i < nmods; i++)
		if (!strcmp(mods[i], name))
			return i;
	assert_true(nmods < MAXMOD);
	util_strlcpy(mods[nmods], name, sizeof mods[0]);
	return nmods++;
}

/* The rank of a path's folder ("ui/draw" → 6); -1 for a folder not in the table. */
static int rank_of(const char *path)
{
	size_t n = strcspn(path, "/");
	for (size_t i = 0; i < ARRAY_LEN(ranks); i++)
		if (strlen(ranks[i].dir) == n && !strncmp(ranks[i].dir, path, n))
			return ranks[i].rank;
	return -1;
}

/* Whether an include from folder path `from` to path `to` keeps the order. */
static int include_allowed(const char *from, const char *to)
{
	size_t nf = strcspn(from, "/"), nt = strcspn(to, "/");
	if (nf == nt && !strncmp(from, to, nf))
		return 1; /* inside one folder */
	int rf = rank_of(from), rt = rank_of(to);
	if (rf < 0 || rt < 0)
		return 0;
	if (rt < rf)
		return 1;
	for (size_t i = 0; i < ARRAY_LEN(allowed); i++)
		if (strlen(allowed[i].from) == nf && !strncmp(allowed[i].from, from, nf) &&
		    strlen(allowed[i].to) == nt && !strncmp(allowed[i].to, to, nt))
			return 1;
	return 0;
}

static void scan_file(const char *src, const char *dir, const char *file, const regex_t *curses)
{
	char path[PATH_MAX], name[64];
	assert_true(snprintf(path, sizeof path, "%s/%s/%s", src, dir, file) < (int)sizeof path);
	assert_true(snprintf(name, sizeof name, "%s/%.*s", dir, (int)(strlen(file) - 2), file) < (int)sizeof name);
	int from = module(name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char inc[128];
		size_t il;
		if (sscanf(line, " #include \"%127[^\"]\"", inc) == 1 && (il = strlen(inc)) > 2 && !strcmp(inc + il - 2, ".h")) {
			inc[il - 2] = '\0';
			int to = module(inc);
			if (to != from)
				edge[from][to] = 1;
			if (!include_allowed(name, inc) && nviolations < (int)ARRAY_LEN(violations))
				snprintf(violations[nviolations++], sizeof violations[0], "%.40s/%.60s -> %.50s.h", dir, file, inc);
		}
		if (!regexec(curses, line, 0, NULL, 0) && ncurses_users < 16)
			assert_true(snprintf(curses_users[ncurses_users++], sizeof curses_users[0], "%s/%s", dir, file) <
				    (int)sizeof curses_users[0]);
	}
	fclose(f);
}

static void read_objects(const char *root);

static int setup(void **state)
{
	(void)state;
	const char *root = getenv("PTXTUTOR_ROOT");
	char here[PATH_MAX], src[PATH_MAX];
	if (!root || !*root)
		root = getcwd(here, sizeof here);
	snprintf(src, sizeof src, "%s/src", root);
	regex_t curses;
	assert_int_equal(regcomp(&curses,
				 "^[ \t]*#[ \t]*include[ \t]*<(n?cursesw?/|n?cursesw?\\.h|term\\.h|unctrl\\.h|panel\\.h)",
				 REG_EXTENDED | REG_NOSUB), 0);
	DIR *top = opendir(src);
	assert_non_null(top);
	struct dirent *d;
	while ((d = readdir(top))) {
		if (d->d_name[0] == '.')
			continue;
		char sub[PATH_MAX];
		assert_true(snprintf(sub, sizeof sub, "%s/%s", src, d->d_name) < (int)sizeof sub);
		DIR *in = opendir(sub);
		if (!in)
			continue;
		struct dirent *e;
		while ((e = readdir(in))) {
			size_t n = strlen(e->d_name);
			if (n > 2 && e->d_name[n - 2] == '.' && (e->d_name[n - 1] == 'c' || e->d_name[n - 1] == 'h'))
				scan_file(src, d->d_name, e->d_name, &curses);
		}
		closedir(in);
	}
	closedir(top);
	regfree(&curses);
	read_objects(root);
	return 0;
}

/* Depth-first search: 1 gray (on the path), 2 black. On a cycle, path holds it. */
static int colour[MAXMOD], path[MAXMOD], depth;

static int find_cycle(int v)
{
	colour[v] = 1;
	path[depth++] = v;
	for (int w = 0; w < nmods; w++) {
		if (!edge[v][w])
			continue;
		if (colour[w] == 1) {
			path[depth++] = w;
			return 1;
		}
		if (!colour[w] && find_cycle(w))
			return 1;
	}
	colour[v] = 2;
	depth--;
	return 0;
}

static void test_no_module_cycle(void **state)
{
	(void)state;
	assert_true(nmods > 40); /* the whole tree was read */
	memset(colour, 0, sizeof colour);
	for (int v = 0; v < nmods; v++) {
		depth = 0;
		if (!colour[v] && find_cycle(v)) {
			char msg[1024] = "";
			for (int i = 0; i < depth; i++)
				snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s%s", i ? " -> " : "", mods[path[i]]);
			fail_msg("include cycle: %s", msg);
		}
	}
}

static int reaches(int from, int to, unsigned char *seen)
{
	if (from == to)
		return 1;
	seen[from] = 1;
	for (int w = 0; w < nmods; w++)
		if (edge[from][w] && !seen[w] && reaches(w, to, seen))
			return 1;
	return 0;
}

/* Update code never draws: ui/app reaches none of the modules that fill or show a frame. */
static void test_update_independent_of_draw(void **state)
{
	(void)state;
	static const char *const drawing[] = {"ui/draw", "ui/overlay", "ui/pane_ptx", "ui/term"};
	int app = module("ui/app");
	for (size_t i = 0; i < ARRAY_LEN(drawing); i++) {
		unsigned char seen[MAXMOD] = {0};
		if (reaches(app, module(drawing[i]), seen))
			fail_msg("ui/app depends on %s", drawing[i]);
	}
	/* and the draw code does read the state */
	unsigned char seen[MAXMOD] = {0};
	assert_true(reaches(module("ui/draw"), module("ui/app_state"), seen));
}

/* Every include follows the rank table; the first offenders are named. */
static void test_layer_order(void **state)
{
	(void)state;
	char msg[2048] = "";
	for (int i = 0; i < nviolations && i < 12; i++)
		snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "\n  %.150s", violations[i]);
	if (nviolations)
		fail_msg("%d include(s) against the layer order:%s", nviolations, msg);
}

/* ---- the link graph: calls, not spellings ---- */

/* The build folder whose objects are read: PTXTUTOR_BUILD, else the folder
 * above this binary's (build/tests/test_layers → build). */
static char build_dir[PATH_MAX] = "build";

typedef struct {
	char name[128];
	char mod[96];               /* "ui/app", "ui/widgets/x" */
} link_sym;

static link_sym *defs, *uses;
static int ndefs, nuses, nobjects;
static char link_errors[16][200];
static int nlink_errors;

static void add_sym(link_sym **v, int *n, const char *name, const char *mod)
{
	if (!(*n & (*n - 1)) || !*n)
		*v = xrealloc(*v, (size_t)(*n ? 2 * *n : 64) * sizeof **v);
	util_strlcpy((*v)[*n].name, name, sizeof (*v)[0].name);
	util_strlcpy((*v)[*n].mod, mod, sizeof (*v)[0].mod);
	(*n)++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const link_sym *)a)->name, ((const link_sym *)b)->name);
}

/* Whether a call from module `from` to module `to` keeps the layer rule: the
 * include rule, and the UI never on a backend (it goes through exec/). */
static int call_allowed(const char *from, const char *to)
{
	int ui_on_backend = !strncmp(from, "ui/", 3) && (!strncmp(to, "gpu/", 4) || !strncmp(to, "emu/", 4));
	return !ui_on_backend && include_allowed(from, to);
}

/* Reads every object of the one source list (scripts/sources.sh) with one nm
 * (-A names each symbol's object): one process, not one per object, since the
 * layer test runs six times over in tests/e2e_layers.sh. */
static void read_objects(const char *root)
{
	char cmd[PATH_MAX + 64], line[512];
	static char objs[256][PATH_MAX + 300], objmod[256][96];
	int nobj = 0;
	size_t cmdlen = 16;
	snprintf(cmd, sizeof cmd, "sh '%s/scripts/sources.sh' '%s'", root, root);
	FILE *list = popen(cmd, "r");
	assert_non_null(list);
	while (fgets(line, sizeof line, list)) {
		char src[256];
		if (sscanf(line, "src/%255s", src) != 1 || strlen(src) < 3)
			continue;
		src[strlen(src) - 2] = '\0'; /* ".c" */
		assert_true(nobj < 256);
		util_strlcpy(objmod[nobj], src, sizeof objmod[0]);
		snprintf(objs[nobj], sizeof objs[0], "%s/src/%s.o", build_dir, src);
		if (access(objs[nobj], R_OK)) {
			snprintf(link_errors[nlink_errors++ % 16], sizeof link_errors[0], "src/%.60s.c has no object %.100s (not built?)",
				 src, objs[nobj]);
			continue;
		}
		cmdlen += strlen(objs[nobj]) + 3;
		nobj++;
	}
	pclose(list);
	if (!nobj)
		return;
	char *nmcmd = xmalloc(cmdlen);
	strcpy(nmcmd, "nm -g -A");
	for (int i = 0; i < nobj; i++)
		strcat(strcat(strcat(nmcmd, " '"), objs[i]), "'");
	FILE *nm = popen(nmcmd, "r");
	assert_non_null(nm);
	char l[PATH_MAX + 512];
	int last = 0;
	while (fgets(l, sizeof l, nm)) {
		char *colon = strstr(l, ".o:"), a[128], b[128], c[128];
		if (!colon)
			continue;
		colon[2] = '\0';
		if (strcmp(objs[last], l)) /* nm keeps the order given: usually the same object as the line before */
			for (last = 0; last < nobj && strcmp(objs[last], l); last++)
				;
		assert_true(last < nobj);
		int k = sscanf(colon + 3, "%127s %127s %127s", a, b, c);
		if (k == 2 && !strcmp(a, "U"))
			add_sym(&uses, &nuses, b, objmod[last]);
		else if (k == 3 && strchr("TDBRCGSVW", b[0]))
			add_sym(&defs, &ndefs, c, objmod[last]);
	}
	pclose(nm);
	free(nmcmd);
	nobjects = nobj;
	qsort(defs, (size_t)ndefs, sizeof *defs, by_name);
}

static void test_link_layers(void **state)
{
	(void)state;
	if (system("nm --version >/dev/null 2>&1")) {
		skip();
		return;
	}
	assert_true(nobjects > 40); /* the whole build was read */
	char msg[4096] = "";
	int bad = nlink_errors;
	for (int i = 0; i < nlink_errors && i < 16; i++)
		snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "\n  %s", link_errors[i]);
	for (int i = 0; i < nuses; i++) {
		const link_sym *d = bsearch(&uses[i], defs, (size_t)ndefs, sizeof *defs, by_name);
		if (!d || call_allowed(uses[i].mod, d->mod))
			continue;
		if (bad++ < 16)
			snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "\n  %s calls %s (%s)", uses[i].mod, uses[i].name,
				 d->mod);
	}
	if (bad)
		fail_msg("%d call(s) against the layer order, at link level:%s", bad, msg);
}

/* The checker itself: an include upwards, one between siblings and one from
 * an unknown folder are caught; downwards, inside a folder and cli→ui pass. */
static void test_layer_rule(void **state)
{
	(void)state;
	assert_false(include_allowed("course/lesson", "run/run"));
	assert_false(include_allowed("gpu/runner", "emu/emu_run"));
	assert_false(include_allowed("emu/backend", "gpu/runner"));
	assert_false(include_allowed("ui/app", "cli/cli"));
	assert_false(include_allowed("tools/x", "base/util"));
	assert_true(include_allowed("exec/worker", "gpu/runner"));
	assert_true(include_allowed("cli/cmd_tui", "ui/app"));
	assert_true(include_allowed("ui/draw", "ui/app_state"));
	assert_true(include_allowed("run/run", "course/lesson"));
	/* calls: the UI reaches a backend only through exec/ */
	assert_false(call_allowed("ui/app", "gpu/runner"));
	assert_false(call_allowed("ui/widgets/x", "emu/emu_run"));
	assert_false(call_allowed("course/lesson", "cli/cli"));
	assert_true(call_allowed("ui/app", "exec/backend"));
	assert_true(call_allowed("cli/cmd_tui", "ui/app"));
	assert_true(call_allowed("exec/emulate", "emu/emu_run"));
}

/* The UI never calls CUDA nor the interpreter: it goes through exec/. */
static void test_ui_not_on_backends(void **state)
{
	(void)state;
	for (int v = 0; v < nmods; v++) {
		if (strncmp(mods[v], "ui/", 3))
			continue;
		for (int w = 0; w < nmods; w++)
			if (edge[v][w] && (!strncmp(mods[w], "gpu/", 4) || !strncmp(mods[w], "emu/", 4)))
				fail_msg("%s includes %s", mods[v], mods[w]);
	}
}

static void test_curses_only_in_term(void **state)
{
	(void)state;
	assert_int_equal(ncurses_users, 1);
	assert_string_equal(curses_users[0], "ui/term.c");
}

int main(int argc, char **argv)
{
	(void)argc;
	const char *b = getenv("PTXTUTOR_BUILD");
	if (b && *b) {
		util_strlcpy(build_dir, b, sizeof build_dir);
	} else if (strchr(argv[0], '/')) { /* BUILD/tests/test_layers */
		util_strlcpy(build_dir, argv[0], sizeof build_dir);
		for (int up = 0; up < 2; up++) {
			char *slash = strrchr(build_dir, '/');
			if (slash)
				*slash = '\0';
			else
				util_strlcpy(build_dir, ".", sizeof build_dir);
		}
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_layers),
		cmocka_unit_test(test_no_module_cycle),
		cmocka_unit_test(test_update_independent_of_draw),
		cmocka_unit_test(test_curses_only_in_term),
		cmocka_unit_test(test_layer_rule),
		cmocka_unit_test(test_layer_order),
		cmocka_unit_test(test_ui_not_on_backends),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
