/* test_keys: the binding table — every action bound and handled, every mode reachable and with help that fits, no key bound twice in a mode — and the boxes driven through it. */
#define _GNU_SOURCE /* strcasestr */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "model/devices.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "ui/draw.h"
#include "ui/frame.h"
#include "ui/keys.h"
#include "ui/layout.h"

#define HELP_MAX 64

/* Every key of a binding, the characters included; returns how many. */
static int keys_of(const ui_binding *b, int *out, int max)
{
	int n = 0;
	for (int k = 0; k < UI_BINDING_KEYS && b->keys[k] && n < max; k++)
		out[n++] = b->keys[k];
	for (const char *c = b->chars; c && *c && n < max; c++)
		out[n++] = (unsigned char)*c;
	return n;
}

/* The first key bound to an action in a mode. */
static int key_for(ui_mode m, ui_action act)
{
	for (int i = 0; i < ui_nbindings; i++)
		if (ui_bindings[i].mode == m && ui_bindings[i].act == act)
			return ui_bindings[i].keys[0] ? ui_bindings[i].keys[0] : (unsigned char)ui_bindings[i].chars[0];
	fail_msg("no key for action %d in mode %s", act, ui_mode_name(m));
	return 0;
}

static void test_every_action_bound_and_handled(void **st)
{
	(void)st;
	for (int act = UI_ACT_NONE + 1; act < UI_NACTIONS; act++) {
		int bound = 0;
		for (int i = 0; i < ui_nbindings; i++)
			bound |= ui_bindings[i].act == (ui_action)act;
		if (!bound)
			fail_msg("action %d has no key in any mode", act);
	}
	for (int act = 0; act < UI_NACTIONS; act++)
		if (!app_handlers[act])
			fail_msg("action %d has no handler in the app", act);
	for (int i = 0; i < ui_nbindings; i++) {
		const ui_binding *b = &ui_bindings[i];
		int k[64];
		assert_true(b->mode >= 0 && b->mode < UI_NMODES);
		assert_true(b->act > UI_ACT_NONE && b->act < UI_NACTIONS);
		assert_non_null(b->help);
		if (keys_of(b, k, 64) == 0)
			fail_msg("binding %d (%s) has no key", i, b->help);
		/* A folded binding needs a line to fold into. */
		if (b->with_previous)
			assert_true(i > 0 && ui_bindings[i - 1].mode == b->mode && !ui_bindings[i - 1].with_previous);
	}
}

static void test_no_key_bound_twice_in_a_mode(void **st)
{
	(void)st;
	for (int i = 0; i < ui_nbindings; i++) {
		int ki[64], ni = keys_of(&ui_bindings[i], ki, 64);
		for (int j = i; j < ui_nbindings; j++) {
			if (ui_bindings[j].mode != ui_bindings[i].mode)
				continue;
			int kj[64], nj = keys_of(&ui_bindings[j], kj, 64);
			for (int x = 0; x < ni; x++)
				for (int y = i == j ? x + 1 : 0; y < nj; y++)
					if (ki[x] == kj[y])
						fail_msg("mode %s: key %d bound by '%s' and '%s'", ui_mode_name(ui_bindings[i].mode),
							 ki[x], ui_bindings[i].help, ui_bindings[j].help);
		}
	}
}

/* The lookup finds each binding's action for each of its keys; a key bound
 * nowhere gets the mode's catch-all, or nothing. */
static void test_lookup(void **st)
{
	(void)st;
	for (int i = 0; i < ui_nbindings; i++) {
		int k[64], n = keys_of(&ui_bindings[i], k, 64);
		for (int x = 0; x < n; x++)
			if (k[x] != UI_KEY_ANY)
				assert_int_equal(ui_key_action(ui_bindings[i].mode, k[x]), ui_bindings[i].act);
	}
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, 'Z'), UI_ACT_NONE);
	assert_int_equal(ui_key_action(UI_MODE_ANSWER, 'x'), UI_ACT_NONE);
	assert_int_equal(ui_key_action(UI_MODE_HELP, 'Z'), UI_ACT_CLOSE);
	assert_int_equal(ui_key_action(UI_MODE_DIFF, 'Z'), UI_ACT_CLOSE);
	assert_int_equal(ui_key_action(UI_MODE_ANSWER, '7'), UI_ACT_ANSWER_TYPE);
	assert_int_equal(ui_key_action(UI_MODE_ANSWER, 0), UI_ACT_NONE);
}

