#!/bin/sh
# ptx.sh [OUTDIR]: remakes the PTX of the student WMMA kernels here, as README says: nvcc -ptx
# -arch=sm_80 -lineinfo and the same for sm_90, each NAME.cu to NAME.sm80.ptx and NAME.sm90.ptx in
# OUTDIR (default: this folder). The .file lines name the source as nvcc saw it, with this
# checkout's path taken off, so the .file lines do not depend on where the repository lies (the debug strings still hash the path: tests/e2e_wmma.sh compares the code).
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
for cu in "$here"/*.cu; do
	n=$(basename "$cu" .cu)
	for a in 80 90; do
		"$NVCC" -ptx -arch=sm_$a -lineinfo -o "$out/$n.sm$a.ptx.tmp" "$cu"
		sed "s|\"$here/|\"|" "$out/$n.sm$a.ptx.tmp" >"$out/$n.sm$a.ptx"
		rm -f "$out/$n.sm$a.ptx.tmp"
	done
done
