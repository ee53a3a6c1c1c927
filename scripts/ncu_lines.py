#!/usr/bin/env python3
"""ncu_lines: the emulator's per-PTX-line counts beside Nsight Compute's source counters, line by line.

For each lesson (default 1-8): `ptxtutor emulate N --size S --lines --json` on the CPU, and on
the GPU `ncu --section SourceCounters --import-source yes` of `ptxtutor run N --lineinfo --size S`
(the first launch of the lesson's entry only, not cuBLAS), whose source page is then printed as
CSV (`--page source --csv --print-source cuda,sass`, else `cuda`, else `sass` mapped to PTX lines
by the line table of the cubin the run really ran, from the JIT cache it is given: run_map). `run --lineinfo` JITs the `.loc` copy of the PTX, so every
SASS instruction carries the PTX line it came from. The two are joined by PTX line; for each line
with a memory access it prints:

  issued      the emulator's warp instructions on the line / ncu "Instructions Executed" of the
              line's memory SASS (LDG, STG, LDS, STS, LDSM, LDGSTS ...). Both count a warp whose
              lanes are all predicated off; the emulator's requests (shown apart) do not.
  requests    global requests / ncu "L1 Tag Requests Global" (when ncu has that column)
  sectors     global 32-byte sectors / ncu "L2 Theoretical Sectors Global"
  wavefronts  shared wavefronts / ncu "L1 Wavefronts Shared"
  conflicts   bank conflicts / ncu "L1 Wavefronts Shared Excessive" (else wavefronts - "... Ideal")

with the ratio farthest from 1 and OK, or DIFF when a pair differs by more than --tolerance
(1%). Then a summary per lesson, and the instruction counts of all lines: PTX warp instructions
(emulator) against SASS warp instructions (ncu) attributed to the lines, which differ by design
(ptxas makes several SASS instructions of one PTX line, or none).

Every file read is kept in --raw DIR: the emulator's JSON, ncu's report (.ncu-rep) and logs, each
source view's CSV, the SASS map, and the joined table per lesson (lesson_N.joined.csv).
`--emu-json F --ncu-csv F [--sass-json F] [--ptx F]` compares files already made, offline.

Exit status: 1 if a memory line differs, 2 if a lesson could not be compared, else 0; everything
is printed first.
"""
import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# ---- ncu's source page as CSV ----

# The columns, matched loosely (case and blanks ignored; exact name first, then a header that
# contains it without the excluded words): key -> (name, words a match must not contain).
COLUMNS = {
    "inst": ("Instructions Executed", ("thread", "predicated", "avg")),
    "greq": ("L1 Tag Requests Global", ()),
    "sectors": ("L2 Theoretical Sectors Global", ("ideal", "excessive", "local")),
    "wavefronts": ("L1 Wavefronts Shared", ("ideal", "excessive")),
    "ideal": ("L1 Wavefronts Shared Ideal", ()),
    "excessive": ("L1 Wavefronts Shared Excessive", ()),
}
# Needed for the comparison; a missing one is said, with the header, and the others go on.
NEEDED = ("inst", "sectors", "wavefronts")
LINE_NAMES = ("line no", "line", "# line", "#", "line number")
ADDR_NAMES = ("address", "# address")
CONTEXT_NAMES = ("file path", "file", "function name", "kernel name")
# The SASS opcodes that access global or shared memory (a request each).
MEMORY_OPS = {"LDG", "STG", "LDS", "STS", "LDSM", "STSM", "LDGSTS", "LD", "ST", "ATOM", "ATOMS", "ATOMG", "RED", "REDG"}


def norm(s):
    return " ".join(str(s).strip().lower().split())


def find_col(header, name, exclude=()):
    """Index of the column called name in header (loosely), or None."""
    want = norm(name)
    cells = [norm(h) for h in header]
    if want in cells:
        return cells.index(want)
    for i, h in enumerate(cells):
        if want in h and not any(x in h for x in exclude):
            return i
    return None


def number(s):
    """A CSV cell as a number: '1,234' -> 1234, '1.5 K' -> 1500; '', '-', 'n/a' -> 0."""
    t = str(s).strip().replace(",", "")
    m = re.match(r"^([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)\s*([kKmMgG]?)$", t)
    if not m:
        return 0.0
    return float(m.group(1)) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2).lower()]


def is_hex(s):
    return bool(re.match(r"^(0x)?[0-9a-fA-F]+$", s.strip())) and s.strip() not in ("",)


