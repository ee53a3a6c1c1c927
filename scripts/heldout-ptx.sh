#!/bin/sh
# heldout-ptx: remakes the PTX of the held-out kernels (tests/heldout/*.cu -> *.ptx) the way a
# student would: `nvcc -ptx -O3 -arch=sm_90` (CUDA 13.0 made the checked-in files), or with the
# flags the table below gives a kernel in place of -O3. The PTX is test data: what the GPU script
# times and the emulator checks (tests/heldout/kernels.tsv).
# Usage: sh scripts/heldout-ptx.sh [NVCC [DIR]]   (default /usr/local/cuda/bin/nvcc; DIR: write
# the PTX there instead of beside the sources, as tests/e2e_heldout.sh does to compare)
set -e
NVCC=${1:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")/../tests/heldout"
OUT=${2:-.}
# NAME FLAGS: the kernels not built with -O3
FLAGS='tiled_debug -G'
for cu in *.cu; do
	n=${cu%.cu}
	f=$(echo "$FLAGS" | awk -v n="$n" '$1 == n { $1 = ""; print; found = 1 } END { if (!found) print "-O3" }')
	case " $f " in
	*" -G "*) # -G writes the folder it compiled in into the PTX's debug strings: always the same one
		G=/tmp/ptxtutor-heldout-G
		mkdir -p "$G" && cp "$cu" "$G/" && here=$(pwd) && out=$(cd "$OUT" && pwd)
		(cd "$G" && "$NVCC" -ptx $f -arch=sm_90 -o "$out/$n.ptx" "$cu") && cd "$here" ;;
	*) "$NVCC" -ptx $f -arch=sm_90 -o "$OUT/$n.ptx" "$cu" ;;
	esac
	# -G names the source by its absolute path in .file: the file's own name, wherever the tree is
	sed -i 's|^\([[:space:]]*\.file[[:space:]][[:space:]]*[0-9][0-9]* "\)[^"]*/\([^/"]*"\)|\1\2|' "$OUT/$n.ptx"
done