/* Each mode's help: at least one line of keys, every binding of the mode
 * named in it, and every line inside the help box of an 80x24 terminal. */
static void test_every_mode_has_help_that_fits(void **st)
{
	(void)st;
	ui_layout L;
	ui_layout_compute(80, 24, 0, 0, &L);
	int width = L.help.w - 4; /* inside the box's borders and margins */
	assert_true(width > 0 && width <= 80);
	for (int m = 0; m < UI_NMODES; m++) {
		ui_help_line h[HELP_MAX];
		int n = ui_keys_help((ui_mode)m, h, HELP_MAX);
		int with_keys = 0;
		for (int i = 0; i < n; i++) {
			int w = h[i].text_col + (int)strlen(h[i].text);
			if (w > width)
				fail_msg("mode %s: '%s  %s' is %d columns, the box has %d", ui_mode_name(m), h[i].keys,
					 h[i].text, w, width);
			if (h[i].keys[0]) {
				with_keys++;
				assert_true((int)strlen(h[i].keys) < h[i].text_col);
			}
		}
		if (!with_keys)
			fail_msg("mode %s has no help", ui_mode_name(m));
		for (int i = 0; i < ui_nbindings; i++) {
			if ((int)ui_bindings[i].mode != m)
				continue;
			int found = 0;
			for (int j = 0; j < n && !found; j++)
				found = strstr(h[j].text, ui_bindings[i].help) != NULL;
			if (!found)
				fail_msg("mode %s: '%s' is not in the help", ui_mode_name(m), ui_bindings[i].help);
		}
	}
	/* What the lines look like: names for keys, one Backspace for its three
	 * codes, a folded binding in its partner's line. */
	ui_help_line h[HELP_MAX];
	int n = ui_keys_help(UI_MODE_NORMAL, h, HELP_MAX);
	int page = 0, lesson = 0;
	for (int i = 0; i < n; i++) {
		page |= !strcmp(h[i].keys, "Backspace/Left/PgUp") && !strcmp(h[i].text, "back: up the page, then the previous");
		lesson |= !strcmp(h[i].keys, "]") && !strcmp(h[i].text, "next lesson ([: previous)");
	}
	assert_true(page && lesson);
	/* Too little room: the lines stop, nothing overflows. */
	assert_int_equal(ui_keys_help(UI_MODE_NORMAL, h, 3), 3);

	/* `?` lists every mode: the one it is asked in first, then a heading per other mode. */
	ui_help_line all[UI_HELP_MAX];
	int na = ui_keys_help_all(UI_MODE_WHATIF, all, UI_HELP_MAX);
	assert_true(na < UI_HELP_MAX);
	assert_string_equal(all[0].text, "the next row (Up/k/S-Tab: previous)");
	for (int m = 0; m < UI_NMODES; m++) {
		char head[64];
		snprintf(head, sizeof head, "In the %s:", ui_mode_name((ui_mode)m));
		int found = 0;
		for (int i = 0; i < na; i++)
			found |= !strcmp(all[i].text, head);
		if (found != (m != UI_MODE_WHATIF && m != UI_MODE_HELP))
			fail_msg("'%s' %s in the help of the what-if box", head, found ? "is" : "is not");
	}
}

/* ---- the boxes, driven by the keys the table gives ---- */

static char data[PATH_MAX];

static int make_dirs(void **st)
{
	(void)st;
	snprintf(data, sizeof data, "/tmp/ptxtutor-keys-XXXXXX");
	if (!mkdtemp(data))
		return -1;
	setenv("XDG_DATA_HOME", data, 1);
	setenv("XDG_STATE_HOME", data, 1);
	return 0;
}

static int remove_dirs(void **st)
{
	(void)st;
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", data);
	return system(cmd) == 0 ? 0 : -1;
}

static ui_app *open_app(void)
{
	course *c = calloc(1, sizeof *c);
	assert_non_null(c);
	assert_true(course_load(c, NULL, 0) > 0);
	gpu_table *g = calloc(1, sizeof *g);
	char err[256];
	assert_true(devices_load(g, err, sizeof err) > 0);
	ui_opts o = {.lesson = "1", .page = 0};
	ui_app *a = calloc(1, sizeof *a);
	assert_int_equal(ui_app_setup(a, &o, c, g, err, sizeof err), 0);
	free(g);
	ui_app_resize(a, 160, 48);
	return a;
}

