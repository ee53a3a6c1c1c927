#!/bin/sh
# e2e_ncu_lines: scripts/ncu_lines.py, the per-line comparison with Nsight Compute, without a GPU.
# Offline on hand-made CSVs in the shapes ncu prints (tests/ncu_lines/: `--print-source cuda,sass`,
# the same with each line's SASS rows before the line, `sass` with the SASS map of `ptxtutor sass
# --json`, `cuda` alone, a renamed column, a line 5% off): the join by PTX line, OK/DIFF at 1%,
# the exit status. Then the whole run as the GPU machine does it, with a stand-in ncu
# (tests/ncu_lines/fake_ncu.py) that answers with the emulator's own counts: the profile's
# options, the raw files kept, the Markdown table.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip ncu_lines: no python3"
	exit 0
fi
PY="python3 $ROOT/scripts/ncu_lines.py"
D=$ROOT/tests/ncu_lines
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# check NAME CONDITION...: ok when the shell condition holds
check() {
	name=$1
	shift
	if "$@"; then echo "ok $name"; else echo "not ok $name"; fi
}
# row FILE LINE: the printed table's row for PTX line LINE
row() {
	awk -v l="$2" '$1 == l' "$1"
}

offline() { # offline CSV [more options]
	csv=$1
	shift
	$PY --emu-json "$D/emu.json" --ncu-csv "$D/$csv" --ptx "$D/k.ptx" --label k "$@" >"$T/out" 2>&1
	echo $? >"$T/rc"
}

offline cuda_sass.csv
check "ncu_lines cuda,sass: exit 0, four memory lines OK" \
	[ "$(cat "$T/rc")" = 0 ] && grep -q '^4 memory lines, 4 OK, 0 DIFF (ncu view: cuda,sass)' "$T/out"
# line 16's store: 64 warps issue it, 48 with an active lane; ncu's STG (not its LDC) has 64
check "ncu_lines cuda,sass: line 16 joined (48 requests, issued 64/64, g.requests 48/48, sectors 192/192)" \
	[ "$(row "$T/out" 16 | awk '{print $(NF-7), $(NF-6), $(NF-5), $(NF-4), $NF}')" = "48 64/64 48/48 192/192 OK" ]
check "ncu_lines cuda,sass: line 12's shared store joined (wavefronts 128/128, conflicts 64/64)" \
	[ "$(row "$T/out" 12 | awk '{print $(NF-3), $(NF-2), $NF}')" = "128/128 64/64 OK" ]
check "ncu_lines: non-memory lines are not in the table" [ -z "$(row "$T/out" 13)$(row "$T/out" 10)" ]
check "ncu_lines: the instruction totals (512 PTX, 640 SASS) are printed, said to differ by design" \
	grep -q 'emulator 512 PTX warp instructions on 8 lines; ncu 640 SASS warp instructions on 7 lines.*by design' "$T/out"

offline before.csv
check "ncu_lines cuda,sass with each line's SASS listed before it: told by the sums, joined the same" \
	[ "$(cat "$T/rc")" = 0 ] && grep -q '^4 memory lines, 4 OK, 0 DIFF' "$T/out" && grep -q 'SASS rows before' "$T/out"

offline diff.csv
check "ncu_lines: a line 5% off is DIFF, the others OK, exit 1" \
	[ "$(cat "$T/rc")" = 1 ] && [ "$(row "$T/out" 12 | awk '{print $NF}')" = DIFF ] &&
	[ "$(row "$T/out" 14 | awk '{print $NF}')" = OK ] && grep -q '^1 memory lines differ by more than 1.0%' "$T/out"
offline diff.csv --tolerance 0.2
check "ncu_lines: within --tolerance 0.2 the same line is OK" [ "$(cat "$T/rc")" = 0 ]

offline missing.csv
check "ncu_lines: a missing column is said with the header, the rest compared" \
	[ "$(cat "$T/rc")" = 0 ] && grep -q 'no column for L1 Wavefronts Shared; its header: Line No,Source,Address' "$T/out" &&
	[ "$(row "$T/out" 11 | awk '{print $(NF-4)}')" = 256/256 ]

offline sass.csv --sass-json "$D/sass.json"
check "ncu_lines sass view: SASS mapped to PTX lines by the SASS listing" \
	[ "$(cat "$T/rc")" = 0 ] && grep -q '^4 memory lines, 4 OK, 0 DIFF (ncu view: sass)' "$T/out"
