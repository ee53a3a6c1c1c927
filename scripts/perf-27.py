#!/usr/bin/env python3
"""Times variants of lessons 7 and 8 on a GPU (issue 27; docs/notes/perf-27.md).

Each variant is a generator command line (ptx/gen/07_warptile.py or 08_mma.py
with options); its PTX is written to a scratch folder, run with
`ptxtutor run --ptx ... --json` (verified against cuBLAS, timed beside it in
blocks, steady as `bench` does by default) and one row per run is
printed, then the table again at the end. Run from the project root:

    python3 scripts/perf-27.py FILE [--bin ./ptxtutor] [--json OUT.json] [--rows OUT.tsv DRIVER DATE]

FILE: one variant a line, `NAME LESSON N[,N...] -- GENERATOR OPTIONS`
(`#` starts a comment): LESSON 7 or 8, each N a cube N^3 to time.
--rows writes the variants named `variant_*` as rows of assets/measured-h100.tsv
(metric NAME_pct_cublas, % of cuBLAS in the same run, one per variant and size;
for a size other than 4096 the metric ends in _SIZE), for the lessons to quote.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

GEN = {"7": "ptx/gen/07_warptile.py", "8": "ptx/gen/08_mma.py"}
ENTRY = {"7": "sgemm_warptile", "8": "hgemm_mma"}
DEFAULTS = {"7": {"bm": 128, "bn": 128, "bk": 16, "stages": 2},
            "8": {"bm": 128, "bn": 256, "bk": 32, "stages": 4}}


def shape(lesson, opts):
    """BM, BN, dynamic shared bytes of a variant from its generator options."""
    d = dict(DEFAULTS[lesson])
    for k, v in re.findall(r"--(bm|bn|bk|stages)\s+(\d+)", opts):
        d[k] = int(v)
    elt = 4 if lesson == "7" else 2
    return d["bm"], d["bn"], d["stages"] * (d["bm"] + d["bn"]) * d["bk"] * elt


def threads(ptx):
    """The block size the generator wrote into the PTX's header ("Block: N threads")."""
    m = re.search(r"Block: (\d+) threads", open(ptx).read())
    return m.group(1) if m else "256"


def run(binary, lesson, ptx, size, opts):
    bm, bn, smem = shape(lesson, opts)
    m = re.search(r"Dynamic shared memory,? (\d+) bytes|= (\d+) bytes", open(ptx).read())
    if m:  # what the generator says it uses (lesson 7's skew adds a little)
        smem = int(m.group(1) or m.group(2))
    cmd = [binary, "run", "--ptx", ptx, "--entry", ENTRY[lesson], "--grid", f"N/{bn},M/{bm}",
           "--block", threads(ptx), "--smem", str(smem), "--size", str(size), "--json"]
    if lesson == "8":
        cmd += ["--dtype", "f16"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {"status": "no json", "message": (p.stdout + p.stderr).strip()[-300:]}


def write_rows(results, out, driver, date):
    """The verified variant_* runs as measured-data rows."""
    with open(out, "w") as f:
        for r in results:
            if not r["variant"].startswith("variant_") or r.get("status") != "ok" or not r.get("verified"):
                continue
            n = r["M"]
            metric = r["variant"] + "_pct_cublas" + ("" if n == 4096 else f"_{n}")
            cmd = (f"python3 scripts/perf-27.py: a variant of {GEN[r['lesson']]}, % of cuBLAS in the same run "
                   f"(docs/notes/perf-27.md): {r['options']}")
            f.write("\t".join([r["gpu"], driver, date, cmd, r["lesson"], str(n), metric,
                               f"{r['pct_of_cublas']:.1f}", "%"]) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--bin", default="./ptxtutor")
    ap.add_argument("--json", default="")
    ap.add_argument("--rows", nargs=3, metavar=("OUT", "DRIVER", "DATE"))
    a = ap.parse_args()
    work = tempfile.mkdtemp()
    rows, allres = [], []
    for line in open(a.file):
        line = line.split("#")[0].strip()
        if not line:
            continue
        head, _, opts = (line + " ").partition(" -- ")
        opts = opts.strip()
        f = head.split()
        name, lesson, sizes = f[0], f[1], f[2].split(",")
        ptx = os.path.join(work, name + ".ptx")
        g = subprocess.run(["python3", GEN[lesson]] + opts.split(), capture_output=True, text=True)
        if g.returncode:
            print(f"{name}: generator failed: {g.stderr.strip()[-200:]}", flush=True)
            continue
        open(ptx, "w").write(g.stdout)
        for size in sizes:
            r = run(a.bin, lesson, ptx, size, opts)
            r["variant"], r["options"], r["lesson"] = name, opts, lesson
            allres.append(r)
            if r.get("status") != "ok":
                row = f"{name:14} L{lesson} {size:>5} FAILED: {r.get('status')}: {r.get('message')}"
            else:
                tf = r["gflops"] / 1000
                row = (f"{name:14} L{lesson} {size:>5} "
                       f"{r['ms']:8.4f} ms {tf:6.1f} TF  cuBLAS {r['cublas_ms']:8.4f}  "
                       f"{r['pct_of_cublas']:6.1f}%  spread {r['spread']:.1f}/{r['cublas_spread']:.1f}%  "
                       f"regs {r.get('registers')} bps {r.get('blocks_per_sm')} err {r.get('rel_error'):.1e}")
            print(row, flush=True)
            rows.append(row)
    if a.json:
        json.dump(allres, open(a.json, "w"), indent=1)
    if a.rows:
        write_rows(allres, *a.rows)
    print("\n== table")
    print("\n".join(rows))


if __name__ == "__main__":
    sys.exit(main())
