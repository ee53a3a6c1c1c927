#!/bin/sh
# Nsight Compute's counts for lessons 9 and 10 beside the emulator's (docs/emulator.md, "Hopper counts
# against the H100"): L2 reads by the SMs (TMA included), DRAM, wgmma operand wavefronts, warp
# instructions, and every TMA/GMMA/mbarrier counter this ncu knows. Run on a GPU machine from the
# project root. Usage: sh scripts/ncu_hopper.sh [SIZE...] (default 256 512). Env: NCU, OUT.
cd "$(dirname "$0")/.." || exit 1
export PTXTUTOR_ROOT="$PWD" LD_LIBRARY_PATH="$PWD/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
OUT=${OUT:-/tmp}
known=$("$NCU" --query-metrics 2>/dev/null | awk '{print $1}')
extra=$(printf '%s\n' "$known" | grep -iE 'gmma|utma|tma|bulk|mbar|syncs' | grep -E '^(sm|smsp|l1tex|lts)__' | head -40 | sed 's/$/.sum/' | paste -sd, -)
base="lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
for size in ${*:-256 512}; do
	for l in 9 10; do
		entry=$(grep -h '^kernel:' lessons/"$(printf %02d "$l")"-*.md | cut -d' ' -f3)
		echo "== lesson $l ($entry) at ${size}^3"
		"$NCU" --print-units base --csv --page raw --target-processes all -k "$entry" -c 1 --metrics "$base${extra:+,$extra}" \
			./ptxtutor run "$l" --size "$size" > "$OUT/ncu_hopper_${l}_$size.csv" 2> "$OUT/ncu_hopper_${l}_$size.err" ||
			{ cat "$OUT/ncu_hopper_${l}_$size.err"; continue; }
		python3 - "$OUT/ncu_hopper_${l}_$size.csv" <<'PY'
import csv, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
rows = [r for r in csv.DictReader(lines) if r.get("ID", "").isdigit()]
for r in rows:
    for k, v in sorted(r.items()):
        if "__" in k and v not in ("", "0", "n/a"):
            print("   %-75s %s" % (k, v))
PY
	done
done
