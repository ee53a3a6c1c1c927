#!/usr/bin/env python3
"""bench-rows.py: replaces the bench rows of assets/measured-h100.tsv with those of new runs.

    python3 scripts/bench-rows.py DRIVER DATE B4096.json [B8192.json] [--tsv FILE] [--mode steady]

Each JSON file is the output of `ptxtutor bench --json` at one size (4096, or 8192 for the _8192 rows).
For every lesson in it the rows ms, gflops, pct_cublas, cublas_gflops and speedup (4096), or ms_8192,
gflops_8192 and pct_cublas_8192 (8192), are replaced (or added), with the GPU, driver, date and the
command that made them; every other row is kept as it was. A lesson that failed its check gets no
rows: the script stops and says so, since a figure of a wrong kernel must not reach a lesson.
"""
import argparse
import json
import sys

METRICS_4096 = [("ms", "ms", "ms"), ("gflops", "gflops", "GFLOP/s"), ("pct_of_cublas", "pct_cublas", "%"),
                ("cublas_gflops", "cublas_gflops", "GFLOP/s"), ("speedup", "speedup", "x")]
METRICS_OTHER = [("ms", "ms_{n}", "ms"), ("gflops", "gflops_{n}", "GFLOP/s"), ("pct_of_cublas", "pct_cublas_{n}", "%")]


def rows_of(path, driver, date, mode):
    doc = json.load(open(path))
    out = []
    for r in doc["results"]:
        run = r["run"]
        if run.get("verified") is not True:
            sys.exit(f"bench-rows.py: {path}: lesson {r['lesson']} was not verified ({run.get('message')}): no rows written")
        n = run["M"]
        table = METRICS_4096 if n == 4096 else METRICS_OTHER
        cmd = f"ptxtutor bench --size {n} --{mode} (median of {run['repeats']} alternating rounds; docs/benchmarks.md)"
        for key, metric, unit in table:
            v = run.get(key)
            if v is None:
                continue
            metric = metric.format(n=n)
            val = f"{v:.4f}" if unit == "ms" else f"{v:.2f}" if unit == "x" else f"{v:.1f}"
            out.append((run["gpu"], driver, date, cmd, str(r["lesson"]), "4096" if n == 4096 else str(n), metric, val, unit))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("driver")
    p.add_argument("date")
    p.add_argument("json", nargs="+")
    p.add_argument("--tsv", default="assets/measured-h100.tsv")
    p.add_argument("--mode", default="steady", choices=("steady", "burst"))
    a = p.parse_args()
    new = [row for f in a.json for row in rows_of(f, a.driver, a.date, a.mode)]
    replaced = {(r[4], r[6]) for r in new}
    lines = open(a.tsv).read().splitlines()
    kept = [l for l in lines if l.startswith("#") or l.startswith("gpu\t") or
            tuple(l.split("\t")[i] for i in (4, 6)) not in replaced]
    # New rows go where the first replaced row of their lesson was, else at the end.
    out = kept + ["\t".join(r) for r in new]
    head = [l for l in out if l.startswith("#") or l.startswith("gpu\t")]
    body = [l for l in out if l not in head]
    body.sort(key=lambda l: (int(l.split("\t")[4]) if l.split("\t")[4].isdigit() else 99))
    open(a.tsv, "w").write("\n".join(head + body) + "\n")
    print(f"bench-rows.py: {len(new)} rows written to {a.tsv}")


if __name__ == "__main__":
    main()
