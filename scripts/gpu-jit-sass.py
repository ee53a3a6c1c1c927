#!/usr/bin/env python3
"""gpu-jit-sass.py: does `ptxtutor sass T --jit` show the code `ptxtutor run T` runs? On the GPU machine with the
staged build: each target's `sass --jit --json` instructions beside the cubin of `run T --lineinfo` (the run given a
JIT cache of its own, CUDA_CACHE_PATH; the cubin read with nvdisasm -g: scripts/ncu_lines.py run_map), and that
beside the cubin of a plain `run T` (the line information changes no instruction, as the README says),
instruction by instruction (opcode and registers). Prints a line a target; exits 1 when one differs.

    python3 scripts/gpu-jit-sass.py 1 2 ... 11 heldout:NAME...
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_lines import alike, cubin_elf, nvdisasm_map, run_map  # noqa: E402
from ncu_stalls_compare import target  # noqa: E402


def text_of(elf, entry, nvd, d):
    """{offset: SASS text} of a cubin without line information (nvdisasm of the entry's .text)."""
    if not elf:
        return {}
    path = os.path.join(d, "plain.cubin")
    with open(path, "wb") as f:
        f.write(elf)
    out = subprocess.run([nvd, path], capture_output=True, text=True).stdout
    return {a: t for a, (_, t) in nvdisasm_map(out, entry).items()}


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = os.environ.get("PTXTUTOR_BIN", "./ptxtutor")
    nvd = shutil.which("nvdisasm") or "/usr/local/cuda/bin/nvdisasm"
    bad = 0
    for t in sys.argv[1:]:
        flags, sflags = target(t, root)
        p = subprocess.run([binary, "sass"] + sflags + ["--jit", "--json"], capture_output=True, text=True)
        try:
            js = json.loads(p.stdout)
        except ValueError:
            print("%s: sass --jit failed: %s" % (t, (p.stderr or p.stdout).strip()[:200]))
            bad += 1
            continue
        mine = {i["addr"]: i.get("sass", "") for i in js.get("instructions", [])}
        with tempfile.TemporaryDirectory() as d:
            for extra in (["--lineinfo"], []):
                subprocess.run([binary, "run"] + flags + extra + ["--size", "256"], capture_output=True,
                               env=dict(os.environ, CUDA_CACHE_PATH=os.path.join(d, "jit%d" % len(extra))))
            m = run_map(os.path.join(d, "jit1"), js["entry"], nvd) or {}
            plain = text_of(cubin_elf(os.path.join(d, "jit0")), js["entry"], nvd, d)
        same = sum(1 for a, (_, s) in m.items() if alike(mine.get(a, ""), s))
        same_plain = sum(1 for a, (_, s) in m.items() if alike(plain.get(a, ""), s))
        ok = m and same == len(m) == len(mine) == same_plain == len(plain)
        bad += not ok
        print("%-24s run --lineinfo %4d  sass --jit %4d alike %4d  plain run %4d alike %4d  %s" %
              (t, len(m), len(mine), same, len(plain), same_plain, "ok" if ok else "DIFFERENT"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
