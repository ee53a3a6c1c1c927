#!/bin/sh
# Replays every checked-in fuzz corpus (tests/fuzz/corpus/NAME/) through its
# harness built without libFuzzer ($BUILD/fuzz/replay_NAME): a regression
# suite of every input that once crashed or found new code. Under `make asan`
# the harnesses carry AddressSanitizer and UBSan.
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export PTXTUTOR_ROOT="$ROOT"
for src in "$ROOT"/tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	bin="$BUILD/fuzz/replay_$name"
	corpus="$ROOT/tests/fuzz/corpus/$name"
	if [ ! -x "$bin" ]; then
		echo "not ok fuzz corpus $name: $bin is not built"
		continue
	fi
	if [ ! -d "$corpus" ]; then
		echo "not ok fuzz corpus $name: no $corpus"
		continue
	fi
	out=$("$bin" "$corpus" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "ok fuzz corpus $name replays ($out)"
	else
		echo "$out" | tail -n 20
		echo "not ok fuzz corpus $name replays (exit $rc)"
	fi
done
