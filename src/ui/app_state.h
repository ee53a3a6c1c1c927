/* ui/app_state: the tutor's state as one struct, and the read-only questions update and draw both ask of it (lesson, page, PTX view rows). */
#ifndef PTXTUTOR_UI_APP_STATE_H
#define PTXTUTOR_UI_APP_STATE_H

#include "model/devices.h"
#include "course/lesson.h"
#include "course/state.h"
#include "model/model.h"
#include "course/ptx.h"
#include "course/puzzle.h"
#include "exec/puzzle_check.h"
#include "course/sass.h"
#include "run/run.h"
#include "exec/warpview.h"
#include "exec/estimate.h"
#include "exec/stalls.h"
#include "course/userptx.h"
#include "course/ptxloc.h"
#include "ui/edbuf.h"
#include "ui/keys.h"
#include "ui/layout.h"
#include "ui/theme.h"

#define UI_MIX_MAX 24
#define UI_SIZE_MIN 64
#define UI_SIZE_MAX 16384
#define UI_SIZE_DEFAULT 4096

typedef enum { UI_RUN_IDLE, UI_RUN_BUSY } ui_run_state;
/* What the update code asks the event loop to do (it owns the worker). */
/* UI_REQ_EDIT: open edit_path in $EDITOR, then call ui_app_edit_done; or,
 * with no $EDITOR, read it and call ui_app_editor_open (the inline editor). */
/* UI_REQ_SAVE: write the inline editor's text (edbuf_text of ed) to
 * edit_path, then call ui_app_editor_saved. */
/* UI_REQ_SASS: compile and disassemble the current lesson's PTX (the file in
 * ui_ptx.path), then call ui_app_sass_done. */
/* UI_REQ_SASS_CANCEL: stop that build, then call ui_app_sass_cancelled. */
/* UI_REQ_PUZZLE: check pz_path against puzzle pz_sel (exec/puzzle_job.h, in
 * a child), then call ui_app_puzzle_done. */
typedef enum { UI_REQ_NONE, UI_REQ_RUN, UI_REQ_CANCEL, UI_REQ_EDIT, UI_REQ_SASS, UI_REQ_PUZZLE, UI_REQ_SAVE,
	       UI_REQ_SASS_CANCEL } ui_request;

#define UI_MARKS_MAX 16

/* Your lines beside ours (B, app_run.c): after a run of an edited kernel,
 * the shipped kernel emulated with the same launch and size (through the
 * loop's per-line job, as a GPU run's counts are), its lines matched to the
 * edit's by content (base/linediff), drawn beside the edit's counts in the
 * PTX pane. */
#define UI_BASE_LINES 8192
typedef struct {
	int view;                /* B: on */
	int want, job;           /* the next per-line job is the baseline's; the one running is */
	int state;               /* 0 none, 2 running, 1 ready, -1 failed (res.msg says why) */
	int lesson;              /* whose edit it stands beside */
	run_result res;          /* the shipped kernel's run */
	int of[UI_BASE_LINES];   /* the edit's line i + 1: the shipped kernel's line it is; 0: its own */
	int gone;                /* the shipped kernel's lines with counts that the edit has not */
} ui_baseline;

/* A lesson's last run: its result, whether there is one, and whether it is
 * a check after an edit rather than a timed run. */
typedef struct {
	run_result res;
	int have;
	int check;
	int refused;             /* res is the tutor's refusal to send the run (a model-only what-if ...): msg says why */
	/* After a GPU run: the emulator's per-line counts at an emulation size,
	 * made in a child by the loop (ui_app_lines_request). */
	run_result lines;
	int have_lines;          /* 1: lines; -1: the emulation failed (lines.msg says why); 0: none yet */
} ui_run_slot;

/* A warp's view of one memory access (exec/warpview.h) as text rows, made
 * by the update code (ui/app_warp.c) and drawn by the warp box (w) and the
 * lesson pane (@warpview). */
