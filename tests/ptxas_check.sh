#!/bin/sh
# Every shipped PTX file, and every test kernel the GPU tests launch (tests/data/*.ptx), must
# assemble with ptxas as it is, for the target it declares.
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
if [ -z "$PTXAS" ]; then
	echo "skip ptxas: no ptxas on this machine (install the CUDA toolkit to check the PTX)"
	exit 0
fi
for f in "$ROOT"/ptx/*.ptx "$ROOT"/tests/data/*.ptx; do
	[ -f "$f" ] || continue
	target=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' "$f" | head -n 1)
	# An sm_50 kernel must also assemble for the H100; sm_90a only for itself.
	arch=sm_90
	[ "$target" = "sm_90a" ] && arch=sm_90a
	if out=$("$PTXAS" -arch="$arch" -o /dev/null "$f" 2>&1); then
		echo "ok ptxas $(basename "$f") ($arch)"
	else
		echo "not ok ptxas $(basename "$f") ($arch)"
		echo "$out" | sed 's/^/    /'
	fi
done
