#!/bin/sh
# e2e_edit_deadline: an edit of lesson 1 that loops for ever, in the real tutor (tmux), offline: killed
# at the deadline (PTXTUTOR_DEADLINE_S) with the edit kept and the tutor responsive; Esc cancels the
# same endless emulation at once.
# GPUs are hidden (CUDA_VISIBLE_DEVICES=""), so this runs the same on a machine with one.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
TEST=edit_deadline
. "$(dirname "$0")/lib_edit.sh"

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
