#!/bin/sh
# e2e_stalls: `emulate --stalls` (the stall model, docs/model.md "Stall reasons") end to end. Until
# the lead's latency_* rows are in assets/measured-h100.tsv, the runs use a copy of the root whose
# measured file has the fixture's published figures appended (tests/data/stalls_latency.tsv); the
# product itself reads only the real file and, without the rows, says which one is missing.
# Lesson 1 as JSON and lesson 5 as text (at 1024, to stay fast) must run and name a top reason for
# each of their hottest lines. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
if [ ! -x "$BIN" ]; then
	echo "skip stalls: no binary at $BIN"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/assets"
for f in "$ROOT"/*; do [ "$(basename "$f")" = assets ] || ln -s "$f" "$root/"; done
for f in "$ROOT"/assets/*; do ln -s "$f" "$root/assets/"; done
rm "$root/assets/measured-h100.tsv"
if grep -q '	latency_l2	' "$ROOT/assets/measured-h100.tsv"; then
	cp "$ROOT/assets/measured-h100.tsv" "$root/assets/"
else
	cat "$ROOT/assets/measured-h100.tsv" > "$root/assets/measured-h100.tsv"
	grep -v '^#' "$ROOT/tests/data/stalls_latency.tsv" >> "$root/assets/measured-h100.tsv"
	# the real file without the rows: a clear one-line refusal, exit 2
	PTXTUTOR_ROOT=$ROOT "$BIN" emulate 1 --stalls --size 256 >"$tmp/o" 2>"$tmp/e"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "^ptxtutor emulate: .*has no latency_[a-z0-9]* row" "$tmp/e" && [ "$(wc -l <"$tmp/e")" -eq 1 ]; then
		echo "ok stalls_missing_row"
	else
		echo "not ok stalls_missing_row: rc $rc: $(head -c 300 "$tmp/e")"
	fi
fi

# judge NAME FILE: the Python on stdin runs with FILE's JSON as d (a file that is no JSON: "not ok NAME").
judge() {
	python3 -c 'import json, sys
try:
    d = json.load(open(sys.argv[2]))
except ValueError:
    print("not ok %s: no JSON: %s" % (sys.argv[1], open(sys.argv[2]).read()[:300])); sys.exit()
exec(sys.stdin.read())' "$1" "$2"
}

PTXTUTOR_ROOT=$root "$BIN" emulate 1 --stalls --json --size 1024 >"$tmp/j" 2>"$tmp/e"
judge stalls_json "$tmp/j" <<'PY'
reasons = set(d["total"])
lines = sorted(d["lines"], key=lambda l: -l["cycles"])[:5]
bad = [l for l in lines if l["top"] not in reasons or l["top"] == "selected" and l["cycles"] > 2 * l["issued"]]
total = sum(d["total"].values())
ok = (d["ms"] > 0 and d["warp_cycles_per_issue"] >= 1 and 0 < d["issue_active"] <= 1 and len(lines) == 5
      and not bad and abs(total - sum(l["cycles"] for l in d["lines"])) < 1e-6 * total + 1
      and d["top"] in reasons and d["blocks_per_sm"] == 2 and not d["trace_cut"])
print(("ok" if ok else "not ok") + " stalls_json" + ("" if ok else f": {json.dumps(d)[:400]}"))
PY

PTXTUTOR_ROOT=$root "$BIN" emulate 5 --stalls --size 1024 >"$tmp/t" 2>"$tmp/e"
rc=$?
hot=$(awk '/top reason/ { on = 1; next } on && NF >= 5 { n++ } END { print n + 0 }' "$tmp/t")
if [ $rc -eq 0 ] && grep -q "warp cycles per issued instruction" "$tmp/t" && grep -q "issue active" "$tmp/t" &&
	[ "$hot" -ge 5 ] && awk '/top reason/ { on = 1; next } on && NF >= 5 && $4 !~ /^[a-zA-Z]/ { bad = 1 } END { exit bad }' "$tmp/t"; then
	echo "ok stalls_text"
else
	echo "not ok stalls_text: rc $rc: $(head -c 600 "$tmp/t") $(head -c 300 "$tmp/e")"
fi

PTXTUTOR_ROOT=$root "$BIN" emulate 1 --stalls --csv --size 256 >"$tmp/c" 2>"$tmp/e"
if head -1 "$tmp/c" | grep -q "^line,issued,cycles,top,long_scoreboard," && [ "$(wc -l <"$tmp/c")" -gt 5 ]; then
	echo "ok stalls_csv"
else
	echo "not ok stalls_csv: $(head -c 300 "$tmp/c") $(head -c 300 "$tmp/e")"
fi

# --by cu: a student's nvcc -lineinfo PTX, summed per CUDA line, with the line's text
PTXTUTOR_ROOT=$root "$BIN" emulate --ptx "$ROOT/tests/students/lines/lines.ptx" --entry gemm_ok --args 'A B C M N K' \
	--size 128 --grid 'N/16,M/16' --block 16,16 --stalls --by cu >"$tmp/u" 2>"$tmp/e"
if grep -q "why each CUDA line waits" "$tmp/u" && grep -q "^ *12 .*acc += A\[row \* K + k\] \* B\[k \* N + col\];" "$tmp/u"; then
	echo "ok stalls_by_cu"
else
	echo "not ok stalls_by_cu: $(head -c 600 "$tmp/u") $(head -c 300 "$tmp/e")"
fi
# ... and what each CUDA line waited for, as CUDA lines: the loop body's loads are its own line's
PTXTUTOR_ROOT=$root "$BIN" emulate --ptx "$ROOT/tests/students/lines/lines.ptx" --entry gemm_ok --args 'A B C M N K' \
	--size 128 --grid 'N/16,M/16' --block 16,16 --stalls --by cu --json >"$tmp/uj" 2>"$tmp/e"
judge stalls_by_cu_waits_for "$tmp/uj" <<'PY'
l = {x["line"]: x["waits_for"] for x in d["lines"]}
ok = d["by"] == "cu_line" and l.get(12) and l[12][0]["line"] == 12 and all(f["line"] > 0 for w in l.values() for f in w)
print(("ok" if ok else "not ok") + " stalls_by_cu_waits_for: line 12 waits for %s" % l.get(12))
PY

# --stalls with another report: refused in one line
"$BIN" emulate 1 --stalls --estimate >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc -eq 2 ] && grep -q "^ptxtutor emulate: --stalls goes without" "$tmp/e"; then
	echo "ok stalls_alone"
else
	echo "not ok stalls_alone: rc $rc $(head -c 200 "$tmp/e")"
fi

# --clock: the replay at a given SM clock, said so; the L2's and DRAM's latencies are partly in their
# own clocks (docs/model.md, item 7), so lesson 2, its loads waited for, takes fewer SM cycles at a lower clock
for mhz in "" 1000; do
	PTXTUTOR_ROOT=$root "$BIN" emulate 2 --stalls --json --size 256 ${mhz:+--clock $mhz} >"$tmp/k$mhz" 2>"$tmp/e"
done
python3 - "$tmp/k" "$tmp/k1000" <<'PY'
import json, sys
try:
    a, b = (json.load(open(p)) for p in sys.argv[1:])
except ValueError:
    print("not ok stalls_clock: no JSON"); sys.exit()
ok = a["clock_from"] == "power" and b["clock_from"] == "given" and b["clock_mhz"] == 1000 and \
    b["cycles"] < a["cycles"] and b["ms"] > 0
print(("ok" if ok else "not ok") + " stalls_clock: %s MHz %.0f cycles (%s), 1000 MHz %.0f cycles (%s)" %
      (a["clock_mhz"], a["cycles"], a["clock_from"], b["cycles"], b["clock_from"]))
PY
"$BIN" emulate 1 --clock 1000 >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc -eq 2 ] && grep -q "^ptxtutor emulate: --clock goes with --stalls" "$tmp/e" && [ "$(wc -l <"$tmp/e")" -eq 1 ]; then
	echo "ok stalls_clock_alone"
else
	echo "not ok stalls_clock_alone: rc $rc $(head -c 200 "$tmp/e")"
fi

# A barrier's wait shows where ptxas's SASS has the first instruction after the BAR that is not
# arithmetic (docs/model.md, item 5): in lesson 3 the LDG of B's next value (line 156) comes before A's
# (line 152, first in the PTX), as ncu's samples say; the recording (assets/sass/03.sass) gives the order.
PTXTUTOR_ROOT=$root "$BIN" emulate 3 --stalls --json --size 1024 >"$tmp/b" 2>"$tmp/e"
judge stalls_barrier_at_sass_order "$tmp/b" <<'PY'
bar = {x["line"]: x["stalls"]["barrier"] for x in d["lines"]}
ok = bar.get(156, 0) > 0 and bar.get(152, 0) == 0
print(("ok" if ok else "not ok") + " stalls_barrier_at_sass_order: barrier cycles at line 152 %s, at 156 %s" %
      (bar.get(152, 0), bar.get(156, 0)))
PY

# Each line says whose result it waited for: lesson 2's first FMA of a step (line 96) waits longest for
# the load of B at line 95 (long scoreboard), and the text report has the column.
PTXTUTOR_ROOT=$root "$BIN" emulate 2 --stalls --json --size 256 >"$tmp/f" 2>"$tmp/e"
judge stalls_waits_for "$tmp/f" <<'PY'
l = {x["line"]: x for x in d["lines"]}
f = l.get(96, {}).get("waits_for", [])
ok = f and f[0]["line"] == 95 and f[0]["cycles"] > 0 and l[95]["waits_for"] == []
print(("ok" if ok else "not ok") + " stalls_waits_for: line 96 waits for %s" % f)
PY
PTXTUTOR_ROOT=$root "$BIN" emulate 2 --stalls --size 256 2>&1 | grep -q "^ *96 .* 95 .*fma.rn.f32"
[ $? -eq 0 ] && echo "ok stalls_waits_for_text" || echo "not ok stalls_waits_for_text"

# A wmma.mma waits for the wmma.loads of its fragments (their registers are the wmma's own operands,
# not the op's): tests/heldout/wmma_f16's four mma lines wait at long scoreboard, they had issued at once;
# where the recording's MOVMs of B's fragment wait on the scoreboards of both fragments' LDGs (lines 93,
# 102, 111: B's wmma.load, the line before its mma), that wait is charged there (docs/model.md, item 6).
PTXTUTOR_ROOT=$root "$BIN" emulate --ptx "$ROOT/tests/heldout/wmma_f16.ptx" --entry heldout_wmma_f16 --grid 'ceil(N/64),M/16' \
	--block 128 --args 'M N K alpha:1.5 A B beta:0.5 C' --dtype f16 --out f32 --size 256 --stalls --json >"$tmp/w" 2>"$tmp/e"
judge stalls_wmma_waits "$tmp/w" <<'PY'
l = {x["line"]: x for x in d["lines"]}
mma = [(m, sum(l[n]["stalls"].get("long_scoreboard", 0) for n in (m - 1, m) if n in l)) for m in (94, 103, 112, 121)]
ok = all(m in l and w > 10 * l[m]["issued"] for m, w in mma) and all(l[n]["top"] == "long_scoreboard" for n in (93, 102, 111))
print(("ok" if ok else "not ok") + " stalls_wmma_waits: " + "; ".join("%d-%d long_scoreboard %d/%d" % (m - 1, m, w, l[m]["issued"]) for m, w in mma if m in l))
PY
