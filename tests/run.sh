#!/bin/sh
# Runs every test: the cmocka unit binaries, then the end-to-end shell tests.
# Ends with one line "N passed, N failed, N skipped"; exits non-zero on any failure.
BUILD=${1:-build}
BIN=${2:-./ptxtutor}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PTXTUTOR_ROOT="$ROOT"
export PTXTUTOR_BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
# Tests must not read or write the user's state.
export XDG_STATE_HOME="$(mktemp -d)" XDG_DATA_HOME="$(mktemp -d)"
export CMOCKA_MESSAGE_OUTPUT=stdout

pass=0 fail=0 skip=0
log=$(mktemp)
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	"$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	p=$(grep -c '^\[       OK \]' "$log")
	# cmocka names a failed or skipped test twice (inline and in its summary).
	f=$(grep '^\[  FAILED  \] [a-z_]' "$log" | sort -u | wc -l)
	s=$(grep '^\[  SKIPPED \] [a-z_]' "$log" | sort -u | wc -l)
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$t: exited with status $rc"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
# Shell tests print "ok NAME", "not ok NAME" or "skip NAME: why", one per line.
for t in "$ROOT"/tests/e2e_*.sh "$ROOT"/tests/ptxas_check.sh "$ROOT"/tests/ptx_generated.sh "$ROOT"/tests/func_length.sh \
	"$ROOT"/tests/fuzz/replay.sh; do
	[ -f "$t" ] || continue
	sh "$t" "$BUILD" >"$log" 2>&1
	rc=$?
	cat "$log"
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	s=$(grep -c '^skip ' "$log")
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$t: exited with status $rc"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
rm -f "$log"
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
