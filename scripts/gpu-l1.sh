#!/bin/sh
# gpu-l1: Nsight Compute's count of the L1 wavefronts global loads cost, for the model's rule
# (docs/model.md, "Global loads through L1") and lesson 1's measured rows:
#  1. build/gpu-l1-stride (make gpu-l1-stride): 32 lanes, one word each, STRIDE bytes apart;
#  2. lesson 1's own kernel, run by ptxtutor at SIZE (default 4096).
# Prints per stride: requests, sectors and wavefronts per request; then lesson 1's L1 hit rate,
# requests, sectors, wavefronts, L2 -> L1 bytes, SM clock and duration.
# Run on a GPU machine from the project root (scripts/stage-gpu.sh staged the build).
cd "$(dirname "$0")/.." || exit 1
export PTXTUTOR_ROOT="$PWD" LD_LIBRARY_PATH="$PWD/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
SIZE=${SIZE:-4096}
OUT=${OUT:-/tmp}
known=$("$NCU" --query-metrics 2>/dev/null | awk '{print $1}')
# Every L1 wavefront counter of global loads this ncu knows (names differ between versions).
wf=$(printf '%s\n' "$known" | grep -E '^l1tex__.*wavefronts.*(global|_lg).*' | grep -v -E 'shared|_st$|_red$|_atom' | sed 's/$/.sum/' | paste -sd, -)
base="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,l1tex__m_xbar2l1tex_read_bytes.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,gpu__time_duration.sum"
metrics="$base${wf:+,$wf}"
echo "wavefront counters: ${wf:-none found}"
"$NCU" --csv --page raw --print-units base --metrics "$metrics" -k strided build/gpu-l1-stride > "$OUT/ncu_l1_stride.csv" 2> "$OUT/ncu_l1_stride.err" ||
	{ cat "$OUT/ncu_l1_stride.err"; exit 1; }
"$NCU" --csv --page raw --print-units base --target-processes all -k sgemm_naive -c 1 --metrics "$metrics" \
	./ptxtutor run 1 --size "$SIZE" > "$OUT/ncu_l1_lesson1.csv" 2> "$OUT/ncu_l1_lesson1.err" ||
	{ cat "$OUT/ncu_l1_lesson1.err"; exit 1; }
# One row per launch: the metric columns by name, per-request figures computed here.
python3 - "$OUT/ncu_l1_stride.csv" "$OUT/ncu_l1_lesson1.csv" <<'PY'
import csv, sys
strides = [4, 32, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]
def rows(path):
    lines = [l for l in open(path) if l.startswith('"')]
    r = list(csv.DictReader(lines))
    return [x for x in r if x.get("ID", "").isdigit()]
def num(x):
    try: return float(x.replace(",", ""))
    except Exception: return float("nan")
for name, path in (("stride", sys.argv[1]), ("lesson 1", sys.argv[2])):
    for i, r in enumerate(rows(path)):
        req = num(r["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"])
        sec = num(r["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"])
        label = "%s %s" % (name, strides[i] if name == "stride" and i < len(strides) else "")
        print("== %s: requests %.0f, sectors/request %.2f, L1 hit %s %%, L2->L1 %.1f MB, clock %.0f MHz, %.3f ms, %s cycles" % (
            label, req, sec / req, r["l1tex__t_sector_hit_rate.pct"],
            num(r["l1tex__m_xbar2l1tex_read_bytes.sum"]) / 1e6,
            num(r["sm__cycles_elapsed.avg.per_second"]) / 1e6,
            num(r["gpu__time_duration.sum"]) / 1e6, r["sm__cycles_elapsed.max"]))
        for k, v in r.items():
            if "wavefronts" in k and num(v) > 0:
                print("   %-70s %.0f total, %.2f per request" % (k, num(v), num(v) / req))
PY
