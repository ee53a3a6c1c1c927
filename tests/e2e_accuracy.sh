#!/bin/sh
# e2e_accuracy: `ptxtutor accuracy` on the emulator — the formats' errors against the f64 reference
# behave as rounding says they must (f32 below f16 below bf16; f32's error grows with K, its
# accumulation's rounding; f16's and bf16's stay flat, their inputs' rounding), a row whose kernel
# is missing says so in one line, the plot, bad options (one line, exit 2) and Ctrl-C (exit 130).
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip accuracy: no binary at $BIN"
	exit 0
fi
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# The JSON run: two Ks sixteen times apart, the formats whose kernels exist (128 and 2048: every
# format's kernel takes both, FP8's K tile is 128; half the emulation of 256 and 4096).
"$BIN" accuracy --emulate --json --k 128,2048 --size 256 --dist uniform >"$out" 2>"$err"
rc=$?
python3 - "$out" "$rc" <<'PY'
import json, sys
path, rc = sys.argv[1], int(sys.argv[2])
try:
    d = json.load(open(path))
except ValueError:
    print("not ok accuracy_json: no JSON:", open(path).read()[:300]); sys.exit()
print(("ok" if rc == 0 else "not ok") + f" accuracy_exit_status {rc}")
ok = d["backend"] == "emulator" and d["M"] == 256 and d["N"] == 256 and d["k"] == [128, 2048] and d["dist"] == "uniform"
print(("ok" if ok else "not ok") + " accuracy_json_keys")
e = {f["name"]: [r.get("rel_err") for r in f["results"]] for f in d["formats"]}
m = {f["name"]: [r.get("max_rel_err") for r in f["results"]] for f in d["formats"]}
need = ["f32", "f16→f32", "bf16→bf16"]
if any(n not in e or None in e[n] for n in need):
    print("not ok accuracy_formats_ran:", e); sys.exit()
print("ok accuracy_formats_ran")
# more mantissa bits, less error: f32 (24) < f16 (11) < bf16 (8), at every K
order = all(e["f32"][i] < e["f16→f32"][i] < e["bf16→bf16"][i] for i in range(2))
print(("ok" if order else "not ok") + f" accuracy_order_f32_f16_bf16 {e}")
# f32's error is its accumulation's rounding: it grows with K (about sqrt(16) = 4 times here)
grow = e["f32"][1] > 2 * e["f32"][0]
print(("ok" if grow else "not ok") + f" accuracy_f32_grows_with_K {e['f32']}")
# f16's and bf16's is their inputs' rounding (the accumulation is f32): flat in K
flat = all(0.67 < e[n][1] / e[n][0] < 1.5 for n in ("f16→f32", "bf16→bf16"))
print(("ok" if flat else "not ok") + f" accuracy_16bit_flat_in_K {e['f16→f32']} {e['bf16→bf16']}")
# an element's error is never below the norm-wise one by much, nor unbounded
sane = all(0.5 * e[n][i] <= m[n][i] < 100 * e[n][i] for n in need for i in range(2))
print(("ok" if sane else "not ok") + f" accuracy_max_rel_err {m}")
PY

# A row whose kernel is not in the tree: one line, the other rows still measured
# (a copy of the tree without ptx/11_formats.ptx).
tree=$(mktemp -d)
cp -r "$ROOT/ptx" "$ROOT/lessons" "$ROOT/assets" "$tree/" && rm -f "$tree/ptx/11_formats.ptx"
PTXTUTOR_ROOT=$tree "$BIN" accuracy --emulate --formats tf32,f32 --k 256 --size 256 >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^tf32: ptx/11_formats.ptx not found$' "$out" &&
	grep -Eq '^f32 +[0-9.]+e-[0-9]+$' "$out" && grep -Eq '^tf32 +-$' "$out"; then
	echo "ok accuracy_missing_kernel_one_line"
