#!/bin/sh
# e2e_hopper: lessons 9 and 10 on the CPU emulator, end to end through the command line (issue 24):
# `emulate 9` and `emulate 10` verify at 256^3 and at 512x256x128, and every variant of
# ptx/gen/10_cluster.py that scripts/gpu-lesson10.py measures on the GPU (its VARIANTS table, read from
# there, with its launch shapes) verifies through `run --ptx FILE --emulate`. GPUs are hidden.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip hopper: no binary at $BIN"
	exit 0
fi
export CUDA_VISIBLE_DEVICES=
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

check() {
	if [ "$1" -eq 0 ]; then echo "ok $2"; else echo "not ok $2"; sed 's/^/    | /' "$WORK/out"; fi
}

for l in 9 10; do
	for s in 256 512,256,128; do
		"$BIN" emulate $l --size $s >"$WORK/out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && head -1 "$WORK/out" | grep -q ": VERIFIED$"
		check $? "emulate $l --size $s: verified (exit $rc)"
	done
done

if ! command -v python3 >/dev/null 2>&1; then
	echo "skip hopper lesson 10 variants: no python3"
	exit 0
fi
# One line a variant: name, generator flags (| for blanks), the run command's options.
python3 - "$ROOT" >"$WORK/variants" <<'EOF'
import importlib.util, sys
root = sys.argv[1]
spec = importlib.util.spec_from_file_location("g", root + "/scripts/gpu-lesson10.py")
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
for name, flags, out, cl, stages, tma, _ in g.VARIANTS:
    smem = stages * g.STAGE + (128 * 256 * 2 if tma else 0) + 2 * stages * 8 + 1024
    args = g.ARGS_TMA if tma else g.ARGS_PTR
    print(name, flags.replace(" ", "|") or "-", f"--out|{out}|--cluster|{cl}|--smem|{smem}", args.replace(" ", "|"))
EOF
[ -s "$WORK/variants" ] || { echo "not ok hopper: no variants read from scripts/gpu-lesson10.py"; exit 0; }
while read -r name flags opts args; do
	[ "$flags" = "-" ] && flags=
	# shellcheck disable=SC2086
	python3 "$ROOT/ptx/gen/10_cluster.py" $(echo "$flags" | tr '|' ' ') >"$WORK/$name.ptx" 2>"$WORK/out" || {
		check 1 "lesson 10 variant $name: generated"
		continue
	}
	for s in 256 512,256,128; do
		# shellcheck disable=SC2086
		"$BIN" run --ptx "$WORK/$name.ptx" --entry gemm_cluster --dtype bf16 $(echo "$opts" | tr '|' ' ') \
			--grid persistent --block 384 --args "$(echo "$args" | tr '|' ' ')" --size $s --emulate \
			>"$WORK/out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && head -1 "$WORK/out" | grep -q ": VERIFIED$"
		check $? "run --ptx (lesson 10 variant $name) --emulate --size $s: verified (exit $rc)"
	done
done <"$WORK/variants"
