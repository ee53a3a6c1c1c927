#!/bin/sh
# e2e_blas: the nvcc fixtures of tests/data/blas (BLAS signature, templates with long mangled
# names, float4 and half2 loads, a module with a second, non-GEMM entry) each verify with
# `ptxtutor run --emulate` at a non-square size that is no multiple of their tiles, with
# alpha != 1 and beta != 0, for sm_80 and sm_90; the kernel that skips a row of C fails with
# beta: and without it, each with the message of its kind.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/data/blas"
SIZE=100,76,36
if [ ! -x "$BIN" ]; then
	echo "skip blas: no binary at $BIN"
	exit 0
fi
out=$(mktemp)
tab=$(printf '\t')
grep -v '^#' "$DIR/fixtures.tsv" | while IFS="$tab" read -r name entry dtype grid block args; do
	for sm in 80 90; do
		ptx="$DIR/$name.sm_$sm.ptx"
		set -- --ptx "$ptx" --dtype "$dtype" --grid "$grid" --block "$block" --size $SIZE
		[ "$entry" = "-" ] || set -- "$@" --entry "$entry"
		"$BIN" run --emulate "$@" --args "$args" >"$out" 2>&1
		rc=$?
		if [ "$name" = skiprow ]; then
			nobeta=$(echo "$args" | sed 's/beta:0.5/f32:0/')
			"$BIN" run --emulate "$@" --args "$nobeta" >>"$out" 2>&1
			rc2=$?
			if [ $rc -eq 1 ] && [ $rc2 -eq 1 ] && [ "$(grep -c 'of 7600 elements of C were never written (the first at row 1, col 0)' "$out")" -eq 2 ]; then
				echo "ok blas_${name}_sm_$sm fails with and without beta"
			else
				echo "not ok blas_${name}_sm_$sm (rc $rc, $rc2)"; cat "$out"
			fi
			continue
		fi
		if [ $rc -eq 0 ] && grep -q "VERIFIED" "$out"; then
			echo "ok blas_${name}_sm_$sm $(head -1 "$out" | cut -c1-60)"
		else
			echo "not ok blas_${name}_sm_$sm"; cat "$out"
		fi
	done
done
# A kernel that reads C run without beta: is told to add it.
"$BIN" run --emulate --ptx "$DIR/naive.sm_80.ptx" --grid 'ceil(M/32),ceil(N/32)' --block 32,32 --size $SIZE \
	--args 'M N K alpha:1.5 A B f32:0.5 C' >"$out" 2>&1
if grep -q "the kernel reads C.*add beta:VALUE to --args" "$out"; then
	echo "ok blas_reads_c_suggests_beta"
else
	echo "not ok blas_reads_c_suggests_beta"; cat "$out"
fi
# A wrong name lists the entries, demangled beside mangled.
"$BIN" run --emulate --ptx "$DIR/mixed.sm_80.ptx" --entry nope --grid 1 --block 32 --size 8 >"$out" 2>&1
if grep -q "no such entry" "$out" && grep -q "_Z10bit_tricksPKjPjPfi  (bit_tricks)" "$out"; then
	echo "ok blas_wrong_entry_lists_entries"
else
	echo "not ok blas_wrong_entry_lists_entries"; cat "$out"
fi
# The entry mangled, as it is (77 characters), or demangled with its template arguments.
for e in _Z33gemm2DBlocktilingWithBoundsChecksILi64ELi64ELi8ELi4ELi4EEviiifPKfS1_fPf \
	'gemm2DBlocktilingWithBoundsChecks<64, 64, 8, 4, 4>'; do
	if "$BIN" run --emulate --ptx "$DIR/blocktiling.sm_90.ptx" --entry "$e" --grid 'ceil(N/64),ceil(M/64)' \
		--block 256 --size 33,65,17 --args 'M N K alpha:-2 A B beta:3 C' >"$out" 2>&1 &&
		grep -q "^gemm2DBlocktilingWithBoundsChecks<64, 64, 8, 4, 4> at 33x65x17 on the CPU (f32): VERIFIED" "$out"; then
		echo "ok blas_entry_named_$(echo "$e" | cut -c1-12)"
	else
		echo "not ok blas_entry_named_$e"; cat "$out"
	fi
done
# run --help: the BLAS example is the first example.
"$BIN" run --help >"$out" 2>&1
if grep -m1 -- "--args" "$out" | grep -q "M N K alpha:1.5 A B beta:0.5 C"; then
	echo "ok blas_run_help_example_first"
else
	echo "not ok blas_run_help_example_first"; cat "$out"
fi
# Too long an emulation is refused from its probe, unless --force.
"$BIN" emulate --ptx "$DIR/naive.sm_80.ptx" --grid 'ceil(M/32),ceil(N/32)' --block 32,32 --size 4096 \
	--args 'M N K alpha:1.5 A B beta:0.5 C' >"$out" 2>&1
if grep -q "would take about .* s of CPU time.*--force" "$out"; then
	echo "ok blas_long_emulation_refused"
else
	echo "not ok blas_long_emulation_refused"; cat "$out"
fi
rm -f "$out"
