#!/bin/sh
# e2e_ownkernel: a student's own kernel through `run --ptx FILE --emulate` (verified, its JSON, one
# schema for run, run --emulate and emulate, a syntax error at FILE:LINE). No GPU is used
# (CUDA_VISIBLE_DEVICES=""). Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
SHIPPED="$ROOT/ptx/01_naive.ptx"
if [ ! -x "$BIN" ] || [ ! -f "$SHIPPED" ]; then
	echo "skip ownkernel: no binary at $BIN or no $SHIPPED"
	exit 0
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "not ok $1"; fi; }
sum() { cksum <"$1"; }
SHIPPED_SUM=$(sum "$SHIPPED")

# ---- your own kernel: run --ptx ... --emulate ----
cp "$SHIPPED" "$WORK/mine.ptx"
out=$(cd "$WORK" && CUDA_VISIBLE_DEVICES= "$BIN" run --ptx mine.ptx --entry sgemm_naive --grid 'ceil(N/32),ceil(M/32)' \
	--block 32,32 --size 96,64,32 --emulate 2>&1)
rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "sgemm_naive at 96x64x32 on the CPU (f32): VERIFIED"
check "run --ptx FILE --emulate: verified (exit 0)" $? 
[ $rc -eq 0 ] || printf '%s\n' "$out" | sed 's/^/    | /'
json=$(cd "$WORK" && "$BIN" run --ptx mine.ptx --entry sgemm_naive --grid 'ceil(N/32),ceil(M/32)' \
	--block 32,32 --size 128 --args 'A B C M N K' --emulate --json 2>&1)
printf '%s' "$json" | grep -q '"verified": true' && printf '%s' "$json" | grep -q '"sectors_per_request": 16.5'
check "run --ptx FILE --emulate --json: verified, 16.5 sectors per load request" $?
# One schema: run --json (no GPU here: status "no GPU"), run --emulate --json and emulate --json share their keys.
keys() { python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin).keys()))'; }
own() { (cd "$WORK" && CUDA_VISIBLE_DEVICES= "$BIN" "$@" --ptx mine.ptx --entry sgemm_naive \
	--grid 'ceil(N/32),ceil(M/32)' --block 32,32 --size 64 --json 2>/dev/null | keys); }
gpu=$(own run)
emu=$(own run --emulate)
tool=$(own emulate)
[ -n "$gpu" ] && [ "$gpu" = "$emu" ] && [ "$tool" = "$gpu" ]
check "run --json, run --emulate --json and emulate --json: one schema ($gpu)" $?
sed -i 's/^\tfma.rn.f32/\tfmaa.rn.f32/' "$WORK/mine.ptx"
refused=$(own emulate | sed 's/ jit_log//')
[ -n "$refused" ] && [ "$refused" = "$gpu" ]
check "emulate --json of a kernel the emulator refuses: the same schema, no {\"error\"} object" $?
out=$(cd "$WORK" && "$BIN" run --ptx mine.ptx --entry sgemm_naive --grid 'ceil(N/32),ceil(M/32)' \
	--block 32,32 --size 64 --emulate 2>&1)
rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$out" | grep -qE "mine.ptx:[0-9]+: unsupported instruction 'fmaa.rn.f32'"
check "run --ptx FILE --emulate: a syntax error names FILE:LINE (exit 2)" $?
[ "$(sum "$SHIPPED")" = "$SHIPPED_SUM" ]
check "edit: the shipped PTX was never written" $?