static void press(ui_app *a, ui_mode m, ui_action act)
{
	assert_int_equal(a->mode, m);
	ui_app_key(a, key_for(m, act));
}

/* ? in a box lists that box's keys and goes back to it. */
static void help_and_back(ui_app *a, ui_mode m)
{
	press(a, m, UI_ACT_HELP);
	assert_int_equal(a->mode, UI_MODE_HELP);
	assert_int_equal(a->help_mode, m);
	ui_app_key(a, 'Z');
	assert_int_equal(a->mode, m);
}

static void test_every_mode_reachable(void **st)
{
	(void)st;
	ui_app *a = open_app();
	help_and_back(a, UI_MODE_NORMAL);

	press(a, UI_MODE_NORMAL, UI_ACT_WHATIF);
	help_and_back(a, UI_MODE_WHATIF);
	press(a, UI_MODE_WHATIF, UI_ACT_WHATIF_NEXT);
	assert_int_equal(a->whatif_sel, 1 % (ui_app_lesson(a)->nparams + 1));
	press(a, UI_MODE_WHATIF, UI_ACT_WHATIF_PREV);
	assert_int_equal(a->whatif_sel, 0);
	press(a, UI_MODE_WHATIF, UI_ACT_CLOSE);

	/* A page with an exercise. */
	int found = 0;
	for (int l = 0; l < a->course->n && !found; l++)
		for (int p = 0; p < a->course->l[l].npages && !found; p++)
			if (a->course->l[l].pages[p].nex > 0) {
				ui_app_select(a, l, p);
				found = 1;
			}
	assert_true(found);
	press(a, UI_MODE_NORMAL, UI_ACT_ANSWER);
	help_and_back(a, UI_MODE_ANSWER);
	press(a, UI_MODE_ANSWER, UI_ACT_ANSWER_TYPE);
	press(a, UI_MODE_ANSWER, UI_ACT_ANSWER_TYPE);
	assert_int_equal(strlen(a->answer), 2);
	press(a, UI_MODE_ANSWER, UI_ACT_ANSWER_DELETE);
	assert_int_equal(strlen(a->answer), 1);
	press(a, UI_MODE_ANSWER, UI_ACT_ANSWER_CHECK);
	assert_int_equal(a->mode, UI_MODE_NORMAL);
	assert_int_not_equal(a->ex_verdict, 0);

	/* The diff needs an edit: the test plays the editor. */
	ui_app_select(a, 1, 0);
	press(a, UI_MODE_NORMAL, UI_ACT_EDIT);
	assert_int_equal(a->req, UI_REQ_EDIT);
	FILE *f = fopen(a->edit_path, "a");
	assert_non_null(f);
	fputs("// an edit\n", f);
	fclose(f);
	ui_app_edit_done(a, 1, NULL);
	a->req = UI_REQ_NONE;
	press(a, UI_MODE_NORMAL, UI_ACT_DIFF);
	help_and_back(a, UI_MODE_DIFF);
	assert_true(a->diff.n > 0);
	press(a, UI_MODE_DIFF, UI_ACT_DIFF_DOWN);
	press(a, UI_MODE_DIFF, UI_ACT_DIFF_PAGE_UP);
	assert_int_equal(a->diff_scroll, 0);
	press(a, UI_MODE_DIFF, UI_ACT_RESTORE);
	assert_int_equal(a->mode, UI_MODE_NORMAL);
	assert_int_equal(a->ptx[1].edited, 0);
	assert_int_equal(a->diff.n, 0);

	/* g: the menu; 8.2 and Enter go to lesson 8's second page. */
	press(a, UI_MODE_NORMAL, UI_ACT_MENU);
	help_and_back(a, UI_MODE_MENU);
	press(a, UI_MODE_MENU, UI_ACT_MENU_DOWN);
	press(a, UI_MODE_MENU, UI_ACT_MENU_UP);
	for (const char *k = "8.2"; *k; k++)
		ui_app_key(a, *k);
	press(a, UI_MODE_MENU, UI_ACT_MENU_GO);
	assert_int_equal(a->mode, UI_MODE_NORMAL);
	assert_int_equal(ui_app_lesson(a)->number, 8);
	assert_int_equal(a->page, 1);

	/* /: a search of the lesson texts and PTX; Enter lands on the first hit
	 * from here (hit 1), n the next, N back, as in less. */
	ui_app_select(a, 1, 0);
	press(a, UI_MODE_NORMAL, UI_ACT_SEARCH);
	for (const char *k = "LDMATRIX"; *k; k++)
		ui_app_key(a, *k);
	press(a, UI_MODE_SEARCH, UI_ACT_SEARCH_DELETE);
	ui_app_key(a, 'X');
	press(a, UI_MODE_SEARCH, UI_ACT_SEARCH_GO);
	assert_int_equal(a->mode, UI_MODE_NORMAL);
	assert_true(a->nhits > 1);
	const ui_hit *hit = &a->hits[a->hit];
	assert_int_equal(hit->lesson, a->lesson);
	assert_int_equal(hit->page, a->page);
	if (hit->ptx_line < 0)
		assert_non_null(strcasestr(ui_app_page(a)->text, "ldmatrix"));
	assert_int_equal(a->hit, 0);
	assert_non_null(strstr(a->msg, "hit 1 of"));
	int lesson = a->lesson;
	press(a, UI_MODE_NORMAL, UI_ACT_NEXT_HIT);
	assert_int_equal(a->hit, 1);
	assert_non_null(strstr(a->msg, "hit 2 of"));
	assert_non_null(strstr(a->msg, "(n next, N back)"));
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, 'n'), UI_ACT_NEXT_HIT);
	press(a, UI_MODE_NORMAL, UI_ACT_PREV_HIT);
	press(a, UI_MODE_NORMAL, UI_ACT_PREV_HIT);
	assert_int_equal(a->hit, a->nhits - 1); /* round the course */
	press(a, UI_MODE_NORMAL, UI_ACT_NEXT_HIT);
	assert_int_equal(a->lesson, lesson);
	assert_true(a->hit_marks);
	press(a, UI_MODE_NORMAL, UI_ACT_CANCEL); /* Esc unmarks them; n marks them again */
	assert_false(a->hit_marks);
	press(a, UI_MODE_NORMAL, UI_ACT_NEXT_HIT);
	assert_true(a->hit_marks);
	/* The lessons moved to ] and [ (n is the next hit); the clicker keys stay. */
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, ']'), UI_ACT_NEXT_LESSON);
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, '['), UI_ACT_PREV_LESSON);
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, UI_KEY_PGDN), UI_ACT_NEXT_PAGE);
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, UI_KEY_RIGHT), UI_ACT_NEXT_PAGE);
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, ' '), UI_ACT_NEXT_PAGE);
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, UI_KEY_PGUP), UI_ACT_PREV_PAGE);
	assert_int_equal(ui_key_action(UI_MODE_NORMAL, UI_KEY_LEFT), UI_ACT_PREV_PAGE);

	/* q closes every box the same way, the help included; in the panes it quits. */
	const struct {
		ui_action open;
		ui_mode m;
	} boxes[] = {{UI_ACT_HELP, UI_MODE_HELP}, {UI_ACT_WHATIF, UI_MODE_WHATIF}, {UI_ACT_MENU, UI_MODE_MENU}};
	for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++) {
		press(a, UI_MODE_NORMAL, boxes[i].open);
		assert_int_equal(a->mode, boxes[i].m);
		ui_app_key(a, 'q');
		assert_int_equal(a->mode, UI_MODE_NORMAL);
		assert_false(a->quit);
	}
	assert_int_equal(ui_key_action(UI_MODE_ANSWER, 'q'), UI_ACT_CLOSE);
	assert_int_equal(ui_key_action(UI_MODE_DIFF, 'q'), UI_ACT_CLOSE);
	ui_app_key(a, 'q');
	assert_true(a->quit);
	ui_app_free(a);
	free(a);
}

