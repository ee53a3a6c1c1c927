#!/bin/sh
# e2e_races: issue 40's racy corpus (tests/races, races.tsv) through `ptxtutor run --emulate --json`
# at small sizes. A RACE row must not verify and must report a race of its kind (a substring of
# the message: "race (async copy", "barrier reached by", ...; one of several separated by '|') at one of its .cu lines (where.cu_line
# or where.other_cu_line); each such line must carry a "RACE" mark in the .cu, so the manifest
# follows the source. A VERIFIED row (a fixed twin) must verify with 0 races and nothing located;
# a MISSED row (a race the detector is known not to see) must run with 0 races.
# Kinds the emulator's detector does not report yet: with RACES_PENDING=1 a failing RACE row
# prints "skip NAME: detector lacks KIND" instead of "not ok". Then each PTX must assemble with
# ptxas for the H100, and scripts/gpu-races.sh is run against a planted ptxtutor (its table, its
# run options, its exit status).
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/races"
if [ ! -x "$BIN" ]; then
	echo "skip races: no binary at $BIN"
	exit 0
fi
out=$(mktemp) fake=$(mktemp) log=$(mktemp)
trap 'rm -f "$out" "$out.rows" "$fake" "$log"' EXIT
tab=$(printf '\t')
grep -v '^#' "$DIR/races.tsv" >"$out.rows"
# The value of a top-level key (2 spaces in) or of emu's and where's (4 spaces in) in the JSON.
key() { # INDENT KEY
	sed -n "s/^$1\"$2\": \(.*\)/\1/p" "$out" | head -n 1 | sed 's/,$//'
}
# Whether MESSAGE holds one of KINDS, separated by '|'.
has_kind() { # MESSAGE KINDS
	rest=$2
	while :; do
		case $1 in *"${rest%%|*}"*) return 0 ;; esac
		case $rest in *"|"*) rest=${rest#*|} ;; *) return 1 ;; esac
	done
}
while IFS="$tab" read -r name ptx args grid block cluster dtype size _ expect kind lines; do
	set -- --ptx "$DIR/$ptx" --grid "$grid" --block "$block" --size "$size"
	[ "$args" = - ] || set -- "$@" --args "$args"
	[ "$cluster" = - ] || set -- "$@" --cluster "$cluster"
	[ "$dtype" = - ] || set -- "$@" --dtype "$dtype"
	"$BIN" run --emulate --json "$@" </dev/null >"$out" 2>/dev/null
	verified=$(key '  ' verified) races=$(key '    ' races) msg=$(key '  ' message)
	if [ "$expect" = VERIFIED ]; then
		if [ "$verified" = true ] && [ "$races" = 0 ] && [ "$(key '  ' where)" = null ]; then
			echo "ok races_$name"
		else
			echo "not ok races_$name: want verified with 0 races, got verified $verified, races $races: $msg"
		fi
		continue
	fi
	if [ "$expect" = MISSED ]; then # the detector's known gap: the day it sees it, the row becomes RACE
		if [ "$races" = 0 ] && [ "$(key '  ' where)" = null ]; then
			echo "ok races_$name: a race the detector does not see yet ($kind; docs/emulator.md)"
		else
			echo "not ok races_$name: the detector now reports it ($msg): make its row RACE"
		fi
		continue
	fi
	marked=yes
	for l in $(echo "$lines" | tr , ' '); do
		sed -n "${l}p" "$DIR/${ptx%.ptx}.cu" | grep -q RACE || marked="no (line $l)"
	done
	at=" $(key '    ' cu_line) $(key '    ' other_cu_line) "
	hit=no
	for l in $(echo "$lines" | tr , ' '); do
		case $at in *" $l "*) hit=yes ;; esac
	done
	if [ "$marked" != yes ]; then
		echo "not ok races_$name: races.tsv names a line without a RACE mark in the .cu: $marked"
	elif [ "$verified" != true ] && [ $hit = yes ] && has_kind "$msg" "$kind"; then
		echo "ok races_$name"
	elif [ "${RACES_PENDING:-0}" = 1 ]; then
		echo "skip races_$name: detector lacks $kind"
	else
		echo "not ok races_$name: want \"$kind\" at $name.cu:$lines, got verified $verified at lines$at: $msg"
	fi
