#!/bin/sh
# gpu-lg-depth.sh: build/gpu-lg-depth under Nsight Compute for a grid of load widths (W lines), bursts
# (N loads) and warps an SM; one line each: the wavefronts asked for at once (WARPS x N x W), the share of
# the warps' stalls at LG throttle and at long scoreboard, and the L1 data stage's wavefronts a cycle.
# Needs ncu and the staged build (sh scripts/stage-gpu.sh; make gpu-lg-depth).
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
BIN=${BIN:-build/gpu-lg-depth}
printf 'W\tN\twarps\tin_flight\tlg_throttle\tlong_sb\twavefronts_a_cycle\n'
for cfg in "1 32 32" "4 8 32" "4 16 32" "4 32 32" "8 4 32" "8 8 32" "8 16 32" "8 32 32" "32 4 32" "32 8 32" \
	"32 16 32" "32 32 32" "32 8 8" "8 32 8" "32 4 16" "8 16 16"; do
	set -- $cfg
	"$NCU" --section WarpStateStats --metrics l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum,sm__cycles_elapsed.avg,device__attribute_multiprocessor_count \
		--page raw --csv "$BIN" "$1" "$2" "$3" 2>/dev/null | python3 -c '
import csv, sys
w, n, warps = (int(x) for x in sys.argv[1:4])
rows = [r for r in csv.reader(sys.stdin) if len(r) > 5]
head, vals = rows[0], rows[-1]
def num(s):
    try: return float(s.replace(",", ""))
    except ValueError: return None
d = {h: num(v) for h, v in zip(head, vals)}
stall = {h: v for h, v in d.items() if v is not None and "issue_stalled" in h and h.endswith("_per_issue_active.ratio") and "not_issued" not in h}
tot = sum(stall.values()) or 1
def share(key): return sum(v for h, v in stall.items() if key in h) / tot
wav = d.get("l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum") or 0
cyc = d.get("sm__cycles_elapsed.avg") or 1
print("%d\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f" % (w, n, warps, warps * n * w, share("lg_throttle"), share("long_scoreboard"), wav / (d.get("device__attribute_multiprocessor_count") or 132) / cyc))
' "$1" "$2" "$3"
done
