#!/bin/sh
# e2e_sass: `ptxtutor sass` and the tutor's S view — without the tools (one line that says
# what is needed, exit 3), with stand-in tools (tests/data/sass/fakebin: ptxas writes
# nothing, nvdisasm prints a hand-written lesson-1 disassembly) for grouping and counts in
# text, JSON, `show --screen` and tmux, and with the real toolkit when nvdisasm or cuobjdump
# is here (lesson 5: LDS.128 under its PTX lines), and with a GPU the driver's JIT as the
# compiler (--jit). The reverse too: every instruction's PTX line in JSON, and the cursor
# of the S view naming the PTX line of a SASS row, by PTX line and in the machine's order.
# Stand-in runs pass --ptxas where a GPU's JIT would change what they check.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
FAKE="$ROOT/tests/data/sass/fakebin"
if [ ! -x "$BIN" ]; then
	echo "skip sass: no binary at $BIN"
	exit 0
fi
r() { if [ "$1" -eq 0 ]; then echo "ok $2"; else echo "not ok $2"; fi; }

# The missing-tool cases run on a data root without recordings (assets/sass/, shown where
# the toolkit is missing: tests/e2e_sass_recorded.sh), so they hold once those are committed.
NOREC=$(mktemp -d)
trap 'rm -rf "$NOREC"' EXIT INT TERM
mkdir "$NOREC/assets"
ln -s "$ROOT/lessons" "$ROOT/ptx" "$NOREC/"
ln -s "$ROOT/assets/gpus.tsv" "$ROOT/assets/measured-h100.tsv" "$NOREC/assets/"

