#!/bin/sh
# e2e_gpu_heldout: scripts/gpu-heldout.sh without a GPU. Its ptxtutor is a fake that runs the real
# one with --emulate at 128^3 instead (so the JSON it reads has the real layout; the smallest size
# every row takes: latency_chain and shfl_bcast tile N by 128) and writes GPU figures into it; the
# script must print 3 rows per kernel in the columns of the data file, with the kernel's name in the
# lesson column, and the table; a kernel that does not verify makes it
# exit 1 and leaves that kernel's rows out. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
[ -x "$BIN" ] || { echo "skip gpu_heldout: no binary at $BIN"; exit 0; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "not ok $1"; sed 's/^/    | /' "$WORK/out" | tail -n 30; fi; }
# The fake: ms = 2.5 for every kernel; the entry named in $WORK/wrong verifies false. The script runs
# twice below with the same launches: the emulator's report of a launch is kept for the second run
# (the same inputs, the same report; the script reads only what the fake writes from it).
mkdir "$WORK/kept"
cat >"$WORK/ptxtutor" <<FAKE
#!/bin/sh
echo "\$*" >>"$WORK/calls"
entry= ; prev=
for a in "\$@"; do [ "\$prev" = --entry ] && entry=\$a; prev=\$a; done
args=\$(for a in "\$@"; do [ "\$prev" = --size ] && a=128; prev=\$a; printf '%s\n' "\$a"; done | tr '\n' '\001')
kept="$WORK/kept/\$(printf '%s' "\$args" | cksum | tr ' ' _)"
if [ -f "\$kept.st" ]; then
	cp "\$kept.json" "$WORK/real.json"
	st=\$(cat "\$kept.st")
else
	IFS=\$(printf '\001')
	"$BIN" \$args --emulate >"$WORK/real.json" 2>&1
	st=\$?
	unset IFS
	cp "$WORK/real.json" "\$kept.json" && echo \$st >"\$kept.st"
fi
if [ "\$entry" = "\$(cat "$WORK/wrong" 2>/dev/null)" ]; then
	sed -i 's/"verified": true/"verified": false/; s/"status": "ok"/"status": "wrong result"/' "$WORK/real.json"
	st=1
fi
sed -e 's/"gpu": "CPU emulator"/"gpu": "NVIDIA H100 80GB HBM3"/' -e 's/"ms": null/"ms": 2.5/' \
	-e 's/"gflops": null/"gflops": 54975.6/' -e 's/"pct_of_cublas": null/"pct_of_cublas": 107.4/' "$WORK/real.json"
exit \$st
FAKE
chmod +x "$WORK/ptxtutor"
n=$(grep -vc '^#' "$ROOT/tests/heldout/kernels.tsv")
names=$(grep -v '^#' "$ROOT/tests/heldout/kernels.tsv" | cut -f1 | sort | tr '\n' ' ')

GPU_HELDOUT_BIN="$WORK/ptxtutor" sh "$ROOT/scripts/gpu-heldout.sh" --tsv "$WORK/data.tsv" >"$WORK/out" 2>&1
rc=$?
sed -n '/^== rows/,/^$/p' "$WORK/out" | grep -v '^==' | grep . >"$WORK/rows"
# every row: 9 columns, the H100, size 4096, a known metric with its unit, the kernel's name
bad=$(awk -F'\t' 'NF != 9 || $1 != "NVIDIA H100 80GB HBM3" || $6 != 4096 ||
	!(($7 == "ms" && $8 == 2.5 && $9 == "ms") || ($7 == "gflops" && $9 == "GFLOP/s") || ($7 == "pct_cublas" && $9 == "%"))' "$WORK/rows" | wc -l)
got=$(cut -f5 "$WORK/rows" | sort -u | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$(wc -l <"$WORK/rows")" -eq $((3 * n)) ] && [ "$bad" -eq 0 ] && [ "$got" = "$names" ] &&
	[ "$(grep -c -- '--size 4096 --json' "$WORK/calls")" -eq "$n" ]
check "gpu_heldout: $n kernels verified give $((3 * n)) rows in the data file's columns (exit $rc)" $?
grep -A$((n + 1)) '^== held-out kernels at 4096^3 on NVIDIA H100 80GB HBM3' "$WORK/out" | tail -n "$n" |
	awk '$2 != "2.5000" || $4 != "107.4" { bad = 1 } END { exit bad || NR == 0 }'
check "gpu_heldout: the table has each kernel's ms and % of cuBLAS" $?
# the written data file: the committed one's comments and header, then the rows
[ "$(grep -vc '^#' "$WORK/data.tsv")" -eq $((3 * n + 1)) ] && grep -q '^gpu	driver	date	command	lesson	size	metric	value	unit$' "$WORK/data.tsv"
check "gpu_heldout: --tsv writes header and rows" $?

echo heldout_colwalk >"$WORK/wrong"
rm -f "$WORK/calls"
GPU_HELDOUT_BIN="$WORK/ptxtutor" sh "$ROOT/scripts/gpu-heldout.sh" >"$WORK/out" 2>&1
rc=$?
sed -n '/^== rows/,/^$/p' "$WORK/out" | grep -v '^==' | grep . >"$WORK/rows"
[ $rc -eq 1 ] && grep -q 'FAILED: colwalk' "$WORK/out" && ! cut -f5 "$WORK/rows" | grep -qx colwalk &&
	[ "$(wc -l <"$WORK/rows")" -eq $((3 * (n - 1))) ]
check "gpu_heldout: a kernel that does not verify fails the script, its rows left out (exit $rc)" $?

sh "$ROOT/scripts/gpu-heldout.sh" 4096,4096,4096 >"$WORK/out" 2>&1
[ $? -eq 2 ] && grep -q "one positive integer" "$WORK/out"
check "gpu_heldout: a size that is not one integer is refused" $?
