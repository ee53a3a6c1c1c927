#!/bin/sh
# Runs every test: the cmocka unit binaries and the end-to-end shell tests, JOBS
# at a time (default: one per CPU), each with its own state and data folders so
# that no two share what they read or write. Prints each test's output in a fixed
# order once all are done, then one line "N passed, N failed, N skipped";
# exits non-zero on any failure. `sh tests/run.sh --one TEST OUTDIR` runs one.
#
# Usage: sh tests/run.sh [BUILD] [BIN] [TEST...]   (TESTs: test binaries or scripts;
# default all: the binaries in the Makefile's list, or BUILD/tests/test_*, then tests/e2e_*.sh ...)
ROOT=$(cd "$(dirname "$0")/.." && pwd)

if [ "$1" = --one ]; then
	t=$2 out=$3
	name=$(basename "$t")
	# Tests must not read or write the user's state, nor each other's.
	XDG_STATE_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d)
	export XDG_STATE_HOME XDG_DATA_HOME
	start=$(date +%s)
	case "$t" in
	*.sh) sh "$t" "$BUILD" >"$out/$name.log" 2>&1 ;;
	*) "$t" >"$out/$name.log" 2>&1 ;;
	esac
	echo $? >"$out/$name.rc"
	echo $(($(date +%s) - start)) >"$out/$name.s"
	rm -rf "$XDG_STATE_HOME" "$XDG_DATA_HOME"
	exit 0
fi

BUILD=${1:-build}
BIN=${2:-./ptxtutor}
[ $# -ge 2 ] && shift 2 || shift $#
export BUILD PTXTUTOR_ROOT="$ROOT" CMOCKA_MESSAGE_OUTPUT=stdout
export PTXTUTOR_BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}

if [ $# -gt 0 ]; then
	tests="$*"
else
	# The Makefile passes its list (TESTBIN), so a binary whose source is gone is not run.
	tests=${TESTBIN:-$(ls "$BUILD"/tests/test_* 2>/dev/null)}
	for t in "$ROOT"/tests/e2e_*.sh "$ROOT"/tests/ptxas_check.sh "$ROOT"/tests/ptx_generated.sh \
		"$ROOT"/tests/func_length.sh "$ROOT"/tests/fuzz/replay.sh; do
		[ -f "$t" ] && tests="$tests $t"
	done
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# python3 through a version manager's shim (pyenv's is a bash script that runs another before the
# interpreter) costs about 50 ms of CPU a call, and the tests call it about 170 times: where python3 is
# such a shim, the tests get a folder in front of PATH whose python3 is the interpreter it resolves to.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ] && [ "$(command -v python3)" != "$py" ]; then
	mkdir "$out/.bin" && ln -s "$py" "$out/.bin/python3" && PATH="$out/.bin:$PATH" && export PATH
fi
# The slowest first, so that the last to start are short ones: the heaviest by name, longest first
# (each 5-35 s of wall time alone, measured 2026-11-28 after the CPU trims; e2e_sass_async.sh mostly
# waits, on a hung stand-in; a name not here or gone only costs time), then the end-to-end scripts,
# which are the long ones, then the unit binaries.
HEAVY="e2e_estimate_heldout.sh e2e_stalls_vs_ncu.sh e2e_heldout.sh e2e_estimate.sh test_render_lint e2e_accuracy.sh
	e2e_pipeline.sh e2e_sass_async.sh e2e_wmma.sh test_emu e2e_fp8_variants.sh e2e_culines.sh
	test_puzzles e2e_sweep_wgmma.sh e2e_screens36.sh"
for h in $HEAVY; do printf '%s\n' $tests | grep "/$h\$"; done >"$out/.list"
printf '%s\n' $tests | grep '\.sh$' | grep -vxF -f "$out/.list" >>"$out/.list.sh"
printf '%s\n' $tests | grep -v '\.sh$' | grep -vxF -f "$out/.list" >>"$out/.list.sh"
cat "$out/.list.sh" >>"$out/.list"
xargs -P "$JOBS" -I{} sh "$ROOT/tests/run.sh" --one {} "$out" <"$out/.list"

pass=0 fail=0 skip=0
for t in $tests; do
	name=$(basename "$t")
	log="$out/$name.log"
	[ -f "$log" ] || continue
	cat "$log"
	rc=$(cat "$out/$name.rc")
	case "$t" in
	*.sh)
		# Shell tests print "ok NAME", "not ok NAME" or "skip NAME: why", one per line.
		p=$(grep -c '^ok ' "$log")
		f=$(grep -c '^not ok ' "$log")
		s=$(grep -c '^skip ' "$log")
		;;
	*)
		p=$(grep -c '^\[       OK \]' "$log")
		# cmocka names a failed or skipped test twice (inline and in its summary).
		f=$(grep '^\[  FAILED  \] [a-z_]' "$log" | sort -u | wc -l)
		s=$(grep '^\[  SKIPPED \] [a-z_]' "$log" | sort -u | wc -l)
		;;
	esac
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$t: exited with status $rc"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
echo
echo "slowest: $(for t in $tests; do n=$(basename "$t"); [ -f "$out/$n.s" ] && echo "$(cat "$out/$n.s") $n"; done |
	sort -rn | head -5 | awk '{ printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1 }')"
ran_out=$(cd "$out" && grep -l '^# wait ran out' *.log 2>/dev/null | sed 's/\.log$//' | tr '\n' ' ')
[ -n "$ran_out" ] && echo "waits that ran out (each costs its whole limit): $ran_out"
echo "$pass passed, $fail failed, $skip skipped ($JOBS at a time)"
[ "$fail" -eq 0 ]
