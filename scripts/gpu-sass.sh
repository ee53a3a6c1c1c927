#!/bin/sh
# gpu-sass.sh: on a machine with the CUDA toolkit (ptxas, nvdisasm), `ptxtutor sass N` for
# every lesson with a kernel beside a plain disassembly of the same cubin: the same
# instruction count, FFMA, LDS.128 and HMMA/HGMMA. The cubin is remade here from the .loc
# copy ptxtutor compiles (line info changes no instruction; the first check says so by also
# disassembling a cubin of the unmodified PTX). With a GPU, the driver JIT's counts follow
# (for reading: another compiler may schedule differently). Builds nothing: run it from the
# root where ./ptxtutor was built. Prints the SASS of lesson 5's inner loop as a sample,
# then a table last.
#
#   sh scripts/gpu-sass.sh          the check above
#   sh scripts/gpu-sass.sh --rows   the SASS rows of assets/measured-h100.tsv instead (ptxas for
#                                   the H100's sm_90/sm_90a, nvdisasm; the {sass.*} placeholders
#                                   read them): replace the file's sass.* rows with this output
#   sh scripts/gpu-sass.sh --record DIR
#                                   the recorded SASS instead: DIR/NN.sass for every lesson with a
#                                   kernel (`ptxtutor sass N --ptxas --gpu h100 --record`: ptxas for
#                                   sm_90/sm_90a, nvdisasm -g -hex), one line per lesson; copy them into
#                                   assets/sass/ and commit them (tests/test_sass_record.c fails
#                                   when a lesson's PTX changes and its recording does not)
#   sh scripts/gpu-sass.sh --record-heldout DIR
#                                   on the GPU machine: DIR/NAME.sass for every held-out kernel of
#                                   tests/heldout/kernels.tsv, the driver JIT's code (`ptxtutor sass
#                                   --ptx FILE --entry NAME --jit --record`: what `run` runs, which
#                                   the stall model replays, a -G build's as its SASS issues); copy
#                                   them into tests/heldout/ beside their PTX and commit them
set -u
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CUDA=${CUDA_HOME:-/usr/local/cuda}
PATH="$PATH:$CUDA/bin"
for t in ptxas nvdisasm python3; do
	command -v $t >/dev/null 2>&1 || { echo "gpu-sass: $t not found (the CUDA toolkit has ptxas and nvdisasm)"; exit 1; }
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# The lessons with a kernel, by number (lesson 10 and later included as they land).
lessons() {
	for f in "$ROOT"/lessons/[0-9][0-9]-*.md; do
		grep -q "^kernel:" "$f" || continue
		n=${f##*/}
		echo $((1${n%%-*} - 100))
	done
}

if [ "${1:-}" = "--record" ]; then
	DIR=${2:-}
	[ -n "$DIR" ] || { echo "gpu-sass: --record needs a folder: sh scripts/gpu-sass.sh --record DIR"; exit 2; }
	mkdir -p "$DIR" || exit 1
	fail=0
	for n in $(lessons); do
		"$BIN" sass "$n" --ptxas --gpu h100 --record "$DIR/$(printf %02d "$n").sass" 2>&1 ||
			{ echo "lesson $n: FAILED (above), no recording"; fail=1; }
	done
	exit $fail
fi

if [ "${1:-}" = "--record-heldout" ]; then
	DIR=${2:-}
	[ -n "$DIR" ] || { echo "gpu-sass: --record-heldout needs a folder"; exit 2; }
	mkdir -p "$DIR" || exit 1
	fail=0
	grep -v '^#' "$ROOT/tests/heldout/kernels.tsv" | while IFS='	' read -r name ptx entry rest; do
		[ -n "$name" ] || continue
		(cd "$ROOT" && "$BIN" sass --ptx "tests/heldout/$ptx" --entry "$entry" --jit --record "$DIR/$name.sass") 2>&1 ||
			{ echo "$name: FAILED (above), no recording"; exit 1; }
	done || fail=1
	exit $fail
fi

if [ "${1:-}" = "--rows" ]; then
	echo "# SASS counts: ptxtutor sass N --rows --ptxas for each lesson (scripts/gpu-sass.sh --rows)"
	for n in $(lessons); do
		"$BIN" sass "$n" --rows --ptxas --gpu h100 || { echo "gpu-sass: lesson $n failed" >&2; exit 1; }
	done
	exit 0
fi

# Counts of a plain `nvdisasm -c` listing of one function: every instruction line, FFMA, LDS.128, HMMA+HGMMA.
plain() {
	awk -v fn="$2" '
		/^\.text\./ { on = ($0 == ".text." fn ":") ; next }
		/^[ \t]*\.section[ \t]/ { on = 0 }
		on && /\/\*[0-9a-f]+\*\// {
			n++
			sub(/.*\*\/[ \t]*/, ""); sub(/^@!?U?P[0-9T]+[ \t]+/, "")
			op = $1
			if (op ~ /^FFMA(\.|$)/) f++
			if (op ~ /^LDS(\.|$)/ && op ~ /\.128(\.|$)/) l++
			if (op ~ /^H(G)?MMA(\.|$)/) h++
		}
		END { printf "%d %d %d %d\n", n, f, l, h }' "$1"
}

