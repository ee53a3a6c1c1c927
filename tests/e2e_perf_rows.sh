#!/bin/sh
# e2e_perf_rows: the scripts that turn GPU measurements into rows of assets/measured-h100.tsv, run here on
# made-up inputs: scripts/perf-27.py --rows (which runs become variant_* rows, and how they are named) and
# scripts/ncu_stalls.py (Nsight Compute's samples summed by part of the loop). And every variant_* row of
# lesson 7 still names options ptx/gen/07_warptile.py accepts, whose PTX the emulator verifies: a row
# whose variant can no longer be built would quote a kernel nobody can run.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${PTXTUTOR_BIN:-$ROOT/ptxtutor}
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip perf rows: no python3"
	exit 0
fi
cd "$ROOT" || exit 1
python3 - "$BIN" <<'PY'
import importlib.util, os, subprocess, sys, tempfile

def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m

def report(ok, name, why=""):
    print(("ok " if ok else "not ok ") + name + ("" if ok else "\n    | " + why))

work = tempfile.mkdtemp()
perf = load("perf27", "scripts/perf-27.py")
run = lambda variant, n, pct, status="ok", verified=True: {
    "variant": variant, "options": "--stages 2", "lesson": "7", "status": status, "verified": verified,
    "gpu": "GPU X", "M": n, "pct_of_cublas": pct}
out = os.path.join(work, "rows.tsv")
perf.write_rows([run("variant_two", 4096, 99.54), run("variant_two", 8192, 100.26), run("now", 4096, 101.8),
                 run("variant_bad", 4096, 50.0, verified=False), run("variant_fail", 4096, 0, status="no json")],
                out, "580.1", "2026-01-02")
rows = [l.rstrip("\n").split("\t") for l in open(out)]
got = [(r[0], r[1], r[2], r[4], r[5], r[6], r[7], r[8]) for r in rows]
want = [("GPU X", "580.1", "2026-01-02", "7", "4096", "variant_two_pct_cublas", "99.5", "%"),
        ("GPU X", "580.1", "2026-01-02", "7", "8192", "variant_two_pct_cublas_8192", "100.3", "%")]
report(got == want and all(r[3].endswith(": --stages 2") for r in rows),
       "perf-27.py --rows: verified variant_* runs only, named per size, the options in the command", f"{got}")

stalls = load("ncu_stalls", "scripts/ncu_stalls.py")
cols = ["Address", "Source", "Warp Stall Sampling (All Samples)", "Instructions Executed", "stall_short_sb",
        "stall_barrier", "stall_short_sb (Not Issued)"]
body = [("0x0", "S2R", 10, 1, 0, 0, 5), ("0x10", "LDS", 20, 100, 10, 0, 0), ("0x20", "FFMA", 30, 100, 20, 0, 0),
        ("0x30", "BAR", 30, 95, 0, 30, 0), ("0x40", "BRA", 5, 100, 0, 0, 0), ("0x50", "EXIT", 5, 1, 0, 0, 0)]
csv = os.path.join(work, "src.csv")
with open(csv, "w") as f:
    f.write('"Kernel Name","k",\n' + ",".join(f'"{c}"' for c in cols) + "\n")
    for r in body:
        f.write(",".join(f'"{v}"' for v in r) + "\n")
p = stalls.parts(csv, 2)
exp = {"before": {"short_sb": 0.0, "barrier": 0.0}, "loop head": {"short_sb": 0.3, "barrier": 0.0},
       "loop rest": {"short_sb": 0.0, "barrier": 0.3}, "after": {"short_sb": 0.0, "barrier": 0.0}}
ok = all(abs(p[k][s] - v) < 1e-9 for k in exp for s, v in exp[k].items())
one = subprocess.run([sys.executable, "scripts/ncu_stalls.py", csv, "--head", "2", "--stall", "short_sb"],
                     capture_output=True, text=True).stdout.strip()
report(ok and one == "30.0", "ncu_stalls.py: samples by part of the loop, shares of the kernel's",
       f"{p} / {one!r}")

binary = sys.argv[1]
if not os.access(binary, os.X_OK):
    print("skip perf rows variants: ptxtutor is not built")
    sys.exit(0)
bad, n = [], 0
for line in open("assets/measured-h100.tsv"):
    f = line.rstrip("\n").split("\t")
    if len(f) < 9 or f[4] != "7" or not f[6].startswith("variant_") or "perf-27.py" not in f[3]:
        continue
    n += 1
    opts = f[3].split("): ", 1)[1].split() if "): " in f[3] else []
    g = subprocess.run([sys.executable, "ptx/gen/07_warptile.py"] + opts, capture_output=True, text=True)
    if g.returncode:
        bad.append(f"{f[6]}: the generator refuses {' '.join(opts)}: {g.stderr.strip().splitlines()[-1]}")
        continue
    ptx = os.path.join(work, f[6] + ".ptx")
    open(ptx, "w").write(g.stdout)
    smem = int(g.stdout.split("Dynamic shared memory, ")[1].split()[0])
    threads = g.stdout.split("Block: ")[1].split()[0]
    r = subprocess.run([binary, "run", "--ptx", ptx, "--entry", "sgemm_warptile", "--grid", "N/128,M/128",
                        "--block", threads, "--smem", str(smem), "--size", "128,128,64", "--emulate"],
                       capture_output=True, text=True)
    if "VERIFIED" not in r.stdout:
        bad.append(f"{f[6]}: {' '.join(opts)} does not verify: {(r.stdout + r.stderr).strip()[-200:]}")
report(n > 0 and not bad, f"lesson 7's {n} variant rows name options that build and verify", "; ".join(bad) or "no rows")
PY
