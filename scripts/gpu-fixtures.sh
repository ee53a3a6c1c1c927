#!/bin/sh
# gpu-fixtures: the nvcc fixtures of tests/data/blas (tests/data/blas/fixtures.tsv) on the GPU with
# `ptxtutor run --ptx`, verified against cuBLAS with alpha 1.5, beta 0.5 and timed, for sm_80 and
# sm_90 PTX; then the kernel that skips row 1 of C (skiprow) must FAIL with beta: (the unwritten
# row kept C0 through two launches) and without it (the row kept the NaN poison). Builds nothing:
# run it in a tree where ./ptxtutor is built. Prints each run, then a table last.
# Usage: sh scripts/gpu-fixtures.sh [M,N,K]   (default 1000,700,300: no multiple of any tile)
SIZE=${1:-1000,700,300}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
export PTXTUTOR_ROOT="$ROOT" LD_LIBRARY_PATH="$ROOT/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
DIR=tests/data/blas
out=$(mktemp) table=$(mktemp)
tab=$(printf '\t')
rc=0
# one run: LABEL SM ARGS EXPECT(pass|fail) then the ptxtutor options (sh has no locals: o_*)
one() {
	o_label=$1 o_sm=$2 o_args=$3 expect=$4
	shift 4
	./ptxtutor run "$@" --size "$SIZE" --args "$o_args" >"$out" 2>&1
	st=$?
	cat "$out"
	verdict=$(sed -n '1s/^[^ ]* \([^:]*\): .*/\1/p' "$out")
	gf=$(sed -n 's/.*ms, \([0-9.]*\) GFLOP\/s.*/\1/p' "$out" | head -1)
	pct=$(sed -n 's/.*ours is \([0-9.]*\)% of cuBLAS.*/\1/p' "$out" | head -1)
	msg=$(sed -n '1s/^[^ ]* [^:]*: //p' "$out" | cut -c1-90)
	if { [ "$expect" = pass ] && [ $st -eq 0 ]; } || { [ "$expect" = fail ] && [ "$verdict" = "wrong result" ]; }; then
		ok=ok
	else
		ok=UNEXPECTED rc=1
	fi
	printf '%-12s sm_%s %-7s %-10s %-12s %9s %7s  %s\n' "$o_label" "$o_sm" "$expect" "$ok" "${verdict:-?}" \
		"${gf:--}" "${pct:--}" "$msg" >>"$table"
}
grep -v '^#' "$DIR/fixtures.tsv" | while IFS="$tab" read -r name entry dtype grid block args; do
	for sm in 80 90; do
		set -- --ptx "$DIR/$name.sm_$sm.ptx" --dtype "$dtype" --grid "$grid" --block "$block"
		[ "$entry" = "-" ] || set -- "$@" --entry "$entry"
		echo "== $name sm_$sm: $*"
		if [ "$name" = skiprow ]; then
			one "$name+beta" "$sm" "$args" fail "$@"
			one "$name-beta" "$sm" "$(echo "$args" | sed 's/beta:0.5/f32:0/')" fail "$@"
		else
			one "$name" "$sm" "$args" pass "$@"
		fi
	done
done
echo
echo "== nvcc fixtures on the GPU at $SIZE (alpha 1.5, beta 0.5; skiprow must fail)"
printf '%-12s %-5s %-7s %-10s %-12s %9s %7s  %s\n' fixture ptx expect result status GFLOP/s %cuBLAS message
cat "$table"
grep -q UNEXPECTED "$table" && rc=1
rm -f "$out" "$table"
exit $rc
