#!/bin/sh
# e2e_fp8_variants: variants of ptx/gen/11_fp8.py that the FP8 sweep on the GPU tries (a narrower tile
# with more stages and promotion; no clusters) assemble with ptxas and compute C right in the emulator:
# tests/test_emu_lesson11's FP8 cases run on each variant (FP8_PTX, FP8_SMEM) instead of the shipped file.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BUILD=${1:-build}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
T="$BUILD/tests/test_emu_lesson11"
case "$T" in /*) ;; *) T="$ROOT/$T" ;; esac
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip fp8 variants: no python3"
	exit 0
fi
if [ ! -x "$T" ]; then
	echo "skip fp8 variants: no $T (make it first)"
	exit 0
fi
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for flags in "--bn 128 --stages 6 --promote 1" "--bn 128 --stages 5 --cluster 1"; do
	f="$WORK/v.ptx"
	# shellcheck disable=SC2086
	if ! (cd "$ROOT" && python3 ptx/gen/11_fp8.py $flags) >"$f" 2>"$WORK/err"; then
		echo "not ok fp8 variant $flags: the generator failed"
		sed 's/^/    | /' "$WORK/err"
		continue
	fi
	# the header's "...: NNN bytes." is the dynamic shared memory the launch gives
	smem=$(sed -n 's/.*: \([0-9][0-9]*\) bytes\.$/\1/p' "$f" | head -n 1)
	if [ -n "$PTXAS" ]; then
		if "$PTXAS" -arch=sm_90a -o /dev/null "$f" >"$WORK/err" 2>&1; then
			echo "ok fp8 variant $flags: ptxas accepts it"
		else
			echo "not ok fp8 variant $flags: ptxas refuses it"
			sed 's/^/    | /' "$WORK/err"
		fi
	fi
	FP8_PTX="$f" FP8_SMEM="$smem" "$T" >"$WORK/out" 2>&1
	n=$(grep -c '^\[       OK \] test_e' "$WORK/out")
	if [ "$n" -eq 3 ]; then
		echo "ok fp8 variant $flags: gemm_e4m3 and gemm_e5m2 verified in the emulator ($smem bytes of shared memory)"
	else
		echo "not ok fp8 variant $flags: $n of 3 FP8 cases passed"
		grep -E 'ERROR|FAILED' "$WORK/out" | sed 's/^/    | /'
	fi
done
