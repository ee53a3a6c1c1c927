#!/bin/sh
# e2e_regbanks: scripts/gpu-regbanks.py's register-bank model against the measured data. Its patterns,
# on abstract registers, must come within 0.05 cycles of the regbank_* rows of assets/measured-h100.tsv
# (measured on the GPU by the same script), and the model of lesson 7's recorded SASS within 0.05 of
# its measured replay, so a kernel re-recorded without a new measurement fails here. With ptxas, the
# script's decoder must read ptxas's cubin of ptx/07 as the recorded nvdisasm listing shows it.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip regbanks: no python3"
	exit 0
fi
cd "$ROOT" || exit 1
python3 - <<'PY'
import importlib.util, os, re, shutil, subprocess, sys, tempfile
spec = importlib.util.spec_from_file_location("rb", "scripts/gpu-regbanks.py")
rb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rb)
rows = {}
for line in open("assets/measured-h100.tsv"):
    f = line.rstrip("\n").split("\t")
    if len(f) >= 9 and f[6].startswith("regbank_"):
        rows[f[6][len("regbank_"):]] = float(f[7])
class Abstract:  # 64 sources and 64 accumulators, every number mod 4 alike often
    src, acc = list(range(0, 64)), list(range(64, 128))
bad = []
for name, what, pat in rb.PATTERNS:
    m = rb.model([e[:4] for e in rb.pattern_seq(Abstract, pat)])
    if name not in rows:
        bad.append(f"{name}: no measured row")
    elif abs(m - rows[name]) > 0.05:
        bad.append(f"{name}: model {m:.3f}, measured {rows[name]:.3f}")
print(("not ok" if bad else "ok") + f" the model matches the {len(rb.PATTERNS)} measured patterns" + "".join("\n    | " + b for b in bad))
st = [(a, b, c, ru) for _, a, b, c, ru in rb.listing("assets/sass/07.sass")]
m = rb.model_mean(st)
meas = rows.get("stream_l7_now")
ok = meas is not None and abs(m - meas) <= 0.05
print(("ok" if ok else "not ok") + f" lesson 7's recorded SASS: model {m:.3f} cycles an FFMA, measured {meas}")
# the stall model's copy of the model (src/model/regbanks.c, `--stalls --json`'s fma_cycles) on each
# recorded lesson's FFMAs, as the script replays them
import json
bin_ = os.environ.get("PTXTUTOR_BIN", "./ptxtutor")
bad = []
for n in (3, 4, 5, 6, 7):
    py = rb.model_mean([(a, b, c, ru) for _, a, b, c, ru in rb.listing("assets/sass/%02d.sass" % n)])
    p = subprocess.run([bin_, "emulate", str(n), "--size", "128", "--stalls", "--json"], capture_output=True, text=True)
    try:
        c = json.loads(p.stdout)["fma_cycles"]
    except (ValueError, KeyError):
        c = None
    if c is None or abs(c - py) > 1e-6:
        bad.append(f"lesson {n}: stall model {c}, gpu-regbanks.py {py:.6f}")
print(("not ok" if bad else "ok") + " the stall model's FFMA cost is the script's model, lessons 3-7" + "".join("\n    | " + b for b in bad))
ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
rec = open("assets/sass/07.sass").read()
want = re.search(r"compiler: ptxas (\S+)", rec).group(1)
have = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout if ptxas else ""
if not ptxas:
    print("skip regbanks decoder: no ptxas")
elif want not in have:
    print(f"skip regbanks decoder: ptxas here is not {want}, the recording's")
else:
    work = tempfile.mkdtemp()
    try:
        subprocess.run([ptxas, "-arch=sm_90", "-lineinfo", "-o", work + "/k.cubin", "ptx/07_warptile.ptx"], check=True)
        cub = open(work + "/k.cubin", "rb").read()
    finally:
        shutil.rmtree(work)
    base, size = rb.text_section(cub, ".text.sgemm_warptile")
    got = []
    for off in range(base, base + size, 16):
        lo, hi = rb.struct.unpack_from("<QQ", cub, off)
        op, d, a, b, c, ru = rb.ffma_fields(lo, hi)
        if op == 0x223:
            got.append((d, a, b, c, ru & 7))
    exp = [(d, a, b, c, ru) for d, a, b, c, ru in rb.listing("assets/sass/07.sass")]
    print(("ok" if got == exp and got else "not ok") + f" the decoder reads the {len(got)} FFMAs of ptx/07 as nvdisasm does")
PY
