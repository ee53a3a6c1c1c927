#!/bin/sh
# e2e_stallspane: W in the real tutor (tmux), offline: lesson 2 at 256^3, its inner loop on screen;
# W turns the stall column on; once the model is in (a child, the screen live), the fma that waits on
# the loads has the top reason `emulate 2 --stalls` gives it, in short, and the numbers pane's line says
# the issue activity, the top reason and its line as `emulate --stalls --json` does. A what-if (-: the
# size halved) brings a new result, the CLI's at 128^3; an edit (a bar.sync put before the fma) one
# made for the edited text: the fma, one line down, keeps its reason and the numbers pane names its
# new line. W again: the column goes. A student's kernel (--ptx, nvcc
# -lineinfo): each CUDA line's reason in the CUDA pane is `emulate --stalls --by cu`'s.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
PTX="$ROOT/ptx/02_coalesced.ptx"
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip stallspane: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ] || [ ! -f "$PTX" ] || ! command -v python3 >/dev/null 2>&1; then
	echo "skip stallspane: no binary at $BIN, no $PTX or no python3"
	exit 0
fi
SOCK_NAME=ptxtutor-stallspane
. "$(dirname "$0")/lib_tmux.sh"

# The fma of the inner loop (the first after the four-at-a-time loads), from the PTX itself.
FMA=$(grep -n 'fma.rn.f32 %acc, %a0, %b, %acc;' "$PTX" | head -1 | cut -d: -f1)

# What the CLI says at size $1: "ISSUE% REASON_NAME SHARE% LINE TOP_OF_FMA_SHORT".
cli() {
	"$BIN" emulate 2 --stalls --size "$1" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
short = {"long_scoreboard": "lsb", "short_scoreboard": "ssb", "wait": "wait", "barrier": "bar", "membar": "mbar",
         "mio_throttle": "mio", "lg_throttle": "lg", "math_pipe_throttle": "math", "dispatch_stall": "disp", "not_selected": "nsel",
         "selected": "sel"}
t = d["top"]
best = max(d["lines"], key=lambda l: l["stalls"][t])
fma = [l for l in d["lines"] if l["line"] == int(sys.argv[1])][0]
print("%.0f%%" % (100 * d["issue_active"]), t.replace("_", " "), "%.0f%%" % (100 * d["total"][t] / sum(d["total"].values())),
      best["line"], short[fma["top"]])' "$FMA"
}
# The PTX pane's row of line $2 (left of the rule), and the numbers pane's stall line with its note.
row() { cap "$1" | sed 's/│.*//' | grep -E "^ *$2[▶ ]"; }
numbers() { cap "$1" | sed 's/^.*│//' | grep -A2 '^ *stalls ' | tr '\n' ' ' | tr -s ' '; }
# wait_row SESSION LINE PATTERN [SECONDS]: until the PTX pane's row of LINE matches PATTERN (grep -E).
wait_row() {
	i=0 lim=$((${4:-10} * 10 * E2E_SLOW))
	while [ $i -lt $lim ]; do
		row "$1" "$2" | grep -qE "$3" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	waited "$1" "line $2 never matched '$3'"
}

# The fake editor puts a bar.sync before the fma.
cat >"$WORK/editor.sh" <<EOF
#!/bin/sh
sed -i '${FMA}i\\	bar.sync 0;' "\$1"
EOF
chmod +x "$WORK/editor.sh"

T new-session -d -s sp -x 160 -y 60 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT \
	XDG_STATE_HOME=$WORK/state XDG_DATA_HOME=$WORK/data EDITOR=$WORK/editor.sh CUDA_VISIBLE_DEVICES= \
	sh '$WORK/wrap.sh' '$BIN' 2 --page 3 --size 256"
wait_for sp "PTX ptx/02_coalesced.ptx  @inner-loop" 10

