#!/usr/bin/env python3
"""corpus.py: runs the students' corpus (corpus.tsv beside this file) and checks each row's outcome.

  python3 corpus.py emulate BIN [NAME...]  each row through `BIN run --emulate --json`, two at a
                                           time; prints "ok NAME" / "not ok NAME: why" (tests/e2e_students.sh)
  python3 corpus.py gpu BIN [NAME...]      each row through `BIN run --json` on the GPU, then a table:
                                           kernel, emulator outcome, GPU outcome, agree? (scripts/gpu-students.sh)

Exits non-zero when a row fails (emulate) or disagrees (gpu). The manifest's columns are in its
header; README.md beside it says how to add a kernel.
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# the emulator's printf lines start with who printed them; a GPU's are the bare text
WHO = re.compile(r"^\[block [0-9,]+ thread [0-9,]+\] ")


def die(msg):
    """A manifest or usage error: exit status 2, apart from 1 for rows that fail."""
    print(msg, file=sys.stderr)
    sys.exit(2)


def rows(names):
    """The manifest's rows as dicts, only those named when names are given."""
    out = []
    with open(os.path.join(HERE, "corpus.tsv"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 5:
                die(f"corpus.tsv:{n}: {len(cols)} columns, want 5 (name ptx options expect printf)")
            name, ptx, opts, expect, prints = cols
            if any(r["name"] == name for r in out):
                die(f"corpus.tsv:{n}: a second row named {name}")
            if names and name not in names:
                continue
            out.append({"name": name, "ptx": ptx, "opts": opts.split(), "expect": parse_expect(expect, n),
                        "expect_text": expect, "printf": parse_printf(prints, n)})
    return out


def parse_expect(s, n):
    """verified | wrong | race F:L | fault F:L | undefined F:L | assert "TEXT" F:L | refused F:L -> {kind, file, line, text}."""
    kind, _, rest = s.partition(" ")
    e = {"kind": kind, "file": None, "line": None, "text": None}
    if kind in ("verified", "wrong") and not rest:
        return e
    if kind == "assert":
        text, _, where = rest.rpartition(" ")
        if not (len(text) >= 2 and text[0] == '"' and text[-1] == '"'):
            die(f'corpus.tsv:{n}: assert wants "TEXT" FILE.cu:LINE')
        e["text"], rest = text[1:-1], where
    elif kind not in ("race", "fault", "undefined", "refused"):
        die(f"corpus.tsv:{n}: unknown outcome {s!r}")
    f, _, line = rest.rpartition(":")
    if not f.endswith(".cu") or not line.isdigit():
        die(f"corpus.tsv:{n}: {kind} wants FILE.cu:LINE, not {rest!r}")
    e["file"], e["line"] = f, int(line)
    return e


def parse_printf(s, n):
    """- | COUNT FIRST -> None | (count, start of a line)."""
    if s == "-":
        return None
    count, _, first = s.partition(" ")
    if not count.isdigit() or not first:
        die(f"corpus.tsv:{n}: printf wants - or COUNT TEXT")
    return int(count), first


def run(binary, row, emulate, wrap=(), raw=False):
    """Runs one row; returns (exit status, the report or None, stderr), or with raw the output
    itself (stdout and stderr together) in place of the report."""
    cmd = list(wrap) + [binary, "run"] + (["--emulate"] if emulate else []) + \
        ["--json", "--ptx", os.path.join(HERE, row["ptx"])] + row["opts"]
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if raw:
        return p.returncode, p.stdout + p.stderr, p.stderr
    try:
        rep = json.loads(p.stdout)
    except ValueError:
        rep = None
    return p.returncode, rep, p.stderr


def names_line(e, rep):
    """Problems with where the report says the run went wrong: the CUDA file and line, its text."""
    w = rep.get("where") or {}
    want = f"{e['file']}:{e['line']}"
    bad = []
    if want not in rep.get("message", ""):
        bad.append(f"the message does not name {want}: {rep.get('message')!r}")
    if e["kind"] != "assert" or "cu_line" in w:  # an assert's PTX may have no .loc: its text names the line
        if os.path.basename(w.get("cu_file") or "") != e["file"] or w.get("cu_line") != e["line"]:
            bad.append(f"where is {w.get('cu_file')}:{w.get('cu_line')}, not {want}")
        elif not w.get("cu_text"):
            bad.append(f"where has no source text for {want} (the .cu not found beside the PTX?)")
    return bad


def emu_problems(row, rc, rep):
    """Why the emulated row does not have its expected outcome ([] when it does)."""
    if rep is None:
        return [f"no JSON report (exit {rc})"]
    e, st = row["expect"], rep.get("status")
    races = (rep.get("emu") or {}).get("races") or 0
    want = {"verified": (0, "ok"), "wrong": (1, "wrong result"), "race": (1, "wrong result"),
            "fault": (2, "kernel fault"), "undefined": (2, "kernel fault"), "assert": (2, "kernel fault"),
            "refused": (2, "JIT error")}[e["kind"]]
    bad = []
    if e["kind"] == "refused" and st == "the emulator cannot run it":  # refused when it runs, not when it reads
        st = "JIT error"
    if (rc, st) != want:
        bad.append(f"exit {rc} and status {st!r}, want {want[0]} and {want[1]!r}: {rep.get('message')}")
    if e["kind"] in ("verified", "wrong") and races:
        bad.append(f"{races} shared-memory races")
    if e["kind"] == "race" and not races:
        bad.append("no race counted")
    if e["kind"] == "assert" and f"assert failed: {e['text']} at {e['file']}:{e['line']}" not in rep.get("message", ""):
        bad.append(f"the message is not the assert's text, file and line: {rep.get('message')!r}")
    if e["file"]:
        bad += names_line(e, rep)
    bad += printf_problems(row, rep)
    return bad


def printf_problems(row, rep, at_least=False):
    pr = rep.get("printf") or {}
    lines = pr.get("lines") or []
    if row["printf"] is None:
        return [f"printed {len(lines)} lines, want none"] if lines else []
    count, first = row["printf"]
    bare = WHO.sub("", first)
    # at_least: a GPU's assert stops the kernel only once other threads may have printed too
    if (len(lines) < count if at_least else len(lines) != count) or pr.get("dropped"):
        return [f"printed {len(lines)} lines ({pr.get('dropped')} dropped), want {count}"]
    # the emulator's lines carry who printed them, a GPU's do not (and come in any order)
    if not any(l.startswith(first) or WHO.sub("", l).startswith(bare) and not WHO.match(l) for l in lines):
        return [f"no line starts with {first!r}: {lines[:3]}"]
    return []


def emulate(binary, todo):
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda r: (r, run(binary, r, True)), todo)
        for row, (rc, rep, err) in results:
            bad = emu_problems(row, rc, rep)
            if bad:
                failed += 1
                print(f"not ok students_{row['name']}: {'; '.join(bad)}" + (f" [{err.strip()[:300]}]" if rep is None else ""))
            else:
                print(f"ok students_{row['name']}: {row['expect_text']}")
    return 1 if failed else 0


def gpu_outcome(rc, rep, err):
    """The GPU run's outcome in the manifest's words (verified, wrong, fault, assert, timeout, ...)."""
    if rep is None:
        return f"no report (exit {rc})"
    st = rep.get("status")
    if st == "ok" and rep.get("verified"):
        return "verified"
    if st == "wrong result":
        return "wrong"
    if st == "kernel fault":
        # CUDA_ERROR_ASSERT: the driver writes "FILE:LINE: FUNC: block: [...] Assertion `TEXT` failed." to stderr
        return "assert" if "Assertion" in err or "assert" in rep.get("message", "") else "fault"
    if st == "timed out":
        return "timeout"
    return st or "?"


def memcheck(binary, row):
    """A fault row the GPU ran without faulting (a read a few bytes past a buffer lands in mapped
    memory): run again under compute-sanitizer's memcheck, which knows each buffer's bounds."""
    cs = shutil.which("compute-sanitizer")  # gpu-students.sh puts /usr/local/cuda/bin on PATH
    if not cs:
        return None, "no compute-sanitizer here to look for the invalid access"
    # compute-sanitizer writes its findings to stdout, around the report
    _, out, _ = run(binary, row, False, [cs, "--tool", "memcheck", "--print-limit", "4"], raw=True)
    hit = re.search(r"Invalid __global__ (read|write) of size \d+ bytes", out)
    if not hit:
        return "no error under memcheck", out.strip()[-200:]
    at = re.search(r"(?m)^=+ +at .*$", out[hit.end():])
    return "fault (memcheck)", hit.group(0) + (" " + at.group(0).strip("= ") if at else "")


def gpu(binary, todo):
    table, bad, gaps = [], 0, 0
    for row in todo:
        e = row["expect"]
        rc, rep, err = run(binary, row, False)
        # the driver writes an assert's line to stderr (or, should it come that way, with the printed lines)
        err += "\n".join(((rep or {}).get("printf") or {}).get("lines") or [])
        got, note = gpu_outcome(rc, rep, err), ""
        if e["kind"] == "fault" and got in ("verified", "wrong"):
            got2, note = memcheck(binary, row)
            got = f"{got}; {got2}" if got2 else got
        k = e["kind"]
        if k == "race":
            ok = got in ("verified", "wrong")
            note = note or f"the GPU gives {got} (a race agrees with verified or wrong)"
        elif k == "fault":
            ok = got == "fault" or got.endswith("fault (memcheck)")
            if not ok and got.startswith("wrong"):  # past one buffer lies the next: wrong values, and no
                ok = True                           # allocation's bounds crossed for memcheck to see
                note = "the GPU read the next buffer's bytes: wrong values, which memcheck cannot see (" + note + ")"
        elif k == "undefined":  # undefined behaviour (a divergent .aligned barrier): any outcome a GPU gives
            ok = got in ("verified", "wrong", "fault", "timeout")
            note = f"undefined in PTX; the GPU gives {got}"
        elif k == "assert":
            ok = got == "assert" and e["text"].split('"')[0].strip() in err and f"{e['file']}:{e['line']}" in err
            if got == "assert" and not ok:
                note = "the driver's assertion line does not name the text or FILE.cu:LINE: " + err.strip()[:200]
        elif k == "refused":  # a known gap of the emulator: the GPU runs what it refuses
            ok = got == "verified"
            note = "the emulator refuses it (a gap; tests/students/README.md)"
        else:
            ok = got == k
        if ok and rep is not None:
            pp = printf_problems(row, rep, at_least=k == "assert")
            if pp:
                ok, note = False, "; ".join(pp)
        if not ok and not note and rep is not None:
            note = rep.get("message", "")
        bad += not ok
        gaps += ok and k == "refused"
        table.append((row["name"], row["expect_text"], got, "NO" if not ok else "gap" if k == "refused" else "yes", note))
    w = [max(len(t[i]) for t in table + [("kernel", "emulator", "GPU", "agree?", "")]) for i in range(3)]
    print(f"{'kernel':<{w[0]}}  {'emulator':<{w[1]}}  {'GPU':<{w[2]}}  agree?  note")
    for t in table:
        print(f"{t[0]:<{w[0]}}  {t[1]:<{w[1]}}  {t[2]:<{w[2]}}  {t[3]:<6}  {t[4]}")
    print(f"gpu-students: {len(table) - bad - gaps} of {len(table)} agree" + (f", {gaps} the emulator refuses" if gaps else "")
          + (f", {bad} disagree" if bad else ""))
    return 1 if bad else 0


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("emulate", "gpu"):
        die("usage: corpus.py emulate|gpu BIN [NAME...]")
    todo = rows(set(sys.argv[3:]))
    if not todo:
        die("corpus.py: no row of corpus.tsv has those names")
    sys.exit((emulate if sys.argv[1] == "emulate" else gpu)(sys.argv[2], todo))


if __name__ == "__main__":
    main()