/* ---- the hints on screen name the keys the table binds ---- */

/* The shipped names, as the hints have always written them. */
static void test_key_names(void **st)
{
	(void)st;
	assert_string_equal(ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL), "Esc");
	assert_string_equal(ui_key_name(UI_MODE_NORMAL, UI_ACT_NEXT_PAGE), "Space");
	assert_string_equal(ui_key_name(UI_MODE_NORMAL, UI_ACT_HELP), "?");
	assert_string_equal(ui_key_name(UI_MODE_NORMAL, UI_ACT_NEXT_HIT), "n");
	assert_string_equal(ui_key_name(UI_MODE_NORMAL, UI_ACT_PREV_HIT), "N");
	assert_string_equal(ui_key_name(UI_MODE_HELP, UI_ACT_HELP_DOWN), "j");   /* its hint key, not Down */
	assert_string_equal(ui_key_name(UI_MODE_WHATIF, UI_ACT_WHATIF_HALVE), "Left");
	assert_string_equal(ui_key_name(UI_MODE_HELP, UI_ACT_CLOSE), "any other key");
	assert_string_equal(ui_key_name(UI_MODE_MENU, UI_ACT_MENU_GO), "Enter");
	assert_string_equal(ui_key_name(UI_MODE_ANSWER, UI_ACT_ANSWER_TYPE), "0"); /* the first of its chars */
	assert_string_equal(ui_key_name(UI_MODE_SEARCH, UI_ACT_QUIT), "");        /* not bound there */
}

