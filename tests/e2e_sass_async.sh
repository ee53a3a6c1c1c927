#!/bin/sh
# e2e_sass_async: the SASS chain never blocks — the tutor's S with a stand-in ptxas that
# sleeps 30 s: the page still moves within a second, the status line says it is working,
# Esc stops the build (ptxas gone, no temporary folder left), PTXTUTOR_TOOL_TIMEOUT_S
# stops a hung one; a Ctrl-C on `ptxtutor sass` leaves no temporary folder; and `sass`
# and the tutor give the same answer for every lesson from its recording, and the same
# reason where no recording applies.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
FAKE="$ROOT/tests/data/sass/fakebin"
if [ ! -x "$BIN" ]; then
	echo "skip sass-async: no binary at $BIN"
	exit 0
fi
r() { if [ "$1" -eq 0 ]; then echo "ok $2"; else echo "not ok $2"; fi; }
SOCK_NAME=ptxtutor-sassasync
HAVE_TMUX=1
command -v tmux >/dev/null 2>&1 || HAVE_TMUX=0
if [ $HAVE_TMUX = 1 ]; then
	. "$(dirname "$0")/lib_tmux.sh"
else
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT INT TERM
fi

# The same answer: `sass N --json` (no toolkit: the recording) and what the tutor's S says.
NOKIT="$WORK/nokit"
mkdir -p "$NOKIT"
bad=0
# Five lessons, four kinds of kernel (the screen at 256^3: its estimate runs first, seconds at
# 4096^3; the recording is the kernel's, the same at any size).
for n in 1 5 9 10 11; do
	want=$(PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass $n --json --counts | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["recorded"]
print("Recorded SASS (%s, not compiled here: no CUDA toolkit) for %s from %s: %d instructions, %d registers." %
      (d["recorded_date"], d["arch"], d["compiler"], d["counts"]["total"], d["registers"]))') ||
		{ echo "    lesson $n: sass gave no recording"; bad=1; continue; }
	PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" show $n --screen --width 220 --height 40 --keys S --size 256 | grep -qF "$want" ||
		{ echo "    lesson $n: wanted '$want' on the screen"; bad=1; }
done
r $bad sass-cli-tutor-same-recorded

# The same reason where no recording applies: an edited copy in the tutor, --ptx FILE in
# the CLI — both say the toolkit's line and why, in exec/sass.h's words.
err=$(PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass --ptx "$ROOT/ptx/01_naive.ptx" --entry sgemm_naive 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] && printf '%s' "$err" | grep -q "nvidia-cuda-toolkit" &&
	printf '%s' "$err" | grep -q "no recording beside the PTX file"
r $? sass-cli-no-recording-why

if [ $HAVE_TMUX = 0 ]; then
	echo "skip sass-async-tmux: tmux is not installed"
	exit 0
fi

# A ptxas that hangs: it leaves its pid, then sleeps; the disassembler is the usual stand-in.
SLOW="$WORK/slow"
mkdir -p "$SLOW" "$WORK/tmp" "$WORK/tmp2"
cat >"$SLOW/ptxas" <<EOF
#!/bin/sh
[ "\$1" = "--version" ] && { echo "Cuda compilation tools, release 99.9, V99.9.1"; exit 0; }
echo \$\$ > "$WORK/ptxas.pid"
exec sleep 30
EOF
chmod +x "$SLOW/ptxas"
ln -s "$FAKE/nvdisasm" "$SLOW/nvdisasm"

# start NAME LIMIT ARGS...: the tutor with the hanging ptxas, at 256^3 (the SASS view and the pages are
# the same at any size; the numbers pane's estimate, in the background, takes a tenth of 4096^3's CPU).
start() {
	name=$1 limit=$2
	shift 2
	T new-session -d -s "$name" -x 120 -y 36 \
		"exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 PTXTUTOR_ROOT=$ROOT PTXTUTOR_CUDA_BIN=$SLOW PTXTUTOR_TOOL_TIMEOUT_S=$limit TMPDIR=$WORK/tmp XDG_STATE_HOME=$WORK/state-$name XDG_DATA_HOME=$WORK/data sh '$WORK/wrap.sh' '$BIN' $* --size 256"
}
# gone PID: until that process has ended (5 s, times E2E_SLOW).
gone() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt $((50 * E2E_SLOW)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! kill -0 "$1" 2>/dev/null
}
# started: until the stand-in ptxas has left its pid.
started() {
	i=0
	while [ ! -s "$WORK/ptxas.pid" ] && [ $i -lt $((100 * E2E_SLOW)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$WORK/ptxas.pid" ]
}
# The limit on the screen's answer is one second (times E2E_SLOW for a loaded machine): a
# tutor that waited for ptxas would answer after its 20 s deadline.
start slow 20 1 --page 4
rm -f "$WORK/ptxas.pid"
wait_for slow "page 4/" && T send-keys -t slow S && wait_for slow "Compiling and disassembling" && started &&
	T send-keys -t slow ']' && wait_for slow "Lesson 2/" 1 &&
	T send-keys -t slow '[' && wait_for slow "Lesson 1/" 1
check sass-async-responsive $? slow
pid=$(cat "$WORK/ptxas.pid" 2>/dev/null)
T send-keys -t slow Escape && wait_for slow "SASS cancelled" 1 && gone "$pid" && [ -z "$(ls "$WORK/tmp")" ]
check sass-async-esc-cancels $? slow
T send-keys -t slow q && wait_for slow "EXIT=0"
check sass-async-quits $? slow

# A hung ptxas meets the tools' deadline: the view says so, the tutor carried on.
start hung 1 1 --page 4
rm -f "$WORK/ptxas.pid"
wait_for hung "page 4/" && T send-keys -t hung S && wait_for hung "ptxas did not finish in 1 s" &&
	[ -z "$(ls "$WORK/tmp")" ]
check sass-async-deadline $? hung
T send-keys -t hung q

# Ctrl-C on `ptxtutor sass`: exit 130, ptxas gone, the temporary folder removed.
rm -f "$WORK/ptxas.pid"
T new-session -d -s cli -x 120 -y 20 \
	"exec env PTXTUTOR_ROOT=$ROOT PTXTUTOR_CUDA_BIN=$SLOW TMPDIR=$WORK/tmp2 sh '$WORK/wrap.sh' '$BIN' sass 1 --ptxas"
started && T send-keys -t cli C-c && wait_for cli "EXIT=130" && has cli "ptxtutor sass: interrupted" &&
	gone "$(cat "$WORK/ptxas.pid")" && [ -z "$(ls "$WORK/tmp2")" ]
check sass-cli-ctrl-c-cleans $? cli
