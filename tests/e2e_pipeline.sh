#!/bin/sh
# e2e_pipeline: one run pipeline (issue 38). `emulate X` and `run X --emulate` print the same report,
# text and JSON, for every lesson with a kernel and three foreign kernels (nvcc's PTX of
# tests/heldout), the wall time masked; a run stopped at its deadline (the probe's refusal, the
# emulator's own clock) reports the backend that ran and exits 2, in this process and through the
# worker. GPUs are hidden. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip pipeline: no binary at $BIN"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip pipeline: no python3 to read the JSON"
	exit 0
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export PTXTUTOR_ROOT="$ROOT" CUDA_VISIBLE_DEVICES=

# The report with its clock readings masked: "0.15 s" and "seconds": 0.151 vary run to run.
masked() { sed -e 's/[0-9][0-9.]* s\b/T s/g' -e 's/"seconds": [0-9.e+-]*/"seconds": T/'; }

# same NAME ARGS...: emulate and run --emulate, text and JSON, the same bytes and exit status
same() {
	name=$1
	shift
	for fmt in text json; do
		j=
		[ $fmt = json ] && j=--json
		"$BIN" emulate "$@" $j >"$WORK/a" 2>"$WORK/a.err"
		ra=$?
		"$BIN" run --emulate "$@" $j >"$WORK/b" 2>"$WORK/b.err"
		rb=$?
		masked <"$WORK/a" >"$WORK/a.m"
		masked <"$WORK/b" >"$WORK/b.m"
		if [ $ra -eq 0 ] && [ $rb -eq 0 ] && [ -s "$WORK/a.m" ] && cmp -s "$WORK/a.m" "$WORK/b.m"; then
			echo "ok pipeline_same_${name}_$fmt"
		else
			echo "not ok pipeline_same_${name}_$fmt (exit $ra and $rb)"
			diff "$WORK/a.m" "$WORK/b.m" | head -n 20 | sed 's/^/    | /'
			cat "$WORK/a.err" "$WORK/b.err" | head -n 5 | sed 's/^/    | /'
		fi
	done
}

lessons=$("$BIN" list --json | python3 -c 'import json, sys; print(" ".join(str(l["number"]) for l in json.load(sys.stdin) if l.get("kernel")))')
n=0
for l in $lessons; do
	same "lesson_$l" "$l"
	n=$((n + 1))
done
[ "$n" -ge 11 ] && echo "ok pipeline_lessons $n lessons compared" || echo "not ok pipeline_lessons: only $n lessons with a kernel"

# Three foreign kernels, as nvcc made them (tests/heldout/kernels.tsv), at a size each takes: a
# naive one, one with a bank conflict in shared memory, one with f16 inputs.
tab=$(printf '\t')
grep -E '^(naive_rows|tiled_conflict|half2_pairs)'"$tab" "$ROOT/tests/heldout/kernels.tsv" >"$WORK/rows"
[ "$(wc -l <"$WORK/rows")" -eq 3 ] && echo "ok pipeline_foreign_rows" || echo "not ok pipeline_foreign_rows: not 3 rows"
while IFS="$tab" read -r name ptx entry grid block args dtype outt smem mult kind; do
	set -- --ptx "$ROOT/tests/heldout/$ptx" --entry "$entry" --grid "$grid" --block "$block" --args "$args" \
		--dtype "$dtype" --out "$outt" --size 128
	[ "$smem" = "-" ] || set -- "$@" --smem "$smem"
	same "$name" "$@"
done <"$WORK/rows"

# stopped NAME EXPECTED-STATUS ARGS...: both commands, JSON: the status, "backend" the CPU emulator, exit 2
stopped() {
	name=$1 want=$2
	shift 2
	for cmd in "emulate" "run --emulate"; do
		$BIN $cmd "$@" --json >"$WORK/s" 2>"$WORK/s.err"
		rc=$?
		got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["status"] + "|" + d["backend"] + "|" + d["gpu"])' "$WORK/s" 2>/dev/null)
		if [ $rc -eq 2 ] && [ "$got" = "$want|CPU emulator|CPU emulator" ]; then
			echo "ok pipeline_stopped_${name} ($cmd): $want on the CPU emulator, exit 2"
		else
			echo "not ok pipeline_stopped_${name} ($cmd): exit $rc, '$got'"
			cat "$WORK/s.err" | head -n 3 | sed 's/^/    | /'
		fi
	done
}

# The probe: lesson 5 at 1024 cubed is minutes of CPU, its deadline 3 s: refused once the first block
# is timed (0.1-0.4 s; a deadline of 1 s was met first on a machine loaded 8 deep).
stopped probe "timed out" 5 --size 1024 --timeout 3
grep -q "would take about" "$WORK/s.err" && echo "ok pipeline_probe_says_why" || echo "not ok pipeline_probe_says_why"
# The emulator's own clock: one block that never ends (the probe has no block to time), at a size
# whose instruction budget (1e7 + 2MNK) is far off.
cat >"$WORK/spin.ptx" <<'PTX'
.version 7.0
.target sm_50
.address_size 64
.visible .entry spin(.param .u64 A, .param .u64 B, .param .u64 C, .param .u32 M, .param .u32 N, .param .u32 K)
{
L:
	bra L;
}
PTX
# (Deadlines of half a second: each run spins its whole deadline on a core.)
t0=$(date +%s%3N)
stopped deadline "timed out" --ptx "$WORK/spin.ptx" --grid 1 --block 32 --size 1024 --timeout 0.5
t=$(($(date +%s%3N) - t0))
# two runs of 0.5 s (the emulator stops itself; the worker would kill it only LAUNCH_KILL_GRACE_S, 5 s, later)
[ $t -ge 1000 ] && [ $t -lt 7000 ] && echo "ok pipeline_deadline_is_the_request_s ($t ms for two runs of 0.5 s)" ||
	echo "not ok pipeline_deadline_is_the_request_s ($t ms for two runs of 0.5 s)"
# The text: the report's one line on stderr names the backend and the clock.
"$BIN" run --emulate --ptx "$WORK/spin.ptx" --grid 1 --block 32 --size 1024 --timeout 0.5 >/dev/null 2>"$WORK/t.err"
rc=$?
[ $rc -eq 2 ] && grep -q "timed out on the CPU emulator: .*wall-clock deadline" "$WORK/t.err" && echo "ok pipeline_stopped_text" ||
	{ echo "not ok pipeline_stopped_text (exit $rc)"; sed 's/^/    | /' "$WORK/t.err"; }
