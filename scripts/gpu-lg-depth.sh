#!/bin/sh
# gpu-lg-depth.sh: build/gpu-lg-depth under Nsight Compute for a grid of load widths (W lines), bursts
# (N loads), warps an SM and MODE (hit: every line an L1 hit; miss: every line an L1 miss, an L2 hit; fill:
# the block's first warp to a line misses, the others hit it there or on its way); one
# line each: the wavefronts asked for at once (WARPS x N x W), the share of the warps' stalls at LG throttle
# and at long scoreboard, the L1's sector hit rate, its data stage's wavefronts a cycle, the L2's sectors
# to the SM a cycle, the SM cycles a round (256 rounds) and the SM clock ncu held (MHz). The same table's model side:
# scripts/lg-depth-model.py. Needs ncu and the staged build (sh scripts/stage-gpu.sh; make gpu-lg-depth).
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
BIN=${BIN:-build/gpu-lg-depth}
SHAPES=${SHAPES:-$(grep -v '^#' "$(dirname "$0")/lg-depth-shapes.txt")}
printf 'W\tN\twarps\tmode\tin_flight\tlg_throttle\tlong_sb\tl1_hit\twavefronts_a_cycle\tl2_sectors_a_cycle\tcycles_a_round\tsm_mhz\n'
echo "$SHAPES" | while read -r w n warps mode; do
	[ -n "$mode" ] || continue
	"$NCU" --clock-control base --print-units base --section WarpStateStats --metrics l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum,sm__cycles_elapsed.avg,device__attribute_multiprocessor_count,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,sm__cycles_elapsed.avg.per_second \
		--page raw --csv "$BIN" "$w" "$n" "$warps" "$mode" 2>/dev/null | python3 -c '
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
sms = d.get("device__attribute_multiprocessor_count") or 132
cyc = d.get("sm__cycles_elapsed.avg") or 1
wav = (d.get("l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum") or 0) / sms / cyc
l2 = (d.get("lts__t_sectors_srcunit_tex_op_read.sum") or 0) / sms / cyc
print("%d\t%d\t%d\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.0f\t%.0f" % (w, n, warps, sys.argv[4], warps * n * w, share("lg_throttle"),
      share("long_scoreboard"), (d.get("l1tex__t_sector_hit_rate.pct") or 0) / 100, wav, l2, cyc / 256,
      (d.get("sm__cycles_elapsed.avg.per_second") or 0) / 1e6))
' "$w" "$n" "$warps" "$mode"
done