typedef struct {
	int have;                /* rows hold the view, or err why not */
	exec_warp_access wa;     /* what was asked (line, block, warp, nth) and recorded */
	long long size;          /* the emulation's M = N = K */
	char rows[EXEC_WARP_ROWS][EXEC_WARP_COLS];
	int nrows;
	int head;                /* rows before the view's own: the PTX line, and its CUDA line when nvcc recorded one */
	char err[256];
} ui_warpview;

/* A recording the warp views keep (ui/app_warp.c): the request, the asked
 * access and the PTX's reload count it was made for, and what came of it, so
 * that paging back to a page or pressing w again does not emulate again. */
#define UI_WARP_MEMOS 8
typedef struct {
	int used;
	unsigned gen;            /* ui_estimate.gen: bumped at every reload of a PTX (an edit) */
	run_request rq;
	exec_warp_access wa;     /* as recorded */
	int rc;
	char err[256];
} ui_warp_memo;

/* A lesson's kernel as shown: the parsed PTX and its static instruction mix. */
typedef struct {
	int loaded;              /* tried (ok or not) */
	int ok;
	char err[256];
	ptx_doc doc;
	ptx_mix_entry mix[UI_MIX_MAX];
	int nmix, mix_total;
	int edited;              /* shown and run from the student's copy (src/course/userptx.c) */
	char path[RUN_PATH];     /* the file shown and run: the shipped one or the copy */
	/* The lines the last run's JIT or emulator complained about, shown under
	 * their lines. In the PTX view a row with hidden < 0 is the message of
	 * mark -hidden-1, under its line. */
	userptx_mark marks[UI_MARKS_MAX];
	int nmarks;
	int example;             /* a lesson without a kernel: the PTX example of its text */
	/* Whether the CPU emulator runs this kernel: 0 yes, else why not
	 * (emu_error; EMU_ERR_UNSUPPORTED: instructions it does not implement),
	 * with its one line. Asked once, when the PTX loads. */
	int emu_refuses;
	char emu_why[200];
	/* S: what ptxas made of it, asked once per load of the PTX (a reload
	 * forgets it). 0 not asked, 1 asked, 2 here, -1 failed: sass_why says why. */
	int sass_state;
	sass_kernel sass;
	char sass_why[512];
	/* nvcc's line information (.file/.loc, -lineinfo) and the .cu the CUDA
	 * pane shows: the file most of the PTX lines come from, found where nvcc
	 * recorded it or beside the PTX (ptx_loc_source). locs NULL: none;
	 * cu_text NULL: the .cu was not found (cu_why says where it looked). */
	ptx_locs *locs;
	int cu_file;             /* the index in locs->files of the file shown */
	char cu_path[RUN_PATH];
	char *cu_text;           /* owned */
	int *cu_off;             /* cu_nlines + 1 offsets into cu_text: line i (0-based) is [cu_off[i], cu_off[i+1]) */
	int cu_nlines;
	char cu_why[RUN_PATH + 64];
} ui_ptx;

/* A hit of `/`: an occurrence in a lesson page's text, or a line of its PTX. */
typedef struct {
	int lesson, page;
	int ptx_line;            /* 0-based line of the PTX; -1: in the page's text */
	int nth;                 /* in the page's text: which occurrence (0: the first) */
} ui_hit;
#define UI_HITS_MAX 512

/* The time estimate of the numbers pane: wanted when what it depends on
 * (lesson, what-ifs, size, GPU, the PTX) changed; made in a child by the
 * loop (cmd_tui), which reports with ui_app_estimate_done. */
typedef enum { UI_EST_NONE, UI_EST_WANT, UI_EST_BUSY, UI_EST_DONE, UI_EST_FAILED } ui_est_state;
typedef struct {
	ui_est_state state;
	char key[512];           /* what it was made for (app_estimate_key) */
	unsigned gen;            /* bumped when a PTX copy is reloaded: part of the key */
	estimate e;
	long long blocks_run, blocks;
	char why[320];           /* UI_EST_FAILED: one line */
} ui_estimate;

