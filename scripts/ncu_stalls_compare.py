#!/usr/bin/env python3
"""The stall model (ptxtutor emulate N --stalls, docs/model.md "Stall reasons") beside Nsight Compute's
warp-state samples per PTX line, on the GPU machine with the staged build: ncu --import-source yes on
`ptxtutor run N --lineinfo --size S` (the first launch of the lesson's entry), its source page as CSV,
each line's stall_* sample columns summed: ncu 2025.3 prints the PTX view without them, so each SASS
instruction's samples go to its PTX line by the line table of the cubin that run really ran, taken
from the JIT cache the run is given (CUDA_CACHE_PATH) and disassembled with nvdisasm -g (ncu_lines.
run_map). Then, for the five lines with the most samples, ncu's top reason beside the model's, and
warp cycles per issued instruction both ways (ncu: the WarpStateStats section's "Warp Cycles Per
Issued Instruction", per SASS instruction; the model's warp cycles over ncu's SASS instructions, its
own per PTX instruction beside). Prints a short table last; exits 1 when fewer than 80% of the hot
lines agree or the cycles per instruction differ by more than 25% (issue 41's bar), 2 when it could
not compare.

    python3 scripts/ncu_stalls_compare.py [--size 4096] [--raw DIR] [--record FILE] TARGET...
    python3 scripts/ncu_stalls_compare.py --from FILE [--from FILE...] [--size 4096] [--table] TARGET...

A TARGET is a lesson's number or heldout:NAME, a row of tests/heldout/kernels.tsv (launched as that file
says). --record FILE appends what ncu measured to FILE (tab-separated: target, size, line or a key -
cpi, duration_us, sm_mhz, issue_active, sass_inst, grid_blocks -, reason, value), so that --from FILE
compares the model with it later, anywhere, without a GPU: the loop for working on the model (the
recorded data: --from tests/stalls/ncu-h100.tsv --from tests/stalls/ncu-h200.tsv; each file's header
says what it holds). Both sides' top reason leaves out `selected` (the warp issuing is not a reason it
waits) unless a line has nothing else.
"""
import argparse
import atexit
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_lines import ADDR_NAMES, LINE_NAMES, alike, nvdisasm_map, opcode, parse_source_csv, norm, run_map, sass_map  # noqa: E402

# ncu's stall column suffixes -> the model's reason keys
NAMES = {"long_sb": "long_scoreboard", "long_scoreboard": "long_scoreboard", "short_sb": "short_scoreboard",
         "short_scoreboard": "short_scoreboard", "wait": "wait", "barrier": "barrier", "membar": "membar",
         "mio": "mio_throttle", "mio_throttle": "mio_throttle", "lg": "lg_throttle", "lg_throttle": "lg_throttle",
         "math": "math_pipe_throttle", "math_pipe_throttle": "math_pipe_throttle", "not_selected": "not_selected",
         "selected": "selected", "no_instruction": "no_instruction", "branch_resolving": "branch_resolving",
         "sleeping": "sleeping", "dispatch": "dispatch_stall", "drain": "drain", "tex": "tex_throttle",
         "misc": "misc", "imc": "imc_miss"}