done <"$out.rows"

# Each PTX assembles with ptxas for the H100 (sm_90a for its own), as gpu-races.sh will JIT it.
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
if [ -z "$PTXAS" ]; then
	echo "skip races_ptxas: no ptxas on this machine"
else
	bad=
	for f in "$DIR"/*.ptx; do
		arch=sm_90
		grep -q '^\.target sm_90a' "$f" && arch=sm_90a
		"$PTXAS" -arch=$arch -o /dev/null "$f" >/dev/null 2>&1 || bad="$bad $(basename "$f")"
	done
	[ -z "$bad" ] && echo "ok races_ptxas" || echo "not ok races_ptxas: ptxas refuses$bad"
fi

# scripts/gpu-races.sh against a planted ptxtutor (no GPU here): it runs each racy kernel REPEATS
# times at the GPU size with a deadline, stops after a hang, and exits non-zero only when a fixed
# twin or the control does not verify.
cat >"$fake" <<'FAKE'
#!/bin/sh
echo "$*" >>"$FAKE_LOG"
case "$*" in
*tma_bar_hang.ptx*) st="timed out" e=null ;;
*"$FAKE_WRONG"*) st="wrong result" e=0.25 ;;
*) st=ok e=1e-07 ;;
esac
printf '{\n  "entry": "x",\n  "status": "%s",\n  "message": "m",\n  "rel_error": %s,\n  "backend": "GPU"\n}\n' "$st" "$e"
FAKE
chmod +x "$fake"
table=$(FAKE_LOG=$log FAKE_WRONG=cpasync_db_war.ptx GPU_RACES_BIN=$fake sh "$ROOT/scripts/gpu-races.sh" 2)
st=$?
row() { echo "$table" | grep "^$1 " | tr -s ' '; }
if [ $st -eq 0 ] && [ "$(row cpasync_db_war)" = "cpasync_db_war race (write after read wrong values 2 0.25 wrong 2, verified 0, timeout 0, fault 0" ] &&
	[ "$(row shfl_mask)" = "shfl_mask race (warp mask verified (latent) 2 1e-07 wrong 0, verified 2, timeout 0, fault 0" ] &&
	[ "$(row tma_bar_hang)" = "tma_bar_hang barrier reached by hang-timeout 1 - wrong 0, verified 0, timeout 1, fault 0" ] &&
	[ "$(row early_return_ok)" = "early_return_ok control verified 1 1e-07 wrong 0, verified 1, timeout 0, fault 0" ] &&
	grep -q -- '--ptx tests/races/splitk_plain.ptx --grid N/16,M/16,2 --block 16,16 --size 256 --args M N K alpha:1 A B beta:1 C$' "$log" &&
	grep -q -- '^run --json --timeout 20 --ptx tests/races/proxy_wgmma_fixed.ptx .* --size 1024 --dtype f16$' "$log"; then
	echo "ok races_gpu_script"
else
	echo "not ok races_gpu_script: exit $st: $(echo "$table" | tail -n 4 | tr '\n' ' ')"
fi
if FAKE_LOG=$log FAKE_WRONG=smem_war_fixed.ptx GPU_RACES_BIN=$fake sh "$ROOT/scripts/gpu-races.sh" 1 >"$out" 2>&1; then
	echo "not ok races_gpu_script_fixed_fails: a fixed twin with wrong values passed"
else
	grep -q 'FAILED: smem_war_fixed (a fixed twin or control) does not verify: wrong values' "$out" &&
		echo "ok races_gpu_script_fixed_fails" || echo "not ok races_gpu_script_fixed_fails: $(tail -n 2 "$out")"
fi
picked=$(FAKE_LOG=$log FAKE_WRONG=none GPU_RACES_BIN=$fake sh "$ROOT/scripts/gpu-races.sh" 1 smem_raw tma_bar | grep -c '^[a-z_]* .* wrong [0-9]*, verified')
[ "$picked" = 4 ] && echo "ok races_gpu_script_pick" || echo "not ok races_gpu_script_pick: $picked rows for smem_raw and tma_bar, want 4"
