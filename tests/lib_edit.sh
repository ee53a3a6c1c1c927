# lib_edit.sh: what the editing tests share (e2e_edit.sh, e2e_edit_deadline.sh), sourced with TEST set
# to the test's name: the skips (no tmux, no binary, no lesson 1), lib_tmux.sh, the student's copy of
# lesson 1 ($COPY), a fake $EDITOR that applies $WORK/next-edit, start (the tutor in a tmux session,
# offline) and value (a number from the run pane).
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
SHIPPED="$ROOT/ptx/01_naive.ptx"
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip $TEST: tmux is not installed"
	exit 0
fi
if [ ! -x "$BIN" ] || [ ! -f "$SHIPPED" ]; then
	echo "skip $TEST: no binary at $BIN or no $SHIPPED"
	exit 0
fi
SOCK_NAME=ptxtutor-$TEST
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
