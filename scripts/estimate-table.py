#!/usr/bin/env python3
"""estimate-table.py: the time estimate's error table of docs/model.md and docs/benchmarks.md, made, not typed.

    python3 scripts/estimate-table.py [--bin ./ptxtutor]

For every lesson 1-11 (measured: the `ms` row at 4096 of assets/measured-h100.tsv) and every held-out kernel
(tests/heldout/kernels.tsv, measured in tests/heldout/measured-h100.tsv), `ptxtutor emulate ... --estimate
--json` at 4096^3, printed as one Markdown table: the terms in ms, the SM pipes combined three ways (the
largest alone: full overlap; the root of their squares: the old rule; their sum: no overlap), the stall
model's SM at the power model's clock (the latency term), that clock, the estimate, what sets it, the
measured time, the date of that row and the estimate's error; a kernel the estimate refuses says why
("not modelled: ..."). Run from the project root (the CPU only: the emulator samples a few blocks of each
kernel, twice: once counted, once traced for the stall model). The last column is the whole command's
time on this machine.
"""
import argparse
import csv
import json
import math
import subprocess
import sys
import time

SM = ("issue", "int", "lsu", "mma")


def measured(path, key):
    for r in csv.reader(open(path), delimiter="\t"):
        if r and not r[0].startswith("#") and len(r) == 9 and r[4] == key and r[5] == "4096" and r[6] == "ms":
            return float(r[7]), r[2]
    return None, None


def row(name, cmd, ms, date):
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t0
    try:
        d = json.loads(p.stdout)
    except ValueError:
        why = (p.stderr.strip() or p.stdout.strip()).split(": ", 1)[-1]
        if p.returncode == 2 and why.startswith("no estimate"):
            return f"| {name} | {' | '.join(['–'] * 9)} | not modelled: {why} | {ms:.4g} ({date}) | – | {secs:.1f} |"
        sys.exit(f"estimate-table.py: {name}: no JSON: {p.stdout[:200]} {p.stderr[:200]}")
    t = d["terms_ms"]
    sm = [t[k] for k in SM]
    f = lambda v: f"{v:.3g}" if v else "–"
    # a kernel not yet timed on the GPU: its estimate without a measurement
    meas = f"{ms:.4g} ({date}) | {100 * (d['ms'] / ms - 1):+.0f}%" if ms else "– | –"
    clock = f"{d['clock_mhz']:.0f}{' (cap)' if d['clock_capped'] else ''}" if "clock_mhz" in d else "–"
    return (f"| {name} | {f(t['issue'])} | {f(t['int'])} | {f(t['lsu'])} | {f(t['mma'])} | {f(t['wgmma'])} | "
            f"{f(t['l2'])} | {f(max(sm))} / {f(d['sm_ms'])} / {f(sum(sm))} | {f(t['latency'])} | {clock} | "
            f"**{d['ms']:.3g}** | {d['limit']} | {meas} | {secs:.1f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="./ptxtutor")
    a = ap.parse_args()
    print("| kernel | issue | int | L1 | mma | wgmma | L2 | SM pipes: max / root / sum | stall model's SM | MHz "
          "| estimate | set by | measured ms (date) | error | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in range(1, 12):
        ms, date = measured("assets/measured-h100.tsv", str(n))
        print(row(f"lesson {n}", [a.bin, "emulate", str(n), "--estimate", "--json"], ms, date))
    for r in csv.reader(open("tests/heldout/kernels.tsv"), delimiter="\t"):
        if not r or r[0].startswith("#"):
            continue
        name, ptx, entry, grid, block, args, dtype, out, smem = r[:9]
        ms, date = measured("tests/heldout/measured-h100.tsv", name)
        cmd = [a.bin, "emulate", "--ptx", f"tests/heldout/{ptx}", "--entry", entry, "--grid", grid, "--block", block,
               "--args", args, "--dtype", dtype, "--out", out] + ([] if smem == "-" else ["--smem", smem]) + \
              ["--size", "4096", "--estimate", "--json"]
        print(row(f"held out: {name}", cmd, ms, date))


if __name__ == "__main__":
    main()
