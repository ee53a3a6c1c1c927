#!/bin/sh
# Prints, for every lesson at 256^3 (or the nearest valid size), the emulator's global
# requests/sectors and shared wavefronts/bank conflicts beside Nsight Compute's metrics,
# with their ratio; exits non-zero if any pair differs by more than 1%.
# Run on a GPU machine from the project root: sh scripts/ncu_compare.sh [LESSON...]
# (PTXTUTOR_BIN=path/to/ptxtutor, NCU=path/to/ncu to override; needs python3).
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/ncu_compare.py" "$@"
