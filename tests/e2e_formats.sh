#!/bin/sh
# e2e_formats: lesson 11's number formats through the binary and the worker: the hand-written
# e4m3 kernel of tests/data/gemm_fp8.ptx (B stored N x K, scale:A scale:B) verifies with
# `run --emulate --dtype e4m3 --bmajor k` and fails with --bmajor n (exit 1, "wrong values");
# the tf32 kernel verifies with --dtype tf32 within its own tolerance (3e-03); --json names the
# types; e5m2 inputs run (the emulator checks them against the CPU; cuBLASLt has no e5m2 x e5m2),
# so the e4m3 kernel fed e5m2 bytes fails its check.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
PTX="$ROOT/tests/data/gemm_fp8.ptx"
if [ ! -x "$BIN" ]; then
	echo "skip formats: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
set -- --ptx "$PTX" --grid 'ceil(N/16),ceil(M/16)' --block 16,16 --size 48,32,80
FP8="--entry gemm_e4m3_f32 --dtype e4m3 --args A,B,C,M,N,K,scale:A,scale:B"

"$BIN" run --emulate "$@" $FP8 --bmajor k >"$out" 2>&1
if [ $? -eq 0 ] && grep -q "(e4m3→f32): VERIFIED" "$out"; then
	echo "ok formats_e4m3 verifies with B stored N x K and its scales"
else
	echo "not ok formats_e4m3"; cat "$out"
fi

"$BIN" run --emulate "$@" $FP8 --bmajor n >"$out" 2>&1
if [ $? -eq 1 ] && grep -q "wrong values" "$out"; then
	echo "ok formats_e4m3_layout fails with B read the other way"
else
	echo "not ok formats_e4m3_layout"; cat "$out"
fi

"$BIN" run --emulate "$@" $FP8 --bmajor k --json >"$out" 2>&1
if grep -q '"dtype": "e4m3"' "$out" && grep -q '"verified": true' "$out"; then
	echo "ok formats_e4m3_json names the type"
else
	echo "not ok formats_e4m3_json"; cat "$out"
fi

"$BIN" run --emulate "$@" --entry gemm_tf32_f32 --dtype tf32 >"$out" 2>&1
if [ $? -eq 0 ] && grep -q "VERIFIED" "$out" && grep -q "tolerance 3e-03" "$out"; then
	echo "ok formats_tf32 verifies within tf32's tolerance"
else
	echo "not ok formats_tf32"; cat "$out"
fi

"$BIN" run --emulate "$@" $FP8 --dtype e5m2 --bmajor k >"$out" 2>&1
if [ $? -eq 1 ] && grep -q "(e5m2→f32)" "$out" && grep -q "wrong values" "$out"; then
	echo "ok formats_e5m2 runs, and an e4m3 kernel fed e5m2 bytes fails its check"
else
	echo "not ok formats_e5m2"; cat "$out"
fi
rm -f "$out"