def is_line(s):
    return bool(re.match(r"^\d+$", s.strip()))


def is_header(row):
    cells = [norm(c) for c in row]
    return "source" in cells and any(c in LINE_NAMES or c in ADDR_NAMES for c in cells)


def parse_source_csv(text):
    """The blocks of an `ncu --page source --csv` print: each {file, function, header, rows}.

    A block starts at a header row (one with a "Source" column and an address or line column),
    after optional "File Path"/"Function Name"/"Kernel Name" rows; ncu's own "==PROF==" lines
    are skipped."""
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("==")]
    blocks, ctx, cur = [], {}, None
    for row in csv.reader(io.StringIO("\n".join(lines))):
        if not row:
            continue
        if len(row) >= 2 and norm(row[0]) in CONTEXT_NAMES and not is_header(row):
            key = "file" if norm(row[0]).startswith("file") else "function"
            ctx = dict(ctx, **{key: row[1]})
            cur = None
            continue
        if is_header(row):
            cur = {"file": ctx.get("file"), "function": ctx.get("function"), "header": row, "rows": []}
            blocks.append(cur)
            continue
        if cur is not None:
            cur["rows"].append(row)
    return blocks


def opcode(sass):
    """The opcode of a SASS instruction without its guard: "@P0 LDG.E.128 R4, [R2]" -> "LDG"."""
    t = re.sub(r"^@!?U?P\w+\s+", "", sass.strip())
    op = t.split()[0] if t.split() else ""
    return op.split(".")[0].upper()


def alike(a, b):
    """Two printings of one SASS instruction (ncu's and nvdisasm's differ in .reuse flags, branch
    labels and an LDGSTS's operand order): the same opcode and registers."""
    def key(t):
        words = [w for w in t.split() if not w.startswith("@")]
        return (words[0] if words else "", sorted(re.findall(r"\bU?[RP]\d+\b", t)))
    return key(a) == key(b)


def memory_op(sass):
    return opcode(sass) in MEMORY_OPS


def new_line():
    return {"inst": 0.0, "inst_mem": 0.0, "greq": 0.0, "sectors": 0.0, "wavefronts": 0.0, "ideal": 0.0,
            "excessive": 0.0, "sass": [], "text": ""}


