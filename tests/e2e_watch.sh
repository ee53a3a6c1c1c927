#!/bin/sh
# e2e_watch: `ptxtutor puzzle N --watch FILE` (issue 42) in a terminal (tmux, a private socket): the first check
# (a race, C wrong), a save in place that puts the barrier back but breaks the column (a second verdict: the race
# check flipped, C's message changed), a
# save by rename as editors do (a third: solved, the next unsolved puzzle named, the solve recorded), then
# Ctrl-C ends it with exit 0; on 02-coalesce the sectors per request that moved are named. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip watch: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	echo "skip watch: no binary at $BIN"
	exit 0
fi
SOCK_NAME=ptxtutor-watch
. "$(dirname "$0")/lib_tmux.sh"

SOL="$ROOT/ptx/puzzles/solutions/03-race.ptx"
F="$WORK/mine.ptx"
cp "$ROOT/ptx/puzzles/03-race.ptx" "$F"
env_vars="PTXTUTOR_ROOT=$ROOT XDG_STATE_HOME=$WORK/state XDG_DATA_HOME=$WORK/data CUDA_VISIBLE_DEVICES="

T new-session -d -s w -x 160 -y 50 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $env_vars sh '$WORK/wrap.sh' '$BIN' puzzle 03-race --watch '$F'"
wait_for w "== Check 1 at" && wait_for w "Not yet: fix the failing checks" && has w "FAIL no shared-memory race"
check "watch: the first check runs at once and fails on the race" $? w

# A save in place: the barrier back, but each product added, not multiplied (C wrong, no race).
sed -e 's|^\t// (nothing here)|\tbar.sync 0;|' -e 's/fma.rn.f32 %acc, %a\([0-9]*\), %b, %acc;/add.f32 %acc, %a\1, %b;/' \
	"$ROOT/ptx/puzzles/03-race.ptx" >"$F"
wait_for w "== Check 2 at" 20 && wait_for w "Since the last check: 1 of 2 checks pass (was 0 of 2)" &&
	has w "now passes: no shared-memory race" && has w "changed: C is right at every size (was: at 64x64x64, C is wrong: wrong values"
check "watch: a save in place gives a second verdict with the checks that flipped" $? w

# A save by rename (vim's, most editors'): another inode at the same path.
cp "$SOL" "$WORK/.mine.ptx.tmp" && mv "$WORK/.mine.ptx.tmp" "$F"
wait_for w "== Check 3 at" 20 && wait_for w "Solved. Next: 04-broadcast-a" &&
	has w "now passes: C is right at every size" && ! has w "== Check 4 at"
check "watch: a save by rename gives a third verdict: solved, the next puzzle named" $? w

T send-keys -t w C-c
wait_for w "EXIT=0" && has w "Stopped watching $F after 3 checks."
check "watch: Ctrl-C ends it cleanly, exit 0" $? w

# The counts that moved: 02-coalesce's sectors per request, from the uncoalesced start to the solution.
G="$WORK/coalesce.ptx"
cp "$ROOT/ptx/puzzles/02-coalesce.ptx" "$G"
T new-session -d -s c -x 160 -y 50 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $env_vars sh '$WORK/wrap.sh' '$BIN' puzzle 02-coalesce --watch '$G'"
wait_for c "== Check 1 at" && wait_for c "Not yet: fix the failing checks"
cp "$ROOT/ptx/puzzles/solutions/02-coalesce.ptx" "$G"
wait_for c "== Check 2 at" 20 && wait_for c "now passes: global sectors per request in @aload <= 1 (32 -> 1)" &&
	has c "moved: global sectors per request in @bload <= 4: 1 -> 4"
check "watch: the counts that moved are named, old and new" $? c
T send-keys -t c C-c
wait_for c "EXIT=0"

env PTXTUTOR_ROOT="$ROOT" XDG_STATE_HOME="$WORK/state" XDG_DATA_HOME="$WORK/data" "$BIN" puzzle --json >"$WORK/list" 2>&1
grep -A3 '"id": "03-race"' "$WORK/list" | grep -q '"solved": true'
r=$?
check "watch: the solve under --watch is recorded" $r

env PTXTUTOR_ROOT="$ROOT" XDG_STATE_HOME="$WORK/state" "$BIN" puzzle 03-race --watch "$WORK/none.ptx" >"$WORK/out" 2>&1
r=$?
[ $r -eq 2 ] && grep -q "^ptxtutor puzzle: .*none.ptx: No such file" "$WORK/out"
check "watch: a file that is not there is one line, exit 2 (exit $r)" $?
