#!/usr/bin/env python3
"""The stall model on build/gpu-lg-depth's kernels, beside what Nsight Compute measured on them.

For each shape of scripts/lg-depth-shapes.txt (W lines a load, N loads a burst, WARPS an SM, hit, miss or fill)
the model replays the same kernel (tests/stalls/lg-depth.ptx, `nvcc -ptx -O3 -arch=sm_90 -lineinfo
scripts/gpu-lg-depth.cu`) with the same launch (one block an SM, two past 32 warps; 256 rounds) at the clock ncu held, through `ptxtutor emulate
--ptx ... --stalls`, and prints its shares of LG throttle and long scoreboard and its SM cycles a round
beside the recorded ones (--from, default tests/stalls/lg-depth-h200.tsv; made by scripts/gpu-lg-depth.sh).
The last line sums it up: the mean distance of the two LG-throttle shares and the shapes where the larger
of the two reasons is the same. These kernels are the LG queue's calibration (docs/model.md item 4); no
lesson is among them. Exit 0, or 2 when a run fails or a shape has no recorded row.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.environ.get("PTXTUTOR_ROOT") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RING_MASK = 65535  # gpu-lg-depth.cu's RING_LINES - 1: MODE miss and fill
ROUNDS = 256


def recorded(path):
    """{(W, N, warps, mode): {column: value}} from a gpu-lg-depth.sh table (comment lines skipped)."""
    rows, head = {}, None
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if head is None:
            head = f
            continue
        d = dict(zip(head, f))
        rows[(d["W"], d["N"], d["warps"], d["mode"])] = d
    return rows


def shapes(path):
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            yield tuple(line.split())


def model(binary, ptx, w, n, warps, mode, mhz):
    """The model's (LG throttle share, long scoreboard share, cycles a round) for one shape, or None."""
    per_sm = 2 if int(warps) > 32 else 1  # gpu-lg-depth's launch: past 32 warps, two blocks an SM
    cmd = [binary, "emulate", "--ptx", ptx, "--entry", "burst" + n, "--grid", str(132 * per_sm),
           "--block", str(int(warps) // per_sm * 32),
           "--args", "A s32:%s s32:%d s32:%d s32:%d C" % (w, ROUNDS, 0 if mode == "hit" else RING_MASK, mode == "miss"),
           "--size", "2048", "--stalls", "--json"] + (["--clock", "%g" % mhz] if mhz else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout.strip().startswith("{"):
        print("%s %s %s %s: the model did not run: %s" % (w, n, warps, mode, (p.stderr or p.stdout).strip()[-200:]))
        return None
    d = json.loads(p.stdout)
    tot = {}
    for line in d["lines"]:
        for k, v in line["stalls"].items():
            tot[k] = tot.get(k, 0) + v
    waits = sum(v for k, v in tot.items() if k != "selected") or 1
    return tot.get("lg_throttle", 0) / waits, tot.get("long_scoreboard", 0) / waits, d["cycles"] / ROUNDS


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--from", dest="source", default=os.path.join(ROOT, "tests/stalls/lg-depth-h200.tsv"))
    ap.add_argument("--shapes", default=os.path.join(ROOT, "scripts/lg-depth-shapes.txt"))
    ap.add_argument("--ptx", default=os.path.join(ROOT, "tests/stalls/lg-depth.ptx"))
    ap.add_argument("--bin", default=os.environ.get("PTXTUTOR_BIN", os.path.join(ROOT, "ptxtutor")))
    ap.add_argument("--only", type=int, default=0, help="the first ONLY shapes (0: all)")
    a = ap.parse_args()
    rec = recorded(a.source)
    print("%-3s %-3s %-5s %-5s | %-21s | %-21s" % ("W", "N", "warps", "mode", "ncu: lg   long  cycles", "model: lg long cycles"))
    dist, same, n, failed = 0.0, 0, 0, 0
    for i, (w, nl, warps, mode) in enumerate(shapes(a.shapes)):
        if a.only and i >= a.only:
            break
        r = rec.get((w, nl, warps, mode))
        if r is None:
            print("%s %s %s %s: nothing recorded in %s" % (w, nl, warps, mode, a.source))
            failed += 1
            continue
        m = model(a.bin, a.ptx, w, nl, warps, mode, float(r["sm_mhz"]) if r.get("sm_mhz") else None)
        if m is None:
            failed += 1
            continue
        lg, long_sb = float(r["lg_throttle"]), float(r["long_sb"])
        print("%-3s %-3s %-5s %-5s | %.2f  %.2f  %7.0f | %.2f  %.2f  %7.0f" % (
            w, nl, warps, mode, lg, long_sb, float(r["cycles_a_round"]), m[0], m[1], m[2]))
        dist += abs(lg - m[0])
        same += (lg > long_sb) == (m[0] > m[1])
        n += 1
    if n:
        print("LG throttle: mean distance %.3f; the larger of LG throttle and long scoreboard the same in %d of %d shapes"
              % (dist / n, same, n))
    sys.exit(2 if failed else 0)


if __name__ == "__main__":
    main()
