#!/bin/sh
# e2e_heldout: the held-out kernels of tests/heldout (kernels.tsv: CUDA C of our own that the time
# estimate is not tuned to) each verify with `ptxtutor emulate` at 128^3 and 192x128x320, and at
# 100x76x36 when the kernel takes any size (its MULTIPLE column); sizes that are no multiple of a
# kernel's tile are not run. The two tiled kernels show the effect they are there for (a 32-way
# bank conflict, gone with padding); seven show theirs in their PTX (shuffles, local memory, a
# debug target, f64, WMMA, a loop kept rolled). With nvcc at hand, each committed PTX is what
# scripts/heldout-ptx.sh makes from its source.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/heldout"
if [ ! -x "$BIN" ]; then
	echo "skip heldout: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
tab=$(printf '\t')
# divides SIZE MULTIPLE: M, N and K of SIZE (one number: all three) are multiples of MULTIPLE's
divides() {
	echo "$1 $2" | awk '{ n = split($1, s, ","); split($2, m, ",");
		if (n == 1) s[2] = s[3] = s[1];
		exit !(s[1] % m[1] == 0 && s[2] % m[2] == 0 && s[3] % m[3] == 0) }'
}
rows=0
grep -v '^#' "$DIR/kernels.tsv" >"$out.rows"
while IFS="$tab" read -r name ptx entry grid block args dtype outt smem mult kind; do
	rows=$((rows + 1))
	set -- --ptx "$DIR/$ptx" --entry "$entry" --grid "$grid" --block "$block" --args "$args" \
		--dtype "$dtype" --out "$outt"
	[ "$smem" = "-" ] || set -- "$@" --smem "$smem"
	for size in 128 192,128,320 100,76,36; do
		if ! divides $size "$mult"; then
			# the two sizes every kernel must take
			[ "$size" = 100,76,36 ] || echo "not ok heldout_${name}_$size: not a multiple of $mult"
			continue
		fi
		"$BIN" emulate "$@" --size $size >"$out" 2>&1
		rc=$?
		[ "$size" = 128 ] && cp "$out" "$out.$name.128" # the tiled kernels' counts below
		if [ $rc -eq 0 ] && head -1 "$out" | grep -q "^$entry at .*: VERIFIED$"; then
			echo "ok heldout_${name}_$size $(sed -n 3p "$out" | cut -c3-40)"
		else
			echo "not ok heldout_${name}_$size (exit $rc)"; cat "$out"
		fi
	done
done <"$out.rows"
if [ "$rows" -ge 16 ]; then
	echo "ok heldout_manifest_rows $rows"
else
	echo "not ok heldout_manifest_rows: $rows kernels in kernels.tsv, want 16"
fi
# The effect each tiled kernel exhibits, from the emulator's shared-load counts at 128^3 (the report of
# its run above, not a second emulation of it).
for k in tiled_conflict:32 tiled_padded:1; do
	name=${k%:*} want=${k#*:}
	cp "$out.$name.128" "$out" 2>/dev/null || echo "(no run of $name at 128 above)" >"$out"
	# shared loads: per k step one A read (want wavefronts) and one B broadcast (1)
	got=$(sed -n 's/^  shared loads .*requests: \([0-9.]*\) wavefronts\/request.*/\1/p' "$out")
	expect=$(awk "BEGIN { print ($want + 1) / 2 }")
	if [ "$got" = "$expect" ]; then
		echo "ok heldout_${name}_wavefronts $got per shared load"
	else
		echo "not ok heldout_${name}_wavefronts: got '$got', want $expect"; cat "$out"
	fi
done
# The effect a kernel is there for, where its PTX shows it: NAME:PATTERN, an extended regex that
# must match a line of NAME.ptx.
for k in 'warp_dot:shfl\.sync\.down' 'shfl_bcast:shfl\.sync\.idx' 'spill:ld\.local' 'spill:st\.local' \
	'tiled_debug:^\.target sm_90, debug$' 'dgemm_tiled:fma\.rn\.f64' 'wmma_f16:wmma\.mma\.sync.*m16n16k16\.f32\.f32' \
	'latency_chain:\.pragma "nounroll"'; do
	name=${k%%:*} re=${k#*:}
	if grep -Eq "$re" "$DIR/$name.ptx"; then
		echo "ok heldout_${name}_ptx_shows $re"
	else
		echo "not ok heldout_${name}_ptx_shows: no line of $name.ptx matches $re"
	fi
done
# The committed PTX is the compiler's, from the committed source.
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
if [ -z "$NVCC" ]; then
	echo "skip heldout_ptx_fresh: no nvcc on this machine"
elif ! "$NVCC" --version | grep -q 'release 13\.0'; then
	echo "skip heldout_ptx_fresh: nvcc is not 13.0, which made the committed PTX"
else
	mkdir "$out.ptx"
	if ! sh "$ROOT/scripts/heldout-ptx.sh" "$NVCC" "$out.ptx" >"$out" 2>&1; then
		echo "not ok heldout_ptx_fresh: scripts/heldout-ptx.sh failed"; cat "$out"
	fi
	for cu in "$DIR"/*.cu; do
		n=$(basename "$cu" .cu)
		if cmp -s "$out.ptx/$n.ptx" "$DIR/$n.ptx"; then
			echo "ok heldout_ptx_fresh $n"
		else
			echo "not ok heldout_ptx_fresh $n: differs from nvcc's output (sh scripts/heldout-ptx.sh)"
		fi
	done
fi
rm -rf "$out" "$out".*
