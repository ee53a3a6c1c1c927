#!/bin/sh
# e2e_inline: the inline editor in the real tutor (tmux), with no $EDITOR: e opens lesson 1's copy full
# screen, typing changes it ("modified"), C-s saves and runs the same check as after $EDITOR (the emulator,
# offline), Esc leaves; in the puzzle box Enter opens the puzzle's copy, an edit and C-s run the puzzle's
# checks. The shipped files are never written. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip inline: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	echo "skip inline: no binary at $BIN"
	exit 0
fi
SHIPPED="$ROOT/ptx/01_naive.ptx"
START="$ROOT/ptx/puzzles/01-bounds.ptx"
if [ ! -f "$SHIPPED" ] || [ ! -f "$START" ]; then
	echo "skip inline: no $SHIPPED or $START"
	exit 0
fi
SOCK_NAME=ptxtutor-inline
. "$(dirname "$0")/lib_tmux.sh"

DATA="$WORK/data"
COPY="$DATA/ptxtutor/ptx/01_naive.ptx"
PZ_COPY="$DATA/ptxtutor/ptx/01-bounds.ptx"
SUMS="$(cksum <"$SHIPPED") $(cksum <"$START")"

# (at 256^3: the edits and the puzzle's check are the same at any problem size, and the numbers pane's
# estimate, in the background, takes a tenth of 4096^3's CPU)
T new-session -d -s ie -x 160 -y 48 "exec env -u EDITOR LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT \
	XDG_STATE_HOME=$WORK/state XDG_DATA_HOME=$DATA CUDA_VISIBLE_DEVICES= sh '$WORK/wrap.sh' '$BIN' --lesson 1 --size 256"
wait_for ie "Naive"

# ---- e: the copy opens inline; a comment typed on a new first line ----
T send-keys -t ie e
wait_for ie "01_naive.ptx  1:1" && has ie ".entry"
check "inline: e without \$EDITOR opens lesson 1's copy in the inline editor" $? ie
T send-keys -t ie -l "// inline edit"
T send-keys -t ie Enter
wait_for ie "2:1  modified" && has ie "// inline edit"
check "inline: typing and Enter change the buffer; the status says line 2, modified" $? ie

# ---- Esc once asks, C-s saves and checks on the CPU ----
T send-keys -t ie Escape
wait_for ie "Unsaved changes"
check "inline: Esc with unsaved changes asks once" $? ie
T send-keys -t ie C-s
wait_for ie "naive: emulated on the CPU" 60 && head -n 1 "$COPY" | grep -qx "// inline edit" \
	&& ! has ie "modified"
check "inline: C-s writes the copy and runs the check (emulated offline)" $? ie
T send-keys -t ie Escape
wait_for ie "page 1/" && has ie "// inline edit"
check "inline: Esc after saving leaves at once; the PTX pane shows the edit" $? ie

# ---- the puzzle: P, Enter, the fix typed on its TODO line, C-s runs the checks ----
T send-keys -t ie P
wait_for ie "Puzzles of lesson 1"
T send-keys -t ie Enter
wait_for ie "01-bounds.ptx  1:1"
line=$(grep -n "TODO: and the column?" "$START" | cut -d: -f1)
T send-keys -t ie -N $((line - 1)) Down
T send-keys -t ie Home
T send-keys -t ie -l "	setp.ge.or.u32 %outside, %col, %N, %outside\;"
wait_for ie "$line:"
T send-keys -t ie C-s
wait_for ie "Solved 01-bounds" 60
check "inline: the puzzle's copy edited inline and saved runs its checks (solved)" $? ie
grep -q "setp.ge.or.u32 %outside, %col, %N, %outside;" "$PZ_COPY"
check "inline: the fix is in the puzzle's copy" $?
T send-keys -t ie Escape
wait_for ie "[x] 01-bounds"
check "inline: Esc goes back to the puzzle box, the puzzle marked solved" $? ie
T send-keys -t ie Escape
T send-keys -t ie q
wait_for ie "EXIT=0"
[ "$(cksum <"$SHIPPED") $(cksum <"$START")" = "$SUMS" ]
check "inline: the tutor exits 0; the shipped files were never written" $? ie
