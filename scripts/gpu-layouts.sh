#!/bin/sh
# gpu-layouts: issue 39's layout and precision kernels (tests/students/layout, tests/students/precision)
# on the GPU, checked against the matching cuBLAS call (column-major operands as cuBLAS's transa/transb,
# leading dimensions as its lda/ldb/ldc; s8 with an f32 C through GemmEx CUBLAS_COMPUTE_32F; u8 against
# the CPU's f64 reference, cuBLAS having no u8 GEMM). Each row of the folders' kernels.tsv runs with
# `ptxtutor run --ptx ... --json` at its sizes, the layout rows that verify also at 512,384,256, and must end as the
# emulator's does there (VERIFIED, or FAILED with that piece of its message). Prints each run's line,
# then a table: kernel, size, verdict, expected, agree, rel. error, consistent_with, reference.
# Builds nothing: run it from a tree where ./ptxtutor is built (scripts/stage-gpu.sh on a machine
# without headers). Takes well under a minute. Exits 1 when any run disagrees.
# GPU_LAYOUTS_BIN (the ptxtutor binary) lets a test run it against a fake.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
export PTXTUTOR_ROOT="$ROOT" LD_LIBRARY_PATH="$ROOT/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=${GPU_LAYOUTS_BIN:-./ptxtutor}
json=$(mktemp) rows=$(mktemp) table=$(mktemp)
trap 'rm -f "$json" "$rows" "$table"' EXIT
tab=$(printf '\t')
# key KEY: a top-level value of the run's JSON (a string without its quotes)
key() { sed -n -e "s/^  \"$1\": \"\(.*\)\",\{0,1\}\$/\1/p" -e "s/^  \"$1\": \([^\"][^,]*\),\{0,1\}\$/\1/p" "$json" | head -1; }
rc=0
for dir in layout precision; do
	DIR=tests/students/$dir
	grep -v '^#' "$DIR/kernels.tsv" >"$rows"
	while IFS="$tab" read -r name ptx grid block args types layout ld sizes expect; do
		set -- --ptx "$DIR/$ptx" --grid "$grid" --block "$block" --args "$args" --dtype "${types%%:*}"
		case $types in *:*) set -- "$@" --out "${types#*:}" ;; esac
		[ "$layout" = - ] || set -- "$@" --layout "$layout"
		[ "$ld" = - ] || set -- "$@" --ld "$ld"
		# a larger size for the layouts that verify (a wrong major read past a non-square matrix may fault)
		[ $dir = layout ] && [ "$expect" = VERIFIED ] && sizes="$sizes 512,384,256"
		for size in $sizes; do
			"$BIN" run "$@" --size "$size" --json >"$json" 2>&1
			verified=$(key verified) msg=$(key message) why=$(key consistent_with)
			rel=$(key rel_error) ref=$(key cublas_gflops)
			case $verified in true) got=VERIFIED ;; false) got=FAILED ;; *) got="not checked" ;; esac
			echo "$dir/$name $size: $got: $msg"
			case $expect in
			VERIFIED) [ "$got" = VERIFIED ] && ok=yes || ok=NO ;;
			*) want=${expect#FAILED }; [ "$got" = FAILED ] && case $msg in *"$want"*) true ;; *) false ;; esac && ok=yes || ok=NO ;;
			esac
			[ $ok = yes ] || rc=1
			[ -n "$ref" ] && [ "$ref" != null ] && ref="cuBLAS $ref GFLOP/s" || ref="CPU (f64)"
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$size" "$got" "${expect%% *}" "$ok" "${rel:-n/a}" \
				"${why:--}" "$ref" >>"$table"
		done
	done <"$rows"
done
echo
printf '%-24s %-12s %-12s %-9s %-5s %-10s %-40s %s\n' kernel size verdict expected agree rel.error consistent_with reference
while IFS="$tab" read -r n s g e o r w f; do
	printf '%-24s %-12s %-12s %-9s %-5s %-10.10s %-40.40s %s\n' "$n" "$s" "$g" "$e" "$o" "$r" "$w" "$f"
done <"$table"
[ $rc -eq 0 ] && echo "gpu-layouts: all agree with the emulator's expectations" || echo "gpu-layouts: some runs DISAGREE (above)"
exit $rc
