#!/bin/sh
# e2e_culines: a student's CUDA lines end to end. tests/students/lines/lines.ptx (nvcc -lineinfo, its
# .file pointing where the .cu no longer is, so the .cu is found beside it) holds an out-of-bounds
# load, a shared-memory race and an endless loop: each message names lines.cu's line, the PTX line
# after it, and shows the source line. `emulate --lines --by cu` sums the PTX rows by CUDA line and
# the rows add up to the totals; --json rows carry cu_file/cu_line; `--cu` compiles with nvcc where
# there is one and says the one command to run where there is none.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip culines: no binary at $BIN"
	exit 0
fi
DIR=$ROOT/tests/students/lines
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
SHAPE="--size 32 --grid N/16,M/16 --block 16,16"

check() { # NAME STATUS
	[ "$2" -eq 0 ] && echo "ok $1" || echo "not ok $1"
}
line_of() { # TEXT: the line of lines.cu that holds it
	grep -n -F "$1" "$DIR/lines.cu" | head -n 1 | cut -d: -f1
}

# shellcheck disable=SC2086
emu() { "$BIN" emulate --ptx "$DIR/lines.ptx" $SHAPE "$@"; }

l=$(line_of 'acc += A[(row + 1) * K + k]')
emu --entry gemm_oob >"$WORK/oob" 2>&1
rc=$?
grep -q "^ptxtutor emulate: lines.cu:$l: out-of-bounds global load of 4 bytes at A+4096 (buffer holds 4096 bytes) (block 0,1,0) (PTX line [0-9]*)\$" "$WORK/oob" &&
	grep -q "^ *$l | acc += A\[(row + 1) \* K + k\] \* B\[k \* N + col\];\$" "$WORK/oob" && [ $rc -eq 2 ]
check "emulate: an out-of-bounds load names lines.cu:$l, its PTX line and shows the source line (exit $rc)" $?

emu --entry gemm_oob --json >"$WORK/oob.json" 2>/dev/null
grep -q "\"cu_line\": $l," "$WORK/oob.json" && grep -q '"cu_text": "acc += A\[(row + 1) \* K + k\] \* B\[k \* N + col\];"' "$WORK/oob.json" &&
	grep -q '"warp": [0-9]*,' "$WORK/oob.json" && grep -q '"message": "out-of-bounds global load of 4 bytes at A+4096 (buffer holds 4096 bytes)"' "$WORK/oob.json"
check "emulate --json: the fault as data in \"where\" (its CUDA line, text, block, warp, message)" $?

l=$(line_of 'tile[threadIdx.y][threadIdx.x] = B[')
l2=$(line_of 'acc += A[row * K + k0 + k] * tile[k][threadIdx.x];')
emu --entry gemm_race >"$WORK/race" 2>&1
rc=$?
grep -q "^  lines.cu:$l: shared-memory race: warp 1 writes .* (block 0,0,0) (PTX line [0-9]*; the other access: lines.cu:$l2)\$" "$WORK/race" &&
	grep -q "^ *$l | tile\[threadIdx.y\]\[threadIdx.x\] = B" "$WORK/race" && [ $rc -eq 1 ]
check "emulate: a shared-memory race names lines.cu:$l and the other access's lines.cu:$l2, and shows the source line (exit $rc)" $?

l=$(line_of 'while (flag[0] != 1.0f)')
emu --entry gemm_spin >"$WORK/spin" 2>&1
rc=$?
grep -q "timed out on the CPU emulator: lines.cu:$l: stopped after [0-9]* warp instructions (an endless loop?) (block 0,0,0) (PTX line [0-9]*)\$" "$WORK/spin" &&
	grep -q "^ *$l | while (flag\[0\] != 1.0f)" "$WORK/spin" && [ $rc -eq 2 ]
check "emulate: an endless loop's stop names lines.cu:$l (exit $rc)" $?

