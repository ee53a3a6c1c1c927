#!/bin/sh
# Per PTX line, the emulator's counts beside Nsight Compute's source counters for lessons 1-8
# (or those named) at 256^3 (or the nearest size the lesson takes): requests, global sectors,
# shared wavefronts and bank conflicts of every memory line with OK/DIFF at 1%, a summary per
# lesson and the instruction totals (PTX against SASS, which differ by design). ncu profiles
# `ptxtutor run N --lineinfo` (the .loc copy of the PTX, so SASS maps to PTX lines), first launch
# of the lesson's entry only; every CSV it printed is kept in --raw DIR.
# Run on a GPU machine from the project root, with ptxtutor built there:
#   sh scripts/ncu_lines.sh --raw ncu-lines-raw --md ncu-lines.md [LESSON...]
# (PTXTUTOR_BIN=path/to/ptxtutor, NCU=path/to/ncu to override; needs python3). Exits 1 when a
# memory line differs by more than 1%, 2 when a lesson could not be compared.
here=$(cd "$(dirname "$0")" && pwd)
export PTXTUTOR_ROOT="${PTXTUTOR_ROOT:-$(cd "$here/.." && pwd)}"
exec python3 "$here/ncu_lines.py" "$@"
