#!/bin/sh
# The GPU half of the checks, on a machine with an NVIDIA GPU and a build of this tree
# (make all plus the test binaries): GPU unit tests, check, bench and foreign kernels.
# Usage: sh scripts/gpu-suite.sh [SIZE]   (bench size, default 4096)
# Where libcmocka is not installed, put libcmocka.so.0 in .stage/lib (scripts/stage-gpu.sh).
SIZE=${1:-4096}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
export PTXTUTOR_ROOT="$ROOT" LD_LIBRARY_PATH="$ROOT/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
rc=0
echo "== GPU unit tests"
for t in build/tests/test_gpu build/tests/test_occupancy_gpu; do
	[ -x "$t" ] && { "$t" 2>&1 | grep -v '^\[ RUN' || rc=1; }
done
echo "== foreign kernels (nvcc -ptx, other signatures)"
F=tests/data/foreign/kernels.ptx
./ptxtutor run --ptx $F --entry gemm_alpha_beta --args 'M N K f32:1 A B f32:0 C' \
	--grid 'ceil(N/16),ceil(M/16)' --block 16,16 --size 1000,700,300 || rc=1
./ptxtutor run --ptx $F --entry gemm_fixed_1024 --args 'A B C' --grid 32,32 --block 32,32 --size 1024 || rc=1
./ptxtutor run --ptx $F --entry hgemm_out_first --dtype f16 --args 'C A B K N M' \
	--grid 'ceil(N/16),ceil(M/16)' --block 16,16 --size 512,384,256 || rc=1
echo "== check"
./ptxtutor check || rc=1
echo "== bench $SIZE"
./ptxtutor bench --size "$SIZE" || rc=1
exit $rc