else
	echo "not ok accuracy_missing_kernel_one_line (rc $rc):"; cat "$out" "$err"
fi
rm -rf "$tree"

# The plot: a point per K and the legend.
"$BIN" accuracy --emulate --formats f32 --k 256,1024 --size 256 --plot >"$out" 2>"$err"
# (the chart's rows are the lines with a '|' that are not the table's heading: two points in all)
if [ $? -eq 0 ] && grep -q '^ *\* f32$' "$out" && ! grep -q 'several' "$out" && [ "$(grep '^ *[0-9e-]* |' "$out" | tr -cd '*' | wc -c)" -eq 2 ]; then
	echo "ok accuracy_plot"
else
	echo "not ok accuracy_plot:"; cat "$out" "$err"
fi

# Bad options: one line on stderr, nothing on stdout, exit 2.
bad() {
	name=$1
	shift
	"$BIN" accuracy "$@" >"$out" 2>"$err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q '^ptxtutor accuracy: ' "$err"; then
		echo "ok accuracy_bad_$name"
	else
		echo "not ok accuracy_bad_$name (rc $rc):"; cat "$out" "$err"
	fi
}
bad k_zero --k 0
bad k_text --k 256,x
bad size --size 0,256
bad size_three --size 256,256,256
bad dist --dist cauchy
bad format --formats f64
bad json_plot --json --plot
bad positional 3
bad unknown_option --frobnicate
bad too_large --emulate --size 65536 --k 16384

# Ctrl-C (SIGINT to the command, as a terminal sends it) stops the child and says so: exit 130.
# SIGINT only once the handler is installed (/proc's SigCgt says so), as a person would press it:
# under load the process may not have got that far after a fixed sleep, and the default action
# (killed, no message) would fail the test for the wrong reason.
ms() { date +%s%3N; }
int_when_caught() { # PID: SIGINT once PID catches it (at most 20 s of waiting)
	end=$(($(ms) + 20000))
	while [ "$(ms)" -lt "$end" ] && [ -d "/proc/$1" ]; do
		d=$(awk '/^SigCgt/ {print substr($2, length($2))}' "/proc/$1/status" 2>/dev/null)
		case "$d" in [2367abef]) break ;; esac
		sleep 0.05
	done
	kill -INT "$1"
}
"$BIN" accuracy --emulate --k 16384,1024 --size 1024 >"$out" 2>"$err" &
pid=$!
sleep 1
int_when_caught $pid # in the reference (about 10 s at this size)
start=$(ms)
wait $pid
rc=$?
if [ $rc -eq 130 ] && [ $(($(ms) - start)) -le 2000 ] && grep -q '^ptxtutor accuracy: cancelled$' "$err" &&
	[ ! -s "$out" ]; then
	echo "ok accuracy_interrupt_reference"
else
	echo "not ok accuracy_interrupt_reference (rc $rc):"; cat "$out" "$err"
fi
"$BIN" accuracy --emulate --k 16384 --size 256 >"$out" 2>"$err" &
pid=$!
# SIGINT in the f32 kernel's emulation, in its child: once the child is there (after about a second of
# the reference), not after a fixed sleep, which under load could still land in the reference.
end=$(($(ms) + 20000)) kid=
while [ "$(ms)" -lt "$end" ] && [ -d "/proc/$pid" ] && [ -z "$kid" ]; do
	kid=$(ps -o pid= --ppid "$pid" 2>/dev/null)
	[ -n "$kid" ] || sleep 0.05
done
int_when_caught $pid
wait $pid
rc=$?
if [ -n "$kid" ] && [ $rc -eq 130 ] && grep -q '^ptxtutor accuracy: cancelled$' "$err" && [ ! -s "$out" ]; then
	echo "ok accuracy_interrupt_run"
else
	echo "not ok accuracy_interrupt_run (rc $rc, child ${kid:-never seen}):"; cat "$out" "$err"
fi
