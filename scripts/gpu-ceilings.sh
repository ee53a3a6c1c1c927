#!/bin/sh
# gpu-ceilings.sh: the sustained rates the time estimate divides work by (src/model/estimate.c),
# as rows of assets/measured-h100.tsv (lesson 0, size 0, metric ceiling_*): build/gpu-ceilings (the
# issue, integer, L1/shared, mma.sync and wgmma pipes and the bulk-copy (TMA) path from L2, about a
# second of every SM each) and
# build/gpu-bandwidth (L2 -> SM and DRAM). Builds nothing: `make gpu-ceilings gpu-bandwidth` where
# nvcc is, carry both, run this on the GPU machine from the project root, and replace the file's
# ceiling.* rows with its output.
#   sh scripts/gpu-ceilings.sh [SECONDS]
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
for b in build/gpu-ceilings build/gpu-bandwidth; do
	[ -x "$b" ] || { echo "gpu-ceilings: $b is missing (make gpu-ceilings gpu-bandwidth, where nvcc is)" >&2; exit 2; }
done
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
DATE=$(date +%Y-%m-%d)
C=$(build/gpu-ceilings "${1:-1.0}") || exit 1
B=$(build/gpu-bandwidth) || exit 1
echo "$C" >&2
echo "$B" >&2
row() { printf '%s\t%s\t%s\t%s\t0\t0\tceiling_%s\t%s\t%s\n' "$GPU" "$DRIVER" "$DATE" "$1" "$2" "$3" "$4"; }
echo "$C" | awk '$1 ~ /^(issue|int|lsu|mma|mma_data|wgmma|wgmma_data|tma)$/ { print $1, $2, $3 }' | while read -r name value unit; do
	row "build/gpu-ceilings ${1:-1.0} (scripts/gpu-ceilings.sh)" "$name" "$value" "$unit"
done
echo "$B" | awk '$1 == "L2" || $1 == "DRAM" { print $1, $2 }' | while read -r name value; do
	row "build/gpu-bandwidth (scripts/gpu-ceilings.sh)" "$(echo "$name" | tr 'A-Z' 'a-z')" "$value" "GB/s"
done