def attribute(blocks, entry=None, addr_map=None):
    """The source blocks' counts per PTX line.

    Returns {lines: {line: counts}, unattributed: counts, view: 'cuda,sass'|'cuda'|'sass'|None,
    cols: {key: header name or None}, header: the block's header, missing: [needed keys]}.
    SASS rows (an address) are attributed to the line row above them, to their own line cell, or
    through addr_map ({offset: (line, SASS text)}, offsets from the function's first address; a
    row whose opcode differs from the map's is counted in "mismatched"); without SASS rows the
    line rows' own counts are used."""
    mine = [b for b in blocks if not entry or not b["function"] or entry in b["function"]] or blocks
    out = {"lines": {}, "unattributed": new_line(), "view": None, "cols": {}, "header": [], "missing": [],
           "unmapped": 0, "mismatched": 0}
    if not mine:
        return out
    header = mine[0]["header"]
    out["header"] = header
    li = next((i for i, h in enumerate(header) if norm(h) in LINE_NAMES), None)
    ai = next((i for i, h in enumerate(header) if norm(h) in ADDR_NAMES), None)

    def cell(row, i):
        return row[i] if i is not None and i < len(row) else ""

    # A bare "#" may be a row number rather than a line: it is a line only when some row has
    # it without an address (a source line's own row).
    if li is not None and norm(header[li]) == "#" and not any(
            is_line(cell(r, li)) and not is_hex(cell(r, ai)) for b in mine for r in b["rows"]):
        li = None
    srcs = [i for i, h in enumerate(header) if norm(h) == "source"]
    text_i = srcs[0] if li is not None and srcs else None
    sass_i = srcs[1] if li is not None and len(srcs) > 1 else (srcs[0] if li is None and srcs else None)
    col = {k: find_col(header, n, ex) for k, (n, ex) in COLUMNS.items()}
    out["cols"] = {k: (header[i] if i is not None else None) for k, i in col.items()}
    out["missing"] = [k for k in NEEDED if col[k] is None]

    def add(c, row, sass):
        for k in ("inst", "greq", "sectors", "wavefronts", "ideal", "excessive"):
            c[k] += number(cell(row, col[k]))
        if sass is not None:
            c["sass"].append(sass)
            if memory_op(sass):
                c["inst_mem"] += number(cell(row, col["inst"]))

    # A SASS row without a line of its own belongs to a line row next to it: the one above it
    # (ncu lists a line, then its SASS), or, should this ncu list them the other way, the one
    # below; the order whose sums match the line rows' own counts is taken.
    sass_rows, line_rows = [], []  # [after, before, row, sass text], (line, row, text)
    for b in mine:
        cur, pending = None, []
        addrs = [int(cell(r, ai), 16) for r in b["rows"] if ai is not None and is_hex(cell(r, ai))]
        base = min(addrs) if addrs else 0
        for r in b["rows"]:
            lv, av = cell(r, li).strip(), cell(r, ai).strip()
            if is_hex(av):
                if is_line(lv):
                    item = [int(lv), int(lv), r, cell(r, sass_i).strip()]
                elif li is not None:
                    item = [cur, None, r, cell(r, sass_i).strip()]
                    pending.append(item)
                elif addr_map is not None:
                    line, want = addr_map.get(int(av, 16) - base, (None, ""))
                    out["unmapped"] += line is None
                    out["mismatched"] += line is not None and opcode(want) != opcode(cell(r, sass_i))
                    item = [line, line, r, cell(r, sass_i).strip()]
                else:
                    item = [None, None, r, cell(r, sass_i).strip()]
                sass_rows.append(item)
            elif is_line(lv):
                cur = int(lv)
                line_rows.append((cur, r, cell(r, text_i)))
                for item in pending:
                    item[1] = cur
                pending = []

    def matches(which):
        sums = {}
        for item in sass_rows:
            if item[which]:
                sums[item[which]] = sums.get(item[which], 0) + number(cell(item[2], col["inst"]))
        return sum(1 for line, r, _ in line_rows if number(cell(r, col["inst"])) and
                   sums.get(line) == number(cell(r, col["inst"])))

    which = 1 if line_rows and col["inst"] is not None and matches(1) > matches(0) else 0
    out["order"] = "SASS rows before their line" if which else "SASS rows after their line"
    sass_rows = [(item[which], item[2], item[3]) for item in sass_rows]
    if sass_rows:
        out["view"] = "cuda,sass" if li is not None else "sass"
        for line, r, sass in sass_rows:
            c = out["lines"].setdefault(line, new_line()) if line else out["unattributed"]
            add(c, r, sass)
        for line, r, text in line_rows:
            out["lines"].setdefault(line, new_line())["text"] = text
    elif line_rows:
        out["view"] = "cuda"
        for line, r, text in line_rows:
            c = out["lines"].setdefault(line, new_line())
            add(c, r, None)
            c["text"] = text
    return out


def cubin_elf(cache_dir):
    """The cubin the driver's JIT wrote into its cache under cache_dir (an ELF inside an entry of an
    undocumented format: found by its magic, cut at its section and program headers), else None."""
    import struct
    for root, _, files in os.walk(cache_dir):
        for name in sorted(files):
            b = open(os.path.join(root, name), "rb").read()
            i = b.find(b"\x7fELF")
            if i < 0 or len(b) < i + 0x40:
                continue
            phoff, shoff = struct.unpack_from("<QQ", b, i + 0x20)
            phsize, phnum, shsize, shnum = struct.unpack_from("<HHHH", b, i + 0x36)
            end = i + max(shoff + shsize * shnum, phoff + phsize * phnum)
            if end <= len(b):
                return b[i:end]
    return None