/* The whole screen as text, one row a line. */
static const char *screen(const ui_app *a)
{
	static char buf[1 << 16];
	ui_frame f;
	ui_frame_init(&f, 1, 1);
	ui_draw(a, &f);
	size_t o = 0;
	for (int y = 0; y < f.rows && o + 2 < sizeof buf; y++) {
		o += (size_t)ui_frame_row_text(&f, y, buf + o, sizeof buf - o - 2);
		buf[o++] = '\n';
	}
	buf[o] = '\0';
	ui_frame_free(&f);
	return buf;
}

#define HAS(text, want)                                                                                                \
	do {                                                                                                           \
		if (!strstr((text), (want)))                                                                           \
			fail_msg("'%s' is not on the screen or in the message:\n%s", (want), (text));                  \
	} while (0)

/* Every hint that names a key, with the keys rebound in a test table: each
 * hint follows (no key name is written into a string outside ui/keys.c). */
static void test_hints_follow_the_bindings(void **st)
{
	(void)st;
	static const struct {
		ui_mode m;
		ui_action act;
		int key;
	} rebind[] = {
		{UI_MODE_NORMAL, UI_ACT_HELP, 'H'},         {UI_MODE_NORMAL, UI_ACT_QUIT, 'Q'},
		{UI_MODE_NORMAL, UI_ACT_NEXT_PAGE, 'V'},    {UI_MODE_NORMAL, UI_ACT_MENU, 'G'},
		{UI_MODE_NORMAL, UI_ACT_SEARCH, 'F'},       {UI_MODE_NORMAL, UI_ACT_NEXT_LESSON, 'W'},
		{UI_MODE_NORMAL, UI_ACT_PREV_LESSON, 'B'},  {UI_MODE_NORMAL, UI_ACT_RUN, 'U'},
		{UI_MODE_NORMAL, UI_ACT_WHATIF, 'T'},       {UI_MODE_NORMAL, UI_ACT_CANCEL, 'X'},
		{UI_MODE_NORMAL, UI_ACT_NEXT_HIT, 'M'},     {UI_MODE_NORMAL, UI_ACT_PREV_HIT, 'Y'},
		{UI_MODE_HELP, UI_ACT_HELP_DOWN, 'J'},
		{UI_MODE_HELP, UI_ACT_HELP_UP, 'K'},        {UI_MODE_HELP, UI_ACT_HELP_PAGE_DOWN, 'D'},
		{UI_MODE_WHATIF, UI_ACT_CLOSE, 'C'},        {UI_MODE_WHATIF, UI_ACT_WHATIF_HALVE, 'A'},
		{UI_MODE_WHATIF, UI_ACT_WHATIF_DOUBLE, 'B'}, {UI_MODE_WHATIF, UI_ACT_WHATIF_RESET, 'Z'},
		{UI_MODE_MENU, UI_ACT_MENU_GO, 'O'},        {UI_MODE_MENU, UI_ACT_CLOSE, 'C'},
		{UI_MODE_SEARCH, UI_ACT_SEARCH_GO, UI_KEY_TAB}, {UI_MODE_SEARCH, UI_ACT_CLOSE, UI_KEY_HOME},
		{UI_MODE_ANSWER, UI_ACT_ANSWER_CHECK, 'K'}, {UI_MODE_ANSWER, UI_ACT_CLOSE, 'C'},
		{UI_MODE_DIFF, UI_ACT_RESTORE, 'Y'},        {UI_MODE_DIFF, UI_ACT_DIFF_DOWN, 'J'},
		{UI_MODE_DIFF, UI_ACT_DIFF_UP, 'K'},        {UI_MODE_DIFF, UI_ACT_DIFF_PAGE_DOWN, 'D'},
		{UI_MODE_DIFF, UI_ACT_CLOSE, 'C'},          {UI_MODE_NORMAL, UI_ACT_REGION, 'E'},
		{UI_MODE_NORMAL, UI_ACT_ANSWER, 'I'},       {UI_MODE_NORMAL, UI_ACT_HINT, 'L'},
		{UI_MODE_NORMAL, UI_ACT_SOLUTION, 'P'},     {UI_MODE_NORMAL, UI_ACT_FOCUS_NEXT, 'D'},
		{UI_MODE_NORMAL, UI_ACT_ZOOM, 'Z'},         {UI_MODE_NORMAL, UI_ACT_SASS, 'A'},
		{UI_MODE_NORMAL, UI_ACT_SCROLL_DOWN, 'J'},  {UI_MODE_NORMAL, UI_ACT_SCROLL_UP, 'K'},
	};
	static ui_binding t[256];
	assert_true(ui_nbindings <= (int)ARRAY_LEN(t));
	memcpy(t, ui_bindings, (size_t)ui_nbindings * sizeof *t);
	for (size_t r = 0; r < ARRAY_LEN(rebind); r++) {
		int done = 0;
		for (int i = 0; i < ui_nbindings; i++)
			if (t[i].mode == rebind[r].m && t[i].act == rebind[r].act) {
				t[i].keys[0] = rebind[r].key;
				t[i].keys[1] = 0;
				t[i].hint = 0;
				done = 1;
			}
		assert_true(done);
	}
	ui_keys_use(t, ui_nbindings);
	ui_app *a = open_app();

	const char *s = screen(a);
	HAS(s, "H help");
	HAS(s, "Q quit");
	HAS(s, "V read on");
	HAS(s, "G go to");
	HAS(s, "F search");
	HAS(s, "W/B lesson");
	HAS(s, "U run");
	HAS(s, "T what-if");
	assert_null(strstr(s, "? help"));

	ui_app_key(a, 'H');
	HAS(screen(a), "(J/K/D scroll, any other key closes)");
	ui_app_key(a, 'z');
	ui_app_key(a, 'T');
	assert_int_equal(a->mode, UI_MODE_WHATIF);
	s = screen(a);
	HAS(s, "What if ... (C closes)");
	HAS(s, "A/B halve/double, Z resets");
	ui_app_key(a, 'C');
	ui_app_key(a, 'G');
	assert_int_equal(a->mode, UI_MODE_MENU);
	HAS(screen(a), "Go to (a number: 8 or 8.2, O goes, C closes)");
	ui_app_key(a, 'C');
	assert_int_equal(a->mode, UI_MODE_NORMAL);

	ui_app_key(a, 'F');
	for (const char *k = "ldmatrix"; *k; k++)
		ui_app_key(a, *k);
	HAS(screen(a), "Tab finds, Home cancels");
	ui_app_key(a, UI_KEY_TAB);
	assert_true(a->mode == UI_MODE_NORMAL && a->nhits > 1);
	HAS(a->msg, "(M next, Y back)");
	ui_app_key(a, 'M');
	HAS(a->msg, "(M next, Y back)");

	for (int l = 0, found = 0; l < a->course->n && !found; l++)
		for (int p = 0; p < a->course->l[l].npages && !found; p++)
			if (a->course->l[l].pages[p].nex > 0) {
				ui_app_select(a, l, p);
				found = 1;
			}
	HAS(screen(a), "I answer  L hint  P worked answer");
	ui_app_key(a, 'I');
	assert_int_equal(a->mode, UI_MODE_ANSWER);
	HAS(screen(a), "K checks, C cancels");
	ui_app_key(a, 'C');

	/* The diff of an edit (the test plays the editor). */
	ui_app_select(a, 1, 0);
	ui_app_key(a, key_for(UI_MODE_NORMAL, UI_ACT_EDIT));
	FILE *f = fopen(a->edit_path, "a");
	assert_non_null(f);
	fputs("// an edit\n", f);
	fclose(f);
	ui_app_edit_done(a, 1, NULL);
	a->req = UI_REQ_NONE;
	ui_app_key(a, key_for(UI_MODE_NORMAL, UI_ACT_DIFF));
	assert_int_equal(a->mode, UI_MODE_DIFF);
	HAS(screen(a), "Y restores the original  J/K/D scroll  C closes");
	ui_app_key(a, 'Y');
	assert_int_equal(a->mode, UI_MODE_NORMAL);

	/* A run: how to cancel it, while it runs and when asked for another or an edit. */
	ui_app_key(a, 'U');
	assert_int_equal(a->req, UI_REQ_RUN);
	ui_app_run_started(a, 100.0, NULL);
	HAS(a->msg, "(X cancels)");
	ui_app_key(a, 'U');
	HAS(a->msg, "X cancels it");
	ui_app_key(a, key_for(UI_MODE_NORMAL, UI_ACT_EDIT));
	HAS(a->msg, "press X, then edit");
	/* A JIT check of an edit that passes says which key runs it. */
	run_result res;
	memset(&res, 0, sizeof res);
	res.status = RUN_OK;
	res.regs = 40;
	a->run_was_check = 1;
	ui_app_run_finished(a, &res);
	HAS(a->msg, "U runs it");

	/* A page that highlights several regions names the key to the next in the PTX title. */
	for (int l = 0, found = 0; l < a->course->n && !found; l++)
		for (int p = 0; p < a->course->l[l].npages && !found; p++)
			if (a->course->l[l].ptx_path[0] && a->course->l[l].pages[p].nanchors > 1) {
				ui_app_select(a, l, p);
				found = 1;
			}
	HAS(screen(a), "E: next)");
	ui_app_key(a, 'Z');
	HAS(a->msg, "(D: the next one; Z: back)");
	ui_app_key(a, 'Z');
	ui_app_key(a, 'A');
	s = screen(a);
	if (!strstr(s, "(A: PTX)") && !strstr(s, "(A: machine order)"))
		fail_msg("the SASS title does not name A:\n%s", s);

	ui_app_resize(a, 40, 8); /* too small for the panes */
	HAS(screen(a), "press Q.");

	ui_app_free(a);
	free(a);
	ui_keys_use(NULL, 0);
	assert_string_equal(ui_key_name(UI_MODE_NORMAL, UI_ACT_CANCEL), "Esc");
}

