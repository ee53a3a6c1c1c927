#!/bin/sh
# e2e_ncu_record: scripts/ncu_stalls_compare.py --from FILE, the offline half of the stall model's check
# against Nsight Compute (the GPU half records FILE): the model runs here for a lesson and a held-out
# kernel (at 512, to stay fast) and is compared with a small recorded file: each recorded hot line gets
# a row with both top reasons (`selected` left out on both sides), the CPI row and the agreement; a
# target with nothing recorded exits 2. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
if [ ! -x "$BIN" ] || ! command -v python3 >/dev/null; then
	echo "skip ncu_record: no binary at $BIN or no python3"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tab=$(printf '\t')
# lesson 2's loads and FMA (lines 94, 96), colwalk's FMA (line 113); selected only on line 96 besides
cat >"$tmp/rec.tsv" <<TSV
# a comment line, skipped
2${tab}512${tab}94${tab}lg_throttle${tab}40
2${tab}512${tab}96${tab}long_scoreboard${tab}90
2${tab}512${tab}96${tab}selected${tab}500
2${tab}512${tab}cpi${tab}-${tab}38.1
heldout:colwalk${tab}512${tab}113${tab}long_scoreboard${tab}70
heldout:colwalk${tab}512${tab}cpi${tab}-${tab}20.15
TSV
out=$(PTXTUTOR_BIN=$BIN PTXTUTOR_ROOT=$ROOT python3 "$ROOT/scripts/ncu_stalls_compare.py" --from "$tmp/rec.tsv" \
	--size 512 --raw "$tmp/raw" 2 heldout:colwalk 2>&1)
rc=$?
rows=$(printf '%s\n' "$out" | awk '$1 == "2" && $2 ~ /^[0-9]+$/ { n++ } END { print n + 0 }')
if [ $rc -le 1 ] && [ "$rows" -eq 2 ] &&
	printf '%s\n' "$out" | grep -q '^2 .* 96 .* long_scoreboard ' &&
	printf '%s\n' "$out" | grep -q '^heldout:colwalk .* 113 ' &&
	printf '%s\n' "$out" | grep -q '^heldout:colwalk .* cpi .* 20.15 ' &&
	printf '%s\n' "$out" | grep -q '^2 .* agree .* of 2 '; then
	echo "ok ncu_record_from"
else
	echo "not ok ncu_record_from: rc $rc, $rows rows of lesson 2: $(printf '%s' "$out" | tail -8)"
fi
# --table: the same comparison as docs/model.md's per-kernel table, one Markdown row a target
out=$(PTXTUTOR_BIN=$BIN PTXTUTOR_ROOT=$ROOT python3 "$ROOT/scripts/ncu_stalls_compare.py" --from "$tmp/rec.tsv" \
	--size 512 --raw "$tmp/raw" --table 2 heldout:colwalk 2>&1)
if printf '%s\n' "$out" | grep -q '^| kernel | agree (of 5) |' && printf '%s\n' "$out" | grep -q '^| lesson 2 | [0-2] | 38.10 | ' &&
	printf '%s\n' "$out" | grep -q '^| colwalk | [01] | 20.15 | ' && [ "$(printf '%s\n' "$out" | grep -c '^| ')" -eq 3 ]; then
	echo "ok ncu_record_table"
else
	echo "not ok ncu_record_table: $(printf '%s' "$out" | tail -6)"
fi
PTXTUTOR_BIN=$BIN PTXTUTOR_ROOT=$ROOT python3 "$ROOT/scripts/ncu_stalls_compare.py" --from "$tmp/rec.tsv" \
	--size 512 --raw "$tmp/raw" 3 >"$tmp/o" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "^3: nothing recorded at size 512" "$tmp/o"; then
	echo "ok ncu_record_missing"
else
	echo "not ok ncu_record_missing: rc $rc: $(head -c 300 "$tmp/o")"
fi

# ncu's samples of an HGMMA reach the line its cubin's line table gives it (lesson 9: the k-tile's second
# wgmma's HGMMA on the loop's `bra`, line 351; the third's and fourth's on its `add`, line 349), so the
# model's wait for each wgmma is compared there (gmma_moves, through the recorded SASS): both lines have
# the wgmmas' MIO throttle, two consumer warps a sub-partition behind each other's.
cat >"$tmp/rec9.tsv" <<TSV
9${tab}512${tab}351${tab}mio_throttle${tab}60
9${tab}512${tab}351${tab}wait${tab}30
9${tab}512${tab}349${tab}mio_throttle${tab}50
9${tab}512${tab}cpi${tab}-${tab}16.3
TSV
out=$(PTXTUTOR_BIN=$BIN PTXTUTOR_ROOT=$ROOT python3 "$ROOT/scripts/ncu_stalls_compare.py" --from "$tmp/rec9.tsv" \
	--size 512 --raw "$tmp/raw" 9 2>&1)
if printf '%s\n' "$out" | grep -q '^9 .* 351 .* mio_throttle .* mio_throttle .* yes' &&
	printf '%s\n' "$out" | grep -q '^9 .* 349 .* mio_throttle .* mio_throttle .* yes'; then
	echo "ok ncu_record_gmma_lines"
else
	echo "not ok ncu_record_gmma_lines: $(printf '%s' "$out" | tail -6)"
fi

# The LG queue's calibration (scripts/lg-depth-model.py): the model replays build/gpu-lg-depth's kernels
# (tests/stalls/lg-depth.ptx) for the recorded shapes and prints each beside Nsight Compute's row; the first
# three shapes here (all L1 hits, 32 warps), then the summary line
out=$(PTXTUTOR_BIN=$BIN PTXTUTOR_ROOT=$ROOT python3 "$ROOT/scripts/lg-depth-model.py" --only 3 2>&1)
rc=$?
rows=$(printf '%s\n' "$out" | grep -c '^[0-9]* *[0-9]* *32 *hit *| 0\.[0-9]*  0\.[0-9]* *[0-9]* | [01]\.[0-9]*  [01]\.[0-9]* *[0-9]*$')
if [ $rc -eq 0 ] && [ "$rows" -eq 3 ] && printf '%s\n' "$out" | grep -q '^1 *32 *32 *hit *| 0.00  0.11 *1593 |' &&
	printf '%s\n' "$out" | grep -q '^LG throttle: mean distance [0-9.]*; .* in [0-3] of 3 shapes$'; then
	echo "ok ncu_record_lg_depth"
else
	echo "not ok ncu_record_lg_depth: rc $rc, $rows rows: $(printf '%s' "$out" | tail -5)"
fi
