#!/bin/sh
# e2e_tui: golden screens of the real tutor in tmux (send-keys, capture-pane) at 80x24 and 160x48,
# on a two-lesson course written here, then on the real course; signals must give the terminal back.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
REAL_ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip tui: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	echo "skip tui: no binary at $BIN"
	exit 0
fi

SOCK_NAME=ptxtutor-e2e
. "$(dirname "$0")/lib_tmux.sh"
SGR="$(cd "$(dirname "$0")" && pwd)/sgr.awk"

# ---- a course of two lessons, written for this test ----
FX="$WORK/root"
mkdir -p "$FX/lessons" "$FX/ptx"
ln -s "$REAL_ROOT/assets" "$FX/assets"
cat >"$FX/ptx/01_naive.ptx" <<'EOF'
// Fixture: one thread per element of C.
.version 7.0
.target sm_50
.address_size 64

.visible .entry fx_naive(
	.param .u64 A, .param .u64 B, .param .u64 C,
	.param .u32 M, .param .u32 N, .param .u32 K)
{
	.reg .b32 %row, %t0, %t1;
	// @index
	mov.u32 %t0, %ctaid.x;
	mov.u32 %t1, %tid.x;
	mad.lo.s32 %row, %t0, 32, %t1;
	// @end
	ret;
}
EOF
sed 's/fx_naive/fx_coal/; s/one thread per element of C/lanes walk along a row/' \
	"$FX/ptx/01_naive.ptx" >"$FX/ptx/02_coal.ptx"
cat >"$FX/lessons/01-naive.md" <<'EOF'
---
id: naive
title: Fixture naive kernel
kernel: ptx/01_naive.ptx fx_naive
dtype: f32
params: BS=32
block: BS BS
tile: BS BS
model: naive
needs: sm_50
regs: 24
---
# One thread per output
Each thread computes one element of C. Its intensity is {ai.global}.
# Where the indices come from
@ptx index
The row comes from the block and thread indices.
EOF
cat >"$FX/lessons/02-coal.md" <<'EOF'
---
id: coal
title: Fixture coalesced kernel
kernel: ptx/02_coal.ptx fx_coal
dtype: f32
params: BS=32
block: BS BS
tile: BS BS
model: coalesced
needs: sm_50
regs: 24
---
# Swap the mapping
Lanes now walk along a row.
EOF

# ---- helpers ----
n=0
# The tutor runs under a shell that reports its status and stays, so the
# terminal's modes can be read after the tutor is gone (a dead pane reports none).
# start NAME COLS ROWS [ENV=V ...] -- [ARGS...]
start() {
	name=$1 cols=$2 rows=$3
	shift 3
	envs="LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$FX XDG_STATE_HOME=$WORK/state-$name"
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		envs="$envs $1"
		shift
	done
	[ "$1" = "--" ] && shift
	T new-session -d -s "$name" -x "$cols" -y "$rows" "exec env $envs sh '$WORK/wrap.sh' '$BIN' $*"
}
tutor_pid() { ps -o pid= --ppid "$(fmt "$1" '#{pane_pid}')" | tr -d ' ' | head -n 1; }
status() { cap "$1" | sed -n 's/^EXIT=\([0-9]*\).*/\1/p' | tail -n 1; }
fmt() { T display-message -p -t "$1" "$2"; }
wait_dead() { wait_for "$1" "EXIT="; }
row0() { cap "$1" | head -n 1; }
# The terminal is given back: main screen, cursor shown.
restored() { [ "$(fmt "$1" '#{alternate_on}')" = 0 ] && [ "$(fmt "$1" '#{cursor_flag}')" = 1 ]; }

# (lib_tmux.sh's keeper session keeps the server up between tests.)

