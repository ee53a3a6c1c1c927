#!/bin/sh
# e2e_edit: editing a lesson's PTX in the real tutor (tmux), offline: r emulates on the CPU, e opens a
# fake $EDITOR on the student's copy, the PTX shown and the emulated counts change, a syntax error shows
# at its line, the edit survives a restart, R shows the diff and restores, a fault keeps the edit; the
# shipped file is never written. (The deadline and Esc: e2e_edit_deadline.sh; run --ptx: e2e_ownkernel.sh.)
# GPUs are hidden (CUDA_VISIBLE_DEVICES=""), so this runs the same on a machine with one.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
TEST=edit
. "$(dirname "$0")/lib_edit.sh"

# ---- r without a GPU: the emulator runs lesson 1 at 128^3 ----
# (the tutor at 256^3: r emulates at 128^3 whatever the problem size, and the numbers pane's estimate,
# in the background, takes a tenth of 4096^3's CPU)
start ed --lesson 1 --size 256
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
wait_for ed "1 problem at line" 30
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
start ed2 --lesson 1 --size 256
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
[ "$(sum "$SHIPPED")" = "$SHIPPED_SUM" ]
check "edit: the shipped PTX was never written" $?