def nvdisasm_map(text, entry=None):
    """{byte offset: (PTX line, SASS text)} of the entry's .text section in `nvdisasm -g` output (the
    line None for an instruction before any line, and for all of them without -g)."""
    out, line, inside = {}, None, False
    for l in text.splitlines():
        if l.startswith("//---------------------"):  # a section begins: the entry's .text, or past it
            if inside:
                break
            inside = ".text." in l and (not entry or l.split(".text.", 1)[1].split()[0] == entry)
            continue
        m = re.match(r'\s*//## File ".*", line (\d+)', l) if inside else None
        if m:
            line = int(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*$", l) if inside else None
        if m:
            out[int(m.group(1), 16)] = (line, " ".join(m.group(2).split()))
    return out


def run_map(cache_dir, entry, nvdisasm, log=None):
    """The SASS map of the code a profiled `ptxtutor run --lineinfo` really ran: its cubin from the
    JIT cache it was given (CUDA_CACHE_PATH=cache_dir), disassembled with nvdisasm -g. None when
    that cannot be had. (`ptxtutor sass --jit` compiles through cuLink, whose code differs: on the
    H200, 2026-11-28, 50 of lesson 7's 2448 instructions alike at the same address.)"""
    elf = cubin_elf(cache_dir)
    if elf is None:
        return None
    path = os.path.join(cache_dir, "run.cubin")
    with open(path, "wb") as f:
        f.write(elf)
    rc, out, _ = run([nvdisasm, "-g", path], log)
    return nvdisasm_map(out, entry) or None if rc == 0 else None


def sass_map(sass_json):
    """{byte offset: (PTX line, SASS text)} from `ptxtutor sass N --json` (its "instructions")."""
    return {int(i["addr"]): (int(i["line"]), i.get("sass", "")) for i in sass_json.get("instructions", [])
            if i.get("line")}


# ---- the join ----

PAIRS = ("issued", "requests", "sectors", "wavefronts", "conflicts")
# The pairs that are one quantity on both sides and so decide OK or DIFF. The other two are shown:
# ncu's "Instructions Executed" counts the SASS of a line, predicated-off copies of an unrolled
# loop included, and its "L1 Tag Requests Global" counts tag lookups (one per 128-byte line: 32
# for lesson 1's A), not requests (measured on the H100, 2026-11-25: docs/emulator.md).
JUDGED = ("sectors", "wavefronts", "conflicts")


def ratio_ok(e, n, tol):
    if e == n:
        return 1.0, True
    if n == 0:
        return float("inf"), False
    r = e / n
    return r, abs(r - 1) <= tol


def join(emu, ncu, ptx_lines, tol):
    """Rows for every PTX line with a memory access on either side, in line order: {line, ptx,
    requests (the emulator's), pairs {name: (emu, ncu or None)}, ratio, ok}."""
    el = {r["line"]: r for r in emu["per_line"]["lines"] if r.get("line")}
    nl = ncu["lines"]
    have_sass = ncu["view"] in ("cuda,sass", "sass")
    cols = ncu["cols"]
    rows = []
    for line in sorted(set(el) | set(nl)):
        e = el.get(line, {})
        n = nl.get(line, new_line())
        emem = (e.get("global_requests") or 0) + (e.get("shared_requests") or 0)
        nmem = n["inst_mem"] or n["sectors"] or n["wavefronts"]
        if not emem and not nmem:
            continue
        excess = None
        if cols.get("excessive"):
            excess = n["excessive"]
        elif cols.get("ideal") and cols.get("wavefronts"):
            excess = n["wavefronts"] - n["ideal"]
        pairs = {
            "issued": (e.get("instructions") or 0, n["inst_mem"] if have_sass and cols.get("inst") else None),
            "requests": (e.get("global_requests") or 0, n["greq"] if cols.get("greq") else None),
            "sectors": (e.get("sectors") or 0, n["sectors"] if cols.get("sectors") else None),
            "wavefronts": (e.get("wavefronts") or 0, n["wavefronts"] if cols.get("wavefronts") else None),
            "conflicts": (e.get("bank_conflicts") or 0, excess),
        }
        # requests: only global lines have an ncu column to meet
        if not e.get("global_requests") and not n["greq"]:
            pairs["requests"] = (0, None)
        worst, ok = 1.0, True
        for name in JUDGED:
            ev, nv = pairs[name]
            if nv is None or (ev == 0 and nv == 0):
                continue
            r, good = ratio_ok(ev, nv, tol)
            if not good or abs(r - 1) > abs(worst - 1):
                worst = r
            ok = ok and good
        text = ptx_lines[line - 1] if 0 < line <= len(ptx_lines) else n["text"]
        text = text.split("//")[0].strip()  # the instruction, not its comment
        # the emulator's requests: a cp.async line's are its global ones (its shared side is the same warps)
        req = e.get("global_requests") or e.get("shared_requests") or 0
        rows.append({"line": line, "ptx": text, "requests": req, "pairs": pairs, "ratio": worst, "ok": ok,
                     "sass": n["sass"]})
    return rows


def instruction_totals(emu, ncu):
    el = [r for r in emu["per_line"]["lines"]]
    e = sum(r.get("instructions") or 0 for r in el)
    n = sum(c["inst"] for c in ncu["lines"].values())
    u = ncu["unattributed"]["inst"]
    return {"emu": e, "emu_lines": len(el), "ncu": n, "ncu_lines": sum(1 for c in ncu["lines"].values() if c["inst"]),
            "ncu_unattributed": u}


# ---- printing ----

def fmt(v):
    if v is None:
        return "n/a"
    return "%.0f" % v


def short(t, n=40):
    t = " ".join(t.split())
    return t if len(t) <= n else t[: n - 1] + "~"


def pair_cell(p):
    e, n = p
    if n is None:
        return "%s/n/a" % fmt(e) if e else "-"
    if e == 0 and n == 0:
        return "-"
    return "%s/%s" % (fmt(e), fmt(n))


def ratio_cell(r):
    return "inf" if r == float("inf") else "%.4f" % r


def write_joined(path, rows_all, ncu):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["line", "ptx", "emu_requests"] + ["emu_%s" % p for p in PAIRS] + ["ncu_%s" % p for p in PAIRS]
                   + ["ratio", "verdict", "ncu_sass"])
        for r in rows_all:
            w.writerow([r["line"], r["ptx"], "%.0f" % r["requests"]] + [fmt(r["pairs"][p][0]) for p in PAIRS]
                       + [fmt(r["pairs"][p][1]) for p in PAIRS] + [ratio_cell(r["ratio"]), "OK" if r["ok"] else "DIFF",
                                                                    " | ".join(r["sass"])])