# ---- golden screens at both sizes ----
for size in 80x24 160x48; do
	cols=${size%x*} rows=${size#*x}
	s="g$cols"
	start "$s" "$cols" "$rows"
	wait_for "$s" "Fixture naive kernel"
	row0 "$s" | grep -qF "1/2 Fixture naive kernel" && has "$s" "PTX ptx/01_naive.ptx" &&
		has "$s" ".version 7.0" && has "$s" "Intensity (FLOP/B)" && has "$s" "0.25 FLOP/B"
	check "tui $size start-up shows lesson 1, its PTX and numbers" $? "$s"

	T send-keys -t "$s" "]"
	wait_for "$s" "2/2 Fixture coalesced kernel"
	row0 "$s" | grep -qF "2/2 Fixture coalesced kernel" && has "$s" "ptx/02_coal.ptx" &&
		! has "$s" "ptx/01_naive.ptx" && has "$s" "lanes walk along a row"
	check "tui $size ] moves to lesson 2: title and PTX change" $? "$s"

	T send-keys -t "$s" "[" Space
	wait_for "$s" "@index lines 11-15"
	wait_stable "$s" # the page's first frame may still be on its way (the estimate redraws beside it)
	# The region's lines carry the mark and a background colour; a line outside does not
	# (tests/sgr.awk reads the colours of capture-pane -e).
	T capture-pane -p -e -t "$s" | awk -f "$SGR" >"$WORK/sgr.txt"
	yl=$(cap "$s" | grep -nF "mad.lo" | cut -d: -f1)
	yo=$(cap "$s" | grep -nE "16 +ret" | cut -d: -f1)
	has "$s" "@index lines 11-15" && cap "$s" | grep -F "mad.lo.s32" | grep -qE "(^|[^0-9])14(▶|>) " &&
		[ -n "$yl" ] && [ -n "$yo" ] &&
		sed -n "s/^BG $yl //p" "$WORK/sgr.txt" | tr ' ' '\n' | grep -qv '^d$' &&
		! sed -n "s/^BG $yo //p" "$WORK/sgr.txt" | tr ' ' '\n' | grep -v '^$' | grep -qv '^d$'
	check "tui $size a page with an anchor highlights its region" $? "$s"

	# f: the lesson (focused) fills the screen, PTX and numbers are gone; f: back.
	T send-keys -t "$s" f
	wait_for "$s" "fills the screen"
	! has "$s" "PTX ptx/01_naive.ptx" && ! has "$s" "Intensity (FLOP/B)"
	check "tui $size f: the focused lesson fills the screen" $? "$s"
	T send-keys -t "$s" f
	wait_for "$s" "All panes shown"
	has "$s" "PTX ptx/01_naive.ptx" && has "$s" "Intensity (FLOP/B)"
	check "tui $size f again: every pane is back" $? "$s"

	T send-keys -t "$s" '?'
	wait_for "$s" "Keys (j/k/Space scroll, any other key closes)"
	has "$s" "any other key closes" && has "$s" "next lesson" && has "$s" "this help"
	check "tui $size ? shows help" $? "$s"
	T send-keys -t "$s" x
	wait_gone "$s" "any other key closes"
	check "tui $size any key closes help" $? "$s"

	T send-keys -t "$s" q
	wait_dead "$s"
	[ "$(status "$s")" = 0 ] && restored "$s" && ! has "$s" "Fixture"
	check "tui $size q exits 0 with the terminal restored" $? "$s"
	T kill-session -t "$s"
done

# ---- r without a GPU: the worker says so, the emulator runs it instead, the screen stays alive ----
start run 160 48
wait_for run "Not run yet."
T send-keys -t run r
if wait_for run "Emulated on the CPU at 128"; then
	# The fixture kernel writes no C: the emulator's check fails it.
	has run "(no GPU)" && has run "FAIL" && has run "wrong result"
	check "tui r without a GPU emulates the kernel on the CPU and says so" $? run
	T send-keys -t run "]"
	wait_for run "2/2 Fixture coalesced kernel"
	has run "2/2 Fixture coalesced kernel" && has run "Not run yet." && has run "r emulates it on the CPU"
	check "tui r without a GPU says why in the run pane and the rest works" $? run
elif has run "GFLOP/s"; then
	echo "skip tui r without a GPU: this machine has one"
else
	check "tui r without a GPU says why in the run pane and the rest works" 1 run
fi
T send-keys -t run q
wait_dead run
[ "$(status run)" = 0 ] && restored run
check "tui q after a run exits 0 with the terminal restored" $? run
T kill-session -t run

# ---- the text mode prints the same screen as the tutor draws ----
start same 80 24 PTXTUTOR_ESTIMATE=sync -- --lesson 1
wait_for same "Fixture naive kernel"
wait_stable same
cap same | sed 's/ *$//' >"$WORK/tui.txt"
LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$FX XDG_STATE_HOME=$WORK/state-same \
	"$BIN" show 1 --screen --width 80 --height 24 | sed 's/ *$//' >"$WORK/screen.txt"
diff "$WORK/tui.txt" "$WORK/screen.txt" >"$WORK/diff.txt"
check "show --screen prints what the tutor draws (80x24)" $? ""
[ -s "$WORK/diff.txt" ] && sed 's/^/    | /' "$WORK/diff.txt" | head -20
T send-keys -t same q
T kill-session -t same

# ---- the last lesson is remembered ----
start st1 80 24
wait_for st1 "1/2"
T send-keys -t st1 "]"
wait_for st1 "2/2"
T send-keys -t st1 q
wait_dead st1
T kill-session -t st1
start st2 80 24 XDG_STATE_HOME=$WORK/state-st1
wait_for st2 "2/2 Fixture coalesced kernel"
row0 st2 | grep -qF "2/2 Fixture coalesced kernel"
check "tui starts where the student left off" $? st2
T send-keys -t st2 q
T kill-session -t st2

# ---- resizing redraws; too small says so ----
start rs 80 24
wait_for rs "Fixture naive kernel"
T resize-window -t rs -x 160 -y 48
wait_for rs "Not run yet."
has rs "Not run yet." && has rs "PTX ptx/01_naive.ptx" && cap rs | grep -F "One thread per output" | grep -qF "Numbers"
check "tui resize to 160x48 redraws side by side" $? rs
# A burst of resizes, the last one too small: each is a SIGWINCH, and one that lands while the loop
# draws must still wake its poll (a lost one left the old frame until the next key).
for geo in 100x30 150x45 90x28 160x48 120x40; do
	T resize-window -t rs -x "${geo%x*}" -y "${geo#*x}"
done
T resize-window -t rs -x 70 -y 20
wait_for rs "Terminal too small: 70x20."
has rs "Terminal too small: 70x20." && ! has rs "Fixture"
check "tui too small a terminal says so" $? rs
T resize-window -t rs -x 80 -y 24
wait_for rs "1/2 Fixture naive kernel"
has rs "1/2 Fixture naive kernel"
check "tui grows back from too small" $? rs
T send-keys -t rs q
T kill-session -t rs

# ---- signals and crashes give the terminal back ----
for sig in INT TERM SEGV ABRT; do
	s="sig$sig"
	start "$s" 80 24
	wait_for "$s" "Fixture naive kernel"
	if [ "$sig" = INT ]; then
		T send-keys -t "$s" C-c
	else
		kill "-$sig" "$(tutor_pid "$s")"
	fi
	wait_dead "$s"
	code=$(status "$s")
	ok=1
	restored "$s" && ok=0
	case $sig in
	INT) [ "$code" = 130 ] || ok=1 ;;
	TERM) [ "$code" = 143 ] || ok=1 ;;
	SEGV) [ "$code" = 139 ] || ok=1 ;;
	ABRT) [ "$code" = 134 ] || ok=1 ;;
	esac
	check "tui SIG$sig restores the terminal (status $code)" $ok "$s"
	T kill-session -t "$s"
