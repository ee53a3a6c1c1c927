#!/bin/sh
# e2e_gpu_edit: the tutor on a real GPU, in tmux. Lesson 1 edited (through a fake $EDITOR) to store out
# of bounds: r reports a kernel fault and the tutor stays up with the edit kept; edited again to spin
# forever on a volatile load: r is killed at its deadline (PTXTUTOR_DEADLINE_S) and says so; restored,
# r verifies against cuBLAS with GFLOP/s. Then r on lessons 1 and 3 at the default size, screens saved
# (to $OUT when set). Without a GPU (`ptxtutor run 1 --size 64` says "no GPU") it skips.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DEADLINE=${GPU_EDIT_DEADLINE:-15}
if [ ! -x "$BIN" ]; then
	echo "skip gpu edit: no binary at $BIN"
	exit 0
fi
probe=$(PTXTUTOR_ROOT=$ROOT "$BIN" run 1 --size 64 2>&1)
if printf '%s' "$probe" | grep -qi "no GPU"; then
	echo "skip gpu edit: no GPU here (ptxtutor run 1 --size 64 says so)"
	exit 0
fi
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip gpu edit: tmux is not installed"
	exit 0
fi

SOCK_NAME=ptxtutor-gpu-edit
. "$(dirname "$0")/lib_tmux.sh"
SAVE=${OUT:-$WORK}

SHIPPED="$ROOT/ptx/01_naive.ptx"
SHIPPED_SUM=$(cksum <"$SHIPPED")
cat >"$WORK/editor.sh" <<EOF
#!/bin/sh
sh "$WORK/next-edit" "\$1"
EOF
chmod +x "$WORK/editor.sh"
next_edit() { printf '%s\n' "$1" >"$WORK/next-edit"; }
start() { # NAME "ENV=V ..." ARGS...
	name=$1 envs=$2
	shift 2
	T new-session -d -s "$name" -x 160 -y 48 "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT \
		XDG_STATE_HOME=$WORK/state XDG_DATA_HOME=$WORK/data EDITOR=$WORK/editor.sh $envs \
		sh '$WORK/wrap.sh' '$BIN' $*"
}
save() { # SESSION FILE: the screen, kept for the report
	cap "$1" >"$SAVE/$2"
	echo "# screen saved to $SAVE/$2:"
	sed 's/^/    | /' "$SAVE/$2"
}
restore() {
	T send-keys -t "$1" R
	wait_for "$1" "against the original" 5
	T send-keys -t "$1" y
	wait_for "$1" "Restored the shipped" 5
}

# ---- an out-of-bounds store: a fault, said plainly; the tutor and the edit stay ----
start g "PTXTUTOR_DEADLINE_S=$DEADLINE" --lesson 1 --size 1024
wait_for g "Naive" 10
next_edit "sed -i 's/^\\tst.global.f32 \\[%pC\\], %acc;/\\tadd.u64 %pC, %pC, 0x10000000000;    \\/\\/ 1 TiB past C\\n&/' \"\$1\""
T send-keys -t g e
wait_for g "The JIT accepts your edit" 60
has g "[edited]"
check "gpu edit: the out-of-bounds edit is JIT-checked on return from the editor" $? g
T send-keys -t g r
wait_for g "kernel fault" 60
cap g | grep -qiE "illegal (memory )?address|ILLEGAL_ADDRESS" && has g "fresh GPU" && has g "[edited]" &&
	has g "Your edit is kept"
check "gpu edit: r on an out-of-bounds store reports a kernel fault, the worker restarts, the edit is kept" $? g
save g gpu-edit-fault.txt

# ---- an endless loop (a spin on a volatile load, which ptxas must keep): killed at the deadline ----
restore g
next_edit "sed -i 's/^\\tcvta.to.global.u64 %C, %C;/&\\n\\t{\\n\\t.reg .u32 %spin;\\n\\t.reg .pred %again;\\nSPIN:\\n\\tld.volatile.global.u32 %spin, [%A];    \\/\\/ never NaN: spins forever\\n\\tsetp.ne.u32 %again, %spin, 0x7fc00001;\\n\\t@%again bra SPIN;\\n\\t}/' \"\$1\""
T send-keys -t g e
wait_for g "The JIT accepts your edit" 60
has g "[edited]"
check "gpu edit: the spinning edit is JIT-checked" $? g
t0=$(date +%s)
T send-keys -t g r
wait_for g "timed out" $((DEADLINE + 30))
t1=$(date +%s)
has g "killed after $DEADLINE s" && has g "Your edit is kept" && [ $((t1 - t0)) -le $((DEADLINE + 15)) ]
check "gpu edit: r on an endless loop is killed after the ${DEADLINE} s deadline ($((t1 - t0)) s) and says so" $? g
save g gpu-edit-timeout.txt

# ---- the same lesson restored runs, verifies and is timed ----
restore g
T send-keys -t g r
wait_for g "PASS, verified" 120
! has g "[edited]" && has g "PASS, verified (cuBLAS)" && has g "GFLOP/s" && has g "of cuBLAS"
check "gpu edit: after a fault and a hang, the restored lesson verifies against cuBLAS with GFLOP/s" $? g
[ "$(cksum <"$SHIPPED")" = "$SHIPPED_SUM" ]
check "gpu edit: the shipped PTX was never written" $?
T send-keys -t g q
wait_for g "EXIT=0" 10
check "gpu edit: q exits 0 after all that" $? g

# ---- lessons 1 and 3 at the default size, with the usual deadlines ----
start h "" --lesson 1
wait_for h "Naive" 10
T send-keys -t h r
wait_for h "PASS, verified" 180
has h "PASS, verified (cuBLAS)" && has h "GFLOP/s"
check "gpu edit: lesson 1 at the default size verifies, with GFLOP/s" $? h
save h gpu-lesson1.txt
T send-keys -t h "]" "]"
wait_for h "Shared-memory cache blocking |" 10
T send-keys -t h r
wait_for h "PASS, verified" 180
has h "Shared-memory cache blocking |" && has h "PASS, verified (cuBLAS)" && has h "GFLOP/s"
check "gpu edit: lesson 3 at the default size verifies, with GFLOP/s" $? h
save h gpu-lesson3.txt
T send-keys -t h q
wait_for h "EXIT=0" 10