class Report:
    """Collects every lesson's rows and summary; prints each lesson as text as it comes (so a run
    cut short still shows what it did) and rewrites the Markdown file, when asked, after each."""

    def __init__(self, tol, out=sys.stdout, md=None):
        self.tol, self.out, self.md = tol, out, md
        self.lessons = []  # (label, rows, summary line, totals line, notes)

    def add(self, label, rows, summary, totals, notes):
        self.lessons.append((label, rows, summary, totals, notes))
        self.text(self.out, self.lessons[-1:])
        self.out.flush()
        if self.md and self.md != "-":
            with open(self.md, "w") as f:
                self.markdown(f)

    def text(self, out, lessons):
        for label, rows, summary, totals, notes in lessons:
            print("== %s" % label, file=out)
            for n in notes:
                print("   " + n, file=out)
            if rows:
                print("%5s  %-40s %9s %17s %15s %17s %17s %15s %8s  %s" % (
                    "line", "PTX", "requests", "issued emu/ncu", "g.requests", "sectors emu/ncu",
                    "wavefronts emu/ncu", "conflicts", "ratio", ""), file=out)
            for r in rows:
                p = r["pairs"]
                print("%5d  %-40s %9s %17s %15s %17s %17s %15s %8s  %s" % (
                    r["line"], short(r["ptx"]), fmt(r["requests"]), pair_cell(p["issued"]), pair_cell(p["requests"]),
                    pair_cell(p["sectors"]), pair_cell(p["wavefronts"]), pair_cell(p["conflicts"]),
                    ratio_cell(r["ratio"]), "OK" if r["ok"] else "DIFF"), file=out)
            print(summary, file=out)
            if totals:
                print(totals, file=out)
            print(file=out)

    def markdown(self, out):
        print("Tolerance %.1f%%. Each cell is emulator/ncu: issued = warp instructions on the line / ncu "
              "\"Instructions Executed\" of its memory SASS; g. requests / \"L1 Tag Requests Global\"; sectors / "
              "\"L2 Theoretical Sectors Global\"; wavefronts / \"L1 Wavefronts Shared\"; conflicts / "
              "\"L1 Wavefronts Shared Excessive\"." % (100 * self.tol), file=out)
        print(file=out)
        print("| lesson | line | PTX | requests | issued | g. requests | sectors | wavefronts | conflicts | ratio | |",
              file=out)
        print("|---|---|---|---|---|---|---|---|---|---|---|", file=out)
        for label, rows, summary, totals, notes in self.lessons:
            if not rows:
                print("| %s | | %s | | | | | | | | |" % (label, "; ".join(notes + [summary]).replace("|", "/")),
                      file=out)
            for r in rows:
                p = r["pairs"]
                print("| %s | %d | `%s` | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    label.split(" (")[0], r["line"], short(r["ptx"], 48).replace("|", "\\|"), fmt(r["requests"]),
                    pair_cell(p["issued"]), pair_cell(p["requests"]), pair_cell(p["sectors"]),
                    pair_cell(p["wavefronts"]), pair_cell(p["conflicts"]), ratio_cell(r["ratio"]),
                    "OK" if r["ok"] else "**DIFF**"), file=out)
        print(file=out)
        for label, rows, summary, totals, notes in self.lessons:
            print("- %s: %s%s" % (label, summary, ("; " + totals) if totals else ""), file=out)


