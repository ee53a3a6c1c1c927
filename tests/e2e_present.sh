#!/bin/sh
# e2e_present: the real course in tmux as a lecture hall and a student see it, at 80x24,
# 100x30 --present, 120x36 --present and 160x48: Space reads a page to its end before it
# turns, lesson 1 page 2's diagram whole on screen, the exact highlight of lesson 3's
# load-tile page, g to lesson 8 page 2, /ldmatrix, no cell in its own background colour,
# and the header honest about a missing GPU. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip present: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	echo "skip present: no binary at $BIN"
	exit 0
fi
if [ "$(ls "$ROOT"/lessons/[0-9]*.md 2>/dev/null | wc -l)" -lt 10 ]; then
	echo "skip present: the real course is not under $ROOT"
	exit 0
fi

SOCK_NAME=ptxtutor-present
. "$(dirname "$0")/lib_tmux.sh"
SGR="$(cd "$(dirname "$0")" && pwd)/sgr.awk"

# start NAME COLS ROWS [ARGS...]: the tutor on the real course, a state of its own, at 256^3: the pager,
# the diagram, the marks, the menu, the search and the colours are the same at any problem size, and
# the numbers pane's estimate, in the background, takes a tenth of 4096^3's CPU.
start() {
	name=$1 cols=$2 rows=$3
	shift 3
	T new-session -d -s "$name" -x "$cols" -y "$rows" \
		"exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT XDG_STATE_HOME=$WORK/state-$name XDG_DATA_HOME=$WORK/data sh '$WORK/wrap.sh' '$BIN' $* --size 256"
}
row0() { cap "$1" | head -n 1; }
page_of() { cap "$1" | sed -n 's/.*  page \([0-9]*\/[0-9]*\).*/\1/p' | head -n 1; }
# No character anywhere is drawn in its own background colour.
no_equal() { ! T capture-pane -p -e -t "$1" | awk -f "$SGR" | grep -q '^EQUAL'; }
stop() {
	T send-keys -t "$1" q
	wait_for "$1" "EXIT=" 5
	T kill-session -t "$1"
}

T new-session -d -s keep "sleep 600"

