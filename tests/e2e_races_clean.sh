#!/bin/sh
# e2e_races_clean: the race detector reports no race where there is none (issue 40): lessons 1-11 at
# their default size and every practice puzzle's reference solution at each of its sizes run through
# `emulate --json`, each with "races": 0 and no race "kind". (The students' corpus, the lesson 10
# and FP8 generator variants are verified by e2e_students_*, e2e_wmma, e2e_hopper and
# e2e_fp8_variants: VERIFIED needs 0 races.)
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip races_clean: no binary at $BIN"
	exit 0
fi
export CUDA_VISIBLE_DEVICES=
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# NAME, then the emulate arguments: ok when the run verified with no race
clean() {
	name=$1
	shift
	"$BIN" emulate "$@" --json >"$out" 2>&1
	st=$?
	if [ $st -eq 0 ] && grep -q '"races": 0' "$out" && grep -q '"verified": true' "$out" && ! grep -q '"kind"' "$out"; then
		echo "ok races_clean $name"
	else
		echo "not ok races_clean $name (exit $st)"
		head -c 2000 "$out" | sed 's/^/    | /'
	fi
}

for l in 1 2 3 4 5 6 7 8 9 10 11; do
	clean "lesson $l" "$l"
done

# a puzzle's front matter: KEY: VALUE lines between the first two --- lines
field() { awk -v k="$2:" '/^---/{n++; next} n==1 && $1==k {sub(/^[^:]*: */, ""); print; exit}' "$1"; }
for md in "$ROOT"/lessons/puzzles/*.md; do
	id=$(basename "$md" .md)
	sol=$(field "$md" solution) entry=$(field "$md" entry) grid=$(field "$md" grid) block=$(field "$md" block)
	smem=$(field "$md" smem) dtype=$(field "$md" dtype) args=$(field "$md" args) cluster=$(field "$md" cluster)
	ctype=$(field "$md" out) bmajor=$(field "$md" bmajor)
	for s in $(field "$md" sizes); do
		set -- --ptx "$ROOT/$sol" --entry "$entry" --grid "$grid" --block "$block" --size "$s"
		[ -n "$smem" ] && set -- "$@" --smem "$smem"
		[ -n "$dtype" ] && set -- "$@" --dtype "$dtype"
		[ -n "$args" ] && set -- "$@" --args "$args"
		[ -n "$cluster" ] && set -- "$@" --cluster "$cluster"
		[ -n "$ctype" ] && set -- "$@" --out "$ctype"
		[ -n "$bmajor" ] && set -- "$@" --bmajor "$bmajor"
		clean "puzzle $id solution at $s" "$@"
	done
done
