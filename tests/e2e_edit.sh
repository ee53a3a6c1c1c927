#!/bin/sh
# e2e_edit: editing a lesson's PTX in the real tutor (tmux), offline: r emulates on the CPU, e opens a
# fake $EDITOR on the student's copy, the PTX shown and the emulated counts change, a syntax error shows
# at its line, the edit survives a restart, R shows the diff and restores; the shipped file is never
# written. Also `ptxtutor run --ptx FILE ... --emulate` end to end. GPUs are hidden
# (CUDA_VISIBLE_DEVICES=""), so this runs the same on a machine with one.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip edit: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	echo "skip edit: no binary at $BIN"
	exit 0
fi
SHIPPED="$ROOT/ptx/01_naive.ptx"
if [ ! -f "$SHIPPED" ]; then
	echo "skip edit: no $SHIPPED"
	exit 0
fi

SOCK_NAME=ptxtutor-edit
. "$(dirname "$0")/lib_tmux.sh"

DATA="$WORK/data"
COPY="$DATA/ptxtutor/ptx/01_naive.ptx"
sum() { cksum <"$1"; }
SHIPPED_SUM=$(sum "$SHIPPED")

# The fake editor applies whatever $WORK/next-edit says to the file it is given.
cat >"$WORK/editor.sh" <<EOF
#!/bin/sh
echo "\$1" >"$WORK/edited-path"
sh "$WORK/next-edit" "\$1"
EOF
chmod +x "$WORK/editor.sh"
next_edit() { printf '%s\n' "$1" >"$WORK/next-edit"; }

start() { # NAME [ARGS...]; $EXTRA: more VAR=VALUE for the tutor
	name=$1
	shift
	T new-session -d -s "$name" -x 160 -y 48 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT \
		XDG_STATE_HOME=$WORK/state XDG_DATA_HOME=$DATA EDITOR=$WORK/editor.sh CUDA_VISIBLE_DEVICES= $EXTRA \
		sh '$WORK/wrap.sh' '$BIN' $*"
}
# The run pane's value on a line ("gmem loads     16.5  sectors/request" -> 16.5).
value() { cap "$1" | grep -o "$2  *[0-9.]*  sectors/request" | head -n 1 | awk '{print $(NF-1)}'; }

# ---- r without a GPU: the emulator runs lesson 1 at 128^3 ----
start ed --lesson 1
wait_for ed "Naive"
T send-keys -t ed r
wait_for ed "PASS, verified on the CPU" 30
before=$(value ed "gmem loads")
has ed "Emulated on the CPU at 128" && has ed "emu sectors    16.5" && [ "$before" = "16.5" ]
check "edit: r without a GPU emulates lesson 1 (verified, 16.5 sectors per load request)" $? ed

# ---- e: the fake editor loads B twice per k ----
next_edit "sed -i 's/^\\(\\tld.global.f32 %b, \\[%pB\\];.*\\)\$/\\1\\n\\tld.global.f32 %b, [%pB];    \\/\\/ a second load of B/' \"\$1\""
T send-keys -t ed e
wait_for ed "[edited]" 10
wait_for ed "gmem loads     11.3" 30
after=$(value ed "gmem loads")
[ "$(cat "$WORK/edited-path" 2>/dev/null)" = "$COPY" ] && has ed "// a second load of B" &&
	has ed "[edited: R diff]" && has ed "emu sectors    11.3" && [ "$after" = "11.3" ] &&
	[ "$(sum "$SHIPPED")" = "$SHIPPED_SUM" ]
check "edit: e opens the copy in \$EDITOR; the PTX shown and the counts change (16.5 -> 11.3); shipped file unchanged" $? ed

# ---- a syntax error shows at its line ----
next_edit "sed -i 's/^\\tfma.rn.f32 %acc, %a, %b, %acc;/\\tfmaa.rn.f32 %acc, %a, %b, %acc;/' \"\$1\""
T send-keys -t ed e
wait_for ed "parse error" 30
line=$(grep -n "fmaa.rn.f32" "$COPY" | cut -d: -f1)
screen=$(cap ed)
# The line's number carries the mark, and the message is on the row under it.
printf '%s\n' "$screen" | grep -A1 -E "(^|[^0-9])${line}(✗|!) +fmaa.rn.f32" | tail -n 1 |
	grep -qF "error: unsupported instruction 'fmaa.rn.f32'" &&
	printf '%s\n' "$screen" | grep -qF "1 problem at line $line" &&
	printf '%s\n' "$screen" | grep -qF "01_naive.ptx:$line: unsupported instruction" &&
	[ "$(sum "$SHIPPED")" = "$SHIPPED_SUM" ]
check "edit: a syntax error is marked at its line ($line) in the PTX pane and named in the run pane" $? ed

# ---- the edit survives a restart ----
T send-keys -t ed q
wait_for ed "EXIT=0"
T kill-session -t ed
start ed2 --lesson 1
wait_for ed2 "Naive"
has ed2 "Naive: one thread per output [edited]" && has ed2 "[edited: R diff]"
check "edit: the edit survives a restart" $? ed2

# ---- R shows the diff, y restores ----
T send-keys -t ed2 R
wait_for ed2 "against the original"
has ed2 "2 lines added, 1 removed" && has ed2 "fmaa.rn.f32" && has ed2 "y restores the original"
check "edit: R shows the diff against the original" $? ed2
T send-keys -t ed2 y
wait_for ed2 "Restored the shipped"
! has ed2 "[edited]" && ! has ed2 "against the original" && [ ! -e "$COPY" ] && grep -q fmaa "$COPY~" &&
	[ "$(sum "$SHIPPED")" = "$SHIPPED_SUM" ]
check "edit: y restores the original (the edit kept as ~), shipped file unchanged" $? ed2

