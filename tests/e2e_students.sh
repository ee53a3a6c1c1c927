#!/bin/sh
# e2e_students: the students' corpus (issue 39; tests/students/corpus.tsv, README there): every
# kernel of tests/students/*/ as nvcc wrote it, through `ptxtutor run --emulate --json`, two at a
# time, each with its expected outcome: verified, wrong values, a race, a fault or an assert, the
# CUDA file and line its message names (and that line's text found beside the PTX), and the lines it
# printed (tests/students/corpus.py does the checking). Then --estimate of an int8 kernel gives a time
# (its s8 type is no reason to refuse).
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/students"
if [ ! -x "$BIN" ]; then
	echo "skip students: no binary at $BIN"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip students: no python3 to read the JSON reports"
	exit 0
fi
python3 "$DIR/corpus.py" emulate "$BIN"
rc=$?
[ $rc -le 1 ] || echo "not ok students: corpus.py exited $rc"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
if "$BIN" emulate --ptx "$DIR/numeric/dp4a_gemm.sm_80.ptx" --grid 'ceil(N/16),ceil(M/16)' --block 16,16 \
	--args 'M N K A B C' --dtype s8 --size 1024 --estimate >"$out" 2>&1 &&
	head -1 "$out" | grep -q '^dp4a_gemm at .*: estimate [0-9.]* ms'; then
	echo "ok students_estimate_s8"
else
	echo "not ok students_estimate_s8: $(head -2 "$out" | tr '\n' ' ')"
fi
