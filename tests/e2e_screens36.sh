#!/bin/sh
# e2e_screens36: what issue 36's lecture reading found on the real course's screens, through
# `ptxtutor show --screen` (the tutor's own frame, no terminal needed): lesson 11's tables
# aligned at every size, lesson 6.5's conflict legend agreeing with its page, ASCII spellings
# of the lessons' symbols, the numbers pane's words. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip screens36: no binary at $BIN"
	exit 0
fi
if [ "$(ls "$ROOT"/lessons/[0-9]*.md 2>/dev/null | wc -l)" -lt 10 ]; then
	echo "skip screens36: the real course is not under $ROOT"
	exit 0
fi
export PTXTUTOR_ROOT="$ROOT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
export XDG_STATE_HOME="$WORK/state" XDG_DATA_HOME="$WORK/data"

check() {
	if [ "$2" -eq 0 ]; then echo "ok $1"; else
		echo "not ok $1"
		[ -n "$3" ] && [ -f "$3" ] && sed 's/^/    | /' "$3" | head -n 40
	fi
}
# screen FILE LESSON PAGE COLS ROWS [ARGS...]: the tutor's frame as text.
screen() {
	f=$1 l=$2 p=$3 c=$4 r=$5
	shift 5
	LC_ALL=C.UTF-8 "$BIN" show "$l" --screen --page "$p" --width "$c" --height "$r" "$@" >"$f" 2>&1
}

