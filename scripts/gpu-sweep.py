#!/usr/bin/env python3
"""Kernel variants against a reference, on the GPU machine, alternating, median of rounds (issue 43).

    python3 scripts/gpu-sweep.py [--sizes 4096,8192] [--rounds 3] [--only NAME,...] [--table FILE]

Reads the rows of --table (default scripts/sweep-43.tsv): NAME, REFERENCE (default | best |
best-promoting), GENERATOR (a script of ptx/gen/ with its flags, or - for a lesson's own kernel) and
RUN (the flags of `ptxtutor run --ptx FILE`, or the lesson's number when GENERATOR is -). Each round
runs every row once at each size (`ptxtutor run ... --reference R --size S --json`: steady timing,
ours and the reference alternating, verified); rounds repeat the whole list, so a clock that drifts
moves every row alike. Prints each run's line as it goes and the table last: per size and row, the
median over rounds of ms, of % of the reference, of the SM clock held, and the reference's kernel.
Run from the repository root with the build staged (scripts/stage-gpu.sh). Exits 1 when a row does
not verify (it is reported and left out), 2 on bad usage.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rows(path, only):
    out = []
    for n, line in enumerate(open(path), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != 4:
            sys.exit(f"{path}:{n}: four tab-separated fields expected (NAME REFERENCE GENERATOR RUN)")
        if not only or f[0] in only:
            out.append(f)
    return out


def make_ptx(name, gen, work):
    path = os.path.join(work, name + ".ptx")
    argv = shlex.split(gen)
    with open(path, "w") as f:
        p = subprocess.run([sys.executable, os.path.join(ROOT, "ptx/gen", argv[0])] + argv[1:], stdout=f,
                           stderr=subprocess.PIPE, text=True)
    if p.returncode:
        sys.exit(f"{name}: ptx/gen/{gen}: {p.stderr.strip()}")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--table", default=os.path.join(ROOT, "scripts/sweep-43.tsv"))
    ap.add_argument("--bin", default=os.environ.get("PTXTUTOR_BIN", "./ptxtutor"))
    a = ap.parse_args()
    table = rows(a.table, set(x for x in a.only.split(",") if x))
    if not table:
        sys.exit("gpu-sweep: no rows")
    work = os.path.join(ROOT, ".sweep")
    os.makedirs(work, exist_ok=True)
    ptx = {r[0]: make_ptx(r[0], r[2], work) for r in table if r[2] != "-"}
    sizes = [int(s) for s in a.sizes.split(",")]
    got, bad = {}, 0
    for rnd in range(a.rounds):
        for size in sizes:
            for name, ref, gen, run in table:
                cmd = [a.bin, "run"] + (shlex.split(run) if gen == "-" else ["--ptx", ptx[name]] + shlex.split(run))
                cmd += ["--reference", ref, "--size", str(size), "--json"]
                p = subprocess.run(cmd, capture_output=True, text=True)
                try:
                    j = json.loads(p.stdout)
                except ValueError:
                    j = {}
                if j.get("verified") is not True:
                    bad += 1
                    print(f"{name} {size}: NOT VERIFIED: {(j.get('message') or p.stderr or p.stdout).strip()[-300:]}",
                          flush=True)
                    continue
                pct, mhz = j.get("pct_of_cublas"), j.get("sm_mhz")
                got.setdefault((size, name), []).append((j["ms"], pct, mhz, j.get("pct_of_peak"), j.get("reference")))
                print(f"round {rnd + 1} {size} {name}: {j['ms']:.4f} ms {j['gflops'] / 1e3:.1f} TFLOP/s "
                      f"{pct:.1f}% of {j.get('reference')} at {mhz} MHz", flush=True)
    print("\n%-28s %6s %9s %8s %6s %7s  %s" % ("variant", "size", "ms", "% ref", "MHz", "% peak", "reference"))
    for size in sizes:
        for name, ref, _, _ in table:
            v = got.get((size, name))
            if not v:
                print("%-28s %6d  not verified" % (name, size))
                continue
            med = lambda i: statistics.median(x[i] for x in v if x[i] is not None) if any(
                x[i] is not None for x in v) else float("nan")
            print("%-28s %6d %9.4f %7.1f%% %6.0f %6.1f%%  %s (%d runs)" % (
                name, size, med(0), med(1), med(2), med(3), (v[-1][4] or "")[:60], len(v)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
