#!/bin/sh
# e2e_fp8_variants: variants of ptx/gen/11_fp8.py that the FP8 sweep on the GPU tries (a narrower tile
# with more stages and promotion; no clusters) assemble with ptxas and compute C right in the emulator:
# tests/test_emu_lesson11's FP8 cases run on each variant (FP8_PTX, FP8_SMEM) instead of the shipped file;
# then every promoting row of scripts/sweep-43.tsv, as the sweep runs it: ptxas without its C7515 note
# (wgmmas serialized), and `ptxtutor run --emulate`.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BUILD=${1:-build}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
T="$BUILD/tests/test_emu_lesson11"
case "$T" in /*) ;; *) T="$ROOT/$T" ;; esac
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip fp8 variants: no python3"
	exit 0
fi
if [ ! -x "$T" ]; then
	echo "skip fp8 variants: no $T (make it first)"
	exit 0
fi
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for flags in "--bn 128 --stages 6 --promote 1" "--bn 128 --stages 5 --cluster 1"; do
	f="$WORK/v.ptx"
	# shellcheck disable=SC2086
	if ! (cd "$ROOT" && python3 ptx/gen/11_fp8.py $flags) >"$f" 2>"$WORK/err"; then
		echo "not ok fp8 variant $flags: the generator failed"
		sed 's/^/    | /' "$WORK/err"
		continue
	fi
	# the header's "...: NNN bytes." is the dynamic shared memory the launch gives
	smem=$(sed -n 's/.*: \([0-9][0-9]*\) bytes\.$/\1/p' "$f" | head -n 1)
	if [ -n "$PTXAS" ]; then
		if "$PTXAS" -arch=sm_90a -o /dev/null "$f" >"$WORK/err" 2>&1; then
			echo "ok fp8 variant $flags: ptxas accepts it"
		else
			echo "not ok fp8 variant $flags: ptxas refuses it"
			sed 's/^/    | /' "$WORK/err"
		fi
	fi
	FP8_PTX="$f" FP8_SMEM="$smem" "$T" >"$WORK/out" 2>&1
	n=$(grep -c '^\[       OK \] test_e' "$WORK/out")
	if [ "$n" -eq 3 ]; then
		echo "ok fp8 variant $flags: gemm_e4m3 and gemm_e5m2 verified in the emulator ($smem bytes of shared memory)"
	else
		echo "not ok fp8 variant $flags: $n of 3 FP8 cases passed"
		grep -E 'ERROR|FAILED' "$WORK/out" | sed 's/^/    | /'
	fi
done

# The sweep's promoting rows (scripts/sweep-43.tsv, GENERATOR 11_fp8.py ... --promote 1): each row's own
# generator and run flags through `ptxtutor run --emulate`, verified and race-free: at 256^3 as the sweep
# launches it, then in two blocks (--grid 2; at 256 x 256 each walks two tiles, so a set left over from
# the tile before would show) at sizes whose k-tile counts end the loop, unrolled by 2N (N =
# --promote-every), in each of its places: 2N+1 k-tiles (a whole round, then one in %pa), N+1 (one in
# %pb) and 2N (the round's end); warpgroup 2 under --stagger, entering the loop elsewhere, ends it
# elsewhere too at these counts. A row that differs from an earlier one only in --stages or --group
# (the same k loop) gets ptxas and the 256^3 run.
BIN=${PTXTUTOR_BIN:-$ROOT/ptxtutor}
if [ ! -x "$BIN" ]; then
	echo "skip fp8 sweep rows: no $BIN (make it first)"
	exit 0
fi
# `make test`: one row for each path through the promoting code (SOME); SWEEP_ALL=1: every row.
SOME='^(p_s6_e2|p_s6_e4_st|p_s6_c2_st|p_s7_direct|p144_s6_e2|p144_s5_e2_tma)	'
[ "${SWEEP_ALL:-}" = 1 ] && SOME='^'
grep '^p[^	]*	[^	]*	11_fp8\.py [^	]*--promote 1' "$ROOT/scripts/sweep-43.tsv" | grep -E "$SOME" >"$WORK/rows"
[ -s "$WORK/rows" ] || echo "not ok fp8 sweep rows: no promoting row in scripts/sweep-43.tsv"
: >"$WORK/seen"
while IFS='	' read -r name ref gen run; do
	f="$WORK/$name.ptx"
	loop=$(echo "$gen" | sed 's/ --stages [0-9]*//; s/ --group [0-9]*//')
	# shellcheck disable=SC2086
	if ! (cd "$ROOT" && python3 ptx/gen/$gen) >"$f" 2>"$WORK/err"; then
		echo "not ok fp8 sweep row $name: the generator failed"
		sed 's/^/    | /' "$WORK/err"
		continue
	fi
	if [ -n "$PTXAS" ] && ! "$PTXAS" -arch=sm_90a -o /dev/null "$f" >"$WORK/err" 2>&1; then
		echo "not ok fp8 sweep row $name: ptxas refuses it"
		sed 's/^/    | /' "$WORK/err"
		continue
	fi
	# C7515: ptxas could not keep the wgmmas in flight and waits for each (a timing not worth taking)
	if [ -n "$PTXAS" ] && grep -q C7515 "$WORK/err"; then
		echo "not ok fp8 sweep row $name: ptxas serializes its wgmmas"
		grep C7515 "$WORK/err" | sed 's/^/    | /'
		continue
	fi
	n=$(echo "$gen" | sed -n 's/.*--promote-every \([0-9][0-9]*\).*/\1/p')
	n=${n:-1}
	bad=
	sizes="256 256,256,$((128 * (2 * n + 1)))+--grid+2 256,128,$((128 * (n + 1)))+--grid+2"
	[ "$n" -gt 1 ] && sizes="$sizes 256,128,$((256 * n))+--grid+2"
	# --bn 144: every N here ends the last column of tiles mid-way (256 = 144 + 112, 128, 400 = 2 x 144 + 112)
	case "$gen" in *"--bn 144"*) sizes="$sizes 256,400,384" ;; esac
	checked="at $(echo $sizes | tr + ' ' | sed 's/ --grid 2//g; s/ /, /g')"
	if grep -qxF "$loop" "$WORK/seen"; then
		sizes=256 checked="at 256 (the k loop of an earlier row)"
	fi
	echo "$loop" >>"$WORK/seen"
	for size in $sizes; do
		size=$(echo "$size" | tr + ' ')
		eval "\"\$BIN\" run --emulate --ptx \"\$f\" $run --size $size" >"$WORK/out" 2>&1
		if [ $? -ne 0 ] || ! grep -q ': VERIFIED$' "$WORK/out" || ! grep -q ' 0 races;' "$WORK/out"; then
			bad="$bad [$size]"
			head -n 3 "$WORK/out" | sed 's/^/    | /'
		fi
	done
	if [ -z "$bad" ]; then
		echo "ok fp8 sweep row $name ($gen): ${PTXAS:+ptxas accepts it without serializing wgmmas, }verified in the emulator, no race, $checked"
	else
		echo "not ok fp8 sweep row $name ($gen): wrong or racy at$bad"
	fi
done <"$WORK/rows"