/* n walks each occurrence on a page before the next page, as less does,
 * at 80x24 scrolling the page to one out of view and not back to its top. */
static void test_search_each_occurrence(void **st)
{
	(void)st;
	ui_app *a = open_app();
	ui_app_resize(a, 80, 24);
	press(a, UI_MODE_NORMAL, UI_ACT_SEARCH);
	for (const char *k = "thread"; *k; k++)
		ui_app_key(a, *k);
	press(a, UI_MODE_SEARCH, UI_ACT_SEARCH_GO);
	assert_true(a->nhits > 3);
	/* lesson 1's first page says "thread" more than once: hits 1 and 2 are there */
	assert_int_equal(a->hits[0].lesson, a->lesson);
	assert_int_equal(a->hits[0].page, 0);
	assert_int_equal(a->hits[1].page, 0);
	assert_int_equal(a->hits[1].nth, 1);
	int k = 0, scrolled = 0;
	while (a->hits[k + 1].lesson == a->lesson && a->hits[k + 1].page == 0) {
		int before = a->scroll[UI_PANE_LESSON];
		press(a, UI_MODE_NORMAL, UI_ACT_NEXT_HIT);
		k++;
		assert_int_equal(a->page, 0);
		assert_true(a->scroll[UI_PANE_LESSON] >= before); /* never back to the top */
		scrolled |= a->scroll[UI_PANE_LESSON] > 0;
	}
	assert_true(scrolled); /* 80x24 shows a few lines: the later ones are further down */
	press(a, UI_MODE_NORMAL, UI_ACT_NEXT_HIT);
	assert_true(a->page != 0 || a->lesson != 1);
	ui_app_free(a);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_action_bound_and_handled),
		cmocka_unit_test(test_no_key_bound_twice_in_a_mode),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_every_mode_has_help_that_fits),
		cmocka_unit_test(test_every_mode_reachable),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_hints_follow_the_bindings),
		cmocka_unit_test(test_search_each_occurrence),
	};
	return cmocka_run_group_tests(tests, make_dirs, remove_dirs);
}