def compare(label, emu, ncu, ptx_text, tol, report, raw=None, stem=None, notes=None):
    """Joins one lesson's emulator JSON and parsed ncu view into the report. Returns (diffs, broken)."""
    notes = list(notes or [])
    if ncu["view"] is None or not ncu["lines"]:
        why = " (a sass view needs the SASS map: --sass-json)" if ncu["view"] == "sass" else ""
        report.add(label, [], "no line-attributed rows in ncu's source page%s; its header: %s" % (
            why, ",".join(ncu["header"])), "", notes)
        return 0, 1
    if ncu["missing"]:
        notes.append("ncu has no column for %s; its header: %s" % (
            ", ".join(COLUMNS[k][0] for k in ncu["missing"]), ",".join(ncu["header"])))
    if ncu["view"] == "cuda":
        notes.append("ncu's cuda view has no SASS rows: 'issued' is not compared")
    if ncu.get("order", "").startswith("SASS rows before"):
        notes.append("this ncu lists a line's SASS rows before the line's own row (its sums say so)")
    if ncu.get("unmapped"):
        notes.append("%d SASS rows had no PTX line in the SASS map" % ncu["unmapped"])
    if ncu.get("mismatched"):
        notes.append("%d SASS rows differ in opcode from the SASS map (another compile?): lines may be wrong"
                     % ncu["mismatched"])
    rows = join(emu, ncu, ptx_text.splitlines(), tol)
    if raw and stem:
        write_joined(os.path.join(raw, stem + ".joined.csv"), rows, ncu)
    diffs = sum(not r["ok"] for r in rows)
    t = instruction_totals(emu, ncu)
    summary = "%d memory lines, %d OK, %d DIFF (ncu view: %s)" % (len(rows), len(rows) - diffs, diffs, ncu["view"])
    totals = ("instructions, all lines: emulator %.0f PTX warp instructions on %d lines; ncu %.0f SASS warp "
              "instructions on %d lines (+%.0f with no line); they differ by design: ptxas makes several SASS "
              "instructions of one PTX line, or none" % (t["emu"], t["emu_lines"], t["ncu"], t["ncu_lines"],
                                                         t["ncu_unattributed"]))
    report.add(label, rows, summary, totals, notes)
    return diffs, 0


# ---- running the tools ----

def run(cmd, log=None, timeout=900, env=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout, env=env)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except (OSError, subprocess.TimeoutExpired) as e:
        rc, out, err = 127, "", str(e)
    if log:
        with open(log, "w") as f:
            f.write("$ %s\n# rc %d\n## stdout\n%s\n## stderr\n%s\n" % (" ".join(cmd), rc, out, err))
    return rc, out, err


def last_line(out, err):
    t = (err or out or "").strip().splitlines()
    return t[-1] if t else "(no output)"


def emulate(bin_, lesson, sizes, raw):
    why = ""
    for s in sizes:
        rc, out, err = run([bin_, "emulate", str(lesson), "--size", s, "--lines", "--json"],
                           os.path.join(raw, "lesson_%s.emulate_%s.log" % (lesson, s)))
        if rc in (0, 1) and out.strip().startswith("{"):
            with open(os.path.join(raw, "lesson_%s.emulate.json" % lesson), "w") as f:
                f.write(out)
            return s, json.loads(out), None
        why = last_line(out, err)
    return None, None, why


# In order of preference: PTX lines with their SASS rows; SASS rows mapped to lines by the
# SASS view's own line table; the lines alone (no per-instruction rows).
VIEWS = ("cuda,sass", "sass", "cuda")


