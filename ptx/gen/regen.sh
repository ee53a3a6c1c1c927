#!/bin/sh
# regen.sh: the one list of generated PTX files, each with the generator command that writes it.
# Every other ptx/*.ptx is written by hand. `make ptx` runs this; tests/ptx_generated.sh
# regenerates into a temporary folder and compares byte for byte.
#
#   sh ptx/gen/regen.sh --list              the generated files' names, one a line
#   sh ptx/gen/regen.sh DIR [NAME...]       writes them (or the named ones) into DIR
# Run from anywhere; needs python3. A generator that fails leaves DIR/NAME untouched.
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# NAME  GENERATOR [FLAGS]  (the committed files use each generator's defaults, but for the
# flags given here: lesson 9's TMA epilogue is a flag, so that the sweep's variants keep theirs)
TABLE='
04_blocktile1d.ptx  blocktile.py 1d
05_blocktile2d.ptx  blocktile.py 2d
06_vectorized.ptx   06_vectorized.py
07_warptile.ptx     07_warptile.py
08_mma.ptx          08_mma.py
09_wgmma.ptx        09_wgmma.py --epilogue tma --cbufs 2
10_cluster.ptx      10_cluster.py
11_formats.ptx      11_formats.py
11_fp8.ptx          11_fp8.py
'

if [ "$1" = "--list" ]; then
	echo "$TABLE" | awk 'NF { print $1 }'
	exit 0
fi
[ $# -ge 1 ] || { echo "usage: sh ptx/gen/regen.sh --list | DIR [NAME...]" >&2; exit 2; }
DIR=$(cd "$1" && pwd)
shift
want=" $* "
for n in "$@"; do
	echo "$TABLE" | awk -v n="$n" '$1 == n { f = 1 } END { exit !f }' ||
		{ echo "regen.sh: $n is not a generated file (see --list)" >&2; exit 2; }
done
rc=0
echo "$TABLE" | {
	while read -r name gen flags; do
		[ -n "$name" ] || continue
		[ "$want" = "  " ] || case "$want" in *" $name "*) ;; *) continue ;; esac
		# The generators print `python3 ptx/gen/X.py FLAGS` in the banner: run them from the root.
		# shellcheck disable=SC2086
		if (cd "$ROOT" && python3 "ptx/gen/$gen" $flags) >"$DIR/$name.tmp"; then
			mv "$DIR/$name.tmp" "$DIR/$name"
		else
			rm -f "$DIR/$name.tmp"
			echo "regen.sh: $name: python3 ptx/gen/$gen $flags failed" >&2
			rc=1
		fi
	done
	exit $rc
}