/* W: why each line waits (exec/stalls.h), as a column of the PTX and CUDA panes and a line of the
 * numbers pane; made in a child by the loop, as the estimate is, for what it depends on (the
 * estimate's key and the registers): wanted while the column is on and that changed. */
typedef enum { UI_STALLS_NONE, UI_STALLS_WANT, UI_STALLS_BUSY, UI_STALLS_DONE, UI_STALLS_FAILED } ui_stalls_state;
typedef struct {
	int view;                /* W: on */
	ui_stalls_state state;
	char key[560];           /* what it was made for (app_want_stalls) */
	exec_stalls_brief *b;    /* UI_STALLS_DONE: the result (owned; allocated at the first) */
	char why[320];           /* UI_STALLS_FAILED: one line */
} ui_stalls;

/* Command-line choices. */
typedef struct {
	int present, ascii;
	const char *no_gpu;      /* why there is no GPU here (cmd_tui looked); NULL: there may be one */
	const char *theme;       /* NULL: the default for the mode */
	const char *no_color;    /* getenv("NO_COLOR") */
	const char *gpu;         /* --gpu NAME; NULL: the table's default */
	long long M, N, K;       /* 0: UI_SIZE_DEFAULT */
	const char *lesson;      /* start here (number or id); NULL: the saved state */
	int page;                /* with lesson; -1: from the saved state */
	const expr_env *set;     /* --set overrides; may be NULL */
	double deadline_s;       /* PTXTUTOR_DEADLINE_S: every run's deadline; 0: the usual ones */
} ui_opts;

