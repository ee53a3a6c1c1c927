#!/bin/sh
# Builds here and stages what a GPU machine without headers or cmocka needs (.stage/lib),
# for machines that get this tree copied over with the build (see docs/benchmarks.md).
set -e
cd "$(dirname "$0")/.."
make --no-print-directory all $(ls tests/test_*.c | sed 's#tests/\(.*\)\.c#build/tests/\1#') \
	$(ls tests/fuzz/fuzz_*.c 2>/dev/null | sed 's#tests/fuzz/\(.*\)\.c#build/fuzz/replay_\1#')
mkdir -p .stage/lib
cp -L "$(ldconfig -p | sed -n 's/.*libcmocka.so.0 .*=> //p' | head -n 1)" .stage/lib/libcmocka.so.0