# ---- at each size: the pager, and colours ----
for spec in "80x24:" "100x30:--present" "120x36:--present" "160x48:"; do
	size=${spec%%:*} flags=${spec#*:}
	cols=${size%x*} rows=${size#*x}
	s="p$cols"
	start "$s" "$cols" "$rows" 1 $flags
	wait_for "$s" "page 1/"
	# Lesson 1's first page is longer than the lesson pane at every one of these sizes.
	ok=1
	if has "$s" "): Space"; then
		ok=0 n=0
		while has "$s" "): Space" && [ $n -lt 30 ]; do
			before=$(cap "$s" | sed -n 3p)
			T send-keys -t "$s" Space
			i=0
			while [ "$(cap "$s" | sed -n 3p)" = "$before" ] && [ $i -lt 30 ]; do
				sleep 0.1
				i=$((i + 1))
			done
			[ "$(page_of "$s")" = "1/$(page_of "$s" | cut -d/ -f2)" ] || ok=1
			n=$((n + 1))
		done
		has "$s" "end of the page" || ok=1
		T send-keys -t "$s" Space
		wait_for "$s" "page 2/" || ok=1
	fi
	check "present $size $flags: Space reads the page to its end before the page turns" $ok "$s"
	no_equal "$s"
	check "present $size $flags: no cell in its own background colour" $? "$s"
	if [ ! -e /proc/driver/nvidia/version ] && [ ! -e /dev/nvidiactl ]; then
		row0 "$s" | grep -qF "(model; no GPU here)"
		check "present $size $flags: without a GPU the header says so" $? "$s"
	fi
	stop "$s"
done

# ---- lesson 1 page 2's diagram, whole, in the lecture layout ----
awk '/^# Which thread touches what/{p=1} p&&/^```/{f++; next} p&&f==1' "$ROOT/lessons/01-naive.md" |
	sed 's/ *$//' | grep . >"$WORK/diagram.txt"
for size in 100x30 120x36; do
	cols=${size%x*} rows=${size#*x}
	s="d$cols"
	start "$s" "$cols" "$rows" 1 --page 2 --present
	wait_for "$s" "page 2/"
	cap "$s" >"$WORK/screen.txt"
	ok=0
	[ "$(wc -l <"$WORK/diagram.txt")" -ge 8 ] || ok=1
	while IFS= read -r line; do
		grep -qF -- "$line" "$WORK/screen.txt" || ok=1
	done <"$WORK/diagram.txt"
	check "present $size --present: lesson 1 page 2's whole diagram is on screen" $ok "$s"
	no_equal "$s"
	check "present $size --present: the projector theme draws no cell in its own background" $? "$s"
	stop "$s"
done

# ---- lesson 3's load-tile page: exactly the named regions' lines are marked ----
page=$(awk '/^# /{n++} /^@ptx load-tile$/{print n; exit}' "$ROOT/lessons/03-smem.md")
names=$(awk -v n="$page" '/^# /{p++} p==n && /^@ptx /{print $2}' "$ROOT/lessons/03-smem.md")
: >"$WORK/named.txt"
for r in $names; do
	awk -v r="$r" '$0 ~ "// @" r "$" {on=1} on {print NR} on && /\/\/ @end/ {on=0}' "$ROOT/ptx/03_smem.ptx" >>"$WORK/named.txt"
done
sort -n -u "$WORK/named.txt" -o "$WORK/named.txt"
start hl 160 48 3 --page "$page"
wait_for hl "@load-tile lines"
# c moves through the regions; at each stop every PTX line on screen is marked iff it is named.
ok=0 seen=0 stops=0
for k in $names; do
	# The PTX title names the region c reached: wait for it, so each stop is checked on its own screen.
	if ! wait_for hl "@$k lines"; then
		echo "    | region @$k never shown"
		ok=1
		break
	fi
	stops=$((stops + 1))
	cap hl >"$WORK/screen.txt"
	# PTX rows: a line number, then the mark (▶) or a space, then the code.
	sed -n 's/^ *\([0-9][0-9]*\)\(▶\| \) .*/\1 \2/p' "$WORK/screen.txt" >"$WORK/rows.txt"
	while read -r num mark; do
		named=no
		grep -qx "$num" "$WORK/named.txt" && named=yes
		[ "$mark" = "▶" ] && m=yes || m=no
		[ "$m" = "$named" ] || ok=1
		seen=$((seen + 1))
	done <"$WORK/rows.txt"
	T send-keys -t hl c
done
[ $seen -gt 20 ] && [ $stops -eq $(echo $names | wc -w) ] && [ $stops -gt 1 ] || ok=1
check "present lesson 3's load-tile page marks exactly its named regions ($stops of $(echo $names | wc -w) regions, $(wc -l <"$WORK/named.txt") lines)" $ok hl
stop hl

# ---- g: the menu; 8.2 and Enter go to lesson 8 page 2 ----
start go 100 30 1 --present
wait_for go "page 1/"
T send-keys -t go g
wait_for go "Go to"
T send-keys -t go 8 . 2 Enter
wait_for go "page 2/"
row0 go | grep -qE "(Lesson )?8/[0-9]+ " && has go "page 2/"
check "present g 8.2 Enter jumps to lesson 8 page 2" $? go
no_equal go
check "present the go-to menu's screen: no cell in its own background" $? go
stop go

# ---- /ldmatrix then Enter lands on a page that has it ----
start sr 120 36 1 --present
wait_for sr "page 1/"
T send-keys -t sr / l d m a t r i x Enter
wait_for sr "n next"
has sr "'ldmatrix': hit 1 of" && cap sr | sed 1d | grep -qi "ldmatrix"
check "present /ldmatrix Enter lands on a page that shows it" $? sr
# The hit is marked in reverse video (the projector theme: black on bright white).
T capture-pane -p -e -t sr | grep -qiE "$(printf '\033')\\[([0-9;]*;)?(7|107|48;5;15)mldmatrix"
check "present the hit is marked in reverse video" $? sr
T send-keys -t sr n
wait_for sr "hit 2 of"
has sr "hit 2 of"
check "present n goes to the next hit, as in less" $? sr
T send-keys -t sr N
wait_for sr "hit 1 of"
T send-keys -t sr N
wait_gone sr "hit 1 of"
cap sr | tail -n 1 | grep -q "hit \([0-9][0-9]*\) of \1,"
check "present N goes back, from the first hit round to the last" $? sr
stop sr

# ---- progress: a page read to its end is remembered and `list` shows it ----
start pg 160 48 3
wait_for pg "page 1/"
while has pg "): Space"; do
	T send-keys -t pg Space
	sleep 0.2
done
stop pg
list=$(XDG_STATE_HOME=$WORK/state-pg PTXTUTOR_ROOT=$ROOT "$BIN" list)
echo "$list" | grep -E '^ +3 +smem ' | grep -qE ' 1/[0-9]+ +0/[0-9]+ '
check "present list shows the pages read and exercises solved" $? ""
XDG_STATE_HOME=$WORK/state-pg PTXTUTOR_ROOT=$ROOT "$BIN" list --json | tr -d '\n ' | tr '{' '\n' |
	grep '"id":"smem"' | grep -q '"pages_read":1,'
check "present list --json has pages_read" $? ""

# ---- the small things of the command line ----
help=$("$BIN" --help)
ok=0
for o in --present --theme --ascii --gpu --size --set --page; do
	echo "$help" | grep -qF -- "$o" || ok=1
done
check "present ptxtutor --help lists every tutor option" $ok ""
"$BIN" show --help | grep -qF -- "--screen"
check "present show --help lists --screen" $? ""
! "$BIN" bench --help | grep -qF '%%'
check "present bench --help prints % not %%" $? ""
start l3 80 24 3
wait_for l3 "3/"
row0 l3 | grep -qE "^ (Lesson )?3/[0-9]+ "
check "present ptxtutor 3 opens lesson 3" $? l3
stop l3
exit 0
