#!/bin/sh
# ptx.sh [OUTDIR]: remakes the racy corpus's PTX as README.md says: for each NAME.cu here,
# nvcc -ptx -lineinfo to NAME.ptx and, with -DFIXED, to NAME_fixed.ptx in OUTDIR (default: this
# folder; a control, NAME_ok.cu, has no fixed twin); sm_90a for the TMA, proxy and cluster
# kernels, sm_80 for the others. The .file lines name the source as nvcc saw it, with this
# folder's path taken off (the .cu lies beside its PTX).
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
for cu in "$here"/*.cu; do
	n=$(basename "$cu" .cu)
	case $n in tma_* | proxy_* | dsmem_*) arch=sm_90a ;; *) arch=sm_80 ;; esac
	variants="racy fixed"
	case $n in *_ok) variants=racy ;; esac
	for v in $variants; do
		suf='' def=''
		[ "$v" = fixed ] && suf=_fixed def=-DFIXED
		"$NVCC" -ptx -lineinfo -arch=$arch $def -o "$out/$n$suf.ptx.tmp" "$cu"
		sed "s|\"$here/|\"|" "$out/$n$suf.ptx.tmp" >"$out/$n$suf.ptx"
		rm -f "$out/$n$suf.ptx.tmp"
	done
done
