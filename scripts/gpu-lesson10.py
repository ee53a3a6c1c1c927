#!/usr/bin/env python3
"""Lesson 10's measurements, on the GPU machine, in one session.

    python3 scripts/gpu-lesson10.py [--sizes 4096,8192] [--rounds 3] [--peer CMD]

Each round, at each size: `ptxtutor bench 9 10` (lessons 9 and 10 against
cuBLAS GemmEx with each lesson's own types), every variant of
ptx/gen/10_cluster.py that the lesson's last page quotes (`ptxtutor run
--ptx`, verified), and --peer CMD SIZE when given (another kernel timed in
the same session, right after bench; it prints lines `PEER NAME MS`, one per
kernel). Rounds
alternate, so a clock that drifts shifts every kernel alike; the table at
the end has the median of the rounds' medians and each variant as % of the
lesson's kernel, then the rows for assets/measured-h100.tsv.

Run from the repository root with the build staged (scripts/stage-gpu.sh).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

GEN = "ptx/gen/10_cluster.py"
ARGS_TMA = "tmap:A:64:128:128B tmap:B:64:64:128B tmap:C:64:64:128B M N K"
ARGS_PTR = "tmap:A:64:128:128B tmap:B:64:64:128B C M N K"
STAGE = 128 * 64 * 2 + 64 * 256 * 2

# name, generator flags, output type, cluster, stages, TMA epilogue, what it is
VARIANTS = [
    ("f32", "--cluster 1 --epilogue direct --out f32 --stages 4", "f32", 1, 4, False,
     "lesson 9's kernel with bf16 inputs, f32 out"),
    ("direct", "--cluster 1 --epilogue direct --out bf16 --stages 4", "bf16", 1, 4, False,
     "the same storing bf16 from registers"),
    ("c1", "--cluster 1", "bf16", 1, 3, True, "overlapped TMA epilogue, no clusters"),
    ("nomc", "--cluster 2 --multicast 0", "bf16", 2, 3, True, "clusters of 2, no multicast"),
    ("rows", "--group 0", "bf16", 2, 3, True, "everything, tiles row by row"),
    ("final", "", "bf16", 2, 3, True, "the lesson's kernel (generator defaults)"),
]


def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True)


def run_variant(path, v, size):
    name, _, out, cl, stages, tma, _ = v
    smem = stages * STAGE + (128 * 256 * 2 if tma else 0) + 2 * stages * 8 + 1024
    cmd = (f"./ptxtutor run --ptx {path} --entry gemm_cluster --dtype bf16 --out {out} --cluster {cl} "
           f"--grid persistent --block 384 --smem {smem} --args '{ARGS_TMA if tma else ARGS_PTR}' "
           f"--size {size} --json")
    r = sh(cmd)
    try:
        j = json.loads(r.stdout)
    except ValueError:
        sys.exit(f"{name}: {cmd}\n{r.stdout}{r.stderr}")
    if j.get("verified") is not True:
        sys.exit(f"{name} at {size}: not verified: {j.get('message')}")
    return j["ms"]


def bench(size):
    r = sh(f"./ptxtutor bench 9 10 --size {size} --json")
    try:
        j = json.loads(r.stdout)
    except ValueError:
        sys.exit(f"bench: {r.stdout}{r.stderr}")
    return {x["lesson"]: x["run"] for x in j["results"]}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--peer", help="a command timing another kernel; called with the size")
    a = p.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    tmp = tempfile.mkdtemp()
    paths = {}
    for v in VARIANTS:
        paths[v[0]] = os.path.join(tmp, v[0] + ".ptx")
        r = sh(f"python3 {GEN} {v[1]} > {paths[v[0]]}")
        if r.returncode:
            sys.exit(r.stderr)
    t = {}          # (what, size) -> [ms per round]
    peers = []      # names the peer command reported
    for rnd in range(a.rounds):
        for s in sizes:
            b = bench(s)
            for n, x in b.items():
                t.setdefault((f"L{n}", s), []).append(x["ms"])
                t.setdefault((f"L{n} cuBLAS", s), []).append(x["cublas_ms"])
            # The peer right after bench, so the two meet the GPU in the same state.
            if a.peer:
                r = sh(f"{a.peer} {s}")
                for line in r.stdout.splitlines():
                    w = line.split()
                    if len(w) == 3 and w[0] == "PEER":
                        t.setdefault((w[1], s), []).append(float(w[2]))
                        peers += [w[1]] if w[1] not in peers else []
                if r.returncode:
                    sys.exit(f"--peer failed: {r.stdout}{r.stderr}")
            for v in VARIANTS:
                t.setdefault((v[0], s), []).append(run_variant(paths[v[0]], v, s))
            print(f"round {rnd + 1} size {s} done", flush=True)
    med = {k: statistics.median(v) for k, v in t.items()}
    gpu = sh("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader").stdout.strip()
    print(f"\n{gpu}; medians of {a.rounds} alternating rounds; TFLOP/s = 2·S³ / time")
    print("| kernel | " + " | ".join(f"{s}³ ms | TFLOP/s | % of L10" for s in sizes) + " |")
    names = ["L9", "L9 cuBLAS", "L10", "L10 cuBLAS"] + peers + [v[0] for v in VARIANTS]
    for n in names:
        cells = []
        for s in sizes:
            ms = med.get((n, s))
            if ms is None:
                cells.append("- | - | -")
                continue
            tf = 2 * s ** 3 / (ms * 1e-3) / 1e12
            cells.append(f"{ms:.4f} | {tf:.1f} | {100 * med[('L10', s)] / ms:.1f}")
        print(f"| {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
