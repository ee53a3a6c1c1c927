#!/bin/sh
# e2e_sass_recorded: the SASS view without the CUDA toolkit, from a lesson's recorded copy
# (assets/sass/NN.sass). A scratch data root (the course's lessons and PTX, no recordings)
# gets lesson 5's recording made by `sass 5 --record` with stand-in tools (tests/data/sass/fakebin's
# ptxas and nvdisasm, lesson 1's hand-written disassembly renamed to lesson 5's entry); then,
# with the toolkit hidden, `sass 5` (text and JSON) and the tutor's S view show it labelled as
# recorded, and a --ptx kernel with no recording beside it, another arch, an edited copy or a stale
# hash get the one "needs the toolkit" line (exit 3) with the reason. A PTX file's own recording
# (tests/heldout/tiled_debug.sass) is shown, and the stall model replays that debug build as its
# SASS issues, and spill's register-kept local array as the selects its SASS has. Last, the real assets/sass/05.sass when it is committed. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip sass-recorded: no binary at $BIN"
	exit 0
fi
r() { if [ "$1" -eq 0 ]; then echo "ok $2"; else echo "not ok $2"; fi; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM

# The scratch root: the course as it is, its own assets/ with no recordings.
R="$W/root"
mkdir -p "$R/assets/sass" "$W/fake" "$W/data"
ln -s "$ROOT/lessons" "$ROOT/ptx" "$R/"
ln -s "$ROOT/assets/gpus.tsv" "$ROOT/assets/measured-h100.tsv" "$R/assets/"
# Stand-in tools that speak of lesson 5's entry.
D="$ROOT/tests/data/sass"
printf '#!/bin/sh\n[ "$1" = "--version" ] && { echo "Cuda compilation tools, release 99.9, V99.9.1"; exit 0; }\nwhile [ $# -gt 0 ]; do [ "$1" = "-o" ] && { : > "$2"; shift; }; shift; done\nsed s/sgemm_naive/sgemm_blocktile2d/g "%s/ptxas-v.txt"\n' "$D" >"$W/fake/ptxas"
printf '#!/bin/sh\n[ "$1" = "--version" ] && { echo "Cuda compilation tools, release 99.9, V99.9.2"; exit 0; }\nsed s/sgemm_naive/sgemm_blocktile2d/g "%s/naive.nvdisasm"\n' "$D" >"$W/fake/nvdisasm"
chmod +x "$W/fake/ptxas" "$W/fake/nvdisasm"
run() { PTXTUTOR_ROOT="$R" XDG_DATA_HOME="$W/data" "$@"; }
NOKIT=/nonexistent

# --record writes the file and says so in one line; its hash is FNV-1a 64 of the PTX file.
out=$(run env PTXTUTOR_CUDA_BIN="$W/fake" "$BIN" sass 5 --gpu h100 --record "$R/assets/sass/05.sass")
rc=$?
want=$(python3 -c '
import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) % 2**64
print("%016x" % h)' "$ROOT/ptx/05_blocktile2d.ptx")
[ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
	printf '%s' "$out" | grep -q "^.*/05.sass: 14 instructions, 28 registers, sm_90, ptxas 99.9.1 + nvdisasm 99.9.2" &&
	grep -qx "ptx-fnv1a64: $want" "$R/assets/sass/05.sass" &&
	grep -qx "command: ptxtutor sass 5 --ptxas --gpu h100 --record" "$R/assets/sass/05.sass" &&
	[ "$(sed '1,/^---$/d' "$R/assets/sass/05.sass")" = "$(sed s/sgemm_naive/sgemm_blocktile2d/g "$D/naive.nvdisasm")" ]
r $? sass-record-writes

# Without the toolkit: the recording, labelled on the first line.
today=$(sed -n 's/^date: //p' "$R/assets/sass/05.sass")
out=$(run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 5)
rc=$?
[ $rc -eq 0 ] &&
	[ "$(printf '%s\n' "$out" | head -n 1)" = "recorded SASS (ptxas 99.9.1 + nvdisasm 99.9.2, sm_90, $today, ptxtutor sass 5 --ptxas --gpu h100 --record): not compiled here" ] &&
	printf '%s\n' "$out" | grep -q "^ *83  " && printf '%s\n' "$out" | grep -q "FFMA R9, R4.reuse, R5, R9" &&
	printf '%s\n' "$out" | grep -Eq "^kernel +14 "
r $? sass-recorded-text
run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 5 --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["recorded"] is True and d["recorded_date"] == sys.argv[1], d
assert d["recorded_by"] == "ptxtutor sass 5 --ptxas --gpu h100 --record" and d["compiler"] == "ptxas 99.9.1"
assert d["entry"] == "sgemm_blocktile2d" and d["counts"]["total"] == 14 and d["line_info"]
' "$today" 2>&1
r $? sass-recorded-json
# Compiled here (the stand-in tools): not recorded.
run env PTXTUTOR_CUDA_BIN="$W/fake" "$BIN" sass 5 --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["recorded"] is False and "recorded_date" not in d, d
' 2>&1
r $? sass-compiled-not-recorded

# Where a recording does not apply: the one line, exit 3, and why.
one_line() { # expected-reason command...
	why=$1
	shift
	err=$(run "$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 3 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && printf '%s' "$err" | grep -q "nvidia-cuda-toolkit" &&
		printf '%s' "$err" | grep -q "no recorded copy applies: $why"
}
one_line "no recording beside the PTX file" \
	env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass --ptx "$ROOT/ptx/05_blocktile2d.ptx" --entry sgemm_blocktile2d
r $? sass-recorded-not-for-ptx
one_line "assets/sass/05.sass is for sm_90, not sm_80" env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 5 --gpu a100
r $? sass-recorded-other-arch
one_line "no recording of lesson 4 (assets/sass/04.sass: scripts/gpu-sass.sh --record makes it)" env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 4
r $? sass-recorded-none
# --record never falls back to a recording.
err=$(run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 5 --record "$W/x.sass" 2>&1 >/dev/null)
[ $? -eq 3 ] && ! printf '%s' "$err" | grep -q "recorded copy" && [ ! -e "$W/x.sass" ]
r $? sass-record-needs-toolkit

# The tutor's S view: the label in the title and on the compiler line.
# (the screens at --size 256: the SASS is the kernel's at any size, and the frame's estimate,
# emulated before it is drawn, takes a tenth of 4096^3's time)
scr=$(run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" show 5 --screen --size 256 --width 140 --height 34 --keys S)
printf '%s\n' "$scr" | grep -q "SASS sm_90 (recorded) sgemm_blocktile2d: 14 instr" &&
	printf '%s\n' "$scr" | grep -q "by PTX line: recorded $today, not compiled here: ptxas 99.9.1 for sm_90"
r $? sass-recorded-screen
# The student's edited copy is not what was recorded.
mkdir -p "$W/data/ptxtutor/ptx"
{ cat "$ROOT/ptx/05_blocktile2d.ptx"; echo "// my change"; } >"$W/data/ptxtutor/ptx/05_blocktile2d.ptx"
scr=$(run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" show 5 --screen --size 256 --width 140 --height 34 --keys S)
printf '%s\n' "$scr" | grep -q "your edited copy"
r $? sass-recorded-not-for-edits
rm -rf "$W/data/ptxtutor"

# A stale recording (the PTX changed since): the hash no longer matches.
sed -i 's/^ptx-fnv1a64: .*/ptx-fnv1a64: 0000000000000000/' "$R/assets/sass/05.sass"
one_line "the PTX changed since it was recorded (assets/sass/05.sass); run scripts/gpu-sass.sh --record" \
	env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 5
r $? sass-recorded-stale
scr=$(run env PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" show 5 --screen --size 256 --width 140 --height 34 --keys S)
printf '%s\n' "$scr" | grep -q "the PTX changed since" && ! printf '%s\n' "$scr" | grep -q "(recorded)"
r $? sass-recorded-stale-screen

# A PTX file's own recording lies beside it (the JIT's code: `sass --ptx FILE --entry NAME --jit
# --record`): shown without the toolkit, labelled; the stall model replays the debug build as that
# SASS issues (several a PTX instruction), and a copy without it one a PTX instruction, said so.
H="$ROOT/tests/heldout"
out=$(PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass --ptx "$H/tiled_debug.ptx" --entry heldout_tiled_debug)
[ $? -eq 0 ] && printf '%s\n' "$out" | head -n 1 |
	grep -q "^recorded SASS (driver JIT .*, sm_90, .*--jit --record): not compiled here$" &&
	printf '%s\n' "$out" | grep -q "BAR.SYNC"
r $? sass-recorded-beside-ptx
cp "$H/tiled_debug.ptx" "$W/td.ptx"
stalls() { # PTX-FILE: debug_build and debug_sass of its --stalls JSON at 128^3, no toolkit
	PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" emulate --ptx "$1" --entry heldout_tiled_debug --grid N/32,M/32 --block 32,32 \
		--args 'M N K alpha:1.5 A B beta:0.5 C' --dtype f32 --out f32 --size 128 --stalls --json |
		python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["debug_build"], d["debug_sass"], d["issued"] if "issued" in d else "")'
}
[ "$(stalls "$H/tiled_debug.ptx")" = "True True " ] && [ "$(stalls "$W/td.ptx")" = "True False " ]
r $? sass-recorded-beside-debug-replay
out=$(PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" emulate --ptx "$W/td.ptx" --entry heldout_tiled_debug --grid N/32,M/32 --block 32,32 \
	--args 'M N K alpha:1.5 A B beta:0.5 C' --dtype f32 --out f32 --size 128 --stalls)
printf '%s\n' "$out" | grep -q "a debug build (.*): its SASS unknown here (no recording beside it, no ptxas and disassembler), one a PTX instruction"
r $? sass-recorded-beside-debug-said

# spill's acc[] is a local array ptxas keeps in registers (its recording has no LDL or STL): its ld.local
# line 81 is replayed as that line's SASS (four ISETP.EQ and four moves: 8 issues to line 82's FFMA's one),
# nothing of it waits on memory; a copy without the recording has it a load again (one issue).
spill() { # PTX-FILE: line 81's issues over line 82's, and its memory waits, at 128^3
	PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" emulate --ptx "$1" --entry heldout_spill --grid N/32,M/32 --block 32,8 \
		--args 'M N K alpha:1.5 A B beta:0.5 C' --dtype f32 --out f32 --size 128 --stalls --json |
		python3 -c 'import json, sys
l = {x["line"]: x for x in json.load(sys.stdin)["lines"]}
print(round(l[81]["issued"] / l[82]["issued"]), sum(l[81]["stalls"].get(k, 0) for k in ("long_scoreboard", "lg_throttle")))'
}
cp "$H/spill.ptx" "$W/sp.ptx"
[ "$(spill "$H/spill.ptx")" = "8 0" ] && [ "$(spill "$W/sp.ptx" | cut -d' ' -f1)" = "1" ]
r $? sass-recorded-local-in-registers

# low_occ's recording says by its control bits that the STS of line 145 is the first to wait on the scoreboard
# its tile's last thirteen LDGs share: their uses' long-scoreboard waits (line 143's STS, the PTX's first use
# of line 142's load, ...) are charged at line 145; a copy without the recording keeps them at their uses.
lowocc() { # PTX-FILE: long scoreboard cycles at lines 145 and 143, at 256^3
	PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" emulate --ptx "$1" --entry heldout_low_occ --grid N/64,M/64 --block 64 --smem 120000 \
		--args 'M N K alpha:1.5 A B beta:0.5 C' --dtype f32 --out f32 --size 256 --stalls --json |
		python3 -c 'import json, sys
l = {x["line"]: x["stalls"].get("long_scoreboard", 0) for x in json.load(sys.stdin)["lines"]}
print(int(l.get(145, 0) > 0), int(l.get(143, 0) > 0))'
}
# ... and `sass` says so beside the STS: the lines of the thirteen loads it waits for.
PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass --ptx "$H/low_occ.ptx" --entry heldout_low_occ |
	grep -q 'STS \[R83+0x200\], R87 *\[waits sb5 <- 142 144 147 149 +9; sets sb0 on reading its registers\]$'
r $? sass-recorded-control-note
# The SASS view in the machine's order says the same beside each row where there is room (lesson 1's
# recording, its pointers' page); a narrow pane leaves the note out rather than cut the instruction.
scr=$(PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" show 1 --screen --size 256 --width 150 --height 40 --page 4 --keys SS)
printf '%s\n' "$scr" | grep -Eq "^ +69 +IMAD.WIDE.U32 R12, R4, 0x4, R12 +waits sb0 <- 69 " &&
	! PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" show 1 --screen --size 256 --width 80 --height 30 --page 4 --keys SS | grep -q "sb[0-9]"
r $? sass-recorded-control-view
cp "$H/low_occ.ptx" "$W/lo.ptx"
[ "$(lowocc "$H/low_occ.ptx")" = "1 0" ] && [ "$(lowocc "$W/lo.ptx")" = "0 1" ]
r $? sass-recorded-scoreboard-waits

# The committed recording, once the GPU machine has made it (scripts/gpu-sass.sh --record).
if [ ! -f "$ROOT/assets/sass/05.sass" ]; then
	echo "skip sass-recorded-shipped: no assets/sass/05.sass yet (sh scripts/gpu-sass.sh --record DIR on the GPU machine)"
	exit 0
fi
out=$(PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 5)
[ $? -eq 0 ] && printf '%s\n' "$out" | head -n 1 | grep -q "^recorded SASS (ptxas .* + nvdisasm .*, sm_90, .*): not compiled here$" &&
	printf '%s\n' "$out" | grep -q "LDS.128"
r $? sass-recorded-shipped
# Made by the same tools as the {sass.*} rows of assets/measured-h100.tsv, it counts what they say.
rows=$(PTXTUTOR_CUDA_BIN=$NOKIT "$BIN" sass 5 --rows)
tools=$(printf '%s\n' "$rows" | head -n 1 | cut -f2)
M="$ROOT/assets/measured-h100.tsv"
if awk -F'\t' -v t="$tools" '$2 == t && $5 == 5 && $7 ~ /^sass\./ { f = 1 } END { exit !f }' "$M"; then
	[ "$(printf '%s\n' "$rows" | cut -f7,8 | sort)" = \
		"$(awk -F'\t' -v t="$tools" '$2 == t && $5 == 5 && $7 ~ /^sass\./ { print $7 "\t" $8 }' "$M" | sort)" ]
	r $? sass-recorded-shipped-counts
else
	echo "skip sass-recorded-shipped-counts: the recording's tools ($tools) made no rows of $M"
fi