err=$(PTXTUTOR_ROOT="$NOREC" PTXTUTOR_CUDA_BIN=/nonexistent "$BIN" sass 1 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && printf '%s' "$err" | grep -q "nvidia-cuda-toolkit"
r $? sass-missing-one-line

out=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" sass 1 --ptxas)
printf '%s\n' "$out" | grep -q "^   83  fma.rn.f32 %acc, %a, %b, %acc;" &&
	printf '%s\n' "$out" | grep -A2 "^   83 " | grep -q "FFMA R9, R4.reuse, R5, R9" &&
	printf '%s\n' "$out" | grep -Eq "^@inner-loop +6 +2 +3 +0 +1$" &&
	printf '%s\n' "$out" | grep -q "28 registers" &&
	printf '%s\n' "$out" | grep -q "compiled by ptxas 99.9.1, read by nvdisasm 99.9.2"
r $? sass-grouped-counts

json=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" sass --ptx "$ROOT/ptx/01_naive.ptx" --entry sgemm_naive --arch sm_80 --json)
printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["arch"] == "sm_80" and d["counts"]["ffma"] == 2 and d["counts"]["total"] == 14, d["counts"]
assert [r for r in d["regions"] if r["name"] == "inner-loop"][0]["counts"]["ldg"] == 3
assert [l for l in d["lines"] if l["line"] == 81][0]["sass"] == ["LDG.E R4, desc[UR4][R2.64]", "LDG.E R10, desc[UR4][R2.64+0x4]"]
assert d["compiler"] == "ptxas 99.9.1" and d["disassembler"] == "nvdisasm 99.9.2", (d["compiler"], d["disassembler"])
# The reverse: every instruction, in the machine order, with the PTX line it came from.
ins = d["instructions"]
assert len(ins) == 14 and [i["addr"] for i in ins] == sorted(i["addr"] for i in ins)
assert [(i["line"], i["sass"]) for i in ins if i["addr"] in (0x60, 0x70)] == [(83, "FFMA R9, R4.reuse, R5, R9"), (81, "LDG.E R10, desc[UR4][R2.64+0x4]")]
' 2>&1
r $? sass-json

# --rows: the measured-data file's rows, one per region and figure, tab-separated.
rows=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" sass 1 --rows --ptxas)
printf '%s\n' "$rows" | awk -F'\t' 'NF != 9 { bad = 1 } END { exit bad }' &&
	printf '%s\n' "$rows" | grep -q "ptxas 99.9.1 + nvdisasm 99.9.2.*ptxtutor sass 1 --rows --ptxas	1	0	sass.inner_loop.LDG	3	count$" &&
	printf '%s\n' "$rows" | grep -q "	sass.kernel.registers	28	regs$" &&
	! printf '%s\n' "$rows" | grep -q "sass.inner_loop.HMMA"
r $? sass-rows

# (the screens at --size 256: the SASS is the kernel's at any size, and the frame's estimate,
# emulated before it is drawn, takes a tenth of 4096^3's time)
scr=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" show 1 --screen --size 256 --width 120 --height 30 --keys S)
printf '%s\n' "$scr" | grep -q "SASS sm_90 sgemm_naive: 14 instr, FFMA 2, LDG 3, STG 1, .reuse 1; 28 regs" &&
	printf '%s\n' "$scr" | grep -q "S2R R0, SR_TID.X"
r $? sass-screen
scr=$(PTXTUTOR_ROOT="$NOREC" PTXTUTOR_CUDA_BIN=/nonexistent "$BIN" show 1 --screen --size 256 --width 120 --height 30 --keys S)
printf '%s\n' "$scr" | grep -q "nvidia-cuda-toolkit"
r $? sass-screen-missing
rm -rf "$NOREC"
trap - EXIT INT TERM
# The cursor: on a SASS row, the foot names the PTX line it came from and how much it became;
# in the machine's order (S again) each row carries its PTX line.
scr=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" show 1 --screen --size 256 --width 120 --height 30 --page 4 --keys Scjjjjjj)
printf '%s\n' "$scr" | grep -q "PTX 83 -> 2 SASS: fma.rn.f32 %acc, %a, %b, %acc;" &&
	printf '%s\n' "$scr" | grep -q "ptxas 99.9.1 for sm_90, read by nvdisasm 99.9.2"
r $? sass-cursor-by-line
scr=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" show 1 --screen --size 256 --width 120 --height 30 --page 4 --keys ScSjjj)
printf '%s\n' "$scr" | grep -Eq "^ +81 +LDG.E R10, desc\[UR4\]\[R2.64\+0x4\]" &&
	printf '%s\n' "$scr" | grep -q "PTX 81 -> 2 SASS: ld.global.f32 %a, \[%pA\];" &&
	printf '%s\n' "$scr" | grep -q "machine order: ptxas 99.9.1"
r $? sass-cursor-machine-order

if ! command -v tmux >/dev/null 2>&1; then
	echo "skip sass-tmux: tmux is not installed"
	exit 0
fi
SOCK_NAME=ptxtutor-sass
. "$(dirname "$0")/lib_tmux.sh"
# start NAME TOOLS ARGS...: the tutor at 256^3, as the screens above (the SASS is the kernel's at any
# size; the numbers pane's estimate, in the background, takes a tenth of 4096^3's CPU).
start() {
	name=$1 bin=$2
	shift 2
	T new-session -d -s "$name" -x 120 -y 36 \
		"exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT PTXTUTOR_CUDA_BIN=$bin XDG_STATE_HOME=$WORK/state-$name XDG_DATA_HOME=$WORK/data sh '$WORK/wrap.sh' '$BIN' $* --size 256"
}
start fake "$FAKE" 1 --page 4
wait_for fake "page 4/" && T send-keys -t fake S && wait_for fake "SASS sm_90" &&
	T send-keys -t fake c && wait_for fake "@inner-loop: 6 instr" && has fake "FFMA R9, R10, R5, R9" &&
	wait_for fake "PTX 81 -> 2 SASS" && T send-keys -t fake S && wait_for fake "machine order: " &&
	has fake "   81   LDG.E R4, desc[UR4][R2.64]" &&
	T send-keys -t fake j j && wait_for fake "PTX 83 -> 2 SASS: fma.rn.f32" &&
	T send-keys -t fake k && wait_for fake "PTX 82 -> 1 SASS" &&
	T send-keys -t fake S && wait_for fake "PTX ptx/01_naive.ptx"
check sass-tmux $? fake

# The real tools, when this machine has them: lesson 5's inner loop is LDS.128 and FFMA.
DIS=""
for d in $(echo "${PATH}:${CUDA_HOME:-/nonexistent}/bin:/usr/local/cuda/bin" | tr ':' ' '); do
	[ -x "$d/ptxas" ] && { [ -x "$d/nvdisasm" ] || [ -x "$d/cuobjdump" ]; } && { DIS=$d; break; }
done
if [ -z "$DIS" ]; then
	echo "skip sass-real: no ptxas with nvdisasm or cuobjdump here (the CUDA toolkit has them)"
	exit 0
fi
start real "$DIS" 5
wait_for real "page 1/" && T send-keys -t real S && wait_for real "SASS sm_90" 60 && has real "FFMA"
check sass-real-tmux $? real
"$BIN" sass 5 --counts --ptxas | grep -Eq "^kernel +[0-9]+"
r $? sass-real-counts

# The GPU's own JIT as the compiler, where there is a GPU (and nvdisasm to read its cubin).
if [ ! -r /proc/driver/nvidia/version ] || [ ! -x "$DIS/nvdisasm" ]; then
	echo "skip sass-jit: no NVIDIA driver here, or no nvdisasm"
	exit 0
fi
"$BIN" sass 5 --jit --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["compiler"].startswith("driver JIT "), d["compiler"]
assert d["line_info"] and d["counts"]["lds128"] > 0 and d["registers"] > 0, d["counts"]
assert all(i["line"] > 0 for i in d["instructions"] if i["sass"].startswith("LDS")), "an LDS without its PTX line"
' 2>&1
r $? sass-jit
