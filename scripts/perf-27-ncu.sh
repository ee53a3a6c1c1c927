#!/bin/sh
# Nsight Compute's stall reasons and pipe use for one `ptxtutor run` (issue 27 sweeps):
#   sh scripts/perf-27-ncu.sh ENTRY REPORT RUN-ARGS...
# prints the lines that say where time goes; the whole report goes to REPORT.
# Same metrics as scripts/ncu_view.sh; run from the project root on a GPU machine.
entry=$1 report=$2
shift 2
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
known=$("$NCU" --query-metrics 2>/dev/null)
stalls=$(printf '%s\n' "$known" | grep -oE '^smsp__average_warps_issue_stalled_[a-z_]*_per_issue_active' | sort -u | sed 's/$/.ratio/' | paste -sd, -)
metrics="sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,dram__bytes_read.sum"
metrics="$metrics${stalls:+,$stalls}"
"$NCU" --target-processes all -k "$entry" -c 1 --section SpeedOfLight --section Occupancy \
	--section WarpStateStats --section SchedulerStats --metrics "$metrics" \
	./ptxtutor run "$@" > "$report" 2>&1
grep -E 'Duration|SM Frequency|Compute \(SM\) Throughput|pipe_fma|issue_active|inst_executed_pipe|tensor_op|dram__bytes|lts__t_sector_hit|bank_conflicts|wavefronts_mem_shared|Achieved Occupancy|Issued Warp Per|Eligible Warps|No Eligible|Registers Per' "$report"
grep -E 'issue_stalled' "$report" | awk '$NF+0 >= 0.1' | sort -k3 -rn
