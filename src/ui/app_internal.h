/* ui/app_internal: what the update code's files share (app.c state and navigation, app_run.c, app_edit.c, app_exercise.c, app_whatif.c); not for draw or the CLI. */
#ifndef PTXTUTOR_UI_APP_INTERNAL_H
#define PTXTUTOR_UI_APP_INTERNAL_H

#include "ui/app.h"

/* What an action does; key is the key that named it (the answer box types it). */
typedef void (*app_handler)(ui_app *a, ui_action act, int key);
/* One handler per action, every action included (app.c). */
extern const app_handler app_handlers[UI_NACTIONS];

/* app.c: the status-line message, and the state every file changes. */
void app_say(ui_app *a, int bad, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The numbers on screen, and the exercise's when its hint or answer shows. */
void app_recompute(ui_app *a);
/* What the estimate depends on, as text (lesson, size, GPU, what-ifs, the PTX): a change asks for a new one. */
void app_estimate_key(const ui_app *a, char *key, size_t len);
/* The lesson's file changed under the view (an edit, a restore): reload it
 * and forget its last result, whose numbers would mislead. */
void app_reload_ptx(ui_app *a, int i);

/* The layout for the terminal, the lesson pane's size, the swap and the zoom. */
void app_relayout(ui_app *a);
/* Scrolls pane p by delta lines (the PTX view stops following its region). */
void app_scroll(ui_app *a, int p, int delta);
/* The page counts as read once its end has been on screen. */
void app_note_read(ui_app *a);
/* Loads lesson i's PTX if it is not (the search reads every lesson's). */
void app_load_ptx(ui_app *a, int i);

/* app_nav.c: g (the menu), /, n and N (search), the mouse. */
void app_act_menu(ui_app *a, ui_action act, int key);
void app_act_menu_move(ui_app *a, ui_action act, int key);
void app_act_menu_type(ui_app *a, ui_action act, int key);
void app_act_menu_go(ui_app *a, ui_action act, int key);
void app_act_search(ui_app *a, ui_action act, int key);
void app_act_search_type(ui_app *a, ui_action act, int key);
void app_act_search_go(ui_app *a, ui_action act, int key);
void app_act_ed_move(ui_app *a, ui_action act, int key);
void app_act_ed_edit(ui_app *a, ui_action act, int key);
void app_act_ed_save(ui_app *a, ui_action act, int key);
void app_act_ed_quit(ui_app *a, ui_action act, int key);
void app_act_next_hit(ui_app *a, ui_action act, int key);

/* app_sass.c: S, the SASS view. */
void app_act_sass(ui_app *a, ui_action act, int key);
/* app_lines.c: H, the next hot line of the last run; L, the per-line columns. */
void app_act_hot_line(ui_app *a, ui_action act, int key);
void app_act_line_cols(ui_app *a, ui_action act, int key);
void app_act_baseline(ui_app *a, ui_action act, int key);
/* Whether 0-based line of the PTX shows in the PTX view (not inside a fold). */
int app_ptx_line_shown(const ui_app *a, int line);
/* app_warp.c: w opens the warp box, its keys step it; the page's @warpview. */
void app_act_warp(ui_app *a, ui_action act, int key);
void app_act_warp_step(ui_app *a, ui_action act, int key);
void app_warp_page(ui_app *a);
/* Forgets lesson i's SASS (its PTX is reloaded, or the tutor ends). */
void app_sass_forget(ui_ptx *p);
/* j/k in the SASS view: the cursor moves, the view follows it. */
void app_sass_move(ui_app *a, int delta);

/* app_cuda.c: the CUDA pane. Reads the line information of a PTX's text
 * and the .cu it names (beside the file shown, or beside orig, the file it
 * is a copy of); forgets them. */
void app_cuda_load(ui_ptx *p, const char *ptx_text, const char *orig);
void app_cuda_forget(ui_ptx *p);
/* A kernel with line information shown afresh: the CUDA cursor on its
 * entry's first line, the PTX view at the entry (nothing when a cursor is set). */
void app_cuda_home(ui_app *a);
/* The PTX cursor moved (H): the CUDA cursor goes to its CUDA line. */
void app_cuda_sync(ui_app *a);
/* C: show or hide the pane. */
void app_act_cuda(ui_app *a, ui_action act, int key);
/* j/k in the PTX slot while the CUDA pane shows: the CUDA cursor (its PTX
 * lines marked, the PTX view at the first) or the PTX cursor (its CUDA
 * line marked). Returns 0 when it is not for the CUDA pane. */
int app_cuda_scroll(ui_app *a, int p, int delta);
/* Tab (dir 1) and Shift-Tab (-1): returns 1 when the focus moved between
 * the CUDA and the PTX half of the slot; else the caller moves it on and
 * calls app_cuda_focus_entered. */
int app_cuda_focus(ui_app *a, int dir);
void app_cuda_focus_entered(ui_app *a, int dir);
/* A click in the CUDA pane focuses it. */
void app_cuda_click(ui_app *a);

/* app_stalls.c: W, why each line waits; a new stall model wanted when what it depends on changed. */
void app_act_stalls(ui_app *a, ui_action act, int key);
void app_want_stalls(ui_app *a);

/* app_run.c: r, and Esc in the panes. */
void app_act_run(ui_app *a, ui_action act, int key);
void app_act_cancel(ui_app *a, ui_action act, int key);

/* app_puzzle.c: P, the puzzle box. */
void app_act_puzzles(ui_app *a, ui_action act, int key);
void app_act_puzzle_move(ui_app *a, ui_action act, int key);
void app_act_puzzle_edit(ui_app *a, ui_action act, int key);
void app_act_puzzle_check(ui_app *a, ui_action act, int key);
void app_act_puzzle_hint(ui_app *a, ui_action act, int key);
void app_act_puzzle_solution(ui_app *a, ui_action act, int key);
void app_act_puzzle_view(ui_app *a, ui_action act, int key);
/* The editor closed on the puzzle's copy: check it. */
void app_puzzle_edit_done(ui_app *a, int ok, const char *err);

/* app_edit.c: e, R and the diff box. */
void app_act_edit(ui_app *a, ui_action act, int key);
void app_act_diff(ui_app *a, ui_action act, int key);
void app_act_diff_scroll(ui_app *a, ui_action act, int key);
void app_act_restore(ui_app *a, ui_action act, int key);

/* app_exercise.c: a, h, s and the answer box. */
void app_exercise_reset(ui_app *a);
/* Fills ex_model while the current exercise's hint or worked answer shows. */
void app_exercise_recompute(ui_app *a);
void app_act_answer(ui_app *a, ui_action act, int key);
void app_act_hint(ui_app *a, ui_action act, int key);
void app_act_answer_type(ui_app *a, ui_action act, int key);
void app_act_answer_delete(ui_app *a, ui_action act, int key);
void app_act_answer_check(ui_app *a, ui_action act, int key);
void app_act_answer_pick(ui_app *a, ui_action act, int key);

/* app_whatif.c: t and the what-if box. */
/* Keeps the overrides in `from` that name a parameter of the current lesson. */
void app_whatif_filter(ui_app *a, const expr_env *from);
void app_act_whatif(ui_app *a, ui_action act, int key);
void app_act_whatif_move(ui_app *a, ui_action act, int key);
void app_act_whatif_change(ui_app *a, ui_action act, int key);
void app_act_whatif_reset(ui_app *a, ui_action act, int key);

#endif
