#!/bin/sh
# gpu-power.sh: the board power and SM clock of each kind of work alone (build/gpu-power: idle, FFMA,
# shared loads, mma.sync and wgmma on random f16 data, wgmma at about 75% and 50% of its rate, an L2
# and a DRAM stream), as rows of assets/measured-h100.tsv (lesson 0, size 0, metric power_*) for the
# estimate's clock model (src/model/power.c), then a table. Builds nothing: `make gpu-power` where
# nvcc is, carry build/gpu-power, run this on the GPU machine from the project root, and replace the
# file's power_* rows with the rows it prints (the lines before the table).
#   sh scripts/gpu-power.sh [SECONDS [TEST...]]   (default 1 s a test, every test)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
[ -x build/gpu-power ] || { echo "gpu-power: build/gpu-power is missing (make gpu-power, where nvcc is)" >&2; exit 2; }
[ $# -gt 0 ] || set -- 1.0
exec build/gpu-power "$@"
