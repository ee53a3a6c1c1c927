#!/bin/sh
# e2e_estimate: the time estimate (`emulate --estimate`, docs/model.md) against the times measured on
# the H100 at 4096: every lesson with a kernel (`ptxtutor list --json`) that has a measured time
# (assets/measured-h100.tsv; one without says so and is skipped) within the JSON's
# tolerance.lessons, and every held-out kernel (tests/heldout: CUDA C of our own the estimate was
# not shaped on, timed by scripts/gpu-heldout.sh) within tolerance.heldout; each with the SM pipes'
# root between their max and their sum, and, where the stall model gave the SM's cycles, the estimate
# the largest of its latency term, L2 and DRAM, at a clock no higher than the highest. A GPU without
# measured rates gets one line and no number, and so does an FP8 lesson whose tensor rate has no row
# (e5m2 always; e4m3 until scripts/gpu-power.sh's wgmma_f8 row is in the measured file).
# The lessons' half by default; E2E_ESTIMATE_PART=heldout the held-out kernels' (tests/e2e_estimate_heldout.sh,
# so that the two halves share the suite's two slots), all both.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
PART=${E2E_ESTIMATE_PART:-lessons}
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/heldout"
if [ ! -x "$BIN" ]; then
	echo "skip estimate: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# check NAME MEASURED_MS KEY: the JSON in $out within tolerance.KEY of MEASURED_MS
check() {
	python3 - "$1" "$2" "$3" "$out" <<'PY'
import json, sys
name, ms, key, path = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
try:
    d = json.load(open(path))
except ValueError:
    print(f"not ok estimate_{name}: no JSON:", open(path).read()[:300]); sys.exit()
err, tol = d["ms"] / ms - 1, d["tolerance"][key]
# The root of the SM pipes' squares lies between their max and their sum (docs/model.md).
# (JSON numbers carry 10 significant digits: compared within 1e-8 of their size.)
sm = [d["terms_ms"][k] for k in ("issue", "int", "lsu", "mma")]
near = lambda a, b: abs(a - b) <= 1e-8 * max(abs(a), abs(b), 1e-30)
between = near(d["sm_max_ms"], max(sm)) and near(d["sm_sum_ms"], sum(sm)) and \
    d["sm_max_ms"] * (1 - 1e-8) <= d["sm_ms"] <= d["sm_sum_ms"] * (1 + 1e-8)
# The stall model's SM (docs/model.md "The time estimate"): the estimate is the largest of its
# latency term, L2 and DRAM, named by limit, at a clock the power model kept at or under the highest.
t = d["terms_ms"]
if "latency" in d:
    between = between and d["limit"] in ("latency", "l2", "dram") and \
        near(d["ms"], max(t["latency"], t["l2"], t["dram"])) and near(d["ms"], t[d["limit"]]) and \
        0 < d["clock_mhz"] <= d["clock_max_mhz"] * (1 + 1e-8) and \
        d["clock_capped"] == (d["clock_mhz"] < d["clock_max_mhz"] * (1 - 1e-8)) and d["latency"]["cycles"] > 0
# The misses docs/model.md names, each on its known side (the sign) and no worse than 4x: a change
# that moves one inside the tolerance, to the other side or further out fails here and is looked at.
KNOWN = {"warp_dot": (-1, "its 32-line loads take two cycles a line on the GPU, one in the model "
                      "(docs/model.md, what the mechanisms of issue 41 left)")}
known = KNOWN.get(name)
if known and abs(err) > tol:
    ok = between and err * known[0] > 0 and abs(err) < 3
    print(f"{'ok' if ok else 'not ok'} estimate_{name}, a known miss: {100 * err:+.0f}% ({known[1]})")
    sys.exit()
verdict = "ok" if abs(err) <= tol and between else "not ok"
print(f"{verdict} estimate_{name} {d['ms']:.4g} ms against {ms:.4g} measured: {100 * err:+.0f}% "
      f"(limit {d['limit']}, tolerance {100 * tol:.0f}%; SM pipes {d['sm_ms']:.4g} between "
      f"{d['sm_max_ms']:.4g} and {d['sm_sum_ms']:.4g})")
PY
}
# The course's lessons with a kernel, as "NUMBER DTYPE" lines: a lesson added is checked too.
lessons=$("$BIN" list --json | python3 -c '
import json, sys
for l in json.load(sys.stdin):
    if l["kernel"]:
        print(l["number"], l["dtype"])')
[ -n "$lessons" ] || echo "not ok estimate_lessons: ptxtutor list --json gave no lesson with a kernel"
[ "$PART" = heldout ] && lessons=
printf '%s\n' "$lessons" | while read -r n dt; do
	[ -n "$n" ] || continue
	case $dt in e5m2) continue ;; esac # below: refused, one line
	ms=$(awk -F'\t' -v n=$n '$5 == n && $6 == 4096 && $7 == "ms" { print $8; exit }' "$ROOT/assets/measured-h100.tsv")
	if [ -z "$ms" ]; then
		echo "skip estimate_lesson_$n: no measured ms at 4096 in assets/measured-h100.tsv (scripts/gpu-bench.sh on the H100)"
		continue
	fi
	"$BIN" emulate "$n" --estimate --json >"$out" 2>&1
	rc=$?
	# e4m3 without its tensor rate's row: refused in one line (below), not a number
	if [ "$dt" = e4m3 ] && [ $rc -eq 2 ]; then
		if [ "$(wc -l <"$out")" -eq 1 ] && grep -q "no estimate for e4m3 inputs" "$out"; then
			echo "ok estimate_fp8_refused_lesson_$n"
		else
			echo "not ok estimate_fp8_refused_lesson_$n (exit $rc)"; cat "$out"
		fi
		continue
	fi
	check lesson_$n "$ms" lessons
