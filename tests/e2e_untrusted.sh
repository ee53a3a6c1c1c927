#!/bin/sh
# e2e_untrusted: hostile input through the command line (issue 18) — crafted PTX is refused or faults with a
# message and never crashes, hostile expressions and --set values are refused, output is clean (valid JSON from
# invalid UTF-8, no ESC from --screen, a write error exits non-zero), `list` without lessons is an error, and
# `make install PREFIX=DIR` gives a DIR/bin/ptxtutor that lists every lesson.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip untrusted: no binary at $BIN"
	exit 0
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
CORPUS="$ROOT/tests/fuzz/corpus/ptx"
check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "not ok $1"; [ -n "$3" ] && sed 's/^/    | /' "$3" | head -20; fi; }

# A crafted kernel: "(the exit status) (what it said)", never a signal (status > 128).
emu() { # FILE [ARGS...]
	f=$1
	shift
	CUDA_VISIBLE_DEVICES= "$BIN" emulate --ptx "$CORPUS/$f" --entry k --grid 1 --block 32 --size 32 \
		--args 'A u32:1' "$@" >"$WORK/out" 2>&1
	echo $?
}
rc=$(emu crash_shared_neg.ptx)
[ "$rc" = 2 ] && grep -q "crash_shared_neg.ptx:[0-9]*: out-of-bounds shared access of 4 bytes at offset -4" "$WORK/out"
check "emulate: st.shared at [sh+-4] is an out-of-bounds fault (exit $rc)" $? "$WORK/out"
rc=$(emu crash_cpasync_srcsize.ptx)
[ "$rc" = 2 ] && grep -q "src-size 4294967295 exceeds the copy size 16" "$WORK/out"
check "emulate: cp.async src-size 0xffffffff is refused (exit $rc)" $? "$WORK/out"
rc=$(emu crash_cpasync_param.ptx)
[ "$rc" = 2 ] && grep -q "not a parameter's name" "$WORK/out"
check "emulate: cp.async [P+-32] (a parameter's name) is a parse error (exit $rc)" $? "$WORK/out"
rc=$(emu crash_regs.ptx)
[ "$rc" = 2 ] && grep -q "bad register range" "$WORK/out"
check "emulate: 100000 registers are refused (exit $rc)" $? "$WORK/out"
rc=$(emu crash_param_align.ptx)
[ "$rc" = 2 ] && grep -q "bad .align" "$WORK/out"
check "emulate: .param .align 2147483647 is refused (exit $rc)" $? "$WORK/out"
rc=$(emu crash_div_min.ptx)
[ "$rc" = 1 ] && grep -q "FAILED" "$WORK/out" && ! grep -qE "runtime error|Sanitizer|SIGFPE" "$WORK/out"
check "emulate: div.s64/rem.s64/abs.s64 of INT64_MIN do not trap (it runs: a wrong result, exit $rc)" $? "$WORK/out"
rc=$(emu crash_shared_neg.ptx --block 641,6700417)
[ "$rc" = 2 ] && grep -q "bad launch shape" "$WORK/out"
check "emulate: --block 641,6700417 (2^32+1 threads) is refused (exit $rc)" $? "$WORK/out"
rc=$(emu crash_shared_neg.ptx --smem 2147483647)
[ "$rc" = 2 ] && grep -q "more than the emulator's" "$WORK/out"
check "emulate: --smem 2147483647 is refused before it is allocated (exit $rc)" $? "$WORK/out"
rc=$(emu crash_shared_neg.ptx --grid '(-9223372036854775807-1)/-1')
[ "$rc" = 2 ] && grep -q "overflow" "$WORK/out"
check "emulate: --grid '(-9223372036854775807-1)/-1' is an overflow, not SIGFPE (exit $rc)" $? "$WORK/out"
# An endless loop with --timeout: stopped at the deadline (half a second: the loop spins a core until then).
printf '.version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 P, .param .u32 S)\n{\nL:\n\tbra L;\n}\n' >"$WORK/spin.ptx"
t0=$(date +%s)
"$BIN" emulate --ptx "$WORK/spin.ptx" --entry k --grid 1 --block 32 --size 4096 --args 'A u32:1' --timeout 0.5 >"$WORK/out" 2>&1
rc=$?
t1=$(date +%s)
[ "$rc" = 2 ] && grep -q "wall-clock deadline" "$WORK/out" && [ $((t1 - t0)) -le 10 ]
check "emulate --timeout 0.5: an endless loop stops at the deadline ($((t1 - t0)) s)" $? "$WORK/out"
# --timeout is a number of seconds, checked: junk, a sign or nothing is refused before any run
# (0, the default, means the deadline from the size).
for bad in abc -5 1e9 5s ''; do
	for cmd in run emulate; do
		"$BIN" $cmd --ptx "$WORK/spin.ptx" --entry k --grid 1 --block 32 --size 64 --args 'A u32:1' --timeout "$bad" >"$WORK/out" 2>&1
		rc=$?
		[ "$rc" = 2 ] && grep -q -- "--timeout wants a number 0..86400, not '$bad'" "$WORK/out"
		check "$cmd --timeout '$bad' is refused (exit $rc)" $? "$WORK/out"
	done