def profile(a, lesson, size, entry, raw):
    """Profiles the first launch of entry; returns {view: csv text} for the views ncu printed."""
    stem = os.path.join(raw, "lesson_%s" % lesson)
    target = [a.bin, "run", str(lesson), "--lineinfo", "--size", size]
    common = ["--target-processes", "all", "--section", "SourceCounters", "--import-source", "yes",
              "-k", "regex:^%s$" % re.escape(entry), "-c", "1"]
    rep = stem + ".ncu-rep"
    env = dict(os.environ, CUDA_CACHE_PATH=stem + ".jitcache")  # the cubin it runs, for run_map
    rc, out, err = run([a.ncu] + common + ["-f", "-o", stem] + target, stem + ".profile.log", env=env)
    if rc != 0 or not os.path.exists(rep):
        # An ncu that refuses --import-source still maps lines (they are in the cubin).
        common = [c for c in common if c not in ("--import-source", "yes")]
        rc, out, err = run([a.ncu] + common + ["-f", "-o", stem] + target, stem + ".profile2.log")
    texts = {}
    for view in VIEWS:
        name = "%s.source_%s.csv" % (stem, view.replace(",", "_"))
        if os.path.exists(rep):
            rc, out, err = run([a.ncu, "-i", rep, "--page", "source", "--csv", "--print-source", view], name + ".log")
        else:  # no report file: profile again, printing the page at once
            rc, out, err = run([a.ncu] + common + ["--page", "source", "--csv", "--print-source", view] + target,
                               name + ".log")
        with open(name, "w") as f:
            f.write(out)
        if rc == 0 and out.strip():
            texts[view] = out
    return texts


def best_view(texts, entry, addr_map_fn):
    """The first view whose rows carry PTX lines: cuda,sass, then cuda, then sass through the SASS map."""
    tried = []
    for view in VIEWS:
        if view not in texts:
            continue
        blocks = parse_source_csv(texts[view])
        amap = addr_map_fn() if view == "sass" else None
        if view == "sass" and amap is None:
            tried.append("sass (no SASS map)")
            continue
        got = attribute(blocks, entry, amap)
        if got["view"] and got["lines"]:
            return got, tried
        tried.append("%s (%s)" % (view, "no rows" if not blocks else "no PTX lines"))
    return None, tried


def lesson_list(a):
    if a.lessons:
        return a.lessons
    return [str(n) for n in range(1, 9)]


def check_binary(a):
    rc, out, err = run([a.bin, "run", "--help"])
    if rc != 0:
        return "%s run --help failed: %s" % (a.bin, last_line(out, err))
    if "--lineinfo" not in out:
        return "%s has no `run --lineinfo` (build ptxtutor from the branch that adds it)" % a.bin
    return None


def offline(a, report):
    """--emu-json/--ncu-csv: compare files already made."""
    try:
        emu = json.load(open(a.emu_json))
        text = open(a.ncu_csv).read()
        amap = sass_map(json.load(open(a.sass_json))) if a.sass_json else None
        ptx_path = a.ptx or emu.get("ptx") or ""
        ptx_text = open(ptx_path).read() if ptx_path and os.path.exists(ptx_path) else ""
    except (OSError, ValueError) as e:
        print("ncu_lines: %s" % e, file=sys.stderr)
        return 0, 1
    if "per_line" not in emu or not emu["per_line"]:
        print("ncu_lines: %s has no per_line (made without --lines?)" % a.emu_json, file=sys.stderr)
        return 0, 1
    ncu = attribute(parse_source_csv(text), emu.get("entry"), amap)
    return compare(a.label or emu.get("entry", "kernel"), emu, ncu, ptx_text, a.tolerance, report)


