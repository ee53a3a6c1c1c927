#!/bin/sh
# e2e_puzzle: a student solves a puzzle in the real tutor (tmux), offline: P opens lesson 1's puzzles,
# e opens a fake $EDITOR on the student's copy, a wrong attempt fails with the check's message and its
# line, a hint shows, a right attempt solves it, the g menu and `ptxtutor list`/`puzzle` show the
# progress; then `ptxtutor puzzle --check` on the CLI. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip puzzle: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	echo "skip puzzle: no binary at $BIN"
	exit 0
fi
START="$ROOT/ptx/puzzles/01-bounds.ptx"
SOCK_NAME=ptxtutor-puzzle
. "$(dirname "$0")/lib_tmux.sh"

DATA="$WORK/data"
COPY="$DATA/ptxtutor/ptx/01-bounds.ptx"
START_SUM=$(cksum <"$START")
cat >"$WORK/editor.sh" <<EOF
#!/bin/sh
sh "$WORK/next-edit" "\$1"
EOF
chmod +x "$WORK/editor.sh"
next_edit() { printf '%s\n' "$1" >"$WORK/next-edit"; }
env_vars="PTXTUTOR_ROOT=$ROOT XDG_STATE_HOME=$WORK/state XDG_DATA_HOME=$DATA CUDA_VISIBLE_DEVICES="

# The tutors at 256^3: a puzzle is checked at its own sizes whatever the problem size, and the numbers
# pane's estimate, in the background, takes a tenth of 4096^3's CPU.
T new-session -d -s pz -x 160 -y 48 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $env_vars EDITOR=$WORK/editor.sh \
	sh '$WORK/wrap.sh' '$BIN' --lesson 1 --size 256"
wait_for pz "Naive"
T send-keys -t pz P
wait_for pz "Puzzles of lesson 1" && has pz "[ ] 01-bounds" && has pz "Threads past the edge of C"
check "puzzle: P opens lesson 1's puzzles with their progress" $? pz

# A wrong attempt: the column compared with M.
next_edit "sed -i 's|// TODO: and the column?|setp.ge.or.u32 %outside, %col, %M, %outside;|' \"\$1\""
T send-keys -t pz e
wait_for pz "Your last check:" 30 && has pz "FAIL C is right at every size" && has pz "at 100x68x36" \
	&& has pz "0 of 1 checks pass"
check "puzzle: a wrong attempt is checked on save and fails with its message" $? pz
T send-keys -t pz h
wait_for pz "Hint 1: At 100x68x36"
check "puzzle: h reveals the first hint" $? pz

# The right one.
next_edit "sed -i 's|%col, %M, %outside|%col, %N, %outside|' \"\$1\""
T send-keys -t pz e
wait_for pz "Solved 01-bounds" 30 && has pz "pass C is right at every size" && has pz "[x] 01-bounds"
check "puzzle: the right attempt solves it" $? pz
T send-keys -t pz Escape
T send-keys -t pz g
wait_for pz "puzzles 1/3"
check "puzzle: the g menu counts the solved puzzle" $? pz
T send-keys -t pz Escape
T send-keys -t pz q
wait_for pz "EXIT=0"
check "puzzle: the tutor quits" $? pz
st=$(env $env_vars "$BIN" list | awk '$2 == "naive" {print $7}')
[ "$st" = "1/3" ] && env $env_vars "$BIN" puzzle | grep -q "01-bounds .*solved"
check "puzzle: list and puzzle show the progress after a restart ($st)" $?
[ "$(cksum <"$START")" = "$START_SUM" ] && grep -q "%col, %N, %outside" "$COPY"
check "puzzle: the edit is in the student's copy, the shipped start was never written" $?

# The CLI: a check's verdicts, exit status and JSON.
env $env_vars "$BIN" puzzle 01-stride --check "$ROOT/ptx/puzzles/01-stride.ptx" >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "FAIL C is right at every size" "$WORK/out" && grep -q "Not yet" "$WORK/out"
check "puzzle --check: a failing file exits 1 with its verdicts" $?
env $env_vars "$BIN" puzzle 01-stride --check "$WORK/no-such.ptx" >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/out")" -eq 1 ] && grep -q "^ptxtutor puzzle: .*no-such.ptx: No such file" "$WORK/out"
check "puzzle --check: a file that is not there is bad input (one line, exit 2), not a failed check" $?
env $env_vars "$BIN" puzzle 01-stride --check "$ROOT/ptx/puzzles/solutions/01-stride.ptx" --json >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["solved"] and d["checks"][0]["pass"]' "$WORK/out"
check "puzzle --check --json: the solution solves it (exit 0)" $?
env $env_vars "$BIN" puzzle 01-index --solution >"$WORK/out" 2>&1
grep -q "once more" "$WORK/out" && ! grep -q "ret;" "$WORK/out" && env $env_vars "$BIN" puzzle 01-index --solution | grep -q "ret;"
check "puzzle --solution: asked twice, it shows" $?
env $env_vars "$BIN" puzzle 99 >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ]
check "puzzle 99: one line, exit 2" $?

# --hint K is checked against the puzzle's own hints, with the real range.
env $env_vars "$BIN" puzzle 02-coalesce --hint 4 >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$WORK/out" ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "1\.\.3 (02-coalesce has 3 hints)" "$WORK/err" \
	&& env $env_vars "$BIN" puzzle 02-coalesce --hint 3 | grep -c "^Hint" | grep -qx 3
check "puzzle --hint 4 on a 3-hint puzzle: refused with 1..3; --hint 3 shows three" $?

# A copy of the solution is solved, recorded, and the next unsolved puzzle named.
cp "$ROOT/ptx/puzzles/solutions/01-index.ptx" "$WORK/index.ptx"
env $env_vars "$BIN" puzzle 01-index --check "$WORK/index.ptx" >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -qx "Solved. Next: 01-stride (\`ptxtutor puzzle 01-stride\`)" "$WORK/out" \
	&& env $env_vars "$BIN" puzzle 01-index --check "$WORK/index.ptx" --json | python3 -c 'import json,sys
d=json.load(sys.stdin); assert d["solved"] and d["recorded"] and not d["shipped_solution"] and d["next"] == "01-stride"'
check "puzzle --check: Solved names the next unsolved puzzle (text and --json)" $?

# The puzzle box: its title and keys row are whole at 80x24, the goal shows no Markdown backticks,
# and after the second s the status line says the solution is shown (no "Sure?").
T new-session -d -s box -x 80 -y 24 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $env_vars \
	sh '$WORK/wrap.sh' '$BIN' --lesson 2 --size 256"
wait_for box "page 1/"
T send-keys -t box P
wait_for box "Puzzles of lesson 2" && has box "Esc close" && cap box | grep -q "? keys *│" && has box "the @index region" && ! cap box | grep -q '`'
check "puzzle box at 80x24: the title and keys whole, no raw backticks" $? box
T send-keys -t box s
wait_for box "Sure?"
T send-keys -t box s
wait_for box "the reference solution" && wait_gone box "Sure?"
check "puzzle box: after the second s the status line no longer asks Sure?" $? box
T send-keys -t box Escape
T send-keys -t box q
wait_for box "EXIT=0"
check "puzzle box: the tutor quits" $? box
