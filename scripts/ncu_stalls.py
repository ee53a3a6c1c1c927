#!/usr/bin/env python3
"""Where a kernel's warps wait, by part of the SASS: Nsight Compute's warp-state samples of each
instruction (the source page of a report made with --set full), summed over the instructions before
the main loop, the loop's head (its first HEAD instructions), the rest of the loop and the code after
it. The loop is the run of instructions executed most often (at least 90% of the most). Shares are of
all the kernel's samples. Used for lesson 7's three stages (docs/notes/perf-27.md):

    ncu --set full -k sgemm_warptile -c 1 -o rep ./ptxtutor run 7 --size 4096 --lineinfo
    ncu -i rep.ncu-rep --page source --csv --print-source sass > rep.csv
    python3 scripts/ncu_stalls.py rep.csv [--head 32] [--stall short_sb]

prints a table of the largest stall reasons per part; with --stall, only that reason's share of the
loop head (a number, for assets/measured-h100.tsv)."""
import argparse
import csv


def parts(path, head):
    rows = list(csv.reader(open(path)))
    h = next(r for r in rows if "Address" in r and "Source" in r)
    data = rows[rows.index(h) + 1:]
    ix = {k: i for i, k in enumerate(h)}
    num = lambda r, k: int(float(r[ix[k]] or 0)) if ix[k] < len(r) else 0
    stalls = [k for k in h if k.startswith("stall_") and "(" not in k]
    ex = [num(r, "Instructions Executed") for r in data]
    loop = [i for i, e in enumerate(ex) if e >= 0.9 * max(ex)]
    lo, hi = loop[0], loop[-1] + 1
    cuts = {"before": (0, lo), "loop head": (lo, lo + head), "loop rest": (lo + head, hi), "after": (hi, len(data))}
    total = sum(num(r, "Warp Stall Sampling (All Samples)") for r in data)
    out = {}
    for name, (a, b) in cuts.items():
        out[name] = {k[len("stall_"):]: sum(num(r, k) for r in data[a:b]) / total for k in stalls}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--head", type=int, default=32)
    ap.add_argument("--stall", default="")
    a = ap.parse_args()
    p = parts(a.csv, a.head)
    if a.stall:
        print(f"{100 * p['loop head'][a.stall]:.1f}")
        return
    for name, s in p.items():
        top = sorted(((v, k) for k, v in s.items() if v >= 0.001), reverse=True)[:8]
        print(f"{name:10} {100 * sum(s.values()):5.1f}%  " + ", ".join(f"{k} {100 * v:.1f}%" for v, k in top))


if __name__ == "__main__":
    main()