done

# ---- parameters: one validation with ranges, --set values never clamped ----
"$BIN" show 8 --set PAD=-100 >"$WORK/out" 2>&1
[ $? -ne 0 ] && grep -q "PAD=-100 is out of range (PAD is 0..256)" "$WORK/out"
check "show 8 --set PAD=-100 is refused with the range" $? "$WORK/out"
"$BIN" emulate 3 --set TILE=99999999999999999999999 >"$WORK/out" 2>&1
[ $? -eq 2 ] && grep -q "does not fit in 64 bits" "$WORK/out"
check "emulate 3 --set TILE=99999999999999999999999 is refused, not clamped" $? "$WORK/out"
"$BIN" emulate 3 --set TILE=100000 >"$WORK/out" 2>&1
[ $? -eq 2 ] && grep -q "TILE=100000 is out of range" "$WORK/out"
check "emulate 3 --set TILE=100000 is refused with the range (as show does)" $? "$WORK/out"

# ---- run --emulate forwards every argument (a fixed array dropped the 63rd on) ----
cp "$ROOT/ptx/01_naive.ptx" "$WORK/mine.ptx"
set -- run --ptx "$WORK/mine.ptx" --entry sgemm_naive --grid 'ceil(N/32),ceil(M/32)' --block 32,32 --emulate
i=0
while [ $i -lt 70 ]; do
	set -- "$@" --json
	i=$((i + 1))
done
CUDA_VISIBLE_DEVICES= "$BIN" "$@" --size 64 >"$WORK/out" 2>&1
[ $? -eq 0 ] && grep -q '"verified": true' "$WORK/out"
check "run --emulate with 80 arguments forwards the last one (--size)" $? "$WORK/out"

# ---- output hygiene ----
"$BIN" list >/dev/full 2>"$WORK/err"
rc=$?
[ $rc -ne 0 ] && grep -q "cannot write the output" "$WORK/err"
check "list > /dev/full exits non-zero (exit $rc) and says why" $? "$WORK/err"
mkdir -p "$WORK/empty"
PTXTUTOR_ROOT="$WORK/empty" "$BIN" list >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "no lessons found in $WORK/empty/lessons" "$WORK/out"
check "list with no lessons is an error naming the folder (exit $rc)" $? "$WORK/out"
# A lesson with invalid UTF-8 and terminal escapes in its title and text.
FX="$WORK/fx"
mkdir -p "$FX/lessons" "$FX/ptx" "$FX/assets"
cp "$ROOT/ptx/01_naive.ptx" "$FX/ptx/"
cp "$ROOT/assets/gpus.tsv" "$FX/assets/"
cp "$ROOT/tests/fuzz/corpus/fuzz_lesson/crash_escapes.md" "$FX/lessons/01-bad.md"
PTXTUTOR_ROOT="$FX" "$BIN" list --json >"$WORK/list.json" 2>"$WORK/err"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json, sys; t = json.load(open(sys.argv[1], encoding="utf-8"))[0]["title"]; sys.exit("\ufffd" not in t)' \
		"$WORK/list.json"
else
	grep -q 'ufffd' "$WORK/list.json"
