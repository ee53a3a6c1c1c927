#!/bin/sh
# ptx.sh: remakes the PTX of the kernels of issue 39's emulator gaps here (atomics, calls of a
# .func, the warp's votes and reductions): NAME.cu to NAME.sm80.ptx with nvcc -ptx -lineinfo
# -arch=sm_80, the _G kernels with -G instead of -lineinfo, and warp_ops also as warp_ops_G with -G. The .file lines are made relative.
set -e
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptx() { # NAME.cu OUTNAME FLAGS
	(cd "$here" && "$NVCC" -ptx -arch=sm_80 $3 -o "$2.sm80.ptx.tmp" "$1.cu")
	sed "s|\"$here/|\"|" "$here/$2.sm80.ptx.tmp" >"$here/$2.sm80.ptx"
	rm -f "$here/$2.sm80.ptx.tmp"
}
for n in splitk_smem_atomic splitk_ticket atomics_all warp_ops; do
	ptx $n $n -lineinfo
done
for n in dot_device_G calls_G; do
	ptx $n $n -G
done
ptx warp_ops warp_ops_G -G # each intrinsic a call of a .func
ptx splitk_ticket splitk_ticket_noreset "-lineinfo -DNO_RESET" # its bug: the counter never put back
