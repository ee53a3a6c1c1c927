#!/bin/sh
# e2e_wmma: the student WMMA kernels of tests/students/wmma (issue 39), as nvcc compiles them for
# sm_80 and sm_90, each verify with `ptxtutor emulate --ptx` at two sizes: f16 -> f32 with A
# row-major and B column-major (--bmajor k) and alpha/beta on the fragments' elements, f16 with
# both row-major through shared memory, bf16, tf32 (rounded per element). The same f16 kernel read
# with B row-major is reported wrong (exit 1), and a kernel whose warp is cut short of 32 lanes is
# refused with its line. With nvcc 13.0 at hand, the committed PTX is what ptx.sh makes.
# (s8 -> s32 runs in tests/test_emu_wmma.c: there is no s8 dtype yet.)
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
# name | emulate's options | two sizes
while IFS='|' read -r name opts sizes; do
	for arch in sm80 sm90; do
		entry=wmma_${name%_smem}
		for size in $sizes; do
			# shellcheck disable=SC2086 # opts are words
			"$BIN" emulate --ptx "$DIR/$name.$arch.ptx" $opts --size "$size" >"$out" 2>&1
			rc=$?
			if [ $rc -eq 0 ] && head -1 "$out" | grep -q "^$entry at .*: VERIFIED$"; then
				echo "ok wmma_${name}_${arch}_$size $(sed -n 3p "$out" | cut -c3-30)"
			else
				echo "not ok wmma_${name}_${arch}_$size (exit $rc)"; cat "$out"
			fi
		done
	done
done <<'ROWS'
f16_rowcol|--args M,N,K,alpha:1.5,A,B,beta:0.5,C --grid ceil(N/64),ceil(M/16) --block 128 --dtype f16 --out f32 --bmajor k|64,96,48 128,32,80
f16_rowrow_smem|--grid ceil(N/128),ceil(M/8) --block 128 --dtype f16 --out f16|64,96,48 24,160,32
bf16|--grid ceil(N/32),ceil(M/32) --block 128 --dtype bf16 --out f32|64,40,48 96,64,32
tf32|--grid ceil(N/64),ceil(M/16) --block 128 --dtype tf32 --out f32 --bmajor k|64,48,40 32,80,16
ROWS

# B read row-major by a kernel that takes it column-major: wrong values, exit 1
"$BIN" emulate --ptx "$DIR/f16_rowcol.sm80.ptx" --args 'M N K alpha:1.5 A B beta:0.5 C' \
	--grid 'ceil(N/64),ceil(M/16)' --block 128 --dtype f16 --out f32 --size 64 >"$out" 2>&1
rc=$?
if [ $rc -eq 1 ] && head -1 "$out" | grep -q ": FAILED$"; then
	echo "ok wmma_wrong_layout_fails"
else
	echo "not ok wmma_wrong_layout_fails (exit $rc, want 1)"; cat "$out"
fi

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
