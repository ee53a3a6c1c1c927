#!/bin/sh
# gpu-clocks.sh: the SM clock and board power while each lesson's kernel runs under `ptxtutor bench`
# (nvidia-smi sampled every 20 ms; the median over each lesson's bench, cuBLAS's turns included), to
# show how far below the maximum boost clock a GPU at its power limit runs each kind of work
# (docs/model.md). Run on the GPU machine from the root where ./ptxtutor was built.
#   sh scripts/gpu-clocks.sh [SIZE] [LESSON...]
BIN=${PTXTUTOR_BIN:-./ptxtutor}
SIZE=${1:-4096}
[ $# -gt 0 ] && shift
LESSONS=${*:-"1 2 3 4 5 6 7 8 9 10"}
command -v nvidia-smi >/dev/null 2>&1 || { echo "gpu-clocks: nvidia-smi not found" >&2; exit 2; }
W=$(mktemp -d)
trap 'kill $SMI 2>/dev/null; rm -rf "$W"' EXIT
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader,nounits -lms 20 >"$W/smi" &
SMI=$!
sleep 1
for n in $LESSONS; do
	echo "$n $(date +%s.%N)" >>"$W/marks"
	"$BIN" bench "$n" --size "$SIZE" >/dev/null 2>&1 || echo "gpu-clocks: bench $n failed" >&2
	echo "end $(date +%s.%N)" >>"$W/marks"
done
sleep 0.2
kill $SMI 2>/dev/null
python3 - "$W/smi" "$W/marks" <<'PY'
import sys, datetime, statistics
rows = []
for line in open(sys.argv[1]):
    f = [x.strip() for x in line.split(',')]
    try:
        t = datetime.datetime.strptime(f[0], '%Y/%m/%d %H:%M:%S.%f').timestamp()
        rows.append((t, float(f[1]), float(f[2])))
    except (ValueError, IndexError):
        pass
marks = [l.split() for l in open(sys.argv[2])]
print("lesson  samples  SM MHz (median)  min-max      power W (median)")
for i in range(0, len(marks) - 1, 2):
    n, t0, t1 = marks[i][0], float(marks[i][1]), float(marks[i + 1][1])
    s = [r for r in rows if t0 <= r[0] <= t1]
    if not s:
        print(f"{n:>6}  no samples"); continue
    c = [r[1] for r in s]; p = [r[2] for r in s]
    print(f"{n:>6}  {len(s):7d}  {statistics.median(c):15.0f}  {min(c):.0f}-{max(c):.0f}  {statistics.median(p):10.0f}")
PY
