#!/bin/sh
# The racy corpus (tests/races, issue 40) on the GPU, from the staged build (scripts/stage-gpu.sh):
# each racy kernel of races.tsv at its GPU size, REPEATS times (default 5), then its fixed twin
# (and each control) once. A table last: kernel, kind, the GPU's verdict (wrong values when any run
# returned wrong values, else hang-timeout, fault or verified; a racy kernel that verified every
# time is "verified (latent)" on this GPU; "GPU too old" for an sm_90a kernel before Hopper), the
# runs, the largest rel. error, and the runs of each outcome. The barrier kernels may hang: each
# run has a deadline (TIMEOUT, default 20 s), and a kernel that ran past it is not run again.
# Exits non-zero when a fixed twin or a control does not verify, or a run fails for another reason
# (JIT error, bad request).
# Each run is timed when it verifies, so a run takes a few seconds: the whole table a few minutes.
# Usage: sh scripts/gpu-races.sh [REPEATS [PREFIX...]]: with PREFIXes, only the rows whose names start
# with one (smem_raw: the kernel and its twin; cpasync: three of each). GPU_RACES_BIN (the ptxtutor
# binary) lets a test plant a fake.
REPEATS=${1:-5}
[ $# -gt 0 ] && shift
PICK=$*
TIMEOUT=${TIMEOUT:-20}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
export PTXTUTOR_ROOT="$ROOT" LD_LIBRARY_PATH="$ROOT/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=${GPU_RACES_BIN:-./ptxtutor}
DIR=tests/races
rc=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tab=$(printf '\t')
grep -v '^#' "$DIR/races.tsv" >"$tmp/rows"
: >"$tmp/table"
# One run: prints its outcome word (wrong, verified, timeout, fault, or other: STATUS).
run_one() { # ARGS...
	"$BIN" run --json --timeout "$TIMEOUT" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	st=$(sed -n 's/^  "status": "\(.*\)",$/\1/p' "$tmp/out" | head -n 1)
	case $st in
	ok) echo verified ;;
	"wrong result") echo wrong ;;
	"timed out") echo timeout ;;
	"kernel fault" | "launch error") echo fault ;;
	*) echo "other: ${st:-$(head -c 200 "$tmp/err" | tr '\n' ' ')}" ;;
	esac
}
while IFS="$tab" read -r name ptx args grid block cluster dtype _ gsize expect kind _; do
	if [ -n "$PICK" ]; then
		picked=no
		for p in $PICK; do
			case $name in "$p"*) picked=yes ;; esac
		done
		[ $picked = yes ] || continue
	fi
	set -- --ptx "$DIR/$ptx" --grid "$grid" --block "$block" --size "$gsize"
	[ "$args" = - ] || set -- "$@" --args "$args"
	[ "$cluster" = - ] || set -- "$@" --cluster "$cluster"
	[ "$dtype" = - ] || set -- "$@" --dtype "$dtype"
	n=$REPEATS
	[ "$expect" = VERIFIED ] && n=1
	w=0 v=0 t=0 f=0 i=0 old=0 worst=-
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		o=$(run_one "$@")
		case $o in
		wrong) w=$((w + 1)) ;;
		verified) v=$((v + 1)) ;;
		timeout) t=$((t + 1)) n=$i ;; # a hang hangs again: no more deadlines to wait out
		fault) f=$((f + 1)) ;;
		"other: GPU too old") old=1 n=$i ;;
		"other: no GPU")
			echo "gpu-races: $(sed -n 's/^  "message": "\(.*\)",$/\1/p' "$tmp/out" | head -n 1)"
			exit 1
			;;
		*)
			echo "gpu-races: FAILED: $name at $gsize: $o"
			rc=1
			;;
		esac
		e=$(sed -n 's/^  "rel_error": \([0-9.eE+-]*\),$/\1/p' "$tmp/out" | head -n 1)
		worst=$(awk -v a="$worst" -v b="$e" 'BEGIN { print (b != "" && (a == "-" || b + 0 > a + 0)) ? b : a }')
		# The message of a run that did not verify, once per kernel.
		if [ "$o" != verified ] && [ $((w + t + f)) -eq 1 ] && [ "${o#other}" = "$o" ]; then
			echo "gpu-races: $name at $gsize: $(sed -n 's/^  "message": "\(.*\)",$/\1/p' "$tmp/out" | head -n 1)"
		fi
	done
	if [ $old = 1 ]; then
		verdict="GPU too old"
	elif [ $w -gt 0 ]; then
		verdict="wrong values"
	elif [ $t -gt 0 ]; then
		verdict=hang-timeout
	elif [ $f -gt 0 ]; then
		verdict=fault
	elif [ $v -eq "$n" ]; then
		verdict=verified
		[ "$expect" != VERIFIED ] && verdict="verified (latent)"
	else
		verdict=error
	fi
	if [ "$expect" = VERIFIED ] && [ "$verdict" != verified ] && [ $old = 0 ]; then
		echo "gpu-races: FAILED: $name (a fixed twin or control) does not verify: $verdict"
		rc=1
	fi
	[ "$expect" = VERIFIED ] && case $name in *_fixed) kind=fixed ;; *) kind=control ;; esac
	printf '%-24s %-24s %-18s %-6s %-10s %s\n' "$name" "${kind%%|*}" "$verdict" "$i" "$worst" \
		"wrong $w, verified $v, timeout $t, fault $f" >>"$tmp/table"
done <"$tmp/rows"
echo
printf '%-24s %-24s %-18s %-6s %-10s %s\n' kernel kind "GPU verdict" runs "rel. error" outcomes
cat "$tmp/table"
[ $rc -eq 0 ] && echo "gpu-races: every fixed twin and control this GPU runs verified" || echo "gpu-races: some runs FAILED (above)"
exit $rc
