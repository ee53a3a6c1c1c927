#!/bin/sh
# heldout-ptx: remakes the PTX of the held-out kernels (tests/heldout/*.cu -> *.ptx) the way a
# student would: `nvcc -ptx -O3 -arch=sm_90` (CUDA 13.0 made the checked-in files). The PTX is
# test data: what the GPU script times and the emulator checks (tests/heldout/kernels.tsv).
# Usage: sh scripts/heldout-ptx.sh [NVCC]   (default /usr/local/cuda/bin/nvcc)
set -e
NVCC=${1:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")/../tests/heldout"
for cu in *.cu; do
	"$NVCC" -ptx -O3 -arch=sm_90 -o "${cu%.cu}.ptx" "$cu"
done
