#!/bin/sh
# e2e_students_layout: issue 39's layouts and precision mistakes, as students write them
# (tests/students/layout: column-major, A-transposed, padded leading dimensions, int8 with an f32 C,
# u8; tests/students/precision: kernels that round where they should not), run in the emulator as
# each folder's kernels.tsv says: VERIFIED, or FAILED with a piece of the reason (for a small error,
# what it is consistent with); and --json's consistent_with for one of them.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip students_layout: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
tab=$(printf '\t')
for dir in layout precision; do
	DIR="$ROOT/tests/students/$dir"
	grep -v '^#' "$DIR/kernels.tsv" >"$out.rows"
	while IFS="$tab" read -r name ptx grid block args types layout ld sizes expect; do
		entry=${ptx%%.*}
		set -- --ptx "$DIR/$ptx" --grid "$grid" --block "$block" --args "$args" --dtype "${types%%:*}"
		case $types in *:*) set -- "$@" --out "${types#*:}" ;; esac
		[ "$layout" = - ] || set -- "$@" --layout "$layout"
		[ "$ld" = - ] || set -- "$@" --ld "$ld"
		for size in $sizes; do
			"$BIN" emulate "$@" --size "$size" >"$out" 2>&1
			rc=$?
			case $expect in
			VERIFIED) want="^$entry at .*: VERIFIED$"; wantrc=0 ;;
			*) want="^$entry at .*: FAILED$"; wantrc=1 ;;
			esac
			why=${expect#FAILED }
			if [ $rc -eq $wantrc ] && head -1 "$out" | grep -q "$want" &&
				{ [ "$expect" = VERIFIED ] || sed -n 2p "$out" | grep -qF "$why"; }; then
				echo "ok students_${dir}_${name}_$size"
			else
				echo "not ok students_${dir}_${name}_$size: rc $rc, want $wantrc and $expect: $(head -2 "$out" | tr '\n' ' ')"
			fi
		done
	done <"$out.rows"
done
# the JSON field: a wrong result by a small margin names its cause
P="$ROOT/tests/students/precision"
"$BIN" emulate --ptx "$P/hgemm_f16_acc.ptx" --grid 'ceil(N/16),ceil(M/16)' --block 16,16 --dtype f16 \
	--size 32,32,1024 --json >"$out" 2>&1
if grep -q '"consistent_with": *"an f16 accumulator"' "$out" && grep -q '"verified": *false' "$out"; then
	echo "ok students_precision_json"
else
	echo "not ok students_precision_json: $(head -c 300 "$out")"
fi
# bad layouts are one line each, exit 2
L="$ROOT/tests/students/layout"
for bad in "--layout A=diag" "--layout X=col" "--ld A=K-1" "--ld A=Q" "--bmajor n --layout B=col"; do
	# shellcheck disable=SC2086
	"$BIN" emulate --ptx "$L/sgemm_padded.ptx" --grid 1 --block 1 --size 8 $bad >"$out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$out")" -eq 1 ] && grep -q '^ptxtutor emulate: --' "$out"; then
		echo "ok students_layout_refused_$(echo "$bad" | tr -c 'a-zA-Z0-9\n' _)"
	else
		echo "not ok students_layout_refused $bad: rc $rc: $(cat "$out")"
	fi
done
# --estimate reads a u8 kernel's PTX and gives a time (no type is refused before the PTX is read)
if "$BIN" emulate --ptx "$L/ugemm_dp4a.ptx" --grid 'ceil(N/16),ceil(M/16)' --block 16,16 --dtype u8 --layout B=col \
	--size 1024 --estimate >"$out" 2>&1 && head -1 "$out" | grep -q '^ugemm_dp4a at .*: estimate [0-9.]* ms'; then
	echo "ok students_layout_estimate_u8"
else
	echo "not ok students_layout_estimate_u8: $(head -2 "$out" | tr '\n' ' ')"
fi
rm -f "$out" "$out.rows"