done
tab=$(printf '\t')
[ "$PART" = lessons ] || grep -v '^#' "$DIR/kernels.tsv" |
	while IFS="$tab" read -r name ptx entry grid block args dtype outt smem mult kind; do
	ms=$(awk -F'\t' -v k="$name" '$5 == k && $6 == 4096 && $7 == "ms" { print $8; exit }' "$DIR/measured-h100.tsv")
	if [ -z "$ms" ]; then
		echo "skip estimate_$name: no measured ms in tests/heldout/measured-h100.tsv (scripts/gpu-heldout.sh on the H100)"
		continue
	fi
	set -- --ptx "$DIR/$ptx" --entry "$entry" --grid "$grid" --block "$block" --args "$args" --dtype "$dtype" --out "$outt"
	[ "$smem" = "-" ] || set -- "$@" --smem "$smem"
	"$BIN" emulate "$@" --size 4096 --estimate --json >"$out" 2>&1
	check "$name" "$ms" heldout
done
[ "$PART" = heldout ] && exit 0
# No measured rates for another GPU: one line, exit 2, no number.
"$BIN" emulate 5 --estimate --gpu a100 >"$out" 2>&1
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$out")" -eq 1 ] && grep -q "no estimate for the .*measured on an H100 only" "$out"; then
	echo "ok estimate_other_gpu_refused"
else
	echo "not ok estimate_other_gpu_refused (exit $rc)"; cat "$out"
fi
# FP8 inputs: the tensor cores' rates were measured with f16 only: one line, no number.
printf '%s\n' "$lessons" | while read -r n dt; do
	case $dt in e5m2) ;; *) continue ;; esac
	"$BIN" emulate "$n" --estimate >"$out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$out")" -eq 1 ] && grep -q "no estimate for $dt inputs" "$out"; then
		echo "ok estimate_fp8_refused_lesson_$n"
	else
		echo "not ok estimate_fp8_refused_lesson_$n (exit $rc)"; cat "$out"
	fi
done
