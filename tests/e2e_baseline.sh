#!/bin/sh
# e2e_baseline: your lines beside ours (issue 42). In the tutor (tmux, offline): lesson 1 run, edited (a second
# load of B inserted), run again; B emulates the shipped kernel and the PTX pane puts its counts beside the edit's
# ("ours"), the inserted line marked '+', the lines after it matched by content (not number); B again hides them.
# On the command line: `emulate --lines --baseline FILE` prints each line's figures, the baseline's and the
# difference, lines matched by a diff of the two texts (an inserted line "new", a changed one "new" and "gone",
# the lines after them paired with their old numbers), a total row, CSV; bad usage is one line, exit 2.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip baseline: no binary at $BIN"
	exit 0
fi
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip baseline: tmux is not installed"
	exit 0
fi
SOCK_NAME=ptxtutor-baseline
. "$(dirname "$0")/lib_tmux.sh"
export PTXTUTOR_ROOT="$ROOT" XDG_STATE_HOME="$WORK/state" XDG_DATA_HOME="$WORK/data" CUDA_VISIBLE_DEVICES=
ckf() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "not ok $1"; [ -n "$3" ] && sed 's/^/    | /' "$3" | head -40; fi; }

# ---- the tutor's PTX pane ----
cat >"$WORK/editor.sh" <<EOF
#!/bin/sh
sed -i 's/^\\(\\tld.global.f32 %b, \\[%pB\\];.*\\)\$/\\1\\n\\tld.global.f32 %b, [%pB];    \\/\\/ a second load of B/' "\$1"
EOF
chmod +x "$WORK/editor.sh"
# (at 256^3: r and B emulate at 128^3 whatever the problem size, and the numbers pane's estimate, in the
# background, takes a tenth of 4096^3's CPU)
T new-session -d -s b -x 160 -y 48 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT XDG_STATE_HOME=$WORK/state \
	XDG_DATA_HOME=$WORK/data EDITOR=$WORK/editor.sh CUDA_VISIBLE_DEVICES= sh '$WORK/wrap.sh' '$BIN' --lesson 1 --size 256"
wait_for b "Naive"
T send-keys -t b B
wait_for b "Your lines beside ours wants an edit"
check "baseline: B before an edit says what it needs" $? b
T send-keys -t b r
wait_for b "PASS, verified on the CPU" 30
T send-keys -t b e
wait_for b "[edited" 10 && wait_for b "emu sectors    11.3" 30
T send-keys -t b B
wait_for b "in the 'ours' columns" 30 && wait_stable b
screen=$(cap b)
# the header, the load of A (same both sides), the inserted load ('+', nothing beside it), the fma after it
# (its line number one more than the shipped kernel's, matched all the same: the same counts, no mark)
printf '%s\n' "$screen" | grep -q "inst   ours s/req  ours w/req  ours .*ours: shipped (B), \* differs, + new" &&
	printf '%s\n' "$screen" | grep -qE "^ 81 +[^ ]+ +65\.5k +65\.5k +32 +32 +- +- +ld\.global\.f32 %a" &&
	printf '%s\n' "$screen" | grep -qE "^ 83 +[^ ]+ +65\.5k +1 +- +\+ +ld\.global\.f32 %b, \[%pB\]; +// a second load" &&
	printf '%s\n' "$screen" | grep -qE "^ 84 +65\.5k +65\.5k +- +- +- +- +fma\.rn\.f32"
check "baseline: B puts the shipped kernel's counts beside the edit's, the inserted line marked, lines matched by content" $? b
T send-keys -t b B
wait_for b "Your lines only" && wait_gone b "in the 'ours' columns" && ! has b "inst   ours"
check "baseline: B again hides them" $? b
T send-keys -t b q
wait_for b "EXIT=0"
check "baseline: the tutor quits" $? b

# ---- emulate --lines --baseline ----
START="$ROOT/ptx/puzzles/02-coalesce.ptx"
EDIT="$WORK/coalesced.ptx"
# the solution (two lines changed) with a load of B inserted
sed 's/^\(\tld.global.f32 %b, \[%pB\];.*\)$/\1\n\tld.global.f32 %b, [%pB];/' "$ROOT/ptx/puzzles/solutions/02-coalesce.ptx" >"$EDIT"
emu() { "$BIN" emulate --ptx "$EDIT" --grid 'ceil(N/32),ceil(M/32)' --block 32,32 --size 64 --lines "$@"; }
emu --baseline "$START" >"$WORK/out" 2>&1
rc=$?
o="$WORK/out"
[ $rc -eq 0 ] && grep -q "beside .*02-coalesce.ptx (VERIFIED)" "$o" &&
	grep -qE "^ +52 +- .* new +mad\.lo\.u32 %row, %by, %dimy, %ty;" "$o" &&
	grep -qE "^ +- +52 .* gone +mad\.lo\.u32 %row, %by, %dimx, %tx;" "$o" &&
	grep -qE "^ +83 +83 +8\.19k +8\.19k +8\.19k +262k +-254k .* \* +ld\.global\.f32 %a" "$o" &&
	grep -qE "^ +87 +- .* new +ld\.global\.f32 %b, \[%pB\];" "$o" &&
	grep -qE "^ +89 +88 +8\.19k +8\.19k +- +- .* +fma\.rn\.f32" "$o" && ! grep -qE "^ +89 +88 .*\*" "$o" &&
	grep -qE "^ +total +" "$o"
ckf "baseline: emulate --lines --baseline: figures, the baseline's, the difference; lines matched by content (exit $rc)" $? "$o"
emu --baseline "$START" --csv >"$o" 2>&1
rc=$?
[ $rc -eq 0 ] && head -1 "$o" | grep -q "^line,base_line,mark,instructions,base_instructions,diff_instructions," &&
	grep -qE "^87,0,new,8192,,8192," "$o" && grep -qE "^0,52,gone,,128,-128," "$o" && grep -qE "^89,88,,8192,8192,0," "$o"
ckf "baseline: --csv has every figure, the baseline's and the difference per row (exit $rc)" $? "$o"
emu --baseline "$WORK/none.ptx" >"$o" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$o")" -eq 1 ] && grep -q "^ptxtutor emulate: --baseline .*none.ptx: No such file" "$o"
ckf "baseline: a baseline that is not there is one line, exit 2 (exit $rc)" $? "$o"
"$BIN" emulate --ptx "$EDIT" --grid 'ceil(N/32),ceil(M/32)' --block 32,32 --size 64 --baseline "$START" >"$o" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "^ptxtutor emulate: --baseline goes with --lines" "$o"
ckf "baseline: --baseline without --lines is refused (exit $rc)" $? "$o"
