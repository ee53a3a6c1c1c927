#!/bin/sh
# e2e_sass: `ptxtutor sass` and the tutor's S view — without the tools (one line that says
# what is needed, exit 3), with stand-in tools (tests/data/sass/fakebin: ptxas writes
# nothing, nvdisasm prints a hand-written lesson-1 disassembly) for grouping and counts in
# text, JSON, `show --screen` and tmux, and with the real toolkit when nvdisasm or cuobjdump
# is here (lesson 5: LDS.128 under its PTX lines). Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
FAKE="$ROOT/tests/data/sass/fakebin"
if [ ! -x "$BIN" ]; then
	echo "skip sass: no binary at $BIN"
	exit 0
fi
r() { if [ "$1" -eq 0 ]; then echo "ok $2"; else echo "not ok $2"; fi; }

err=$(PTXTUTOR_CUDA_BIN=/nonexistent "$BIN" sass 1 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && printf '%s' "$err" | grep -q "nvidia-cuda-toolkit"
r $? sass-missing-one-line

out=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" sass 1)
printf '%s\n' "$out" | grep -q "^   83  fma.rn.f32 %acc, %a, %b, %acc;" &&
	printf '%s\n' "$out" | grep -A2 "^   83 " | grep -q "FFMA R9, R4.reuse, R5, R9" &&
	printf '%s\n' "$out" | grep -Eq "^@inner-loop +6 +2 +3 +0 +1$" &&
	printf '%s\n' "$out" | grep -q "28 registers"
r $? sass-grouped-counts

json=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" sass --ptx "$ROOT/ptx/01_naive.ptx" --entry sgemm_naive --arch sm_80 --json)
printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["arch"] == "sm_80" and d["counts"]["ffma"] == 2 and d["counts"]["total"] == 14, d["counts"]
assert [r for r in d["regions"] if r["name"] == "inner-loop"][0]["counts"]["ldg"] == 3
assert [l for l in d["lines"] if l["line"] == 81][0]["sass"] == ["LDG.E R4, desc[UR4][R2.64]", "LDG.E R10, desc[UR4][R2.64+0x4]"]
' 2>&1
r $? sass-json

scr=$(PTXTUTOR_CUDA_BIN="$FAKE" "$BIN" show 1 --screen --width 120 --height 30 --keys S)
printf '%s\n' "$scr" | grep -q "SASS sm_90 sgemm_naive: 14 instr, FFMA 2, LDG 3, STG 1, .reuse 1; 28 regs" &&
	printf '%s\n' "$scr" | grep -q "S2R R0, SR_TID.X"
r $? sass-screen
scr=$(PTXTUTOR_CUDA_BIN=/nonexistent "$BIN" show 1 --screen --width 120 --height 30 --keys S)
printf '%s\n' "$scr" | grep -q "nvidia-cuda-toolkit"
r $? sass-screen-missing

if ! command -v tmux >/dev/null 2>&1; then
	echo "skip sass-tmux: tmux is not installed"
	exit 0
fi
SOCK_NAME=ptxtutor-sass
. "$(dirname "$0")/lib_tmux.sh"
start() {
	name=$1 bin=$2
	shift 2
	T new-session -d -s "$name" -x 120 -y 36 \
		"exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT PTXTUTOR_CUDA_BIN=$bin XDG_STATE_HOME=$WORK/state-$name XDG_DATA_HOME=$WORK/data sh '$WORK/wrap.sh' '$BIN' $*"
}
start fake "$FAKE" 1 --page 4
wait_for fake "page 4/" && T send-keys -t fake S && wait_for fake "SASS sm_90" &&
	T send-keys -t fake c && wait_for fake "@inner-loop: 6 instr" && has fake "FFMA R9, R10, R5, R9" &&
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
"$BIN" sass 5 --counts | grep -Eq "^kernel +[0-9]+"
r $? sass-real-counts
