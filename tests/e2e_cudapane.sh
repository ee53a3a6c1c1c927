#!/bin/sh
# e2e_cudapane: a student's own kernel in the real tutor (tmux), offline: `ptxtutor 2 --ptx lines.ptx
# --entry gemm_ok` (nvcc -lineinfo output) shows lines.cu beside the PTX; the CUDA cursor's line marks
# exactly its PTX lines (the .loc lines of the PTX), the PTX cursor names its CUDA line; after r (the
# emulator at 128^3) each CUDA line's counts are the ones `emulate --lines --by cu` prints, and those
# add up to the run's warp instructions. GPUs hidden (CUDA_VISIBLE_DEVICES=""), so the same everywhere.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
PTX="$ROOT/tests/students/lines/lines.ptx"
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip cudapane: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ] || [ ! -f "$PTX" ]; then
	echo "skip cudapane: no binary at $BIN or no $PTX"
	exit 0
fi

SOCK_NAME=ptxtutor-cudapane
. "$(dirname "$0")/lib_tmux.sh"

# What the PTX says, independently of the tutor: gemm_ok's lines under `.loc 1 CU`
# (not blank): "first last count" of CUDA line $1.
ptx_lines_of() {
	awk -v cu="$1" '/\.entry gemm_ok\(/{f=1} f&&/^\t\.loc/{cur=$3; next}
		f&&NF&&cur==cu{if(!a)a=NR; b=NR; n++} f&&/^}/{exit} END{print a, b, n}' "$PTX"
}
# The rows of the pane after its title row ($2) and before the next pane's title,
# the part left of the first vertical rule.
pane_rows() { cap "$1" | sed 's/│.*//' | awk -v t="$2" 'index($0, t){f=1; next} f&&/^ [A-Z][a-z]+ /{exit} f'; }

# (at 256^3: r emulates at 128^3 whatever the problem size, and the numbers pane's estimate, in the
# background, takes a tenth of 4096^3's CPU)
T new-session -d -s cp -x 160 -y 48 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT \
	XDG_STATE_HOME=$WORK/state XDG_DATA_HOME=$WORK/data CUDA_VISIBLE_DEVICES= \
	sh '$WORK/wrap.sh' '$BIN' 2 --ptx '$PTX' --entry gemm_ok --size 256"

# ---- the CUDA pane opens on the entry's first line ----
wait_for cp "CUDA lines.cu  line 4: PTX" 10 &&
	has cp "int row = blockIdx.y * blockDim.y + threadIdx.y;" && has cp "[your kernel]" &&
	has cp "PTX tests/students/lines/lines.ptx  gemm_ok"
check "cudapane: 2 --ptx lines.ptx shows lines.cu beside the PTX, the cursor on gemm_ok's line 4" $? cp

# ---- the CUDA cursor on line 12: its PTX lines, and only they, are marked ----
set -- $(ptx_lines_of 12)
first=$1 last=$2 count=$3
T send-keys -t cp jjjjjjjj
ok=1
if wait_for cp "CUDA lines.cu  line 12: PTX $first-$last ($count lines)" 5; then
	marked=$(pane_rows cp " PTX tests/students" | grep -o '^ *[0-9][0-9]*▶' | tr -dc '0-9\n')
	[ -n "$marked" ] && ok=0
	for l in $marked; do
		[ "$l" -ge "$first" ] && [ "$l" -le "$last" ] && [ -n "$(sed -n "${l}p" "$PTX" | tr -d ' \t')" ] || ok=1
	done
fi
check "cudapane: CUDA line 12 marks PTX $first-$last ($count lines), each one under .loc 1 12" $ok cp

# ---- Tab: the PTX cursor walks down to the first line of CUDA line 13 ----
set -- $(ptx_lines_of 13)
steps=$(($1 - first))
T send-keys -t cp Tab
keys=$(printf '%*s' "$steps" '' | tr ' ' j)
T send-keys -t cp "$keys"
wait_for cp "CUDA lines.cu  line 13: PTX $1-$2 ($3 line" 5
check "cudapane: the PTX cursor on line $1 names its CUDA line, 13" $? cp

# ---- r: the counts on the CUDA lines are emulate --lines --by cu's, and add up to the run's ----
T send-keys -t cp r
wait_for cp "PASS, verified on the CPU" 30
total=$(cap cp | grep -o 'warp instr\. *[0-9]*' | awk '{print $NF}')
T send-keys -t cp f # the PTX slot fills the screen: the CUDA pane beside it has every line
wait_for cp "summed from the PTX lines" 5
wait_stable cp
CLI="$BIN emulate --ptx $PTX --entry gemm_ok --grid ceil(N/32),ceil(M/32) --block 32,32 --size 128 --lines --by cu"
ok=0 rows=0
PTXTUTOR_ROOT=$ROOT $CLI >"$WORK/cu.txt" 2>&1 || ok=1
cuda=$(pane_rows cp "CUDA lines.cu  line 13")
for l in $(grep -o '^lines\.cu:[0-9]*' "$WORK/cu.txt" | cut -d: -f2); do
	inst=$(grep "^lines\.cu:$l " "$WORK/cu.txt" | awk '{print $2}')
	printf '%s\n' "$cuda" | grep -E "^ ?$l[▶ ] " | grep -qw -- "$inst" || { ok=1; echo "    line $l: not $inst"; }
	rows=$((rows + 1))
done
sum=$(PTXTUTOR_ROOT=$ROOT $CLI --csv | awk -F, 'NR>1{s+=$3} END{print s}')
[ "$rows" -ge 7 ] && [ -n "$total" ] && [ "$sum" = "$total" ] || ok=1
check "cudapane: after r, $rows CUDA lines carry emulate --by cu's counts, summing to the run's $total warp instructions" $ok cp

# ---- C hides the pane, C brings it back ----
T send-keys -t cp C
wait_gone cp "CUDA lines.cu" 5 && T send-keys -t cp C && wait_for cp "CUDA lines.cu" 5
check "cudapane: C hides the CUDA pane and shows it again" $? cp

T send-keys -t cp q
wait_for cp "EXIT=0" 10
check "cudapane: q leaves with status 0" $? cp

# ---- --cu: nvcc -lineinfo in a scratch copy; gemm_oob's fault marks its CUDA line ----
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
	echo "skip cudapane: --cu needs nvcc"
	exit 0
fi
cp "$ROOT/tests/students/lines/lines.cu" "$WORK/lines.cu"
T new-session -d -s cu -x 120 -y 36 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT \
	XDG_STATE_HOME=$WORK/state XDG_DATA_HOME=$WORK/data CUDA_VISIBLE_DEVICES= \
	sh '$WORK/wrap.sh' '$BIN' 2 --cu '$WORK/lines.cu' --entry gemm_oob --size 256"
wait_for cu "CUDA lines.cu  line 17: PTX" 60 && T send-keys -t cu r &&
	wait_for cu "kernel fault: lines.cu:25: out-of-bounds global load" 30 &&
	cap cu | grep -q '^25✗ .*acc += A\[(row + 1) \* K + k\]'
check "cudapane: --cu compiles lines.cu; gemm_oob's fault is marked on CUDA line 25" $? cu
T send-keys -t cu q
