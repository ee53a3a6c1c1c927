#!/bin/sh
# The stall model's top reason per hot PTX line and its warp cycles per issued instruction beside
# Nsight Compute's (ncu --set full --import-source yes on `ptxtutor run N --lineinfo`), on the GPU
# machine from the staged build's root:
#   sh scripts/ncu_stalls_compare.sh [--size 4096] [--raw DIR] [--record FILE] TARGET...   (a lesson or heldout:NAME)
# (PTXTUTOR_BIN, NCU override; needs python3 and the latency_* rows in assets/measured-h100.tsv).
# Prints a table last; exits 1 on a mismatch past issue 41's bar, 2 when it could not compare.
here=$(cd "$(dirname "$0")" && pwd)
export PTXTUTOR_ROOT="${PTXTUTOR_ROOT:-$(cd "$here/.." && pwd)}"
exec python3 "$here/ncu_stalls_compare.py" "$@"
