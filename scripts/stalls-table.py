#!/usr/bin/env python3
"""stalls-table.py: the stall model's tables of docs/model.md ("Stall reasons"), made, not typed.

    python3 scripts/stalls-table.py [--bin ./ptxtutor]

For every lesson 1-11 (measured: the `ms` row at 4096 of assets/measured-h100.tsv) and every held-out
kernel (tests/heldout/kernels.tsv, measured in tests/heldout/measured-h100.tsv), `ptxtutor emulate ...
--stalls --json` at 4096^3 with the latencies of assets/measured-h100.tsv, printed as two Markdown
tables: the model's time and its error against the measured one, warp cycles per issued instruction,
issue active, the largest reasons and the three hottest lines. Run from the project root (the CPU only).
"""
import argparse
import csv
import json
import subprocess
import sys

from importlib import util as _u

_spec = _u.spec_from_file_location("estimate_table", "scripts/estimate-table.py")
_est = _u.module_from_spec(_spec)
_spec.loader.exec_module(_est)


def stalls(cmd):
    p = subprocess.run(cmd + ["--stalls", "--json"], capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except ValueError:
        sys.exit(f"stalls-table.py: {' '.join(cmd)}: no JSON: {p.stdout[:200]} {p.stderr[:200]}")


def reasons(d):
    tot = d["total"]
    s = sum(tot.values()) or 1
    top = sorted(tot.items(), key=lambda kv: -kv[1])[:3]
    return ", ".join(f"{k.replace('_', ' ')} {100 * v / s:.0f}%" for k, v in top)


def hottest(d):
    lines = sorted(d["lines"], key=lambda l: -l["cycles"])[:3]
    return "; ".join(f"{l['line']} {l['top'].replace('_', ' ')}" for l in lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="./ptxtutor")
    a = ap.parse_args()
    print("| lesson | model ms | measured ms (model's error) | warp cycles / issue | issue active | largest reasons | hottest three lines (top reason) | model s |")
    print("|---|---|---|---|---|---|---|---|")
    for n in range(1, 12):
        ms, _date = _est.measured("assets/measured-h100.tsv", str(n))
        d = stalls([a.bin, "emulate", str(n), "--size", "4096"])
        err = f"{ms:.4g} ({100 * (d['ms'] / ms - 1):+.0f}%)" if ms else "–"
        print(f"| {n} | {d['ms']:.3g} | {err} | {d['warp_cycles_per_issue']:.2f} | {100 * d['issue_active']:.0f}% | "
              f"{reasons(d)} | {hottest(d)} | {d['model_seconds']:.2f} |")
    print()
    print("| kernel | model ms | measured ms (model's error) | top reason | warp cycles / issue | issue active | blocks an SM | model s |")
    print("|---|---|---|---|---|---|---|---|")
    for r in csv.reader(open("tests/heldout/kernels.tsv"), delimiter="\t"):
        if not r or r[0].startswith("#"):
            continue
        name, ptx, entry, grid, block, args, dtype, out, smem = r[:9]
        ms, _date = _est.measured("tests/heldout/measured-h100.tsv", name)
        d = stalls([a.bin, "emulate", "--ptx", f"tests/heldout/{ptx}", "--entry", entry, "--grid", grid, "--block",
                    block, "--args", args, "--dtype", dtype, "--out", out] + ([] if smem == "-" else ["--smem", smem]) +
                   ["--size", "4096"])
        err = f"{ms:.4g} ({100 * (d['ms'] / ms - 1):+.0f}%)" if ms else "–"
        print(f"| {name} | {d['ms']:.3g} | {err} | {d['top'].replace('_', ' ')} | {d['warp_cycles_per_issue']:.1f} | "
              f"{100 * d['issue_active']:.0f}% | {d['blocks_per_sm']} | {d['model_seconds']:.2f} |")


main()