done

# ---- lecture mode, themes, NO_COLOR, ASCII ----
start pr 160 48 -- --present --theme light
wait_for pr "Fixture naive kernel"
# Row 3 is lesson text: black on (bright) white.
T capture-pane -p -e -t pr | awk -f "$SGR" | grep -qE '^BG 3( .*)? (15|7)( |$)' && has pr "Numbers  (Tab: run)"
check "tui --present --theme light: white background, tabbed numbers" $? pr
T send-keys -t pr q
T kill-session -t pr

start nc 80 24 NO_COLOR=1
wait_for nc "Fixture naive kernel"
! T capture-pane -p -e -t nc | grep -qE '\[([0-9;]*;)?(3|4)[0-7]m'
check "tui NO_COLOR: no colours at all" $? nc
T send-keys -t nc q
T kill-session -t nc

start as 80 24 -- --ascii
wait_for as "Fixture naive kernel"
! cap as | LC_ALL=C grep -q '[^ -~]'
check "tui --ascii: nothing but ASCII on the screen" $? as
T send-keys -t as q
T kill-session -t as

# ---- start-up time to the first frame, without a GPU ----
times=""
troot=$FX
[ "$(ls "$REAL_ROOT"/lessons/[0-9]*.md 2>/dev/null | wc -l)" -ge 2 ] && troot=$REAL_ROOT
for i in 1 2 3 4 5; do
	T new-session -d -s "tm$i" -x 80 -y 24 \
		"env LANG=C.UTF-8 PTXTUTOR_ROOT=$troot XDG_STATE_HOME=$WORK/state-tm PTXTUTOR_FIRST_FRAME_EXIT=1 '$BIN' 2>$WORK/t$i.txt"
	j=0
	while [ $j -lt 50 ] && ! grep -q "first frame" "$WORK/t$i.txt" 2>/dev/null; do
		sleep 0.1
		j=$((j + 1))
	done
	times="$times $(sed -n 's/first frame after \([0-9.]*\) ms/\1/p' "$WORK/t$i.txt")"
