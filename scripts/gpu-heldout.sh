#!/bin/sh
# gpu-heldout: times the held-out kernels (tests/heldout/kernels.tsv, issue 25) on the GPU: for each
# row, `ptxtutor run --ptx tests/heldout/PTX ... --size N --json` (JIT, verified against cuBLAS,
# then the runner's timing: CUDA events, median of repeats, cuBLAS in the same run). Prints each
# run's one line, then the rows for tests/heldout/measured-h100.tsv (the columns of
# assets/measured-h100.tsv, the lesson column holding the kernel's name: ms, gflops, pct_cublas),
# then a table: kernel, ms, GFLOP/s, % of cuBLAS. Builds nothing: run it from a tree where
# ./ptxtutor is built (scripts/stage-gpu.sh where the GPU machine has no headers). Expected to
# take a few minutes at 4096: a run a row, each a few launches of at most ~1.5 s (warp_dot, about
# 1 s: the slowest) beside cuBLAS's.
# Usage: sh scripts/gpu-heldout.sh [N] [--tsv FILE]
#   N     M = N = K (default 4096; one integer, the size column of the data file)
#   FILE  also write the whole data file there (its comments, header and these rows)
# Exits 1 when a kernel does not verify (its rows are left out), 2 on bad usage.
# GPU_HELDOUT_BIN (the ptxtutor binary) lets tests/e2e_gpu_heldout.sh run it against a fake.
SIZE=4096 TSV=
while [ $# -gt 0 ]; do
	case $1 in
	--tsv) [ $# -ge 2 ] || { echo "gpu-heldout: --tsv needs a file" >&2; exit 2; }; TSV=$2; shift 2 ;;
	*[!0-9]* | '') echo "gpu-heldout: the size must be one positive integer, not '$1'" >&2; exit 2 ;;
	*) SIZE=$1; shift ;;
	esac
done
[ "$SIZE" -gt 0 ] 2>/dev/null || { echo "gpu-heldout: the size must be one positive integer, not '$SIZE'" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
export PTXTUTOR_ROOT="$ROOT" LD_LIBRARY_PATH="$ROOT/.stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=${GPU_HELDOUT_BIN:-./ptxtutor}
DIR=tests/heldout
json=$(mktemp) rows=$(mktemp) table=$(mktemp)
trap 'rm -f "$json" "$rows" "$rows.in" "$table"' EXIT
tab=$(printf '\t')
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
date=$(date -u +%F)
command="sh scripts/gpu-heldout.sh $SIZE: ptxtutor run --ptx, launched as kernels.tsv says"
rc=0
# key KEY: a top-level value of the run's JSON ("ms": 1.5, -> 1.5; a string without its quotes)
key() { sed -n -e "s/^  \"$1\": \"\(.*\)\",\{0,1\}\$/\1/p" -e "s/^  \"$1\": \([^\"][^,]*\),\{0,1\}\$/\1/p" "$json" | head -1; }
grep -v '^#' "$DIR/kernels.tsv" >"$rows.in"
while IFS="$tab" read -r name ptx entry grid block args dtype out smem mult kind; do
	set -- --ptx "$DIR/$ptx" --entry "$entry" --grid "$grid" --block "$block" --args "$args" \
		--dtype "$dtype" --out "$out"
	[ "$smem" = "-" ] || set -- "$@" --smem "$smem"
	echo "== $name: ptxtutor run $* --size $SIZE --json"
	if ! echo "$SIZE $mult" | awk '{ split($2, m, ","); exit !($1 % m[1] == 0 && $1 % m[2] == 0 && $1 % m[3] == 0) }'; then
		echo "gpu-heldout: $name: $SIZE is no multiple of $mult, not run"
		rc=1
		continue
	fi
	"$BIN" run "$@" --size "$SIZE" --json >"$json" 2>&1
	st=$?
	gpu=$(key gpu) ms=$(key ms) gf=$(key gflops) pct=$(key pct_of_cublas)
	echo "$(key status): $(key message); $ms ms, $gf GFLOP/s, $pct% of cuBLAS, $(key repeats) repeats, rel. error $(key rel_error)"
	if [ $st -ne 0 ] || [ "$(key verified)" != true ] || [ -z "$ms" ] || [ "$ms" = null ]; then
		echo "gpu-heldout: FAILED: $name (exit $st)"
		cat "$json"
		printf '%-18s %10s %10s %8s  FAILED\n' "$name" - - - >>"$table"
		rc=1
		continue
	fi
	for m in "ms $ms ms" "gflops $gf GFLOP/s" "pct_cublas $pct %"; do
		set -- $m
		[ "$2" = null ] && continue
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$gpu" "${driver:-unknown}" "$date" "$command" "$name" \
			"$SIZE" "$1" "$2" "$3" >>"$rows"
	done
	printf '%-18s %10.4f %10.1f %8.1f\n' "$name" "$ms" "$gf" "$pct" >>"$table"
done <"$rows.in"
rm -f "$rows.in"
echo
echo "== rows for tests/heldout/measured-h100.tsv"
cat "$rows"
if [ -n "$TSV" ]; then
	{ grep '^#' "$DIR/measured-h100.tsv"; grep '^gpu	' "$DIR/measured-h100.tsv"; cat "$rows"; } >"$TSV.new" &&
		mv "$TSV.new" "$TSV" || { echo "gpu-heldout: could not write $TSV" >&2; rc=1; }
fi
echo
echo "== held-out kernels at ${SIZE}^3 on ${gpu:-the GPU}"
printf '%-18s %10s %10s %8s\n' kernel ms GFLOP/s %cuBLAS
cat "$table"
[ -z "$TSV" ] || echo "(the rows are also in $TSV)"
exit $rc
