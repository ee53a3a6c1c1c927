#!/bin/sh
# e2e_lines: per-line counts and a warp's view in the real tutor (tmux on a private socket) and in
# `emulate --lines --json`. Lesson 1's load of A is the uncoalesced one (a lane a row: 32 sectors a
# request); lesson 2's fix walks the lanes along a row, so its load of B takes 4 and its load of A,
# one address for the warp, 1. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip lines: no binary at $BIN"
	exit 0
fi

# ---- emulate --lines --json: the rows, and line 81 (lesson 1's load of A) at 32 ----
out=$(PTXTUTOR_ROOT=$ROOT "$BIN" emulate 1 --lines --json 2>&1)
la=$(grep -n 'ld.global.f32 %a, \[%pA\]' "$ROOT/ptx/01_naive.ptx" | head -n 1 | cut -d: -f1)
spr=$(printf '%s\n' "$out" | awk -v l="\"line\": $la," '
	index($0, l) { on = 1 }
	on && /"sectors_per_request"/ { gsub(/[^0-9.]/, "", $2); print $2; exit }')
printf '%s\n' "$out" | grep -q '"per_line": {' && [ "$spr" = 32 ]
r=$?
[ $r -eq 0 ] && echo "ok emulate --lines --json: per_line rows, line $la at 32 sectors/request" ||
	{ echo "not ok emulate --lines --json: per_line rows, line $la at 32 sectors/request (got '$spr')"; }
csv=$(PTXTUTOR_ROOT=$ROOT "$BIN" emulate 2 --lines --csv 2>&1)
lb=$(grep -n 'ld.global.f32 %b, \[%pB\]' "$ROOT/ptx/02_coalesced.ptx" | head -n 1 | cut -d: -f1)
printf '%s\n' "$csv" | head -n 1 | grep -q '^line,instructions,lanes,global_requests,sectors,sectors_per_request' &&
	printf '%s\n' "$csv" | grep -q "^$lb,[0-9]*,32,[0-9]*,[0-9]*,4,"
[ $? -eq 0 ] && echo "ok emulate --lines --csv: lesson 2's load of B at 4 sectors/request" ||
	echo "not ok emulate --lines --csv: lesson 2's load of B at 4 sectors/request"
PTXTUTOR_ROOT=$ROOT "$BIN" emulate 1 --csv >/dev/null 2>&1
[ $? -eq 2 ] && echo "ok emulate --csv without --lines is refused" || echo "not ok emulate --csv without --lines is refused"

if ! command -v tmux >/dev/null 2>&1; then
	echo "skip lines tui: tmux is not installed"
	exit 0
fi
SOCK_NAME=ptxtutor-lines
. "$(dirname "$0")/lib_tmux.sh"

# start NAME LESSON PAGE: the real course at 160x48, at 256^3: r emulates at the lesson's emulation size
# whatever the problem size, and the numbers pane's estimate, in the background, takes a tenth of
# 4096^3's CPU.
start() {
	T new-session -d -s "$1" -x 160 -y 48 \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT XDG_STATE_HOME=$WORK/state-$1 XDG_DATA_HOME=$WORK/data-$1 sh $WORK/wrap.sh $BIN $2 --page $3 --size 256"
}
# row NAME TEXT: the screen's row with TEXT
row() { cap "$1" | grep -F -- "$2" | head -n 1; }

# ---- lesson 1, the page of the dot product: r, then the load of A's row ----
start l1 1 4
wait_for l1 "Not run yet."
T send-keys -t l1 r
# the columns' heading comes with the counts: an emulated run's, or on a GPU the emulation beside its run
if wait_for l1 "inst s/req w/req  confl" 60; then
	wait_stable l1
	a=$(row l1 "ld.global.f32 %a, [%pA]")
	printf '%s\n' "$a" | grep -q "^ *$la[^0-9].*    32     -      -  " && has l1 "inst s/req w/req  confl"
	check "tui lesson 1 after r: the load of A at 32 sectors/request" $? l1
	T send-keys -t l1 H
	wait_for l1 "Line $la:"
	check "tui H: the costliest line is the load of A" $? l1
	T send-keys -t l1 w
	wait_for l1 "A warp's view of line $la" && has l1 "32 sectors a request" &&
		has l1 "sector   0123456789abcdefghijklmnopqrstuv"
	check "tui w: a warp's view of the load of A, a sector a lane" $? l1
	T send-keys -t l1 j
	wait_for l1 "execution 2 of "
	check "tui w: j steps to the warp's next execution" $? l1
	T send-keys -t l1 Escape
	wait_gone l1 "A warp's view of line"
	check "tui w: Esc closes the box" $? l1
else
	check "tui lesson 1 after r: the load of A at 32 sectors/request" 1 l1
fi
T send-keys -t l1 q
wait_for l1 "EXIT="

# ---- lesson 2, the page of the loop: the fix, the load of B at 4 ----
start l2 2 3
wait_for l2 "Not run yet."
T send-keys -t l2 r
if wait_for l2 "inst s/req w/req  confl" 60; then
	wait_stable l2
	b=$(row l2 "ld.global.f32 %b, [%pB];        // 32 lanes")
	v=$(row l2 "ld.global.v4.f32 {%a0, %a1, %a2, %a3}, [%pA]")
	printf '%s\n' "$b" | grep -q "^ *$lb[^0-9].*     4     -      -  " &&
		printf '%s\n' "$v" | grep -q "     1     -      -  "
	check "tui lesson 2 after r: the load of B at 4 sectors/request, A at 1" $? l2
else
	check "tui lesson 2 after r: the load of B at 4 sectors/request, A at 1" 1 l2
fi
T send-keys -t l2 q
wait_for l2 "EXIT="
