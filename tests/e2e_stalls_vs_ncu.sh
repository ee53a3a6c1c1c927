#!/bin/sh
# e2e_stalls_vs_ncu: issue 41's check of the stall model, offline: the model at 4096^3 against the Nsight Compute
# samples recorded on the GPU (tests/stalls/ncu-h100.tsv, then ncu-h200.tsv for the lines mapped again there),
# for lessons 1-11 and every held-out kernel of tests/heldout/kernels.tsv (scripts/ncu_stalls_compare.py
# --from). The top reason of each kernel's five hottest lines must agree on at least 80% of those lines, and
# warp cycles per issued instruction be within 25% of ncu's for all kernels but one (warp_dot's, not modelled
# yet: docs/model.md). A change that loses lines fails here. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
command -v python3 >/dev/null 2>&1 || { echo "skip stalls_vs_ncu: no python3"; exit 0; }
case "$BIN" in *asan*) echo "skip stalls_vs_ncu: 27 kernels at 4096^3 take minutes under the sanitizers"; exit 0 ;; esac
held=$(grep -v '^#' "$ROOT/tests/heldout/kernels.tsv" | cut -f1 | sed 's/^/heldout:/')
out=$(cd "$ROOT" && PTXTUTOR_BIN=$BIN python3 scripts/ncu_stalls_compare.py --from tests/stalls/ncu-h100.tsv \
	--from tests/stalls/ncu-h200.tsv 1 2 3 4 5 6 7 8 9 10 11 $held 2>&1)
kernels=$(printf '%s\n' "$out" | awk '$2 == "agree" { n++ } END { print n + 0 }')
agree=$(printf '%s\n' "$out" | awk '$2 == "agree" { s += $3; t += $5 } END { print s + 0, t + 0 }')
cpi=$(printf '%s\n' "$out" | awk '$2 == "cpi" && $NF == "yes" { n++ } END { print n + 0 }')
set -- $agree
if [ "$kernels" -ge 27 ] && [ "$1" -gt 0 ] && [ $((100 * $1)) -ge $((80 * $2)) ]; then
	echo "ok stalls_vs_ncu_hot_lines: $1 of $2 agree ($kernels kernels)"
else
	echo "not ok stalls_vs_ncu_hot_lines: $1 of $2 agree ($kernels kernels): $(printf '%s\n' "$out" | grep ' NO$' | head -40)"
fi
if [ "$kernels" -ge 27 ] && [ "$cpi" -ge $((kernels - 1)) ]; then
	echo "ok stalls_vs_ncu_cpi: $cpi of $kernels within 25%"
else
	echo "not ok stalls_vs_ncu_cpi: $cpi of $kernels within 25%: $(printf '%s\n' "$out" | awk '$2 == "cpi"')"
fi
