#!/bin/sh
# gpu-bandwidth: measures the GPU's DRAM, L2 -> SM and shared-memory read bandwidth (build/gpu-bandwidth,
# built here by `make gpu-bandwidth`; it needs only the driver) and prints what assets/gpus.tsv's
# bw_gbs, l2_gbs and smem_gbs columns should say for it. Builds nothing.
# Usage: sh scripts/gpu-bandwidth.sh
# After it: put the L2 and shared figures in the GPU's row (l2_gbs, smem_gbs), change its
# levels_source to "measured by scripts/gpu-bandwidth.sh, DATE, driver D", and run `make test`:
# test_lessons checks every time in assets/measured-h100.tsv is still no faster than its bound.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
BIN=build/gpu-bandwidth
[ -x "$BIN" ] || { echo "gpu-bandwidth: $BIN is missing (make gpu-bandwidth, where nvcc is)" >&2; exit 2; }
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
OUT=$("$BIN") || exit 1
echo "$OUT"
echo "driver ${DRIVER:-unknown}, $(date +%Y-%m-%d)"
# The L2 rate lesson 9 already reaches (its tile loads all cross from L2 to the SMs): a measured
# L2 figure below it would make the bound false, so the table needs at least this much.
if [ -x ./ptxtutor ]; then
	BYTES=$(./ptxtutor show 9 --gpu h100 --json 2>/dev/null | sed -n 's/.*"l2_ms": *\([0-9.e+-]*\).*/\1/p' | head -1)
	MS=$(awk -F'\t' '$5 == 9 && $7 == "ms" { print $8; exit }' assets/measured-h100.tsv)
	L2=$(awk -F'\t' '$1 == "h100" { for (i = 1; i <= NF; i++) if (h[i] == "l2_gbs") print $i } NR == 5 { for (i = 1; i <= NF; i++) h[i] = $i }' assets/gpus.tsv)
	if [ -n "$BYTES" ] && [ -n "$MS" ] && [ -n "$L2" ]; then
		awk -v b="$BYTES" -v ms="$MS" -v l2="$L2" 'BEGIN { printf "lesson 9 (measured %s ms) needs an L2 of at least %.0f GB/s (table: %s)\n", ms, b * l2 / ms, l2 }'
	fi
fi
echo
echo "level      gpus.tsv column   measured GB/s"
echo "$OUT" | awk '$1 == "DRAM" { printf "%-10s %-17s %s\n", "DRAM", "bw_gbs", $2 } $1 == "L2" { printf "%-10s %-17s %s\n", "L2", "l2_gbs", $2 } $1 == "shared" { printf "%-10s %-17s %s\n", "shared", "smem_gbs", $2 }'
