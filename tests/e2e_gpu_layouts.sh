#!/bin/sh
# e2e_gpu_layouts: scripts/gpu-layouts.sh without a GPU, against planted fakes of ptxtutor: one that
# answers every run "verified" (the rows that must fail then disagree: exit 1, "NO" in the table, one
# table row per run), and one that answers as kernels.tsv expects (exit 0, all "yes").
# Prints "ok NAME" / "not ok NAME".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# the runs the script makes: each row's sizes, plus 512,384,256 for a layout row that verifies
runs=$(for d in layout precision; do
	grep -v '^#' "$ROOT/tests/students/$d/kernels.tsv" | awk -F'\t' -v d=$d \
		'{ n = split($9, s, " "); if (d == "layout" && $10 == "VERIFIED") n++; t += n } END { print t }'
done | awk '{ t += $1 } END { print t }')
cat >"$dir/all-verified" <<'FAKE'
#!/bin/sh
printf '{\n  "message": "verified against cuBLAS",\n  "rel_error": 1e-07,\n  "verified": true,\n  "cublas_gflops": 100\n}\n'
FAKE
# answers as the row expects (found by its PTX, types, layout, ld and size): a FAILED row's message is its piece
cat >"$dir/as-expected" <<'FAKE'
#!/bin/sh
ptx= dt= out= lay=- ld=- size=
while [ $# -gt 0 ]; do
	case $1 in
	--ptx) ptx=$2 ;; --dtype) dt=$2 ;; --out) out=:$2 ;; --layout) lay=$2 ;; --ld) ld=$2 ;; --size) size=$2 ;;
	esac
	shift
done
want=$(awk -F'\t' -v p="${ptx##*/}" -v t="$dt$out" -v l="$lay" -v d="$ld" -v z="$size" \
	'$2 == p && $6 == t && $7 == l && $8 == d && (index(" " $9 " ", " " z " ") || z == "512,384,256") { print $10; exit }' \
	"${ptx%/*}/kernels.tsv")
case $want in
VERIFIED) printf '{\n  "message": "verified",\n  "verified": true\n}\n' ;;
*) printf '{\n  "message": "wrong values: %s",\n  "verified": false,\n  "consistent_with": "x"\n}\n' "${want#FAILED }" ;;
esac
FAKE
chmod +x "$dir/all-verified" "$dir/as-expected"
GPU_LAYOUTS_BIN="$dir/all-verified" sh "$ROOT/scripts/gpu-layouts.sh" >"$dir/out" 2>&1
rc=$?
rows=$(grep -cE '^[a-z0-9_]+ +[0-9,]+ +(VERIFIED|FAILED|not checked) ' "$dir/out")
if [ $rc -eq 1 ] && grep -q 'DISAGREE' "$dir/out" && grep -qE 'VERIFIED +FAILED +NO' "$dir/out" &&
	[ "$rows" -eq "$runs" ]; then
	echo "ok gpu_layouts_disagreement"
else
	echo "not ok gpu_layouts_disagreement: rc $rc, $rows table rows of $runs runs: $(tail -3 "$dir/out" | tr '\n' ' ')"
fi
GPU_LAYOUTS_BIN="$dir/as-expected" sh "$ROOT/scripts/gpu-layouts.sh" >"$dir/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q 'all agree' "$dir/out" && ! grep -qE ' NO ' "$dir/out"; then
	echo "ok gpu_layouts_agreement"
else
	echo "not ok gpu_layouts_agreement: rc $rc: $(grep -E ' NO |gpu-layouts' "$dir/out" | head -3 | tr '\n' ' ')"
fi
