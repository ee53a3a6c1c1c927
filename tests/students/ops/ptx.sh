#!/bin/sh
# ptx.sh: remakes the PTX of the kernels of issue 39's emulator gaps here (atomics, calls of a
# .func, the warp's votes and reductions): NAME.cu to NAME.sm80.ptx with nvcc -ptx -lineinfo
# -arch=sm_80, the _G kernels with -G instead of -lineinfo. The .file lines are made relative.
set -e
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
for n in splitk_smem_atomic atomics_all warp_ops dot_device_G calls_G; do
	case $n in *_G) flags=-G ;; *) flags=-lineinfo ;; esac
	(cd "$here" && "$NVCC" -ptx -arch=sm_80 $flags -o "$n.sm80.ptx.tmp" "$n.cu")
	sed "s|\"$here/|\"|" "$here/$n.sm80.ptx.tmp" >"$here/$n.sm80.ptx"
	rm -f "$here/$n.sm80.ptx.tmp"
done
