#!/bin/sh
# regen.sh: rewrites the PTX fixtures here from their CUDA sources, as a student would
# make them: `nvcc -ptx -O3` for sm_80 and sm_90 (CUDA 13.0 made the checked-in files).
# Usage: sh tests/data/blas/regen.sh [NVCC]   (default /usr/local/cuda/bin/nvcc)
set -e
NVCC=${1:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")"
for cu in *.cu; do
	for sm in 80 90; do
		"$NVCC" -ptx -O3 -arch=sm_$sm -o "${cu%.cu}.sm_$sm.ptx" "$cu"
	done
done