# ---- F11: lesson 11's tables, aligned, at every size (with f to give the text the screen) ----
# (--size 256: the tables are the page's text, the same at any problem size; the frame's
# estimate, emulated before it is drawn, takes a tenth of the time at 256^3)
for size in 80x24 100x30 120x36 240x67; do
	c=${size%x*} r=${size#*x}
	screen "$WORK/t2" 11 2 "$c" "$r" --present --size 256
	grep -q "format  sign  exponent  mantissa  bias" "$WORK/t2" && ! grep -qF "|---|" "$WORK/t2" &&
		! grep -qF "| f32 |" "$WORK/t2"
	check "screens36 $size: lesson 11.2's table has aligned columns, no Markdown bars" $? "$WORK/t2"
done
screen "$WORK/t6" 11 6 240 67 --size 256
grep -qE "^ +format +K = 1024 +K = 16384" "$WORK/t6" && grep -qE "^ +f32, lesson 7 +[0-9.e-]+ +[0-9.e-]+" "$WORK/t6" &&
	! grep -qF "| 3xTF32 |" "$WORK/t6"
check "screens36: lesson 11.6's measured table is a table, not a paragraph" $? "$WORK/t6"

# ---- F18: lesson 6.5's legend says what is conflict-free for its v4 reads, as the page does ----
# (--size 256 where a check reads the page's text, the passes a warp makes or the occupancy, the same
# lines at any problem size: the frame's estimate takes a tenth of the time)
screen "$WORK/l6" 6 5 240 67 --size 256
grep -qE "smem pass A/B +2 / 8 +conflict-free: 2 / 4" "$WORK/l6" && grep -q "where 4 would be conflict-free" "$WORK/l6" &&
	! grep -qF "1 = no conflict" "$WORK/l6"
check "screens36: lesson 6.5's numbers pane says 4 passes are conflict-free for B's v4 reads, as its page" $? "$WORK/l6"
screen "$WORK/l5" 5 1 240 67 --size 256
grep -qE "smem pass A/B +[0-9.]+ / [0-9.]+ +no bank conflict" "$WORK/l5"
check "screens36: lesson 5's conflict-free reads say so" $? "$WORK/l5"

# ---- F10: LANG=C (ASCII): the lessons' symbols spelled out, not "?" ----
LANG=C LC_ALL=C "$BIN" show 1 --screen --page 1 --width 240 --height 67 >"$WORK/a1" 2>&1
LANG=C LC_ALL=C "$BIN" show 10 --screen --page 1 --width 240 --height 67 >"$WORK/a10" 2>&1
LANG=C LC_ALL=C "$BIN" show 11 --screen --page 6 --width 240 --height 67 >"$WORK/a11" 2>&1
cat "$WORK/a1" "$WORK/a10" "$WORK/a11" >"$WORK/ascii"
grep -qF "sum A[row][k]" "$WORK/a1" && grep -qF "C = A*B^T" "$WORK/a10" && grep -qF "||C" "$WORK/a11" && grep -qF "ref|| / ||ref||" "$WORK/a11" &&
	grep -qF "about as sqrt(K)" "$WORK/a11" && ! LC_ALL=C grep -q "[^ -~]" "$WORK/ascii"
check "screens36: LANG=C spells the symbols out: sum, A*B^T, ||C - ref||, sqrt(K); no byte outside ASCII" $? "$WORK/ascii"
LANG=C LC_ALL=C "$BIN" show 1 --screen --width 100 --height 30 --keys Pj --size 256 >"$WORK/apz" 2>&1
grep -qF "(M != N: a" "$WORK/apz" && ! grep -qF "(M # N" "$WORK/apz" && ! LC_ALL=C grep -q "[^ -~]" "$WORK/apz"
check "screens36: LANG=C: the puzzle box spells the symbols as the lessons do (M != N)" $? "$WORK/apz"

# ---- F22: the numbers pane in words: the ridge, the plural, the registers' source, the roofline's legend ----
screen "$WORK/n1" 1 1 240 67
grep -qF "below the ridge (20 FLOP/B): memory-bound" "$WORK/n1" && grep -qF "2 blocks/SM" "$WORK/n1" &&
	grep -qF "28 regs, recorded (ptxas -arch=sm_90)" "$WORK/n1" && ! grep -qF "ridge 20:" "$WORK/n1" &&
	! grep -qF "(recorded (" "$WORK/n1"
check "screens36: lesson 1's numbers say 'below the ridge (20 FLOP/B): memory-bound', '2 blocks/SM', '28 regs, recorded (...)'" $? "$WORK/n1"
grep -qE "D DRAM ceiling, [0-9.]+ TB/s; this kernel at [0-9.]+ FLOP/B" "$WORK/n1" &&
	grep -qE "1 L1/shared ceiling, [0-9.]+ TB/s; this kernel at [0-9.]+ FLOP/B" "$WORK/n1"
check "screens36: the roofline's legend names every ceiling on a line of its own, none cut" $? "$WORK/n1"
screen "$WORK/n8" 8 1 240 67 --size 256
grep -qF "1 block/SM" "$WORK/n8" && ! grep -qF "1 blocks/SM" "$WORK/n8"
check "screens36: lesson 8 says '1 block/SM'" $? "$WORK/n8"

# ---- F23: lesson 0 (no kernel): no size or types in the header; its GPU sentence true without a GPU ----
screen "$WORK/z0" 0 1 240 67
head -n 1 "$WORK/z0" | grep -q "PTX basics" && ! head -n 1 "$WORK/z0" | grep -qF "none" &&
	! head -n 1 "$WORK/z0" | grep -q "4096" && grep -qF "the GPU in this machine" "$WORK/z0" &&
	grep -qF "when it has one" "$WORK/z0"
check "screens36: lesson 0's header has no '4096^3 none->f32', and its GPU sentence holds without a GPU" $? "$WORK/z0"

# ---- F21: --set regs=R, the t box's registers row, from the CLI too (show, and the tutor's --set) ----
"$BIN" show 3 --set regs=255 >"$WORK/r255" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -qF "255 registers [what-if]" "$WORK/r255" && grep -qF "no block of it fits" "$WORK/r255"
check "screens36: show 3 --set regs=255 is a what-if on the registers (no block fits), not refused" $? "$WORK/r255"
"$BIN" show 3 --set regs=0 >"$WORK/r0" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/r0")" -eq 1 ] && grep -qF "ptxtutor show: regs=0 is out of range (1..255" "$WORK/r0"
check "screens36: show 3 --set regs=0 is refused in one line, exit 2" $? "$WORK/r0"
screen "$WORK/r64" 3 1 120 36 --set regs=64 --size 256
head -n 1 "$WORK/r64" | grep -qF "| what-if regs=64"
check "screens36: the tutor's --set regs=64 shows in the header as a what-if" $? "$WORK/r64"

# ---- F13: emulate of a TMA lesson says where the loads went, not a row of zeros ----
"$BIN" emulate 11 >"$WORK/e11" 2>&1
grep -qF "global loads   none per thread: A and B come in through TMA (below)" "$WORK/e11" &&
	! grep -qF "global loads   0 requests" "$WORK/e11" && grep -q "^  TMA  .* bytes from L2" "$WORK/e11"
check "screens36: emulate 11 says its loads come through TMA, not '0 requests'" $? "$WORK/e11"
