#!/usr/bin/env python3
"""accuracy-rows.py: the rows of assets/measured-h100.tsv that lesson 11 quotes, from `ptxtutor accuracy --json`.

    python3 scripts/accuracy-rows.py DRIVER DATE ACCURACY.json [--tsv FILE]

One row per format and K: lesson 11, size M, metric acc_NAME_kK (NAME: f32, 3xtf32, tf32, f16, bf16,
bf16bf16, e4m3, e5m2), the relative error ||C - ref||_F / ||ref||_F, unit rel. Rows of the same
metrics are replaced; every other row is kept. A format that did not run (an "error" key) or gave a
non-finite value stops the script: a missing figure must not become a lesson's number.
"""
import argparse
import json
import math
import sys

NAMES = {"f32": "f32", "3xtf32": "3xtf32", "tf32": "tf32", "f16→f32": "f16", "bf16→f32": "bf16",
         "bf16→bf16": "bf16bf16", "e4m3→bf16": "e4m3", "e5m2→bf16": "e5m2"}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("driver")
    p.add_argument("date")
    p.add_argument("json")
    p.add_argument("--tsv", default="assets/measured-h100.tsv")
    a = p.parse_args()
    doc = json.load(open(a.json))
    ks = ",".join(str(k) for k in doc["k"])
    cmd = (f"ptxtutor accuracy --gpu --size {doc['M']},{doc['N']} --k {ks} --dist {doc['dist']} "
           f"--seed {doc['seed']}")
    new = []
    for f in doc["formats"]:
        if "error" in f:
            sys.exit(f"accuracy-rows.py: {f['name']}: {f['error']}: no rows written")
        for r in f["results"]:
            v = r.get("rel_err")
            if v is None or not math.isfinite(v):
                sys.exit(f"accuracy-rows.py: {f['name']} at K = {r['K']}: no finite error: no rows written")
            new.append((doc["device"], a.driver, a.date, cmd, "11", str(doc["M"]),
                        f"acc_{NAMES[f['name']]}_k{r['K']}", f"{v:.4g}", "rel"))
    metrics = {r[6] for r in new}
    lines = open(a.tsv).read().splitlines()
    kept = [l for l in lines if l.startswith("#") or l.startswith("gpu\t") or l.split("\t")[6] not in metrics]
    open(a.tsv, "w").write("\n".join(kept + ["\t".join(r) for r in new]) + "\n")
    print(f"accuracy-rows.py: {len(new)} rows written to {a.tsv}")


if __name__ == "__main__":
    main()
