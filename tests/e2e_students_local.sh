#!/bin/sh
# e2e_students_local: students' nvcc-made kernels with local memory, printf and assert
# (tests/students/local/README.md) through the binary, beyond their rows of the students' corpus
# (tests/students/corpus.tsv, tests/e2e_students.sh): the local arrays verify with their local
# traffic counted; printf's lines are in the text report
# and in `emulate --json` and `run --emulate --json` (through the worker), which stay valid
# JSON; the failing assert exits 2 with its message, file, line and function, and what the
# kernel printed before it is kept.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/students/local"
if [ ! -x "$BIN" ]; then
	echo "skip students_local: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
check() { # NAME STATUS WANT-STATUS PATTERN...: the exit status and every pattern in the output
	name=$1 got=$2 want=$3
	shift 3
	ok=1
	[ "$got" -eq "$want" ] || ok=0
	for p in "$@"; do grep -qF -- "$p" "$out" || ok=0; done
	if [ $ok -eq 1 ]; then echo "ok $name"; else echo "not ok $name (exit $got)"; cat "$out"; fi
}
# valid JSON, and the python expression on it (d) true
json_ok() {
	command -v python3 >/dev/null 2>&1 || return 0
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$out" 2>/dev/null
}

"$BIN" emulate --ptx "$DIR/local_array.ptx" --entry gemm_local_array --grid N/16,M/64 --block 16,16 --size 64 \
	>"$out" 2>&1
check students_local_array $? 0 "VERIFIED" "local loads" "local stores" "ld_local"

"$BIN" emulate --ptx "$DIR/local_array_G.ptx" --entry gemm_local_array --grid N/16,M/64 --block 16,16 \
	--size 64,48,40 --json >"$out" 2>&1
st=$?
if [ $st -eq 0 ] && json_ok '' 'd["verified"] is True and d["emu"]["by_kind"]["local_load"]["requests"] > 0'; then
	echo "ok students_local_array_G verifies through %SP and generic loads"
else
	echo "not ok students_local_array_G (exit $st)"; cat "$out"
fi

set -- --ptx "$DIR/printf.ptx" --entry gemm_printf --grid N/16,M/16 --block 16,16 --size 32
"$BIN" emulate "$@" >"$out" 2>&1
check students_local_printf_text $? 0 "VERIFIED" "printf (2 lines):" \
	"[block 0,0,0 thread 0,0,0] row 0 col 0 acc " "[block 0,0,0 thread 1,0,0] row 0 col 1 acc " \
	"hex ff s=hi c=z ll=-5"

for cmd in "emulate" "run --emulate"; do
	# shellcheck disable=SC2086
	"$BIN" $cmd "$@" --json >"$out" 2>/dev/null
	st=$?
	if [ $st -eq 0 ] && json_ok '' 'd["printf"]["dropped"] == 0 and len(d["printf"]["lines"]) == 2 and d["printf"]["lines"][1].startswith("[block 0,0,0 thread 1,0,0] row 0 col 1 acc ")'; then
		echo "ok students_local_printf_json: $cmd --json is valid JSON with the lines"
	else
		echo "not ok students_local_printf_json: $cmd (exit $st)"; cat "$out"
	fi
done

"$BIN" emulate --ptx "$DIR/assert.ptx" --entry gemm_assert --grid N/16,M/16 --block 16,16 --size 32 >"$out" 2>&1
check students_local_assert $? 2 'assert failed: row < M - 1 && "row in range" at assert.cu:7 in void gemm_assert(' \
	"(thread 0,15,0) (block 0,1,0)"

"$BIN" run --emulate --ptx "$DIR/assert.ptx" --entry gemm_assert --grid N/16,M/16 --block 16,16 --size 32 --json \
	>"$out" 2>/dev/null
st=$?
if [ $st -eq 2 ] && json_ok '' 'd["status"] == "kernel fault" and "at assert.cu:7 in void gemm_assert" in d["message"]'; then
	echo "ok students_local_assert_json: the fault and its message in the report"
else
	echo "not ok students_local_assert_json (exit $st)"; cat "$out"
fi

# printf, then the assert: the line printed before it is still shown, in the text and the JSON
set -- --ptx "$DIR/check_k.ptx" --entry gemm_check_k --grid N/16,M/16 --block 16,16
"$BIN" emulate "$@" --size 32,32,30 >"$out" 2>&1
check students_local_printf_then_assert $? 2 "printf (1 line):" \
	"[block 0,0,0 thread 0,0,0] block (0,0): K = 30, K % 16 = 14" "assert failed: K % 16 == 0 at check_k.cu:10 in"
"$BIN" run --emulate "$@" --size 32,32,30 --json >"$out" 2>/dev/null
st=$?
if [ $st -eq 2 ] && json_ok '' 'd["printf"]["lines"] == ["[block 0,0,0 thread 0,0,0] block (0,0): K = 30, K % 16 = 14"] and "assert failed: K % 16 == 0" in d["message"]'; then
	echo "ok students_local_printf_then_assert_json"
else
	echo "not ok students_local_printf_then_assert_json (exit $st)"; cat "$out"
fi
"$BIN" emulate "$@" --size 32 >"$out" 2>&1
check students_local_check_k $? 0 "VERIFIED" "printf (4 lines):" "[block 1,1,0 thread 0,0,0] block (1,1): K = 32, K % 16 = 0"
