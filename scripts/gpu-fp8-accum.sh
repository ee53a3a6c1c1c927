#!/bin/sh
# gpu-fp8-accum.sh: lesson 11's accumulation and speed rows on the GPU machine, in one call.
# build/gpu-fp8-accum on the three kernels of ptx/gen/11_fp8.py it compares (the defaults; --bn 128
# --stages 6; the same with --promote 1) and lesson 10's without clusters (10_cluster.py --cluster 1),
# with nvidia-smi sampled every 50 ms meanwhile, each sample stamped with the wall clock (ms) so that
# the program's "window" lines pick out the clock and power of each configuration; then lesson 11's
# TF32 and 3xTF32 kernels (ptx/11_formats.ptx) by `ptxtutor run --ptx --json` at N^3 (JSON kept).
# Builds nothing: `make gpu-fp8-accum ptxtutor` where nvcc is, carry both, run this from the project
# root there, then `python3 scripts/fp8-accum-rows.py DIR DATE` here.
#   sh scripts/gpu-fp8-accum.sh [DIR] [N] [ROUNDS]      (/tmp/fp8, 4096, 7)
D=${1:-/tmp/fp8}
N=${2:-4096}
BIN=${FP8_ACCUM_BIN:-build/gpu-fp8-accum}
PT=${PTXTUTOR_BIN:-./ptxtutor}
[ -x "$BIN" ] || { echo "gpu-fp8-accum: $BIN is missing (make gpu-fp8-accum, where nvcc is)" >&2; exit 2; }
mkdir -p "$D" || exit 2
python3 ptx/gen/11_fp8.py >"$D/final.ptx" &&
	python3 ptx/gen/11_fp8.py --bn 128 --stages 6 >"$D/bn128.ptx" &&
	python3 ptx/gen/11_fp8.py --bn 128 --stages 6 --promote 1 >"$D/promote.ptx" &&
	python3 ptx/gen/10_cluster.py --cluster 1 >"$D/l10.ptx" || exit 1
nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_event_reasons.active --format=csv,noheader,nounits -lms 50 |
	while read -r l; do echo "$(date +%s%3N), $l"; done >"$D/smi.csv" &
SMI=$!
trap 'kill $SMI 2>/dev/null' EXIT
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$D/gpu.txt"
"$BIN" "$D/final.ptx" "$D/bn128.ptx" "$D/promote.ptx" "$D/l10.ptx" "$N" "${3:-7}" | tee "$D/out.txt"
for f in tf32:tf32 3xtf32:f32; do
	"$PT" run --ptx ptx/11_formats.ptx --entry "gemm_${f%%:*}" --dtype "${f#*:}" --grid 'ceil(N/128),ceil(M/128)' \
		--block 256 --smem 98304 --size "$N" --json >"$D/${f%%:*}.json"
	echo "gemm_${f%%:*}: $(grep -E '"(ms|cublas_ms|verified)"' "$D/${f%%:*}.json" | tr -d '\n ')"
done
