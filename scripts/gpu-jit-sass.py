#!/usr/bin/env python3
"""gpu-jit-sass.py: does `ptxtutor sass T --jit` show the code `ptxtutor run T --lineinfo` runs? On the GPU machine
with the staged build: each target's `sass --jit --json` instructions beside the run's own cubin (the run given a
JIT cache of its own, CUDA_CACHE_PATH; the cubin read with nvdisasm -g: scripts/ncu_lines.py run_map), instruction
by instruction (opcode and registers). Prints a line a target; exits 1 when one differs.

    python3 scripts/gpu-jit-sass.py 1 2 ... 11 heldout:NAME...
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_lines import run_map  # noqa: E402
from ncu_stalls_compare import alike, target  # noqa: E402


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
            cache = os.path.join(d, "jit")
            subprocess.run([binary, "run"] + flags + ["--lineinfo", "--size", "256"], capture_output=True,
                           env=dict(os.environ, CUDA_CACHE_PATH=cache))
            m = run_map(cache, js["entry"], nvd) or {}
        same = sum(1 for a, (_, s) in m.items() if alike(mine.get(a, ""), s))
        ok = m and same == len(m) == len(mine)
        bad += not ok
        print("%-24s run %4d  sass --jit %4d  alike %4d  %s" % (t, len(m), len(mine), same, "ok" if ok else "DIFFERENT"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
