#!/usr/bin/env python3
"""ncu_compare: the emulator's memory counts beside Nsight Compute's, lesson by lesson.

For each lesson with a kernel: `ptxtutor emulate N --size S --json` on the CPU, then
`ncu --metrics ... ptxtutor run N --size S` on the GPU (first launch of the lesson's
entry only), and a table of both with their ratio. Exits 1 when any pair differs by
more than --tolerance (default 1%), 2 when a tool could not run.
"""
import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys

# (label, path in `emulate --json` (docs/json.md, emu.by_kind), ncu metric)
PAIRS = [
    ("global ld requests", ("emu", "by_kind", "global_load", "requests"), "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("global ld sectors", ("emu", "by_kind", "global_load", "sectors"), "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("global st requests", ("emu", "by_kind", "global_store", "requests"), "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("global st sectors", ("emu", "by_kind", "global_store", "sectors"), "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("cp.async requests", ("emu", "by_kind", "cp_async_read", "requests"), "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum"),
    ("cp.async sectors", ("emu", "by_kind", "cp_async_read", "sectors"), "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"),
    ("shared ld wavefronts", ("emu", "by_kind", "shared_load", "wavefronts"), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("shared ld conflicts", ("emu", "by_kind", "shared_load", "bank_conflicts"), "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("shared st wavefronts", ("emu", "by_kind", "shared_store", "wavefronts"), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("shared st conflicts", ("emu", "by_kind", "shared_store", "bank_conflicts"), "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
    ("ldmatrix wavefronts", ("emu", "by_kind", "ldmatrix", "wavefronts"), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"),
    ("ldmatrix conflicts", ("emu", "by_kind", "ldmatrix", "bank_conflicts"), "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"),
    ("cp.async smem wavefronts", ("emu", "by_kind", "cp_async_write", "wavefronts"), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"),
    ("cp.async smem conflicts", ("emu", "by_kind", "cp_async_write", "bank_conflicts"), "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"),
]


# (emulator path folded in, into which emulator path, the ncu metric that would count it apart)
FOLDS = [
    (("emu", "by_kind", "cp_async_read", "requests"), ("emu", "by_kind", "global_load", "requests"), "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum"),
    (("emu", "by_kind", "cp_async_read", "sectors"), ("emu", "by_kind", "global_load", "sectors"), "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"),
    (("emu", "by_kind", "ldmatrix", "wavefronts"), ("emu", "by_kind", "shared_load", "wavefronts"), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"),
    (("emu", "by_kind", "ldmatrix", "bank_conflicts"), ("emu", "by_kind", "shared_load", "bank_conflicts"), "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"),
]


def value(emu, path):
    e = emu
    for p in path:
        e = e.get(p, {}) if isinstance(e, dict) else 0
    return float(e or 0)


def run(cmd, timeout=600):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def available_metrics(ncu):
    """Base names ncu knows on this GPU (so an unknown one cannot abort the profile)."""
    rc, out, err = run([ncu, "--query-metrics", "--csv"])
    if rc != 0:
        rc, out, err = run([ncu, "--query-metrics"])
    names = set()
    for line in out.splitlines():
        tok = line.replace('"', " ").replace(",", " ").split()
        if tok and "__" in tok[0]:
            names.add(tok[0])
    return names


def emulate(bin_, lesson, sizes):
    last = ""
    for s in sizes:
        rc, out, err = run([bin_, "emulate", str(lesson), "--size", s, "--json"])
        if rc in (0, 1) and out.strip().startswith("{"):
            return s, json.loads(out), None
        last = (err or out).strip().splitlines()[-1:] or ["(no output)"]
        last = last[0]
    return None, None, last


def profile(ncu, bin_, lesson, size, entry, metrics):
    cmd = [ncu, "--csv", "--page", "raw", "--print-units", "base", "--metrics", ",".join(metrics),
           "-k", "regex:^%s$" % entry, "-c", "1", bin_, "run", str(lesson), "--size", size]
    rc, out, err = run(cmd)
    lines = out.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return None, "ncu printed no metrics (rc %d): %s" % (rc, (err or out).strip()[-300:])
    rows = list(csv.reader(io.StringIO("\n".join(l for l in lines[start:] if l.startswith('"')))))
    header, data = rows[0], [r for r in rows[1:] if r and r[0].strip().isdigit()]
    if not data:
        return None, "ncu profiled no launch of %s" % entry
    vals = {}
    for name, v in zip(header, data[0]):
        try:
            vals[name] = float(v.replace(",", ""))
        except ValueError:
            pass
    return vals, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.environ.get("PTXTUTOR_BIN", "./ptxtutor"))
    ap.add_argument("--ncu", default=os.environ.get("NCU") or shutil.which("ncu") or "/usr/local/cuda/bin/ncu")
    ap.add_argument("--sizes", default="256,512,384,128", help="sizes to try in order (the first valid one)")
    ap.add_argument("--tolerance", type=float, default=0.01)
    ap.add_argument("lessons", nargs="*", help="lesson numbers or ids (default: every lesson with a kernel)")
    a = ap.parse_args()
    if not os.path.exists(a.ncu):
        print("ncu_compare: no ncu at %s" % a.ncu, file=sys.stderr)
        return 2
    lessons = a.lessons
    if not lessons:
        rc, out, err = run([a.bin, "list", "--json"])
        if rc != 0:
            print("ncu_compare: %s list failed: %s" % (a.bin, err.strip()), file=sys.stderr)
            return 2
        lessons = [str(l["number"]) for l in json.loads(out) if l.get("kernel") and l.get("needs") != "sm_90a"]
    known = available_metrics(a.ncu)
    metrics = [m for _, _, m in PAIRS if not known or m.rsplit(".", 1)[0] in known]
    table, bad, broken = [], 0, 0
    for lesson in lessons:
        size, emu, why = emulate(a.bin, lesson, a.sizes.split(","))
        if emu is None:
            table.append((lesson, "-", "emulate failed: " + why, "", "", ""))
            broken += 1
            continue
        if not emu.get("verified"):
            table.append((lesson, size, "emulator: not verified: " + emu.get("message", ""), "", "", ""))
            broken += 1
        vals, why = profile(a.ncu, a.bin, lesson, size, emu.get("entry") or emu.get("kernel"), metrics)
        if vals is None:
            table.append((lesson, size, "ncu failed: " + why, "", "", ""))
            broken += 1
            continue
        for label, path, metric in PAIRS:
            e = value(emu, path)
            # Where ncu has no metric of its own for cp.async (ldgsts) or
            # ldmatrix (ldsm), it counts them with the ordinary loads: fold
            # the emulator's counts the same way.
            for src, dst, own in FOLDS:
                if path == dst and own not in vals:
                    e += value(emu, src)
            n = vals.get(metric)
            if n is None:
                if e:
                    table.append((lesson, size, label, "%.0f" % e, "n/a", ""))
                continue
            if e == 0 and n == 0:
                continue
            ratio = e / n if n else float("inf")
            ok = n != 0 and abs(ratio - 1) <= a.tolerance
            bad += not ok
            table.append((lesson, size, label, "%.0f" % e, "%.0f" % n, "%.4f%s" % (ratio, "" if ok else "  <-- differs")))
    w = max([len(r[2]) for r in table] + [10])
    print("%-7s %-5s %-*s %14s %14s  %s" % ("lesson", "size", w, "count", "emulator", "ncu", "emu/ncu"))
    for r in table:
        print("%-7s %-5s %-*s %14s %14s  %s" % (r[0], r[1], w, r[2], r[3], r[4], r[5]))
    print("%d pairs differ by more than %.1f%%; %d lessons could not be compared" % (bad, 100 * a.tolerance, broken))
    return 1 if bad else (2 if broken else 0)


if __name__ == "__main__":
    sys.exit(main())