def run(cmd, log=None, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if log:
        with open(log, "w") as f:
            f.write("$ %s\n%s\n%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.returncode, p.stdout, p.stderr


def reason_of(col):
    c = norm(col)
    if not c.startswith("stall_") or "(" in col:
        return None
    c = c[len("stall_"):].replace(" ", "_")
    return NAMES.get(c, c)


def add(d, row, cols):
    """A row's samples into d, by reason."""
    for i, k in cols:
        try:
            d[k] = d.get(k, 0) + float(row[i] or 0)
        except (ValueError, IndexError):
            pass


def ncu_lines(text, entry):
    """{PTX line: {reason: samples}} from the source page's rows."""
    blocks = [b for b in parse_source_csv(text) if not entry or not b["function"] or entry in b["function"]]
    out = {}
    for b in blocks:
        h = b["header"]
        li = next((i for i, c in enumerate(h) if norm(c) in LINE_NAMES), None)
        cols = [(i, reason_of(c)) for i, c in enumerate(h) if reason_of(c)]
        if li is None or not cols:
            continue
        for row in b["rows"]:
            try:
                line = int(row[li])
            except (ValueError, IndexError):
                continue
            add(out.setdefault(line, {}), row, cols)
    return out


def ncu_lines_sass(text, entry, amap):
    """The same from the SASS view (--print-source sass): each instruction's samples, its address
    an offset from the function's first, mapped to its PTX line through amap ({offset: (line, SASS
    text)}: the profiled run's own cubin, ncu_lines.run_map). Used when the PTX view has no metric
    columns (ncu 2025.3 prints the imported PTX without them). Also returns how many of the rows'
    SASS texts the map has alike, how many rows there were (a map of other code says so) and the
    SASS instructions executed."""
    out, same, rows, executed = {}, 0, 0, 0.0
    for b in parse_source_csv(text):
        if entry and b["function"] and entry not in b["function"]:
            continue
        h = b["header"]
        ai = next((i for i, c in enumerate(h) if norm(c) in ADDR_NAMES), None)
        cols = [(i, reason_of(c)) for i, c in enumerate(h) if reason_of(c)]
        if ai is None or not cols:
            continue
        addrs = []
        for row in b["rows"]:
            try:
                addrs.append((int(row[ai], 16), row))
            except (ValueError, IndexError):
                pass
        base = min((x for x, _ in addrs), default=0)
        si = next((i for i, c in enumerate(h) if norm(c) == "source"), None)
        ei = next((i for i, c in enumerate(h) if norm(c) == "instructions executed"), None)
        for x, row in addrs:
            line, text = amap.get(x - base, (None, ""))
            rows += 1
            same += si is not None and alike(text, row[si])
            try:
                executed += float(row[ei]) if ei is not None else 0
            except ValueError:
                pass
            if line is None:
                continue
            add(out.setdefault(line, {}), row, cols)
    return out, same, rows, executed


def replay(a, flags, stem, mhz):
    """The model's --stalls JSON for a target, at an SM clock of mhz (None: the power model's); None
    when it did not run (said)."""
    clock = ["--clock", "%g" % mhz] if mhz else []
    rc, out, err = run([a.bin, "emulate"] + flags + ["--stalls", "--json", "--size", a.size] + clock,
                       stem + ".model.log")
    if rc != 0:
        print("%s: the model did not run: %s" % (stem, (err or out).strip()[-300:]))
        return None
    return json.loads(out)


def cpi_per_sass(model, sass_inst, grid):
    """The model's warp cycles per issued instruction counted in SASS instructions as ncu counts them:
    its warp cycles per PTX instruction times the grid's PTX instructions (its replay's, per block)
    over ncu's SASS instructions executed; None without those."""
    ptx = sum(l["issued"] for l in model["lines"]) / max(model.get("blocks_resident", model["blocks_per_sm"]), 1) * (grid or 0)
    return model["warp_cycles_per_issue"] * ptx / sass_inst if sass_inst and ptx else None


def ncu_cpi(text):
    for row in text.splitlines():
        if "Warp Cycles Per Issued Instruction" in row:
            cells = [c.strip('"') for c in row.split('","')]
            for c in reversed(cells):
                try:
                    return float(c.replace(",", "").strip('"'))
                except ValueError:
                    continue
    return None


def heldout(name, root):
    """The launch flags of a row of tests/heldout/kernels.tsv (as scripts/gpu-heldout.sh reads it)."""
    path = os.path.join(root, "tests/heldout/kernels.tsv")
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if line.startswith("#") or len(f) < 10 or f[0] != name:
            continue
        _, ptx, entry, grid, block, args, dtype, out, smem = f[:9]
        flags = ["--ptx", os.path.join(root, "tests/heldout", ptx), "--entry", entry, "--grid", grid, "--block", block,
                 "--args", args, "--dtype", dtype, "--out", out]
        return flags + ([] if smem == "-" else ["--smem", smem])
    sys.exit("no held-out kernel %s in %s" % (name, path))


def target(t, root):
    """(the launch's flags for run/emulate, the flags for sass): a lesson's number or heldout:NAME."""
    if t.startswith("heldout:"):
        f = heldout(t[len("heldout:"):], root)
        return f, f[:4]
    return [t], [t]


def recorded(path):
    """{(target, size): {"lines": {line: {reason: samples}}, key: value}} from a --record file."""
    out = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        t, size, where, reason, value = line.rstrip("\n").split("\t")
        d = out.setdefault((t, size), {"lines": {}})
        if where.isdigit():
            d["lines"].setdefault(int(where), {})[reason] = float(value)
        else:
            d[where] = float(value)
    return out


def merged(paths):
    """recorded() of several files: each target's line samples, and each of its figures, from the
    first file that has them."""
    out = {}
    for path in paths:
        for k, v in recorded(path).items():
            d = out.setdefault(k, {"lines": {}})
            for key, value in v.items():
                if key not in d or (key == "lines" and not d["lines"]):
                    d[key] = value
    return out


SCALE = {"ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1, "ms": 1e3, "msecond": 1e3,  # -> microseconds
         "ghz": 1e3, "cycle/nsecond": 1e3, "mhz": 1, "cycle/usecond": 1, "%": 1, "": 1}  # -> MHz, plain


def ncu_metric(text, names):
    """A value of the details page's CSV (its last three cells: metric name, unit, value), the first row
    naming one of names, in microseconds or MHz when its unit is a time or a frequency."""
    for cells in csv.reader(text.splitlines()):
        while cells and cells[-1] == "":  # ncu ends each row with a comma
            cells.pop()
        if len(cells) < 3 or cells[-3] not in names:
            continue
        try:
            return float(cells[-1].replace(",", "")) * SCALE.get(cells[-2].lower(), 1)
        except ValueError:
            continue
    return None


# wgmma.mma_async's SASS: one instruction a wgmma, whose line-table entry ptxas often gives another line
# (lesson 9: the k-tile's second to fourth HGMMAs on the loop's `add` and `bra`)
GMMA = ("HGMMA", "QGMMA", "IGMMA", "BGMMA")


def recording(t, root):
    """(the PTX path, the recorded SASS's text) of a target: a lesson's assets/sass/NN.sass, a held-out
    kernel's X.sass beside its X.ptx; (None, None) without one."""
    if t.startswith("heldout:"):
        f = heldout(t[len("heldout:"):], root)
        ptx = f[f.index("--ptx") + 1]
        path = ptx[:-4] + ".sass"
    else:
        path, ptx = os.path.join(root, "assets/sass/%02d.sass" % int(t)), None
    if not os.path.exists(path):
        return None, None
    text = open(path).read()
    for l in text.splitlines()[:20]:
        if l.startswith("ptx: ") and ptx is None:
            ptx = os.path.join(root, l[5:].strip())
    return ptx, text


def gmma_moves(ptx_text, amap):
    """{a wgmma.mma_async's PTX line: the line the cubin's line table gives its SASS instruction} where the
    two differ: the k-th wgmma of the entry (its lines, those the SASS map names) paired with its k-th
    HGMMA/QGMMA in address order; {} when their counts differ. ncu's samples of an HGMMA reach its
    table's line; this puts the model's wait for it there too, so the two are compared at one line."""
    sass = [(ln, t) for _, (ln, t) in sorted(amap.items()) if ln and opcode(t) in GMMA]
    named = [ln for ln, _ in amap.values() if ln]
    if not sass or not named:
        return {}
    lo, hi = min(named), max(named)
    ptx = [i + 1 for i, l in enumerate(ptx_text.splitlines())
           if l.split("//")[0].strip().startswith("wgmma.mma_async") and lo <= i + 1 <= hi]
    if len(ptx) != len(sass):
        return {}
    return {p: s for p, (s, _) in zip(ptx, sass) if p != s}


def moved(mine, moves):
    """The model's lines with the moves applied (a moved line's stalls added to its target's)."""
    out = {}
    for l, v in mine.items():
        d = out.setdefault(moves.get(l, l), {"stalls": {}})["stalls"]
        for k, c in v["stalls"].items():
            d[k] = d.get(k, 0) + c
    return out


def top(d):
    rest = {k: v for k, v in d.items() if k != "selected" and v > 0}
    return max(rest, key=rest.get) if rest else "selected"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("targets", nargs="+")
    ap.add_argument("--size", default="4096")
    ap.add_argument("--raw", help="keep each run's logs here (default: a temporary folder, removed at the end)")
    ap.add_argument("--record", default="")
    ap.add_argument("--from", dest="source", action="append", default=[],
                    help="a --record file (again for more: a target's samples come from the first that has it)")
    ap.add_argument("--bin", default=os.environ.get("PTXTUTOR_BIN", "./ptxtutor"))
    ap.add_argument("--ncu", default=os.environ.get("NCU") or shutil.which("ncu") or "/usr/local/cuda/bin/ncu")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "/usr/local/cuda/bin/nvdisasm")
    ap.add_argument("--table", action="store_true",
                    help="print docs/model.md's per-kernel table (Markdown) instead of the per-line one")
    a = ap.parse_args()
    root = os.environ["PTXTUTOR_ROOT"] if os.environ.get("PTXTUTOR_ROOT") else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    if not a.raw:
        a.raw = tempfile.mkdtemp(prefix="ncu-stalls-")
        atexit.register(shutil.rmtree, a.raw, True)
    os.makedirs(a.raw, exist_ok=True)
    old = merged(a.source)
    rows, table, bad, failed = [], [], 0, 0
    for n in a.targets:
        flags, sflags = target(n, root)
        stem = os.path.join(a.raw, n.replace(":", "_"))
        amap = {}  # the profiled run's SASS map, where it was read
        # the model at the SM clock ncu ran at (it locks one): the L2's and DRAM's latencies in cycles
        # and the copy engine's bytes a cycle follow it (`emulate --stalls --clock`)
        got = old.get((n, a.size)) if a.source else None
        model = replay(a, flags, stem, got.get("sm_mhz") if got else None)
        if model is None:
            failed += 1
            continue
        entry = model.get("entry", "")
        if a.source:
            if not got:
                print("%s: nothing recorded at size %s in %s" % (n, a.size, ", ".join(a.source)))
                failed += 1
                continue
            lines, cpi_ncu, sass_inst, grid = got["lines"], got.get("cpi"), got.get("sass_inst"), got.get("grid_blocks")
        else:
            sass_inst = None
            rc, _, err = run([a.ncu, "--section", "SourceCounters", "--section", "WarpStateStats", "--section",
                              "SpeedOfLight", "--section", "LaunchStats", "--section", "Occupancy",
                              "--import-source", "yes", "--target-processes", "all",
                              "-k", "regex:^%s$" % entry if entry else "regex:.", "-c", "1", "-f", "-o", stem,
                              a.bin, "run"] + flags + ["--lineinfo", "--size", a.size], stem + ".profile.log",
                             env=dict(os.environ, CUDA_CACHE_PATH=stem + ".jitcache"))
            rep = stem + ".ncu-rep"
            if not os.path.exists(rep):
                print("%s: ncu made no report (%s)" % (n, stem + ".profile.log"))
                failed += 1
                continue
            _, src, _ = run([a.ncu, "-i", rep, "--page", "source", "--csv", "--print-source", "cuda"],
                            stem + ".source.log")
            _, det, _ = run([a.ncu, "-i", rep, "--page", "details", "--csv"], stem + ".details.log")
            lines = ncu_lines(src, entry)
            if not lines:  # the PTX view without metric columns: the SASS view, mapped to PTX lines
                _, src, _ = run([a.ncu, "-i", rep, "--page", "source", "--csv", "--print-source", "sass"],
                                stem + ".source_sass.log")
                amap = run_map(stem + ".jitcache", entry, a.nvdisasm, stem + ".sass_run.log")
                if amap is None:
                    print("%s: no cubin in the JIT cache of the profiled run (%s.jitcache): mapped through "
                          "`sass --jit`, a cuLink compile whose code may differ" % (n, stem))
                    rc, sj, _ = run([a.bin, "sass"] + sflags + ["--json", "--jit"], stem + ".sass_jit.log")
                    amap = sass_map(json.loads(sj)) if rc == 0 and sj.strip().startswith("{") else {}
                lines, same, nsass, sass_inst = ncu_lines_sass(src, entry, amap)
                if nsass and same < 0.9 * nsass:
                    print("%s: the map's SASS is not the profiled SASS (%d of %d instructions alike): "
                          "its lines are left out" % (n, same, nsass))
                    lines = {}
            os.remove(rep)  # large; the logs keep what was read
            cpi_ncu, grid = ncu_cpi(det), ncu_metric(det, ("Grid Size",))
            mhz = ncu_metric(det, ("SM Frequency",))
            model = replay(a, flags, stem, mhz) if mhz and abs(mhz - model["clock_mhz"]) > 0.5 else model
            if model is None:
                failed += 1
                continue
            if a.record and lines:
                with open(a.record, "a") as f:
                    for l in sorted(lines):
                        for r, v in sorted(lines[l].items()):
                            if v:
                                f.write("%s\t%s\t%d\t%s\t%g\n" % (n, a.size, l, r, v))
                    extra = {"cpi": cpi_ncu, "duration_us": ncu_metric(det, ("Duration",)),
                             "sm_mhz": ncu_metric(det, ("SM Frequency",)),
                             "issue_active": ncu_metric(det, ("Issue Slots Busy", "Issued Ipc Active")),
                             "sass_inst": sass_inst, "grid_blocks": grid}
                    for k, v in extra.items():
                        if v is not None:
                            f.write("%s\t%s\t%s\t-\t%g\n" % (n, a.size, k, v))
        if not lines:
            print("%s: no per-line samples in ncu's source page (%s)" % (n, stem + ".source.log"))
            failed += 1
            continue
        mine = {l["line"]: l for l in model["lines"]}
        ptx_path, rec = recording(n, root)
        if ptx_path and os.path.exists(ptx_path):
            smap = amap or (nvdisasm_map(rec, entry) if rec else {})
            mine = moved(mine, gmma_moves(open(ptx_path).read(), smap))
        hot = sorted(lines, key=lambda l: -sum(lines[l].values()))[:5]
        agree = 0
        for l in hot:
            t_ncu, t_model = top(lines[l]), top(mine[l]["stalls"]) if l in mine else "-"
            agree += t_ncu == t_model
            rows.append((n, l, t_ncu, t_model, "yes" if t_ncu == t_model else "NO"))
        # ncu divides its warp cycles by the SASS instructions issued, the model by the PTX ones
        # (ptxas unrolls, merges, adds): the model's warp cycles over ncu's SASS count, where recorded,
        # compares the waiting itself (the model's cycles per PTX instruction beside it)
        cpi_ptx = model["warp_cycles_per_issue"]
        cpi_model = cpi_per_sass(model, sass_inst, grid) or cpi_ptx
        ok_lines = agree >= 0.8 * len(hot)
        ok_cpi = cpi_ncu is not None and abs(cpi_model / cpi_ncu - 1) <= 0.25
        bad += (not ok_lines) + (not ok_cpi)
        rows.append((n, "cpi", "%.2f" % cpi_ncu if cpi_ncu else "?",
                     "%.2f" % cpi_model + (" (%.2f a PTX instr.)" % cpi_ptx if cpi_model != cpi_ptx else ""),
                     "yes" if ok_cpi else "NO"))
        rows.append((n, "agree", "%d of %d" % (agree, len(hot)), "", "yes" if ok_lines else "NO"))
        table.append("| %s | %d | %s | %.2f%s | %.2f |" % (
            n[len("heldout:"):] if n.startswith("heldout:") else "lesson " + n, agree,
            "%.2f" % cpi_ncu if cpi_ncu else "?", cpi_model, "" if ok_cpi else " (off)", cpi_ptx))
    if a.table:
        print("| kernel | agree (of 5) | warp cycles / issue: ncu (H100) | model, per SASS instruction "
              "| model, per PTX instruction |")
        print("|---|---|---|---|---|")
        print("\n".join(table))
    else:
        print("%-22s %-6s %-20s %-20s %s" % ("kernel", "line", "ncu", "model", "match"))
        for r in rows:
            print("%-22s %-6s %-20s %-20s %s" % tuple(str(x) for x in r))
    sys.exit(2 if failed else 1 if bad else 0)


if __name__ == "__main__":
    main()
