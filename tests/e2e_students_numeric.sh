#!/bin/sh
# e2e_students_numeric: issue 39's students' kernels (tests/students/numeric: f64 accumulation,
# bf16x2, dp4a, dp2a, as nvcc 13 wrote them at sm_75/80/90) run in the emulator at 64^3 and
# 96x72x40, each with the outcome kernels.tsv gives: VERIFIED, or FAILED with its reason; and
# --estimate of the int8 kernel gives a time (its s8 type is no reason to refuse).
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/students/numeric"
if [ ! -x "$BIN" ]; then
	echo "skip students_numeric: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
tab=$(printf '\t')
grep -v '^#' "$DIR/kernels.tsv" >"$out.rows"
while IFS="$tab" read -r name ptx grid block args types expect; do
	entry=${ptx%%.*}
	set -- --ptx "$DIR/$ptx" --grid "$grid" --block "$block" --args "$args" --dtype "${types%%:*}"
	case $types in *:*) set -- "$@" --out "${types#*:}" ;; esac
	for size in 64 96,72,40; do
		"$BIN" emulate "$@" --size $size >"$out" 2>&1
		rc=$?
		case $expect in
		VERIFIED) want="^$entry at .*: VERIFIED$"; wantrc=0 ;;
		*) want="^$entry at .*: FAILED$"; wantrc=1 ;;
		esac
		why=${expect#FAILED }
		if [ $rc -eq $wantrc ] && head -1 "$out" | grep -q "$want" &&
			{ [ "$expect" = VERIFIED ] || sed -n 2p "$out" | grep -q "^  $why"; }; then
			echo "ok students_numeric_${name}_$size"
		else
			echo "not ok students_numeric_${name}_$size: rc $rc, want $wantrc and $expect: $(head -2 "$out" | tr '\n' ' ')"
		fi
	done
done <"$out.rows"
if "$BIN" emulate --ptx "$DIR/dp4a_gemm.sm_80.ptx" --grid 'ceil(N/16),ceil(M/16)' --block 16,16 --args 'M N K A B C' \
	--dtype s8 --size 1024 --estimate >"$out" 2>&1 && head -1 "$out" | grep -q '^dp4a_gemm at .*: estimate [0-9.]* ms'; then
	echo "ok students_numeric_estimate_s8"
else
	echo "not ok students_numeric_estimate_s8: $(head -2 "$out" | tr '\n' ' ')"
fi
rm -f "$out" "$out.rows"
