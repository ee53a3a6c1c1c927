#!/bin/sh
# e2e_newlesson: adding a lesson touches the files docs/ARCHITECTURE.md's "Adding a lesson" names, and
# no other. A scratch data root holds the course as it is plus a lesson 12 made of exactly two new
# files — lessons/12-smem2.md (lesson 3's front matter with a new id, title and kernel path, a page
# of its own) and ptx/12_smem2.ptx (lesson 3's PTX) — reusing lesson 3's cost model row, with no
# recorded SASS. There `list` shows it, `show --screen` draws it, `emulate` runs and verifies it,
# and without the toolkit `sass 12` (text and --json) and the tutor's SASS view say "no recording";
# the tests that walk the course (test_sass_record, test_model_emu, test_lessons) pass on that root.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${1:-${BUILD:-build}} # tests/run.sh passes it
if [ ! -x "$BIN" ]; then
	echo "skip newlesson: no binary at $BIN"
	exit 0
fi
r() { if [ "$1" -eq 0 ]; then echo "ok $2"; else echo "not ok $2"; fi; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM

# The scratch root: a copy of what the program reads (the lessons and their PTX, the assets).
R="$W/root"
mkdir -p "$R" "$W/data" "$W/state"
cp -R "$ROOT/lessons" "$ROOT/ptx" "$ROOT/assets" "$R/"
ln -s "$ROOT/tests" "$R/tests" # the unit tests' own data (tests/data)
# The two files of lesson 12.
cp "$ROOT/ptx/03_smem.ptx" "$R/ptx/12_smem2.ptx"
{
	sed -n '1,/^---$/p' "$ROOT/lessons/03-smem.md" | sed -n '1p'
	sed -n '2,/^---$/p' "$ROOT/lessons/03-smem.md" | sed -e 's/^id: .*/id: smem2/' \
		-e 's/^title: .*/title: Shared memory again, as a new lesson/' -e 's|^kernel: ptx/03_smem.ptx|kernel: ptx/12_smem2.ptx|'
	cat <<'EOF'
# A lesson added

@ptx inner-loop
The same tiles as lesson 3, TILE = {param.TILE}: {ai.global} FLOP per byte
of global traffic on the {gpu.name}.

@exercise ai.global TILE=16
With TILE = 16, what is the global intensity as issued?
@hint Loads: 2·K/TILE of 4 bytes per output, plus the 4-byte store of C.
@check 2 * K / (2 * K / TILE * 4 + 4)
@answer {ai.global}.

@exercise per_output.global_loads TILE=8
How many elements does each output element load from global memory?
@hint Two elements per thread per tile step, K/TILE steps.
@check 2 * K / TILE
@answer {per_output.global_loads}.
EOF
} >"$R/lessons/12-smem2.md"
run() { PTXTUTOR_ROOT="$R" XDG_DATA_HOME="$W/data" XDG_STATE_HOME="$W/state" "$@"; }
NOKIT=/nonexistent

# Only two files were added: the rest of the root is the course as it is.
[ "$(cd "$R" && find lessons ptx assets -type f | sort)" = \
	"$( (cd "$ROOT" && find lessons ptx assets -type f; echo lessons/12-smem2.md; echo ptx/12_smem2.ptx) | sort)" ]
r $? newlesson-two-files

run "$BIN" list --json | python3 -c '
import json, sys
l = [x for x in json.load(sys.stdin) if x["number"] == 12]
assert len(l) == 1 and l[0]["id"] == "smem2" and l[0]["kernel"] == "ptx/12_smem2.ptx", l
' 2>&1
r $? newlesson-list

scr=$(run "$BIN" show 12 --screen --width 120 --height 40 2>&1)
rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$scr" | grep -q "Shared memory again" && printf '%s\n' "$scr" | grep -q "FLOP per byte"
r $? newlesson-show-screen

run "$BIN" emulate 12 --size 64 --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "ok" and d["verified"] is True and d["ptx"].endswith("ptx/12_smem2.ptx"), d
' 2>&1
r $? newlesson-emulate

# No recorded SASS and no toolkit: "no recording", where the SASS would be shown.
err=$(run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 12 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
	printf '%s' "$err" | grep -q "no recording of lesson 12 (assets/sass/12.sass"
r $? newlesson-sass-no-recording
run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 12 --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["recorded"] is False and d["entry"] == "sgemm_smem", d
assert d["no_recording"].startswith("no recording of lesson 12 (assets/sass/12.sass"), d
' 2>&1
r $? newlesson-sass-json-no-recording
# (--size 256: the SASS view's line is the same at any size; the frame's estimate a tenth of 4096^3's)
scr=$(run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" show 12 --screen --width 140 --height 40 --keys S --size 256 2>&1)
printf '%s\n' "$scr" | grep -q "no recording of lesson 12"
r $? newlesson-sass-view-no-recording

# The tests that walk the course, on this root: lesson 12 is found, and what it lacks is said.
for t in test_sass_record test_model_emu test_lessons; do
	if [ ! -x "$BUILD/tests/$t" ]; then
		echo "skip newlesson-$t: no $BUILD/tests/$t"
		continue
	fi
	out=$(run env CMOCKA_MESSAGE_OUTPUT=stdout "$BUILD/tests/$t" 2>&1)
	rc=$?
	case $t in
	test_sass_record) printf '%s\n' "$out" | grep -q "lesson 12: no recording" ;;
	test_model_emu) printf '%s\n' "$out" | grep -q "lesson 12: .*not compared" ;;
	*) true ;;
	esac
	said=$?
	[ $rc -eq 0 ] && [ $said -eq 0 ]
	r $? "newlesson-$t"
	[ $rc -eq 0 ] && [ $said -eq 0 ] || printf '%s\n' "$out" | tail -n 15
done
