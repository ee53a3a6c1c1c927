/* ui/term: curses setup and teardown, frame → screen, keys, and the signal handlers that never lose the terminal. */
#define _XOPEN_SOURCE_EXTENDED 1
#include "ui/term.h"

#include "ui/palette.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <termios.h>

volatile sig_atomic_t ui_term_signal;

static int open_now;
static const ui_theme *theme;
static int colours; /* colour pairs in use */
static int utf8;

int ui_term_utf8(void)
{
	static int known = -1;
	if (known < 0) {
		setlocale(LC_ALL, "");
		const char *cs = nl_langinfo(CODESET);
		known = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
	}
	return known;
}

/* The self-pipe: the handler writes a byte, so a signal that lands between
 * the loop's check of ui_term_signal and its poll() still wakes the poll
 * (an idle poll waits for ever: the signal was lost until the next key).
 * A resize too: curses' own SIGWINCH handler only marks a KEY_RESIZE for
 * the next getch, which an idle poll never reaches. */
static int wake[2] = {-1, -1};
static struct sigaction curses_winch; /* curses' SIGWINCH handler, which on_winch chains to */

static void wake_loop(void)
{
	if (wake[1] >= 0) {
		int saved = errno;
		ssize_t ignored = write(wake[1], "", 1);
		(void)ignored;
		errno = saved;
	}
}

static void on_quit(int sig)
{
	ui_term_signal = sig;
	wake_loop();
}

static void on_winch(int sig, siginfo_t *info, void *ctx)
{
	if (curses_winch.sa_flags & SA_SIGINFO)
		curses_winch.sa_sigaction(sig, info, ctx);
	else if (curses_winch.sa_handler != SIG_DFL && curses_winch.sa_handler != SIG_IGN)
		curses_winch.sa_handler(sig);
	wake_loop();
}

int ui_term_signal_fd(void)
{
	return wake[0];
}

void ui_term_signal_drain(void)
{
	char buf[64];
	while (wake[0] >= 0 && read(wake[0], buf, sizeof buf) > 0)
		;
}