typedef struct {
	course *course;          /* owned */
	int have_gpus;           /* the GPU table loaded: the model has figures */
	gpu_spec gpu;            /* the device the model uses */
	int gpu_live;            /* gpu came from a run on a real device */

	int lesson, page;
	int focus;               /* a ui_pane */
	int zoom;                /* the focused pane fills the screen (f) */
	int side;                /* UI_PANE_NUMBERS or UI_PANE_RUN: what a tabbed slot shows */
	int scroll[UI_NPANES];
	int ptx_follow;          /* the PTX view follows the page's anchor */
	int region;              /* which of the page's @ptx regions it follows (c cycles) */
	int ptx_goto;            /* a line the PTX view shows (a search hit); -1: none */
	int numbers_follow;      /* the numbers pane shows the page's @numbers section */
	int grow;                /* < and >: the lesson pane's extra steps (ui_layout_compute) */
	int swap;                /* o: the PTX and the numbers slot change places */
	int fold;                /* fold long repetitive runs */
	int sass_view;           /* S: the PTX pane shows the SASS of the page's region (ui/sass_rows.h: by PTX line, in the machine's order) */
	int sass_scroll;         /* its first row */
	int sass_cursor;         /* its cursor row (j/k): marks the PTX line of a SASS row, the SASS of a PTX line */
	int ptx_cols;            /* L: the per-line columns after a run (ui/ptx_counts.h's ui_cols_mode) */
	int ptx_cursor;          /* H: the 1-based PTX line selected (a hot line); 0: none */
	ui_warpview warp;        /* w: the box's view of the cursor's line */
	/* C: the CUDA pane beside the PTX (layout.cuda), for a kernel nvcc
	 * compiled with line information: shown unless turned off (cuda_off);
	 * its cursor's line (1-based; 0 none), which marks its PTX lines; its
	 * first row; whether the PTX slot's focus is on it rather than the PTX. */
	int cuda_off;
	int cu_line;
	int cu_scroll;
	int cu_focus;
	int own;                 /* the lesson that runs the student's own kernel (--ptx, --cu); -1: none */
	ui_warpview page_warp;   /* @warpview: the page's view, remade with the model (what-ifs, edits) */
	ui_warp_memo warp_memo[UI_WARP_MEMOS]; /* the last recordings, the oldest replaced first */
	int warp_memo_next;
	long long M, N, K;
	expr_env whatif;         /* parameter overrides for the current lesson */
	int regs_override;       /* what-if registers per thread; 0: none */
	int whatif_sel;

	model_result model;
	ui_estimate est;         /* the numbers pane's time estimate, made in a child (exec/estimate.h) */
	ui_stalls stalls;        /* W: the stall model's column and line */
	int lines_want;          /* a lesson whose GPU run wants the emulator's per-line counts; -1: none */
	ui_baseline base;        /* B: the shipped kernel's per-line counts beside an edit's */
	/* The model under the current exercise's overrides, for its hint and
	 * worked answer; computed when they are shown, not every frame. */
	model_result ex_model;
	int ex_model_ok;
	int model_ok;
	char model_err[256];
	ui_ptx *ptx;             /* one per lesson of the course */

	ui_run_state run;
	int run_lesson;
	double run_started, now;
	ui_run_slot *slot;       /* one per lesson of the course: its last run */
	ui_request req;
	int run_check;           /* the run asked for checks an edit: JIT only (or emulated) */
	int run_was_check;       /* the run going now is such a check */
	int run_emulated;        /* the run going now is on the CPU emulator */
	double run_deadline;     /* seconds after the start when the worker kills it */
	double deadline_s;       /* ui_opts.deadline_s */
	/* No GPU: the worker said so once, and runs go to the CPU emulator. */
	int offline;
	char offline_why[256];

	char edit_path[RUN_PATH];  /* UI_REQ_EDIT: the copy to open; UI_REQ_SAVE: to write */
	/* UI_MODE_EDITOR: the inline editor's buffer, the mode it returns to,
	 * whether it edits the puzzle's copy, and a leave asked once unsaved. */
	edbuf ed;
	ui_mode ed_back;
	int ed_puzzle;
	int ed_asked;
	userptx_diff diff;       /* UI_MODE_DIFF: the edit against the original */
	int diff_scroll;

	int ex;                  /* the exercise the answer keys act on */
	char answer[32];
	int ex_verdict;          /* 0 not answered, 1 right, -1 wrong */
	double ex_expected;
	int show_hint, show_solution;

	state_data progress;     /* pages read, exercises and puzzles solved, per lesson (course/state.c) */
	state_data progress_disk;/* what the state file held at the last load or save: a save writes only
				    what progress holds beyond it, merged into the file as it is then */
	int sync_want;           /* a solve or P: the loop saves now and takes in what others saved (ui_app_synced) */

	/* P: the puzzles of the course (lessons/puzzles/), the one selected (an
	 * index into puzzles.p, of the current lesson), and its last check. */
	puzzle_set puzzles;
	int pz_sel;
	int pz_hints;            /* hints shown of the selected puzzle */
	int pz_view;             /* 1: the lecturer view, its start beside its solution */
	int pz_scroll;
	int pz_editing;          /* the edit going on is the puzzle's copy */
	int pz_checking;         /* a check is running */
	int pz_checked;          /* of this puzzle (an index into puzzles.p) */
	int pz_have;             /* pz_out is the last check of pz_sel */
	puzzle_outcome pz_out;
	char pz_path[RUN_PATH];  /* the student's copy of the puzzle's PTX */
	char *pz_left, *pz_right;/* the lecturer view's texts (owned) */

	/* g: the menu of lessons and pages; a number typed there. */
	int menu_sel;
	char menu_num[8];
	/* /: the text typed, the hits of the last search and the one shown. */
	char search[64];
	char found[64];
	ui_hit *hits;            /* UI_HITS_MAX of them, the first at or after where it started */
	int nhits, hit;
	int hit_marks;           /* the panes mark the hits (Esc clears the marks, n and N bring them back) */

	ui_mode mode;
	ui_mode help_mode;       /* UI_MODE_HELP: the mode whose keys it lists, and returns to */
	int help_scroll;
	char msg[200];
	int msg_bad;

	int present, ascii;
	const ui_theme *theme;
	int cols, rows;
	ui_layout layout;
	int quit;
} ui_app;

