#!/bin/sh
# e2e_wmma: the student WMMA kernels of tests/students/wmma (issue 39) beyond their rows of the
# students' corpus (tests/students/corpus.tsv, run by tests/e2e_students.sh, where each verifies at
# sm_80 and sm_90, and the f16 kernel read with B row-major is wrong): a kernel whose warp is cut
# short of 32 lanes is refused with its line, and, with nvcc 13.0 at hand, the committed PTX is what
# ptx.sh makes.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/students/wmma"
if [ ! -x "$BIN" ]; then
	echo "skip wmma: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
trap 'rm -rf "$out" "$out.d"' EXIT

# .sync.aligned: a block of 48 threads leaves its second warp 16 lanes, which wmma refuses by line
"$BIN" emulate --ptx "$DIR/bf16.sm80.ptx" --grid 'ceil(N/8),ceil(M/32)' --block 48 --dtype bf16 --out f32 \
	--size 32,16,16 >"$out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "bf16.cu:18: wmma needs all 32 lanes of the warp.*(PTX line [0-9]*)" "$out"; then
	echo "ok wmma_partial_warp_refused"
else
	echo "not ok wmma_partial_warp_refused (exit $rc, want 2)"; cat "$out"
fi

# The committed PTX is the compiler's, from the committed source.
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
if [ -z "$NVCC" ]; then
	echo "skip wmma_ptx_fresh: no nvcc on this machine"
elif ! "$NVCC" --version | grep -q 'release 13\.0'; then
	echo "skip wmma_ptx_fresh: nvcc is not 13.0, which made the committed PTX"
else
	mkdir -p "$out.d"
	if NVCC="$NVCC" sh "$DIR/ptx.sh" "$out.d" >"$out" 2>&1; then
		for f in "$out.d"/*.ptx; do
			n=$(basename "$f")
			# nvcc writes the source's absolute path into .file and hashes it into the debug
			# strings (.b8 arrays of _ZN..._INTERNAL_<hash>...): compare the rest, the code.
			if [ "$(grep -v -e '^[[:space:]]*\.file' -e '^[[:space:]]*\.b8 ' "$f")" = \
				"$(grep -v -e '^[[:space:]]*\.file' -e '^[[:space:]]*\.b8 ' "$DIR/$n")" ]; then
				echo "ok wmma_ptx_fresh $n"
			else
				echo "not ok wmma_ptx_fresh $n: differs from nvcc's output (sh tests/students/wmma/ptx.sh)"
			fi
		done
	else
		echo "not ok wmma_ptx_fresh: ptx.sh failed"; cat "$out"
	fi
fi
