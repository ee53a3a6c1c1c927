#!/usr/bin/env python3
"""fp8-accum-rows.py: the rows of assets/measured-h100.tsv lesson 11 quotes on accumulation and speed, from
one run of scripts/gpu-fp8-accum.sh (its DIR: out.txt, smi.csv, gpu.txt, tf32.json, 3xtf32.json).

    python3 scripts/fp8-accum-rows.py DIR DATE [--tsv FILE]

Lesson 11 rows, replaced if present. Names are short, so that a lesson's table row of placeholders fits
its 76 columns. NAME: l11 = the lesson's kernel (the generator's defaults), b128 = --bn 128 --stages 6,
prom = the same with --promote 1, l10 = lesson 10's bf16 kernel without clusters (speed and clock only:
its reference is not cuBLASLt's FP8), ltf / ltd = cuBLASLt with / without FAST_ACCUM.
  size N:    f8_NAME_gflops; f8_NAME_pf and f8_NAME_pd, % of cuBLASLt's speed with FAST_ACCUM and
             without; f8_prom_pb, % of b128's speed (the promotion's cost); f8_NAME_mhz and f8_NAME_w,
             the median SM clock and board power over that configuration's timed blocks (with 8
             samples or more); f8_NAME_pclk (PTX kernels), the speed as % of the dense tensor peak at
             the clock held, SMs x FLOP/clk/SM x MHz (8192 FLOP/clk/SM for FP8, 4096 for bf16 on
             Hopper): how much of each cycle's tensor work the kernel gets;
  size 1024: a8_NAME_kK, the additions' own error at K: against the f64 product of the e4m3 inputs
             (exact), ||C - ref|| / ||ref||: cuBLASLt's f32 output as it is (ltf, ltd); for the
             kernels' bf16 output, sqrt(err^2 - out^2) (l11, b128, prom); a8_out_kK, out: the f64
             product rounded to bf16, the bf16 output's own error; e8_NAME_kK, the kernels' bf16
             error as it is.
  size N:    fmt_tf32_gflops, fmt_3xtf32_gflops and fmt_tf32_pct_ref, fmt_3xtf32_pct_ref (% of cuBLAS GemmEx
             FAST_TF32 and SGEMM, timed beside them), from `ptxtutor run --ptx ptx/11_formats.ptx --json`.
A check line that says FAIL, or a missing configuration, stops the script with no rows written.
"""
import argparse
import json
import statistics
import sys

