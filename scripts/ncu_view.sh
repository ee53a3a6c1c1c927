#!/bin/sh
# Nsight Compute's view of where a lesson's time goes (docs/benchmarks.md, lesson 9):
# speed of light, tensor-pipe activity, DRAM and L2 traffic, occupancy, stall reasons.
# Run on a GPU machine from the project root: sh scripts/ncu_view.sh [LESSON...] (default 8 9)
# Env: SIZE (default 4096), NCU (path to ncu), OUT (folder for the full reports, default /tmp).
cd "$(dirname "$0")/.." || exit 1
export PTXTUTOR_ROOT="$PWD" LD_LIBRARY_PATH="$PWD/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
SIZE=${SIZE:-4096}
OUT=${OUT:-/tmp}
# Metric names differ between ncu versions: take the ones this one knows.
known=$("$NCU" --query-metrics 2>/dev/null)
tensor=$(printf '%s\n' "$known" | grep -oE '^sm__pipe_tensor_op_hmma_cycles_active' | sed 's/$/.avg.pct_of_peak_sustained_elapsed/')
stalls=$(printf '%s\n' "$known" | grep -oE '^smsp__average_warps_issue_stalled_[a-z_]*_per_issue_active' | sort -u | sed 's/$/.ratio/' | paste -sd, -)
metrics="dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
metrics="$metrics${tensor:+,$tensor}${stalls:+,$stalls}"
for l in ${*:-8 9}; do
	entry=$(grep -h '^kernel:' lessons/"$(printf %02d "$l")"-*.md | cut -d' ' -f3)
	[ -n "$entry" ] || { echo "no lesson $l with a kernel" >&2; exit 1; }
	"$NCU" --target-processes all -k "$entry" -c 1 --section SpeedOfLight --section Occupancy \
		--section WarpStateStats --section SchedulerStats --metrics "$metrics" \
		./ptxtutor run "$l" --size "$SIZE" > "$OUT/ncu_$l.txt" 2>&1
	echo "== lesson $l ($entry), ${SIZE}^3, full report in $OUT/ncu_$l.txt"
	grep -E 'Duration|SM Frequency|Compute \(SM\) Throughput|DRAM Throughput|tensor_op|dram__bytes|lts__t_sector_hit|bank_conflicts|Achieved Occupancy|Theoretical Occupancy|Issued Warp Per|Block Limit' "$OUT/ncu_$l.txt"
	grep -E 'issue_stalled' "$OUT/ncu_$l.txt" | awk '$NF+0 >= 0.1' | sort -k3 -rn
done