# ---- W: the column, its legend, the fma's reason and the numbers line, as the CLI's ----
set -- $(cli 256)
issue=$1 reason="$2 $3" share=$4 at=$5 fma_top=$6
T send-keys -t sp W
ok=1
if wait_for sp "issue active" 20 && wait_for sp "long scoreboard, " 5; then
	r=$(row sp "$FMA")
	n=$(numbers sp)
	echo "$r" | grep -qE "^ *$FMA▶ [█▒ ] $fma_top +[0-9]+% +fma\.rn\.f32" &&
		echo "$n" | grep -qF "stalls issue active $issue waiting: $reason $share at line $at \`fma.rn\`" && ok=0
	[ $ok -eq 0 ] || echo "# row: $r; numbers: $n; the CLI: $*"
fi
check "stallspane: W shows line $FMA waiting on '$fma_top' and 'issue active $issue; $reason $share at line $at' (emulate --stalls)" $ok sp

# ---- a what-if: the size halved, a new result, the CLI's at 128^3 ----
set -- $(cli 128)
T send-keys -t sp -- -
wait_for sp "128³" 5
ok=1
if wait_for sp "issue active $1" 20; then
	numbers sp | grep -qF "stalls issue active $1 waiting: $2 $3 $4 at line $5" && ok=0
fi
check "stallspane: the size halved, the stall line follows: issue active $1 (emulate --stalls --size 128)" $ok sp

# ---- an edit: a bar.sync before the fma; the column and the numbers pane follow the edited text ----
T send-keys -t sp e
ok=1
NEXT=$((FMA + 1))
wait_for sp "[edited: R diff]" 10 && wait_row sp "$NEXT" "^ *$NEXT[^ ]* +[█▒] [a-z]+ +[0-9]+% .*fma" 20 &&
	wait_for sp "at line $NEXT" 10 && ok=0
check "stallspane: after the edit's bar.sync (line $FMA), the model of the edited text: the fma now at line $NEXT" $ok sp

# ---- W again: no column, no line ----
T send-keys -t sp W
ok=1
wait_gone sp "issue active" 5 && ! row sp "$NEXT" | grep -q " bar " && ok=0
check "stallspane: W again hides the column and the line" $ok sp

# ---- a student's kernel (--ptx, nvcc -lineinfo): each CUDA line's reason is emulate --stalls --by cu's ----
OWN="$ROOT/tests/students/lines/lines.ptx"
T new-session -d -s own -x 160 -y 48 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT \
	XDG_STATE_HOME=$WORK/state2 XDG_DATA_HOME=$WORK/data2 CUDA_VISIBLE_DEVICES= \
	sh '$WORK/wrap.sh' '$BIN' 2 --ptx '$OWN' --entry gemm_ok --size 256"
wait_for own "CUDA lines.cu  line 4: PTX" 10
T send-keys -t own Wf # the PTX slot fills the screen: the CUDA pane beside it has the whole column
ok=1 rows=0
if wait_for own "lsb long scoreboard" 20; then
	wait_stable own
	ok=0
	"$BIN" emulate --ptx "$OWN" --entry gemm_ok --grid 'ceil(N/32),ceil(M/32)' --block 32,32 --size 256 --stalls \
		--by cu --csv >"$WORK/cu.csv" 2>&1 || ok=1
	cuda=$(cap own | sed 's/│.*//')
	short="long_scoreboard=lsb short_scoreboard=ssb wait=wait barrier=bar membar=mbar mio_throttle=mio lg_throttle=lg math_pipe_throttle=math dispatch_stall=disp not_selected=nsel selected=sel"
	for l in $(awk -F, 'NR > 1 && $1 > 0 { print $1 }' "$WORK/cu.csv"); do
		top=$(awk -F, -v l="$l" '$1 == l { print $4 }' "$WORK/cu.csv")
		s=$(printf '%s\n' $short | grep "^$top=" | cut -d= -f2)
		printf '%s\n' "$cuda" | grep -qE "^ ?$l[▶ ] +[█▒ ] $s +[0-9]+% " || { ok=1; echo "# CUDA line $l: not $s"; }
		rows=$((rows + 1))
	done
	[ "$rows" -ge 7 ] || ok=1
fi
check "stallspane: --ptx lines.ptx, $rows CUDA lines with emulate --stalls --by cu's top reason" $ok own