/* The read-only questions update and draw both ask. */
const lesson *ui_app_lesson(const ui_app *a);
const lesson_page *ui_app_page(const ui_app *a);
/* The anchored lines of the page (from the first region to the last, what
 * folding keeps open); -1 -1 when none. */
void ui_app_anchor_lines(const ui_app *a, int *first, int *last);
/* Whether 0-based line of the PTX is in one of the regions the page names,
 * or comes from the CUDA line the CUDA pane's cursor is on. */
int ui_app_line_marked(const ui_app *a, int line);
/* The CUDA line (1-based) of 1-based PTX line `line` in the .cu the CUDA
 * pane shows; 0 when it has none there (or the kernel has no line information). */
int ui_app_cu_line_of(const ui_app *a, int line);
/* The CUDA pane's first line shown (0-based) in h rows: where its cursor
 * left it, or, while the PTX view follows a run's problem, that problem's
 * CUDA line a third of the way down. */
int ui_app_cu_top(const ui_app *a, int h);
/* The first PTX line (1-based) of CUDA line cu; 0 when none. */
int ui_app_cu_first_ptx(const ui_app *a, int cu);
/* Whether the CUDA pane shows (the kernel has line information, its .cu was
 * found or why not is to be said, the student did not turn it off, and it fits). */
int ui_app_cuda_shown(const ui_app *a);
/* The lines of the page's region i (0-based); -1 when there is none. */
int ui_app_region_lines(const ui_app *a, int i, int *first, int *last);
/* Whether the GPU the model uses is too old for the lesson (its sm below the
 * lesson's needs:); the reason in why when so. */
int ui_app_gpu_too_old(const ui_app *a, char *why, size_t len);
/* The rows of the g menu: a lesson, then its pages. */
/* P: the selected puzzle (NULL when none) and its progress. */
const puzzle *ui_app_puzzle(const ui_app *a);
int ui_app_puzzle_solved(const ui_app *a, const puzzle *p);
int ui_app_puzzle_asked(const ui_app *a, const puzzle *p);
int ui_app_menu_rows(const ui_app *a);
/* Row i of the menu: its lesson and page (-1 for the lesson's own row). */
void ui_app_menu_entry(const ui_app *a, int i, int *lesson, int *page);
/* The menu row of a lesson's page (page -1: the lesson's row). */
int ui_app_menu_row_of(const ui_app *a, int lesson, int page);
/* The progress remembered for lesson i (NULL: none yet). */
const state_progress *ui_app_progress(const ui_app *a, int i);
/* The exercises of lesson i before page p, so exercise e of page p is number
 * ui_app_ex_base(a, i, p) + e of the lesson. */
int ui_app_ex_base(const ui_app *a, int i, int p);
int ui_app_ex_total(const ui_app *a, int i);
/* The PTX view rows for the current lesson (malloc'd; NULL when no PTX). */
ptx_row *ui_app_ptx_rows(const ui_app *a, int *n);
/* The top row of the PTX view for a pane of height h (title row excluded). */
int ui_app_ptx_top(const ui_app *a, const ptx_row *rows, int n, int h);

/* The menu's first row shown in a box of h rows (the selection in view). */
int ui_app_menu_top(const ui_app *a, int h);
/* The lines of the `?` box (every mode's keys, the current one first). */
int ui_app_help_lines(const ui_app *a);

/* Rows of the diff box that show diff lines (both update and draw use it). */
int ui_app_diff_rows(const ui_app *a);

#endif