# --by cu: the rows by CUDA line add up to the per-PTX-line rows and to the run's totals
emu --entry gemm_ok --lines --csv >"$WORK/ptx.csv" 2>&1
emu --entry gemm_ok --lines --by cu --csv >"$WORK/cu.csv" 2>&1
emu --entry gemm_ok --json >"$WORK/ok.json" 2>&1
sum() { awk -F, -v c="$2" 'NR > 1 { s += $c } END { printf "%.0f\n", s }' "$1"; }
total=$(sed -n 's/.*"instructions": \([0-9]*\),*$/\1/p' "$WORK/ok.json" | head -n 1)
a=$(sum "$WORK/ptx.csv" 2) b=$(sum "$WORK/cu.csv" 3) ga=$(sum "$WORK/ptx.csv" 4) gb=$(sum "$WORK/cu.csv" 5)
l=$(line_of 'acc += A[row * K + k] * B[k * N + col];')
head -n 1 "$WORK/cu.csv" | grep -q '^cu_file,cu_line,instructions,' &&
	grep -q "lines.cu,$l,[0-9]*,32,2048,4096,2," "$WORK/cu.csv" &&
	[ -n "$total" ] && [ "$a" = "$total" ] && [ "$b" = "$total" ] && [ "$ga" = "$gb" ] && [ "$ga" -gt 0 ]
check "emulate --lines --by cu: rows by CUDA line sum to the totals ($b of $total instructions, $gb of $ga global requests)" $?
emu --entry gemm_ok --lines --by cu >"$WORK/cu.txt" 2>&1
grep -q "^lines.cu:$l .*acc += A\[row \* K + k\] \* B\[k \* N + col\];\$" "$WORK/cu.txt"
check "emulate --lines --by cu: a table with each CUDA line's source" $?
grep -q '"cu_file": ".*lines.cu",' "$WORK/ok.json" && grep -q "\"cu_line\": $l," "$WORK/ok.json" &&
	grep -q '"cu_lines": \[' "$WORK/ok.json"
check "emulate --json: per-line rows carry cu_file and cu_line, and the rows by CUDA line" $?
"$BIN" emulate 1 --by cu >/dev/null 2>&1
check "emulate --by without --lines is refused" $(($? != 2))
"$BIN" emulate --ptx "$DIR/lines.ptx" --entry gemm_ok $SHAPE --lines --by sass >/dev/null 2>&1
check "emulate --by sass is refused" $(($? != 2))

# --cu: nvcc -ptx -lineinfo, or the one command to run
cp "$DIR/lines.cu" "$WORK/k.cu"
PTXTUTOR_CUDA_BIN=$WORK/none "$BIN" run --cu "$WORK/k.cu" --entry gemm_ok $SHAPE >"$WORK/none" 2>&1
rc=$?
grep -q "no nvcc here" "$WORK/none" && grep -q "^  nvcc -ptx -lineinfo -arch=sm_80 .*k.cu -o .*k.ptx\$" "$WORK/none" && [ $rc -eq 2 ]
check "run --cu without nvcc: the one command to run (exit $rc)" $?
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
	"$BIN" emulate --cu "$WORK/k.cu" --entry gemm_oob $SHAPE >"$WORK/cu" 2>&1
	rc=$?
	l=$(line_of 'acc += A[(row + 1) * K + k]')
	[ -f "$WORK/k.ptx" ] && grep -q "^ptxtutor emulate: k.cu:$l: out-of-bounds global load" "$WORK/cu" && [ $rc -eq 2 ]
	check "emulate --cu: nvcc -lineinfo beside the .cu, then the fault at k.cu:$l (exit $rc)" $?
	printf 'extern "C" __global__ void k( { }\n' >"$WORK/bad.cu"
	"$BIN" emulate --cu "$WORK/bad.cu" $SHAPE >"$WORK/bad" 2>&1
	rc=$?
	grep -q "^ptxtutor emulate: --cu: nvcc failed:" "$WORK/bad" && grep -q "error" "$WORK/bad" && [ $rc -eq 2 ]
	check "emulate --cu: nvcc's errors are shown (exit $rc)" $?
else
	echo "skip emulate --cu: no nvcc on this machine"
fi
