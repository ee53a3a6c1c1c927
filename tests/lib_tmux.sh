# lib_tmux.sh: what the tmux end-to-end tests share, sourced after they set SOCK_NAME.
# Gives WORK (a temporary folder, removed at exit), T (tmux on a private socket),
# $WORK/wrap.sh (runs a command, prints EXIT=status, keeps the pane open), cap, has,
# wait_for, wait_gone, wait_stable and check. Test scripts print "ok NAME" /
# "not ok NAME" / "skip NAME: why".
#
# Robust under load: each script has its own server (socket name + pid), kept
# alive by a keeper session so killing a test's last session never makes the
# server exit while the next new-session connects to it ("server exited
# unexpectedly"); at exit the server is killed and waited for. Waits poll for a
# condition, never sleep a fixed time; their limits are generous (they return
# as soon as the condition holds) and scale with E2E_SLOW (default 3).
WORK=$(mktemp -d)
SOCK="${SOCK_NAME:-ptxtutor-e2e}-$$"
E2E_SLOW=${E2E_SLOW:-3}
T() { LC_ALL=C.UTF-8 tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
	pid=$(T display-message -p -t _keeper '#{pid}' 2>/dev/null)
	# the panes' processes and their children (the tutor under wrap.sh), by id: one that outlives the
	# server is killed (an ASan-built tutor whose terminal went away can spin in LeakSanitizer at exit,
	# deaf to SIGTERM, and hold a core for good)
	kids=
	for p in $(T list-panes -a -F '#{pane_pid}' 2>/dev/null); do
		kids="$kids $p $(ps -o pid= --ppid "$p" 2>/dev/null)"
	done
	T kill-server 2>/dev/null
	# the server's pid (tmux's own, from its format): gone before the next test starts
	i=0
	while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	for k in $kids; do
		i=0
		while kill -0 "$k" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		kill -KILL "$k" 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# The keeper: the server lives from here to cleanup, whatever the tests kill.
T new-session -d -s _keeper -x 20 -y 5 "sleep 3600"

# The tutor runs under this wrapper so its exit status stays on the screen.
cat >"$WORK/wrap.sh" <<'WRAP'
trap : INT
"$@"
echo "EXIT=$?"
exec sleep 600
WRAP

cap() { T capture-pane -p -t "$1"; }
has() { cap "$1" | grep -qF -- "$2"; }
# A wait that ran out says so (a "#" line, not a result): a test whose check
# still passes after a wait ran out waited for the wrong text, and the suite
# pays the whole limit each run. tests/run.sh names such tests.
waited() {
	echo "# wait ran out in $1: $2" >&2
	return 1
}
# wait_for SESSION TEXT [SECONDS]: until TEXT is on the screen (default 10 s,
# times E2E_SLOW: the emulator is slower under the sanitizers and under load).
wait_for() {
	i=0 lim=$((${3:-10} * 10 * E2E_SLOW))
	while [ $i -lt $lim ]; do
		has "$1" "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	waited "$1" "'$2' never appeared"
}
# wait_gone SESSION TEXT [SECONDS]: until TEXT is no longer on the screen.
wait_gone() {
	i=0 lim=$((${3:-10} * 10 * E2E_SLOW))
	while [ $i -lt $lim ]; do
		has "$1" "$2" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	waited "$1" "'$2' never went"
}
# wait_stable SESSION: until the screen stays the same over three polls (a
# frame drawn in pieces has settled).
wait_stable() {
	i=0 same=0 prev=""
	while [ $i -lt $((50 * E2E_SLOW)) ] && [ $same -lt 3 ]; do
		now=$(cap "$1")
		if [ "$now" = "$prev" ]; then same=$((same + 1)); else same=0; fi
		prev=$now
		sleep 0.1
		i=$((i + 1))
	done
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
