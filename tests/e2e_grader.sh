#!/bin/sh
# e2e_grader: `ptxtutor puzzle N --check-dir DIR` grades a class (issue 42) — a folder of 30 entries made from
# puzzle 03-race's shipped solution (right copies, wrong results, races, endless loops, garbage, an empty file, a FIFO,
# a folder, a link) graded in one command within a minute on two children, every entry with its row; the rows say
# what each is; CSV and JSON have a row per entry; a file past --timeout is stopped and the others go on; nothing
# graded counts as solved in the lecturer's own progress. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip grader: no binary at $BIN"
	exit 0
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
export PTXTUTOR_ROOT="$ROOT" XDG_STATE_HOME="$WORK/state" XDG_DATA_HOME="$WORK/data" CUDA_VISIBLE_DEVICES=
check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "not ok $1"; [ -n "$3" ] && sed 's/^/    | /' "$3" | head -60; fi; }
ms() { date +%s%3N; }

SOL="$ROOT/ptx/puzzles/solutions/03-race.ptx"
D="$WORK/class"
mkdir -p "$D"
for i in 01 02 03 04 05 06 07 08 09; do cp "$SOL" "$D/right-$i.ptx"; done
cp "$SOL" "$D/right 10, a student with a long name.ptx" # a space, a comma, past the name column
# the column from the wrong block index: blocks of a row of the grid store the same bytes of C, a race between blocks
sed 's/mad.lo.u32 %col, %bx, %T, %tx;/mad.lo.u32 %col, %by, %T, %tx;/' "$SOL" >"$D/racy-blocks.ptx"
# wrong results: the row from the column's thread, the tile's k step lost
sed 's/mad.lo.u32 %row, %by, %T, %ty;/mad.lo.u32 %row, %by, %T, %tx;/' "$SOL" >"$D/wrong-row.ptx"
sed 's/fma.rn.f32 %acc, %a\([0-9]*\), %b, %acc;/add.f32 %acc, %a\1, %b;/' "$SOL" >"$D/wrong-fma.ptx"
grep -v 'st.global.f32' "$SOL" >"$D/wrong-nostore.ptx"
sed 's/mad.lo.u32 %col, %bx, %T, %tx;/mad.lo.u32 %col, %bx, %T, %ty;/' "$SOL" >"$D/wrong-swap.ptx"
# races: either barrier lost, or a warp barrier in its place
awk '/bar.sync 0;/ && !n++ {next} {print}' "$SOL" >"$D/racy-first.ptx"
awk '/bar.sync 0;/ && n++ {next} {print}' "$SOL" >"$D/racy-second.ptx"
awk '/bar.sync 0;/ && n++ {sub(/bar.sync 0;/, "bar.warp.sync -1;")} {print}' "$SOL" >"$D/racy-warp.ptx"
awk '/bar.sync 0;/ && !n++ {sub(/bar.sync 0;/, "bar.warp.sync -1;")} {print}' "$SOL" >"$D/racy-warp1.ptx"
# endless loops: a branch to itself before the end, or at the start
sed 's/^\tret;/$spin: bra $spin;\n\tret;/' "$SOL" >"$D/endless-end.ptx"
awk '/mad.lo.u32 %row/ {print "$spin: bra $spin;"} {print}' "$SOL" >"$D/endless-start.ptx"
sed 's/^\tret;/$spin: bra.uni $spin;\n\tret;/' "$SOL" >"$D/endless-uni.ptx"
# garbage: random bytes, prose, half a kernel, an empty file, an entry with no kernel
head -c 4096 /dev/urandom >"$D/garbage-bytes.ptx"
printf 'Dear lecturer, my dog ate my kernel.\n' >"$D/garbage-prose.txt"
head -n 120 "$SOL" >"$D/garbage-half.ptx"
: >"$D/garbage-empty.ptx"
sed 's/\.entry sgemm_smem/.entry other_name/' "$SOL" >"$D/garbage-entry.ptx"
# not regular files: a FIFO (never opened), a folder, a link
mkfifo "$D/a-fifo"
mkdir "$D/a-folder"
ln -s "$SOL" "$D/a-link.ptx"
n=$(ls -A "$D" | wc -l)
[ "$n" -eq 30 ]
check "grader: the folder has 30 entries ($n)" $?

