/* ui/layout: where each pane goes — a pure function of the terminal size and the mode, no curses. */
#ifndef PTXTUTOR_UI_LAYOUT_H
#define PTXTUTOR_UI_LAYOUT_H

/* The smallest terminal the tutor draws in; below it says so instead. */
#define UI_MIN_COLS 80
#define UI_MIN_ROWS 24
/* The width the lesson texts and their diagrams are written for. */
#define UI_TEXT_COLS 80
/* The columns of code the PTX pane keeps for an instruction and its
 * operands (ui_pane_ptx_code_target), on a terminal under 100 columns the
 * second; the lecture layout puts the PTX beside the text only where it
 * gets the first. */
#define UI_PTX_CODE_MIN 60
#define UI_PTX_CODE_MIN_80 40

typedef struct {
	int x, y, w, h;
} ui_rect;

typedef enum {
	UI_PANE_LESSON,
	UI_PANE_PTX,
	UI_PANE_NUMBERS,
	UI_PANE_RUN,
	UI_NPANES
} ui_pane;

typedef enum {
	UI_LAYOUT_TOO_SMALL,
	UI_LAYOUT_COMPACT,   /* lesson on top; PTX and a tabbed numbers/run slot below */
	UI_LAYOUT_WIDE,      /* lesson over PTX on the left; numbers over run on the right */
	UI_LAYOUT_WIDE3,     /* lesson | PTX | numbers over run, side by side */
	UI_LAYOUT_PRESENT,   /* lecture: lesson | PTX over a tabbed numbers/run slot */
} ui_layout_kind;

typedef struct {
	int cols, rows;
	ui_layout_kind kind;
	ui_rect header;          /* one row: lesson, GPU, size */
	ui_rect status;          /* one row: keys, messages */
	ui_rect pane[UI_NPANES]; /* each pane's rectangle, its title row included */
	int tabbed;              /* numbers and run share one rectangle; one shows at a time */
	ui_rect cuda;            /* the CUDA pane, carved from the PTX pane's (ui_layout_cuda); 0x0: none */
	ui_rect help;            /* the `?` overlay */
} ui_layout;

/* Computes the layout for a cols×rows terminal; present selects lecture mode
 * (the lesson pane UI_TEXT_COLS of text wide beside the rest where the
 * terminal has the room, else above it and taller); grow (negative: shrink)
 * gives the lesson pane steps of 4 columns or 2 rows, as far as the other
 * panes keep their size. Rectangles never overlap (except numbers/run when
 * tabbed) and stay inside the terminal; every pane of a drawable layout is at
 * least 20×4. */
void ui_layout_compute(int cols, int rows, int present, int grow, ui_layout *out);
/* Swaps the PTX pane and the tabbed numbers/run slot (the second slot beside
 * the lesson shows the numbers); nothing when not tabbed. */
void ui_layout_swap(ui_layout *L);

/* Gives pane p the whole body between the header and the status row (and its
 * tabbed twin too, so Tab still switches them); the other panes become empty
 * (0×0) and are not drawn. A student on a small screen reads a whole page. */
void ui_layout_zoom(ui_layout *L, ui_pane p);

/* Carves the CUDA pane (a student's .cu beside its PTX) out of the PTX
 * pane's rectangle: on its left where the PTX keeps UI_CUDA_PTX_MIN_W
 * columns beside UI_CUDA_MIN_W, else above it, each at least 4 rows (title
 * and three lines); nothing when neither fits (the PTX pane keeps it all).
 * Call it last, after swap and zoom. */
#define UI_CUDA_MIN_W 40
#define UI_CUDA_PTX_MIN_W 80
void ui_layout_cuda(ui_layout *L);

/* A pane's rectangle below its title row. */
ui_rect ui_layout_body(ui_rect pane);

const char *ui_layout_kind_name(ui_layout_kind k);
const char *ui_pane_name(ui_pane p);

#endif
