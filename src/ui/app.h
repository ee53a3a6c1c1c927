/* ui/app: the update code that changes the tutor's state (ui/app_state.h): keys, runs, edits, exercises, what-ifs; never calls curses. */
#ifndef PTXTUTOR_UI_APP_H
#define PTXTUTOR_UI_APP_H

#include "course/state.h"
#include "ui/app_state.h"
#include "ui/keys.h"

/* Sets the tutor up on a loaded course (taken over) and a GPU table (only
 * read; may be NULL), with the per-lesson arrays allocated for the course.
 * Returns 0, or -1 with a message when there is nothing to show (no
 * lessons) or an option is wrong. Either way ui_app_free frees it all. */
int ui_app_setup(ui_app *a, const ui_opts *o, course *c, const gpu_table *gpus, char *err, int errlen);
void ui_app_free(ui_app *a);
/* The student's own kernel (`ptxtutor LESSON --ptx FILE`) in the current
 * lesson's place: the lesson's launch (block, tile, parameters, types) with
 * this PTX file (an absolute path) and entry; shown, run and edited as the
 * lesson's own, with the CUDA pane when it has line information. Returns
 * 0, or -1 with why (a lesson without a kernel, a name too long, a file
 * that does not read). */
int ui_app_own_kernel(ui_app *a, const char *ptx, const char *entry, char *err, int errlen);

void ui_app_resize(ui_app *a, int cols, int rows);
/* A key from the terminal: its action in the tutor's mode (src/ui/keys.c). */
void ui_app_key(ui_app *a, int key);
/* The mouse at cell x,y: a click focuses the pane under it (or picks a menu
 * row), the wheel scrolls the pane under it (or the menu). */
void ui_app_mouse(ui_app *a, ui_mouse_kind kind, int x, int y);
/* The clock, for a running run's elapsed time. */
void ui_app_tick(ui_app *a, double now);

/* The loop reports on the run it started for UI_REQ_RUN: err NULL when the
 * request went to the worker, else why not (the run pane shows it). */
void ui_app_run_started(ui_app *a, double now, const char *err);
void ui_app_run_finished(ui_app *a, const run_result *r);
/* Fills the request for the current lesson, size and what-ifs: the
 * student's copy when edited; offline, an emulation at the first of
 * LAUNCH_EMU_SIZES the lesson accepts; after an edit, a check (RUN_KIND_JIT_ONLY). */
int ui_app_request(const ui_app *a, run_request *rq, char *err, int errlen);
/* The request the numbers pane's estimate samples: the current lesson (the
 * student's copy when edited) at the pane's size (the nearest the kernel
 * takes), on the emulator. */
int ui_app_estimate_request(const ui_app *a, run_request *rq, char *err, int errlen);
/* After a GPU run (lines_want >= 0): the emulation that gives the PTX pane its
 * per-line counts, for the lesson on screen. Returns 0, 1 when the student
 * moved on (nothing to run), -1 with err (no size the emulator can run);
 * lines_want is cleared either way. The loop reports the result (or a
 * failed one carrying err). */
int ui_app_lines_request(ui_app *a, run_request *rq, char *err, int errlen);
void ui_app_lines_done(ui_app *a, const run_result *r);
/* The loop reports on an estimate it started for est.state UI_EST_WANT. */
void ui_app_estimate_done(ui_app *a, const exec_estimate_result *r);
/* W (a->stalls.state UI_STALLS_WANT): the stall model's request, the estimate's, and the registers a
 * thread it assumes (a what-if's, else the last run's JIT, else the lesson's recorded value, not for a
 * student's own kernel; 0: not known). */
int ui_app_stalls_request(const ui_app *a, run_request *rq, int *regs, char *err, int errlen);
/* The loop reports on the stall model it started (state UI_STALLS_BUSY); a result for what changed since is dropped. */
void ui_app_stalls_done(ui_app *a, const exec_stalls_brief *b);
/* The deadline of a request the tutor built: its deadline_s, decided by
 * launch_target (PTXTUTOR_DEADLINE_S when given; else the one policy,
 * launch_deadline, the command line's). */
double ui_app_deadline(const ui_app *a, const run_request *rq);
/* The loop reports on UI_REQ_EDIT: ok 0 with a message when the editor
 * could not run. The copy is reloaded and checked (a run is requested). */
void ui_app_edit_done(ui_app *a, int ok, const char *err);

/* The inline editor (UI_MODE_EDITOR): the loop read edit_path for
 * UI_REQ_EDIT (text NULL: it could not, err says why); and after
 * UI_REQ_SAVE, whether the text was written: then the same check as after
 * $EDITOR runs (the lesson copy's run, or the puzzle's checks). */
void ui_app_editor_open(ui_app *a, const char *text, size_t len, const char *err);
void ui_app_editor_saved(ui_app *a, int ok, const char *err);

/* The loop reports on UI_REQ_SASS for lesson i: status 0 with k (taken
 * over; err, when not empty, the chain's note: the link it passed over),
 * else why not in err (one line: a missing tool says where to get it). */
void ui_app_sass_done(ui_app *a, int i, int status, sass_kernel *k, const char *err);
/* The loop stopped lesson i's SASS build (UI_REQ_SASS_CANCEL, or a newer one). */
void ui_app_sass_cancelled(ui_app *a, int i);

/* The loop reports on UI_REQ_PUZZLE: the check's outcome (solved ones are remembered). */
void ui_app_puzzle_done(ui_app *a, const puzzle_outcome *o);

void ui_app_select(ui_app *a, int which, int page);
/* What a save writes: the progress gained since the last load or save, and
 * the lesson and page (s is initialised; state_free frees it). */
void ui_app_saved(const ui_app *a, state_data *s);
/* The loop saved that (err NULL) or could not (err says why: the status
 * line shows it), and read the file back as disk: what others saved
 * meanwhile (`ptxtutor puzzle --check`, another tutor) joins this tutor's view. */
void ui_app_synced(ui_app *a, const char *err, const state_data *disk);

#endif