done
median=$(echo "$times" | tr ' ' '\n' | grep . | sort -n | sed -n 3p)
limit=100
case "$BIN" in *asan*) limit=1000 ;; esac
[ -n "$median" ] && awk "BEGIN { exit !($median < $limit) }"
check "tui first frame in $median ms (median of 5, limit $limit ms, $(ls "$troot"/lessons/[0-9]*.md | wc -l) lessons)" $? ""

# ---- the real course, when there is one ----
nreal=$(ls "$REAL_ROOT"/lessons/[0-9]*.md 2>/dev/null | wc -l)
if [ "$nreal" -lt 2 ]; then
	echo "skip tui real course: fewer than two lessons under $REAL_ROOT/lessons"
else
	titles=$(PTXTUTOR_ROOT=$REAL_ROOT "$BIN" list --json 2>/dev/null | tr '{' '\n' |
		sed -n 's/.*"title": *"\([^"]*\)".*/\1/p')
	# At 80 columns the header keeps the GPU and cuts the title: its start is enough.
	t1=$(echo "$titles" | sed -n 1p | cut -c1-12)
	t2=$(echo "$titles" | sed -n 2p | cut -c1-12)
	# The header shows each lesson's own number out of the last lesson's.
	nums=$(PTXTUTOR_ROOT=$REAL_ROOT "$BIN" list --json 2>/dev/null | sed -n 's/.*"number": *\([0-9]*\).*/\1/p')
	n1=$(echo "$nums" | sed -n 1p) n2=$(echo "$nums" | sed -n 2p) last=$(echo "$nums" | tail -n 1)
	FX=$REAL_ROOT start real 80 24 -- --size 1024
	wait_for real "$t1"
	row0 real | grep -qF "$n1/$last $t1" && has real "PTX"
	check "tui real course starts at the first lesson ($t1)" $? real
	T send-keys -t real "]"
	wait_for real "$n2/$last"
	row0 real | grep -qF "$n2/$last $t2"
	check "tui real course ] shows the next lesson ($t2)" $? real
	T send-keys -t real q
	wait_dead real
	restored real
	check "tui real course q restores the terminal" $? real
fi
exit 0
