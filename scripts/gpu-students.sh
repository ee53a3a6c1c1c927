#!/bin/sh
# The students' corpus on a GPU (issue 39): every row of tests/students/corpus.tsv through
# `ptxtutor run --json` (the GPU backend, verified against cuBLAS), compared with the outcome the
# emulator gives (the manifest's, which tests/e2e_students.sh checks in make test). Prints a table
# last: kernel, emulator outcome, GPU outcome, agree?. A race row agrees when the GPU gives verified
# or wrong (the note says which); a fault row when the GPU faults, or, for a read just past a buffer
# that lands in mapped memory, when compute-sanitizer's memcheck finds it; an assert row when the
# GPU's assert fault names the text and FILE.cu:LINE; printed lines are compared too.
# Usage: sh scripts/gpu-students.sh [NAME...]   (default: every row). Exits non-zero on a disagreement.
# Runs on a GPU machine from a build of this tree staged by scripts/stage-gpu.sh.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
export PTXTUTOR_ROOT="$ROOT" LD_LIBRARY_PATH="$ROOT/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PATH=$PATH:/usr/local/cuda/bin
BIN=${GPU_STUDENTS_BIN:-./ptxtutor}
if [ ! -x "$BIN" ]; then
	echo "gpu-students: no binary at $BIN (make, or scripts/stage-gpu.sh)"
	exit 1
fi
exec python3 tests/students/corpus.py gpu "$BIN" "$@"