def online(a, report):
    bad = check_binary(a)
    if bad:
        print("ncu_lines: %s" % bad, file=sys.stderr)
        return 0, 1, True
    if not (os.path.exists(a.ncu) or shutil.which(a.ncu)):
        print("ncu_lines: no ncu at %s (set NCU or --ncu)" % a.ncu, file=sys.stderr)
        return 0, 1, True
    diffs = broken = 0
    for lesson in lesson_list(a):
        size, emu, why = emulate(a.bin, lesson, a.sizes.split(","), a.raw)
        if emu is None:
            report.add("lesson %s" % lesson, [], "emulate failed: %s" % why, "", [])
            broken += 1
            continue
        entry = emu.get("entry") or emu.get("kernel") or ""
        label = "lesson %s (%s, %s^3)" % (lesson, entry, size)
        notes = [] if emu.get("verified") else ["emulator: not verified: %s" % emu.get("message", "")]
        t0 = time.time()
        texts = profile(a, lesson, size, entry, a.raw)
        notes.append("ncu took %.0f s; views printed: %s" % (time.time() - t0, ", ".join(texts) or "none"))
        cache = {}

        def amap():
            if "m" not in cache:
                cache["m"] = run_map(os.path.join(a.raw, "lesson_%s.jitcache" % lesson), entry, a.nvdisasm,
                                     os.path.join(a.raw, "lesson_%s.sass_run.log" % lesson))
                if cache["m"] is None:  # no cubin in the run's JIT cache: cuLink's compile, which may differ
                    rc, out, err = run([a.bin, "sass", str(lesson), "--json", "--jit"],
                                       os.path.join(a.raw, "lesson_%s.sass_jit.log" % lesson))
                    if rc == 0 and out.strip().startswith("{"):
                        with open(os.path.join(a.raw, "lesson_%s.sass_jit.json" % lesson), "w") as f:
                            f.write(out)
                        cache["m"] = sass_map(json.loads(out))
            return cache["m"]

        ncu, tried = best_view(texts, entry, amap)
        if ncu is None:
            log = os.path.join(a.raw, "lesson_%s.profile2.log" % lesson)
            if not os.path.exists(log):
                log = os.path.join(a.raw, "lesson_%s.profile.log" % lesson)
            tail = open(log).read().strip().splitlines()[-3:] if os.path.exists(log) else []
            report.add(label, [], "ncu gave no line-attributed counts; tried %s; profile log ends: %s" % (
                ", ".join(tried) or "no view printed anything", " / ".join(tail)), "", notes)
            broken += 1
            continue
        if tried:
            notes.append("views without PTX lines: %s" % ", ".join(tried))
        ptx_path = emu.get("ptx") or ""
        ptx_text = open(ptx_path).read() if ptx_path and os.path.exists(ptx_path) else ""
        d, b = compare(label, emu, ncu, ptx_text, a.tolerance, report, a.raw, "lesson_%s" % lesson, notes)
        diffs += d
        broken += b
    return diffs, broken, False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="Run on the GPU machine from the project root: sh scripts/ncu_lines.sh "
                                        "--raw DIR --md FILE [LESSON...]")
    ap.add_argument("--bin", default=os.environ.get("PTXTUTOR_BIN", "./ptxtutor"))
    ap.add_argument("--ncu", default=os.environ.get("NCU") or shutil.which("ncu") or "/usr/local/cuda/bin/ncu")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "/usr/local/cuda/bin/nvdisasm")
    ap.add_argument("--sizes", default="256,512,384,128", help="sizes to try in order (the first the lesson takes)")
    ap.add_argument("--tolerance", type=float, default=0.01)
    ap.add_argument("--raw", help="keep every file read here (default: a new folder under /tmp, printed)")
    ap.add_argument("--md", help="also write the table as Markdown to this file ('-': stdout)")
    ap.add_argument("--emu-json", help="offline: an `emulate N --lines --json` output ...")
    ap.add_argument("--ncu-csv", help="... and an `ncu --page source --csv` print of the same kernel")
    ap.add_argument("--sass-json", help="offline, for a sass-only print: `ptxtutor sass N --json` (the line map)")
    ap.add_argument("--ptx", help="offline: the PTX file (default: the emulator JSON's \"ptx\")")
    ap.add_argument("--label", help="offline: the name to print")
    ap.add_argument("lessons", nargs="*", help="lesson numbers or ids (default 1-8)")
    a = ap.parse_args()
    if a.tolerance < 0:
        print("ncu_lines: --tolerance must be >= 0", file=sys.stderr)
        return 2
    report = Report(a.tolerance, sys.stdout, a.md)
    if a.emu_json or a.ncu_csv:
        if not (a.emu_json and a.ncu_csv):
            print("ncu_lines: --emu-json and --ncu-csv go together", file=sys.stderr)
            return 2
        diffs, broken = offline(a, report)
        fatal = False
    else:
        if not a.raw:
            a.raw = tempfile.mkdtemp(prefix="ncu_lines_")
        os.makedirs(a.raw, exist_ok=True)
        print("ncu_lines: raw files in %s" % a.raw)
        diffs, broken, fatal = online(a, report)
    if fatal:
        return 2
    if a.md == "-":
        report.markdown(sys.stdout)
    print("%d memory lines differ by more than %.1f%%; %d lesson(s) could not be compared" % (
        diffs, 100 * a.tolerance, broken))
    return 1 if diffs else (2 if broken else 0)


if __name__ == "__main__":
    sys.exit(main())
