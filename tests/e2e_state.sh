#!/bin/sh
# e2e_state: progress is never lost (tmux, a private socket, XDG_STATE_HOME in a temporary folder). The
# README's workflow: the tutor open on lesson 2, `ptxtutor puzzle 02-coalesce --check` solves it in
# another shell, q in the tutor, and the puzzle is still solved. Then two tutors and the CLI at once
# (A reads pages, B reads others, the CLI solves a puzzle, B quits, A quits): every solve and page read
# is kept, and the lesson is the last writer's. A state file that cannot be read (a FIFO, a folder) is
# said so, kept, and a save that fails exits 3. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip state: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	echo "skip state: no binary at $BIN"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip state: python3 is not installed (it reads list --json)"
	exit 0
fi
SOCK_NAME=ptxtutor-state
. "$(dirname "$0")/lib_tmux.sh"

STATE="$WORK/state"
FILE="$STATE/ptxtutor/state"
env_vars="PTXTUTOR_ROOT=$ROOT XDG_STATE_HOME=$STATE XDG_DATA_HOME=$WORK/data CUDA_VISIBLE_DEVICES="
pt() { env $env_vars "$BIN" "$@"; }
# The same under a time limit, where a file that blocks (a FIFO) would hang it.
pt_limited() { if command -v timeout >/dev/null 2>&1; then timeout 10 env $env_vars "$BIN" "$@"; else pt "$@"; fi; }
# Copies of the solutions: the shipped files themselves are not counted as solved.
cp "$ROOT/ptx/puzzles/solutions/02-coalesce.ptx" "$WORK/coalesce.ptx"
cp "$ROOT/ptx/puzzles/solutions/03-barriers.ptx" "$WORK/barriers.ptx"

# tutor SESSION ARGS...: the tutor in its own tmux session, big enough that a page fits. At 256^3:
# what this test reads (pages, puzzles, the state file) is the same at any problem size, and the
# numbers pane's estimate, emulated in the background while the tutor is open, takes a tenth of
# 4096^3's CPU.
tutor() {
	s=$1
	shift
	T new-session -d -s "$s" -x 200 -y 60 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $env_vars \
		sh '$WORK/wrap.sh' '$BIN' $* --size 256"
}
# read_to SESSION PAGE: Space (read on) until the status line says "page PAGE/", each press
# waited for (the screen settles) — every page before it was read to its end on the way.
read_to() {
	i=0
	while ! has "$1" "page $2/" && [ $i -lt $((40 * E2E_SLOW)) ]; do
		T send-keys -t "$1" Space
		wait_stable "$1"
		i=$((i + 1))
	done
	has "$1" "page $2/"
}
# lesson_field ID KEY: a lesson's count from `ptxtutor list --json`.
lesson_field() {
	pt list --json | python3 -c 'import json,sys
for l in json.load(sys.stdin):
    if l["id"] == sys.argv[1]: print(l[sys.argv[2]])' "$1" "$2"
}
solved() { pt puzzle --json | python3 -c 'import json,sys
print(" ".join(p["id"] for p in json.load(sys.stdin) if p["solved"]))'; }

# ---- the README's workflow: tutor open, CLI solves, q ----
tutor a --lesson 2
wait_for a "page 1/"
pt puzzle 02-coalesce --check "$WORK/coalesce.ptx" >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^Solved. Next: 03-barriers" "$WORK/out" && grep -q "puzzles coalesced 1" "$FILE"
check "state: puzzle --check beside an open tutor says Solved and names the next puzzle (rc $rc)" $?
T send-keys -t a q
wait_for a "EXIT=0"
check "state: the tutor quits" $? a
solved | grep -qw 02-coalesce && pt puzzle | grep -q "02-coalesce .*solved"
check "state: after q the puzzle the CLI solved is still solved" $?
grep -q "^lesson coalesced$" "$FILE"
check "state: the tutor's q saved where it was (lesson 2)" $?
T kill-session -t a

# ---- two tutors and the CLI at once ----
tutor a --lesson 3
tutor b --lesson 5
wait_for a "page 1/" && wait_for b "page 1/"
read_to a 3
check "state: tutor A reads lesson 3 to page 3" $? a
read_to b 4
check "state: tutor B reads lesson 5 to page 4" $? b
pt puzzle 03-barriers --check "$WORK/barriers.ptx" >"$WORK/out" 2>&1
check "state: the CLI solves 03-barriers meanwhile" $?
# A opens P: the box takes in the CLI's solve at once.
T send-keys -t a P
wait_for a "[x] 03-barriers"
check "state: tutor A's puzzle box shows the CLI's solve" $? a
T send-keys -t a Escape
T send-keys -t b q
wait_for b "EXIT=0"
check "state: tutor B quits" $? b
T send-keys -t a q
wait_for a "EXIT=0"
check "state: tutor A quits" $? a
s=$(solved)
echo "$s" | grep -qw 02-coalesce && echo "$s" | grep -qw 03-barriers
check "state: both solves are kept after both tutors quit ($s)" $?
ra=$(lesson_field smem pages_read)
rb=$(lesson_field blocktile2d pages_read)
rc2=$(lesson_field coalesced pages_read)
[ "${ra:-0}" -ge 2 ] && [ "${rb:-0}" -ge 3 ] && [ "${rc2:-0}" -ge 1 ]
check "state: every tutor's pages read are kept (lesson 3: $ra, lesson 5: $rb, lesson 2: $rc2)" $?
grep -q "^lesson smem$" "$FILE" && grep -q "^page 2$" "$FILE"
check "state: the lesson and page are the last writer's (A: lesson 3, page 3)" $?
T kill-session -t a
T kill-session -t b

# ---- a state file that cannot be read ----
cp "$FILE" "$WORK/good"
rm -f "$FILE"
mkfifo "$FILE"
start=$(date +%s)
pt_limited list >/dev/null 2>"$WORK/err"
rc=$?
end=$(date +%s)
[ $rc -eq 0 ] && [ $((end - start)) -le 1 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] \
	&& grep -q "cannot read your progress: .*not a regular file" "$WORK/err"
check "state: a FIFO as the state file: list says so on one line, at once" $?
pt_limited puzzle 02-coalesce --check "$WORK/coalesce.ptx" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 3 ] && grep -q "^Solved" "$WORK/out" && [ "$(wc -l <"$WORK/err")" -eq 1 ] \
	&& grep -q "^ptxtutor puzzle: could not save your progress: .*kept as it is" "$WORK/err" && [ -p "$FILE" ]
check "state: puzzle --check with a FIFO as the state file exits 3 and keeps it" $?
tutor a --lesson 2
wait_for a "Cannot read your progress"
check "state: the tutor says in the status line that the state file cannot be read" $? a
T send-keys -t a q
wait_for a "EXIT=3" && has a "could not save your progress" && [ -p "$FILE" ]
check "state: the tutor's q says the save failed after it ends, exits 3, the FIFO is kept" $? a
T kill-session -t a
rm -f "$FILE"
mkdir "$FILE"
pt puzzle 02-coalesce --check "$WORK/coalesce.ptx" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 3 ] && grep -q "could not save your progress" "$WORK/err" && [ -d "$FILE" ]
check "state: the state path a folder: puzzle --check exits 3 with why" $?
rmdir "$FILE"
cp "$WORK/good" "$FILE"
pt puzzle 01-index --check "$ROOT/ptx/puzzles/solutions/01-index.ptx" >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "shipped solution" "$WORK/out" && ! grep -q "^Solved" "$WORK/out" && ! solved | grep -qw 01-index
check "state: the shipped solution file itself passes but is not counted" $?
