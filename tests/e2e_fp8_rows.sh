#!/bin/sh
# e2e_fp8_rows: scripts/fp8-accum-rows.py, which turns a run of scripts/gpu-fp8-accum.sh into the rows of
# assets/measured-h100.tsv lesson 11 quotes, run here on a made-up run: which rows it writes, their names
# and values (the clock and power only from the samples inside a configuration's windows; the share of the
# tensor peak at that clock), that it replaces rows of the same names and keeps the rest, and that it
# writes nothing when a check line says FAIL or a TF32 run was not verified. Then every f8_/a8_/e8_/fmt_
# placeholder lesson 11 uses has its row in the shipped file.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip fp8 rows: no python3"
	exit 0
fi
cd "$ROOT" || exit 1
python3 - <<'PY'
import json, os, re, shutil, subprocess, sys, tempfile

def report(ok, name, why=""):
    print(("ok " if ok else "not ok ") + name + ("" if ok else "\n    | " + why))

w = tempfile.mkdtemp()
d = os.path.join(w, "run")
os.mkdir(d)
open(f"{d}/gpu.txt", "w").write("GPU X, 580.1, 700.00 W\n")
out = ["device GPU X, 2 SMs"]
t = 1000.0
names = ["final", "bn128", "promote", "l10", "lt_default", "lt_fast"]
for i, n in enumerate(names):  # each configuration one window of 1000 ms
    out.append(f"window {n} {t + 1000 * i:.1f} {t + 1000 * i + 1000:.1f}")
for n, ms in zip(names, [1.0, 1.1, 1.25, 2.0, 1.2, 1.15]):
    out.append(f"row speed {n} 4096 {ms:.4f} {2 * 4096**3 / ms / 1e9:.1f} {100 * 1.15 / ms:.1f} {100 * 1.2 / ms:.1f}")
for n in ["final", "bn128", "promote", "lt_fast_bf16", "lt_default_bf16", "lt_fast_f32", "lt_default_f32"]:
    for k in (1024, 16384):
        out.append(f"row err {n} {k} 2.0e-03 1.6e-03 1.2e-03")
out.append("check final      vs lt_default at 4096^3: rel diff 2.3e-03 ok")
open(f"{d}/out.txt", "w").write("\n".join(out) + "\n")
smi = []
for i in range(len(names)):  # 10 samples inside each window at 1000 + 100 i MHz, one outside
    smi += [f"{t + 1000 * i + 50 + 100 * j:.0f}, {1000 + 100 * i}, {600 + i}, 0x1" for j in range(10)]
smi.append("99999999, 1980, 50, 0x0")
open(f"{d}/smi.csv", "w").write("\n".join(smi) + "\n")
for n, ok in (("tf32", True), ("3xtf32", True)):
    json.dump({"M": 4096, "gflops": 1000.0, "pct_of_cublas": 50.0, "verified": ok}, open(f"{d}/{n}.json", "w"))
tsv = os.path.join(w, "m.tsv")
head = "# a comment\ngpu\tdriver\tdate\tcommand\tlesson\tsize\tmetric\tvalue\tunit\n"
keep = "G\td\t2026-01-01\tc\t11\t4096\tms\t0.1\tms\n"
old = "G\td\t2026-01-01\tc\t11\t4096\tf8_l11_gflops\t1\tGFLOP/s\n"
open(tsv, "w").write(head + keep + old)
p = subprocess.run([sys.executable, "scripts/fp8-accum-rows.py", d, "2026-01-02", "--tsv", tsv],
                   capture_output=True, text=True)
rows = {r.split("\t")[6]: r.split("\t") for r in open(tsv).read().splitlines()
        if r and not r.startswith("#") and not r.startswith("gpu\t")}
v = lambda m: float(rows[m][7]) if m in rows else None
ok = (p.returncode == 0 and "ms" in rows and v("f8_l11_gflops") == round(2 * 4096**3 / 1.0 / 1e9, 1) * 1000
      and v("f8_l11_mhz") == 1000 and v("f8_ltf_mhz") == 1500 and v("f8_l10_w") == 603
      and v("f8_prom_pb") == 88.0 and "f8_l10_pf" not in rows and v("f8_l11_pf") == 115.0
      and v("a8_ltf_k16384") == 2.0e-3 and v("a8_l11_k1024") == 1.2e-3 and v("e8_l11_k1024") == 2.0e-3
      and v("a8_out_k16384") == 1.6e-3 and "a8_ltf_bf16_k1024" not in rows and v("fmt_3xtf32_pct_ref") == 50.0
      and rows["f8_l11_gflops"][2] == "2026-01-02" and rows["f8_l11_gflops"][0] == "GPU X")
report(ok, "fp8-accum-rows.py: rows named and valued, clocks from the windows, old rows replaced",
       p.stdout + p.stderr + str({k: rows[k][7] for k in rows}))
# l10 on 2 SMs x 4096 FLOP/clk at 1300 MHz: 2 * 4096^3 / 2 ms = 68.7 TFLOP/s against a peak of 10.6 at
# that clock (a made-up GPU: the ratio's arithmetic is what is checked)
peak = 2 * 4096 * 1300e6 / 1e12
report(abs(v("f8_l10_pclk") - round(100 * round(2 * 4096**3 / 2.0 / 1e9, 1) / peak, 1)) < 1e-9,
       "fp8-accum-rows.py: the share of the tensor peak at the clock held", str(v("f8_l10_pclk")))
before = open(tsv).read()
open(f"{d}/out.txt", "a").write("check bn128      vs lt_default at 4096^3: rel diff 5.0e-01 FAIL\n")
p = subprocess.run([sys.executable, "scripts/fp8-accum-rows.py", d, "2026-01-03", "--tsv", tsv],
                   capture_output=True, text=True)
report(p.returncode != 0 and open(tsv).read() == before and "FAIL" in p.stderr + p.stdout,
       "fp8-accum-rows.py: a failed check writes nothing", p.stdout + p.stderr)
open(f"{d}/out.txt", "w").write("\n".join(out) + "\n")
json.dump({"M": 4096, "gflops": 1.0, "pct_of_cublas": 1.0, "verified": False, "message": "wrong"},
          open(f"{d}/tf32.json", "w"))
p = subprocess.run([sys.executable, "scripts/fp8-accum-rows.py", d, "2026-01-03", "--tsv", tsv],
                   capture_output=True, text=True)
report(p.returncode != 0 and open(tsv).read() == before, "fp8-accum-rows.py: an unverified TF32 run writes nothing",
       p.stdout + p.stderr)
shutil.rmtree(w)
# every such placeholder of lesson 11 has its row
have = {r.split("\t")[6] for r in open("assets/measured-h100.tsv").read().splitlines()
        if r and not r.startswith("#") and not r.startswith("gpu\t") and r.split("\t")[4] == "11"}
used = set(re.findall(r"\{measured\.((?:f8|a8|e8|fmt)_[a-z0-9_]+)\}", open("lessons/11-formats.md").read()))
report(used and used <= have, "lesson 11's accumulation placeholders all have rows", str(sorted(used - have)))
PY
