# lib_tmux.sh: what the tmux end-to-end tests share, sourced after they set SOCK_NAME.
# Gives WORK (a temporary folder, removed at exit), T (tmux on a private socket),
# $WORK/wrap.sh (runs a command, prints EXIT=status, keeps the pane open), cap, has,
# wait_for and check. Test scripts print "ok NAME" / "not ok NAME" / "skip NAME: why".
WORK=$(mktemp -d)
SOCK="${SOCK_NAME:-ptxtutor-e2e}-$$"
T() { LC_ALL=C.UTF-8 tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
	T kill-server 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# The tutor runs under this wrapper so its exit status stays on the screen.
cat >"$WORK/wrap.sh" <<'WRAP'
trap : INT
"$@"
echo "EXIT=$?"
exec sleep 600
WRAP

cap() { T capture-pane -p -t "$1"; }
has() { cap "$1" | grep -qF -- "$2"; }
# wait_for SESSION TEXT [SECONDS]: until TEXT is on the screen (default 10 s;
# the emulator is slower under the sanitizers).
wait_for() {
	i=0 lim=$((${3:-10} * 10))
	while [ $i -lt $lim ]; do
		has "$1" "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# check NAME STATUS [SESSION]: ok or not ok, with the screen on failure.
check() {
	if [ "$2" -eq 0 ]; then
		echo "ok $1"
	else
		echo "not ok $1"
		[ -n "$3" ] && cap "$3" | sed 's/^/    | /'
	fi
}
