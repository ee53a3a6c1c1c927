#!/bin/sh
# e2e_students_ops: nvcc's PTX of tests/students/ops/ (issue 39's emulator gaps) through the binary:
# split-K with atomicAdd in shared and global memory verifies with no race and its atomics counted as
# stores; a -G build whose __device__ functions and __shfl_down_sync are calls of a .func verifies, and
# --lines --by cu counts the callee's own lines.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/students/ops"
if [ ! -x "$BIN" ]; then
	echo "skip students_ops: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
check() { # NAME STATUS WANT-STATUS PATTERN...: the exit status and every pattern in the output
	name=$1 got=$2 want=$3
	shift 3
	ok=1
	[ "$got" -eq "$want" ] || ok=0
	for p in "$@"; do grep -qF -- "$p" "$out" || ok=0; done
	if [ $ok -eq 1 ]; then echo "ok $name"; else echo "not ok $name (exit $got)"; cat "$out"; fi
}

"$BIN" emulate --ptx "$DIR/splitk_smem_atomic.sm80.ptx" --grid 'ceil(N/16),ceil(M/16),3' --block 16,16,2 \
	--args M,N,K,alpha:1.5,A,B,beta:1,C --size 50,70,45 >"$out" 2>&1
check students_ops_splitk_atomic $? 0 "VERIFIED" "0 races" "global stores  375 requests" "shared stores  1440 requests"

"$BIN" emulate --ptx "$DIR/dot_device_G.sm80.ptx" --grid 'ceil(N/4),M' --block 32,4 --size 50,70,45 >"$out" 2>&1
check students_ops_dot_device_G $? 0 "VERIFIED"

"$BIN" emulate --ptx "$DIR/dot_device_G.sm80.ptx" --grid 'ceil(N/4),M' --block 32,4 --size 32 --lines --by cu \
	>"$out" 2>&1
check students_ops_dot_device_G_lines $? 0 "dot_device_G.cu:8 " "sum += A[row * K + k] * B[k * N + col];" \
	"dot_device_G.cu:15 " "v += __shfl_down_sync(0xffffffff, v, offset);"