t0=$(ms)
timeout -s KILL 120 "$BIN" puzzle 03-race --check-dir "$D" --jobs 2 >"$WORK/out" 2>"$WORK/err"
rc=$? t=$(($(ms) - t0))
[ "$rc" -eq 0 ] && [ "$t" -le 60000 ] && [ ! -s "$WORK/err" ]
check "grader: 30 entries graded in one command, two at a time ($t ms, exit $rc)" $? "$WORK/out"
missing=
re() { printf '%s' "$1" | sed 's/[].[\*^$]/\\&/g'; }
for p in "$D"/*; do f=$(basename "$p"); grep -q "^$(re "$f") " "$WORK/out" || missing="$missing $f"; done
[ -z "$missing" ]
check "grader: every entry has its row${missing:+ (missing:$missing)}" $? "$WORK/out"
bad=
for p in "$D"/right*; do f=$(basename "$p"); grep -q "^$(re "$f") *yes  *- " "$WORK/out" || bad="$bad $f"; done
[ -z "$bad" ]
check "grader: the right copies are solved, with no failed check${bad:+ (not:$bad)}" $? "$WORK/out"
bad=
for f in wrong-row wrong-fma wrong-swap wrong-nostore; do
	grep -q "^$f.ptx *no  *verified .* none " "$WORK/out" || bad="$bad $f"
done
[ -z "$bad" ]
check "grader: the wrong results fail 'verified', with no race${bad:+ (not:$bad)}" $? "$WORK/out"
bad=
for f in racy-first racy-second racy-warp racy-warp1 racy-blocks; do
	grep -q "^$f.ptx *no  *race (line [0-9]*) .* line [0-9]* " "$WORK/out" || bad="$bad $f"
done
[ -z "$bad" ]
check "grader: the races fail 'race' at their line${bad:+ (not:$bad)}" $? "$WORK/out"
bad=
for f in endless-end endless-start endless-uni; do grep -A1 "^$f.ptx *no " "$WORK/out" | grep -q "endless loop" || bad="$bad $f"; done
[ -z "$bad" ]
check "grader: the endless loops fail, stopped by the instruction budget${bad:+ (not:$bad)}" $? "$WORK/out"
bad=
for f in garbage-bytes.ptx garbage-prose.txt garbage-half.ptx garbage-empty.ptx garbage-entry.ptx; do
	grep -q "^$f *no " "$WORK/out" || bad="$bad $f"
done
[ -z "$bad" ]
check "grader: garbage fails as garbage${bad:+ (not:$bad)}" $? "$WORK/out"
grep -q "^a-fifo *- *not checked: a FIFO" "$WORK/out" && grep -q "^a-folder *- *not checked: a folder" "$WORK/out" &&
	grep -q "^a-link.ptx *- *not checked: a symbolic link" "$WORK/out" &&
	grep -q "^10 of 27 solved; 3 not checked" "$WORK/out"
check "grader: a FIFO, a folder and a link get rows saying why they were not checked; the summary counts" $? "$WORK/out"

"$BIN" puzzle 03-race --check-dir "$D" --csv >"$WORK/csv" 2>"$WORK/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l <"$WORK/csv")" -eq 31 ] && head -1 "$WORK/csv" | grep -q '^file,checked,solved,failed_check' &&
	grep -q '^right-01.ptx,true,true,,' "$WORK/csv" && grep -q '^a-fifo,false,false,.*,a FIFO$' "$WORK/csv" &&
	grep -qF '"right 10, a student with a long name.ptx",true,true,' "$WORK/csv" &&
	grep -q '^racy-second.ptx,true,false,race,[0-9]*,,true,[0-9]*,' "$WORK/csv" &&
	grep -q '^endless-end.ptx,true,false,verified,[0-9]*,,,,[0-9.]*,false,.*endless loop' "$WORK/csv"
check "grader: --csv has a header and a row per entry (exit $rc)" $? "$WORK/csv"
"$BIN" puzzle 03-race --check-dir "$D" --json >"$WORK/json" 2>"$WORK/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(grep -c '"file": ' "$WORK/json")" -eq 30 ] && grep -q '"solved": 10,' "$WORK/json" &&
	grep -q '"total": 30,' "$WORK/json" && grep -q '"not_checked": "a FIFO"' "$WORK/json"
check "grader: --json has an object per entry and the totals (exit $rc)" $? "$WORK/json"

# The per-file deadline: an endless loop killed at --timeout, the right file beside it still graded.
mkdir "$WORK/late"
cp "$D/endless-end.ptx" "$D/right-01.ptx" "$WORK/late/"
t0=$(ms)
"$BIN" puzzle 03-race --check-dir "$WORK/late" --timeout 0.05 --jobs 1 >"$WORK/out2" 2>&1
rc=$? t=$(($(ms) - t0))
[ "$rc" -eq 0 ] && [ "$t" -le 10000 ] && grep -A1 "^endless-end.ptx *no " "$WORK/out2" | grep -q "stopped at its deadline" &&
	grep -q "stopped at the deadline" "$WORK/out2" && grep -q "^right-01.ptx " "$WORK/out2"
check "grader: a file past --timeout is killed and fails, every file still has its row ($t ms, exit $rc)" $? "$WORK/out2"

# Nothing graded is the lecturer's own solve.
"$BIN" puzzle --json >"$WORK/list" 2>&1
grep -A3 '"id": "03-race"' "$WORK/list" | grep -q '"solved": false'
check "grader: grading records no solve in the lecturer's progress" $? "$WORK/list"

"$BIN" puzzle 03-race --check-dir "$WORK/nothing-here" >"$WORK/out3" 2>&1
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/out3")" -eq 1 ] && grep -q "^ptxtutor puzzle: .*nothing-here: No such file" "$WORK/out3"
check "grader: a folder that is not there is one line, exit 2 (exit $rc)" $? "$WORK/out3"
"$BIN" puzzle 03-race --csv >"$WORK/out4" 2>&1
[ $? -eq 2 ] && grep -q "go with --check-dir" "$WORK/out4"
check "grader: --csv without --check-dir is refused" $? "$WORK/out4"