KERNELS = ("final", "bn128", "promote")
# Hopper's dense tensor-core FLOP per clock per SM (H100 whitepaper: 4096 for f16/bf16, twice for FP8)
FLOP_PER_CLK = {"final": 8192, "bn128": 8192, "promote": 8192, "l10": 4096}
# the program's configuration names -> the rows' short ones
SHORT = {"final": "l11", "bn128": "b128", "promote": "prom", "l10": "l10", "lt_default": "ltd", "lt_fast": "ltf",
         "lt_default_f32": "ltd", "lt_fast_f32": "ltf"}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir")
    p.add_argument("date")
    p.add_argument("--tsv", default="assets/measured-h100.tsv")
    a = p.parse_args()
    gpu, driver, limit = [x.strip() for x in open(f"{a.dir}/gpu.txt").read().split(",")]
    out = open(f"{a.dir}/out.txt").read().splitlines()
    if any(l.startswith("check") and l.endswith("FAIL") for l in out):
        sys.exit("fp8-accum-rows.py: a kernel disagreed with cuBLASLt (a check line says FAIL): no rows written")
    smi = []
    for l in open(f"{a.dir}/smi.csv"):
        f = [x.strip() for x in l.split(",")]
        try:
            smi.append((float(f[0]), float(f[1]), float(f[2])))
        except (ValueError, IndexError):
            pass
    speed, err, win = {}, {}, {}
    n, sms = None, None
    for l in out:
        if l.startswith("device "):
            sms = int(l.split(",")[-1].split()[0])
        f = l.split()
        if l.startswith("row speed"):
            speed[f[2]] = [float(x) for x in f[4:]]
            n = int(f[3])
        elif l.startswith("row err"):
            err[(f[2], int(f[3]))] = [float(x) for x in f[4:]]
        elif l.startswith("window"):
            win.setdefault(f[1], []).append((float(f[2]), float(f[3])))
    names = KERNELS + ("l10", "lt_default", "lt_fast")
    if set(speed) != set(names) or not err:
        sys.exit(f"fp8-accum-rows.py: {a.dir}/out.txt lacks configurations (speed: {sorted(speed)}): no rows written")
    cmd = (f"sh scripts/gpu-fp8-accum.sh (build/gpu-fp8-accum on ptx/gen/11_fp8.py: defaults, --bn 128 --stages 6,"
           f" and with --promote 1; cuBLASLt FP8 default and FAST_ACCUM; medians of alternating rounds;"
           f" power limit {limit}; docs/benchmarks.md)")
    new = []

    def row(size, metric, value, unit):
        new.append((gpu, driver, a.date, cmd, "11", str(size), metric, value, unit))

    print(f"{'config':11} {'ms':>7} {'TFLOP/s':>8} {'%fast':>6} {'%dflt':>6} {'MHz':>5} {'W':>4}")
    for name in names:
        ms, tf, pf, pd = speed[name]
        s = [x for x in smi if any(t0 <= x[0] <= t1 for t0, t1 in win.get(name, []))]
        mhz = statistics.median(x[1] for x in s) if s else float("nan")
        w = statistics.median(x[2] for x in s) if s else float("nan")
        print(f"{name:11} {ms:7.4f} {tf:8.1f} {pf:6.1f} {pd:6.1f} {mhz:5.0f} {w:4.0f}  ({len(s)} samples)")
        c = SHORT[name]
        row(n, f"f8_{c}_gflops", f"{tf * 1000:.1f}", "GFLOP/s")
        if name != "l10":
            row(n, f"f8_{c}_pf", f"{pf:.1f}", "%")
            row(n, f"f8_{c}_pd", f"{pd:.1f}", "%")
        if len(s) >= 8:  # fewer samples (50 ms apart) say little about a median
            row(n, f"f8_{c}_mhz", f"{mhz:.0f}", "count")
            row(n, f"f8_{c}_w", f"{w:.0f}", "count")
            if name in FLOP_PER_CLK:
                peak = sms * FLOP_PER_CLK[name] * mhz * 1e6 / 1e12
                row(n, f"f8_{c}_pclk", f"{100 * tf / peak:.1f}", "%")
    row(n, "f8_prom_pb", f"{100 * speed['bn128'][0] / speed['promote'][0]:.1f}", "%")
    for (name, k), (e, floor, acc) in sorted(err.items()):
        if name.startswith("lt_"):
            if name.endswith("_f32"):  # cuBLASLt's additions are read from its f32 output
                row(1024, f"a8_{SHORT[name]}_k{k}", f"{e:.4g}", "rel")
            continue
        row(1024, f"a8_{SHORT[name]}_k{k}", f"{acc:.4g}", "rel")
        row(1024, f"e8_{SHORT[name]}_k{k}", f"{e:.4g}", "rel")
        row(1024, f"a8_out_k{k}", f"{floor:.4g}", "rel")
    for name in ("tf32", "3xtf32"):
        j = json.load(open(f"{a.dir}/{name}.json"))
        if j.get("verified") is not True:
            sys.exit(f"fp8-accum-rows.py: gemm_{name} was not verified ({j.get('message')}): no rows written")
        tcmd = (f"ptxtutor run --ptx ptx/11_formats.ptx --entry gemm_{name} --size {j['M']} (scripts/gpu-fp8-accum.sh;"
                f" beside cuBLAS {'GemmEx FAST_TF32' if name == 'tf32' else 'SGEMM'}, steady; docs/benchmarks.md)")
        new.append((gpu, driver, a.date, tcmd, "11", str(j["M"]), f"fmt_{name}_gflops", f"{j['gflops']:.1f}", "GFLOP/s"))
        new.append((gpu, driver, a.date, tcmd, "11", str(j["M"]), f"fmt_{name}_pct_ref", f"{j['pct_of_cublas']:.1f}", "%"))
        print(f"gemm_{name}: {j['gflops'] / 1000:.1f} TFLOP/s, {j['pct_of_cublas']:.1f}% of its cuBLAS reference")
    seen, uniq = set(), []
    for r in new:
        if r[6] not in seen:
            seen.add(r[6])
            uniq.append(r)
    lines = open(a.tsv).read().splitlines()
    kept = [l for l in lines if l.startswith("#") or l.startswith("gpu\t") or l.split("\t")[6] not in seen]
    open(a.tsv, "w").write("\n".join(kept + ["\t".join(r) for r in uniq]) + "\n")
    print(f"fp8-accum-rows.py: {len(uniq)} rows written to {a.tsv}")


if __name__ == "__main__":
    main()