# ---- a fault: the worker restarts, the edit is kept, the next run works ----
next_edit "sed -i 's/^\\tst.global.f32 \\[%pC\\], %acc;/\\tadd.u64 %pC, %pC, 0x10000000000;\\n&/' \"\$1\""
T send-keys -t ed2 e
wait_for ed2 "fault (emulated)" 30
has ed2 "out-of-bounds global store" && has ed2 "Your edit is kept" && has ed2 "[edited]"
check "edit: an out-of-bounds store is a fault at its line; the edit is kept" $? ed2
T send-keys -t ed2 R
wait_for ed2 "against the original"
T send-keys -t ed2 y
wait_for ed2 "Restored the shipped"
T send-keys -t ed2 r
wait_for ed2 "PASS, verified on the CPU" 30
has ed2 "gmem loads     16.5"
check "edit: after the fault and a restore, r runs the shipped kernel again" $? ed2
T send-keys -t ed2 q
wait_for ed2 "EXIT=0"
check "edit: q exits 0" $? ed2

# ---- an endless loop: killed at the deadline (PTXTUTOR_DEADLINE_S), or by Esc; the tutor stays ----
spin="sed -i 's/^\\tcvta.to.global.u64 %C, %C;/&\\n\\t{\\n\\t.reg .u32 %spin;\\n\\t.reg .pred %again;\\nSPIN:\\n\\tld.volatile.global.u32 %spin, [%A];\\n\\tsetp.ne.u32 %again, %spin, 0x7fc00001;\\n\\t@%again bra SPIN;\\n\\t}/' \"\$1\""
rm -f "$COPY"
EXTRA="PTXTUTOR_DEADLINE_S=1" start dl --lesson 1
wait_for dl "Naive"
next_edit "$spin"
t0=$(date +%s)
T send-keys -t dl e
wait_for dl "timed out" 20
t1=$(date +%s)
has dl "after 1 s (deadline)" && has dl "Your edit is kept" && has dl "[edited]" && grep -q SPIN "$COPY" &&
	[ $((t1 - t0)) -le 6 ]
check "edit: an endless loop is killed at the deadline ($((t1 - t0)) s), the tutor says so and keeps the edit" $? dl
T send-keys -t dl "]"
wait_for dl "Global memory coalescing |"
has dl "Global memory coalescing |"
check "edit: the tutor stays responsive after the kill" $? dl
T send-keys -t dl q
wait_for dl "EXIT=0"
T kill-session -t dl
# Lesson 1 still holds the spinning edit: r emulates it until Esc.
start esc --lesson 1
wait_for esc "Naive"
T send-keys -t esc r
wait_for esc "Emulating naive on the CPU" 10
T send-keys -t esc Escape
wait_for esc "cancelled" 5
has esc "cancelled" && ! has esc "Emulating naive"
check "edit: Esc cancels an endless emulation at once" $? esc
T send-keys -t esc q
wait_for esc "EXIT=0"
T kill-session -t esc
rm -f "$COPY"

# ---- your own kernel: run --ptx ... --emulate ----
cp "$SHIPPED" "$WORK/mine.ptx"
out=$(cd "$WORK" && CUDA_VISIBLE_DEVICES= "$BIN" run --ptx mine.ptx --entry sgemm_naive --grid 'ceil(N/32),ceil(M/32)' \
	--block 32,32 --size 96,64,32 --emulate 2>&1)
rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "sgemm_naive at 96x64x32 on the CPU (f32): VERIFIED"
check "run --ptx FILE --emulate: verified (exit 0)" $? 
[ $rc -eq 0 ] || printf '%s\n' "$out" | sed 's/^/    | /'
json=$(cd "$WORK" && "$BIN" run --ptx mine.ptx --entry sgemm_naive --grid 'ceil(N/32),ceil(M/32)' \
	--block 32,32 --size 128 --args 'A B C M N K' --emulate --json 2>&1)
printf '%s' "$json" | grep -q '"verified": true' && printf '%s' "$json" | grep -q '"sectors_per_request": 16.5'
check "run --ptx FILE --emulate --json: verified, 16.5 sectors per load request" $?
# One schema: run --json (no GPU here: status "no GPU"), run --emulate --json and emulate --json share their keys.
keys() { python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin).keys()))'; }
own() { (cd "$WORK" && CUDA_VISIBLE_DEVICES= "$BIN" "$@" --ptx mine.ptx --entry sgemm_naive \
	--grid 'ceil(N/32),ceil(M/32)' --block 32,32 --size 64 --json 2>/dev/null | keys); }
gpu=$(own run)
emu=$(own run --emulate)
tool=$(own emulate)
[ -n "$gpu" ] && [ "$gpu" = "$emu" ] && [ "$tool" = "$gpu" ]
check "run --json, run --emulate --json and emulate --json: one schema ($gpu)" $?
sed -i 's/^\tfma.rn.f32/\tfmaa.rn.f32/' "$WORK/mine.ptx"
refused=$(own emulate | sed 's/ jit_log//')
[ -n "$refused" ] && [ "$refused" = "$gpu" ]
check "emulate --json of a kernel the emulator refuses: the same schema, no {\"error\"} object" $?
out=$(cd "$WORK" && "$BIN" run --ptx mine.ptx --entry sgemm_naive --grid 'ceil(N/32),ceil(M/32)' \
	--block 32,32 --size 64 --emulate 2>&1)
rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$out" | grep -qE "mine.ptx:[0-9]+: unsupported instruction 'fmaa.rn.f32'"
check "run --ptx FILE --emulate: a syntax error names FILE:LINE (exit 2)" $?
[ "$(sum "$SHIPPED")" = "$SHIPPED_SUM" ]
check "edit: the shipped PTX was never written" $?