/* A crash: give the terminal back first, then die of the same signal. */
static void on_fatal(int sig)
{
	if (open_now) {
		endwin();
		open_now = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void handlers(void)
{
	if (wake[0] < 0 && pipe(wake) == 0)
		for (int i = 0; i < 2; i++) {
			fcntl(wake[i], F_SETFL, O_NONBLOCK);
			fcntl(wake[i], F_SETFD, FD_CLOEXEC);
		}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit; /* no SA_RESTART: poll() returns so the loop sees it */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	/* A worker that died must not take the UI with it on the next write. */
	signal(SIGPIPE, SIG_IGN);
}

static attr_t attrs_of(unsigned char a)
{
	attr_t r = A_NORMAL;
	if (a & UI_A_BOLD)
		r |= A_BOLD;
	if (a & UI_A_REVERSE)
		r |= A_REVERSE;
	if (a & UI_A_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & UI_A_DIM)
		r |= A_DIM;
	return r;
}

void ui_term_colours(const ui_theme *t)
{
	theme = t;
	colours = t->colour && has_colors() && COLORS >= 8 && COLOR_PAIRS > 2 * UI_NROLES;
	if (!colours)
		return;
	use_default_colors();
	/* A terminal of 8 or 16 colours gets the nearest of its own. */
	int n = COLORS >= 256 ? 256 : COLORS >= 16 ? 16 : 8;
	short hl = (short)ui_palette_reduce(n < 256 ? t->hl_bg8 : t->hl_bg, n);
	for (int r = 0; r < UI_NROLES; r++) {
		short fg = (short)ui_palette_reduce(t->role[r].fg, n), bg = (short)ui_palette_reduce(t->role[r].bg, n);
		init_pair((short)(1 + r), fg, bg);
		init_pair((short)(1 + UI_NROLES + r), fg, hl);
	}
	/* The background of empty space follows the theme (projector themes paint it). */
	bkgdset(COLOR_PAIR(1));
}

void ui_term_blit(void *window, const ui_frame *f, const ui_theme *t)
{
	WINDOW *w = window;
	utf8 = ui_term_utf8();
	int use_colour = t->colour && colours;
	for (int y = 0; y < f->rows; y++) {
		for (int x = 0; x < f->cols; x++) {
			const ui_cell *c = &f->cells[y * f->cols + x];
			const ui_style *st = &t->role[c->role < UI_NROLES ? c->role : 0];
			attr_t a = attrs_of(st->attr);
			short pair = 0;
			if (use_colour)
				pair = (short)(1 + c->role + ((c->flags & UI_CELL_HL) ? UI_NROLES : 0));
			else if (c->flags & UI_CELL_HL)
				a |= attrs_of(t->hl_attr);
			if ((c->flags & UI_CELL_HL) && use_colour)
				a &= ~(attr_t)A_REVERSE;
			wchar_t wc[2] = {(wchar_t)c->ch, 0};
			if (!utf8 && c->ch > 126)
				wc[0] = '?';
			cchar_t cc;
			setcchar(&cc, wc, a, pair, NULL);
			mvwadd_wch(w, y, x, &cc);
		}
	}
}

int ui_term_open(const ui_theme *t, char *err, int errlen)
{
	utf8 = ui_term_utf8();
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, (size_t)errlen, "the tutor needs a terminal (try `ptxtutor show LESSON --screen`)");
		return -1;
	}
	handlers();
	/* newterm, not initscr: initscr exits by itself on a bad TERM. */
	if (!newterm(NULL, stdout, stdin)) {
		snprintf(err, (size_t)errlen, "cannot start curses on this terminal (TERM=%s)",
			 getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	open_now = 1;
	/* After newterm, which installs curses' SIGWINCH handler: ours calls it, then wakes the loop. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_winch;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGWINCH, &sa, &curses_winch);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	/* C-s and C-q are the inline editor's save and leave, not XOFF/XON. */
	struct termios tio;
	if (tcgetattr(STDIN_FILENO, &tio) == 0) {
		tio.c_iflag &= ~(tcflag_t)IXON;
		tcsetattr(STDIN_FILENO, TCSANOW, &tio);
		def_prog_mode();
	}
	/* Clicks and the wheel; no drag, so the terminal's own selection with
	 * Shift still works. */
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	mouseinterval(0);
	/* NO_COLOR means none at all: start_color alone makes curses paint white on black. */
	if (t->colour && has_colors())
		start_color();
	ui_term_colours(t);
	return 0;
}

void ui_term_close(void)
{
	if (!open_now)
		return;
	open_now = 0;
	curs_set(1);
	endwin();
}

void ui_term_suspend(void)
{
	if (!open_now)
		return;
	def_prog_mode();
	curs_set(1);
	endwin();
}

void ui_term_resume(void)
{
	if (!open_now)
		return;
	reset_prog_mode();
	curs_set(0);
	/* Keys typed for the editor are not for the tutor. */
	flushinp();
	clearok(curscr, TRUE);
}

void ui_term_size(int *cols, int *rows)
{
	*cols = COLS;
	*rows = LINES;
}

void ui_term_show(const ui_frame *f, int redraw_all)
{
	if (redraw_all)
		clearok(curscr, TRUE);
	ui_term_blit(stdscr, f, theme);
	wnoutrefresh(stdscr);
	doupdate();
}

/* curses' codes for the keys the tutor knows (ui/keycode.h). */
static const struct {
	int curses, ui;
} keymap[] = {
	{ERR, UI_KEY_NONE},
	{KEY_RESIZE, UI_KEY_RESIZE},
	{'\r', UI_KEY_ENTER},
	{KEY_ENTER, UI_KEY_ENTER},
	{KEY_UP, UI_KEY_UP},
	{KEY_DOWN, UI_KEY_DOWN},
	{KEY_LEFT, UI_KEY_LEFT},
	{KEY_RIGHT, UI_KEY_RIGHT},
	{KEY_PPAGE, UI_KEY_PGUP},
	{KEY_NPAGE, UI_KEY_PGDN},
	{KEY_BACKSPACE, UI_KEY_BACKSPACE},
	{KEY_BTAB, UI_KEY_BTAB},
	{KEY_HOME, UI_KEY_HOME},
	{KEY_END, UI_KEY_END},
	{KEY_DC, UI_KEY_DELETE},
	{KEY_MOUSE, UI_KEY_MOUSE},
};

/* The last mouse event, in the UI's terms. */
static struct {
	ui_mouse_kind kind;
	int x, y;
} mouse;

/* curses' buttons for the mouse events the tutor knows. */
static void take_mouse(void)
{
	MEVENT ev;
	mouse.kind = UI_MOUSE_NONE;
	if (getmouse(&ev) != OK)
		return;
	mouse.x = ev.x, mouse.y = ev.y;
	if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		mouse.kind = UI_MOUSE_CLICK;
	else if (ev.bstate & BUTTON4_PRESSED)
		mouse.kind = UI_MOUSE_WHEEL_UP;
#ifdef BUTTON5_PRESSED
	else if (ev.bstate & BUTTON5_PRESSED)
		mouse.kind = UI_MOUSE_WHEEL_DOWN;
#endif
}

ui_mouse_kind ui_term_mouse(int *x, int *y)
{
	*x = mouse.x, *y = mouse.y;
	return mouse.kind;
}

int ui_term_key(void)
{
	int ch = getch();
	if (ch == KEY_MOUSE)
		take_mouse();
	for (size_t i = 0; i < sizeof keymap / sizeof keymap[0]; i++)
		if (keymap[i].curses == ch)
			return keymap[i].ui;
	/* Bytes pass as they are; other curses codes must not pass for keys the tutor knows. */
	return ch >= 0 && ch <= 255 ? ch : UI_KEY_OTHER;
}