# total FFMA LDS.128 HMMA+HGMMA entry arch line_info compiler, from `sass --json`.
summary() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); c = d["counts"]
print(c["total"], c["ffma"], c["lds128"], c["hmma"] + c["hgmma"], d["entry"], d["arch"], int(d["line_info"]), d["compiler"].replace(" ", "_"))' "$1"
}

rows="" jit=""
for n in $(lessons); do
	json=$("$BIN" sass "$n" --json --ptxas 2>"$W/err") || { rows="$rows$n - - - - error:$(head -c 60 "$W/err")\n"; continue; }
	printf '%s' "$json" >"$W/$n.json"
	read -r ours_n ours_f ours_l ours_h entry arch lines comp <<EOT
$(summary "$W/$n.json")
EOT
	# The unmodified file for the same arch: line info must change no instruction.
	ptx=$(sed -n "s/^kernel: *\([^ ]*\) .*/\1/p" "$ROOT"/lessons/"$(printf %02d "$n")"-*.md)
	ptxas -arch="$arch" -lineinfo -o "$W/plain.cubin" "$ROOT/$ptx" 2>"$W/err" || { rows="$rows$n - - - - ptxas failed\n"; continue; }
	nvdisasm -c "$W/plain.cubin" >"$W/plain.sass"
	set -- $(plain "$W/plain.sass" "$entry")
	p_n=$1 p_f=$2 p_l=$3 p_h=$4
	m=no
	[ "$ours_n $ours_f $ours_l $ours_h" = "$p_n $p_f $p_l $p_h" ] && [ "$lines" = 1 ] && m=yes
	rows="$rows$n $ours_n/$p_n $ours_f/$p_f $ours_l/$p_l $ours_h/$p_h $m\n"
	# The GPU's own JIT, where there is a GPU: its counts, for reading.
	if "$BIN" sass "$n" --json --jit >"$W/$n.jit.json" 2>/dev/null; then
		set -- $(summary "$W/$n.jit.json")
		jit="$jit$n $1 $2 $3 $4 $7 $8\n"
	fi
done

echo "== lesson 5, its counts and its shared loads' PTX lines with their SASS (first 40 lines)"
"$BIN" sass 5 --ptxas | sed -n '/^counts/,$p'
"$BIN" sass 5 --ptxas | grep -B1 -A3 "ld.shared" | head -40
echo
if [ -n "$jit" ]; then
	echo "the driver's JIT (sass N --jit): lesson instructions FFMA LDS.128 HMMA/HGMMA line_info compiler"
	printf "$jit"
	echo
fi
echo "ours = ptxtutor sass --ptxas (ptxas -lineinfo of the .loc copy, nvdisasm -g); plain = ptxas of the"
echo "unmodified PTX for the same arch, nvdisasm -c, counted by awk. match: all equal and line info present."
printf "%-7s %-13s %-11s %-11s %-11s %s\n" lesson instructions FFMA LDS.128 HMMA/HGMMA match
printf "$rows" | while read -r l a b c d e; do
	printf "%-7s %-13s %-11s %-11s %-11s %s\n" "$l" "$a" "$b" "$c" "$d" "$e"
done
