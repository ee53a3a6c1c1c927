#!/bin/sh
# The GPU half of the checks, on a machine with an NVIDIA GPU and a build of this tree
# (make all plus the test binaries): GPU unit tests, check, bench and foreign kernels.
# Usage: sh scripts/gpu-suite.sh [SIZE]   (bench size, default 4096)
# Exits non-zero when any step fails or a GPU test binary is missing.
# Where libcmocka is not installed, put libcmocka.so.0 in .stage/lib (scripts/stage-gpu.sh).
# GPU_SUITE_TESTS (the test binaries) and GPU_SUITE_BIN (the ptxtutor binary) let
# tests/e2e_gpu_suite.sh run the script against planted fakes without a GPU.
SIZE=${1:-4096}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
export PTXTUTOR_ROOT="$ROOT" LD_LIBRARY_PATH="$ROOT/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
TESTS=${GPU_SUITE_TESTS:-build/tests/test_gpu build/tests/test_occupancy_gpu}
BIN=${GPU_SUITE_BIN:-./ptxtutor}
rc=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Each step's own exit status decides (never that of a filter after it).
step() { # WHAT COMMAND...
	what=$1
	shift
	"$@" || { echo "gpu-suite: FAILED: $what (exit $?)"; rc=1; }
}
echo "== GPU unit tests"
for t in $TESTS; do
	if [ ! -x "$t" ]; then
		echo "gpu-suite: FAILED: $t is missing (make $t)"
		rc=1
		continue
	fi
	"$t" >"$log" 2>&1
	st=$?
	grep -v '^\[ RUN' "$log"
	[ $st -eq 0 ] || { echo "gpu-suite: FAILED: $t (exit $st)"; rc=1; }
done
echo "== foreign kernels (nvcc -ptx, other signatures)"
F=tests/data/foreign/kernels.ptx
step "foreign gemm_alpha_beta" "$BIN" run --ptx $F --entry gemm_alpha_beta --args 'M N K f32:1 A B f32:0 C' \
	--grid 'ceil(N/16),ceil(M/16)' --block 16,16 --size 1000,700,300
step "foreign gemm_fixed_1024" "$BIN" run --ptx $F --entry gemm_fixed_1024 --args 'A B C' --grid 32,32 --block 32,32 --size 1024
step "foreign hgemm_out_first" "$BIN" run --ptx $F --entry hgemm_out_first --dtype f16 --args 'C A B K N M' \
	--grid 'ceil(N/16),ceil(M/16)' --block 16,16 --size 512,384,256
echo "== check"
step check "$BIN" check
echo "== bench $SIZE"
step "bench $SIZE" "$BIN" bench --size "$SIZE"
[ $rc -eq 0 ] && echo "gpu-suite: all passed" || echo "gpu-suite: some steps FAILED (above)"
exit $rc