fi
check "list --json with invalid UTF-8 in a title is valid JSON (U+FFFD for each bad byte)" $? "$WORK/list.json"
ESC=$(printf '\033')
PTXTUTOR_ROOT="$FX" XDG_STATE_HOME="$WORK/state" "$BIN" show 1 --screen --width 100 --height 30 >"$WORK/screen" 2>"$WORK/err"
[ $? -eq 0 ] && ! grep -q "$ESC" "$WORK/screen" && grep -q "Bad" "$WORK/screen"
check "show --screen prints no ESC from lesson text" $? "$WORK/screen"

# Text after the last closing brace is not PTX (ptxas refuses it): refused with its line, never VERIFIED,
# so a puzzle file with junk appended is not counted as solved.
cp "$ROOT/ptx/01_naive.ptx" "$WORK/junk.ptx"
echo 'this is not ptx at all;' >>"$WORK/junk.ptx"
n=$(wc -l <"$WORK/junk.ptx")
"$BIN" emulate --ptx "$WORK/junk.ptx" --grid 'ceil(N/32),ceil(M/32)' --block 32,32 --size 64 >"$WORK/out" 2>&1
[ $? -eq 2 ] && grep -q "junk.ptx:$n: 'this is not ptx at all' outside any .entry" "$WORK/out"
check "emulate: text after the last entry is refused at its line" $? "$WORK/out"

# ---- make install PREFIX=DIR: DIR/bin/ptxtutor finds its lessons from anywhere ----
if [ "$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")" != "$ROOT/ptxtutor" ] || ! command -v make >/dev/null; then
	echo "skip install: the binary under test is not the tree's ./ptxtutor"
else
	# In a copy of the build folder: a new PREFIX relinks the binary, and the tree's
	# ./ptxtutor is in use by the tests running beside this one.
	cp -a "$ROOT/${BUILD:-build}" "$WORK/build"
	make -s -C "$ROOT" --no-print-directory install PREFIX="$WORK/inst" BUILD="$WORK/build" \
		BIN="$WORK/build/ptxtutor" >"$WORK/out" 2>&1
	n=$(ls "$ROOT"/lessons/[0-9]*.md | wc -l)
	got=$(cd "$ROOT" && env -u PTXTUTOR_ROOT "$WORK/inst/bin/ptxtutor" list 2>"$WORK/err" | tail -n +2 | wc -l)
	[ "$n" -ge 1 ] && [ "$got" = "$n" ] && [ -f "$WORK/inst/share/man/man1/ptxtutor.1" ] &&
		[ -f "$WORK/inst/share/ptxtutor/assets/gpus.tsv" ]
	check "make install PREFIX=DIR; DIR/bin/ptxtutor list from the root folder lists all $n lessons ($got)" $? "$WORK/out"
	got=$(cd / && env -u PTXTUTOR_ROOT "$WORK/inst/bin/ptxtutor" list 2>/dev/null | tail -n +2 | wc -l)
	[ "$got" = "$n" ]
	check "the installed binary lists every lesson from / too" $?
	# Its compiled-in fallback is the new prefix's, not the one the tree was built for before.
	grep -qaF "$WORK/inst/share/ptxtutor" "$WORK/inst/bin/ptxtutor"
	check "the installed binary falls back to DIR/share/ptxtutor (util.o rebuilt for the new PREFIX)" $?
	# Recorded SASS (assets/sass/) is installed with the data and found by the same lookup.
	if [ -f "$ROOT/assets/sass/05.sass" ]; then
		cmp -s "$ROOT/assets/sass/05.sass" "$WORK/inst/share/ptxtutor/assets/sass/05.sass" &&
			(cd / && env -u PTXTUTOR_ROOT PTXTUTOR_CUDA_BIN=/nonexistent "$WORK/inst/bin/ptxtutor" sass 5 2>/dev/null) |
			head -n 1 | grep -q "^recorded SASS (.*): not compiled here$"
		check "the installed binary shows lesson 5's recorded SASS without the toolkit" $?
	else
		echo "skip install-sass: no assets/sass/05.sass yet (scripts/gpu-sass.sh --record)"
	fi
fi
