#!/bin/sh
# e2e_ncu_stalls: scripts/ncu_stalls_compare.py's offline parts without a GPU (tests/ncu_stalls/check_map.py):
# the cubin of a profiled run found in a JIT cache entry, nvdisasm -g's line table read for one entry,
# ncu's SASS rows given to PTX lines through it (a map of other code told), two record files merged, and
# the model's warp cycles counted per SASS instruction. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
command -v python3 >/dev/null 2>&1 || { echo "skip ncu_stalls: no python3"; exit 0; }
PTXTUTOR_ROOT=$ROOT python3 "$ROOT/tests/ncu_stalls/check_map.py" 2>&1 || echo "not ok ncu_stalls_check_map_ran"
