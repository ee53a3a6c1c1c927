#!/bin/sh
# ptx.sh [OUTDIR]: remakes the PTX of the course kernels here, as README.md says: each NAME.cu to
# NAME.sm80.ptx with nvcc -ptx -lineinfo -arch=sm_80, the kernels listed in SM90 also to
# NAME.sm90.ptx, and pmpp_tiled, pmpp_printf and warp_dot also as -G builds (NAME_G.sm80.ptx). nvcc runs in this
# folder on NAME.cu, so an assert's file is "NAME.cu", and the .file lines are made relative (nvcc
# writes the absolute path), so the PTX does not depend on where the repository lies.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "${1:-$here}" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SM90="blocktile_float4 db_cpasync_asm warp_dot"
ptx() { # NAME ARCH OUTNAME FLAGS...
	n=$1 a=$2 o=$3
	shift 3
	(cd "$here" && "$NVCC" -ptx -arch="sm_$a" "$@" -o "$out/$o.tmp" "$n.cu")
	sed "s|\"$here/|\"|" "$out/$o.tmp" >"$out/$o"
	rm -f "$out/$o.tmp"
}
for cu in "$here"/*.cu; do
	n=$(basename "$cu" .cu)
	ptx "$n" 80 "$n.sm80.ptx" -lineinfo
	case " $SM90 " in *" $n "*) ptx "$n" 90 "$n.sm90.ptx" -lineinfo ;; esac
done
ptx pmpp_tiled 80 pmpp_tiled_G.sm80.ptx -G
ptx pmpp_printf 80 pmpp_printf_G.sm80.ptx -G
ptx warp_dot 80 warp_dot_G.sm80.ptx -G