sed 's/"sass": "EXIT"/"sass": "BRA 0x90"/' "$D/sass.json" >"$T/other.json"
offline sass.csv --sass-json "$T/other.json"
check "ncu_lines sass view: a map from another compile (an opcode differs) is said" \
	grep -q '^   1 SASS rows differ in opcode from the SASS map' "$T/out"
offline sass.csv
check "ncu_lines sass view without a map: not compared, exit 2" \
	[ "$(cat "$T/rc")" = 2 ] && grep -q 'no line-attributed rows' "$T/out"

offline cuda.csv
check "ncu_lines cuda view: lines without SASS rows compared, issued left out" \
	[ "$(cat "$T/rc")" = 0 ] && grep -q "no SASS rows: 'issued' is not compared" "$T/out" &&
	[ "$(row "$T/out" 12 | awk '{print $(NF-6), $(NF-3)}')" = "64/n/a 128/128" ]

offline cuda_sass.csv --md "$T/t.md"
check "ncu_lines --md: a Markdown table row per memory line" \
	grep -q '^| k | 12 | `st.shared.f32 \[tile\], %f1;` | 64 | 64/64 | - | - | 128/128 | 64/64 | 1.0000 | OK |$' "$T/t.md"

$PY --emu-json "$D/emu.json" >"$T/out" 2>&1
check "ncu_lines: --emu-json without --ncu-csv is refused in one line" \
	[ $? = 2 ] && [ "$(wc -l <"$T/out")" = 1 ]

# ---- the whole run, with a stand-in ncu ----
if [ ! -x "$BIN" ]; then
	echo "skip ncu_lines run: no binary at $BIN"
	exit 0
fi
PTXTUTOR_ROOT=$ROOT $PY --bin "$BIN" --ncu "$D/fake_ncu.py" --sizes 128 --raw "$T/raw" --md "$T/run.md" 1 3 >"$T/out" 2>&1
rc=$?
check "ncu_lines run (fake ncu): lessons 1 and 3 compared, no DIFF, exit 0" \
	[ $rc = 0 ] && [ "$(grep -c ' OK, 0 DIFF (ncu view: cuda,sass)' "$T/out")" = 2 ]
check "ncu_lines run: the raw files are kept (emulator JSON, report, each view's CSV, the joined table)" \
	[ -s "$T/raw/lesson_1.emulate.json" ] && [ -f "$T/raw/lesson_3.ncu-rep" ] &&
	[ -s "$T/raw/lesson_1.source_cuda_sass.csv" ] && [ -f "$T/raw/lesson_1.source_sass.csv" ] &&
	[ -s "$T/raw/lesson_3.joined.csv" ] && [ -s "$T/raw/lesson_1.profile.log" ]
# lesson 1's load of A: 32 sectors a request in the emulator, hence in the stand-in's answer
la=$(grep -n 'ld.global.f32 %a, \[%pA\]' "$ROOT/ptx/01_naive.ptx" | head -n 1 | cut -d: -f1)
check "ncu_lines run: lesson 1's load of A (line $la) in the Markdown table" \
	grep -q "^| lesson 1 | $la | \`ld.global.f32 %a, \[%pA\];" "$T/run.md"
FAKE_NCU_OFF=$la PTXTUTOR_ROOT=$ROOT $PY --bin "$BIN" --ncu "$D/fake_ncu.py" --sizes 128 --raw "$T/raw2" 1 >"$T/out" 2>&1
rc=$?
check "ncu_lines run: a line ncu counts 5% higher is DIFF, exit 1" \
	[ $rc = 1 ] && [ "$(row "$T/out" "$la" | awk '{print $NF}')" = DIFF ]
FAKE_NCU_NO_IMPORT=1 PTXTUTOR_ROOT=$ROOT $PY --bin "$BIN" --ncu "$D/fake_ncu.py" --sizes 128 --raw "$T/raw4" 2 >"$T/out" 2>&1
rc=$?
check "ncu_lines run: an ncu that refuses --import-source is asked again without it" \
	[ $rc = 0 ] && grep -q ' OK, 0 DIFF' "$T/out" && grep -q "unrecognised option '--import-source'" "$T/raw4/lesson_2.profile.log"
$PY --bin /nonexistent/ptxtutor --ncu "$D/fake_ncu.py" --raw "$T/raw3" 1 >"$T/out" 2>&1
check "ncu_lines run: a binary that cannot run is said in one line, exit 2" \
	[ $? = 2 ] && grep -q '^ncu_lines: /nonexistent/ptxtutor run --help failed' "$T/out"
exit 0
