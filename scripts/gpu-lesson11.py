#!/usr/bin/env python3
"""Lesson 11 on the GPU machine, in one call.

    python3 scripts/gpu-lesson11.py [--out DIR] [--rounds 3]

Each round, at 4096 and 8192: every variant of ptx/gen/11_fp8.py below, run with
`ptxtutor run --ptx` (verified against cuBLASLt FP8 with the same types, e4m3 in, bf16 out,
the same scales and fast accumulation, a block of each in turn), then `ptxtutor bench 10 11`.
Rounds alternate, so a drifting clock shifts every kernel alike. The table printed last has
the median of the rounds: TFLOP/s, % of cuBLASLt and each variant as % of the lesson's kernel.
JSON of every run is kept in DIR (default /tmp/l11) for scripts/bench-rows.py.
Run from the repository root with the build staged (scripts/stage-gpu.sh).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

VARIANTS = [  # name, generator flags
    ("final", ""),
    ("bn128s4", "--bn 128 --stages 4"),
    ("bn128s6", "--bn 128 --stages 6"),
    ("c1", "--cluster 1"),
    ("nomc", "--multicast 0"),
    ("rows", "--group 0"),
]


def launch_of(ptx):
    """The launch a generated file asks for, from its header."""
    text = open(ptx).read()
    smem = re.search(r"alignment: (\d+) bytes\.", text).group(1)
    args = re.search(r"^// Args: (.*)$", text, re.M).group(1)
    cl = re.search(r"\.reqnctapercluster (\d+)", text)
    return smem, args, cl.group(1) if cl else "1"


def run_json(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        print(" ".join(cmd), "->", p.returncode, p.stdout[-400:], p.stderr[-400:], file=sys.stderr)
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/tmp/l11")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    B = os.environ.get("PTXTUTOR_BIN", "./ptxtutor")
    for name, flags in VARIANTS:
        with open(f"{a.out}/{name}.ptx", "w") as f:
            subprocess.run([sys.executable, "ptx/gen/11_fp8.py"] + flags.split(), stdout=f, check=True)
    res = {}  # (name, size) -> [(ms, pct)]
    for r in range(a.rounds):
        for n in (4096, 8192):
            for name, _ in VARIANTS:
                ptx = f"{a.out}/{name}.ptx"
                smem, args, cl = launch_of(ptx)
                j = run_json([B, "run", "--ptx", ptx, "--entry", "gemm_e4m3", "--grid", "persistent", "--block", "384",
                              "--smem", smem, "--cluster", cl, "--dtype", "e4m3", "--out", "bf16", "--bmajor", "k",
                              "--args", args, "--size", str(n), "--json"])
                if j and j.get("verified") is True:
                    res.setdefault((name, n), []).append((j["ms"], j["cublas_ms"]))
                else:
                    print(f"round {r} {name} {n}: not verified: {j and j.get('message')}", file=sys.stderr)
            j = run_json([B, "bench", "10", "11", "--size", str(n), "--json"])
            if j:
                json.dump(j, open(f"{a.out}/bench_{n}_r{r}.json", "w"), indent=1)
                for x in j["results"]:
                    if x["run"].get("verified") is True:
                        res.setdefault((f"bench{x['lesson']}", n), []).append((x["run"]["ms"], x["run"]["cublas_ms"]))
    print(f"{'kernel':10} {'size':>5} {'ms':>8} {'TFLOP/s':>8} {'ref ms':>8} {'% ref':>6} {'% final':>7} rounds")
    for n in (4096, 8192):
        fin = statistics.median(m for m, _ in res.get(("final", n), [(float('nan'), 0)]))
        for name in [v[0] for v in VARIANTS] + ["bench10", "bench11"]:
            runs = res.get((name, n))
            if not runs:
                print(f"{name:10} {n:5} (no verified run)")
                continue
            ms = statistics.median(m for m, _ in runs)
            ref = statistics.median(c for _, c in runs)
            tf = 2 * n ** 3 / ms / 1e9
            print(f"{name:10} {n:5} {ms:8.4f} {tf:8.1f} {ref:8.4f} {100 * ref / ms:6.1f} {100 * fin / ms:7.1f} {len(runs)}")


if __name__ == "__main__":
    main()
